"""Batch/corpus API: multi-reference modes, F options, aggregation, bootstrap, lengths, bad input."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeScorer, Score, compute, core
from strategies import references_lists, texts

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]


def f1(p, r):
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


@given(pred=texts(), refs=references_lists)
@settings(max_examples=150, deadline=None)
def test_multi_reference_modes_from_single_reference_scores(pred, refs):
    single = [Rouge(TYPES).score(prediction=pred, references=r) for r in refs]
    for mode in ("max", "mean", "best_recall"):
        got = Rouge(TYPES, multi_ref=mode).score(prediction=pred, references=refs)
        for t in TYPES:
            cands = [s[t] for s in single]
            if mode == "max":
                want = cands[int(np.argmax([c.fmeasure for c in cands]))]
                assert got[t] == want
            elif mode == "mean":
                for i in range(3):
                    assert got[t][i] == math.fsum(c[i] for c in cands) / len(cands)
            else:
                assert got[t] in cands


def test_pool_is_micro_average_over_references():
    pred = "a b c d"
    refs = ["a b", "c d e f g h"]
    got = Rouge(["rouge1"], multi_ref="pool").score(prediction=pred, references=refs)["rouge1"]
    # hits 2 + 2, reference unigrams 2 + 6, prediction unigrams counted once per reference: 4 + 4
    assert got.recall == 4 / 8 and got.precision == 4 / 8


def test_best_recall_keeps_first_reference_on_ties_and_ignores_precision():
    pred = "a b"
    refs = ["a b c", "a b z"]  # equal recall 2/3 -> the first is kept
    got = Rouge(["rouge1"], multi_ref="best_recall").score(prediction=pred, references=refs)["rouge1"]
    assert got == Rouge(["rouge1"]).score(prediction=pred, references=refs[0])["rouge1"]
    refs = ["a b", "a b c d e f g"]  # ref 1 has recall 1 -> chosen
    got = Rouge(["rouge1"], multi_ref="best_recall").score(prediction="a b c d e f g", references=refs)["rouge1"]
    assert got.recall == 1.0 and got.precision == 2 / 7


@given(p=st.integers(0, 20), r=st.integers(0, 20), h=st.integers(0, 20))
@settings(max_examples=200, deadline=None)
def test_beta_and_alpha(p, r, h):
    pred = " ".join(["x"] * min(h, p) + ["p%d" % i for i in range(max(p - h, 0))])
    ref = " ".join(["x"] * min(h, r) + ["r%d" % i for i in range(max(r - h, 0))])
    base = Rouge(["rouge1"]).score(prediction=pred, references=ref)["rouge1"]
    P, R = base.precision, base.recall
    assert base.fmeasure == f1(P, R)
    b2 = Rouge(["rouge1"], beta=2.0).score(prediction=pred, references=ref)["rouge1"]
    assert b2.fmeasure == (5 * P * R / (4 * P + R) if 4 * P + R > 0 else 0.0)
    a = Rouge(["rouge1"], alpha=0.2).score(prediction=pred, references=ref)["rouge1"]
    assert a.fmeasure == (P * R / (0.8 * P + 0.2 * R) if 0.8 * P + 0.2 * R > 0 else 0.0)
    assert Rouge(["rouge1"], alpha=1.0).score(prediction=pred, references=ref)["rouge1"].fmeasure == pytest.approx(P if R > 0 else 0.0)


@given(preds=st.lists(texts(max_words=15), min_size=1, max_size=12), data=st.data(), cut=st.integers(0, 12))
@settings(max_examples=60, deadline=None)
def test_corpus_mean_is_exact_and_streaming_merges_exactly(preds, data, cut):
    refs = [data.draw(references_lists) for _ in preds]
    rouge = Rouge(TYPES, use_stemmer=True)
    res = rouge.compute(predictions=preds, references=refs, return_per_example=True)
    for t in TYPES:
        for i in range(3):
            assert res.scores[t][i] == math.fsum(ex[t][i] for ex in res.per_example) / len(preds)
    a, b = rouge.accumulator(), rouge.accumulator()
    rouge.add_to(a, predictions=preds[:cut], references=refs[:cut])
    rouge.add_to(b, predictions=preds[cut:], references=refs[cut:])
    b.merge(a)  # order does not matter
    assert rouge.result(b).scores == res.scores


def test_lengths_reported():
    res = compute(predictions=["a b c", "d"], references=[["a", "b c d e"], "x y"], rouge_types=["rouge1"])
    assert res.pred_len == (3 + 1) / 2
    assert res.ref_len == ((1 + 4) / 2 + 2) / 2
    assert res.n == 2


def _slow_bootstrap(values, n_resamples, cl, seed):
    """Straightforward loop version of the documented procedure."""
    rng = np.random.default_rng(seed)
    n = len(values)
    means = []
    for _ in range(n_resamples):
        idx = rng.integers(0, n, size=(1, n))[0]
        means.append(sum(values[i] for i in idx) / n)
    d = (1 - cl) / 2
    return np.percentile(means, 100 * d), np.percentile(means, 100 * (1 - d))


def test_bootstrap_interval_definition():
    preds = ["the cat sat %d" % i for i in range(30)]
    refs = ["the cat %s sat" % ("on" * (i % 3)) for i in range(30)]
    rouge = Rouge(["rouge1", "rouge2"], aggregation="bootstrap", n_resamples=200, seed=11)
    res = rouge.compute(predictions=preds, references=refs, return_per_example=True)
    assert res.ci["rouge1"].mid == res.scores["rouge1"]
    assert res.confidence_level == 0.95
    # The first chunk of draws is shared by all types: type 0 values reproduce with a plain loop.
    # (our implementation draws blocks of resamples of N indices: the same stream as 1 x N draws)
    f = [ex["rouge1"].fmeasure for ex in res.per_example]
    lo, hi = _slow_bootstrap(f, 200, 0.95, 11)
    assert res.ci["rouge1"].low.fmeasure == pytest.approx(lo, abs=1e-12)
    assert res.ci["rouge1"].high.fmeasure == pytest.approx(hi, abs=1e-12)
    assert res.ci["rouge1"].low.fmeasure <= res.scores["rouge1"].fmeasure <= res.ci["rouge1"].high.fmeasure
    other = Rouge(["rouge1", "rouge2"], aggregation="bootstrap", n_resamples=200, seed=12).compute(
        predictions=preds, references=refs)
    assert other.ci != res.ci and other.scores == res.scores
    assert "agg:bootstrap(n=200,ci=0.95,seed=11)" in res.signature


def test_bootstrap_same_numbers_in_every_process():
    code = (
        "import json, rouge_metric as r;"
        "res = r.compute(predictions=['a b c %d' % i for i in range(40)], references=['a c %d b' % (i % 7) for i in range(40)],"
        " aggregation='bootstrap', seed=3, n_resamples=300);"
        "print(json.dumps(res.as_json()['ci']))"
    )
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=str(s))).stdout for s in (1, 2)}
    assert len(outs) == 1 and json.loads(outs.pop())


# ------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("preds,refs,exc,match", [
    (["a", "b"], ["a"], ValueError, r"same length: got 2 predictions and 1 references"),
    (["a", None], ["a", "b"], TypeError, r"predictions\[1\]: expected str, got None"),
    (["a", 3], ["a", "b"], TypeError, r"predictions\[1\]: expected str, got int"),
    (["a", "b"], ["a", None], TypeError, r"references\[1\]: expected str or list of str, got None"),
    (["a", "b"], ["a", []], ValueError, r"references\[1\]: empty list of references"),
    (["a", "b"], ["a", ["x", 5]], TypeError, r"references\[1\]\[1\]: expected str, got int"),
    ("a b", ["a b"], TypeError, r"predictions: expected a list of texts, got a single str"),
    (None, ["a"], TypeError, r"predictions: expected a list, got None"),
])
def test_bad_batch_input(preds, refs, exc, match):
    with pytest.raises(exc, match=match):
        compute(predictions=preds, references=refs)


def test_scorer_bad_input():
    s = RougeScorer(["rouge1"])
    with pytest.raises(TypeError, match="target"):
        s.score(None, "a")
    with pytest.raises(ValueError, match="targets.*empty list"):
        s.score_multi([], "a")


def test_empty_strings_score_zero():
    res = Rouge(TYPES).score(prediction="", references=["", "  "])
    assert all(v == Score(0.0, 0.0, 0.0) for v in res.values())
    res = compute(predictions=[""], references=[""], rouge_types=TYPES)
    assert res.scores["rouge1"] == Score(0.0, 0.0, 0.0)


def test_numpy_string_arrays_accepted():
    preds = np.array(["a b", "c"])
    refs = np.array([["a b", "x"], ["c", "y"]])
    res = compute(predictions=preds, references=refs, rouge_types=["rouge1"])
    assert res.scores["rouge1"].fmeasure == 1.0


def test_format_table_and_json():
    res = compute(predictions=["a b"], references=["a c"], rouge_types=["rouge1"], aggregation="bootstrap")
    table = res.format_table()
    assert "rouge1" in table and res.signature in table and "[" in table
    js = res.as_json()
    assert js["scores"]["rouge1"]["fmeasure"] == 0.5 and js["ci"]["rouge1"]["mid"]["fmeasure"] == 0.5
    assert res.to_dict(("precision", "recall", "fmeasure"), scale=100) == {
        "rouge1_precision": 50.0, "rouge1_recall": 50.0, "rouge1": 50.0}


# ------------------------------------------------------------------- newcomer edges
BACKENDS = ["python"] + (["native"] if core.native_available() else [])


@pytest.mark.parametrize("preds,refs,arg,got", [
    ({"the cat": 1}, ["the cat"], "predictions", "dict"),      # would score the dict's keys
    (["the cat"], {"the cat": 0}, "references", "dict"),
    ({"a b"}, ["a b"], "predictions", "set"),                  # unordered: no example order
    (5, [1], "predictions", "int"),
])
def test_containers_that_are_not_lists_are_refused(preds, refs, arg, got):
    for backend in BACKENDS:
        with pytest.raises(TypeError, match=rf"{arg}: expected a list \(one entry per example\), got (a )?{got}"):
            compute(predictions=preds, references=refs, backend=backend)


def test_an_empty_corpus_is_an_error_not_a_zero_score():
    for backend in BACKENDS:
        with pytest.raises(ValueError, match=r"predictions: no example was scored \(empty input\)"):
            compute(predictions=[], references=[], backend=backend)
        rouge = Rouge(["rouge1"], backend=backend)
        with pytest.raises(ValueError, match="no example was scored"):
            rouge.result(rouge.accumulator())


def test_rouge_scorer_takes_a_sentence_splitter():
    pred, target = "The cat sat. It was happy.", "It was happy. The cat sat down."
    got = RougeScorer(["rougeLsum"], sentence_splitter="offline").score(target, pred)
    want = Rouge(["rougeLsum"], sentence_splitter="offline").score(prediction=pred, references=[target])
    assert got == want
    # the oracle: rouge-score's rougeLsum on the same sentences joined by newlines
    from rouge_score import rouge_scorer

    from rouge_metric import split_sentences

    oracle = rouge_scorer.RougeScorer(["rougeLsum"]).score("\n".join(split_sentences(target)),
                                                           "\n".join(split_sentences(pred)))
    assert got["rougeLsum"] == tuple(oracle["rougeLsum"])
    assert got != RougeScorer(["rougeLsum"]).score(target, pred)  # newline splitting: one sentence each
    with pytest.raises(ValueError, match=r"split_summaries=True means sentence_splitter='nltk'"):
        RougeScorer(["rougeLsum"], split_summaries=True, sentence_splitter="offline")


def test_score_multi_without_a_list_of_targets():
    s = RougeScorer(["rouge1"])
    for bad, got in ((None, "None"), (3, "int"), ({"a": 1}, "dict")):
        with pytest.raises(TypeError, match=rf"targets: expected a list of str \(the references of the prediction\), got {got}"):
            s.score_multi(bad, "a")


@pytest.mark.parametrize("tokens,bad", [(["a", 1], "int 1 at position 1"), ([None], "NoneType None at position 0"),
                                        ([b"a"], "bytes b'a' at position 0")])
def test_custom_tokenizer_returning_non_strings_is_refused(tokens, bad):
    for backend in BACKENDS:
        with pytest.raises(TypeError, match=rf"tokenizer: a custom tokenizer must return a list of str, got {bad}"):
            compute(predictions=["x y"], references=["x y"], tokenizer=lambda text: tokens, backend=backend)
