"""Generate mode of :class:`~rouge_metric.callbacks.RougeCallback`: ``model.generate`` over a tokenized
subset, scored by :func:`rouge_metric.generate_and_score` (the one generate-then-score of the package).

:class:`TokenizedGenerator` is the generator (tokenized rows in, decoded texts or token ids out);
:func:`score_subset` runs it with a :class:`~rouge_metric.callbacks.RougeComputeMetrics`'s scorer and
returns that metric's keys. ``generate_and_score`` here is the deprecated former helper.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Tuple

from rouge_metric import generation
from rouge_metric.generation import generate_once
from rouge_metric.result import STATS, output_key

from ._compat import import_torch
from .compute_metrics import RougeComputeMetrics
from .decode import decode_eval_pred


class TokenizedGenerator:
    """``model.generate`` over tokenized rows (``input_ids``, optional ``attention_mask``), as a batch
    generator for :func:`rouge_metric.generate_and_score`: each batch is padded with the tokenizer,
    generated without gradients, and decoded as ``compute_metrics`` decodes (:func:`decode_eval_pred`; token
    ids with ``as_ids``). :attr:`gen_lens` collects the number of generated (non-pad) tokens of each row."""

    def __init__(self, model: Any, tokenizer: Any, generation_kwargs: Optional[Dict[str, Any]] = None,
                 as_ids: bool = False) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.generation_kwargs = dict(generation_kwargs or {})
        self.as_ids = as_ids
        self.gen_lens: List[int] = []

    def __call__(self, rows: List[Dict[str, Any]]) -> List[Any]:
        torch = import_torch()
        device = next(self.model.parameters()).device
        features = [{k: r[k] for k in ("input_ids", "attention_mask") if k in r} for r in rows]
        enc = self.tokenizer.pad(features, return_tensors="pt")
        with torch.no_grad():
            out = generate_once(self.model, input_ids=enc["input_ids"].to(device),
                                attention_mask=enc["attention_mask"].to(device) if "attention_mask" in enc else None,
                                **self.generation_kwargs)
        batch = decode_eval_pred(self.tokenizer, out, _label_matrix(rows), as_ids=self.as_ids)
        self.gen_lens.extend(batch.gen_lens)
        return batch.predictions


def _label_matrix(rows: List[Dict[str, Any]]) -> Any:
    """The ``labels`` of ``rows`` as one matrix, padded with -100."""
    import numpy as np

    width = max(len(r["labels"]) for r in rows)
    labels = np.full((len(rows), width), -100, dtype=np.int64)
    for i, r in enumerate(rows):
        labels[i, : len(r["labels"])] = r["labels"]
    return labels


def _references(tokenizer: Any, rows: List[Dict[str, Any]], batch_size: int, as_ids: bool) -> List[Any]:
    """The decoded ``labels`` of every row (in the generator's batches, decoded as its predictions are)."""
    refs: List[Any] = []
    for start in range(0, len(rows), batch_size):
        labels = _label_matrix(rows[start:start + batch_size])
        refs.extend(decode_eval_pred(tokenizer, labels, labels, as_ids=as_ids).references)
    return refs


def score_subset(model: Any, tokenizer: Any, dataset: Any, metric: RougeComputeMetrics, *, batch_size: int = 8,
                 generation_kwargs: Optional[Dict[str, Any]] = None) -> Dict[str, float]:
    """Generate on a tokenized ``dataset`` and score with ``metric``'s scorer, through
    :func:`rouge_metric.generate_and_score`; returns ``metric``'s keys (scaled statistics and ``gen_len``) and
    records the evaluation in ``metric`` (``last_result``, ``last_metrics``, ``last_samples``). A model in
    training mode generates in eval mode and is put back in training mode."""
    metrics, _ = _generate_and_score_rows(model, tokenizer, dataset, metric, batch_size, generation_kwargs)
    return metrics


def _generate_and_score_rows(model: Any, tokenizer: Any, dataset: Any, metric: RougeComputeMetrics,
                             batch_size: int, generation_kwargs: Optional[Dict[str, Any]]
                             ) -> Tuple[Dict[str, float], Any]:
    rows = [dataset[i] for i in range(len(dataset))]
    rouge = metric.rouge
    generator = TokenizedGenerator(model, tokenizer, generation_kwargs, as_ids=metric.score_ids)
    was_training = model.training
    model.eval()
    metric.reset()
    try:
        run = generation.generate_and_score(
            generator, documents=rows, references=_references(tokenizer, rows, batch_size, metric.score_ids),
            batch_size=batch_size, config=rouge.config, backend=rouge.backend, num_threads=rouge.num_threads,
            return_per_example=metric.num_samples > 0, progress=False)
    finally:
        if was_training:
            model.train()
    result = run.result
    metrics = result.to_dict(metric.stats, metric.scale)
    if metric.gen_len:
        metrics["gen_len"] = sum(generator.gen_lens) / result.n if result.n else 0.0
    samples = []
    for i, scores in enumerate((result.per_example or [])[: metric.num_samples]):
        samples.append({"index": i, "prediction": run.predictions[i], "reference": run.references[i][0]
                        if not metric.score_ids else run.references[i],
                        "scores": {output_key(t, s): getattr(sc, s) * metric.scale
                                   for t, sc in scores.items() for s in STATS if s in metric.stats}})
    metric.last_result, metric.last_metrics, metric.last_samples = result, dict(metrics), samples
    if metric.record:
        metric.record_texts(run.predictions, run.references)
    metric.completed += 1
    return metrics, run


def generate_and_score(model: Any, tokenizer: Any, dataset: Any, metric: RougeComputeMetrics, *,
                       batch_size: int = 8, generation_kwargs: Optional[Dict[str, Any]] = None) -> Dict[str, float]:
    """Deprecated: generate on a tokenized ``dataset`` and score with ``metric``; returns ``metric``'s keys.

    Use :func:`rouge_metric.generate_and_score` with :class:`TokenizedGenerator` (what ``RougeCallback``'s
    generate mode runs), or ``RougeCallback(eval_dataset=...)``.
    """
    warnings.warn("rouge_metric.callbacks.generate_and_score is deprecated: use rouge_metric.generate_and_score "
                  "with rouge_metric.callbacks.TokenizedGenerator (see docs/training.md)", DeprecationWarning,
                  stacklevel=2)
    return score_subset(model, tokenizer, dataset, metric, batch_size=batch_size,
                        generation_kwargs=generation_kwargs)
