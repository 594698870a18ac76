"""Command line: ``rouge-metric score | compare | explain | export-space | generate-and-score``.

``score`` reads line-aligned text files, JSONL files (``--prediction-field`` / ``--references-field``)
or datasets saved with ``Dataset.save_to_disk``, and prints a table with confidence intervals (when
bootstrapping) and the signature, or ``--json``; ``--per-example FILE`` writes per-example scores as
JSONL. ``compare`` tests whether systems differ from a baseline (paired bootstrap or approximate
randomization, :func:`rouge_metric.compare`). ``explain`` shows why one example scores what it does. ``export-space`` writes a Hub Space
folder. The scoring options are derived from :class:`RougeConfig`'s fields and allowed-name tuples.
``print`` is used here only. Exit codes: see :data:`EXIT_CODES` (and ``docs/cli.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import typing
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from . import config as config_mod
from ._lazy import require
from .config import RougeConfig
from .jsonl import parse_jsonl

# ---------------------------------------------------------------------------------- exit codes
EXIT_OK = 0
EXIT_USAGE = 2          # bad command line or option value (argparse, invalid rouge type, ...)
EXIT_FILE = 3           # a file cannot be read or written (missing, a directory, permissions)
EXIT_FORMAT = 4         # invalid content: bad UTF-8, bad JSON line, missing field, wrong value type
EXIT_MISALIGNED = 5     # inputs with different numbers of examples
EXIT_EMPTY = 6          # an input holds no example
EXIT_RESOURCE = 7       # a needed resource is missing (e.g. nltk punkt data for --sentence-splitter nltk)
EXIT_INTERRUPTED = 130  # Ctrl-C

EXIT_CODES: Dict[int, str] = {
    EXIT_OK: "success",
    1: "internal error (a bug: please report it with the traceback)",
    EXIT_USAGE: "usage error: bad command line or option value",
    EXIT_FILE: "a file cannot be read or written (missing, a directory, permissions)",
    EXIT_FORMAT: "invalid input content: bad UTF-8, bad JSON line, missing field, wrong value type",
    EXIT_MISALIGNED: "inputs have different numbers of examples",
    EXIT_EMPTY: "an input holds no example",
    EXIT_RESOURCE: "a needed resource is missing (nltk punkt data for --sentence-splitter nltk)",
    EXIT_INTERRUPTED: "interrupted",
}


class InputError(Exception):
    """Bad input: the message names the file and line; ``code`` is the exit code."""

    def __init__(self, message: str, code: int = EXIT_FORMAT) -> None:
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------------------------ reading
FORMATS = ("auto", "text", "jsonl", "dataset")
_JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")


#: ``--predictions -`` / ``--references -`` (one of them): read standard input (UTF-8), as sacrebleu does.
STDIN = "-"


def _read_text(path: str) -> str:
    if path == STDIN:
        return _decode(sys.stdin.buffer.read(), "<stdin>")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory (datasets saved with save_to_disk are read with --format "
                         "dataset or auto)", EXIT_FILE)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found", EXIT_FILE) from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}", EXIT_FILE) from None
    return _decode(data, path)


def _decode(data: bytes, path: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"{path}:{line}: invalid UTF-8 at column {col} (byte offset {exc.start}); "
                         "re-encode the file as UTF-8", EXIT_FORMAT) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_lines(path: str) -> List[str]:
    """The lines of a UTF-8 text file (``\\n`` or ``\\r\\n``; a final newline ends the last line)."""
    text = _read_text(path)
    if not text:  # no line at all; a file holding one newline is one (empty) line, as two newlines are two
        raise InputError(f"{path}: empty input (no lines)", EXIT_EMPTY)
    if text.endswith("\n"):
        text = text[:-1]
    return [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]


def _check_field(value: Any, where: str, field: str, allow_list: bool) -> Any:
    if isinstance(value, str):
        return value
    if allow_list and isinstance(value, list):
        if not value:
            raise InputError(f"{where}: field {field!r} is an empty list; give at least one reference")
        for j, v in enumerate(value):
            if not isinstance(v, str):
                raise InputError(f"{where}: field {field!r}[{j}]: expected a string, got {type(v).__name__}")
        return value
    want = "a string or a list of strings" if allow_list else "a string"
    got = "null" if value is None else type(value).__name__
    raise InputError(f"{where}: field {field!r}: expected {want}, got {got}")


def read_jsonl(path: str, fields: Sequence[Tuple[str, bool]]) -> List[List[Any]]:
    """Per requested ``(field, allow_list)``, the column of values of a JSONL file (blank lines skipped)."""
    text = _read_text(path)
    cols: List[List[Any]] = [[] for _ in fields]
    try:
        for lineno, obj in parse_jsonl(text, path):
            for col, (field, allow_list) in zip(cols, fields):
                if field not in obj:
                    raise InputError(f"{path}:{lineno}: missing field {field!r}; the object has fields "
                                     f"{sorted(obj)} (choose with --prediction-field / --references-field)")
                col.append(_check_field(obj[field], f"{path}:{lineno}", field, allow_list))
    except ValueError as exc:  # a line that is not a JSON object (InputError is not a ValueError)
        raise InputError(str(exc)) from None
    if not cols or not cols[0]:
        raise InputError(f"{path}: empty input (no JSON lines)", EXIT_EMPTY)
    return cols


def read_dataset(path: str, fields: Sequence[Tuple[str, bool]], split: Optional[str]) -> List[List[Any]]:
    """Columns of a dataset saved with ``save_to_disk`` (a ``DatasetDict`` needs ``--split``)."""
    try:
        datasets = require("datasets", "evaluate", "reading a saved dataset")
    except ImportError as exc:
        raise InputError(str(exc), EXIT_USAGE) from None
    if path == STDIN:
        raise InputError("-: standard input holds text or JSONL, not a saved dataset", EXIT_USAGE)
    if not os.path.exists(path):
        raise InputError(f"{path}: not found", EXIT_FILE)
    try:
        ds = datasets.load_from_disk(path)
    except FileNotFoundError as exc:
        raise InputError(f"{path}: not a dataset saved with save_to_disk ({exc})", EXIT_FORMAT) from None
    ds = select_split(ds, split, path)
    for field, _ in fields:
        if field not in ds.column_names:
            raise InputError(f"{path}: missing column {field!r}; the dataset has columns {ds.column_names} "
                             "(choose with --prediction-field / --references-field)")
    if len(ds) == 0:
        raise InputError(f"{path}: empty input (no rows)", EXIT_EMPTY)
    cols: List[List[Any]] = []
    for field, allow_list in fields:
        values = ds.with_format(None)[field][:]
        cols.append([_check_field(v, f"{path}: row {i}", field, allow_list) for i, v in enumerate(values)])
    return cols


def select_split(ds: Any, split: Optional[str], path: str) -> Any:
    """The ``--split`` of a saved ``DatasetDict`` (its only split when there is one and none is given)."""
    if not hasattr(ds, "keys") or not all(hasattr(v, "column_names") for v in ds.values()):
        if split is not None:
            raise InputError(f"--split {split}: {path} is a single dataset, not a DatasetDict; drop --split",
                             EXIT_USAGE)
        return ds
    if split is None:
        if len(ds) == 1:
            return ds[next(iter(ds))]
        raise InputError(f"{path}: a DatasetDict with splits {list(ds)}; choose one with --split", EXIT_USAGE)
    if split not in ds:
        raise InputError(f"--split {split}: {path} has no split {split!r}; its splits are {list(ds)}", EXIT_USAGE)
    return ds[split]


def detect_format(path: str, fmt: str) -> str:
    if fmt != "auto":
        return fmt
    if path == STDIN:
        return "text"
    if os.path.isdir(path):
        return "dataset"
    return "jsonl" if path.lower().endswith(_JSONL_SUFFIXES) else "text"


def load_inputs(args: argparse.Namespace) -> Tuple[List[str], List[List[str]]]:
    """Predictions and per-example reference lists from the files named on the command line."""
    pfmt = detect_format(args.predictions, args.format)
    ref_paths = args.references or []
    _check_one_stdin([("--predictions", args.predictions)] + [("--references", r) for r in ref_paths])
    if args.split is not None and "dataset" not in {pfmt, *(detect_format(r, args.format) for r in ref_paths)}:
        raise InputError(f"--split {args.split}: only a saved DatasetDict has splits, and the inputs are files",
                         EXIT_USAGE)
    pfield = (args.prediction_field, False)
    rfield = (args.references_field, True)
    if not ref_paths and pfmt == "text":
        raise InputError("--references: required when the predictions are a text file "
                         "(JSONL files and datasets can hold both fields)", EXIT_USAGE)

    def read(path: str, fmt: str, fields):
        if fmt == "text":
            return [read_lines(path)]
        if fmt == "jsonl":
            return read_jsonl(path, fields)
        return read_dataset(path, fields, args.split)

    if ref_paths:
        preds = read(args.predictions, pfmt, [pfield])[0]
        ref_cols = [(rp, read(rp, detect_format(rp, args.format), [rfield])[0]) for rp in ref_paths]
    else:
        preds, refs = read(args.predictions, pfmt, [pfield, rfield])
        ref_cols = [(args.predictions, refs)]
    for rp, col in ref_cols:
        if len(col) != len(preds):
            unit = "lines" if detect_format(rp, args.format) == "text" else "examples"
            raise InputError(
                f"{rp}: {len(col)} {unit}, but {args.predictions} has {len(preds)}; inputs must be aligned "
                "(one reference entry per prediction)", EXIT_MISALIGNED)
    refs_out: List[List[str]] = [[] for _ in preds]
    for _, col in ref_cols:
        for acc, r in zip(refs_out, col):
            if isinstance(r, str):
                acc.append(r)
            else:
                acc.extend(r)
    return preds, refs_out


def _check_one_stdin(inputs: Sequence[Tuple[str, Optional[str]]]) -> None:
    """Standard input can be read once: at most one input may be ``-``."""
    named = [opt for opt, path in inputs if path == STDIN]
    if len(named) > 1:
        raise InputError(f"{' and '.join(named)}: only one input can be '-' (standard input is read once)",
                         EXIT_USAGE)


# ------------------------------------------------------------------------------- config options
#: Names allowed for a config field, looked up at parser build time (so names added to these tuples
#: appear automatically).
_CHOICES = {
    "tokenizer": "TOKENIZERS",
    "sentence_splitter": "SENTENCE_SPLITTERS",
    "multi_ref": "MULTI_REF_MODES",
    "aggregation": "AGGREGATIONS",
}
_HELP = {
    "rouge_types": "rouge types: " + config_mod.ROUGE_TYPE_HELP,
    "use_stemmer": "stem tokens (rouge-score's Porter stemmer); optionally name the stemmer",
    "tokenizer": "tokenizer ('default' is rouge-score's)",
    "sentence_splitter": "how rougeLsum/rougeW find sentences",
    "multi_ref": "multi-reference mode: max (rouge-score), mean, pool (ROUGE-1.5.5 -f A), best_recall (-f B)",
    "beta": "F-measure beta (1 = F1)",
    "alpha": "ROUGE-1.5.5 -p alpha (overrides --beta)",
    "wlcs_weight": "ROUGE-W weight",
    "aggregation": "mean (exact) or bootstrap (adds confidence intervals)",
    "n_resamples": "bootstrap resamples",
    "confidence_level": "bootstrap confidence level",
    "seed": "bootstrap seed",
    "stopwords": "a UTF-8 file with one word per line: the words removed before scoring (after tokenization, "
                 "before stemming)",
}
#: Settings of the corpus aggregation: meaningless for one example (not offered by ``explain``).
AGGREGATION_FIELDS = ("aggregation", "n_resamples", "confidence_level", "seed")

#: Settings of ``tokenizer="ids"`` (token-id inputs): the command line reads texts, so ``--tokenizer`` has
#: no ``ids`` choice and these are not offered.
IDS_FIELDS = ("ignore_ids", "sentence_ids")


def _docstring_help() -> Dict[str, str]:
    """Field help from the ``Attributes:`` section of :class:`RougeConfig`'s docstring."""
    out: Dict[str, str] = {}
    names: List[str] = []
    in_attrs = False
    for line in (RougeConfig.__doc__ or "").splitlines():
        stripped = line.strip()
        if stripped == "Attributes:":
            in_attrs = True
            continue
        if not in_attrs or not stripped:
            continue
        head, sep, rest = stripped.partition(": ")
        cand = [n.strip() for n in head.split(",")]
        if sep and all(n.isidentifier() for n in cand) and len(line) - len(line.lstrip()) <= 8:
            names = cand
            for n in names:
                out[n] = rest
        elif names:
            for n in names:
                out[n] += " " + stripped
    return {k: v.replace("``", "") for k, v in out.items()}


