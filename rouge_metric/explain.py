"""Why a score is what it is: matched n-grams, LCS tokens and positions, rougeLsum union-LCS hits.

:func:`explain` runs the scorer's own text pipeline and kernels on one example and returns an
:class:`Explanation`: per reference and rouge type the sufficient statistics exactly as the scorer
computes them (``hit``, ``pred_total``, ``ref_total`` from :func:`rouge_metric.scoring.pair_stats`)
plus the evidence behind ``hit``:

* rougeN / rougeS / rougeSU: the shared units with their counts in both texts; the hit is the sum of
  the clipped counts ``min(pred_count, ref_count)``;
* rougeL: the LCS (rouge-score's choice, :func:`rouge_metric.core_py.lcs_indices`) with its token
  positions in the reference and a matching embedding in the prediction (leftmost occurrences);
* rougeLsum: per reference sentence, the union of its LCS positions against every prediction
  sentence and which of them count as hits after the unigram clipping of ROUGE-1.5.5 / rouge-score;
* rougeW: per reference sentence, the positions on the weighted-LCS paths.

The display (:meth:`Explanation.format`, :meth:`Explanation.to_html`) shows the user's own text with the
matched words highlighted: every token carries the character span it came from
(:meth:`rouge_metric.text.TextPipeline.token_spans`: the named tokenizers give spans, stemming and
stopwords keep them); ``tokens=True`` shows the tokens as the scorer sees them (after lower-casing and
stemming) instead, and so does a custom tokenizer callable, which gives no spans (the display says so).
Positions in the explanation are token positions either way. Every explanation is
cross-checked (:func:`cross_check`): P/R/F re-derived from its counts with ROUGE-1.5.5's general F
formula, the evidence adding up to the hit, each LCS verified as a common subsequence of both texts;
``Explanation.cross_checked`` says whether all held. :meth:`Explanation.to_html` renders it with the
matches highlighted in both texts (the Hub Space and ``rouge-metric explain --html`` show that).

>>> ex = explain(prediction="the cat sat on the mat", references="the cat lay on the mat",
...              rouge_types=["rouge2", "rougeL"])
>>> d = ex.references[0].types["rouge2"]
>>> [(" ".join(m.unit), m.clipped) for m in d.matches], d.hit
([('the cat', 1), ('on the', 1), ('the mat', 1)], 3)
>>> l = ex.references[0].types["rougeL"]
>>> l.lcs, l.ref_positions, l.pred_positions
(('the', 'cat', 'on', 'the', 'mat'), (0, 1, 3, 4, 5), (0, 1, 3, 4, 5))
>>> print(ex.format(color=False).splitlines()[2])
  rouge2     P=60.00 R=60.00 F=60.00  hits 3 / pred 5 / ref 5
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Dict, Hashable, List, Optional, Sequence, Tuple

from . import core_py
from .config import DEFAULT_ROUGE_TYPES, RougeConfig
from .result import Score
from .scoring import Rouge, check_prediction, normalize_references, pair_stats


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
class Check:
    """One cross-check of an explanation: ``name`` says what was verified, ``ok`` whether it held,
    ``detail`` what differed (empty when it held)."""

    name: str
    ok: bool
    detail: str = ""


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


#: A character span ``(start, end)`` in a text.
Span = Tuple[int, int]


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
        HTML-escaped."""
        return _html(self, scale, tokens or not self.has_spans)

    def format(self, color: bool = False, scale: float = 100.0, tokens: bool = False) -> str:
        """A report for the terminal: the matched words highlighted in the original texts (ANSI colours,
        or [brackets] plain; ``tokens=True``: in the normalized tokens)."""
        return _format(self, color, scale, tokens or not self.has_spans)

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
    cands = [(c, core_py._match_masks(c)) for c in pred_sents if c]
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
                core_py._wlcs_mark(r, c, weight, mask)
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
            pm = core_py._match_masks(c)
            for r in ref_sents:
                if r and not pm.keys().isdisjoint(r):
                    marks.update(core_py.lcs_indices(c, r))
        out.append(tuple(sorted(marks)))
    return tuple(out)


