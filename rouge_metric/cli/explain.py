"""``rouge-metric explain``: why one example scores what it does (matched n-grams, LCS tokens, rougeLsum
hits per reference sentence), as text, JSON or an HTML page."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .errors import EXIT_OK, EXIT_USAGE, InputError
from .inputs import load_inputs, open_output
from .options import add_config_arguments, add_input_arguments, config_from_args, epilog


def add_parser(sub: Any, fmt: Any) -> None:
    ex = sub.add_parser("explain", help="show why one example scores what it does", epilog=epilog(),
                        formatter_class=fmt,
                        description="Matched n-grams (clipped counts), LCS tokens and positions, rougeLsum "
                                    "union-LCS hits per reference sentence.")
    t = ex.add_argument_group("texts")
    t.add_argument("--prediction", metavar="TEXT", help="the prediction text")
    t.add_argument("--reference", action="append", metavar="TEXT", help="a reference text (repeatable)")
    add_input_arguments(ex, required=False)
    ex.add_argument("--index", type=int, default=0, help="example index (0-based) when reading files")
    ex.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                    help="ANSI colours (auto: when stdout is a terminal and NO_COLOR is unset)")
    ex.add_argument("--json", action="store_true", help="print the explanation as JSON")
    ex.add_argument("--html", metavar="FILE", default=None,
                    help="also write an HTML page with the matches highlighted in both texts (open it in a browser)")
    ex.add_argument("--tokens", action="store_true",
                    help="show the normalized tokens the scorer compares instead of the original texts")
    add_config_arguments(ex, aggregation=False)
    ex.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..explain import explain

    if args.prediction is not None:
        if not args.reference:
            raise InputError("--reference: required with --prediction (repeat it for more references)", EXIT_USAGE)
        pred, refs = args.prediction, list(args.reference)
    elif args.predictions is not None:
        preds, all_refs = load_inputs(args)
        if not 0 <= args.index < len(preds):
            raise InputError(f"--index: {args.index} is out of range; the inputs have {len(preds)} examples "
                             f"(0 .. {len(preds) - 1})", EXIT_USAGE)
        pred, refs = preds[args.index], all_refs[args.index]
    else:
        raise InputError("give --prediction TEXT --reference TEXT, or --predictions FILE [--references FILE] "
                         "--index N", EXIT_USAGE)
    config = config_from_args(args)
    ex = explain(prediction=pred, references=refs, config=config, backend=args.backend)
    if args.html:
        page = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>rouge-metric explain</title></head>'
                f"<body>{ex.to_html(tokens=args.tokens)}</body></html>\n")
        with open_output(args.html) as fh:
            fh.write(page)
    if args.json:
        print(json.dumps(ex.to_dict(), indent=2))
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                           and not os.environ.get("NO_COLOR"))
        print(ex.format(color=color, tokens=args.tokens))
    return EXIT_OK
