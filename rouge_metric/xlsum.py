"""The XL-Sum recipe: the ROUGE of XL-Sum's ``multilingual_rouge_scoring``, exactly, on the core scorer.

XL-Sum (Hasan et al., Findings of ACL 2021), CrossSum, the mT5/mBART multilingual evaluations and HELM's
XL-Sum scenario report the ROUGE of ``multilingual_rouge_scoring`` (PyPI ``multilingual-rouge``).
:class:`XLSumRouge` gives its numbers bit for bit. It is a configuration of :class:`~rouge_metric.Rouge`:
this module supplies the text pipeline; the kernels, multi-reference modes and aggregation are the core's.

The pipeline of a text (rouge1...rouge9, rougeL):

1. ``str.lower()``;
2. the cleaner (BERT's ``BasicTokenizer`` as XL-Sum keeps it): control characters (Unicode C*, except tab,
   newline and carriage return), NUL and U+FFFD are deleted; whitespace and punctuation (Unicode P*, and
   every ASCII character that is not a letter or digit) separate words;
3. the words, joined by single spaces, go through the language's segmenter (:data:`SEGMENTERS`: jieba for
   Chinese, MeCab/fugashi for Japanese, pythainlp newmm for Thai, syllables for Burmese), whose tokens are
   kept as they are, spaces included (jieba and newmm return the space between two words as a token, and
   XL-Sum scores it);
4. with no segmenter, or when it returns nothing: pyonmttok's ``aggressive`` tokenizer, a space around
   every CJK ideograph, then a whitespace split;
5. with ``use_stemmer``, tokens longer than ``min_char_length`` (3) are stemmed by the language's stemmer
   (:data:`STEMMED_LANGUAGES`), and empty tokens are dropped.

rougeLsum tokenizes each newline-separated line with steps 1, 2 and 5 only: no segmenter and no
fallback, so a Chinese line without spaces or punctuation is one token.

Languages: :data:`SEGMENTERS` and :data:`STEMMED_LANGUAGES` are the languages XL-Sum knows, and
:data:`LANGUAGE_ALIASES` its other names. No language: no segmenter, and the stemmer is Snowball
``porter`` (nltk's original Porter algorithm, not rouge-score's). A language it does not know is not
stemmed; XL-Sum warns, and so does this module (once per language). ``lang="english"`` is Snowball
English with nltk's English stopwords left unstemmed.

Stemmers (all applied only to tokens longer than ``min_char_length``):

* Snowball languages (:data:`SNOWBALL_LANGUAGES`): ``nltk.stem.SnowballStemmer(lang,
  ignore_stopwords=True)``, which needs nltk's ``stopwords`` corpus installed (``python -m
  nltk.downloader stopwords`` or ``$NLTK_DATA``; nothing is downloaded at run time); the signature names
  the list by digest;
* Hindi: the suffix list of Ramanathan and Rao (2003), the longest suffix first;
* Turkish: the ``TurkishStemmer`` package;
* Bengali: the rule-based stemmer of Rafi Kamal (2014), whose rules live in the MIT-licensed file
  ``common.rules`` of ``bengali-stemmer`` (github.com/abhik1505040/bengali-stemmer). It is not on PyPI
  and this package does not ship it: give its path (``bengali_rules=`` or
  ``$ROUGE_METRIC_BENGALI_RULES``) or install ``bengali-stemmer`` from its repository; the signature names
  the file by digest.

This module is one file over 400 lines because the recipe is one table (languages, aliases, segmenters,
stemmers) and one pipeline that must agree with each other line for line.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import threading
import unicodedata
import warnings
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import core, segment
from .config import DEFAULT_ROUGE_TYPES, as_type_names
from .result import CorpusResult, Score
from .scoring import Rouge
from .text import register_tokenizer

#: Other names of languages (XL-Sum's ``SPECIAL_LANGID_CONVERSION_MAP``).
LANGUAGE_ALIASES: Dict[str, str] = {
    "bangla": "bengali",
    "turkce": "turkish",
    "chinese_simplified": "chinese",
    "chinese_traditional": "chinese",
    "mundo": "spanish",
}

#: Languages with a word segmenter, and the segmenter (:mod:`rouge_metric.segment`).
SEGMENTERS: Dict[str, str] = {
    "chinese": "jieba",
    "japanese": "fugashi",
    "thai": "thai_newmm",
    "burmese": "burmese_syllables",
}

#: nltk's Snowball languages (``SnowballStemmer.languages``, nltk 3.8 to 3.10), ``porter`` included.
SNOWBALL_LANGUAGES: Tuple[str, ...] = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian",
    "norwegian", "porter", "portuguese", "romanian", "russian", "spanish", "swedish",
)

#: Languages with a stemmer.
STEMMED_LANGUAGES: Tuple[str, ...] = ("bengali", "turkish", "hindi") + SNOWBALL_LANGUAGES

#: Every language name XL-Sum's scorer knows (aliases included).
LANGUAGES: Tuple[str, ...] = tuple(sorted(set(SEGMENTERS) | set(STEMMED_LANGUAGES) | set(LANGUAGE_ALIASES)))

#: The rouge types of XL-Sum's scorer.
ROUGE_TYPES_HELP = "rouge1 ... rouge9, rougeL, rougeLsum"
_TYPE_RE = re.compile(r"^rouge([1-9]|L|Lsum)$")

#: Environment variable naming the Bengali stemmer's ``common.rules``.
BENGALI_RULES_ENV = "ROUGE_METRIC_BENGALI_RULES"

EXTRA = "multilingual"

#: Tokens longer than this are stemmed (XL-Sum's ``min_char_length`` default).
MIN_CHAR_LENGTH = 3


def canonical_language(lang: Optional[str]) -> Optional[str]:
    """XL-Sum's language after its aliases (``"bangla"`` -> ``"bengali"``); ``None`` and ``""`` are no
    language.

    >>> canonical_language("mundo"), canonical_language("hindi"), canonical_language("")
    ('spanish', 'hindi', None)
    """
    if not lang:
        return None
    return LANGUAGE_ALIASES.get(lang, lang)


# ------------------------------------------------------------------------------------------ cleaner
def clean_map(cp: int) -> Optional[int]:
    """What XL-Sum's cleaner makes of the code point ``cp``: None (deleted: control characters, Unicode C*
    except tab, newline and carriage return, and U+FFFD), 32 (a word break: those three, Zs, P* and every
    printable ASCII character that is not a letter or digit) or ``cp`` itself. The native cleaner's table is
    generated from this function at build time (``_native_src/gen_xlsum_table.py``).

    >>> clean_map(ord("a")), clean_map(ord(",")), clean_map(0)
    (97, 32, None)
    """
    ch = chr(cp)
    cat = unicodedata.category(ch)
    if ch in "\t\n\r" or cat == "Zs" or cat[0] == "P" or (cp < 128 and 32 < cp < 127 and not ch.isalnum()):
        return 32
    if cat[0] == "C" or cp == 0xFFFD:
        return None
    return cp


class _CleanTable(dict):
    """``str.translate`` table of the cleaner (:func:`clean_map`), filled per code point at first sight."""

    def __missing__(self, cp: int) -> Optional[int]:
        out = self[cp] = clean_map(cp)
        return out


_CLEAN_TABLE = _CleanTable()


def clean_words(text: str) -> List[str]:
    """The words of XL-Sum's cleaner (it does not lowercase): control characters deleted, whitespace and
    punctuation separate words. O(len(text)).

    >>> clean_words("Hello, world! «Привет» 3.14 e-mail\\x00s")
    ['Hello', 'world', 'Привет', '3', '14', 'e', 'mails']
    """
    return text.translate(_CLEAN_TABLE).split()


_CJK_RE = re.compile("([\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f\U0002b740-\U0002b81f"
                     "\U0002b820-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f])")

_CJK_MIN = "\u3400"


class _Fallback:
    """pyonmttok's ``aggressive`` tokenizer, then CJK ideographs apart, then a whitespace split."""

    def __init__(self) -> None:
        try:
            import pyonmttok
        except ImportError as exc:
            if sys.version_info >= (3, 13):  # no pyonmttok package for it: the extra leaves it out
                how = "pyonmttok publishes no package for this Python (3.13); use CPython 3.10 to 3.12"
            else:
                how = (f"install it with `pip install pyonmttok` (or the '{EXTRA}' extra: "
                       f"`pip install -e \".[{EXTRA}]\"` from a clone)")
            raise segment.SegmenterMissing(
                f"the XL-Sum recipe needs the package 'pyonmttok' (XL-Sum's tokenizer of unsegmented text), which "
                f"is not installed ({exc}); {how}") from None
        self._tokenize = pyonmttok.Tokenizer("aggressive").tokenize
        self.name = f"pyonmttok-aggressive({segment.package_version('pyonmttok')})"

    def __call__(self, text: str) -> List[str]:
        joined = " ".join(self._tokenize(text)[0])
        # every character _CJK_RE matches is at or above U+3400: most texts skip the regex (isascii is O(1))
        if joined and not joined.isascii() and max(joined) >= _CJK_MIN:
            joined = _CJK_RE.sub(r" \1 ", joined)
        return joined.split()


