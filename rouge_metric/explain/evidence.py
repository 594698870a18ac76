"""The evidence behind a score: the explanation records and :func:`explain`, which fills them.

:func:`explain` runs the scorer's own text pipeline (:meth:`Rouge.process`) and statistics
(:meth:`Rouge.pair_stats`, :meth:`Rouge.score_stats`) on one example and recomputes the evidence behind
every hit with the pure-Python kernels of :mod:`rouge_metric.core_py`: the shared units with their
counts, the LCS with its positions, the union-LCS and weighted-LCS marks per reference sentence. Every
type explanation carries its cross-checks (:mod:`rouge_metric.explain.checks`); the records render
themselves through :mod:`rouge_metric.explain.render_text` and :mod:`rouge_metric.explain.render_html`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Dict, Hashable, List, Optional, Sequence, Tuple

from .. import core_py
from ..config import DEFAULT_ROUGE_TYPES, RougeConfig
from ..inputs import check_prediction, normalize_references
from ..result import Score
from ..scoring import Rouge
from ..text import Span
from .checks import Check, combined_checks, cross_check
from .render_html import explanation_html
from .render_text import format_text


@dataclasses.dataclass(frozen=True)
class UnitMatch:
    """A unit (n-gram, skip-bigram or SU unigram) found in both texts, with its counts."""

    unit: Tuple[str, ...]
    pred_count: int
    ref_count: int

    @property
    def clipped(self) -> int:
        """The unit's contribution to the hit: ``min(pred_count, ref_count)``."""
        return min(self.pred_count, self.ref_count)


@dataclasses.dataclass(frozen=True)
class SentenceHits:
    """One reference sentence for rougeLsum (union-LCS) or rougeW (weighted-LCS marks).

    ``marked`` are the token positions (in this sentence) on an LCS with some prediction sentence;
    ``hits`` are the marked positions that count after clipping (for rougeLsum ``len(hits)`` is the
    sentence's share of the hit).
    """

    index: int
    tokens: Tuple[str, ...]
    marked: Tuple[int, ...]
    hits: Tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class TypeExplanation:
    """One rouge type against one reference: the scorer's statistics and their evidence.

    ``pred_sentence_marks`` (rougeLsum): per prediction sentence, its positions on an LCS with some
    reference sentence (the prediction side of the union-LCS; the hits are counted on the reference side).
    ``checks``: the cross-checks of :func:`cross_check` (P/R/F re-derived from the counts with the general
    F formula; the evidence adds up to the hit; the LCS is a common subsequence of both texts).
    """

    rouge_type: str
    kind: str
    hit: float
    pred_total: float
    ref_total: float
    score: Score
    matches: Tuple[UnitMatch, ...] = ()
    pred_positions: Tuple[int, ...] = ()
    ref_positions: Tuple[int, ...] = ()
    lcs: Tuple[str, ...] = ()
    sentences: Tuple[SentenceHits, ...] = ()
    pred_sentence_marks: Tuple[Tuple[int, ...], ...] = ()
    checks: Tuple[Check, ...] = ()

    @property
    def cross_checked(self) -> bool:
        """Every check held (and there was at least one)."""
        return bool(self.checks) and all(c.ok for c in self.checks)


@dataclasses.dataclass(frozen=True)
class ReferenceExplanation:
    """One reference: its text and tokens, and per type the explanation. ``spans``: the character span
    of every token in ``reference`` (None when the tokenizer gives none); ``sentence_ranges`` and
    ``sentence_spans``: per sentence (rougeLsum, rougeW) its range in the text and its tokens' spans."""

    reference: str
    tokens: Tuple[str, ...]
    types: Dict[str, TypeExplanation]
    spans: Optional[Tuple[Span, ...]] = None
    sentence_ranges: Optional[Tuple[Span, ...]] = None
    sentence_spans: Optional[Tuple[Tuple[Span, ...], ...]] = None


