"""Input validation at the boundary: predictions and references of one example or a batch.

Every entry point (``Rouge``, the adapters, the CLI) checks its input with these functions, so each
error names the argument, the index and what was expected in the same words.
"""

from __future__ import annotations

from typing import AbstractSet, Any, List, Mapping, Tuple

from . import core


def type_name(x: Any) -> str:
    """The type name shown in error messages (``None`` for None)."""
    return "None" if x is None else type(x).__name__


def normalize_references(references: Any, index: int, arg: str = "references") -> List[str]:
    """``references[index]`` as a non-empty list of str, or a TypeError/ValueError naming the index."""
    if isinstance(references, str):
        return [references]
    if isinstance(references, (list, tuple)):
        if not references:
            raise ValueError(f"{arg}[{index}]: empty list of references; give at least one reference")
        for j, r in enumerate(references):
            if not isinstance(r, str):
                raise TypeError(f"{arg}[{index}][{j}]: expected str, got {type_name(r)}")
        return list(references)
    if hasattr(references, "tolist") and not isinstance(references, (bytes, bytearray)):
        return normalize_references(references.tolist(), index, arg)
    raise TypeError(f"{arg}[{index}]: expected str or list of str, got {type_name(references)}")


def check_prediction(prediction: Any, index: int, arg: str = "predictions") -> str:
    """``prediction`` when it is a str, or a TypeError naming ``arg[index]``."""
    if not isinstance(prediction, str):
        raise TypeError(f"{arg}[{index}]: expected str, got {type_name(prediction)}")
    return prediction


def validate_batch(predictions: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
    """Check a batch at the boundary: same length, str predictions, str-or-list references."""
    for arg, val in (("predictions", predictions), ("references", references)):
        if val is None:
            raise TypeError(f"{arg}: expected a list, got None")
        if isinstance(val, (str, bytes)):
            raise TypeError(f"{arg}: expected a list of texts, got a single {type(val).__name__}; wrap it in a list")
        if isinstance(val, (Mapping, AbstractSet)):  # unordered, or iterating would give the keys
            raise TypeError(f"{arg}: expected a list (one entry per example), got a {type(val).__name__}")
        if not hasattr(val, "__iter__"):
            raise TypeError(f"{arg}: expected a list (one entry per example), got {type(val).__name__}")
    predictions = list(predictions)
    references = list(references)
    if len(predictions) != len(references):
        raise ValueError(
            f"predictions and references must have the same length: got {len(predictions)} predictions "
            f"and {len(references)} references"
        )
    preds = [check_prediction(p, i) for i, p in enumerate(predictions)]
    refs = [normalize_references(r, i) for i, r in enumerate(references)]
    return preds, refs


def plain_batch(predictions: Any, references: Any) -> bool:
    """True when :func:`validate_batch` accepts the batch and every entry point scores it as it is (no copy
    needed): two lists of the same non-zero length, every prediction a ``str``, every reference a ``str``
    or a non-empty list of ``str`` (exact types). O(texts), in C: the native core's loop
    (``_native.plain_texts``) when it is built, else loops of builtins (no Python call per example)."""
    native = core.native_module()
    if native is not None and hasattr(native, "plain_texts"):
        return native.plain_texts(predictions, references)
    if type(predictions) is not list or type(references) is not list or not predictions \
            or len(predictions) != len(references):
        return False
    if not set(map(type, predictions)) <= _STR:
        return False
    kinds = set(map(type, references))
    if not kinds <= _STR_OR_LIST:
        return False
    if list in kinds:
        lists = [r for r in references if type(r) is list]
        if not all(lists):
            return False
        texts: List[Any] = []
        for r in lists:  # (one list extended: iterating the lists through itertools.chain took twice as long)
            texts += r
        if not set(map(type, texts)) <= _STR:
            return False
    return True


_STR, _STR_OR_LIST = frozenset((str,)), frozenset((str, list))


def check_one_text(prediction: Any, references: Any) -> Tuple[str, List[str]]:
    """One text example: ``(prediction, references as a list)``."""
    return check_prediction(prediction, 0, "prediction"), normalize_references(references, 0, "references")


def check_one_ids(prediction: Any, references: Any) -> Tuple[List[int], List[List[int]]]:
    """One token-id example: ``(prediction ids, list of reference ids)``."""
    from .ids import as_ids, id_references

    return as_ids(prediction, "prediction"), id_references(references, 0, "references")
