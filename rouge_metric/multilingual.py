"""Beyond English: a Unicode tokenizer, Snowball stemmers and stopword lists.

rouge-score's tokenizer keeps only ``[a-z0-9]`` after lowercasing, so Chinese, Russian, Arabic or
Hindi text has no tokens and scores 0 (evaluate #256, #465). ``tokenizer="unicode"`` keeps the
letters, digits and combining marks of every script:

1. the text is NFKC-normalized and case-folded (``NFKC(casefold(NFKC(text)))``), so full-width
   forms, ligatures and case variants compare equal (``"ＡＢＣ"`` == ``"abc"``, ``"Straße"`` ==
   ``"strasse"``);
2. scripts written without spaces between words (Han, Hiragana, Katakana, Bopomofo, Thai, Lao,
   Khmer, Myanmar, Tai scripts, Yi) give one token per character, so Chinese and Japanese are scored
   per character as usual for them;
3. every other run of letters (Unicode categories L*), digits (Nd and other numbers that Python's
   ``str.isalnum`` accepts) and combining marks (M*) is one token: Devanagari vowel signs and viramas
   (Mn/Mc) stay inside their word, an accent stays on its letter;
4. everything else (punctuation, symbols, spaces, ``_``) separates tokens.

The character classes come from :mod:`unicodedata` of the running Python (its Unicode version is in
the signature: ``tok:unicode(ucd=15.0.0)``); they are built once, on first use (a few tens of ms).

Stemming beyond English uses nltk's Snowball stemmers (no nltk data needed):
``use_stemmer="snowball:spanish"``; :data:`SNOWBALL_LANGUAGES` is the allowed set. Stopword lists are
supplied by the user (``stopwords=`` a file path, one word per line, or an iterable of words) and are
named in the signature by a short hash and their size.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from typing import Any, Callable, Dict, Iterable, List, Optional, Pattern, Sequence, Tuple

#: Languages of nltk's Snowball stemmers (``nltk.stem.snowball.SnowballStemmer.languages`` without
#: ``porter``, which is the separate ``"porter"`` stemmer). Use them as ``use_stemmer="snowball:<language>"``.
SNOWBALL_LANGUAGES: Tuple[str, ...] = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian",
    "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish",
)

SNOWBALL_PREFIX = "snowball:"

#: Unicode blocks of the scripts written without spaces between words; their letters are scored one
#: character (plus its combining marks) per token.
NO_SPACE_BLOCKS: Tuple[Tuple[int, int, str], ...] = (
    (0x0E00, 0x0E7F, "Thai"),
    (0x0E80, 0x0EFF, "Lao"),
    (0x1000, 0x109F, "Myanmar"),
    (0x1780, 0x17FF, "Khmer"),
    (0x1950, 0x197F, "Tai Le"),
    (0x1980, 0x19DF, "New Tai Lue"),
    (0x19E0, 0x19FF, "Khmer Symbols"),
    (0x1A20, 0x1AAF, "Tai Tham"),
    (0x2E80, 0x2FDF, "CJK Radicals, Kangxi Radicals"),
    (0x3005, 0x3007, "CJK iteration and zero marks"),
    (0x3021, 0x3029, "Hangzhou numerals"),
    (0x3038, 0x303B, "CJK symbols (Han-like)"),
    (0x3040, 0x309F, "Hiragana"),
    (0x30A0, 0x30FF, "Katakana"),
    (0x3100, 0x312F, "Bopomofo"),
    (0x31A0, 0x31BF, "Bopomofo Extended"),
    (0x31F0, 0x31FF, "Katakana Phonetic Extensions"),
    (0x3400, 0x4DBF, "CJK Extension A"),
    (0x4E00, 0x9FFF, "CJK Unified Ideographs"),
    (0xA000, 0xA4CF, "Yi"),
    (0xA9E0, 0xA9FF, "Myanmar Extended-B"),
    (0xAA60, 0xAA7F, "Myanmar Extended-A"),
    (0xF900, 0xFAFF, "CJK Compatibility Ideographs"),
    (0xFF66, 0xFF9F, "Halfwidth Katakana"),
    (0x1B000, 0x1B16F, "Kana Supplement and Extended"),
    (0x20000, 0x3134F, "CJK Extensions B-G"),
)

# Code point ranges scanned for combining marks (everything assigned lives below 0x32000, plus the
# variation selectors supplement in plane 14).
_SCAN_RANGES = ((0, 0x32000), (0xE0000, 0xE1000))


def _char_class(codepoints: Iterable[int]) -> str:
    """A regex character-class body for a set of code points, as ranges (escaped)."""
    cps = sorted(set(codepoints))
    out: List[str] = []
    i = 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        a, b = cps[i], cps[j]
        out.append(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}")
        i = j + 1
    return "".join(out)


_TOKEN_RE: Optional[Pattern[str]] = None


def _token_re() -> Pattern[str]:
    """The Unicode token pattern, built once from :mod:`unicodedata` (O(size of Unicode) once)."""
    global _TOKEN_RE
    if _TOKEN_RE is None:
        cat = unicodedata.category
        no_space = {c for lo, hi, _ in NO_SPACE_BLOCKS for c in range(lo, hi + 1) if cat(chr(c))[0] == "L"}
        marks = []
        word = []  # letters and numbers (str.isalnum, i.e. re's \w without "_") outside no-space scripts
        for lo, hi in _SCAN_RANGES:
            for c in range(lo, hi):
                ch = chr(c)
                if cat(ch)[0] == "M":
                    marks.append(c)
                elif ch.isalnum() and c not in no_space:
                    word.append(c)
        m = _char_class(marks)
        # a no-space letter with its marks | a run of word characters and marks
        _TOKEN_RE = re.compile(f"[{_char_class(no_space)}][{m}]*|[{_char_class(word)}{m}]+")
    return _TOKEN_RE


_ASCII_TOKEN_RE = re.compile(r"[a-z0-9]+")


def normalize_unicode(text: str) -> str:
    """NFKC, case-folded, NFKC again (case folding can leave non-NFKC sequences).

    >>> normalize_unicode("ＡＢＣ Straße ﬁ")
    'abc strasse fi'
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def unicode_tokenize(text: str, stemmer: Any = None) -> List[str]:
    """Tokens of every script: NFKC + casefold, word runs with their combining marks, one token per
    character in scripts written without spaces; then ``stemmer.stem_all`` when a stemmer is given.
    O(len(text)).

    >>> unicode_tokenize("Привет, мир! Hello-World 3.14")
    ['привет', 'мир', 'hello', 'world', '3', '14']
    >>> unicode_tokenize("我爱北京。")
    ['我', '爱', '北', '京']
    >>> unicode_tokenize("नमस्ते दुनिया")  # vowel signs and virama stay in the word
    ['नमस्ते', 'दुनिया']
    >>> unicode_tokenize("ภาษาไทย")  # Thai: one token per character with its marks
    ['ภ', 'า', 'ษ', 'า', 'ไ', 'ท', 'ย']
    """
    if text.isascii():  # NFKC and casefold are lower() here, and the classes reduce to [a-z0-9]
        tokens = _ASCII_TOKEN_RE.findall(text.lower())
    else:
        tokens = _token_re().findall(normalize_unicode(text))
    return stemmer.stem_all(tokens) if stemmer is not None else tokens


