"""Predictions and references from the files named on the command line (text, JSONL, stdin ``-``, saved
datasets), read through :mod:`rouge_metric.readers` (the readers ``generate_and_score`` uses too); the
progress bar and the output files of the subcommands."""

from __future__ import annotations

import argparse
import sys
from typing import Any, List, Optional, Sequence, Tuple

from ..readers import (EmptyInputError, InputFormatError, MisalignedInputError, InputUsageError, STDIN,
                       detect_format, load_saved_dataset, read_jsonl_rows, read_lines)
from .errors import EXIT_FILE, InputError

FIELD_HINT = "choose with --prediction-field / --references-field"


def _check_field(value: Any, where: str, field: str, allow_list: bool) -> Any:
    if isinstance(value, str):
        return value
    if allow_list and isinstance(value, list):
        if not value:
            raise InputFormatError(f"{where}: field {field!r} is an empty list; give at least one reference")
        for j, v in enumerate(value):
            if not isinstance(v, str):
                raise InputFormatError(f"{where}: field {field!r}[{j}]: expected a string, got {type(v).__name__}")
        return value
    want = "a string or a list of strings" if allow_list else "a string"
    got = "null" if value is None else type(value).__name__
    raise InputFormatError(f"{where}: field {field!r}: expected {want}, got {got}")


def read_jsonl(path: str, fields: Sequence[Tuple[str, bool]]) -> List[List[Any]]:
    """Per requested ``(field, allow_list)``, the column of values of a JSONL file (blank lines skipped)."""
    cols: List[List[Any]] = [[] for _ in fields]
    for lineno, obj in read_jsonl_rows(path):
        for col, (field, allow_list) in zip(cols, fields):
            if field not in obj:
                raise InputFormatError(f"{path}:{lineno}: missing field {field!r}; the object has fields "
                                       f"{sorted(obj)} ({FIELD_HINT})")
            col.append(_check_field(obj[field], f"{path}:{lineno}", field, allow_list))
    if not cols or not cols[0]:
        raise EmptyInputError(f"{path}: empty input (no JSON lines)")
    return cols


def read_dataset(path: str, fields: Sequence[Tuple[str, bool]], split: Optional[str]) -> List[List[Any]]:
    """Columns of a dataset saved with ``save_to_disk`` (a ``DatasetDict`` needs ``--split``)."""
    ds = load_saved_dataset(path, split)
    for field, _ in fields:
        if field not in ds.column_names:
            raise InputFormatError(f"{path}: missing column {field!r}; the dataset has columns {ds.column_names} "
                                   f"({FIELD_HINT})")
    if len(ds) == 0:
        raise EmptyInputError(f"{path}: empty input (no rows)")
    cols: List[List[Any]] = []
    for field, allow_list in fields:
        values = ds.with_format(None)[field][:]
        cols.append([_check_field(v, f"{path}: row {i}", field, allow_list) for i, v in enumerate(values)])
    return cols


def read_columns(path: str, fmt: str, fields: Sequence[Tuple[str, bool]], split: Optional[str]) -> List[List[Any]]:
    """The requested columns of one input, in its format (text files hold one column)."""
    if fmt == "text":
        return [read_lines(path)]
    if fmt == "jsonl":
        return read_jsonl(path, fields)
    return read_dataset(path, fields, split)


def check_one_stdin(inputs: Sequence[Tuple[str, Optional[str]]]) -> None:
    """Standard input can be read once: at most one input may be ``-``."""
    named = [opt for opt, path in inputs if path == STDIN]
    if len(named) > 1:
        raise InputUsageError(f"{' and '.join(named)}: only one input can be '-' (standard input is read once)")


def load_inputs(args: argparse.Namespace) -> Tuple[List[str], List[List[str]]]:
    """Predictions and per-example reference lists from the files named on the command line."""
    pfmt = detect_format(args.predictions, args.format)
    ref_paths = args.references or []
    check_one_stdin([("--predictions", args.predictions)] + [("--references", r) for r in ref_paths])
    if args.split is not None and "dataset" not in {pfmt, *(detect_format(r, args.format) for r in ref_paths)}:
        raise InputUsageError(f"--split {args.split}: only a saved DatasetDict has splits, and the inputs are files")
    pfield = (args.prediction_field, False)
    rfield = (args.references_field, True)
    if not ref_paths and pfmt == "text":
        raise InputUsageError("--references: required when the predictions are a text file "
                              "(JSONL files and datasets can hold both fields)")
    if ref_paths:
        preds = read_columns(args.predictions, pfmt, [pfield], args.split)[0]
        ref_cols = [(rp, read_columns(rp, detect_format(rp, args.format), [rfield], args.split)[0])
                    for rp in ref_paths]
    else:
        preds, refs = read_columns(args.predictions, pfmt, [pfield, rfield], args.split)
        ref_cols = [(args.predictions, refs)]
    for rp, col in ref_cols:
        if len(col) != len(preds):
            unit = "lines" if detect_format(rp, args.format) == "text" else "examples"
            raise MisalignedInputError(
                f"{rp}: {len(col)} {unit}, but {args.predictions} has {len(preds)}; inputs must be aligned "
                "(one reference entry per prediction)")
    refs_out: List[List[str]] = [[] for _ in preds]
    for _, col in ref_cols:
        for acc, r in zip(refs_out, col):
            if isinstance(r, str):
                acc.append(r)
            else:
                acc.extend(r)
    return preds, refs_out


def read_prediction_column(path: str, args: argparse.Namespace) -> List[str]:
    """The predictions of one system file (text lines, a JSONL field or a dataset column)."""
    return read_columns(path, detect_format(path, args.format), [(args.prediction_field, False)], args.split)[0]


# ------------------------------------------------------------------------------------ outputs
def progress_bar(total: int, quiet: bool) -> Any:
    """A tqdm bar on stderr when it is a terminal (and not ``quiet``), else None."""
    if quiet or not sys.stderr.isatty():
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with datasets
        return None
    return tqdm(total=total, file=sys.stderr, unit="ex", desc="rouge", leave=False, mininterval=0.2)


def open_output(path: str) -> Any:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror}", EXIT_FILE) from None