# ----------------------------------------------------------------------------------- cross-checks
def _f_general(p: float, r: float, alpha: float) -> float:
    """ROUGE-1.5.5's general F: PR / ((1 - alpha) P + alpha R); Fβ is alpha = 1 / (1 + β²)."""
    d = (1.0 - alpha) * p + alpha * r
    return p * r / d if d > 0 else 0.0


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _prf(hit: float, pred_total: float, ref_total: float, alpha: float, inv: float = 1.0) -> Score:
    p = core_py.wpow(hit / pred_total, inv) if pred_total else 0.0
    r = core_py.wpow(hit / ref_total, inv) if ref_total else 0.0
    return Score(p, r, _f_general(p, r, alpha))


def _score_check(got: Score, want: Score) -> Check:
    ok = all(_close(a, b) for a, b in zip(got, want))
    return Check("P/R/F re-derived from the counts", ok, "" if ok else f"scorer {tuple(got)} != re-derived {tuple(want)}")


def _is_subsequence(seq: Sequence[str], tokens: Sequence[str]) -> bool:
    it = iter(tokens)
    return all(any(t == u for u in it) for t in seq)


def _positions_check(name: str, positions: Sequence[int], tokens: Sequence[str], want: Sequence[str]) -> Check:
    ok = list(positions) == sorted(set(positions)) and all(0 <= i < len(tokens) for i in positions) \
        and tuple(tokens[i] for i in positions) == tuple(want)
    return Check(name, ok, "" if ok else f"positions {list(positions)} do not spell {list(want)}")


def cross_check(te: TypeExplanation, pred_tokens: Sequence[str], pred_sents: Sequence[Sequence[str]],
                ref_tokens: Sequence[str], ref_sents: Sequence[Sequence[str]], alpha: float,
                inv: float = 1.0) -> Tuple[Check, ...]:
    """Verify one type's explanation independently of the scorer's arithmetic.

    Always: P, R and F re-derived from ``hit / pred_total / ref_total`` with ROUGE-1.5.5's general F
    formula (``alpha``; F1 is alpha = 0.5) equal the scorer's. Per kind: the n-gram matches recounted
    from the token lists and their clipped counts summing to the hit (rougeN, rougeS/SU: the sum); the
    LCS spelled by its positions in both texts, increasing, of the hit's length (rougeL); per
    reference sentence the LCS with every prediction sentence recomputed, checked to be a common
    subsequence of the two, their union equal to the marked positions, the hits a subset summing to
    the hit (rougeLsum); hits within marks (rougeW). O(the explanation's own cost).
    """
    checks = [_score_check(te.score, _prf(te.hit, te.pred_total, te.ref_total, alpha, inv))]
    kind = te.kind
    if kind in ("ngram", "skip"):
        total = sum(m.clipped for m in te.matches)
        ok = total == te.hit and all(m.pred_count > 0 and m.ref_count > 0 for m in te.matches)
        checks.append(Check("clipped matches add up to the hit", ok, "" if ok else f"{total} != {te.hit}"))
    if kind == "ngram":
        n = len(te.matches[0].unit) if te.matches else 0
        if n:
            def count(tokens):
                c: Counter = Counter()
                for i in range(len(tokens) - n + 1):
                    c[tuple(tokens[i:i + n])] += 1
                return c
            pc, rc = count(pred_tokens), count(ref_tokens)
            bad = [" ".join(m.unit) for m in te.matches if (pc[m.unit], rc[m.unit]) != (m.pred_count, m.ref_count)]
            checks.append(Check("n-gram counts recounted in both texts", not bad, ", ".join(bad)))
    elif kind == "lcs":
        ok = len(te.lcs) == te.hit
        checks.append(Check("LCS length is the hit", ok, "" if ok else f"{len(te.lcs)} != {te.hit}"))
        checks.append(_positions_check("LCS is a subsequence of the prediction", te.pred_positions, pred_tokens, te.lcs))
        checks.append(_positions_check("LCS is a subsequence of the reference", te.ref_positions, ref_tokens, te.lcs))
    elif kind == "lcsum":
        bad = []
        for s, r in zip(te.sentences, ref_sents):
            union = set()
            for c in pred_sents:
                idx = core_py.lcs_indices(list(r), list(c)) if r and c else []
                if not _is_subsequence([r[i] for i in idx], c):
                    bad.append(f"sentence {s.index + 1}: LCS not in a prediction sentence")
                union.update(idx)
            if tuple(sorted(union)) != s.marked or not set(s.hits) <= set(s.marked):
                bad.append(f"sentence {s.index + 1}: union {sorted(union)} vs marked {list(s.marked)}")
        total = sum(len(s.hits) for s in te.sentences)
        if total != te.hit:
            bad.append(f"hits {total} != {te.hit}")
        checks.append(Check("union-LCS: every LCS a common subsequence, hits add up", not bad, "; ".join(bad)))
    elif kind == "wlcs":
        ok = all(set(s.hits) <= set(s.marked) for s in te.sentences) \
            and (te.hit == 0) == (sum(len(s.hits) for s in te.sentences) == 0)
        checks.append(Check("weighted-LCS hits lie on the marked paths", ok))
    return tuple(checks)


