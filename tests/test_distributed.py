"""Exact states for many workers (rouge_metric.distributed, the fixed-point form of rouge_metric.aggregate).

Oracles: ``fractions.Fraction`` for the exact sum of floats, ``math.fsum`` for its correctly rounded value,
and one-process ``Rouge.compute`` for the corpus result of states merged in any order.
"""

import math
import pickle
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpora import generated_corpus
from rouge_metric import Rouge
from rouge_metric.aggregate import LIMBS, ExactSum, from_limbs, to_limbs
from rouge_metric.distributed import (STATE_LIMBS, STATE_N, PartialScorer, decode, encode, merge_states,
                                      result_from_state)
from strategies import references_lists, texts

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15)


@given(st.lists(finite, max_size=60))
def test_to_int_is_the_exact_sum_and_from_int_rounds_it_correctly(xs):
    es = ExactSum()
    for x in xs:
        es.add(x)
    scaled = es.to_int()
    assert Fraction(scaled, 1 << 1074) == sum(map(Fraction, xs))  # exact, Fraction oracle
    back = ExactSum.from_int(scaled)
    assert back.value == math.fsum(xs)  # correctly rounded
    assert back.to_int() == scaled
    assert from_limbs(to_limbs(scaled)) == scaled
    assert len(to_limbs(scaled)) == LIMBS


@given(st.lists(st.lists(finite, max_size=20), min_size=1, max_size=8))
def test_limbs_added_elementwise_add_the_sums(groups):
    """What an all-reduce does: elementwise int64 sums of limb arrays give the exact sum of everything."""
    limb_rows = []
    for g in groups:
        es = ExactSum()
        for x in g:
            es.add(x)
        limb_rows.append(to_limbs(es.to_int()))
    summed = np.asarray(limb_rows, dtype=np.int64).sum(axis=0)
    flat = [x for g in groups for x in g]
    assert ExactSum.from_int(from_limbs(summed.tolist())).value == math.fsum(flat)


def test_subnormals_and_out_of_range():
    for xs in ([5e-324, 5e-324, -1e-310], [1e-300, 1.0, -1.0], [2.0 ** 75, 2.0 ** 75 - 2.0 ** 23]):
        es = ExactSum()
        for x in xs:
            es.add(x)
        assert ExactSum.from_int(from_limbs(to_limbs(es.to_int()))).value == math.fsum(xs)
    big = ExactSum()
    big.add(2.0 ** 78)
    with pytest.raises(OverflowError, match="2\\*\\*77"):
        to_limbs(big.to_int())
    nan = ExactSum()
    nan.partials = [math.nan]
    with pytest.raises(ValueError, match="non-finite"):
        nan.to_int()


TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4")


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(texts(), references_lists), min_size=1, max_size=25), st.randoms(use_true_random=False),
       st.sampled_from(["max", "mean", "pool", "best_recall"]))
def test_states_merged_in_any_order_equal_one_process(rows, rnd, multi_ref):
    preds = [p for p, _ in rows]
    refs = [r for _, r in rows]
    scorer = PartialScorer(TYPES, multi_ref=multi_ref, use_stemmer=True)
    cuts = sorted(rnd.sample(range(1, len(rows)), rnd.randint(0, len(rows) - 1)))
    bounds = [0] + cuts + [len(rows)]
    states = [scorer({"prediction": preds[a:b], "references": refs[a:b]}) for a, b in zip(bounds, bounds[1:])]
    rnd.shuffle(states)
    got = result_from_state(scorer.rouge, merge_states(states))
    one = Rouge(TYPES, multi_ref=multi_ref, use_stemmer=True).compute(predictions=preds, references=refs)
    assert got.scores == one.scores
    assert (got.n, got.pred_len, got.ref_len, got.signature) == (one.n, one.pred_len, one.ref_len, one.signature)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_state_is_constant_size_and_backends_agree(backend):
    from rouge_metric import core

    if backend == "native" and not core.native_available():
        pytest.skip("native backend not built")
    preds, refs = generated_corpus(400, seed=2)
    scorer = PartialScorer(["rouge1", "rougeL"], backend=backend)
    small = scorer({"prediction": preds[:3], "references": refs[:3]})
    big = scorer({"prediction": preds, "references": refs})
    assert small[STATE_LIMBS].shape == big[STATE_LIMBS].shape == (1, (3 * 2 + 2) * LIMBS)
    assert big[STATE_N].tolist() == [400]
    one = Rouge(["rouge1", "rougeL"]).compute(predictions=preds, references=refs)
    assert result_from_state(scorer.rouge, merge_states([big])).scores == one.scores
    # pickled the way Ray and Spark ship it: the settings, rebuilt in the worker
    clone = pickle.loads(pickle.dumps(scorer))
    assert np.array_equal(clone({"prediction": preds, "references": refs})[STATE_LIMBS], big[STATE_LIMBS])


