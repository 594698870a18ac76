"""Harness recipes against each harness's own code (lm-eval, lighteval, MLflow, torchmetrics, the `rouge`
package, rouge-score's aggregator, evaluate 0.4.6 loading the Hub `rouge` script re-created as a local
module script) or, where it cannot be installed here, a re-creation on rouge-score (tests/oracles.py:
HELM). Floats compared with ==; numpy's global random state compared whole.

One file of about 500 lines, in the order of the package's modules: every recipe against its harness,
sharing the corpus helpers, the strategies and the skip-when-the-harness-is-missing pattern, and run as
one unit by tools/check_harnesses.py in the venv that holds the harnesses."""

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import harnesses as H
from rouge_metric import pltrdy_rouge

from corpora import corpus_available, load_corpus
from oracles import evaluate_load_for_mlflow, helm_reference_rouge, load_hub_rouge
from strategies import texts

BACKENDS = ["python", "native"]

answer_lists = st.lists(texts(max_words=12), min_size=1, max_size=4)
PUNCT = st.lists(st.sampled_from(["the", "cat", " . ", ".", "sat", " ", "  ", "mat.", "A", "\n", "..", "x y"]),
                 max_size=25).map("".join)


def _corpus(name, n):
    if not corpus_available(name):
        pytest.skip(f"../shared/corpora/{name} is absent")
    return load_corpus(name, n)


# ------------------------------------------------------------------------------ pltrdy `rouge` kernel
@settings(max_examples=300, deadline=None)
@given(h=st.one_of(texts(), PUNCT), r=st.one_of(texts(), PUNCT))
def test_pltrdy_kernel_matches_rouge_package(h, r):
    rouge = pytest.importorskip("rouge")
    try:
        want = rouge.Rouge().get_scores([h], [r], avg=True)
    except ValueError:
        with pytest.raises(pltrdy_rouge.EmptyTextError):
            pltrdy_rouge.scores(h, r)
        return
    assert pltrdy_rouge.scores(h, r) == want


def test_pltrdy_kernel_on_longbench_corpus():
    rouge = pytest.importorskip("rouge")
    preds, refs = _corpus("longbench_multinews", 25)
    for p, rs in zip(preds, refs):
        assert pltrdy_rouge.scores(p, rs[0]) == rouge.Rouge().get_scores([p], [rs[0]], avg=True)


def test_pltrdy_max_backtrack_gives_zero_like_a_recursion_error():
    long = " ".join(f"w{i}" for i in range(50))
    ok = H.longbench_rouge([long], [[long]])
    assert ok.scores["rouge_score"] > 0.99
    assert H.longbench_rouge([long], [[long]], max_backtrack=49).scores["rouge_score"] == 0.0
    assert "backtrack:49" in H.longbench_rouge([long], [[long]], max_backtrack=49).signature


# ------------------------------------------------------------- the package's recursion (LongBench's 0.0)
def _long(n, answer):
    """A prediction of ``n`` distinct words in one sentence and an answer whose backtrack against it takes
    ``n`` steps: ``"prefix"`` (its first 5 words: the deepest frames are matches at small indices) or
    ``"junk_last"`` (260 other words and the last word: the deepest frames compare (i, j) keys with
    i = 260, beyond Python's small-int cache)."""
    words = [f"w{i}" for i in range(n)]
    gold = words[:5] if answer == "prefix" else [f"j{i}" for i in range(260)] + [words[-1]]
    return " ".join(words), " ".join(gold)


def _at_depth(k, fn):
    """``fn()`` called ``k`` frames deeper than the caller's frame."""
    return _at_depth(k - 1, fn) if k else fn()


def _threshold(fails):
    """The smallest n in (100, recursion limit + 50] for which ``fails(n)``."""
    lo, hi = 100, sys.getrecursionlimit() + 50
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if fails(mid) else (mid, hi)
    return hi


