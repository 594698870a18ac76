"""ROUGE as a reward for reinforcement fine-tuning (TRL's ``GRPOTrainer``, ``RLOOTrainer``, ...).

:func:`rouge_reward` returns a :class:`RougeReward`, a callable with the signature TRL's trainers use for
reward functions::

    reward(prompts=..., completions=..., completion_ids=..., <dataset columns>=..., trainer_state=...,
           log_metric=..., log_extra=...) -> list[float | None]

It scores the whole group (every completion of every prompt of the step) in one call of the core's batch
scorer (native, on ``num_threads`` threads, without the GIL), so its numbers are exactly those of
:class:`rouge_metric.Rouge` (rouge-score's for rouge1..9, rougeL, rougeLsum). It does no ROUGE
arithmetic of its own: the per-example scores and the logged means come from the core.

>>> reward = rouge_reward("rouge1")
>>> reward(completions=["the cat sat", "a dog"], reference=["the cat sat down", None])
[0.8571428571428571, None]
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .config import parse_rouge_type
from .recipes import make_rouge
from .result import STATS, output_key
from .segment import SegmenterError, located

RougeTypes = Union[str, Sequence[str], Mapping[str, float]]


def _weights(rouge_type: RougeTypes) -> Dict[str, float]:
    """``{type: weight}`` from a type name, a list of names (equal weights) or a mapping of weights."""
    if isinstance(rouge_type, str):
        items: List[Tuple[Any, Any]] = [(rouge_type, 1.0)]
    elif isinstance(rouge_type, Mapping):
        items = list(rouge_type.items())
    else:
        try:
            names = list(rouge_type)
        except TypeError:
            raise TypeError(f"rouge_type: expected a type name, a list of names or a {{name: weight}} mapping, "
                            f"got {type(rouge_type).__name__}") from None
        items = [(t, 1.0 / len(names)) for t in names] if names else []
    if not items:
        raise ValueError("rouge_type: must name at least one rouge type")
    out: Dict[str, float] = {}
    for name, w in items:
        try:
            parse_rouge_type(name)
        except (TypeError, ValueError) as exc:
            raise type(exc)("rouge_type" + str(exc)[len("rouge_types"):]) from None
        if name in out:
            raise ValueError(f"rouge_type: duplicate type {name!r}")
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
            raise ValueError(f"rouge_type: the weight of {name!r} must be a finite number, got {w!r}")
        out[name] = float(w)
    return out


def completion_text(completion: Any, index: int, arg: str = "completions") -> str:
    """The text to score of one completion: a string as is; for a conversation (a list of message dicts, or
    one message dict) the content of its assistant messages, joined by newlines (typed content parts:
    their ``text`` parts)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, (list, tuple)):
        raise TypeError(f"{arg}[{index}]: expected a string or a list of chat messages (dicts with 'role' and "
                        f"'content'), got {type(completion).__name__}")
    parts: List[str] = []
    for j, msg in enumerate(completion):
        if not isinstance(msg, Mapping) or "role" not in msg:
            raise TypeError(f"{arg}[{index}][{j}]: expected a chat message dict with 'role' and 'content', "
                            f"got {type(msg).__name__}")
        if msg["role"] != "assistant":
            continue
        content = msg.get("content")
        if content is None:
            continue
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, (list, tuple)):  # typed parts: [{"type": "text", "text": ...}, ...]
            parts.extend(p["text"] for p in content if isinstance(p, Mapping) and p.get("type") == "text"
                         and isinstance(p.get("text"), str))
        else:
            raise TypeError(f"{arg}[{index}][{j}]['content']: expected a string or a list of content parts, "
                            f"got {type(content).__name__}")
    return "\n".join(parts)


def _has_reference(ref: Any) -> bool:
    """None, an empty list/tuple or an empty array means "no reference" (the reward is None)."""
    if ref is None:
        return False
    if isinstance(ref, (list, tuple)):
        return len(ref) > 0
    size = getattr(ref, "size", None)
    if size is not None and not callable(size):  # numpy
        return size > 0
    numel = getattr(ref, "numel", None)
    if callable(numel):  # torch
        return numel() > 0
    return True


