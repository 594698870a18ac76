"""rouge_metric.rewards: the TRL reward function. Oracle: rouge-score on the same texts (and on ``w<id>``
texts for token ids), on both backends."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_metric import Rouge, RougeReward, core, rouge_reward
from strategies import texts

BACKENDS = ["python"] + (["native"] if core.native_available() else [])
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STATS = ["precision", "recall", "fmeasure"]

refs_or_none = st.one_of(st.none(), texts(), st.lists(texts(), min_size=1, max_size=3))


def rs_value(types_weights, stat, completion, refs, stem=False):
    """The oracle: rouge-score's score_multi (max F per type), the weighted sum of one statistic."""
    scorer = rouge_scorer.RougeScorer(list(types_weights), use_stemmer=stem)
    refs = [refs] if isinstance(refs, str) else refs
    s = scorer.score_multi(refs, completion)
    vals = [w * getattr(s[t], stat) for t, w in types_weights.items()]
    return vals[0] if len(vals) == 1 else math.fsum(vals)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("rouge_type, stat", [("rougeL", "fmeasure"), ("rouge1", "precision"),
                                              ("rouge2", "recall"), ("rougeLsum", "fmeasure")])
@SETTINGS
@given(data=st.data())
def test_text_rewards_equal_rouge_score(backend, rouge_type, stat, data):
    n = data.draw(st.integers(1, 8))
    completions = data.draw(st.lists(texts(), min_size=n, max_size=n))
    refs = data.draw(st.lists(refs_or_none, min_size=n, max_size=n))
    reward = rouge_reward(rouge_type, stat, backend=backend, num_threads=2)
    got = reward(prompts=["p"] * n, completions=completions, completion_ids=[[1]] * n, reference=refs)
    want = [None if r is None else rs_value({rouge_type: 1.0}, stat, c, r) for c, r in zip(completions, refs)]
    assert got == want


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(completions=st.lists(texts(), min_size=1, max_size=6), data=st.data())
def test_weighted_mix_with_stemming_equals_rouge_score(backend, completions, data):
    refs = [data.draw(st.lists(texts(), min_size=1, max_size=3)) for _ in completions]
    weights = {"rouge1": 0.2, "rouge2": 0.3, "rougeL": 0.5}
    reward = rouge_reward(weights, use_stemmer=True, backend=backend)
    got = reward(completions=completions, reference=refs)
    assert got == [rs_value(weights, "fmeasure", c, r, stem=True) for c, r in zip(completions, refs)]


def test_list_of_types_is_an_equal_weight_mean():
    r = rouge_reward(["rouge1", "rouge2"])
    assert r.weights == {"rouge1": 0.5, "rouge2": 0.5}
    got = r(completions=["the cat sat on it"], reference=["the cat sat"])
    assert got == [rs_value({"rouge1": 0.5, "rouge2": 0.5}, "fmeasure", "the cat sat on it", "the cat sat")]


def test_chat_completions_score_the_assistant_content():
    reward = rouge_reward("rouge1")
    chat = [
        [{"role": "assistant", "content": "the cat sat"}],
        [{"role": "tool", "content": "dog dog"}, {"role": "assistant", "content": "a dog"},
         {"role": "assistant", "content": [{"type": "text", "text": "ran home"}, {"type": "image"}]}],
        {"role": "assistant", "content": None},
    ]
    refs = ["the cat sat down", "a dog ran", "x"]
    got = reward(prompts=[[{"role": "user", "content": "hi"}]] * 3, completions=chat, reference=refs)
    contents = ["the cat sat", "a dog\nran home", ""]
    assert got == [rs_value({"rouge1": 1.0}, "fmeasure", c, r) for c, r in zip(contents, refs)]


