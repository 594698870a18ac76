"""The command line: inputs (text, JSONL, saved datasets), options derived from RougeConfig, outputs,
errors with file and line, exit codes."""

import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rouge_metric import Rouge, RougeConfig, cli
from rouge_metric import config as config_mod
from rouge_metric.result import STATS, output_key

from clirun import DATA, REPO, lines, run


def test_readme_job_console_script_and_module():
    """The README's main job, through the console script and ``python -m``: same numbers as the API."""
    argv = ["score", "--predictions", "examples/data/predictions.txt", "--references",
            "examples/data/references.txt", "--references", "examples/data/references2.txt"]
    preds = lines("predictions.txt")
    refs = [list(r) for r in zip(lines("references.txt"), lines("references2.txt"))]
    want = Rouge().compute(predictions=preds, references=refs)
    exe = shutil.which("rouge-metric")
    cmds = [[sys.executable, "-m", "rouge_metric"]] + ([[exe]] if exe else [])
    for cmd in cmds:
        out = subprocess.run(cmd + argv, cwd=REPO, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == want.format_table()
        assert out.stderr == ""  # no progress bar when stderr is not a terminal
    js = subprocess.run(cmds[0] + argv + ["--json"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert json.loads(js.stdout) == want.as_json()


def test_bootstrap_table_has_intervals_and_signature(capsys):
    code, out, _ = run(["score", "--predictions", DATA / "predictions.txt", "--references",
                        DATA / "references.txt", "--bootstrap", "--n-resamples", "100", "--seed", "7",
                        "--use-stemmer", "--rouge-types", "rouge1", "rougeSU4"], capsys)
    assert code == 0
    want = Rouge(["rouge1", "rougeSU4"], use_stemmer=True, aggregation="bootstrap", n_resamples=100,
                 seed=7).compute(predictions=lines("predictions.txt"),
                                 references=lines("references.txt"))
    assert out.strip() == want.format_table()
    assert "[" in out and "seed=7" in out and "stem:porter" in out


def test_jsonl_same_file_str_and_list_references(tmp_path, capsys):
    rows = [{"pred": "the cat sat on the mat", "refs": ["a cat sat on a mat", "the cat"]},
            {"pred": "dogs run\nfast", "refs": "the dog runs fast"},
            {"pred": "", "refs": ["nothing here"]}]
    f = tmp_path / "data.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    per = tmp_path / "per.jsonl"
    code, out, _ = run(["score", "--predictions", f, "--prediction-field", "pred", "--references-field", "refs",
                        "--json", "--per-example", per, "--multi-ref", "mean"], capsys)
    assert code == 0
    preds = [r["pred"] for r in rows]
    refs = [r["refs"] for r in rows]
    rouge = Rouge(multi_ref="mean")
    assert json.loads(out) == rouge.compute(predictions=preds, references=refs).as_json()
    got = [json.loads(ln) for ln in per.read_text().splitlines()]
    for i, (row, ex) in enumerate(zip(got, rouge.score_examples(predictions=preds, references=refs))):
        assert row["index"] == i
        assert row == {"index": i, **{output_key(t, s): getattr(sc, s) for t, sc in ex.items() for s in STATS}}


def test_jsonl_predictions_with_text_and_jsonl_references(tmp_path, capsys):
    (tmp_path / "p.jsonl").write_text('{"prediction": "a b c"}\n{"prediction": "d e"}\n', encoding="utf-8")
    (tmp_path / "r.txt").write_text("a b\r\nd\r\n", encoding="utf-8")
    (tmp_path / "r2.jsonl").write_text('{"references": ["c", "x y"]}\n{"references": "e"}\n', encoding="utf-8")
    code, out, _ = run(["score", "--predictions", tmp_path / "p.jsonl", "--references", tmp_path / "r.txt",
                        "--references", tmp_path / "r2.jsonl", "--json", "--multi-ref", "pool"], capsys)
    assert code == 0
    want = Rouge(multi_ref="pool").compute(predictions=["a b c", "d e"],
                                           references=[["a b", "c", "x y"], ["d", "e"]])
    assert json.loads(out) == want.as_json()


def test_saved_dataset_and_dataset_dict(tmp_path, capsys):
    datasets = pytest.importorskip("datasets")
    data = {"prediction": ["the cat sat", "a dog barked"], "references": [["the cat sat down"], ["a dog"]]}
    ds = datasets.Dataset.from_dict(data)
    ds.save_to_disk(str(tmp_path / "ds"))
    datasets.DatasetDict({"test": ds, "train": ds.select([0])}).save_to_disk(str(tmp_path / "dd"))
    want = Rouge().compute(predictions=data["prediction"], references=data["references"]).as_json()
    code, out, _ = run(["score", "--predictions", tmp_path / "ds", "--json"], capsys)
    assert code == 0 and json.loads(out) == want
    code, out, _ = run(["score", "--predictions", tmp_path / "dd", "--split", "test", "--json"], capsys)
    assert code == 0 and json.loads(out) == want
    code, _, err = run(["score", "--predictions", tmp_path / "dd"], capsys)
    assert code == cli.EXIT_USAGE and "splits ['test', 'train']" in err
    code, _, err = run(["score", "--predictions", tmp_path / "ds", "--references-field", "refs"], capsys)
    assert code == cli.EXIT_FORMAT and "missing column 'refs'" in err


def test_every_config_field_has_an_option_with_config_choices(monkeypatch):
    parser = cli.build_parser()
    sub = parser._subparsers._group_actions[0].choices["score"]
    opts = {a.dest: a for a in sub._actions}
    params = list(inspect.signature(RougeConfig).parameters)
    assert params == list(RougeConfig._fields)
    for name in params:
        if name in cli.IDS_FIELDS:  # token-id settings: the command line reads texts (no --tokenizer ids)
            assert name not in opts, name
            continue
        assert name in opts, f"no command-line option for RougeConfig.{name}"
    assert opts["tokenizer"].choices == list(config_mod.TOKENIZERS)
    assert opts["multi_ref"].choices == list(config_mod.MULTI_REF_MODES)
    assert opts["sentence_splitter"].choices == list(config_mod.SENTENCE_SPLITTERS)
    # defaults give the default config
    args = parser.parse_args(["score", "--predictions", "x", "--references", "y"])
    assert cli.config_from_args(args) == RougeConfig()
    # a name added to a config tuple shows up without touching the CLI
    monkeypatch.setattr(config_mod, "TOKENIZERS", config_mod.TOKENIZERS + ("brand_new",))
    sub = cli.build_parser()._subparsers._group_actions[0].choices["score"]
    assert "brand_new" in {a.dest: a for a in sub._actions}["tokenizer"].choices


def test_options_reach_the_config():
    args = cli.build_parser().parse_args([
        "score", "--predictions", "x", "--references", "y", "--rouge-types", "rouge3", "rougeW",
        "--use-stemmer", "--tokenizer", "whitespace", "--multi-ref", "best_recall", "--alpha", "0.5",
        "--wlcs-weight", "1.5", "--aggregation", "bootstrap", "--n-resamples", "10", "--confidence-level", "0.9",
        "--seed", "3"])
    assert cli.config_from_args(args) == RougeConfig(
        rouge_types=("rouge3", "rougeW"), use_stemmer=True, tokenizer="whitespace", multi_ref="best_recall",
        alpha=0.5, wlcs_weight=1.5, aggregation="bootstrap", n_resamples=10, confidence_level=0.9, seed=3)


def _write(path: Path, data) -> Path:
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


@pytest.mark.parametrize("pred,ref,extra,code,message", [
    ("a\nb\n", None, ["--references", "{tmp}/nope.txt"], cli.EXIT_FILE, r"nope.txt: file not found"),
    ("a\nb\n", "a\n", [], cli.EXIT_MISALIGNED, r"ref.txt: 1 lines, but .*pred.txt has 2"),
    ("a\nb\n", b"ok\n\xff\xfe\n", [], cli.EXIT_FORMAT, r"ref.txt:2: invalid UTF-8 at column 1"),
    ("", "a\n", [], cli.EXIT_EMPTY, r"pred.txt: empty input"),
    ('{"prediction": "a", "references": "a"}\n{"prediction": "b", references}\n', None, ["--format", "jsonl"],
     cli.EXIT_FORMAT, r"pred.txt:2: invalid JSON"),
    ('{"prediction": "a", "references": "a"}\n{"text": "b"}\n', None, ["--format", "jsonl"],
     cli.EXIT_FORMAT, r"pred.txt:2: missing field 'prediction'; the object has fields \['text'\]"),
    ('{"prediction": "a", "references": [1]}\n', None, ["--format", "jsonl"],
     cli.EXIT_FORMAT, r"pred.txt:1: field 'references'\[0\]: expected a string, got int"),
    ('{"prediction": null, "references": "a"}\n', None, ["--format", "jsonl"],
     cli.EXIT_FORMAT, r"pred.txt:1: field 'prediction': expected a string, got null"),
    ('[1, 2]\n', None, ["--format", "jsonl"], cli.EXIT_FORMAT, r"pred.txt:1: expected a JSON object"),
    ("a\n", "a\n", ["--rouge-types", "rougeX"], cli.EXIT_USAGE, r"rouge_types: invalid rouge type 'rougeX'"),
    ("a\n", "a\n", ["--beta", "-1"], cli.EXIT_USAGE, r"beta: expected a finite number > 0"),
    ("a\n", None, [], cli.EXIT_USAGE, r"--references: required"),
    ("a\n", "a\n", ["--per-example", "{tmp}/no/such/dir/x.jsonl"], cli.EXIT_FILE, r"x.jsonl: cannot write"),
])
def test_errors_name_file_and_line(tmp_path, capsys, pred, ref, extra, code, message):
    argv = ["score", "--predictions", _write(tmp_path / "pred.txt", pred)]
    if ref is not None:
        argv += ["--references", _write(tmp_path / "ref.txt", ref)]
    argv += [a.format(tmp=tmp_path) for a in extra]
    got, out, err = run(argv, capsys)
    assert got == code, err
    assert out == ""
    assert err.startswith("rouge-metric: error: ")
    import re

    assert re.search(message, err), err


def test_directory_as_text_and_bad_choice(tmp_path, capsys):
    code, _, err = run(["score", "--predictions", tmp_path, "--references", tmp_path, "--format", "text"], capsys)
    assert code == cli.EXIT_FILE and "is a directory" in err
    with pytest.raises(SystemExit) as exc:
        cli.main(["score", "--predictions", "a", "--references", "b", "--multi-ref", "median"])
    assert exc.value.code == cli.EXIT_USAGE
    assert "invalid choice: 'median'" in capsys.readouterr().err


def test_progress_bar_only_on_a_terminal(tmp_path, capsys, monkeypatch):
    p = _write(tmp_path / "p.txt", "a b\n" * 50)
    argv = ["score", "--predictions", p, "--references", p]
    code, _, err = run(argv, capsys)
    assert code == 0 and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, _, err = run(argv, capsys)
    assert code == 0 and "rouge:" in err and "/50" in err
    code, _, err = run(argv + ["--quiet"], capsys)
    assert code == 0 and err == ""


def test_exit_codes_are_documented():
    doc = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    for code, meaning in cli.EXIT_CODES.items():
        assert f"| {code} |" in doc, f"exit code {code} ({meaning}) missing from docs/cli.md"
    assert "exit codes:" in cli.build_parser().format_help()


def test_missing_nltk_data_is_a_resource_error(tmp_path, capsys):
    from rouge_metric import text

    try:
        text.check_nltk_punkt()
        pytest.skip("nltk punkt data is installed here")
    except LookupError:
        pass
    p = _write(tmp_path / "p.txt", "a b\n")
    code, _, err = run(["score", "--predictions", p, "--references", p, "--sentence-splitter", "nltk",
                        "--rouge-types", "rougeLsum"], capsys)
    assert code == cli.EXIT_RESOURCE and "punkt" in err


def test_rouge155_preset_from_the_command_line(tmp_path, capsys, shared_dir):
    """--rouge155 OPTIONS gives the numbers of the Rouge155 preset (whose own tests compare it with
    the golden Perl output), -m reads the exception list from --exceptions."""
    from rouge_metric import Rouge155

    exc = shared_dir / "golden" / "wordnet-2.0-exceptions.tsv"
    preds = ["The cats were running home.", "Prices went up by 3.5 percent."]
    refs = ["A cat ran home quickly.", "Prices rose 3.5 percent, officials said."]
    p, r = tmp_path / "p.txt", tmp_path / "r.txt"
    p.write_text("\n".join(preds) + "\n", encoding="utf-8")
    r.write_text("\n".join(refs) + "\n", encoding="utf-8")
    code, out, _ = run(["score", "--predictions", str(p), "--references", str(r), "--json",
                        "--rouge155", "-n 2 -m -2 4 -u -a", "--exceptions", str(exc)], capsys)
    assert code == 0
    want = Rouge155.from_perl_options("-n 2 -m -2 4 -u -a", exceptions=str(exc)).compute(
        predictions=preds, references=refs)
    assert json.loads(out)["scores"] == json.loads(json.dumps(want.as_json()["scores"]))
    assert json.loads(out)["signature"].startswith("preset:rouge155|")
    code, _, err = run(["score", "--predictions", str(p), "--references", str(r), "--rouge155", "-n 2 -m"], capsys)
    assert code == cli.EXIT_USAGE and "--rouge155: -m needs --exceptions FILE" in err
    code, _, err = run(["score", "--predictions", str(p), "--references", str(r), "--exceptions", str(exc)], capsys)
    assert code == cli.EXIT_USAGE and "--exceptions: only used with --rouge155" in err


# ----------------------------------------------------------------------- newcomer edges
def test_missing_stopwords_file_is_a_file_error(capsys, tmp_path):
    for cmd in ("score", "explain"):
        code, out, err = run([cmd, "--predictions", DATA / "predictions.txt", "--references",
                              DATA / "references.txt", "--stopwords", tmp_path / "missing.txt"], capsys)
        assert code == cli.EXIT_FILE and out == ""
        assert err.startswith("rouge-metric: error: stopwords: cannot read the stopword file") and "Traceback" not in err


@pytest.mark.parametrize("digits", ["-3", "18", "x"])
def test_bad_digits_is_a_usage_error(capsys, digits):
    with pytest.raises(SystemExit) as exc:
        cli.main(["score", "--predictions", str(DATA / "predictions.txt"), "--references",
                  str(DATA / "references.txt"), "--digits", digits])
    assert exc.value.code == cli.EXIT_USAGE
    assert f"argument --digits: expected an integer from 0 to 17, got '{digits}'" in capsys.readouterr().err


def test_format_table_refuses_negative_digits():
    res = Rouge(["rouge1"]).compute(predictions=["a"], references=["a"])
    with pytest.raises(ValueError, match=r"digits: expected an integer from 0 to 17"):
        res.format_table(digits=-3)
    assert "100" in res.format_table(digits=0)


def test_beta_whose_square_overflows_is_a_usage_error_not_nan(capsys):
    code, out, err = run(["score", "--predictions", DATA / "predictions.txt", "--references",
                          DATA / "references.txt", "--beta", "1e200", "--json"], capsys)
    assert code == cli.EXIT_USAGE and "NaN" not in out and "beta: expected a finite number > 0" in err


@pytest.mark.parametrize("newlines", [1, 2, 3])
def test_a_file_of_empty_lines_holds_that_many_empty_examples(capsys, tmp_path, newlines):
    (tmp_path / "p.txt").write_text("\n" * newlines, encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat\n" * newlines, encoding="utf-8")
    code, out, err = run(["score", "--predictions", tmp_path / "p.txt", "--references", tmp_path / "r.txt",
                          "--json"], capsys)
    assert code == 0, err
    res = json.loads(out)
    assert res["n"] == newlines and res["scores"]["rouge1"]["fmeasure"] == 0.0 and res["pred_len"] == 0.0
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    code, _, err = run(["score", "--predictions", tmp_path / "empty.txt", "--references", tmp_path / "r.txt"],
                       capsys)
    assert code == cli.EXIT_EMPTY and "empty input (no lines)" in err


def test_explain_offers_no_corpus_aggregation_options():
    helptext = cli.build_parser()._subparsers._group_actions[0].choices["explain"].format_help()
    for opt in ("--bootstrap", "--aggregation", "--n-resamples", "--confidence-level", "--seed"):
        assert opt not in helptext, opt
    assert "--stopwords" in helptext and "--use-stemmer" in helptext
    score_help = cli.build_parser()._subparsers._group_actions[0].choices["score"].format_help()
    assert "--bootstrap" in score_help and "--n-resamples" in score_help


def test_stopwords_help_speaks_of_a_file():
    score_help = cli.build_parser()._subparsers._group_actions[0].choices["score"].format_help()
    text = " ".join(score_help.split())
    assert "--stopwords STOPWORDS a UTF-8 file with one word per line" in text and "iterable" not in text


# ----------------------------------------------------------------- one-line errors, stdin, offered options
def _subparser(name):
    return cli.build_parser()._subparsers._group_actions[0].choices[name]


@pytest.mark.parametrize("argv, where, what", [
    (["score", "--predictions", "p.txt", "--bogus"], "rouge-metric score", "unrecognized arguments: --bogus"),
    (["score", "--references", "r.txt"], "rouge-metric score", "the following arguments are required: --predictions"),
    (["score", "--predictions", "p", "--multi-ref", "median"], "rouge-metric score",
     "argument --multi-ref: invalid choice: 'median'"),
    (["compare", "--baseline", "b"], "rouge-metric compare", "the following arguments are required: --system"),
    (["nope"], "rouge-metric", "argument COMMAND: invalid choice: 'nope'"),
    ([], "rouge-metric", "the following arguments are required: COMMAND"),
])
def test_usage_errors_are_one_line_with_a_help_hint(capsys, argv, where, what):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    captured = capsys.readouterr()
    assert exc.value.code == cli.EXIT_USAGE and captured.out == ""
    assert captured.err.count("\n") == 1, captured.err  # one line, no usage block
    assert captured.err.startswith(f"{where}: error: {what}") and f"(see: {where} --help)" in captured.err


def test_dash_reads_standard_input(capsys, monkeypatch):
    """--predictions - / --references - read stdin (text, or JSONL with --format jsonl): the same result as
    the files; two '-' inputs are refused (stdin is read once)."""
    import io

    def stdin_of(path):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((DATA / path).read_bytes()), encoding="utf-8"))

    want = Rouge().compute(predictions=lines("predictions.txt"), references=lines("references.txt")).as_json()
    stdin_of("predictions.txt")
    code, out, err = run(["score", "--predictions", "-", "--references", DATA / "references.txt", "--json"], capsys)
    assert code == 0 and json.loads(out) == want, err
    stdin_of("references.txt")
    code, out, _ = run(["score", "--predictions", DATA / "predictions.txt", "--references", "-", "--json"], capsys)
    assert code == 0 and json.loads(out) == want
    rows = "".join(json.dumps({"prediction": p, "references": [r]}) + "\n"
                   for p, r in zip(lines("predictions.txt"), lines("references.txt")))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(rows.encode()), encoding="utf-8"))
    code, out, _ = run(["score", "--predictions", "-", "--format", "jsonl", "--json"], capsys)
    assert code == 0 and json.loads(out) == want
    code, out, err = run(["score", "--predictions", "-", "--references", "-"], capsys)
    assert code == cli.EXIT_USAGE and out == ""
    assert err == "rouge-metric: error: --predictions and --references: only one input can be '-' (standard input " \
                  "is read once)\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a\xff\n"), encoding="utf-8"))
    code, _, err = run(["score", "--predictions", "-", "--references", DATA / "references.txt"], capsys)
    assert code == cli.EXIT_FORMAT and err.startswith("rouge-metric: error: <stdin>:1: invalid UTF-8")


