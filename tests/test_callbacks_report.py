"""RougeCallback's HTML report and its per-example distributions in TensorBoard.

The fast tests drive the callback's hooks with the metric called on hand-made token ids (no training);
the integration tests run the tiny offline T5 of ``rouge_metric.callbacks.testing`` through a real
``Seq2SeqTrainer`` with ``report_to="tensorboard"`` and read the event files back.
"""

from __future__ import annotations

import glob
import json
import math
import os
import sys
import types

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("matplotlib")

import rouge_metric  # noqa: E402
from rouge_metric.callbacks import RougeCallback, RougeComputeMetrics  # noqa: E402
from rouge_metric.callbacks.evaluation_record import F_BINS, EvaluationRecord, Summary  # noqa: E402
from rouge_metric.callbacks.testing import (  # noqa: E402
    build_tokenizer, synthetic_pairs, tiny_setup, tiny_training_args)
from rouge_metric.callbacks.report_outputs import REPORT_OPTIONS  # noqa: E402

PAIRS = synthetic_pairs(12, seed=3)
REFS = [s for _, s in PAIRS]
PREDS = [" ".join(d.split()[:i % 5 + 1]) for i, (d, _) in enumerate(PAIRS)]


@pytest.fixture(scope="module")
def tok():
    return build_tokenizer([t for p in PAIRS for t in p])


def ids_of(tok, texts, fill, lead_pad=False):
    rows = [([tok.pad_token_id] if lead_pad else []) + tok(t)["input_ids"] for t in texts]
    width = max(map(len, rows))
    return np.array([r + [fill] * (width - len(r)) for r in rows], dtype=np.int64)


@pytest.fixture(scope="module")
def eval_arrays(tok):
    return ids_of(tok, PREDS, tok.pad_token_id, lead_pad=True), ids_of(tok, REFS, -100)


def fake_state(step, world_zero=True):
    return types.SimpleNamespace(global_step=step, epoch=float(step), is_world_process_zero=world_zero,
                                 log_history=[])


def evaluate_once(cb, metric, arrays, out_dir, step, world_zero=True):
    """What the Trainer does at an evaluation: call compute_metrics, log, then on_evaluate."""
    values = metric(arrays)
    metrics = {f"eval_{k}": v for k, v in values.items()}
    metrics["eval_runtime"] = 0.1
    cb.on_evaluate(types.SimpleNamespace(output_dir=str(out_dir)), fake_state(step, world_zero), None, metrics=metrics)
    return values


# ------------------------------------------------------------------------------------- the record
def test_summary_fixed_and_whole_number_bins():
    h = Summary([25.0, 50.0, 75.0, 100.0])
    for v in (0.0, 25.0, 25.5, 99.0, 100.0):
        h.add(v)
    assert h.buckets() == ([25.0, 50.0, 75.0, 100.0], [2, 1, 0, 2])
    assert (h.n, h.min, h.max, h.sum) == (5, 0.0, 100.0, 249.5)
    lengths = Summary()
    for v in (3.0, 2.5, 3.0, 7.0):
        lengths.add(v)
    assert lengths.buckets() == ([3.0, 7.0], [3, 1])  # 2.5 counts in (2, 3]
    assert lengths.sum_squares == 9 + 6.25 + 9 + 49


def test_record_on_keeps_the_logged_numbers_and_matches_the_core(tok, eval_arrays):
    plain = RougeComputeMetrics(tok)(eval_arrays)
    metric = RougeComputeMetrics(tok, record=True, keep_texts=5)
    assert metric(eval_arrays) == plain  # the same floats, record or not
    rec = metric.last_record
    core = rouge_metric.compute(predictions=PREDS, references=REFS, use_stemmer=True, return_per_example=True)
    assert rec.n == len(PREDS)
    assert rec.predictions == PREDS[:5] and rec.references == REFS[:5]
    for t in metric.rouge.rouge_types:
        fs = [ex[t].fmeasure * 100 for ex in core.per_example]
        limits, counts = rec.f[t].buckets()
        assert len(limits) == F_BINS and sum(counts) == len(PREDS)
        expected = [0] * F_BINS
        for f in fs:
            expected[min(max(math.ceil(f / (100 / F_BINS)) - 1, 0), F_BINS - 1)] += 1
        assert counts == expected
        assert rec.f[t].min == min(fs) and rec.f[t].max == max(fs)
        assert rec.f[t].sum == pytest.approx(sum(fs))
    assert rec.scalars()["pred_len"] == pytest.approx(core.pred_len)
    assert rec.scalars()["ref_len"] == pytest.approx(core.ref_len)
    assert rec.scalars()["len_ratio"] == pytest.approx(core.pred_len / core.ref_len)


