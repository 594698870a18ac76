"""Batch generators over Hugging Face objects: :class:`PipelineGenerator` (a ``text-generation``
pipeline, chat models included) and :class:`ModelGenerator` (``model.generate``), each a callable
``list[str] -> list[str]`` whose :attr:`generation_settings` key the cache. Nothing here imports torch or
transformers: the wrappers use the objects they are given."""

from __future__ import annotations

import contextlib
import json
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence

def _format_prompt(prompt: str, document: str) -> str:
    return prompt.replace("{document}", document)


def _check_prompt(prompt: Any) -> str:
    if not isinstance(prompt, str) or "{document}" not in prompt:
        raise ValueError(f"prompt: expected a str containing {{document}} (where the document goes), got {prompt!r}")
    return prompt


def _json_kwargs(kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    for k, v in kwargs.items():
        try:
            json.dumps(v, allow_nan=False)
        except (TypeError, ValueError):
            raise TypeError(f"{k}: generation keyword arguments must be JSON values (they key the cache), got "
                            f"{type(v).__name__}") from None
    return dict(kwargs)


#: The ``generate`` arguments that set the output length: give one, ``generate`` warns when both are set.
LENGTH_KEYS = ("max_length", "max_new_tokens")


@contextlib.contextmanager
def _one_length(owners: Sequence[Any], kwargs: Mapping[str, Any]) -> Iterator[None]:
    """With an explicit ``max_new_tokens`` (and no ``max_length``) in ``kwargs``, set aside the ``max_length``
    of the owners' ``generation_config`` for the block, and put it back after.

    transformers takes ``max_new_tokens`` over ``max_length`` but warns "Both max_new_tokens and max_length
    seem to have been set" when a ``generation_config`` carries a ``max_length`` too; setting it aside
    changes no generated token.
    """
    saved = []
    if kwargs.get("max_new_tokens") is not None and kwargs.get("max_length") is None:
        for owner in owners:
            config = getattr(owner, "generation_config", None)
            if getattr(config, "max_length", None) is not None:
                saved.append((config, config.max_length))
                config.max_length = None
    try:
        yield
    finally:
        for config, value in saved:
            config.max_length = value


def generate_once(model: Any, **kwargs: Any) -> Any:
    """``model.generate(**kwargs)`` where an explicit ``max_new_tokens`` is the only length (no "Both
    max_new_tokens and max_length" warning; the same tokens)."""
    with _one_length([model], kwargs):
        return model.generate(**kwargs)


class PipelineGenerator:
    """A transformers ``text-generation`` pipeline as a batch callable ``list[str] -> list[str]``.

    Each document is put into ``prompt`` (at ``{document}``); with a chat model (the tokenizer has a chat
    template, or ``chat=True``) the prompt is sent as the user message, after ``system`` when given.
    Decoding is greedy unless ``do_sample=True`` is given (the pipeline itself samples when
    ``do_sample`` is unset, so two runs would differ). The pipeline returns only the new text
    (``return_full_text=False``) and runs each batch of documents as one batch (``batch_size`` splits it
    further, e.g. for memory). ``generate_kwargs``
    (``max_new_tokens``, ``do_sample``, ...) go to every call; they, the prompt and the model's name are
    the :attr:`generation_settings` that key the cache.
    """

    def __init__(self, pipe: Any, prompt: str = "{document}", *, system: Optional[str] = None,
                 chat: Optional[bool] = None, batch_size: Optional[int] = None, **generate_kwargs: Any) -> None:
        if not callable(pipe):
            raise TypeError(f"pipe: expected a transformers text-generation pipeline, got {type(pipe).__name__}")
        task = getattr(pipe, "task", None)
        if task is not None and task != "text-generation":
            raise ValueError(f"pipe: expected a 'text-generation' pipeline, got task {task!r}")
        self.pipe = pipe
        self.prompt = _check_prompt(prompt)
        self.system = system
        tokenizer = getattr(pipe, "tokenizer", None)
        self.chat = bool(getattr(tokenizer, "chat_template", None)) if chat is None else bool(chat)
        self.batch_size = batch_size
        self.generate_kwargs = _json_kwargs({"do_sample": False, **generate_kwargs})

    @property
    def generation_settings(self) -> Dict[str, Any]:
        model = getattr(self.pipe, "model", None)
        return {"generator": "transformers text-generation pipeline",
                "model": getattr(model, "name_or_path", None) or type(model).__name__,
                "prompt": self.prompt, "system": self.system, "chat": self.chat,
                "generate_kwargs": self.generate_kwargs}

    def _input(self, document: str) -> Any:
        text = _format_prompt(self.prompt, document)
        if not self.chat:
            return text
        messages = [{"role": "system", "content": self.system}] if self.system is not None else []
        return messages + [{"role": "user", "content": text}]

    def __call__(self, documents: List[str]) -> List[str]:
        kwargs = dict(self.generate_kwargs, return_full_text=False, batch_size=self.batch_size or len(documents))
        with _one_length([getattr(self.pipe, "model", None), self.pipe], kwargs):
            outputs = self.pipe([self._input(d) for d in documents], **kwargs)
        texts = []
        for out in outputs:
            first = out[0] if isinstance(out, list) else out
            text = first["generated_text"]
            if isinstance(text, list):  # a conversation: the reply is the last message
                text = text[-1]["content"]
            texts.append(text)
        return texts


class ModelGenerator:
    """``model.generate`` as a batch callable ``list[str] -> list[str]``, for seq2seq and causal LMs.

    Documents are put into ``prompt`` (at ``{document}``), tokenized as one padded batch (left padding for a
    decoder-only model, whose prompt is then cut from the output), truncated to ``max_input_length``
    tokens when given, generated with ``generate_kwargs`` (greedy unless ``do_sample=True``) and decoded
    without special tokens. A model in
    training mode generates in eval mode (no dropout) and is put back in training mode. The keyword
    arguments, the prompt and the model's name are the :attr:`generation_settings`.
    """

    def __init__(self, model: Any, tokenizer: Any, prompt: str = "{document}", *,
                 max_input_length: Optional[int] = None, **generate_kwargs: Any) -> None:
        if not hasattr(model, "generate"):
            raise TypeError(f"model: expected a transformers model with .generate, got {type(model).__name__}")
        if tokenizer is None or not callable(tokenizer):
            raise TypeError(f"tokenizer: expected the model's tokenizer, got {type(tokenizer).__name__}")
        if max_input_length is not None and (isinstance(max_input_length, bool) or not isinstance(max_input_length, int)
                                             or max_input_length < 1):
            raise ValueError(f"max_input_length: expected an integer >= 1 or None, got {max_input_length!r}")
        self.model = model
        self.tokenizer = tokenizer
        self.prompt = _check_prompt(prompt)
        self.max_input_length = max_input_length
        self.generate_kwargs = _json_kwargs({"do_sample": False, **generate_kwargs})
        self.encoder_decoder = bool(getattr(getattr(model, "config", None), "is_encoder_decoder", False))

    @property
    def generation_settings(self) -> Dict[str, Any]:
        return {"generator": "model.generate", "model": getattr(self.model, "name_or_path", None)
                or type(self.model).__name__, "prompt": self.prompt, "max_input_length": self.max_input_length,
                "generate_kwargs": self.generate_kwargs}

    def __call__(self, documents: List[str]) -> List[str]:
        tok = self.tokenizer
        texts = [_format_prompt(self.prompt, d) for d in documents]
        side = tok.padding_side
        tok.padding_side = "right" if self.encoder_decoder else "left"
        try:
            enc = tok(texts, return_tensors="pt", padding=True, truncation=self.max_input_length is not None,
                      max_length=self.max_input_length)
        finally:
            tok.padding_side = side
        device = getattr(self.model, "device", None)
        if device is not None:
            enc = enc.to(device)
        training = getattr(self.model, "training", False)
        if training:  # no dropout while generating; a model in training goes back to training mode
            self.model.eval()
        try:
            out = generate_once(self.model, **enc, **self.generate_kwargs)
        finally:
            if training:
                self.model.train()
        if not self.encoder_decoder:
            out = out[:, enc["input_ids"].shape[1]:]
        return tok.batch_decode(out, skip_special_tokens=True)
