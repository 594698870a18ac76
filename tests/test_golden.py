"""ROUGE-1.5.5 golden vectors (printed by the real Perl script) from rouge155-synthetic.jsonl.

Two sources: the subset committed in tests/data/ (every hand-made edge case and random cases with 1 to 4
references, both multi-reference formulas; written by ``python tools/golden_subset.py``) always runs, so
a bare clone checks ROUGE-1.5.5 fidelity; the full file in ../shared/golden runs when ../shared is beside
the checkout. Perl rounds P and R to 5 decimals and computes F from the rounded values, so scores are
compared with |diff| <= 1.5e-5 (the golden README's rule); the raw counts (-t 2) are compared exactly
(W: to 1e-12).
"""

import importlib.util
import json
from pathlib import Path

import pytest

from rouge_metric import Rouge, core

PERL_TO_OURS = {
    "ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-3": "rouge3", "ROUGE-4": "rouge4",
    "ROUGE-L": "rougeLsum", "ROUGE-W-1.2": "rougeW", "ROUGE-S4": "rougeS4", "ROUGE-SU4": "rougeSU4",
    "ROUGE-S*": "rougeS", "ROUGE-SU*": "rougeSU",
}
FORMULA = {"A": "pool", "B": "best_recall"}
BACKENDS = ["python"] + (["native"] if core.native_available() else [])
REPO = Path(__file__).resolve().parents[1]
SUBSET = REPO / "tests" / "data" / "rouge155-synthetic-subset.jsonl"
#: The number of lines of each source (one line per case and formula).
LINES = {"subset": 204, "full": 440}


def read(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


@pytest.fixture(scope="module", params=["subset", "full"])
def cases(request):
    if request.param == "subset":
        rows = read(SUBSET)
    else:
        rows = read(request.getfixturevalue("shared_dir") / "golden" / "rouge155-synthetic.jsonl")
    assert len(rows) == LINES[request.param]
    return rows


def test_the_subset_covers_every_option():
    """Both formulas for every case, every reference count, the edge cases, an empty candidate."""
    rows = read(SUBSET)
    assert {(r["id"], r["formula"]) for r in rows} == {(r["id"], f) for r in rows for f in FORMULA}
    assert {len(r["references"]) for r in rows} == {1, 2, 3, 4}
    assert {r["group"] for r in rows} == {"edge", "random"}
    assert sum(r["group"] == "edge" for r in rows) == 116
    assert any(not r["candidate"] for r in rows)
    assert all(set(r["scores"]) == set(r["counts"]) == set(PERL_TO_OURS) for r in rows)


def test_the_subset_is_the_selection_from_the_full_file(shared_dir):
    """tests/data/ holds exactly what tools/golden_subset.py selects, lines copied byte for byte."""
    spec = importlib.util.spec_from_file_location("golden_subset", REPO / "tools" / "golden_subset.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    full = (shared_dir / "golden" / "rouge155-synthetic.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert "".join(tool.select(full, tool.MAX_BYTES)) == SUBSET.read_text(encoding="utf-8")


@pytest.mark.parametrize("backend", BACKENDS)
def test_synthetic_golden_scores(cases, backend):
    scorers = {f: Rouge(list(PERL_TO_OURS.values()), multi_ref=m, alpha=0.5, backend=backend)
               for f, m in FORMULA.items()}
    checked, bad = 0, []
    for c in cases:
        got = scorers[c["formula"]].score(
            prediction="\n".join(c["candidate"]),
            references=["\n".join(r) for r in c["references"]],
        )
        for perl, ours in PERL_TO_OURS.items():
            want = c["scores"][perl]
            sc = got[ours]
            for k, v in (("R", sc.recall), ("P", sc.precision), ("F", sc.fmeasure)):
                checked += 1
                if abs(want[k] - v) > 1.5e-5:
                    bad.append((c["id"], c["formula"], perl, k, want[k], v))
    assert checked == len(cases) * len(PERL_TO_OURS) * 3
    assert not bad, bad[:10]


def test_synthetic_golden_counts(cases):
    """The sufficient statistics themselves (hit, model, peer) equal Perl's -t 2 counts."""
    from rouge_metric.config import parse_rouge_type
    from rouge_metric.core_py import skip_bigram_overlap, ngram_overlap, union_lcs_overlap, wlcs_overlap

    bad = []
    for c in cases:
        cand = [s.split() for s in c["candidate"]]
        refs = [[s.split() for s in r] for r in c["references"]]
        flat = lambda sents: [t for s in sents for t in s]
        for perl, ours in PERL_TO_OURS.items():
            spec = parse_rouge_type(ours)
            per_ref = []
            for r in refs:
                if spec.kind == "ngram":
                    h, p, m = ngram_overlap(flat(cand), flat(r), spec.n)
                    sel = float("%.5f" % (h / m)) if m else 0.0
                elif spec.kind == "skip":
                    h, p, m = skip_bigram_overlap(flat(cand), flat(r), spec.skip, spec.unigrams)
                    sel = float("%.5f" % (h / m)) if m else 0.0
                elif spec.kind == "lcsum":
                    h, p, m = union_lcs_overlap(r, cand)
                    sel = h / m if m else 0.0
                else:
                    h, p, m, sel = wlcs_overlap(r, cand, 1.2)
                per_ref.append((h, p, m, sel))
            if c["formula"] == "A":
                got = (sum(x[0] for x in per_ref), sum(x[2] for x in per_ref), sum(x[1] for x in per_ref))
            else:
                best, key = per_ref[0], -1.0
                for x in per_ref:
                    if x[3] > key:
                        best, key = x, x[3]
                got = (best[0], best[2], best[1])
            want = c["counts"][perl]
            for g, w in zip(got, (want["hit"], want["model"], want["peer"])):
                if abs(g - w) > 1e-9 * max(1.0, abs(w)):
                    bad.append((c["id"], c["formula"], perl, got, want))
                    break
    assert not bad, bad[:10]