def test_record_in_batched_mode_equals_plain_mode(tok, eval_arrays):
    gen, labels = eval_arrays
    plain = RougeComputeMetrics(tok, record=True, keep_texts=100)
    expected = plain((gen, labels))
    batched = RougeComputeMetrics(tok, record=True, keep_texts=100)
    assert batched((gen[:5], labels[:5]), compute_result=False) == {}
    assert batched((gen[5:], labels[5:]), compute_result=True) == expected
    a, b = plain.last_record, batched.last_record
    assert (a.predictions, a.references) == (b.predictions, b.references) == (PREDS, REFS)
    assert {t: h.buckets() for t, h in a.histograms().items()} == {t: h.buckets() for t, h in b.histograms().items()}


def test_record_memory_is_bounded_by_keep_texts(tok, eval_arrays):
    metric = RougeComputeMetrics(tok, record=True, keep_texts=3)
    for _ in range(4):
        metric(eval_arrays, compute_result=False)
    metric(eval_arrays, compute_result=True)
    rec = metric.last_record
    assert rec.n == 5 * len(PREDS) and len(rec.predictions) == 3
    assert len(rec.pred_len.counts) <= max(rec.pred_len.counts)  # one counter per distinct whole length


def test_record_off_by_default(tok, eval_arrays):
    metric = RougeComputeMetrics(tok)
    metric(eval_arrays)
    assert metric.last_record is None


# ----------------------------------------------------------------------------------- the report
def test_report_each_writes_one_page_per_evaluation_on_the_main_process(tok, eval_arrays, tmp_path):
    metric = RougeComputeMetrics(tok)
    cb = RougeCallback(metric, report="each", report_options={"n_resamples": 50, "test_resamples": 50})
    assert metric.record and metric.keep_texts == 5000  # the callback turns the record on
    values = evaluate_once(cb, metric, eval_arrays, tmp_path, step=7)
    assert values == RougeComputeMetrics(tok)(eval_arrays)  # the logged numbers do not change
    path = tmp_path / "rouge_report-step-7.html"
    assert cb.reports == [str(path)]
    page = path.read_text(encoding="utf-8")
    assert "ROUGE at step 7 (eval)" in page and "global step 7" in page and "all 12 examples" in page
    assert "<script src" not in page
    # a second process (not world zero) writes nothing
    other = tmp_path / "rank1"
    evaluate_once(cb, metric, eval_arrays, other, step=8, world_zero=False)
    assert not other.exists()


