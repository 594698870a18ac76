"""Score and result types. Output key names live here and nowhere else."""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Sequence

from ._record import Record

#: The statistics of a score, in output order, and the key suffix of each.
STATS = ("precision", "recall", "fmeasure")
_SUFFIX = {"fmeasure": "", "precision": "_precision", "recall": "_recall"}
#: The style of the notebook tables (``_repr_html_``): scoped by class, inline, no external resource.
_HTML_STYLE = ('<style>.rm-result td,.rm-result th{padding:2px 8px;text-align:right}.rm-result td:first-child,'
               '.rm-result th:first-child{text-align:left}.rm-result-note{color:#52525b;font-size:12px}</style>')


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]], caption: str, notes: Sequence[str]) -> str:
    """A notebook table: every cell and note is plain text, HTML-escaped here."""
    from html import escape  # here: only a notebook asks (html.entities is a third of the package's import)

    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    foot = "".join(f'<div class="rm-result-note">{escape(n)}</div>' for n in notes)
    return (f'{_HTML_STYLE}<div class="rm-result"><table class="rm-result"><caption>{escape(caption)}</caption>'
            f"<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>{foot}</div>")


def output_key(rouge_type: str, stat: str = "fmeasure", bound: Optional[str] = None) -> str:
    """The output key of one statistic: ``rouge1`` (F), ``rouge1_precision``, ``rouge1_recall``;
    with ``bound`` ("low"/"high") the confidence-interval key, e.g. ``rouge1_low``."""
    key = rouge_type + _SUFFIX[stat]
    if bound is None:
        return key
    if bound not in ("low", "high"):
        raise ValueError(f"bound: expected 'low' or 'high', got {bound!r}")
    return f"{key}_{bound}"


class Score(NamedTuple):
    """Precision, recall and F-measure of one rouge type (the field names of rouge-score's Score,
    so ``==`` with a ``rouge_score.scoring.Score`` compares the three floats)."""

    precision: float
    recall: float
    fmeasure: float


class AggregateScore(NamedTuple):
    """A bootstrap confidence interval: ``low`` and ``high`` are percentiles of the resampled means,
    ``mid`` is the exact mean of the sample (not a bootstrap median)."""

    low: Score
    mid: Score
    high: Score


