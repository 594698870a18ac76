"""The native batch for token ids (``_native.Scorer.batch_ids``, used by ``Rouge`` for ``tokenizer="ids"``
on the native backend): every example, mean and length equal to the pure-Python id path
(``backend="python"``, itself checked against rouge-score in tests/test_ids.py), and to rouge-score on
``w<id>`` texts, over ids of any size, ragged and padded batches, empty and all-ignored sequences,
every type and multi-reference mode, 1, 2 and 8 threads."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_metric import Rouge, backends, core, scoring

pytestmark = pytest.mark.skipif(not core.native_available(), reason="native extension not built")

RS_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
ALL_TYPES = RS_TYPES + ["rouge3", "rougeW", "rougeS", "rougeS4", "rougeSU", "rougeSU4"]
MODES = ["max", "mean", "pool", "best_recall"]
PAD, END = 0, 1
BIG = [2**40, -(2**40), 2**63 - 1, -(2**63), 2**64, 2**70, -(2**70)]  # the last three overflow int64
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# A small alphabet (repeats, ties) with ignored ids, sentence ends, negative ids that are NOT ignored
# (-7) and ids of any size, including Python ints beyond int64.
ids = st.sampled_from([-100, PAD, END, 2, 3, 4, 5, 6, -7] + BIG)
seqs = st.lists(ids, max_size=60) | st.lists(st.sampled_from([-100, PAD]), max_size=5)  # some all-ignored
refs_of = st.lists(seqs, min_size=1, max_size=3)
examples = st.lists(st.tuples(seqs, refs_of), max_size=30)


def rouge(backend, types=ALL_TYPES, threads=2, **kw):
    kw.setdefault("ignore_ids", [-100, PAD])
    kw.setdefault("sentence_ids", [END])
    return Rouge(types, tokenizer="ids", backend=backend, num_threads=threads, **kw)


def both(preds, refs, types=ALL_TYPES, threads=2, **kw):
    """(native result, python result), per example and corpus, after checking the native batch ran."""
    native = rouge("native", types, threads, **kw)
    assert native.native_pipeline
    py = rouge("python", types, **kw)
    got = native.compute(predictions=preds, references=refs, return_per_example=True)
    want = py.compute(predictions=preds, references=refs, return_per_example=True)
    return got, want


def assert_same_result(got, want):
    assert got.per_example == want.per_example
    assert got.scores == want.scores
    assert (got.n, got.pred_len, got.ref_len) == (want.n, want.pred_len, want.ref_len)


def as_text(seq, ignore=(-100, PAD), ends=(END,)):
    """rouge-score's text for an id sequence: ``w<id>`` words (``wm<id>`` for negative ids, whose
    ``-`` rouge-score's tokenizer would drop), a newline at each sentence end, ignored ids left out."""
    lines, cur = [], []
    for i in seq:
        if i in ends:
            lines.append(cur)
            cur = []
        elif i not in ignore:
            cur.append(f"w{i}" if i >= 0 else f"wm{-i}")
    lines.append(cur)
    return "\n".join(" ".join(line) for line in lines if line)


@SETTINGS
@given(exs=examples, threads=st.sampled_from([1, 2, 8]), mode=st.sampled_from(MODES),
       sentences=st.booleans())
def test_native_id_batch_equals_python_id_path(exs, threads, mode, sentences):
    preds = [p for p, _ in exs]
    refs = [r for _, r in exs]
    kw = dict(multi_ref=mode, sentence_ids=[END] if sentences else [])
    if not exs:
        for backend in ("native", "python"):
            with pytest.raises(ValueError, match="no example"):
                rouge(backend, threads=threads, **kw).compute(predictions=preds, references=refs)
        return
    assert_same_result(*both(preds, refs, threads=threads, **kw))
    # score_examples and score (a batch of one) give the same per-example scores
    native = rouge("native", threads=threads, **kw)
    want = rouge("python", **kw).score_examples(predictions=preds, references=refs)
    assert native.score_examples(predictions=preds, references=refs) == want
    for i in range(min(len(preds), 5)):
        assert native.score(prediction=preds[i], references=refs[i]) == want[i]


@SETTINGS
@given(exs=st.lists(st.tuples(seqs, refs_of), min_size=1, max_size=20), threads=st.sampled_from([1, 2, 8]))
def test_native_id_batch_equals_rouge_score_on_w_texts(exs, threads):
    got = rouge("native", RS_TYPES, threads).score_examples(predictions=[p for p, _ in exs],
                                                            references=[r for _, r in exs])
    scorer = rouge_scorer.RougeScorer(RS_TYPES)
    assert got == [scorer.score_multi([as_text(r) for r in rs], as_text(p)) for p, rs in exs]


