"""``rouge-metric score``: mean P/R/F of a corpus, with intervals when bootstrapping, or the
ROUGE-1.5.5.pl preset (``--rouge155``)."""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, Optional

from .errors import EXIT_OK, EXIT_USAGE, InputError
from .inputs import load_inputs, open_output, progress_bar
from .options import add_config_arguments, add_input_arguments, add_output_arguments, changed_config_options, \
    config_from_args, epilog

#: Examples per scoring call (progress bar granularity; memory stays flat unless bootstrapping).
SCORE_CHUNK = 2000


def add_parser(sub: Any, fmt: Any) -> None:
    sc = sub.add_parser("score", help="score predictions against references", epilog=epilog(),
                        formatter_class=fmt, description="Score a corpus: mean P/R/F per rouge type.")
    add_input_arguments(sc, required=True)
    add_output_arguments(sc, "print JSON instead of the table", "write per-example scores to FILE (JSONL)")
    add_config_arguments(sc)
    from ..hub_results import add_model_card_arguments

    add_model_card_arguments(sc)
    p155 = sc.add_argument_group("ROUGE-1.5.5.pl preset (rouge_metric.Rouge155)")
    p155.add_argument("--rouge155", metavar="OPTIONS", default=None,
                      help='reproduce ROUGE-1.5.5.pl with these script options, e.g. "-n 2 -m -2 4 -u -f A '
                           '-p 0.5 -a" (its averages and intervals); replaces the scoring options above '
                           "except --stopwords (-s) and --backend")
    p155.add_argument("--exceptions", metavar="FILE", default=None,
                      help="the WordNet exception list (inflected<TAB>lemma) that the script's -m uses")
    sc.set_defaults(func=run)


def _score_rouge155(args: argparse.Namespace, preds: List[str], refs: List[List[str]]) -> Any:
    """``--rouge155 OPTIONS``: the ROUGE-1.5.5.pl preset (its printed averages and intervals)."""
    from ..rouge155 import Rouge155

    changed = [name for name in changed_config_options(args) if name != "stopwords"]
    if changed:
        opts = ", ".join("--" + n.replace("_", "-") for n in changed)
        raise InputError(f"{opts}: --rouge155 takes its settings from the script's options (e.g. -m for stemming, "
                         "-n for the n-gram types); drop " + ("it" if len(changed) == 1 else "them"), EXIT_USAGE)
    try:
        scorer = Rouge155.from_perl_options(args.rouge155, exceptions=args.exceptions, stopwords=args.stopwords,
                                            backend=args.backend, names=ROUGE155_OPTION_NAMES)
    except ValueError as exc:
        if not str(exc).startswith(ROUGE155_OPTION_NAMES["options"] + ": "):
            raise
        raise InputError(str(exc), EXIT_USAGE) from None
    return scorer.compute(predictions=preds, references=refs, return_per_example=bool(args.per_example))


#: How the command line names the preset's inputs in its error messages.
ROUGE155_OPTION_NAMES = {
    "options": "--rouge155",
    "exceptions": "--exceptions FILE (the WordNet exception list, one 'inflected<TAB>lemma' per line)",
    "stopwords": "--stopwords FILE (ROUGE-1.5.5's smart_common_words.txt)",
}


def write_per_example(out: Any, rows: List[Dict[str, Any]], start: int) -> None:
    from ..result import STATS, output_key

    for i, scores in enumerate(rows, start):
        row: Dict[str, Any] = {"index": i}
        for t, sc in scores.items():
            for s in STATS:
                row[output_key(t, s)] = getattr(sc, s)
        out.write(json.dumps(row) + "\n")


def run(args: argparse.Namespace) -> int:
    from ..hub_results import check_model_card_args, write_from_args
    from ..scoring import Rouge

    check_model_card_args(args)
    if args.rouge155 is not None:
        preds, refs = load_inputs(args)
        result = _score_rouge155(args, preds, refs)
        write_from_args(args, result)  # --model-card
        if args.per_example:
            with open_output(args.per_example) as out:
                write_per_example(out, result.per_example, 0)
        print(json.dumps(result.as_json(), indent=2) if args.json else result.format_table(digits=args.digits))
        return EXIT_OK
    if args.exceptions is not None:
        raise ValueError("--exceptions: only used with --rouge155 (ROUGE-1.5.5's -m)")
    config = config_from_args(args)
    rouge = Rouge(config=config, backend=args.backend)
    preds, refs = load_inputs(args)
    acc = rouge.accumulator()
    bar = progress_bar(len(preds), args.quiet)
    out = open_output(args.per_example) if args.per_example else None
    try:
        # Chunks through the scorer's batch path (native batch scorer when available); the inputs
        # were validated while reading, with file and line.
        for start in range(0, len(preds), SCORE_CHUNK):
            stop = min(start + SCORE_CHUNK, len(preds))
            per: Optional[List[Dict[str, Any]]] = [] if out is not None else None
            rouge.add_to(acc, predictions=preds[start:stop], references=refs[start:stop], per_example=per)
            if out is not None:
                write_per_example(out, per, start)  # type: ignore[arg-type]
            if bar is not None:
                bar.update(stop - start)
    finally:
        if bar is not None:
            bar.close()
        if out is not None:
            out.close()
    rbar = progress_bar(config.n_resamples, args.quiet) if config.aggregation == "bootstrap" else None
    if rbar is not None:  # the bootstrap's resampling gets its own bar
        rbar.set_description("resampling")
        rbar.unit = "resample"
    try:
        result = rouge.result(acc, progress=rbar.update if rbar is not None else None)
    finally:
        if rbar is not None:
            rbar.close()
    write_from_args(args, result)  # --model-card
    if args.json:
        print(json.dumps(result.as_json(), indent=2))
    else:
        print(result.format_table(digits=args.digits))
    return EXIT_OK