def test_split_messages_say_what_was_given(tmp_path, capsys):
    datasets = pytest.importorskip("datasets")
    ds = datasets.Dataset.from_dict({"prediction": ["a b"], "references": [["a b"]]})
    datasets.DatasetDict({"test": ds, "validation": ds}).save_to_disk(str(tmp_path / "dd"))
    ds.save_to_disk(str(tmp_path / "ds"))
    capsys.readouterr()  # datasets' progress bars
    code, _, err = run(["score", "--predictions", tmp_path / "dd", "--split", "train"], capsys)
    assert code == cli.EXIT_USAGE
    assert err == f"rouge-metric: error: --split train: {tmp_path / 'dd'} has no split 'train'; its splits are " \
                  "['test', 'validation']\n"
    code, _, err = run(["score", "--predictions", tmp_path / "dd"], capsys)
    assert code == cli.EXIT_USAGE and "choose one with --split" in err
    code, _, err = run(["score", "--predictions", tmp_path / "ds", "--split", "train"], capsys)
    assert code == cli.EXIT_USAGE and "--split train: " in err and "not a DatasetDict; drop --split" in err
    (tmp_path / "d.jsonl").write_text('{"document": "a b", "references": "a"}\n', encoding="utf-8")
    gen = ["generate-and-score", "--generator", "x:y", "--split", "train", "-q"]
    code, _, err = run(gen + ["--data", tmp_path / "dd"], capsys)
    assert code == cli.EXIT_USAGE and "--split train: " in err and "has no split 'train'" in err
    # --split with files only is refused, not ignored
    code, _, err = run(gen + ["--data", tmp_path / "d.jsonl"], capsys)
    assert code == cli.EXIT_USAGE and "--split train: only a saved DatasetDict has splits" in err
    code, _, err = run(["score", "--predictions", DATA / "predictions.txt", "--references", DATA / "references.txt",
                        "--split", "test"], capsys)
    assert code == cli.EXIT_USAGE and "--split test: only a saved DatasetDict has splits" in err


