"""Textbook oracles shared by the kernel tests of both backends, and the harness oracles that cannot be
installed here (HF evaluate's Hub ``rouge`` script, HELM)."""

from pathlib import Path


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
    """The unblocked bootstrap: chunks of 64 resamples gathered whole, ``data[idx]`` of shape
    (64, N, 3 * types) at once, with the same draws as ``rouge_metric.aggregate.bootstrap``.
    The oracle of the blocked implementation, which must give the same floats."""
    import numpy as np

    from rouge_metric.result import AggregateScore, Score

    types = list(values)
    n = len(values[types[0]]) // 3 if types else 0
    if n == 0:  # no type, or no example: nothing to resample
        zero = Score(0.0, 0.0, 0.0)
        return {t: AggregateScore(zero, zero, zero) for t in types}
    # one row per example: P, R, F of the first type, then of the next ones
    data = np.array([[values[t][3 * i + j] for t in types for j in range(3)] for i in range(n)], dtype=np.float64)
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


# ---- harness code that cannot be installed or fetched here, re-created on the real rouge-score

#: HF evaluate's Hub ``rouge`` script, re-created as a real module script (tests/hub_rouge/rouge.py).
HUB_ROUGE_SCRIPT = Path(__file__).resolve().parent / "hub_rouge" / "rouge.py"


def load_hub_rouge(**kwargs):
    """``evaluate.load`` of the Hub ``rouge`` script from its local path (offline; ``kwargs`` as
    ``evaluate.load`` takes them: ``seed``, ``keep_in_memory``, ``module_type``...)."""
    import evaluate

    return evaluate.load(str(HUB_ROUGE_SCRIPT), **kwargs)


def evaluate_load_for_mlflow(path, module_type="metric"):
    """A replacement for MLflow's ``_cached_evaluate_load`` that loads ``"rouge"`` from
    :data:`HUB_ROUGE_SCRIPT` through ``evaluate.load`` (MLflow fetches the script from the Hub)."""
    assert path == "rouge", path
    return load_hub_rouge(module_type=module_type)


def helm_reference_rouge(completions, golds, metric):
    """HELM's ``rouge_1/2/l`` and ``chinese_rouge_1/2`` (crfm-helm 0.5.6), re-created on rouge-score
    (crfm-helm's dependency tree is too large to install here):
    ``metrics/evaluate_reference_metrics.py::get_rouge_function`` (``RougeScorer([t], use_stemmer=True)``),
    ``get_chinese_rouge_function`` (same with ``cleva_metrics_helper.ChineseTokenizer``: every character),
    ``compute_reference_metrics.compute_metrics_helper`` (``max`` over golds of ``score(gold, preds[0])``,
    completions stripped) and ``Stat`` (sum / count). Returns (mean, per-instance values)."""
    from rouge_score import rouge_scorer

    rtype = {"rouge_1": "rouge1", "rouge_2": "rouge2", "rouge_l": "rougeL",
             "chinese_rouge_1": "rouge1", "chinese_rouge_2": "rouge2"}[metric]

    class ChineseTokenizer:
        def tokenize(self, text):
            return [c for c in text]

    tok = ChineseTokenizer() if metric.startswith("chinese_") else None
    scorer = rouge_scorer.RougeScorer([rtype], use_stemmer=True, tokenizer=tok)
    per = []
    for comps, gs in zip(completions, golds):
        preds = [c.strip() for c in comps]
        per.append(max(scorer.score(g, preds[0])[rtype].fmeasure for g in gs))
    total, count = 0, 0
    for v in per:
        total += v
        count += 1
    return total / count, per
