"""The input checks every harness recipe runs at its boundary, before any scoring.

One set of checks for all recipes, so that a wrong input gets the same kind of error whichever harness
it is meant for. Each error names the argument, the index (``arg[i]``, ``arg[i][j]``) and what was
expected; type errors are ``TypeError``, wrong values and sizes ``ValueError``.

>>> check_text_lists("golds", [["a"], "b"])
Traceback (most recent call last):
...
TypeError: golds[1]: expected a list of str, got str
>>> check_choice("rouge_type", "rougeW", ("rouge1", "rougeL"))
Traceback (most recent call last):
...
ValueError: rouge_type: invalid value 'rougeW'; allowed: rouge1, rougeL
"""

from __future__ import annotations

import re
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

#: rouge-score's type names (``RougeScorer`` accepts these and no others): what the harnesses built on it take.
ROUGE_SCORE_TYPE = re.compile(r"rouge[1-9]|rougeL|rougeLsum")


def type_name(value: Any) -> str:
    """The type name an error message shows (``None`` for None)."""
    return "None" if value is None else type(value).__name__


def check_batch(a_name: str, a: Any, b_name: str, b: Any) -> Tuple[List[Any], List[Any]]:
    """Two per-example sequences of the same, non-zero length (every harness averages over examples),
    returned as lists."""
    for name, value in ((a_name, a), (b_name, b)):
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__len__") or not hasattr(value, "__iter__"):
            raise TypeError(f"{name}: expected a list with one entry per example, got {type_name(value)}")
    if len(a) != len(b):
        raise ValueError(f"{a_name} and {b_name} must have the same length: got {len(a)} and {len(b)}")
    if not len(a):
        raise ValueError(f"{a_name}: empty input; expected at least one example (the harness averages over them)")
    return list(a), list(b)


def check_text(arg: str, i: int, value: Any) -> str:
    """``arg[i]`` is a str."""
    if not isinstance(value, str):
        raise TypeError(f"{arg}[{i}]: expected str, got {type_name(value)}")
    return value


def check_texts(arg: str, values: Sequence[Any]) -> List[str]:
    """Every ``arg[i]`` is a str."""
    return [check_text(arg, i, v) for i, v in enumerate(values)]


def check_text_list(arg: str, i: int, value: Any, *, min_size: int = 0, accept_str: bool = False,
                    need: str = "") -> List[str]:
    """``arg[i]`` is a list (or tuple) of str with at least ``min_size`` items.

    ``accept_str``: a single str stands for a list of one. ``need``: why the harness needs the items,
    added to the message when there are too few (``{i}`` in it is replaced by the index).
    """
    if isinstance(value, str):
        if accept_str:
            return [value]
        raise TypeError(f"{arg}[{i}]: expected a list of str, got str")
    if not isinstance(value, (list, tuple)):
        what = "a str or a list of str" if accept_str else "a list of str"
        raise TypeError(f"{arg}[{i}]: expected {what}, got {type_name(value)}")
    for j, v in enumerate(value):
        if not isinstance(v, str):
            raise TypeError(f"{arg}[{i}][{j}]: expected str, got {type_name(v)}")
    if len(value) < min_size:
        why = f" ({need.replace('{i}', str(i))})" if need else ""
        raise ValueError(f"{arg}[{i}]: expected at least {min_size} str, got {len(value)}{why}")
    return list(value)


def check_text_lists(arg: str, values: Sequence[Any], *, min_size: int = 0, accept_str: bool = False,
                     need: str = "") -> List[List[str]]:
    """:func:`check_text_list` for every ``arg[i]``."""
    return [check_text_list(arg, i, v, min_size=min_size, accept_str=accept_str, need=need)
            for i, v in enumerate(values)]


def check_choice(arg: str, value: Any, allowed: Iterable[str]) -> str:
    """``value`` is one of ``allowed`` (the message lists them)."""
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{arg}: invalid value {value!r}; allowed: {', '.join(allowed)}")
    return value


def check_choices(arg: str, values: Any, allowed: Iterable[str]) -> List[str]:
    """A non-empty list of values, each one of ``allowed`` (the message names the index)."""
    allowed = tuple(allowed)
    if isinstance(values, str) or not isinstance(values, (list, tuple)):
        raise TypeError(f"{arg}: expected a list of names, got {type_name(values)}")
    if not values:
        raise ValueError(f"{arg}: empty list; expected at least one of {', '.join(allowed)}")
    for j, v in enumerate(values):
        if not isinstance(v, str) or v not in allowed:
            raise ValueError(f"{arg}[{j}]: invalid value {v!r}; allowed: {', '.join(allowed)}")
    return list(values)


def check_bool(arg: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{arg}: expected True or False, got {type_name(value)}")
    return value


def check_seed(arg: str, value: Any) -> Optional[int]:
    """None, or an int in numpy's legacy seed range [0, 2**32 - 1] (numpy integers included)."""
    if value is None:
        return None
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{arg}: expected an int in [0, 2**32 - 1] or None, got {type_name(value)}")
    v = value.__index__()
    if not 0 <= v < 2 ** 32:
        raise ValueError(f"{arg}: expected an int in [0, 2**32 - 1] or None, got {v}")
    return v


def check_int_or_choice(arg: str, value: Any, allowed: Sequence[Optional[str]], minimum: int = 0
                        ) -> Union[int, str, None]:
    """An int >= ``minimum``, or one of ``allowed`` (which may include None)."""
    if value is None and None in allowed:
        return None
    if isinstance(value, str) and value in allowed:
        return value
    if not isinstance(value, bool) and isinstance(value, int) and value >= minimum:
        return value
    names = ", ".join("None" if a is None else repr(a) for a in allowed)
    raise ValueError(f"{arg}: invalid value {value!r}; expected an int >= {minimum} or one of {names}")


def check_rouge_types(arg: str, values: Any, *, accept_str: bool = False) -> List[str]:
    """A non-empty list of rouge-score type names (``rouge1`` ... ``rouge9``, ``rougeL``, ``rougeLsum``).
    ``accept_str``: a single name stands for a list of one."""
    if isinstance(values, str) and accept_str:
        values = [values]
    if isinstance(values, str) or not isinstance(values, (list, tuple)) or not values:
        raise TypeError(f"{arg}: expected a non-empty list of rouge types, got {type_name(values)}"
                        + (" (empty)" if isinstance(values, (list, tuple)) else ""))
    for j, v in enumerate(values):
        if not isinstance(v, str) or not ROUGE_SCORE_TYPE.fullmatch(v):
            raise ValueError(f"{arg}[{j}]: invalid value {v!r}; allowed: rouge1 ... rouge9, rougeL, rougeLsum")
    return list(values)
