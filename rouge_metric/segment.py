"""Word segmentation for scripts written without spaces: Chinese, Japanese, Thai and Burmese.

Four segmenters, each usable two ways:

* as a **named tokenizer** of :class:`~rouge_metric.Rouge` (``tokenizer="jieba"``, ``"fugashi"``,
  ``"thai_newmm"``, ``"burmese_syllables"``): the text is segmented as written, every word is lowercased
  and words without a letter or digit (spaces, punctuation) are dropped; a stemmer, when configured, is
  applied to the words;
* as a **raw segmenter** (:func:`raw_segmenter`): the segmenter's own output, spaces included (jieba and
  pythainlp return the spaces between words as tokens), which the XL-Sum recipe
  (:mod:`rouge_metric.xlsum`) scores as XL-Sum's scorer does.

==================== ============================================ ==============================
name                 segmenter                                    package (extra ``multilingual``)
==================== ============================================ ==============================
``jieba``            ``jieba.cut`` (default dictionary, HMM on);  ``jieba`` (its dictionary and
                     its native twin for jieba 0.42.1             HMM tables)
``fugashi``          MeCab through fugashi, ``-O wakati -b 50000`` ``fugashi`` + ``unidic-lite`` or
                     with the installed UniDic                     ``unidic`` (downloaded dictionary)
``thai_newmm``       pythainlp ``word_tokenize(engine="newmm")``   ``pythainlp``
``burmese_syllables`` rule-based syllables (Ding et al., TALLIP     none
                     2019, the rule XL-Sum uses)
==================== ============================================ ==============================

Each tokenizer's signature names the segmenter, its version and its dictionary, e.g.
``tok:fugashi(1.5.2,dict=unidic-lite-1.0.8)`` or ``tok:jieba(0.42.1,dict=sha256:7197c321)``.

``jieba`` gives exactly ``list(jieba.cut(text))`` of the installed jieba with its default dictionary. When the
native core is built and the installed jieba is 0.42.1 (its sources checked by digest), a C++ twin of
jieba's cut computes it from jieba's own dictionary and HMM tables, without importing jieba (it loads in
a fraction of jieba's time and segments many times faster: docs/performance.md); otherwise jieba itself
runs (``ROUGE_METRIC_JIEBA=python`` forces it). A process that changed jieba's default tokenizer (user words,
another dictionary, jieba's patterns) gets a :class:`SegmenterError` naming the change instead of words
that no longer match the signature: :mod:`rouge_metric.jieba_native` explains the choice and what is
checked. A missing package raises :class:`SegmenterMissing`
(an ``ImportError``) naming the extra and the package; a dictionary that cannot be loaded raises
:class:`SegmenterError`; so does a text the segmenter fails on: the message shows the text, and the
scorer (:class:`~rouge_metric.Rouge`, its batch and one-example paths) names where the text is, e.g.
``references[3][0]: tokenizer='jieba': the segmenter failed on the text ...`` (:func:`locate_failure`).
Segmentation is cached per unique text (:data:`CACHE_SIZE` texts per segmenter, least recently used
dropped), so a reference shared by many predictions is segmented once. :func:`token_spans` gives each
word's characters in the text (explanations highlight them; :func:`align`).

One file of about 500 lines: the segmenters, their named tokenizers and the spans of their words share the
loading, caching and word rules (jieba's native twin and the guard on jieba's state are in
:mod:`rouge_metric.jieba_native`).
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

#: The named segmenting tokenizers.
SEGMENTERS: Tuple[str, ...] = ("jieba", "fugashi", "thai_newmm", "burmese_syllables")

#: Texts kept per segmenter in the segmentation cache.
CACHE_SIZE = 1 << 16

EXTRA = "multilingual"

#: Python package (import name, distribution name) behind each segmenter.
PACKAGES: Dict[str, Tuple[str, str]] = {
    "jieba": ("jieba", "jieba"),
    "fugashi": ("fugashi", "fugashi"),
    "thai_newmm": ("pythainlp", "pythainlp"),
}


class SegmenterMissing(ImportError):
    """A segmenter's package (or its dictionary package) is not installed."""


