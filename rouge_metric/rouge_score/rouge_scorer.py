"""``rouge_score.rouge_scorer`` of rouge-score 0.1.2: :class:`RougeScorer`, rouge-score's scorer on
rouge_metric's kernels.

Same arguments, same argument order (``score(target, prediction)``, ``score_multi(targets,
prediction)``), same result types and values, and the same behaviour when something is wrong: every
call follows rouge-score's ``score`` step by step, so an error is met at the same step, with the same
exception type, as in rouge-score:

1. ``len(rouge_types)`` (and ``rouge_types[0]`` when there is one type);
2. the tokenizer on the target, then on the prediction (skipped when the only type is ``rougeLsum``);
3. each type in the order of ``rouge_types``: ``rougeL``; ``rougeLsum`` (the target's sentences, then
   the prediction's, each tokenized in turn); ``re.match(r"rouge[0-9]$")`` (``rouge0`` raises); any
   other name raises ``ValueError``. Types are read again at every call (a list changed in place is
   honoured); duplicates give one key.

The messages are rouge-score's (``Invalid rouge type: rougeX``, numpy's ``attempt to get argmax of an
empty sequence`` for ``score_multi`` without targets), except two, clearer, of the same type: missing
punkt data (``split_summaries=True``) says how to install it, and a tokenizer output that is not a
sequence names the tokenizer's text and what was expected.

Two paths, one result:

- the fast path: the default tokenizer (:class:`~rouge_metric.rouge_score.tokenizers.DefaultTokenizer`),
  a list or tuple of valid types and ``str`` texts score through :class:`rouge_metric.RougeScorer`
  (the whole pipeline native when built, bit-for-bit rouge-score's floats): nothing in those calls can
  fail or be observed, so they need not be replayed. With the native core built, ``score`` and
  ``score_multi`` are native methods that check, at every call and without running Python code, that
  the settings are still those the fast path was planned for (the same ``rouge_types`` object with
  equal items, the same ``_tokenizer`` stemming as it did, the same ``_split_summaries``), and run the
  Python methods below for every other call, which plan again;
- every other call (a custom tokenizer, bytes, an invalid type or text) runs the steps above in
  Python, tokens go to the kernels through :meth:`rouge_metric.Rouge.pair_stats`.

A custom tokenizer is called exactly as rouge-score calls it: the same texts (bytes as given, then the
decoded rougeLsum lines), in the same order, as many times. Its tokens may be any hashable values
(str, int, tuple, ...); it may return a list, a tuple or a str (a sequence of characters). One
deliberate difference: tokens must be hashable for every type (the kernels count and intern them);
rouge-score's ``rougeL`` alone compares unhashable tokens with ``==``. A tokenizer that returns
anything else (``None``, a generator, a set) gets a TypeError where rouge-score gets one, and
``rougeL`` of a falsy value is ``Score(0, 0, 0)`` in both.

``rougeL``/``rougeLsum`` of a text without tokens are ``Score(0, 0, 0)`` with int zeros, as in
rouge-score (its n-gram scores are float zeros).

>>> scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
>>> scores = scorer.score("The quick brown fox jumps over the lazy dog",
...                       "The quick brown dog jumps on the log.")
>>> scores["rouge1"]
Score(precision=0.75, recall=0.6666666666666666, fmeasure=0.7058823529411765)
>>> scorer.score("", "no tokens in the target")["rougeL"]
Score(precision=0, recall=0, fmeasure=0)
>>> class Words:
...     def tokenize(self, text):
...         return [len(w) for w in text.split()]  # any hashable token
>>> RougeScorer(["rouge1"], tokenizer=Words()).score("a bb ccc", "dd e")["rouge1"].recall
0.6666666666666666
"""

from __future__ import annotations

import re
import weakref
from typing import Any, Dict, List, Optional, Tuple

from .. import core as _backends
from .. import scoring as _core
from . import scoring, tokenizers
from .scoring import Score
from .tokenize import ensure_str

__all__ = ["RougeScorer"]

_NGRAM = re.compile(r"rouge[0-9]$")
_ZERO = Score(precision=0, recall=0, fmeasure=0)
_LCS_TYPES = ("rougeL", "rougeLsum")

#: The instance attribute that holds the plan of the native ``score``/``score_multi`` (_Plan.native_plan).
_NATIVE_PLAN = "_native_plan"

