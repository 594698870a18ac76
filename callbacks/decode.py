"""Turn what ``Seq2SeqTrainer`` hands ``compute_metrics`` into texts.

The Trainer gives token ids as numpy arrays (``predict_with_generate=True``), a tuple whose first
item is the logits (``predict_with_generate=False``), torch tensors (``batch_eval_metrics=True``) or
lists of per-batch arrays (``eval_do_concat_batches=False``). Labels hold ``-100`` where the loss
ignores a position, and cross-batch/cross-process padding puts ``-100`` into predictions too; ``-100``
cannot be decoded (``OverflowError``), so negative ids become ``pad_token_id`` first.
"""

from __future__ import annotations

from typing import Any, List, NamedTuple, Sequence

import numpy as np

from ._compat import loaded_torch


class DecodedBatch(NamedTuple):
    """Decoded texts of one batch (or, with ``as_ids``, the rows of token ids) and the number of generated
    (non-pad) tokens of each prediction."""

    predictions: List[Any]
    references: List[Any]
    gen_lens: List[int]


def to_numpy(x: Any, arg: str) -> np.ndarray:
    """A numpy array from a numpy array, a torch tensor (any device or dtype) or nested lists."""
    torch = loaded_torch()
    if torch is not None and isinstance(x, torch.Tensor):
        x = x.detach().cpu()
        if x.is_floating_point() and x.dtype not in (torch.float32, torch.float64):
            x = x.float()  # bf16/fp16 logits have no numpy dtype
        return x.numpy()
    if x is None:
        raise TypeError(f"{arg}: expected an array of token ids, got None")
    try:
        return np.asarray(x)
    except ValueError:
        raise ValueError(f"{arg}: rows of different lengths; pad them to one length (with -100) first") from None


def _token_ids(predictions: Any, labels: np.ndarray) -> np.ndarray:
    """Integer ids of the predictions: logits are reduced with argmax over the vocabulary."""
    if isinstance(predictions, tuple):
        if not predictions:
            raise ValueError("predictions: got an empty tuple of model outputs")
        predictions = predictions[0]  # (logits, encoder states, ...) when not generating
    preds = to_numpy(predictions, "predictions")
    if preds.ndim == 3:
        preds = preds.argmax(-1)
        # Teacher-forced logits line up with the labels: positions the loss ignores are not output.
        if preds.shape == labels.shape:
            preds = np.where(labels < 0, -100, preds)
    elif preds.ndim != 2:
        raise ValueError(
            f"predictions: expected token ids of shape (batch, length) or logits of shape "
            f"(batch, length, vocab), got shape {preds.shape}"
        )
    if not np.issubdtype(preds.dtype, np.integer):
        if preds.size and not np.all(np.mod(preds, 1) == 0):
            raise TypeError(
                f"predictions: expected integer token ids, got {preds.dtype} values of shape {preds.shape}; "
                "pass logits with a vocabulary axis (batch, length, vocab) or token ids"
            )
        preds = preds.astype(np.int64)
    return preds


def decode_eval_pred(tokenizer: Any, predictions: Any, label_ids: Any, as_ids: bool = False) -> DecodedBatch:
    """Decode predictions and labels as the HF summarization example does, robustly.

    Negative ids (``-100``) become ``pad_token_id``; special tokens are skipped; texts are stripped.
    ``gen_lens[i]`` counts the non-pad ids of prediction ``i`` (the example's ``gen_len``).
    A list (``eval_do_concat_batches=False``) is decoded batch by batch.
    With ``as_ids`` nothing is decoded: the rows of ids are returned as lists (pad where -100 was), for a
    scorer with ``tokenizer="ids"`` that ignores the pad and special ids.
    """
    pad = getattr(tokenizer, "pad_token_id", None)
    if pad is None:
        raise ValueError(
            "tokenizer: has no pad_token_id; set one (e.g. tokenizer.pad_token = tokenizer.eos_token) so -100 "
            "positions can be decoded"
        )
    if _is_batch_list(predictions) or _is_batch_list(label_ids):
        if not (_is_batch_list(predictions) and _is_batch_list(label_ids)) or len(predictions) != len(label_ids):
            raise ValueError(
                "predictions and label_ids: expected both arrays or both lists of per-batch arrays of the same "
                f"length, got {type(predictions).__name__} and {type(label_ids).__name__}"
            )
        out = DecodedBatch([], [], [])
        for p, l in zip(predictions, label_ids):
            part = decode_eval_pred(tokenizer, p, l, as_ids)
            for a, b in zip(out, part):
                a.extend(b)
        return out
    labels = to_numpy(label_ids, "label_ids")
    if labels.ndim != 2:
        raise ValueError(f"label_ids: expected token ids of shape (batch, length), got shape {labels.shape}")
    preds = _token_ids(predictions, labels)
    if preds.shape[0] != labels.shape[0]:
        raise ValueError(
            f"predictions and label_ids must have the same number of rows: got {preds.shape[0]} and {labels.shape[0]}"
        )
    preds = np.where(preds < 0, pad, preds)
    labels = np.where(labels < 0, pad, labels).astype(np.int64, copy=False)
    gen_lens = np.count_nonzero(preds != pad, axis=1).tolist()
    if as_ids:
        return DecodedBatch(preds.tolist(), labels.tolist(), gen_lens)
    return DecodedBatch(_decode(tokenizer, preds), _decode(tokenizer, labels), gen_lens)


def _is_batch_list(x: Any) -> bool:
    """A list of per-batch arrays (``eval_do_concat_batches=False``), not nested lists of ids."""
    return isinstance(x, list) and bool(x) and (hasattr(x[0], "shape") or isinstance(x[0], tuple))


def _decode(tokenizer: Any, ids: np.ndarray) -> List[str]:
    if ids.shape[0] == 0:
        return []
    texts: Sequence[str] = tokenizer.batch_decode(ids.tolist(), skip_special_tokens=True)
    return [t.strip() for t in texts]
