"""Token ids as input: ROUGE over sequences of integer ids, with no text in between.

``RougeConfig(tokenizer="ids")`` selects this module instead of :mod:`rouge_metric.text`. A prediction
is one sequence of ids (a list or tuple of ints, a 1-D numpy integer array, a 1-D CPU torch tensor);
``references[i]`` is one such sequence or a list of them (or a 2-D array, one reference per row). A batch of
predictions may also be one padded 2-D array. The ids in ``config.ignore_ids`` (``-100`` by default; add
the pad id) are dropped; the ids in ``config.sentence_ids`` end sentences for rougeLsum/rougeW and are
dropped too (they play the role of newlines in text). What is left goes to the same kernels as words do:
the kernels take any hashable tokens.

These are numbers over ids, not over words: a word split into several sub-word ids counts several times,
and two spellings of one word are different ids. They are for fast monitoring and rewards; report text
ROUGE of decoded strings.

On the native backend a batch (``Rouge.compute``, ``add_to``, ``score_examples``, rewards) of lists of
ints goes straight to ``_native.Scorer.batch_ids``, the compiled twin of :meth:`IdPipeline.process`: the
ids are read and interned once per call (O(total ids)) and scored on ``num_threads`` threads without the
GIL, with the text batch's kernels. Other input (arrays, tensors, numpy scalars) is checked and
converted here first (:func:`validate_id_batch`: O(length) per sequence, ``tolist`` for arrays, one type
check per id for lists). The pure-Python backend runs :class:`IdPipeline` and the Python kernels.
"""

from __future__ import annotations

from itertools import filterfalse
from typing import Any, List, Optional, Sequence, Tuple

from .config import RougeConfig

Ids = List[int]
_INT_ONLY = {int}


def _type_name(x: Any) -> str:
    return "None" if x is None else type(x).__name__


def _is_array(x: Any) -> bool:
    """A numpy array or a torch tensor (anything with dtype, ndim and tolist)."""
    return getattr(x, "dtype", None) is not None and hasattr(x, "tolist") and hasattr(x, "ndim")


def _is_int_scalar(x: Any) -> bool:
    if type(x) is int:
        return True
    if isinstance(x, bool) or isinstance(x, (float, str, bytes)):
        return False
    return hasattr(x, "__index__") and not hasattr(x, "__len__")


def _array_rows(x: Any, arg: str) -> List[Any]:
    device = getattr(x, "device", None)
    if device is not None and getattr(device, "type", "cpu") != "cpu":
        raise ValueError(f"{arg}: a tensor on {device}; move it to the CPU first (.cpu())")
    return x.tolist()


def as_ids(x: Any, arg: str) -> Ids:
    """One id sequence as a list of Python ints, or a TypeError/ValueError naming ``arg``."""
    if _is_array(x):
        if x.ndim != 1:
            raise ValueError(f"{arg}: expected a 1-D sequence of token ids, got an array of shape {tuple(x.shape)}")
        kind = getattr(x.dtype, "kind", None)  # numpy: 'i'/'u' are integers
        if kind is None and (x.dtype.is_floating_point or x.dtype.is_complex):
            raise TypeError(f"{arg}: expected integer token ids, got a tensor of dtype {x.dtype}")
        if kind is not None and kind not in "iu":
            raise TypeError(f"{arg}: expected integer token ids, got an array of dtype {x.dtype}")
        x = _array_rows(x, arg)
    elif isinstance(x, (str, bytes)) or not isinstance(x, (list, tuple)):
        raise TypeError(
            f"{arg}: expected a sequence of integer token ids (list, numpy array, CPU tensor), got "
            f"{_type_name(x)}" + ("; tokenizer='ids' scores token ids, not text" if isinstance(x, str) else ""))
    out = x if type(x) is list else list(x)
    if not out or set(map(type, out)) == _INT_ONLY:  # the common case, checked at C speed
        return out
    for j, v in enumerate(out):
        if type(v) is not int:
            if not _is_int_scalar(v):
                raise TypeError(f"{arg}[{j}]: expected an integer token id, got {_type_name(v)} {v!r}")
            if out is x:
                out = list(x)
            out[j] = int(v)
    return out


