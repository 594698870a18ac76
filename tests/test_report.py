"""The HTML report without a browser: its numbers are the library's (corpus results with bootstrap
intervals, compare's paired tests), its content, the escaping of user text, the size rule, the errors
(Python API and the CLI's files), and the notebook views (``_repr_html_``). The page in Chromium is
tests/test_report_browser.py, the notebook executed by a kernel tests/test_report_notebook.py.

One file of about 470 lines: every test here builds pages through the one public call and reads them with
the same helpers and fixtures (the data blocks, the decoded explanations, a two-system report built once),
in the fast tier; splitting it would copy those helpers."""

import base64
import gzip
import html
import json
import re
import sys

import pytest

pytest.importorskip("matplotlib", reason="the report's charts need matplotlib (the [report] extra)")

from rouge_metric import Rouge, compare, compute  # noqa: E402
from rouge_metric.explain import explain, explanation_html  # noqa: E402
from rouge_metric.report import Report, report  # noqa: E402
from rouge_metric.report import cli as report_cli  # noqa: E402
from rouge_metric.report import page, stats  # noqa: E402

REFS = ["the cat sat on the mat", "a dog barked at the mailman", "birds sing in the morning",
        "it rained all day long", "the market fell sharply on monday", "she won the race easily",
        "the river flooded the town", "he painted the fence white"]
BASE = ["the cat sat", "a dog barked", "birds sing", "it rained", "the market fell", "she won", "the river rose",
        "he painted it"]
LONGER = ["the cat sat on a mat", "a dog barked at the man", "birds sing in the trees", "it rained all day",
          "markets fell on monday", "she easily won the race", "the town flooded", "he painted the white fence"]
HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</script><script>alert(2)</script>",
           "javascript:alert(3)", "<!-- x", "\u2028\u2029 & <b>bold</b>"]
TYPES = ["rouge1", "rouge2", "rougeL"]


@pytest.fixture(scope="module")
def two():
    return report(BASE, REFS, systems={"longer": LONGER}, rouge_types=TYPES, seed=3, n_resamples=200,
                  test_resamples=200)


def _json_blocks(doc):
    return {m.group(1): m.group(2) for m in re.finditer(
        r'<script type="application/(?:json|octet-stream)" id="([^"]+)">(.*?)</script>', doc, re.S)}


def _explanations(doc):
    blob = _json_blocks(doc)["rm-explanations"]
    return json.loads(gzip.decompress(base64.b64decode(blob)).decode("utf-8"))


# ------------------------------------------------------------------------------------------ numbers
def test_corpus_results_are_the_scorers_with_bootstrap_intervals(two):
    for name, preds in (("baseline", BASE), ("longer", LONGER)):
        want = compute(predictions=preds, references=REFS, rouge_types=TYPES, aggregation="bootstrap", seed=3,
                       n_resamples=200)
        got = two.results[name]
        assert got.scores == want.scores and got.ci == want.ci and got.signature == want.signature


def test_paired_tests_are_compares(two):
    for method in ("paired_bootstrap", "approximate_randomization"):
        want = compare(baseline=BASE, systems={"longer": LONGER}, references=REFS, rouge_types=TYPES,
                       method=method, n_resamples=200, ci_resamples=200, seed=3)
        got = two.comparisons[method]
        assert got.comparisons == want.comparisons
        assert got.exact == want.exact and got.signature == want.signature


def test_wins_ties_losses_and_largest_changes(two):
    d = two.data
    f_base = [s["rouge1"].fmeasure for s in Rouge(TYPES).score_examples(predictions=BASE, references=REFS)]
    f_long = [s["rouge1"].fmeasure for s in Rouge(TYPES).score_examples(predictions=LONGER, references=REFS)]
    delta = [b - a for a, b in zip(f_base, f_long)]
    assert d.wins["longer"]["rouge1"] == (sum(x > 0 for x in delta), sum(x == 0 for x in delta),
                                          sum(x < 0 for x in delta))
    assert d.gains["longer"][0] == max(range(len(delta)), key=lambda i: (delta[i], -i))
    assert all(delta[i] > 0 for i in d.gains["longer"]) and all(delta[i] < 0 for i in d.losses["longer"])


