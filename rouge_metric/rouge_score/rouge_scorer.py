"""``rouge_score.rouge_scorer`` of rouge-score 0.1.2: :class:`RougeScorer` on rouge_metric's scorer.

Same arguments, same argument order (``score(target, prediction)``, ``score_multi(targets,
prediction)``), same result types and values, same errors at the same moment (rouge types are checked
at the first ``score``, as rouge-score does). The arithmetic is :class:`rouge_metric.RougeScorer`'s
(native when built, bit-for-bit rouge-score's floats); this module only maps rouge-score's conventions
onto it:

- type names are read as rouge-score reads them (``rougeL``, ``rougeLsum``, ``re.match(r"rouge[0-9]$")``;
  ``rouge0`` and anything else raise its ValueError); duplicates give one key;
- ``rougeL``/``rougeLsum`` of a text without tokens are ``Score(0, 0, 0)`` with int zeros, as in
  rouge-score (its n-gram scores are float zeros);
- ``bytes`` texts are decoded as UTF-8, lowered as ``bytes.lower()`` for the whole-text types and as
  ``str.lower()`` per line for ``rougeLsum`` (rouge-score's two paths);
- ``rouge_types`` is read again at every call (a list changed in place is honoured).

>>> scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
>>> scores = scorer.score("The quick brown fox jumps over the lazy dog",
...                       "The quick brown dog jumps on the log.")
>>> scores["rouge1"]
Score(precision=0.75, recall=0.6666666666666666, fmeasure=0.7058823529411765)
>>> scorer.score("", "no tokens in the target")["rougeL"]
Score(precision=0, recall=0, fmeasure=0)
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .. import scoring as _core
from . import scoring, tokenizers
from .scoring import Score
from .tokenize import ensure_str

__all__ = ["RougeScorer"]

_NGRAM = re.compile(r"rouge[0-9]$")
_SENTENCE_TYPES = frozenset({"rougeLsum"})
_ZERO = Score(precision=0, recall=0, fmeasure=0)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _internal_type(rouge_type: Any) -> str:
    """rouge-score's reading of one type name -> the rouge_metric type it computes."""
    if rouge_type == "rougeL":
        return "rougeL"
    if rouge_type == "rougeLsum":
        return "rougeLsum"
    if _NGRAM.match(ensure_str(rouge_type)):
        n = int(rouge_type[5:])
        if n <= 0:
            raise ValueError("rougen requires positive n: %s" % rouge_type)
        return f"rouge{n}"
    raise ValueError("Invalid rouge type: %s" % rouge_type)


class _Plan:
    """The rouge_metric scorer of one state of (rouge_types, tokenizer, split_summaries)."""

    def __init__(self, keys: List[Tuple[Any, str]], only_lsum: bool, scorer: Optional[_core.RougeScorer],
                 custom: bool) -> None:
        self.keys = keys
        self.only_lsum = only_lsum
        self.scorer = scorer
        self.custom = custom
        self.lcs_types = [t for t in dict.fromkeys(i for _, i in keys) if t in ("rougeL", "rougeLsum")]

    def output(self, scores: Dict[str, Score]) -> Dict[Any, Score]:
        return {key: scores[internal] for key, internal in self.keys}

    def empty(self, text: str, internal: str) -> bool:
        """True when ``text`` has no token for ``internal`` (rougeL: whole text; rougeLsum: its lines)."""
        tokens, sents = self.scorer._rouge.process(text)
        if internal in _SENTENCE_TYPES:
            return not any(sents)
        return not tokens

    def int_zeros(self, scores: Dict[str, Score], target: str, prediction: str) -> Dict[str, Score]:
        """rouge-score's ``Score(0, 0, 0)`` (ints) for rougeL/rougeLsum of a text without tokens."""
        for t in self.lcs_types:
            if not any(scores[t]) and (self.empty(target, t) or self.empty(prediction, t)):
                scores[t] = _ZERO
        return scores


