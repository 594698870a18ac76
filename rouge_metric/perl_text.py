"""ROUGE-1.5.5.pl's text pipeline: what the Perl script does to raw text before it counts.

:class:`PerlPipeline` is a text pipeline for :class:`~rouge_metric.Rouge` (``Rouge(..., pipeline=...)``):
``process(text)`` gives the ``(tokens, units)`` views the kernels count, from the script's
``readText`` (the whole text: N, S, SU and the L/W clipping tables) and ``readText_LCS`` (the
sentence units: L and W). It applies the ``-l``/``-b`` length limits, the ``-s`` stopwords and the
``-m`` stemming (:class:`MorphStemmer`: a WordNet exception list, then the script's Porter variant),
on :func:`~rouge_metric.text.perl_tokens` (ASCII-only lowercasing, every byte of a non-ASCII
character a separator, hyphens split off). Its :meth:`PerlPipeline.pair_stats` is the core's, except
where the script's own arithmetic differs (ROUGE-W of an empty reference, and the ``-b`` units that
``readText_LCS`` keeps beyond ``readText``).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from . import core, core_py
from .config import TypeSpec
from .measures import Stats, View, pair_stats
from .multilingual import read_setting_file, short_digest
from .perl_porter import stem as perl_stem
from .text import perl_tokens

# Perl's \s on a byte string (no unicode_strings): ASCII whitespace only, \x85 and \xa0 are not spaces.
_PERL_SPACE_RE = re.compile("[ \t\n\x0b\x0c\r]+")


def _perl_split_words(s: str) -> List[str]:
    """Perl's ``split(/\\s+/, $s)``: a leading empty field is kept, trailing empty fields are removed."""
    parts = _PERL_SPACE_RE.split(s)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _as_bytes_str(s: str) -> str:
    """The UTF-8 bytes of ``s`` as a str of code points 0-255 (the script reads bytes)."""
    return s.encode("utf-8").decode("latin-1")


def perl_units(text: str, length_limit: int = 0, byte_limit: int = 0) -> Tuple[Optional[str], List[str]]:
    """The script's ``readText`` text and ``readText_LCS`` units of one SPL text (before tokenizing).

    Sentences are the lines of ``text`` (exactly-empty lines dropped). ``-l n`` (``length_limit``):
    whole sentences while the running word count (``split(/\\s+/)`` of the raw line) stays below n, then
    the first words of the next one. ``-b n`` (``byte_limit``): the same in bytes, the last sentence cut
    mid-word; ``readText_LCS`` never advances its byte count (the script's bug), so its units are every
    sentence shorter than n bytes plus the first one that is not, cut to n bytes.
    Returns (readText text or None when empty, readText_LCS units).
    """
    sents = [s for s in text.split("\n") if s]
    if not length_limit and not byte_limit:
        return " ".join(sents), sents
    tmp = ""
    used = 0
    units: List[str] = []
    if length_limit:
        n = length_limit
        for s in sents:
            words = _perl_split_words(s)
            k = len(words)
            if used + k < n:
                tmp += (" " + s) if used != 0 else s
                units.append(s)
                used += k
            else:
                if used > 0:
                    tmp += " "
                take = n - used
                head = " ".join((words + [""] * take)[:take])
                tmp += head
                units.append(head)
                break
        return (tmp or None), units
    n = byte_limit
    sents = [_as_bytes_str(s) for s in sents]
    for s in sents:  # readText
        k = len(s)
        if used + k < n:
            tmp += (" " + s) if used != 0 else s
            used += k
        else:
            if used > 0:
                tmp += " "
            tmp += s[: n - used]
            break
    for s in sents:  # readText_LCS: the byte count is never incremented
        if len(s) < n:
            units.append(s)
        else:
            units.append(s[:n])
            break
    return (tmp or None), units


# ---------------------------------------------------------------------------------- stemming
def load_exceptions(spec: Any, arg: str = "exceptions") -> Dict[str, str]:
    """A WordNet exception list (inflected form -> lemma) for ``-m``.

    ``spec`` is a mapping, or the path of a UTF-8 file with one ``inflected<TAB>lemma`` pair per line
    (the contents of the script's ``WordNet-2.0.exc.db``; rouge_metric does not ship it).
    """
    if isinstance(spec, Mapping):
        out = {}
        for k, v in spec.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError(f"{arg}: expected a mapping of str to str, got {k!r}: {v!r}")
            out[k] = v
        return out
    if not isinstance(spec, (str, os.PathLike)):
        raise TypeError(f"{arg}: expected a file path or a mapping of str to str, got {type(spec).__name__}")
    path = os.fspath(spec)
    lines = read_setting_file(path, arg, "exception list",
                              "give a file of 'inflected<TAB>lemma' lines (the contents of ROUGE-1.5.5's "
                              "WordNet-2.0.exc.db) or a mapping")
    out = {}
    for i, line in enumerate(lines):
        if not line:
            continue
        key, sep, val = line.partition("\t")
        if not sep:
            raise ValueError(f"{arg}: line {i + 1} of {path!r} is not 'inflected<TAB>lemma': {line!r}")
        out[key] = val
    return out


def exceptions_digest(pairs: Dict[str, str]) -> str:
    """A short digest of an exception list (in signatures)."""
    return short_digest([f"{k}\t{v}" for k, v in sorted(pairs.items())])


