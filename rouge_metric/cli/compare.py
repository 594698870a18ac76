"""``rouge-metric compare``: is a system significantly better than the baseline? (paired bootstrap or
approximate randomization, :func:`rouge_metric.compare`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List

from ..readers import MisalignedInputError
from .errors import EXIT_OK, EXIT_USAGE, InputError
from .inputs import check_one_stdin, load_inputs, progress_bar, read_prediction_column
from .options import add_config_arguments, add_format_arguments, config_from_args, epilog


def add_parser(sub: Any, fmt: Any) -> None:
    from ..result import STATS
    from ..significance import DEFAULT_CI_RESAMPLES, DEFAULT_RESAMPLES, METHODS

    cp = sub.add_parser(
        "compare", help="is a system significantly better than the baseline? (paired tests)", epilog=epilog(),
        formatter_class=fmt,
        description="Score the baseline and every system once on the same references, then test each system's "
                    "difference with the baseline per rouge type and statistic: paired bootstrap resampling or "
                    "approximate randomization (sacreBLEU's tests; see docs/significance.md). No correction for "
                    "multiple comparisons is applied.")
    g = cp.add_argument_group("inputs")
    g.add_argument("--baseline", required=True, metavar="PATH",
                   help="the baseline's predictions: a text file (one per line), a JSONL file or a saved dataset")
    g.add_argument("--system", action="append", required=True, metavar="PATH",
                   help="a system's predictions, aligned with the baseline (repeat for several systems; each is "
                        "named by its path)")
    g.add_argument("--references", action="append", metavar="PATH",
                   help="references, aligned with the predictions (repeat for several references); omit to read "
                        "them from the baseline JSONL file or dataset")
    add_format_arguments(g, "the reference(s) in the baseline file")
    t = cp.add_argument_group("test")
    t.add_argument("--method", choices=METHODS, default=METHODS[0],
                   help="paired_bootstrap (default) or approximate_randomization")
    t.add_argument("--ci-resamples", type=int, default=DEFAULT_CI_RESAMPLES,
                   help="bootstrap resamples of the intervals under approximate_randomization (default: %(default)s)")
    t.add_argument("--level", type=float, default=0.05,
                   help="significance level marked with * in the table (default: %(default)s)")
    o = cp.add_argument_group("output")
    o.add_argument("--json", action="store_true",
                   help="print {system: {type: {statistic: {baseline, system, delta, ci_low, ci_high, p_value}}}} "
                        "(the signature goes to stderr)")
    o.add_argument("--stats", nargs="+", choices=STATS, default=["fmeasure"],
                   help="statistics in the table (default: fmeasure)")
    o.add_argument("--digits", type=int, default=2, help="digits in the table (default: %(default)s)")
    o.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    defaults = ", ".join(f"{m}: {k}" for m, k in DEFAULT_RESAMPLES.items())
    # compare reports exact means and tests their differences: no aggregation; the test's meaning of the
    # settings it shares
    add_config_arguments(cp, exclude=("aggregation",), helps={
        "n_resamples": f"bootstrap resamples or randomization trials (default: {defaults})",
        "seed": "seed of every draw (default: %(default)s)",
        "confidence_level": "level of the interval of each difference (default: %(default)s)"})
    cp.set_defaults(func=run, n_resamples=None)


def run(args: argparse.Namespace) -> int:
    from ..significance import compare

    if not 0.0 < args.level < 1.0:
        raise InputError(f"--level: expected a number in (0, 1), got {args.level}", EXIT_USAGE)
    check_one_stdin([("--baseline", args.baseline)] + [("--system", p) for p in args.system]
                    + [("--references", r) for r in args.references or []])
    seen = set()
    for path in args.system:
        if path in seen:
            raise InputError(f"--system: {path} is given twice", EXIT_USAGE)
        seen.add(path)
    base, refs = load_inputs(argparse.Namespace(**{**vars(args), "predictions": args.baseline}))
    systems: Dict[str, List[str]] = {}
    for path in args.system:
        preds = read_prediction_column(path, args)
        if len(preds) != len(base):
            raise MisalignedInputError(f"{path}: {len(preds)} examples, but the baseline {args.baseline} has "
                                       f"{len(base)}; inputs must be aligned (one prediction per reference entry)")
        systems[path] = preds
    # The scoring settings (aggregation "mean"); the test's resamples, seed and level go to compare().
    config = config_from_args(argparse.Namespace(**{**vars(args), "n_resamples": 1}))
    bars: Dict[str, Any] = {}

    def progress(stage: str, k: int, total: int) -> None:
        if stage not in bars:
            for bar in bars.values():
                if bar is not None:
                    bar.close()
            bar = bars[stage] = progress_bar(total, args.quiet)
            if bar is not None:
                bar.set_description(stage)
                bar.unit = "ex" if stage == "scoring" else "resample"
        if bars[stage] is not None:
            bars[stage].update(k)

    try:
        result = compare(baseline=base, systems=systems, references=refs, method=args.method,
                         n_resamples=args.n_resamples, confidence_level=args.confidence_level, seed=args.seed,
                         ci_resamples=args.ci_resamples, config=config, backend=args.backend, progress=progress)
    finally:
        for bar in bars.values():
            if bar is not None:
                bar.close()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        if not args.quiet:
            print(f"signature: {result.signature}", file=sys.stderr)
    else:
        print(f"baseline: {args.baseline}")
        print(result.format_table(level=args.level, stats=args.stats, digits=args.digits))
    return EXIT_OK
