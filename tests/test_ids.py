"""Token ids as input (``tokenizer="ids"``): the oracle is rouge-score on texts made from the ids
(``w<id>`` words, sentence-end ids as newlines, ignored ids left out), on both backends and every input form."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_metric import Rouge, RougeConfig, compute, core

RS_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
ALL_TYPES = RS_TYPES + ["rouge3", "rougeW", "rougeS4", "rougeSU"]
BACKENDS = ["python"] + (["native"] if core.native_available() else [])
PAD, END = 0, 1  # pad id (ignored) and sentence-end id in the random sequences
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ids 0..6 over a tiny alphabet: many repeats and ties; -100 and the pad id sprinkled in
id_seqs = st.lists(st.sampled_from([-100, PAD, END, 2, 3, 4, 5, 6]), max_size=120)
id_refs = st.lists(id_seqs, min_size=1, max_size=3)


def as_text(ids, ignore=(-100, PAD), ends=(END,)):
    """The oracle's text: ``w<id>`` words, a newline at each sentence end, ignored ids dropped."""
    lines, cur = [], []
    for i in ids:
        if i in ends:
            lines.append(cur)
            cur = []
        elif i not in ignore:
            cur.append(f"w{i}")
    lines.append(cur)
    return "\n".join(" ".join(line) for line in lines if line)


_RS = {}


def oracle(types):
    key = tuple(types)
    if key not in _RS:
        _RS[key] = rouge_scorer.RougeScorer(list(types))
    return _RS[key]


def id_rouge(backend, types=RS_TYPES, **kw):
    kw.setdefault("ignore_ids", [-100, PAD])
    kw.setdefault("sentence_ids", [END])
    return Rouge(types, tokenizer="ids", backend=backend, num_threads=2, **kw)


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(prediction=id_seqs, references=id_refs)
def test_ids_equal_rouge_score_on_w_texts(backend, prediction, references):
    got = id_rouge(backend).score(prediction=prediction, references=references)
    want = oracle(RS_TYPES).score_multi([as_text(r) for r in references], as_text(prediction))
    assert got == want


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(predictions=st.lists(id_seqs, min_size=1, max_size=6), data=st.data())
def test_batch_of_ids_equals_rouge_score(backend, predictions, data):
    references = [data.draw(id_refs) for _ in predictions]
    got = id_rouge(backend).compute(predictions=predictions, references=references, return_per_example=True)
    scorer = oracle(RS_TYPES)
    want = [scorer.score_multi([as_text(r) for r in refs], as_text(p)) for p, refs in zip(predictions, references)]
    assert got.per_example == want


@pytest.mark.parametrize("backend", BACKENDS)
@SETTINGS
@given(prediction=id_seqs, references=id_refs, mode=st.sampled_from(["max", "mean", "pool", "best_recall"]))
def test_ids_equal_text_pipeline_for_types_rouge_score_lacks(backend, prediction, references, mode):
    """rougeW/S/SU and the multi-reference modes: ids give the numbers of our own text scorer on the w-texts."""
    got = id_rouge(backend, ALL_TYPES, multi_ref=mode).score(prediction=prediction, references=references)
    text = Rouge(ALL_TYPES, backend="python", multi_ref=mode)
    assert got == text.score(prediction=as_text(prediction), references=[as_text(r) for r in references])


def test_backend_env_var_selects_the_kernels(monkeypatch):
    pred, ref = [2, 3, 4, 5, END, 3, 4], [[3, 4, 2, END, 5, 5]]
    results = {}
    for b in BACKENDS:
        monkeypatch.setenv("ROUGE_METRIC_BACKEND", b)
        r = Rouge(RS_TYPES, tokenizer="ids", sentence_ids=[END])
        assert f"backend:{b}" in r.signature()
        results[b] = r.score(prediction=pred, references=ref)
    assert all(v == oracle(RS_TYPES).score_multi([as_text(ref[0])], as_text(pred)) for v in results.values())


def _forms():
    import torch

    return {
        "list": lambda x: list(x),
        "tuple": lambda x: tuple(x),
        "int64": lambda x: np.asarray(x, dtype=np.int64),
        "int32": lambda x: np.asarray(x, dtype=np.int32),
        "np_scalars": lambda x: [np.int64(i) for i in x],
        "torch": lambda x: torch.tensor(x, dtype=torch.long),
        "torch_int32": lambda x: torch.tensor(x, dtype=torch.int32),
    }


@pytest.mark.parametrize("form", list(_forms()))
def test_every_input_form_gives_the_same_numbers(form):
    conv = _forms()[form]
    preds = [[2, 3, 4, PAD, PAD], [5, 6, END, 2, -100]]
    refs = [[2, 4, 3, PAD, PAD], [[5, 6, 6], [2, END, 6, 5]]]
    want = id_rouge("python").compute(predictions=preds, references=refs, return_per_example=True)
    got = id_rouge(BACKENDS[-1]).compute(predictions=[conv(p) for p in preds],
                                         references=[conv(refs[0]), [conv(r) for r in refs[1]]],
                                         return_per_example=True)
    assert got.per_example == want.per_example


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_padded_2d_batches(kind):
    import torch

    preds = [[2, 3, 4, 5, PAD, PAD], [6, 6, 2, PAD, PAD, PAD]]
    refs = [[2, 3, 5, -100, -100, -100], [6, 2, 2, 2, 3, -100]]
    arr = np.asarray if kind == "numpy" else torch.tensor
    got = id_rouge(BACKENDS[-1]).compute(predictions=arr(preds), references=arr(refs), return_per_example=True)
    want = [oracle(RS_TYPES).score(as_text(r), as_text(p)) for p, r in zip(preds, refs)]
    assert got.per_example == want
    # several references per example as a (batch, refs, length) array
    many = np.asarray([[refs[0], refs[1]], [refs[1], refs[0]]])
    got = id_rouge(BACKENDS[-1]).compute(predictions=arr(preds), references=arr(many), return_per_example=True)
    want = [oracle(RS_TYPES).score_multi([as_text(r) for r in rs], as_text(p)) for p, rs in zip(preds, many.tolist())]
    assert got.per_example == want


