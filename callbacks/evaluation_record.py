"""What one evaluation keeps beyond the exact sums, for :class:`~rouge_metric.callbacks.RougeCallback`'s
HTML report and its histograms in TensorBoard.

:class:`EvaluationRecord` is filled from the core's :class:`~rouge_metric.backends.ScoreBatch` runs (the
per-example scores and lengths the scorer already computes for the corpus sums), so it adds no arithmetic
to the logged numbers and no second scoring pass. Its memory is bounded whatever the size of the eval set:

* the per-example F of every rouge type as a histogram of :data:`F_BINS` fixed bins on ``[0, scale]``,
  with its count, minimum, maximum, sum and sum of squares;
* the prediction and reference lengths (in ROUGE tokens; the mean over the references of an example) as
  counts per whole length (a length ``x`` counts in the bin ``(ceil(x) - 1, ceil(x)]``): at most one
  counter per distinct length, so bounded by the longest text, with the same five summary numbers;
* the texts of the first ``keep_texts`` examples (what the report is built from), or none.

:func:`log_to_tensorboard` writes a record through a TensorBoard ``SummaryWriter`` (the one of the
Trainer's ``TensorBoardCallback``).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

#: Fixed bins of the per-example F histograms (of width ``scale / F_BINS``).
F_BINS = 50


class Summary:
    """A histogram in constant memory: bin counts plus count, min, max, sum and sum of squares.

    ``limits`` are the right edges of the bins: a value ``v`` counts in the first bin whose limit is
    ``>= v`` (the last bin takes anything larger). With ``limits=None`` the bins are whole numbers, created
    as values arrive (``v`` counts under ``ceil(v)``).
    """

    __slots__ = ("limits", "counts", "n", "min", "max", "sum", "sum_squares")

    def __init__(self, limits: Optional[Sequence[float]] = None) -> None:
        self.limits = list(limits) if limits is not None else None
        self.counts: Dict[float, int] = {}
        self.n = 0
        self.min = math.inf
        self.max = -math.inf
        self.sum = 0.0
        self.sum_squares = 0.0

    def add(self, value: float) -> None:
        if self.limits is None:
            key = float(math.ceil(value))
        else:
            import bisect

            i = min(bisect.bisect_left(self.limits, value), len(self.limits) - 1)
            key = self.limits[i]
        self.counts[key] = self.counts.get(key, 0) + 1
        self.n += 1
        self.min = min(self.min, value)
        self.max = max(self.max, value)
        self.sum += value
        self.sum_squares += value * value

    @property
    def mean(self) -> float:
        return self.sum / self.n if self.n else 0.0

    def buckets(self) -> Tuple[List[float], List[int]]:
        """``(bucket_limits, bucket_counts)``: every fixed bin (empty ones too), or the whole-number bins seen."""
        if self.limits is not None:
            return list(self.limits), [self.counts.get(lim, 0) for lim in self.limits]
        keys = sorted(self.counts)
        return keys, [self.counts[k] for k in keys]


class EvaluationRecord:
    """The distributions (and optionally the first texts) of one evaluation; see the module docstring.

    Args:
        rouge_types: the types whose F is kept; scale: the logged scale of the scores (100 by default).
        keep_texts: how many predictions and references to keep, the first ones in evaluation order.
    """

    def __init__(self, rouge_types: Sequence[str], scale: float = 100.0, keep_texts: int = 0) -> None:
        self.rouge_types = tuple(rouge_types)
        self.scale = float(scale)
        self.keep_texts = int(keep_texts)
        limits = [self.scale * (i + 1) / F_BINS for i in range(F_BINS)]
        #: type -> histogram of the per-example F (scaled).
        self.f: Dict[str, Summary] = {t: Summary(limits) for t in self.rouge_types}
        self.pred_len = Summary()
        self.ref_len = Summary()
        #: The first ``keep_texts`` predictions and their references.
        self.predictions: List[Any] = []
        self.references: List[Any] = []

    @property
    def n(self) -> int:
        """Examples recorded (all of them count in the histograms, even past ``keep_texts``)."""
        return self.pred_len.n

    def add_batch(self, batch: Any, predictions: Sequence[Any], references: Sequence[Any]) -> None:
        """Record a scored run (a ``ScoreBatch`` with ``scores``) of ``predictions`` / ``references``, whose
        first example is ``predictions[0]`` (the run's ``start`` is relative to the whole scored input)."""
        for i, (scores, pred_len, ref_len) in enumerate(batch.examples()):
            for t in self.rouge_types:
                self.f[t].add(scores[t].fmeasure * self.scale)
            self.pred_len.add(pred_len)
            self.ref_len.add(ref_len)
            if len(self.predictions) < self.keep_texts:
                self.predictions.append(predictions[batch.start + i])
                self.references.append(references[batch.start + i])

    def scalars(self) -> Dict[str, float]:
        """The length statistics: mean prediction and reference length and the ratio of the two means."""
        pl, rl = self.pred_len.mean, self.ref_len.mean
        return {"pred_len": pl, "ref_len": rl, "len_ratio": pl / rl if rl else 0.0}

    def histograms(self) -> Dict[str, Summary]:
        """Name -> histogram: ``<type>_per_example`` (F), ``pred_len_per_example``, ``ref_len_per_example``."""
        out = {f"{t}_per_example": self.f[t] for t in self.rouge_types}
        out["pred_len_per_example"] = self.pred_len
        out["ref_len_per_example"] = self.ref_len
        return out


def log_to_tensorboard(writer: Any, record: EvaluationRecord, prefix: str, step: int) -> List[str]:
    """Write ``record`` with a TensorBoard ``SummaryWriter`` (torch.utils.tensorboard or tensorboardX):
    every histogram as ``<prefix>/<name>`` (``add_histogram_raw``), the length statistics as scalars
    ``<prefix>/pred_len``, ``<prefix>/ref_len``, ``<prefix>/len_ratio``. Returns the tags written."""
    tags = []
    if record.n == 0:
        return tags
    for name, h in record.histograms().items():
        limits, counts = h.buckets()
        tag = f"{prefix}/{name}"
        writer.add_histogram_raw(tag, min=h.min, max=h.max, num=h.n, sum=h.sum, sum_squares=h.sum_squares,
                                 bucket_limits=limits, bucket_counts=counts, global_step=step)
        tags.append(tag)
    for name, value in record.scalars().items():
        tag = f"{prefix}/{name}"
        writer.add_scalar(tag, value, step)
        tags.append(tag)
    writer.flush()
    return tags