class SegmenterError(RuntimeError):
    """A segmenter could not be loaded (its dictionary) or failed on a text.

    ``where``: the argument and index of the text it failed on (``predictions[3]``, ``references[2][1]``),
    set when the scorer that called it knows them (the message then starts with it); else None."""

    where: Optional[str] = None
    #: the same error before it was located (its message without ``where``)
    original: Optional["SegmenterError"] = None


def located(exc: SegmenterError, where: str) -> SegmenterError:
    """``exc`` with the place of its text: a new :class:`SegmenterError` whose message starts with
    ``where`` (``exc`` itself when it already names one).

    >>> located(SegmenterError("tokenizer='jieba': the segmenter failed"), "predictions[2]")
    SegmenterError("predictions[2]: tokenizer='jieba': the segmenter failed")
    """
    if exc.where is not None:
        return exc
    out = SegmenterError(f"{where}: {exc}")
    out.where, out.original = where, exc
    out.__cause__ = exc.__cause__ if exc.__cause__ is not None else exc
    return out


def locate_failure(exc: SegmenterError, process: Callable[[Any], Any],
                   texts: Sequence[Tuple[str, Any]]) -> SegmenterError:
    """``exc`` located at the first of ``texts`` (``(where, text)`` pairs, in scoring order) that
    ``process`` fails on with a :class:`SegmenterError`; ``exc`` itself when none does (or it is already
    located). Runs on the error path only: the texts before the failing one come from the caches."""
    if exc.where is not None:
        return exc
    for where, text in texts:
        try:
            process(text)
        except SegmenterError:
            return located(exc, where)
    return exc


def package_version(dist: str) -> str:
    """The installed version of a distribution, or ``unknown``."""
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


def _missing(name: str, package: str, exc: BaseException) -> SegmenterMissing:
    return SegmenterMissing(
        f"tokenizer={name!r} needs the package {package!r}, which is not installed ({exc}); install it with "
        f"`pip install {package}` (or the '{EXTRA}' extra: `pip install -e \".[{EXTRA}]\"` from a clone)")


def _text_head(text: str) -> str:
    return repr(text[:40]) + ("..." if len(text) > 40 else "")


# ------------------------------------------------------------------------------------------ segmenters
class _Segmenter:
    """One segmenter: loaded at first use, thread-safe to load, with a per-text LRU cache."""

    name = ""

    def __init__(self) -> None:
        self._fn: Optional[Callable[[str], List[str]]] = None
        self._lock = threading.Lock()
        self._cache: "OrderedDict[str, Tuple[str, ...]]" = OrderedDict()

    def load(self) -> Callable[[str], List[str]]:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    @property
    def fn(self) -> Callable[[str], List[str]]:
        fn = self._fn
        if fn is None:
            with self._lock:
                if self._fn is None:
                    self._fn = self.load()
                fn = self._fn
        return fn

    def __call__(self, text: str) -> Tuple[str, ...]:
        """The segmenter's tokens of ``text`` (cached per unique text)."""
        cache = self._cache
        out = cache.get(text)
        if out is not None:
            try:
                cache.move_to_end(text)
            except KeyError:  # dropped by another thread meanwhile
                pass
            return out
        fn = self.fn
        try:
            out = tuple(fn(text))
        except SegmenterError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of a third-party segmenter is reported
            raise SegmenterError(
                f"tokenizer={self.name!r}: the segmenter failed on the text {_text_head(text)} "
                f"({type(exc).__name__}: {exc})") from exc
        cache[text] = out
        if len(cache) > CACHE_SIZE:
            try:
                cache.popitem(last=False)
            except KeyError:
                pass
        return out

    def clear_cache(self) -> None:
        self._cache.clear()


