"""Command line: ``rouge-metric score --predictions FILE --references FILE [--references FILE2 ...]``.

Line-aligned text files: line i of the predictions file is scored against line i of every references
file (several reference files = several references per example). Prints the table with the signature
(``--json`` for machine-readable output). ``print`` is used here only.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional, Sequence

from .config import DEFAULT_ROUGE_TYPES, MULTI_REF_MODES, RougeConfig

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INPUT = 3


class InputError(Exception):
    """Bad input file: the message names the file and line."""


def read_lines(path: str) -> List[str]:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: invalid UTF-8 (byte offset {exc.start})") from None
    if text.endswith("\n"):
        text = text[:-1]
    if not text:
        raise InputError(f"{path}: empty input")
    return [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]


def add_config_arguments(p: argparse.ArgumentParser) -> None:
    """The scoring options shared by every subcommand (defaults from :class:`RougeConfig`)."""
    d = RougeConfig()
    p.add_argument("--rouge-types", nargs="+", default=list(DEFAULT_ROUGE_TYPES), metavar="TYPE",
                   help="rouge types (default: %(default)s)")
    p.add_argument("--use-stemmer", action="store_true", help="Porter stemming (rouge-score's)")
    p.add_argument("--tokenizer", default="default", help="tokenizer name (default: rouge-score's)")
    p.add_argument("--sentence-splitter", default=d.sentence_splitter, help="rougeLsum sentence splitter")
    p.add_argument("--multi-ref", default=d.multi_ref, choices=MULTI_REF_MODES, help="multi-reference mode")
    p.add_argument("--beta", type=float, default=d.beta, help="F-measure beta (default 1)")
    p.add_argument("--alpha", type=float, default=None, help="ROUGE-1.5.5 -p alpha (overrides --beta)")
    p.add_argument("--wlcs-weight", type=float, default=d.wlcs_weight, help="ROUGE-W weight")
    p.add_argument("--bootstrap", action="store_true", help="bootstrap confidence intervals")
    p.add_argument("--n-resamples", type=int, default=d.n_resamples)
    p.add_argument("--confidence-level", type=float, default=d.confidence_level)
    p.add_argument("--seed", type=int, default=d.seed)


def config_from_args(args: argparse.Namespace) -> RougeConfig:
    return RougeConfig(
        rouge_types=tuple(args.rouge_types), use_stemmer=args.use_stemmer, tokenizer=args.tokenizer,
        sentence_splitter=args.sentence_splitter, multi_ref=args.multi_ref, beta=args.beta, alpha=args.alpha,
        wlcs_weight=args.wlcs_weight, aggregation="bootstrap" if args.bootstrap else "mean",
        n_resamples=args.n_resamples, confidence_level=args.confidence_level, seed=args.seed,
    )


def _load_pairs(pred_path: str, ref_paths: Sequence[str]):
    preds = read_lines(pred_path)
    ref_cols = []
    for rp in ref_paths:
        lines = read_lines(rp)
        if len(lines) != len(preds):
            raise InputError(
                f"{rp}: {len(lines)} lines, but {pred_path} has {len(preds)}; files must be line-aligned"
            )
        ref_cols.append(lines)
    refs = [list(col) for col in zip(*ref_cols)]
    return preds, refs


def cmd_score(args: argparse.Namespace) -> int:
    from .scoring import Rouge

    config = config_from_args(args)
    preds, refs = _load_pairs(args.predictions, args.references)
    result = Rouge(config=config).compute(predictions=preds, references=refs)
    if args.json:
        print(json.dumps(result.as_json(), indent=2))
    else:
        print(result.format_table())
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rouge-metric", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sc = sub.add_parser("score", help="score line-aligned prediction/reference files")
    sc.add_argument("--predictions", required=True, help="predictions file, one per line")
    sc.add_argument("--references", required=True, action="append", help="references file (repeat for more)")
    sc.add_argument("--json", action="store_true", help="print JSON instead of the table")
    add_config_arguments(sc)
    sc.set_defaults(func=cmd_score)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except InputError as exc:
        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except (ValueError, TypeError, LookupError) as exc:
        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
