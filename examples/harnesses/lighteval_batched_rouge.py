"""lighteval plug-in: its single-type ROUGE metrics as batched metrics on rouge_metric, same numbers.

``batched_compute=True`` makes lighteval's ``apply_metric`` call the metric once for the whole batch
(``compute(responses=..., docs=...)``), so the pairs of every sample are scored in one native batch
instead of one ``RougeScorer.score`` call per pair. Each value equals lighteval's own ``rouge1`` /
``rouge2`` / ``rougeL`` / ``rougeLsum`` (``rouge_metric.harnesses.lighteval_rouge``: per sample the mean
F over prediction x gold, corpus ``np.mean``). Use it in a custom task::

    from lighteval_batched_rouge import rougeLsum_batched
    task = LightevalTaskConfig(..., metrics=[rougeLsum_batched])
"""

import numpy as np
from lighteval.metrics.metrics_sample import SampleLevelComputation
from lighteval.metrics.utils.metric_utils import SampleLevelMetric, SamplingMethod

from rouge_metric.harnesses import lighteval_rouge


class BatchedRouge(SampleLevelComputation):
    """One rouge type for a batch of samples: a list of per-sample values."""

    def __init__(self, rouge_type: str) -> None:
        self.rouge_type = rouge_type

    def compute(self, responses, docs, **kwargs):
        r = lighteval_rouge([resp.final_text for resp in responses], [d.get_golds() for d in docs], self.rouge_type)
        return [row[self.rouge_type] for row in r.per_example]


def batched_metric(rouge_type: str) -> SampleLevelMetric:
    return SampleLevelMetric(metric_name=rouge_type, sample_level_fn=BatchedRouge(rouge_type),
                             category=SamplingMethod.GENERATIVE, corpus_level_fn=np.mean, higher_is_better=True,
                             batched_compute=True)


rouge1_batched = batched_metric("rouge1")
rouge2_batched = batched_metric("rouge2")
rougeL_batched = batched_metric("rougeL")
rougeLsum_batched = batched_metric("rougeLsum")
