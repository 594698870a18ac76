"""MLflow plug-in: ``mlflow.metrics.rougeLsum()``'s numbers from rouge_metric, as an MLflow metric.

MLflow's built-in ROUGE metrics load evaluate's ``rouge`` script from the Hub at evaluation time; this
one needs no download and gives the same per-row scores and the same ``mean`` / ``variance`` / ``p90``
(``rouge_metric.harnesses.mlflow_rouge``)::

    from mlflow_rouge_metric import rouge_metrics
    mlflow.evaluate(data=df, predictions="prediction", targets="reference", extra_metrics=rouge_metrics())
"""

from mlflow.metrics import MetricValue, make_metric

from rouge_metric.harnesses import mlflow_rouge


def eval_fn_for(rouge_type: str):
    def eval_fn(predictions, targets=None, metrics=None):
        r = mlflow_rouge(list(predictions), list(targets), rouge_type)
        return MetricValue(scores=[row[rouge_type] for row in r.per_example], aggregate_results=r.scores)

    eval_fn.__name__ = f"{rouge_type}_eval_fn"
    return eval_fn


def rouge_metrics(types=("rouge1", "rouge2", "rougeL", "rougeLsum")):
    """One MLflow metric per type, named like MLflow's own (``rouge1`` ...), version ``rouge_metric``."""
    return [make_metric(eval_fn=eval_fn_for(t), greater_is_better=True, name=t, version="rouge_metric")
            for t in types]
