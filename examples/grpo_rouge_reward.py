"""GRPO with a ROUGE reward (TRL's GRPOTrainer + rouge_metric.rewards.rouge_reward).

Offline demo (a tiny causal LM built from a config, a word-level tokenizer trained on the spot, synthetic
prompts; CPU, well under a minute); the mean reward rises in the logs::

    python examples/grpo_rouge_reward.py --tiny --output-dir /tmp/grpo_tiny
    python examples/grpo_rouge_reward.py --tiny --reward-on ids --output-dir /tmp/grpo_tiny_ids

A real run (needs the Hub: the model and the dataset are downloaded by transformers/datasets)::

    python examples/grpo_rouge_reward.py --model Qwen/Qwen2.5-0.5B-Instruct --dataset abisee/cnn_dailymail \\
        --dataset-config 3.0.0 --prompt-column article --reference-column highlights \\
        --prompt-prefix "Summarize in three sentences: " --max-train-samples 2000 --output-dir out/grpo-cnn

The reward is rougeL F1 of each completion against the reference column (``--rouge-type``, ``--statistic``,
``--stemmer`` change it); TRL logs it as ``rewards/<name>/mean`` and the reward function adds the mean
P/R/F of each type (``rouge/rougeL``, ``rouge/rougeL_precision`` ...) through ``log_metric``.
``--reward-on ids`` scores the completion token ids against the tokenized references instead (no decoding;
numbers over token ids, not text ROUGE). Needs ``pip install -e ".[rl]"`` (from a clone).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any, Dict, List, Optional

from rouge_metric.rewards import rouge_reward

_WORDS = ("the a cat dog bird fish sat ran flew swam on under over near mat log tree pond red blue green small big "
          "old young house river hill road city farm").split()


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_argument_group("model and data")
    src.add_argument("--tiny", action="store_true", help="offline demo: tiny causal LM, local tokenizer, synthetic data")
    src.add_argument("--model", help="a causal LM name or path (AutoModelForCausalLM)")
    src.add_argument("--dataset", help="a datasets name or path with a train split")
    src.add_argument("--dataset-config", default=None)
    src.add_argument("--prompt-column", default="document")
    src.add_argument("--reference-column", default="summary")
    src.add_argument("--prompt-prefix", default="Summarize: ")
    src.add_argument("--max-train-samples", type=int, default=None)
    tr = p.add_argument_group("training")
    tr.add_argument("--output-dir", required=True)
    tr.add_argument("--max-steps", type=int, default=None, help="default: 40 with --tiny, else one epoch")
    tr.add_argument("--learning-rate", type=float, default=None, help="default: 3e-3 with --tiny, else 1e-6")
    tr.add_argument("--batch-size", type=int, default=None, help="prompts x generations per step (default 16 / 8)")
    tr.add_argument("--num-generations", type=int, default=None, help="completions per prompt (default 4 / 8)")
    tr.add_argument("--max-completion-length", type=int, default=None, help="default 8 with --tiny, else 128")
    tr.add_argument("--logging-steps", type=int, default=5)
    tr.add_argument("--report-to", default="none")
    tr.add_argument("--seed", type=int, default=0)
    rg = p.add_argument_group("reward")
    rg.add_argument("--rouge-type", default="rougeL", help="e.g. rougeL, rouge1, or a mix: rouge1=0.5,rouge2=0.5")
    rg.add_argument("--statistic", default="fmeasure", choices=["fmeasure", "precision", "recall"])
    rg.add_argument("--stemmer", action="store_true", help="Porter stemming (text rewards only)")
    rg.add_argument("--reward-on", default="text", choices=["text", "ids"],
                    help="score decoded completions (text ROUGE) or completion token ids (faster, not text ROUGE)")
    args = p.parse_args(argv)
    if args.tiny == bool(args.model or args.dataset):
        p.error("give either --tiny or both --model and --dataset")
    if not args.tiny and not (args.model and args.dataset):
        p.error("--model and --dataset go together")
    if args.reward_on == "ids" and args.stemmer:
        p.error("--stemmer needs words; it cannot be used with --reward-on ids")
    return args


def parse_rouge_type(spec: str) -> Any:
    """``rougeL`` -> ``"rougeL"``; ``rouge1=0.5,rouge2=0.5`` -> ``{"rouge1": 0.5, "rouge2": 0.5}``."""
    if "=" not in spec:
        return spec
    out = {}
    for part in spec.split(","):
        name, _, weight = part.partition("=")
        out[name.strip()] = float(weight)
    return out


# ------------------------------------------------------------------------------------------- tiny setup
def tiny_pairs(n: int, seed: int) -> List[Dict[str, str]]:
    """Prompts of random words; the reference is a fixed phrase and the prompt's first two words."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        doc = [rng.choice(_WORDS) for _ in range(rng.randint(4, 8))]
        rows.append({"prompt": "summarize : " + " ".join(doc) + " ;", "reference": "a story about " + " ".join(doc[:2])})
    return rows