_PUNKT_HELP = (
    "rougeLsum with split_summaries=True splits sentences with nltk.sent_tokenize, which needs nltk's "
    "punkt_tab data, and it is not installed. Install it with `python -m nltk.downloader punkt_tab` (or "
    "put it under $NLTK_DATA), or use split_summaries=False and put one sentence per line. rouge_metric "
    "never downloads data."
)


def _classify(rouge_type: Any) -> Optional[str]:
    """The rouge_metric type rouge-score computes for ``rouge_type``, or None when its step would raise."""
    try:
        if rouge_type == "rougeL":
            return "rougeL"
        if rouge_type == "rougeLsum":
            return "rougeLsum"
        if _NGRAM.match(ensure_str(rouge_type)):
            n = int(rouge_type[5:])
            return f"rouge{n}" if n > 0 else None
    except Exception:  # noqa: BLE001 - the step raises: the Python path meets it in its turn
        return None
    return None


def _preview(text: Any) -> str:
    return repr(text[:40] if isinstance(text, (str, bytes)) else text)


def _not_tokens(value: Any, text: Any) -> TypeError:
    return TypeError(f"tokenizer: tokenize() returned {type(value).__name__} for text {_preview(text)}; "
                     "expected a list (or tuple) of hashable tokens")


def _size(value: Any, text: Any) -> int:
    """``len`` of a tokenizer output (rouge-score's first use of it), or its TypeError."""
    try:
        return len(value)
    except TypeError:
        raise _not_tokens(value, text) from None


def _tokens(value: Any, text: Any) -> List[Any]:
    """The tokenizer's output for ``text`` as a list for the kernels: a list, a tuple or a str / bytes
    (rouge-score slices and indexes what it gets, so a str is a sequence of characters); an empty value
    of any sized type (rouge-score indexes nothing in it); else the TypeError rouge-score meets (``len``
    or a subscript of something that is not a sequence)."""
    if type(value) is list:
        return value
    if isinstance(value, (list, tuple, str, bytes)):
        return list(value)
    if _size(value, text) == 0:
        return []
    raise _not_tokens(value, text)


def _stem_flag(tokenizer: Any) -> Any:
    """What a :class:`~rouge_metric.rouge_score.tokenizers.DefaultTokenizer` stems by (its ``_use_stemmer``
    as stored), or None for any other tokenizer."""
    if type(tokenizer) is not tokenizers.DefaultTokenizer:
        return None
    return vars(tokenizer).get("_use_stemmer")