def test_length_statistics():
    assert stats.ranks([3, 1, 3, 2]).tolist() == [3.5, 1.0, 3.5, 2.0]
    assert stats.pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert stats.pearson([1, 1, 1], [1, 2, 3]) is None
    assert stats.spearman([1, 2, 3, 4], [1, 4, 9, 16]) == pytest.approx(1.0)
    scipy_stats = pytest.importorskip("scipy.stats")
    import numpy as np

    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 20, 300).astype(float), rng.random(300)
    assert stats.pearson(x, y) == pytest.approx(scipy_stats.pearsonr(x, y)[0], abs=1e-12)
    assert stats.spearman(x, y) == pytest.approx(scipy_stats.spearmanr(x, y)[0], abs=1e-12)
    ratio = stats.length_ratio([5, 10, 3], [10, 5, 0])
    assert ratio[:2].tolist() == [0.5, 2.0] and np.isnan(ratio[2])
    rows = stats.ratio_buckets(ratio, {"rouge1": [0.2, 0.4, 0.9]})
    assert [(label, count) for label, count, _ in rows if count] == [("0.5–0.75", 1), ("≥ 2", 1)]


def test_length_note_threshold_and_small_corpora():
    c = stats.Correlation(0.6, 0.5, 0.1, 0.1)
    flagged, text = stats.length_note({"s": {"rouge1": c}}, n=100)
    assert flagged and "36%" in text and "0.25" in text
    flagged, text = stats.length_note({"s": {"rouge1": stats.Correlation(0.3, 0.3, 0.2, 0.2)}}, n=100)
    assert not flagged and "9%" in text
    flagged, text = stats.length_note({"s": {"rouge1": c}}, n=10)
    assert not flagged and "Too few examples" in text


def test_longer_predictions_raise_the_note():
    refs = [" ".join(f"w{(i + k) % 50}" for k in range(20)) for i in range(60)]
    preds = [" ".join(r.split()[: 2 + i % 18]) for i, r in enumerate(refs)]  # recall grows with length
    rep = report(preds, refs, rouge_types=["rouge1"], n_resamples=50)
    assert rep.data.length_flagged
    assert 'class="rm-flag" id="rm-length-note"' in rep.html()


# ------------------------------------------------------------------------------------------ content
def test_page_has_every_section_and_chart(two):
    doc = two.html()
    assert doc.startswith("<!DOCTYPE html>")
    for sec in ("corpus", "distributions", "length", "systems", "examples"):
        assert f'<section id="{sec}">' in doc
    for chart in ("distributions", "lengths", "score-vs-length", "deltas"):
        assert re.search(rf'<figure data-chart="{chart}"><svg[^>]*class="rm-chart"', doc), chart
    assert two.data.rouge.signature() in doc and "version" in doc and "reproduce" in doc
    assert "from rouge_metric.report import report; report(predictions, references, systems={...}" in doc
    assert "seed=3" in doc and "p (approx. randomization)" in doc and "wins / ties / losses" in doc
    assert 'id="rm-correlations"' in doc and 'class="rm-t rm-buckets"' in doc


def test_single_system_has_no_comparison():
    rep = report(BASE, REFS, rouge_types=["rouge1"], n_resamples=50)
    assert rep.comparisons == {} and '<section id="systems">' not in rep.html()
    assert rep.data.names == ["predictions"]


def test_nothing_is_fetched(two):
    doc = two.html()
    assert not re.search(r'\b(?:src|href)\s*=\s*"(?!#)', doc)  # only in-page anchors
    assert not re.search(r"url\((?!#)", doc)  # only in-page references (the charts' clip paths)
    for needle in ("http://", "https://", "@import", "fetch(", "XMLHttpRequest", "<link", "<img", "<iframe"):
        assert needle not in doc.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
            'xmlns:xlink="http://www.w3.org/1999/xlink"', ""), needle
    assert "default-src 'none'" in doc