def tiny_tokenizer(texts: List[str]) -> Any:
    """A word-level tokenizer trained on ``texts``: ``<pad>`` = 0, ``<eos>`` = 1, ``<unk>`` = 2."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(texts, trainer=trainers.WordLevelTrainer(special_tokens=["<pad>", "<eos>", "<unk>"],
                                                                     show_progress=False))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")


def tiny_model(vocab_size: int, seed: int) -> Any:
    """A randomly initialised two-layer Llama (hidden size 64, about 0.1M parameters)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=vocab_size, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=64,
                         pad_token_id=0, bos_token_id=1, eos_token_id=1, tie_word_embeddings=True)
    return LlamaForCausalLM(config)


def build(args: argparse.Namespace):
    """(model, tokenizer, train dataset) for the tiny demo or a real run."""
    from datasets import Dataset

    if args.tiny:
        import torch

        torch.set_num_threads(1)  # tiny models are far slower with more threads on a shared CPU
        rows = tiny_pairs(256, args.seed)
        tokenizer = tiny_tokenizer([r["prompt"] for r in rows] + [r["reference"] for r in rows])
        return tiny_model(len(tokenizer), args.seed), tokenizer, Dataset.from_list(rows)
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model)
    ds = load_dataset(args.dataset, args.dataset_config, split="train")
    if args.max_train_samples:
        ds = ds.select(range(min(args.max_train_samples, len(ds))))
    ds = ds.map(lambda ex: {"prompt": args.prompt_prefix + ex[args.prompt_column],
                            "reference": ex[args.reference_column]}, remove_columns=ds.column_names)
    return model, tokenizer, ds


def make_reward(args: argparse.Namespace, tokenizer: Any, dataset: Any):
    """The reward and the dataset it reads (with a ``reference_ids`` column when rewarding ids)."""
    rouge_type = parse_rouge_type(args.rouge_type)
    if args.reward_on == "text":
        return rouge_reward(rouge_type, args.statistic, "reference", use_stemmer=args.stemmer), dataset
    dataset = dataset.map(lambda ex: {"reference_ids": tokenizer(ex["reference"], add_special_tokens=False)["input_ids"]})
    ignore = sorted({-100, *tokenizer.all_special_ids})  # pad, EOS ... end completions; they are not content
    return rouge_reward(rouge_type, args.statistic, "reference_ids", tokenizer="ids", ignore_ids=ignore), dataset


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    try:
        from trl import GRPOConfig, GRPOTrainer
    except ImportError:
        print('This example needs TRL: pip install -e ".[rl]" (from a clone of rouge_metric)', file=sys.stderr)
        return 2
    model, tokenizer, dataset = build(args)
    reward, dataset = make_reward(args, tokenizer, dataset)
    tiny = args.tiny
    config = GRPOConfig(
        output_dir=args.output_dir,
        max_steps=args.max_steps if args.max_steps is not None else (40 if tiny else -1),
        learning_rate=args.learning_rate if args.learning_rate is not None else (3e-3 if tiny else 1e-6),
        per_device_train_batch_size=args.batch_size or (16 if tiny else 8),
        num_generations=args.num_generations or (4 if tiny else 8),
        max_completion_length=args.max_completion_length or (8 if tiny else 128),
        logging_steps=args.logging_steps, report_to=args.report_to, seed=args.seed, save_strategy="no",
        beta=0.0 if tiny else 0.04, use_cpu=tiny, disable_tqdm=True, dataloader_num_workers=0,
    )
    trainer = GRPOTrainer(model=model, reward_funcs=reward, args=config, train_dataset=dataset,
                          processing_class=tokenizer)
    trainer.train()
    key = f"rewards/{reward.__name__}/mean"
    curve = [(h["step"], h[key]) for h in trainer.state.log_history if key in h]
    os.makedirs(args.output_dir, exist_ok=True)
    with open(os.path.join(args.output_dir, "reward_curve.json"), "w", encoding="utf-8") as f:
        json.dump({"reward": reward.__name__, "signature": reward.signature(), "curve": curve}, f, indent=1)
    print(f"{reward.signature()}")
    for step, value in curve:
        print(f"step {step:>4}  {key} = {value:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