class JiebaSegmenter(_Segmenter):
    """``list(jieba.cut(text))`` of the installed jieba with its default dictionary (HMM on), computed by
    the native twin of jieba's cut when it can stand in for the installed jieba, else by jieba itself
    (``implementation`` says which after loading; ``ROUGE_METRIC_JIEBA`` chooses). A process that changed
    jieba's default tokenizer (user words, another dictionary, ...) is refused before each new text:
    :mod:`rouge_metric.jieba_native` says why, and what is checked."""

    name = "jieba"

    def __init__(self) -> None:
        super().__init__()
        self.implementation: Optional[str] = None  # "native" or "jieba", once loaded
        self._folder = ""
        self._known = False  # the installed jieba's sources are a version the native twin reproduces
        self._signature = ""
        self._pristine: Optional[Tuple[Any, ...]] = None  # jieba's state when last found unchanged

    def load(self) -> Callable[[str], List[str]]:
        from . import jieba_native as jn

        want = jn.mode()
        folder = jn.jieba_folder()
        if folder is None:
            raise _missing(self.name, "jieba", ModuleNotFoundError("No module named 'jieba'"))
        version = jn.source_version(folder)
        self._folder, self._known = folder, version is not None
        cut: Optional[Callable[[str], List[str]]] = None
        if want != "python":
            try:
                model, digest = jn.native_model(folder)
                cut, self.implementation, self._signature = model.cut, "native", f"jieba({version},dict={digest})"
            except jn.Unavailable as why:
                if want == "native":
                    raise SegmenterError(f"tokenizer='jieba': {jn.ENV_VAR}=native, but the native segmenter cannot "
                                         f"stand in for the installed jieba: {why}") from None
        if cut is None:
            cut = self._load_jieba(jn)
        self.check()
        check = self.check

        def segment(text: str) -> List[str]:
            check()
            return cut(text)  # type: ignore[misc]

        return segment

    def _load_jieba(self, jn: Any) -> Callable[[str], List[str]]:
        try:
            import jieba
        except ImportError as exc:
            raise _missing(self.name, "jieba", exc) from None
        import logging

        logging.getLogger("jieba").setLevel(logging.WARNING)  # "Loading model cost ..." on every start
        try:
            jieba.initialize()
            with open(os.path.join(self._folder, "dict.txt"), "rb") as fh:
                digest = jn.dictionary_digest(fh.read())
        except Exception as exc:  # noqa: BLE001
            raise SegmenterError(f"tokenizer='jieba': its dictionary could not be loaded ({exc})") from exc
        self.implementation, self._signature = "jieba", f"jieba({jieba.__version__},dict={digest})"
        cut = jieba.cut
        return lambda text: list(cut(text))

    def check(self) -> None:
        """Raise :class:`SegmenterError` when the process changed jieba's default tokenizer. O(1) when
        jieba's state is the one last checked (or jieba is not imported)."""
        jb = sys.modules.get("jieba")
        if jb is None:
            return
        from . import jieba_native as jn

        try:
            state: Optional[Tuple[Any, ...]] = jn.fingerprint(jb)
        except AttributeError:
            state = None
        if state is not None and state == self._pristine:
            return
        problem = jn.state_problem(jb, self._folder, self._known)
        if problem is not None:
            raise SegmenterError(
                f"tokenizer='jieba': jieba's default tokenizer was changed in this process: {problem}. This "
                f"segmenter is jieba with its dictionary as installed ({self._signature}); to segment with the "
                "changed jieba, give jieba.lcut as the tokenizer (rouge_metric.jieba_native explains)")
        self._pristine = state

    def describe(self) -> str:
        self.fn  # noqa: B018 - loading names the version and the dictionary
        self.check()
        return self._signature


class FugashiSegmenter(_Segmenter):
    """MeCab through fugashi with the installed UniDic (``unidic`` when its dictionary is downloaded,
    else ``unidic-lite``), as XL-Sum calls it: ``Tagger("-O wakati -b 50000")``."""

    name = "fugashi"

    def __init__(self) -> None:
        super().__init__()
        self._dict: Optional[str] = None

    def load(self) -> Callable[[str], List[str]]:
        try:
            from fugashi import Tagger
        except ImportError as exc:
            raise _missing(self.name, "fugashi", exc) from None
        try:
            tagger = Tagger("-O wakati -b 50000")
        except Exception as exc:  # noqa: BLE001 - fugashi raises RuntimeError without a dictionary
            raise SegmenterError(
                "tokenizer='fugashi': MeCab could not load a dictionary. Install one: `pip install unidic-lite` "
                "(included in the 'multilingual' extra), or `pip install unidic` and then `python -m unidic download`. "
                "fugashi prefers an installed `unidic` package over unidic-lite, so a `unidic` whose dictionary was "
                f"never downloaded also fails: download it or uninstall it ({type(exc).__name__}: "
                f"{str(exc).strip().splitlines()[0] if str(exc).strip() else ''})") from None
        self._dict = _dictionary_name(tagger)
        parse = tagger.parse
        return lambda text: parse(text).split()

    def describe(self) -> str:
        if self._dict is None:
            self.fn  # noqa: B018 - loading tells which dictionary is used
        return f"fugashi({package_version('fugashi')},dict={self._dict})"