def test_examples_data_and_explanations_are_the_explain_renderer(two):
    doc = two.html()
    data = json.loads(_json_blocks(doc)["rm-data"])
    assert data["systems"] == ["baseline", "longer"] and len(data["rows"]) == len(REFS)
    row = data["rows"][2]
    assert row["p"] == [BASE[2], LONGER[2]] and row["r"] == [REFS[2]]
    assert row["s"][1][0] == pytest.approx(compute(predictions=[LONGER[2]], references=[REFS[2]],
                                                   rouge_types=TYPES).scores["rouge1"].fmeasure)
    frags = _explanations(doc)
    want = explanation_html(explain(prediction=LONGER[2], references=[REFS[2]], rouge_types=TYPES, seed=3,
                                    n_resamples=200, aggregation="bootstrap"), css=False)
    assert frags[2][1] == want


def test_hostile_text_is_escaped_everywhere():
    refs = REFS[:len(HOSTILE)]
    preds = [h + " the cat" for h in HOSTILE]
    name = '<script>alert("name")</script>'
    rep = report(preds, [[r, h] for r, h in zip(refs, HOSTILE)], systems={name: list(reversed(preds))},
                 rouge_types=["rouge1"], n_resamples=20, test_resamples=20, title="<b>t</b>")
    doc = rep.html()
    # the only script elements are the page's own: two data blocks and the script
    assert len(re.findall(r"<script", doc, re.I)) == 3
    body = re.sub(r"<script[^>]*>.*?</script>", "", doc, flags=re.S)
    assert "<img" not in body and "<b>t</b>" not in body and "<script>alert" not in body
    assert "&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;" in body
    data_block = _json_blocks(doc)["rm-data"]
    assert "<" not in data_block and ">" not in data_block and "&" not in data_block
    assert "\u2028" not in data_block and "\u2029" not in data_block
    assert json.loads(data_block)["systems"][1] == name
    for frags in _explanations(doc):
        for frag in frags:
            assert "<script" not in frag and "<img" not in frag and "onerror=" not in frag.replace("onerror=alert", "")


def test_script_json_escapes_the_script_context():
    s = page.script_json({"a": "</script><!--\u2028\u2029&"})
    assert s == '{"a":"\\u003c/script\\u003e\\u003c!--\\u2028\\u2029\\u0026"}'
    assert json.loads(s) == {"a": "</script><!--\u2028\u2029&"}


def test_huge_texts_are_cut_in_the_display_not_in_the_scores():
    big = "the cat sat " * 3000  # 36,000 characters
    rep = report([big, "a dog"], ["the cat sat on the mat", "a dog barked"], rouge_types=["rouge1"], n_resamples=20)
    data = json.loads(_json_blocks(rep.html())["rm-data"])
    row = data["rows"][0]
    assert len(row["p"][0]) == page.TEXT_CHARS + 1 and row["p"][0].endswith("…") and row["cut"]
    assert row["x"] == [1]  # no explanation: the text is over EXPLAIN_MAX_CHARS
    want = compute(predictions=[big], references=["the cat sat on the mat"], rouge_types=["rouge1"])
    assert row["s"][0][0] == want.scores["rouge1"].fmeasure
    assert "cut in this display (the scores use the full texts)" in rep.html()


def test_large_corpora_keep_a_seeded_sample():
    n = 1200
    refs = [f"w{i % 97} w{i % 13} w{i % 7}" for i in range(n)]
    preds = [f"w{i % 13} w{i % 7} w{i % 5}" for i in range(n)]
    rep = report(preds, refs, rouge_types=["rouge1"], n_resamples=20, max_examples=50, seed=5)
    import numpy as np

    assert rep.kept == sorted(np.random.default_rng(5).choice(n, 50, replace=False).tolist())
    assert "a seeded sample of 50 (numpy.random.default_rng(5).choice(n, 50, replace=False))" in rep.html()
    again = report(preds, refs, rouge_types=["rouge1"], n_resamples=20, max_examples=50, seed=5)
    assert again.kept == rep.kept


