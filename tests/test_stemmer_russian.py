"""The russian Snowball twin against nltk's RussianStemmer: words built from every suffix of every list of the
stemmer (nltk keeps them in Latin transliteration; they are turned into Cyrillic by nltk's own
transliteration) after stems chosen for the regions RV and R2 and for the endings that need a preceding а/я;
the same words in capitals and with Latin letters mixed in (nltk transliterates only Cyrillic, so Latin
letters, including capital A, U, E and spellings like "i^a", take part in its regions and its final
transliteration back); every code point in one word; hypothesis strings over Cyrillic, the Latin letters of
the transliteration and other scripts. Everything goes through ``stemmer_oracle.assert_same``."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stemmer_oracle import assert_same, require_twin

NAME = "russian"
LISTS = ("perfective_gerund", "adjectival", "reflexive", "verb", "noun", "superlative", "derivational")

#: stems: no vowel, one vowel (RV empty or one letter), vowel-consonant pairs before R2, long stems, stems
#: ending in а/я (the group-1 endings need them), in ь/нн (step 4), and Latin spellings of the transliteration
STEMS = ("", "в", "ст", "а", "я", "о", "ба", "об", "бар", "стол", "знач", "прав", "красн", "сильн", "учител",
         "красив", "любов", "мост", "обрат", "дела", "гуля", "чита", "стоя", "дума", "сторон", "окон", "ann",
         "kaр", "Aр", "Uб", "Eк", "i^aр", "e`т", "shч", "hп")


def suffixes(latin: bool = False):
    """Every suffix of every list of nltk's RussianStemmer in Cyrillic (nltk's own transliteration of its
    Latin spellings), or as nltk spells them (``latin``)."""
    from nltk.stem.snowball import RussianStemmer

    back = RussianStemmer()._RussianStemmer__roman_to_cyrillic
    out = set()
    for name in LISTS:
        for spelling in getattr(RussianStemmer, f"_RussianStemmer__{name}_suffixes"):
            out.add(spelling if latin else back(spelling))
    return sorted(out)


def suffix_words(seed: int = 0, extra: int = 2000):
    sufs = suffixes()
    words = {stem + s for stem, s in itertools.product(STEMS, sufs)}
    words |= {stem + s for stem, s in itertools.product(("стол", "дела", "kaр", "Aр", "ann"), suffixes(latin=True))}
    # reflexive and derivational endings after other endings; the superlative before them
    words |= {stem + s + r for stem in ("стол", "дела") for s in sufs for r in ("ся", "сь", "ость", "ост")}
    words |= {stem + "ейш" + s for stem in ("", "нов", "сильн") for s in sufs}
    rng = random.Random(seed)
    pool = sorted(words)
    for _ in range(extra):  # capitals, ё, Latin letters and other scripts mixed in
        w = rng.choice(pool)
        k = rng.randint(0, len(w))
        w = w[:k] + rng.choice(["A", "U", "E", "a", "i^a", "i^u", "e`", "''", "'", "ё", "Ё", "h", "c", "x", "1",
                                "\u00e9", "\u0130", "€", "ß", "\u0301"]) + w[k:]
        words.add(w.upper() if rng.random() < 0.2 else w)
    return words


def test_twin_on_suffix_words():
    require_twin(NAME)
    assert assert_same(NAME, suffix_words()) > 15000


@pytest.mark.integration
def test_twin_on_many_suffix_words():
    require_twin(NAME)
    assert assert_same(NAME, suffix_words(seed=1, extra=200000)) > 200000


def test_twin_on_words_without_cyrillic():
    """A word with no code point above U+00FF is returned as given; one with any (Cyrillic or not) is
    transliterated back, so its Latin letters become Cyrillic, overlapping spellings as the original's chain
    of replacements leaves them ("t^shch": shch before t^s)."""
    require_twin(NAME)
    words = {"running", "Straße", "café", "naïve", "ÿ", "", "a", "i^a", "e`", "shch", "runnings€", "kh€", "t^s€",
             "''€", "h€", "ABBA€", "i^ushchii`€", "Ё", "ё", "ЁЖИК", "ёжиками",
             "t^shch€", "цhч", "цhщ", "t^sh€", "€", "i^i^u€", "e``€", "zhh€", "kkh€", "sshch€"}
    assert_same(NAME, words)


def test_twin_on_every_code_point():
    """nltk's transliteration of every code point (Cyrillic to Latin, then Latin back), in one word."""
    require_twin(NAME)
    every = "".join(map(chr, range(0x110000)))
    assert_same(NAME, ["i^a" + every + "ость"])


def test_twin_with_stopwords():
    """A stopword is returned as given (checked before anything else)."""
    require_twin(NAME)
    stop = ["и", "в", "книгами", "Книгами", "running"]
    assert_same(NAME, {"и", "в", "книгами", "Книгами", "КНИГАМИ", "книга", "running"}, stop)


_RUSSIAN = st.sampled_from(list("абвгдеёжзийклмнопрстуфхцчшщъыьэюя") * 3
                           + list("АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")
                           + list("aeiouyAUEkhstzcn^`'") + ["é", "€", "\u0301", "1", "-"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet=_RUSSIAN, min_size=0, max_size=18), min_size=1, max_size=30))
def test_twin_on_generated_russian_words(words):
    require_twin(NAME)
    assert_same(NAME, words)
