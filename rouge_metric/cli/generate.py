"""``rouge-metric generate-and-score``: run a generator (``--generator MODULE:NAME`` or a transformers
``--model``) over a JSONL file or saved dataset in resumable batches, then score
(:func:`rouge_metric.generate_and_score`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict

from ..readers import InputNotFoundError, InputUsageError, load_saved_dataset
from .errors import EXIT_FILE, EXIT_FORMAT, EXIT_OK, EXIT_USAGE, InputError
from .inputs import open_output
from .options import add_config_arguments, config_from_args, digits, epilog

#: How the command line names the column options in messages.
COLUMN_OPTIONS = "--document-field and --references-field"


def add_parser(sub: Any, fmt: Any) -> None:
    from ..generation import ON_CACHE_MISMATCH

    gp = sub.add_parser(
        "generate-and-score", help="generate with a model over a dataset, then score (resumable)", epilog=epilog(),
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
    o.add_argument("--digits", type=digits, default=2, help="digits in the table, 0 to 17 (default: %(default)s)")
    o.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_config_arguments(gp)
    gp.set_defaults(func=run)


def import_generator(spec: str) -> Any:
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


def check_model_path(name: str) -> None:
    """A ``--model`` spelled as a path (absolute, ``./``, ``../``, ``~``) must be a folder."""
    local = os.path.isabs(name) or name.startswith((".", "~")) or os.path.exists(name)
    if local and not os.path.isdir(os.path.expanduser(name)):
        raise InputError(f"--model: {name}: no such folder (give a transformers model folder, or a Hub model name "
                         "such as google-t5/t5-small)", EXIT_FILE)


def model_generator(args: argparse.Namespace) -> Any:
    """A transformers model folder or Hub name: seq2seq through model.generate, causal LMs through
    the text-generation pipeline (chat template when the tokenizer has one)."""
    from ..generation import ModelGenerator, PipelineGenerator

    try:
        import transformers
    except ImportError:
        raise InputError("--model needs transformers and torch: pip install -e \".[train]\"", EXIT_USAGE) from None
    name = args.model
    check_model_path(name)
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


def run(args: argparse.Namespace) -> int:
    from ..generation import generate_and_score
    from ..generation.examples import EXPECTED, read_examples

    if args.model is not None:
        check_model_path(args.model)  # before reading the data
    data: Any = args.data
    if os.path.isdir(data):
        data = load_saved_dataset(data, args.split, expected=EXPECTED)
    elif not os.path.exists(data):
        raise InputNotFoundError(f"{data}: file not found")
    elif args.split is not None:
        raise InputUsageError(f"--split {args.split}: only a saved DatasetDict has splits, and {data} is a file")
    try:
        docs, refs = read_examples(data, document_column=args.document_field,
                                   references_column=args.references_field or ["references"],
                                   column_arguments=COLUMN_OPTIONS)
    except (ValueError, TypeError) as exc:  # a missing column or a bad cell: the content of the input
        if getattr(exc, "kind", None) is not None:
            raise
        raise InputError(str(exc), EXIT_FORMAT) from None
    settings = None
    if args.settings:
        try:
            settings = json.loads(args.settings)
        except json.JSONDecodeError as exc:
            raise InputError(f"--settings: invalid JSON: {exc.msg}", EXIT_USAGE) from None
    config = config_from_args(args)
    generator = import_generator(args.generator) if args.generator else model_generator(args)
    result = generate_and_score(generator, documents=docs, references=refs, batch_size=args.batch_size,
                                cache=args.cache, settings=settings, on_cache_mismatch=args.on_cache_mismatch,
                                config=config, backend=args.backend, return_per_example=bool(args.per_example),
                                progress=not args.quiet)
    if args.per_example:
        with open_output(args.per_example) as out:
            for row in result.rows():
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    if args.json:
        print(json.dumps(result.as_json(), indent=2, ensure_ascii=False))
    else:
        print(result.format_table(digits=args.digits))
    return EXIT_OK
