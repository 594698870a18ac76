"""Backend agreement: the native backend gives exactly the numbers of the pure-Python backend (and of
rouge-score where it has the type), through every entry point, for every type and setting."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeScorer, backends, core, scoring
from strategies import WORDS, references_lists, texts

pytestmark = pytest.mark.skipif(not core.native_available(), reason="native extension not built")

ALL_TYPES = ["rouge1", "rouge2", "rouge5", "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeS4", "rougeSU",
             "rougeSU4", "rougeS0"]
RS_TYPES = ["rouge1", "rouge2", "rouge5", "rougeL", "rougeLsum"]
MODES = ["max", "mean", "pool", "best_recall"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_PAIRS = {}


def pair(**cfg):
    """(python Rouge, native Rouge) for one configuration (cached: scorers are reusable)."""
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in cfg.items()))
    if key not in _PAIRS:
        types = cfg.pop("rouge_types", ALL_TYPES)
        _PAIRS[key] = (Rouge(types, backend="python", **cfg), Rouge(types, backend="native", num_threads=2, **cfg))
    return _PAIRS[key]


@st.composite
def long_texts(draw):
    """Texts beyond one and beyond sixteen 64-bit words, with repeats and a few lines."""
    n = draw(st.sampled_from([65, 130, 1100]))
    words = draw(st.lists(st.sampled_from(WORDS[:12]), min_size=n, max_size=n))
    cut = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    for c in reversed(cut):
        words.insert(c, "\n")
    return " ".join(words)


def test_native_scorer_is_used():
    python, native = pair()
    assert native.native_pipeline and not python.native_pipeline
    assert "backend:native" in native.signature() and "backend:python" in python.signature()


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("mode", MODES)
@SETTINGS
@given(prediction=texts(), references=references_lists)
def test_score_identical_every_type_and_mode(stem, mode, prediction, references):
    python, native = pair(use_stemmer=stem, multi_ref=mode)
    assert native.score(prediction=prediction, references=references) == \
        python.score(prediction=prediction, references=references)


@pytest.mark.integration
@pytest.mark.parametrize("stem", [False, True])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prediction=long_texts(), reference=long_texts())
def test_long_texts_identical(stem, prediction, reference):
    python, native = pair(use_stemmer=stem)
    assert native.score(prediction=prediction, references=reference) == \
        python.score(prediction=prediction, references=reference)


@pytest.mark.parametrize("options", [
    {"alpha": 0.2}, {"alpha": 1.0}, {"beta": 2.0}, {"wlcs_weight": 1.5}, {"tokenizer": "whitespace"},
    {"tokenizer": "whitespace", "use_stemmer": True},
])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prediction=texts(), references=references_lists)
def test_options_identical(options, prediction, references):
    python, native = pair(multi_ref="mean", **options)
    assert native.score(prediction=prediction, references=references) == \
        python.score(prediction=prediction, references=references)


@pytest.mark.parametrize("stem", [False, True])
@SETTINGS
@given(target=texts(), prediction=texts(), targets=references_lists)
def test_rouge_scorer_matches_rouge_score(stem, target, prediction, targets):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    oracle = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=stem)
    mine = RougeScorer(RS_TYPES, use_stemmer=stem, backend="native")
    assert mine._rouge.native_pipeline
    assert mine.score(target, prediction) == oracle.score(target, prediction)
    assert mine.score_multi(targets, prediction) == oracle.score_multi(targets, prediction)


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.lists(st.tuples(texts(), references_lists), min_size=1, max_size=40))
def test_batch_paths_identical(mode, data):
    python, native = pair(use_stemmer=True, multi_ref=mode)
    preds = [p for p, _ in data]
    refs = [r if len(r) > 1 else r[0] for _, r in data]
    want = python.score_examples(predictions=preds, references=refs)
    assert native.score_examples(predictions=preds, references=refs) == want
    assert [native.score(prediction=p, references=r) for p, r in zip(preds, refs)] == want
    assert [s for s, _, _ in native.iter_scores(preds, refs)] == want
    assert [(a, b) for _, a, b in native.iter_scores(preds, refs)] == \
        [(a, b) for _, a, b in python.iter_scores(preds, refs)]
    a = python.compute(predictions=preds, references=refs, return_per_example=True)
    b = native.compute(predictions=preds, references=refs, return_per_example=True)
    assert (b.scores, b.n, b.pred_len, b.ref_len, b.per_example) == (a.scores, a.n, a.pred_len, a.ref_len,
                                                                     a.per_example)


def _corpus(n, seed=0):
    import random

    rnd = random.Random(seed)
    vocab = WORDS + ["w%d" % i for i in range(300)]
    def text():
        return "\n".join(" ".join(rnd.choice(vocab) for _ in range(rnd.randint(0, 25)))
                         for _ in range(rnd.randint(1, 4)))
    preds = [text() for _ in range(n)]
    refs = [[text() for _ in range(rnd.randint(1, 3))] for _ in range(n)]
    return preds, refs


def test_thread_count_and_chunking_do_not_change_numbers(monkeypatch):
    preds, refs = _corpus(700)
    python = Rouge(ALL_TYPES, use_stemmer=True, backend="python")
    want = python.compute(predictions=preds, references=refs, return_per_example=True)
    results = []
    for threads in (1, 2, 3):
        native = Rouge(ALL_TYPES, use_stemmer=True, backend="native", num_threads=threads)
        results.append(native.compute(predictions=preds, references=refs, return_per_example=True))
    monkeypatch.setattr(backends, "NATIVE_CHUNK", 97)  # many chunks merged into one accumulator
    results.append(Rouge(ALL_TYPES, use_stemmer=True, backend="native", num_threads=2)
                   .compute(predictions=preds, references=refs, return_per_example=True))
    for got in results:
        assert got.scores == want.scores
        assert (got.pred_len, got.ref_len, got.n) == (want.pred_len, want.ref_len, want.n)
        assert got.per_example == want.per_example
    # the corpus mean is the exact (correctly rounded) mean of the per-example values
    f = [ex["rougeLsum"].fmeasure for ex in want.per_example]
    assert want.scores["rougeLsum"].fmeasure == math.fsum(f) / len(f)


def test_bootstrap_identical():
    preds, refs = _corpus(120, seed=3)
    kw = dict(use_stemmer=True, aggregation="bootstrap", n_resamples=200, seed=7)
    a = Rouge(["rouge1", "rougeLsum", "rougeSU4"], backend="python", **kw).compute(predictions=preds, references=refs)
    b = Rouge(["rouge1", "rougeLsum", "rougeSU4"], backend="native", **kw).compute(predictions=preds, references=refs)
    assert a.ci == b.ci and a.scores == b.scores


def test_add_to_streams_into_one_accumulator():
    preds, refs = _corpus(300, seed=5)
    python, native = pair(use_stemmer=True)
    acc_p, acc_n = python.accumulator(), native.accumulator()
    for i in range(0, 300, 64):
        python.add_to(acc_p, predictions=preds[i:i + 64], references=refs[i:i + 64])
        native.add_to(acc_n, predictions=preds[i:i + 64], references=refs[i:i + 64])
    assert python.result(acc_p).scores == native.result(acc_n).scores


def test_unusual_input_containers_and_errors_match():
    python, native = pair()
    preds = ("a b c", "d e")  # tuples, numpy arrays etc. go through validate_batch
    refs = (["a b", "c"], ("d e",))
    assert native.score_examples(predictions=preds, references=refs) == \
        python.score_examples(predictions=preds, references=refs)
    np = pytest.importorskip("numpy")
    assert native.score_examples(predictions=np.array(["a b"]), references=[np.array(["a", "b"])]) == \
        python.score_examples(predictions=np.array(["a b"]), references=[np.array(["a", "b"])])
    for bad_preds, bad_refs in ((["a", None], ["a", "b"]), (["a", "b"], ["a", []]), (["a", "b"], ["a", ["x", 3]]),
                                (["a"], ["a", "b"]), ("a", ["a"])):
        with pytest.raises((TypeError, ValueError)) as e_py:
            python.compute(predictions=bad_preds, references=bad_refs)
        with pytest.raises(type(e_py.value)) as e_nat:
            native.compute(predictions=bad_preds, references=bad_refs)
        assert str(e_nat.value) == str(e_py.value)
    with pytest.raises(TypeError, match="prediction"):
        native.score(prediction=None, references="a")
    scorer = RougeScorer(["rouge1"], backend="native")
    with pytest.raises(TypeError, match="target"):
        scorer.score(["a list"], "a")


def test_custom_tokenizer_uses_native_kernels():
    class Tok:
        def tokenize(self, text):
            return text.split()

    python = Rouge(ALL_TYPES, tokenizer=Tok(), backend="python")
    native = Rouge(ALL_TYPES, tokenizer=Tok(), backend="native")
    assert not native.native_pipeline and native.kernels is core.kernels("native")
    p, r = "A b c a b\nc d", ["a b C d\nx a b", "b"]
    assert native.score(prediction=p, references=r) == python.score(prediction=p, references=r)


def test_pickle_round_trip():
    import pickle

    _, native = pair()
    clone = pickle.loads(pickle.dumps(native))
    assert clone.native_pipeline and clone.score(prediction="a b", references="a c") == \
        native.score(prediction="a b", references="a c")


# ------------------------------------------------------------------ the Python pipeline on the native id scorer
def _hexes(results):
    return [{t: tuple(x.hex() for x in s) for t, s in ex.items()} for ex in results]


class _Upper:
    """A custom tokenizer (called for every text, nothing cached)."""

    def tokenize(self, text):
        return [f"{w.upper()}/{len(w)}" for w in text.split()]


INTERNED_CONFIGS = [
    dict(tokenizer="unicode"),  # newline sentences of a line-separable tokenizer: one id sequence per text
    dict(tokenizer="unicode", stopwords=["the", "a"], use_stemmer=True),
    dict(tokenizer="perl"),
    dict(tokenizer="whitespace", sentence_splitter="offline"),  # another splitter: tokens and sentences apart
    dict(tokenizer=_Upper()),
    dict(tokenizer="unicode", sentence_splitter=lambda t: t.split(".")),  # a custom splitter: nothing cached
]


@pytest.mark.parametrize("cfg", range(len(INTERNED_CONFIGS)))
@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.lists(st.tuples(texts(), references_lists), min_size=1, max_size=30))
def test_python_pipeline_on_the_native_id_scorer_identical(cfg, mode, data):
    """Configurations the whole native pipeline does not take run their Python pipeline and score interned
    ids natively: every example, the corpus means and lengths, and the bootstrap, as the pure-Python backend;
    on 1 and 3 threads, twice (cached ids the second time)."""
    options = dict(INTERNED_CONFIGS[cfg], multi_ref=mode)
    preds = [p for p, _ in data]
    refs = [r if len(r) > 1 else r[0] for _, r in data]
    python = Rouge(ALL_TYPES, backend="python", **options)
    want = python.compute(predictions=preds, references=refs, return_per_example=True)
    for threads in (1, 3):
        native = Rouge(ALL_TYPES, backend="native", num_threads=threads, **options)
        for _ in range(2):
            got = native.compute(predictions=preds, references=refs, return_per_example=True)
            assert _hexes(got.per_example) == _hexes(want.per_example)
            assert (got.scores, got.n, got.pred_len, got.ref_len) == (want.scores, want.n, want.pred_len, want.ref_len)
        assert native.score_examples(predictions=preds, references=refs) == want.per_example
    boot = dict(aggregation="bootstrap", n_resamples=50, seed=3)
    a = Rouge(["rouge1", "rougeLsum", "rougeW"], backend="python", **options, **boot)
    b = Rouge(["rouge1", "rougeLsum", "rougeW"], backend="native", **options, **boot)
    ra, rb = a.compute(predictions=preds, references=refs), b.compute(predictions=preds, references=refs)
    assert (ra.ci, ra.scores) == (rb.ci, rb.scores)


def test_id_scorer_route_is_taken_and_its_cache_cleared():
    rouge = Rouge(["rouge1", "rougeLsum"], tokenizer="unicode", backend="native")
    assert not rouge.native_pipeline
    first = rouge.score_examples(predictions=["北京 天气\n很好"], references=["北京的天气"])
    rouge.clear_cache()
    assert rouge.score_examples(predictions=["北京 天气\n很好"], references=["北京的天气"]) == first
    assert first == Rouge(["rouge1", "rougeLsum"], tokenizer="unicode", backend="python").score_examples(
        predictions=["北京 天气\n很好"], references=["北京的天气"])