class CorpusResult(Record):
    """What corpus scoring returns.

    Attributes:
        scores: type -> exact mean of the per-example P, R and F.
        n: number of examples.
        pred_len: mean number of prediction tokens; ref_len: mean number of reference tokens
            (per example, the mean over its references). Compare them to check for length bias.
        signature: every setting that produced these numbers.
        ci: type -> :class:`AggregateScore` when bootstrap aggregation was requested, else None.
        per_example: per-example ``{type: Score}`` when requested, else None.
        confidence_level: the level of ``ci``.
    """

    _fields = ("scores", "n", "pred_len", "ref_len", "signature", "ci", "per_example", "confidence_level")
    scores: Dict[str, Score]
    n: int
    pred_len: float
    ref_len: float
    signature: str
    ci: Optional[Dict[str, AggregateScore]]
    per_example: Optional[List[Dict[str, Score]]]
    confidence_level: Optional[float]

    def __init__(self, scores: Dict[str, Score], n: int, pred_len: float, ref_len: float, signature: str,
                 ci: Optional[Dict[str, AggregateScore]] = None, per_example: Optional[List[Dict[str, Score]]] = None,
                 confidence_level: Optional[float] = None) -> None:
        self._init(scores=scores, n=n, pred_len=pred_len, ref_len=ref_len, signature=signature, ci=ci,
                   per_example=per_example, confidence_level=confidence_level)

    def to_dict(self, stats: Sequence[str] = ("fmeasure",), scale: float = 1.0) -> Dict[str, float]:
        """Flat ``{key: float}`` of the requested statistics (keys from :func:`output_key`)."""
        for s in stats:
            if s not in STATS:
                raise ValueError(f"stats: unknown statistic {s!r}; allowed: {', '.join(STATS)}")
        out: Dict[str, float] = {}
        for t, sc in self.scores.items():
            for s in STATS:
                if s in stats:
                    out[output_key(t, s)] = float(getattr(sc, s)) * scale
        return out

    def format_table(self, scale: float = 100.0, digits: int = 2) -> str:
        """A plain-text table: one row per type, P/R/F (with the CI when present), then the signature."""
        if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 17:
            raise ValueError(f"digits: expected an integer from 0 to 17 (decimal places), got {digits!r}")
        rows: List[List[str]] = []
        head = ["type", "precision", "recall", "fmeasure"]
        for t, sc in self.scores.items():
            row = [t]
            for s in STATS:
                v = f"{getattr(sc, s) * scale:.{digits}f}"
                if self.ci is not None:
                    lo = getattr(self.ci[t].low, s) * scale
                    hi = getattr(self.ci[t].high, s) * scale
                    v += f" [{lo:.{digits}f}, {hi:.{digits}f}]"
                row.append(v)
            rows.append(row)
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
        fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
        lines = [fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows]
        lines.append(f"n={self.n}  mean prediction length={self.pred_len:.1f}  mean reference length={self.ref_len:.1f}"
                     + (f"  ci={self.confidence_level:g}" if self.ci is not None else ""))
        lines.append(self.signature)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format_table()

    def _repr_html_(self) -> str:
        """The table of :meth:`format_table` as HTML (a notebook shows it without a call)."""
        rows = []
        for t, sc in self.scores.items():
            row = [t]
            for s in STATS:
                v = f"{getattr(sc, s) * 100:.2f}"
                if self.ci is not None:
                    v += f" [{getattr(self.ci[t].low, s) * 100:.2f}, {getattr(self.ci[t].high, s) * 100:.2f}]"
                row.append(v)
            rows.append(row)
        level = f", {self.confidence_level * 100:g}% bootstrap intervals" if self.ci is not None else ""
        notes = [f"n={self.n}  mean prediction length={self.pred_len:.1f}  mean reference length={self.ref_len:.1f}",
                 self.signature]
        return _html_table(["type", "precision", "recall", "F"], rows, f"ROUGE ×100{level}", notes)

    def as_json(self) -> Dict[str, Any]:
        """A JSON-serialisable dict of everything in the result."""
        out: Dict[str, Any] = {
            "scores": {t: sc._asdict() for t, sc in self.scores.items()},
            "n": self.n,
            "pred_len": self.pred_len,
            "ref_len": self.ref_len,
            "signature": self.signature,
        }
        if self.ci is not None:
            out["confidence_level"] = self.confidence_level
            out["ci"] = {t: {k: v._asdict() for k, v in a._asdict().items()} for t, a in self.ci.items()}
        if self.per_example is not None:
            out["per_example"] = [{t: sc._asdict() for t, sc in ex.items()} for ex in self.per_example]
        return out


#: The fields of one paired comparison, in output order: the keys of the innermost dicts of
#: :meth:`ComparisonResult.to_dict`.
COMPARISON_FIELDS = ("baseline", "system", "delta", "ci_low", "ci_high", "p_value")


class Comparison(NamedTuple):
    """One statistic of one rouge type, a system against the baseline.

    ``baseline`` and ``system`` are the exact corpus means, ``delta = system - baseline``;
    ``[ci_low, ci_high]`` is the bootstrap percentile interval of the difference; ``p_value`` is the
    two-sided p-value of the paired test (see docs/significance.md)."""

    baseline: float
    system: float
    delta: float
    ci_low: float
    ci_high: float
    p_value: float