def test_batch_formats_pandas_arrow_numpy():
    import pandas as pd
    import pyarrow as pa

    preds, refs = generated_corpus(30, seed=4)
    scorer = PartialScorer(["rouge2"])
    ref = scorer({"prediction": preds, "references": refs})
    frame = pd.DataFrame({"prediction": preds, "references": refs})
    table = pa.table({"prediction": preds, "references": refs})
    numpy_batch = {"prediction": np.array(preds, dtype=object),
                   "references": np.array([np.array(r, dtype=object) for r in refs] + [None], dtype=object)[:-1]}
    for batch in (frame, table, numpy_batch):
        assert np.array_equal(scorer(batch)[STATE_LIMBS], ref[STATE_LIMBS])


def test_token_ids():
    rnd = random.Random(0)
    preds = [[rnd.randrange(50) for _ in range(rnd.randint(0, 30))] for _ in range(40)]
    refs = [[[rnd.randrange(50) for _ in range(rnd.randint(1, 30))]] for _ in range(40)]
    scorer = PartialScorer(["rouge1", "rougeL"], tokenizer="ids")
    state = merge_states([scorer({"prediction": preds[:17], "references": refs[:17]}),
                          scorer({"prediction": preds[17:], "references": refs[17:]})])
    one = Rouge(["rouge1", "rougeL"], tokenizer="ids").compute(predictions=preds, references=refs)
    assert result_from_state(scorer.rouge, state).scores == one.scores


def test_errors_name_the_argument():
    scorer = PartialScorer(["rouge1"])
    with pytest.raises(KeyError, match="prediction_column: column 'prediction' not found.*'summary'"):
        scorer({"summary": ["a"], "references": ["a"]})
    with pytest.raises(TypeError, match=r"references\[1\]: expected str or list of str, got int"):
        scorer({"prediction": ["a", "b"], "references": ["a", 3]})
    with pytest.raises(TypeError, match=r"prediction\[0\]: expected str, got None"):
        scorer({"prediction": [None], "references": ["a"]})
    with pytest.raises(ValueError, match="aggregation: 'bootstrap'"):
        PartialScorer(["rouge1"], aggregation="bootstrap")
    with pytest.raises(TypeError, match="prediction_column"):
        PartialScorer(["rouge1"], prediction_column="")
    with pytest.raises(ValueError, match="limbs: expected 180 values"):
        decode(["rouge1"], 1, [0] * 10)
    with pytest.raises(ValueError, match="no state"):
        merge_states([])


def test_encode_decode_roundtrip_keeps_the_accumulator():
    preds, refs = generated_corpus(50, seed=9)
    rouge = Rouge(["rouge1", "rougeLsum"])
    acc = rouge.accumulator()
    rouge.add_to(acc, predictions=preds, references=refs)
    n, limbs = encode(acc)
    back = decode(rouge.rouge_types, n, limbs)
    assert back.means() == acc.means() and back.mean_lengths() == acc.mean_lengths() and back.n == acc.n


def test_docs_spark_recipe_partition_function(repo_dir):
    """The pandas function of docs/scale.md's Spark recipe, called the way mapInPandas calls it (an
    iterator of DataFrames), then merged: equal to one process. Spark itself needs Java, absent in CI."""
    import re

    import pandas as pd

    text = (repo_dir / "docs" / "scale.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "def score_partition" in b)
    globs: dict = {}
    exec(compile(block, "docs/scale.md", "exec"), globs)
    preds, refs = generated_corpus(90, seed=6)
    frames = [pd.DataFrame({"prediction": preds[a:b], "references": refs[a:b]}) for a, b in ((0, 40), (40, 90))]
    rows = pd.concat(list(globs["score_partition"](iter(frames))))
    assert len(rows) == 2
    state = merge_states([{STATE_N: rows[STATE_N].to_numpy(), STATE_LIMBS: np.stack(rows[STATE_LIMBS].to_list())}])
    one = Rouge(["rouge1", "rougeL"], use_stemmer=True).compute(predictions=preds, references=refs)
    assert result_from_state(globs["scorer"].rouge, state).scores == one.scores
