"""The seam between :class:`~rouge_metric.Rouge` and the code that scores: one protocol, two backends.

:class:`Rouge` picks a backend once, at construction (:func:`make_backend`), and calls only the
methods of :class:`Backend`; every backend returns the same types, so nothing above this module knows
which one ran (the signature names it).

- :class:`PipelineBackend`: the Python text pipeline (:class:`~rouge_metric.text.TextPipeline`, or
  :class:`~rouge_metric.ids.IdPipeline` for token ids) on a kernel module: the pure-Python kernels of
  :mod:`rouge_metric.core_py` (backend ``python``), or the native kernels under the same names for
  configurations the native pipeline does not take (a custom tokenizer or splitter, stopwords).
- :class:`NativeBackend`: the whole pipeline in C++ (tokenize, stem cache, intern, kernels,
  multi-reference combine, P/R/F), on ``num_threads`` threads without the GIL for batches.

Both produce a :class:`ScoreBatch` per run of consecutive examples: the ``{type: Score}`` of each
example when asked, the flat (P, R, F) values when asked, the lengths, and (native) the exact partial
sums of every column, which :meth:`~rouge_metric.aggregate.CorpusAccumulator.add_batch` merges. On the
native kernels, the Python pipeline's batches go to the native id scorer (:class:`InternedScorer`).

One file over 450 lines: the protocol, its two implementations and the id route between them share the
batch type, the chunk sizes and the error-locating rules, which must stay one set.
"""

from __future__ import annotations

from array import array
from functools import partial
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from . import core
from .config import RougeConfig
from .result import STATS, output_key
from .ids import IdPipeline, validate_id_batch
from .inputs import check_one_ids, check_one_text, validate_batch
from .measures import ROUNDINGS, Stats, View, make_fmeasure, pair_stats
from .result import Score
from .segment import SegmenterError, locate_failure
from .text import TextPipeline, get_stemmer

try:  # typing.Protocol is in every supported Python; the fallback keeps static tools quiet elsewhere
    from typing import Protocol
except ImportError:  # pragma: no cover
    Protocol = object  # type: ignore[assignment,misc]

#: Examples per call of the native batch scorer: memory stays flat however long the input.
NATIVE_CHUNK = 8192
#: Examples of the first call on a vocabulary that is still empty (the first batch of a configuration in
#: the process): on several threads that call enters all its tokens into the vocabulary before it scores,
#: which costs less per token than meeting them as new words in later calls.
NATIVE_COLD_CHUNK = 32768
#: Examples per batch of the Python pipeline (it validates the whole input first, then scores lazily).
PIPELINE_CHUNK = 256

Scores = Dict[str, Score]


