"""The hungarian Snowball twin against nltk's HungarianStemmer: words built from every suffix of every list of
the stemmer, alone and two in a row, after stems chosen for its region R1 (a word starting with a vowel: after
the first digraph's last letter, wherever that letter first occurs, else after the first consonant; starting
with a consonant: after the first vowel), double consonants and digraph-doubles before -al/-el and -á/-é
(steps 1 and 5), and both Hungarian ő/ű and the Latin-1 õ/û nltk uses in their place, in three casings;
every code point in one word; hypothesis strings over the alphabet. Everything goes through
``stemmer_oracle.assert_same``."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stemmer_oracle import assert_same, require_twin

NAME = "hungarian"
ALPHABET = "abcdefghijklmnopqrstuvwxyzáéíóöőúüűõû"
#: R1 after a digraph (and a digraph letter earlier in the word), after a first consonant, after a first vowel;
#: no vowel; one letter
STEMS = ("", "a", "b", "ab", "ba", "asz", "acsa", "egy", "agya", "olyan", "ezs", "ádzs", "isz", "ötty", "kert",
         "ház", "szék", "tő", "tõ", "fű", "fû", "kör", "alma", "eszt", "bkr", "ssz", "ütty", "gyalog", "szív")


def suffixes():
    from nltk.stem.snowball import HungarianStemmer

    out = set()
    for name, value in vars(HungarianStemmer).items():
        if name.endswith(("_suffixes", "_consonants", "_digraphs")):
            out |= set(value)
    return sorted(out)


def suffix_words():
    sufs = suffixes()
    from nltk.stem.snowball import HungarianStemmer

    doubles = HungarianStemmer._HungarianStemmer__double_consonants
    words = {stem + s for stem, s in itertools.product(STEMS, sufs)}
    words |= {stem + s + t for stem in ("kert", "a") for s, t in itertools.product(sufs, sufs[::5])}
    words |= {stem + d + e for stem in ("a", "ke", "b", "") for d in doubles for e in ("al", "el", "á", "é", "ál",
                                                                                       "ért", "ával", "ével")}
    return words | {w.upper() for w in words if len(w) < 6} | {w.capitalize() for w in words if len(w) < 6}


def test_twin_on_suffix_words():
    require_twin(NAME)
    assert assert_same(NAME, suffix_words()) > 15000


def test_twin_on_every_code_point():
    require_twin(NAME)
    every = "".join(map(chr, range(0x110000)))
    assert_same(NAME, ["a" + every + "okat"])


def test_twin_with_stopwords():
    require_twin(NAME)
    stop = ["a", "az", "egy", "házban"]
    assert_same(NAME, {"a", "A", "az", "Az", "egy", "házban", "Házban", "házakban", ""}, stop)


_HUNGARIAN = st.sampled_from(list(ALPHABET) * 2 + ["Á", "É", "Ő", "Ű", "İ", "ß", "'", "-", "1"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet=_HUNGARIAN, max_size=16), min_size=1, max_size=40))
def test_twin_on_generated_hungarian_words(words):
    require_twin(NAME)
    assert_same(NAME, words)