@pytest.mark.parametrize("answer", ["prefix", "junk_last"])
@pytest.mark.parametrize("depth", [0, 45, 300])
def test_recursion_overflows_where_the_rouge_package_raises(depth, answer):
    """``recursion_overflows`` called in place of LongBench's ``rouge_score`` says True exactly where the
    real package raises RecursionError, at several stack depths."""
    rouge = pytest.importorskip("rouge")

    def longbench_rouge_score(prediction, ground_truth):  # tasks/longbench/metrics.py::rouge_score's frames
        try:
            rouge.Rouge().get_scores([prediction], [ground_truth], avg=True)
        except RecursionError:
            return True
        return False

    def package(n):
        return _at_depth(depth, lambda: longbench_rouge_score(*_long(n, answer)))

    def replay(n):  # the same frames above the call as package()
        return _at_depth(depth, lambda: pltrdy_rouge.recursion_overflows(*_long(n, answer)))

    n0 = _threshold(package)
    assert 500 < n0 < sys.getrecursionlimit()
    seen = set()
    for n in range(n0 - 4, n0 + 5):
        seen.add(package(n))
        assert replay(n) == package(n), n
    assert seen == {False, True}  # the window holds the last length that fits and the first that does not


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("depth", [0, 45, 300])
def test_longbench_recursion_limit_matches_lm_eval(language, depth):
    """Around the length where the package's recursion gives out, the recipe's default gives LongBench's
    number (0.0 beyond it) when called where ``get_rouge_score`` is called."""
    metrics = pytest.importorskip("lm_eval.tasks.longbench.metrics")
    fn, name = ((metrics.get_rouge_zh_score, "rouge_zh_score") if language == "zh"
                else (metrics.get_rouge_score, "rouge_score"))
    for answer in ("prefix", "junk_last"):
        def harness(n):
            p, a = _long(n, answer)
            return _at_depth(depth, lambda: fn({"answers": [a]}, [p]))

        def recipe(n):  # the same frames above the call as harness()
            p, a = _long(n, answer)
            return _at_depth(depth, lambda: H.longbench_rouge([p], [[a]], language=language))

        n0 = _threshold(lambda n: harness(n)[name] == 0.0)
        seen = set()
        for n in range(n0 - 4, n0 + 5):
            want = harness(n)
            seen.add(want[name] > 0.0)
            assert recipe(n).per_example == [want], (answer, n)
        assert seen == {False, True}  # the window holds the last length scored and the first scored 0.0


def test_longbench_1500_word_sentence():
    """The answer itself, one 1,500-word sentence: LongBench prints 0.0 (RecursionError), and so does the
    recipe; ``max_backtrack="unlimited"`` gives the package's value without a recursion limit."""
    rouge = pytest.importorskip("rouge")
    text = " ".join(f"w{i}" for i in range(1500))
    default = H.longbench_rouge([text], [[text]])
    assert default.scores == {"rouge_score": 0.0} and "backtrack:python-recursion" in default.signature
    metrics = pytest.importorskip("lm_eval.tasks.longbench.metrics")
    assert default.per_example == [metrics.get_rouge_score({"answers": [text]}, [text])]
    corrected = H.longbench_rouge([text], [[text]], max_backtrack="unlimited")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(5000)
    try:
        want = rouge.Rouge().get_scores([text], [text], avg=True)["rouge-l"]["f"]
    finally:
        sys.setrecursionlimit(limit)
    assert corrected.scores == {"rouge_score": want} and want == 0.999999995
    assert "backtrack:unlimited" in corrected.signature


# --------------------------------------------------------------------------- BootstrapAggregator
@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 300), seed=st.integers(0, 2**32 - 1), ci=st.sampled_from([0.95, 0.9, 0.5]),
       n_samples=st.sampled_from([1, 7, 1000]))
def test_recipes_aggregator_matches_rouge_score_aggregator(n, seed, ci, n_samples):
    """The aggregator the recipes use (the drop-in's), fed the core's Score rows as the recipes feed it."""
    from rouge_score import scoring

    from rouge_metric.result import Score
    from rouge_metric.rouge_score.scoring import BootstrapAggregator

    rng = np.random.default_rng(seed)
    rows = [{"a": scoring.Score(*rng.random(3)), "b": scoring.Score(*rng.random(3))} for _ in range(n)]
    np.random.seed(seed)
    agg = scoring.BootstrapAggregator(confidence_interval=ci, n_samples=n_samples)
    for r in rows:
        agg.add_scores(r)
    want = agg.aggregate()
    after = np.random.get_state()
    np.random.seed(seed)
    ours = BootstrapAggregator(confidence_interval=ci, n_samples=n_samples)
    for r in rows:
        ours.add_scores({t: Score(*map(float, r[t])) for t in ("a", "b")})
    got = ours.aggregate()
    for t in ("a", "b"):
        for bound in ("low", "mid", "high"):
            assert tuple(getattr(got[t], bound)) == tuple(map(float, getattr(want[t], bound)))
    state = np.random.get_state()
    assert (state[1] == after[1]).all() and state[2] == after[2]