@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("threads", [1, 2, 8])
def test_padded_batches_and_every_input_form(kind, threads):
    import torch

    rnd = np.random.default_rng(4)
    lens = rnd.integers(0, 50, size=150)
    preds = np.full((150, 50), PAD, dtype=np.int64)
    refs = np.full((150, 2, 50), -100, dtype=np.int64)
    for i, n in enumerate(lens):
        preds[i, :n] = rnd.integers(1, 40, size=n)
        refs[i, 0, : n // 2] = rnd.integers(1, 40, size=n // 2)
        refs[i, 1, :n] = rnd.integers(1, 40, size=n) + 2**40
    arr = (lambda a: a) if kind == "numpy" else torch.from_numpy
    got, want = both(arr(preds), arr(refs), threads=threads)
    assert_same_result(got, want)
    # the same batch as lists, as tuples, as numpy scalars inside lists: the same numbers
    lists = (preds.tolist(), refs.tolist())
    for p, r in [lists, ([tuple(x) for x in lists[0]], [[tuple(x) for x in rs] for rs in lists[1]]),
                 ([list(x) for x in preds], [[list(x) for x in rs] for rs in refs])]:
        assert rouge("native", threads=threads).compute(predictions=p, references=r,
                                                        return_per_example=True).per_example == want.per_example


def test_huge_ignore_and_sentence_ids():
    # ignore_ids and sentence_ids beyond int64 are honoured too (they are read through a dict of their own).
    big_pad, big_end = 2**70, -(2**65)
    preds = [[2, big_pad, 3, big_end, 4, 2**64], [big_pad, big_pad], [], [big_end, 5, big_end, big_end]]
    refs = [[[3, big_end, 2, 4], [2**64, 2**64]], [5, big_pad], [[2]], [5, 5]]
    got, want = both(preds, refs, ignore_ids=[big_pad, -100], sentence_ids=[big_end])
    assert_same_result(got, want)
    assert got.per_example[1]["rouge1"].fmeasure == 0.0  # all ignored


def test_only_empty_and_ignored_sequences():
    preds = [[], [PAD, -100], [], [2, 3]]
    refs = [[], [PAD], [[], [-100, -100]], [[PAD], [2, 3]]]
    with pytest.raises(ValueError, match=r"references\[0\]: empty"):
        rouge("native").compute(predictions=preds, references=refs)
    refs[0] = [[]]
    assert_same_result(*both(preds, refs))


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_chunk_and_block_boundaries(monkeypatch, threads):
    monkeypatch.setattr(backends, "NATIVE_CHUNK", 70)
    rnd = np.random.default_rng(7)
    preds = [rnd.integers(0, 300, size=rnd.integers(0, 40)).tolist() for _ in range(300)]
    refs = [[rnd.integers(0, 300, size=rnd.integers(0, 40)).tolist() for _ in range(1 + i % 3)] for i in range(300)]
    want = rouge("python").score_examples(predictions=preds, references=refs)
    for n in (1, 64, 65, 69, 70, 71, 140, 141, 300):
        got = rouge("native", threads=threads).score_examples(predictions=preds[:n], references=refs[:n])
        assert got == want[:n], n
        acc = rouge("native", threads=threads).accumulator(keep_values=True)
        rouge("native", threads=threads).add_to(acc, predictions=preds[:n], references=refs[:n])
        assert acc.n == n


def test_errors_name_the_index_in_the_whole_input(monkeypatch):
    monkeypatch.setattr(backends, "NATIVE_CHUNK", 50)
    preds = [[2, 3]] * 120 + [[2, "x"]]
    refs = [[2]] * 121
    for backend in ("python", "native"):
        with pytest.raises(TypeError, match=r"^predictions\[120\]\[1\]: expected an integer token id"):
            rouge(backend).compute(predictions=preds, references=refs)
    # a rougeW overflow past the first chunk: the same message on both backends
    long = [5] * 40
    preds = [[2]] * 120 + [long] + [[2]] * 10
    refs = [[3]] * 120 + [long] + [[2]] * 10
    for backend in ("python", "native"):
        with pytest.raises(OverflowError, match=r"^example 120: rougeW: f\(k\) = k\*\*40 overflows"):
            rouge(backend, ["rougeW"], wlcs_weight=40).compute(predictions=preds, references=refs)
        with pytest.raises(OverflowError, match=r"rougeW: f\(k\) = k\*\*40 overflows"):
            rouge(backend, ["rougeW"], wlcs_weight=40).score(prediction=long, references=long)


def test_bad_input_on_the_native_batch_falls_back_to_the_python_checks():
    r = rouge("native")
    for preds, refs, err, match in [
        ([[2, True]], [[2]], TypeError, r"predictions\[0\]\[1\]: expected an integer token id, got bool"),
        ([[2]], [[[2], 3]], TypeError, r"references\[0\]\[1\]: expected a sequence of integer token ids"),
        ([[2], [3]], [[2]], ValueError, "same length"),
        ([[2.0]], [[2]], TypeError, r"predictions\[0\]\[0\]"),
        (["a b"], [[2]], TypeError, r"predictions\[0\]: expected a sequence of integer token ids"),
    ]:
        with pytest.raises(err, match=match):
            r.compute(predictions=preds, references=refs)
