"""Exit codes of the command line, and the error that carries one.

Readers raise :class:`~rouge_metric.readers.InputError` subclasses whose ``kind`` names what went wrong;
:func:`exit_code` maps a kind to its code, so a message is written once, where the problem is found.
"""

from __future__ import annotations

from typing import Dict

from ..readers import InputError as ReadError

EXIT_OK = 0
EXIT_USAGE = 2          # bad command line or option value (argparse, invalid rouge type, ...)
EXIT_FILE = 3           # a file cannot be read or written (missing, a directory, permissions)
EXIT_FORMAT = 4         # invalid content: bad UTF-8, bad JSON line, missing field, wrong value type
EXIT_MISALIGNED = 5     # inputs with different numbers of examples
EXIT_EMPTY = 6          # an input holds no example
EXIT_RESOURCE = 7       # a needed resource is missing (nltk data, a segmenter's package or dictionary)
EXIT_INTERRUPTED = 130  # Ctrl-C

EXIT_CODES: Dict[int, str] = {
    EXIT_OK: "success",
    1: "internal error (a bug: please report it with the traceback)",
    EXIT_USAGE: "usage error: bad command line or option value",
    EXIT_FILE: "a file cannot be read or written (missing, a directory, permissions)",
    EXIT_FORMAT: "invalid input content: bad UTF-8, bad JSON line, missing field, wrong value type",
    EXIT_MISALIGNED: "inputs have different numbers of examples",
    EXIT_EMPTY: "an input holds no example",
    EXIT_RESOURCE: "a needed resource is missing (nltk data such as punkt for --sentence-splitter nltk, a word "
                   "segmenter's package or dictionary)",
    EXIT_INTERRUPTED: "interrupted",
}

#: The exit code of each kind of input error (:class:`rouge_metric.readers.InputError`).
KIND_CODES: Dict[str, int] = {
    "file": EXIT_FILE, "format": EXIT_FORMAT, "empty": EXIT_EMPTY, "misaligned": EXIT_MISALIGNED,
    "usage": EXIT_USAGE, "resource": EXIT_RESOURCE,
}


class InputError(ReadError):
    """A command-line error with its exit code (``code``); the message names the option or file."""

    def __init__(self, message: str, code: int = EXIT_FORMAT) -> None:
        super().__init__(message)
        self.code = code


def exit_code(exc: ReadError) -> int:
    """The exit code of an input error: its own ``code``, else its kind's."""
    code = getattr(exc, "code", None)
    return code if isinstance(code, int) else KIND_CODES.get(exc.kind, EXIT_FORMAT)
