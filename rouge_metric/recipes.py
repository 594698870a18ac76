"""Scoring recipes by name: what ``recipe=`` and ``lang=`` mean in every adapter.

The evaluate module, the command line (``--recipe``, ``--lang``), ``RougeComputeMetrics``,
``RougeCallback`` and the reward take the same two options and call :func:`make_rouge`, which returns the
core :class:`~rouge_metric.Rouge` of the recipe. The adapters then score with it as with any other
``Rouge``, so a recipe gives the same floats wherever it is used.

========== =====================================================================================
recipe     scorer
========== =====================================================================================
default    :class:`~rouge_metric.Rouge` with the other options (rouge-score's numbers by default)
xlsum      :class:`~rouge_metric.xlsum.XLSumRouge`: XL-Sum's ``multilingual_rouge_scoring``, bit for
           bit; ``lang=`` is its language (``"chinese"``, ``"bengali"``, an alias such as ``"bangla"``,
           or None), ``use_stemmer`` True or False
========== =====================================================================================

Settings a recipe cannot honour are refused, never ignored: ``lang`` without ``recipe="xlsum"``; with
it, a ``tokenizer``, ``stopwords``, a ``sentence_splitter`` other than ``"newline"`` or a stemmer name
(XL-Sum's scorer tokenizes, splits and stems its own way; the messages say what to do instead). A
language XL-Sum's scorer does not know gives XL-Sum's numbers for it (no segmenter, no stemmer) and a
warning, once per language. ``recipe="xlsum"`` needs the ``multilingual`` extra (pyonmttok, and the
segmenter of the language)::

    rouge = make_rouge(["rouge1"], recipe="xlsum", lang="hindi")
    rouge.score(prediction="नमस्ते भारत", references="नमस्ते दुनिया")["rouge1"].fmeasure   # 0.5
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Sequence

from .config import DEFAULT_ROUGE_TYPES
from .result import CorpusResult
from .scoring import References, Rouge

# rouge_metric.xlsum (and the segmenters, stemmers and pyonmttok it loads) is imported when recipe="xlsum" asks
# for it: `import rouge_metric`, whose compute() is this module's, does not pay for it.

#: The recipe names (``recipe=None`` is ``"default"``).
RECIPES = ("default", "xlsum")

#: Settings of XL-Sum's ``RougeScorer`` that only ``recipe="xlsum"`` takes (see :class:`XLSumRouge`).
XLSUM_OPTIONS = ("callable_tokenizer", "callable_stemmer", "min_char_length", "bengali_rules")

#: Settings of the default recipe that ``recipe="xlsum"`` replaces, with the value that means "unset".
_XLSUM_UNSET = {"tokenizer": (None, "default"), "sentence_splitter": (None, "newline"), "stopwords": (None,)}

_XLSUM_INSTEAD = {
    "tokenizer": "XL-Sum's scorer tokenizes with its cleaner, the segmenter of lang and pyonmttok. Drop tokenizer, "
                 "or score without the recipe (e.g. tokenizer='jieba': word-level ROUGE, not XL-Sum's number)",
    "sentence_splitter": "XL-Sum's scorer splits rougeLsum at newlines; put a newline between sentences yourself",
    "stopwords": "XL-Sum's scorer removes no stopwords",
}


def check_recipe(recipe: Any) -> str:
    """The recipe's name (``None`` is ``"default"``), or a ValueError naming the allowed set."""
    if recipe is None:
        return "default"
    if not isinstance(recipe, str) or recipe not in RECIPES:
        raise ValueError(f"recipe: invalid value {recipe!r}; allowed: {', '.join(map(repr, RECIPES))} (or None)")
    return recipe