def _combined_checks(combined: Dict[str, Score], refs: List["ReferenceExplanation"], mode: str,
                     alpha: float, invs: Dict[str, float]) -> Tuple[Check, ...]:
    """The example's score re-derived from the per-reference explanations (``multi_ref`` mode)."""
    out = []
    for t, got in combined.items():
        per = [ref.types[t] for ref in refs]
        if mode == "pool" or len(per) == 1:
            want = _prf(sum(te.hit for te in per), sum(te.pred_total for te in per),
                        sum(te.ref_total for te in per), alpha, invs[t])
            ok = all(_close(a, b) for a, b in zip(got, want))
        elif mode == "max":
            best = per[0].score
            for te in per[1:]:
                if te.score.fmeasure > best.fmeasure:
                    best = te.score
            ok = all(_close(a, b) for a, b in zip(got, best))
        elif mode == "mean":
            ok = all(_close(got[i], sum(te.score[i] for te in per) / len(per)) for i in range(3))
        else:  # best_recall: the score of one of the references
            ok = any(all(_close(a, b) for a, b in zip(got, te.score)) for te in per)
        out.append(Check(f"{t}: combined over references ({mode}) re-derived", ok,
                         "" if ok else f"combined {tuple(got)} not re-derived"))
    return tuple(out)


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
        combined_checks=_combined_checks(combined, ref_out, rouge.config.multi_ref, alpha, invs),
        pred_spans=p_located[0], pred_sentence_ranges=p_located[1], pred_sentence_spans=p_located[2],
        spans_note=note,
    )


# --------------------------------------------------------------------------------------- display
_GREEN, _YELLOW, _BOLD, _DIM, _RESET = "\x1b[1;32m", "\x1b[33m", "\x1b[1m", "\x1b[2m", "\x1b[0m"