class _Field(NamedTuple):
    name: str
    default: Any


def _config_fields() -> List[Tuple[_Field, Any]]:
    """Every :class:`RougeConfig` field with its default, and its type hint."""
    hints = typing.get_type_hints(RougeConfig)
    defaults = RougeConfig._defaults()
    return [(_Field(name, defaults[name]), hints.get(name)) for name in RougeConfig._fields]


def add_config_arguments(p: argparse.ArgumentParser, aggregation: bool = True,
                         exclude: Sequence[str] = ()) -> None:
    """One option per :class:`RougeConfig` field (defaults and allowed names from config.py), minus the
    token-id settings (:data:`IDS_FIELDS`) and ``exclude``; ``aggregation=False`` leaves out the corpus
    aggregation settings (:data:`AGGREGATION_FIELDS`) and ``--bootstrap``."""
    g = p.add_argument_group("scoring options (RougeConfig fields)")
    doc_help = _docstring_help()
    if config_mod.IDS_TOKENIZER not in config_mod.TOKENIZERS:
        exclude = tuple(exclude) + IDS_FIELDS
    offered: Dict[str, Any] = {}
    for f, hint in _config_fields():
        if (not aggregation and f.name in AGGREGATION_FIELDS) or f.name in exclude:
            continue
        opt = "--" + f.name.replace("_", "-")
        default = f.default
        help_ = _HELP.get(f.name) or doc_help.get(f.name) or f"RougeConfig.{f.name}"
        help_ = help_.replace("%", "%%")
        if f.name in _CHOICES:
            choices = list(getattr(config_mod, _CHOICES[f.name]))
            g.add_argument(opt, default=default if default is not None else choices[0], choices=choices,
                           help=help_ + " (default: %(default)s)")
        elif f.name == "use_stemmer":
            stemmers = list(config_mod.STEMMERS)
            g.add_argument(opt, nargs="?", const=True, default=False, choices=stemmers, metavar="STEMMER",
                           help=help_ + f" ({', '.join(stemmers)})")
        elif isinstance(default, tuple):
            g.add_argument(opt, nargs="+", default=list(default), metavar=f.name.upper().rstrip("S"),
                           help=help_ + " (default: %(default)s)")
        elif isinstance(default, bool):
            g.add_argument(opt, action=argparse.BooleanOptionalAction, default=default, help=help_)
        else:
            typ = float if isinstance(default, float) else int if isinstance(default, int) else None
            if typ is None:
                args = typing.get_args(hint)
                typ = next((a for a in args if a in (int, float)), str)
            g.add_argument(opt, type=typ, default=default, help=help_ + " (default: %(default)s)")
    if aggregation and "aggregation" not in exclude:
        g.add_argument("--bootstrap", dest="aggregation", action="store_const", const="bootstrap",
                       help="shorthand for --aggregation bootstrap")
    g.add_argument("--backend", default=None, choices=["auto", "python", "native"],
                   help="kernel backend (default: $ROUGE_METRIC_BACKEND or auto; the numbers are the same)")
    for action in g._group_actions:  # the first action of a dest sets its default (--bootstrap comes later)
        if action.dest in RougeConfig._fields and action.dest not in offered:
            offered[action.dest] = action.default
    p.set_defaults(_config_defaults=offered)


