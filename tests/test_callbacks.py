"""rouge_metric.callbacks: decoding, the compute_metrics adapter, the TrainerCallback, the example.

The expected numbers come from the core scoring the decoded texts directly (and from rouge-score
for the means), never from the adapter itself. Training runs use the tiny offline T5 of
``rouge_metric.callbacks.testing`` on one torch thread.
"""

from __future__ import annotations

import json
import logging
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import rouge_metric  # noqa: E402
from rouge_metric.callbacks import RougeCallback, RougeComputeMetrics, decode_eval_pred  # noqa: E402
from rouge_metric.callbacks._compat import (  # noqa: E402
    TRANSFORMERS_MAX, TRANSFORMERS_MIN, check_transformers_version)
from rouge_metric.callbacks.testing import (  # noqa: E402
    build_tokenizer, encode_pairs, synthetic_pairs, tiny_setup, tiny_training_args)

from strategies import texts  # noqa: E402  (tests/strategies.py)

REPO = Path(__file__).resolve().parents[1]
TEXTS = ["the cat sat on the mat", "a dog ran over the hill today", "big red birds flew",
         "cats are running quickly", "the old river"]


@pytest.fixture(scope="module")
def tok():
    return build_tokenizer(TEXTS + [t for pair in synthetic_pairs(20) for t in pair])


def ids_of(tok, texts, width, fill=-100, lead_pad=False):
    """Token ids of texts (EOS appended), right-filled with ``fill``; optional decoder-start pad."""
    rows = [([tok.pad_token_id] if lead_pad else []) + tok(t)["input_ids"] for t in texts]
    return np.array([r + [fill] * (width - len(r)) for r in rows], dtype=np.int64)


def core_metrics(predictions, references, stats=("fmeasure",), scale=100.0, **options):
    """The expected values: the core on the texts, scaled as the adapter reports."""
    options.setdefault("use_stemmer", True)
    result = rouge_metric.compute(predictions=predictions, references=references, **options)
    return result.to_dict(stats, scale=scale)


# ------------------------------------------------------------------------------------------ decoding
def test_decode_handles_minus_100_in_labels_and_predictions(tok):
    refs = TEXTS[:3]
    preds = ["the cat sat", "", "red birds flew quickly"]
    labels = ids_of(tok, refs, 12)                       # -100 padding, as the collator makes
    gen = ids_of(tok, preds, 10, fill=-100, lead_pad=True)  # -100 from cross-batch padding
    out = decode_eval_pred(tok, gen, labels)
    assert out.predictions == preds
    assert out.references == refs
    # gen_len counts the non-pad ids: the text's tokens plus EOS, not the decoder start or the padding
    assert out.gen_lens == [len(tok(p)["input_ids"]) for p in preds]


def test_decode_tuple_logits_masks_ignored_positions(tok):
    refs = TEXTS[:2]
    labels = ids_of(tok, refs, 14)
    target = np.where(labels < 0, 5, labels)  # junk token 5 where the loss ignores the position
    logits = np.full(labels.shape + (len(tok),), -1.0, dtype=np.float32)
    np.put_along_axis(logits, target[..., None], 1.0, axis=-1)
    out = decode_eval_pred(tok, (logits, np.zeros((2, 3, 4), np.float32)), labels)
    assert out.predictions == refs  # argmax, and the ignored positions are not decoded
    assert out.references == refs


def test_decode_torch_tensors_and_bf16_logits(tok):
    refs = TEXTS[1:4]
    labels = ids_of(tok, refs, 12)
    gen = ids_of(tok, refs, 12, fill=tok.pad_token_id, lead_pad=True)
    numpy_out = decode_eval_pred(tok, gen, labels)
    tensor_out = decode_eval_pred(tok, torch.tensor(gen), torch.tensor(labels))
    assert tensor_out == numpy_out
    logits = torch.nn.functional.one_hot(torch.tensor(np.where(labels < 0, 0, labels)), len(tok)).to(torch.bfloat16)
    assert decode_eval_pred(tok, (logits,), torch.tensor(labels)).predictions == refs


def test_decode_per_batch_lists_equal_concatenated(tok):
    refs = TEXTS
    labels = ids_of(tok, refs, 12)
    gen = ids_of(tok, refs[::-1], 12, fill=tok.pad_token_id)
    whole = decode_eval_pred(tok, gen, labels)
    parts = decode_eval_pred(tok, [gen[:2], gen[2:]], [labels[:2], labels[2:, :9]])
    assert parts == whole


