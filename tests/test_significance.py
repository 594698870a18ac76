"""Paired significance tests (rouge_metric.significance) against independent computations.

Oracles: the exact randomization p-value by enumerating every one of the 2^n swap assignments (written
here from the definition); scipy.stats.permutation_test (paired: permutation_type='samples') exactly
and within Monte Carlo error; scipy.stats.bootstrap (paired, percentile) on the same per-example
values and the same generator; the paired bootstrap p-value from a plain loop over the definition.
"""

import itertools
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.stats as scipy_stats
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, compare
from rouge_metric.result import COMPARISON_FIELDS, STATS
from rouge_metric.significance import TIE_RTOL, paired_test
from strategies import texts


def _flat(col):
    """Per-example values of one statistic as a flat (P, R, F) sequence with that value in every slot."""
    return np.repeat(np.asarray(col, dtype=np.float64), 3)


def _p(base, system, **kw):
    comps, exact = paired_test({"rouge1": _flat(base)}, {"B": {"rouge1": _flat(system)}}, **kw)
    return comps["B"]["rouge1"]["fmeasure"], exact


def _exact_ar_oracle(base, system):
    """Every assignment of 'swap example i or not' once: the exact two-sided p-value of |mean delta|."""
    d = [s - b for b, s in zip(base, system)]
    n = len(d)
    obs = abs(math.fsum(d) / n)
    hits = 0
    for signs in itertools.product((1, -1), repeat=n):
        t = abs(math.fsum(s * x for s, x in zip(signs, d)) / n)
        hits += t >= obs - TIE_RTOL * obs
    return hits / 2 ** n


# Values on a grid of 1/16: every sum is exact, so ties (many, with a grid this coarse) are real ties.
grid = st.integers(0, 16).map(lambda k: k / 16)


@settings(max_examples=80, deadline=None)
@given(pairs=st.lists(st.tuples(grid, grid), min_size=1, max_size=10))
def test_exact_randomization_equals_enumeration(pairs):
    base, system = zip(*pairs)
    c, exact = _p(base, system, method="approximate_randomization", n_resamples=2 ** len(pairs))
    assert exact
    assert c.p_value == _exact_ar_oracle(base, system)


@pytest.mark.parametrize("n, seed", [(6, 0), (9, 1), (11, 2)])
def test_exact_randomization_equals_scipy_exact(n, seed):
    rng = np.random.default_rng(seed)
    base, system = rng.random(n), rng.random(n) + 0.1
    c, exact = _p(base, system, method="approximate_randomization", n_resamples=10_000)
    ref = scipy_stats.permutation_test(
        (system, base), lambda x, y, axis: np.abs(np.mean(x, axis=axis) - np.mean(y, axis=axis)),
        permutation_type="samples", alternative="greater", n_resamples=np.inf, vectorized=True)
    assert exact and c.p_value == pytest.approx(ref.pvalue, abs=1e-12)
    assert c.p_value == _exact_ar_oracle(base, system)