class RougeScorer(scoring.BaseScorer):
    """rouge-score 0.1.2's ``RougeScorer``: the same scores, faster (see the module).

    Args:
        rouge_types: names among ``rouge1`` ... ``rouge9``, ``rougeL``, ``rougeLsum`` (checked at the
            first score, as in rouge-score).
        use_stemmer: Porter stemming (nltk's) in the default tokenizer.
        split_summaries: split rougeLsum sentences with ``nltk.sent_tokenize`` (needs nltk's punkt data)
            instead of newlines.
        tokenizer: an object with ``.tokenize(text) -> list of str``; replaces the default tokenizer
            (``use_stemmer`` is then ignored, as in rouge-score).
    """

    def __init__(self, rouge_types: Any, use_stemmer: bool = False, split_summaries: bool = False,
                 tokenizer: Any = None) -> None:
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer if tokenizer else tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        self._plan_key: Any = None
        self._plan_cache: Optional[_Plan] = None

    def __getstate__(self) -> Dict[str, Any]:
        return {"rouge_types": self.rouge_types, "_tokenizer": self._tokenizer,
                "_split_summaries": self._split_summaries}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.rouge_types = state["rouge_types"]
        self._tokenizer = state["_tokenizer"]
        self._split_summaries = state["_split_summaries"]
        self._plan_key = None
        self._plan_cache = None

    # ------------------------------------------------------------------------------------- planning
    def _plan(self) -> _Plan:
        types = self.rouge_types
        len(types)  # rouge-score's first use of rouge_types: a TypeError for None, an int, ...
        key = (tuple(types), id(self._tokenizer), bool(self._split_summaries))
        plan = self._plan_cache
        if plan is not None and key == self._plan_key:
            return plan
        keys = [(t, _internal_type(t)) for t in key[0]]
        internal = list(dict.fromkeys(i for _, i in keys))
        tok = self._tokenizer
        custom = type(tok) is not tokenizers.DefaultTokenizer
        scorer = None
        if internal:
            if custom:
                if not callable(getattr(tok, "tokenize", None)):
                    tok.tokenize  # rouge-score's AttributeError
                    raise TypeError(f"tokenizer: {type(tok).__name__}.tokenize is not callable")
                scorer = _core.RougeScorer(internal, split_summaries=bool(self._split_summaries), tokenizer=tok)
            else:
                scorer = _core.RougeScorer(internal, use_stemmer=tok._use_stemmer,
                                           split_summaries=bool(self._split_summaries))
        only_lsum = len(key[0]) == 1 and key[0][0] == "rougeLsum"
        plan = _Plan(keys, only_lsum, scorer, custom)
        self._plan_key, self._plan_cache = key, plan
        return plan

    # -------------------------------------------------------------------------------------- scoring
    def score(self, target: Any, prediction: Any) -> Dict[Any, Score]:
        """``{type: Score}`` of ``prediction`` against ``target`` (rouge-score's argument order)."""
        plan = self._plan()
        if isinstance(target, str) and isinstance(prediction, str):
            if plan.scorer is None:
                return {}
            return plan.output(plan.int_zeros(plan.scorer.score(target, prediction), target, prediction))
        return self._score_other(plan, target, prediction)

    def score_multi(self, targets: Any, prediction: Any) -> Dict[Any, Score]:
        """Per type, the score of the target with the highest F-measure (the first on ties)."""
        plan = self._plan()
        if (type(targets) in (list, tuple) and targets and plan.scorer is not None
                and isinstance(prediction, str) and all(type(t) is str for t in targets)):
            scores = plan.scorer.score_multi(list(targets), prediction)
            # every F is 0 only when all are: rouge-score's argmax then picks the first target
            return plan.output(plan.int_zeros(scores, targets[0], prediction))
        per_target = [self.score(t, prediction) for t in targets]
        best: Dict[Any, Score] = {}
        for key, _ in plan.keys:
            if not per_target:
                raise ValueError("attempt to get argmax of an empty sequence")
            pick = per_target[0][key]
            for s in per_target[1:]:
                if s[key].fmeasure > pick.fmeasure:
                    pick = s[key]
            best[key] = pick
        return best

    def _score_other(self, plan: _Plan, target: Any, prediction: Any) -> Dict[Any, Score]:
        """Texts that are not both str: bytes (rouge-score decodes them), or rouge-score's error."""
        texts = (target, prediction)
        if plan.custom or not all(isinstance(x, (str, bytes)) for x in texts):
            if not plan.only_lsum:  # the calls rouge-score makes first, for its errors
                for x in texts:
                    self._tokenizer.tokenize(x)
            for x in texts:
                ensure_str(x)
            arg, bad = ("target", target) if not isinstance(target, str) else ("prediction", prediction)
            raise TypeError(f"{arg}: expected str (or bytes with the default tokenizer), got {type(bad).__name__}; "
                            "the rouge_score drop-in passes only str to a custom tokenizer: decode the text first")
        # (whole-text view, sentence view) of each text: bytes.lower() keeps non-ASCII letters out of the
        # whole-text tokens; the lines are decoded str and lowered as str.
        views = []
        for x in texts:
            if isinstance(x, bytes):
                s = x.decode("utf-8", "strict")
                views.append((_NON_ASCII.sub(" ", s), s))
            else:
                views.append((x, x))
        if plan.scorer is None:
            return {}
        (tt, ts), (pt, ps) = views
        whole = plan.int_zeros(plan.scorer.score(tt, pt), tt, pt)
        if (tt, pt) != (ts, ps) and any(i in _SENTENCE_TYPES for _, i in plan.keys):
            lines = plan.int_zeros(plan.scorer.score(ts, ps), ts, ps)
            for t in _SENTENCE_TYPES & lines.keys():
                whole[t] = lines[t]
        return plan.output(whole)