def config_from_args(args: argparse.Namespace) -> RougeConfig:
    """The :class:`RougeConfig` of parsed options (validated by RougeConfig itself)."""
    kwargs = {f.name: getattr(args, f.name) for f, _ in _config_fields() if hasattr(args, f.name)}
    kwargs["rouge_types"] = tuple(kwargs["rouge_types"])
    return RougeConfig(**kwargs)


# ---------------------------------------------------------------------------------- score
#: Examples per scoring call (progress bar granularity; memory stays flat unless bootstrapping).
SCORE_CHUNK = 2000

def _progress(total: int, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with datasets
        return None
    return tqdm(total=total, file=sys.stderr, unit="ex", desc="rouge", leave=False, mininterval=0.2)


def _open_output(path: str):
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror}", EXIT_FILE) from None


def _score_rouge155(args: argparse.Namespace, preds: List[str], refs: List[List[str]]):
    """``--rouge155 OPTIONS``: the ROUGE-1.5.5.pl preset (its printed averages and intervals)."""
    from .rouge155 import Rouge155

    changed = [name for name, default in args._config_defaults.items()
               if name != "stopwords" and getattr(args, name) != default]
    if changed:
        opts = ", ".join("--" + n.replace("_", "-") for n in changed)
        raise InputError(f"{opts}: --rouge155 takes its settings from the script's options (e.g. -m for stemming, "
                         "-n for the n-gram types); drop " + ("it" if len(changed) == 1 else "them"), EXIT_USAGE)
    try:
        scorer = Rouge155.from_perl_options(args.rouge155, exceptions=args.exceptions, stopwords=args.stopwords,
                                            backend=args.backend)
    except ValueError as exc:
        message = str(exc)
        if not message.startswith("options: "):
            raise
        message = (message.replace("options: ", "--rouge155: ", 1)
                   .replace("exceptions=<the WordNet exception list> (see Rouge155)",
                            "--exceptions FILE (the WordNet exception list, one 'inflected<TAB>lemma' per line)")
                   .replace("stopwords=<path of smart_common_words.txt or a word list>",
                            "--stopwords FILE (ROUGE-1.5.5's smart_common_words.txt)"))
        raise InputError(message, EXIT_USAGE) from None
    return scorer.compute(predictions=preds, references=refs, return_per_example=bool(args.per_example))


