"""Aggregation of per-example scores: exact mean, seeded bootstrap confidence intervals, and
ROUGE-1.5.5's own averaging (the mean of its ``srand(i)`` resamples, rounded as the script prints).

One file because every way of turning per-example scores into a corpus number lives in one place:
the exact sums they all start from, the streaming accumulator, and the two resampling schemes.

The mean is exact (correctly rounded, like ``math.fsum``), so it does not depend on the order in
which examples arrive: batches, threads and processes merged in any order give the same floats.
"""

from __future__ import annotations

import math
from array import array
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

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

    def add_all(self, xs: Iterable[float]) -> None:
        """Add every value of ``xs``, in order."""
        for x in xs:
            self.add(x)

    def merge(self, other: "ExactSum") -> None:
        self.add_all(other.partials)

    @property
    def value(self) -> float:
        return math.fsum(self.partials)

    # ---- fixed-point form: the exact sum as an integer count of 2**-1074 (the smallest double)
    def to_int(self) -> int:
        """The exact sum times ``2**1074`` (an integer: every double is a multiple of ``2**-1074``).
        Integers add exactly in any order, so this form survives reductions that only add (an
        all-reduce of integer limbs, :func:`to_limbs`). O(len(partials)) big-integer operations."""
        total = 0
        for p in self.partials:
            total += _scaled(p)
        return total

    @classmethod
    def from_int(cls, scaled: int) -> "ExactSum":
        """The sum ``scaled * 2**-1074`` as partials (non-overlapping, increasing magnitude): its
        ``value`` is the correctly rounded float of that number, as after adding the values one by one.
        Raises OverflowError beyond the double range."""
        es = cls()
        parts: List[float] = []
        while scaled:
            x = scaled / _FIXED_ONE  # int / int is correctly rounded in Python
            parts.append(x)
            scaled -= _scaled(x)
        parts.reverse()
        es.partials = parts
        return es


#: ``2**1074``: the exact fixed-point scale of :meth:`ExactSum.to_int` (``2**-1074`` is the smallest double).
_FIXED_ONE = 1 << 1074
#: Fixed-point limbs (:func:`to_limbs`): ``LIMBS`` signed 64-bit integers of ``LIMB_BITS`` bits each,
#: covering ``2**-1074`` up to magnitude ``2**77`` (the top limb is signed and keeps 31 bits).
LIMB_BITS = 32
LIMBS = 36


def _scaled(x: float) -> int:
    """``x * 2**1074`` as an exact integer (ValueError for inf or nan)."""
    try:
        num, den = x.as_integer_ratio()
    except (OverflowError, ValueError):
        raise ValueError(f"cannot sum a non-finite value exactly: {x!r}") from None
    return num << (1074 - den.bit_length() + 1)


def to_limbs(scaled: int) -> List[int]:
    """An integer (:meth:`ExactSum.to_int`) as :data:`LIMBS` limbs, low first: limb ``i`` holds bits
    ``[32 i, 32 i + 32)`` (in ``[0, 2**32)``), the last limb the signed rest. ``sum(limb_i << 32 i)``
    gives the integer back (:func:`from_limbs`) however the limbs were added: adding limb arrays
    elementwise (an all-reduce sum of int64 tensors) adds the integers exactly, with room for 2**31
    additions before a limb could overflow int64."""
    mask = (1 << LIMB_BITS) - 1
    out = [(scaled >> (LIMB_BITS * i)) & mask for i in range(LIMBS - 1)]
    top = scaled >> (LIMB_BITS * (LIMBS - 1))
    if not -(1 << 31) <= top < (1 << 31):
        raise OverflowError(f"sum of magnitude {abs(scaled) / _FIXED_ONE:.3g} beyond the fixed-point range 2**77")
    out.append(top)
    return out


