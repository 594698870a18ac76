"""``rouge_score.tokenize`` of rouge-score 0.1.2: :func:`tokenize` and its patterns.

The tokens are those of :func:`rouge_metric.text.default_tokenize` (the scorer's tokenizer):
``text.lower()``, then the runs of ``[a-z0-9]``; with a stemmer, tokens longer than 3 characters are
stemmed and a stem that is not ``[a-z0-9]+`` is dropped. ``bytes`` are lowered (ASCII only, as
``bytes.lower``) and then decoded as UTF-8, as rouge-score does.

>>> tokenize("The İstanbul café, 3.14!", None)
['the', 'i', 'stanbul', 'caf', '3', '14']
>>> from nltk.stem import porter
>>> tokenize("Running dogs ran", porter.PorterStemmer())
['run', 'dog', 'ran']
"""

from __future__ import annotations

import re
from typing import Any, List

__all__ = ["NON_ALPHANUM_PATTERN", "NON_ALPHANUM_RE", "SPACES_PATTERN", "SPACES_RE", "VALID_TOKEN_PATTERN",
           "VALID_TOKEN_RE", "tokenize"]

NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)
# NON_ALPHANUM_RE.sub(" "), SPACES_RE.split and the VALID_TOKEN_RE filter keep exactly these runs
_TOKEN_RE = re.compile(r"[a-z0-9]+")


def ensure_str(value: Any) -> str:
    """``six.ensure_str``: str as is, bytes decoded as strict UTF-8, anything else a TypeError."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "strict")
    raise TypeError("not expecting type '%s'" % type(value))


def lowered_tokens(text: Any) -> List[str]:
    """The unstemmed tokens: ``text.lower()`` (str or bytes), then the ``[a-z0-9]`` runs."""
    return _TOKEN_RE.findall(ensure_str(text.lower()))


def tokenize(text: Any, stemmer: Any) -> List[str]:
    """rouge-score's tokens of ``text``; ``stemmer`` is None or an object with ``.stem(word)``
    (nltk's ``PorterStemmer``)."""
    tokens = lowered_tokens(text)
    if not stemmer:
        return tokens
    stemmed = (ensure_str(stemmer.stem(t)) if len(t) > 3 else t for t in tokens)
    return [t for t in stemmed if VALID_TOKEN_RE.match(t)]
