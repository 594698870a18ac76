"""The language stemmers (rouge_metric.stemmers): every native twin against its original (nltk's Snowball
stemmers, the TurkishStemmer package) on real and generated words, with and without stopwords; nltk's
stopword lists read without nltk against nltk's own reader; which stemmer runs when.

Each language's own test file (tests/test_stemmer_<language>.py) adds words built from every suffix of every
rule of that language."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpora import SHARED_CORPORA
from stemmer_oracle import (NLTK_DATA, assert_same, corpus_words, env_with_nltk_data, native_names, original,
                            original_instance, require_twin, stopword_lists)
from rouge_metric import stemmers

NAMES = stemmers.SNOWBALL_NAMES + ("TurkishStemmer",)

#: nltk's stopword list of each Snowball language ("porter" has none; TurkishStemmer takes none)
STOPWORD_LANGUAGE = {n: n for n in stemmers.SNOWBALL_NAMES if n != "porter"}

needs_corpora = pytest.mark.skipif(not SHARED_CORPORA.is_dir(), reason="the test corpora are not present")
needs_stopwords = pytest.mark.skipif(not (NLTK_DATA / "corpora" / "stopwords").is_dir(),
                                     reason="nltk's stopwords corpus is not present in the test data")


# ------------------------------------------------------------------------------------ twins vs originals
@needs_corpora
@pytest.mark.parametrize("name", NAMES)
def test_twin_on_corpus_words_head(name):
    require_twin(name)
    assert assert_same(name, corpus_words(limit=40)) > 1000


@needs_corpora
@pytest.mark.integration
@pytest.mark.parametrize("name", NAMES)
def test_twin_on_every_corpus_word(name):
    require_twin(name)
    assert assert_same(name, corpus_words()) > 100000


@needs_stopwords
@pytest.mark.parametrize("name", NAMES)
def test_twin_on_stopword_lists(name):
    """Every word of every stopword list (real words of many languages, with their inflections), stemmed with
    no stopwords, and with the language's own list as stopwords (returned unchanged, as ignore_stopwords=True)."""
    require_twin(name)
    lists = stopword_lists()
    words = {w for ws in lists.values() for w in ws}
    words |= {w.upper() for w in words} | {w.capitalize() for w in words}
    assert_same(name, words)
    if name in STOPWORD_LANGUAGE:
        assert_same(name, words, lists[STOPWORD_LANGUAGE[name]])


_LETTERS = st.sampled_from(
    list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'-")
    + list("àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿœßğışÄÖÜÉÈÇİŞĞ")  # Latin with diacritics
    + list("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙ")  # Cyrillic
    + list("ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأؤإئةى\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652\u0640")  # Arabic
    + ["\u0130", "\u212a", "\u03a3", "\u1e9e", "\ufb01", "\u0345"])  # special casing
_WORDS = st.text(alphabet=_LETTERS, min_size=0, max_size=18) | st.text(min_size=0, max_size=12)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(_WORDS, min_size=1, max_size=30))
def test_twin_on_generated_words(name, words):
    require_twin(name)
    assert_same(name, words)


def test_twin_errors():
    if not native_names():
        pytest.skip("no native twin in this build")
    from rouge_metric import _native

    name = native_names()[0]
    twin = _native.LanguageStemmer(name)
    with pytest.raises(TypeError, match="word: expected str, got int"):
        twin.stem(3)
    with pytest.raises(TypeError, match=r"words\[1\]: expected str, got bytes"):
        twin.stem_many(["a", b"b"])
    with pytest.raises(TypeError, match=r"stopwords\[0\]: expected str"):
        _native.LanguageStemmer(name, [1])


def test_unknown_twin_names_what_the_build_has():
    pytest.importorskip("rouge_metric._native")
    from rouge_metric import _native

    with pytest.raises(ValueError, match="no native stemmer 'klingon' in this build; it has: "):
        _native.LanguageStemmer("klingon")


# ----------------------------------------------------------------------------------- which stemmer runs
@pytest.mark.parametrize("name", stemmers.SNOWBALL_NAMES)
def test_snowball_gives_the_originals_stems_whichever_runs(name):
    words = ["running", "Generations", "nationalité", "häuser", "книгами", "كتابات", "x", ""]
    for backend in ("python", None):
        stem = stemmers.snowball(name, backend=backend, history=False)
        assert [stem(w) for w in words] == [original(name)(w) for w in words]
        assert stem.stem_many(words) == [original(name)(w) for w in words]
        one = stemmers.snowball(name, backend=backend)  # one instance's stems, in order
        ref = original_instance(name)
        assert one.stem_many(words + words[::-1]) == [ref.stem(w) for w in words + words[::-1]]
        assert one.state == bool(getattr(ref, "suffixes_verb_step1_success", False))
    assert not stemmers.snowball(name, backend="python").native
    assert stemmers.snowball(name).native == (name in native_names() and stemmers.snowball_checked())