def make_rouge(rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *, recipe: Optional[str] = None,
               lang: Optional[str] = None, backend: Optional[str] = None, num_threads: Optional[int] = None,
               **options: Any) -> Rouge:
    """The core scorer of ``recipe`` with these settings.

    ``options``: :class:`~rouge_metric.RougeConfig` fields (``use_stemmer``, ``tokenizer``, ``multi_ref``,
    ``aggregation``, ``beta`` ...); with ``recipe="xlsum"`` also :data:`XLSUM_OPTIONS`. Values that mean
    "unset" (``tokenizer=None``, ``sentence_splitter="newline"``, ``stopwords=None``) are accepted by every
    recipe, so an adapter passes its defaults as they are.
    """
    name = check_recipe(recipe)
    xl = {k: options.pop(k) for k in XLSUM_OPTIONS if k in options}
    if name == "default":
        if lang is not None:
            raise ValueError(f"lang={lang!r}: a language of recipe='xlsum' (XL-Sum's scorer); add recipe='xlsum', "
                             "or for word segmentation alone use tokenizer='jieba', 'fugashi', 'thai_newmm' or "
                             "'burmese_syllables' without lang")
        if xl:
            raise ValueError(f"{', '.join(xl)}: settings of recipe='xlsum' (XL-Sum's scorer); add recipe='xlsum' "
                             "or drop them")
        return Rouge(rouge_types, backend=backend, num_threads=num_threads, **options)
    for arg, unset in _XLSUM_UNSET.items():
        value = options.pop(arg, None)
        if not any(value is u or (isinstance(u, str) and value == u) for u in unset):
            raise ValueError(f"{arg}={value!r}: not a setting of recipe='xlsum'. {_XLSUM_INSTEAD[arg]}")
    use_stemmer = options.pop("use_stemmer", False)
    if not isinstance(use_stemmer, bool):
        raise ValueError(f"use_stemmer={use_stemmer!r}: recipe='xlsum' stems with the stemmer of lang (Snowball "
                         "'porter' without one); give use_stemmer=True or False")
    if lang is not None and not isinstance(lang, str):
        raise TypeError(f"lang: expected a language name (str) or None, got {type(lang).__name__}")
    from .segment import SegmenterMissing
    from .xlsum import SEGMENTERS, XLSumRouge, canonical_language

    if not use_stemmer and xl.get("callable_tokenizer") is None:
        _warn_unknown(lang)  # with the stemmer, XLSumRouge warns (the stemmer is what XL-Sum warns about)
    try:
        scorer = XLSumRouge(rouge_types, use_stemmer=use_stemmer, lang=lang, backend=backend, num_threads=num_threads,
                            **xl, **options)
    except SegmenterMissing as exc:  # name the argument that asked for the segmenter
        segmenter = SEGMENTERS.get(canonical_language(lang) or "")
        if segmenter is None or f"tokenizer={segmenter!r}" not in str(exc):
            raise
        raise SegmenterMissing(f"lang={lang!r}: recipe='xlsum' segments it with {segmenter}: {exc}") from None
    return scorer.rouge


_WARNED: set = set()


def _warn_unknown(lang: Optional[str]) -> None:
    from .xlsum import LANGUAGES, canonical_language

    canon = canonical_language(lang)
    if canon is None or canon in LANGUAGES or canon in _WARNED:
        return
    _WARNED.add(canon)
    warnings.warn(
        f"lang={lang!r}: not a language of XL-Sum's scorer, so no word segmenter applies (the same numbers as "
        f"XL-Sum gives for it). Known languages: {', '.join(LANGUAGES)}",
        UserWarning, stacklevel=3)


def compute(*, predictions: Sequence[str], references: Sequence[References],
            rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, recipe: Optional[str] = None, lang: Optional[str] = None,
            return_per_example: bool = False, **options: Any) -> CorpusResult:
    """Score a corpus in one call: :func:`make_rouge` with these settings (``options`` are
    :class:`~rouge_metric.RougeConfig` fields, ``backend``, ``num_threads`` and, with ``recipe="xlsum"``,
    :data:`XLSUM_OPTIONS`), then its :meth:`~rouge_metric.Rouge.compute`.

    >>> r = compute(predictions=["the cat sat"], references=[["a cat sat", "the cat"]], rouge_types=["rouge1"])
    >>> r.scores["rouge1"].fmeasure
    0.8
    """
    return make_rouge(rouge_types, recipe=recipe, lang=lang, **options).compute(
        predictions=predictions, references=references, return_per_example=return_per_example)


__all__ = ["RECIPES", "XLSUM_OPTIONS", "check_recipe", "compute", "make_rouge"]