# ----------------------------------------------------------------------------------------- stemmers
#: Hindi suffixes by length (Ramanathan and Rao, "A Lightweight Stemmer for Hindi", EACL 2003 workshop),
#: as XL-Sum strips them: the first suffix of the longest length L with len(token) > L + 1.
HINDI_SUFFIXES: Dict[int, Tuple[str, ...]] = {
    5: ("ाएंगी", "ाएंगे", "ाऊंगी", "ाऊंगा", "ाइयाँ", "ाइयों", "ाइयां"),
    4: ("ाएगी", "ाएगा", "ाओगी", "ाओगे", "एंगी", "ेंगी", "एंगे", "ेंगे", "ूंगी", "ूंगा", "ातीं", "नाओं", "नाएं",
        "ताओं", "ताएं", "ियाँ", "ियों", "ियां"),
    3: ("ाकर", "ाइए", "ाईं", "ाया", "ेगी", "ेगा", "ोगी", "ोगे", "ाने", "ाना", "ाते", "ाती", "ाता", "तीं", "ाओं",
        "ाएं", "ुओं", "ुएं", "ुआं"),
    2: ("कर", "ाओ", "िए", "ाई", "ाए", "ने", "नी", "ना", "ते", "ीं", "ती", "ता", "ाँ", "ां", "ों", "ें"),
    1: ("ो", "े", "ू", "ु", "ी", "ि", "ा"),
}


