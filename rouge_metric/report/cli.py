"""The ``report`` subcommand: line-aligned text files in, one self-contained HTML file out.

    rouge-metric report --predictions sys.txt --references ref.txt --output report.html
    rouge-metric report --references ref.txt --system A=a.txt --system B=b.txt --output report.html

``--references`` may be repeated (example ``i`` has line ``i`` of every file as its references);
``--predictions`` (named by ``--name``) and every ``--system NAME=FILE`` hold one prediction per line; the
first system is the baseline of the comparisons. :func:`add_parser` declares the subcommand on an
``argparse`` subparsers object and :func:`run` executes it. Files are read by :mod:`rouge_metric.readers`
(the command line's readers); a bad input raises its :class:`~rouge_metric.readers.InputError` (``kind``:
``file``, ``format``, ``empty``, ``misaligned``, ``usage``) naming the option, the file and the line counts,
and the command line turns the kind into its exit code.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any, List, Optional, Tuple

from ..readers import InputError, InputUsageError, MisalignedInputError, read_lines

def _system(spec: str) -> Tuple[str, str]:
    name, sep, path = spec.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=FILE, got {spec!r}")
    return name, path


def _types(text: str) -> List[str]:
    return [t for t in text.replace(",", " ").split() if t]


def add_parser(subparsers: Any, formatter_class: Any = None) -> argparse.ArgumentParser:
    """Declare ``report`` on ``subparsers`` (from ``ArgumentParser.add_subparsers``), with the command line's
    ``formatter_class`` when given; returns its parser."""
    extra = {} if formatter_class is None else {"formatter_class": formatter_class}
    p = subparsers.add_parser(
        "report", help="write a self-contained HTML report (scores, distributions, length, examples, systems)",
        description="Write one self-contained HTML file that works offline: corpus scores with bootstrap "
                    "intervals, distributions, length analysis, every example (or a seeded sample) with its "
                    "explanation, and for two or more systems paired significance tests. Needs the [report] "
                    "extra (matplotlib).", **extra)
    p.add_argument("--predictions", metavar="FILE", help="predictions, one per line (the first system)")
    p.add_argument("--name", default=None, help="name of --predictions (default: predictions, or baseline with "
                                                "--system)")
    p.add_argument("--references", metavar="FILE", action="append", required=True,
                   help="references, one per line, aligned with the predictions; repeat for several references "
                        "per example")
    p.add_argument("--system", metavar="NAME=FILE", action="append", type=_system, default=[],
                   help="another system's predictions, one per line; repeatable (each is compared with the first)")
    p.add_argument("--output", "-o", metavar="FILE", required=True, help="the HTML file to write")
    p.add_argument("--rouge-types", type=_types, default=None, metavar="TYPES",
                   help="comma- or space-separated rouge types (default: rouge1,rouge2,rougeL,rougeLsum)")
    p.add_argument("--use-stemmer", action="store_true", help="Porter stemming (rouge-score's)")
    p.add_argument("--tokenizer", default=None, help="tokenizer name (default: rouge-score's)")
    p.add_argument("--multi-ref", default=None, help="how several references combine (default: max)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap, the tests and the sample (default 0)")
    p.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples of the corpus intervals")
    p.add_argument("--confidence-level", type=float, default=0.95, help="level of the intervals (default 0.95)")
    p.add_argument("--test-resamples", type=int, default=None,
                   help="resamples of the paired bootstrap and trials of approximate randomization (default 1000)")
    p.add_argument("--max-examples", type=int, default=None,
                   help="examples the table holds; a seeded sample beyond it (default 500)")
    p.add_argument("--explain-examples", type=int, default=None,
                   help="examples of the table with an embedded explanation: the largest gains and losses, the lowest "
                        "and highest scores and a seeded sample (default 100; 0: none)")
    p.add_argument("--title", default=None, help="title of the page")
    p.set_defaults(func=run)
    return p


def command_line(args: argparse.Namespace) -> str:
    """The canonical command that rebuilds the same report (shown in its header)."""
    parts = ["rouge-metric", "report"]
    if args.predictions is not None:
        parts += ["--predictions", args.predictions]
    if args.name is not None:
        parts += ["--name", args.name]
    for r in args.references:
        parts += ["--references", r]
    for name, path in args.system:
        parts += ["--system", f"{name}={path}"]
    if args.rouge_types:
        parts += ["--rouge-types", ",".join(args.rouge_types)]
    if args.use_stemmer:
        parts.append("--use-stemmer")
    for flag, value, default in (("--tokenizer", args.tokenizer, None), ("--multi-ref", args.multi_ref, None),
                                 ("--seed", args.seed, 0), ("--n-resamples", args.n_resamples, 1000),
                                 ("--confidence-level", args.confidence_level, 0.95),
                                 ("--test-resamples", args.test_resamples, None),
                                 ("--max-examples", args.max_examples, None),
                                 ("--explain-examples", args.explain_examples, None), ("--title", args.title, None)):
        if value != default:
            parts += [flag, str(value)]
    parts += ["--output", args.output]
    return shlex.join(parts)


def load(args: argparse.Namespace) -> Tuple[Optional[List[str]], List[List[str]], List[Tuple[str, List[str]]]]:
    """``(predictions, references, systems)`` from the files, checked to be line-aligned."""
    ref_files = [(path, read_lines(path)) for path in args.references]
    n = len(ref_files[0][1])
    first = ref_files[0][0]
    for path, lines in ref_files[1:]:
        if len(lines) != n:
            raise MisalignedInputError(f"--references {path}: {len(lines)} lines, but --references {first} has {n} "
                                   "lines; the files must be line-aligned (line i of each is example i)")
    preds = None
    if args.predictions is not None:
        preds = read_lines(args.predictions)
        if len(preds) != n:
            raise MisalignedInputError(f"--predictions {args.predictions}: {len(preds)} lines, but --references {first} "
                                   f"has {n} lines; the files must be line-aligned (line i of each is example i)")
    systems = []
    seen = {} if args.predictions is None else {args.name or "baseline": "--name"}
    for k, (name, path) in enumerate(args.system):
        if name in seen:
            raise InputUsageError(f"--system {name}={path} (--system #{k + 1}): system name {name!r} given twice "
                                   f"(also {seen[name]}); give every system its own name")
        seen[name] = f"--system #{k + 1}"
        lines = read_lines(path)
        if len(lines) != n:
            raise MisalignedInputError(f"--system {name}={path} (--system #{k + 1}): {len(lines)} lines, but --references "
                                   f"{first} has {n} lines; the files must be line-aligned (line i of each is "
                                   "example i)")
        systems.append((name, lines))
    if preds is None and not systems:
        raise InputUsageError("--predictions or --system: give at least one system's predictions")
    refs = [[lines[i] for _, lines in ref_files] for i in range(n)]
    return preds, refs, systems


def run(args: argparse.Namespace) -> int:
    """Build and write the report; print where it went. Returns 0; bad input raises (see the module)."""
    from .build import report

    preds, refs, systems = load(args)
    options: dict = {"seed": args.seed, "n_resamples": args.n_resamples, "confidence_level": args.confidence_level,
                     "use_stemmer": args.use_stemmer}
    if args.rouge_types:
        options["rouge_types"] = args.rouge_types
    for key in ("tokenizer", "multi_ref", "test_resamples", "max_examples", "explain_examples", "title", "name"):
        if getattr(args, key) is not None:
            options[key] = getattr(args, key)
    if systems:
        options["systems"] = systems
    rep = report(preds, refs, command=command_line(args), **options)
    rep.save(args.output)
    d = rep.data
    print(f"wrote {args.output}: {d.n} examples, {len(d.names)} system(s), table of {len(rep.kept)} examples")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m rouge_metric.report.cli report ...``: the subcommand on its own (the same options and
    exit codes as ``rouge-metric report``)."""
    parser = argparse.ArgumentParser(prog="rouge-metric")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as exc:
        from ..cli.errors import exit_code

        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return exit_code(exc)
    except (ValueError, TypeError) as exc:
        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
