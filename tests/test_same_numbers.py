"""The same numbers on every Python, CPU and backend: the float operations whose result could depend on
the interpreter version, the CPU or the C library are done in one defined way on both backends.

- Multi-reference pooling adds statistics left to right (the built-in ``sum`` compensates its float
  additions on CPython 3.12 and later).
- ROUGE-W's powers use :func:`rouge_metric.core_py.wpow` (+ - * / only), not the C library's ``pow``,
  whose last bit depends on the CPU (glibc picks an FMA or a non-FMA implementation at run time).
- Rouge types with huge orders or skip distances, and lone surrogates in stemmed tokens, give the
  same numbers on both backends; an n-gram order longer than the text costs nothing.

The oracles are independent: ``functools.reduce`` for left-to-right sums, 60-digit ``decimal``
arithmetic for the powers, the pure-Python backend for the native one.
"""

from __future__ import annotations

import functools
import math
import operator
import random
import tracemalloc
from decimal import Decimal, getcontext

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, core, core_py
from rouge_metric.config import parse_rouge_type
from rouge_metric.measures import TypeScorer, make_fmeasure
from strategies import WORDS

needs_native = pytest.mark.skipif(not core.native_available(), reason="native extension not built")
HYP = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------------- pooled sums
def test_pool_adds_left_to_right():
    spec = parse_rouge_type("rougeW", 1.2)
    ts = TypeScorer(spec, make_fmeasure())
    stats = [(0.1, 0.7, 1.0, 0.0), (0.2, 0.1, 2.0, 0.0), (0.3, 0.2, 3.0, 0.0)]
    cols = [[s[i] for s in stats] for i in range(3)]
    left = [functools.reduce(operator.add, c) for c in cols]
    # The case can tell the orders apart: a compensated (3.12+ sum) or exact sum gives other doubles.
    assert [math.fsum(c) for c in cols] != left
    assert ts.combine(stats, "pool") == ts.score(*left)


def test_pool_does_not_depend_on_the_interpreters_sum(monkeypatch):
    """The pooled statistics do not come from the built-in ``sum`` (compensated on CPython 3.12+):
    with ``sum`` replaced by a compensated one on any interpreter, the pooled score is unchanged."""
    import builtins

    spec = parse_rouge_type("rougeW", 1.2)
    ts = TypeScorer(spec, make_fmeasure())
    stats = [(0.1, 0.7, 1.0, 0.0), (0.2, 0.1, 2.0, 0.0), (0.3, 0.2, 3.0, 0.0)]
    want = ts.combine(stats, "pool")
    real_sum = builtins.sum
    monkeypatch.setattr(builtins, "sum", lambda it, start=0: math.fsum(it) + start
                        if start == 0 and not isinstance(start, list) else real_sum(it, start))
    assert ts.combine(stats, "pool") == want


@needs_native
def test_rougeW_pool_same_on_both_backends():
    pred = "the cat sat on the mat with a hat and the dog"
    refs = ["the cat was on the mat", "a cat sat on a mat with the dog", "the hat of the cat"]
    for weight in (1.2, 2.5):
        py = Rouge(["rougeW"], multi_ref="pool", wlcs_weight=weight, backend="python")
        nat = Rouge(["rougeW"], multi_ref="pool", wlcs_weight=weight, backend="native")
        a = py.score(prediction=pred, references=refs)["rougeW"]
        b = nat.score(prediction=pred, references=refs)["rougeW"]
        assert [x.hex() for x in a] == [x.hex() for x in b]


# ------------------------------------------------------------------------------------ wpow
getcontext().prec = 60


def _exact_pow(x: float, y: float) -> Decimal:
    return (Decimal(x).ln() * Decimal(y)).exp()


def _ulps(got: float, exact: Decimal) -> float:
    want = float(exact)
    return float(abs((Decimal(got) - exact) / Decimal(math.ulp(want))))


def _pow_inputs():
    rnd = random.Random(7)
    xs = [float(k) for k in range(1, 400)] + [a / b for a in range(1, 40) for b in range(a, a + 40)]
    xs += [rnd.random() for _ in range(400)] + [rnd.uniform(1, 1e7) for _ in range(200)]
    xs += [2.0 ** rnd.randint(-1000, 1000) * rnd.random() for _ in range(100)]
    return [(x, y) for x in xs for y in (1.2, 1 / 1.2, 1.5, 1 / 1.5, 2.0, 0.5, 3.7, 1e-3)]


def test_wpow_is_faithful():
    worst = 0.0
    for x, y in _pow_inputs():
        got = core_py.wpow(x, y)
        exact = _exact_pow(x, y)
        if math.isinf(got) or exact < Decimal(2.0 ** -1022):
            continue
        worst = max(worst, _ulps(got, exact))
    assert worst < 1.0, worst