def test_arabic_state_carries_over_as_in_one_nltk_instance():
    """nltk's ArabicStemmer never resets suffixes_verb_step1_success: a word's stem depends on the words the
    instance stemmed before ("جشزو" alone, and after "كتبنا", whose verb suffix sets the flag)."""
    ref = original_instance("arabic")
    want = [ref.stem(w) for w in ("جشزو", "كتبنا", "جشزو")]
    assert want[0] != want[2]  # the quirk itself, in the installed nltk
    for backend in ("python", None):
        one = stemmers.snowball("arabic", backend=backend)
        assert [one("جشزو"), one("كتبنا"), one("جشزو")] == want
        assert one.state
        one.state = False
        assert one("جشزو") == want[0]
        fresh = stemmers.snowball("arabic", backend=backend, history=False)
        assert fresh.stem_many(["كتبنا", "جشزو"]) == [want[1], want[0]]


def test_snowball_unknown_language_names_the_allowed_set():
    with pytest.raises(ValueError, match="language: unknown Snowball language 'klingon'; allowed: arabic, danish"):
        stemmers.snowball("klingon")


def test_turkish_gives_the_packages_stems():
    pytest.importorskip("TurkishStemmer")
    words = ["kitaplarımızdan", "geliyorum", "evlerde", "İstanbul'da", "a", ""]
    for backend in ("python", None):
        assert stemmers.turkish(backend=backend).stem_many(words) == [original("TurkishStemmer")(w) for w in words]


# ------------------------------------------------------------------------------------ nltk's stopwords
_READ_CHILD = textwrap.dedent("""
    import json, sys
    from rouge_metric import stemmers
    langs = json.loads(sys.argv[1])
    ours = {l: list(stemmers.nltk_stopwords(l)) for l in langs}
    imported = "nltk" in sys.modules
    from nltk.corpus import stopwords
    theirs = {l: stopwords.words(l) for l in langs}
    print(json.dumps([ours == theirs, imported, [l for l in langs if ours[l] != theirs[l]]]))
""")


@needs_stopwords
def test_stopwords_read_without_nltk_equal_nltks(tmp_path):
    """In a fresh process (nltk not imported, NLTK_DATA set): the lists equal nltk's, and nltk was not imported
    to read them; the same from a zipped corpus (corpora/stopwords.zip, as nltk finds it)."""
    import json
    import shutil

    if not stemmers.snowball_checked():
        pytest.skip("the installed nltk is not one whose reader the stopword reader mirrors")
    langs = sorted(stopword_lists())
    out = subprocess.run([sys.executable, "-c", _READ_CHILD, json.dumps(langs)], env=env_with_nltk_data(),
                         capture_output=True, text=True, check=True)
    same, imported, differ = json.loads(out.stdout)
    assert same, differ
    assert not imported
    zipped = tmp_path / "data"
    (zipped / "corpora").mkdir(parents=True)
    shutil.make_archive(str(zipped / "corpora" / "stopwords"), "zip", NLTK_DATA / "corpora", "stopwords")
    env = env_with_nltk_data()
    env["NLTK_DATA"] = str(zipped)
    out = subprocess.run([sys.executable, "-c", _READ_CHILD, json.dumps(langs[:3])], env=env, capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout)[:2] == [True, False]


def test_stopwords_missing_corpus_is_a_lookup_error(tmp_path):
    code = ("from rouge_metric import stemmers\n"
            "try:\n    stemmers.nltk_stopwords('french')\nexcept LookupError as e:\n    print('LookupError', e)\n")
    env = env_with_nltk_data()
    env["NLTK_DATA"] = str(tmp_path)
    env["HOME"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if stemmers.snowball_checked() and "stopwords" in out.stdout and out.returncode == 0:
        assert "LookupError nltk's 'stopwords' corpus is not installed" in out.stdout
    else:  # a system-wide nltk_data on this machine has the corpus
        pytest.skip(f"a system folder has nltk's stopwords corpus: {out.stdout or out.stderr}")


def test_stopwords_follow_nltk_path_when_nltk_is_imported(tmp_path, monkeypatch):
    """A program that imported nltk and changed nltk.data.path gets the lists nltk would read."""
    if not stemmers.snowball_checked():
        pytest.skip("the installed nltk is not one whose reader the stopword reader mirrors")
    import nltk

    corpus = tmp_path / "corpora" / "stopwords"
    corpus.mkdir(parents=True)
    (corpus / "french").write_text("le\n\nla\r\n  \nles\u2028des\n", encoding="utf-8")
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)] + list(nltk.data.path))
    from nltk.corpus.reader import StopwordsCorpusReader

    want = StopwordsCorpusReader(str(corpus), r"(?!README|\.).*", encoding="utf8").words("french")
    assert list(stemmers.nltk_stopwords("french")) == want == ["le", "la", "les", "des"]
