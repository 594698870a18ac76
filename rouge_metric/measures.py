"""From kernel statistics to scores: the ROUGE measures' registry, P/R/F and the multi-reference modes.

Data path: the kernels (:mod:`rouge_metric.core_py` or the native core) count, per (type, reference),
the sufficient statistics ``(hit, pred_total, ref_total, select)``; :class:`TypeScorer` turns them into
a :class:`~rouge_metric.result.Score` and combines the references of one example with the
multi-reference mode. This is the Python twin of the native core's ``scoring.hpp``: the same operations
in the same order, so both backends give the same floats.

Adding a rouge type: its kernel (in ``core_py`` and the native core), one entry in :data:`MEASURES`
(how its statistics come from the kernels), its name in :func:`rouge_metric.config.parse_rouge_type`,
and its tests.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .aggregate import round5
from .config import TypeSpec
from .core_py import wpow
from .result import Score

#: ``(hit, pred_total, ref_total, select)``: ``select`` ranks references for ``best_recall``.
Stats = Tuple[float, float, float, float]
#: ``(tokens, sentences)``: the view of one text that the text pipeline makes.
View = Tuple[Any, Any]


def make_fmeasure(beta: float = 1.0, alpha: Optional[float] = None) -> Callable[[float, float], float]:
    """The F function of the settings. beta == 1 uses rouge-score's ``2PR/(P+R)`` (bit-for-bit)."""
    if alpha is not None:
        a = alpha

        def f_alpha(p: float, r: float) -> float:
            d = (1.0 - a) * p + a * r
            return p * r / d if d > 0 else 0.0

        return f_alpha
    if beta == 1.0:

        def f1(p: float, r: float) -> float:
            return 2 * p * r / (p + r) if p + r > 0 else 0.0

        return f1
    b2 = beta * beta

    def f_beta(p: float, r: float) -> float:
        d = b2 * p + r
        return (1 + b2) * p * r / d if d > 0 else 0.0

    return f_beta


class TypeScorer:
    """Per-type arithmetic: statistics -> :class:`Score`, and the multi-reference modes."""

    def __init__(self, spec: TypeSpec, fmeasure: Callable[[float, float], float]) -> None:
        self.spec = spec
        self.f = fmeasure
        self.inv = 1.0 / spec.weight if spec.kind == "wlcs" else None

    def score(self, hit: float, pred_total: float, ref_total: float) -> Score:
        if self.inv is None:
            p = hit / pred_total if pred_total else 0.0
            r = hit / ref_total if ref_total else 0.0
        else:
            p = wpow(hit / pred_total, self.inv) if pred_total else 0.0
            r = wpow(hit / ref_total, self.inv) if ref_total else 0.0
        return Score(p, r, self.f(p, r))

    def combine(self, stats: Sequence[Stats], mode: str) -> Score:
        """One example's score from the statistics of each of its references (``mode``: one of
        :data:`rouge_metric.config.MULTI_REF_MODES`). O(number of references)."""
        if len(stats) == 1:
            s = stats[0]
            return self.score(s[0], s[1], s[2])
        if mode == "max":
            best = None
            for s in stats:
                sc = self.score(s[0], s[1], s[2])
                if best is None or sc.fmeasure > best.fmeasure:
                    best = sc
            return best  # type: ignore[return-value]
        if mode == "mean":
            scs = [self.score(s[0], s[1], s[2]) for s in stats]
            k = len(scs)
            return Score(*(math.fsum(sc[i] for sc in scs) / k for i in range(3)))
        if mode == "pool":
            # Left to right in reference order, as ROUGE-1.5.5 (and the native core) add them; not the
            # built-in sum(), whose float result depends on the Python version (compensated since 3.12).
            h = pt = rt = 0.0
            for s in stats:
                h += s[0]
                pt += s[1]
                rt += s[2]
            return self.score(h, pt, rt)
        # best_recall: strict > from -1, so ties keep the first reference (ROUGE-1.5.5 -f B)
        best_s, best_key = stats[0], -1.0
        for s in stats:
            if s[3] > best_key:
                best_s, best_key = s, s[3]
        return self.score(best_s[0], best_s[1], best_s[2])


class PerlRoundedTypeScorer(TypeScorer):
    """ROUGE-1.5.5's printed per-case scores: P and R rounded to 5 decimals (``%7.5f``), F computed from
    the rounded P and R, then rounded."""

    def score(self, hit: float, pred_total: float, ref_total: float) -> Score:
        sc = TypeScorer.score(self, hit, pred_total, ref_total)
        p, r = round5(sc.precision), round5(sc.recall)
        return Score(p, r, round5(self.f(p, r)))


#: Per-example rounding -> the type scorer that applies it (``Rouge(..., rounding=...)``).
ROUNDINGS = {None: TypeScorer, "perl": PerlRoundedTypeScorer}


# ------------------------------------------------------------------------- the measures' registry
def _ngram(spec: TypeSpec, kernels: Any, pred: View, ref: View) -> Stats:
    h, a, b = kernels.ngram_overlap(pred[0], ref[0], spec.n)
    return (h, a, b, round5(h / b) if b else 0.0)


def _lcs(spec: TypeSpec, kernels: Any, pred: View, ref: View) -> Stats:
    pt, rt = pred[0], ref[0]
    h = kernels.lcs_length(rt, pt) if pt and rt else 0
    return (h, len(pt), len(rt), h / len(rt) if rt else 0.0)


def _lcsum(spec: TypeSpec, kernels: Any, pred: View, ref: View) -> Stats:
    h, a, b = kernels.union_lcs_overlap(ref[1], pred[1])
    return (h, a, b, h / b if b else 0.0)


def _skip(spec: TypeSpec, kernels: Any, pred: View, ref: View) -> Stats:
    h, a, b = kernels.skip_bigram_overlap(pred[0], ref[0], spec.skip, spec.unigrams)
    return (h, a, b, round5(h / b) if b else 0.0)


def _wlcs(spec: TypeSpec, kernels: Any, pred: View, ref: View) -> Stats:
    return kernels.wlcs_overlap(ref[1], pred[1], spec.weight)


#: Kind (``TypeSpec.kind``) -> the function giving one pair's statistics from the kernels.
MEASURES: Dict[str, Callable[[TypeSpec, Any, View, View], Stats]] = {
    "ngram": _ngram, "lcs": _lcs, "lcsum": _lcsum, "skip": _skip, "wlcs": _wlcs,
}


def pair_stats(specs: Sequence[TypeSpec], kernels: Any, pred: View, ref: View) -> List[Stats]:
    """Sufficient statistics of every type for one (prediction, reference) pair.

    ``pred``/``ref`` are ``(tokens, sentences)`` views from the text pipeline; ``kernels`` is
    :mod:`rouge_metric.core_py` or the native module (same functions, same results).
    """
    return [MEASURES[spec.kind](spec, kernels, pred, ref) for spec in specs]