@pytest.mark.parametrize("preds, labels, match", [
    (np.zeros(4, np.int64), np.zeros((1, 4), np.int64), "predictions: expected token ids of shape"),
    (np.zeros((2, 4), np.int64), np.zeros((3, 4), np.int64), "same number of rows: got 2 and 3"),
    (np.full((1, 4), 0.5), np.zeros((1, 4), np.int64), "predictions: expected integer token ids"),
    (np.zeros((1, 4), np.int64), np.zeros(4, np.int64), "label_ids: expected token ids of shape"),
    ([np.zeros((1, 4), np.int64)], np.zeros((1, 4), np.int64), "both lists"),
    ([[1, 2], [1]], [[1, 2], [1, 2]], "predictions: rows of different lengths"),
])
def test_decode_rejects_bad_shapes(tok, preds, labels, match):
    with pytest.raises((ValueError, TypeError), match=match):
        decode_eval_pred(tok, preds, labels)


def test_decode_needs_a_pad_token(tok):
    class NoPad:
        pad_token_id = None

        def batch_decode(self, ids, **kw):
            return []

    with pytest.raises(ValueError, match="tokenizer: has no pad_token_id"):
        decode_eval_pred(NoPad(), np.zeros((1, 2), np.int64), np.zeros((1, 2), np.int64))


# ------------------------------------------------------------------------------------ the adapter
PREDS = ["the cats sat on a mat", "a dog ran", "", "birds flew over the old river", "the mat\ncats running quickly"]
REFS = ["the cat sat on the mat", "a dog ran over the hill today", "big red birds flew",
        "red birds flew over the river", "cats are running quickly\non the mat"]


def eval_arrays(tok):
    return ids_of(tok, PREDS, 16, fill=tok.pad_token_id, lead_pad=True), ids_of(tok, REFS, 16)


def test_adapter_equals_core_on_decoded_texts(tok):
    gen, labels = eval_arrays(tok)
    metric = RougeComputeMetrics(tok, stats=("fmeasure", "precision", "recall"))
    out = metric((gen, labels))
    expected = core_metrics(PREDS, REFS, stats=("fmeasure", "precision", "recall"))
    expected["gen_len"] = np.mean([len(tok(p)["input_ids"]) for p in PREDS])
    assert out == expected
    assert all(isinstance(v, float) for v in out.values())
    assert list(out) == metric.output_keys()
    assert out["rouge1"] > 0 and out["rougeLsum"] != out["rougeL"]  # "\n" splits rougeLsum sentences
    assert metric.last_result.n == len(PREDS)


def test_adapter_means_match_rouge_score(tok):
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    gen, labels = eval_arrays(tok)
    out = RougeComputeMetrics(tok)((gen, labels))
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    for key in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        oracle = 100 * math.fsum(scorer.score(r, p)[key].fmeasure for p, r in zip(PREDS, REFS)) / len(PREDS)
        assert out[key] == pytest.approx(oracle, rel=1e-12, abs=1e-12)


def test_batched_mode_equals_plain_mode_and_resets(tok):
    gen, labels = eval_arrays(tok)
    plain = RougeComputeMetrics(tok, num_samples=3)((gen, labels))
    metric = RougeComputeMetrics(tok, num_samples=3)
    for _ in range(2):  # a second evaluation starts from scratch
        batches = [(0, 2), (2, 3), (3, 5)]
        outs = [metric((torch.tensor(gen[a:b]), torch.tensor(labels[a:b, : 8 + a])), compute_result=(b == 5))
                for a, b in batches]
        assert outs[:-1] == [{}, {}]
        assert outs[-1] == plain
        assert metric.last_result.n == 5
        assert [s["index"] for s in metric.last_samples] == [0, 1, 2]
        assert metric.last_samples[0]["prediction"] == PREDS[0]
    assert metric._acc.values is None and metric._acc.n == 0  # sums only, reset after the evaluation


@settings(max_examples=30, deadline=None)
@given(pairs=st.lists(st.tuples(texts(max_words=10), texts(max_words=10)), min_size=1, max_size=7),
       cuts=st.sets(st.integers(1, 6), max_size=3), fill_with_pad=st.booleans())