def _write_per_example(out, rows: List[Dict[str, Any]], start: int) -> None:
    from .result import STATS, output_key

    for i, scores in enumerate(rows, start):
        row: Dict[str, Any] = {"index": i}
        for t, sc in scores.items():
            for s in STATS:
                row[output_key(t, s)] = getattr(sc, s)
        out.write(json.dumps(row) + "\n")


def cmd_score(args: argparse.Namespace) -> int:
    from .hub_results import check_model_card_args, write_from_args
    from .scoring import Rouge

    check_model_card_args(args)
    if args.rouge155 is not None:
        preds, refs = load_inputs(args)
        result = _score_rouge155(args, preds, refs)
        write_from_args(args, result)  # --model-card
        if args.per_example:
            with _open_output(args.per_example) as out:
                _write_per_example(out, result.per_example, 0)
        print(json.dumps(result.as_json(), indent=2) if args.json else result.format_table(digits=args.digits))
        return EXIT_OK
    if args.exceptions is not None:
        raise ValueError("--exceptions: only used with --rouge155 (ROUGE-1.5.5's -m)")
    config = config_from_args(args)
    rouge = Rouge(config=config, backend=args.backend)
    preds, refs = load_inputs(args)
    acc = rouge.accumulator()
    bar = _progress(len(preds), args.quiet)
    out = _open_output(args.per_example) if args.per_example else None
    try:
        # Chunks through the scorer's batch path (native batch scorer when available); the inputs
        # were validated while reading, with file and line.
        for start in range(0, len(preds), SCORE_CHUNK):
            stop = min(start + SCORE_CHUNK, len(preds))
            per: Optional[List[Dict[str, Any]]] = [] if out is not None else None
            rouge.add_to(acc, predictions=preds[start:stop], references=refs[start:stop], per_example=per)
            if out is not None:
                _write_per_example(out, per, start)  # type: ignore[arg-type]
            if bar is not None:
                bar.update(stop - start)
    finally:
        if bar is not None:
            bar.close()
        if out is not None:
            out.close()
    rbar = _progress(config.n_resamples, args.quiet) if config.aggregation == "bootstrap" else None
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