def _dictionary_name(tagger: Any) -> str:
    """``unidic-lite-1.0.8`` / ``unidic-1.1.0`` / the file name: the dictionary MeCab loaded."""
    try:
        filename = tagger.dictionary_info[0]["filename"]
    except Exception:  # noqa: BLE001
        return "unknown"
    for package, dist in (("unidic_lite", "unidic-lite"), ("unidic", "unidic"), ("ipadic", "ipadic")):
        if f"/{package}/" in filename.replace("\\", "/"):
            return f"{dist}-{package_version(dist)}"
    return filename


class ThaiNewmmSegmenter(_Segmenter):
    name = "thai_newmm"

    def load(self) -> Callable[[str], List[str]]:
        try:
            from pythainlp.tokenize import word_tokenize
        except ImportError as exc:
            raise _missing(self.name, "pythainlp", exc) from None
        return lambda text: word_tokenize(text, engine="newmm")

    def describe(self) -> str:
        v = package_version("pythainlp")
        return f"pythainlp-newmm({v},dict=pythainlp-{v})"


# Burmese: the syllable rule of Ding, Utiyama and Sumita (ACM TALLIP 18(4), 2019), as XL-Sum applies it.
_ASAT = "\u103a"
_DOT_BELOW = "\u1037"
_VIRAMA = "\u1039"  # stacks the next consonant under this one
#: Dependent signs: they join the character before them.
_DEPENDENT = frozenset(
    [chr(c) for c in range(0x102B, 0x1033)] + [chr(c) for c in range(0x1036, 0x1039)]
    + [chr(c) for c in range(0x103B, 0x103F)] + [_ASAT])


def burmese_syllables(text: str) -> List[str]:
    """Burmese syllables by rule, O(len(text)):

    1. ZWNJ becomes a space, dot-below + asat is reordered to asat + dot-below, the text is lowercased and
       all whitespace is removed;
    2. each character starts a unit, and a dependent sign (vowel signs, medials, asat, ...) joins the unit
       before it;
    3. going left to right, a unit with an asat and fewer than 4 characters joins the unit before it (the
       unit before it as it then is: one emptied by the previous step is filled by this one instead);
    4. a virama standing alone joins the units on both sides.

    >>> burmese_syllables("မြန်မာ")
    ['မြန်', 'မာ']
    """
    text = text.replace("\u200c", " ").replace(_DOT_BELOW + _ASAT, _ASAT + _DOT_BELOW)
    chars = "".join(text.lower().strip().split())
    units: List[str] = []
    for ch in chars:
        if units and ch in _DEPENDENT:
            units[-1] += ch
        else:
            units.append(ch)
    for i in range(1, len(units)):
        u = units[i]
        if _ASAT in u and len(u) < 4:
            units[i - 1] += u
            units[i] = ""
    joined = " ".join(u for u in units if u)
    return joined.replace(" " + _VIRAMA + " ", _VIRAMA).split()


class BurmeseSegmenter(_Segmenter):
    name = "burmese_syllables"

    def load(self) -> Callable[[str], List[str]]:
        return burmese_syllables

    def describe(self) -> str:
        return "burmese_syllables(ding2019)"


_SEGMENTERS: Dict[str, _Segmenter] = {}
_CLASSES = {"jieba": JiebaSegmenter, "fugashi": FugashiSegmenter, "thai_newmm": ThaiNewmmSegmenter,
            "burmese_syllables": BurmeseSegmenter}


