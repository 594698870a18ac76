"""Scoring in many workers: each batch becomes a constant-size exact state; states add up in any order.

A *state* is what a worker sends back for any number of examples: the count ``n`` and, for every
column of the corpus accumulator (P, R, F of every type, then the two lengths), the exact sum of the
per-example values as fixed-point integer limbs (:func:`rouge_metric.aggregate.to_limbs`):
``(3 * types + 2) * 36`` int64 numbers, about 4 KB for four types, whatever the number of examples.
Merging states is adding them elementwise, an integer addition, so any engine's plain ``sum``
(Ray Data's aggregation, ``torch.distributed.all_reduce``, Spark SQL's ``sum``) merges them exactly
and in any order, and :func:`result_from_state` gives the floats of one process to the last bit.

:class:`PartialScorer` is the worker side: a picklable callable from a batch of columns (a dict of
lists or numpy arrays, a pandas DataFrame, a pyarrow Table) to a one-row state. Each call scores its
batch through :meth:`Rouge.add_to` (the native batch scorer on its threads when available). No
arithmetic of ROUGE lives here.

>>> scorer = PartialScorer(["rouge1"])
>>> a = scorer({"prediction": ["the cat sat"], "references": [["the cat sat down"]]})
>>> b = scorer({"prediction": ["a dog"], "references": [["a dog barked", "dogs"]]})
>>> a[STATE_LIMBS].shape  # one row; (3 * 1 + 2) columns of 36 limbs
(1, 180)
>>> state = merge_states([a, b])
>>> result = result_from_state(scorer.rouge, state)
>>> result.n, round(result.scores["rouge1"].fmeasure, 4)
(2, 0.8286)
>>> result.scores == scorer.rouge.compute(predictions=["the cat sat", "a dog"],
...                                       references=[["the cat sat down"], ["a dog barked", "dogs"]]).scores
True
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .aggregate import LIMBS, CorpusAccumulator, ExactSum, from_limbs, to_limbs
from .config import DEFAULT_ROUGE_TYPES, RougeConfig
from .result import CorpusResult
from .scoring import Rouge, check_prediction, normalize_references

#: Column names of a state row: the number of examples, and the flat fixed-point limbs.
STATE_N = "rouge_n"
STATE_LIMBS = "rouge_limbs"

State = Tuple[int, List[int]]


def n_columns(rouge_types: Sequence[str]) -> int:
    """Columns of the accumulator: P, R, F of every type, then prediction and reference lengths."""
    return 3 * len(rouge_types) + 2


def encode(acc: CorpusAccumulator) -> State:
    """``(n, limbs)`` of an accumulator: the exact sums of its columns as :data:`LIMBS` limbs each
    (flat, column after column). O(columns) big-integer operations."""
    limbs: List[int] = []
    for es in acc.columns():
        limbs.extend(to_limbs(es.to_int()))
    return acc.n, limbs


def decode(rouge_types: Sequence[str], n: int, limbs: Sequence[int]) -> CorpusAccumulator:
    """The accumulator of a state (``limbs`` may be sums of many states' limbs)."""
    width = n_columns(rouge_types) * LIMBS
    limbs = [int(v) for v in limbs]
    if len(limbs) != width:
        raise ValueError(f"limbs: expected {width} values for types {tuple(rouge_types)}, got {len(limbs)}")
    parts = [ExactSum.from_int(from_limbs(limbs[c:c + LIMBS])).partials for c in range(0, width, LIMBS)]
    return CorpusAccumulator.from_partials(rouge_types, int(n), parts)


def _as_list(column: Any) -> List[Any]:
    """A column of a batch as a list (numpy array / pandas Series: tolist; pyarrow: to_pylist)."""
    if hasattr(column, "to_pylist"):
        return column.to_pylist()
    if hasattr(column, "tolist"):
        return column.tolist()
    return list(column)


class PartialScorer:
    """A batch of (prediction, references) rows -> one exact state row (``map_batches``, ``mapInPandas``).

    Args:
        rouge_types, config, backend, num_threads, **options: as for :class:`Rouge`. ``num_threads``
            is the native batch threads inside each worker (all cores by default).
        prediction_column: the column holding the prediction text (or token ids with ``tokenizer="ids"``).
        references_column: the column holding the reference(s) of each row.

    Calling it returns ``{STATE_N: int64 array (1,), STATE_LIMBS: int64 array (1, columns * 36)}``.
    Bootstrap intervals need every per-example value, not sums: ``aggregation="bootstrap"`` is refused.
    """

    def __init__(self, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *,
                 prediction_column: str = "prediction", references_column: str = "references",
                 config: Optional[RougeConfig] = None, backend: Optional[str] = None,
                 num_threads: Optional[int] = None, **options: Any) -> None:
        for arg, val in (("prediction_column", prediction_column), ("references_column", references_column)):
            if not isinstance(val, str) or not val:
                raise TypeError(f"{arg}: expected a column name (non-empty str), got {val!r}")
        if isinstance(rouge_types, str):
            rouge_types = (rouge_types,)
        self.rouge = Rouge(rouge_types, config=config, backend=backend, num_threads=num_threads, **options)
        check_sum_aggregation(self.rouge.config)
        self.prediction_column = prediction_column
        self.references_column = references_column

    def __repr__(self) -> str:
        return (f"PartialScorer({self.rouge.signature()!r}, prediction_column={self.prediction_column!r}, "
                f"references_column={self.references_column!r})")

    def _column(self, batch: Any, name: str, arg: str) -> List[Any]:
        try:
            col = batch[name]
        except KeyError:
            names = list(getattr(batch, "column_names", None) or getattr(batch, "columns", None) or batch)
            raise KeyError(f"{arg}: column {name!r} not found; the batch has columns {sorted(map(str, names))}"
                           ) from None
        return _as_list(col)

    def state(self, predictions: Sequence[Any], references: Sequence[Any]) -> State:
        """``(n, limbs)`` of a batch of examples."""
        acc = self.rouge.accumulator(keep_values=False)
        self.rouge.add_to(acc, predictions=predictions, references=references)
        return encode(acc)

    def __call__(self, batch: Any) -> Dict[str, Any]:
        import numpy as np

        preds = self._column(batch, self.prediction_column, "prediction_column")
        refs = self._column(batch, self.references_column, "references_column")
        if not self.rouge.config.uses_ids:
            # validate at the boundary: errors name the column and the row within the batch
            preds = [check_prediction(p, i, self.prediction_column) for i, p in enumerate(preds)]
            refs = [normalize_references(r, i, self.references_column) for i, r in enumerate(refs)]
        n, limbs = self.state(preds, refs)
        return {STATE_N: np.array([n], dtype=np.int64), STATE_LIMBS: np.array([limbs], dtype=np.int64)}


def check_sum_aggregation(config: RougeConfig) -> None:
    if config.aggregation == "bootstrap":
        raise ValueError("aggregation: 'bootstrap' needs every per-example value and cannot be merged from sums; "
                         "use aggregation='mean' here and bootstrap per-example scores in one process")


def merge_states(states: Iterable[Dict[str, Any]]) -> State:
    """Add state rows (dicts of :data:`STATE_N` and :data:`STATE_LIMBS` arrays, any number of rows each)."""
    import numpy as np

    n = 0
    total: Any = None
    for st in states:
        n += int(np.asarray(st[STATE_N], dtype=np.int64).sum())
        limbs = np.asarray(st[STATE_LIMBS], dtype=np.int64)
        part = limbs.reshape(-1, limbs.shape[-1]).sum(axis=0)
        total = part if total is None else total + part
    if total is None:
        raise ValueError("states: no state to merge")
    return n, [int(v) for v in total]


def result_from_state(rouge: Rouge, state: State) -> CorpusResult:
    """The corpus result (exact means, signature) of a merged state: the floats of one process."""
    n, limbs = state
    return rouge.result(decode(rouge.rouge_types, n, limbs))