# -------------------------------------------------------------------------------- explain
def cmd_explain(args: argparse.Namespace) -> int:
    from .explain import explain

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
        with _open_output(args.html) as fh:
            fh.write(page)
    if args.json:
        print(json.dumps(ex.to_dict(), indent=2))
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                           and not os.environ.get("NO_COLOR"))
        print(ex.format(color=color, tokens=args.tokens))
    return EXIT_OK


# --------------------------------------------------------------------------- export-space
def cmd_export_space(args: argparse.Namespace) -> int:
    from .space import export_space

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


# -------------------------------------------------------------------------------- compare
def _read_prediction_column(path: str, args: argparse.Namespace) -> List[str]:
    """The predictions of one system file (text lines, a JSONL field or a dataset column)."""
    fmt = detect_format(path, args.format)
    if fmt == "text":
        return read_lines(path)
    field = [(args.prediction_field, False)]
    return read_jsonl(path, field)[0] if fmt == "jsonl" else read_dataset(path, field, args.split)[0]


def cmd_compare(args: argparse.Namespace) -> int:
    from .significance import compare

    if not 0.0 < args.level < 1.0:
        raise InputError(f"--level: expected a number in (0, 1), got {args.level}", EXIT_USAGE)
    _check_one_stdin([("--baseline", args.baseline)] + [("--system", p) for p in args.system]
                     + [("--references", r) for r in args.references or []])
    seen = set()
    for path in args.system:
        if path in seen:
            raise InputError(f"--system: {path} is given twice", EXIT_USAGE)
        seen.add(path)
    base, refs = load_inputs(argparse.Namespace(**{**vars(args), "predictions": args.baseline}))
    systems: Dict[str, List[str]] = {}
    for path in args.system:
        preds = _read_prediction_column(path, args)
        if len(preds) != len(base):
            raise InputError(f"{path}: {len(preds)} examples, but the baseline {args.baseline} has {len(base)}; "
                             "inputs must be aligned (one prediction per reference entry)", EXIT_MISALIGNED)
        systems[path] = preds
    # The scoring settings (aggregation "mean"); the test's resamples, seed and level go to compare().
    config = config_from_args(argparse.Namespace(**{**vars(args), "n_resamples": 1}))
    bars: Dict[str, Any] = {}

    def progress(stage: str, k: int, total: int) -> None:
        if stage not in bars:
            for bar in bars.values():
                if bar is not None:
                    bar.close()
            bar = bars[stage] = _progress(total, args.quiet)
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


def _add_compare_parser(sub: Any, fmt: Any) -> None:
    from .result import STATS
    from .significance import DEFAULT_CI_RESAMPLES, DEFAULT_RESAMPLES, METHODS

    cp = sub.add_parser(
        "compare", help="is a system significantly better than the baseline? (paired tests)", epilog=_epilog(),
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
    _add_format_arguments(g, "the reference(s) in the baseline file")
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
    add_config_arguments(cp, exclude=("aggregation",))  # compare reports exact means and tests their differences
    defaults = ", ".join(f"{m}: {k}" for m, k in DEFAULT_RESAMPLES.items())
    helps = {"n_resamples": f"bootstrap resamples or randomization trials (default: {defaults})",
             "seed": "seed of every draw (default: %(default)s)",
             "confidence_level": "level of the interval of each difference (default: %(default)s)"}
    for action in cp._actions:  # the test's meaning of the RougeConfig options it shares
        if action.dest in helps:
            action.help = helps[action.dest]
    cp.set_defaults(func=cmd_compare, n_resamples=None)


# ----------------------------------------------------------------------- generate-and-score
def _import_generator(spec: str) -> Any:
    """``module:name`` or ``path/to/file.py:name`` (the current directory is importable)."""
    import importlib
    import importlib.util

    target, sep, name = spec.rpartition(":")
    if not sep or not target or not name:
        raise InputError(f"--generator: expected MODULE:NAME or FILE.py:NAME, got {spec!r}", EXIT_USAGE)
    if target.endswith(".py"):
        if not os.path.isfile(target):
            raise InputError(f"--generator: {target}: file not found", EXIT_FILE)
        mod_spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(target))[0], target)
        module = importlib.util.module_from_spec(mod_spec)  # type: ignore[arg-type]
        mod_spec.loader.exec_module(module)  # type: ignore[union-attr]
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            raise InputError(f"--generator: cannot import {target!r}: {exc}", EXIT_USAGE) from None
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise InputError(f"--generator: {target} has no attribute {name!r}", EXIT_USAGE)
        obj = getattr(obj, part)
    return obj