def from_limbs(limbs: Iterable[int]) -> int:
    """The integer of :func:`to_limbs` limbs (any values, e.g. sums of limbs from several processes)."""
    total = 0
    for i, v in enumerate(limbs):
        total += int(v) << (LIMB_BITS * i)
    return total


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
        for es, p in zip(acc._columns_for(partials), partials):
            es.partials = [float(x) for x in p]
        acc.n = n
        if values is not None:
            for t in acc.rouge_types:
                acc.values[t].extend(values[t])  # type: ignore[index]
        return acc

    def add_batch(self, batch: Any) -> None:
        """Add a :class:`~rouge_metric.backends.ScoreBatch`: its exact partial sums when it has them
        (the native scorer's; the same correctly rounded means as adding its examples one by one),
        otherwise its examples one by one. Values are kept when this accumulator keeps them."""
        if tuple(batch.rouge_types) != self.rouge_types:
            raise ValueError(f"cannot merge scores of types {tuple(batch.rouge_types)} into {self.rouge_types}")
        if batch.partials is None:
            for scores, pl, rl in batch.examples():
                self.add(scores, pl, rl)
            return
        if self.values is not None and batch.values is None:
            raise ValueError("add_batch: this accumulator keeps values; score the batch with values=True")
        # As merge(from_partials(...)) does, without the intermediate accumulator: each column's
        # partials added in order (the same exact sums).
        for es, p in zip(self._columns_for(batch.partials), batch.partials):
            es.add_all(map(float, p))
        if self.values is not None:
            for k, t in enumerate(self.rouge_types):
                self.values[t].extend(batch.type_values(k))
        self.n += batch.n

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

    def columns(self) -> List[ExactSum]:
        """The exact sums in the order of :meth:`from_partials`: P, R, F of every type, then the
        prediction and reference lengths."""
        return [es for t in self.rouge_types for es in self._sums[t]] + [self._pred_len, self._ref_len]

    def _columns_for(self, partials: Sequence[Sequence[float]]) -> List[ExactSum]:
        """:meth:`columns`, checked to pair one to one with ``partials`` (one list per column)."""
        sums = self.columns()
        if len(partials) != len(sums):
            raise ValueError(f"partials: expected {len(sums)} columns, got {len(partials)}")
        return sums

    def state(self) -> Tuple[int, List[List[float]]]:
        """``(n, partials per column)``: plain ints and floats (picklable, an Arrow row), constant size
        (a few floats per column whatever ``n``). :meth:`from_partials` makes the accumulator back.
        Values kept for the bootstrap are not part of it."""
        return self.n, [list(es.partials) for es in self.columns()]

    def means(self) -> Dict[str, Score]:
        n = self.n
        if n == 0:
            return {t: Score(0.0, 0.0, 0.0) for t in self.rouge_types}
        return {t: Score(*(s.value / n for s in self._sums[t])) for t in self.rouge_types}

    def mean_lengths(self):
        n = max(self.n, 1)
        return self._pred_len.value / n, self._ref_len.value / n


#: Memory budget of the index rows of one resampling block, in bytes (drawn, then transposed):
#: memory stays flat whatever the number of resamples, and the results do not depend on it.
BLOCK_BYTES = 32 << 20
#: At most this many resamples per block.
MAX_BLOCK_ROWS = 64
#: Size of the gather buffer, in bytes (about an L2 cache).
CHUNK_BYTES = 512 << 10

ProgressFn = Callable[[int], None]


