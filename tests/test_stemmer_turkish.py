"""The TurkishStemmer twin against the TurkishStemmer package (1.3): words built from every spelling of every
suffix of its three state machines, chained with linking letters after stems chosen for vowel harmony
(front/back, rounded/unrounded), final consonants b/c/d/ğ, one and two syllables and the package's own word
lists; every code point in one word; hypothesis strings over the Turkish alphabet with capitals and letters
outside it. Everything goes through ``stemmer_oracle.assert_same``."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stemmer_oracle import assert_same, require_twin

pytest.importorskip("TurkishStemmer")

NAME = "TurkishStemmer"
ALPHABET = "abcçdefgğhıijklmnoöprsştuüvyz"
LINKS = ("", "y", "n", "s", "ı", "i", "u", "ü")

#: stems for every harmony class of the last vowel (a ı o u / e i ö ü), closed and open syllables, the
#: final consonants the last-consonant rule hardens, one and two syllables, consonant clusters
STEMS = ("ev", "kitab", "kitap", "göz", "yol", "gül", "kız", "ağaç", "ağac", "çocuğ", "renk", "dost", "süt",
         "kap", "ad", "at", "ked", "su", "ne", "oda", "kedi", "ütü", "kuzu", "köprü", "ara", "bilgisayar",
         "öğrenci", "kalem", "okul", "masa", "anne", "baba", "ağır", "dağ", "yağ", "erkek", "sabah", "iç",
         "uç", "söz", "bak", "gel", "gör", "otur", "bul", "iste", "oku", "yaz", "çalış", "öğren", "s", "k")


def _suffix_spellings():
    """Every spelling of every suffix of the package's three machines (its NominalVerb, Noun and Derivational
    suffix tables), read from the installed package."""
    from TurkishStemmer.suffixes import DerivationalSuffix, NominalVerbSuffix, NounSuffix

    out = []
    for table in (NominalVerbSuffix, NounSuffix, DerivationalSuffix):
        for suffix in table.VALUES:
            out += suffix.pattern.pattern[1:-2].split("|")  # "(a|b|c)$"
    return sorted(set(out))


def _word_lists():
    from TurkishStemmer import DefaultSetHolder

    return (DefaultSetHolder.DEFAULT_PROTECTED_WORDS, DefaultSetHolder.DEFAULT_VOWEL_HARMONY_EXCEPTIONS,
            DefaultSetHolder.DEFAULT_LAST_CONSONANT_EXCEPTIONS,
            DefaultSetHolder.DEFAULT_AVERAGE_STEM_SIZE_EXCEPTIONS_FILE)


def suffix_words(seed: int = 0, chains: int = 3000):
    """Every stem (ours and the package's listed words) with every suffix spelling; some stems with every
    linking letter before every suffix spelling; random chains of two to four suffixes with linking letters."""
    spellings = _suffix_spellings()
    stems = set(STEMS).union(*_word_lists())
    words = set(stems)
    for stem, suffix in itertools.product(sorted(stems), spellings):
        words.add(stem + suffix)
    for stem, link, suffix in itertools.product(STEMS[::4], LINKS, spellings):
        words.add(stem + link + suffix)
    rng = random.Random(seed)
    pool = sorted(stems)
    for _ in range(chains):
        w = rng.choice(pool)
        for _ in range(rng.randint(2, 4)):
            w += rng.choice(LINKS) + rng.choice(spellings)
        words.add(w)
    return words


def test_twin_on_suffix_words():
    require_twin(NAME)
    assert assert_same(NAME, suffix_words()) > 20000


@pytest.mark.integration
def test_twin_on_many_suffix_chains():
    require_twin(NAME)
    assert assert_same(NAME, suffix_words(seed=1, chains=300000)) > 300000


def test_twin_on_words_outside_the_alphabet():
    """The original looks at the word as given: capitals, a circumflex, q/w/x or a digit keep it unstemmed."""
    require_twin(NAME)
    words = {w + x for w in ("kitaplar", "evlerimizden", "gözlükçü") for x in ("", "A", "İ", "I", "â", "q", "x", "1",
                                                                              "'", " ", "\n")}
    words |= {w.upper() for w in words} | {w.capitalize() for w in words} | {"", "a", "ab", "İstanbul'da"}
    assert_same(NAME, words)


def test_twin_on_every_code_point():
    require_twin(NAME)
    every = "".join(map(chr, range(0x110000)))
    assert_same(NAME, ["kitap" + every + "lar"])


_TURKISH = st.sampled_from(list(ALPHABET) + list(ALPHABET) + ["A", "I", "İ", "Ç", "â", "î", "q", "w", "x", "'", "1"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet=_TURKISH, min_size=0, max_size=16), min_size=1, max_size=40))
def test_twin_on_generated_turkish_words(words):
    require_twin(NAME)
    assert_same(NAME, words)


def test_original_keeps_no_state():
    """The twin has no state: the original's stem of a word does not depend on the words its instance stemmed
    before (one instance over a list equals a new instance per word)."""
    from TurkishStemmer import TurkishStemmer

    words = sorted(suffix_words(chains=200))[::7]
    one = TurkishStemmer()
    assert [one.stem(w) for w in words] == [TurkishStemmer().stem(w) for w in words]


def test_average_size_exceptions_never_compete():
    """Of the stems of one word, at most one can be in the package's average-stem-size exception list, which
    the twin relies on: two such stems would be ordered by the original's set iteration (string hashes). Every
    candidate stem is a prefix of the word with its last letter hardened, so two listed words a, b (a shorter)
    could only both be candidates if the hardened prefix of b of a's length were a."""
    from TurkishStemmer import TurkishStemmer

    last_consonant = TurkishStemmer().lastConsonant
    listed = _word_lists()[3]
    assert listed
    assert not [(a, b) for a in listed for b in listed if len(a) < len(b) and last_consonant(b[: len(a)]) == a]


def test_twin_reads_the_installed_word_lists():
    """Listed words behave as the package's lists say (protected words unstemmed, exceptions kept): the
    twin's lists are the package's."""
    require_twin(NAME)
    words = set().union(*_word_lists())
    words |= {w + s for w in words for s in ("ler", "lar", "de", "da", "imiz", "ı", "i")}
    assert_same(NAME, words)


def test_twin_takes_no_stopwords():
    pytest.importorskip("rouge_metric._native")
    from rouge_metric import _native

    require_twin(NAME)
    with pytest.raises(ValueError, match="stopwords: the TurkishStemmer takes none"):
        _native.LanguageStemmer(NAME, ["ve"])
    assert _native.LanguageStemmer(NAME).stopword_count == 0
