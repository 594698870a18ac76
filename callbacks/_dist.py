"""torch.distributed helpers: merge per-rank ROUGE accumulators exactly."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from rouge_metric.aggregate import CorpusAccumulator

from ._compat import loaded_torch


def dist_ready() -> bool:
    torch = loaded_torch()
    return bool(torch is not None and torch.distributed.is_available() and torch.distributed.is_initialized())


def world_size() -> int:
    if not dist_ready():
        return 1
    import torch.distributed as dist

    return dist.get_world_size()


def merge_across_ranks(acc: CorpusAccumulator, gen_tokens: int, samples: List[Dict[str, Any]]
                       ) -> Tuple[CorpusAccumulator, int, List[Dict[str, Any]]]:
    """All ranks' state merged, on every rank (a collective: every rank must call it).

    Accumulators hold exact sums, so the merged result equals scoring all examples in one process.
    Without an initialised process group this returns its input unchanged.
    """
    if not dist_ready():
        return acc, gen_tokens, samples
    import torch.distributed as dist

    gathered: List[Any] = [None] * dist.get_world_size()
    dist.all_gather_object(gathered, (acc, gen_tokens, samples))
    merged = CorpusAccumulator(acc.rouge_types, keep_values=acc.keep_values)
    total = 0
    all_samples: List[Dict[str, Any]] = []
    for rank_acc, rank_tokens, rank_samples in gathered:
        merged.merge(rank_acc)
        total += rank_tokens
        all_samples.extend(rank_samples)
    return merged, total, all_samples
