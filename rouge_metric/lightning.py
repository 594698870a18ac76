"""A ``torchmetrics.Metric`` for Lightning and any torch loop: exact sums as states, synced by an all-reduce sum.

:class:`RougeMetric` keeps, per column of the corpus accumulator (P, R, F of every type, then the two
token lengths), the exact sum of the per-example values as 36 fixed-point int64 limbs
(:func:`rouge_metric.aggregate.to_limbs`), and the example count. Both states reduce with
``dist_reduce_fx="sum"``: adding int64 limbs is integer addition, exact in any order, so ``compute()``
after a sync over any number of processes gives the floats of one process to the last bit. The synced
state is ``((3 * types + 2) * 36 + 1) * 8`` bytes (4,048 for four types) whatever the number of
examples: no per-example list is kept or gathered.

``update(preds, target)`` takes texts (``target[i]`` a string or a list of strings) or, with
``tokenizer="ids"``, token ids (lists, arrays, CPU tensors; see :mod:`rouge_metric.ids`).
``compute()`` returns ``{rouge1: F, rouge1_precision: P, rouge1_recall: R, ...}`` as float64 tensors
(key names from :func:`rouge_metric.result.output_key`). Install with ``pip install -e ".[torchmetrics]"`` (from a clone).

>>> metric = RougeMetric(["rouge1", "rougeL"])
>>> metric.update(["the cat sat"], [["the cat sat down"]])
>>> metric.update(["a dog"], [["a dog barked", "dogs"]])
>>> out = metric.compute()
>>> sorted(out)
['rouge1', 'rouge1_precision', 'rouge1_recall', 'rougeL', 'rougeL_precision', 'rougeL_recall']
>>> round(out["rouge1"].item(), 4), out["rouge1"].dtype
(0.8286, torch.float64)
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

try:
    import torch
    from torchmetrics import Metric
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "rouge_metric.lightning needs torch and torchmetrics: pip install -e \".[torchmetrics]\" (from a clone of rouge_metric) or pip install torchmetrics"
    ) from exc

from .aggregate import LIMBS, from_limbs, to_limbs
from .config import DEFAULT_ROUGE_TYPES, RougeConfig
from .distributed import check_sum_aggregation, decode, n_columns
from .result import CorpusResult, output_key
from .scoring import Rouge


class RougeMetric(Metric):
    """Exact corpus ROUGE as a torchmetrics ``Metric`` (constant-size states, ``dist_reduce_fx="sum"``).

    Args:
        rouge_types, config, backend, num_threads, **options: as for :class:`Rouge`
            (``use_stemmer``, ``multi_ref``, ``tokenizer="ids"``, ``ignore_ids``, ...).
        metric_kwargs: torchmetrics' own keywords (``sync_on_compute``, ``process_group``,
            ``dist_sync_fn``, ...), passed to ``torchmetrics.Metric``.

    States: ``limbs`` (int64, shape ``(columns, 36)``) and ``n`` (int64). Each ``update`` scores its
    batch through :meth:`Rouge.add_to` (the native batch scorer when available) and adds the batch's
    exact sums to ``limbs``. O(batch) scoring and O(columns) integer work per update.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *, config: Optional[RougeConfig] = None,
                 backend: Optional[str] = None, num_threads: Optional[int] = None,
                 metric_kwargs: Optional[Dict[str, Any]] = None, **options: Any) -> None:
        super().__init__(**(metric_kwargs or {}))
        if isinstance(rouge_types, str):
            rouge_types = (rouge_types,)
        self.rouge = Rouge(rouge_types, config=config, backend=backend, num_threads=num_threads, **options)
        check_sum_aggregation(self.rouge.config)
        cols = n_columns(self.rouge.rouge_types)
        self.add_state("limbs", default=torch.zeros(cols, LIMBS, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("n", default=torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")
        #: The :class:`CorpusResult` of the last ``compute()`` (after the sync: the whole corpus).
        self.last_result: Optional[CorpusResult] = None

    def update(self, preds: Sequence[Any], target: Sequence[Any]) -> None:
        """Score a batch: ``preds[i]`` a text (or token ids), ``target[i]`` its reference(s)."""
        if isinstance(preds, str):
            preds = [preds]
            target = [target]
        acc = self.rouge.accumulator(keep_values=False)
        self.rouge.add_to(acc, predictions=preds, references=target)
        # add the batch's exact sums to the state's, then carry: every limb but the top one back in
        # [0, 2**32), so that sums of states over ranks and forward() calls cannot overflow int64
        old = self.limbs.tolist()
        limbs = [to_limbs(from_limbs(row) + es.to_int()) for row, es in zip(old, acc.columns())]
        self.limbs = torch.tensor(limbs, dtype=torch.int64, device=self.limbs.device)
        self.n = self.n + acc.n

    def compute(self) -> Dict[str, Any]:
        """``{key: float64 tensor}`` of the (synced) states; the whole :class:`CorpusResult` (``n``, mean
        lengths, signature) is kept in :attr:`last_result`."""
        result = self.rouge.result(decode(self.rouge.rouge_types, int(self.n), self.limbs.reshape(-1).tolist()))
        self.last_result = result
        return {output_key(t, s): torch.tensor(getattr(sc, s), dtype=torch.float64)
                for t, sc in result.scores.items() for s in ("fmeasure", "precision", "recall")}
