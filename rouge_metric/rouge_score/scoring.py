"""``rouge_score.scoring`` of rouge-score 0.1.2: ``Score``, ``AggregateScore``, ``BaseScorer``,
``BootstrapAggregator`` and ``fmeasure``.

:class:`BootstrapAggregator` gives rouge-score's low/mid/high floats for the same state of numpy's
global legacy generator (``np.random.seed``, ``np.random.set_state``) and leaves the generator in the
same state, but draws every resample of a type in a few calls and sums them in one vectorized pass:

- the indices: rouge-score draws ``np.random.choice(np.arange(n), size=n)`` once per resample, which
  is ``np.random.randint(0, n, size=n)``; the legacy bounded-integer sampler consumes the stream element
  by element, so one ``randint(0, n, size=b * n)`` call gives the same indices, resample after resample,
  and the same final state;
- the means: ``np.mean(sample, axis=0)`` on an ``(n, k)`` array adds the rows in order and divides by
  ``n``; ``np.add.reduce`` over axis 0 of the ``(n, b, k)`` gathered block adds the same values in the
  same order for every resample at once;
- the percentiles: numpy's ``np.percentile`` on the same ``(n_samples, k)`` means.

One score (``n == 1``): ``randint(0, 1)`` consumes nothing, every resample is that score, so the
means are computed once, no index is drawn and every percentile is that mean (rouge-score computes
1,000 resamples and three percentiles to get the same floats). Identical rows are summed once too (their draws are still consumed). Cost per type:
``O(n_samples * n * k)`` additions, as rouge-score, in ``O(block)`` memory.

>>> import numpy as np
>>> agg = BootstrapAggregator()
>>> agg.add_scores({"rouge1": Score(precision=0.5, recall=1.0, fmeasure=2 / 3)})
>>> mid = agg.aggregate()["rouge1"].mid
>>> type(mid).__name__, type(mid.fmeasure).__name__, float(mid.fmeasure)
('Score', 'float64', 0.6666666666666666)
"""

from __future__ import annotations

import abc
import collections
import operator
from typing import Any, Dict

from ..result import Score

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]

#: Gathered values per vectorized block of resamples (4 MB of float64: the gather stays in cache).
_BLOCK_VALUES = 1 << 19


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """rouge-score's confidence interval: ``low``/``mid``/``high`` are the lower, 50th and upper
    percentiles of the bootstrap means (``mid`` is a median of resampled means, not the sample mean:
    a different quantity from :class:`rouge_metric.AggregateScore`'s ``mid``, hence a different type)."""

    __slots__ = ()


class BaseScorer(object, metaclass=abc.ABCMeta):
    """Base class of scorers: ``score(target, prediction) -> {type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """The scores of ``prediction`` against ``target``."""


def fmeasure(precision: float, recall: float) -> float:
    """rouge-score's F1: ``2PR / (P + R)``, or 0.0 when ``P + R`` is not positive."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


class BootstrapAggregator(object):
    """Aggregates scores into bootstrap confidence intervals (rouge-score's, to the bit; see the module).

    ``confidence_interval`` in [0, 1] and ``n_samples`` > 0, else ValueError (rouge-score's messages).
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores: Dict[Any, list] = collections.defaultdict(list)

    def add_scores(self, scores: Dict[Any, Any]) -> None:
        """Add one example's ``{type: score}`` (a Score or any tuple of numbers)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> Dict[Any, AggregateScore]:
        """``{type: AggregateScore}`` of the scores added so far, types in insertion order; each
        bound is of the class of the first score of its type, holding ``numpy.float64`` values."""
        import numpy as np

        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))
            percentiles = self._bootstrap_resample(matrix)
            cls = scores[0].__class__
            result[score_type] = AggregateScore(*(cls(*percentiles[j, :]) for j in range(3)))
        return result

    def _bootstrap_resample(self, matrix: Any) -> Any:
        """The ``(3, k)`` low/mid/high percentiles of the resampled column means of ``matrix`` (n, k)."""
        import numpy as np

        means = resample_means(matrix, self._n_samples)
        ci = self._confidence_interval
        if matrix.shape[0] == 1 and type(ci) in (int, float) and 0 <= ci <= 1:
            row = means[0]
            if np.isfinite(row).all() and not np.signbit(row).any():
                # every resample mean is this row: numpy's linear interpolation between two equal finite
                # values (a + 0 * t, or b - 0 * (1 - t)) is the value itself, for every percentile
                return np.vstack((row, row, row))
        delta = (1 - ci) / 2
        q = 100 * np.array([delta, 0.5, 1 - delta])
        return np.percentile(means, q, axis=0)


def resample_means(matrix: Any, n_samples: Any) -> Any:
    """``(n_samples, k)`` float64 means of bootstrap resamples of the rows of ``matrix``, drawn from
    numpy's global legacy generator exactly as ``n_samples`` calls of
    ``np.mean(matrix[np.random.choice(np.arange(n), size=n)], axis=0)`` would (same values, same
    generator state afterwards)."""
    import numpy as np

    n, k = matrix.shape
    means = np.zeros((n_samples, k))  # numpy's own check of n_samples, as in rouge-score
    try:
        samples = operator.index(n_samples)
    except TypeError:  # pragma: no cover - np.zeros accepted it: an integer-like object
        return _resample_means_loop(matrix, n_samples)
    if n == 1:  # randint(0, 1) draws nothing: every resample is the one row
        means[:] = np.mean(matrix, axis=0)
        return means
    kind = matrix.dtype.kind
    if kind == "f" and matrix.dtype == np.float64:
        rows = matrix
    elif kind in "iub" and (matrix.size == 0 or float(np.abs(matrix).max()) * n < 2.0 ** 53):
        rows = matrix.astype(np.float64)  # integer sums below 2**53 are exact in any order
    else:  # float32/float16/object/complex: np.mean's own dtype rules, one resample at a time
        return _resample_means_loop(matrix, samples)
    constant = bool((rows == rows[0]).all())
    if constant:  # every resample is the same sequence of rows: one mean, draws still consumed
        means[:] = np.mean(rows, axis=0)
    block = max(1, _BLOCK_VALUES // (n * max(k, 1)))
    for start in range(0, samples, block):
        b = min(block, samples - start)
        idx = np.random.randint(0, n, size=b * n)
        if constant:
            continue
        order = np.ascontiguousarray(idx.reshape(b, n).T)  # (n, b): row i = draw i of every resample
        gathered = rows[order]  # (n, b, k), C order
        sums = np.add.reduce(gathered, axis=0)  # outer loop over the n draws: np.mean's order
        np.true_divide(sums, n, out=means[start:start + b])
    return means


def _resample_means_loop(matrix: Any, n_samples: Any) -> Any:
    """rouge-score's resampling loop, one ``np.random.choice`` and ``np.mean`` per resample: the
    reference for inputs outside the vectorized path (non-integer ``n_samples``, float32 scores)."""
    import numpy as np

    means = np.zeros((n_samples, matrix.shape[1]))
    population = np.arange(matrix.shape[0])
    for i in range(n_samples):
        means[i, :] = np.mean(matrix[np.random.choice(population, size=matrix.shape[0]), :], axis=0)
    return means