def _check_model_path(name: str) -> None:
    """A ``--model`` spelled as a path (absolute, ``./``, ``../``, ``~``) must be a folder."""
    local = os.path.isabs(name) or name.startswith((".", "~")) or os.path.exists(name)
    if local and not os.path.isdir(os.path.expanduser(name)):
        raise InputError(f"--model: {name}: no such folder (give a transformers model folder, or a Hub model name "
                         "such as google-t5/t5-small)", EXIT_FILE)


def _model_generator(args: argparse.Namespace) -> Any:
    """A transformers model folder or Hub name: seq2seq through model.generate, causal LMs through
    the text-generation pipeline (chat template when the tokenizer has one)."""
    from .generation import ModelGenerator, PipelineGenerator

    try:
        import transformers
    except ImportError:
        raise InputError("--model needs transformers and torch: pip install -e \".[train]\"", EXIT_USAGE) from None
    name = args.model
    _check_model_path(name)
    kwargs: Dict[str, Any] = {"max_new_tokens": args.max_new_tokens, "do_sample": False}
    if args.generate_kwargs:
        try:
            extra = json.loads(args.generate_kwargs)
        except json.JSONDecodeError as exc:
            raise InputError(f"--generate-kwargs: invalid JSON: {exc.msg}", EXIT_USAGE) from None
        if not isinstance(extra, dict):
            raise InputError("--generate-kwargs: expected a JSON object, e.g. '{\"num_beams\": 4}'", EXIT_USAGE)
        kwargs.update(extra)
    try:
        config = transformers.AutoConfig.from_pretrained(args.model)
        if getattr(config, "is_encoder_decoder", False):
            tokenizer = transformers.AutoTokenizer.from_pretrained(args.model)
            model = transformers.AutoModelForSeq2SeqLM.from_pretrained(args.model)
            return ModelGenerator(model, tokenizer, args.prompt, **kwargs)
        pipe = transformers.pipeline("text-generation", model=args.model)
    except (OSError, ValueError) as exc:  # not a model folder, unknown Hub name, offline, no weights...
        first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
        raise InputError(f"--model: cannot load {name!r}: {first}", EXIT_FILE) from None
    return PipelineGenerator(pipe, args.prompt, system=args.system, **kwargs)


def cmd_generate_and_score(args: argparse.Namespace) -> int:
    from .generation import generate_and_score, load_examples

    if args.model is not None:
        _check_model_path(args.model)  # before reading the data
    data: Any = args.data
    if os.path.isdir(data):
        try:
            datasets = require("datasets", "evaluate", "reading a saved dataset")
        except ImportError as exc:
            raise InputError(str(exc), EXIT_USAGE) from None
        data = select_split(datasets.load_from_disk(args.data), args.split, args.data)
    elif not os.path.exists(data):
        raise InputError(f"{data}: file not found", EXIT_FILE)
    elif args.split is not None:
        raise InputError(f"--split {args.split}: only a saved DatasetDict has splits, and {data} is a file",
                         EXIT_USAGE)
    try:
        docs, refs = load_examples(data, document_column=args.document_field,
                                   references_column=args.references_field or ["references"])
    except (ValueError, TypeError) as exc:
        code = EXIT_EMPTY if "no examples" in str(exc) else EXIT_FORMAT
        raise InputError(str(exc).replace("document_column= and references_column=",
                                          "--document-field and --references-field"), code) from None
    settings = None
    if args.settings:
        try:
            settings = json.loads(args.settings)
        except json.JSONDecodeError as exc:
            raise InputError(f"--settings: invalid JSON: {exc.msg}", EXIT_USAGE) from None
    config = config_from_args(args)
    generator = _import_generator(args.generator) if args.generator else _model_generator(args)
    run = generate_and_score(generator, documents=docs, references=refs, batch_size=args.batch_size,
                             cache=args.cache, settings=settings, on_cache_mismatch=args.on_cache_mismatch,
                             config=config, backend=args.backend, return_per_example=bool(args.per_example),
                             progress=not args.quiet)
    if args.per_example:
        with _open_output(args.per_example) as out:
            for row in run.rows():
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    if args.json:
        print(json.dumps(run.as_json(), indent=2, ensure_ascii=False))
    else:
        print(run.format_table(digits=args.digits))
    return EXIT_OK