class ScoreBatch:
    """The results of ``n`` consecutive examples, starting at index ``start`` of the input.

    Attributes:
        rouge_types: the types, in the order of the values.
        start, n: where the batch starts in the whole input, and how many examples it has.
        scores: one ``{type: Score}`` per example, or None when not asked for.
        lengths: ``2 * n`` floats, the prediction length and the mean reference length of each example.
        values: ``n * len(rouge_types) * 3`` floats, example-major, then type, then (P, R, F); or None
            when not asked for.
        partials: the exact partial sums (Shewchuk) of every column (P, R, F of every type, then the two
            lengths), or None; :meth:`~rouge_metric.aggregate.CorpusAccumulator.add_batch` merges them
            (the corpus mean is then the same correctly rounded float as adding the examples one by one).
    """

    __slots__ = ("rouge_types", "start", "n", "scores", "lengths", "values", "partials")

    def __init__(self, rouge_types: Tuple[str, ...], start: int, n: int, scores: Optional[List[Scores]],
                 lengths: Sequence[float], values: Optional[Sequence[float]] = None,
                 partials: Optional[Sequence[Sequence[float]]] = None) -> None:
        self.rouge_types = rouge_types
        self.start = start
        self.n = n
        self.scores = scores
        self.lengths = lengths
        self.values = values
        self.partials = partials

    def column(self, type_index: int, stat: int) -> Sequence[float]:
        """The values of one type and one statistic (0 = P, 1 = R, 2 = F), one per example. O(n)."""
        if self.values is None:
            raise ValueError("column: this batch was scored without values (values=True)")
        return self.values[3 * type_index + stat::3 * len(self.rouge_types)]

    def columns(self, stats: Sequence[str] = STATS) -> Iterator[Tuple[str, Sequence[float]]]:
        """``(key, values)`` of every type and of each statistic in ``stats``, keyed as the outputs are
        (:func:`~rouge_metric.result.output_key`: ``rouge1`` for F, ``rouge1_precision``, ...), types in
        order, then P, R, F: the per-example columns of the evaluate module and ``datasets.map``. O(n) each."""
        for i, t in enumerate(self.rouge_types):
            for j, s in enumerate(STATS):
                if s in stats:
                    yield output_key(t, s), self.column(i, j)

    def type_values(self, type_index: int) -> Sequence[float]:
        """The (P, R, F) triples of one type, flat, one triple per example. O(n)."""
        if self.values is None:
            raise ValueError("type_values: this batch was scored without values (values=True)")
        import numpy as np  # here: only kept values (bootstrap) need it

        arr = np.frombuffer(self.values, dtype=np.float64).reshape(self.n, len(self.rouge_types), 3)
        return arr[:, type_index, :].ravel()

    def examples(self) -> Iterator[Tuple[Scores, float, float]]:
        """``(scores, pred_len, ref_len)`` of every example (needs ``scores``)."""
        if self.scores is None:
            raise ValueError("examples: this batch was scored without per-example scores (scores=True)")
        lens = self.lengths
        for i, sc in enumerate(self.scores):
            yield sc, lens[2 * i], lens[2 * i + 1]

    def __repr__(self) -> str:
        return f"ScoreBatch(start={self.start}, n={self.n}, types={self.rouge_types})"


class Backend(Protocol):
    """What :class:`~rouge_metric.Rouge` needs from a backend."""

    name: str  #: ``python`` or ``native`` (in every signature)
    native_pipeline: bool  #: the whole text pipeline runs in C++
    pipeline: Any  #: the Python text (or id) pipeline
    kernels: Any  #: the kernel module

    #: One example, unvalidated input, ``(prediction, references)`` -> scores, or None when the input
    #: needs :meth:`score` (the native whole-pipeline call, or :meth:`score` itself).
    score_quick: Callable[[Any, Any], Optional[Scores]]

    def score(self, prediction: Any, references: Any) -> Scores:
        """One example: validated, scored, references combined with the configured mode."""

    def batches(self, predictions: Any, references: Any, *, num_threads: int, values: bool,
                scores: bool) -> Iterator[ScoreBatch]:
        """A whole input, validated at the boundary (errors name the index in the whole input)."""

    def process(self, text: Any) -> View:
        """The ``(tokens, sentences)`` view of one text (or id sequence)."""

    def pair_stats(self, prediction_view: View, reference_view: View) -> List[Stats]:
        """The statistics of every type for one pair of views."""

    def example_stats(self, prediction: Any, references: List[Any]) -> Tuple[List[List[Stats]], int, float]:
        """Per reference the statistics of every type, the prediction length, the mean reference length."""

    def combine(self, per_ref: Sequence[Sequence[Stats]], mode: str) -> Scores:
        """One example's scores from the statistics of each of its references."""

    def score_stats(self, stats: Sequence[Stats]) -> Scores:
        """The scores of one reference's statistics."""

    def clear_cache(self) -> None:
        """Forget what the backend caches about texts (never a number: only work saved)."""