def hindi_stem(token: str) -> str:
    """Strip one Hindi suffix, longest first.

    >>> hindi_stem("लड़कियों"), hindi_stem("खाना")
    ('लड़क', 'खा')
    """
    for length in (5, 4, 3, 2, 1):
        if len(token) > length + 1 and token.endswith(HINDI_SUFFIXES[length]):
            return token[:-length]
    return token


class BengaliRules:
    """Rafi Kamal's rule-based Bengali stemmer over a ``common.rules`` text.

    The rules are groups in braces, one suffix per line (``#`` starts a comment, whitespace is ignored);
    ``suffix -> replacement`` rewrites the suffix position by position (``.`` keeps the character). A word
    is checked against each group in order: the first suffix of the group that ends the word is replaced
    (a rule with a replacement) or removed when the rest keeps a character that is not a vowel sign; then
    the next group.
    """

    _VOWEL_SIGNS = frozenset("\u09be\u09bf\u09c0\u09c7\u09c1\u09c2\u09cb")

    def __init__(self, text: str) -> None:
        lines: List[str] = []
        self.replace: Dict[str, str] = {}
        for raw in text.splitlines():
            line = re.sub(r"#.*", "", re.sub(r"\s", "", raw))
            if not line:
                continue
            if "->" in line:
                parts = line.split("->")
                if len(parts) != 2:
                    continue  # a line with two arrows is not a rule
                line = parts[0]
                if parts[1]:
                    self.replace[line] = parts[1]
                if not line:
                    continue
            lines.append(line)
        self.groups: List[List[str]] = []
        i = 0
        while i < len(lines):
            if lines[i] == "{":
                group: List[str] = []
                i += 1
                while i < len(lines) and lines[i] != "}":
                    group.append(lines[i])
                    i += 1
                self.groups.append(group)
            i += 1

    def _keeps_letter(self, stem: str) -> bool:
        return any(c not in self._VOWEL_SIGNS for c in stem)

    def __call__(self, word: str) -> str:
        for group in self.groups:
            for suffix in group:
                if not word.endswith(suffix):
                    continue
                at = len(word) - len(suffix)
                rule = self.replace.get(suffix)
                if rule is not None:
                    chars = list(word)
                    for k, r in enumerate(rule):
                        if r != ".":
                            chars[at + k] = r  # IndexError past the word's end, as the original stemmer
                    word = "".join(chars[:at + len(rule)])
                elif self._keeps_letter(word[:at]):
                    word = word[:at]
                break
        return word


def find_bengali_rules(path: Any = None) -> str:
    """The path of ``common.rules``: ``path``, else ``$ROUGE_METRIC_BENGALI_RULES``, else an installed
    ``bengali_stemmer`` (or ``multilingual_rouge``) package that has the file; else LookupError naming
    what is missing."""
    if path is not None:
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"bengali_rules: no file {path!r}; give the path of bengali-stemmer's common.rules")
        return path
    env = os.environ.get(BENGALI_RULES_ENV)
    if env:
        if not os.path.isfile(env):
            raise FileNotFoundError(f"${BENGALI_RULES_ENV}={env!r} is not a file; give the path of common.rules")
        return env
    from importlib.util import find_spec

    for package, sub in (("bengali_stemmer", "rafikamal2014"), ("multilingual_rouge", "bengali_stemmer")):
        try:
            spec = find_spec(package)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.submodule_search_locations:
            for folder in spec.submodule_search_locations:
                candidate = os.path.join(folder, sub, "common.rules")
                if os.path.isfile(candidate):
                    return candidate
    raise LookupError(
        "lang='bengali' with use_stemmer=True needs the Bengali stemmer's rules file common.rules (MIT, "
        "github.com/abhik1505040/bengali-stemmer), which rouge_metric does not ship and never downloads: "
        f"give its path as bengali_rules= or in ${BENGALI_RULES_ENV}, or install bengali-stemmer from its "
        "repository; or use use_stemmer=False")


def _snowball(lang: str, backend: Optional[str] = None) -> Tuple[Callable[[str], str], str]:
    from . import stemmers

    version = segment.package_version("nltk")
    if lang == "porter":
        return stemmers.snowball("porter", backend=backend), f"snowball-porter(nltk-{version})"
    try:
        words = stemmers.nltk_stopwords(lang)
    except LookupError:
        raise LookupError(
            f"lang={lang!r} with use_stemmer=True is XL-Sum's Snowball stemmer with ignore_stopwords=True, which "
            "needs nltk's 'stopwords' corpus; it is not installed. Install it with `python -m nltk.downloader "
            "stopwords` or point $NLTK_DATA at a copy (rouge_metric never downloads data)") from None
    unique = sorted(set(words))
    digest = hashlib.sha256("\n".join(unique).encode("utf-8")).hexdigest()[:8]
    return (stemmers.snowball(lang, unique, backend),
            f"snowball-{lang}(nltk-{version},stop=nltk:{digest}(n={len(unique)}))")