# --------------------------------------------------------------------------------------- stemming
def snowball_language(name: str) -> Optional[str]:
    """``"snowball:spanish"`` -> ``"spanish"``; None for names without the prefix."""
    if name.startswith(SNOWBALL_PREFIX):
        return name[len(SNOWBALL_PREFIX):]
    return None


def snowball_stem_function(language: str) -> Callable[[str], str]:
    """nltk's Snowball stemmer for ``language`` (needs no nltk data), as a function str -> str (its C++ twin
    when the native core has it: :mod:`rouge_metric.stemmers`). Every word is stemmed as by a new instance:
    nltk's Arabic stemmer carries a flag from word to word, which would make a stem depend on the order in
    which words were first met."""
    if language not in SNOWBALL_LANGUAGES:
        raise ValueError(
            f"use_stemmer: unknown Snowball language {language!r}; allowed: "
            + ", ".join(SNOWBALL_PREFIX + lang for lang in SNOWBALL_LANGUAGES)
        )
    from .stemmers import snowball

    return snowball(language, history=False).stem


# -------------------------------------------------------------------------------------- stopwords
def read_setting_file(path: Any, arg: str, what: str, hint: str) -> List[str]:
    """The lines of a UTF-8 file named by a setting (stopwords, exception lists), or an error that
    names the argument, the file and what was expected."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")
    except OSError as exc:
        raise FileNotFoundError(f"{arg}: cannot read the {what} {path!r} ({exc.strerror or exc}); {hint}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{arg}: the {what} {path!r} is not UTF-8 ({exc.reason})") from None


def short_digest(items: Sequence[str]) -> str:
    """``<8 hex digits of sha256>(n=<count>)``: names a list setting in a signature.

    >>> short_digest(("a", "the"))
    '11a3ae8f(n=2)'
    """
    import hashlib  # here: its import (OpenSSL) is a tenth of the package's

    h = hashlib.sha256("\n".join(items).encode("utf-8")).hexdigest()[:8]
    return f"{h}(n={len(items)})"


def load_stopwords(spec: Any, arg: str = "stopwords") -> Tuple[str, ...]:
    """A stopword setting as a sorted tuple of unique words.

    ``spec`` is a path (``str`` or ``os.PathLike``) of a UTF-8 file with one word per line (surrounding
    whitespace stripped, empty lines ignored) or an iterable of words (each a non-empty str without
    whitespace at its ends). Errors name the argument and the offending index or line.
    """
    if isinstance(spec, (str, os.PathLike)):
        lines = read_setting_file(spec, arg, "stopword file",
                                  "give a path to a UTF-8 file with one word per line, or a list of words")
        words = [w.strip() for w in lines]
        return tuple(sorted({w for w in words if w}))
    if isinstance(spec, (bytes, bytearray)) or not hasattr(spec, "__iter__"):
        raise TypeError(
            f"{arg}: expected a file path or an iterable of words, got {type(spec).__name__}"
        )
    out = set()
    for i, w in enumerate(spec):
        if not isinstance(w, str):
            raise TypeError(f"{arg}[{i}]: expected str, got {type(w).__name__}")
        if not w or w != w.strip():
            raise ValueError(f"{arg}[{i}]: expected a non-empty word without surrounding whitespace, got {w!r}")
        out.add(w)
    return tuple(sorted(out))


def stopwords_digest(words: Tuple[str, ...]) -> str:
    """Names a stopword list in the signature (:func:`short_digest` of the sorted words)."""
    return short_digest(words)


def normalize_stopwords(words: Iterable[str], tokenize: Callable[[str], List[str]]) -> frozenset:
    """The stopword set as the tokenizer sees it: an entry that the tokenizer turns into exactly one
    token is replaced by that token (so ``"The"`` matches the token ``"the"``); an entry that becomes
    several tokens or none (``"don't"``) is kept as is and can only match a token equal to it."""
    out = set()
    for w in words:
        toks = tokenize(w)
        out.add(toks[0] if len(toks) == 1 else w)
    return frozenset(out)


def unicode_version() -> str:
    """The Unicode database version behind the ``unicode`` tokenizer."""
    return unicodedata.unidata_version


__all__ = [
    "NO_SPACE_BLOCKS",
    "SNOWBALL_LANGUAGES",
    "load_stopwords",
    "normalize_stopwords",
    "normalize_unicode",
    "snowball_language",
    "snowball_stem_function",
    "stopwords_digest",
    "unicode_tokenize",
    "unicode_version",
]