class PipelineBackend:
    """The Python pipeline on a kernel module (``core_py``, or the native kernels of the same names)."""

    def __init__(self, config: RougeConfig, name: str, kernels: Any, pipeline: Any = None,
                 rounding: Optional[str] = None) -> None:
        self.name = name
        self.kernels = kernels
        self.config = config
        self.rouge_types = config.rouge_types
        self.specs = config.type_specs
        if config.uses_ids:
            self.pipeline: Any = IdPipeline(config) if pipeline is None else pipeline
            self.check_one, self.check_batch = check_one_ids, validate_id_batch
        else:
            self.pipeline = TextPipeline(config) if pipeline is None else pipeline
            self.check_one, self.check_batch = check_one_text, validate_batch
        self.process = self.pipeline.process
        #: the pipeline's per-scorer state of an order-dependent tokenizer (text.register_tokenizer), or None
        self.session = getattr(self.pipeline, "session", None)
        #: a pipeline's own pair statistics (the ROUGE-1.5.5 pipeline's), called with the example and
        #: reference indices for its error messages; None: the core's
        self.own_stats = getattr(self.pipeline, "pair_stats", None)
        f = make_fmeasure(config.beta, config.alpha)
        scorer = ROUNDINGS[rounding]
        self.type_scorers = [scorer(s, f) for s in self.specs]
        self.score_quick: Callable[[Any, Any], Optional[Scores]] = self.score
        self.native_pipeline = False
        #: batches of the Python text pipeline scored by the native id scorer (None: the Python kernels' loop)
        self.interned = InternedScorer.make(config, self.pipeline, kernels) \
            if self.own_stats is None and rounding is None and isinstance(self.pipeline, TextPipeline) else None

    @staticmethod
    def _length(view: View) -> int:
        toks, sents = view
        return len(toks) if toks is not None else sum(map(len, sents))

    def pair_stats(self, prediction_view: View, reference_view: View) -> List[Stats]:
        if self.own_stats is not None:
            return self.own_stats(self.specs, self.kernels, prediction_view, reference_view)
        return pair_stats(self.specs, self.kernels, prediction_view, reference_view)

    def clear_cache(self) -> None:
        """Forget what this backend caches about texts (their interned ids); the tokenizers' own caches stay."""
        if self.interned is not None:
            self.interned.clear_cache()

    def example_stats(self, prediction: Any, references: List[Any], index: int = 0
                      ) -> Tuple[List[List[Stats]], int, float]:
        process, specs, kernels, own = self.process, self.specs, self.kernels, self.own_stats
        session = self.session
        if session is not None and not session.settled:  # the views in the order the original meets them
            views = session.views(prediction, references)
            per_ref = [pair_stats(specs, kernels, pv, rv) for pv, rv in views]
            return (per_ref, self._length(views[0][0]),
                    sum(self._length(rv) for _, rv in views) / len(references))
        pv = process(prediction)
        per_ref = []
        ref_len = 0
        for j, r in enumerate(references):
            rv = process(r)
            ref_len += self._length(rv)
            if own is None:
                per_ref.append(pair_stats(specs, kernels, pv, rv))
            else:
                per_ref.append(own(specs, kernels, pv, rv, index, j))
        return per_ref, self._length(pv), ref_len / len(references)

    def combine(self, per_ref: Sequence[Sequence[Stats]], mode: str) -> Scores:
        return {ts.spec.name: ts.combine([s[k] for s in per_ref], mode) for k, ts in enumerate(self.type_scorers)}

    def score_stats(self, stats: Sequence[Stats]) -> Scores:
        return {ts.spec.name: ts.score(s[0], s[1], s[2]) for ts, s in zip(self.type_scorers, stats)}

    def score(self, prediction: Any, references: Any) -> Scores:
        prediction, refs = self.check_one(prediction, references)
        try:
            per_ref, _, _ = self.example_stats(prediction, refs)
        except SegmenterError as exc:  # name the text a segmenter failed on
            raise locate_failure(exc, self.process, [("prediction", prediction)] + [
                (f"references[{j}]", r) for j, r in enumerate(refs)]) from exc.__cause__
        return self.combine(per_ref, self.config.multi_ref)

    def batches(self, predictions: Any, references: Any, *, num_threads: int, values: bool,
                scores: bool) -> Iterator[ScoreBatch]:
        preds, refs = self.check_batch(predictions, references)
        start, session = 0, self.session
        if self.interned is not None:
            # an order-dependent tokenizer's first examples go one by one until its session settles
            while start < len(preds) and session is not None and not session.settled:
                yield from self._python_batches(preds, refs, start, start + 1, values)
                start += 1
            for lo in range(start, len(preds), NATIVE_CHUNK):
                yield self.interned.batch(preds, refs, lo, min(lo + NATIVE_CHUNK, len(preds)), self.process,
                                          num_threads, values, scores)
            return
        yield from self._python_batches(preds, refs, 0, len(preds), values)

    def _python_batches(self, preds: List[Any], refs: List[List[Any]], lo: int, hi: int,
                        values: bool) -> Iterator[ScoreBatch]:
        mode, types = self.config.multi_ref, self.rouge_types
        for start in range(lo, hi, PIPELINE_CHUNK):
            stop = min(start + PIPELINE_CHUNK, hi)
            out: List[Scores] = []
            lens = array("d")
            for i in range(start, stop):
                try:
                    per_ref, pl, rl = self.example_stats(preds[i], refs[i], i)
                except OverflowError as exc:  # rougeW with a weight too large for this input
                    raise OverflowError(f"example {i}: {exc}") from None
                except SegmenterError as exc:  # name the text a segmenter failed on
                    raise locate_failure(exc, self.process, [(f"predictions[{i}]", preds[i])] + [
                        (f"references[{i}][{j}]", r) for j, r in enumerate(refs[i])]) from exc.__cause__
                out.append(self.combine(per_ref, mode))
                lens.append(pl)
                lens.append(rl)
            vals = None
            if values:
                vals = array("d")
                for sc in out:
                    for t in types:
                        vals.extend(sc[t])
            yield ScoreBatch(types, start, stop - start, out, lens, vals)


