"""The danish, norwegian and swedish Snowball twins against nltk's stemmers (their _ScandinavianStemmer family):
words built from every suffix of every list of each stemmer, alone and two in a row, after stems chosen for
the region R1 (no vowel; a vowel-consonant pair at the first two letters, where R1 is moved to the fourth
letter; later pairs; short words), every letter before a final "s" (the s-ending lists), double consonants
(Danish undoubling) and the languages' own letters, in three casings (the stemmers lowercase with
str.lower()); every code point in one word; hypothesis strings over each alphabet. Everything goes through
``stemmer_oracle.assert_same``."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stemmer_oracle import assert_same, require_twin

LANGUAGES = ("danish", "norwegian", "swedish")
ALPHABETS = {"danish": "abcdefghijklmnopqrstuvwxyzæøå", "norwegian": "abcdefghijklmnopqrstuvwxyzæøåéèêóòâô",
             "swedish": "abcdefghijklmnopqrstuvwxyzäåöé"}
#: stems for R1: none, R1 from the fourth letter (vowel-consonant at the start), later, empty (no pair)
STEMS = ("", "a", "b", "ab", "ba", "bk", "abc", "bab", "bakk", "strand", "hus", "fisk", "elsk", "kaf", "sko",
         "ørn", "åbn", "søst", "väg", "bøk", "lykk", "ii", "aab", "ykt", "trædd", "spring", "mønst", "kk")


def suffixes(language: str):
    """Every suffix of every list of nltk's stemmer for ``language``."""
    from nltk.stem.snowball import SnowballStemmer

    cls = type(SnowballStemmer(language).stemmer)
    out = set()
    for name, value in vars(cls).items():
        if name.endswith("_suffixes"):
            out |= set(value)
    return sorted(out)


def suffix_words(language: str):
    sufs = suffixes(language)
    letters = ALPHABETS[language]
    words = {stem + s for stem, s in itertools.product(STEMS, sufs)}
    words |= {stem + s + t for stem in ("hus", "ab", "strand") for s, t in itertools.product(sufs, sufs)}
    words |= {stem + c + "s" for stem in ("ab", "bab", "strand", "ak", "aak") for c in letters}  # s-endings
    words |= {stem + c + c + s for stem in ("ba", "stra") for c in letters for s in ("", "e", "er", "ig", "t")}
    words |= {stem + v + s for stem in ("b", "st", "") for v in letters for s in sufs[::3]}
    return words | {w.upper() for w in words if len(w) < 6} | {w.capitalize() for w in words if len(w) < 6}


@pytest.mark.parametrize("language", LANGUAGES)
def test_twin_on_suffix_words(language):
    require_twin(language)
    assert assert_same(language, suffix_words(language)) > 5000


@pytest.mark.parametrize("language", LANGUAGES)
def test_twin_on_every_code_point(language):
    """Python's lowercase of every code point (special casing included), in one word."""
    require_twin(language)
    every = "".join(map(chr, range(0x110000)))
    assert_same(language, [every + "hetens"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_twin_with_stopwords(language):
    """A stopword is looked up lowercased and returned lowercased."""
    require_twin(language)
    stop = ["och", "og", "det", "huset", "er"]
    assert_same(language, {"och", "OCH", "Og", "det", "huset", "Huset", "husets", "er", "erne"}, stop)


@pytest.mark.parametrize("language", LANGUAGES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_twin_on_generated_words(language, data):
    require_twin(language)
    letters = st.sampled_from(list(ALPHABETS[language]) + ["Æ", "Ø", "Å", "Ä", "Ö", "İ", "ß", "'", "-", "1"])
    assert_same(language, data.draw(st.lists(st.text(alphabet=letters, max_size=16), min_size=1, max_size=40)))
