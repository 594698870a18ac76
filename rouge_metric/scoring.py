"""Pair, batch and corpus scoring on the kernels; multi-reference modes; input validation.

Data path: text -> (tokens, sentences) once per text (:mod:`rouge_metric.text`) -> per (type,
reference) sufficient statistics ``(hit, pred_total, ref_total, select)`` from the kernels ->
multi-reference selection -> :class:`Score` per example -> :class:`CorpusAccumulator`.
"""

from __future__ import annotations

import math
from functools import partial
from typing import AbstractSet, Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import core
from .aggregate import CorpusAccumulator, bootstrap
from .core_py import wpow
from .config import DEFAULT_ROUGE_TYPES, RougeConfig, TypeSpec, as_type_names
from .result import CorpusResult, Score
from .ids import IdPipeline, id_references, validate_id_batch
from .text import TextPipeline

References = Union[str, Sequence[str]]

#: Examples per call of the native batch scorer: memory stays flat however long the input.
NATIVE_CHUNK = 8192
Stats = Tuple[float, float, float, float]  # hit, pred_total, ref_total, select (for best_recall)


# ------------------------------------------------------------------------------------ validation
def _type_name(x: Any) -> str:
    return "None" if x is None else type(x).__name__


def normalize_references(references: Any, index: int, arg: str = "references") -> List[str]:
    """``references[index]`` as a non-empty list of str, or a TypeError/ValueError naming the index."""
    if isinstance(references, str):
        return [references]
    if isinstance(references, (list, tuple)):
        if not references:
            raise ValueError(f"{arg}[{index}]: empty list of references; give at least one reference")
        for j, r in enumerate(references):
            if not isinstance(r, str):
                raise TypeError(f"{arg}[{index}][{j}]: expected str, got {_type_name(r)}")
        return list(references)
    if hasattr(references, "tolist") and not isinstance(references, (bytes, bytearray)):
        return normalize_references(references.tolist(), index, arg)
    raise TypeError(f"{arg}[{index}]: expected str or list of str, got {_type_name(references)}")


def check_prediction(prediction: Any, index: int, arg: str = "predictions") -> str:
    if not isinstance(prediction, str):
        raise TypeError(f"{arg}[{index}]: expected str, got {_type_name(prediction)}")
    return prediction