def language_stemmer(lang: Optional[str], bengali_rules: Any = None,
                     backend: Optional[str] = None) -> Tuple[Optional[Callable[[str], str]], str]:
    """``(stem function, signature name)`` of XL-Sum's stemmer for ``lang`` (canonical), or ``(None,
    "none")`` for a language without one; ``backend="python"`` forces the Python originals."""
    if lang is None:
        return _snowball("porter", backend)
    if lang in SNOWBALL_LANGUAGES:
        return _snowball(lang, backend)
    if lang == "hindi":
        return hindi_stem, "hindi-suffixes(ramanathan2003)"
    if lang == "turkish":
        from . import stemmers

        try:
            return stemmers.turkish(backend), f"turkishstemmer({segment.package_version('TurkishStemmer')})"
        except ImportError as exc:
            raise segment.SegmenterMissing(
                f"lang='turkish' with use_stemmer=True needs the package 'TurkishStemmer', which is not installed "
                f"({exc}); install it with `pip install TurkishStemmer` (or the '{EXTRA}' extra: `pip install -e \".[{EXTRA}]\"`)"
            ) from None
    if lang == "bengali":
        path = find_bengali_rules(bengali_rules)
        with open(path, "rb") as f:
            data = f.read()
        digest = hashlib.sha256(data).hexdigest()[:8]
        return BengaliRules(data.decode("utf-8")), f"rafi(rules=sha256:{digest})"
    return None, "none"


