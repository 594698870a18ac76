"""One frozen settings object: defaults, allowed values, validation and the signature.

Every adapter (evaluate module, Trainer callbacks, datasets mapper, CLI) builds a
:class:`RougeConfig` and never re-validates anything itself; the command line builds its options from
the field metadata declared here (:data:`FIELD_METADATA`).

One file: the settings' fields, defaults, allowed values, validation, metadata and signature describe
one object, and each part is read next to the others when a setting is added.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Optional, Sequence, Tuple, Union

from ._record import Record
from ._version import __version__
# The allowed names of the text layer (it owns them; re-exported here for the settings' users).
from .text import (SENTENCE_SPLITTERS, STEMMERS, TOKENIZERS, check_splitter_name, check_stemmer_name,
                   check_tokenizer_name, tokenizer_description, tokenizer_names)

#: The rouge types of HF's ``rouge`` metric, in its order.
DEFAULT_ROUGE_TYPES: Tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum")

#: Multi-reference modes.
#:   max          rouge-score's ``score_multi``: per type, the reference with the highest F (first on ties)
#:   mean         mean of P, R and F over the references
#:   pool         ROUGE-1.5.5 ``-f A``: hits and totals summed over references, then P/R/F once
#:   best_recall  ROUGE-1.5.5 ``-f B``: per type, the reference with the best recall (first on ties)
MULTI_REF_MODES: Tuple[str, ...] = ("max", "mean", "pool", "best_recall")

#: ``tokenizer="ids"``: predictions and references are already sequences of integer token ids (lists,
#: numpy integer arrays, CPU torch tensors); no text, no tokenizer, no stemmer (:mod:`rouge_metric.ids`).
#: The numbers are ROUGE over ids, not over words: they differ from text ROUGE of the decoded strings.
IDS_TOKENIZER = "ids"

#: Ids dropped before scoring in ``tokenizer="ids"`` mode unless ``ignore_ids`` says otherwise: the
#: ``-100`` of Hugging Face labels. Add the pad id (and EOS) of your tokenizer.
DEFAULT_IGNORE_IDS: Tuple[int, ...] = (-100,)

#: Aggregation of per-example scores into a corpus score.
AGGREGATIONS: Tuple[str, ...] = ("mean", "bootstrap")

ROUGE_TYPE_HELP = (
    "rouge1 ... rougeN (any N >= 1), rougeL, rougeLsum, rougeW, rougeS, rougeS<d>, rougeSU, rougeSU<d> "
    "(d = maximum number of skipped words, an integer >= 0)"
)

#: A menu of rouge types, every kind with a common order or skip distance (``ROUGE_TYPE_HELP`` names all
#: the valid names): the choices of the Hub Space's app.
ROUGE_TYPE_CHOICES: Tuple[str, ...] = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS",
                                       "rougeS4", "rougeSU", "rougeSU4")

_NGRAM_RE = re.compile(r"^rouge([1-9][0-9]*)$")
_SKIP_RE = re.compile(r"^rouge(SU|S)(0|[1-9][0-9]*)?$")


class TypeSpec(Record):
    """What one rouge type computes, decoded from its name.

    kind is one of ``ngram`` (n), ``lcs`` (rougeL), ``lcsum`` (rougeLsum), ``wlcs`` (rougeW, weight),
    ``skip`` (skip = max skipped words or -1 for unlimited, unigrams for SU).
    """

    _fields = ("name", "kind", "n", "skip", "unigrams", "weight")
    name: str
    kind: str
    n: int
    skip: int
    unigrams: bool
    weight: float

    def __init__(self, name: str, kind: str, n: int = 0, skip: int = -1, unigrams: bool = False,
                 weight: float = 1.2) -> None:
        self._init(name=name, kind=kind, n=n, skip=skip, unigrams=unigrams, weight=weight)

    @property
    def uses_sentences(self) -> bool:
        return self.kind in ("lcsum", "wlcs")


@lru_cache(maxsize=256)
def _type_specs(rouge_types: Tuple[str, ...], weight: float) -> Tuple[TypeSpec, ...]:
    """The decoded types of a validated config (frozen values, shared): decoded once per setting,
    not at every call that asks (a corpus call's signature asks twice)."""
    return tuple(parse_rouge_type(t, weight) for t in rouge_types)


def parse_rouge_type(name: Any, weight: float = 1.2) -> TypeSpec:
    """Decode a rouge type name, or raise ValueError naming the allowed set."""
    if not isinstance(name, str):
        raise TypeError(f"rouge_types: expected type names (str), got {type(name).__name__} {name!r}")
    if name == "rougeL":
        return TypeSpec(name, "lcs")
    if name == "rougeLsum":
        return TypeSpec(name, "lcsum")
    if name == "rougeW":
        return TypeSpec(name, "wlcs", weight=weight)
    m = _NGRAM_RE.match(name)
    if m:
        return TypeSpec(name, "ngram", n=int(m.group(1)))
    m = _SKIP_RE.match(name)
    if m:
        skip = int(m.group(2)) if m.group(2) is not None else -1
        return TypeSpec(name, "skip", skip=skip, unigrams=m.group(1) == "SU")
    raise ValueError(f"rouge_types: invalid rouge type {name!r}; allowed: {ROUGE_TYPE_HELP}")


def as_type_names(rouge_types: Any) -> Tuple[Any, ...]:
    """``rouge_types`` as a tuple: one name (a str) or an iterable of names (checked later, one by one).

    >>> as_type_names("rougeL"), as_type_names(["rouge1", "rouge2"])
    (('rougeL',), ('rouge1', 'rouge2'))
    """
    if isinstance(rouge_types, str):
        return (rouge_types,)
    if rouge_types is None or isinstance(rouge_types, (bytes, dict)) or not hasattr(rouge_types, "__iter__"):
        raise TypeError(f"rouge_types: expected a list of type names (str), got "
                        f"{'None' if rouge_types is None else type(rouge_types).__name__}; allowed: {ROUGE_TYPE_HELP}")
    return tuple(rouge_types)


def _check_choice(arg: str, value: Any, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ValueError(f"{arg}: invalid value {value!r}; allowed: {', '.join(map(repr, allowed))}")


def _describe_callable(obj: Any) -> str:
    """``custom(<qualified name>)`` for a user-supplied tokenizer or splitter."""
    target = type(obj) if hasattr(obj, "tokenize") else obj
    name = getattr(target, "__qualname__", None) or type(target).__qualname__
    return f"custom({name})"


TokenizerSpec = Union[str, Callable[[str], Sequence[str]], Any, None]


class RougeConfig(Record):
    """Every setting that changes a number, validated once.

    Attributes:
        rouge_types: names such as ``rouge1``, ``rougeL``, ``rougeLsum``, ``rougeW``, ``rougeSU4``.
        use_stemmer: ``False``, ``True`` (= ``"porter"``) or a stemmer name.
        tokenizer: ``None``/``"default"`` (rouge-score's), ``"whitespace"``, ``"unicode"`` (every script),
            ``"perl"`` (ROUGE-1.5.5.pl's tokenization), a callable
            ``str -> list[str]`` or an object with ``.tokenize``. A custom tokenizer replaces the whole
            pipeline, so ``use_stemmer`` has no effect with it (as in rouge-score).
        sentence_splitter: how rougeLsum/rougeW find sentences: ``newline`` (default), ``nltk``,
            ``offline`` (no data needed).
        multi_ref: one of :data:`MULTI_REF_MODES`.
        beta: F-measure weight, F = (1+b^2)PR/(b^2 P + R); 1 gives F1 (rouge-score's formula exactly).
        alpha: ROUGE-1.5.5's ``-p alpha``, F = PR/((1-a)P + aR); overrides ``beta`` when given.
        wlcs_weight: the ROUGE-W weight (``-w``), > 1 is usual; default 1.2.
        aggregation: ``mean`` (exact mean, default) or ``bootstrap`` (adds confidence intervals).
        n_resamples, confidence_level, seed: bootstrap settings (seed defaults to 0: deterministic).
        stopwords: ``None`` or the words removed before scoring (after tokenization, before stemming):
            a path of a UTF-8 file with one word per line, or an iterable of words. Stored as a sorted
            tuple; the signature names it by hash and size (``stop:1a2b3c4d(n=598)``).
        ignore_ids: with ``tokenizer="ids"`` only: the ids dropped before scoring (default ``(-100,)``;
            add the pad id). Signature: ``ignore:-100,0``.
        sentence_ids: with ``tokenizer="ids"`` only: the ids that end a sentence for rougeLsum/rougeW (they
            separate sentences and are dropped, as newlines are in text); none: the whole sequence is one
            sentence. Signature: ``split:ids(13,198)``.
    """

    _fields = ("rouge_types", "use_stemmer", "tokenizer", "sentence_splitter", "multi_ref", "beta", "alpha",
               "wlcs_weight", "aggregation", "n_resamples", "confidence_level", "seed", "stopwords", "ignore_ids",
               "sentence_ids")
    _no_repr = ("stopwords",)
    rouge_types: Tuple[str, ...]
    use_stemmer: Union[bool, str]
    tokenizer: TokenizerSpec
    sentence_splitter: Any
    multi_ref: str
    beta: float
    alpha: Optional[float]
    wlcs_weight: float
    aggregation: str
    n_resamples: int
    confidence_level: float
    seed: int
    stopwords: Any
    ignore_ids: Any
    sentence_ids: Any

    def __init__(self, rouge_types: Any = DEFAULT_ROUGE_TYPES, use_stemmer: Union[bool, str] = False,
                 tokenizer: TokenizerSpec = None, sentence_splitter: Any = "newline", multi_ref: str = "max",
                 beta: float = 1.0, alpha: Optional[float] = None, wlcs_weight: float = 1.2,
                 aggregation: str = "mean", n_resamples: int = 1000, confidence_level: float = 0.95,
                 seed: int = 0, stopwords: Any = None, ignore_ids: Any = None, sentence_ids: Any = ()) -> None:
        self._init(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer,
                   sentence_splitter=sentence_splitter, multi_ref=multi_ref, beta=beta, alpha=alpha,
                   wlcs_weight=wlcs_weight, aggregation=aggregation, n_resamples=n_resamples,
                   confidence_level=confidence_level, seed=seed, stopwords=stopwords, ignore_ids=ignore_ids,
                   sentence_ids=sentence_ids)
        self._validate()

    def _validate(self) -> None:
        types = as_type_names(self.rouge_types)
        if not types:
            raise ValueError(f"rouge_types: must not be empty; allowed: {ROUGE_TYPE_HELP}")
        if len(set(types)) != len(types):
            dup = sorted({t for t in types if types.count(t) > 1})
            raise ValueError(f"rouge_types: duplicate type(s) {dup}")
        self._init(rouge_types=types)

        if isinstance(self.wlcs_weight, bool) or not isinstance(self.wlcs_weight, (int, float)) \
                or not self.wlcs_weight > 0 or self.wlcs_weight != self.wlcs_weight:
            raise ValueError(f"wlcs_weight: expected a number > 0, got {self.wlcs_weight!r}")
        self._init(wlcs_weight=float(self.wlcs_weight))
        for t in types:
            parse_rouge_type(t, self.wlcs_weight)

        stem = self.use_stemmer
        if stem is True:
            stem = "porter"
        elif stem is False or stem is None:
            stem = False
        elif isinstance(stem, str):
            check_stemmer_name(stem)
        else:
            raise TypeError(f"use_stemmer: expected bool or a stemmer name, got {type(stem).__name__}")
        self._init(use_stemmer=stem)

        tok = self.tokenizer
        if tok is None:
            tok = "default"
        if tok == IDS_TOKENIZER:
            self._check_ids_mode()
        else:
            for arg in ("ignore_ids", "sentence_ids"):
                value = getattr(self, arg)
                if value is not None and not (isinstance(value, (list, tuple)) and not value):
                    raise ValueError(f"{arg}: only used with tokenizer='ids' (token-id input); got tokenizer={tok!r}")
            self._init(ignore_ids=None)  # unset (an empty list from the CLI is unset too)
            self._init(sentence_ids=())
        if tok == IDS_TOKENIZER:
            pass  # checked above
        elif isinstance(tok, str):
            check_tokenizer_name(tok)
        elif not (callable(tok) or callable(getattr(tok, "tokenize", None))):
            raise TypeError(
                "tokenizer: expected a name ("
                + ", ".join(map(repr, tokenizer_names()))
                + f"), a callable str -> list[str] or an object with .tokenize; got {type(tok).__name__}"
            )
        self._init(tokenizer=tok)

        split = self.sentence_splitter
        if split is None:
            split = "newline"
        if isinstance(split, str):
            check_splitter_name(split)
        elif not callable(split):
            raise TypeError(
                f"sentence_splitter: expected a name ({', '.join(map(repr, SENTENCE_SPLITTERS))}) or a "
                f"callable str -> list[str]; got {type(split).__name__}"
            )
        self._init(sentence_splitter=split)

        _check_choice("multi_ref", self.multi_ref, MULTI_REF_MODES)
        _check_choice("aggregation", self.aggregation, AGGREGATIONS)
        # F = (1+b^2)PR/(b^2 P + R) needs a finite b^2 (b > ~1.3e154 makes it inf and F NaN) and a
        # non-zero one beside 1 (b < ~1e-154 underflows b^2 to 0: F would silently become P).
        if isinstance(self.beta, bool) or not isinstance(self.beta, (int, float)) or not self.beta > 0 \
                or not 0.0 < float(self.beta) * float(self.beta) < float("inf"):
            raise ValueError(f"beta: expected a finite number > 0 whose square is a finite non-zero float "
                             f"(about 1e-154 < beta < 1.3e154), got {self.beta!r}")
        if self.alpha is not None:
            if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float)) \
                    or not 0.0 <= self.alpha <= 1.0:
                raise ValueError(f"alpha: expected a number in [0, 1], got {self.alpha!r}")
            self._init(alpha=float(self.alpha))
        self._init(beta=float(self.beta))
        if isinstance(self.n_resamples, bool) or not isinstance(self.n_resamples, int) or self.n_resamples < 1:
            raise ValueError(f"n_resamples: expected an integer >= 1, got {self.n_resamples!r}")
        if isinstance(self.confidence_level, bool) or not isinstance(self.confidence_level, (int, float)) \
                or not 0.0 < self.confidence_level < 1.0:
            raise ValueError(f"confidence_level: expected a number in (0, 1), got {self.confidence_level!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed: expected an integer >= 0, got {self.seed!r}")
        if self.stopwords is not None:
            from .multilingual import load_stopwords

            self._init(stopwords=load_stopwords(self.stopwords) or None)

    def _check_ids_mode(self) -> None:
        """``tokenizer="ids"``: no stemmer, no stopwords, no text splitter; normalize the id sets."""
        if self.use_stemmer not in (False, None):
            raise ValueError(
                f"use_stemmer: stemming needs words, but tokenizer='ids' scores token ids; got use_stemmer="
                f"{self.use_stemmer!r}. Use use_stemmer=False, or decode the ids and score the texts")
        if self.stopwords is not None:
            raise ValueError("stopwords: not supported with tokenizer='ids'; put the ids to drop in ignore_ids")
        if self.sentence_splitter not in (None, "newline"):
            raise ValueError(
                f"sentence_splitter: text splitters do not apply to tokenizer='ids' (got {self.sentence_splitter!r}); "
                "give the ids that end a sentence as sentence_ids")
        for arg, default in (("ignore_ids", DEFAULT_IGNORE_IDS), ("sentence_ids", ())):
            value = getattr(self, arg)
            if value is None:
                value = default
            if not isinstance(value, bool) and hasattr(value, "__index__") and not hasattr(value, "__len__"):
                value = (value,)  # one id (int, numpy or torch integer scalar)
            try:
                items = list(value)
            except TypeError:
                raise TypeError(f"{arg}: expected a list of integer ids, got {type(value).__name__}") from None
            for j, v in enumerate(items):
                if isinstance(v, bool) or not isinstance(v, int):
                    if hasattr(v, "__index__") and not isinstance(v, bool):
                        v = v.__index__()  # numpy / torch integer scalars
                    else:
                        raise TypeError(f"{arg}[{j}]: expected an integer id, got {type(v).__name__} {v!r}")
                items[j] = int(v)
            self._init(**{arg: tuple(sorted(set(items)))})
        both = set(self.ignore_ids) & set(self.sentence_ids)
        if both:
            raise ValueError(f"ignore_ids and sentence_ids: id(s) {sorted(both)} cannot be both ignored and a sentence end")
        self._init(sentence_splitter="newline")

    @property
    def uses_ids(self) -> bool:
        """True when predictions and references are token ids (``tokenizer="ids"``)."""
        return self.tokenizer == IDS_TOKENIZER

    # ----------------------------------------------------------------- derived
    @property
    def type_specs(self) -> Tuple[TypeSpec, ...]:
        return _type_specs(self.rouge_types, self.wlcs_weight)

    @property
    def needs_sentences(self) -> bool:
        return any(s.uses_sentences for s in self.type_specs)

    def replace(self, **changes: Any) -> "RougeConfig":
        """A new config with ``changes`` applied to these settings (validated again)."""
        return RougeConfig(**{**self._asdict(), **changes})

    def tokenizer_name(self) -> str:
        tok = self.tokenizer
        if tok == "unicode":
            import unicodedata

            return f"unicode(ucd={unicodedata.unidata_version})"
        if isinstance(tok, str):
            return tokenizer_description(tok)
        return _describe_callable(tok)

    def stemmer_name(self) -> str:
        if not isinstance(self.tokenizer, str):
            return "none"  # a custom tokenizer replaces stemming (rouge-score semantics)
        return self.use_stemmer or "none"

    def splitter_name(self) -> str:
        if self.uses_ids:
            return "ids(" + ",".join(map(str, self.sentence_ids)) + ")"
        split = self.sentence_splitter
        return split if isinstance(split, str) else _describe_callable(split)

    def signature(self, backend: Optional[str] = None) -> str:
        """A short ``key:value|...`` string naming every setting that changes the numbers.

        ``backend`` is the backend that computes (the scorer passes its own: ``Rouge.signature()``); a
        settings object alone computes nothing, so without it the signature has no ``backend:`` part.
        """
        parts = [
            "types:" + ",".join(self.rouge_types),
            "tok:" + self.tokenizer_name(),
            "stem:" + self.stemmer_name(),
        ]
        if self.uses_ids:
            parts.append("ignore:" + ",".join(map(str, self.ignore_ids)))
        if self.stopwords:
            from .multilingual import stopwords_digest

            parts.append("stop:" + stopwords_digest(self.stopwords))
        if self.needs_sentences or self.uses_ids:  # sentence ids are dropped from every type's tokens
            parts.append("split:" + self.splitter_name())
        if any(s.kind == "wlcs" for s in self.type_specs):
            parts.append(f"w:{self.wlcs_weight:g}")
        parts.append("multiref:" + self.multi_ref)
        parts.append(f"f:alpha={self.alpha:g}" if self.alpha is not None else f"f:beta={self.beta:g}")
        if self.aggregation == "bootstrap":
            parts.append(
                f"agg:bootstrap(n={self.n_resamples},ci={self.confidence_level:g},seed={self.seed})"
            )
        else:
            parts.append("agg:mean")
        if backend is not None:
            parts.append("backend:" + backend)
        parts.append("version:" + __version__)
        return "|".join(parts)