@dataclasses.dataclass(frozen=True)
class Explanation:
    """What :func:`explain` returns; ``combined`` is the example's score over all references
    (the ``multi_ref`` mode of the signature), equal to ``Rouge.score``."""

    prediction: str
    pred_tokens: Tuple[str, ...]
    pred_sentences: Tuple[Tuple[str, ...], ...]
    references: List[ReferenceExplanation]
    combined: Dict[str, Score]
    multi_ref: str
    signature: str
    combined_checks: Tuple[Check, ...] = ()
    pred_spans: Optional[Tuple[Span, ...]] = None
    pred_sentence_ranges: Optional[Tuple[Span, ...]] = None
    pred_sentence_spans: Optional[Tuple[Tuple[Span, ...], ...]] = None
    #: Why the display shows tokens instead of the original text (empty when every text has spans).
    spans_note: str = ""

    @property
    def has_spans(self) -> bool:
        """Every text's tokens have character spans: the display can highlight the original text."""
        return not self.spans_note

    @property
    def cross_checked(self) -> bool:
        """Every check of every type and reference held, and the combined scores were re-derived."""
        return all(te.cross_checked for ref in self.references for te in ref.types.values()) \
            and all(c.ok for c in self.combined_checks)

    def failed_checks(self) -> List[str]:
        """``"<where>: <check>: <detail>"`` for every check that did not hold."""
        out = [f"reference {k}, {t}: {c.name}: {c.detail}" for k, ref in enumerate(self.references, 1)
               for t, te in ref.types.items() for c in te.checks if not c.ok]
        return out + [f"combined: {c.name}: {c.detail}" for c in self.combined_checks if not c.ok]

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-serialisable dict (tuples become lists), with ``cross_checked`` at every level."""
        out = dataclasses.asdict(self)
        out["combined"] = {t: sc._asdict() for t, sc in self.combined.items()}
        out["cross_checked"] = self.cross_checked
        for ref, rd in zip(self.references, out["references"]):
            for t, te in ref.types.items():
                rd["types"][t]["score"] = te.score._asdict()
                rd["types"][t]["cross_checked"] = te.cross_checked
                for m, md in zip(te.matches, rd["types"][t]["matches"]):
                    md["clipped"] = m.clipped
        return out

    def to_html(self, scale: float = 100.0, tokens: bool = False) -> str:
        """A self-contained HTML fragment: the matches highlighted in both texts (one colour per rouge
        type, a legend), the P/R/F table with the counts, and whether the cross-checks held. The texts
        are the user's own (``tokens=True``: the normalized tokens the scorer compares). All text is
        HTML-escaped (:func:`rouge_metric.explain.render_html.explanation_html`)."""
        return explanation_html(self, scale=scale, tokens=tokens)

    def _repr_html_(self) -> str:
        """The notebook view: :meth:`to_html` (the explanation's one renderer, with its scoped style)."""
        return explanation_html(self)

    def format(self, color: bool = False, scale: float = 100.0, tokens: bool = False) -> str:
        """A report for the terminal: the matched words highlighted in the original texts (ANSI colours,
        or [brackets] plain; ``tokens=True``: in the normalized tokens)."""
        return format_text(self, color=color, scale=scale, tokens=tokens)

    def __str__(self) -> str:
        return self.format()


# ---------------------------------------------------------------------------------------- evidence
def _tuple(unit: Hashable) -> Tuple[str, ...]:
    return unit if isinstance(unit, tuple) else (unit,)


def _matches(pc: Counter, rc: Counter, order: Sequence[Hashable]) -> Tuple[UnitMatch, ...]:
    seen = set()
    out = []
    for u in order:  # first-occurrence order in the prediction
        if u in seen or u not in rc:
            continue
        seen.add(u)
        out.append(UnitMatch(_tuple(u), pc[u], rc[u]))
    return tuple(out)


def _ngram_positions(tokens: Sequence[str], n: int, clip: Dict[Tuple[str, ...], int]) -> Tuple[int, ...]:
    """Token positions covered by the first ``clip[ngram]`` occurrences of each matched n-gram."""
    left = dict(clip)
    marks = set()
    for i in range(len(tokens) - n + 1):
        g = tuple(tokens[i:i + n])
        if left.get(g, 0) > 0:
            left[g] -= 1
            marks.update(range(i, i + n))
    return tuple(sorted(marks))


def _embed(seq: Sequence[str], tokens: Sequence[str]) -> Tuple[int, ...]:
    """Leftmost positions of ``seq`` as a subsequence of ``tokens`` (it is one: an LCS)."""
    out, j = [], 0
    for t in seq:
        while tokens[j] != t:
            j += 1
        out.append(j)
        j += 1
    return tuple(out)


def _union_lcs_hits(ref_sents, pred_sents) -> Tuple[SentenceHits, ...]:
    """rougeLsum evidence: the steps of :func:`core_py.union_lcs_overlap`, keeping the positions."""
    cnt_r = core_py.token_counts(ref_sents)
    cnt_c = core_py.token_counts(pred_sents)
    cands = [(c, core_py.match_masks(c)) for c in pred_sents if c]
    out = []
    for k, r in enumerate(ref_sents):
        marked = core_py.union_lcs_marks(r, cands) if r else []
        hits = core_py.clip_hits(r, marked, cnt_r, cnt_c)
        out.append(SentenceHits(k, tuple(r), tuple(marked), tuple(hits)))
    return tuple(out)


def _wlcs_marks(ref_sents, pred_sents, weight: float) -> Tuple[SentenceHits, ...]:
    """rougeW evidence: weighted-LCS path positions per reference sentence, and the clipped ones."""
    cnt_r = core_py.token_counts(ref_sents)
    cnt_c = core_py.token_counts(pred_sents)
    out = []
    for k, r in enumerate(ref_sents):
        mask = [0] * len(r)
        for c in pred_sents:
            if c and not set(r).isdisjoint(c):
                core_py.wlcs_mark(r, c, weight, mask)
        marked = [i for i, m in enumerate(mask) if m]
        hits = core_py.clip_hits(r, marked, cnt_r, cnt_c)
        out.append(SentenceHits(k, tuple(r), tuple(marked), tuple(hits)))
    return tuple(out)


def _pred_union_marks(ref_sents, pred_sents) -> Tuple[Tuple[int, ...], ...]:
    """rougeLsum, prediction side: per prediction sentence, its positions on an LCS with some reference
    sentence (:func:`core_py.lcs_indices` with the roles swapped)."""
    out = []
    for c in pred_sents:
        marks = set()
        if c:
            pm = core_py.match_masks(c)
            for r in ref_sents:
                if r and not pm.keys().isdisjoint(r):
                    marks.update(core_py.lcs_indices(c, r))
        out.append(tuple(sorted(marks)))
    return tuple(out)


# -------------------------------------------------------------------------------------- explain
def _locate(pipeline: Any, text: str, view: Tuple[Any, Any], toks: List[str], sents: List[List[str]]
            ) -> Tuple[Optional[Tuple[Span, ...]], Optional[Tuple[Span, ...]], Optional[Tuple[Tuple[Span, ...], ...]]]:
    """The character spans of ``toks`` in ``text`` and, when the view has sentences, each sentence's
    range and token spans; None where the pipeline gives none (or they do not line up with the tokens)."""
    finder = getattr(pipeline, "token_spans", None)
    if finder is None:
        return None, None, None
    ranges = sent_spans = None
    if view[1] is not None:
        located = pipeline.sentence_spans(text)
        if located is not None and [len(sp) for _, sp in located] == [len(x) for x in sents]:
            ranges = tuple(r for r, _ in located)
            sent_spans = tuple(tuple(sp) for _, sp in located)
    if view[0] is not None:
        spans = finder(text)
    else:
        spans = [x for sp in sent_spans for x in sp] if sent_spans is not None else None
    if spans is None or len(spans) != len(toks):
        return None, None, None
    if view[1] is not None and sent_spans is None:
        return None, None, None
    return tuple(spans), ranges, sent_spans


def _flat(view) -> Tuple[List[str], List[List[str]]]:
    toks, sents = view
    if toks is None:
        toks = [t for s in sents for t in s]
    return list(toks), [list(s) for s in sents] if sents is not None else [list(toks)]


def explain(*, prediction: str, references: Any, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
            config: Optional[RougeConfig] = None, backend: Optional[str] = None,
            **options: Any) -> Explanation:
    """Explain the score of one example (``options`` are :class:`RougeConfig` fields).

    The statistics come from the scorer's kernels (``backend`` as in :class:`Rouge`); the evidence from
    the pure-Python kernels of :mod:`rouge_metric.core_py`. Their counts agree (tested).
    """
    rouge = Rouge(rouge_types, config=config, backend=backend, **options)
    check_prediction(prediction, 0, "prediction")
    refs = normalize_references(references, 0, "references")
    pv = rouge.process(prediction)
    p_toks, p_sents = _flat(pv)
    p_located = _locate(rouge.pipeline, prediction, pv, p_toks, p_sents)
    located_all = p_located[0] is not None
    cfg = rouge.config
    alpha = cfg.alpha if cfg.alpha is not None else 1.0 / (1.0 + cfg.beta * cfg.beta)
    invs = {sp.name: (1.0 / sp.weight if sp.kind == "wlcs" else 1.0) for sp in rouge.specs}
    ref_out = []
    for r in refs:
        rv = rouge.process(r)
        r_toks, r_sents = _flat(rv)
        r_spans, r_ranges, r_sent_spans = _locate(rouge.pipeline, r, rv, r_toks, r_sents)
        located_all = located_all and r_spans is not None
        stats = rouge.pair_stats(pv, rv)
        ref_scores = rouge.score_stats(stats)
        types: Dict[str, TypeExplanation] = {}
        for spec, st in zip(rouge.specs, stats):
            hit, pt, rt = st[0], st[1], st[2]
            base = dict(rouge_type=spec.name, kind=spec.kind, hit=hit, pred_total=pt, ref_total=rt,
                        score=ref_scores[spec.name])
            if spec.kind == "ngram":
                pc, rc = core_py.ngram_counts(p_toks, spec.n), core_py.ngram_counts(r_toks, spec.n)
                order = [tuple(p_toks[i:i + spec.n]) if spec.n > 1 else p_toks[i]
                         for i in range(len(p_toks) - spec.n + 1)]
                matches = _matches(pc, rc, order)
                clip = {m.unit: m.clipped for m in matches}
                te = TypeExplanation(**base, matches=matches,
                                     pred_positions=_ngram_positions(p_toks, spec.n, clip),
                                     ref_positions=_ngram_positions(r_toks, spec.n, clip))
            elif spec.kind == "skip":
                pc, _ = core_py.skip_bigram_counts(p_toks, spec.skip, spec.unigrams)
                rc, _ = core_py.skip_bigram_counts(r_toks, spec.skip, spec.unigrams)
                te = TypeExplanation(**base, matches=_matches(pc, rc, list(pc)))
            elif spec.kind == "lcs":
                idx = core_py.lcs_indices(r_toks, p_toks)
                lcs = tuple(r_toks[i] for i in idx)
                te = TypeExplanation(**base, lcs=lcs, ref_positions=tuple(idx),
                                     pred_positions=_embed(lcs, p_toks))
            elif spec.kind == "lcsum":
                te = TypeExplanation(**base, sentences=_union_lcs_hits(r_sents, p_sents),
                                     pred_sentence_marks=_pred_union_marks(r_sents, p_sents))
            else:  # wlcs
                te = TypeExplanation(**base, sentences=_wlcs_marks(r_sents, p_sents, spec.weight))
            te = dataclasses.replace(te, checks=cross_check(te, p_toks, p_sents, r_toks, r_sents, alpha,
                                                            invs[spec.name]))
            types[spec.name] = te
        ref_out.append(ReferenceExplanation(r, tuple(r_toks), types, r_spans, r_ranges, r_sent_spans))
    combined = rouge.score(prediction=prediction, references=refs)
    note = ""
    if not located_all:
        note = ("the custom tokenizer gives no character spans" if not isinstance(cfg.tokenizer, str)
                else "some tokens could not be located in the text")
    return Explanation(
        prediction=prediction, pred_tokens=tuple(p_toks), pred_sentences=tuple(tuple(s) for s in p_sents),
        references=ref_out, combined=combined, multi_ref=rouge.config.multi_ref, signature=rouge.signature(),
        combined_checks=combined_checks(combined, ref_out, rouge.config.multi_ref, alpha, invs),
        pred_spans=p_located[0], pred_sentence_ranges=p_located[1], pred_sentence_spans=p_located[2],
        spans_note=note,
    )

