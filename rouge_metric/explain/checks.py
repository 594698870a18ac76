"""Cross-checks of an explanation, independent of the scorer's arithmetic.

:func:`cross_check` verifies one rouge type against one reference (P/R/F re-derived from the counts with
ROUGE-1.5.5's general F formula; the evidence adds up to the hit; every LCS is a common subsequence of
both texts); :func:`combined_checks` re-derives the example's score over its references (``multi_ref``).
Each returns :class:`Check` records; :mod:`rouge_metric.explain.evidence` attaches them.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING, Dict, Sequence, Tuple

from .. import core_py
from ..result import Score

if TYPE_CHECKING:  # annotations only: the evidence imports the checks, not the reverse
    from .evidence import ReferenceExplanation, TypeExplanation


@dataclasses.dataclass(frozen=True)
class Check:
    """One cross-check of an explanation: ``name`` says what was verified, ``ok`` whether it held,
    ``detail`` what differed (empty when it held)."""

    name: str
    ok: bool
    detail: str = ""


def _f_general(p: float, r: float, alpha: float) -> float:
    """ROUGE-1.5.5's general F: PR / ((1 - alpha) P + alpha R); Fβ is alpha = 1 / (1 + β²)."""
    d = (1.0 - alpha) * p + alpha * r
    return p * r / d if d > 0 else 0.0


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _prf(hit: float, pred_total: float, ref_total: float, alpha: float, inv: float = 1.0) -> Score:
    p = core_py.wpow(hit / pred_total, inv) if pred_total else 0.0
    r = core_py.wpow(hit / ref_total, inv) if ref_total else 0.0
    return Score(p, r, _f_general(p, r, alpha))


def _score_check(got: Score, want: Score) -> Check:
    ok = all(_close(a, b) for a, b in zip(got, want))
    return Check("P/R/F re-derived from the counts", ok, "" if ok else f"scorer {tuple(got)} != re-derived {tuple(want)}")


def _is_subsequence(seq: Sequence[str], tokens: Sequence[str]) -> bool:
    it = iter(tokens)
    return all(any(t == u for u in it) for t in seq)


def _positions_check(name: str, positions: Sequence[int], tokens: Sequence[str], want: Sequence[str]) -> Check:
    ok = list(positions) == sorted(set(positions)) and all(0 <= i < len(tokens) for i in positions) \
        and tuple(tokens[i] for i in positions) == tuple(want)
    return Check(name, ok, "" if ok else f"positions {list(positions)} do not spell {list(want)}")


def cross_check(te: "TypeExplanation", pred_tokens: Sequence[str], pred_sents: Sequence[Sequence[str]],
                ref_tokens: Sequence[str], ref_sents: Sequence[Sequence[str]], alpha: float,
                inv: float = 1.0) -> Tuple[Check, ...]:
    """Verify one type's explanation independently of the scorer's arithmetic.

    Always: P, R and F re-derived from ``hit / pred_total / ref_total`` with ROUGE-1.5.5's general F
    formula (``alpha``; F1 is alpha = 0.5) equal the scorer's. Per kind: the n-gram matches recounted
    from the token lists and their clipped counts summing to the hit (rougeN, rougeS/SU: the sum); the
    LCS spelled by its positions in both texts, increasing, of the hit's length (rougeL); per
    reference sentence the LCS with every prediction sentence recomputed, checked to be a common
    subsequence of the two, their union equal to the marked positions, the hits a subset summing to
    the hit (rougeLsum); hits within marks (rougeW). O(the explanation's own cost).
    """
    checks = [_score_check(te.score, _prf(te.hit, te.pred_total, te.ref_total, alpha, inv))]
    kind = te.kind
    if kind in ("ngram", "skip"):
        total = sum(m.clipped for m in te.matches)
        ok = total == te.hit and all(m.pred_count > 0 and m.ref_count > 0 for m in te.matches)
        checks.append(Check("clipped matches add up to the hit", ok, "" if ok else f"{total} != {te.hit}"))
    if kind == "ngram":
        n = len(te.matches[0].unit) if te.matches else 0
        if n:
            def count(tokens):
                c: Counter = Counter()
                for i in range(len(tokens) - n + 1):
                    c[tuple(tokens[i:i + n])] += 1
                return c
            pc, rc = count(pred_tokens), count(ref_tokens)
            bad = [" ".join(m.unit) for m in te.matches if (pc[m.unit], rc[m.unit]) != (m.pred_count, m.ref_count)]
            checks.append(Check("n-gram counts recounted in both texts", not bad, ", ".join(bad)))
    elif kind == "lcs":
        ok = len(te.lcs) == te.hit
        checks.append(Check("LCS length is the hit", ok, "" if ok else f"{len(te.lcs)} != {te.hit}"))
        checks.append(_positions_check("LCS is a subsequence of the prediction", te.pred_positions, pred_tokens, te.lcs))
        checks.append(_positions_check("LCS is a subsequence of the reference", te.ref_positions, ref_tokens, te.lcs))
    elif kind == "lcsum":
        bad = []
        for s, r in zip(te.sentences, ref_sents):
            union = set()
            for c in pred_sents:
                idx = core_py.lcs_indices(list(r), list(c)) if r and c else []
                if not _is_subsequence([r[i] for i in idx], c):
                    bad.append(f"sentence {s.index + 1}: LCS not in a prediction sentence")
                union.update(idx)
            if tuple(sorted(union)) != s.marked or not set(s.hits) <= set(s.marked):
                bad.append(f"sentence {s.index + 1}: union {sorted(union)} vs marked {list(s.marked)}")
        total = sum(len(s.hits) for s in te.sentences)
        if total != te.hit:
            bad.append(f"hits {total} != {te.hit}")
        checks.append(Check("union-LCS: every LCS a common subsequence, hits add up", not bad, "; ".join(bad)))
    elif kind == "wlcs":
        ok = all(set(s.hits) <= set(s.marked) for s in te.sentences) \
            and (te.hit == 0) == (sum(len(s.hits) for s in te.sentences) == 0)
        checks.append(Check("weighted-LCS hits lie on the marked paths", ok))
    return tuple(checks)


def combined_checks(combined: Dict[str, Score], refs: Sequence["ReferenceExplanation"], mode: str,
                    alpha: float, invs: Dict[str, float]) -> Tuple[Check, ...]:
    """The example's score (``combined``, per type) re-derived from the per-reference explanations with
    the ``multi_ref`` mode; ``invs`` per type the exponent of P and R (1 / weight for rougeW, else 1)."""
    out = []
    for t, got in combined.items():
        per = [ref.types[t] for ref in refs]
        if mode == "pool" or len(per) == 1:
            want = _prf(sum(te.hit for te in per), sum(te.pred_total for te in per),
                        sum(te.ref_total for te in per), alpha, invs[t])
            ok = all(_close(a, b) for a, b in zip(got, want))
        elif mode == "max":
            best = per[0].score
            for te in per[1:]:
                if te.score.fmeasure > best.fmeasure:
                    best = te.score
            ok = all(_close(a, b) for a, b in zip(got, best))
        elif mode == "mean":
            ok = all(_close(got[i], sum(te.score[i] for te in per) / len(per)) for i in range(3))
        else:  # best_recall: the score of one of the references
            ok = any(all(_close(a, b) for a, b in zip(got, te.score)) for te in per)
        out.append(Check(f"{t}: combined over references ({mode}) re-derived", ok,
                         "" if ok else f"combined {tuple(got)} not re-derived"))
    return tuple(out)