def test_rouge155_errors_name_the_command_line_options(capsys, tmp_path):
    base = ["score", "--predictions", DATA / "predictions.txt", "--references", DATA / "references.txt"]
    code, _, err = run(base + ["--rouge155", "-n 2 -m -a"], capsys)
    assert code == cli.EXIT_USAGE and "--rouge155: -m needs --exceptions FILE" in err and "see Rouge155" not in err
    code, _, err = run(base + ["--rouge155", "-n 2 -s -a"], capsys)
    assert code == cli.EXIT_USAGE and "--rouge155: -s needs --stopwords FILE" in err
    # the scoring options --rouge155 replaces are refused, not ignored
    code, _, err = run(base + ["--rouge155", "-n 2 -a", "--use-stemmer", "--rouge-types", "rouge1"], capsys)
    assert code == cli.EXIT_USAGE
    assert err.startswith("rouge-metric: error: --rouge-types, --use-stemmer: --rouge155 takes its settings from")
    code, _, err = run(base + ["--rouge155", "-n 2 -a", "--bootstrap"], capsys)
    assert code == cli.EXIT_USAGE and "--aggregation: --rouge155 takes" in err
    code, out, _ = run(base + ["--rouge155", "-n 2 -a", "--json"], capsys)
    assert code == 0 and json.loads(out)["signature"].startswith("preset:rouge155|types:rouge1,rouge2,rougeLsum")