class InternedScorer:
    """The Python text pipeline's views scored by the native id scorer (``_native.Scorer.batch_ids``: the
    text batch's kernels on ``num_threads`` threads without the GIL), for every configuration that the
    whole-pipeline native scorer does not take (the ``unicode`` and ``perl`` tokenizers, the segmenters,
    recipes, stopwords, custom tokenizers and sentence splitters).

    Each token of a view is interned to an int (one dict per scorer, process-wide for its lifetime: ROUGE
    compares the tokens of one example with each other only, so any one-to-one naming gives the same
    statistics); sentences become runs separated by a reserved id. When the pipeline's tokens are its
    sentences' tokens end to end (newline sentences of a line-separable tokenizer), one id sequence per text
    serves every type; otherwise (a recipe whose sentences go through another pipeline, another sentence
    splitter) the types that read sentences (rougeLsum, rougeW) are scored from a second sequence by a second
    scorer, and the two batches are merged column by column (the per-type multi-reference modes and the exact
    column sums are independent across types). The ids of a text are cached (:data:`CACHE_SIZE` texts per
    scorer) when its tokenizer is a named one, whose output depends on the text alone. Cost: O(tokens) dict
    lookups for a text not in the cache, then the native kernels."""

    CACHE_SIZE = 1 << 16
    _SEP = 0  # ends a sentence; token ids start at 1

    def __init__(self, config: RougeConfig, groups: List[Tuple[Any, Tuple[int, ...], bool]], cache: bool,
                 lengths_from: int) -> None:
        self.rouge_types = config.rouge_types
        self.groups = groups  # (id scorer, indices of its types in rouge_types, reads sentences)
        self.ids: Dict[Any, int] = {}
        self.cache: Optional[Dict[Any, Tuple[List[int], ...]]] = {} if cache else None
        self.lengths_from = lengths_from

    @classmethod
    def make(cls, config: RougeConfig, pipeline: TextPipeline, kernels: Any) -> Optional["InternedScorer"]:
        if getattr(kernels, "Scorer", None) is None or not hasattr(kernels.Scorer, "batch_ids"):
            return None  # the pure-Python kernels, or an extension without the id scorer
        base = config.replace(tokenizer="ids", use_stemmer=False, stopwords=None, sentence_splitter="newline",
                              ignore_ids=(), sentence_ids=(cls._SEP,))
        specs = config.type_specs
        if not pipeline.needs_sentences or not pipeline.needs_tokens or pipeline.newline_fast:
            parts = [tuple(range(len(specs)))]
        else:
            parts = [tuple(k for k, s in enumerate(specs) if not s.uses_sentences),
                     tuple(k for k, s in enumerate(specs) if s.uses_sentences)]
        groups = []
        for part in parts:
            scorer = core.native_id_scorer(base.replace(rouge_types=tuple(specs[k].name for k in part)))
            if scorer is None:
                return None
            groups.append((scorer, part, len(parts) == 2 and specs[part[0]].uses_sentences))
        deterministic = isinstance(config.tokenizer, str) and isinstance(config.sentence_splitter, str)
        return cls(config, groups, deterministic, 0)

    def clear_cache(self) -> None:
        """Forget the cached ids of texts and the names given to tokens (the next batch starts as the first)."""
        if self.cache is not None:
            self.cache.clear()
        self.ids.clear()

    def _text_ids(self, text: str, process: Callable[[str], View]) -> Tuple[List[int], ...]:
        cache = self.cache
        if cache is not None:
            hit = cache.get(text)
            if hit is not None:
                return hit
        toks, sents = process(text)
        ids, sep = self.ids, self._SEP
        setdefault = ids.setdefault

        def name(seq: Sequence[Any]) -> List[int]:
            return [setdefault(t, len(ids) + 1) for t in seq]

        out = []
        for _, _, by_sentence in self.groups:
            if toks is not None and not by_sentence and (sents is None or len(self.groups) == 2):
                out.append(name(toks))
            else:
                seq: List[int] = []
                for k, sent in enumerate(sents):  # type: ignore[arg-type]
                    if k:
                        seq.append(sep)
                    seq.extend(name(sent))
                out.append(seq)
        view = tuple(out)
        if cache is not None:
            if len(cache) >= self.CACHE_SIZE:
                cache.clear()
            cache[text] = view
        return view

    def batch(self, preds: List[Any], refs: List[List[Any]], lo: int, hi: int, process: Callable[[str], View],
              num_threads: int, values: bool, scores: bool) -> ScoreBatch:
        """Examples ``lo`` to ``hi`` of validated input, as one :class:`ScoreBatch`."""
        k = len(self.groups)
        p_ids: List[List[List[int]]] = [[] for _ in range(k)]
        r_ids: List[List[List[List[int]]]] = [[] for _ in range(k)]
        text_ids = self._text_ids
        for i in range(lo, hi):
            try:
                pv = text_ids(preds[i], process)
                rvs = [text_ids(r, process) for r in refs[i]]
            except SegmenterError as exc:  # name the text a segmenter failed on
                raise locate_failure(exc, process, [(f"predictions[{i}]", preds[i])] + [
                    (f"references[{i}][{j}]", r) for j, r in enumerate(refs[i])]) from exc.__cause__
            for g in range(k):
                p_ids[g].append(pv[g])
                r_ids[g].append([rv[g] for rv in rvs])
        outs = []
        for g, (scorer, _, _) in enumerate(self.groups):
            try:
                out = scorer.batch_ids(p_ids[g], r_ids[g], num_threads, values or k > 1, scores or k > 1, lo,
                                       ignore_ids=(), sentence_ids=(self._SEP,))
            except OverflowError as exc:  # rougeW with a weight too large for this input
                raise OverflowError(str(exc)) from None
            outs.append(out)
        if k == 1:
            out = outs[0]
            return ScoreBatch(self.rouge_types, lo, out.n, out.scores, memoryview(out.lengths).cast("d"),
                              memoryview(out.values).cast("d") if values else None, out.partials)
        return self._merged(outs, lo, hi - lo, values, scores)

    def _merged(self, outs: List[Any], lo: int, n: int, values: bool, scores: bool) -> ScoreBatch:
        """One batch of every type from the batches of each group, column by column."""
        types = self.rouge_types
        where: List[Tuple[int, int]] = [(0, 0)] * len(types)  # type index -> (group, index in the group)
        for g, (_, part, _) in enumerate(self.groups):
            for j, k in enumerate(part):
                where[k] = (g, j)
        partials = []
        for g, j in where:
            partials.extend(outs[g].partials[3 * j:3 * j + 3])
        lens_out = outs[self.lengths_from]
        partials.extend(lens_out.partials[-2:])
        merged_scores = None
        if scores:
            merged_scores = [{t: outs[g].scores[i][t] for t, (g, _) in zip(types, where)} for i in range(n)]
        vals = None
        if values:
            cols = [memoryview(o.values).cast("d") for o in outs]
            widths = [3 * len(part) for _, part, _ in self.groups]
            vals = array("d")
            for i in range(n):
                for g, j in where:
                    base = i * widths[g] + 3 * j
                    vals.extend(cols[g][base:base + 3])
        return ScoreBatch(types, lo, n, merged_scores, memoryview(lens_out.lengths).cast("d"), vals, partials)


