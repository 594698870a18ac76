"""Bit-for-bit parity with Google's rouge-score 0.1.2 (the oracle, a test-only dependency)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeScorer, core
from strategies import one_line_texts, references_lists, texts

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge9", "rougeL", "rougeLsum"]
BACKENDS = ["python"] + (["native"] if core.native_available() else [])
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_ORACLES = {}


def oracle(stem: bool):
    if stem not in _ORACLES:
        _ORACLES[stem] = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    return _ORACLES[stem]


_OURS = {}


def ours(stem: bool, backend: str) -> RougeScorer:
    key = (stem, backend)
    if key not in _OURS:
        _OURS[key] = RougeScorer(TYPES, use_stemmer=stem, backend=backend)
    return _OURS[key]


FIXED = [
    ("", ""),
    ("", "the cat"),
    ("the cat", ""),
    ("   \t ", "\n\n"),
    ("İstanbul is big", "istanbul i̇s big"),
    ("\u212aelvin scale", "kelvin scale"),
    ("Café naïve résumé", "caf na ve r sum"),
    ("日本語のテキスト", "日本語のテキスト"),
    ("Москва большая", "Москва большая"),
    ("line one\r\nline two\r\n", "line one\nline two"),
    ("tabs\tand\ttabs", "tabs and tabs"),
    ("The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log."),
    ("a a a a\na a", "a\na\na"),
    ("b a\nb", "a b"),
    ("running runs ran generalization generously", "run running generalize generous"),
    ("U.S.A. state-of-the-art 3.14 don't", "usa state of the art 3 14 don t"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("target,prediction", FIXED)
def test_fixed_cases_identical(target, prediction, stem, backend):
    assert ours(stem, backend).score(target, prediction) == oracle(stem).score(target, prediction)


@pytest.mark.integration
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("stem", [False, True])
def test_very_long_text_identical(stem, backend):
    import random

    rng = random.Random(7)
    vocab = ["w%d" % i for i in range(300)] + ["running", "jumps", "the", "a"]
    t = " ".join(rng.choice(vocab) for _ in range(3000)).replace("w7 ", "w7.\n")
    p = " ".join(rng.choice(vocab) for _ in range(2500)).replace("w9 ", "w9.\n")
    assert ours(stem, backend).score(t, p) == oracle(stem).score(t, p)


@pytest.mark.parametrize("backend", BACKENDS)
@given(target=texts(), prediction=texts(), stem=st.booleans())
@SETTINGS
def test_random_texts_identical(backend, target, prediction, stem):
    got = ours(stem, backend).score(target, prediction)
    want = oracle(stem).score(target, prediction)
    assert got == want
    assert list(got) == list(want)  # same type order


@pytest.mark.parametrize("backend", BACKENDS)
@given(targets=references_lists, prediction=texts(), stem=st.booleans())
@SETTINGS
def test_score_multi_identical(backend, targets, prediction, stem):
    assert ours(stem, backend).score_multi(targets, prediction) == oracle(stem).score_multi(targets, prediction)


@pytest.mark.parametrize("backend", BACKENDS)
@given(target=texts(), prediction=texts())
@settings(max_examples=100, deadline=None)
def test_custom_tokenizer_identical(backend, target, prediction):
    class Tok:
        def tokenize(self, text):
            return text.split()

    mine = RougeScorer(TYPES, tokenizer=Tok(), backend=backend)
    theirs = rouge_scorer.RougeScorer(TYPES, tokenizer=Tok())
    assert mine.score(target, prediction) == theirs.score(target, prediction)


@pytest.mark.parametrize("backend", BACKENDS)
@given(target=texts(), prediction=texts(), rouge_type=st.sampled_from(TYPES))
@settings(max_examples=100, deadline=None)
def test_single_type_scorer_identical(backend, target, prediction, rouge_type):
    # rouge-score takes a different path when only rougeLsum is requested.
    mine = RougeScorer([rouge_type], backend=backend)
    theirs = rouge_scorer.RougeScorer([rouge_type])
    assert mine.score(target, prediction) == theirs.score(target, prediction)


@pytest.mark.parametrize("backend", BACKENDS)
@given(preds=st.lists(texts(max_words=20), min_size=1, max_size=5), data=st.data())
@settings(max_examples=60, deadline=None)
def test_batch_api_matches_score_multi(backend, preds, data):
    refs = [data.draw(references_lists) for _ in preds]
    rouge = Rouge(TYPES, use_stemmer=True, backend=backend)
    per_example = rouge.score_examples(predictions=preds, references=refs)
    o = oracle(True)
    for p, rs, got in zip(preds, refs, per_example):
        assert got == o.score_multi(rs, p)


@pytest.mark.parametrize("backend", BACKENDS)
@given(target=one_line_texts(), prediction=one_line_texts(), stem=st.booleans())
@SETTINGS
def test_one_sentence_pairs_identical(backend, target, prediction, stem):
    """rougeLsum of a pair of one sentence a side (the native core takes rougeL's LCS for it), alone
    and with rougeL."""
    assert ours(stem, backend).score(target, prediction) == oracle(stem).score(target, prediction)
    alone = RougeScorer(["rougeLsum"], use_stemmer=stem, backend=backend).score(target, prediction)
    assert alone == rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=stem).score(target, prediction)


@pytest.mark.parametrize("backend", BACKENDS)
@given(preds=st.lists(one_line_texts(), min_size=1, max_size=40), data=st.data())
@settings(max_examples=40, deadline=None)
def test_one_sentence_batches_match_score_multi(backend, preds, data):
    """The same through the batch on two threads, with one to three references of one sentence or more."""
    refs = [data.draw(st.lists(st.one_of(one_line_texts(), texts()), min_size=1, max_size=3)) for _ in preds]
    rouge = Rouge(TYPES, use_stemmer=True, backend=backend, num_threads=2)
    for p, rs, got in zip(preds, refs, rouge.score_examples(predictions=preds, references=refs)):
        assert got == oracle(True).score_multi(rs, p)


def test_hf_evaluate_multi_reference_example():
    """The multi-reference example of HF's rouge README, through our batch API (exact means)."""
    from rouge_metric import compute

    predictions = ["hello there", "general kenobi"]
    references = [["hello", "there"], ["general kenobi", "general yoda"]]
    o = oracle(False)
    res = compute(predictions=predictions, references=references)
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        want = sum(o.score_multi(r, p)[t].fmeasure for p, r in zip(predictions, references)) / 2
        assert res.scores[t].fmeasure == want


CORPORA = ["cnndm_simcls_nl", "xsum_brio", "pubmed_longeval", "squality", "mlsum_es", "de_cnndm_t5", "longbench_vcsum_zh"]


@pytest.mark.integration
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_real_corpus_sample_identical(shared_dir, corpus, backend):
    """Real system outputs (news, long, multi-reference, Spanish, German, Chinese): every pair identical."""
    import gzip
    import json

    path = shared_dir / "corpora" / f"{corpus}.jsonl.gz"
    if not path.exists():
        pytest.skip(f"{path} not found")
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i % 37 == 0:
                rows.append(json.loads(line))
            if len(rows) == 15:
                break
    for stem in (False, True):
        mine, theirs = ours(stem, backend), oracle(stem)
        for row in rows:
            refs, pred = row["references"], row["prediction"]
            assert mine.score_multi(refs, pred) == theirs.score_multi(refs, pred), row["id"]
