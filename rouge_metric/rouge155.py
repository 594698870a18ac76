"""ROUGE-1.5.5.pl on raw text: the preset that reproduces the Perl script's printed numbers.

:class:`Rouge155` adds to the core only what the script does differently: its text pipeline
(:func:`perl_tokens`: ASCII-only lowercasing, every byte of a non-ASCII character a separator,
hyphens split off; ``-l``/``-b`` length limits, ``-s`` stopwords, ``-m`` stemming with the script's
Porter variant plus a WordNet exception list), its 5-decimal rounding (F from the rounded P and R) and
its averaging (the mean of 1000 bootstrap resamples drawn with Perl's ``srand(i)``/``drand48``
sequence, and the percentile interval). Counting is done by the core kernels
(:func:`rouge_metric.scoring.pair_stats`) and the multi-reference modes of the core
(``-f A`` = ``multi_ref="pool"``, ``-f B`` = ``"best_recall"``).

Type names map to the script's measures: ``rougeN`` = ROUGE-N (``-n``), ``rougeLsum`` = ROUGE-L over
the sentence units, ``rougeW`` = ROUGE-W-1.2 (``-w``), ``rougeS4``/``rougeSU4`` = ROUGE-S4/SU4
(``-2 4 -U``), ``rougeS``/``rougeSU`` = ROUGE-S*/SU* (``-2 -1 -U``). Texts are strings with one
sentence (one line of the Perl SPL input) per line; exactly-empty lines are dropped, as the script does.

>>> scorer = Rouge155(["rouge1", "rouge2", "rougeLsum"])
>>> scorer.score(prediction="The cat sat on the mat.\\nIt was happy.",
...              references=["The cat was on the mat.\\nIt was very happy."])["rouge1"]
Score(precision=0.88889, recall=0.8, fmeasure=0.84211)
>>> result = scorer.compute(predictions=["the cat sat", "a dog ran"],
...                         references=[["the cat sat down"], ["the dog ran", "a dog walked"]])
>>> result.scores["rouge1"]  # Perl's printed Average_P/R/F (mean of the bootstrap resamples)
Score(precision=0.83333, recall=0.70833, fmeasure=0.7619)
>>> result.ci["rouge1"].high.recall  # and its 95%-conf.int.
0.75
"""

from __future__ import annotations

import os
import re
from collections import Counter
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import core, core_py
from ._version import __version__
from .config import RougeConfig, TypeSpec, parse_rouge_type
from .multilingual import load_stopwords, read_setting_file, short_digest, stopwords_digest
from .perl_porter import stem as perl_stem
from .result import AggregateScore, CorpusResult, Score
from .inputs import normalize_references, validate_batch
from .measures import TypeScorer, make_fmeasure, pair_stats
from .text import perl_tokens

# ------------------------------------------------------------------------------ text pipeline
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


def _digest_pairs(pairs: Dict[str, str]) -> str:
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


# ------------------------------------------------------------------------------------ helpers
def round5(x: float) -> float:
    """The script's ``sprintf("%7.5f", x)`` read back as a number."""
    return float("%.5f" % x)


def perl_label(spec: TypeSpec) -> str:
    """The script's name of a measure: ``ROUGE-1``, ``ROUGE-L``, ``ROUGE-W-1.2``, ``ROUGE-SU4``, ``ROUGE-S*``."""
    if spec.kind == "ngram":
        return f"ROUGE-{spec.n}"
    if spec.kind == "lcsum":
        return "ROUGE-L"
    if spec.kind == "wlcs":
        return f"ROUGE-W-{spec.weight:g}"
    d = "*" if spec.skip < 0 else str(spec.skip)
    return f"ROUGE-{'SU' if spec.unigrams else 'S'}{d}"


