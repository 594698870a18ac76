"""Pair, batch and corpus scoring: :class:`Rouge`, one configured scorer with every entry point.

Data path: text -> (tokens, sentences) once per text (:mod:`rouge_metric.text`) -> per (type,
reference) sufficient statistics ``(hit, pred_total, ref_total, select)`` from the kernels ->
multi-reference selection and P/R/F (:mod:`rouge_metric.measures`) -> :class:`Score` per example ->
:class:`CorpusAccumulator` -> :class:`CorpusResult`. The backend that does the work is chosen once, at
construction (:mod:`rouge_metric.backends`); :class:`Rouge` only calls its protocol.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import core
from .aggregate import CorpusAccumulator, bootstrap
from .backends import Backend, ScoreBatch, make_backend
from .config import DEFAULT_ROUGE_TYPES, RougeConfig, as_type_names
from .inputs import check_prediction, normalize_references, type_name, validate_batch
from .measures import Stats, make_fmeasure, pair_stats
from .result import CorpusResult, Score

References = Union[str, Sequence[str]]

# -------------------------------------------------------------------------------------- the scorer
class Rouge:
    """A configured ROUGE scorer: one settings object, every entry point.

    Keyword-first: ``predictions`` then ``references``; ``references[i]`` is a string or a list of
    strings (the references of example i).

    >>> rouge = Rouge(["rouge1", "rougeL"])
    >>> rouge.score(prediction="the cat sat on the mat", references="the cat was on the mat")["rouge1"]
    Score(precision=0.8333333333333334, recall=0.8333333333333334, fmeasure=0.8333333333333334)
    >>> result = rouge.compute(predictions=["a b c", "d e"], references=[["a b", "c"], "d e"])
    >>> round(result.scores["rouge1"].fmeasure, 4)
    0.9

    Args:
        rouge_types: the types to score (``rouge1`` ... ``rougeN``, ``rougeL``, ``rougeLsum``, ``rougeW``,
            ``rougeS<d>``, ``rougeSU<d>``).
        config: a :class:`RougeConfig` (``options`` then replace some of its fields).
        backend: ``auto`` (default: the ``ROUGE_METRIC_BACKEND`` environment variable, then native when
            built), ``python`` or ``native``; chosen once, here, and named in every signature.
        num_threads: threads of the native batch scorer (default: all cores; the numbers do not depend on it).
        pipeline: a text pipeline object (``process(text) -> (tokens, sentences)``, optionally its own
            ``pair_stats``) that replaces the configured one; presets use it (``Rouge155`` passes the
            ROUGE-1.5.5 pipeline). It runs in Python on the backend's kernels.
        rounding: per-example rounding of the scores: None, or ``"perl"`` (ROUGE-1.5.5's printed five
            decimals, F from the rounded P and R; with ``multi_ref`` ``pool`` or ``best_recall``).
        rebuild: ``(builder, kwargs)`` such that ``builder(**kwargs)`` makes this scorer anew: a recipe's
            scorer, whose tokenizer is registered while the process runs, is pickled as that call (so that
            it unpickles in a fresh process); None: pickled as its settings.
        **options: :class:`RougeConfig` fields (``use_stemmer``, ``tokenizer``, ``multi_ref``, ...).
    """

    def __init__(self, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *,
                 config: Optional[RougeConfig] = None, backend: Optional[str] = None,
                 num_threads: Optional[int] = None, pipeline: Any = None, rounding: Optional[str] = None,
                 rebuild: Optional[Tuple[Callable[..., "Rouge"], Dict[str, Any]]] = None,
                 **options: Any) -> None:
        if config is None:
            config = RougeConfig(rouge_types=as_type_names(rouge_types), **options)
        elif options:
            config = config.replace(**options)
        # Batch threads of the native backend (numbers do not depend on it; not in the signature).
        if num_threads is not None and (isinstance(num_threads, bool) or not isinstance(num_threads, int)
                                        or num_threads < 1):
            raise ValueError(f"num_threads: expected an integer >= 1 or None (all cores), got {num_threads!r}")
        self.config = config
        self.num_threads = num_threads
        self._pipeline_arg, self._rounding, self._rebuild = pipeline, rounding, rebuild
        self._backend: Backend = make_backend(config, backend, pipeline, rounding)
        self.backend: str = self._backend.name
        self._quick = self._backend.score_quick
        self.specs = config.type_specs
        self._signature: Tuple[Any, str, str] = (None, "", "")

    def __getstate__(self) -> Dict[str, Any]:
        return {"config": self.config, "backend": self.backend, "num_threads": self.num_threads,
                "pipeline": self._pipeline_arg, "rounding": self._rounding}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        Rouge.__init__(self, config=state["config"], backend=state["backend"], num_threads=state["num_threads"],
                       pipeline=state.get("pipeline"), rounding=state.get("rounding"))

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self._rebuild is not None:
            builder, kwargs = self._rebuild
            return _rebuilt, (builder, kwargs)
        return super().__reduce_ex__(protocol)

    def __repr__(self) -> str:
        return f"Rouge({self.signature()!r})"

    @property
    def rouge_types(self) -> Tuple[str, ...]:
        return self.config.rouge_types

    @property
    def pipeline(self) -> Any:
        """The text pipeline (:class:`~rouge_metric.text.TextPipeline`, or
        :class:`~rouge_metric.ids.IdPipeline` for token ids) that :meth:`process` runs."""
        return self._backend.pipeline

    @property
    def kernels(self) -> Any:
        """The kernel module of the backend (:mod:`rouge_metric.core_py` or the native module)."""
        return self._backend.kernels

    @property
    def native_pipeline(self) -> bool:
        """True when the whole pipeline (tokenize, stem, kernels, P/R/F) runs in C++ for this configuration."""
        return self._backend.native_pipeline

    def signature(self) -> str:
        # Kept for the config and backend it was made for (a scorer whose config or backend attribute
        # is replaced makes it again): every corpus result carries it, and making it is most of the
        # fixed cost of a small compute() call.
        cfg, backend, sig = self._signature
        if cfg is not self.config or backend != self.backend:
            sig = self.config.signature(self.backend)
            self._signature = (self.config, self.backend, sig)
        return sig

    def clear_cache(self) -> None:
        """Forget what this scorer caches about the texts it scored (the ids of the Python pipeline's tokens),
        as a new scorer; the numbers never depend on it. Tokenizers' caches (segmentation, stems) are theirs."""
        self._backend.clear_cache()

    # ---- the layers above: text views, pair statistics, combination
    def process(self, text: Any) -> Tuple[Any, Any]:
        """The ``(tokens, sentences)`` view of one text (token ids with ``tokenizer="ids"``)."""
        return self._backend.process(text)

    def pair_stats(self, prediction_view: Tuple[Any, Any], reference_view: Tuple[Any, Any]) -> List[Stats]:
        """Sufficient statistics ``(hit, pred_total, ref_total, select)`` of every type, in the order of
        ``rouge_types``, for one prediction and one reference, each a view from :meth:`process`."""
        return self._backend.pair_stats(prediction_view, reference_view)

    def score_stats(self, stats: Sequence[Stats]) -> Dict[str, Score]:
        """``{type: Score}`` of one reference's statistics (as :meth:`pair_stats` returns them)."""
        return self._backend.score_stats(stats)

    def combine(self, per_ref: Sequence[Sequence[Stats]], multi_ref: Optional[str] = None) -> Dict[str, Score]:
        """``{type: Score}`` of one example from the statistics of each of its references, combined with
        ``multi_ref`` (default: the configured mode)."""
        return self._backend.combine(per_ref, self.config.multi_ref if multi_ref is None else multi_ref)

    def example_stats(self, prediction: Any, references: List[Any]) -> Tuple[List[List[Stats]], int, float]:
        """Per reference, the stats of every type; plus the prediction length and mean reference length
        (the input is not validated: see :meth:`score`)."""
        return self._backend.example_stats(prediction, references)

    # ---- one example
    def score(self, *, prediction: Any, references: References) -> Dict[str, Score]:
        """Scores of one example: ``{type: Score}`` in the order of ``rouge_types``."""
        out = self._quick(prediction, references)
        return out if out is not None else self._backend.score(prediction, references)

    # ---- batches and corpora
    def score_batches(self, *, predictions: Sequence[Any], references: Sequence[References], values: bool = False,
                      scores: bool = True) -> Iterator[ScoreBatch]:
        """The input scored in :class:`~rouge_metric.backends.ScoreBatch` runs of consecutive examples
        (validated at the boundary; errors name the index in the whole input). ``values``: the flat
        (P, R, F) floats of every example; ``scores``: the ``{type: Score}`` of every example."""
        return self._backend.batches(predictions, references, num_threads=self.num_threads or core.default_num_threads(),
                                     values=values, scores=scores)

    def iter_scores(self, predictions: Sequence[Any], references: Sequence[References]
                    ) -> Iterator[Tuple[Dict[str, Score], float, float]]:
        """Validated, lazily scored examples: ``(scores, pred_len, ref_len)`` per example."""
        for batch in self.score_batches(predictions=predictions, references=references):
            yield from batch.examples()

    def score_examples(self, *, predictions: Sequence[Any], references: Sequence[References]
                       ) -> List[Dict[str, Score]]:
        """Per-example scores, one ``{type: Score}`` per example."""
        out: List[Dict[str, Score]] = []
        for batch in self.score_batches(predictions=predictions, references=references):
            out.extend(batch.scores)  # type: ignore[arg-type]
        return out

    def accumulator(self, keep_values: Optional[bool] = None) -> CorpusAccumulator:
        """A streaming accumulator for these types (values kept when bootstrapping)."""
        if keep_values is None:
            keep_values = self.config.aggregation == "bootstrap"
        return CorpusAccumulator(self.rouge_types, keep_values=keep_values)

    def add_to(self, acc: CorpusAccumulator, *, predictions: Sequence[Any], references: Sequence[References],
               per_example: Optional[List[Dict[str, Score]]] = None) -> None:
        """Score a batch into an accumulator (memory stays flat unless values are kept)."""
        for batch in self.score_batches(predictions=predictions, references=references,
                                        values=acc.values is not None, scores=per_example is not None):
            acc.add_batch(batch)
            if per_example is not None:
                per_example.extend(batch.scores)  # type: ignore[arg-type]

    def result(self, acc: CorpusAccumulator, per_example: Optional[List[Dict[str, Score]]] = None,
               progress: Optional[Callable[[int], None]] = None) -> CorpusResult:
        """The corpus result of an accumulator: exact means, CI when bootstrapping, signature.
        ``progress(k)`` is called as blocks of ``k`` bootstrap resamples finish."""
        if acc.n == 0:
            raise ValueError("predictions: no example was scored (empty input); a corpus score needs at least "
                             "one prediction and its references")
        means = acc.means()
        ci = None
        cfg = self.config
        if cfg.aggregation == "bootstrap":
            if acc.values is None:
                raise ValueError("bootstrap aggregation needs an accumulator created with keep_values=True")
            ci = bootstrap(acc.values, means, cfg.n_resamples, cfg.confidence_level, cfg.seed, progress)
        pl, rl = acc.mean_lengths()
        return CorpusResult(
            scores=means, n=acc.n, pred_len=pl, ref_len=rl, signature=self.signature(), ci=ci,
            per_example=per_example,
            confidence_level=cfg.confidence_level if ci is not None else None,
        )

    def compute(self, *, predictions: Sequence[str], references: Sequence[References],
                return_per_example: bool = False) -> CorpusResult:
        """Corpus scores: exact mean of per-example P/R/F (+ bootstrap CI when configured)."""
        acc = self.accumulator()
        per_example: Optional[List[Dict[str, Score]]] = [] if return_per_example else None
        self.add_to(acc, predictions=predictions, references=references, per_example=per_example)
        return self.result(acc, per_example)


def _rebuilt(builder: Callable[..., Rouge], kwargs: Dict[str, Any]) -> Rouge:
    """Unpickles a scorer made by a builder (:class:`Rouge`'s ``rebuild``)."""
    return builder(**kwargs)


# ----------------------------------------------------------------- rouge-score's calling convention
class RougeScorer:
    """rouge-score's calling convention on a :class:`Rouge`: ``score(target, prediction)`` and
    ``score_multi(targets, prediction)``, with identical floats for rouge-score's types.

    One story for the two ``RougeScorer`` classes:

    - this class is rouge_metric's: rouge-score's method names and argument order over one
      :class:`Rouge` (:attr:`rouge`), with all of rouge_metric's settings (every rouge type, any
      tokenizer, sentence splitter, backend), validated at construction with rouge_metric's errors;
    - :class:`rouge_metric.rouge_score.rouge_scorer.RougeScorer` is rouge-score 0.1.2 itself, for programs
      written for it (the same types only, the same errors at the same step, custom tokenizers called as
      rouge-score calls them); it scores through this class, and through :meth:`Rouge.pair_stats` for the
      calls it replays step by step (custom tokenizers, bytes, invalid input).

    ``score_multi`` picks, per type, the target with the highest F (first on ties), whatever ``multi_ref``
    is set to.

    >>> scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    >>> scorer.score("The quick brown fox jumps over the lazy dog",
    ...              "The quick brown dog jumps on the log.")["rouge1"].fmeasure  # == rouge-score's
    0.7058823529411765
    """

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False, split_summaries: bool = False,
                 tokenizer: Any = None, *, sentence_splitter: Any = None, **options: Any) -> None:
        self.rouge_types = list(as_type_names(rouge_types))
        # rouge-score's split_summaries=True is sentence_splitter="nltk"; any splitter can be named instead.
        if sentence_splitter is None:
            sentence_splitter = "nltk" if split_summaries else "newline"
        elif split_summaries and sentence_splitter != "nltk":
            raise ValueError(f"split_summaries=True means sentence_splitter='nltk', but sentence_splitter="
                             f"{sentence_splitter!r} was given; pass one of them")
        self._rouge = Rouge(self.rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer,
                            sentence_splitter=sentence_splitter, **options)
        self._max = self._max_of(self._rouge)
        self._bind()

    @staticmethod
    def _max_of(rouge: Rouge) -> Rouge:
        """``rouge``, or the same settings with ``multi_ref="max"`` (``score_multi``'s selection)."""
        if rouge.config.multi_ref == "max":
            return rouge
        return Rouge(config=rouge.config.replace(multi_ref="max"), backend=rouge.backend, num_threads=rouge.num_threads)

    def _bind(self) -> None:
        # A per-pair hot path: the native whole-pipeline scorer of each Rouge (Rouge's own fast path, in
        # this module), called directly; everything it declines goes through Rouge.score.
        self._pair = self._rouge._quick if self._rouge.native_pipeline else None
        self._pair_max = self._max._quick if self._max.native_pipeline else None
        # The per-pair entry points themselves native (a call of exact str runs no Python code): each
        # hands every other call to a function that does what the method of this class does, over
        # the same objects but not over self (no reference cycle: a scorer is freed as soon as it is
        # dropped). A subclass's own methods stay its own.
        cls = type(self)
        rouge, pair, best, pair_max = self._rouge, self._pair, self._max, self._pair_max
        if cls.score is RougeScorer.score:
            def score(target: Any, prediction: Any) -> Dict[str, Score]:
                return _score_one(rouge, pair, target, prediction)

            score.__qualname__ = "RougeScorer.score"
            fast = self.pair_function(fallback=score)
            if fast is not None:
                self.score = fast  # type: ignore[method-assign]
        if cls.score_multi is RougeScorer.score_multi:
            def score_multi(targets: Any, prediction: Any) -> Dict[str, Score]:
                return _score_best(best, pair_max, targets, prediction)

            score_multi.__qualname__ = "RougeScorer.score_multi"
            fast = self.pair_function(multi=True, fallback=score_multi)
            if fast is not None:
                self.score_multi = fast  # type: ignore[method-assign]

    def pair_function(self, *, fallback: Callable[..., Dict[str, Score]], multi: bool = False,
                      zero_decline: AbstractSet[str] = frozenset()) -> Optional[Callable[..., Dict[str, Score]]]:
        """A native ``f(target, prediction)`` (with ``multi``: ``f(targets, prediction)``, a non-empty list
        or tuple of targets, :meth:`score_multi`'s selection) giving :meth:`score`'s floats, or None
        when this configuration has no native pipeline.

        ``f`` scores a call of exact ``str`` arguments in C++ without running Python code; it calls
        ``fallback`` with the same arguments for every other call (other types, keywords, another
        number of arguments), and for a call in which a type named in ``zero_decline`` scores 0 on
        precision, recall and F (so that the caller decides what that score is).
        """
        rouge = self._max if multi else self._rouge
        scorer = getattr(rouge._backend, "scorer", None)  # the native whole-pipeline Scorer, if any
        if scorer is None:
            return None
        flags = [s.name in zero_decline for s in rouge.specs] if zero_decline else None
        return scorer.pair_function(True, multi, None, fallback, flags)

    def __getstate__(self) -> Dict[str, Any]:
        return {"rouge_types": self.rouge_types, "_rouge": self._rouge, "_max": self._max}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.rouge_types, self._rouge = state["rouge_types"], state["_rouge"]
        self._max = state.get("_max") or self._max_of(self._rouge)
        self._bind()

    @property
    def rouge(self) -> Rouge:
        """The :class:`Rouge` this scorer scores with (its settings, text views, statistics)."""
        return self._rouge

    @property
    def config(self) -> RougeConfig:
        return self._rouge.config

    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """``{type: Score}`` of ``prediction`` against ``target`` (rouge-score's argument order)."""
        return _score_one(self._rouge, self._pair, target, prediction)

    def score_multi(self, targets: Sequence[str], prediction: str) -> Dict[str, Score]:
        """Per type, the score of the target with the highest F-measure (the first on ties)."""
        return _score_best(self._max, self._pair_max, targets, prediction)