def test_explained_examples_rule():
    """Beyond explain_examples rows, the file embeds the explanations of the largest gains and losses, the
    lowest and highest first-type F of every system in the table, and a seeded sample of the other rows."""
    import numpy as np

    n = 400
    refs = [f"a{i} b{i % 7} c{i % 5} d{i % 3}" for i in range(n)]
    base = [f"a{i} b{i % 7} x" if i % 3 else f"a{i} y" for i in range(n)]
    other = [f"a{i} b{i % 7} c{i % 5}" if i % 4 else f"z{i}" for i in range(n)]
    rep = report(base, refs, systems={"B": other}, rouge_types=["rouge1"], n_resamples=20, test_resamples=20,
                 max_examples=200, explain_examples=60, seed=4)
    d, keep = rep.data, np.asarray(rep.kept)
    chosen = page.explained_examples(d, rep.kept, 60, 4)
    assert len(chosen) == 60 and set(chosen) <= set(rep.kept)
    must = set(d.gains["B"]) | set(d.losses["B"])
    for nm in d.names:
        f = d.systems[nm].f("rouge1")[keep]
        must |= set(keep[np.argsort(f, kind="stable")[:page.EXPLAIN_EXTREMES]].tolist())
        must |= set(keep[np.argsort(-f, kind="stable")[:page.EXPLAIN_EXTREMES]].tolist())
    assert must <= set(chosen)
    rest = [i for i in rep.kept if i not in must]
    sampled = np.random.default_rng(4).choice(np.asarray(rest), size=60 - len(must), replace=False).tolist()
    assert sorted(must | set(sampled)) == chosen
    data = json.loads(_json_blocks(rep.html())["rm-data"])
    frags = _explanations(rep.html())
    for row in data["rows"]:
        if row["i"] in chosen:
            assert row["x"] == [0, 0] and all(frags[row["k"]])
        else:
            assert row["x"] == [3, 3] and frags[row["k"]] == [None, None]
    assert rep.explained == 2 * 60 and rep.counts["not_chosen"] == 2 * (len(rep.kept) - 60)
    assert "Explanations are embedded for 60 examples of the table" in rep.html()
    assert "numpy.random.default_rng(4).choice(rest, k, replace=False)" in data["explainRule"]
    none = report(base[:20], refs[:20], rouge_types=["rouge1"], n_resamples=20, explain_examples=0)
    assert none.explained == 0 and 'id="rm-explanations"' not in none.html()
    assert "No explanation is embedded (explain_examples=0)." in none.html()


def test_small_tables_explain_every_example(two):
    assert two.explained == 2 * len(REFS) and two.counts["not_chosen"] == 0
    assert "rows marked" not in two.html().split('<section id="examples">')[1].split("<script")[0]


def test_largest_changes_are_always_in_the_table():
    n = 300
    refs = [f"a{i} b{i} c{i} d{i}" for i in range(n)]
    base = [f"a{i} x" for i in range(n)]
    other = [f"a{i} b{i} c{i}" if i % 37 == 0 else f"a{i} y" for i in range(n)]
    rep = report(base, refs, systems={"B": other}, rouge_types=["rouge1"], n_resamples=20, test_resamples=20,
                 max_examples=10)
    assert set(rep.data.gains["B"]) <= set(rep.kept)
    assert len(rep.kept) <= 10 + 2 * 10


