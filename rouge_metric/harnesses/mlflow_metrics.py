"""MLflow: ``mlflow.metrics.rouge1`` / ``rouge2`` / ``rougeL`` / ``rougeLsum``, evaluate's ``rouge`` per row."""

from __future__ import annotations

from typing import Optional, Sequence

from .common import HarnessResult, result
from .hf_evaluate import EVALUATE_TYPES, evaluate_rouge
from .validation import check_batch, check_choice, check_texts


def mlflow_rouge(predictions: Sequence[str], targets: Sequence[str], rouge_type: str, *,
                 backend: Optional[str] = None) -> HarnessResult:
    """MLflow ``mlflow.metrics.rouge1/rouge2/rougeL/rougeLsum`` (``metrics/metric_definitions.py``:
    ``_rouge1_eval_fn`` ...): evaluate's ``rouge`` with ``use_aggregator=False`` for one type gives the
    per-row F (``MetricValue.scores``); ``standard_aggregations`` reports ``mean`` (``np.mean``),
    ``variance`` (``np.var``) and ``p90`` (``np.percentile(scores, 90)``), logged as
    ``<type>/v1/mean`` etc. No stemmer; no randomness."""
    import numpy as np

    check_choice("rouge_type", rouge_type, EVALUATE_TYPES)
    predictions, targets = check_batch("predictions", predictions, "targets", targets)
    predictions, targets = check_texts("predictions", predictions), check_texts("targets", targets)
    r = evaluate_rouge(predictions, targets, rouge_types=(rouge_type,), use_aggregator=False, backend=backend)
    values = [row[rouge_type] for row in r.per_example or []]
    scores = {"mean": float(np.mean(values)), "variance": float(np.var(values)),
              "p90": float(np.percentile(values, 90))}
    rest = "reduce:mean,variance,p90|" + r.signature.split("|", 3)[3]  # evaluate's, without its reduce:
    return result(f"mlflow.{rouge_type}", "mlflow", rest, scores, r.per_example)
