"""The native twin of nltk's ``SnowballStemmer("porter")`` (nltk's ``PorterStemmer()``, NLTK_EXTENSIONS) on every
str, against nltk word for word (``stemmer_oracle.assert_same``); the ASCII Porter of the default pipeline
(``_native.porter_stem``, tests/test_porter.py) runs the same steps on bytes.

The words: every string literal of nltk's porter.py (each suffix of each rule list, the irregular forms) after
stems over ASCII letters and letters outside ASCII (which nltk's rules treat as consonants: "ß", "é", "ÿ"),
in the cases that matter to nltk's stem(): the irregular forms in capitals, words whose lowercase is longer
than the word ("İ" lowercases to two code points, and the length test looks at the word as given)."""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stemmer_oracle import assert_same, original, require_twin

porter_module = pytest.importorskip("nltk.stem.porter")


def literals():
    """Every string literal of nltk's PorterStemmer source of at most 8 characters without whitespace."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(porter_module.PorterStemmer)))
    found = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return sorted(s for s in found if 0 < len(s) <= 8 and not any(c.isspace() for c in s))


STEMS = ["", "y", "ay", "yy", "b", "ab", "ba", "bab", "abab", "tr", "trou", "ss", "ll", "ßß", "éb", "bé", "ÿ", "aÿ",
         "bÿb", "İ", "İb", "ab\u0307", "Σ", "ὈΔ"] + ["".join(p) for k in (3, 4) for p in itertools.product("ay", repeat=k)]


def built_words():
    lits = literals()
    words = {s + l for s in STEMS for l in lits}
    words |= {w.upper() for w in list(words)[::5]} | {w.capitalize() for w in list(words)[::5]}
    return sorted(words)


def test_every_literal_after_every_stem():
    require_twin("porter")
    words = built_words()
    assert len(words) > 5000
    assert_same("porter", words)
    stems = require_twin("porter").stem_many(words)  # the original's, as just checked
    assert sum(s != w.lower() for s, w in zip(stems, words)) > len(words) // 3


def test_length_is_the_words_own_and_case_is_python_lowercase():
    """A word of two code points whose lowercase has three ("İs" -> "i̇s") is returned lowercased, unstemmed;
    the irregular forms match after lowercasing."""
    require_twin("porter")
    words = ["İs", "İS", "Is", "İss", "İes", "ǅa", "SKIES", "Dying", "NEWS", "ΣΣ", "ΌΣΟΣ", "ﬁes", "ﬃes"]
    assert original("porter")("İs") == "i\u0307s"
    assert_same("porter", words)


def test_stopwords_are_ignored_as_by_nltk():
    """SnowballStemmer("porter").stem is PorterStemmer.stem: a stopword set, even when given, changes nothing."""
    require_twin("porter")
    words = ["running", "caresses", "the", "generalizations"]
    assert_same("porter", words, stopwords=words)
    from rouge_metric import _native

    assert _native.LanguageStemmer("porter", words).stem("running") == "run"


@pytest.mark.integration
def test_ascii_twin_equals_the_default_pipelines_porter():
    """The code-point steps and the byte steps (_native.porter_stem) give the same stems on ASCII words."""
    require_twin("porter")
    from rouge_metric import _native
    from test_porter import generated_words

    twin = _native.LanguageStemmer("porter")
    words = generated_words()
    assert twin.stem_many(words) == [_native.porter_stem(w) for w in words]


_LETTERS = list("abcdefghijklmnopqrstuvwxyzAEIOUY'-*") + list("ßéèÿüİıΣσς\u0307ﬁ")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.builds(lambda a, b: a + b, st.text(alphabet=_LETTERS, max_size=8),
                                st.lists(st.sampled_from(literals()), max_size=3).map("".join)),
                      min_size=1, max_size=40))
def test_hypothesis_words(words):
    require_twin("porter")
    assert_same("porter", words)


@pytest.mark.integration
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(max_size=16), min_size=1, max_size=40))
def test_hypothesis_any_text(words):
    require_twin("porter")
    assert_same("porter", words)