def resampled_means(table: Any, draw_rows: Callable[[int], Any], n_rows: int, row_len: int,
                    progress: Optional[ProgressFn] = None) -> Any:
    """Means of ``table`` rows selected by index rows, in blocks: memory flat in ``n_rows``.

    ``draw_rows(b)`` returns the next ``b`` index rows, an integer array of shape ``(b, row_len)``
    with values in ``[0, len(table))``. Row ``r`` of the result (shape ``(n_rows, table.shape[1])``)
    is ``(table[i_0] + table[i_1] + ... + table[i_{row_len-1}]) / row_len``, summed left to right in
    float64, for the indices ``i_j`` of index row ``r``: the same floats as
    ``table[idx].mean(axis=1)`` on all index rows at once, whatever the block sizes.

    Index rows are drawn in blocks of at most :data:`MAX_BLOCK_ROWS` (the rows and their transposed
    copy, ``16 * b * row_len`` bytes, under :data:`BLOCK_BYTES`); for each group of 4 columns, the rows of a block are gathered in chunks of
    :data:`CHUNK_BYTES` whose sums carry over from chunk to chunk. ``progress(b)`` is called after
    each block of ``b`` rows. With the native backend each block is one call of
    ``_native.resample_means`` (the same sums in C++). O(n_rows * row_len * columns) time (random reads of ``table``),
    O(BLOCK_BYTES + CHUNK_BYTES + table + n_rows * columns) memory.
    """
    import numpy as np

    table = np.asarray(table, dtype=np.float64)
    n_items, k = table.shape
    out = np.empty((n_rows, k), dtype=np.float64)
    if n_rows == 0 or k == 0:
        return out
    if row_len == 0:
        raise ValueError("resampled_means: index rows of length 0 have no mean")
    native = _native_resample_means()
    if native is not None:  # the same floats, one pass over each index row in C++ (no copies)
        table = np.ascontiguousarray(table)

        def block_means(idx: Any) -> Any:
            return native(table, idx)
    else:
        # Columns in groups of 4 (zero-padded), each group a contiguous array of 32-byte items: numpy's
        # take copies items of up to 32 bytes without a memmove per item, and one group's table is a
        # third of the cache footprint of whole rows.
        item = np.dtype((np.void, 32))
        groups = []
        for g0 in range(0, k, 4):
            grp = np.zeros((n_items, 4), dtype=np.float64)
            grp[:, :min(4, k - g0)] = table[:, g0:g0 + 4]
            groups.append(grp.view(item).reshape(n_items))

        def block_means(idx: Any) -> Any:
            cols_all = np.ascontiguousarray(idx.T, dtype=np.intp)  # (row_len, b): example j of every row
            sums = np.concatenate([_sequential_sums(items, cols_all) for items in groups], axis=1)
            return sums[:, :k] / row_len

    block = max(1, min(MAX_BLOCK_ROWS, BLOCK_BYTES // (16 * row_len)))
    for r0 in range(0, n_rows, block):
        b = min(block, n_rows - r0)
        idx = np.asarray(draw_rows(b))
        if idx.shape != (b, row_len):
            raise ValueError(f"draw_rows({b}) returned shape {idx.shape}, expected {(b, row_len)}")
        out[r0:r0 + b] = block_means(idx)
        del idx  # before the next block is drawn: one block alive at a time
        if progress is not None:
            progress(b)
    return out


def _native_resample_means() -> Optional[Callable[[Any, Any], Any]]:
    """The compiled twin of the numpy path of :func:`resampled_means` (``_native.resample_means``)
    when the native backend is active, else None (``ROUGE_METRIC_BACKEND=python`` forces numpy)."""
    from . import core

    if core.get_backend() != "native":
        return None
    return getattr(core.kernels("native"), "resample_means", None)


def _sequential_sums(items: Any, cols_all: Any) -> Any:
    """``(b, 4)`` sums of the 32-byte ``items[cols_all[j, r]]`` over ``j``, left to right, gathered in
    chunks of :data:`CHUNK_BYTES`."""
    import numpy as np

    row_len, b = cols_all.shape
    item = items.dtype
    chunk = max(1, min(row_len, CHUNK_BYTES // (32 * b)))
    # buf[0] carries the running sums; buf[1:] receives the next chunk of gathered values, so that
    # reducing axis 0 (inner loop over the 4 * b sums) continues every sum in order.
    buf = np.empty((chunk + 1, b, 4), dtype=np.float64)
    acc = None
    for j0 in range(0, row_len, chunk):
        cols = cols_all[j0:j0 + chunk]
        m = cols.shape[0]
        dest = buf[1:m + 1]
        np.take(items, cols, out=dest.view(item).reshape(m, b), mode="clip")
        if acc is None:
            acc = dest.sum(axis=0)
        else:
            buf[0] = acc
            acc = buf[:m + 1].sum(axis=0)
    return acc


def bootstrap_rows(rng: Any, n: int) -> Callable[[int], Any]:
    """Index rows of bootstrap resamples: each row ``rng.integers(0, n, size=n)``, drawn ``b`` rows
    at a time (the same stream of integers for any ``b``; also what ``rng.choice(n, (b, n))`` and
    scipy.stats.bootstrap draw from the same generator)."""
    return lambda b: rng.integers(0, n, size=(b, n))


def bootstrap(values: Dict[str, Sequence[float]], means: Dict[str, Score], n_resamples: int,
              confidence_level: float, seed: int, progress: Optional[ProgressFn] = None
              ) -> Dict[str, AggregateScore]:
    """Percentile bootstrap of the mean, paired across types and statistics.

    ``values[t]`` is the flat (P, R, F) sequence of the examples. Resample i draws N example indices
    with replacement from ``numpy.random.default_rng(seed)``; every type uses the same draws. ``low``
    and ``high`` are the (1-cl)/2 and (1+cl)/2 percentiles (linear interpolation) of the resampled
    means; ``mid`` is the exact sample mean. Deterministic for a seed, in every process.
    O(n_resamples * N * types) time; memory flat in ``n_resamples`` (:func:`resampled_means`).
    ``progress(k)`` is called as blocks of ``k`` resamples finish.
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
    resampled = resampled_means(data, bootstrap_rows(rng, n), n_resamples, n, progress)
    low, high = percentile_interval(resampled, confidence_level)
    out: Dict[str, AggregateScore] = {}
    for k, t in enumerate(types):
        sl = slice(3 * k, 3 * k + 3)
        out[t] = AggregateScore(
            low=Score(*map(float, low[sl])), mid=means[t], high=Score(*map(float, high[sl]))
        )
    return out


def percentile_interval(resampled: Any, confidence_level: float) -> Tuple[Any, Any]:
    """Per column, the (1-cl)/2 and (1+cl)/2 percentiles (linear interpolation) of the rows."""
    import numpy as np

    delta = (1.0 - confidence_level) / 2.0
    low, high = np.percentile(resampled, [100.0 * delta, 100.0 * (1.0 - delta)], axis=0)
    return low, high


def round5(x: float) -> float:
    """ROUGE-1.5.5's ``sprintf("%7.5f", x)`` read back as a number."""
    return float("%.5f" % x)


def mean_of(values: Iterable[float]) -> float:
    """Exact mean (0.0 for no values)."""
    vals = list(values)
    return math.fsum(vals) / len(vals) if vals else 0.0


# ------------------------------------------------------------------ ROUGE-1.5.5's averaging
def perl_rand_indices(n_seeds: int, n: int):
    """For seeds i = 0..n_seeds-1 at once: Perl's ``srand(i)`` then n times ``int(rand(n))``; yields one
    array (the draw of every seed) per step. Perl >= 5.20 uses its own drand48: x0 = (seed << 16) + 0x330E,
    x = (0x5DEECE66D * x + 0xB) mod 2^48, rand(n) = n * (x / 2^48). O(n_seeds * n)."""
    import numpy as np

    x = (np.arange(n_seeds, dtype=np.uint64) & np.uint64(0xFFFFFFFF)) << np.uint64(16)
    x += np.uint64(0x330E)
    a, c, mask = np.uint64(0x5DEECE66D), np.uint64(0xB), np.uint64(0xFFFFFFFFFFFF)
    fn = float(n)
    for _ in range(n):
        x = (x * a + c) & mask  # wraps mod 2^64, and 2^48 divides 2^64
        yield (fn * (x.astype(np.float64) * 3.552713678800501e-15)).astype(np.int64)  # 2^-48


def perl_bootstrap(values: Sequence[Tuple[float, float, float]], n_resamples: int = 1000,
                   confidence: float = 95.0) -> Tuple[Tuple[float, float, float], Tuple[float, float, float],
                                                      Tuple[float, float, float]]:
    """The script's ``computeAverages`` for one measure: for resample i = 0..n_resamples-1, ``srand(i)``
    and the mean of N values drawn with ``int(rand(N))`` (summed in draw order); the printed average is
    the mean of the ascending-sorted resample means and the interval interpolates between sorted
    resample means at ``int(delta)`` and ``int(R - delta - 1)``, delta = R * (100 - cf) / 2 / 100.
    Everything rounded with ``%7.5f``.

    ``values`` are the rounded per-case (R, P, F) triples in the script's instance order (keys sorted
    as strings, see :meth:`rouge_metric.rouge155.Rouge155.compute`). Returns ((avgR, avgP, avgF), (lowR, lowP, lowF),
    (highR, highP, highF)). O(n_resamples * N).

    >>> perl_bootstrap([(1.0, 0.5, 0.66667), (0.0, 0.0, 0.0)], n_resamples=10)
    ((0.55, 0.275, 0.36667), (0.0, 0.0, 0.0), (1.0, 0.5, 0.66667))
    """
    avg, low, high = perl_bootstrap_columns([list(v) for v in values], n_resamples, confidence, width=3)
    return tuple(avg), tuple(low), tuple(high)  # type: ignore[return-value]


def perl_bootstrap_columns(rows: Sequence[Sequence[float]], n_resamples: int, confidence: float,
                           width: int) -> Tuple[List[float], List[float], List[float]]:
    """:func:`perl_bootstrap` for several measures at once (every column of ``rows`` is one value of one
    measure; all columns see the same draws, as in the script where every measure reseeds with
    ``srand(i)``). Vectorized over the resamples with numpy, in the script's floating-point order.
    O(n_resamples * N * width) time, O(n_resamples * width) memory beyond the input."""
    import numpy as np

    n = len(rows)
    if n == 0:
        z = [0.0] * width
        return z, list(z), list(z)
    V = np.asarray(rows, dtype=np.float64).reshape(n, width)
    R = n_resamples
    fn = float(n)
    S = None
    for idx in perl_rand_indices(R, n):
        if S is None:
            S = V[idx].copy()
        else:
            S += V[idx]  # summed in draw order, as the script
    means = S / fn
    delta = R * ((100 - confidence) / 2.0) / 100.0
    ci_ua = int(R - delta - 1)
    ci_la = int(delta)
    ci_r = R - delta - 1 - ci_ua
    avg, low, high = [], [], []
    for k in range(width):
        srt = np.sort(means[:, k]).tolist()
        acc = 0.0
        for v in srt:  # sequential, as the script (not pairwise, not compensated)
            acc += v
        avg.append(round5(acc / R))

        def at(i: int) -> float:
            return srt[i] if 0 <= i < R else 0.0  # the script reads an undef element as 0

        low.append(round5(at(ci_la) + (at(ci_la + 1) - at(ci_la)) * ci_r))
        high.append(round5(at(ci_ua) + (at(ci_ua + 1) - at(ci_ua)) * ci_r))
    return avg, low, high
