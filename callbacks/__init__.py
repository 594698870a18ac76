"""Seq2SeqTrainer integration, installed as ``rouge_metric.callbacks``.

* :class:`RougeComputeMetrics`: the ``compute_metrics`` callable (plain and ``batch_eval_metrics`` modes).
* :class:`RougeCallback`: a ``TrainerCallback`` that logs ROUGE, writes ``rouge_history.jsonl``, keeps
  sample predictions and tracks the best checkpoint; on request it writes the HTML report of each (or the
  best) evaluation and logs per-example distributions to TensorBoard.
* :func:`decode_eval_pred`: the decoding both use.
* :class:`TokenizedGenerator`: ``model.generate`` over tokenized rows, a generator for
  :func:`rouge_metric.generate_and_score` (what ``RougeCallback``'s generate mode runs).

Names are imported lazily: ``import rouge_metric.callbacks`` needs neither torch nor transformers;
using :class:`RougeCallback` needs transformers in the supported range (``pip install -e
".[train]"`` from a clone). See docs/training.md.
"""

from rouge_metric._lazy import lazy_attributes

__all__ = ["RougeCallback", "RougeComputeMetrics", "TokenizedGenerator", "decode_eval_pred", "generate_and_score"]

_HOMES = {
    "RougeComputeMetrics": "compute_metrics",
    "decode_eval_pred": "decode",
    "RougeCallback": "trainer_callback",
    "TokenizedGenerator": "generate_mode",
    "generate_and_score": "generate_mode",  # deprecated: rouge_metric.generate_and_score
}

__getattr__, __dir__ = lazy_attributes(__name__, _HOMES, globals())
