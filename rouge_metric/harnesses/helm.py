"""HELM: ``rouge_1`` / ``rouge_2`` / ``rouge_l`` and ``chinese_rouge_1`` / ``chinese_rouge_2``."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..scoring import Rouge
from .common import HarnessResult, chunks, pair_scores, result
from .validation import check_batch, check_choice, check_text_lists

#: HELM's metric names and the rouge type each one scores.
HELM_TYPES = {"rouge_1": "rouge1", "rouge_2": "rouge2", "rouge_l": "rougeL",
              "chinese_rouge_1": "rouge1", "chinese_rouge_2": "rouge2"}


def characters(text: str) -> List[str]:
    """HELM's ``ChineseTokenizer.tokenize``: every character, spaces and punctuation included."""
    return [c for c in text]


def helm_rouge(completions: Sequence[Sequence[str]], golds: Sequence[Sequence[str]], rouge_type: str, *,
               backend: Optional[str] = None) -> HarnessResult:
    """HELM ``rouge_1`` / ``rouge_2`` / ``rouge_l`` / ``chinese_rouge_1`` / ``chinese_rouge_2``
    (``metrics/evaluate_reference_metrics.py``: ``get_rouge_function``, ``get_chinese_rouge_function``,
    ``compute_reference_metrics``).

    Input per instance: the completions sorted by log-probability as HELM sorts them (the first one is
    scored; each is stripped here as HELM strips it) and the texts of the *correct* references. The value
    is the max over golds of rouge-score's F (``use_stemmer=True``; the Chinese metrics tokenize every
    character, so the stemmer has no effect); the run's number is the mean over instances
    (``Stat``: sum / count). 0-1 scale.

    >>> r = helm_rouge(completions=[["The cat sat on the mat."]], golds=[["A cat sat on a mat", "x"]],
    ...                rouge_type="rouge_l")
    >>> r.scores
    {'rouge_l': 0.6666666666666666}
    """
    check_choice("rouge_type", rouge_type, HELM_TYPES)
    completions, golds = check_batch("completions", completions, "golds", golds)
    need = "instance {i}: needs a completion and at least one correct reference"
    completions = check_text_lists("completions", completions, min_size=1, need=need)
    golds = check_text_lists("golds", golds, min_size=1, need=need)
    chinese = rouge_type.startswith("chinese_")
    t = HELM_TYPES[rouge_type]
    rouge = Rouge((t,), use_stemmer=not chinese, tokenizer=characters if chinese else None, backend=backend)
    pairs: List[Tuple[str, str]] = []
    for comps, gs in zip(completions, golds):
        pred = comps[0].strip()
        pairs.extend((pred, g) for g in gs)
    per: List[Dict[str, float]] = [{rouge_type: max(s[t].fmeasure for s in chunk)}
                                   for chunk in chunks(pair_scores(rouge, pairs), [len(g) for g in golds])]
    total = 0.0
    for r in per:
        total += r[rouge_type]
    return result(f"helm.{rouge_type}", "crfm-helm", rouge.signature(), {rouge_type: total / len(per)}, per)
