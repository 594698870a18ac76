"""Length statistics of a report: correlations of per-example F with length, length-ratio buckets, and
whether length explains a large share of the scores. Pure numpy functions on per-example arrays."""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

#: Edges of the length-ratio buckets (prediction length / reference length); the last is open.
RATIO_EDGES: Tuple[float, ...] = (0.0, 0.5, 0.75, 0.9, 1.1, 1.33, 2.0)
#: The note on length appears when the squared Pearson correlation of per-example F with the
#: prediction length or with the length ratio reaches this: length alone then accounts linearly for a
#: quarter or more of the variance of the scores (|r| >= 0.5, Cohen's "large" correlation).
LENGTH_R2_NOTE = 0.25
#: Fewer examples than this and the note says that a correlation cannot be judged (too noisy).
LENGTH_MIN_N = 30


def ranks(x: Any) -> Any:
    """Average ranks (1-based; ties share the mean of their ranks), as Spearman's correlation uses them.
    O(n log n)."""
    import numpy as np

    x = np.asarray(x, dtype=np.float64)
    order = np.argsort(x, kind="stable")
    xs = x[order]
    # runs of equal values: each gets the mean of the 1-based positions it spans
    starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])
    ends = np.r_[starts[1:], xs.size]
    mean_rank = (starts + ends + 1) / 2.0
    out = np.empty(x.size, dtype=np.float64)
    out[order] = np.repeat(mean_rank, ends - starts)
    return out


def _centered(x: Any) -> Tuple[Any, float]:
    """``(x - mean(x), sum of squares of that)``: one side of :func:`pearson`, reusable."""
    import numpy as np

    x = np.asarray(x, dtype=np.float64)
    if x.size < 2:  # no correlation (pearson says None); no mean of an empty array
        return x, 0.0
    dx = x - x.mean()
    return dx, float(dx @ dx)


def _pearson_centered(a: Tuple[Any, float], b: Tuple[Any, float]) -> Optional[float]:
    (dx, sxx), (dy, syy) = a, b
    if dx.size < 2 or sxx == 0.0 or syy == 0.0:
        return None
    r = float(dx @ dy) / (sxx * syy) ** 0.5
    return max(-1.0, min(1.0, r))


def pearson(x: Any, y: Any) -> Optional[float]:
    """Pearson's r, or None when either side is constant (or fewer than 2 points). O(n)."""
    import numpy as np

    x = np.asarray(x, dtype=np.float64)
    if x.size < 2:
        return None
    return _pearson_centered(_centered(x), _centered(y))


def spearman(x: Any, y: Any) -> Optional[float]:
    """Spearman's rho: Pearson's r of the average ranks. O(n log n)."""
    return pearson(ranks(x), ranks(y))


class Correlation(NamedTuple):
    """Per-example F of one type against length: ``pearson`` and ``spearman`` with the prediction length
    and with the length ratio (None when undefined: a constant side)."""

    pearson_len: Optional[float]
    spearman_len: Optional[float]
    pearson_ratio: Optional[float]
    spearman_ratio: Optional[float]

    @property
    def r2(self) -> float:
        """The larger squared Pearson correlation (with length or with the ratio); 0 when undefined."""
        return max((r * r for r in (self.pearson_len, self.pearson_ratio) if r is not None), default=0.0)


def correlation(f: Any, pred_len: Any, ratio: Any) -> Correlation:
    """:class:`Correlation` of per-example F with the prediction length (every example) and with the
    length ratio (the examples whose ratio is finite: a reference with no token has none)."""
    return correlations({"": f}, pred_len, ratio)[""]


def correlations(f_by_type: Dict[str, Any], pred_len: Any, ratio: Any) -> Dict[str, Correlation]:
    """:func:`correlation` of every type's per-example F with the same lengths: the ranks of the
    lengths, of the ratios and of each F are computed once (the same floats as one call per type).
    O(types * n log n)."""
    import numpy as np

    pred_len = np.asarray(pred_len, dtype=np.float64)
    ratio = np.asarray(ratio, dtype=np.float64)
    ok = np.isfinite(ratio)
    every = bool(ok.all())
    ratio_ok = ratio if every else ratio[ok]
    # each side centred once (pearson's own arithmetic, so the same floats as one pearson call per pair)
    length, length_ranks = _centered(pred_len), _centered(ranks(pred_len))
    rat, rat_ranks = _centered(ratio_ok), _centered(ranks(ratio_ok))
    out = {}
    for t, f in f_by_type.items():
        f = np.asarray(f, dtype=np.float64)
        f_ranks = ranks(f)
        fc, fc_ranks = _centered(f), _centered(f_ranks)
        fo, fo_ranks = (fc, fc_ranks) if every else (_centered(f[ok]), _centered(ranks(f[ok])))
        out[t] = Correlation(_pearson_centered(fc, length), _pearson_centered(fc_ranks, length_ranks),
                             _pearson_centered(fo, rat), _pearson_centered(fo_ranks, rat_ranks))
    return out