def test_random_texts_plain_and_batched_equal_core_and_rouge_score(tok, pairs, cuts, fill_with_pad):
    """Random Unicode texts: plain == batched == the core on the decoded texts; means match rouge-score."""
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    pad = tok.pad_token_id
    gen_rows = [[pad] + tok(p)["input_ids"] for p, _ in pairs]
    label_rows = [tok(r)["input_ids"] for _, r in pairs]
    width = max(map(len, gen_rows + label_rows)) + 1
    gen = np.array([r + [pad if fill_with_pad else -100] * (width - len(r)) for r in gen_rows])
    labels = np.array([r + [-100] * (width - len(r)) for r in label_rows])
    plain = RougeComputeMetrics(tok)((gen, labels))
    texts_p, texts_r = independent_decode(tok, gen), independent_decode(tok, labels)
    assert plain == {**core_metrics(texts_p, texts_r), "gen_len": float(np.mean([len(r) - 1 for r in gen_rows]))}
    metric = RougeComputeMetrics(tok)
    bounds = [0] + sorted(c for c in cuts if c < len(pairs)) + [len(pairs)]
    for a, b in zip(bounds, bounds[1:]):
        out = metric((torch.tensor(gen[a:b]), torch.tensor(labels[a:b])), compute_result=b == len(pairs))
    assert out == plain
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    scores = [scorer.score(r, p) for p, r in zip(texts_p, texts_r)]
    for key in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        oracle = 100 * math.fsum(sc[key].fmeasure for sc in scores) / len(scores)
        assert plain[key] == pytest.approx(oracle, rel=1e-12, abs=1e-12)


def test_plain_call_drops_an_unfinished_batched_evaluation(tok):
    gen, labels = eval_arrays(tok)
    metric = RougeComputeMetrics(tok)
    metric((gen[:1], labels[:1]), compute_result=False)
    assert metric((gen, labels)) == RougeComputeMetrics(tok)((gen, labels))


def test_expected_examples_drops_distributed_sampler_duplicates(tok):
    gen, labels = eval_arrays(tok)
    padded_gen = np.concatenate([gen, gen[:2]])  # a sampler pads the last batch with the first examples
    padded_labels = np.concatenate([labels, labels[:2]])
    plain = RougeComputeMetrics(tok)((gen, labels))
    metric = RougeComputeMetrics(tok)
    metric.expected_examples = 5
    assert metric((padded_gen, padded_labels)) == plain
    assert metric.expected_examples is None  # per evaluation
    metric.expected_examples = 5
    assert metric((padded_gen[:4], padded_labels[:4]), compute_result=False) == {}
    assert metric((padded_gen[4:], padded_labels[4:]), compute_result=True) == plain


def test_sync_ranks_without_process_group_is_a_no_op(tok):
    gen, labels = eval_arrays(tok)
    assert RougeComputeMetrics(tok, sync_ranks=True)((gen, labels)) == RougeComputeMetrics(tok)((gen, labels))


def test_empty_predictions_score_zero(tok):
    labels = ids_of(tok, REFS[:2], 12)
    gen = np.full((2, 6), tok.pad_token_id)
    gen[:, 1] = tok.eos_token_id
    out = RougeComputeMetrics(tok)((gen, labels))
    assert out == {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0, "rougeLsum": 0.0, "gen_len": 1.0}


def test_zero_rows_is_an_error_not_zero_scores(tok):
    labels = ids_of(tok, REFS[:2], 12)[:0]
    gen = np.full((0, 6), tok.pad_token_id)
    metric = RougeComputeMetrics(tok)
    with pytest.raises(ValueError, match=r"no example was scored \(empty input\)"):
        metric((gen, labels))
    with pytest.raises(ValueError, match="no example was scored"):  # batch_eval_metrics: nothing before the last
        metric((gen, labels), compute_result=True)
    gen2, labels2 = eval_arrays(tok)
    assert metric((gen2, labels2)) == RougeComputeMetrics(tok)((gen2, labels2))  # usable afterwards


def test_options_reach_the_core(tok):
    gen, labels = eval_arrays(tok)
    out = RougeComputeMetrics(tok, rouge_types=["rouge1", "rougeSU4"], use_stemmer=False, scale=1.0,
                              gen_len=False)((gen, labels))
    assert out == core_metrics(PREDS, REFS, rouge_types=["rouge1", "rougeSU4"], use_stemmer=False, scale=1.0)
    assert set(out) == {"rouge1", "rougeSU4"} and out != core_metrics(PREDS, REFS, rouge_types=["rouge1", "rougeSU4"],
                                                                      scale=1.0)  # the stemmer is off above