def validate_batch(predictions: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
    """Check a batch at the boundary: same length, str predictions, str-or-list references."""
    for arg, val in (("predictions", predictions), ("references", references)):
        if val is None:
            raise TypeError(f"{arg}: expected a list, got None")
        if isinstance(val, (str, bytes)):
            raise TypeError(f"{arg}: expected a list of texts, got a single {type(val).__name__}; wrap it in a list")
        if isinstance(val, (Mapping, AbstractSet)):  # unordered, or iterating would give the keys
            raise TypeError(f"{arg}: expected a list (one entry per example), got a {type(val).__name__}")
        if not hasattr(val, "__iter__"):
            raise TypeError(f"{arg}: expected a list (one entry per example), got {type(val).__name__}")
    predictions = list(predictions)
    references = list(references)
    if len(predictions) != len(references):
        raise ValueError(
            f"predictions and references must have the same length: got {len(predictions)} predictions "
            f"and {len(references)} references"
        )
    preds = [check_prediction(p, i) for i, p in enumerate(predictions)]
    refs = [normalize_references(r, i) for i, r in enumerate(references)]
    return preds, refs


def _check_one_text(prediction: Any, references: Any) -> Tuple[str, List[str]]:
    return check_prediction(prediction, 0, "prediction"), normalize_references(references, 0, "references")


def _check_one_ids(prediction: Any, references: Any) -> Tuple[List[int], List[List[int]]]:
    from .ids import as_ids

    return as_ids(prediction, "prediction"), id_references(references, 0, "references")


# ------------------------------------------------------------------------------------ P / R / F
def make_fmeasure(beta: float = 1.0, alpha: Optional[float] = None):
    """The F function of the settings. beta == 1 uses rouge-score's ``2PR/(P+R)`` (bit-for-bit)."""
    if alpha is not None:
        a = alpha

        def f_alpha(p: float, r: float) -> float:
            d = (1.0 - a) * p + a * r
            return p * r / d if d > 0 else 0.0

        return f_alpha
    if beta == 1.0:

        def f1(p: float, r: float) -> float:
            return 2 * p * r / (p + r) if p + r > 0 else 0.0

        return f1
    b2 = beta * beta

    def f_beta(p: float, r: float) -> float:
        d = b2 * p + r
        return (1 + b2) * p * r / d if d > 0 else 0.0

    return f_beta


def _round5(x: float) -> float:
    """ROUGE-1.5.5's ``sprintf("%7.5f")``."""
    return float("%.5f" % x)


class _TypeScorer:
    """Per-type arithmetic: stats -> Score, and the multi-reference modes."""

    def __init__(self, spec: TypeSpec, fmeasure) -> None:
        self.spec = spec
        self.f = fmeasure
        self.inv = 1.0 / spec.weight if spec.kind == "wlcs" else None

    def score(self, hit: float, pred_total: float, ref_total: float) -> Score:
        if self.inv is None:
            p = hit / pred_total if pred_total else 0.0
            r = hit / ref_total if ref_total else 0.0
        else:
            p = wpow(hit / pred_total, self.inv) if pred_total else 0.0
            r = wpow(hit / ref_total, self.inv) if ref_total else 0.0
        return Score(p, r, self.f(p, r))

    def combine(self, stats: Sequence[Stats], mode: str) -> Score:
        if len(stats) == 1:
            s = stats[0]
            return self.score(s[0], s[1], s[2])
        if mode == "max":
            best = None
            for s in stats:
                sc = self.score(s[0], s[1], s[2])
                if best is None or sc.fmeasure > best.fmeasure:
                    best = sc
            return best  # type: ignore[return-value]
        if mode == "mean":
            scs = [self.score(s[0], s[1], s[2]) for s in stats]
            k = len(scs)
            return Score(*(math.fsum(sc[i] for sc in scs) / k for i in range(3)))
        if mode == "pool":
            # Left to right in reference order, as ROUGE-1.5.5 (and the native core) add them; not the
            # built-in sum(), whose float result depends on the Python version (compensated since 3.12).
            h = pt = rt = 0.0
            for s in stats:
                h += s[0]
                pt += s[1]
                rt += s[2]
            return self.score(h, pt, rt)
        # best_recall: strict > from -1, so ties keep the first reference (ROUGE-1.5.5 -f B)
        best_s, best_key = stats[0], -1.0
        for s in stats:
            if s[3] > best_key:
                best_s, best_key = s, s[3]
        return self.score(best_s[0], best_s[1], best_s[2])


# ---------------------------------------------------------------------------------- kernel calls
def pair_stats(specs: Sequence[TypeSpec], kernels: Any, pred: Tuple, ref: Tuple) -> List[Stats]:
    """Sufficient statistics of every type for one (prediction, reference) pair.

    ``pred``/``ref`` are ``(tokens, sentences)`` views from :class:`TextPipeline`.
    """
    pt, ps = pred
    rt, rs = ref
    out: List[Stats] = []
    for spec in specs:
        kind = spec.kind
        if kind == "ngram":
            h, a, b = kernels.ngram_overlap(pt, rt, spec.n)
            out.append((h, a, b, _round5(h / b) if b else 0.0))
        elif kind == "lcs":
            h = kernels.lcs_length(rt, pt) if pt and rt else 0
            out.append((h, len(pt), len(rt), h / len(rt) if rt else 0.0))
        elif kind == "lcsum":
            h, a, b = kernels.union_lcs_overlap(rs, ps)
            out.append((h, a, b, h / b if b else 0.0))
        elif kind == "skip":
            h, a, b = kernels.skip_bigram_overlap(pt, rt, spec.skip, spec.unigrams)
            out.append((h, a, b, _round5(h / b) if b else 0.0))
        else:  # wlcs
            out.append(kernels.wlcs_overlap(rs, ps, spec.weight))
    return out


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
    """

    def __init__(self, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *,
                 config: Optional[RougeConfig] = None, backend: Optional[str] = None,
                 num_threads: Optional[int] = None, **options: Any) -> None:
        if config is None:
            config = RougeConfig(rouge_types=as_type_names(rouge_types), **options)
        elif options:
            config = config.replace(**options)
        self.config = config
        self.backend = core.get_backend(backend)
        self._kernels = core.kernels(self.backend)
        # Text or token ids (tokenizer="ids"): the pipeline that makes kernel tokens, and the boundary checks.
        if config.uses_ids:
            self.pipeline: Any = IdPipeline(config)
            self._check_one, self._check_batch = _check_one_ids, validate_id_batch
        else:
            self.pipeline = TextPipeline(config)
            self._check_one, self._check_batch = _check_one_text, validate_batch
        self.specs = config.type_specs
        f = make_fmeasure(config.beta, config.alpha)
        self._type_scorers = [_TypeScorer(s, f) for s in self.specs]
        # Batch threads of the native backend (numbers do not depend on it; not in the signature).
        if num_threads is not None and (isinstance(num_threads, bool) or not isinstance(num_threads, int)
                                        or num_threads < 1):
            raise ValueError(f"num_threads: expected an integer >= 1 or None (all cores), got {num_threads!r}")
        self.num_threads = num_threads
        # The whole pipeline in C++ when the backend is native and the configuration allows it: _fast
        # for text (one pair with the GIL, or a batch), _native_batch for batches of text or token ids.
        self._fast = core.native_scorer(config) if self.backend == "native" else None
        self._native_batch: Optional[Callable[..., Any]] = None
        if self._fast is not None:
            self._native_batch = self._fast.batch
        elif self.backend == "native" and config.uses_ids:
            ids = core.native_id_scorer(config)
            if ids is not None:
                self._native_batch = partial(ids.batch_ids, ignore_ids=config.ignore_ids,
                                             sentence_ids=config.sentence_ids)

    def __getstate__(self) -> Dict[str, Any]:
        return {"config": self.config, "backend": self.backend, "num_threads": self.num_threads}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(config=state["config"], backend=state["backend"],  # type: ignore[misc]
                      num_threads=state["num_threads"])

    def __repr__(self) -> str:
        return f"Rouge({self.signature()!r})"

    @property
    def rouge_types(self) -> Tuple[str, ...]:
        return self.config.rouge_types

    def signature(self) -> str:
        return self.config.signature(self.backend)

    # ---- text views
    def process(self, text: str) -> Tuple[Any, Any]:
        return self.pipeline.process(text)

    @staticmethod
    def _length(view: Tuple[Any, Any]) -> int:
        toks, sents = view
        return len(toks) if toks is not None else sum(map(len, sents))

    # ---- one example
    def example_stats(self, prediction: str, references: List[str]) -> Tuple[List[List[Stats]], int, float]:
        """Per reference, the stats of every type; plus the prediction length and mean reference length."""
        pv = self.process(prediction)
        per_ref = []
        ref_len = 0
        for r in references:
            rv = self.process(r)
            ref_len += self._length(rv)
            per_ref.append(pair_stats(self.specs, self._kernels, pv, rv))
        return per_ref, self._length(pv), ref_len / len(references)

    def pair_stats(self, prediction_view: Tuple[Any, Any], reference_view: Tuple[Any, Any]) -> List[Stats]:
        """Sufficient statistics ``(hit, pred_total, ref_total, select)`` of every type, in the order of
        ``rouge_types``, for one prediction and one reference, each a view from :meth:`process`."""
        return pair_stats(self.specs, self._kernels, prediction_view, reference_view)

    def score_stats(self, stats: Sequence[Stats]) -> Dict[str, Score]:
        """``{type: Score}`` of one reference's statistics (as :meth:`pair_stats` returns them)."""
        return {ts.spec.name: ts.score(s[0], s[1], s[2]) for ts, s in zip(self._type_scorers, stats)}

    def combine(self, per_ref: Sequence[Sequence[Stats]], multi_ref: Optional[str] = None) -> Dict[str, Score]:
        """``{type: Score}`` of one example from the statistics of each of its references, combined with
        ``multi_ref`` (default: the configured mode)."""
        mode = self.config.multi_ref if multi_ref is None else multi_ref
        return {
            ts.spec.name: ts.combine([s[k] for s in per_ref], mode)
            for k, ts in enumerate(self._type_scorers)
        }

    _combine = combine

    def score(self, *, prediction: str, references: References) -> Dict[str, Score]:
        """Scores of one example: ``{type: Score}`` in the order of ``rouge_types``."""
        if self._fast is not None:
            out = self._fast.score(prediction, references)
            if out is not None:
                return out
        elif self._native_batch is not None:  # token ids: a batch of one
            try:
                out = self._native_batch([prediction], [references], 1, False, True)
            except OverflowError:  # rougeW's weight: the Python path raises it with its own message
                out = None
            if out is not None:
                return out[4][0]
        prediction, refs = self._check_one(prediction, references)
        per_ref, _, _ = self.example_stats(prediction, refs)
        return self._combine(per_ref)

    # ---- batches and corpora
    def iter_scores(self, predictions: Sequence[str], references: Sequence[References]
                    ) -> Iterator[Tuple[Dict[str, Score], int, float]]:
        """Validated, lazily scored examples: ``(scores, pred_len, ref_len)`` per example."""
        if self._native_batch is not None:
            from array import array

            for out in self._native_batches(predictions, references, want_values=False, want_dicts=True):
                lens = array("d")
                lens.frombytes(out[2])
                for i, scores in enumerate(out[4]):
                    yield scores, lens[2 * i], lens[2 * i + 1]
            return
        preds, refs = self._check_batch(predictions, references)
        for i, (p, rs) in enumerate(zip(preds, refs)):
            try:
                per_ref, pl, rl = self.example_stats(p, rs)
            except OverflowError as exc:  # rougeW with a weight too large for this input
                raise OverflowError(f"example {i}: {exc}") from None
            yield self._combine(per_ref), pl, rl

    def _native_batches(self, predictions: Any, references: Any, want_values: bool, want_dicts: bool
                        ) -> Iterator[Tuple[Any, ...]]:
        """The native batch scorer over chunks of :data:`NATIVE_CHUNK` examples, on ``num_threads``
        threads without the GIL. Yields ``(n, values, lens, partials, dicts)`` (see ``_native.Scorer.batch``
        and ``batch_ids``). Input that is not plain lists of str (of lists of int for token ids) goes
        through :func:`validate_batch` (:func:`~rouge_metric.ids.validate_id_batch`) first (its errors
        name the index in the whole input).
        """
        validate = self._check_batch
        if type(predictions) is not list or type(references) is not list or len(predictions) != len(references):
            predictions, references = validate(predictions, references)
        threads = self.num_threads or core.default_num_threads()
        start, n, validated = 0, len(predictions), False
        while start < n:
            stop = start + NATIVE_CHUNK
            out = self._native_batch(predictions[start:stop], references[start:stop], threads, want_values,
                                     want_dicts, start)
            if out is None:
                if validated:  # pragma: no cover - validated input is always accepted
                    raise RuntimeError("native batch scorer rejected validated input")
                predictions, references = validate(predictions, references)
                validated = True
                continue
            yield out
            start = stop

    def _merge_native(self, acc: CorpusAccumulator, out: Tuple[Any, ...]) -> None:
        """Merge one native batch result into ``acc``: the exact partial sums of every column
        (Shewchuk partials, so the corpus mean is the same correctly rounded float as adding the
        examples one by one) and, when ``acc`` keeps values, the (P, R, F) of every example."""
        n, values, _, parts, _ = out
        if acc.rouge_types != self.rouge_types:
            raise ValueError(f"cannot merge scores of types {self.rouge_types} into {acc.rouge_types}")
        per_type = None
        if acc.values is not None:
            import numpy as np

            arr = np.frombuffer(values, dtype=np.float64).reshape(n, len(self.rouge_types), 3)
            per_type = {t: arr[:, k, :].ravel() for k, t in enumerate(self.rouge_types)}
        acc.merge(CorpusAccumulator.from_partials(self.rouge_types, n, parts, per_type))

    def score_examples(self, *, predictions: Sequence[str], references: Sequence[References]
                       ) -> List[Dict[str, Score]]:
        """Per-example scores, one ``{type: Score}`` per example."""
        return [s for s, _, _ in self.iter_scores(predictions, references)]

    def accumulator(self, keep_values: Optional[bool] = None) -> CorpusAccumulator:
        """A streaming accumulator for these types (values kept when bootstrapping)."""
        if keep_values is None:
            keep_values = self.config.aggregation == "bootstrap"
        return CorpusAccumulator(self.rouge_types, keep_values=keep_values)

    def add_to(self, acc: CorpusAccumulator, *, predictions: Sequence[str], references: Sequence[References],
               per_example: Optional[List[Dict[str, Score]]] = None) -> None:
        """Score a batch into an accumulator (memory stays flat unless values are kept)."""
        if self._native_batch is not None:
            for out in self._native_batches(predictions, references, want_values=acc.values is not None,
                                            want_dicts=per_example is not None):
                self._merge_native(acc, out)
                if per_example is not None:
                    per_example.extend(out[4])
            return
        for scores, pl, rl in self.iter_scores(predictions, references):
            acc.add(scores, pl, rl)
            if per_example is not None:
                per_example.append(scores)

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


def compute(*, predictions: Sequence[str], references: Sequence[References],
            rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, return_per_example: bool = False,
            **options: Any) -> CorpusResult:
    """Score a corpus in one call (``options`` are :class:`RougeConfig` fields).

    >>> r = compute(predictions=["the cat sat"], references=[["a cat sat", "the cat"]], rouge_types=["rouge1"])
    >>> r.scores["rouge1"].fmeasure
    0.8
    """
    backend = options.pop("backend", None)
    num_threads = options.pop("num_threads", None)
    return Rouge(rouge_types, backend=backend, num_threads=num_threads, **options).compute(
        predictions=predictions, references=references, return_per_example=return_per_example)


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
        self._pair = self._rouge._fast.score if self._rouge._fast is not None else None
        self._pair_max = self._max._fast.score if self._max._fast is not None else None

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
        pair = self._pair
        if pair is not None and type(target) is str:
            out = pair(prediction, target)
            if out is not None:
                return out
        if type(target) is not str:
            check_prediction(target, 0, "target")
        return self._rouge.score(prediction=prediction, references=target)

    def score_multi(self, targets: Sequence[str], prediction: str) -> Dict[str, Score]:
        """Per type, the score of the target with the highest F-measure (the first on ties)."""
        if (type(targets) is list or type(targets) is tuple) and targets:
            pair = self._pair_max
            if pair is not None:
                out = pair(prediction, targets)
                if out is not None:
                    return out
            try:
                return self._max.score(prediction=prediction, references=targets)
            except TypeError:
                self._check_targets(targets, prediction)  # the error names `targets`
                raise
        return self._max.score(prediction=prediction, references=self._check_targets(targets, prediction))

    @staticmethod
    def _check_targets(targets: Any, prediction: Any) -> List[str]:
        check_prediction(prediction, 0, "prediction")
        if not isinstance(targets, str) and (not hasattr(targets, "__iter__") or isinstance(targets, (Mapping, AbstractSet))):
            raise TypeError(f"targets: expected a list of str (the references of the prediction), got "
                            f"{_type_name(targets)}")
        return normalize_references(list(targets) if not isinstance(targets, str) else targets, 0, "targets")