@pytest.mark.parametrize("n, shift, seed", [(40, 0.05, 0), (60, 0.0, 1), (30, 0.12, 2), (12, 0.1, 3)])
def test_randomization_within_monte_carlo_error_of_scipy(n, shift, seed):
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    system = np.clip(base + shift + 0.3 * rng.standard_normal(n), 0, 1)
    R = 4000
    c, exact = _p(base, system, method="approximate_randomization", n_resamples=R, seed=seed)
    assert not exact  # 2**n > R: randomized
    ref = scipy_stats.permutation_test(
        (system, base), lambda x, y, axis: np.abs(np.mean(x, axis=axis) - np.mean(y, axis=axis)),
        permutation_type="samples", alternative="greater", n_resamples=20_000, vectorized=True,
        rng=np.random.default_rng(1000 + seed))
    if n <= 12:  # and the truth, by enumeration
        assert abs(c.p_value - _exact_ar_oracle(base, system)) <= 5 * math.sqrt(0.25 / R)
    p = ref.pvalue
    se = math.sqrt(max(p * (1 - p), 1e-4) * (1 / R + 1 / 20_000))
    assert abs(c.p_value - p) <= 5 * se + 1 / R, (c.p_value, p)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 60), seed=st.integers(0, 2**31), R=st.integers(20, 400),
       cl=st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_bootstrap_interval_equals_scipy_percentile_bootstrap(n, seed, R, cl):
    rng = np.random.default_rng(seed % 997)
    base, system = rng.random(n), rng.random(n)
    c, _ = _p(base, system, method="paired_bootstrap", n_resamples=R, seed=seed, confidence_level=cl)
    # scipy draws its resamples with rng.integers(0, n, (R, n)): the same generator gives the same rows.
    ref = scipy_stats.bootstrap(
        (base, system), lambda x, y, axis: np.mean(y - x, axis=axis), paired=True, vectorized=True,
        n_resamples=R, confidence_level=cl, method="percentile", rng=np.random.default_rng(seed))
    assert c.ci_low == pytest.approx(ref.confidence_interval.low, abs=1e-12)
    assert c.ci_high == pytest.approx(ref.confidence_interval.high, abs=1e-12)


def test_bootstrap_p_value_equals_the_definition():
    rng = np.random.default_rng(4)
    n, R, seed = 25, 300, 8
    base = rng.random(n)
    system = np.clip(base + 0.04 + 0.2 * rng.standard_normal(n), 0, 1)
    c, _ = _p(base, system, method="paired_bootstrap", n_resamples=R, seed=seed)
    d = system - base
    obs = math.fsum(d) / n
    draws = np.random.default_rng(seed)
    hits = 0
    for _ in range(R):
        idx = draws.integers(0, n, size=n)
        hits += abs(math.fsum(d[idx]) / n - obs) >= abs(obs)
    assert c.p_value == (hits + 1) / (R + 1)
    assert 0.0 < c.p_value < 1.0


@pytest.mark.parametrize("method", ["paired_bootstrap", "approximate_randomization"])
def test_clear_improvement_is_significant_and_sign_of_delta(method):
    rng = np.random.default_rng(0)
    base = rng.random(200) * 0.5
    c, _ = _p(base, base + 0.2, method=method, n_resamples=500)
    assert c.p_value == 1 / 501 and c.delta == pytest.approx(0.2)
    c2, _ = _p(base + 0.2, base, method=method, n_resamples=500)
    assert c2.p_value == 1 / 501 and c2.delta == pytest.approx(-0.2) and c2.ci_high < 0


# ------------------------------------------------------------------------------------- compare()
REFS = ["the cat sat on the mat", "a dog barked at the mailman", "birds sing in the morning",
        "it rained all day long", "the market closed higher on friday", "she read the book twice"]
BASE = ["the cat sat", "a dog barked", "birds sing", "it rained", "the market closed", "she read it"]
SYS_A = ["the cat sat on a mat", "a dog barked at the man", "birds sing in the trees", "it rained all day",
         "markets closed higher", "she read the book"]
SYS_B = ["a cat", "the dog", "birds", "rain all day long", "the market closed higher on friday", "she read"]


@pytest.mark.parametrize("method", ["paired_bootstrap", "approximate_randomization"])
@settings(max_examples=15, deadline=None)
@given(preds=st.lists(texts(max_words=12), min_size=1, max_size=8), seed=st.integers(0, 2**31))
def test_system_against_itself(method, preds, seed):
    refs = [f"reference {i} the cat" for i in range(len(preds))]
    res = compare(baseline=preds, systems={"same": list(preds)}, references=refs, method=method,
                  n_resamples=200, seed=seed, rouge_types=["rouge1", "rougeL"])
    for per_stat in res.comparisons["same"].values():
        for c in per_stat.values():
            assert c.p_value == 1.0 and c.delta == 0.0 and c.ci_low == 0.0 and c.ci_high == 0.0
            assert c.baseline == c.system


