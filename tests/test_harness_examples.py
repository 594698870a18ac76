"""examples/harnesses/: the plug-ins run inside each harness's own machinery (offline) and give the
harness's own numbers. Each test skips when its harness is not installed."""

import importlib.util
import sys

import numpy as np
import pytest

from conftest import REPO
from corpora import corpus_available, load_corpus
from oracles import evaluate_load_for_mlflow

EXAMPLES = REPO / "examples" / "harnesses"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _pairs(n):
    if not corpus_available("xsum_brio"):
        pytest.skip("../shared/corpora/xsum_brio is absent")
    preds, refs = load_corpus("xsum_brio", n)
    return preds, [r[0] for r in refs]


def test_lm_eval_function_plugin(monkeypatch):
    utils = pytest.importorskip("lm_eval.tasks.truthfulqa.utils")
    datasets = pytest.importorskip("datasets")
    monkeypatch.setattr(utils, "bleu", lambda refs, preds: 0.0)
    ex = _load("lm_eval_truthfulqa_utils")
    preds, refs = _pairs(30)
    raw = datasets.Dataset.from_dict({
        "question": [" q%d " % i for i in range(10)],
        "correct_answers": [[refs[3 * i], refs[3 * i + 1] + " . more"] for i in range(10)],
        "incorrect_answers": [[refs[3 * i + 2], " "] for i in range(10)],
    })
    ours, theirs = ex.process_docs_gen(raw), utils.process_docs_gen(raw)
    assert ours.to_list() == theirs.to_list()
    for i, doc in enumerate(theirs):
        want = {k: v for k, v in utils.process_results_gen(doc, [preds[i]]).items() if k.startswith("rouge")}
        assert ex.process_results_gen(doc, [preds[i]]) == want


def test_lighteval_batched_plugin():
    pytest.importorskip("lighteval")
    from lighteval.metrics import apply_metric
    from lighteval.metrics.metrics import Metrics
    from lighteval.models.model_output import ModelResponse
    from lighteval.tasks.requests import Doc

    ex = _load("lighteval_batched_rouge")
    preds, refs = _pairs(40)
    docs = [Doc(query="q", choices=[refs[i], refs[i + 20]], gold_index=[0, 1]) for i in range(20)]
    responses = [ModelResponse(text=[preds[i]]) for i in range(20)]
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        got = apply_metric(responses, docs, [getattr(ex, f"{t}_batched")])
        want = apply_metric(responses, docs, [getattr(Metrics, t).value])
        assert got == want


def test_mlflow_make_metric_plugin(monkeypatch):
    defs = pytest.importorskip("mlflow.metrics.metric_definitions")
    import pandas as pd

    monkeypatch.setattr(defs, "_cached_evaluate_load", evaluate_load_for_mlflow)
    ex = _load("mlflow_rouge_metric")
    preds, refs = _pairs(50)
    metrics = ex.rouge_metrics()
    assert [m.name for m in metrics] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for m in metrics:
        got = m.eval_fn(pd.Series(preds), pd.Series(refs))
        want = getattr(defs, f"_{m.name}_eval_fn")(pd.Series(preds), pd.Series(refs))
        assert list(got.scores) == list(want.scores)
        assert got.aggregate_results == {k: float(v) for k, v in want.aggregate_results.items()}
