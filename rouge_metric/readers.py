"""Input files, read the same way by the command line and :func:`rouge_metric.generate_and_score`.

Text files (one example per line), JSON Lines files (:func:`~rouge_metric.jsonl.parse_jsonl`), standard
input (``-``) and folders written by ``datasets``' ``save_to_disk``. Every error names the file (and the
line, or the column and row) and what was expected, and is an :class:`InputError` whose ``kind`` says
what went wrong; it is also the built-in exception an API caller expects (``FileNotFoundError``,
``ValueError``, ``ImportError``), so the command line picks its exit code from ``kind`` and the API
raises the usual types, with one text for both.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Tuple

from ._lazy import require
from .jsonl import parse_jsonl

#: A path that means standard input (UTF-8), as sacrebleu reads it.
STDIN = "-"

#: Input formats: ``auto`` picks by the path (directory = dataset, .jsonl/.ndjson/.json = JSONL, else text).
FORMATS = ("auto", "text", "jsonl", "dataset")
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")

#: The files ``save_to_disk`` writes into a folder: one ``Dataset`` / a ``DatasetDict``.
DATASET_MARKERS = ("state.json", "dataset_dict.json")


class InputError(Exception):
    """Input that cannot be read. ``kind``: ``file`` (missing, a directory, unreadable), ``format`` (bad
    UTF-8, bad JSON, missing field, wrong value type), ``empty``, ``misaligned``, ``usage`` (an option that
    does not fit the input), ``resource`` (a package the input needs is not installed)."""

    kind = "format"


class InputFileError(InputError, OSError):
    kind = "file"


class InputNotFoundError(InputFileError, FileNotFoundError):
    kind = "file"


class InputFormatError(InputError, ValueError):
    kind = "format"


class EmptyInputError(InputError, ValueError):
    kind = "empty"


class MisalignedInputError(InputError, ValueError):
    kind = "misaligned"


class InputUsageError(InputError, ValueError):
    kind = "usage"


class MissingPackageError(InputError, ImportError):
    kind = "usage"


# ------------------------------------------------------------------------------------------ bytes
def decode_utf8(data: bytes, path: str) -> str:
    """``data`` as text (a leading BOM dropped), or an error naming the line and column of bad UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputFormatError(f"{path}:{line}: invalid UTF-8 at column {col} (byte offset {exc.start}); "
                               "re-encode the file as UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text


def is_saved_dataset(path: str) -> bool:
    """True for a folder written by ``Dataset.save_to_disk`` or ``DatasetDict.save_to_disk``."""
    return os.path.isdir(path) and any(os.path.isfile(os.path.join(path, m)) for m in DATASET_MARKERS)


def not_a_dataset(path: str, expected: str) -> InputFileError:
    """The error for a folder that holds no saved dataset (no ``state.json`` or ``dataset_dict.json``)."""
    return InputFileError(f"{path}: is a directory, but not a dataset saved with save_to_disk (it has no "
                          f"{' or '.join(DATASET_MARKERS)}); expected {expected}")


def read_text(path: str, expected: str = "a text or JSONL file, or a saved dataset folder") -> str:
    """The UTF-8 content of ``path`` (``-``: standard input)."""
    if path == STDIN:
        return decode_utf8(sys.stdin.buffer.read(), "<stdin>")
    if os.path.isdir(path):
        if is_saved_dataset(path):
            raise InputFileError(f"{path}: is a directory (datasets saved with save_to_disk are read with --format "
                                 "dataset or auto)")
        raise not_a_dataset(path, expected)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise InputNotFoundError(f"{path}: file not found") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read: {exc.strerror}") from None
    return decode_utf8(data, path)


def read_lines(path: str) -> List[str]:
    """The lines of a UTF-8 text file (``\\n`` or ``\\r\\n``; a final newline ends the last line)."""
    text = read_text(path)
    if not text:  # no line at all; a file holding one newline is one (empty) line, as two newlines are two
        raise EmptyInputError(f"{path}: empty input (no lines)")
    if text.endswith("\n"):
        text = text[:-1]
    return [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]


def read_jsonl_rows(path: str) -> List[Tuple[int, Dict[str, Any]]]:
    """``(line number, object)`` of every non-blank line of a JSON Lines file."""
    text = read_text(path)
    try:
        return list(parse_jsonl(text, path))
    except ValueError as exc:
        raise InputFormatError(str(exc)) from None


# --------------------------------------------------------------------------------------- datasets
def select_split(ds: Any, split: Optional[str], path: str) -> Any:
    """The ``split`` of a ``DatasetDict`` (its only split when there is one and none is given)."""
    if not hasattr(ds, "keys") or not all(hasattr(v, "column_names") for v in ds.values()):
        if split is not None:
            raise InputUsageError(f"--split {split}: {path} is a single dataset, not a DatasetDict; drop --split")
        return ds
    if split is None:
        if len(ds) == 1:
            return ds[next(iter(ds))]
        raise InputUsageError(f"{path}: a DatasetDict with splits {list(ds)}; choose one with --split")
    if split not in ds:
        raise InputUsageError(f"--split {split}: {path} has no split {split!r}; its splits are {list(ds)}")
    return ds[split]


def load_saved_dataset(path: str, split: Optional[str] = None, *, select: bool = True,
                       expected: str = "a text or JSONL file, or a saved dataset folder") -> Any:
    """The dataset saved with ``save_to_disk`` in ``path`` (with ``select``: the ``split`` of a
    ``DatasetDict``). A folder that holds no saved dataset is named as such before ``datasets`` is needed."""
    if path == STDIN:
        raise InputUsageError("-: standard input holds text or JSONL, not a saved dataset")
    if not os.path.exists(path):
        raise InputNotFoundError(f"{path}: not found")
    if not os.path.isdir(path):
        raise InputFileError(f"{path}: a file, not a dataset folder saved with save_to_disk; expected {expected}")
    if not is_saved_dataset(path):
        raise not_a_dataset(path, expected)
    try:
        datasets = require("datasets", "evaluate", "reading a saved dataset")
    except ImportError as exc:
        raise MissingPackageError(str(exc)) from None
    try:
        ds = datasets.load_from_disk(path)
    except FileNotFoundError as exc:
        raise InputFormatError(f"{path}: not a dataset saved with save_to_disk ({exc})") from None
    return select_split(ds, split, path) if select else ds


def detect_format(path: str, fmt: str = "auto") -> str:
    """``fmt``, or for ``auto`` the format the path names: a directory is a dataset, ``.jsonl`` /
    ``.ndjson`` / ``.json`` is JSONL, anything else (and ``-``) is text."""
    if fmt != "auto":
        return fmt
    if path == STDIN:
        return "text"
    if os.path.isdir(path):
        return "dataset"
    return "jsonl" if path.lower().endswith(JSONL_SUFFIXES) else "text"