class _Plan:
    """What one state of (rouge_types, tokenizer, split_summaries) scores on the fast path."""

    __slots__ = ("types", "source", "tokenizer", "stem", "split", "scorer", "score", "score_multi", "keys",
                 "identity", "lcs", "fast", "fast_multi", "native", "native_types", "counter")

    def __init__(self, types: Any, tokenizer: Any, split: Any) -> None:
        self.types = type(types)(types)  # a copy of the list or tuple (compared at every call)
        self.source = types  # the object it was copied from (the fast path's first check)
        self.tokenizer = tokenizer
        self.stem = _stem_flag(tokenizer)
        self.split = split
        self.scorer: Optional[_core.RougeScorer] = None
        self.score: Any = None
        self.score_multi: Any = None
        self.fast: Any = None
        self.fast_multi: Any = None
        self.native: Any = None
        self.native_types: Any = None
        self.counter: Optional[_core.RougeScorer] = None
        internal = [_classify(t) for t in self.types]
        if not internal or None in internal or type(tokenizer) is not tokenizers.DefaultTokenizer:
            return  # every call takes the Python path, which raises what rouge-score raises
        self.keys: List[Tuple[Any, str]] = list(zip(self.types, internal))
        names = list(dict.fromkeys(internal))
        self.identity = len(names) == len(self.types) and all(
            type(k) is str and k == i for k, i in self.keys)
        self.lcs = [t for t in names if t in _LCS_TYPES]
        try:
            scorer = _core.RougeScorer(names, use_stemmer=bool(tokenizer.use_stemmer),
                                     split_summaries=bool(split))
        except LookupError:  # no punkt data: the Python path raises it at rouge-score's step
            return
        self.scorer = scorer
        self.score = scorer.score
        self.score_multi = scorer.score_multi

    def fits(self, types: Any, tokenizer: Any, split: Any) -> bool:
        """True when these settings are the plan's: the same tokenizer (stemming as it did) and
        ``split_summaries`` objects, and rouge types equal to the plan's."""
        return (tokenizer is self.tokenizer and split is self.split and _stem_flag(tokenizer) is self.stem
                and self.types == types)

    def native_plan(self, types: Any) -> Any:
        """The plan of the native ``score``/``score_multi`` (a ``_native.PairPlan``) while the scorer's
        settings are these very objects: ``rouge_types`` is ``types`` (a list: with the plan's items),
        ``_tokenizer`` and ``_split_summaries`` the plan's, the tokenizer's ``_use_stemmer`` unchanged;
        None when the plan has no native entry points."""
        if self.fast is None:
            return None
        if self.native_types is not types:
            native = _backends.native_module()
            # the attributes in the order __init__ sets them: each is then checked without hashing
            self.native = native.PairPlan(
                (self.fast, self.fast_multi), ("rouge_types", "_tokenizer", "_split_summaries"),
                (types, self.tokenizer, self.split), types if type(types) is list else None, tuple(self.types),
                ((self.tokenizer, "_use_stemmer", self.stem),))
            self.native_types = types
        return self.native

    def bind_fast(self, score: Any, score_multi: Any) -> None:
        """The native entry points of this plan (:meth:`rouge_metric.RougeScorer.pair_function`), when its
        keys are the types themselves: a call of exact str runs no Python code; any other call, and one
        in which rougeL or rougeLsum scores 0 (maybe rouge-score's int zeros, see :meth:`finish`), goes to
        ``score`` / ``score_multi``, the drop-in's own steps."""
        if self.scorer is None or not self.identity:
            return
        zero = frozenset(self.lcs)
        self.fast = self.scorer.pair_function(fallback=score, zero_decline=zero)
        self.fast_multi = self.scorer.pair_function(fallback=score_multi, multi=True, zero_decline=zero)

    def finish(self, scores: Dict[str, Score], target: str, prediction: str) -> Dict[Any, Score]:
        """rouge-score's int ``Score(0, 0, 0)`` for rougeL/rougeLsum of a text without tokens, and its keys."""
        no_tokens = None  # a side without tokens (the same answer for both types), found once if needed
        for t in self.lcs:
            if not any(scores[t]):
                if no_tokens is None:
                    no_tokens = self.empty(target) or self.empty(prediction)
                if no_tokens:
                    scores[t] = _ZERO
        if self.identity:
            return scores
        return {key: scores[internal] for key, internal in self.keys}

    def empty(self, text: str) -> bool:
        """True when ``text`` has no token for rougeL or rougeLsum: rougeL's tokens are the whole text's,
        and rougeLsum's sentences (newline-split, or nltk's) hold the same tokens, so both are empty when
        rouge1 of the text against itself, on the same pipeline, is 0 (with a token, it is 1). O(text)
        on the fast path's own pipeline (native when built), instead of the Python one."""
        if self.counter is None:  # the plan's scorer's settings (__init__), with rouge1 alone
            self.counter = _core.RougeScorer(["rouge1"], use_stemmer=bool(self.tokenizer.use_stemmer),
                                             split_summaries=bool(self.split))
        return self.counter.score(text, text)["rouge1"].fmeasure == 0.0