def _add_generate_parser(sub: Any, fmt: Any) -> None:
    from .generation import ON_CACHE_MISMATCH

    gp = sub.add_parser(
        "generate-and-score", help="generate with a model over a dataset, then score (resumable)", epilog=_epilog(),
        formatter_class=fmt,
        description="Run a generator over the documents of a JSONL file or saved dataset in batches, keep "
                    "every finished batch in --cache (a rerun resumes), then score the generations against "
                    "the references (see docs/generation.md).")
    g = gp.add_argument_group("inputs")
    g.add_argument("--data", required=True, metavar="PATH",
                   help="the examples: a JSONL file or a dataset folder saved with save_to_disk")
    g.add_argument("--document-field", default="document", metavar="NAME",
                   help="JSONL field / dataset column of the document (default: %(default)s)")
    g.add_argument("--references-field", action="append", metavar="NAME",
                   help="field / column of the reference(s), a string or a list of strings; repeat for several "
                        "columns (default: references)")
    g.add_argument("--split", default=None, help="split of a saved DatasetDict")
    m = gp.add_argument_group("generator (one of)")
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument("--generator", metavar="MODULE:NAME",
                     help="a callable list[str] -> list[str], imported from MODULE (or FILE.py) of the current "
                          "directory")
    src.add_argument("--model", metavar="PATH",
                     help="a transformers model folder or name: seq2seq models through model.generate, causal LMs "
                          "through the text-generation pipeline (chat template when the tokenizer has one)")
    m.add_argument("--prompt", default="{document}",
                   help="--model: the prompt, with {document} where the document goes (default: %(default)s)")
    m.add_argument("--system", default=None, help="--model: a system message for chat models")
    m.add_argument("--max-new-tokens", type=int, default=128, help="--model: tokens to generate (default: %(default)s)")
    m.add_argument("--generate-kwargs", metavar="JSON", default=None,
                   help='--model: more generate() arguments as a JSON object, e.g. \'{"num_beams": 4}\' (decoding is '
                        'greedy unless \'{"do_sample": true}\')')
    c = gp.add_argument_group("batches and cache")
    c.add_argument("--batch-size", type=int, default=8, help="documents per generator call (default: %(default)s)")
    c.add_argument("--cache", metavar="FILE", default=None,
                   help="JSONL file of finished generations: run the same command again to resume")
    c.add_argument("--settings", metavar="JSON", default=None,
                   help="JSON object of what changes the generations (model, checkpoint, sampling...): part of the "
                        "cache key, with the --model settings")
    c.add_argument("--on-cache-mismatch", choices=ON_CACHE_MISMATCH, default="error",
                   help="a cached generation made for another document or other settings: refuse (error, the "
                        "default) or generate it again (regenerate)")
    o = gp.add_argument_group("output")
    o.add_argument("--json", action="store_true", help="print JSON (scores, n, lengths, signature, cache counts)")
    o.add_argument("--per-example", metavar="FILE",
                   help="write one JSON row per example: index, prediction, references and scores")
    o.add_argument("--digits", type=_digits, default=2, help="digits in the table, 0 to 17 (default: %(default)s)")
    o.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_config_arguments(gp)
    gp.set_defaults(func=cmd_generate_and_score)


# ---------------------------------------------------------------------------------- parser
def _add_input_arguments(p: argparse.ArgumentParser, required: bool) -> None:
    g = p.add_argument_group("inputs")
    g.add_argument("--predictions", required=required, metavar="PATH",
                   help="predictions: a text file (one per line), a JSONL file or a saved dataset directory; "
                        "'-' reads standard input (text, or JSONL with --format jsonl)")
    g.add_argument("--references", action="append", metavar="PATH",
                   help="references, aligned with the predictions (repeat for several references); "
                        "omit to read them from the predictions JSONL file or dataset; '-' reads standard input "
                        "(one input at most)")
    _add_format_arguments(g, "the reference(s): a string or a list of strings")


def _add_format_arguments(g: Any, references_what: str) -> None:
    """--format, the JSONL field / dataset column names and --split (score, explain and compare)."""
    g.add_argument("--format", choices=FORMATS, default="auto",
                   help="input format (auto: directory = dataset, .jsonl/.ndjson/.json = JSONL, else text)")
    g.add_argument("--prediction-field", default="prediction", metavar="NAME",
                   help="JSONL field / dataset column of the predictions (default: %(default)s)")
    g.add_argument("--references-field", default="references", metavar="NAME",
                   help=f"JSONL field / dataset column of {references_what} (default: %(default)s)")
    g.add_argument("--split", default=None, help="split of a saved DatasetDict")