def test_correlations_of_every_type_are_the_one_type_correlations():
    import numpy as np

    rng = np.random.default_rng(1)
    f = {t: rng.random(500).round(2) for t in ("rouge1", "rougeL")}
    pred_len = rng.integers(1, 40, 500).astype(float)
    for ref_len in (rng.integers(1, 40, 500), np.where(rng.random(500) < 0.1, 0, rng.integers(1, 40, 500))):
        ratio = stats.length_ratio(pred_len, ref_len)
        got = stats.correlations(f, pred_len, ratio)
        for t, x in f.items():
            ok = np.isfinite(ratio)
            want = stats.Correlation(stats.pearson(x, pred_len), stats.spearman(x, pred_len),
                                     stats.pearson(x[ok], ratio[ok]), stats.spearman(x[ok], ratio[ok]))
            assert got[t] == want and stats.correlation(x, pred_len, ratio) == want


def test_fingerprint_hashes_length_prefixed_utf8():
    import hashlib

    from rouge_metric.report.build import fingerprint

    names, refs = ["a", "b"], [["x y", "é"], ["z"]] * 3000
    preds = {"a": ["p q"] * 6000, "b": ["r\u2028"] * 6000}
    h = hashlib.sha256()
    for rs in refs:
        h.update(len(rs).to_bytes(4, "little"))
        for r in rs:
            h.update(len(r.encode()).to_bytes(8, "little") + r.encode())
    for nm in names:
        h.update(len(nm.encode()).to_bytes(8, "little") + nm.encode())
        for p in preds[nm]:
            h.update(len(p.encode()).to_bytes(8, "little") + p.encode())
    assert fingerprint(names, preds, refs) == h.hexdigest()[:16]


def test_size_rule_of_the_text_budget():
    assert page.text_chars(500, 3) == page.TEXT_CHARS
    assert page.text_chars(2000, 6) == 250 and page.text_chars(10 ** 6, 6) == 200


# ------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("kwargs, error, message", [
    (dict(predictions=BASE[:3], references=REFS), ValueError, "predictions: 3 predictions, but references has 8"),
    (dict(predictions=BASE, references=REFS, systems={"B": LONGER[:5]}), ValueError,
     "systems['B']: 5 predictions, but references has 8"),
    (dict(predictions=[], references=[]), ValueError, "references: no examples (empty corpus)"),
    (dict(predictions=None, references=REFS), ValueError, "predictions: none given"),
    (dict(predictions=BASE, references=REFS, systems=[("B", LONGER), ("B", BASE)]), ValueError,
     "systems[1]: system name 'B' given twice (also systems[0])"),
    (dict(predictions=BASE, references=REFS, systems={"baseline": LONGER}), ValueError,
     "systems[0]: system name 'baseline' given twice (also name)"),
    (dict(predictions=BASE[:7] + [None], references=REFS), TypeError, "predictions[7]: expected str, got None"),
    (dict(predictions=BASE, references=REFS[:7] + [[]]), ValueError, "references[7]: empty list of references"),
    (dict(predictions=BASE, references=REFS, systems={"B": LONGER[:2] + [3] + LONGER[3:]}), TypeError,
     "systems['B'][2]: expected str, got int"),
    (dict(predictions=BASE, references=REFS, aggregation="mean"), ValueError, "aggregation: a report always"),
    (dict(predictions=BASE, references=REFS, max_examples=0), ValueError, "max_examples: expected an integer >= 1"),
    (dict(predictions=BASE, references=REFS, explain_examples=-1), ValueError,
     "explain_examples: expected an integer >= 0, got -1"),
])
def test_errors_name_the_argument_and_index(kwargs, error, message):
    with pytest.raises(error) as exc:
        report(rouge_types=["rouge1"], **kwargs)
    assert message in str(exc.value)


def test_a_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"\[report\] extra"):
        report(BASE, REFS)


