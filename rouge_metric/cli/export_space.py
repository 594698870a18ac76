"""``rouge-metric export-space``: write a Hugging Face Space folder for the metric."""

from __future__ import annotations

import argparse
from typing import Any

from .errors import EXIT_FILE, EXIT_OK, InputError
from .options import epilog


def add_parser(sub: Any, fmt: Any) -> None:
    sp = sub.add_parser("export-space", help="write a Hugging Face Space folder for this metric",
                        epilog=epilog(), formatter_class=fmt,
                        description="Write README.md (the metric card), the evaluate module named after "
                                    "the folder (DIR/<name>.py, what evaluate.load(DIR) opens) and the "
                                    "package modules it needs, app.py and requirements.txt.")
    sp.add_argument("directory", metavar="DIR",
                    help="output folder, e.g. out/rouge_metric; its name is the metric's (evaluate.load(DIR))")
    sp.add_argument("--force", action="store_true", help="overwrite files in an existing folder")
    sp.add_argument("--quiet", "-q", action="store_true")
    sp.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..space import export_space

    try:
        files = export_space(args.directory, overwrite=args.force)
    except FileExistsError as exc:
        raise InputError(str(exc), EXIT_FILE) from None
    except OSError as exc:
        raise InputError(f"{args.directory}: cannot write: {exc.strerror or exc}", EXIT_FILE) from None
    if not args.quiet:
        print(f"wrote {len(files)} files to {args.directory}: {', '.join(sorted(files))}")
        print(f'check it with: python -c "import evaluate; print(evaluate.load({args.directory!r}))"')
    return EXIT_OK