class ComparisonResult(Record):
    """What :func:`rouge_metric.compare` returns.

    Attributes:
        comparisons: system name -> rouge type -> statistic (``precision``, ``recall``, ``fmeasure``)
            -> :class:`Comparison`.
        n: number of examples.
        method: ``paired_bootstrap`` or ``approximate_randomization``.
        n_resamples: resamples (bootstrap) or trials (randomization) of the test.
        confidence_level: the level of the intervals.
        seed: the seed of every draw.
        exact: True when approximate randomization enumerated all ``2**n`` assignments instead.
        signature: the scoring settings and the test.
        baseline_name: how tables name the baseline.
    """

    _fields = ("comparisons", "n", "method", "n_resamples", "confidence_level", "seed", "signature", "exact",
               "baseline_name")
    comparisons: Dict[str, Dict[str, Dict[str, Comparison]]]
    n: int
    method: str
    n_resamples: int
    confidence_level: float
    seed: int
    signature: str
    exact: bool
    baseline_name: str

    def __init__(self, comparisons: Dict[str, Dict[str, Dict[str, Comparison]]], n: int, method: str,
                 n_resamples: int, confidence_level: float, seed: int, signature: str, exact: bool = False,
                 baseline_name: str = "baseline") -> None:
        self._init(comparisons=comparisons, n=n, method=method, n_resamples=n_resamples,
                   confidence_level=confidence_level, seed=seed, signature=signature, exact=exact,
                   baseline_name=baseline_name)

    def to_dict(self) -> Dict[str, Dict[str, Dict[str, Dict[str, float]]]]:
        """``{system: {type: {statistic: {"baseline", "system", "delta", "ci_low", "ci_high",
        "p_value"}}}}`` of plain floats (what ``rouge-metric compare --json`` prints)."""
        return {
            name: {t: {s: {f: float(v) for f, v in zip(COMPARISON_FIELDS, c)} for s, c in per_stat.items()}
                   for t, per_stat in per_type.items()}
            for name, per_type in self.comparisons.items()
        }

    def format_table(self, level: float = 0.05, stats: Sequence[str] = ("fmeasure",), scale: float = 100.0,
                     digits: int = 2) -> str:
        """A plain-text table, one row per system and score, ``*`` marking ``p_value < level``; then the
        level, the number of comparisons in the table (no correction is applied) and the signature."""
        if not isinstance(level, (int, float)) or isinstance(level, bool) or not 0.0 < level < 1.0:
            raise ValueError(f"level: expected a number in (0, 1), got {level!r}")
        for s in stats:
            if s not in STATS:
                raise ValueError(f"stats: unknown statistic {s!r}; allowed: {', '.join(STATS)}")
        ci_head = f"{self.confidence_level * 100:g}% CI of delta"
        head = ["system", "score", self.baseline_name, "system", "delta", ci_head, "p-value", ""]
        rows: List[List[str]] = []
        for name, per_type in self.comparisons.items():
            for t, per_stat in per_type.items():
                for s in STATS:
                    if s not in stats:
                        continue
                    c = per_stat[s]
                    rows.append([
                        name, output_key(t, s), f"{c.baseline * scale:.{digits}f}", f"{c.system * scale:.{digits}f}",
                        f"{c.delta * scale:+.{digits}f}",
                        f"[{c.ci_low * scale:+.{digits}f}, {c.ci_high * scale:+.{digits}f}]",
                        f"{c.p_value:.4f}", "*" if c.p_value < level else "",
                    ])
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
        left = (0, 1)
        fmt = lambda r: "  ".join(c.ljust(w) if i in left or i == len(head) - 1 else c.rjust(w)
                                  for i, (c, w) in enumerate(zip(r, widths))).rstrip()
        test = "exact approximate randomization (all 2^n assignments)" if self.exact else \
            f"{self.method}, {self.n_resamples} resamples, seed {self.seed}"
        lines = [fmt(head), fmt(["-" * w for w in widths[:-1]] + [""])] + [fmt(r) for r in rows]
        many = f"the {len(rows)} comparisons shown" if len(rows) > 1 else "multiple comparisons"
        lines.append(f"* p < {level:g} (two-sided; each row is tested on its own, no correction for {many})")
        lines.append(f"n={self.n}  {test}")
        lines.append(self.signature)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format_table()

    def _repr_html_(self) -> str:
        """The F rows of :meth:`format_table` as HTML (a notebook shows it without a call); ``*``: p < 0.05."""
        rows = []
        for name, per_type in self.comparisons.items():
            for t, per_stat in per_type.items():
                c = per_stat["fmeasure"]
                rows.append([name, t, f"{c.baseline * 100:.2f}", f"{c.system * 100:.2f}", f"{c.delta * 100:+.2f}",
                             f"[{c.ci_low * 100:+.2f}, {c.ci_high * 100:+.2f}]", f"{c.p_value:.4f}",
                             "*" if c.p_value < 0.05 else ""])
        test = "exact approximate randomization (all 2^n assignments)" if self.exact else \
            f"{self.method}, {self.n_resamples} resamples, seed {self.seed}"
        notes = ["* p < 0.05 (two-sided; each row tested on its own, no correction for multiple comparisons)",
                 f"n={self.n}  {test}", self.signature]
        head = ["system", "type", f"{self.baseline_name} F", "system F", "Δ F",
                f"{self.confidence_level * 100:g}% CI of Δ", "p-value", ""]
        return _html_table(head, rows, "Paired comparison, F ×100", notes)