def _digits(text: str) -> int:
    """``--digits``: decimal places of the table, an integer from 0 to 17."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 17:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 17, got {text!r}")
    return value


def _epilog() -> str:
    return "exit codes:\n" + "\n".join(f"  {k:<4} {v}" for k, v in EXIT_CODES.items())


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (exit 2) that point to ``--help``; subcommands inherit it."""

    def error(self, message: str) -> "typing.NoReturn":  # type: ignore[override]
        text = " ".join(message.split())
        self.exit(EXIT_USAGE, f"{self.prog}: error: {text} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog="rouge-metric", description="ROUGE scores with a signature.",
                     epilog=_epilog(), formatter_class=fmt)
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"rouge-metric {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sc = sub.add_parser("score", help="score predictions against references", epilog=_epilog(),
                        formatter_class=fmt, description="Score a corpus: mean P/R/F per rouge type.")
    _add_input_arguments(sc, required=True)
    o = sc.add_argument_group("output")
    o.add_argument("--json", action="store_true", help="print JSON instead of the table")
    o.add_argument("--per-example", metavar="FILE", help="write per-example scores to FILE (JSONL)")
    o.add_argument("--digits", type=_digits, default=2, help="digits in the table, 0 to 17 (default: %(default)s)")
    o.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_config_arguments(sc)
    from .hub_results import add_model_card_arguments

    add_model_card_arguments(sc)
    p155 = sc.add_argument_group("ROUGE-1.5.5.pl preset (rouge_metric.Rouge155)")
    p155.add_argument("--rouge155", metavar="OPTIONS", default=None,
                      help='reproduce ROUGE-1.5.5.pl with these script options, e.g. "-n 2 -m -2 4 -u -f A '
                           '-p 0.5 -a" (its averages and intervals); replaces the scoring options above '
                           "except --stopwords (-s) and --backend")
    p155.add_argument("--exceptions", metavar="FILE", default=None,
                      help="the WordNet exception list (inflected<TAB>lemma) that the script's -m uses")
    sc.set_defaults(func=cmd_score)

    ex = sub.add_parser("explain", help="show why one example scores what it does", epilog=_epilog(),
                        formatter_class=fmt,
                        description="Matched n-grams (clipped counts), LCS tokens and positions, rougeLsum "
                                    "union-LCS hits per reference sentence.")
    t = ex.add_argument_group("texts")
    t.add_argument("--prediction", metavar="TEXT", help="the prediction text")
    t.add_argument("--reference", action="append", metavar="TEXT", help="a reference text (repeatable)")
    _add_input_arguments(ex, required=False)
    ex.add_argument("--index", type=int, default=0, help="example index (0-based) when reading files")
    ex.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                    help="ANSI colours (auto: when stdout is a terminal and NO_COLOR is unset)")
    ex.add_argument("--json", action="store_true", help="print the explanation as JSON")
    ex.add_argument("--html", metavar="FILE", default=None,
                    help="also write an HTML page with the matches highlighted in both texts (open it in a browser)")
    ex.add_argument("--tokens", action="store_true",
                    help="show the normalized tokens the scorer compares instead of the original texts")
    add_config_arguments(ex, aggregation=False)
    ex.set_defaults(func=cmd_explain)

    sp = sub.add_parser("export-space", help="write a Hugging Face Space folder for this metric",
                        epilog=_epilog(), formatter_class=fmt,
                        description="Write README.md (the metric card), the evaluate module named after "
                                    "the folder (DIR/<name>.py, what evaluate.load(DIR) opens) and the "
                                    "package modules it needs, app.py and requirements.txt.")
    sp.add_argument("directory", metavar="DIR",
                    help="output folder, e.g. out/rouge_metric; its name is the metric's (evaluate.load(DIR))")
    sp.add_argument("--force", action="store_true", help="overwrite files in an existing folder")
    sp.add_argument("--quiet", "-q", action="store_true")
    sp.set_defaults(func=cmd_export_space)

    _add_compare_parser(sub, fmt)
    _add_generate_parser(sub, fmt)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # name the subcommand whose --help lists what it takes
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.func(args)
    except InputError as exc:
        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return exc.code
    except FileNotFoundError as exc:  # a setting's file (--stopwords, --exceptions) cannot be read
        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return EXIT_FILE
    except LookupError as exc:  # missing nltk data (KeyError is a LookupError but not raised here)
        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return EXIT_RESOURCE
    except (ValueError, TypeError) as exc:
        print(f"rouge-metric: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rouge-metric: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `rouge-metric ... | head`
        try:
            sys.stdout.close()
        except OSError:
            pass
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