class RougeReward:
    """A ROUGE reward function for TRL (build it with :func:`rouge_reward`).

    Attributes:
        rouge: the core scorer (its ``signature()`` names every setting of the numbers).
        weights: ``{type: weight}``; the reward is ``sum(weight * score[type].<statistic>)``.
        statistic: ``precision``, ``recall`` or ``fmeasure``.
        reference_column: the dataset column (keyword argument) holding the references.
        uses_ids: True when it scores ``completion_ids`` against token-id references (``tokenizer="ids"``).
    """

    def __init__(self, rouge_type: RougeTypes = "rougeL", statistic: str = "fmeasure",
                 reference_column: str = "reference", *, name: Optional[str] = None, log_metrics: bool = True,
                 num_threads: Optional[int] = None, backend: Optional[str] = None, recipe: Optional[str] = None,
                 lang: Optional[str] = None, **scorer_options: Any) -> None:
        self.weights = _weights(rouge_type)
        if statistic not in STATS:
            raise ValueError(f"statistic: invalid value {statistic!r}; allowed: {', '.join(map(repr, STATS))}")
        if not isinstance(reference_column, str) or not reference_column:
            raise TypeError(f"reference_column: expected a column name (str), got {reference_column!r}")
        if "rouge_types" in scorer_options:
            raise TypeError("rouge_types: spell it rouge_type here (a name, a list, or a {name: weight} mapping)")
        self.statistic = statistic
        self.reference_column = reference_column
        self.log_metrics = bool(log_metrics)
        self.rouge = make_rouge(tuple(self.weights), recipe=recipe, lang=lang, backend=backend, num_threads=num_threads,
                                **scorer_options)
        self.uses_ids = self.rouge.config.uses_ids
        stat = {"fmeasure": "f", "precision": "p", "recall": "r"}[statistic]
        #: TRL logs each reward as ``rewards/<__name__>/mean``.
        self.__name__ = name or "_".join(self.weights) + "_" + stat

    def signature(self) -> str:
        return self.rouge.signature()

    def __repr__(self) -> str:
        mix = ", ".join(f"{t}: {w:g}" for t, w in self.weights.items())
        return f"RougeReward({{{mix}}}, statistic={self.statistic!r}, {self.signature()!r})"

    # ------------------------------------------------------------------------------------ TRL entry
    def __call__(self, prompts: Optional[Sequence[Any]] = None, completions: Optional[Sequence[Any]] = None,
                 completion_ids: Optional[Sequence[Any]] = None, log_metric: Optional[Callable[[str, float], Any]] = None,
                 **kwargs: Any) -> List[Optional[float]]:
        """Rewards of a group: one float per completion, None where its example has no reference.

        Texts: ``completions`` (strings or conversations). Ids (``tokenizer="ids"``): ``completion_ids``.
        References: the ``reference_column`` keyword argument (one reference, a list of references, or
        None per completion; TRL repeats dataset columns once per generation).
        """
        col = self.reference_column
        if col not in kwargs:
            given = sorted(k for k in kwargs if k not in ("trainer_state", "log_extra", "environments"))
            raise KeyError(f"reference_column: no keyword argument {col!r}; the trainer passed the dataset columns "
                           f"{given}. Name the column of references with rouge_reward(reference_column=...)")
        preds = completion_ids if self.uses_ids else completions
        arg = "completion_ids" if self.uses_ids else "completions"
        if preds is None:
            raise TypeError(f"{arg}: expected a list, got None" + (
                " (tokenizer='ids' scores completion_ids)" if self.uses_ids else ""))
        return self.score(preds, kwargs[col], log_metric=log_metric, arg=arg)

    def score(self, completions: Sequence[Any], references: Sequence[Any], *,
              log_metric: Optional[Callable[[str, float], Any]] = None, arg: str = "completions"
              ) -> List[Optional[float]]:
        """The rewards of ``completions`` against ``references`` (also usable outside TRL)."""
        col = self.reference_column
        if isinstance(completions, (str, bytes)) or isinstance(references, (str, bytes)):
            raise TypeError(f"{arg} and {col}: expected one entry per completion, got a single string")
        completions = list(completions)
        references = list(references)
        if len(completions) != len(references):
            raise ValueError(f"{arg} and {col}: expected one reference entry per completion, got "
                             f"{len(completions)} completions and {len(references)} references")
        keep = _with_reference(references)
        if keep is None:  # every completion has a reference (the common case): no subset to build
            preds, refs = completions, references
        else:
            preds, refs = [completions[i] for i in keep], [references[i] for i in keep]
        if not self.uses_ids and set(map(type, preds)) - {str}:  # conversations: their assistant text
            preds = [completion_text(c, i if keep is None else keep[i], arg) for i, c in enumerate(preds)]
        log = log_metric if log_metric is not None and self.log_metrics else None
        try:
            values = self._values(preds, refs, log)
        except (TypeError, ValueError) as exc:  # name the column and the index in the whole group
            raise type(exc)(_rename(str(exc), keep, arg, col)) from None
        except SegmenterError as exc:  # a text the segmenter fails on: the same, by the group's names
            if exc.where is None:
                raise
            raise located(exc.original or exc, _rename(exc.where, keep, arg, col)) from exc.__cause__
        if keep is None:
            return values  # type: ignore[return-value]
        rewards: List[Optional[float]] = [None] * len(completions)
        for i, v in zip(keep, values):
            rewards[i] = v
        return rewards

    def _values(self, preds: List[Any], refs: List[Any], log_metric: Optional[Callable[[str, float], Any]]
                ) -> List[float]:
        """The reward of every (completion, references) pair, and the logged means (from the core).

        The flat (P, R, F) values of each batch are read column by column (no per-example dicts of
        :class:`~rouge_metric.Score` on the native backend); the same floats as ``Rouge.score``
        (tests/test_rewards.py)."""
        rouge = self.rouge
        acc = rouge.accumulator(keep_values=False) if log_metric is not None else None
        stat, weights = STATS.index(self.statistic), self.weights
        n_types = len(weights)
        ws = list(weights.values())
        out: List[float] = []
        for batch in rouge.score_batches(predictions=preds, references=refs, values=True, scores=False):
            if acc is not None:
                acc.add_batch(batch)
            if n_types == 1:
                out.extend(batch.column(0, stat))
            else:
                cols = [batch.column(k, stat) for k in range(n_types)]
                out.extend(math.fsum(w * c[i] for w, c in zip(ws, cols)) for i in range(batch.n))
        if acc is not None and acc.n:
            for t, sc in acc.means().items():
                for s in STATS:
                    log_metric(f"rouge/{output_key(t, s)}", float(getattr(sc, s)))  # type: ignore[misc]
        return out