@pytest.mark.parametrize("method", ["paired_bootstrap", "approximate_randomization"])
def test_compare_tests_the_per_example_scores(method):
    types = ["rouge1", "rouge2", "rougeLsum"]
    res = compare(baseline=BASE, systems={"A": SYS_A, "B": SYS_B}, references=REFS, method=method,
                  n_resamples=300, seed=5, rouge_types=types, use_stemmer=True)
    rouge = Rouge(types, use_stemmer=True)
    vals = {}
    for name, preds in (("base", BASE), ("A", SYS_A), ("B", SYS_B)):
        per = rouge.score_examples(predictions=preds, references=REFS)
        vals[name] = {t: [x for ex in per for x in ex[t]] for t in types}
    want, _ = paired_test(vals["base"], {"A": vals["A"], "B": vals["B"]}, method=method, n_resamples=300, seed=5)
    assert res.comparisons == want
    means = {name: rouge.compute(predictions=p, references=REFS).scores for name, p in
             (("base", BASE), ("A", SYS_A), ("B", SYS_B))}
    for name in ("A", "B"):
        for t in types:
            for i, s in enumerate(STATS):
                c = res.comparisons[name][t][s]
                assert c.baseline == means["base"][t][i] and c.system == means[name][t][i]
                assert c.delta == c.system - c.baseline
                assert 0.0 < c.p_value <= 1.0 and c.ci_low <= c.ci_high
    assert res.n == len(REFS) and res.method == method
    assert res.signature.startswith(rouge.signature() + "|test:" + method)


def test_several_systems_equal_separate_calls_and_each_example_is_scored_once(monkeypatch):
    scored = []
    orig = Rouge.add_to

    def counting(self, acc, *, predictions, references, per_example=None):
        scored.extend(predictions)
        return orig(self, acc, predictions=predictions, references=references, per_example=per_example)

    monkeypatch.setattr(Rouge, "add_to", counting)
    both = compare(baseline=BASE, systems={"A": SYS_A, "B": SYS_B}, references=REFS, n_resamples=100)
    assert sorted(scored) == sorted(BASE + SYS_A + SYS_B)
    a = compare(baseline=BASE, systems={"A": SYS_A}, references=REFS, n_resamples=100)
    assert both.comparisons["A"] == a.comparisons["A"]


def test_to_dict_shape_and_json():
    res = compare(baseline=BASE, systems={"A": SYS_A, "B": SYS_B}, references=REFS, n_resamples=50,
                  rouge_types=["rouge1", "rougeL"])
    d = res.to_dict()
    assert list(d) == ["A", "B"] and list(d["A"]) == ["rouge1", "rougeL"]
    assert list(d["A"]["rouge1"]) == list(STATS) == ["precision", "recall", "fmeasure"]
    assert list(d["A"]["rouge1"]["fmeasure"]) == list(COMPARISON_FIELDS) == [
        "baseline", "system", "delta", "ci_low", "ci_high", "p_value"]
    assert all(type(v) is float for t in d.values() for s in t.values() for f in s.values() for v in f.values())
    assert json.loads(json.dumps(d)) == d
    table = res.format_table(level=0.5, stats=["fmeasure", "recall"])
    assert "rouge1_recall" in table and "p < 0.5" in table and res.signature in table


def test_progress_reports_scoring_and_resampling():
    seen = {}

    def progress(stage, k, total):
        done, tot = seen.get(stage, (0, total))
        assert tot == total
        seen[stage] = (done + k, total)

    compare(baseline=BASE, systems={"A": SYS_A, "B": SYS_B}, references=REFS, n_resamples=70, progress=progress,
            method="approximate_randomization", ci_resamples=30, rouge_types=["rouge1"])
    assert seen["scoring"] == (18, 18)
    assert seen["resampling"] == (30 + 64, 30 + 64)  # 6 examples: all 2**6 assignments, plus the interval