def test_subcommands_offer_only_options_that_work():
    """The command line reads texts: --tokenizer has no 'ids', so no subcommand offers --ignore-ids /
    --sentence-ids; compare takes no --aggregation/--bootstrap; explain no corpus aggregation."""
    for name in ("score", "explain", "compare", "generate-and-score"):
        helptext = _subparser(name).format_help()
        assert "--ignore-ids" not in helptext and "--sentence-ids" not in helptext, name
        assert "ids" not in {a.dest: a for a in _subparser(name)._actions}["tokenizer"].choices
    assert "--bootstrap" in _subparser("generate-and-score").format_help()


def test_model_that_is_not_a_folder_is_one_line_exit_3(tmp_path, capsys):
    (tmp_path / "d.jsonl").write_text('{"document": "a b", "references": "a"}\n', encoding="utf-8")
    for name in ("./nope", str(tmp_path / "nope"), "~/surely-not-a-model-folder-24"):
        code, out, err = run(["generate-and-score", "--data", tmp_path / "d.jsonl", "--model", name, "-q"], capsys)
        assert (code, out) == (cli.EXIT_FILE, "")
        assert err == f"rouge-metric: error: --model: {name}: no such folder (give a transformers model folder, " \
                      "or a Hub model name such as google-t5/t5-small)\n"
    (tmp_path / "empty").mkdir()  # a folder without a model: transformers' OSError, in one line
    pytest.importorskip("transformers")
    code, _, err = run(["generate-and-score", "--data", tmp_path / "d.jsonl", "--model", tmp_path / "empty"], capsys)
    assert code == cli.EXIT_FILE and err.count("\n") == 1
    assert err.startswith(f"rouge-metric: error: --model: cannot load '{tmp_path / 'empty'}': ")


