"""The parser's shared pieces: one option per :class:`~rouge_metric.RougeConfig` field, built from the
field metadata declared once in :data:`rouge_metric.config.FIELD_METADATA`, and the recipe options
(:data:`RECIPE_METADATA`: ``--recipe``, ``--lang``, :mod:`rouge_metric.recipes`); the input options; one-line
usage errors."""

from __future__ import annotations

import argparse
import typing
from typing import Any, Dict, Optional, Sequence

from .. import config as config_mod
from ..config import RougeConfig, config_fields
from ..readers import FORMATS
from ..recipes import RECIPES, make_rouge
from .errors import EXIT_CODES, EXIT_USAGE

#: Settings of the corpus aggregation: meaningless for one example (not offered by ``explain``).
AGGREGATION_FIELDS = tuple(name for name, _, meta in config_fields()
                           if (meta["cli"] or {}).get("scope") == "aggregation")

#: Settings of ``tokenizer="ids"`` (token-id inputs): the command line reads texts, so ``--tokenizer`` has
#: no ``ids`` choice and these are not offered.
IDS_FIELDS = tuple(name for name, _, meta in config_fields() if (meta["cli"] or {}).get("scope") == "ids")


def _languages() -> str:
    from ..xlsum import LANGUAGES

    return ", ".join(LANGUAGES)


#: The recipe options (not :class:`RougeConfig` fields: a recipe chooses the scorer the fields configure),
#: declared as the fields are in :data:`rouge_metric.config.FIELD_METADATA`; offered wherever the scoring
#: options are.
RECIPE_METADATA = {
    "recipe": {"help": "a named recipe: default (the options here) or xlsum (XL-Sum's multilingual_rouge_scoring, "
                       "bit for bit: its cleaner, the segmenter and stemmer of --lang; --use-stemmer alone, no "
                       "--tokenizer, --stopwords or --sentence-splitter)",
               "cli": {"choices": lambda: RECIPES, "default": None}},
    "lang": {"help": lambda: "with --recipe xlsum: XL-Sum's language (" + _languages() + "); a language it does not "
                             "know gives its numbers (no segmenter, no stemmer) and a warning",
             "cli": {"metavar": "LANG", "default": None}},
}


def add_config_arguments(p: argparse.ArgumentParser, aggregation: bool = True,
                         exclude: Sequence[str] = (), helps: Optional[Dict[str, str]] = None) -> None:
    """One option per :class:`RougeConfig` field (help, allowed names and defaults from config.py), minus
    the token-id settings (:data:`IDS_FIELDS`) and ``exclude``; ``aggregation=False`` leaves out the corpus
    aggregation settings (:data:`AGGREGATION_FIELDS`) and ``--bootstrap``. ``helps`` replaces the help of
    the named fields (a subcommand that gives a setting another meaning)."""
    g = p.add_argument_group("scoring options (RougeConfig fields)")
    if config_mod.IDS_TOKENIZER not in config_mod.TOKENIZERS:
        exclude = tuple(exclude) + IDS_FIELDS
    offered: Dict[str, Any] = {}  # field -> default of its option
    for name, default, meta in config_fields():
        cli = meta["cli"]
        if cli is None or (not aggregation and name in AGGREGATION_FIELDS) or name in exclude:
            continue
        opt = "--" + name.replace("_", "-")
        help_ = meta["help"].replace("%", "%%")
        override = (helps or {}).get(name)
        choices = list(cli["choices"]()) if "choices" in cli else None
        if cli.get("optional_value"):
            action = g.add_argument(opt, nargs="?", const=True, default=default, choices=choices,
                                    metavar=cli.get("metavar"), help=help_ + f" ({', '.join(choices or [])})")
        elif choices is not None:
            action = g.add_argument(opt, default=default if default is not None else choices[0], choices=choices,
                                    help=help_ + " (default: %(default)s)")
        elif isinstance(default, tuple):
            action = g.add_argument(opt, nargs=cli.get("nargs", "+"), default=list(default),
                                    metavar=cli.get("metavar", name.upper().rstrip("S")),
                                    help=help_ + " (default: %(default)s)")
        elif isinstance(default, bool):
            action = g.add_argument(opt, action=argparse.BooleanOptionalAction, default=default, help=help_)
        else:
            typ = cli.get("type") or (float if isinstance(default, float) else int if isinstance(default, int)
                                      else str)
            action = g.add_argument(opt, type=typ, default=default, help=help_ + " (default: %(default)s)")
        if override is not None:
            action.help = override
        offered[name] = action.default
    for name, meta in RECIPE_METADATA.items():
        cli = meta["cli"]
        help_ = meta["help"]() if callable(meta["help"]) else meta["help"]
        action = g.add_argument("--" + name, default=cli["default"], metavar=cli.get("metavar"),
                                choices=list(cli["choices"]()) if "choices" in cli else None,
                                help=help_.replace("%", "%%"))
        offered[name] = action.default
    if aggregation and "aggregation" not in exclude:
        g.add_argument("--bootstrap", dest="aggregation", action="store_const", const="bootstrap",
                       help="shorthand for --aggregation bootstrap")
    g.add_argument("--backend", default=None, choices=["auto", "python", "native"],
                   help="kernel backend (default: $ROUGE_METRIC_BACKEND or auto; the numbers are the same)")
    p.set_defaults(config_defaults=offered)


