"""lighteval: ``rouge_t5`` and the single-type ``rouge1`` / ``rouge2`` / ``rougeL`` / ``rougeLsum``."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..scoring import Rouge
from .common import HarnessResult, bootstrap_mid_f, chunks, pair_scores, result
from .validation import check_batch, check_choice, check_text_lists

LIGHTEVAL_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def bigbench_normalizer(text: str) -> str:
    """lighteval's ``bigbench_normalizer``: `" . "` -> `".\\n"` (sentence breaks for rougeLsum)."""
    return text.replace(" . ", ".\n")


def lighteval_rouge_t5(predictions: Sequence[Sequence[str]], golds: Sequence[Sequence[str]], *,
                       backend: Optional[str] = None) -> HarnessResult:
    """lighteval ``rouge_t5`` (``metrics/metrics.py``; ``metrics_sample.py::ROUGE`` with ``bootstrap=True``).

    Input per sample: the model's ``final_text`` list and the doc's golds. Both go through
    ``bigbench_normalizer`` (`" . "` -> `".\\n"`); the sample's score is a ``BootstrapAggregator`` over
    ``zip(golds, predictions)`` (so with one prediction only the *first* gold counts) reporting
    ``mid.fmeasure * 100`` for rouge1/2/L/Lsum; the corpus value is ``np.mean`` over samples. A sample
    with one pair draws nothing; several pairs draw from numpy's global generator exactly as the
    harness does (the drop-in's ``BootstrapAggregator``).
    """
    import numpy as np

    predictions, golds = check_batch("predictions", predictions, "golds", golds)
    need = "sample {i}: no (gold, prediction) pair; the harness's aggregator fails on it"
    predictions = check_text_lists("predictions", predictions, min_size=1, need=need)
    golds = check_text_lists("golds", golds, min_size=1, need=need)
    rouge = Rouge(LIGHTEVAL_TYPES, backend=backend)
    per: List[Dict[str, float]] = []
    for preds, gs in zip(predictions, golds):
        pairs = [(bigbench_normalizer(p), bigbench_normalizer(g)) for g, p in zip(gs, preds)]
        scores = pair_scores(rouge, pairs)
        if len(scores) == 1:
            row = {t: scores[0][t].fmeasure * 100 for t in LIGHTEVAL_TYPES}
        else:
            mid = bootstrap_mid_f(scores, LIGHTEVAL_TYPES)
            row = {t: mid[t] * 100 for t in LIGHTEVAL_TYPES}
        per.append(row)
    means = {t: float(np.mean([r[t] for r in per])) for t in LIGHTEVAL_TYPES}
    return result("lighteval.rouge_t5", "lighteval", rouge.signature(), means, per)


def lighteval_rouge(predictions: Sequence[Sequence[str]], golds: Sequence[Sequence[str]], rouge_type: str, *,
                    backend: Optional[str] = None) -> HarnessResult:
    """lighteval's single-type ``rouge1`` / ``rouge2`` / ``rougeL`` / ``rougeLsum``: per sample ``np.mean``
    of the F of every (prediction, gold) pair (``ROUGE._rouge_score``, no stemmer, no normalizer), then
    ``np.mean`` over samples. 0-1 scale."""
    import numpy as np

    check_choice("rouge_type", rouge_type, LIGHTEVAL_TYPES)
    predictions, golds = check_batch("predictions", predictions, "golds", golds)
    need = "sample {i}: needs at least one prediction and one gold; np.mean of no score is nan"
    predictions = check_text_lists("predictions", predictions, min_size=1, need=need)
    golds = check_text_lists("golds", golds, min_size=1, need=need)
    rouge = Rouge((rouge_type,), backend=backend)
    pairs: List[Tuple[str, str]] = []
    sizes = []
    for preds, gs in zip(predictions, golds):
        pairs.extend((p, g) for p in preds for g in gs)
        sizes.append(len(preds) * len(gs))
    per = [{rouge_type: float(np.mean([s[rouge_type].fmeasure for s in chunk]))}
           for chunk in chunks(pair_scores(rouge, pairs), sizes)]
    mean = float(np.mean([r[rouge_type] for r in per]))
    return result(f"lighteval.{rouge_type}", "lighteval", rouge.signature(), {rouge_type: mean}, per)