# ------------------------------------------------------------------------------------------ CLI
def _cli(argv):
    return report_cli.main(argv)


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_cli_writes_the_report(tmp_path, capsys):
    refs, a, b = _write(tmp_path / "r.txt", REFS), _write(tmp_path / "a.txt", BASE), _write(tmp_path / "b.txt", LONGER)
    out = tmp_path / "report.html"
    code = _cli(["report", "--references", refs, "--system", f"A={a}", "--system", f"B={b}", "--rouge-types",
                 "rouge1,rougeL", "--n-resamples", "50", "--test-resamples", "50", "--explain-examples", "5",
                 "--output", str(out)])
    assert code == 0, capsys.readouterr().err
    doc = out.read_text(encoding="utf-8")
    assert "wrote " in capsys.readouterr().out
    cmd = (f"rouge-metric report --references {refs} --system A={a} --system B={b} --rouge-types rouge1,rougeL "
           f"--n-resamples 50 --test-resamples 50 --explain-examples 5 --output {out}")
    assert html.escape(cmd, quote=True) in doc
    want = compare(baseline=BASE, systems={"B": LONGER}, references=REFS, rouge_types=["rouge1", "rougeL"],
                   n_resamples=50, ci_resamples=50)
    c = want.comparisons["B"]["rouge1"]["fmeasure"]
    assert f"{c.delta * 100:+.2f}" in doc and f"{c.p_value:.4f}" in doc


def test_cli_several_reference_files(tmp_path):
    r1, r2 = _write(tmp_path / "r1.txt", REFS), _write(tmp_path / "r2.txt", LONGER)
    p = _write(tmp_path / "p.txt", BASE)
    out = tmp_path / "o.html"
    assert _cli(["report", "--predictions", p, "--references", r1, "--references", r2, "--rouge-types", "rouge1",
                 "--n-resamples", "20", "-o", str(out)]) == 0
    data = json.loads(_json_blocks(out.read_text(encoding="utf-8"))["rm-data"])
    assert data["rows"][0]["r"] == [REFS[0], LONGER[0]]


@pytest.mark.parametrize("make, code, message", [
    (lambda d: ["--predictions", _write(d / "p.txt", BASE[:7]), "--references", _write(d / "r.txt", REFS)], 5,
     "p.txt: 7 lines, but --references {d}/r.txt has 8 lines"),
    (lambda d: ["--references", _write(d / "r.txt", REFS), "--references", _write(d / "r2.txt", REFS + ["x"]),
                "--predictions", _write(d / "p.txt", BASE)], 5, "r2.txt: 9 lines, but --references {d}/r.txt has 8"),
    (lambda d: ["--references", _write(d / "r.txt", REFS), "--system", "A=" + _write(d / "a.txt", BASE),
                "--system", "B=" + _write(d / "b.txt", LONGER[:6])], 5, "(--system #2): 6 lines, but --references"),
    (lambda d: ["--references", _write(d / "r.txt", REFS), "--system", "A=" + _write(d / "a.txt", BASE),
                "--system", "A=" + _write(d / "b.txt", LONGER)], 2, "system name 'A' given twice (also --system #1)"),
    (lambda d: ["--references", _write(d / "r.txt", REFS)], 2, "--predictions or --system: give at least one"),
    (lambda d: ["--references", str(d / "missing.txt"), "--predictions", _write(d / "p.txt", BASE)], 3,
     "missing.txt: file not found"),
    (lambda d: ["--references", _write(d / "r.txt", []), "--predictions", _write(d / "p.txt", BASE)], 6,
     "r.txt: empty input (no lines)"),
    (lambda d: ["--references", _write(d / "r.txt", REFS), "--predictions", _write(d / "p.txt", BASE),
                "--rouge-types", "rouge0"], 2, "rouge0"),
])
def test_cli_errors_name_the_file_and_line_counts(tmp_path, capsys, make, code, message):
    got = _cli(["report", *make(tmp_path), "--output", str(tmp_path / "o.html")])
    err = capsys.readouterr().err
    assert got == code and message.format(d=tmp_path) in err, err
    assert not (tmp_path / "o.html").exists()


def test_cli_run_raises_the_readers_errors(tmp_path):
    """``run`` raises the readers' errors; the command line turns their kind into the exit code."""
    import argparse

    from rouge_metric.readers import MisalignedInputError

    parser = argparse.ArgumentParser()
    report_cli.add_parser(parser.add_subparsers(dest="command"), argparse.RawDescriptionHelpFormatter)
    args = parser.parse_args(["report", "--predictions", _write(tmp_path / "p.txt", BASE[:2]), "--references",
                              _write(tmp_path / "r.txt", REFS), "--output", str(tmp_path / "o.html")])
    with pytest.raises(MisalignedInputError, match="2 lines, but --references"):
        args.func(args)


