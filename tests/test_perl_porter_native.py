"""The native ROUGE-1.5.5 Porter (``_native.perl_porter_stem``, used by the native vocabulary with
``use_stemmer="perl_porter"``) against its oracle, :func:`rouge_metric.perl_porter.stem` (the Perl
script's regular expressions as they are), word for word; and end to end: a cold native batch with
``perl_porter`` equals the pure-Python backend and never calls the Python stemmer for [a-z0-9] words."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, core, perl_porter, text
from corpora import SHARED_CORPORA, corpus_tokens, generated_corpus

pytestmark = pytest.mark.skipif(not core.native_available(), reason="native extension not built")
native = pytest.importorskip("rouge_metric._native") if core.native_available() else None

WORD = re.compile(r"^[a-z0-9]{0,60}$")


def mismatches(words):
    out = []
    for w in words:
        got = native.perl_porter_stem(w)
        if WORD.match(w):
            if got != perl_porter.stem(w):
                out.append((w, got, perl_porter.stem(w)))
        elif got is not None:  # left to the Python twin
            out.append((w, got, None))
    return out


# Every suffix the script's rules name (steps 1a to 5, Lin's step-4 change), after stems whose letters
# exercise the measure expressions: y as vowel and consonant (initial y too), runs of consonants and
# vowels, w/x/y in cvc, the l/s/z exceptions of the double-consonant rule, digits.
SUFFIXES = sorted(set(
    "sses ies ss s eed ed ing at bl iz y "
    "ational tional enci anci izer bli alli entli eli ousli ization ation ator alism iveness fulness "
    "ousness aliti iviti biliti logi icate ative alize iciti ical ful ness "
    "al ance ence er ic able ible ant ement ment ent ion sion tion ou ism ate iti ous ive ize e ll".split()))


def generated_words():
    letters = "aeiyobltszwxn1"
    stems = [""] + ["".join(p) for k in (1, 2, 3) for p in itertools.product(letters, repeat=k)]
    words = set()
    for s in stems:
        for suf in SUFFIXES:
            words.add(s + suf)
            words.add("y" + s + suf)
    for s in stems[:250]:
        for a, b in itertools.product(SUFFIXES, ["s", "ed", "ing", "ly", "ness", "al", "e", "y", "ment", "ent"]):
            words.add(s + a + b)
    return sorted(words)


@pytest.mark.integration
def test_generated_words_over_every_suffix():
    words = generated_words()
    assert len(words) > 50000
    assert mismatches(words) == []


def test_known_stems_and_the_ones_it_leaves_to_python():
    assert [native.perl_porter_stem(w) for w in ["agreement", "government", "running", "ponies", "caresses",
                                                 "relational", "yelling", "ab", ""]] == \
        ["agreem", "govern", "run", "poni", "caress", "relat", "yell", "ab", ""]
    for w in ["Running", "naïve", "a-b", "x" * 61, "don't"]:
        assert native.perl_porter_stem(w) is None, w
    assert native.perl_porter_stem("x" * 60) == perl_porter.stem("x" * 60)


@pytest.mark.integration
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", max_size=40))
def test_hypothesis_lowercase_alphanumeric(word):
    assert mismatches([word]) == []


@pytest.mark.integration
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="aeiouyy" + "bcdlmnrstwxz" + "0", min_size=3, max_size=24))
def test_hypothesis_vowel_and_y_heavy(word):
    assert mismatches([word, "y" + word, word + "ement", word + "ies", word + "eed"]) == []


@pytest.mark.integration
def test_every_token_of_every_corpus():
    if not SHARED_CORPORA.is_dir() or not list(SHARED_CORPORA.glob("*.jsonl.gz")):
        pytest.skip("../shared/corpora is not present")
    toks = corpus_tokens()[0]
    assert len(toks) > 10000
    assert mismatches(sorted(toks)) == []


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("tokenizer", ["default", "whitespace"])
def test_cold_batch_with_perl_porter_equals_python_without_calling_it(monkeypatch, threads, tokenizer):
    preds, refs = generated_corpus(400, seed=31, vocab=5000)
    exp = Rouge(backend="python", tokenizer=tokenizer, use_stemmer="perl_porter").score_examples(
        predictions=preds, references=refs)
    core._VOCABS.clear()
    calls = []
    st_ = text.get_stemmer("perl_porter")
    monkeypatch.setattr(st_, "stem_token", lambda t, _f=st_.stem_token: calls.append(t) or _f(t))
    r = Rouge(backend="native", tokenizer=tokenizer, use_stemmer="perl_porter", num_threads=threads)
    assert core.native_vocab(tokenizer, "perl_porter", text.get_stemmer("perl_porter")).native_perl_porter
    assert r.score_examples(predictions=preds, references=refs) == exp
    assert r.score_examples(predictions=preds, references=refs) == exp  # warm
    assert all(not WORD.match(t) for t in calls), calls[:10]  # only tokens the native stemmer leaves