# ------------------------------------------------------------------------- field metadata (CLI)
#: What each :class:`RougeConfig` field means to a user, declared once; the command line builds one option
#: per field from it (``rouge_metric.cli.options``). ``help`` is the option's help; ``cli`` says how the
#: option reads its value, or is None for a field the command line does not offer:
#:   choices    a callable giving the allowed names (called when the parser is built, so a name added to
#:              the tuple is offered at once)
#:   nargs, metavar, type   as in argparse (type: the value's type when the default does not show it)
#:   optional_value         ``--opt`` alone means True, ``--opt NAME`` one of the choices
#:   scope      ``aggregation``: a corpus aggregation setting (meaningless for one example);
#:              ``ids``: a ``tokenizer="ids"`` setting (the command line reads texts)
FIELD_METADATA = {
    "rouge_types": {"help": "rouge types: " + ROUGE_TYPE_HELP, "cli": {"nargs": "+", "metavar": "ROUGE_TYPE"}},
    "use_stemmer": {"help": "stem tokens (rouge-score's Porter stemmer); optionally name the stemmer",
                    "cli": {"choices": lambda: STEMMERS, "optional_value": True, "metavar": "STEMMER"}},
    "tokenizer": {"help": "tokenizer ('default' is rouge-score's)", "cli": {"choices": lambda: TOKENIZERS}},
    "sentence_splitter": {"help": "how rougeLsum/rougeW find sentences",
                          "cli": {"choices": lambda: SENTENCE_SPLITTERS}},
    "multi_ref": {"help": "multi-reference mode: max (rouge-score), mean, pool (ROUGE-1.5.5 -f A), best_recall "
                          "(-f B)", "cli": {"choices": lambda: MULTI_REF_MODES}},
    "beta": {"help": "F-measure beta (1 = F1)", "cli": {}},
    "alpha": {"help": "ROUGE-1.5.5 -p alpha (overrides --beta)", "cli": {"type": float}},
    "wlcs_weight": {"help": "ROUGE-W weight", "cli": {}},
    "aggregation": {"help": "mean (exact) or bootstrap (adds confidence intervals)",
                    "cli": {"choices": lambda: AGGREGATIONS, "scope": "aggregation"}},
    "n_resamples": {"help": "bootstrap resamples", "cli": {"scope": "aggregation"}},
    "confidence_level": {"help": "bootstrap confidence level", "cli": {"scope": "aggregation"}},
    "seed": {"help": "bootstrap seed", "cli": {"scope": "aggregation"}},
    "stopwords": {"help": "a UTF-8 file with one word per line: the words removed before scoring (after "
                          "tokenization, before stemming)", "cli": {"type": str}},
    "ignore_ids": {"help": "with tokenizer='ids': the ids dropped before scoring", "cli": {"scope": "ids"}},
    "sentence_ids": {"help": "with tokenizer='ids': the ids that end a sentence", "cli": {"scope": "ids"}},
}


def config_fields() -> Tuple[Tuple[str, Any, Any], ...]:
    """``(name, default, metadata)`` of every :class:`RougeConfig` field, in order (metadata: an entry of
    :data:`FIELD_METADATA`)."""
    import inspect  # only the command line asks: not at import time

    params = inspect.signature(RougeConfig).parameters
    return tuple((name, params[name].default, FIELD_METADATA[name]) for name in RougeConfig._fields)
