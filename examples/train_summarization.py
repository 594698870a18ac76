"""Fine-tune a seq2seq model for summarization and log ROUGE with rouge_metric.

Offline demo (a tiny T5 and a tokenizer built on the spot, synthetic data, CPU, under a minute)::

    python examples/train_summarization.py --tiny --output-dir /tmp/rouge_tiny

A real run (needs the Hub; the model and the dataset are downloaded by transformers/datasets)::

    python examples/train_summarization.py --model google-t5/t5-small --dataset abisee/cnn_dailymail \\
        --dataset-config 3.0.0 --text-column article --summary-column highlights --source-prefix "summarize: " \\
        --max-train-samples 2000 --max-eval-samples 200 --output-dir out/t5-cnn

ROUGE reaches ``state.log_history`` (``eval_rouge1`` ...) and every ``--report-to`` reporter;
``OUTPUT_DIR/rouge_history.jsonl`` gets one line per evaluation, ``rouge_samples.jsonl`` sample
predictions with their scores, and ``rouge_best.json`` the best evaluation by ``--best-metric``.
With ``--rouge-subset N`` the Trainer does not generate over the eval set; the callback generates
on its first N examples at each evaluation instead (keys ``eval_subset_rouge1`` ...).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional

from rouge_metric.callbacks import RougeCallback, RougeComputeMetrics


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_argument_group("model and data")
    src.add_argument("--tiny", action="store_true", help="offline demo: tiny T5, local tokenizer, synthetic data")
    src.add_argument("--model", help="a seq2seq model name or path (AutoModelForSeq2SeqLM)")
    src.add_argument("--dataset", help="a datasets name or path with a train and a validation/test split")
    src.add_argument("--dataset-config", default=None)
    src.add_argument("--text-column", default="document")
    src.add_argument("--summary-column", default="summary")
    src.add_argument("--source-prefix", default="", help='e.g. "summarize: " for T5')
    src.add_argument("--max-train-samples", type=int, default=None)
    src.add_argument("--max-eval-samples", type=int, default=None)
    src.add_argument("--max-source-length", type=int, default=512)
    src.add_argument("--max-target-length", type=int, default=128)
    tr = p.add_argument_group("training")
    tr.add_argument("--output-dir", required=True)
    tr.add_argument("--epochs", type=float, default=1.0)
    tr.add_argument("--max-steps", type=int, default=-1)
    tr.add_argument("--learning-rate", type=float, default=5e-5)
    tr.add_argument("--batch-size", type=int, default=8)
    tr.add_argument("--eval-steps", type=int, default=500)
    tr.add_argument("--generation-max-length", type=int, default=128)
    tr.add_argument("--num-beams", type=int, default=1)
    tr.add_argument("--report-to", default="none", help="none, tensorboard, wandb, ... (as TrainingArguments)")
    tr.add_argument("--seed", type=int, default=42)
    tr.add_argument("--cpu", action="store_true", help="train on the CPU even when a GPU is present")
    rg = p.add_argument_group("ROUGE")
    rg.add_argument("--batch-eval-metrics", action="store_true",
                    help="score batch by batch (memory stays flat on large eval sets); same numbers")
    rg.add_argument("--rouge-subset", type=int, default=0,
                    help="do not generate over the eval set; generate on its first N examples in the callback")
    rg.add_argument("--sentence-splitter", default="newline",
                    help="rougeLsum sentences: newline (default) or another rouge_metric splitter name")
    rg.add_argument("--best-metric", default="rougeL", help="ROUGE key that ranks evaluations")
    rg.add_argument("--no-stemmer", action="store_true", help="score without Porter stemming")
    args = p.parse_args(argv)
    if not args.tiny and not (args.model and args.dataset):
        p.error("give --tiny, or both --model and --dataset")
    if args.tiny and (args.model or args.dataset):
        p.error("--tiny builds its own model and data; drop --model/--dataset")
    return args


def tiny_inputs(args: argparse.Namespace) -> Dict[str, Any]:
    """The offline demo's tokenizer, model and data (shared with the tests)."""
    from rouge_metric.callbacks.testing import tiny_setup

    setup = tiny_setup(n_train=48, n_eval=16, seed=0)
    # small enough for a CPU minute; the command-line values are for real models
    args.max_steps, args.eval_steps, args.learning_rate, args.batch_size = 24, 12, 1e-2, 8
    args.generation_max_length, args.cpu = 12, True
    return dict(tokenizer=setup.tokenizer, model=setup.model, train_dataset=setup.train_dataset,
                eval_dataset=setup.eval_dataset, data_collator=setup.data_collator)


