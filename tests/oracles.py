"""Textbook oracles shared by the kernel tests of both backends."""


def lcs_table(a, b):
    """The O(mn) LCS dynamic-programming table (rows over ``a``)."""
    t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def lcs_indices(ref, can):
    """rouge-score's ``_backtrack_norec`` tie-breaking, written from its definition, on the table."""
    t = lcs_table(ref, can)
    i, j, out = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.insert(0, i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out


def bootstrap_all_at_once(values, means, n_resamples, confidence_level, seed, chunk=64):
    """``rouge_metric.aggregate.bootstrap`` as it was before resampling went blockwise (commit a761fbb),
    verbatim: chunks of 64 resamples gathered whole, ``data[idx]`` of shape (64, N, 3 * types) at once.
    The oracle of the blocked implementation, which must give the same floats."""
    import numpy as np

    from rouge_metric.result import AggregateScore, Score

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
    out = {}
    for k, t in enumerate(types):
        sl = slice(3 * k, 3 * k + 3)
        out[t] = AggregateScore(
            low=Score(*map(float, low[sl])), mid=means[t], high=Score(*map(float, high[sl]))
        )
    return out