# -------------------------------------------------------------------------- lm-evaluation-harness
def _truthfulqa_questions(n):
    preds, refs = _corpus("xsum_halluc", 4 * n)
    qs = []
    for i in range(n):
        sents = [s for s in refs[4 * i + 1][0].split(" ") if s]
        qs.append((preds[4 * i].replace(", ", " . ", 1),
                   [refs[4 * i][0][:80], preds[4 * i + 2][:60] + " . ok"],
                   [refs[4 * i + 3][0][:50], " ".join(sents[:5]), preds[4 * i + 1]]))
    return qs


@pytest.mark.parametrize("backend", BACKENDS)
def test_truthfulqa_gen_matches_lm_eval(backend, monkeypatch):
    utils = pytest.importorskip("lm_eval.tasks.truthfulqa.utils")
    monkeypatch.setattr(utils, "bleu", lambda refs, preds: 0.0)  # sacrebleu's time, not ROUGE's
    qs = _truthfulqa_questions(20)
    docs = []
    for _, t, f in qs:
        d = utils.preprocess_function({"question": "q", "correct_answers": t, "incorrect_answers": f})
        assert (d["correct_answers"], d["incorrect_answers"]) == H.truthfulqa_process_doc(t, f)
        docs.append(d)
    got = H.truthfulqa_gen([c for c, _, _ in qs], [d["correct_answers"] for d in docs],
                           [d["incorrect_answers"] for d in docs], backend=backend)
    state = np.random.get_state()
    want_rows = []
    for (c, _, _), d in zip(qs, docs):
        res = utils.process_results_gen(d, [c])
        want_rows.append({k: v for k, v in res.items() if k.startswith("rouge")})
    after = np.random.get_state()
    assert (state[1] == after[1]).all()  # one-pair aggregators draw nothing: no state to reproduce
    from lm_eval.api.metrics import mean

    assert got.per_example == want_rows
    assert got.scores == {k: mean([r[k] for r in want_rows]) for k in want_rows[0]}
    assert got.signature.startswith("recipe:lm_eval.truthfulqa_gen|harness:lm-eval==")


@settings(max_examples=25, deadline=None)
@given(c=texts(30), t=answer_lists, f=answer_lists)
def test_truthfulqa_gen_hypothesis(c, t, f):
    utils = pytest.importorskip("lm_eval.tasks.truthfulqa.utils")
    utils.bleu = lambda refs, preds: 0.0  # sacrebleu's time, not ROUGE's (the module is only used here)
    d = utils.preprocess_function({"question": "q", "correct_answers": t, "incorrect_answers": f})
    if not d["incorrect_answers"]:
        return
    want = {k: v for k, v in utils.process_results_gen(d, [c]).items() if k.startswith("rouge")}
    got = H.truthfulqa_gen([c], [d["correct_answers"]], [d["incorrect_answers"]])
    assert got.per_example == [want]


@pytest.mark.parametrize("backend", BACKENDS)
def test_cnn_dailymail_matches_lm_eval(backend, capsys):
    utils = pytest.importorskip("lm_eval.tasks.cnn_dailymail.utils")
    preds, refs = _corpus("cnndm_pgn_cov", 60)
    refs = [r[0] for r in refs]
    got = H.lm_eval_cnn_dailymail(preds, refs, backend=backend)
    want = []
    for p, r in zip(preds, refs):
        res = utils.process_results({"highlights": r}, [p])
        want.append({k: res[k] for k in ("rouge1", "rouge2", "rougeL")})
    from lm_eval.api.metrics import mean

    assert got.per_example == want
    assert got.scores == {k: mean([w[k] for w in want]) for k in ("rouge1", "rouge2", "rougeL")}


def test_longbench_matches_lm_eval():
    metrics = pytest.importorskip("lm_eval.tasks.longbench.metrics")  # needs rouge, jieba, fuzzywuzzy
    preds, refs = _corpus("longbench_govreport", 12)
    preds = [p[:1500] for p in preds] + ["", "...", "  . no  dots"]
    refs = [[r[0][:1500], r[0][:200]] for r in refs] + [["x"], ["a b"], ["..", "no dots"]]
    got = H.longbench_rouge(preds, refs)
    want = [metrics.get_rouge_score({"answers": a}, [p]) for p, a in zip(preds, refs)]
    assert got.per_example == want
    assert got.scores["rouge_score"] == sum(w["rouge_score"] for w in want) / len(want)


