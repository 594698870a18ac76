"""The examples of a run: documents and per-example reference lists, from a ``datasets.Dataset``, a JSONL
file or a saved dataset folder (read by :mod:`rouge_metric.readers`, as the command line reads them), a dict
of columns, a DataFrame or a list of row dicts."""

from __future__ import annotations

import os
from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

from ..readers import EmptyInputError, InputNotFoundError, load_saved_dataset, read_jsonl_rows
from ..scoring import normalize_references

def _column_list(values: Any, name: str) -> List[Any]:
    if hasattr(values, "tolist") and not isinstance(values, (str, bytes)):
        values = values.tolist()
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"column {name!r}: expected a list of values, got {type(values).__name__}") from None


def _columns_of(data: Any, names: Sequence[str], where: str, hint: str) -> Tuple[List[List[Any]], str]:
    """The named columns of ``data`` and a description of it for messages."""
    if isinstance(data, (str, os.PathLike)):
        path = os.fspath(data)
        if os.path.isdir(path):
            data = load_saved_dataset(path, select=False, expected=EXPECTED)
            where = path
        else:
            if not os.path.exists(path):
                raise InputNotFoundError(f"data: {path}: no such file (expected {EXPECTED})")
            return _columns_of_rows([obj for _, obj in read_jsonl_rows(path)], names, path), path
    kind = type(data).__name__
    if kind == "DatasetDict" or (isinstance(data, Mapping) and data and
                                 all(hasattr(v, "column_names") for v in data.values())):
        raise TypeError(f"{where}: a DatasetDict with splits {list(data)}; pass one split, e.g. "
                        f"data[{next(iter(data))!r}]")
    if hasattr(data, "column_names") and hasattr(data, "with_format") and hasattr(data, "__len__"):
        available = list(data.column_names)
        _check_names(names, available, where, hint)
        plain = data.with_format(None)
        cols = []
        for n in names:
            col = plain[n]
            if not isinstance(col, list):  # a datasets Column: a slice reads it whole, far faster than iterating
                col = col[:]
            cols.append(_column_list(col, n))
        return cols, where
    if hasattr(data, "columns") and hasattr(data, "to_dict") and not isinstance(data, Mapping):  # a DataFrame
        data = data.to_dict("list")
    if isinstance(data, Mapping):
        available = list(data)
        _check_names(names, available, where, hint)
        cols = [_column_list(data[n], n) for n in names]
        for n, col in zip(names, cols):
            if len(col) != len(cols[0]):
                raise ValueError(f"{where}: column {n!r} has {len(col)} values but column {names[0]!r} has "
                                 f"{len(cols[0])}")
        return cols, where
    if isinstance(data, (str, bytes)) or not hasattr(data, "__iter__"):
        raise TypeError(f"data: expected a datasets.Dataset, a JSONL path, a dict of columns or a list of row "
                        f"dicts, got {type(data).__name__}")
    return _columns_of_rows(list(data), names, where), where


def _columns_of_rows(rows: List[Any], names: Sequence[str], where: str) -> List[List[Any]]:
    cols: List[List[Any]] = [[] for _ in names]
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise TypeError(f"{where}: row {i}: expected a dict of columns, got {type(row).__name__}")
        for col, n in zip(cols, names):
            if n not in row:
                raise ValueError(f"{where}: row {i} has no column {n!r}; its columns are {sorted(row)}")
            col.append(row[n])
    return cols


def _check_names(names: Sequence[str], available: Sequence[str], where: str, hint: str) -> None:
    for n in names:
        if n not in available:
            raise ValueError(f"{where}: no column {n!r}; the columns are {list(available)} (choose them with "
                             f"{hint})")


#: What a ``data`` path may name.
EXPECTED = "a JSONL file or a dataset folder saved with save_to_disk"

#: How the API names the column arguments in messages (the command line names its options instead).
COLUMN_ARGUMENTS = "document_column= and references_column="


def load_examples(data: Any = None, *, documents: Optional[Sequence[str]] = None,
                  references: Optional[Sequence[Any]] = None, document_column: str = "document",
                  references_column: Union[str, Sequence[str]] = "references") -> Tuple[List[str], List[List[str]]]:
    """Documents and per-example reference lists, from ``data`` or from ``documents`` + ``references``.

    ``data`` is a ``datasets.Dataset`` (or ``IterableDataset``), a JSONL path, a folder saved with
    ``save_to_disk``, a dict of columns, a pandas DataFrame or a list of row dicts. ``references_column``
    names one column or several; a cell is a string or a list of strings, and the references of several
    columns are concatenated per example.
    """
    return read_examples(data, documents=documents, references=references, document_column=document_column,
                         references_column=references_column, column_arguments=COLUMN_ARGUMENTS)


def read_examples(data: Any = None, *, documents: Optional[Sequence[str]] = None,
                  references: Optional[Sequence[Any]] = None, document_column: str = "document",
                  references_column: Union[str, Sequence[str]] = "references",
                  column_arguments: str = COLUMN_ARGUMENTS, token_ids: bool = False) -> Tuple[List[Any], List[Any]]:
    """:func:`load_examples`, with messages that name the column arguments as ``column_arguments`` (the
    command line passes its option names). A document is a text, or a tokenized row (a dict with
    ``input_ids``) for a generator that reads token ids. With ``token_ids`` the references are token ids,
    passed on as given (the scorer checks them)."""
    ref_cols = [references_column] if isinstance(references_column, str) else list(references_column)
    for arg, val in [("document_column", document_column)] + [("references_column", c) for c in ref_cols]:
        if not isinstance(val, str) or not val:
            raise TypeError(f"{arg}: expected a column name (non-empty str), got {val!r}")
    if not ref_cols:
        raise ValueError("references_column: name at least one column")
    if data is not None:
        if documents is not None or references is not None:
            raise TypeError("give data= (with document_column= / references_column=) or documents= and "
                            "references=, not both")
        cols, where = _columns_of(data, [document_column] + ref_cols, "data", column_arguments)
        docs, ref_values = cols[0], cols[1:]
    else:
        if documents is None or references is None:
            raise TypeError("give data= (a Dataset, a JSONL path, columns or rows), or documents= and references=")
        where, ref_cols = "data", ["references"]
        docs = _column_list(documents, "documents") if not isinstance(documents, str) else None
        if docs is None:
            raise TypeError("documents: expected a list of texts, got a single str; wrap it in a list")
        if isinstance(references, str):
            raise TypeError("references: expected a list (one entry per document), got a single str")
        document_column = "documents"
        ref_values = [_column_list(references, "references")]
        if len(ref_values[0]) != len(docs):
            raise ValueError(f"documents and references must have the same length: got {len(docs)} documents and "
                             f"{len(ref_values[0])} references")
    if not docs:
        raise EmptyInputError(f"{where}: no examples (empty input)")
    for i, d in enumerate(docs):
        if not (isinstance(d, str) or is_token_row(d)):
            raise TypeError(f"{document_column}[{i}]: expected str, got {'None' if d is None else type(d).__name__}")
    if token_ids:
        return docs, ref_values[0] if len(ref_values) == 1 else [list(r) for r in zip(*ref_values)]
    refs: List[List[str]] = [[] for _ in docs]
    for name, col in zip(ref_cols, ref_values):
        for i, (acc, r) in enumerate(zip(refs, col)):
            acc.extend(normalize_references(r, i, name))
    return docs, refs


def is_token_row(document: Any) -> bool:
    """A tokenized example (a dict with ``input_ids``), the input of a generator that reads token ids."""
    return isinstance(document, Mapping) and "input_ids" in document