class NativeBackend(PipelineBackend):
    """The whole pipeline in C++ (``_native.Scorer``) for the configurations it takes; anything else
    (explanations' pair statistics, input that needs validation) runs the Python pipeline on the
    native kernels, with the same floats."""

    def __init__(self, config: RougeConfig, scorer: Any, batch: Callable[..., Any]) -> None:
        super().__init__(config, "native", core.kernels("native"))
        self._batch = batch
        self.native_pipeline = True
        self.scorer = scorer  # the _native.Scorer of text configurations (None for token ids)
        self._vocab = getattr(scorer, "vocab", None)
        if scorer is not None:
            self.score_quick = scorer.score
        else:  # token ids: a batch of one
            self.score_quick = self._score_ids

    def _score_ids(self, prediction: Any, references: Any) -> Optional[Scores]:
        try:
            out = self._batch([prediction], [references], 1, False, True)
        except OverflowError:  # rougeW's weight: the Python path raises it with its own message
            return None
        return None if out is None else out.scores[0]

    def batches(self, predictions: Any, references: Any, *, num_threads: int, values: bool,
                scores: bool) -> Iterator[ScoreBatch]:
        """Chunks of :data:`NATIVE_CHUNK` examples on ``num_threads`` threads without the GIL (the first
        one :data:`NATIVE_COLD_CHUNK` while the text vocabulary is empty). Input that is not plain lists of
        str (of lists of int for token ids) is validated first; its errors name the index in the whole
        input."""
        validate = self.check_batch
        if type(predictions) is not list or type(references) is not list or len(predictions) != len(references):
            predictions, references = validate(predictions, references)
        types = self.rouge_types
        start, n, validated = 0, len(predictions), False
        while start < n:
            cold = self._vocab is not None and self._vocab.size == 0
            stop = min(start + (NATIVE_COLD_CHUNK if cold else NATIVE_CHUNK), n)
            if self.scorer is not None:  # the text scorer reads the chunk from the whole lists
                out = self._batch(predictions, references, num_threads, values, scores, start, stop)
            else:
                out = self._batch(predictions[start:stop], references[start:stop], num_threads, values, scores, start)
            if out is None:
                if validated:  # pragma: no cover - validated input is always accepted
                    raise RuntimeError("native batch scorer rejected validated input")
                predictions, references = validate(predictions, references)
                validated = True
                continue
            yield ScoreBatch(types, start, out.n, out.scores, memoryview(out.lengths).cast("d"),
                             memoryview(out.values).cast("d") if values else None, out.partials)
            start = stop