class _Shown:
    """One text as the display shows it: its tokens, and (original mode) the text with the character
    span of every token and the range shown (a sentence's, or the whole text)."""

    def __init__(self, tokens: Sequence[str], text: Optional[str] = None,
                 spans: Optional[Sequence[Span]] = None, rng: Optional[Span] = None) -> None:
        self.tokens = tokens
        self.text = text if spans is not None else None
        self.spans = spans
        self.rng = rng if rng is not None else (0, len(text or ""))

    def pieces(self) -> List[Tuple[str, Optional[int]]]:
        """``(text, token position or None for the characters between tokens)`` in order."""
        if self.text is None:
            out: List[Tuple[str, Optional[int]]] = []
            for i, t in enumerate(self.tokens):
                if i:
                    out.append((" ", None))
                out.append((t, i))
            return out
        out, pos = [], self.rng[0]
        for i, (a, b) in enumerate(self.spans or ()):
            if a > pos:
                out.append((self.text[pos:a], None))
            out.append((self.text[a:b], i))
            pos = b
        if self.rng[1] > pos:
            out.append((self.text[pos:self.rng[1]], None))
        return out

    def words(self, positions: Sequence[int]) -> List[str]:
        """The shown form of the tokens at ``positions`` (the original words, or the tokens)."""
        if self.text is None:
            return [self.tokens[i] for i in positions]
        return [self.text[self.spans[i][0]:self.spans[i][1]] for i in positions]  # type: ignore[index]

    def unit(self, unit: Sequence[str], sep: str) -> str:
        """A matched unit in the shown form: each token as the first word of this text that gave it."""
        if self.text is None:
            return sep.join(unit)
        first: Dict[str, int] = {}
        for i, t in enumerate(self.tokens):
            first.setdefault(t, i)
        return sep.join(self.words([first[t]])[0] if t in first else t for t in unit)


def _pred_shown(ex: "Explanation", original: bool) -> _Shown:
    return _Shown(ex.pred_tokens, ex.prediction, ex.pred_spans if original else None)


def _ref_shown(ref: "ReferenceExplanation", original: bool) -> _Shown:
    return _Shown(ref.tokens, ref.reference, ref.spans if original else None)


def _sentence_shown(tokens: Sequence[str], text: str, ranges: Optional[Sequence[Span]],
                    spans: Optional[Sequence[Sequence[Span]]], k: int, original: bool) -> _Shown:
    if not original or ranges is None or spans is None:
        return _Shown(tokens)
    return _Shown(tokens, text, spans[k], ranges[k])


def _mark(shown: _Shown, hits: Sequence[int], color: bool, weak: Sequence[int] = ()) -> str:
    hs, ws = set(hits), set(weak) - set(hits)
    out = []
    for t, i in shown.pieces():
        if i is None:
            out.append(t)
        elif i in hs:
            out.append(f"{_GREEN}{t}{_RESET}" if color else f"[{t}]")
        elif i in ws:
            out.append(f"{_YELLOW}{t}{_RESET}" if color else f"({t})")
        else:
            out.append(t)
    return "".join(out).replace("\r\n", "\n").replace("\n", " ⏎ ")


def _fmt_score(sc: Score, scale: float) -> str:
    return f"P={sc.precision * scale:.2f} R={sc.recall * scale:.2f} F={sc.fmeasure * scale:.2f}"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.4g}"


