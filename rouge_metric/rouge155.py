"""ROUGE-1.5.5.pl on raw text: the preset that reproduces the Perl script's printed numbers.

:class:`Rouge155` adds to the core only what the script does differently: its text pipeline
(:func:`perl_tokens`: ASCII-only lowercasing, every byte of a non-ASCII character a separator,
hyphens split off; ``-l``/``-b`` length limits, ``-s`` stopwords, ``-m`` stemming with the script's
Porter variant plus a WordNet exception list), its 5-decimal rounding (F from the rounded P and R) and
its averaging (the mean of 1000 bootstrap resamples drawn with Perl's ``srand(i)``/``drand48``
sequence, and the percentile interval). It is a :class:`~rouge_metric.Rouge` configured with
that text pipeline (:class:`~rouge_metric.perl_text.PerlPipeline`), the ``perl`` per-example
rounding and ROUGE-1.5.5's averaging (:func:`~rouge_metric.aggregate.perl_bootstrap_columns`):
counting is done by the core kernels and the multi-reference modes of the core
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
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._version import __version__
from .aggregate import CorpusAccumulator, perl_bootstrap, perl_bootstrap_columns, round5
from .config import RougeConfig, TypeSpec, parse_rouge_type
from .inputs import normalize_references, validate_batch
from .multilingual import load_stopwords, stopwords_digest
from .perl_text import MorphStemmer, PerlPipeline, exceptions_digest, load_exceptions, perl_units
from .result import AggregateScore, CorpusResult, Score
from .scoring import References, Rouge
from .text import perl_tokens


# ------------------------------------------------------------------------------------ labels
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


# ------------------------------------------------------------------------------- the scorer
FORMULAS = {"A": "pool", "B": "best_recall"}


class Rouge155(Rouge):
    """ROUGE-1.5.5.pl on raw text, to the printed 5 decimals: a :class:`~rouge_metric.Rouge` with the
    script's text pipeline, per-example rounding and averaging.

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
        config = RougeConfig(rouge_types=tuple(rouge_types), tokenizer="perl", multi_ref=multi_ref,
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
        self.exceptions: Optional[Dict[str, str]] = load_exceptions(exceptions) if use_stemmer else None
        from .core import get_backend  # the stemmer's native twin follows the backend

        native = get_backend(backend) == "native"
        self.stemmer: Optional[MorphStemmer] = (MorphStemmer(self.exceptions, native=native)
                                                if self.exceptions is not None else None)
        pipeline = PerlPipeline(config.type_specs, self.stopwords, self.stemmer, self.length_limit,
                                self.byte_limit)
        super().__init__(config=config, backend=backend, pipeline=pipeline, rounding="perl")

    def __getstate__(self) -> Dict[str, Any]:
        raise TypeError("Rouge155 cannot be pickled; pickle its options and build it again")

    @classmethod
    def from_perl_options(cls, options: str, *, exceptions: Any = None, stopwords: Any = None,
                          backend: Optional[str] = None, names: Optional[Dict[str, str]] = None) -> "Rouge155":
        """The scorer of a ROUGE-1.5.5.pl command line, e.g. the options a paper reports.

        Understood: ``-n N`` (rouge1..rougeN), ``-x`` (no ROUGE-L), ``-w W``, ``-2 d`` with ``-u``/``-U``,
        ``-f A|B``, ``-p alpha``, ``-m`` (needs ``exceptions=``), ``-s`` (needs ``stopwords=``), ``-l n``,
        ``-b n``, ``-r R``, ``-c cf``; ``-a``, ``-d``, ``-v``, ``-e dir``, ``-z fmt`` and ``-t 0`` are
        accepted and ignored (they do not change the numbers). ``-t 1|2``, ``-3`` (BE) and ``-M`` are
        not supported and raise ValueError. ``names`` says how errors name the inputs (keys ``options``,
        ``exceptions``, ``stopwords``; the command line passes its own option names).

        >>> r = Rouge155.from_perl_options("-c 95 -2 4 -U -r 1000 -n 2 -w 1.2 -a")
        >>> r.rouge_types
        ('rouge1', 'rouge2', 'rougeLsum', 'rougeW', 'rougeS4', 'rougeSU4')
        """
        import shlex

        # How errors name the inputs: ``names`` maps "options", "exceptions" and "stopwords" to the
        # caller's spelling (the command line passes its option names).
        label = {"options": "options", "exceptions": "exceptions=<the WordNet exception list> (see Rouge155)",
                 "stopwords": "stopwords=<path of smart_common_words.txt or a word list>", **(names or {})}
        where = label["options"] + ": "

        with_arg = set("bcef" "lnpt" "r23wz")
        flags = set("ahHdmMsuUvx")
        opts: Dict[str, str] = {}
        toks = shlex.split(options)
        i = 0
        while i < len(toks):
            tok = toks[i]
            i += 1
            if not tok.startswith("-") or tok == "-":
                raise ValueError(f"{where}unexpected argument {tok!r} (give only options, not the config file)")
            j = 1
            while j < len(tok):
                ch = tok[j]
                if ch in with_arg:
                    val = tok[j + 1:]
                    if not val:
                        if i >= len(toks):
                            raise ValueError(f"{where}-{ch} needs a value")
                        val = toks[i]
                        i += 1
                    opts[ch] = val
                    break
                if ch not in flags:
                    raise ValueError(f"{where}unknown option -{ch}")
                opts[ch] = ""
                j += 1
        for bad, why in (("3", "BE scoring"), ("M", "stemming models only")):
            if bad in opts:
                raise ValueError(f"{where}-{bad} ({why}) is not supported by the preset")
        if opts.get("t", "0") not in ("0", ""):
            raise ValueError(f"{where}-t 1/-t 2 (token-level averaging) is not supported; use -t 0 (the default)")

        def num(ch: str, kind: type) -> Any:
            try:
                return kind(opts[ch])
            except ValueError:
                raise ValueError(f"{where}-{ch} expects a {kind.__name__}, got {opts[ch]!r}") from None

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
            raise ValueError(f"{where}no measure selected (-x without -n, -w or -2)")
        if "m" in opts and exceptions is None:
            raise ValueError(f"{where}-m needs {label['exceptions']}")
        if "s" in opts and stopwords is None:
            raise ValueError(f"{where}-s needs {label['stopwords']}")
        return cls(types, multi_ref=opts.get("f", "A"), alpha=num("p", float) if "p" in opts else 0.5,
                   use_stemmer="m" in opts, exceptions=exceptions if "m" in opts else None,
                   stopwords=stopwords if "s" in opts else None,
                   length_limit=(num("l", int) or None) if "l" in opts else None,  # -l 0: no limit
                   byte_limit=(num("b", int) or None) if "b" in opts else None, wlcs_weight=weight,
                   n_resamples=num("r", int) if "r" in opts else 1000,
                   confidence=num("c", float) if "c" in opts else 95.0, backend=backend)

    def __repr__(self) -> str:
        return f"Rouge155({self.signature()!r})"

    def signature(self) -> str:
        """Every setting that changes the numbers, ``preset:rouge155|...``."""
        cfg = self.config
        parts = ["preset:rouge155", "types:" + ",".join(cfg.rouge_types), "tok:perl"]
        parts.append("stem:" + ("perl_porter+exc:" + exceptions_digest(self.exceptions)
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

    # ---- one example (the per-reference index names the reference in errors)
    def score(self, *, prediction: str, references: References, index: int = 0) -> Dict[str, Score]:
        """The script's per-case scores (``-d``), rounded to 5 decimals, ``{type: Score(P, R, F)}``."""
        if not isinstance(prediction, str):
            raise TypeError(f"prediction: expected str, got {type(prediction).__name__}")
        refs = normalize_references(references, index)
        per_ref, _, _ = self.example_stats(prediction, refs, index)
        return self.combine(per_ref)

    def example_stats(self, prediction: Any, references: List[Any], index: int = 0):
        """Per reference, the core's sufficient statistics of every type; the prediction length; the
        mean reference length."""
        return self._backend.example_stats(prediction, references, index)

    def result(self, acc: CorpusAccumulator, per_example: Optional[List[Dict[str, Score]]] = None,
               progress: Any = None, order: Optional[Sequence[int]] = None) -> CorpusResult:
        """The script's printed averages and confidence intervals of the examples in ``acc`` (their
        per-case scores, kept by the accumulator), resampled in ``order`` (default: the script's
        order of eval ids 1..N, keys sorted as strings)."""
        if acc.values is None:
            raise ValueError("Rouge155.result: the accumulator must keep values (Rouge155.accumulator())")
        n = acc.n
        if order is None:
            order = sorted(range(n), key=lambda i: f"{i + 1}.1")
        types = self.rouge_types
        vals = acc.values
        rows = []
        for i in order:
            row: List[float] = []
            for t in types:
                p, r, f = vals[t][3 * i:3 * i + 3]
                row += (r, p, f)
            rows.append(row)
        avg, low, high = perl_bootstrap_columns(rows, self.n_resamples, self.confidence, 3 * len(types))
        scores: Dict[str, Score] = {}
        ci: Dict[str, AggregateScore] = {}
        for k, t in enumerate(types):
            j = 3 * k
            mid = Score(avg[j + 1], avg[j], avg[j + 2])
            scores[t] = mid
            ci[t] = AggregateScore(low=Score(low[j + 1], low[j], low[j + 2]), mid=mid,
                                   high=Score(high[j + 1], high[j], high[j + 2]))
        pl, rl = acc.mean_lengths()
        return CorpusResult(scores=scores, n=n, pred_len=pl, ref_len=rl, signature=self.signature(), ci=ci,
                            per_example=per_example, confidence_level=self.confidence / 100.0)

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
        acc = self.accumulator(keep_values=True)
        per_example: Optional[List[Dict[str, Score]]] = [] if return_per_example else None
        self.add_to(acc, predictions=preds, references=refs, per_example=per_example)
        order = sorted(range(len(preds)), key=lambda i: f"{ids[i]}.{peer_id}")
        return self.result(acc, per_example, order=order)


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