def test_ignore_ids_default_is_minus_100_and_sentence_ids_split():
    r = Rouge(["rouge1", "rougeLsum"], tokenizer="ids", backend=BACKENDS[-1])
    assert r.config.ignore_ids == (-100,) and r.config.sentence_ids == ()
    # without sentence ids the whole sequence is one sentence; the pad id 0 counts as a token here
    got = r.score(prediction=[0, 2, 3, -100], references=[3, 2, 0])
    want = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"]).score("w3 w2 w0", "w0 w2 w3")
    assert got == want


def test_signature_names_ids_ignore_and_split():
    sig = id_rouge("python").signature()
    assert "tok:ids|stem:none|ignore:-100,0|split:ids(1)" in sig
    assert "ignore:" not in Rouge(["rouge1"]).signature()


@pytest.mark.parametrize("kwargs, err, match", [
    (dict(use_stemmer=True), ValueError, r"use_stemmer: stemming needs words"),
    (dict(use_stemmer="snowball:english"), ValueError, r"use_stemmer: stemming needs words"),
    (dict(stopwords=["a"]), ValueError, r"stopwords: not supported with tokenizer='ids'"),
    (dict(sentence_splitter="offline"), ValueError, r"sentence_splitter: .*sentence_ids"),
    (dict(ignore_ids=[0, 1], sentence_ids=[1]), ValueError, r"ignore_ids and sentence_ids: id\(s\) \[1\]"),
    (dict(ignore_ids=["0"]), TypeError, r"ignore_ids\[0\]: expected an integer id, got str"),
    (dict(sentence_ids=[1.5]), TypeError, r"sentence_ids\[0\]: expected an integer id"),
])
def test_config_errors(kwargs, err, match):
    with pytest.raises(err, match=match):
        RougeConfig(tokenizer="ids", **kwargs)


def test_id_options_need_ids_mode():
    with pytest.raises(ValueError, match=r"ignore_ids: only used with tokenizer='ids'"):
        RougeConfig(ignore_ids=[0])
    with pytest.raises(ValueError, match=r"sentence_ids: only used with tokenizer='ids'"):
        RougeConfig(sentence_ids=[13])


def test_numpy_ids_in_config_are_normalized():
    cfg = RougeConfig(tokenizer="ids", ignore_ids=np.array([5, -100]), sentence_ids=np.int64(7))
    assert cfg.ignore_ids == (-100, 5) and cfg.sentence_ids == (7,)


@pytest.mark.parametrize("predictions, references, err, match", [
    (["a b"], [[1]], TypeError, r"predictions\[0\]: expected a sequence of integer token ids .* not text"),
    ([[1, 2.5]], [[1]], TypeError, r"predictions\[0\]\[1\]: expected an integer token id, got float"),
    ([[1, True]], [[1]], TypeError, r"predictions\[0\]\[1\]: expected an integer token id, got bool"),
    ([[1], [2]], [[1]], ValueError, r"same length: got 2 predictions and 1 references"),
    ([[1]], [[]], ValueError, r"references\[0\]: empty"),
    ([[1]], [[[1], "x"]], TypeError, r"references\[0\]\[1\]: expected a sequence of integer token ids"),
    ([[1]], [None], TypeError, r"references\[0\]: expected a sequence of integer token ids or a list of them"),
    ([np.array([1.0, 2.0])], [[1]], TypeError, r"predictions\[0\]: expected integer token ids, got an array of dtype float64"),
    (np.zeros((2, 2, 2), dtype=int), [[1], [1]], ValueError, r"predictions: expected a 2-D \(batch, length\) array"),
    ([np.zeros((2, 2), dtype=int)], [[1]], ValueError, r"predictions\[0\]: expected a 1-D sequence"),
    ("12", ["1", "2"], TypeError, r"predictions: expected a list of token-id sequences, got str"),
])
@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_id_input_names_argument_and_index(backend, predictions, references, err, match):
    with pytest.raises(err, match=match):
        id_rouge(backend).compute(predictions=predictions, references=references)


def test_torch_float_and_bool_tensors_are_rejected():
    import torch

    r = id_rouge(BACKENDS[-1])
    with pytest.raises(TypeError, match=r"prediction: expected integer token ids, got a tensor of dtype torch.float32"):
        r.score(prediction=torch.tensor([1.0, 2.0]), references=[1])
    with pytest.raises(TypeError, match=r"prediction\[0\]: expected an integer token id, got bool"):
        r.score(prediction=torch.tensor([True, False]), references=[1])


def test_compute_function_takes_ids():
    r = compute(predictions=[[2, 3, 4]], references=[[[2, 3], [4]]], rouge_types=["rouge1"], tokenizer="ids")
    assert r.scores["rouge1"] == rouge_scorer.RougeScorer(["rouge1"]).score_multi(["w2 w3", "w4"], "w2 w3 w4")["rouge1"]
    assert "tok:ids" in r.signature