def test_sentence_splitter_callable_and_missing_punkt(tok):
    gen, labels = eval_arrays(tok)
    split_words = lambda text: text.split()  # noqa: E731  (every word a "sentence")
    metric = RougeComputeMetrics(tok, rouge_types=["rougeLsum"], sentence_splitter=split_words)
    assert metric((gen, labels)) == {
        **core_metrics(PREDS, REFS, rouge_types=["rougeLsum"], sentence_splitter=split_words), "gen_len": metric.last_metrics["gen_len"]}
    assert "split:custom(" in metric.signature
    from nltk.tokenize import punkt_model_available

    if punkt_model_available("english"):
        pytest.skip("punkt data is installed here")
    with pytest.raises(LookupError, match="punkt_tab"):
        RougeComputeMetrics(tok, sentence_splitter="nltk")
    with pytest.raises(ValueError, match="sentence_splitter: unknown splitter 'bogus'"):
        RougeComputeMetrics(tok, sentence_splitter="bogus")


@pytest.mark.parametrize("kwargs, match", [
    ({"stats": ("f1",)}, "stats: unknown statistic 'f1'"),
    ({"stats": ()}, "stats: must not be empty"),
    ({"aggregation": "bootstrap"}, "aggregation: compute_metrics reports exact means only"),
    ({"num_samples": -1}, "num_samples: expected an integer >= 0"),
    ({"rouge_types": ["rouge0"]}, "rouge_types: invalid rouge type 'rouge0'"),
])
def test_adapter_rejects_bad_options(tok, kwargs, match):
    with pytest.raises(ValueError, match=match):
        RougeComputeMetrics(tok, **kwargs)


def test_adapter_needs_a_tokenizer():
    with pytest.raises(TypeError, match="tokenizer: expected a Hugging Face tokenizer"):
        RougeComputeMetrics(None)


# ----------------------------------------------------------------------------- versions and imports
def test_supported_transformers_range_matches_pyproject_and_is_enforced(monkeypatch, tok):
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    spec = f"transformers>={TRANSFORMERS_MIN},<{TRANSFORMERS_MAX}"
    assert spec in extras["train"] and spec in extras["test"]
    check_transformers_version(transformers.__version__)
    for ok in (TRANSFORMERS_MIN + ".0", "4.57.1", "5.0.0rc1", "5.23.0.dev0"):
        check_transformers_version(ok)
    for bad in ("4.45.2", "4.9.0", "3.5.1", TRANSFORMERS_MAX + ".0.0", "6.1"):
        with pytest.raises(ImportError, match=rf"supports transformers>=4.46,<6; found transformers {bad}\. "
                                              r"Install a supported version with pip install"):
            check_transformers_version(bad)
    # patch the module the adapter will import (another test may have re-imported transformers)
    monkeypatch.setattr(sys.modules["transformers"], "__version__", "4.40.0")
    with pytest.raises(ImportError, match="found transformers 4.40.0"):
        RougeComputeMetrics(tok)