@HYP
@given(x=st.floats(min_value=0.0, max_value=1e12, allow_nan=False), y=st.floats(min_value=1e-3, max_value=10.0))
def test_wpow_is_faithful_hypothesis(x, y):
    got = core_py.wpow(x, y)
    if x == 0.0:
        assert got == 0.0
        return
    exact = _exact_pow(x, y)
    if exact > Decimal(1.7e308):
        assert got == math.inf
    elif exact >= Decimal(2.0 ** -1022):
        assert _ulps(got, exact) < 1.0


def test_wpow_special_values():
    assert core_py.wpow(0.0, 1.2) == 0.0 and core_py.wpow(1.0, 1.2) == 1.0
    assert core_py.wpow(math.inf, 1.2) == math.inf
    assert core_py.wpow(1e300, 3.0) == math.inf and core_py.wpow(1e-300, 3.0) == 0.0
    for k in range(1, 200):  # exact powers come out exact
        assert core_py.wpow(float(k * k), 0.5) == float(k)


@needs_native
def test_wpow_native_is_the_same_function():
    from rouge_metric import _native

    for x, y in _pow_inputs():
        assert _native.wpow(x, y).hex() == core_py.wpow(x, y).hex(), (x, y)


@needs_native
@HYP
@given(x=st.floats(min_value=0.0, allow_nan=False, allow_infinity=True), y=st.floats(min_value=1e-300, max_value=1e300))
def test_wpow_native_is_the_same_function_hypothesis(x, y):
    from rouge_metric import _native

    assert _native.wpow(x, y).hex() == core_py.wpow(x, y).hex()


def test_no_libm_pow_in_the_rougeW_path():
    """Every power of ROUGE-W goes through wpow: the Python ROUGE-W path has no ``**`` (which calls the
    C library's pow) outside its docstrings."""
    import inspect

    from rouge_metric import perl_text

    for fn in (core_py.wlcs_overlap, core_py.wlcs_hits, core_py.wlcs_mark, TypeScorer.score,
               perl_text.perl_lcs_stats):
        body = inspect.getsource(fn).split('"""')[-1]
        assert "**" not in body, fn.__name__


# ------------------------------------------------------------------------------ huge orders
HUGE_TYPES = ["rouge2147483647", "rouge2147483648", "rouge" + str(10 ** 30), "rougeS2147483648",
              "rougeSU2147483648", "rougeS" + str(10 ** 25), "rouge10000000"]


@needs_native
@pytest.mark.parametrize("rouge_type", HUGE_TYPES)
def test_huge_orders_same_on_both_backends(rouge_type):
    pairs = [("a b c d", ["a b c d", "b c"]), ("", ["a"]), ("the cat sat", ["the cat sat on the mat"])]
    for mode in ("max", "pool"):
        py = Rouge([rouge_type], backend="python", multi_ref=mode)
        nat = Rouge([rouge_type], backend="native", multi_ref=mode)
        preds = [p for p, _ in pairs]
        refs = [r for _, r in pairs]
        assert nat.score_examples(predictions=preds, references=refs) == \
            py.score_examples(predictions=preds, references=refs)
        for p, r in pairs:
            assert nat.score(prediction=p, references=r) == py.score(prediction=p, references=r)


def test_ngram_order_beyond_the_text_costs_nothing():
    tracemalloc.start()
    try:
        assert core_py.ngram_counts(["a", "b"], 10 ** 7) == {}
        assert core_py.ngram_overlap(["a", "b"], ["a", "b", "c"], 10 ** 9) == (0, 0, 0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak  # no n slices of the text: those would take 1.35 GB for n = 10**7


# -------------------------------------------------------------------------------- surrogates
@st.composite
def surrogate_texts(draw):
    words = draw(st.lists(st.sampled_from(WORDS[:20] + ["walking", "runner", "jumps"]), min_size=1, max_size=12))
    out = []
    for w in words:
        if draw(st.booleans()):
            i = draw(st.integers(0, len(w)))
            w = w[:i] + chr(draw(st.integers(0xD800, 0xDFFF))) + w[i:]
        out.append(w)
    return " ".join(out)


@needs_native
@pytest.mark.parametrize("tokenizer", ["whitespace", "unicode", "default"])
@pytest.mark.parametrize("stemmer", [False, "porter", "snowball:english", "perl_porter"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pred=surrogate_texts(), refs=st.lists(surrogate_texts(), min_size=1, max_size=3))
def test_lone_surrogates_same_on_both_backends(tokenizer, stemmer, pred, refs):
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    py = Rouge(types, tokenizer=tokenizer, use_stemmer=stemmer, backend="python")
    nat = Rouge(types, tokenizer=tokenizer, use_stemmer=stemmer, backend="native")
    assert nat.score(prediction=pred, references=refs) == py.score(prediction=pred, references=refs)
    assert nat.score_examples(predictions=[pred], references=[refs]) == \
        py.score_examples(predictions=[pred], references=[refs])