def _format(ex: Explanation, color: bool, scale: float, tokens: bool) -> str:
    b = (lambda s: f"{_BOLD}{s}{_RESET}") if color else (lambda s: s)
    original = not tokens
    pred = _pred_shown(ex, original)
    lines = [b("prediction") + ": " + _mark(pred, (), False)]
    width = max(len(t) for t in ex.combined)
    for k, ref in enumerate(ex.references, 1):
        rs = _ref_shown(ref, original)
        lines.append(b(f"reference {k}") + ": " + _mark(rs, (), False))
        for t, te in ref.types.items():
            lines.append(f"  {t:<{width}}  {_fmt_score(te.score, scale)}  hits {_num(te.hit)} / pred "
                         f"{_num(te.pred_total)} / ref {_num(te.ref_total)}")
            if te.kind in ("ngram", "skip") and te.matches:
                units = ", ".join(
                    pred.unit(m.unit, "..." if te.kind == "skip" and len(m.unit) == 2 else " ")
                    + f" x{m.clipped}" + (f" (pred {m.pred_count}, ref {m.ref_count})"
                                          if m.pred_count != m.ref_count else "")
                    for m in te.matches)
                lines.append(f"    matched (clipped counts): {units}")
            if te.kind == "ngram":
                lines.append("    pred: " + _mark(pred, te.pred_positions, color))
                lines.append("    ref:  " + _mark(rs, te.ref_positions, color))
            elif te.kind == "lcs":
                lines.append(f"    LCS ({len(te.lcs)}): {' '.join(rs.words(te.ref_positions))}")
                lines.append(f"    pred positions {list(te.pred_positions)}: "
                             + _mark(pred, te.pred_positions, color))
                lines.append(f"    ref positions  {list(te.ref_positions)}: "
                             + _mark(rs, te.ref_positions, color))
            elif te.kind in ("lcsum", "wlcs"):
                what = "union-LCS" if te.kind == "lcsum" else "weighted-LCS"
                for s in te.sentences:
                    clipped = len(s.marked) - len(s.hits)
                    shown = _sentence_shown(s.tokens, ref.reference, ref.sentence_ranges, ref.sentence_spans,
                                            s.index, original)
                    lines.append(f"    ref sentence {s.index + 1}: {what} {list(s.marked)}, hits {len(s.hits)}"
                                 + (f" ({clipped} clipped)" if clipped else "") + ": "
                                 + _mark(shown, s.hits, color, weak=s.marked))
    if len(ex.references) > 1:
        lines.append(b(f"combined over references (multi_ref={ex.multi_ref})") + ":")
        for t, sc in ex.combined.items():
            lines.append(f"  {t:<{width}}  {_fmt_score(sc, scale)}")
    if ex.cross_checked:
        lines.append("cross-checked: P/R/F re-derived from the counts; every LCS a common subsequence of both texts")
    else:
        lines.append("NOT cross-checked: " + "; ".join(ex.failed_checks()))
    lines.append(_shown_note(ex, original, "--tokens"))
    lines.append(ex.signature)
    return "\n".join(lines)


def _shown_note(ex: Explanation, original: bool, how: str) -> str:
    """What the display shows; ``how`` names the switch to the normalized tokens."""
    if original:
        return f"shown: your texts, the words whose tokens match highlighted (the normalized tokens: {how})"
    why = f" ({ex.spans_note})" if ex.spans_note else ""
    return "shown: the tokens as the scorer sees them (tokenizer, lower-casing, stemming)" + why


# ------------------------------------------------------------------------------------------ HTML
#: Highlight colour per rouge type family (the legend shows the types present). Readable on white.
TYPE_COLORS = {"ngram1": "#93c5fd", "ngram2": "#86efac", "ngram": "#5eead4", "lcs": "#fdba74",
               "lcsum": "#d8b4fe", "wlcs": "#f9a8d4", "skip": "#fde047"}
_CSS = """
.rm-explain{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:14px;line-height:1.9;color:#111}
.rm-explain table{border-collapse:collapse;margin:.4em 0}
.rm-explain th,.rm-explain td{border:1px solid #d4d4d8;padding:2px 8px;text-align:right}
.rm-explain th:first-child,.rm-explain td:first-child{text-align:left}
.rm-status{padding:4px 8px;border-radius:6px;margin:.3em 0;font-weight:600}
.rm-ok{background:#dcfce7;color:#14532d}.rm-bad{background:#fee2e2;color:#7f1d1d}
.rm-legend span{display:inline-block;margin-right:12px}
.rm-swatch{display:inline-block;width:1em;height:1em;border-radius:3px;vertical-align:-2px;margin-right:4px}
.rm-type{border-left:4px solid var(--c);padding:2px 10px;margin:.5em 0}
.rm-head{font-weight:600}.rm-note{color:#52525b;font-size:12px}
.rm-label{display:inline-block;min-width:7em;color:#52525b;font-size:12px}
.rm-tok{padding:1px 2px;border-radius:3px}
.rm-text{white-space:pre-wrap;overflow-wrap:anywhere}
mark.rm-hit{background:var(--c);color:#111}
mark.rm-clipped{background:transparent;outline:2px dashed var(--c);color:#111}
.rm-chip{display:inline-block;background:var(--c);border-radius:10px;padding:0 8px;margin:1px 3px;font-size:12px}
.rm-sig{color:#71717a;font-size:11px;word-break:break-all}
"""