def test_report_numbers_are_the_logged_numbers(tok, eval_arrays, tmp_path, monkeypatch):
    import rouge_metric.report as report_pkg

    built = []
    real = report_pkg.report

    def spy(*args, **kwargs):
        built.append(real(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(report_pkg, "report", spy)
    metric = RougeComputeMetrics(tok, stats=("fmeasure", "recall"))
    cb = RougeCallback(metric, report="each", report_options={"n_resamples": 20, "test_resamples": 20, "seed": 3})
    values = evaluate_once(cb, metric, eval_arrays, tmp_path, step=2)
    (rep,) = built
    result = rep.results["step 2"]
    assert result.n == len(PREDS)
    for t in metric.rouge.rouge_types:
        assert result.scores[t].fmeasure * 100 == values[t]  # the same float
        assert result.scores[t].recall * 100 == values[f"{t}_recall"]


def test_report_best_rewrites_only_on_a_better_evaluation(tok, eval_arrays, tmp_path, monkeypatch):
    metric = RougeComputeMetrics(tok)
    cb = RougeCallback(metric, report="best", report_options={"n_resamples": 20, "test_resamples": 20})
    evaluate_once(cb, metric, eval_arrays, tmp_path, step=1)
    best = tmp_path / "rouge_report-best.html"
    assert best.exists() and "global step 1" in best.read_text(encoding="utf-8")
    worse = (eval_arrays[0][:, :2], eval_arrays[1])  # the first generated ids only: lower ROUGE
    evaluate_once(cb, metric, worse, tmp_path, step=2)
    assert "global step 1" in best.read_text(encoding="utf-8")
    evaluate_once(cb, metric, eval_arrays, tmp_path, step=3)  # a tie is not better
    assert "global step 1" in best.read_text(encoding="utf-8")
    assert sorted(os.listdir(tmp_path)) == ["rouge_best.json", "rouge_history.jsonl", "rouge_report-best.html",
                                            "rouge_samples.jsonl"]
    assert json.loads((tmp_path / "rouge_best.json").read_text())["step"] == 1


def test_report_covers_the_first_report_max_examples(tok, eval_arrays, tmp_path):
    metric = RougeComputeMetrics(tok)
    cb = RougeCallback(metric, report="each", report_max_examples=4,
                       report_options={"n_resamples": 20, "test_resamples": 20, "title": "tiny <run>"})
    evaluate_once(cb, metric, eval_arrays, tmp_path, step=4)
    page = (tmp_path / "rouge_report-step-4.html").read_text(encoding="utf-8")
    assert "the first 4 of 12 examples (report_max_examples)" in page
    assert "tiny &lt;run&gt;" in page and "tiny <run>" not in page


def test_fresh_run_removes_the_reports_of_an_earlier_run(tok, tmp_path):
    for name in ("rouge_report-step-3.html", "rouge_report-best.html", "rouge_report-step-x.html", "other.html"):
        (tmp_path / name).write_text("old")
    cb = RougeCallback(RougeComputeMetrics(tok), report="each")
    cb.on_train_begin(types.SimpleNamespace(output_dir=str(tmp_path)), fake_state(0), None)
    assert sorted(os.listdir(tmp_path)) == ["other.html", "rouge_report-step-x.html"]


@pytest.mark.parametrize("kwargs, error, match", [
    ({"report": "all"}, ValueError, r"report: expected one of 'each', 'best', None, got 'all'"),
    ({"report": True}, ValueError, r"report: expected one of 'each', 'best', None, got True"),
    ({"report": "best", "best_metric": None}, ValueError, r"report: 'best' needs best_metric"),
    ({"report": "each", "report_max_examples": 0}, ValueError, r"report_max_examples: expected an integer >= 1"),
    ({"report": "each", "report_options": {"rouge_types": ["rouge1"]}}, ValueError,
     r"report_options: unknown key 'rouge_types'; allowed: 'max_examples', 'explain_examples'"),
    ({"report": "each", "report_options": ["seed"]}, TypeError, r"report_options: expected a dict, got list"),
    ({"distributions": "yes"}, ValueError, r"distributions: expected True or False, got 'yes'"),
])
def test_bad_options_name_the_argument_and_the_allowed_set(tok, kwargs, error, match):
    with pytest.raises(error, match=match):
        RougeCallback(RougeComputeMetrics(tok), **kwargs)


def test_every_report_option_reaches_the_report(tok, eval_arrays, tmp_path, caplog):
    values = {"max_examples": 5, "explain_examples": 0, "test_resamples": 20, "n_resamples": 20, "confidence_level": 0.9, "seed": 1,
              "title": "every option"}
    assert sorted(values) == sorted(REPORT_OPTIONS)
    metric = RougeComputeMetrics(tok)
    cb = RougeCallback(metric, report="each", report_options=values)
    with caplog.at_level("WARNING", logger="rouge_metric"):
        evaluate_once(cb, metric, eval_arrays, tmp_path, step=1)
    assert "not written" not in caplog.text
    page = (tmp_path / "rouge_report-step-1.html").read_text(encoding="utf-8")
    assert "every option" in page and "90%" in page.replace("90 %", "90%")
    assert "No explanation is embedded (explain_examples=0)" in page


def test_report_rejects_a_metric_that_scores_token_ids(tok):
    with pytest.raises(ValueError, match=r"report: the HTML report shows texts.*score_ids=True"):
        RougeCallback(RougeComputeMetrics(tok, score_ids=True), report="best")


def test_missing_report_extra_fails_at_construction(tok, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(ImportError, match=r"\[report\] extra"):
        RougeCallback(RougeComputeMetrics(tok), report="each")
    RougeCallback(RougeComputeMetrics(tok), report=None, distributions=True)  # neither needs matplotlib


def test_a_failing_report_is_logged_and_the_evaluation_goes_on(tok, eval_arrays, tmp_path, monkeypatch, caplog):
    import rouge_metric.report as report_pkg

    def broken(*args, **kwargs):
        raise MemoryError("no room")

    monkeypatch.setattr(report_pkg, "report", broken)
    metric = RougeComputeMetrics(tok)
    cb = RougeCallback(metric, report="each")
    with caplog.at_level("WARNING", logger="rouge_metric"):
        evaluate_once(cb, metric, eval_arrays, tmp_path, step=9)
    assert "the HTML report of step 9 was not written: MemoryError: no room" in caplog.text
    assert cb.reports == [] and (tmp_path / "rouge_history.jsonl").exists()


# ------------------------------------------------------------------------------------ TensorBoard
def read_events(log_dir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(log_dir), size_guidance={"histograms": 0, "scalars": 0})
    acc.Reload()
    return acc


def test_distributions_go_to_the_trainers_tensorboard_writer(tok, eval_arrays, tmp_path):
    pytest.importorskip("tensorboard")
    from torch.utils.tensorboard import SummaryWriter
    from transformers.integrations import TensorBoardCallback

    tb = TensorBoardCallback(tb_writer=SummaryWriter(log_dir=str(tmp_path / "runs")))
    trainer = types.SimpleNamespace(callback_handler=types.SimpleNamespace(callbacks=[tb]))
    metric = RougeComputeMetrics(tok)
    cb = RougeCallback(metric, distributions=True).bind(trainer)
    evaluate_once(cb, metric, eval_arrays, tmp_path, step=6)
    tb.tb_writer.close()
    assert not glob.glob(str(tmp_path / "rouge_report-*"))  # distributions alone write no report
    acc = read_events(tmp_path / "runs")
    tags = acc.Tags()
    expected_hist = [f"eval/{t}_per_example" for t in metric.rouge.rouge_types] + [
        "eval/pred_len_per_example", "eval/ref_len_per_example"]
    assert sorted(tags["histograms"]) == sorted(expected_hist) == sorted(t for t in cb.logged_tags if "per_example" in t)
    assert sorted(tags["scalars"]) == ["eval/len_ratio", "eval/pred_len", "eval/ref_len"]
    rec = metric.last_record
    (event,) = acc.Histograms("eval/rouge1_per_example")
    assert event.step == 6 and event.histogram_value.num == len(PREDS)
    assert (list(event.histogram_value.bucket_limit), list(event.histogram_value.bucket)) == rec.f["rouge1"].buckets()
    assert event.histogram_value.max == pytest.approx(rec.f["rouge1"].max)
    (pred_len,) = acc.Scalars("eval/pred_len")
    assert pred_len.step == 6 and pred_len.value == pytest.approx(metric.last_result.pred_len)


def test_distributions_without_a_writer_warn_once(tok, eval_arrays, tmp_path, caplog):
    metric = RougeComputeMetrics(tok)
    cb = RougeCallback(metric, distributions=True)
    with caplog.at_level("WARNING", logger="rouge_metric"):
        evaluate_once(cb, metric, eval_arrays, tmp_path, step=1)
        evaluate_once(cb, metric, eval_arrays, tmp_path, step=2)
    assert caplog.text.count("call callback.bind(trainer) and use report_to='tensorboard'") == 1
    assert cb.logged_tags == []


# ------------------------------------------------------------------------------ real Trainer runs
def _eval_entries(log_history):
    return [{k: v for k, v in e.items() if not k.endswith(("_runtime", "_per_second"))}
            for e in log_history if "eval_rouge1" in e or "eval_subset_rouge1" in e]


def _train(out_dir, callbacks_of, report_to="none", **overrides):
    setup = tiny_setup()
    metric = RougeComputeMetrics(setup.tokenizer)
    callback = callbacks_of(metric)
    args = tiny_training_args(str(out_dir), report_to=report_to, **overrides)
    trainer = transformers.Seq2SeqTrainer(
        model=setup.model, args=args, train_dataset=setup.train_dataset, eval_dataset=setup.eval_dataset,
        data_collator=setup.data_collator, processing_class=setup.tokenizer, compute_metrics=metric,
        callbacks=[callback] if callback is not None else [])
    if callback is not None:
        callback.bind(trainer)
    trainer.train()
    return trainer, callback, metric


@pytest.mark.integration
def test_trainer_run_writes_reports_and_tensorboard_histograms(tmp_path, monkeypatch):
    pytest.importorskip("tensorboard")
    monkeypatch.setenv("TENSORBOARD_LOGGING_DIR", str(tmp_path / "tb"))
    baseline, _, _ = _train(tmp_path / "plain", lambda m: RougeCallback(m))
    trainer, cb, metric = _train(
        tmp_path / "run", lambda m: RougeCallback(m, report="each", distributions=True,
                                                  report_options={"n_resamples": 50, "test_resamples": 50}),
        report_to="tensorboard")
    # the logged numbers and keys are those of a run without the report and the histograms
    assert _eval_entries(trainer.state.log_history) == _eval_entries(baseline.state.log_history)
    steps = [e["step"] for e in _eval_entries(trainer.state.log_history)]
    assert steps == [12, 24]
    assert sorted(os.path.basename(p) for p in cb.reports) == ["rouge_report-step-12.html", "rouge_report-step-24.html"]
    for p in cb.reports:
        assert "all 16 examples" in open(p, encoding="utf-8").read()
    acc = read_events(tmp_path / "tb")
    tags = acc.Tags()
    for t in metric.rouge.rouge_types:
        events = acc.Histograms(f"eval/{t}_per_example")
        assert [e.step for e in events] == [12, 24]
        assert all(e.histogram_value.num == 16 for e in events)
    assert [e.step for e in acc.Histograms("eval/pred_len_per_example")] == [12, 24]
    for name in ("pred_len", "ref_len", "len_ratio"):
        assert [e.step for e in acc.Scalars(f"eval/{name}")] == [12, 24]
    # the Trainer's own scalars are still there, unchanged
    rouge1 = acc.Scalars("eval/rouge1")
    logged = [e["eval_rouge1"] for e in _eval_entries(trainer.state.log_history)]
    assert [e.value for e in rouge1] == pytest.approx(logged, rel=1e-6)
    assert "eval/rouge1" in tags["scalars"] and "eval/rouge1_per_example" not in tags["scalars"]


@pytest.mark.integration
def test_trainer_run_report_best_and_generate_mode_distributions(tmp_path, monkeypatch):
    pytest.importorskip("tensorboard")
    monkeypatch.setenv("TENSORBOARD_LOGGING_DIR", str(tmp_path / "tb"))
    setup = tiny_setup()
    callback = RougeCallback(eval_dataset=setup.eval_dataset[:8], report="best", distributions=True,
                             metric_prefix="eval_subset", report_options={"n_resamples": 20, "test_resamples": 20})
    args = tiny_training_args(str(tmp_path / "run"), report_to="tensorboard", predict_with_generate=False)
    trainer = transformers.Seq2SeqTrainer(
        model=setup.model, args=args, train_dataset=setup.train_dataset, eval_dataset=setup.eval_dataset,
        data_collator=setup.data_collator, processing_class=setup.tokenizer, callbacks=[callback])
    callback.bind(trainer)
    trainer.train()
    best = tmp_path / "run" / "rouge_report-best.html"
    assert best.exists() and f"global step {callback.best['step']}" in best.read_text(encoding="utf-8")
    assert not glob.glob(str(tmp_path / "run" / "rouge_report-step-*"))
    acc = read_events(tmp_path / "tb")
    events = acc.Histograms("eval_subset/rougeL_per_example")
    assert [e.step for e in events] == [12, 24] and all(e.histogram_value.num == 8 for e in events)
    assert [e.step for e in acc.Scalars("eval_subset/len_ratio")] == [12, 24]