# ------------------------------------------------------------------------------------------ pipeline
class XLSumTokenizer:
    """XL-Sum's text pipeline for one setting (language, stemmer, minimum length): :meth:`tokens` for
    rouge1...rouge9 and rougeL, :meth:`line_tokens` for each rougeLsum line. The tokens are cached per
    unique text and per unique line, the stems per unique token (each is stemmed once), and the segmenter
    caches its output per unique text."""

    def __init__(self, lang: Optional[str] = None, use_stemmer: bool = False, *,
                 callable_tokenizer: Optional[Callable[[str], Sequence[str]]] = None,
                 callable_stemmer: Optional[Callable[[str], str]] = None, min_char_length: Optional[int] = None,
                 bengali_rules: Any = None, backend: Optional[str] = None) -> None:
        if not use_stemmer:
            for arg, value in (("callable_stemmer", callable_stemmer), ("min_char_length", min_char_length),
                               ("bengali_rules", bengali_rules)):
                if value is not None:
                    raise ValueError(f"{arg}: only used with use_stemmer=True (XL-Sum's scorer ignores it without "
                                     f"stemming); got {arg}={value!r} with use_stemmer={use_stemmer!r}")
        if min_char_length is None:
            min_char_length = MIN_CHAR_LENGTH
        if lang is not None and not isinstance(lang, str):
            raise TypeError(f"lang: expected a language name (str) or None, got {type(lang).__name__}")
        if isinstance(min_char_length, bool) or not isinstance(min_char_length, int):
            raise TypeError(f"min_char_length: expected an integer, got {type(min_char_length).__name__} "
                            f"{min_char_length!r}")
        for arg, value in (("callable_tokenizer", callable_tokenizer), ("callable_stemmer", callable_stemmer)):
            if value is not None and not callable(value):
                raise TypeError(f"{arg}: expected a callable or None, got {type(value).__name__}")
        self.lang = canonical_language(lang)
        self.min_char_length = min_char_length
        self.fallback = _Fallback()
        #: the backend of the text pipeline: "native" runs the cleaner and the stemmers' twins in C++ (the same
        #: output as their Python originals)
        self.backend = core.get_backend(backend)
        native = core.kernels("native") if self.backend == "native" else None
        self._native_clean = getattr(native, "xlsum_clean", None)
        if callable_tokenizer is not None:
            self.segmenter: Optional[Callable[[str], Sequence[str]]] = _checked_callable(callable_tokenizer)
            seg_name = "custom(" + getattr(callable_tokenizer, "__qualname__", type(callable_tokenizer).__qualname__) + ")"
        elif self.lang in SEGMENTERS:
            seg = segment.raw_segmenter(SEGMENTERS[self.lang])
            seg_name = segment.describe(seg.name)
            self.segmenter = seg
        else:
            self.segmenter, seg_name = None, "none"
        self.stem: Optional[Callable[[str], str]] = None
        stem_name = "none"
        #: a new instance of an order-dependent stemmer (nltk's Arabic one), or None
        self.new_stemmer: Optional[Callable[[], Any]] = None
        if use_stemmer:
            if callable_stemmer is not None:
                self.stem = callable_stemmer
                stem_name = "custom(" + getattr(callable_stemmer, "__qualname__",
                                                type(callable_stemmer).__qualname__) + ")"
            else:
                self.stem, stem_name = language_stemmer(self.lang, bengali_rules, self.backend)
                if self.stem is None:
                    _warn_unstemmed(self.lang)
                elif getattr(self.stem, "stateful", False):
                    # nltk's Arabic stemmer takes one branch until the first word that passes its verb-suffix
                    # step and the other for every later word of the instance. XL-Sum's scorer has one
                    # instance, which meets that word within its first text: the cached tokens here are those
                    # of a scorer past it; a scorer's first texts go through its session (OracleOrder).
                    self.new_stemmer = self.stem.new
                    self.stem.state = True
        self.description = (f"xlsum(lang={self.lang or 'none'},seg={seg_name},fallback={self.fallback.name},"
                            f"stem={stem_name}" + (f",min={min_char_length}" if self.stem is not None else "") + ")")
        self._cache: "OrderedDict[str, Tuple[str, ...]]" = OrderedDict()
        self._line_cache: "OrderedDict[str, Tuple[str, ...]]" = OrderedDict()
        self._stems: Dict[str, str] = {}

    def _clean(self, text: str) -> Tuple[str, bool]:
        """``(cleaned, plain)``: the words of ``text.lower()`` by XL-Sum's cleaner, joined by single spaces, and
        whether pyonmttok would return them as they are (letters or ASCII digits only: the native cleaner knows;
        the Python one does not say so, and pyonmttok runs)."""
        native = self._native_clean
        if native is not None:
            return native(text)
        return " ".join(clean_words(text.lower())), False

    def _segment(self, text: str) -> Sequence[str]:
        cleaned, plain = self._clean(text)
        tokens: Sequence[str] = self.segmenter(cleaned) if self.segmenter is not None else ()
        if not tokens and cleaned:
            tokens = cleaned.split(" ") if plain else self.fallback(cleaned)
        return tokens

    def _line_words(self, line: str) -> List[str]:
        """The cleaned words of one rougeLsum line (``clean_words(line.lower())``)."""
        cleaned = self._clean(line)[0]
        return cleaned.split(" ") if cleaned else []

    def _stemmed(self, tokens: Sequence[str], stemmer: Optional[Callable[[str], str]] = None) -> Tuple[str, ...]:
        """The tokens stemmed (those longer than ``min_char_length``) with the cached stems of this pipeline,
        or with ``stemmer`` (every occurrence, in order, uncached), empty ones dropped."""
        stem = self.stem
        if stem is None:
            return tuple(t for t in tokens if t)
        min_len = self.min_char_length
        if stemmer is not None:
            return tuple(t for t in (stemmer(t) if len(t) > min_len else t for t in tokens) if t)
        stems = self._stems
        out = []
        for t in tokens:
            if len(t) > min_len:
                s = stems.get(t)
                if s is None:
                    s = stems[t] = stem(t)
                t = s
            if t:
                out.append(t)
        return tuple(out)

    @staticmethod
    def _keep(cache: "OrderedDict[str, Tuple[str, ...]]", key: str, value: Tuple[str, ...]) -> Tuple[str, ...]:
        cache[key] = value
        if len(cache) > segment.CACHE_SIZE:
            try:
                cache.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                pass
        return value

    def tokens(self, text: str, _stemmer: Any = None) -> List[str]:
        """Tokens of a whole text (rouge1...rouge9, rougeL), cached per unique text."""
        out = self._cache.get(text)
        if out is None:
            out = self._keep(self._cache, text, self._stemmed(self._segment(text)))
        return list(out)

    def clear_cache(self) -> None:
        """Empty this pipeline's caches (tokens per text, per rougeLsum line, stems per token) and its
        segmenter's (shared by every user of that segmenter): the next call starts as a fresh process's
        first call does."""
        self._cache.clear()
        self._line_cache.clear()
        self._stems.clear()
        clear = getattr(self.segmenter, "clear_cache", None)
        if clear is not None:
            clear()

    def token_spans(self, text: str) -> List[Tuple[str, Optional[int], Optional[int]]]:
        """The tokens of :meth:`tokens` with their character spans in ``text`` (``(token, start, end)``,
        :func:`cleaned_sources`); ``(token, None, None)`` where a token cannot be mapped back exactly."""
        cleaned, sources = cleaned_sources(text)
        raw = self._segment(text)
        if cleaned != " ".join(clean_words(text.lower().strip())):
            return self._stemmed_located([(t, None, None) for t in raw])
        located = segment.align(raw, cleaned)
        return self._stemmed_located([(t,) + source_span(text, t, where, cleaned, sources)
                                      for t, where in zip(raw, located)])

    def line_spans(self, line: str) -> List[Tuple[str, Optional[int], Optional[int]]]:
        """The tokens of :meth:`line_tokens` with their character spans in ``line``."""
        cleaned, sources = cleaned_sources(line)
        words, out, start = cleaned.split(" ") if cleaned else [], [], 0
        for w in words:
            out.append((w,) + source_span(line, w, (start, start + len(w)), cleaned, sources))
            start += len(w) + 1
        if [w for w, _, _ in out] != clean_words(line.lower()):
            out = [(w, None, None) for w in clean_words(line.lower())]
        return self._stemmed_located(out)

    def _stemmed_located(self, located: Sequence[Tuple[str, Optional[int], Optional[int]]]
                         ) -> List[Tuple[str, Optional[int], Optional[int]]]:
        stems = self._stemmed([t for t, _, _ in located])
        if len(stems) == len(located):
            return [(s, a, b) for s, (_, a, b) in zip(stems, located)]
        return [(s, a, b) for (t, a, b) in located for s in self._stemmed([t])]  # empty stems dropped

    def line_tokens(self, line: str, _stemmer: Any = None) -> List[str]:
        """Tokens of one rougeLsum line: cleaner and stemmer only; cached per unique line."""
        out = self._line_cache.get(line)
        if out is None:
            out = self._keep(self._line_cache, line, self._stemmed(self._line_words(line)))
        return list(out)

    def session(self, config: Any) -> Optional["OracleOrder"]:
        """The per-scorer state of one scorer of this pipeline (:func:`rouge_metric.text.register_tokenizer`):
        an :class:`OracleOrder` when the stemmer depends on the order of its words, else None."""
        return OracleOrder(self, config) if self.new_stemmer is not None else None