def type_color(te: TypeExplanation) -> str:
    """The highlight colour of a rouge type (rouge1, rouge2 and longer n-grams differ)."""
    if te.kind == "ngram":
        n = len(te.matches[0].unit) if te.matches else int(te.rouge_type[len("rouge"):])
        return TYPE_COLORS.get(f"ngram{n}", TYPE_COLORS["ngram"])
    return TYPE_COLORS[te.kind]


def _h(x: Any) -> str:
    import html

    return html.escape(str(x), quote=True)


def _tokens_html(shown: _Shown, hits: Sequence[int], side: str, weak: Sequence[int] = ()) -> str:
    hs, ws = set(hits), set(weak) - set(hits)
    out = []
    for t, i in shown.pieces():
        if i is None:
            out.append(_h(t))
        elif i in hs:
            out.append(f'<mark class="rm-tok rm-hit" data-side="{side}" data-pos="{i}">{_h(t)}</mark>')
        elif i in ws:
            out.append(f'<mark class="rm-tok rm-clipped" data-side="{side}" data-pos="{i}">{_h(t)}</mark>')
        else:
            out.append(f'<span class="rm-tok">{_h(t)}</span>')
    if not shown.tokens:
        out.append('<span class="rm-note">(no tokens)</span>')
    cls = "rm-text" if shown.text is not None else "rm-tokens"
    return f'<span class="{cls}">' + "".join(out) + "</span>"


def _row(label: str, body: str) -> str:
    return f'<div class="rm-row"><span class="rm-label">{_h(label)}</span>{body}</div>'


def _pct(x: float, scale: float) -> str:
    return f"{x * scale:.2f}"


def _type_html(ex: Explanation, ref: ReferenceExplanation, te: TypeExplanation, scale: float, original: bool) -> str:
    color = type_color(te)
    sc = te.score
    head = (f'<div class="rm-head">{_h(te.rouge_type)} <span class="rm-note">P {_pct(sc.precision, scale)} · '
            f'R {_pct(sc.recall, scale)} · F {_pct(sc.fmeasure, scale)} · hits {_num(te.hit)} / prediction '
            f'{_num(te.pred_total)} / reference {_num(te.ref_total)}</span></div>')
    body = []
    pred, rs = _pred_shown(ex, original), _ref_shown(ref, original)
    if te.kind in ("ngram", "skip") and te.matches:
        sep = " … " if te.kind == "skip" else " "
        chips = "".join(
            f'<span class="rm-chip" title="{_h(sep.join(m.unit))}: prediction {m.pred_count}, reference '
            f'{m.ref_count}">{_h(pred.unit(m.unit, sep))} ×{m.clipped}</span>' for m in te.matches)
        body.append(_row("matched", chips))
    if te.kind == "ngram":
        body.append(_row("prediction", _tokens_html(pred, te.pred_positions, "pred")))
        body.append(_row("reference", _tokens_html(rs, te.ref_positions, "ref")))
    elif te.kind == "lcs":
        body.append(_row(f"LCS ({len(te.lcs)})", _h(" ".join(rs.words(te.ref_positions)))
                         or '<span class="rm-note">(empty)</span>'))
        body.append(_row("prediction", _tokens_html(pred, te.pred_positions, "pred")))
        body.append(_row("reference", _tokens_html(rs, te.ref_positions, "ref")))
    elif te.kind in ("lcsum", "wlcs"):
        if te.kind == "lcsum":
            for k, (toks, marks) in enumerate(zip(ex.pred_sentences, te.pred_sentence_marks)):
                shown = _sentence_shown(toks, ex.prediction, ex.pred_sentence_ranges, ex.pred_sentence_spans, k,
                                        original)
                body.append(_row(f"prediction s{k + 1}", _tokens_html(shown, marks, "pred")))
        for s in te.sentences:
            clipped = len(s.marked) - len(s.hits)
            label = f"reference s{s.index + 1}"
            note = f' <span class="rm-note">hits {len(s.hits)}' + (f", {clipped} clipped" if clipped else "") + "</span>"
            shown = _sentence_shown(s.tokens, ref.reference, ref.sentence_ranges, ref.sentence_spans, s.index,
                                    original)
            body.append(_row(label, _tokens_html(shown, s.hits, "ref", weak=s.marked) + note))
    elif te.kind == "skip" and not te.matches:
        body.append(_row("matched", '<span class="rm-note">(none)</span>'))
    return (f'<div class="rm-type" data-type="{_h(te.rouge_type)}" style="--c:{color}">' + head + "".join(body)
            + "</div>")


