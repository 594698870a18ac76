"""``rouge-metric compare``: inputs (text, JSONL), the table, --json (ComparisonResult.to_dict), the
progress bars, errors and exit codes. The numbers come from rouge_metric.compare (tested in
test_significance.py); here the command line must give exactly the same."""

import json
import sys

import pytest

from rouge_metric import cli, compare

from clirun import DATA, REPO, lines, run


BASE, SYS, REFS = DATA / "predictions_short.txt", DATA / "predictions.txt", DATA / "references.txt"


def test_table_marks_significant_rows_and_ends_with_the_signature(capsys):
    code, out, err = run(["compare", "--references", REFS, "--baseline", BASE, "--system", SYS,
                          "--rouge-types", "rouge1", "rougeL", "--use-stemmer", "--n-resamples", "300", "--seed", "4"],
                         capsys)
    assert code == 0 and err == ""
    want = compare(baseline=lines("predictions_short.txt"), systems={str(SYS): lines("predictions.txt")},
                   references=lines("references.txt"), rouge_types=["rouge1", "rougeL"], use_stemmer=True,
                   n_resamples=300, seed=4)
    assert out.strip() == f"baseline: {BASE}\n" + want.format_table()
    for row in out.splitlines()[3:5]:
        c = want.comparisons[str(SYS)][row.split()[1]]["fmeasure"]
        assert row.endswith("*") == (c.p_value < 0.05)
    assert out.strip().endswith(want.signature) and "stem:porter" in out


def test_json_is_to_dict_and_several_systems(capsys, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("\n".join(lines("references2.txt")) + "\n", encoding="utf-8")
    argv = ["compare", "--references", REFS, "--references", DATA / "references2.txt", "--baseline", BASE,
            "--system", SYS, "--system", other, "--method", "approximate_randomization", "--n-resamples", "200",
            "--json"]
    code, out, err = run(argv, capsys)
    assert code == 0
    refs = [list(r) for r in zip(lines("references.txt"), lines("references2.txt"))]
    want = compare(baseline=lines("predictions_short.txt"), references=refs, method="approximate_randomization",
                   n_resamples=200, systems={str(SYS): lines("predictions.txt"), str(other): lines("references2.txt")})
    assert json.loads(out) == want.to_dict()
    assert err.strip() == f"signature: {want.signature}"
    code, out, err = run(argv + ["--quiet"], capsys)
    assert code == 0 and err == ""


def test_jsonl_columns(capsys, tmp_path):
    refs = lines("references.txt")
    base = tmp_path / "base.jsonl"
    base.write_text("".join(json.dumps({"summary": p, "refs": [r]}) + "\n"
                            for p, r in zip(lines("predictions_short.txt"), refs)), encoding="utf-8")
    system = tmp_path / "sys.jsonl"
    system.write_text("".join(json.dumps({"summary": p}) + "\n" for p in lines("predictions.txt")), encoding="utf-8")
    code, out, _ = run(["compare", "--baseline", base, "--system", system, "--prediction-field", "summary",
                        "--references-field", "refs", "--json", "--n-resamples", "100"], capsys)
    assert code == 0
    want = compare(baseline=lines("predictions_short.txt"), systems={str(system): lines("predictions.txt")},
                   references=refs, n_resamples=100)
    assert json.loads(out) == want.to_dict()


def test_progress_bars_on_a_terminal(capsys, monkeypatch):
    argv = ["compare", "--references", REFS, "--baseline", BASE, "--system", SYS, "--n-resamples", "150"]
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, _, err = run(argv, capsys)
    assert code == 0 and "scoring:" in err and "/16" in err and "resampling:" in err and "/150" in err
    code, _, err = run(argv + ["-q"], capsys)
    assert code == 0 and err == ""


def test_score_bootstrap_progress_covers_resampling(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, _, err = run(["score", "--predictions", SYS, "--references", REFS, "--bootstrap", "--n-resamples", "120"],
                       capsys)
    assert code == 0 and "rouge:" in err and "resampling:" in err and "/120" in err


@pytest.mark.parametrize("extra, code, message", [
    (["--system", SYS], cli.EXIT_USAGE, "is given twice"),
    (["--n-resamples", "0"], cli.EXIT_USAGE, "n_resamples: expected an integer >= 1, got 0"),
    (["--method", "approximate_randomization", "--ci-resamples", "0"], cli.EXIT_USAGE, "ci_resamples: expected"),
    (["--level", "5"], cli.EXIT_USAGE, "level: expected a number in (0, 1)"),
])
def test_bad_options(extra, code, message, capsys):
    got, _, err = run(["compare", "--references", REFS, "--baseline", BASE, "--system", SYS] + extra, capsys)
    assert got == code and message in err


def test_compare_offers_no_aggregation_options(capsys):
    """compare reports exact means and tests their differences: --aggregation/--bootstrap are not offered (a
    one-line usage error), while the test's --n-resamples/--seed/--confidence-level are."""
    helptext = cli.build_parser()._subparsers._group_actions[0].choices["compare"].format_help()
    assert "--bootstrap" not in helptext and "--aggregation" not in helptext
    assert "--n-resamples" in helptext and "--seed" in helptext and "--confidence-level" in helptext
    for opt in (["--bootstrap"], ["--aggregation", "bootstrap"]):
        with pytest.raises(SystemExit) as exc:
            cli.main([str(a) for a in ["compare", "--references", REFS, "--baseline", BASE, "--system", SYS] + opt])
        err = capsys.readouterr().err
        assert exc.value.code == cli.EXIT_USAGE and len(err.strip().splitlines()) == 1
        assert err.startswith(f"rouge-metric compare: error: unrecognized arguments: {opt[0]}")


def test_misaligned_and_missing_files(capsys, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    code, _, err = run(["compare", "--references", REFS, "--baseline", BASE, "--system", short], capsys)
    assert code == cli.EXIT_MISALIGNED and f"{short}: 1 examples, but the baseline" in err
    code, _, err = run(["compare", "--references", REFS, "--baseline", BASE, "--system", tmp_path / "nope.txt"],
                       capsys)
    assert code == cli.EXIT_FILE and "file not found" in err
    code, _, err = run(["compare", "--references", short, "--baseline", BASE, "--system", SYS], capsys)
    assert code == cli.EXIT_MISALIGNED
    with pytest.raises(SystemExit) as exc:
        cli.main(["compare", "--references", str(REFS), "--baseline", str(BASE)])
    assert exc.value.code == cli.EXIT_USAGE and "--system" in capsys.readouterr().err