class OracleOrder:
    """The start of one XL-Sum ``RougeScorer`` whose stemmer depends on the order of its words (nltk's Arabic
    stemmer: :class:`~rouge_metric.stemmers.LanguageStemmer`): until the stemmer has met the word that changes
    it for good, each pair is tokenized here as XL-Sum's ``score(target, prediction)`` does it, one reference
    after the other: the target, the prediction, then, for rougeLsum, the target's lines and the prediction's
    lines, every token stemmed in that order by this scorer's own stemmer. After that word, ``settled`` is True
    and the scorer uses the shared cached pipeline, whose stems are those of a stemmer past it. One
    :class:`~rouge_metric.Rouge` of the recipe is one XL-Sum scorer: its first pairs are scored as by a new
    XL-Sum scorer (a copy made by pickling starts anew)."""

    def __init__(self, tok: XLSumTokenizer, config: Any) -> None:
        assert tok.new_stemmer is not None
        self._tok = tok
        self._stem = tok.new_stemmer()
        self._lines = sum(1 for t in config.rouge_types if t == "rougeLsum")
        self._need_tokens = any(t != "rougeLsum" for t in config.rouge_types)

    @property
    def settled(self) -> bool:
        return bool(self._stem.state)

    def views(self, prediction: str, references: Sequence[str]) -> List[Tuple[Tuple[Any, Any], Tuple[Any, Any]]]:
        tok, stem = self._tok, self._stem
        out = []
        for ref in references:
            rt = list(tok._stemmed(tok._segment(ref), stem))
            pt = list(tok._stemmed(tok._segment(prediction), stem))
            rl = pl = None
            for _ in range(self._lines):
                rl = [list(tok._stemmed(tok._line_words(s), stem)) for s in ref.split("\n") if s]
                pl = [list(tok._stemmed(tok._line_words(s), stem)) for s in prediction.split("\n") if s]
            keep = self._need_tokens
            out.append(((pt if keep else None, pl), (rt if keep else None, rl)))
        return out


def cleaned_sources(text: str) -> Tuple[str, List[Optional[int]]]:
    """XL-Sum's cleaned text (``" ".join(clean_words(text.lower()))``) and, per character of it, the
    index in ``text`` of the character it came from (None for the single spaces that join the words).
    Lowercasing is per character (a character may give two: "İ" gives "i̇", both from it), with the
    whole text's lowercase letters where the lengths agree (Greek final sigma). O(len(text)).

    >>> cleaned_sources("Ab, \\x00C")
    ('ab c', [0, 1, None, 5])
    """
    pieces = [c.lower() for c in text]
    low = text.lower()
    chars = low if sum(map(len, pieces)) == len(low) else "".join(pieces)
    kept: List[Tuple[str, int]] = []
    k = 0
    for i, piece in enumerate(pieces):
        for _ in piece:
            m = _CLEAN_TABLE[ord(chars[k])]
            k += 1
            if m is not None:
                kept.append((chr(m), i))
    out: List[str] = []
    sources: List[Optional[int]] = []
    in_word = False
    for c, i in kept:
        if c.isspace():
            in_word = False
            continue
        if not in_word and out:
            out.append(" ")
            sources.append(None)
        in_word = True
        out.append(c)
        sources.append(i)
    return "".join(out), sources


def clean_piece(piece: str) -> str:
    """What XL-Sum's cleaner makes of a piece of text on its own: its words joined by one space, or one
    space for a piece of separators only (jieba and newmm return the space between two words as a token)."""
    words = clean_words(piece.lower())
    if words:
        return " ".join(words)
    return " " if piece.lower().translate(_CLEAN_TABLE).strip() == "" and any(
        _CLEAN_TABLE[ord(c)] is not None for c in piece.lower()) else ""