def _with_reference(references: List[Any]) -> Optional[List[int]]:
    """The indices of the entries that have a reference, or None when all of them do (checked at C speed
    for the usual all-strings or all-non-empty-lists group)."""
    kinds = set(map(type, references))
    if kinds == {str} or (kinds == {list} and all(references)):
        return None
    keep = [i for i, r in enumerate(references) if _has_reference(r)]
    return None if len(keep) == len(references) else keep


def _rename(message: str, keep: Optional[List[int]], arg: str, col: str) -> str:
    """Map ``predictions[i]``/``references[i]`` of the scored subset (``keep``; None: the whole group) to
    ``<arg>[j]``/``<col>[j]`` of the group."""
    import re

    def sub(name: str, new: str, text: str) -> str:
        return re.sub(name + r"\[(\d+)\]", lambda m: f"{new}[{keep[int(m.group(1))] if keep is not None else m.group(1)}]"
                      if keep is None or int(m.group(1)) < len(keep) else m.group(0), text)

    return sub("references", col, sub("predictions", arg, message))


def rouge_reward(rouge_type: RougeTypes = "rougeL", statistic: str = "fmeasure",
                 reference_column: str = "reference", **scorer_options: Any) -> RougeReward:
    """A ROUGE reward function for TRL's trainers.

    Args:
        rouge_type: the type to reward (``"rougeL"``), a list of types (their equal-weight mean) or a
            ``{type: weight}`` mapping (the weighted sum, e.g. ``{"rouge1": 0.5, "rouge2": 0.5}``).
        statistic: ``"fmeasure"`` (default), ``"precision"`` or ``"recall"``.
        reference_column: the dataset column with the reference(s) of each prompt: a string, a list of
            strings (scored with ``multi_ref``, default the best reference), or None/[] for no reference
            (the reward is then None, which TRL turns into NaN and ignores).
        **scorer_options: :class:`~rouge_metric.RougeConfig` fields (``use_stemmer``, ``tokenizer``,
            ``multi_ref``, ``sentence_splitter``, ``beta``, ...), ``num_threads`` (default: all cores),
            ``backend``, ``name`` (the reward's ``__name__``, which TRL logs), ``log_metrics``
            (report the mean P/R/F of each type through TRL's ``log_metric``; default True).
            ``tokenizer="ids"`` scores ``completion_ids`` against token-id references (with
            ``ignore_ids``, e.g. the pad and EOS ids, and ``sentence_ids``): no decoding, different
            numbers from text ROUGE. For scripts written without spaces, a word segmenter:
            ``tokenizer="jieba"`` (Chinese), ``"fugashi"`` (Japanese), ``"thai_newmm"`` (Thai),
            ``"burmese_syllables"`` (the ``multilingual`` extra). ``recipe="xlsum"`` with ``lang=``
            rewards XL-Sum's multilingual ROUGE, bit for bit (:mod:`rouge_metric.recipes`; its rouge types
            are rouge1..rouge9, rougeL, rougeLsum). A completion the segmenter fails on raises an error
            naming ``completions[i]`` (or the reference column and index).

    >>> reward = rouge_reward({"rouge1": 0.5, "rouge2": 0.5}, use_stemmer=True)
    >>> chat = [[{"role": "assistant", "content": "The cats are sitting."}]]
    >>> reward(prompts=["Describe."], completions=chat, reference=[["the cat sits", "a dog runs"]])
    [0.6285714285714286]
    """
    return RougeReward(rouge_type, statistic, reference_column, **scorer_options)