# ------------------------------------------------------------------------------- a plain directory
@pytest.mark.parametrize("datasets_installed", [True, False])
def test_plain_directory_is_named_as_one(tmp_path, capsys, monkeypatch, datasets_installed):
    """A directory that holds no saved dataset is reported as such (exit 3), whether or not datasets is
    installed: it is not asked for before the folder is known to be a saved dataset."""
    import sys

    folder = tmp_path / "outputs"
    folder.mkdir()
    (folder / "preds.txt").write_text("a\n", encoding="utf-8")
    if not datasets_installed:
        monkeypatch.setitem(sys.modules, "datasets", None)  # import datasets raises ImportError
    code, out, err = run(["score", "--predictions", folder, "--references", folder / "preds.txt"], capsys)
    assert (code, out) == (cli.EXIT_FILE, "")
    assert err == (f"rouge-metric: error: {folder}: is a directory, but not a dataset saved with save_to_disk (it "
                   "has no state.json or dataset_dict.json); expected a text or JSONL file, or a saved dataset "
                   "folder\n")
    assert "needs datasets" not in err
    code, _, err = run(["generate-and-score", "--data", folder, "--generator", "m:f"], capsys)
    assert code == cli.EXIT_FILE and f"{folder}: is a directory, but not a dataset saved with save_to_disk" in err
    assert err.rstrip().endswith("expected a JSONL file or a dataset folder saved with save_to_disk")