def _rand_index_steps(n_seeds: int, n: int):
    """For seeds i = 0..n_seeds-1 at once: Perl's ``srand(i)`` then n times ``int(rand(n))``; yields one
    array (the draw of every seed) per step. Perl >= 5.20 uses its own drand48: x0 = (seed << 16) + 0x330E,
    x = (0x5DEECE66D * x + 0xB) mod 2^48, rand(n) = n * (x / 2^48). O(n_seeds * n)."""
    import numpy as np

    x = (np.arange(n_seeds, dtype=np.uint64) & np.uint64(0xFFFFFFFF)) << np.uint64(16)
    x += np.uint64(0x330E)
    a, c, mask = np.uint64(0x5DEECE66D), np.uint64(0xB), np.uint64(0xFFFFFFFFFFFF)
    fn = float(n)
    for _ in range(n):
        x = (x * a + c) & mask  # wraps mod 2^64, and 2^48 divides 2^64
        yield (fn * (x.astype(np.float64) * 3.552713678800501e-15)).astype(np.int64)  # 2^-48


def perl_bootstrap(values: Sequence[Tuple[float, float, float]], n_resamples: int = 1000,
                   confidence: float = 95.0) -> Tuple[Tuple[float, float, float], Tuple[float, float, float],
                                                      Tuple[float, float, float]]:
    """The script's ``computeAverages`` for one measure: for resample i = 0..n_resamples-1, ``srand(i)``
    and the mean of N values drawn with ``int(rand(N))`` (summed in draw order); the printed average is
    the mean of the ascending-sorted resample means and the interval interpolates between sorted
    resample means at ``int(delta)`` and ``int(R - delta - 1)``, delta = R * (100 - cf) / 2 / 100.
    Everything rounded with ``%7.5f``.

    ``values`` are the rounded per-case (R, P, F) triples in the script's instance order (keys sorted
    as strings, see :meth:`Rouge155.compute`). Returns ((avgR, avgP, avgF), (lowR, lowP, lowF),
    (highR, highP, highF)). O(n_resamples * N).

    >>> perl_bootstrap([(1.0, 0.5, 0.66667), (0.0, 0.0, 0.0)], n_resamples=10)
    ((0.55, 0.275, 0.36667), (0.0, 0.0, 0.0), (1.0, 0.5, 0.66667))
    """
    avg, low, high = perl_bootstrap_columns([list(v) for v in values], n_resamples, confidence, width=3)
    return tuple(avg), tuple(low), tuple(high)  # type: ignore[return-value]


def perl_bootstrap_columns(rows: Sequence[Sequence[float]], n_resamples: int, confidence: float,
                           width: int) -> Tuple[List[float], List[float], List[float]]:
    """:func:`perl_bootstrap` for several measures at once (every column of ``rows`` is one value of one
    measure; all columns see the same draws, as in the script where every measure reseeds with
    ``srand(i)``). Vectorized over the resamples with numpy, in the script's floating-point order.
    O(n_resamples * N * width) time, O(n_resamples * width) memory beyond the input."""
    import numpy as np

    n = len(rows)
    if n == 0:
        z = [0.0] * width
        return z, list(z), list(z)
    V = np.asarray(rows, dtype=np.float64).reshape(n, width)
    R = n_resamples
    fn = float(n)
    S = None
    for idx in _rand_index_steps(R, n):
        if S is None:
            S = V[idx].copy()
        else:
            S += V[idx]  # summed in draw order, as the script
    means = S / fn
    delta = R * ((100 - confidence) / 2.0) / 100.0
    ci_ua = int(R - delta - 1)
    ci_la = int(delta)
    ci_r = R - delta - 1 - ci_ua
    avg, low, high = [], [], []
    for k in range(width):
        srt = np.sort(means[:, k]).tolist()
        acc = 0.0
        for v in srt:  # sequential, as the script (not pairwise, not compensated)
            acc += v
        avg.append(round5(acc / R))

        def at(i: int) -> float:
            return srt[i] if 0 <= i < R else 0.0  # the script reads an undef element as 0

        low.append(round5(at(ci_la) + (at(ci_la + 1) - at(ci_la)) * ci_r))
        high.append(round5(at(ci_ua) + (at(ci_ua + 1) - at(ci_ua)) * ci_r))
    return avg, low, high


# ------------------------------------------------------------------------------- the scorer
FORMULAS = {"A": "pool", "B": "best_recall"}