def test_no_reference_gives_none_and_is_not_logged():
    logged = {}
    reward = rouge_reward("rouge1")
    got = reward(completions=["a b", "c", "d"], reference=[None, [], "c d"], log_metric=logged.__setitem__)
    assert got[:2] == [None, None] and got[2] == rs_value({"rouge1": 1.0}, "fmeasure", "c", "c d")
    assert logged["rouge/rouge1"] == got[2]  # the mean over the one example with a reference


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(completions=st.lists(texts(), min_size=1, max_size=8), data=st.data())
def test_log_metric_reports_mean_precision_recall_f(backend, completions, data):
    refs = [data.draw(texts()) for _ in completions]
    logged = []
    rouge_reward({"rouge1": 0.5, "rougeL": 0.5}, backend=backend)(
        completions=completions, reference=refs, log_metric=lambda k, v: logged.append((k, v)))
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    scores = [scorer.score(r, c) for c, r in zip(completions, refs)]
    want = [(f"rouge/{t}{'' if s == 'fmeasure' else '_' + s}",
             math.fsum(getattr(x[t], s) for x in scores) / len(scores)) for t in ("rouge1", "rougeL") for s in STATS]
    assert [k for k, _ in logged] == [k for k, _ in want]
    for (_, got), (_, exp) in zip(logged, want):
        assert got == pytest.approx(exp, rel=1e-15, abs=0)


def test_log_metrics_can_be_turned_off():
    logged = []
    rouge_reward(log_metrics=False)(completions=["a"], reference=["a"], log_metric=lambda k, v: logged.append(k))
    assert logged == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_ids_reward_scores_completion_ids(backend):
    from test_ids import as_text

    eos, pad = 1, 0
    reward = rouge_reward("rougeL", tokenizer="ids", ignore_ids=[pad, eos, -100], backend=backend)
    completion_ids = [[5, 6, 7, eos], [7, 7, 5], [6]]
    refs = [[5, 7, 6, eos, pad], [[7, 5], [5, 5, 7, 7]], None]
    got = reward(completions=["ignored"] * 3, completion_ids=completion_ids, reference_ids=None, reference=refs)
    want = [rs_value({"rougeL": 1.0}, "fmeasure", as_text(c, (pad, eos, -100), ()),
                     [as_text(r, (pad, eos, -100), ()) for r in (rs if isinstance(rs[0], list) else [rs])])
            for c, rs in zip(completion_ids[:2], refs[:2])]
    assert got == want + [None]
    assert "tok:ids" in reward.signature() and reward.uses_ids


def test_reward_is_named_for_trl_and_picklable():
    import pickle

    r = rouge_reward({"rouge1": 0.5, "rougeL": 0.5}, "recall")
    assert r.__name__ == "rouge1_rougeL_r"
    assert rouge_reward(name="summary").__name__ == "summary"
    back = pickle.loads(pickle.dumps(r))
    assert back(completions=["a b"], reference=["a"]) == r(completions=["a b"], reference=["a"])
    assert isinstance(r, RougeReward) and "rouge1: 0.5" in repr(r)


@pytest.mark.parametrize("kwargs, err, match", [
    (dict(rouge_type="rougeX"), ValueError, r"rouge_type: invalid rouge type 'rougeX'"),
    (dict(rouge_type={}), ValueError, r"rouge_type: must name at least one rouge type"),
    (dict(rouge_type={"rouge1": float("nan")}), ValueError, r"rouge_type: the weight of 'rouge1' must be a finite"),
    (dict(rouge_type=3), TypeError, r"rouge_type: expected a type name"),
    (dict(statistic="f1"), ValueError, r"statistic: invalid value 'f1'"),
    (dict(reference_column=None), TypeError, r"reference_column: expected a column name"),
    (dict(rouge_types=["rouge1"]), TypeError, r"rouge_types: spell it rouge_type here"),
    (dict(tokenizer="ids", use_stemmer=True), ValueError, r"use_stemmer: stemming needs words"),
])
def test_factory_errors(kwargs, err, match):
    with pytest.raises(err, match=match):
        rouge_reward(**kwargs)


def test_call_errors_name_the_column_and_index():
    reward = rouge_reward(reference_column="summary")
    with pytest.raises(KeyError, match=r"reference_column: no keyword argument 'summary'.*\['reference'\]"):
        reward(completions=["a"], reference=["a"], trainer_state=None)
    with pytest.raises(ValueError, match=r"completions and summary: expected one reference entry per completion"):
        reward(completions=["a", "b"], summary=["a"])
    with pytest.raises(TypeError, match=r"summary\[2\]\[0\]: expected str, got int"):
        reward(completions=["a", "b", "c"], summary=["a", None, [3]])
    with pytest.raises(TypeError, match=r"completions\[1\]\[0\]: expected a chat message dict"):
        reward(completions=["a", ["hi"]], summary=["a", "b"])
    with pytest.raises(TypeError, match=r"completion_ids\[1\]\[0\]: expected an integer token id, got str"):
        rouge_reward(tokenizer="ids")(completion_ids=[[1], ["x"]], reference=[[1], [2]])
    with pytest.raises(TypeError, match=r"completion_ids: expected a list, got None"):
        rouge_reward(tokenizer="ids")(completions=["a"], reference=[[1]])