def raw_segmenter(name: str) -> _Segmenter:
    """The process-wide segmenter ``name`` (one of :data:`SEGMENTERS`): call it on a text for its raw,
    cached tokens; ``.describe()`` names it with version and dictionary; ``.fn`` loads it now (raising
    :class:`SegmenterMissing` / :class:`SegmenterError`)."""
    seg = _SEGMENTERS.get(name)
    if seg is None:
        cls = _CLASSES.get(name)
        if cls is None:
            raise ValueError(f"tokenizer: unknown segmenter {name!r}; allowed: {', '.join(map(repr, SEGMENTERS))}")
        seg = _SEGMENTERS[name] = cls()
    return seg


# ------------------------------------------------------------------------------- named tokenizers
def _is_word(token: str) -> bool:
    return any(c.isalnum() for c in token)


def words(name: str, text: str) -> List[str]:
    """The words of ``text`` by segmenter ``name``: lowercased, spaces and punctuation dropped.

    >>> words("burmese_syllables", "မြန်မာ စာ")
    ['မြန်', 'မာ', 'စာ']
    """
    return [t.lower() for t in raw_segmenter(name)(text) if _is_word(t)]


def tokenizer_function(name: str) -> Callable[[str, Any], List[str]]:
    """The named tokenizer ``func(text, stemmer)`` of segmenter ``name``, for the text pipeline."""
    seg = raw_segmenter(name)

    def tokenize(text: str, stemmer: Any = None) -> List[str]:
        toks = [t.lower() for t in seg(text) if _is_word(t)]
        return stemmer.stem_all(toks) if stemmer is not None else toks

    tokenize.__qualname__ = f"segment.{name}"
    return tokenize


def describe(name: str) -> str:
    """The signature name of segmenter ``name``: ``jieba(0.42.1,dict=sha256:7197c321)``. Loads the segmenter
    (raising a clear error when it is missing, or for jieba, when the process changed jieba)."""
    seg = raw_segmenter(name)
    seg.fn  # noqa: B018 - fail now, at configuration, when it is missing
    return seg.describe()


# ------------------------------------------------------------------------------------ character spans
def align(tokens: Sequence[str], text: str) -> List[Optional[Tuple[int, int]]]:
    """Where each of a segmenter's ``tokens`` is in ``text``, in order: ``(start, end)`` with
    ``text[start:end] == token``, or None for a token that is not there as written (a segmenter that
    reorders or joins characters across a space). A token is placed at its next occurrence when only
    whitespace, or no more characters than the unplaced tokens before it hold, lie between it and the
    previous token; otherwise it stays unplaced. O(len(text)) plus one scan per unplaced token.

    >>> align(["北京", "是", "首都"], "北京 是首都")
    [(0, 2), (3, 4), (4, 6)]
    """
    out: List[Optional[Tuple[int, int]]] = []
    pos = 0
    pending = 0  # characters of the unplaced tokens since the last placed one
    for t in tokens:
        at = text.find(t, pos) if t else -1
        if at >= 0 and len("".join(text[pos:at].split())) <= pending:
            out.append((at, at + len(t)))
            pos, pending = at + len(t), 0
        else:
            out.append(None)
            pending += len(t)
    return out


def token_spans(name: str, text: str) -> List[Tuple[str, Optional[int], Optional[int]]]:
    """The words of the named tokenizer ``name`` (:func:`words`) with their character spans in ``text``:
    ``(word, start, end)``, ``text[start:end].lower() == word``; ``(word, None, None)`` for a word that
    cannot be mapped back exactly (Burmese syllables after the segmenter's reordering).

    >>> token_spans("burmese_syllables", "မြန်မာ စာ")
    [('မြန်', 0, 4), ('မာ', 4, 6), ('စာ', 7, 9)]
    """
    raw = raw_segmenter(name)(text)
    out: List[Tuple[str, Optional[int], Optional[int]]] = []
    for t, where in zip(raw, align(raw, text)):
        if not _is_word(t):
            continue
        if where is not None and text[where[0]:where[1]].lower() == t.lower():
            out.append((t.lower(), where[0], where[1]))
        else:
            out.append((t.lower(), None, None))
    return out


__all__ = ["SEGMENTERS", "SegmenterError", "SegmenterMissing", "align", "burmese_syllables", "describe",
           "locate_failure", "located", "raw_segmenter", "token_spans", "tokenizer_function", "words"]