def test_longbench_zh_matches_lm_eval():
    metrics = pytest.importorskip("lm_eval.tasks.longbench.metrics")
    preds, refs = _corpus("longbench_vcsum_zh", 6)
    preds = [p[:300] for p in preds]
    refs = [[r[0][:300]] for r in refs]
    got = H.longbench_rouge(preds, refs, language="zh")
    want = [metrics.get_rouge_zh_score({"answers": a}, [p]) for p, a in zip(preds, refs)]
    assert got.per_example == want
    assert "seg:jieba" in got.signature


@settings(max_examples=60, deadline=None)
@given(p=st.one_of(texts(), PUNCT), answers=st.lists(st.one_of(texts(), PUNCT), min_size=1, max_size=3))
def test_longbench_hypothesis(p, answers):
    metrics = pytest.importorskip("lm_eval.tasks.longbench.metrics")
    assert H.longbench_rouge([p], [answers]).per_example == [metrics.get_rouge_score({"answers": answers}, [p])]


# ------------------------------------------------------------------------------------------ lighteval
def _lighteval():
    pytest.importorskip("lighteval")
    from lighteval.metrics.metrics import Metrics
    from lighteval.models.model_output import ModelResponse
    from lighteval.tasks.requests import Doc

    def sample(metric, preds, golds):
        doc = Doc(query="q", choices=list(golds), gold_index=list(range(len(golds))))
        return metric.sample_level_fn.compute(doc=doc, model_response=ModelResponse(text=list(preds)))

    return Metrics, sample


def _lighteval_samples(n):
    preds, refs = _corpus("xsum_brio", 3 * n)
    samples = []
    for i in range(n):
        k = 1 + i % 3  # 1..3 predictions: several pairs bootstrap on numpy's global generator
        samples.append(([preds[3 * i + j].replace(", ", " . ") for j in range(k)],
                        [refs[3 * i + j][0] for j in range(3)]))
    return samples


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_lighteval_rouge_t5_matches_lighteval(seed):
    Metrics, sample = _lighteval()
    samples = _lighteval_samples(30)
    np.random.seed(seed)
    want = [sample(Metrics.rouge_t5.value, p, g) for p, g in samples]
    after = np.random.get_state()
    np.random.seed(seed)
    got = H.lighteval_rouge_t5([p for p, _ in samples], [g for _, g in samples])
    assert got.per_example == want
    state = np.random.get_state()
    assert (state[1] == after[1]).all() and state[2] == after[2]
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert got.scores[t] == Metrics.rouge_t5.value.corpus_level_fn[t]([w[t] for w in want])


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
def test_lighteval_single_type_matches_lighteval(rouge_type):
    Metrics, sample = _lighteval()
    metric = getattr(Metrics, rouge_type).value
    samples = _lighteval_samples(30)
    want = [sample(metric, p, g) for p, g in samples]
    got = H.lighteval_rouge([p for p, _ in samples], [g for _, g in samples], rouge_type)
    assert [r[rouge_type] for r in got.per_example] == want
    assert got.scores[rouge_type] == metric.corpus_level_fn(want)


# ----------------------------------------------------------------------------------------------- HELM
@pytest.mark.parametrize("metric", ["rouge_1", "rouge_2", "rouge_l", "chinese_rouge_1", "chinese_rouge_2"])
def test_helm_matches_recreation(metric):
    if metric.startswith("chinese"):
        preds, refs = _corpus("longbench_vcsum_zh", 30)
        preds, refs = [p[:200] for p in preds], [r[0][:200] for r in refs]
    else:
        preds, refs = _corpus("squality", 30)
        refs = [r[0] for r in refs]
    comps = [[" " + p + "\n", "other"] for p in preds]
    golds = [[r, refs[(i + 1) % len(refs)]] for i, r in enumerate(refs)]
    mean, per = helm_reference_rouge(comps, golds, metric)
    got = H.helm_rouge(comps, golds, metric)
    assert [r[metric] for r in got.per_example] == per
    assert got.scores[metric] == mean


# ------------------------------------------------------------------------------ HF evaluate and MLflow
def _same_state(a, b):
    """Two ``np.random.get_state()`` tuples are the same state (key, position, cached Gaussian)."""
    return a[0] == b[0] and (a[1] == b[1]).all() and a[2:] == b[2:]


def _evaluate():
    pytest.importorskip("evaluate")
    pytest.importorskip("rouge_score")


