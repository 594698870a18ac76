"""A tiny offline seq2seq setup: tokenizer trained locally, T5 built from a config, synthetic data.

Used by the tests and by ``examples/train_summarization.py --tiny``: nothing is downloaded, a few
training steps and evaluations take seconds on one CPU thread. The task is synthetic ("summarize"
a string of words as a fixed phrase and its first words), so the numbers only show that the plumbing works.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Iterable, List, NamedTuple, Sequence, Tuple

_WORDS = (
    "the a cat dog bird fish sat ran flew swam on under over near mat log tree pond red blue green "
    "small big old young quickly slowly today yesterday house river hill road city farm"
).split()


def synthetic_pairs(n: int, seed: int = 0) -> List[Tuple[str, str]]:
    """``n`` (document, summary) pairs; the summary is a fixed phrase and the document's first words."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        doc = [rng.choice(_WORDS) for _ in range(rng.randint(8, 14))]
        pairs.append((" ".join(doc), "a story about " + " ".join(doc[: rng.randint(1, 3)])))
    return pairs


def build_tokenizer(texts: Iterable[str], vocab_size: int = 600) -> Any:
    """A byte-level BPE tokenizer trained on ``texts``: ``<pad>`` = 0, ``</s>`` = 1 (appended), ``<unk>`` = 2."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    from ._compat import import_transformers

    transformers = import_transformers()
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<pad>", "</s>", "<unk>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(list(texts), trainer=trainer)
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="</s>",
                                                unk_token="<unk>")


def build_model(vocab_size: int, seed: int = 0, max_length: int = 12) -> Any:
    """A randomly initialised two-layer T5 (d_model 64, about 0.2M parameters)."""
    from ._compat import import_torch, import_transformers

    torch = import_torch()
    transformers = import_transformers()
    torch.manual_seed(seed)
    config = transformers.T5Config(vocab_size=vocab_size, d_model=64, d_kv=16, d_ff=128, num_layers=2,
                                   num_decoder_layers=2, num_heads=4, pad_token_id=0, eos_token_id=1,
                                   decoder_start_token_id=0)
    model = transformers.T5ForConditionalGeneration(config)
    model.generation_config.max_length = max_length
    return model


def encode_pairs(tokenizer: Any, pairs: Sequence[Tuple[str, str]], max_source_length: int = 32,
                 max_target_length: int = 12) -> List[Dict[str, List[int]]]:
    """Tokenized examples (``input_ids``, ``attention_mask``, ``labels``), unpadded."""
    docs = [d for d, _ in pairs]
    sums = [s for _, s in pairs]
    enc = tokenizer(docs, max_length=max_source_length, truncation=True)
    labels = tokenizer(text_target=sums, max_length=max_target_length, truncation=True)["input_ids"]
    return [{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "labels": labels[i]}
            for i in range(len(pairs))]


class TinySetup(NamedTuple):
    tokenizer: Any
    model: Any
    train_dataset: List[Dict[str, List[int]]]
    eval_dataset: List[Dict[str, List[int]]]
    eval_pairs: List[Tuple[str, str]]
    data_collator: Any


def tiny_setup(n_train: int = 48, n_eval: int = 16, seed: int = 0) -> TinySetup:
    """Tokenizer, model, tokenized train/eval sets and a seq2seq collator, all deterministic in ``seed``.

    Sets torch to one thread: tiny models are far slower with more on a shared CPU.
    """
    from ._compat import import_torch, import_transformers

    import_torch().set_num_threads(1)
    transformers = import_transformers()
    train_pairs = synthetic_pairs(n_train, seed)
    eval_pairs = synthetic_pairs(n_eval, seed + 1)
    tokenizer = build_tokenizer([t for pair in train_pairs + eval_pairs for t in pair])
    model = build_model(len(tokenizer), seed)
    collator = transformers.DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100)
    return TinySetup(tokenizer, model, encode_pairs(tokenizer, train_pairs), encode_pairs(tokenizer, eval_pairs),
                     eval_pairs, collator)


def tiny_training_args(output_dir: str, **overrides: Any) -> Any:
    """``Seq2SeqTrainingArguments`` for a CPU run of a few steps that logs nowhere but ``log_history``."""
    from ._compat import import_transformers

    transformers = import_transformers()
    kwargs: Dict[str, Any] = dict(
        output_dir=output_dir, max_steps=24, per_device_train_batch_size=8, per_device_eval_batch_size=8,
        learning_rate=1e-2, eval_strategy="steps", eval_steps=12, logging_steps=12, save_strategy="no",
        predict_with_generate=True, generation_max_length=12, report_to="none", use_cpu=True, seed=0,
        disable_tqdm=True, dataloader_num_workers=0,
    )
    kwargs.update(overrides)
    return transformers.Seq2SeqTrainingArguments(**kwargs)
