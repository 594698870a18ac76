"""torchmetrics: ``ROUGEScore`` / ``functional.text.rouge.rouge_score`` with its default normalizer."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..scoring import Rouge
from .common import HarnessResult, chunks, pair_scores, result
from .validation import check_batch, check_choice, check_rouge_types, check_text_lists, check_texts


def torchmetrics_rouge(preds: Sequence[str], target: Sequence[Sequence[str]], *, accumulate: str = "best",
                       use_stemmer: bool = False,
                       rouge_keys: Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
                       backend: Optional[str] = None) -> HarnessResult:
    """torchmetrics ``ROUGEScore`` / ``rouge_score`` (``functional/text/rouge.py``) with its default
    normalizer and tokenizer.

    Its normalizer (lower-case, ``[^a-z0-9]+`` -> space, split on whitespace, Porter on words longer than
    3 with ``use_stemmer``) yields rouge-score's tokens, and its n-gram, LCS and summary-level LCS
    (rougeLsum, sentences from ``nltk.sent_tokenize``: needs the punkt data) are rouge-score's, so each
    (prediction, target) pair's P/R/F is the core's, then stored as a float32 tensor. Per prediction,
    ``best`` keeps the target with the largest float32 F (``torch.argmax``: the first on ties), ``avg``
    the float32 mean over targets; the result is the float32 mean over predictions. The float32 steps
    run in torch, as in torchmetrics (torch is imported). Keys: ``rouge1_fmeasure`` etc.
    ``target[i]`` is a str or a list of str, as torchmetrics accepts.
    """
    check_choice("accumulate", accumulate, ("avg", "best"))
    keys = check_rouge_types("rouge_keys", rouge_keys, accept_str=True)
    preds, target = check_batch("preds", preds, "target", target)
    preds = check_texts("preds", preds)
    target = check_text_lists("target", target, min_size=1, accept_str=True, need="a prediction needs a target")

    import numpy as np
    import torch

    rouge = Rouge(tuple(keys), use_stemmer=use_stemmer,
                  sentence_splitter="nltk" if "rougeLsum" in keys else "newline", backend=backend)
    pairs: List[Tuple[str, str]] = [(p, t) for p, ts in zip(preds, target) for t in ts]
    scores = pair_scores(rouge, pairs)
    stats = ("fmeasure", "precision", "recall")
    # (pairs x types x 3) as float32: torch.tensor(python float) rounds to nearest, as numpy's cast does
    # (torchmetrics returns tensor(0.0) for all three when P == R == 0; F is 0.0 there too)
    f32 = np.array([[[getattr(sc[k], s) for s in stats] for k in keys] for sc in scores],
                   dtype=np.float64).astype(np.float32)
    cols: Dict[str, List[Any]] = {f"{k}_{s}": [] for k in keys for s in stats}
    for block in chunks(f32, [len(ts) for ts in target]):
        for ki, k in enumerate(keys):
            if accumulate == "best":
                best = block[int(np.argmax(block[:, ki, 0])), ki]  # first maximum, as torch.argmax
                for si, s in enumerate(stats):
                    cols[f"{k}_{s}"].append(best[si])
            else:
                for si, s in enumerate(stats):
                    cols[f"{k}_{s}"].append(torch.from_numpy(np.ascontiguousarray(block[:, ki, si])).mean().item())
    per = [{name: float(v[i]) for name, v in cols.items()} for i in range(len(target))]
    # torchmetrics: torch.tensor(list of 0-d float32 tensors).mean(), a float32 1-D mean in torch
    means = {name: float(torch.tensor(np.array(v, dtype=np.float32)).mean()) for name, v in cols.items()}
    sig = f"reduce:accumulate={accumulate},float32-mean|{rouge.signature()}"
    return result("torchmetrics.rouge", "torchmetrics", sig, means, per)
