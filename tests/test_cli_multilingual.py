"""The command line's --recipe xlsum, --lang and word segmenters: XL-Sum's own numbers on real texts, in every
subcommand that takes the scoring options; refusals, warnings and segmenter errors as one line with an exit
code."""

from __future__ import annotations

import json
import warnings

import pytest

from clirun import run
from multilingual_cases import case, mean_f, segmenter_oracle, xlsum_oracle
from rouge_metric import cli, segment

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _jsonl(tmp_path, preds, refs):
    f = tmp_path / "data.jsonl"
    f.write_text("".join(json.dumps({"prediction": p, "references": r}, ensure_ascii=False) + "\n"
                         for p, r in zip(preds, refs)), encoding="utf-8")
    return f


@pytest.mark.parametrize("name", ["zh", "ja", "th", "fr"])
def test_score_with_the_xlsum_recipe_is_xlsums_scorer(name, tmp_path, capsys):
    lang, _, preds, refs = case(name, recipe=True)
    per = tmp_path / "per.jsonl"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code, out, err = run(["score", "--predictions", _jsonl(tmp_path, preds, refs), "--recipe", "xlsum", "--lang",
                              lang, "--json", "--per-example", per, "-q"], capsys)
    assert code == 0, err
    oracle = xlsum_oracle(TYPES, False, lang, preds, refs)
    got = json.loads(out)
    assert {t: got["scores"][t]["fmeasure"] for t in TYPES} == {t: mean_f(oracle, t) for t in TYPES}
    rows = [json.loads(line) for line in per.read_text(encoding="utf-8").splitlines()]
    assert [[r[t] for t in TYPES] for r in rows] == [[s[t].fmeasure for t in TYPES] for s in oracle]
    assert f"tok:xlsum(lang={lang}," in got["signature"]


@pytest.mark.parametrize("name", ["zh", "ja", "th"])
def test_score_with_a_segmenting_tokenizer(name, tmp_path, capsys):
    _, seg, preds, refs = case(name, recipe=False)
    types = ["rouge1", "rouge2", "rougeL"]
    code, out, err = run(["score", "--predictions", _jsonl(tmp_path, preds, refs), "--tokenizer", seg,
                          "--rouge-types", *types, "--json", "-q"], capsys)
    assert code == 0, err
    oracle = segmenter_oracle(types, seg, preds, refs)
    assert {t: json.loads(out)["scores"][t]["fmeasure"] for t in types} == {t: mean_f(oracle, t) for t in types}


