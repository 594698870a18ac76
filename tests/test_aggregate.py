"""aggregate.py: the blocked resampling engine and the bootstrap built on it.

The bootstrap resamples in blocks (memory flat in the number of resamples); its oracle is the unblocked
gather of tests/oracles.py, which gathers every chunk of 64 resamples at once: the two must give the
same floats for every seed, size and block size.
"""

import tracemalloc
from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracles import bootstrap_all_at_once
from rouge_metric import aggregate, core
from rouge_metric.aggregate import bootstrap, bootstrap_rows, resampled_means
from rouge_metric.result import Score


#: Both twins of resampled_means: numpy (python backend) and _native.resample_means.
BACKENDS = ["python"] + (["native"] if core.native_available() else [])


def _values(n, n_types, seed, spread=True):
    rng = np.random.default_rng(seed)
    vals = {}
    for k in range(n_types):
        v = rng.random(3 * n)
        if spread:  # magnitudes far apart make any change of summation order visible in the last bits
            v *= rng.choice([1e-9, 1e-3, 1.0, 1e3], size=3 * n)
        vals[f"rouge{k + 1}"] = v.tolist()
    means = {t: Score(*(float(np.mean(v[i::3])) for i in range(3))) for t, v in vals.items()}
    return vals, means


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few rows and chunks of a few examples: every carry path runs."""
    def set_(block_bytes, chunk_bytes, max_rows):
        monkeypatch.setattr(aggregate, "BLOCK_BYTES", block_bytes)
        monkeypatch.setattr(aggregate, "CHUNK_BYTES", chunk_bytes)
        monkeypatch.setattr(aggregate, "MAX_BLOCK_ROWS", max_rows)
    return set_


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 300), n_types=st.integers(1, 5), n_resamples=st.integers(1, 200),
       seed=st.integers(0, 2**32), cl=st.floats(0.5, 0.99),
       block_bytes=st.sampled_from([1, 256, 4096, 32 << 20]), chunk_bytes=st.sampled_from([1, 100, 2048, 512 << 10]),
       max_rows=st.sampled_from([1, 3, 64]))
@pytest.mark.parametrize("backend", BACKENDS)
def test_blocked_bootstrap_equals_the_previous_implementation(backend, n, n_types, n_resamples, seed, cl, block_bytes,
                                                             chunk_bytes, max_rows):
    vals, means = _values(n, n_types, seed % 1000)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ROUGE_METRIC_BACKEND", backend)
        mp.setattr(aggregate, "BLOCK_BYTES", block_bytes)
        mp.setattr(aggregate, "CHUNK_BYTES", chunk_bytes)
        mp.setattr(aggregate, "MAX_BLOCK_ROWS", max_rows)
        got = bootstrap(vals, means, n_resamples, cl, seed)
    assert got == bootstrap_all_at_once(vals, means, n_resamples, cl, seed)


@pytest.mark.parametrize("backend", BACKENDS)
def test_blocked_bootstrap_equals_the_previous_implementation_default_blocks(backend, monkeypatch):
    # 20,000 examples x 4 types: several blocks of rows and several chunks per block at the real sizes.
    monkeypatch.setenv("ROUGE_METRIC_BACKEND", backend)
    vals, means = _values(20_000, 4, 5)
    assert bootstrap(vals, means, 150, 0.95, 42) == bootstrap_all_at_once(vals, means, 150, 0.95, 42)


@pytest.mark.parametrize("backend", BACKENDS)
def test_resampled_means_rows_are_sequential_means(backend, monkeypatch):
    monkeypatch.setenv("ROUGE_METRIC_BACKEND", backend)
    table = np.random.default_rng(0).random((50, 7)) * 1e3
    idx = np.random.default_rng(1).integers(0, 50, size=(9, 23))
    it = iter(idx)
    got = resampled_means(table, lambda b: np.stack([next(it) for _ in range(b)]), 9, 23)
    for r in range(9):
        for c in range(7):
            s = 0.0
            for i in idx[r]:  # left to right, as documented
                s = s + table[i, c] if s else table[i, c]
            assert got[r, c] == s / 23


def test_draws_are_sacrebleu_and_scipy_draws():
    # rng.choice(n, (R, n)) (sacreBLEU) and rng.integers(0, n, (R, n)) (scipy.stats.bootstrap) are one
    # stream; drawing it in blocks of any size gives the same rows.
    n, R = 37, 50
    want = np.random.default_rng(9).choice(n, size=(R, n), replace=True)
    draw = bootstrap_rows(np.random.default_rng(9), n)
    got = np.concatenate([draw(b) for b in (1, 7, 13, 29)])
    assert (got == want).all()


def test_progress_covers_every_resample(small_blocks):
    small_blocks(8 * 40 * 16, 1024, 64)  # blocks of 8 resamples for 40 examples
    vals, means = _values(40, 2, 1)
    calls = []
    bootstrap(vals, means, 100, 0.9, 0, progress=calls.append)
    assert sum(calls) == 100 and len(calls) == 13


def test_memory_is_flat_in_the_number_of_resamples():
    vals, means = _values(20_000, 4, 2, spread=False)
    peaks = []
    for n_resamples in (64, 640):
        tracemalloc.start()
        bootstrap(vals, means, n_resamples, 0.95, 0)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    # 10x the resamples: only the (resamples x 12) float array of resampled means may grow.
    assert peaks[1] - peaks[0] < 576 * 12 * 8 * 3, peaks
    # ... and no block of the size of the oracle's (64, N, 12) gather (123 MB for these values).
    assert peaks[1] < aggregate.BLOCK_BYTES * 2 + 20_000 * 12 * 8 * 4, peaks


def test_zero_examples_and_no_types():
    assert bootstrap({}, {}, 10, 0.95, 0) == {}
    z = Score(0.0, 0.0, 0.0)
    assert bootstrap({"rouge1": []}, {"rouge1": z}, 10, 0.95, 0)["rouge1"].low == z


@pytest.mark.skipif("native" not in BACKENDS, reason="native extension not built")
@settings(max_examples=80, deadline=None)
@given(n_items=st.integers(1, 60), k=st.integers(1, 13), b=st.integers(0, 9), row_len=st.integers(1, 70),
       seed=st.integers(0, 2**32 - 1), layout=st.sampled_from(["c", "fortran", "strided"]))
def test_native_resample_means_is_numpys_gather_mean(n_items, k, b, row_len, seed, layout):
    # The compiled twin against numpy's sequential sums of table[idx], on any layout of the inputs and
    # magnitudes far apart (a different summation order would show in the last bits).
    from rouge_metric import _native

    rng = np.random.default_rng(seed)
    table = rng.random((n_items, k)) * rng.choice([1e-12, 1e-3, 1.0, 1e6], size=(n_items, k))
    idx = rng.integers(0, n_items, size=(b, row_len))
    if layout == "fortran":
        table, idx = np.asfortranarray(table), np.asfortranarray(idx)
    elif layout == "strided":
        table = np.repeat(table, 2, axis=1)[:, ::2]
        idx = np.repeat(idx, 2, axis=0)[::2]
    got = _native.resample_means(table, idx)
    assert got.shape == (b, k)
    # cumsum adds strictly left to right (numpy's mean does too across rows of >= 2 columns, which is
    # what the bootstrap's previous implementation relied on; with 1 column it sums pairwise).
    assert np.array_equal(got, np.cumsum(table[idx], axis=1)[:, -1, :] / row_len if b else np.empty((0, k)))


@pytest.mark.skipif("native" not in BACKENDS, reason="native extension not built")
def test_native_resample_means_rejects_bad_indices_and_shapes():
    from rouge_metric import _native

    table = np.zeros((5, 3))
    with pytest.raises(IndexError, match=r"idx\[1, 2\]: index out of range for a table of 5 rows"):
        _native.resample_means(table, np.array([[0, 1, 2], [3, 4, 5]]))
    with pytest.raises(IndexError, match=r"idx\[0, 0\]"):
        _native.resample_means(table, np.array([[-1]]))
    with pytest.raises(ValueError, match="table: expected a 2-d array"):
        _native.resample_means(np.zeros(5), np.zeros((1, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="idx: expected a 2-d array"):
        _native.resample_means(table, np.zeros(3, dtype=np.int64))


# ------------------------------------------------------------------------- batches into an accumulator
@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(1, 40), min_size=1, max_size=6), keep=st.booleans(), seed=st.integers(0, 2**32))
def test_add_batch_of_partials_is_math_fsum_of_the_examples(sizes, keep, seed):
    """Batches carrying exact partial sums, added in any split, give math.fsum of the per-example values
    (correctly rounded, the oracle) and keep the values in arrival order."""
    import math

    from rouge_metric.aggregate import CorpusAccumulator, ExactSum
    from rouge_metric.backends import ScoreBatch

    types = ("rouge1", "rougeL")
    rng = np.random.default_rng(seed)
    acc = CorpusAccumulator(types, keep_values=keep)
    allv, lens, start = [], [], 0
    for n in sizes:
        vals = (rng.random(n * 6) * rng.choice([1e-9, 1e-3, 1.0, 1e3], size=n * 6)).tolist()
        ln = rng.integers(0, 500, size=2 * n).astype(float).tolist()
        cols = [vals[c::6] for c in range(6)] + [ln[0::2], ln[1::2]]
        parts = []
        for col in cols:
            es = ExactSum()
            for x in col:
                es.add(x)
            parts.append(list(es.partials))
        acc.add_batch(ScoreBatch(types, start, n, None, ln, array("d", vals) if keep else None, parts))
        allv += vals
        lens += ln
        start += n
    N = len(allv) // 6
    assert acc.n == N
    means = acc.means()
    for k, t in enumerate(types):
        for s in range(3):
            assert means[t][s].hex() == (math.fsum(allv[k * 3 + s::6]) / N).hex()
    pl, rl = acc.mean_lengths()
    assert (pl.hex(), rl.hex()) == ((math.fsum(lens[0::2]) / N).hex(), (math.fsum(lens[1::2]) / N).hex())
    if keep:
        for k, t in enumerate(types):
            assert list(acc.values[t]) == [v for i in range(N) for v in allv[i * 6 + k * 3:i * 6 + k * 3 + 3]]


def test_add_batch_refuses_a_mismatch_and_changes_nothing():
    from rouge_metric.aggregate import CorpusAccumulator
    from rouge_metric.backends import ScoreBatch

    acc = CorpusAccumulator(("rouge1",), keep_values=True)
    acc.add_batch(ScoreBatch(("rouge1",), 0, 1, None, [3.0, 4.0], array("d", [0.5, 0.25, 1 / 3]), [[0.5], [0.25], [1 / 3], [3.0], [4.0]]))
    before = (acc.n, acc.state(), list(acc.values["rouge1"]))
    with pytest.raises(ValueError, match="partials: expected 5 columns, got 4"):
        acc.add_batch(ScoreBatch(("rouge1",), 1, 1, None, [3.0, 4.0], array("d", [0.5] * 3), [[0.5], [0.5], [0.5], [3.0]]))
    with pytest.raises(ValueError, match="keeps values; score the batch with values=True"):
        acc.add_batch(ScoreBatch(("rouge1",), 1, 1, None, [3.0, 4.0], None, [[0.5], [0.5], [0.5], [3.0], [4.0]]))
    with pytest.raises(ValueError, match="cannot merge scores of types"):
        acc.add_batch(ScoreBatch(("rouge2",), 1, 1, None, [3.0, 4.0], array("d", [0.5] * 3), [[0.5]] * 5))
    assert (acc.n, acc.state(), list(acc.values["rouge1"])) == before
