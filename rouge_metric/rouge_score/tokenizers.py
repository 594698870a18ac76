"""``rouge_score.tokenizers`` of rouge-score 0.1.2: :class:`Tokenizer` and :class:`DefaultTokenizer`.

A :class:`DefaultTokenizer` given to :class:`~rouge_metric.rouge_score.rouge_scorer.RougeScorer` is
recognised and scored natively (it is the scorer's own tokenizer); any other object with
``.tokenize(text)`` (returning a list of hashable tokens) is called as rouge-score calls it.

>>> DefaultTokenizer(use_stemmer=True).tokenize("The cats were running")
['the', 'cat', 'were', 'run']
"""

from __future__ import annotations

import abc
from typing import Any, Dict, List

from ..text import get_stemmer
from .tokenize import lowered_tokens

__all__ = ["DefaultTokenizer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """Abstract base class of tokenizers: subclasses implement ``tokenize(text)``."""

    @abc.abstractmethod
    def tokenize(self, text: Any) -> List[str]:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's tokenizer: lowercase ``[a-z0-9]`` runs, optionally Porter-stemmed (nltk's
    ``PorterStemmer``, loaded at the first stemmed word)."""

    def __init__(self, use_stemmer: Any = False) -> None:
        self._use_stemmer = bool(use_stemmer)

    @property
    def use_stemmer(self) -> bool:
        """True when the tokens are Porter-stemmed."""
        return self._use_stemmer

    def tokenize(self, text: Any) -> List[str]:
        tokens = lowered_tokens(text)
        return get_stemmer("porter").stem_all(tokens) if self._use_stemmer else tokens

    def __getstate__(self) -> Dict[str, Any]:
        return {"_use_stemmer": self._use_stemmer}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        # A pickled rouge_score.tokenizers.DefaultTokenizer holds its nltk stemmer (or None) instead.
        self._use_stemmer = bool(state["_use_stemmer"]) if "_use_stemmer" in state \
            else state.get("_stemmer") is not None

    def __repr__(self) -> str:
        return f"DefaultTokenizer(use_stemmer={self._use_stemmer})"