class RougeScorer(scoring.BaseScorer):
    """rouge-score 0.1.2's ``RougeScorer``: the same scores and the same errors, faster (see the module).

    It scores through :class:`rouge_metric.RougeScorer` (the fast path) or
    :meth:`rouge_metric.Rouge.pair_stats` (the Python path). :class:`rouge_metric.RougeScorer` is the
    same calling convention with rouge_metric's settings (every rouge type, any tokenizer or sentence
    splitter, checked at construction); this class is rouge-score itself, for programs written for it.

    Args:
        rouge_types: names among ``rouge1`` ... ``rouge9``, ``rougeL``, ``rougeLsum`` (checked at each
            score, in order, as in rouge-score).
        use_stemmer: Porter stemming (nltk's) in the default tokenizer.
        split_summaries: split rougeLsum sentences with ``nltk.sent_tokenize`` (needs nltk's punkt data)
            instead of newlines.
        tokenizer: an object with ``.tokenize(text)`` returning a list of hashable tokens; replaces the
            default tokenizer (``use_stemmer`` is then ignored, as in rouge-score).
    """

    def __init__(self, rouge_types: Any, use_stemmer: bool = False, split_summaries: bool = False,
                 tokenizer: Any = None) -> None:
        self._native_plan: Any = None  # the first attribute: the native methods find it without hashing
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer if tokenizer else tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        self._plan_cache: Optional[_Plan] = None
        self._kernels: Dict[str, _core.Rouge] = {}

    def __getstate__(self) -> Dict[str, Any]:
        return {"rouge_types": self.rouge_types, "_tokenizer": self._tokenizer,
                "_split_summaries": self._split_summaries}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self._native_plan = None
        self.rouge_types = state["rouge_types"]
        self._tokenizer = state["_tokenizer"]
        self._split_summaries = state["_split_summaries"]
        self._plan_cache = None
        self._kernels = {}

    def _plan(self) -> Optional[_Plan]:
        """The fast-path plan of the current settings, or None when ``rouge_types`` is not a list/tuple;
        it also keeps the plan of the native ``score``/``score_multi`` up to date (``_native_plan``)."""
        types = self.rouge_types
        if type(types) is not list and type(types) is not tuple:
            self.__dict__[_NATIVE_PLAN] = None
            return None
        plan = self._plan_cache
        if plan is None or not plan.fits(types, self._tokenizer, self._split_summaries):
            plan = self._plan_cache = _Plan(types, self._tokenizer, self._split_summaries)
            # The plan's native entry points fall back to this scorer's steps through a weak reference
            # (no cycle: a scorer is freed as soon as it is dropped); they are called only from
            # score and score_multi, while the scorer is alive.
            me = weakref.ref(self)
            plan.bind_fast(lambda target, prediction: me()._score(target, prediction),  # type: ignore[union-attr]
                           lambda targets, prediction: me()._score_multi(targets, prediction))  # type: ignore[union-attr]
        plan.source = types
        native = plan.native_plan(types)
        if self.__dict__.get(_NATIVE_PLAN) is not native:
            self.__dict__[_NATIVE_PLAN] = native
        return plan

    # -------------------------------------------------------------------------------------- scoring
    # score and score_multi: the plan's native entry point while the settings are the plan's (the same
    # rouge_types object, its items unchanged, the same tokenizer and split_summaries), else the steps.
    # With the native core built, both are _native.PairMethods (installed below the class) that make
    # this check in C on the instance's _native_plan and call these methods for everything else.
    def _live_plan(self) -> Any:
        """The cached plan while the settings are still its own, else None."""
        plan = self._plan_cache
        if (plan is not None and plan.source is self.rouge_types
                and plan.fits(plan.source, self._tokenizer, self._split_summaries)):
            return plan
        return None

    def score(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        """``{type: Score}`` of ``prediction`` against ``target`` (rouge-score's argument order)."""
        plan = self._live_plan()
        if plan is not None and plan.fast is not None:
            return plan.fast(target, prediction)
        return self._score(target, prediction)

    def score_multi(self, targets: Any, prediction: Any) -> Dict[Any, Score]:
        """Per type, the score of the target with the highest F-measure (the first on ties)."""
        plan = self._live_plan()
        if plan is not None and plan.fast_multi is not None:
            return plan.fast_multi(targets, prediction)
        return self._score_multi(targets, prediction)

    def _score(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        plan = self._plan()
        if plan is not None and plan.score is not None and type(target) is str and type(prediction) is str:
            return plan.finish(plan.score(target, prediction), target, prediction)
        return self._score_steps(target, prediction)

    def _score_multi(self, targets: Any, prediction: Any) -> Dict[Any, Score]:
        plan = self._plan()
        if (plan is not None and plan.score is not None and type(prediction) is str
                and (type(targets) is list or type(targets) is tuple) and targets
                and all(type(t) is str for t in targets)):
            # every F is 0 only when all are: rouge-score's argmax then picks the first target
            return plan.finish(plan.score_multi(targets, prediction), targets[0], prediction)
        score_dicts = [self.score(t, prediction) for t in targets]
        best: Dict[Any, Score] = {}
        for key in self.rouge_types:
            fs = [s[key].fmeasure for s in score_dicts]
            if not fs:
                raise ValueError("attempt to get argmax of an empty sequence")
            pick = 0
            for i in range(1, len(fs)):
                if fs[i] > fs[pick]:
                    pick = i
            best[key] = score_dicts[pick][key]
        return best

    # ----------------------------------------------------------------- rouge-score's steps, in Python
    def _score_steps(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        """rouge-score's ``score``, step by step (see the module), on rouge_metric's kernels."""
        types = self.rouge_types
        tokenize = self._tokenizer.tokenize
        if len(types) == 1 and types[0] == "rougeLsum":
            target_tokens = prediction_tokens = None
        else:
            target_tokens = tokenize(target)
            prediction_tokens = tokenize(prediction)
        result: Dict[Any, Score] = {}
        for rouge_type in types:
            if rouge_type == "rougeL":
                scores = self._lcs(target_tokens, prediction_tokens, target, prediction)
            elif rouge_type == "rougeLsum":
                target_sents = [tokenize(s) for s in self._sentences(target)]
                prediction_sents = [tokenize(s) for s in self._sentences(prediction)]
                scores = self._summary_lcs(target_sents, prediction_sents, target, prediction)
            elif _NGRAM.match(ensure_str(rouge_type)):
                n = int(rouge_type[5:])
                if n <= 0:
                    raise ValueError("rougen requires positive n: %s" % rouge_type)
                scores = self._ngrams(target_tokens, prediction_tokens, n, target, prediction)
            else:
                raise ValueError("Invalid rouge type: %s" % rouge_type)
            result[rouge_type] = scores
        return result

    def _sentences(self, text: Any) -> List[Any]:
        """rouge-score's rougeLsum sentences: ``nltk.sent_tokenize`` or the lines, empty ones dropped."""
        if self._split_summaries:
            import nltk

            try:
                sents = nltk.sent_tokenize(text)
            except LookupError as exc:
                raise LookupError(_PUNKT_HELP) from exc
        else:
            sents = ensure_str(text).split("\n")
        return [x for x in sents if len(x)]

    def _kernel(self, name: str) -> _core.Rouge:
        rouge = self._kernels.get(name)
        if rouge is None:
            rouge = self._kernels[name] = _core.Rouge([name])
        return rouge

    def _stats_score(self, name: str, prediction_view: Tuple[Any, Any], target_view: Tuple[Any, Any]) -> Score:
        rouge = self._kernel(name)
        return rouge.score_stats(rouge.pair_stats(prediction_view, target_view))[name]

    def _ngrams(self, target_tokens: Any, prediction_tokens: Any, n: int, target: Any, prediction: Any) -> Score:
        # rouge-score reads no token of a text shorter than n (it has no n-gram): neither do the kernels
        tt = _tokens(target_tokens, target) if _size(target_tokens, target) >= n else []
        pt = _tokens(prediction_tokens, prediction) if _size(prediction_tokens, prediction) >= n else []
        return self._stats_score(f"rouge{n}", (pt, None), (tt, None))

    def _lcs(self, target_tokens: Any, prediction_tokens: Any, target: Any, prediction: Any) -> Score:
        if not target_tokens or not prediction_tokens:
            return _ZERO
        tt = _tokens(target_tokens, target)
        pt = _tokens(prediction_tokens, prediction)
        return self._stats_score("rougeL", (pt, None), (tt, None))

    def _summary_lcs(self, target_sents: List[Any], prediction_sents: List[Any], target: Any,
                     prediction: Any) -> Score:
        if not target_sents or not prediction_sents:
            return _ZERO
        m = sum(_size(s, target) for s in target_sents)
        n = sum(_size(s, prediction) for s in prediction_sents)
        if not n or not m:
            return _ZERO
        ts = [_tokens(s, target) for s in target_sents]
        ps = [_tokens(s, prediction) for s in prediction_sents]
        return self._stats_score("rougeLsum", (None, ps), (None, ts))


def _native_entry_points() -> None:
    """With the native core built, ``RougeScorer.score`` and ``score_multi`` are ``_native.PairMethod``s
    over the methods above: a call ``scorer.score(target, prediction)`` on an instance of the class
    itself runs its plan's native entry point (:meth:`_Plan.native_plan`) with no Python code while the
    settings are the plan's, checked in C (each setting is the same object, the list's items equal); any
    other call, setting or subclass instance runs the Python method, which re-plans."""
    native = _backends.native_module()
    if native is None or not hasattr(native, "PairPlan"):  # pragma: no cover - no native core
        return
    for index, name in enumerate(("score", "score_multi")):
        setattr(RougeScorer, name, native.PairMethod(RougeScorer.__dict__[name], RougeScorer, _NATIVE_PLAN, index))


_native_entry_points()