@pytest.mark.integration
@pytest.mark.parametrize("seed", [0, 7, 2024])
@pytest.mark.parametrize("multi", [False, True])
def test_evaluate_rouge_matches_evaluate_load(seed, multi):
    """``evaluate.load(script, seed=s).compute(...)``: same floats, and the caller's state afterwards."""
    _evaluate()
    preds, refs = _corpus("cnndm_simcls_nl", 120)
    refs = [[r[0], preds[(i + 5) % len(preds)]] for i, r in enumerate(refs)] if multi else [r[0] for r in refs]
    np.random.seed(seed + 1)
    np.random.random_sample(seed % 5)  # the caller's state is anything, not the module's seed
    before = np.random.get_state()
    module = load_hub_rouge(seed=seed)
    want = module.compute(predictions=preds, references=refs, use_stemmer=True)
    after = np.random.get_state()
    assert _same_state(after, before)  # evaluate restores the caller's state
    got = H.evaluate_rouge(preds, refs, use_stemmer=True, seed=seed)
    assert got.scores == want
    assert _same_state(np.random.get_state(), after)
    assert f"evaluate-seed={seed}" in got.signature
    per = load_hub_rouge(seed=seed).compute(predictions=preds, references=refs, use_stemmer=True,
                                            use_aggregator=False)
    assert H.evaluate_rouge(preds, refs, use_stemmer=True, use_aggregator=False).per_example == [
        {t: per[t][i] for t in per} for i in range(len(preds))]
    assert _same_state(np.random.get_state(), after)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preds=st.lists(texts(25), min_size=1, max_size=6), data=st.data(), multi=st.booleans(),
       stem=st.booleans(), state_seed=st.integers(0, 2**32 - 1), draws=st.sampled_from([0, 1, 3, 311, 312, 700]),
       load_seed=st.one_of(st.none(), st.integers(0, 2**32 - 1)))
def test_evaluate_rouge_matches_evaluate_load_hypothesis(preds, data, multi, stem, state_seed, draws, load_seed):
    """Any inputs, any caller state (position 624 right after seeding, 0 after 312 draws, anywhere else),
    a seed at load or none (evaluate then draws it from the state): the values evaluate returns and
    numpy's state afterwards are the recipe's."""
    _evaluate()
    refs = [data.draw(st.lists(texts(25), min_size=1, max_size=3) if multi else texts(25)) for _ in preds]
    np.random.seed(state_seed)
    np.random.random_sample(draws)
    before = np.random.get_state()
    module = load_hub_rouge(seed=load_seed, keep_in_memory=True)
    want = module.compute(predictions=preds, references=refs, use_stemmer=stem)
    after = np.random.get_state()
    assert _same_state(after, before)
    np.random.set_state(before)
    got = H.evaluate_rouge(preds, refs, use_stemmer=stem, seed=load_seed)
    assert got.scores == want
    assert _same_state(np.random.get_state(), after)
    assert f"evaluate-seed={module.seed})|" in got.signature


def test_evaluate_rouge_of_a_module_loaded_earlier():
    """Draws between ``evaluate.load`` and ``compute`` do not change evaluate's number (the seed was taken
    at load): pass the module's ``seed``, or take :func:`evaluate_module_seed` when loading."""
    _evaluate()
    preds, refs = _corpus("xsum_brio", 40)
    refs = [r[0] for r in refs]
    np.random.seed(11)
    taken = H.evaluate_module_seed()
    module = load_hub_rouge()
    assert module.seed == taken == 11
    np.random.random_sample(17)
    want = module.compute(predictions=preds, references=refs)
    assert module.compute(predictions=preds, references=refs) == want  # same module, same number
    assert H.evaluate_rouge(preds, refs, seed=module.seed).scores == want
    assert H.evaluate_rouge(preds, refs, seed=taken).scores == want
    np.random.seed(11)  # the recipe without a seed stands for a module loaded right before the call
    assert H.evaluate_rouge(preds, refs).scores == want


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
def test_mlflow_matches_mlflow(rouge_type, monkeypatch):
    defs = pytest.importorskip("mlflow.metrics.metric_definitions")
    import pandas as pd

    monkeypatch.setattr(defs, "_cached_evaluate_load", evaluate_load_for_mlflow)
    preds, refs = _corpus("xsum_simcls", 80)
    refs = [r[0] for r in refs]
    fn = getattr(defs, f"_{rouge_type}_eval_fn")
    want = fn(pd.Series(preds), pd.Series(refs))
    got = H.mlflow_rouge(preds, refs, rouge_type)
    assert [r[rouge_type] for r in got.per_example] == list(want.scores)
    assert got.scores == {k: float(v) for k, v in want.aggregate_results.items()}


