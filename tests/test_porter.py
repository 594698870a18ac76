"""The native Porter stemmer (``_native.porter_stem``, used by the native vocabulary) against its oracle,
nltk's ``PorterStemmer()`` (the mode rouge-score builds), word for word; the version gate that falls
back to nltk; and end to end against rouge-score with ``use_stemmer=True`` on a cold vocabulary."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeScorer, core, text
from corpora import SHARED_CORPORA, corpus_available, corpus_tokens, load_corpus

pytestmark = pytest.mark.skipif(not core.native_available(), reason="native extension not built")
native = pytest.importorskip("rouge_metric._native") if core.native_available() else None
porter = pytest.importorskip("nltk.stem.porter")
NLTK = porter.PorterStemmer()

# nltk outside the checked range: the native Porter is not used, so comparing it would test nothing
# the package relies on (and could differ legitimately).
needs_checked_nltk = pytest.mark.skipif(not core.native_porter_checked(),
                                        reason="installed nltk is outside core.NATIVE_PORTER_NLTK")


def mismatches(words):
    return [(w, native.porter_stem(w), NLTK.stem(w)) for w in words if native.porter_stem(w) != NLTK.stem(w)]


# ---------------------------------------------------------------------------------- word for word
# Every suffix of every rule list of nltk's porter.py (steps 1a to 5b, the NLTK_EXTENSIONS rules) and the
# irregular forms; stems over letters that exercise the vowel/consonant rules ('y' after a vowel or a
# consonant, runs of 'y', double consonants, the l/s/z exceptions, w/x/y in cvc).
SUFFIXES = sorted(set(
    "sses ies ss s ied eed ed ing at bl iz "  # 1a, 1b (and the 1b fix-ups after "ed"/"ing")
    "y "  # 1c
    "ational tional enci anci izer bli abli alli entli eli ousli ization ation ator alism iveness fulness "
    "ousness aliti iviti biliti fulli logi "  # 2
    "icate ative alize iciti ical ful ness "  # 3
    "al ance ence er ic able ible ant ement ment ent ion sion tion ou ism ate iti ous ive ize "  # 4
    "e ll *d".split()))  # 5a, 5b, and the literal "*d" that step 1b's rule list also matches
IRREGULAR = ["sky", "skies", "dying", "lying", "tying", "news", "innings", "inning", "outings", "outing",
             "cannings", "canning", "howe", "proceed", "exceed", "succeed"]


def generated_words():
    letters = "aeyobltszwxn"
    stems = [""] + ["".join(p) for k in (1, 2, 3) for p in itertools.product(letters, repeat=k)]
    words = set(IRREGULAR)
    for s in stems:
        for suf in SUFFIXES:
            words.add(s + suf)
    # two suffixes (a step-2/3 suffix before an inflection), on fewer stems
    for s in stems[:200]:
        for a, b in itertools.product(SUFFIXES, ["s", "ed", "ing", "ly", "ness", "al", "e", "y"]):
            words.add(s + a + b)
    return sorted(words)


@pytest.mark.integration
@needs_checked_nltk
def test_generated_words_over_every_rule_and_suffix():
    words = generated_words()
    assert len(words) > 50000
    assert mismatches(words) == []
    # the rules do fire: most words change, and every step's suffix is removed somewhere
    assert sum(native.porter_stem(w) != w for w in words) > len(words) // 2


@needs_checked_nltk
def test_irregular_forms_case_and_short_words():
    words = IRREGULAR + [w.upper() for w in IRREGULAR] + [w.capitalize() for w in IRREGULAR]
    words += ["", "a", "is", "as", "Y", "yy", "yyy", "ay", "oy", "yay", "ies", "IES", "ied", "eed", "bed",
              "SSES", "Caresses", "PONIES", "tie", "ties", "died", "spied", "hopping", "hoping", "filing",
              "falling", "fizzed", "x*d", "ab*ding", "a-b", "U.S.", "don't", "3.14", "e-mail", "\x00abc\x00"]
    assert mismatches(words) == []


@pytest.mark.integration
@needs_checked_nltk
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", max_size=40))
def test_hypothesis_lowercase_alphanumeric(word):
    assert native.porter_stem(word) == NLTK.stem(word)


@pytest.mark.integration
@needs_checked_nltk
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=40))
def test_hypothesis_any_ascii(word):
    # the whitespace tokenizer keeps case and punctuation: uppercase, digits, symbols, control bytes
    assert native.porter_stem(word) == NLTK.stem(word)


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=20).filter(lambda w: any(ord(c) > 127 for c in w)))
def test_non_ascii_is_left_to_nltk(word):
    assert native.porter_stem(word) is None


@pytest.mark.integration
@needs_checked_nltk
def test_every_token_of_every_corpus():
    if not SHARED_CORPORA.is_dir() or not list(SHARED_CORPORA.glob("*.jsonl.gz")):
        pytest.skip("../shared/corpora is not present")
    toks, ws = corpus_tokens()
    assert len(toks) > 10000
    assert mismatches(toks) == []
    assert mismatches(ws) == []  # whitespace tokens: case, punctuation


# ------------------------------------------------------------------------------------ version gate
@pytest.mark.parametrize("version,used", [((3, 10, 4), True), ((3, 10), True), ((3, 9, 2), False), ((3, 11, 0), False),
                                          ((4, 0), False), (None, False)])
def test_native_porter_only_with_a_checked_nltk(monkeypatch, version, used):
    monkeypatch.setattr(core, "nltk_version", lambda: version)
    monkeypatch.setattr(core, "_VOCABS", {})
    assert core.native_porter_checked() is used
    assert core.native_vocab("default", "porter", text.get_stemmer("porter")).native_porter is used
    for other in ("perl_porter", "snowball:english", False):
        assert core.native_vocab("default", other, other and text.get_stemmer(other)).native_porter is False
    # either stemmer, the same numbers as the pure-Python pipeline (nltk)
    preds = ["The cats were running happily", "Generalizations of the relational operators"]
    refs = [["A cat runs happily"], ["generalized relations operate"]]
    got = Rouge(backend="native", use_stemmer=True).score_examples(predictions=preds, references=refs)
    assert got == Rouge(backend="python", use_stemmer=True).score_examples(predictions=preds, references=refs)


def test_nltk_version_is_nltks_own():
    import nltk

    assert core.nltk_version() == tuple(int(p) for p in nltk.__version__.split(".")[:2])


def test_ascii_words_never_call_the_python_stemmer(monkeypatch):
    """New words enter the vocabulary without Python: only non-ASCII tokens reach the Python stemmer."""
    if not core.native_porter_checked():
        pytest.skip("installed nltk is outside core.NATIVE_PORTER_NLTK")
    calls = []
    real = text.CachedStemmer.stem_token

    def counting(self, token):
        calls.append(token)
        return real(self, token)

    monkeypatch.setattr(text.CachedStemmer, "stem_token", counting)
    monkeypatch.setattr(core, "_VOCABS", {})
    preds = ["Running runners ran quickly through the généralisations", "Ünïcode wörds stay with nltk"]
    refs = [["the runner was running"], ["unicode words are stemmed"]]
    for tok in ("default", "whitespace"):
        for threads in (1, 2):
            monkeypatch.setattr(core, "_VOCABS", {})
            calls.clear()
            got = Rouge(backend="native", tokenizer=tok, use_stemmer=True, num_threads=threads).score_examples(
                predictions=preds, references=refs)
            assert all(not t.isascii() for t in calls), calls
            assert bool(calls) is (tok == "whitespace")
            calls.clear()
            assert got == Rouge(backend="python", tokenizer=tok, use_stemmer=True).score_examples(
                predictions=preds, references=refs)


# ---------------------------------------------------------------------- end to end against rouge-score
@pytest.mark.integration
@needs_checked_nltk
@pytest.mark.parametrize("name", ["cnndm_simcls_nl", "xsum_brio", "longbench_govreport"])
def test_cold_native_stemming_equals_rouge_score(monkeypatch, name):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    if not corpus_available(name):
        pytest.skip(f"../shared/corpora/{name}.jsonl.gz is not present")
    preds, refs = load_corpus(name, 30 if name == "longbench_govreport" else 300)
    targets = [r[0] for r in refs]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    oracle = rouge_scorer.RougeScorer(types, use_stemmer=True)
    expected = [oracle.score(t, p) for t, p in zip(targets, preds)]
    # RougeScorer.score one pair at a time (the single-pair path), from a cold vocabulary
    monkeypatch.setattr(core, "_VOCABS", {})
    ours = RougeScorer(types, use_stemmer=True, backend="native")
    assert core.native_vocab("default", "porter", text.get_stemmer("porter")).native_porter
    assert [ours.score(t, p) for t, p in zip(targets, preds)] == expected
    # the threaded batch, from a cold vocabulary
    for threads in (1, 2, 3):
        monkeypatch.setattr(core, "_VOCABS", {})
        got = Rouge(types, backend="native", use_stemmer=True, num_threads=threads).score_examples(
            predictions=preds, references=targets)
        for i, (g, e) in enumerate(zip(got, expected)):
            for t in types:
                assert tuple(g[t]) == tuple(e[t]), (name, threads, i, t)