def bucket_labels() -> List[str]:
    """The label of every length-ratio bucket, the last one open (``>= 2``)."""
    e = RATIO_EDGES
    return [f"{a:g}–{b:g}" for a, b in zip(e[:-1], e[1:])] + [f"≥ {e[-1]:g}"]


def ratio_buckets(ratio: Any, f_by_type: Dict[str, Any]) -> List[Tuple[str, int, Dict[str, Optional[float]]]]:
    """Per length-ratio bucket (``[a, b)``; examples without a finite ratio left out): its label, its count
    and the mean F of every type (None for an empty bucket). O(n * types)."""
    import numpy as np

    ratio = np.asarray(ratio, dtype=np.float64)
    ok = np.isfinite(ratio)
    which = np.digitize(ratio, RATIO_EDGES[1:])  # 0 .. len(RATIO_EDGES) - 1
    rows = []
    for k, label in enumerate(bucket_labels()):
        sel = ok & (which == k)
        count = int(sel.sum())
        means = {t: (float(np.asarray(f)[sel].mean()) if count else None) for t, f in f_by_type.items()}
        rows.append((label, count, means))
    return rows


def length_ratio(pred_len: Any, ref_len: Any) -> Any:
    """Prediction length / mean reference length per example; NaN where the reference has no token."""
    import numpy as np

    pred_len = np.asarray(pred_len, dtype=np.float64)
    ref_len = np.asarray(ref_len, dtype=np.float64)
    out = np.full(pred_len.shape, np.nan)
    np.divide(pred_len, ref_len, out=out, where=ref_len > 0)
    return out


def length_note(correlations: Dict[str, Dict[str, Correlation]], n: int, threshold: float = LENGTH_R2_NOTE
                ) -> Tuple[bool, str]:
    """``(flagged, sentence)``: a plain-language statement of how much of the per-example F the length
    explains, from ``correlations[system][type]`` over ``n`` examples; ``flagged`` when some squared
    Pearson correlation reaches ``threshold`` (and ``n >= LENGTH_MIN_N``)."""
    best: Optional[Tuple[float, str, str, str, float]] = None
    for name, per_type in correlations.items():
        for t, c in per_type.items():
            for what, r in (("prediction length", c.pearson_len), ("length ratio", c.pearson_ratio)):
                if r is not None and (best is None or r * r > best[0]):
                    best = (r * r, name, t, what, r)
    why = (f"the note appears when the squared Pearson correlation of per-example F with the prediction length or "
           f"the length ratio reaches {threshold:g}, i.e. length alone accounts linearly for at least "
           f"{threshold * 100:g}% of the variance of the scores (|r| ≥ {threshold ** 0.5:g}, a large correlation)")
    if n < LENGTH_MIN_N:
        return False, (f"Too few examples ({n}) to judge whether length explains the scores: a correlation over fewer "
                       f"than {LENGTH_MIN_N} examples is mostly noise; {why}.")
    if best is None:
        return False, f"Length and F do not vary together enough to measure (a constant side); {why}."
    r2, name, t, what, r = best
    where = f"{t} F of {name}" if len(correlations) > 1 else f"{t} F"
    if r2 >= threshold:
        direction = "longer" if r > 0 else "shorter"
        return True, (f"Length explains a large share of the score: the {what} alone accounts for {r2 * 100:.0f}% "
                      f"of the variance of per-example {where} (Pearson r = {r:+.2f}); {direction} predictions score "
                      f"higher. Report lengths with these scores and compare systems at similar lengths ({why}).")
    return False, (f"Length explains little of the score: at most {r2 * 100:.0f}% of the variance of per-example "
                   f"F ({where} against the {what}, Pearson r = {r:+.2f}); {why}.")


def wins(delta: Any) -> Tuple[int, int, int]:
    """``(wins, ties, losses)`` of per-example deltas (tie: exactly equal scores)."""
    import numpy as np

    d = np.asarray(delta)
    return int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())


def largest(delta: Any, k: int) -> Tuple[List[int], List[int]]:
    """The indices of the ``k`` largest gains (delta > 0, largest first) and losses (delta < 0, most
    negative first); equal deltas in index order."""
    import numpy as np

    d = np.asarray(delta, dtype=np.float64)
    up = np.argsort(-d, kind="stable")
    down = np.argsort(d, kind="stable")
    gains = [int(i) for i in up[:k] if d[i] > 0]
    losses = [int(i) for i in down[:k] if d[i] < 0]
    return gains, losses


def sample_indices(n: int, limit: int, seed: int, forced: Sequence[int] = ()) -> Any:
    """The examples a report's table keeps: all of them when ``n <= limit``, otherwise
    ``numpy.random.default_rng(seed).choice(n, limit, replace=False)`` plus ``forced`` (sorted, unique)."""
    import numpy as np

    if n <= limit:
        return np.arange(n)
    picked = np.random.default_rng(seed).choice(n, size=limit, replace=False)
    return np.union1d(picked, np.asarray(list(forced), dtype=np.int64))