def source_span(text: str, token: str, where: Optional[Tuple[int, int]], cleaned: str,
                sources: Sequence[Optional[int]]) -> Tuple[Optional[int], Optional[int]]:
    """The span in ``text`` of the token at ``cleaned[where[0]:where[1]]`` (:func:`cleaned_sources`): the
    characters it came from, or for a joining space the separators between the two words. ``(None, None)``
    when the token shares a character with its neighbour (a lowercased "İ" split in two) or the span,
    cleaned on its own (:func:`clean_piece`), is not the token."""
    if where is None:
        return None, None
    s, e = where
    if s >= e:
        return None, None
    if cleaned[s:e].strip() == "":
        if s == 0 or e >= len(cleaned) or sources[s - 1] is None or sources[e] is None:
            return None, None
        a, b = sources[s - 1] + 1, sources[e]
    else:
        first, last = sources[s], sources[e - 1]
        if first is None or last is None:
            return None, None
        if (s > 0 and sources[s - 1] == first) or (e < len(cleaned) and sources[e] == last):
            return None, None  # the token begins or ends inside one character of the text
        a, b = first, last + 1
    if a >= b or clean_piece(text[a:b]) != token:
        return None, None
    return a, b


def _checked_callable(func: Callable[[str], Sequence[str]]) -> Callable[[str], Sequence[str]]:
    """A user's segmenter whose failures name it and the text (the recipe adds the index)."""

    def run(text: str) -> Sequence[str]:
        try:
            out = func(text)
        except Exception as exc:  # noqa: BLE001 - reported with the text it failed on
            raise segment.SegmenterError(
                f"callable_tokenizer failed on the text {text[:40]!r} ({type(exc).__name__}: {exc})") from exc
        if isinstance(out, str) or not isinstance(out, (list, tuple)):
            raise TypeError(f"callable_tokenizer: expected a list of str, got {type(out).__name__}")
        return out

    return run


_SHARED: Dict[Any, Tuple[XLSumTokenizer, str]] = {}
_SHARED_LOCK = threading.Lock()


def _key_part(obj: Any) -> Any:
    if obj is None:
        return None
    try:
        hash(obj)
        return obj
    except TypeError:
        return ("id", id(obj))


def xlsum_tokenizer(lang: Optional[str] = None, use_stemmer: bool = False, **settings: Any) -> Tuple[XLSumTokenizer, str]:
    """The process-wide :class:`XLSumTokenizer` of these settings and its registered tokenizer name (one per
    setting: scorers with the same settings share the caches)."""
    if use_stemmer and canonical_language(lang) == "bengali" and settings.get("callable_stemmer") is None:
        settings["bengali_rules"] = find_bengali_rules(settings.get("bengali_rules"))  # the file in use is the key
    settings["backend"] = core.get_backend(settings.get("backend"))
    key = (canonical_language(lang) if isinstance(lang, str) or lang is None else ("bad", id(lang)), bool(use_stemmer),
           tuple(sorted((k, _key_part(v) if k.startswith("callable") else repr(v)) for k, v in settings.items())))
    with _SHARED_LOCK:
        hit = _SHARED.get(key)
        if hit is None:
            tok = XLSumTokenizer(lang, use_stemmer, **settings)
            name = f"xlsum#{len(_SHARED)}"
            register_tokenizer(name, tok.tokens, sentence_func=tok.line_tokens, describe=lambda d=tok.description: d,
                               spans=tok.token_spans, sentence_spans=tok.line_spans, session=tok.session)
            hit = _SHARED[key] = (tok, name)
    return hit


_WARNED: set = set()


def _warn_unstemmed(lang: Optional[str]) -> None:
    if lang in _WARNED:
        return
    _WARNED.add(lang)
    warnings.warn(
        f"lang={lang!r}: XL-Sum's scorer has no stemmer for this language, so its tokens are not stemmed "
        f"(the same numbers as XL-Sum). Languages with a stemmer: {', '.join(STEMMED_LANGUAGES)}; "
        f"other known names: {', '.join(sorted(set(SEGMENTERS) | set(LANGUAGE_ALIASES)))}",
        UserWarning, stacklevel=4)


# --------------------------------------------------------------------------------------- the recipe
_REFUSED = ("tokenizer", "use_stemmer", "stopwords", "sentence_splitter", "rouge_types", "config")