# ------------------------------------------------------------------------------------------ Ctrl-C
def test_interrupt_returns_130_in_process_and_exits_at_once_as_a_program(tmp_path, capsys, monkeypatch):
    """main() returns 130 after Ctrl-C; the console script (exit_on_interrupt) ends the process at once
    (os._exit) once the interrupt has closed the output files on its way out."""
    import rouge_metric.cli.app as app

    pred = _write(tmp_path / "p.txt", "a\nb\n")

    def interrupted(self, acc, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Rouge, "add_to", interrupted)
    argv = ["score", "--predictions", pred, "--references", pred, "--per-example", tmp_path / "rows.jsonl"]
    assert run(argv, capsys) == (cli.EXIT_INTERRUPTED, "", "rouge-metric: interrupted\n")
    exits = []

    def fake_exit(code):
        exits.append((code, (tmp_path / "rows.jsonl").exists()))
        raise SystemExit(code)

    monkeypatch.setattr(app.os, "_exit", fake_exit)
    with pytest.raises(SystemExit):
        cli.main([str(a) for a in argv], exit_on_interrupt=True)
    assert exits == [(cli.EXIT_INTERRUPTED, True)]
    assert capsys.readouterr().err == "rouge-metric: interrupted\n"


CTRL_C_DELAY = 1.5  # seconds of scoring before the SIGINT


