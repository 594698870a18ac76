"""The ``rouge-metric`` parser and ``main``: one subparser per subcommand module, and the mapping of errors
to exit codes (:data:`~rouge_metric.cli.errors.EXIT_CODES`)."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Dict, Optional, Sequence, Tuple

from ..readers import InputError as ReadError
from ..report import cli as report
from ..segment import SegmenterError
from . import compare, explain, export_space, generate, score
from .errors import EXIT_FILE, EXIT_FORMAT, EXIT_INTERRUPTED, EXIT_OK, EXIT_RESOURCE, EXIT_USAGE, exit_code
from .options import Parser, epilog


def build_parser() -> argparse.ArgumentParser:
    """The ``rouge-metric`` parser: one subparser per subcommand module."""
    return _build()[0]


def _build() -> Tuple[argparse.ArgumentParser, Dict[str, argparse.ArgumentParser]]:
    """The parser and its subparsers by command name."""
    fmt = argparse.RawDescriptionHelpFormatter
    parser = Parser(prog="rouge-metric", description="ROUGE scores with a signature.",
                    epilog=epilog(), formatter_class=fmt)
    from .._version import __version__

    parser.add_argument("--version", action="version", version=f"rouge-metric {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in (score, explain, export_space, compare, generate, report):
        command.add_parser(sub, fmt)
    return parser, dict(sub.choices)


def _error(exc: BaseException, code: int) -> int:
    print(f"rouge-metric: error: {exc}", file=sys.stderr)
    return code


def main(argv: Optional[Sequence[str]] = None, *, exit_on_interrupt: bool = False) -> int:
    """Run ``rouge-metric`` with ``argv`` (default: ``sys.argv[1:]``) and return its exit code.

    ``exit_on_interrupt``: after Ctrl-C, end the process at once with exit code 130 instead of returning
    (what ``rouge-metric`` and ``python -m rouge_metric`` do, see :func:`console_main`).
    """
    parser, commands = _build()
    args, extra = parser.parse_known_args(argv)
    if extra:  # name the subcommand whose --help lists what it takes
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return args.func(args)
    except ReadError as exc:
        return _error(exc, exit_code(exc))
    except FileNotFoundError as exc:  # a setting's file (--stopwords, --exceptions) cannot be read
        return _error(exc, EXIT_FILE)
    except LookupError as exc:  # missing nltk data (KeyError is a LookupError but not raised here)
        return _error(exc, EXIT_RESOURCE)
    except ImportError as exc:  # a word segmenter (or another optional package) is not installed
        return _error(exc, EXIT_RESOURCE)
    except SegmenterError as exc:  # a text the segmenter fails on (named), or its dictionary
        return _error(exc, EXIT_FORMAT if exc.where is not None else EXIT_RESOURCE)
    except (ValueError, TypeError) as exc:
        return _error(exc, EXIT_USAGE)
    except KeyboardInterrupt:
        print("rouge-metric: interrupted", file=sys.stderr)
        if exit_on_interrupt:
            _exit_now(EXIT_INTERRUPTED)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `rouge-metric ... | head`
        try:
            sys.stdout.close()
        except OSError:
            pass
        return EXIT_OK


def _show_warning(message: Warning, category: type, filename: str, lineno: int, file: object = None,
                  line: object = None) -> None:
    """A warning as one line of the command line's stderr (``rouge-metric: warning: ...``)."""
    print(f"rouge-metric: warning: {message}", file=sys.stderr)


def _exit_now(code: int) -> None:
    """End the process now. The interrupt has run every ``finally`` block on its way here (output files,
    the generation cache and progress bars are closed); what is left is freeing the inputs held in
    memory, object by object: for a million examples that takes seconds, and the OS reclaims the memory
    at once. So Ctrl-C ends the command line as fast as it ends a script that calls the API."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def console_main() -> int:
    """The ``rouge-metric`` console script and ``python -m rouge_metric``: :func:`main` as the whole
    process (Ctrl-C exits at once, with code 130)."""
    return main(exit_on_interrupt=True)
