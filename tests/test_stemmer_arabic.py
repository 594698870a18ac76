"""The arabic Snowball twin against nltk's ArabicStemmer: words built from every prefix and suffix of the
stemmer's lists around stems of one to six letters (its steps have length conditions from 3 to 6), with
harakat, tatweel, punctuation and hyphens mixed in (its pre-normalisation removes them) and hamza forms at
either end (its post-normalisation); every code point in one word (the removed set is nltk's regular
expressions' exactly); the flag ``suffixes_verb_step1_success``, which one nltk instance never resets,
carried the same way over many short sequences; hypothesis strings over Arabic letters and marks."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stemmer_oracle import assert_same, original_instance, require_twin

NAME = "arabic"
PREFIX = "_ArabicStemmer__"

#: stems of one to six letters, with hamza forms, ة, ى and letters that are also affixes (ب ك ل و ف س ت ن ي ا)
STEMS = ("", "ك", "در", "كتب", "درس", "علم", "قرأ", "سأل", "بيت", "مكتب", "أكل", "ؤلف", "سئل", "ملء", "استعمل",
         "تعليم", "مدرسة", "كبرى", "ولد", "فلس", "سلم", "نسي", "يلعب", "ءامن")


def affixes():
    """(prefixes, suffixes): every string of every list of nltk's ArabicStemmer (its checks, articles and
    prepositions count as prefixes, its conjugation lists and hamzat as suffixes); a list given as one string
    (nltk iterates over its letters) counts with its letters."""
    from nltk.stem.snowball import ArabicStemmer

    prefixes, suffixes = {""}, {""}
    for name, value in vars(ArabicStemmer).items():
        if not name.startswith(PREFIX) or not isinstance(value, (str, tuple)):
            continue
        items = {value, *value} if isinstance(value, str) else set(value)
        key = name[len(PREFIX):]
        if key.startswith(("prefix", "articles", "prepositions", "checks1")):
            prefixes |= items
        elif key.startswith(("suffix", "conjugation", "checks2", "last_hamzat")):
            suffixes |= items
    return sorted(prefixes), sorted(suffixes)


def affix_words(seed: int = 0, extra: int = 1500):
    prefixes, suffixes = affixes()
    words = {p + s + x for p, s, x in itertools.product(prefixes, STEMS[::2], suffixes)}
    words |= {p + s for p, s in itertools.product(prefixes, STEMS[1::2])}
    words |= {s + x for s, x in itertools.product(STEMS[1::2], suffixes)}
    rng = random.Random(seed)
    pool = sorted(words)
    marks = ["\u064b", "\u064e", "\u0650", "\u0651", "\u0652", "\u0653", "\u0640", "\u060c", "\u061b", "\u061f",
             "\u061e", "-", "a", "\u0622", "\u0623", "\u0624", "\u0625", "\u0626", "\u0649"]
    for _ in range(extra):
        w = rng.choice(pool)
        for _ in range(rng.randint(1, 3)):
            k = rng.randint(0, len(w))
            w = w[:k] + rng.choice(marks) + w[k:]
        words.add(w)
    return words


def test_twin_on_affix_words():
    require_twin(NAME)
    assert assert_same(NAME, affix_words()) > 10000


@pytest.mark.integration
def test_twin_on_many_affix_words():
    require_twin(NAME)
    assert assert_same(NAME, affix_words(seed=1, extra=150000)) > 150000


def test_twin_on_every_code_point():
    """The pre-normalisation removes what nltk's three regular expressions match, over every code point (nltk
    compiles them with the `regex` module; its classes include "-"): one word holding them all, between
    Arabic affixes."""
    require_twin(NAME)
    every = "".join(map(chr, range(0x110000)))
    assert_same(NAME, ["وال" + every + "ابين"])


def test_state_carries_over_as_in_one_nltk_instance():
    """Many short sequences, each through one twin and one new nltk instance: the flag flips at the first word
    that passes verb step 1, wherever it is, and changes the later words' stems the same way."""
    require_twin(NAME)
    from rouge_metric import _native

    rng = random.Random(0)
    pool = sorted(affix_words(extra=0))
    for _ in range(300):
        words = [rng.choice(pool) for _ in range(rng.randint(1, 8))]
        ref = original_instance(NAME)
        twin = _native.LanguageStemmer(NAME)
        assert twin.stem_many(words) == [ref.stem(w) for w in words], words
        assert twin.state == ref.suffixes_verb_step1_success


def test_state_can_be_set():
    require_twin(NAME)
    from rouge_metric import _native

    words = sorted(affix_words(extra=0))[::20]
    for flag in (False, True):
        ref = original_instance(NAME)
        twin = _native.LanguageStemmer(NAME)
        want = []
        for w in words:
            ref.suffixes_verb_step1_success = flag
            want.append(ref.stem(w))
        got = []
        for w in words:
            twin.state = flag
            got.append(twin.stem(w))
        assert got == want


def test_twin_with_stopwords():
    """Stopwords are looked up after the pre-normalisation and returned normalised."""
    require_twin(NAME)
    stop = ["في", "من", "كتابهما", "هذا"]
    assert_same(NAME, {"في", "فِي", "مـن", "كتابهما", "كِتابهما", "هذا-", "هذه", "كتاب"}, stop)


_ARABIC = st.sampled_from(list("ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأؤإئةى") * 2
                          + ["\u064b", "\u064f", "\u0651", "\u0640", "\u060c", "\u061f", "-", "a", "1", " "])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet=_ARABIC, min_size=0, max_size=12), min_size=1, max_size=30))
def test_twin_on_generated_arabic_words(words):
    require_twin(NAME)
    assert_same(NAME, words)