def test_explain_and_compare_take_the_recipe(tmp_path, capsys):
    lang, _, preds, refs = case("zh", recipe=True)
    oracle = xlsum_oracle(["rouge1"], False, lang, preds[:1], refs[:1])[0]["rouge1"]
    code, out, err = run(["explain", "--prediction", preds[0], "--reference", refs[0], "--recipe", "xlsum",
                          "--lang", lang, "--rouge-types", "rouge1", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["combined"]["rouge1"]["fmeasure"] == oracle.fmeasure
    base, system, ref = (tmp_path / n for n in ("base.txt", "sys.txt", "ref.txt"))
    base.write_text("\n".join(refs) + "\n", encoding="utf-8")
    system.write_text("\n".join(preds) + "\n", encoding="utf-8")
    ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
    code, out, err = run(["compare", "--baseline", base, "--system", system, "--references", ref, "--recipe",
                          "xlsum", "--lang", lang, "--rouge-types", "rouge1", "--n-resamples", "50", "--json", "-q"],
                         capsys)
    assert code == 0, err
    got = json.loads(out)[str(system)]["rouge1"]["fmeasure"]
    assert got["system"] == mean_f(xlsum_oracle(["rouge1"], False, lang, preds, refs), "rouge1")
    assert got["baseline"] == 1.0


@pytest.mark.parametrize("argv,match", [
    (["--lang", "chinese"], r"--lang chinese: a language of --recipe xlsum"),
    (["--recipe", "xlsum", "--tokenizer", "jieba"], r"--tokenizer jieba: not a setting of --recipe xlsum"),
    (["--recipe", "xlsum", "--sentence-splitter", "nltk"], r"--sentence-splitter nltk: not a setting of --recipe xlsum"),
    (["--recipe", "xlsum", "--use-stemmer", "porter"], r"--use-stemmer porter: --recipe xlsum stems with the stemmer "
                                                       r"of --lang"),
    (["--recipe", "xlsum", "--rouge155", "-n 2"], r"--recipe: --rouge155 takes its settings"),
])
def test_what_the_recipe_cannot_honour_is_a_usage_error(argv, match, tmp_path, capsys):
    f = _jsonl(tmp_path, ["a b"], ["a"])
    code, _, err = run(["score", "--predictions", f, *argv], capsys)
    assert code == cli.EXIT_USAGE
    assert err.startswith("rouge-metric: error: ") and len(err.strip().splitlines()) == 1
    import re

    assert re.search(match, err), err


def test_unknown_recipe_names_the_choices(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        run(["score", "--predictions", _jsonl(tmp_path, ["a"], ["a"]), "--recipe", "xl-sum"], capsys)
    assert info.value.code == cli.EXIT_USAGE
    assert "invalid choice: 'xl-sum' (choose from 'default', 'xlsum')" in capsys.readouterr().err


def test_unknown_language_is_one_warning_line_and_xlsums_numbers(tmp_path, capsys):
    pytest.importorskip("pyonmttok")
    pytest.importorskip("multilingual_rouge")
    preds, refs = ["running dogs 中文"], ["the dog runs 中文"]
    code, out, err = run(["score", "--predictions", _jsonl(tmp_path, preds, refs), "--recipe", "xlsum", "--lang",
                          "klingon-cli", "--json", "--rouge-types", "rouge1"], capsys)
    assert code == 0
    assert err.startswith("rouge-metric: warning: lang='klingon-cli': not a language of XL-Sum's scorer")
    assert len(err.strip().splitlines()) == 1 and "chinese" in err
    oracle = xlsum_oracle(["rouge1"], False, "klingon-cli", preds, refs)
    assert json.loads(out)["scores"]["rouge1"]["fmeasure"] == oracle[0]["rouge1"].fmeasure


def test_segmenter_failure_is_an_input_error_naming_the_index(tmp_path, capsys, monkeypatch):
    seg = segment.raw_segmenter("burmese_syllables")
    real = seg.fn
    monkeypatch.setattr(seg, "_fn", lambda t: (_ for _ in ()).throw(RuntimeError("bad")) if "boom" in t else real(t))
    seg.clear_cache()
    code, _, err = run(["score", "--predictions", _jsonl(tmp_path, ["a", "b", "c"], ["a", "b", ["x", "boom"]]),
                        "--tokenizer", "burmese_syllables"], capsys)
    seg.clear_cache()
    assert code == cli.EXIT_FORMAT
    assert err.startswith("rouge-metric: error: references[2][1]: tokenizer='burmese_syllables': the segmenter "
                          "failed on the text 'boom'")


def test_missing_segmenter_is_a_resource_error_naming_package_and_extra(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pythainlp", None)
    monkeypatch.setitem(sys.modules, "pythainlp.tokenize", None)
    monkeypatch.setattr(segment.raw_segmenter("thai_newmm"), "_fn", None)
    code, _, err = run(["score", "--predictions", _jsonl(tmp_path, ["a"], ["a"]), "--tokenizer", "thai_newmm"], capsys)
    assert code == cli.EXIT_RESOURCE
    assert "tokenizer='thai_newmm' needs the package 'pythainlp'" in err and "'multilingual' extra" in err


def test_recipe_options_are_declared_once_and_offered_with_the_scoring_options():
    parser = cli.build_parser()
    subs = parser._subparsers._group_actions[0].choices
    for command in ("score", "explain", "compare", "generate-and-score"):
        opts = {a.dest: a for a in subs[command]._actions}
        assert opts["recipe"].choices == ["default", "xlsum"] and opts["lang"].default is None, command
    from rouge_metric.cli.options import RECIPE_METADATA

    assert set(RECIPE_METADATA) == {"recipe", "lang"}
    args = parser.parse_args(["score", "--predictions", "x", "--references", "y"])
    assert cli.config_from_args(args) == cli.config_from_args(
        parser.parse_args(["score", "--predictions", "x", "--references", "y", "--recipe", "default"]))