class GenerationResult(Record):
    """What :func:`rouge_metric.generate_and_score` returns.

    Attributes:
        result: the :class:`CorpusResult` of the generations (``n``, mean scores, ``pred_len`` and
            ``ref_len``, signature; per-example scores when requested).
        predictions: the generation of every example, in data order.
        references: the references of every example (a list per example).
        generated: examples generated by this call; cached: examples taken from the cache.
        cache: the cache file, or None.
        settings: the generation settings that key the cache.
    """

    _fields = ("result", "predictions", "references", "generated", "cached", "cache", "settings")
    result: CorpusResult
    predictions: List[str]
    references: List[List[str]]
    generated: int
    cached: int
    cache: Optional[str]
    settings: Dict[str, Any]

    def __init__(self, result: CorpusResult, predictions: List[str], references: List[List[str]], generated: int,
                 cached: int, cache: Optional[str] = None, settings: Optional[Dict[str, Any]] = None) -> None:
        self._init(result=result, predictions=predictions, references=references, generated=generated,
                   cached=cached, cache=cache, settings={} if settings is None else settings)

    @property
    def scores(self) -> Dict[str, Score]:
        return self.result.scores

    @property
    def n(self) -> int:
        return self.result.n

    @property
    def pred_len(self) -> float:
        return self.result.pred_len

    @property
    def ref_len(self) -> float:
        return self.result.ref_len

    @property
    def signature(self) -> str:
        return self.result.signature

    def rows(self) -> List[Dict[str, Any]]:
        """Per-example rows ``{"index", "prediction", "references", "rouge1", "rouge1_precision", ...}``
        (needs ``return_per_example=True``)."""
        if self.result.per_example is None:
            raise ValueError("rows: per-example scores were not kept; call generate_and_score(..., "
                             "return_per_example=True)")
        out = []
        for i, (pred, refs, scores) in enumerate(zip(self.predictions, self.references, self.result.per_example)):
            row: Dict[str, Any] = {"index": i, "prediction": pred, "references": refs}
            for t, sc in scores.items():
                for s in STATS:
                    row[output_key(t, s)] = float(getattr(sc, s))
            out.append(row)
        return out

    def format_table(self, scale: float = 100.0, digits: int = 2) -> str:
        """The corpus table (:meth:`CorpusResult.format_table`) and how many examples came from the cache."""
        line = f"generated {self.generated}, from the cache {self.cached}" + (f" ({self.cache})" if self.cache else "")
        return self.result.format_table(scale, digits) + "\n" + line

    def __str__(self) -> str:
        return self.format_table()

    def as_json(self) -> Dict[str, Any]:
        """:meth:`CorpusResult.as_json` plus ``generated``, ``cached``, ``cache`` and ``settings``."""
        out = self.result.as_json()
        out.update(generated=self.generated, cached=self.cached, cache=self.cache, settings=self.settings)
        return out