def _time_to_exit(cmd, env):
    import signal
    import time

    # The child starts with SIGINT's default action, as in a terminal: a parent that ignores SIGINT (a
    # background job of a shell without job control) passes that on, and Python then installs no
    # KeyboardInterrupt handler. The wrapper resets it and execs the command (cmd[0] is sys.executable).
    assert cmd[0] == sys.executable
    reset = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
             "os.execv(sys.executable, [sys.executable] + sys.argv[1:])")
    proc = subprocess.Popen([sys.executable, "-c", reset, *cmd[1:]], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    time.sleep(CTRL_C_DELAY)
    assert proc.poll() is None, "finished before the interrupt: make the input larger"
    start = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    return time.perf_counter() - start, proc.returncode, proc.stderr.read().decode()


@pytest.mark.integration
def test_ctrl_c_ends_a_long_run_as_fast_as_the_api(tmp_path):
    """SIGINT during a long ``python -m rouge_metric score``: exit 130 with one line, no traceback, and no
    slower than the same scoring through the API (median of three runs each)."""
    import random
    import statistics

    rng = random.Random(0)
    words = [f"w{i}" for i in range(2000)]
    for name in ("p.txt", "r.txt"):
        with open(tmp_path / name, "w", encoding="utf-8") as fh:
            for _ in range(200_000):
                fh.write(" ".join(rng.choices(words, k=30)) + "\n")
    env = {**os.environ, "ROUGE_METRIC_BACKEND": "python"}  # slow enough to be interrupted mid-scoring
    p, r = str(tmp_path / "p.txt"), str(tmp_path / "r.txt")
    cli_cmd = [sys.executable, "-m", "rouge_metric", "score", "--predictions", p, "--references", r, "-q"]
    api_cmd = [sys.executable, "-c", "import rouge_metric\nrd = lambda f: open(f, encoding='utf-8').read().split('\\n')[:-1]\n"
               f"rouge_metric.compute(predictions=rd({p!r}), references=rd({r!r}))"]
    cli_times, api_times = [], []
    for _ in range(3):
        seconds, code, err = _time_to_exit(cli_cmd, env)
        assert code == cli.EXIT_INTERRUPTED and err == "rouge-metric: interrupted\n", err
        cli_times.append(seconds)
        seconds, code, err = _time_to_exit(api_cmd, env)
        assert "KeyboardInterrupt" in err
        api_times.append(seconds)
    assert statistics.median(cli_times) <= statistics.median(api_times) + 0.25, (cli_times, api_times)