def hub_inputs(args: argparse.Namespace) -> Dict[str, Any]:
    """Tokenizer, model and tokenized splits of a real model and dataset (downloads from the Hub)."""
    from datasets import load_dataset
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorForSeq2Seq

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSeq2SeqLM.from_pretrained(args.model)
    raw = load_dataset(args.dataset, args.dataset_config)
    eval_split = next((s for s in ("validation", "test") if s in raw), None)
    if "train" not in raw or eval_split is None:
        raise SystemExit(f"--dataset: needs a train and a validation or test split, found {list(raw)}")
    for col in (args.text_column, args.summary_column):
        if col not in raw["train"].column_names:
            raise SystemExit(f"column {col!r} not in the dataset; columns: {raw['train'].column_names}")

    def preprocess(batch: Dict[str, List[str]]) -> Dict[str, Any]:
        enc = tokenizer([args.source_prefix + t for t in batch[args.text_column]],
                        max_length=args.max_source_length, truncation=True)
        enc["labels"] = tokenizer(text_target=batch[args.summary_column], max_length=args.max_target_length,
                                  truncation=True)["input_ids"]
        return enc

    splits = {}
    for name, split, limit in (("train", "train", args.max_train_samples), ("eval", eval_split, args.max_eval_samples)):
        ds = raw[split]
        if limit is not None:
            ds = ds.select(range(min(limit, len(ds))))
        splits[name] = ds.map(preprocess, batched=True, remove_columns=ds.column_names, desc=f"tokenize {name}")
    collator = DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100)
    return dict(tokenizer=tokenizer, model=model, train_dataset=splits["train"], eval_dataset=splits["eval"],
                data_collator=collator)


def train(args: argparse.Namespace, inputs: Dict[str, Any]) -> Dict[str, Any]:
    """Fine-tune with the ROUGE adapter and callback; returns the final evaluation metrics."""
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments

    tokenizer = inputs["tokenizer"]
    subset = args.rouge_subset > 0
    metric = RougeComputeMetrics(tokenizer, use_stemmer=not args.no_stemmer,
                                 sentence_splitter=args.sentence_splitter, num_samples=4)
    eval_dataset = inputs["eval_dataset"]
    if subset:
        n = min(args.rouge_subset, len(eval_dataset))
        rows = eval_dataset.select(range(n)) if hasattr(eval_dataset, "select") else eval_dataset[:n]
        callback = RougeCallback(metric, eval_dataset=rows, batch_size=args.batch_size, best_metric=args.best_metric)
        best_key = f"eval_subset_{args.best_metric}"
    else:
        callback = RougeCallback(metric, best_metric=args.best_metric)
        best_key = f"eval_{args.best_metric}"
    training_args = Seq2SeqTrainingArguments(
        output_dir=args.output_dir, num_train_epochs=args.epochs, max_steps=args.max_steps,
        learning_rate=args.learning_rate, per_device_train_batch_size=args.batch_size,
        per_device_eval_batch_size=args.batch_size, eval_strategy="steps", eval_steps=args.eval_steps,
        logging_steps=args.eval_steps, save_strategy="steps", save_steps=args.eval_steps, save_total_limit=2,
        metric_for_best_model=best_key, greater_is_better=True, load_best_model_at_end=not args.tiny,
        predict_with_generate=not subset, generation_max_length=args.generation_max_length,
        generation_num_beams=args.num_beams, batch_eval_metrics=args.batch_eval_metrics and not subset,
        report_to=args.report_to, seed=args.seed, use_cpu=args.cpu, disable_tqdm=args.tiny,
    )
    trainer = Seq2SeqTrainer(
        model=inputs["model"], args=training_args, train_dataset=inputs["train_dataset"],
        eval_dataset=eval_dataset, data_collator=inputs["data_collator"], processing_class=tokenizer,
        compute_metrics=None if subset else metric, callbacks=[callback],
    )
    callback.bind(trainer)  # generate mode logs through trainer.log, so every reporter gets ROUGE
    trainer.train()
    final = trainer.evaluate()
    if trainer.is_world_process_zero():
        print(callback.format_samples(), file=sys.stderr)
        print(json.dumps({"final": final, "best": callback.best}, indent=1), file=sys.stderr)
    return final


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if args.tiny:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        inputs = tiny_inputs(args)
    else:
        inputs = hub_inputs(args)
    train(args, inputs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
