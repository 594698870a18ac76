"""``RougeComputeMetrics``: the ``compute_metrics`` callable for ``Seq2SeqTrainer``.

A thin adapter: decode (:mod:`.decode`), score into the core's :class:`~rouge_metric.CorpusAccumulator`
(``Rouge.add_to``), read the result (``Rouge.result``). It does no ROUGE arithmetic of its own, so the
plain and the ``batch_eval_metrics`` modes give the same floats (the accumulator's sums are exact).
"""

from __future__ import annotations

import logging
from typing import Any, Dict, List, Optional, Sequence

from rouge_metric.config import DEFAULT_ROUGE_TYPES
from rouge_metric.recipes import make_rouge
from rouge_metric.result import STATS, CorpusResult, output_key

from ._compat import check_installed_transformers
from .decode import DecodedBatch, decode_eval_pred
from .evaluation_record import EvaluationRecord

logger = logging.getLogger("rouge_metric")


class RougeComputeMetrics:
    """ROUGE for ``Seq2SeqTrainer(compute_metrics=...)``, in the plain and the batched mode.

    Args:
        tokenizer: decodes the token ids (needs ``pad_token_id`` and ``batch_decode``).
        rouge_types: rouge types to report (default ``rouge1, rouge2, rougeL, rougeLsum``).
        use_stemmer: Porter stemming, on by default as in the HF summarization example (off with
            ``score_ids``, where it is an error).
        score_ids: opt-in fast monitoring mode: score the token ids themselves (``tokenizer="ids"`` of the
            core) instead of decoded texts; -100, the pad id and the tokenizer's special ids are ignored
            (``ignore_ids`` overrides). These are numbers over sub-word ids, **not** text ROUGE: they differ
            from the default mode and from published ROUGE; the signature says ``tok:ids``.
        sentence_splitter: how rougeLsum finds sentences in the decoded texts: ``"newline"`` (default),
            ``"nltk"`` (punkt data; fails at construction with the core's message when it is missing),
            any other name the core registers, or a callable ``str -> list[str]``.
        stats: which statistics to return: any of ``"fmeasure"``, ``"precision"``, ``"recall"``.
        scale: multiply scores by this (100 by default, as the HF examples log).
        gen_len: also return ``gen_len``, the mean number of non-pad generated tokens.
        num_samples: keep this many (prediction, reference, per-example scores) of each evaluation in
            :attr:`last_samples` (read by :class:`~rouge_metric.callbacks.RougeCallback`).
        record: also keep an :class:`~rouge_metric.callbacks.evaluation_record.EvaluationRecord` of each
            evaluation in :attr:`last_record`: the per-example F and length distributions in bounded memory
            (``RougeCallback(distributions=True)`` or ``report=...`` turns it on). The logged numbers are the
            same either way.
        keep_texts: with ``record``, the record also keeps the first ``keep_texts`` decoded predictions and
            references of each evaluation (what ``RougeCallback``'s HTML report is built from).
        sync_ranks: merge the accumulators of all ``torch.distributed`` ranks before the result. Leave it
            off with the Trainer, which already gathers predictions on every rank (in both modes);
            turn it on only in a custom loop where each rank sees just its own shard.
        rouge_tokenizer: the ROUGE word tokenizer of the decoded texts (the core's ``tokenizer``): None
            (rouge-score's), ``"unicode"``, a word segmenter for scripts written without spaces
            (``"jieba"``, ``"fugashi"``, ``"thai_newmm"``, ``"burmese_syllables"``; the ``multilingual``
            extra), a callable ``str -> list[str]`` or an object with ``.tokenize``.
        recipe, lang: ``recipe="xlsum"`` scores the decoded texts as XL-Sum's ``multilingual_rouge_scoring``
            does, bit for bit, in language ``lang`` (``"chinese"``, ``"bengali"``, ...; see
            :mod:`rouge_metric.recipes`); ``use_stemmer`` (default True, as XL-Sum's training script) is its
            language's stemmer. Refused with ``score_ids``, ``rouge_tokenizer`` or another
            ``sentence_splitter``; ``lang`` is refused without the recipe.
        **rouge_options: other :class:`~rouge_metric.RougeConfig` fields, e.g. ``multi_ref``.

    Returns from ``__call__``: ``{"rouge1": ..., "rouge2": ..., "rougeL": ..., "rougeLsum": ..., "gen_len": ...}``
    (plus ``rouge1_precision`` ... on request), numbers only, so the Trainer can log them.

    >>> from rouge_metric.callbacks.testing import build_tokenizer
    >>> tok = build_tokenizer(["the cat sat on the mat", "a dog ran"])
    >>> labels = [tok("the cat sat on the mat")["input_ids"]]
    >>> preds = [[tok.pad_token_id] + tok("the cat sat")["input_ids"]]
    >>> metric = RougeComputeMetrics(tok)
    >>> {k: round(v, 2) for k, v in metric((preds, labels)).items()}   # "the cat sat" vs "the cat sat on the mat"
    {'rouge1': 66.67, 'rouge2': 57.14, 'rougeL': 66.67, 'rougeLsum': 66.67, 'gen_len': 4.0}
    """

    def __init__(self, tokenizer: Any, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *,
                 use_stemmer: Optional[bool] = None, sentence_splitter: Any = "newline", score_ids: bool = False,
                 stats: Sequence[str] = ("fmeasure",), scale: float = 100.0, gen_len: bool = True,
                 num_samples: int = 0, sync_ranks: bool = False, rouge_tokenizer: Any = None,
                 record: bool = False, keep_texts: int = 0, recipe: Optional[str] = None, lang: Optional[str] = None,
                 **rouge_options: Any) -> None:
        check_installed_transformers()
        if tokenizer is None or not callable(getattr(tokenizer, "batch_decode", None)):
            raise TypeError(f"tokenizer: expected a Hugging Face tokenizer with batch_decode, got {type(tokenizer).__name__}")
        if rouge_options.get("aggregation", "mean") != "mean":
            raise ValueError(
                "aggregation: compute_metrics reports exact means only; for bootstrap intervals score the saved "
                "predictions with rouge_metric.compute(..., aggregation='bootstrap')"
            )
        if isinstance(stats, str):
            stats = (stats,)
        for s in stats:
            if s not in STATS:
                raise ValueError(f"stats: unknown statistic {s!r}; allowed: {', '.join(map(repr, STATS))}")
        if not stats:
            raise ValueError(f"stats: must not be empty; allowed: {', '.join(map(repr, STATS))}")
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples < 0:
            raise ValueError(f"num_samples: expected an integer >= 0, got {num_samples!r}")
        if isinstance(keep_texts, bool) or not isinstance(keep_texts, int) or keep_texts < 0:
            raise ValueError(f"keep_texts: expected an integer >= 0, got {keep_texts!r}")
        self.tokenizer = tokenizer
        self.score_ids = bool(score_ids)
        if self.score_ids:
            if rouge_tokenizer is not None:
                raise ValueError("rouge_tokenizer: score_ids=True scores token ids; leave rouge_tokenizer unset")
            if recipe not in (None, "default") or lang is not None:
                raise ValueError(f"recipe={recipe!r}, lang={lang!r}: score_ids=True scores token ids, and a recipe "
                                 "tokenizes texts; drop score_ids to score the decoded texts with the recipe")
            if sentence_splitter != "newline":
                raise ValueError("sentence_splitter: not used with score_ids=True; give the ids that end a sentence "
                                 "as sentence_ids")
            if "ignore_ids" not in rouge_options:
                special = [i for i in (getattr(tokenizer, "all_special_ids", None) or []) if isinstance(i, int)]
                pad = getattr(tokenizer, "pad_token_id", None)
                rouge_options["ignore_ids"] = sorted({-100, *special, *([pad] if pad is not None else [])})
            self.rouge = make_rouge(rouge_types, use_stemmer=bool(use_stemmer), tokenizer="ids", **rouge_options)
        else:
            self.rouge = make_rouge(rouge_types, recipe=recipe, lang=lang,
                                    use_stemmer=True if use_stemmer is None else use_stemmer,
                                    sentence_splitter=sentence_splitter, tokenizer=rouge_tokenizer, **rouge_options)
        self.stats = tuple(stats)
        self.scale = float(scale)
        self.gen_len = bool(gen_len)
        self.num_samples = num_samples
        self.sync_ranks = bool(sync_ranks)
        self.record = bool(record)
        self.keep_texts = keep_texts
        #: The last completed evaluation: the core's result, the returned metrics, the kept samples.
        self.last_result: Optional[CorpusResult] = None
        self.last_metrics: Optional[Dict[str, float]] = None
        self.last_samples: List[Dict[str, Any]] = []
        #: The distributions (and first texts) of the last completed evaluation, when ``record`` is on.
        self.last_record: Optional[EvaluationRecord] = None
        #: How many evaluations have completed (lets a callback tell whether it was called this time).
        self.completed = 0
        #: Size of the evaluation set, when known (set by RougeCallback from the eval dataloader): rows past it
        #: are the duplicates a distributed sampler adds to even out the last batch, and are dropped.
        #: Seq2SeqTrainer gathers with ``accelerator.gather``, which keeps them (transformers 4.46 to 5.x).
        self.expected_examples: Optional[int] = None
        self._warned_unknown_size = False
        self.reset()

    # ------------------------------------------------------------------------------------ settings
    @property
    def signature(self) -> str:
        return self.rouge.signature()

    def output_keys(self) -> List[str]:
        """The keys ``__call__`` returns (``gen_len`` last when enabled)."""
        keys = [output_key(t, s) for t in self.rouge.rouge_types for s in STATS if s in self.stats]
        return keys + (["gen_len"] if self.gen_len else [])

    def clone(self) -> "RougeComputeMetrics":
        """A fresh instance with the same settings and empty state."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.last_result, new.last_metrics, new.last_samples, new.completed = None, None, [], 0
        new.last_record = None
        new.reset()
        return new

    # --------------------------------------------------------------------------------- evaluation
    def reset(self) -> None:
        """Drop the state of an unfinished evaluation."""
        self._acc = self.rouge.accumulator()
        self._gen_tokens = 0
        self._rows = 0
        self._samples: List[Dict[str, Any]] = []
        self._record: Optional[EvaluationRecord] = self.new_record() if self.record else None

    def new_record(self) -> EvaluationRecord:
        """An empty record with this metric's types, scale and ``keep_texts``."""
        return EvaluationRecord(self.rouge.rouge_types, self.scale, self.keep_texts)

    def __call__(self, eval_pred: Any, compute_result: Optional[bool] = None) -> Dict[str, float]:
        """Score an ``EvalPrediction`` (or a ``(predictions, label_ids)`` pair).

        ``compute_result=None`` (plain mode): score everything and return the metrics.
        ``compute_result=False`` (``batch_eval_metrics=True``, not the last batch): accumulate, return ``{}``.
        ``compute_result=True`` (last batch): accumulate, return the metrics of all batches, reset.
        """
        if compute_result is None:
            self.reset()  # a plain call is a whole evaluation: drop any unfinished batched state
        predictions, label_ids = eval_pred[0], eval_pred[1]
        batch = decode_eval_pred(self.tokenizer, predictions, label_ids, as_ids=self.score_ids)
        if self.expected_examples is not None:
            keep = max(self.expected_examples - self._rows, 0)
            self._rows += len(batch.predictions)
            if keep < len(batch.predictions):  # sampler padding at the end of a distributed evaluation
                batch = DecodedBatch(*(part[:keep] for part in batch))
        self.add_batch(batch)
        if compute_result is None or compute_result:
            return self.finish()
        return {}

    def add_batch(self, batch: DecodedBatch) -> None:
        """Score decoded texts into the running sums (memory stays flat: only sums are kept, plus the bounded
        record when ``record`` is on)."""
        refs = batch.references
        per_example: Optional[List[Any]] = [] if len(self._samples) < self.num_samples else None
        if self.record and self._record is None:  # turned on after construction (by RougeCallback)
            self._record = self.new_record()
        if self._record is None:
            self.rouge.add_to(self._acc, predictions=batch.predictions, references=refs, per_example=per_example)
        else:  # the same runs add_to scores, also read for the record
            for run in self.rouge.score_batches(predictions=batch.predictions, references=refs,
                                                values=self._acc.values is not None, scores=True):
                self._acc.add_batch(run)
                if per_example is not None:
                    per_example.extend(run.scores)
                self._record.add_batch(run, batch.predictions, refs)
        self._gen_tokens += sum(batch.gen_lens)
        if per_example:
            start = self._acc.n - len(per_example)
            for i, scores in enumerate(per_example[: self.num_samples - len(self._samples)]):
                self._samples.append({
                    "index": start + i,
                    "prediction": batch.predictions[i],
                    "reference": refs[i],
                    "scores": {output_key(t, s): getattr(sc, s) * self.scale
                               for t, sc in scores.items() for s in STATS if s in self.stats},
                })

    def finish(self) -> Dict[str, float]:
        """The metrics of everything added since the last reset; then reset."""
        acc, gen_tokens, samples, record = self._acc, self._gen_tokens, self._samples, self._record
        from ._dist import merge_across_ranks, world_size

        if self.sync_ranks:
            acc, gen_tokens, samples = merge_across_ranks(acc, gen_tokens, samples)
        elif self.expected_examples is None and world_size() > 1 and not self._warned_unknown_size:
            self._warned_unknown_size = True
            logger.warning(
                "RougeComputeMetrics: distributed evaluation with an unknown eval set size; Seq2SeqTrainer keeps the "
                "duplicate examples a distributed sampler adds, so add RougeCallback(compute_metrics=this) to the "
                "Trainer (it passes the size) or set .expected_examples"
            )
        result = self.rouge.result(acc)
        metrics = result.to_dict(self.stats, self.scale)
        if self.gen_len:
            metrics["gen_len"] = gen_tokens / acc.n if acc.n else 0.0
        self.last_result, self.last_metrics, self.last_samples = result, dict(metrics), samples[: self.num_samples]
        self.last_record = record
        self.completed += 1
        self.expected_examples = None  # known per evaluation only
        self.reset()
        return metrics

    def record_texts(self, predictions: Sequence[Any], references: Sequence[Any]) -> EvaluationRecord:
        """Score ``predictions`` / ``references`` into a fresh record and make it :attr:`last_record` (for
        evaluations scored elsewhere, such as ``RougeCallback``'s generate mode); the sums are untouched."""
        record = self.new_record()
        for run in self.rouge.score_batches(predictions=predictions, references=references, scores=True):
            record.add_batch(run, predictions, references)
        self.last_record = record
        return record

    def __repr__(self) -> str:
        return f"RougeComputeMetrics({self.signature!r}, stats={self.stats}, scale={self.scale:g})"