class Rouge155:
    """ROUGE-1.5.5.pl on raw text, to the printed 5 decimals.

    Args:
        rouge_types: ``rouge1``...``rougeN``, ``rougeLsum`` (ROUGE-L), ``rougeW`` (ROUGE-W), ``rougeS<d>``,
            ``rougeSU<d>``, ``rougeS``, ``rougeSU`` (``rougeL`` has no ROUGE-1.5.5 counterpart: use rougeLsum).
        multi_ref: ``"pool"`` (``-f A``, the script's default) or ``"best_recall"`` (``-f B``); ``"A"`` and
            ``"B"`` are accepted too.
        alpha: ``-p alpha`` (F = PR / ((1 - alpha) P + alpha R)); default 0.5.
        use_stemmer: ``-m``: stem tokens longer than 3 characters with the script's Porter variant after
            a lookup in ``exceptions``.
        exceptions: the WordNet exception list used by ``-m`` (path of an ``inflected<TAB>lemma`` file or a
            mapping). Required with ``use_stemmer=True`` (pass ``{}`` to stem without exceptions, which
            then differs from the script on irregular forms such as went -> go).
        stopwords: ``-s``: path of a stopword file (one word per line, as ``smart_common_words.txt``) or an
            iterable of words; tokens equal to an entry are removed before counting.
        length_limit / byte_limit: ``-l n`` / ``-b n`` (applied to the prediction AND the references, as
            the script does; with ``-b`` the script's readText_LCS bug is reproduced).
        wlcs_weight: ``-w`` (default 1.2).
        n_resamples: ``-r`` (default 1000); confidence: ``-c`` in percent (default 95).
        backend: kernel backend (``python``/``native``/``auto``).
    """

    def __init__(self, rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeLsum"), *,
                 multi_ref: str = "pool", alpha: float = 0.5, use_stemmer: bool = False,
                 exceptions: Any = None, stopwords: Any = None, length_limit: Optional[int] = None,
                 byte_limit: Optional[int] = None, wlcs_weight: float = 1.2, n_resamples: int = 1000,
                 confidence: float = 95.0, backend: Optional[str] = None) -> None:
        multi_ref = FORMULAS.get(multi_ref, multi_ref)
        if multi_ref not in ("pool", "best_recall"):
            raise ValueError(
                f"multi_ref: invalid value {multi_ref!r}; allowed: 'pool' (-f A), 'best_recall' (-f B), 'A', 'B'"
            )
        if isinstance(rouge_types, str):
            rouge_types = (rouge_types,)
        for t in rouge_types:
            spec = parse_rouge_type(t, wlcs_weight if isinstance(wlcs_weight, (int, float)) else 1.2)
            if spec.kind == "lcs":
                raise ValueError(
                    "rouge_types: 'rougeL' has no ROUGE-1.5.5 counterpart; the script's ROUGE-L is summary "
                    "level over the sentence units: use 'rougeLsum'"
                )
        if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
            raise ValueError(f"n_resamples: expected an integer >= 1, got {n_resamples!r}")
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 100:
            raise ValueError(f"confidence: expected a number in [0, 100] (percent, as -c), got {confidence!r}")
        for arg, val in (("length_limit", length_limit), ("byte_limit", byte_limit)):
            if val is not None and (isinstance(val, bool) or not isinstance(val, int) or val < 1):
                raise ValueError(f"{arg}: expected an integer >= 1 or None, got {val!r}")
        if length_limit and byte_limit:
            raise ValueError("length_limit and byte_limit: give one or the other (ROUGE-1.5.5 rejects -l with -b)")
        if not isinstance(use_stemmer, bool):
            raise TypeError(f"use_stemmer: expected bool (-m), got {type(use_stemmer).__name__}")
        if use_stemmer and exceptions is None:
            raise ValueError(
                "exceptions: ROUGE-1.5.5's -m looks every token up in the WordNet-2.0 exception list before "
                "Porter stemming; pass exceptions=<path of an 'inflected<TAB>lemma' file> (or exceptions={} to "
                "stem without it, which differs from the script on irregular forms)"
            )
        # The shared settings are validated by the core's one settings object.
        self.config = RougeConfig(rouge_types=tuple(rouge_types), tokenizer="perl", multi_ref=multi_ref,
                                  alpha=alpha, wlcs_weight=wlcs_weight, aggregation="bootstrap",
                                  n_resamples=n_resamples, confidence_level=0.95)
        self.confidence = float(confidence)
        self.n_resamples = n_resamples
        self.length_limit = length_limit or 0
        self.byte_limit = byte_limit or 0
        self.stopwords: Optional[frozenset] = None
        self._stop_names: Tuple[str, ...] = ()
        if stopwords is not None:
            if isinstance(stopwords, (str, os.PathLike)):
                # the script's reading: each line chomped, kept as is
                path = os.fspath(stopwords)
                try:
                    with open(path, encoding="utf-8") as f:
                        words = tuple(sorted({w for w in f.read().split("\n") if w}))
                except OSError as exc:
                    raise FileNotFoundError(f"stopwords: cannot read {path!r} ({exc.strerror or exc})") from None
            else:
                words = load_stopwords(stopwords)
            self._stop_names = words
            self.stopwords = frozenset(words)
        self.exceptions: Optional[Dict[str, str]] = None
        self.stemmer: Optional[MorphStemmer] = None
        self.backend = core.get_backend(backend)
        if use_stemmer:
            self.exceptions = load_exceptions(exceptions)
            self.stemmer = MorphStemmer(self.exceptions, native=self.backend == "native")
        self._kernels = core.kernels(self.backend)
        self.specs = self.config.type_specs
        self._f = make_fmeasure(alpha=self.config.alpha)
        self._type_scorers = [TypeScorer(s, self._f) for s in self.specs]
        self._needs_units = any(s.uses_sentences for s in self.specs)

    @classmethod
    def from_perl_options(cls, options: str, *, exceptions: Any = None, stopwords: Any = None,
                          backend: Optional[str] = None) -> "Rouge155":
        """The scorer of a ROUGE-1.5.5.pl command line, e.g. the options a paper reports.

        Understood: ``-n N`` (rouge1..rougeN), ``-x`` (no ROUGE-L), ``-w W``, ``-2 d`` with ``-u``/``-U``,
        ``-f A|B``, ``-p alpha``, ``-m`` (needs ``exceptions=``), ``-s`` (needs ``stopwords=``), ``-l n``,
        ``-b n``, ``-r R``, ``-c cf``; ``-a``, ``-d``, ``-v``, ``-e dir``, ``-z fmt`` and ``-t 0`` are
        accepted and ignored (they do not change the numbers). ``-t 1|2``, ``-3`` (BE) and ``-M`` are
        not supported and raise ValueError.

        >>> r = Rouge155.from_perl_options("-c 95 -2 4 -U -r 1000 -n 2 -w 1.2 -a")
        >>> r.rouge_types
        ('rouge1', 'rouge2', 'rougeLsum', 'rougeW', 'rougeS4', 'rougeSU4')
        """
        import shlex

        with_arg = set("bcef" "lnpt" "r23wz")
        flags = set("ahHdmMsuUvx")
        opts: Dict[str, str] = {}
        toks = shlex.split(options)
        i = 0
        while i < len(toks):
            tok = toks[i]
            i += 1
            if not tok.startswith("-") or tok == "-":
                raise ValueError(f"options: unexpected argument {tok!r} (give only options, not the config file)")
            j = 1
            while j < len(tok):
                ch = tok[j]
                if ch in with_arg:
                    val = tok[j + 1:]
                    if not val:
                        if i >= len(toks):
                            raise ValueError(f"options: -{ch} needs a value")
                        val = toks[i]
                        i += 1
                    opts[ch] = val
                    break
                if ch not in flags:
                    raise ValueError(f"options: unknown option -{ch}")
                opts[ch] = ""
                j += 1
        for bad, why in (("3", "BE scoring"), ("M", "stemming models only")):
            if bad in opts:
                raise ValueError(f"options: -{bad} ({why}) is not supported by the preset")
        if opts.get("t", "0") not in ("0", ""):
            raise ValueError("options: -t 1/-t 2 (token-level averaging) is not supported; use -t 0 (the default)")

        def num(ch: str, kind: type) -> Any:
            try:
                return kind(opts[ch])
            except ValueError:
                raise ValueError(f"options: -{ch} expects a {kind.__name__}, got {opts[ch]!r}") from None

        types: List[str] = []
        if "n" in opts:
            types += [f"rouge{k}" for k in range(1, num("n", int) + 1)]
        if "x" not in opts:
            types.append("rougeLsum")
        weight = num("w", float) if "w" in opts else 1.2
        if "w" in opts:
            types.append("rougeW")
        if "2" in opts:
            d = num("2", int)
            tag = "" if d < 0 else str(d)
            if "u" in opts:
                types.append(f"rougeSU{tag}")
            else:
                types.append(f"rougeS{tag}")
                if "U" in opts:
                    types.append(f"rougeSU{tag}")
        if not types:
            raise ValueError("options: no measure selected (-x without -n, -w or -2)")
        if "m" in opts and exceptions is None:
            raise ValueError("options: -m needs exceptions=<the WordNet exception list> (see Rouge155)")
        if "s" in opts and stopwords is None:
            raise ValueError("options: -s needs stopwords=<path of smart_common_words.txt or a word list>")
        return cls(types, multi_ref=opts.get("f", "A"), alpha=num("p", float) if "p" in opts else 0.5,
                   use_stemmer="m" in opts, exceptions=exceptions if "m" in opts else None,
                   stopwords=stopwords if "s" in opts else None,
                   length_limit=(num("l", int) or None) if "l" in opts else None,  # -l 0: no limit
                   byte_limit=(num("b", int) or None) if "b" in opts else None, wlcs_weight=weight,
                   n_resamples=num("r", int) if "r" in opts else 1000,
                   confidence=num("c", float) if "c" in opts else 95.0, backend=backend)

    @property
    def rouge_types(self) -> Tuple[str, ...]:
        return self.config.rouge_types

    def __repr__(self) -> str:
        return f"Rouge155({self.signature()!r})"

    def signature(self) -> str:
        """Every setting that changes the numbers, ``preset:rouge155|...``."""
        cfg = self.config
        parts = ["preset:rouge155", "types:" + ",".join(cfg.rouge_types), "tok:perl"]
        parts.append("stem:" + ("perl_porter+exc:" + _digest_pairs(self.exceptions)
                                if self.exceptions is not None else "none"))
        if self.stopwords is not None:
            parts.append("stop:" + stopwords_digest(self._stop_names))
        if self.length_limit:
            parts.append(f"limit:l={self.length_limit}")
        elif self.byte_limit:
            parts.append(f"limit:b={self.byte_limit}")
        if any(s.kind == "wlcs" for s in self.specs):
            parts.append(f"w:{cfg.wlcs_weight:g}")
        parts.append("multiref:" + cfg.multi_ref)
        parts.append(f"f:alpha={cfg.alpha:g}")
        parts.append(f"agg:perl_bootstrap(n={self.n_resamples},ci={self.confidence:g})")
        parts.append("backend:" + self.backend)
        parts.append("version:" + __version__)
        return "|".join(parts)

    # ---- text
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
        if not self._needs_units:
            return self._tokens(whole), None
        unit_tokens = [self._tokens(u) for u in units]
        if self.byte_limit:  # readText and readText_LCS may disagree (the script's -b bug)
            return self._tokens(whole), unit_tokens
        # otherwise the readText text is the units joined by spaces: its tokens are theirs, in order
        return [t for u in unit_tokens for t in u], unit_tokens

    # ---- one example
    def example_stats(self, prediction: str, references: List[str], index: int = 0):
        """Per reference, the core's sufficient statistics of every type."""
        pv = self.process(prediction)
        views = [self.process(r) for r in references]
        per_ref = []
        for j, rv in enumerate(views):
            if any(s.kind == "wlcs" for s in self.specs) and not any(rv[1] or ()):
                raise ValueError(
                    f"references[{index}][{j}]: ROUGE-W is undefined for a reference without tokens "
                    "(ROUGE-1.5.5 dies with 'Illegal division by zero'); drop rougeW or the empty reference"
                )
            stats = pair_stats(self.specs, self._kernels, pv, rv)
            if self._needs_units and (not _consistent(pv) or not _consistent(rv)):
                for k, spec in enumerate(self.specs):
                    if spec.uses_sentences:
                        stats[k] = _perl_lcs_stats(spec, pv, rv)
            per_ref.append(stats)
        return per_ref, pv, views

    def _round(self, sc: Score) -> Score:
        p, r = round5(sc.precision), round5(sc.recall)
        return Score(p, r, round5(self._f(p, r)))

    def score(self, *, prediction: str, references: Union[str, Sequence[str]], index: int = 0) -> Dict[str, Score]:
        """The script's per-case scores (``-d``), rounded to 5 decimals, ``{type: Score(P, R, F)}``."""
        if not isinstance(prediction, str):
            raise TypeError(f"prediction: expected str, got {type(prediction).__name__}")
        refs = normalize_references(references, index)
        per_ref, _, _ = self.example_stats(prediction, refs, index)
        mode = self.config.multi_ref
        return {ts.spec.name: self._round(ts.combine([s[k] for s in per_ref], mode))
                for k, ts in enumerate(self._type_scorers)}

    def score_examples(self, *, predictions: Sequence[str], references: Sequence[Any]) -> List[Dict[str, Score]]:
        """Per-case scores of a batch."""
        preds, refs = validate_batch(predictions, references)
        return [self.score(prediction=p, references=r, index=i) for i, (p, r) in enumerate(zip(preds, refs))]

    def compute(self, *, predictions: Sequence[str], references: Sequence[Any],
                ids: Optional[Sequence[Any]] = None, peer_id: str = "1",
                return_per_example: bool = False) -> CorpusResult:
        """The script's printed averages and confidence intervals.

        ``scores[type]`` is Perl's ``Average_P/R/F`` (the mean of the bootstrap resample means, not the
        plain mean) and ``ci[type]`` its ``conf.int.`` (``mid`` = the average). The resampling visits the
        cases in the script's order: keys ``"<eval id>.<peer id>"`` sorted as strings; eval ids default
        to 1..N (``ids`` to give your own, e.g. the ``<EVAL ID>`` of an existing ROUGE config file).
        """
        preds, refs = validate_batch(predictions, references)
        if ids is None:
            ids = [str(i + 1) for i in range(len(preds))]
        else:
            ids = [str(x) for x in ids]
            if len(ids) != len(preds):
                raise ValueError(f"ids: expected {len(preds)} ids (one per prediction), got {len(ids)}")
            if len(set(ids)) != len(ids):
                raise ValueError("ids: the eval ids must be unique")
        per_example = []
        pred_len = ref_len = 0.0
        mode = self.config.multi_ref
        for i, (p, r) in enumerate(zip(preds, refs)):
            per_ref, pv, rvs = self.example_stats(p, r, i)
            per_example.append({ts.spec.name: self._round(ts.combine([s[k] for s in per_ref], mode))
                                for k, ts in enumerate(self._type_scorers)})
            pred_len += len(pv[0])
            ref_len += sum(len(v[0]) for v in rvs) / len(rvs)
        order = sorted(range(len(preds)), key=lambda i: f"{ids[i]}.{peer_id}")
        types = self.rouge_types
        rows = [[x for t in types for x in (per_example[i][t].recall, per_example[i][t].precision,
                                            per_example[i][t].fmeasure)] for i in order]
        avg, low, high = perl_bootstrap_columns(rows, self.n_resamples, self.confidence, 3 * len(types))
        scores: Dict[str, Score] = {}
        ci: Dict[str, AggregateScore] = {}
        for k, t in enumerate(types):
            j = 3 * k
            mid = Score(avg[j + 1], avg[j], avg[j + 2])
            scores[t] = mid
            ci[t] = AggregateScore(low=Score(low[j + 1], low[j], low[j + 2]), mid=mid,
                                   high=Score(high[j + 1], high[j], high[j + 2]))
        n = len(preds)
        return CorpusResult(scores=scores, n=n, pred_len=pred_len / max(n, 1), ref_len=ref_len / max(n, 1),
                            signature=self.signature(), ci=ci,
                            per_example=per_example if return_per_example else None,
                            confidence_level=self.confidence / 100.0)


def _consistent(view: Tuple[List[str], Optional[List[List[str]]]]) -> bool:
    tokens, units = view
    if units is None:
        return True
    return [t for u in units for t in u] == tokens


def _perl_lcs_stats(spec: TypeSpec, pv, rv) -> Tuple[float, float, float, float]:
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


__all__ = [
    "MorphStemmer",
    "Rouge155",
    "load_exceptions",
    "perl_bootstrap",
    "perl_bootstrap_columns",
    "perl_label",
    "perl_tokens",
    "perl_units",
    "round5",
]
