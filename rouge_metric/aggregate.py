"""Aggregation of per-example scores: exact mean and seeded bootstrap confidence intervals.

The mean is exact (correctly rounded, like ``math.fsum``), so it does not depend on the order in
which examples arrive: batches, threads and processes merged in any order give the same floats.
"""

from __future__ import annotations

import math
from array import array
from typing import Dict, Iterable, List, Optional, Sequence

from .result import AggregateScore, Score


class ExactSum:
    """Exact floating-point sum (Shewchuk's partials, as in ``math.fsum``), mergeable.

    ``add`` is amortised O(1) for ordinary data; ``value`` is the correctly rounded sum.
    """

    __slots__ = ("partials",)

    def __init__(self) -> None:
        self.partials: List[float] = []

    def add(self, x: float) -> None:
        partials = self.partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def merge(self, other: "ExactSum") -> None:
        for p in other.partials:
            self.add(p)

    @property
    def value(self) -> float:
        return math.fsum(self.partials)


class CorpusAccumulator:
    """Streaming sufficient statistics of a corpus: exact sums of per-example P, R, F per type, the
    count and the token lengths. Memory is constant unless per-example values are kept
    (``keep_values``, needed for bootstrap intervals). Accumulators merge exactly (``merge``).
    """

    def __init__(self, rouge_types: Sequence[str], keep_values: bool = False) -> None:
        self.rouge_types = tuple(rouge_types)
        self.n = 0
        self._sums = {t: (ExactSum(), ExactSum(), ExactSum()) for t in self.rouge_types}
        self._pred_len = ExactSum()
        self._ref_len = ExactSum()
        self.keep_values = keep_values
        # type -> flat array of (P, R, F) triples, in arrival order
        self.values: Optional[Dict[str, array]] = (
            {t: array("d") for t in self.rouge_types} if keep_values else None
        )

    def add(self, scores: Dict[str, Score], pred_len: float, ref_len: float) -> None:
        for t in self.rouge_types:
            sc = scores[t]
            sp, sr, sf = self._sums[t]
            sp.add(sc[0])
            sr.add(sc[1])
            sf.add(sc[2])
            if self.values is not None:
                self.values[t].extend(sc)
        self._pred_len.add(pred_len)
        self._ref_len.add(ref_len)
        self.n += 1

    @classmethod
    def from_partials(cls, rouge_types: Sequence[str], n: int, partials: Sequence[Sequence[float]],
                      values: Optional[Dict[str, Sequence[float]]] = None) -> "CorpusAccumulator":
        """An accumulator of ``n`` examples from exact partial sums computed elsewhere (the native
        batch scorer): ``partials`` holds the Shewchuk partials of each column in the order
        P, R, F of every type, then prediction length, reference length. ``values`` (type -> flat
        (P, R, F) per example) is kept when given."""
        acc = cls(rouge_types, keep_values=values is not None)
        sums = [es for t in acc.rouge_types for es in acc._sums[t]] + [acc._pred_len, acc._ref_len]
        if len(partials) != len(sums):
            raise ValueError(f"partials: expected {len(sums)} columns, got {len(partials)}")
        for es, p in zip(sums, partials):
            es.partials = [float(x) for x in p]
        acc.n = n
        if values is not None:
            for t in acc.rouge_types:
                acc.values[t].extend(values[t])  # type: ignore[index]
        return acc

    def merge(self, other: "CorpusAccumulator") -> None:
        if other.rouge_types != self.rouge_types:
            raise ValueError(f"cannot merge accumulators of types {other.rouge_types} into {self.rouge_types}")
        for t in self.rouge_types:
            for a, b in zip(self._sums[t], other._sums[t]):
                a.merge(b)
            if self.values is not None:
                if other.values is None:
                    raise ValueError("cannot merge an accumulator without kept values into one with them")
                self.values[t].extend(other.values[t])
        self._pred_len.merge(other._pred_len)
        self._ref_len.merge(other._ref_len)
        self.n += other.n

    def means(self) -> Dict[str, Score]:
        n = self.n
        if n == 0:
            return {t: Score(0.0, 0.0, 0.0) for t in self.rouge_types}
        return {t: Score(*(s.value / n for s in self._sums[t])) for t in self.rouge_types}

    def mean_lengths(self):
        n = max(self.n, 1)
        return self._pred_len.value / n, self._ref_len.value / n


def bootstrap(values: Dict[str, Sequence[float]], means: Dict[str, Score], n_resamples: int,
              confidence_level: float, seed: int, chunk: int = 64) -> Dict[str, AggregateScore]:
    """Percentile bootstrap of the mean, paired across types and statistics.

    ``values[t]`` is the flat (P, R, F) sequence of the examples. Resample i draws N example indices
    with replacement from ``numpy.random.default_rng(seed)``; every type uses the same draws. ``low``
    and ``high`` are the (1-cl)/2 and (1+cl)/2 percentiles (linear interpolation) of the resampled
    means; ``mid`` is the exact sample mean. Deterministic for a seed, in every process.
    O(n_resamples * N * types) time, O(chunk * N) memory.
    """
    import numpy as np

    types = list(values)
    if not types:
        return {}
    mats = [np.asarray(values[t], dtype=np.float64).reshape(-1, 3) for t in types]
    n = mats[0].shape[0]
    if n == 0:
        z = Score(0.0, 0.0, 0.0)
        return {t: AggregateScore(z, z, z) for t in types}
    data = np.concatenate(mats, axis=1)  # (N, 3 * types)
    rng = np.random.default_rng(seed)
    resampled = np.empty((n_resamples, data.shape[1]), dtype=np.float64)
    for start in range(0, n_resamples, chunk):
        stop = min(start + chunk, n_resamples)
        idx = rng.integers(0, n, size=(stop - start, n))
        resampled[start:stop] = data[idx].mean(axis=1)
    delta = (1.0 - confidence_level) / 2.0
    low, high = np.percentile(resampled, [100.0 * delta, 100.0 * (1.0 - delta)], axis=0)
    out: Dict[str, AggregateScore] = {}
    for k, t in enumerate(types):
        sl = slice(3 * k, 3 * k + 3)
        out[t] = AggregateScore(
            low=Score(*map(float, low[sl])), mid=means[t], high=Score(*map(float, high[sl]))
        )
    return out


def mean_of(values: Iterable[float]) -> float:
    """Exact mean (0.0 for no values)."""
    vals = list(values)
    return math.fsum(vals) / len(vals) if vals else 0.0