def _html(ex: Explanation, scale: float, tokens: bool) -> str:
    original = not tokens
    parts = [f"<style>{_CSS}</style>", '<div class="rm-explain">']
    if ex.cross_checked:
        parts.append('<div class="rm-status rm-ok" data-cross-checked="true">✓ cross-checked: P/R/F re-derived '
                     "from the counts below; every LCS verified as a common subsequence of both texts</div>")
    else:
        parts.append('<div class="rm-status rm-bad" data-cross-checked="false">✗ not cross-checked: '
                     + _h("; ".join(ex.failed_checks())) + "</div>")
    # score table: the example's score (combined over references) and the counts per reference
    multi = len(ex.references) > 1
    head = "<tr><th>type</th><th>precision</th><th>recall</th><th>F</th>" + "".join(
        f"<th>hits / pred / ref{f' (ref {k})' if multi else ''}</th>" for k in range(1, len(ex.references) + 1)) + "</tr>"
    rows = []
    for t, sc in ex.combined.items():
        cells = "".join(f"<td>{_num(r.types[t].hit)} / {_num(r.types[t].pred_total)} / {_num(r.types[t].ref_total)}</td>"
                        for r in ex.references)
        rows.append(f'<tr data-type="{_h(t)}"><td>{_h(t)}</td><td>{_pct(sc.precision, scale)}</td>'
                    f"<td>{_pct(sc.recall, scale)}</td><td>{_pct(sc.fmeasure, scale)}</td>{cells}</tr>")
    caption = f"<caption>scores ×{scale:g}" + (f", combined over references (multi_ref={_h(ex.multi_ref)})"
                                                 if multi else "") + "</caption>"
    parts.append(f'<table class="rm-scores">{caption}{head}{"".join(rows)}</table>')
    counts = [f"prediction: {len(ex.pred_tokens)} tokens"] + [
        f"reference {k}: {len(r.tokens)} tokens" for k, r in enumerate(ex.references, 1)]
    parts.append(f'<div class="rm-note rm-counts">{_h(" · ".join(counts))}</div>')
    # legend: one swatch per type present, and the clipped style
    first = ex.references[0].types
    legend = "".join(f'<span><span class="rm-swatch" style="background:{type_color(te)}"></span>{_h(t)}</span>'
                     for t, te in first.items())
    if any(te.kind in ("lcsum", "wlcs") for te in first.values()):
        legend += ('<span><span class="rm-swatch" style="outline:2px dashed #71717a"></span>on an LCS, '
                   "clipped (not counted)</span>")
    parts.append(f'<div class="rm-legend">{legend}</div>')
    for k, ref in enumerate(ex.references, 1):
        parts.append(f'<div class="rm-ref" data-ref="{k}"><div class="rm-head">reference {k}</div>')
        parts.extend(_type_html(ex, ref, te, scale, original) for te in ref.types.values())
        parts.append("</div>")
    parts.append(f'<div class="rm-note rm-shown" data-shown="{"text" if original else "tokens"}">'
                 f'{_h(_shown_note(ex, original, "the tokens option"))}</div>'
                 f'<div class="rm-sig">{_h(ex.signature)}</div></div>')
    return "".join(parts)
