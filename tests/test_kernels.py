"""Kernels against textbook oracles: O(mn) DP for LCS, brute force for skip-bigrams and n-grams."""

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_metric import core_py
from rouge_metric.aggregate import ExactSum
from oracles import lcs_indices as dp_indices
from oracles import lcs_table
from strategies import token_lists

SET = settings(max_examples=300, deadline=None)


@given(a=token_lists(), b=token_lists())
@SET
def test_bit_parallel_lcs_length_equals_dp(a, b):
    assert core_py.lcs_length(a, b) == lcs_table(a, b)[-1][-1]


@given(a=token_lists(alphabet_size=3, max_size=200), b=token_lists(alphabet_size=3, max_size=200))
@SET
def test_lcs_indices_follow_rouge_score_tie_breaking(a, b):
    assert core_py.lcs_indices(a, b) == dp_indices(a, b)


def test_lcs_indices_equal_rouge_score_lcs_ind():
    rs = pytest.importorskip("rouge_score.rouge_scorer")
    rng = random.Random(3)
    for _ in range(300):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 90))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 90))]
        assert core_py.lcs_indices(a, b) == rs.lcs_ind(a, b)


def test_lcs_long_sequences_linear_memory():
    rng = random.Random(0)
    a = [rng.randrange(50) for _ in range(20000)]
    b = [rng.randrange(50) for _ in range(20000)]
    n = core_py.lcs_length(a, b)
    assert 0 < n <= 20000
    assert core_py.lcs_length(a, a) == 20000


def brute_skip(tokens, skip, unigrams):
    c = Counter()
    for i in range(len(tokens) - 1):
        if unigrams:
            c[tokens[i]] += 1
        for j in range(i + 1, len(tokens)):
            if skip < 0 or j - i <= skip + 1:
                c[(tokens[i], tokens[j])] += 1
    return c


@given(a=token_lists(max_size=40), b=token_lists(max_size=40), skip=st.integers(-1, 6), su=st.booleans())
@SET
def test_skip_bigrams_equal_brute_force(a, b, skip, su):
    ca, cb = brute_skip(a, skip, su), brute_skip(b, skip, su)
    want = (sum((ca & cb).values()), sum(ca.values()), sum(cb.values()))
    assert core_py.skip_bigram_overlap(a, b, skip, su) == want


@given(a=token_lists(max_size=40), b=token_lists(max_size=40), n=st.integers(1, 5))
@SET
def test_ngram_overlap_equals_brute_force(a, b, n):
    ga = Counter(tuple(a[i:i + n]) for i in range(len(a) - n + 1))
    gb = Counter(tuple(b[i:i + n]) for i in range(len(b) - n + 1))
    assert core_py.ngram_overlap(a, b, n) == (sum((ga & gb).values()), sum(ga.values()), sum(gb.values()))


def test_skip_distance_semantics():
    # ROUGE-1.5.5 -2 4: at most 4 words skipped (j - i <= 5)
    assert core_py.skip_bigram_overlap(list("af"), list("abcdef"), 4, False)[0] == 1
    assert core_py.skip_bigram_overlap(list("ag"), list("abcdefg"), 4, False)[0] == 0
    # -2 0 is ordinary bigrams
    assert core_py.skip_bigram_overlap(list("abc"), list("abc"), 0, False) == (2, 2, 2)
    # SU never counts the last token's unigram: a 1-token text has no SU grams
    assert core_py.skip_bigram_overlap(["a"], ["a"], -1, True) == (0, 0, 0)


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300), max_size=50))
@settings(max_examples=200, deadline=None)
def test_exact_sum_equals_fsum_and_merges(xs):
    a, b, whole = ExactSum(), ExactSum(), ExactSum()
    for i, x in enumerate(xs):
        (a if i % 2 else b).add(x)
        whole.add(x)
    a.merge(b)
    assert whole.value == math.fsum(xs)
    assert a.value == math.fsum(xs)