class XLSumRouge:
    """XL-Sum's ``RougeScorer(rouge_types, use_stemmer=..., lang=...)`` on the core scorer.

    ``score(target, prediction)`` keeps XL-Sum's argument order and returns ``{type: Score}``;
    :meth:`compute` scores a corpus with the core's multi-reference modes (``multi_ref="max"``: per type,
    the reference with the highest F, first on ties) and aggregation; ``options`` are the other
    :class:`~rouge_metric.RougeConfig` settings (``multi_ref``, ``aggregation``, ``seed``, ...). It needs
    the ``multilingual`` extra (pyonmttok, and the segmenter of the language)::

        scorer = XLSumRouge(["rouge1", "rougeL"], use_stemmer=True, lang="hindi")
        scorer.score("नमस्ते दुनिया", "नमस्ते भारत")["rouge1"].fmeasure   # 0.5
    """

    def __init__(self, rouge_types: Any = DEFAULT_ROUGE_TYPES, use_stemmer: bool = False, lang: Optional[str] = None,
                 *, callable_tokenizer: Optional[Callable[[str], Sequence[str]]] = None,
                 callable_stemmer: Optional[Callable[[str], str]] = None, min_char_length: Optional[int] = None,
                 bengali_rules: Any = None, backend: Optional[str] = None, num_threads: Optional[int] = None,
                 **options: Any) -> None:
        types = as_type_names(rouge_types)
        for i, t in enumerate(types):
            if not isinstance(t, str) or not _TYPE_RE.match(t):
                raise ValueError(f"rouge_types[{i}]: {t!r} is not a rouge type of XL-Sum's scorer; allowed: "
                                 f"{ROUGE_TYPES_HELP}")
        for arg in _REFUSED:
            if arg in options:
                raise ValueError(f"{arg}: set by the XL-Sum recipe; use lang=, use_stemmer=, callable_tokenizer=, "
                                 "callable_stemmer= and min_char_length= instead")
        if not isinstance(use_stemmer, bool):
            raise TypeError(f"use_stemmer: expected True or False, got {type(use_stemmer).__name__} {use_stemmer!r}")
        self._settings = dict(rouge_types=types, use_stemmer=use_stemmer, lang=lang,
                              callable_tokenizer=callable_tokenizer, callable_stemmer=callable_stemmer,
                              min_char_length=min_char_length, bengali_rules=bengali_rules, backend=backend,
                              num_threads=num_threads, **options)
        self.tokenizer, name = xlsum_tokenizer(lang, use_stemmer, callable_tokenizer=callable_tokenizer,
                                               callable_stemmer=callable_stemmer, min_char_length=min_char_length,
                                               bengali_rules=bengali_rules, backend=backend)
        self.rouge = Rouge(types, tokenizer=name, sentence_splitter="newline", backend=backend,
                           num_threads=num_threads, rebuild=(recipe_rouge, dict(self._settings)), **options)

    def __getstate__(self) -> Dict[str, Any]:
        return dict(self._settings)

    def __setstate__(self, state: Dict[str, Any]) -> None:
        state = dict(state)
        self.__init__(state.pop("rouge_types"), **state)  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"XLSumRouge({self.signature()!r})"

    @property
    def rouge_types(self) -> Tuple[str, ...]:
        return self.rouge.rouge_types

    def signature(self) -> str:
        """The core signature, whose ``tok:xlsum(...)`` names language, segmenter, fallback and stemmer."""
        return self.rouge.signature()

    def clear_cache(self) -> None:
        """Empty every cache this scorer's work goes through (its text pipeline's, shared by the scorers of the
        same settings, and its own): the next call does the work of a fresh process's first call, imports and
        dictionaries aside. The numbers never depend on it."""
        self.tokenizer.clear_cache()
        self.rouge.clear_cache()

    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """XL-Sum's ``score(target, prediction)``: ``{type: Score}``."""
        return self._guard(lambda: self.rouge.score(prediction=prediction, references=target),
                           [prediction], [target])

    def score_multi(self, targets: Sequence[str], prediction: str) -> Dict[str, Score]:
        """Per type, the score of the target with the highest F (the first on ties)."""
        return self._guard(lambda: self.rouge.score(prediction=prediction, references=list(targets)),
                           [prediction], [list(targets)])

    def score_examples(self, *, predictions: Sequence[str], references: Sequence[Any]) -> List[Dict[str, Score]]:
        """Per-example scores (``references[i]``: a string or a list of strings)."""
        return self._guard(lambda: self.rouge.score_examples(predictions=predictions, references=references),
                           predictions, references)

    def compute(self, *, predictions: Sequence[str], references: Sequence[Any],
                return_per_example: bool = False) -> CorpusResult:
        """Corpus scores: the exact mean of per-example P/R/F (a bootstrap with ``aggregation="bootstrap"``)."""
        return self._guard(lambda: self.rouge.compute(predictions=predictions, references=references,
                                                      return_per_example=return_per_example),
                           predictions, references)

    def _guard(self, run: Callable[[], Any], predictions: Sequence[Any], references: Sequence[Any]) -> Any:
        """Run; when a segmenter fails, find and name the first text it fails on."""
        try:
            return run()
        except segment.SegmenterError as exc:
            where = self._failing_text(predictions, references)
            if where is None:
                raise
            raise segment.located(exc.original or exc, where) from exc.__cause__

    def _failing_text(self, predictions: Sequence[Any], references: Sequence[Any]) -> Optional[str]:
        tok = self.tokenizer
        for i, (p, refs) in enumerate(zip(predictions, references)):
            items = [(f"predictions[{i}]", p)]
            if isinstance(refs, str):
                items.append((f"references[{i}]", refs))
            else:
                items.extend((f"references[{i}][{j}]", r) for j, r in enumerate(refs))
            for where, text in items:
                try:
                    tok.tokens(text)
                except segment.SegmenterError:
                    return where
        return None


def recipe_rouge(**settings: Any) -> Rouge:
    """The core :class:`~rouge_metric.Rouge` of ``XLSumRouge(**settings)`` (how such a scorer unpickles)."""
    return XLSumRouge(**settings).rouge


__all__ = ["LANGUAGES", "LANGUAGE_ALIASES", "SEGMENTERS", "SNOWBALL_LANGUAGES", "STEMMED_LANGUAGES", "BengaliRules",
           "XLSumRouge", "XLSumTokenizer", "canonical_language", "clean_piece", "clean_words", "cleaned_sources",
           "hindi_stem", "source_span"]
