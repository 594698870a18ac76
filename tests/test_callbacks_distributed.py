"""Distributed evaluation: ROUGE logged under ``torchrun --nproc_per_node 2`` (CPU, gloo) equals one process's.

This file is also the torchrun worker (``python tests/test_callbacks_distributed.py MODEL_DIR OUT_DIR``): every
rank evaluates the same saved tiny model with ``Seq2SeqTrainer`` in the plain and the
``batch_eval_metrics`` modes, runs the generate-mode callback and a custom loop that merges per-rank
accumulators (``sync_ranks=True``), and writes what it saw to ``OUT_DIR/rank<r>.json``.
The eval set (13 examples, 4 per device) does not divide evenly, so the sampler pads the last batch
with duplicates; the numbers must still be those of one process.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

N_EVAL = 13


def evaluate_all(model_dir: str, out_dir: str) -> Dict[str, Any]:
    """Evaluate the saved model every way; return what this rank saw (also used for the 1-process reference)."""
    import torch
    import transformers

    from rouge_metric.callbacks import RougeCallback, RougeComputeMetrics
    from rouge_metric.callbacks.testing import encode_pairs, synthetic_pairs, tiny_training_args

    torch.set_num_threads(1)
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    model = transformers.T5ForConditionalGeneration.from_pretrained(model_dir)
    eval_ds = encode_pairs(tokenizer, synthetic_pairs(N_EVAL, seed=1))
    collator = transformers.DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100)
    seen: Dict[str, Any] = {}
    for batched in (False, True):
        metric = RougeComputeMetrics(tokenizer, stats=("fmeasure", "precision", "recall"), num_samples=2)
        callback = RougeCallback(metric)
        args = tiny_training_args(os.path.join(out_dir, f"run_batched{int(batched)}"), per_device_eval_batch_size=4,
                                  batch_eval_metrics=batched)
        trainer = transformers.Seq2SeqTrainer(model=model, args=args, eval_dataset=eval_ds, data_collator=collator,
                                              processing_class=tokenizer, compute_metrics=metric, callbacks=[callback])
        out = trainer.evaluate()
        seen[f"batched{int(batched)}"] = {k[len("eval_"):]: v for k, v in out.items() if k[len("eval_"):] in
                                          metric.output_keys()}
        seen[f"batched{int(batched)}_n"] = metric.last_result.n
    # without the callback nobody tells the adapter the eval set size: what Seq2SeqTrainer hands it
    metric = RougeComputeMetrics(tokenizer)
    args = tiny_training_args(os.path.join(out_dir, "run_plain"), per_device_eval_batch_size=4)
    transformers.Seq2SeqTrainer(model=model, args=args, eval_dataset=eval_ds, data_collator=collator,
                                processing_class=tokenizer, compute_metrics=metric).evaluate()
    seen["no_callback_n"] = metric.last_result.n
    # generate mode: every rank generates the fixed subset; the values reach log_history via trainer.log
    callback = RougeCallback(eval_dataset=eval_ds[:7], batch_size=3)
    args = tiny_training_args(os.path.join(out_dir, "run_generate"), per_device_eval_batch_size=4,
                              predict_with_generate=False)
    trainer = transformers.Seq2SeqTrainer(model=model, args=args, eval_dataset=eval_ds, data_collator=collator,
                                          processing_class=tokenizer, callbacks=[callback])
    callback.bind(trainer)
    trainer.evaluate()
    trainer.evaluate()
    seen["generate"] = {k: v for k, v in trainer.state.log_history[-1].items() if k.startswith("eval_subset_")}
    seen["generate_entries"] = sum(1 for h in trainer.state.log_history if "eval_subset_rouge1" in h)
    # custom loop: each rank scores only its own shard, sync_ranks merges the accumulators exactly
    rank = torch.distributed.get_rank() if torch.distributed.is_initialized() else 0
    world = torch.distributed.get_world_size() if torch.distributed.is_initialized() else 1
    metric = RougeComputeMetrics(tokenizer, sync_ranks=True)
    shard = eval_ds[rank::world]
    labels = [r["labels"] for r in shard]
    width = max(map(len, labels))
    import numpy as np

    label_ids = np.array([ids + [-100] * (width - len(ids)) for ids in labels])
    seen["custom_sync"] = metric((label_ids, label_ids))  # a perfect "prediction": the labels themselves
    seen["custom_sync_n"] = metric.last_result.n
    seen["rank"], seen["world"] = rank, world
    return seen


def _worker() -> None:
    model_dir, out_dir = sys.argv[1], sys.argv[2]
    import torch.distributed as dist

    seen = evaluate_all(model_dir, out_dir)
    with open(os.path.join(out_dir, f"rank{seen['rank']}.json"), "w") as fh:
        json.dump(seen, fh)
    # Without this, gloo's worker threads may still hold a finished all_gather whose tensors they release
    # while the interpreter is finalizing; that aborts the process ("terminate called without an active
    # exception", https://github.com/pytorch/pytorch/issues/190489) after every result is written. PyTorch
    # asks every script to call it.
    if dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    _worker()
else:
    import pytest

    pytest.importorskip("torch")
    pytest.importorskip("transformers")

    @pytest.fixture(scope="module")
    def trained_model_dir(tmp_path_factory):
        """A tiny model trained for a few steps in this process, saved for the torchrun workers."""
        import transformers

        from rouge_metric.callbacks.testing import tiny_setup, tiny_training_args

        setup = tiny_setup(n_train=48, n_eval=N_EVAL)
        path = tmp_path_factory.mktemp("tiny_model")
        args = tiny_training_args(str(path / "train"), eval_strategy="no")
        trainer = transformers.Seq2SeqTrainer(model=setup.model, args=args, train_dataset=setup.train_dataset,
                                              data_collator=setup.data_collator, processing_class=setup.tokenizer)
        trainer.train()
        setup.model.save_pretrained(path / "model")
        setup.tokenizer.save_pretrained(path / "model")
        return path / "model"

    @pytest.mark.integration
    def test_torchrun_two_processes_log_the_rouge_of_one_process(trained_model_dir, tmp_path):
        torchrun = shutil.which("torchrun") or os.path.join(os.path.dirname(sys.executable), "torchrun")
        if not os.path.exists(torchrun):
            pytest.skip("torchrun is not installed")
        env = dict(os.environ, OMP_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false", HF_HUB_OFFLINE="1",
                   HF_EVALUATE_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_DATASETS_OFFLINE="1")
        out = tmp_path / "dist"
        out.mkdir()
        with socket.socket() as sock:  # a free port (torchrun's --master_port 0 hung here)
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        cmd = [torchrun, "--nproc_per_node", "2", "--master_port", str(port), "--master_addr", "127.0.0.1",
               str(Path(__file__).resolve()), str(trained_model_dir), str(out)]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
        ranks = [json.loads((out / f"rank{r}.json").read_text()) for r in (0, 1)]
        assert [r["world"] for r in ranks] == [2, 2]

        single_dir = tmp_path / "single"
        single_dir.mkdir()
        single = evaluate_all(str(trained_model_dir), str(single_dir))
        assert single["world"] == 1
        assert single["batched0"]["rouge1"] > 0  # the model produces something to compare

        for r in ranks:
            for key in ("batched0", "batched1", "generate", "custom_sync"):
                assert r[key] == single[key], (key, r["rank"])
            # duplicates added by the sampler are dropped: every example counted once
            assert r["batched0_n"] == r["batched1_n"] == r["custom_sync_n"] == N_EVAL
            assert r["generate_entries"] == 2
            # the premise of expected_examples: Seq2SeqTrainer gathers with accelerator.gather, so the 3 duplicates
            # the sampler adds to the last batch reach compute_metrics (if this fails, transformers changed it)
            assert r["no_callback_n"] == 16
        assert single["no_callback_n"] == N_EVAL
        assert single["batched0"] == single["batched1"]
        assert single["custom_sync"]["rouge1"] == 100.0
        # files are written by the main process only: one history line per evaluation, not one per rank
        for run in ("run_batched0", "run_batched1"):
            lines = (out / run / "rouge_history.jsonl").read_text().splitlines()
            assert len(lines) == 1
            assert json.loads(lines[0])["metrics"] == single["batched0"]
        assert len((out / "run_generate" / "rouge_history.jsonl").read_text().splitlines()) == 2