def make_backend(config: RougeConfig, name: Optional[str] = None, pipeline: Any = None,
                 rounding: Optional[str] = None) -> Backend:
    """The backend for ``config``: ``name`` is ``auto``/``python``/``native`` (default: the
    ``ROUGE_METRIC_BACKEND`` environment variable, then ``auto``). A ``pipeline`` of the caller's (the
    ROUGE-1.5.5 one) or a per-example ``rounding`` runs the Python pipeline on the backend's kernels."""
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding: invalid value {rounding!r}; allowed: None, 'perl'")
    if rounding is not None and config.multi_ref not in ("pool", "best_recall"):
        raise ValueError(f"rounding={rounding!r} rounds each example's score as ROUGE-1.5.5 prints it; it goes with "
                         f"multi_ref 'pool' or 'best_recall' (the script's -f A / -f B), not {config.multi_ref!r}")
    resolved = core.get_backend(name)
    if pipeline is not None or rounding is not None:
        return PipelineBackend(config, resolved, core.kernels(resolved), pipeline, rounding)
    if resolved == "native":
        scorer = core.native_scorer(config, get_stemmer(config.use_stemmer) if config.use_stemmer else None)
        if scorer is not None:
            return NativeBackend(config, scorer, scorer.batch)
        if config.uses_ids:
            ids = core.native_id_scorer(config)
            if ids is not None:
                return NativeBackend(config, None, partial(ids.batch_ids, ignore_ids=config.ignore_ids,
                                                           sentence_ids=config.sentence_ids))
    return PipelineBackend(config, resolved, core.kernels(resolved))