TYPE_MIXES = [{"rougeL": 1.0}, {"rouge2": 1.0}, {"rougeLsum": 1.0}, {"rouge1": 0.25, "rouge2": 0.25, "rougeL": 0.5},
              {"rougeSU4": 0.3, "rougeW": 0.7}]


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(data=st.data())
def test_every_reward_equals_the_scorers_value(backend, data):
    """Oracle: Rouge.score_examples with the reward's own settings (the per-example Score dicts), on every
    completion of a group: all with references (no subset) or some without (None, []), strings or chats."""
    weights = data.draw(st.sampled_from(TYPE_MIXES))
    stat = data.draw(st.sampled_from(STATS))
    multi_ref = data.draw(st.sampled_from(["max", "mean", "pool", "best_recall"]))
    stem = data.draw(st.booleans())
    n = data.draw(st.integers(1, 12))
    completions = data.draw(st.lists(texts(), min_size=n, max_size=n))
    refs = data.draw(st.lists(st.one_of(texts(), st.lists(texts(), min_size=1, max_size=3)) if data.draw(st.booleans())
                              else st.one_of(st.none(), st.just([]), texts(), st.lists(texts(), max_size=3)),
                              min_size=n, max_size=n))
    chat = data.draw(st.booleans())
    given_completions = [[{"role": "assistant", "content": c}] for c in completions] if chat else completions
    reward = rouge_reward(weights, stat, backend=backend, multi_ref=multi_ref, use_stemmer=stem, num_threads=2)
    got = reward(completions=given_completions, reference=refs)
    scorer = Rouge(list(weights), backend=backend, multi_ref=multi_ref, use_stemmer=stem)
    has = [i for i, r in enumerate(refs) if r is not None and r != []]
    per = scorer.score_examples(predictions=[completions[i] for i in has], references=[refs[i] for i in has])
    want = [None] * n
    for i, scores in zip(has, per):
        vals = [w * getattr(scores[t], stat) for t, w in weights.items()]
        want[i] = vals[0] if len(vals) == 1 else math.fsum(vals)
    assert [None if v is None else v.hex() for v in got] == [None if v is None else v.hex() for v in want]


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(data=st.data())
def test_every_ids_reward_equals_the_scorers_value(backend, data):
    n = data.draw(st.integers(1, 10))
    ids = st.lists(st.integers(0, 6), max_size=30)
    completion_ids = data.draw(st.lists(ids, min_size=n, max_size=n))
    refs = data.draw(st.lists(st.one_of(st.none(), ids.filter(bool), st.lists(ids, min_size=1, max_size=3)),
                              min_size=n, max_size=n))
    opts = dict(tokenizer="ids", ignore_ids=[0], sentence_ids=[1], backend=backend)
    got = rouge_reward(["rouge1", "rougeLsum"], "recall", **opts)(completion_ids=completion_ids, reference=refs)
    has = [i for i, r in enumerate(refs) if r is not None]
    per = Rouge(["rouge1", "rougeLsum"], **opts).score_examples(
        predictions=[completion_ids[i] for i in has], references=[refs[i] for i in has])
    want = [None] * n
    for i, s in zip(has, per):
        want[i] = math.fsum([0.5 * s["rouge1"].recall, 0.5 * s["rougeLsum"].recall])
    assert got == want


def test_errors_name_the_group_index_when_every_completion_has_a_reference():
    with pytest.raises(TypeError, match=r"reference\[2\]\[0\]: expected str, got int"):
        rouge_reward()(completions=["a", "b", "c"], reference=["a", "b", [3]])
    with pytest.raises(TypeError, match=r"completions\[1\]: expected str, got int|completions\[1\]: expected a string"):
        rouge_reward()(completions=["a", 5], reference=["a", "b"])