def config_from_args(args: argparse.Namespace) -> RougeConfig:
    """The :class:`RougeConfig` of parsed options (validated by RougeConfig itself). With ``--recipe`` or
    ``--lang``, the settings of the recipe's scorer (:func:`rouge_metric.recipes.make_rouge`, which refuses
    what the recipe cannot honour): its tokenizer is registered in this process, so every subcommand scores
    with it as with any other configuration."""
    kwargs = {name: getattr(args, name) for name, _, _ in config_fields() if hasattr(args, name)}
    kwargs["rouge_types"] = tuple(kwargs["rouge_types"])
    recipe, lang = getattr(args, "recipe", None), getattr(args, "lang", None)
    if recipe in (None, "default") and lang is None:
        return RougeConfig(**kwargs)
    if recipe == "xlsum" and isinstance(args.use_stemmer, str):
        raise ValueError(f"--use-stemmer {args.use_stemmer}: --recipe xlsum stems with the stemmer of --lang "
                         "(Snowball 'porter' without one); give --use-stemmer alone")
    try:
        return make_rouge(kwargs.pop("rouge_types"), recipe=recipe, lang=lang, **kwargs).config
    except (TypeError, ValueError) as exc:  # name the options as the command line spells them
        raise type(exc)(_option_names(str(exc))) from None


def _option_names(message: str) -> str:
    """``tokenizer='jieba': ...`` -> ``--tokenizer jieba: ...`` (the argument as the command line names it)."""
    import re

    return re.sub(r"(?<![\w-])(recipe|lang|tokenizer|sentence_splitter|stopwords|use_stemmer)=(?:'([^']*)'|([\w.]+))",
                  lambda m: f"--{m.group(1).replace('_', '-')} {m.group(2) if m.group(2) is not None else m.group(3)}",
                  message)


def changed_config_options(args: argparse.Namespace) -> list:
    """The config options given on the command line with a value other than their default."""
    return [name for name, default in args.config_defaults.items() if getattr(args, name) != default]


# ----------------------------------------------------------------------------------- inputs
def add_input_arguments(p: argparse.ArgumentParser, required: bool) -> None:
    g = p.add_argument_group("inputs")
    g.add_argument("--predictions", required=required, metavar="PATH",
                   help="predictions: a text file (one per line), a JSONL file or a saved dataset directory; "
                        "'-' reads standard input (text, or JSONL with --format jsonl)")
    g.add_argument("--references", action="append", metavar="PATH",
                   help="references, aligned with the predictions (repeat for several references); "
                        "omit to read them from the predictions JSONL file or dataset; '-' reads standard input "
                        "(one input at most)")
    add_format_arguments(g, "the reference(s): a string or a list of strings")


def add_format_arguments(g: Any, references_what: str) -> None:
    """--format, the JSONL field / dataset column names and --split (score, explain and compare)."""
    g.add_argument("--format", choices=FORMATS, default="auto",
                   help="input format (auto: directory = dataset, .jsonl/.ndjson/.json = JSONL, else text)")
    g.add_argument("--prediction-field", default="prediction", metavar="NAME",
                   help="JSONL field / dataset column of the predictions (default: %(default)s)")
    g.add_argument("--references-field", default="references", metavar="NAME",
                   help=f"JSONL field / dataset column of {references_what} (default: %(default)s)")
    g.add_argument("--split", default=None, help="split of a saved DatasetDict")


def add_output_arguments(p: argparse.ArgumentParser, json_help: str, per_example_help: str) -> None:
    o = p.add_argument_group("output")
    o.add_argument("--json", action="store_true", help=json_help)
    o.add_argument("--per-example", metavar="FILE", help=per_example_help)
    o.add_argument("--digits", type=digits, default=2, help="digits in the table, 0 to 17 (default: %(default)s)")
    o.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def digits(text: str) -> int:
    """``--digits``: decimal places of the table, an integer from 0 to 17."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 17:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 17, got {text!r}")
    return value


def epilog() -> str:
    return "exit codes:\n" + "\n".join(f"  {k:<4} {v}" for k, v in EXIT_CODES.items())


class Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (exit 2) that point to ``--help``; subcommands inherit it."""

    def error(self, message: str) -> "typing.NoReturn":  # type: ignore[override]
        text = " ".join(message.split())
        self.exit(EXIT_USAGE, f"{self.prog}: error: {text} (see: {self.prog} --help)\n")