# ------------------------------------------------------------------------------------------ torchmetrics
@pytest.mark.integration
@pytest.mark.parametrize("accumulate", ["best", "avg"])
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_torchmetrics_matches_rougescore(accumulate, use_stemmer):
    pytest.importorskip("torchmetrics")
    from torchmetrics.text.rouge import ROUGEScore

    keys = ("rouge1", "rouge2", "rougeL")
    preds, refs = _corpus("squality", 40)
    target = [list(r) + [preds[(i + 1) % len(preds)][:100]] for i, r in enumerate(refs)]
    m = ROUGEScore(use_stemmer=use_stemmer, accumulate=accumulate, rouge_keys=keys)
    m.update(preds[:20], target[:20])
    m.update(preds[20:], target[20:])
    want = {k: float(v) for k, v in m.compute().items()}
    got = H.torchmetrics_rouge(preds, target, accumulate=accumulate, use_stemmer=use_stemmer, rouge_keys=keys)
    assert got.scores == want
    assert f"reduce:accumulate={accumulate},float32-mean|" in got.signature and "agg:" not in got.signature


@settings(max_examples=40, deadline=None)
@given(p=texts(), refs=st.lists(texts(), min_size=1, max_size=3), accumulate=st.sampled_from(["best", "avg"]))
def test_torchmetrics_hypothesis(p, refs, accumulate):
    pytest.importorskip("torchmetrics")
    from torchmetrics.functional.text.rouge import rouge_score

    keys = ("rouge1", "rouge2", "rougeL")
    want = {k: float(v) for k, v in rouge_score([p], [refs], accumulate=accumulate, rouge_keys=keys).items()}
    assert H.torchmetrics_rouge([p], [refs], accumulate=accumulate, rouge_keys=keys).scores == want


# ------------------------------------------------------------------------------------------ boundaries
def test_recipes_refuse_what_they_cannot_honour():
    with pytest.raises(ValueError, match="rouge_type: invalid value 'rougeW'"):
        H.helm_rouge([["a"]], [["a"]], "rougeW")
    with pytest.raises(ValueError, match="question 0: needs at least one correct and one incorrect"):
        H.truthfulqa_gen(["a"], [["a."]], [[]])
    with pytest.raises(TypeError, match=r"golds\[1\]: expected a list of str"):
        H.lighteval_rouge([["a"], ["b"]], [["a"], "b"], "rouge1")
    with pytest.raises(ValueError, match="language: invalid value 'de'"):
        H.longbench_rouge(["a"], [["a"]], language="de")
    with pytest.raises(ValueError, match="max_backtrack: invalid value 'none'; expected an int >= 0 or one of"):
        H.longbench_rouge(["a"], [["a"]], max_backtrack="none")
    with pytest.raises(TypeError, match=r"answers\[0\]: expected a list of str, got str"):
        H.longbench_rouge(["a"], ["a"])
    with pytest.raises(ValueError, match=r"seed: expected an int in \[0, 2\*\*32 - 1\] or None, got -1"):
        H.evaluate_rouge(["a"], ["a"], seed=-1)
    with pytest.raises(ValueError, match=r"rouge_types\[1\]: invalid value 'rougeW'"):
        H.evaluate_rouge(["a"], ["a"], rouge_types=["rouge1", "rougeW"])
    with pytest.raises(TypeError, match=r"targets\[0\]: expected str, got list"):
        H.mlflow_rouge(["a"], [["a"]], "rouge1")
    with pytest.raises(ValueError, match=r"rouge_keys\[0\]: invalid value 'rouge'"):
        H.torchmetrics_rouge(["a"], [["a"]], rouge_keys=("rouge",))
    with pytest.raises(TypeError, match=r"completions\[0\]: expected a list of str, got str"):
        H.helm_rouge(["a"], [["a"]], "rouge_1")
    with pytest.raises(ValueError, match=r"predictions\[0\]: expected at least 1 str, got 0 \(sample 0"):
        H.lighteval_rouge_t5([[]], [["a"]])
    with pytest.raises(ValueError, match="accumulate: invalid value 'max'"):
        H.torchmetrics_rouge(["a"], [["a"]], accumulate="max")
    with pytest.raises(ValueError, match="same length"):
        H.lm_eval_cnn_dailymail(["a", "b"], ["a"])