# ------------------------------------------------------------------------------------------ notebooks
def test_corpus_result_repr_html():
    res = compute(predictions=BASE, references=REFS, rouge_types=["rouge1"], aggregation="bootstrap",
                  n_resamples=50)
    out = res._repr_html_()
    sc, ci = res.scores["rouge1"], res.ci["rouge1"]
    assert f"<td>{sc.fmeasure * 100:.2f} [{ci.low.fmeasure * 100:.2f}, {ci.high.fmeasure * 100:.2f}]</td>" in out
    assert html.escape(res.signature) in out and "<script" not in out
    plain = compute(predictions=BASE, references=REFS, rouge_types=["rouge1"])._repr_html_()
    assert f"<td>{sc.fmeasure * 100:.2f}</td>" in plain


def test_explanation_repr_html_is_the_explain_renderer():
    ex = explain(prediction="<b>the</b> cat sat", references="the cat sat on the mat", rouge_types=["rouge1"])
    out = ex._repr_html_()
    assert out == explanation_html(ex) == ex.to_html() and out.startswith("<style>")
    assert "<b>" not in out and '&lt;<span class="rm-tok">b</span>&gt;' in out  # the text escaped, token by token


def test_comparison_result_repr_html_escapes_names():
    res = compare(baseline=BASE, systems={"<script>x</script>": LONGER}, references=REFS, rouge_types=["rouge1"],
                  n_resamples=50, baseline_name="<b>base</b>")
    out = res._repr_html_()
    assert "<script>x" not in out and "&lt;script&gt;x&lt;/script&gt;" in out and "&lt;b&gt;base&lt;/b&gt; F" in out
    c = res.comparisons["<script>x</script>"]["rouge1"]["fmeasure"]
    assert f"<td>{c.delta * 100:+.2f}</td>" in out and f"<td>{c.p_value:.4f}</td>" in out


def test_report_repr_html_is_a_sandboxed_iframe(two):
    out = two._repr_html_()
    assert out.startswith('<iframe class="rouge-metric-report" sandbox="allow-scripts"')
    assert html.unescape(re.search(r'srcdoc="(.*)"', out, re.S).group(1)) == two.html()
    assert isinstance(two, Report) and "Report(n=8" in repr(two)


def test_save(two, tmp_path):
    path = two.save(tmp_path / "r.html")
    assert open(path, encoding="utf-8").read() == two.html()


# ------------------------------------------------------------------------------------------ edges, backends
def test_empty_texts_one_example_and_constant_scores_build():
    one = report([""], [""], rouge_types=["rouge1", "rougeLsum"], n_resamples=10)
    assert one.data.n == 1 and "Too few examples (1)" in one.html()
    same = report(["a b c"] * 40, ["a b c"] * 40, rouge_types=["rouge1"], n_resamples=10)
    assert "do not vary together" in same.data.length_note and not same.data.length_flagged


def test_both_backends_give_the_same_numbers():
    pytest.importorskip("rouge_metric._native", reason="the native backend is not built")
    got = {b: report(BASE, REFS, systems={"B": LONGER}, rouge_types=TYPES, n_resamples=50, test_resamples=50,
                     backend=b) for b in ("python", "native")}
    for name in ("baseline", "B"):
        py, nat = got["python"].results[name], got["native"].results[name]
        assert py.scores == nat.scores and py.ci == nat.ci
    for method in ("paired_bootstrap", "approximate_randomization"):
        assert got["python"].comparisons[method].comparisons == got["native"].comparisons[method].comparisons
    assert json.loads(_json_blocks(got["python"].html())["rm-data"]) == json.loads(_json_blocks(got["native"].html())["rm-data"])