def _score_one(rouge: Rouge, pair: Any, target: Any, prediction: Any) -> Dict[str, Score]:
    """:meth:`RougeScorer.score` on ``rouge`` (``pair``: its native per-pair scorer, or None)."""
    if pair is not None and type(target) is str:
        out = pair(prediction, target)
        if out is not None:
            return out
    if type(target) is not str:
        check_prediction(target, 0, "target")
    return rouge.score(prediction=prediction, references=target)


def _score_best(best: Rouge, pair: Any, targets: Any, prediction: Any) -> Dict[str, Score]:
    """:meth:`RougeScorer.score_multi` on ``best`` (``multi_ref="max"``; ``pair``: its native per-pair
    scorer, or None)."""
    if (type(targets) is list or type(targets) is tuple) and targets:
        if pair is not None:
            out = pair(prediction, targets)
            if out is not None:
                return out
        try:
            return best.score(prediction=prediction, references=targets)
        except TypeError:
            _check_targets(targets, prediction)  # the error names `targets`
            raise
    return best.score(prediction=prediction, references=_check_targets(targets, prediction))


def _check_targets(targets: Any, prediction: Any) -> List[str]:
    check_prediction(prediction, 0, "prediction")
    if not isinstance(targets, str) and (not hasattr(targets, "__iter__") or isinstance(targets, (Mapping, AbstractSet))):
        raise TypeError(f"targets: expected a list of str (the references of the prediction), got "
                        f"{type_name(targets)}")
    return normalize_references(list(targets) if not isinstance(targets, str) else targets, 0, "targets")