@pytest.mark.integration
def test_same_numbers_in_every_process_and_on_both_backends():
    from rouge_metric.core import native_available

    code = (
        "import json, rouge_metric as r;"
        "print(json.dumps([r.compare(baseline=%r, systems={'A': %r}, references=%r, method=m, n_resamples=k,"
        " seed=11, use_stemmer=True).to_dict() for m, k in (('paired_bootstrap', 500),"
        " ('approximate_randomization', 40))]))"  # 40 < 2**6 trials: randomized, not enumerated
        % (BASE, SYS_A, REFS)
    )
    runs = [("python", 1), ("python", 2)] + ([("native", 3), ("native", 4)] if native_available() else [])
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=str(h), ROUGE_METRIC_BACKEND=b)).stdout
            for b, h in runs}
    assert len(outs) == 1
    bs, ar = json.loads(outs.pop())
    assert bs["A"]["rouge1"]["fmeasure"]["p_value"] > 0 and ar["A"]["rouge1"]["fmeasure"]["p_value"] > 0


def test_seed_changes_draws_not_means():
    a = compare(baseline=BASE, systems={"A": SYS_A}, references=REFS, n_resamples=200, seed=1)
    b = compare(baseline=BASE, systems={"A": SYS_A}, references=REFS, n_resamples=200, seed=2)
    ca, cb = a.comparisons["A"]["rouge1"]["fmeasure"], b.comparisons["A"]["rouge1"]["fmeasure"]
    assert ca.delta == cb.delta and (ca.ci_low, ca.ci_high, ca.p_value) != (cb.ci_low, cb.ci_high, cb.p_value)
    assert "seed=1" in a.signature and "seed=2" in b.signature


@pytest.mark.parametrize("kwargs, exc, message", [
    (dict(systems=[("A", SYS_A)]), TypeError, "systems: expected a mapping"),
    (dict(systems={}), ValueError, "systems: empty"),
    (dict(systems={"A": SYS_A[:-1]}), ValueError, "systems['A']: 5 predictions, but references has 6"),
    (dict(systems={"A": SYS_A[:2] + [3] + SYS_A[3:]}), TypeError, "systems['A'][2]: expected str, got int"),
    (dict(baseline=BASE[:1] + [None] + BASE[2:]), TypeError, "baseline[1]: expected str, got None"),
    (dict(baseline="one text"), TypeError, "baseline: expected a list of texts"),
    (dict(references=REFS[:3] + [[]] + REFS[4:]), ValueError, "references[3]: empty list"),
    (dict(method="bs"), ValueError, "method: invalid value 'bs'; allowed: 'paired_bootstrap'"),
    (dict(n_resamples=0), ValueError, "n_resamples: expected an integer >= 1, got 0"),
    (dict(confidence_level=95), ValueError, "confidence_level: expected a number in (0, 1)"),
    (dict(seed=-1), ValueError, "seed: expected an integer >= 0"),
    (dict(aggregation="bootstrap"), ValueError, "aggregation: compare reports exact means"),
    (dict(rouge_types=["rouge0"]), ValueError, "rouge_types: invalid rouge type 'rouge0'"),
])
def test_bad_input_names_the_argument(kwargs, exc, message):
    args = dict(baseline=BASE, systems={"A": SYS_A}, references=REFS, n_resamples=10)
    args.update(kwargs)
    with pytest.raises(exc) as info:
        compare(**args)
    assert message in str(info.value)


def test_paired_test_bad_values():
    with pytest.raises(ValueError, match=r"systems\['B'\]: 2 examples, but the baseline has 3"):
        paired_test({"rouge1": [0.0] * 9}, {"B": {"rouge1": [0.0] * 6}})
    with pytest.raises(ValueError, match=r"systems\['B'\]: rouge types \['rouge2'\] differ"):
        paired_test({"rouge1": [0.0] * 9}, {"B": {"rouge2": [0.0] * 9}})
    with pytest.raises(ValueError, match="baseline: no examples"):
        paired_test({"rouge1": []}, {"B": {"rouge1": []}})
