"""Ray Data: exact corpus ROUGE of a ``ray.data.Dataset``, merged by an aggregation Ray runs.

Two steps, both run by Ray where the blocks live:

1. ``ds.map_batches(PartialScorer(...))``: every batch becomes one state row (the example count and
   the exact sums as fixed-point integer limbs, :mod:`rouge_metric.distributed`), scored by the
   native batch scorer on its threads inside the worker;
2. ``ds.aggregate(RougeAggregate(...))``: Ray adds the state rows (integer addition: exact in any
   order and any tree), and the driver turns the one merged state into a :class:`CorpusResult`.

Only states (about 4 KB each for four types) travel; no per-example row reaches the driver.
:func:`score_dataset` does both. Install with ``pip install -e ".[ray]"`` (from a clone of rouge_metric).

The examples live in ``docs/scale.md`` (they start a local Ray instance, run by tests/test_ray_data.py).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

try:
    from ray.data.aggregate import AggregateFnV2
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "rouge_metric.ray_data needs Ray Data: pip install -e \".[ray]\" (from a clone of rouge_metric) or pip install \"ray[data]\""
    ) from exc

from .aggregate import LIMBS
from .config import DEFAULT_ROUGE_TYPES
from .distributed import STATE_LIMBS, STATE_N, PartialScorer, State, n_columns, result_from_state
from .result import CorpusResult

#: Name of the aggregation (the key of its value in ``Dataset.aggregate``'s output).
AGG_NAME = "rouge_state"


class RougeAggregate(AggregateFnV2):
    """Adds the state rows written by :class:`PartialScorer`: the accumulator is one flat list of ints,
    ``[n, limb_0, ..., limb_{width-1}]``, which Ray stores as an Arrow ``list<int64>`` column (a nested
    ``[n, [limbs]]`` has no Arrow type: Ray would pickle it, with a warning). Every value fits int64: a
    limb holds 32 bits, so 2**31 states can be added before one could overflow. ``aggregate_block`` sums
    a block's rows with numpy int64, ``combine`` adds two accumulators, ``finalize`` returns the merged
    list; :func:`state_result` makes the result. O(rows * width) integer additions,
    width = (3 * types + 2) * 36.
    """

    def __init__(self, rouge_types: Sequence[str], name: str = AGG_NAME) -> None:
        self.width = n_columns(rouge_types) * LIMBS
        super().__init__(name, zero_factory=lambda: [0] * (1 + self.width), on=None, ignore_nulls=False)

    def aggregate_block(self, block: Any) -> List[Any]:
        from ray.data.block import BlockAccessor

        import numpy as np

        cols = BlockAccessor.for_block(block).to_numpy([STATE_N, STATE_LIMBS])
        limbs = np.asarray(cols[STATE_LIMBS], dtype=np.int64)
        if limbs.size == 0:
            return [0] * (1 + self.width)
        limbs = np.stack(list(limbs)) if limbs.dtype == object else limbs
        if limbs.shape[-1] != self.width:
            raise ValueError(f"{STATE_LIMBS}: rows of {limbs.shape[-1]} limbs, expected {self.width} for these types")
        return [int(np.asarray(cols[STATE_N], dtype=np.int64).sum())] + [int(v) for v in limbs.sum(axis=0)]

    def combine(self, current_accumulator: List[Any], new: List[Any]) -> List[Any]:
        return [a + b for a, b in zip(current_accumulator, new)]


def score_dataset(ds: Any, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *,
                  prediction_column: str = "prediction", references_column: str = "references",
                  batch_size: Optional[int] = 4096, num_threads: Optional[int] = None,
                  **options: Any) -> CorpusResult:
    """The corpus result of a ``ray.data.Dataset`` of (prediction, references) rows, computed by Ray.

    ``options`` are :class:`RougeConfig` fields (``use_stemmer``, ``multi_ref``, ``tokenizer``, ...);
    ``num_threads`` the native threads per ``map_batches`` task; ``batch_size`` the rows per task
    call (each call returns one state row). Equal, to the last bit, to ``Rouge(...).compute`` of the
    same rows in one process.
    """
    scorer = PartialScorer(rouge_types, prediction_column=prediction_column, references_column=references_column,
                           num_threads=num_threads, **options)
    states = ds.map_batches(scorer, batch_size=batch_size, batch_format="numpy")
    merged = states.aggregate(RougeAggregate(scorer.rouge.rouge_types))[AGG_NAME]
    return state_result(scorer, merged)


def state_result(scorer: PartialScorer, merged: Any) -> CorpusResult:
    """The result of ``Dataset.aggregate(RougeAggregate(...))[AGG_NAME]`` (``[n, limbs...]``) for the scorer
    that wrote the states."""
    values = [int(v) for v in merged]
    state: State = (values[0], values[1:])
    return result_from_state(scorer.rouge, state)