def _looks_like_one_sequence(x: Any) -> bool:
    """A reference item that is one id sequence (not a list of sequences)."""
    if _is_array(x):
        return x.ndim == 1
    return isinstance(x, (list, tuple)) and bool(x) and _is_int_scalar(x[0])


def id_references(references: Any, index: int, arg: str = "references") -> List[Ids]:
    """``references[index]``: one id sequence or a list of them (a 2-D array: one per row), as lists of ints."""
    where = f"{arg}[{index}]"
    if _looks_like_one_sequence(references):
        return [as_ids(references, where)]
    if _is_array(references):
        if references.ndim != 2:
            raise ValueError(f"{where}: expected one id sequence or a list of them, got an array of shape "
                             f"{tuple(references.shape)}")
        rows = _array_rows(references, where)
        if not rows:
            raise ValueError(f"{where}: empty array of references; give at least one reference")
        return [as_ids(row, f"{where}[{j}]") for j, row in enumerate(rows)]
    if isinstance(references, (list, tuple)):
        if not references:
            raise ValueError(f"{where}: empty; give one reference (a sequence of ids) or a list of them")
        return [as_ids(r, f"{where}[{j}]") for j, r in enumerate(references)]
    raise TypeError(f"{where}: expected a sequence of integer token ids or a list of them, got {_type_name(references)}")


def _rows(x: Any, arg: str) -> List[Any]:
    """The examples of a batch argument: a list/tuple, or the rows of a 2-D array (a padded batch)."""
    if x is None:
        raise TypeError(f"{arg}: expected a list of token-id sequences, got None")
    if _is_array(x):
        if x.ndim == 2 or (arg == "references" and x.ndim == 3):
            return [x[i] for i in range(x.shape[0])]
        raise ValueError(f"{arg}: expected a 2-D (batch, length) array of token ids, got shape {tuple(x.shape)}")
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence):
        raise TypeError(f"{arg}: expected a list of token-id sequences, got {_type_name(x)}")
    return list(x)


def validate_id_batch(predictions: Any, references: Any) -> Tuple[List[Ids], List[List[Ids]]]:
    """Check a batch of token ids at the boundary; errors name the argument and the index."""
    preds = _rows(predictions, "predictions")
    refs = _rows(references, "references")
    if len(preds) != len(refs):
        raise ValueError(
            f"predictions and references must have the same length: got {len(preds)} predictions "
            f"and {len(refs)} references")
    return ([as_ids(p, f"predictions[{i}]") for i, p in enumerate(preds)],
            [id_references(r, i) for i, r in enumerate(refs)])


class IdPipeline:
    """The id counterpart of :class:`rouge_metric.text.TextPipeline`: ``process(ids)`` returns
    ``(tokens, sentences)`` for the kernels, dropping ``ignore_ids`` and splitting at ``sentence_ids``.
    O(length) per sequence.
    """

    def __init__(self, config: RougeConfig) -> None:
        if not config.uses_ids:
            raise ValueError("IdPipeline needs RougeConfig(tokenizer='ids')")
        self.config = config
        self.ignore = frozenset(config.ignore_ids)
        self.ends = frozenset(config.sentence_ids)
        self.drop = self.ignore | self.ends
        self.needs_sentences = config.needs_sentences
        self.needs_tokens = any(not s.uses_sentences for s in config.type_specs)

    def process(self, ids: Ids) -> Tuple[Optional[Ids], Optional[List[Ids]]]:
        tokens = list(filterfalse(self.drop.__contains__, ids))
        if not self.needs_sentences:
            return tokens, None
        if not self.ends:
            return tokens, ([tokens] if tokens else [])
        ignore, ends = self.ignore, self.ends
        sents: List[Ids] = []
        cur: Ids = []
        for t in ids:
            if t in ends:
                if cur:
                    sents.append(cur)
                    cur = []
            elif t not in ignore:
                cur.append(t)
        if cur:
            sents.append(cur)
        return (tokens if self.needs_tokens else None), sents