class MorphStemmer:
    """The script's ``MorphStem`` for tokens longer than 3 characters: the exception-list lemma when
    the token is a key (used as is), else :func:`rouge_metric.perl_porter.stem`. Cached per word.

    ``native=True``: the stem of a ``[a-z0-9]`` word comes from the C++ twin of ``perl_porter.stem``
    (``_native.perl_porter_stem``, the same stems, about ten times faster); other words from Python."""

    def __init__(self, exceptions: Mapping[str, str], native: bool = False) -> None:
        self.exceptions = dict(exceptions)
        self.cache: Dict[str, str] = {}
        self._native = core.kernels("native").perl_porter_stem if native else None

    def stem_all(self, tokens: Iterable[str]) -> List[str]:
        cache = self.cache
        out = []
        for t in tokens:
            if len(t) <= 3:
                out.append(t)
                continue
            s = cache.get(t)
            if s is None:
                s = self.exceptions.get(t)
                if s is None and self._native is not None:
                    s = self._native(t)
                if s is None:
                    s = perl_stem(t)
                cache[t] = s
            out.append(s)
        return out


class PerlPipeline:
    """The script's text pipeline for one configuration (a text pipeline of :class:`~rouge_metric.Rouge`).

    Args:
        specs: the types scored (``TypeSpec``); units are made only when one of them needs sentences.
        stopwords: the ``-s`` words (tokens equal to one are removed before counting), or None.
        stemmer: the ``-m`` :class:`MorphStemmer`, or None.
        length_limit / byte_limit: ``-l n`` / ``-b n`` (0: none).
    """

    def __init__(self, specs: Sequence[TypeSpec], stopwords: Optional[frozenset] = None,
                 stemmer: Optional["MorphStemmer"] = None, length_limit: int = 0, byte_limit: int = 0) -> None:
        self.specs = tuple(specs)
        self.stopwords = stopwords
        self.stemmer = stemmer
        self.length_limit = length_limit
        self.byte_limit = byte_limit
        self.needs_sentences = any(s.uses_sentences for s in self.specs)
        self.has_wlcs = any(s.kind == "wlcs" for s in self.specs)

    def _tokens(self, text: Optional[str]) -> List[str]:
        if not text:
            return []
        toks = perl_tokens(text)
        if self.stopwords is not None:
            stop = self.stopwords
            toks = [t for t in toks if t not in stop]
        if self.stemmer is not None:
            toks = self.stemmer.stem_all(toks)
        return toks

    def process(self, text: str) -> Tuple[List[str], Optional[List[List[str]]]]:
        """``(tokens, units)``: the whole-text tokens (readText: N, S, SU and the L/W clipping tables)
        and the per-unit tokens (readText_LCS: L and W)."""
        whole, units = perl_units(text, self.length_limit, self.byte_limit)
        if not self.needs_sentences:
            return self._tokens(whole), None
        unit_tokens = [self._tokens(u) for u in units]
        if self.byte_limit:  # readText and readText_LCS may disagree (the script's -b bug)
            return self._tokens(whole), unit_tokens
        # otherwise the readText text is the units joined by spaces: its tokens are theirs, in order
        return [t for u in unit_tokens for t in u], unit_tokens

    def pair_stats(self, specs: Sequence[TypeSpec], kernels: Any, pv: View, rv: View, index: int = 0,
                   ref_index: int = 0) -> List[Stats]:
        """The core's statistics of one pair, with the script's own ROUGE-L/W where its units and
        clipping tables disagree; ValueError naming ``references[index][ref_index]`` for ROUGE-W of a
        reference without tokens (the script dies with 'Illegal division by zero')."""
        if self.has_wlcs and not any(rv[1] or ()):
            raise ValueError(
                f"references[{index}][{ref_index}]: ROUGE-W is undefined for a reference without tokens "
                "(ROUGE-1.5.5 dies with 'Illegal division by zero'); drop rougeW or the empty reference"
            )
        stats = pair_stats(specs, kernels, pv, rv)
        if self.needs_sentences and (not _consistent(pv) or not _consistent(rv)):
            for k, spec in enumerate(specs):
                if spec.uses_sentences:
                    stats[k] = perl_lcs_stats(spec, pv, rv)
        return stats



def _consistent(view: Tuple[List[str], Optional[List[List[str]]]]) -> bool:
    tokens, units = view
    if units is None:
        return True
    return [t for u in units for t in u] == tokens


def perl_lcs_stats(spec: TypeSpec, pv, rv) -> Tuple[float, float, float, float]:
    """ROUGE-L/W when the script's units and clipping tables disagree (only with ``-b``: readText_LCS
    keeps sentences that readText cut): the kernels' hit walks over the units, with the clipping
    tables and the precision denominator from the readText tokens. O(sum |r| * |c|)."""
    p_tokens, p_units = pv
    r_tokens, r_units = rv
    m1, p1 = Counter(r_tokens), Counter(p_tokens)
    n = len(p_tokens)
    if spec.kind == "lcsum":
        base = sum(map(len, r_units))
        hit = core_py.union_lcs_hits(r_units, p_units, m1, p1)
        return hit, n, base, (hit / base if base else 0.0)
    w = spec.weight
    base = 0.0
    for r in r_units:
        base += core_py.wpow(float(len(r)), w)
    hit = core_py.wlcs_hits(r_units, p_units, w, m1, p1)
    return hit, core_py.wpow(float(n), w), core_py.wpow(base, w), \
        core_py.wpow(hit / base, 1.0 / w) if base > 0 else 0.0