def test_callback_import_fails_clearly_outside_the_supported_range():
    code = ("import transformers; transformers.__version__ = '4.40.0'\n"
            "try:\n    from rouge_metric.callbacks import RougeCallback\n"
            "except ImportError as exc:\n    print(exc)\nelse:\n    raise SystemExit('imported')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert "supports transformers>=4.46,<6; found transformers 4.40.0" in proc.stdout
    assert 'pip install -e ".[train]" (from a clone of rouge_metric)' in proc.stdout


def test_core_and_package_import_without_torch():
    code = ("import sys, rouge_metric, rouge_metric.callbacks; "
            "bad = [m for m in ('torch', 'transformers') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


# --------------------------------------------------------------------------------------- training
@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One short fine-tuning run with the adapter (plain mode) and the callback in reuse mode."""
    out = tmp_path_factory.mktemp("train")
    setup = tiny_setup()
    metric = RougeComputeMetrics(setup.tokenizer, num_samples=3)
    callback = RougeCallback(metric, best_metric="rouge2", num_samples=2)
    args = tiny_training_args(str(out), save_strategy="steps", save_steps=12)
    trainer = transformers.Seq2SeqTrainer(
        model=setup.model, args=args, train_dataset=setup.train_dataset, eval_dataset=setup.eval_dataset,
        data_collator=setup.data_collator, processing_class=setup.tokenizer, compute_metrics=metric,
        callbacks=[callback])
    trainer.train()
    return dict(setup=setup, metric=metric, callback=callback, trainer=trainer, out=out)


def independent_decode(tok, ids):
    ids = np.where(np.asarray(ids) < 0, tok.pad_token_id, ids)
    return [t.strip() for t in tok.batch_decode(ids.tolist(), skip_special_tokens=True)]


@pytest.mark.integration
def test_logged_rouge_equals_core_on_the_decoded_predictions(trained):
    trainer, setup = trained["trainer"], trained["setup"]
    logged = trainer.evaluate()
    assert trainer.state.log_history[-1]["eval_rouge1"] == logged["eval_rouge1"]
    pred = trainer.predict(setup.eval_dataset)  # same model, greedy: the same generations
    texts = independent_decode(setup.tokenizer, pred.predictions)
    refs = independent_decode(setup.tokenizer, pred.label_ids)
    assert refs == [s for _, s in setup.eval_pairs]
    expected = core_metrics(texts, refs)
    assert {k: logged[f"eval_{k}"] for k in expected} == expected
    assert 0 < logged["eval_rouge2"] < 100
    gen_len = np.mean(np.count_nonzero(np.where(pred.predictions < 0, 0, pred.predictions) != 0, axis=1))
    assert logged["eval_gen_len"] == gen_len


@pytest.mark.integration
def test_training_log_history_history_file_samples_and_best(trained):
    trainer, callback, out = trained["trainer"], trained["callback"], trained["out"]
    evals = [h for h in trainer.state.log_history if "eval_rouge1" in h]
    assert [h["step"] for h in evals[:2]] == [12, 24]
    lines = [json.loads(line) for line in (out / "rouge_history.jsonl").read_text().splitlines()]
    assert len(lines) == len(evals) == len(callback.history)
    for line, h in zip(lines, evals):
        assert line["step"] == h["step"] and line["prefix"] == "eval" and line["n"] == 16
        assert line["metrics"] == {k: h[f"eval_{k}"] for k in line["metrics"]}
        assert line["signature"] == trained["metric"].signature
        assert "stem:porter" in line["signature"]
    samples = [json.loads(line) for line in (out / "rouge_samples.jsonl").read_text().splitlines()]
    assert len(samples) == len(evals) and len(samples[0]["samples"]) == 2
    first = samples[-1]["samples"][0]
    assert first["reference"] == trained["setup"].eval_pairs[0][1]
    assert first["scores"]["rouge1"] == 100 * rouge_metric.compute(
        predictions=[first["prediction"]], references=[first["reference"]], use_stemmer=True).scores["rouge1"].fmeasure
    best = json.loads((out / "rouge_best.json").read_text())
    values = [line["metrics"]["rouge2"] for line in lines]
    assert best["value"] == max(values) and best["metric"] == "eval_rouge2"
    assert best["step"] == lines[values.index(max(values))]["step"]
    assert best["checkpoint"] == str(out / f"checkpoint-{best['step']}") and os.path.isdir(best["checkpoint"])
    assert "prediction" in callback.format_samples()


@pytest.mark.integration
def test_batch_eval_metrics_trainer_equals_plain(trained, tmp_path):
    setup = trained["setup"]
    results = []
    for batched in (False, True):
        metric = RougeComputeMetrics(setup.tokenizer, stats=("fmeasure", "recall"))
        args = tiny_training_args(str(tmp_path / str(batched)), batch_eval_metrics=batched,
                                  per_device_eval_batch_size=5)
        trainer = transformers.Seq2SeqTrainer(model=setup.model, args=args, eval_dataset=setup.eval_dataset,
                                              data_collator=setup.data_collator, processing_class=setup.tokenizer,
                                              compute_metrics=metric)
        out = trainer.evaluate()
        results.append({k: v for k, v in out.items() if k[5:] in metric.output_keys()})
        assert metric.last_result.n == len(setup.eval_dataset)
    assert len(results[0]) == 9 and results[0] == results[1]


class Recorder(transformers.TrainerCallback):
    """Stands for a reporter (TensorBoard, W&B): records every on_log payload."""

    def __init__(self):
        self.logs = []

    def on_log(self, args, state, control, logs=None, **kwargs):
        self.logs.append(dict(logs))


@pytest.mark.integration
def test_generate_mode_logs_through_the_trainer(trained, tmp_path):
    setup = trained["setup"]
    subset = setup.eval_dataset[:6]
    recorder = Recorder()
    callback = RougeCallback(eval_dataset=subset, batch_size=4, best_metric="rougeL")
    args = tiny_training_args(str(tmp_path), predict_with_generate=False, metric_for_best_model="eval_subset_rougeL",
                              save_strategy="steps", save_steps=12, max_steps=12, learning_rate=1e-9)
    trainer = transformers.Seq2SeqTrainer(model=setup.model, args=args, train_dataset=setup.train_dataset,
                                          eval_dataset=setup.eval_dataset, data_collator=setup.data_collator,
                                          processing_class=setup.tokenizer, callbacks=[recorder, callback])
    callback.bind(trainer)
    trainer.train()
    entries = [h for h in trainer.state.log_history if "eval_subset_rougeL" in h]
    assert len(entries) == 1 and entries[0]["step"] == 12
    assert any("eval_subset_rougeL" in logs for logs in recorder.logs)  # reporters receive it
    assert trainer.state.best_metric == entries[0]["eval_subset_rougeL"]  # metric_for_best_model saw it
    # independent: generate on the subset here and score with the core
    setup.model.eval()
    batch = setup.tokenizer.pad([{"input_ids": r["input_ids"]} for r in subset], return_tensors="pt")
    with torch.no_grad():
        gen = setup.model.generate(**batch, max_length=12)
    texts = independent_decode(setup.tokenizer, gen.numpy())
    refs = [s for _, s in setup.eval_pairs[:6]]
    expected = core_metrics(texts, refs)
    assert {k: entries[0][f"eval_subset_{k}"] for k in expected} == expected
    history = [json.loads(x) for x in (tmp_path / "rouge_history.jsonl").read_text().splitlines()]
    assert history[0]["mode"] == "generate" and history[0]["n"] == 6
    assert json.loads((tmp_path / "rouge_best.json").read_text())["checkpoint"] == str(tmp_path / "checkpoint-12")


@pytest.mark.integration
def test_generate_mode_without_bind_updates_log_history_and_warns(trained, tmp_path, caplog):
    setup = trained["setup"]
    callback = RougeCallback(eval_dataset=setup.eval_dataset[:3], tokenizer=setup.tokenizer)
    args = tiny_training_args(str(tmp_path), predict_with_generate=False)
    trainer = transformers.Seq2SeqTrainer(model=setup.model, args=args, eval_dataset=setup.eval_dataset,
                                          data_collator=setup.data_collator, processing_class=setup.tokenizer,
                                          callbacks=[callback])
    with caplog.at_level("WARNING", logger="rouge_metric"):
        out = trainer.evaluate()
    assert "eval_subset_rouge1" in out and "eval_loss" in out
    assert trainer.state.log_history[-1]["eval_subset_rouge1"] == out["eval_subset_rouge1"]
    assert "call callback.bind(trainer)" in caplog.text


@pytest.mark.integration
def test_reuse_mode_warns_when_the_adapter_was_not_called(trained, tmp_path, caplog):
    setup = trained["setup"]
    callback = RougeCallback(RougeComputeMetrics(setup.tokenizer))
    args = tiny_training_args(str(tmp_path))
    trainer = transformers.Seq2SeqTrainer(model=setup.model, args=args, eval_dataset=setup.eval_dataset[:4],
                                          data_collator=setup.data_collator, processing_class=setup.tokenizer,
                                          callbacks=[callback])
    with caplog.at_level("WARNING", logger="rouge_metric"):
        trainer.evaluate()
    assert "was not called in this evaluation" in caplog.text
    assert callback.history == [] and not (tmp_path / "rouge_history.jsonl").exists()


@pytest.mark.integration
def test_reuse_mode_keeps_and_writes_samples_with_the_adapter_default(trained, tmp_path):
    """The documented set-up, RougeComputeMetrics(tokenizer) (num_samples=0 by default) as compute_metrics and
    RougeCallback(metric, num_samples=N): the callback raises the adapter's num_samples, so rouge_samples.jsonl
    holds N samples scored as the core scores the decoded predictions."""
    setup = trained["setup"]
    metric = RougeComputeMetrics(setup.tokenizer)
    callback = RougeCallback(metric, num_samples=3)
    assert metric.num_samples == 3
    trainer = transformers.Seq2SeqTrainer(model=setup.model, args=tiny_training_args(str(tmp_path)),
                                          eval_dataset=setup.eval_dataset, data_collator=setup.data_collator,
                                          processing_class=setup.tokenizer, compute_metrics=metric,
                                          callbacks=[callback])
    trainer.evaluate()
    lines = [json.loads(x) for x in (tmp_path / "rouge_samples.jsonl").read_text().splitlines()]
    assert len(lines) == 1 and len(lines[0]["samples"]) == 3 and callback.samples == lines[0]["samples"]
    pred = trainer.predict(setup.eval_dataset)  # same model, greedy: the same generations
    texts = independent_decode(setup.tokenizer, pred.predictions)
    for i, sample in enumerate(lines[0]["samples"]):
        assert (sample["index"], sample["prediction"], sample["reference"]) == (i, texts[i], setup.eval_pairs[i][1])
        want = rouge_metric.compute(predictions=[texts[i]], references=[setup.eval_pairs[i][1]], use_stemmer=True)
        assert sample["scores"] == {t: 100 * want.scores[t].fmeasure for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")}
    # a larger num_samples on the adapter is kept (the callback writes its own num_samples of them)
    wide = RougeComputeMetrics(setup.tokenizer, num_samples=5)
    RougeCallback(wide, num_samples=2)
    assert wide.num_samples == 5


class _TransformersWarnings(logging.Handler):
    """Collects the records of the ``transformers`` logger (which does not propagate to the root logger)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())

    def __enter__(self):
        logging.getLogger("transformers").addHandler(self)
        return self

    def __exit__(self, *exc):
        logging.getLogger("transformers").removeHandler(self)


@pytest.mark.integration
def test_generate_mode_sets_one_length_and_the_user_kwargs_win(trained, tmp_path):
    """generation_max_length (args) and max_new_tokens (the user's generation_kwargs): generate receives only
    max_new_tokens, so transformers does not warn "Both max_new_tokens and max_length"; the scores are those of
    generating with max_new_tokens alone."""
    setup = trained["setup"]
    assert setup.model.generation_config.max_length is not None  # the model's own length: the other trap
    subset = setup.eval_dataset[:4]
    callback = RougeCallback(eval_dataset=subset, batch_size=4, generation_kwargs={"max_new_tokens": 5})
    args = tiny_training_args(str(tmp_path), predict_with_generate=False, generation_max_length=16)
    assert callback._generation_kwargs(args) == {"max_new_tokens": 5}
    trainer = transformers.Seq2SeqTrainer(model=setup.model, args=args, eval_dataset=setup.eval_dataset,
                                          data_collator=setup.data_collator, processing_class=setup.tokenizer,
                                          callbacks=[callback])
    callback.bind(trainer)
    with _TransformersWarnings() as caught:
        out = trainer.evaluate()
    assert not [m for m in caught.messages if "max_new_tokens" in m], caught.messages
    setup.model.eval()
    batch = setup.tokenizer.pad([{"input_ids": r["input_ids"]} for r in subset], return_tensors="pt")
    with torch.no_grad():
        gen = setup.model.generate(**batch, max_new_tokens=5)
    expected = core_metrics(independent_decode(setup.tokenizer, gen.numpy()), [s for _, s in setup.eval_pairs[:4]])
    assert {k: out[f"eval_subset_{k}"] for k in expected} == expected
    assert setup.model.generation_config.max_length == 12  # put back after each generate call
    # without a user length, generation_max_length is used
    assert RougeCallback(eval_dataset=subset, generation_kwargs={"num_beams": 2})._generation_kwargs(args) == \
        {"max_length": 16, "num_beams": 2}


@pytest.mark.parametrize("kwargs, match", [
    ({}, "RougeCallback needs compute_metrics="),
    ({"compute_metrics": lambda p: {}}, "compute_metrics: expected a RougeComputeMetrics"),
    ({"eval_dataset": []}, "eval_dataset: expected a non-empty"),
    ({"eval_dataset": [{"input_ids": [1]}]}, r"eval_dataset\[0\]: .* missing 'labels'"),
    ({"batch_size": 0, "eval_dataset": [{"input_ids": [1], "labels": [1]}]}, "batch_size: expected an integer >= 1"),
    ({"eval_dataset": [{"input_ids": [1], "labels": [1]}], "stats": ("f",)}, "stats: unknown statistic 'f'"),
    ({"eval_dataset": [{"input_ids": [1], "labels": [1]}], "best_metric": "rougeW"}, "best_metric: 'rougeW' is not"),
])
def test_callback_rejects_bad_arguments(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        RougeCallback(**kwargs)


def test_callback_best_metric_must_be_a_reported_key(tok):
    with pytest.raises(ValueError, match=r"best_metric: 'rouge3' is not a ROUGE key of this scorer; allowed: "
                                         r"\['rouge1', 'rouge2', 'rougeL', 'rougeLsum'\]"):
        RougeCallback(RougeComputeMetrics(tok), best_metric="rouge3")
    RougeCallback(RougeComputeMetrics(tok, stats=("recall",)), best_metric="rouge2_recall")


def test_dataset_length_of_dataloaders():
    from rouge_metric.callbacks.trainer_callback import dataset_length

    class Prepared:  # accelerate's DataLoaderShard knows the unsharded size
        total_dataset_length = 13
        dataset = [0] * 7

    assert dataset_length(None) is None
    assert dataset_length(torch.utils.data.DataLoader(list(range(9)), batch_size=4)) == 9
    assert dataset_length(Prepared()) == 13
    assert dataset_length(torch.utils.data.DataLoader(iter(range(3)))) is None  # an iterable has no size


# ---------------------------------------------------------------------------------------- example
@pytest.mark.integration
def test_example_tiny_run_writes_history(tmp_path):
    env = dict(os.environ, OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "train_summarization.py"), "--tiny",
                           "--batch-eval-metrics", "--output-dir", str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = [json.loads(x) for x in (tmp_path / "rouge_history.jsonl").read_text().splitlines()]
    assert [x["step"] for x in lines] == [12, 24, 24]  # two evaluations while training, one final
    assert set(lines[0]["metrics"]) == {"rouge1", "rouge2", "rougeL", "rougeLsum", "gen_len"}
    assert lines[-1]["n"] == 16 and lines[-1]["metrics"]["rouge1"] > 0
    assert json.loads((tmp_path / "rouge_best.json").read_text())["metric"] == "eval_rougeL"


@pytest.mark.parametrize("name", ["_compat", "compute_metrics", "decode", "testing", "trainer_callback", "_dist"])
def test_module_doctests(name):
    """rouge_metric.callbacks lives outside rouge_metric/ (package-dir mapping), so tests/test_docs.py misses it."""
    import doctest
    import importlib

    mod = importlib.import_module(f"rouge_metric.callbacks.{name}")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in doctest.DocTestFinder().find(mod, mod.__name__):
        runner.run(test)
    assert runner.failures == 0


# ------------------------------------------------------------------------------------- id mode (opt-in)
def test_score_ids_mode_equals_rouge_score_on_id_texts():
    """score_ids=True scores the ids themselves: -100, pad and special ids dropped, no decoding.
    Oracle: rouge-score on ``w<id>`` texts of the kept ids."""
    from rouge_score import rouge_scorer

    tok = build_tokenizer(["the cat sat on the mat", "a dog ran far away"])
    pad, eos = tok.pad_token_id, tok.eos_token_id
    labels = np.array([tok("the cat sat on the mat")["input_ids"], tok("a dog ran")["input_ids"] + [-100] * 3])
    preds = np.array([[pad] + tok("the cat sat")["input_ids"] + [pad] * 3, [pad] + tok("a dog ran far")["input_ids"] + [pad] * 2])
    metric = RougeComputeMetrics(tok, score_ids=True)
    got = metric((preds, labels))
    special = set(tok.all_special_ids) | {-100}
    text = lambda ids: " ".join(f"w{i}" for i in ids if i not in special)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    per = [scorer.score(text(l), text(p)) for p, l in zip(preds.tolist(), labels.tolist())]
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert got[t] == pytest.approx(100 * (per[0][t].fmeasure + per[1][t].fmeasure) / 2, rel=1e-12)
    assert "tok:ids" in metric.signature and f"ignore:-100,{','.join(map(str, sorted(special - {-100})))}" in metric.signature
    assert "tok:ids" not in RougeComputeMetrics(tok).signature  # never the default
    assert got["gen_len"] == RougeComputeMetrics(tok)((preds, labels))["gen_len"]


def test_score_ids_mode_errors():
    tok = build_tokenizer(["a b c"])
    with pytest.raises(ValueError, match=r"use_stemmer: stemming needs words"):
        RougeComputeMetrics(tok, score_ids=True, use_stemmer=True)
    with pytest.raises(ValueError, match=r"sentence_splitter: not used with score_ids=True"):
        RougeComputeMetrics(tok, score_ids=True, sentence_splitter="offline")
    with pytest.raises(ValueError, match=r"rouge_tokenizer: score_ids=True"):
        RougeComputeMetrics(tok, score_ids=True, rouge_tokenizer="unicode")
