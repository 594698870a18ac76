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

Tokens are shown as the scorer sees them (after lower-casing and stemming).

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
class TypeExplanation:
    """One rouge type against one reference: the scorer's statistics and their evidence."""

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


@dataclasses.dataclass(frozen=True)
class ReferenceExplanation:
    reference: str
    tokens: Tuple[str, ...]
    types: Dict[str, TypeExplanation]


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

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-serialisable dict (tuples become lists)."""
        out = dataclasses.asdict(self)
        out["combined"] = {t: sc._asdict() for t, sc in self.combined.items()}
        for ref, rd in zip(self.references, out["references"]):
            for t, te in ref.types.items():
                rd["types"][t]["score"] = te.score._asdict()
                for m, md in zip(te.matches, rd["types"][t]["matches"]):
                    md["clipped"] = m.clipped
        return out

    def format(self, color: bool = False, scale: float = 100.0) -> str:
        """A report for the terminal: matched tokens highlighted (ANSI colours, or [brackets] plain)."""
        return _format(self, color, scale)

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
    ref_out = []
    for r in refs:
        rv = rouge.process(r)
        r_toks, r_sents = _flat(rv)
        stats = pair_stats(rouge.specs, rouge._kernels, pv, rv)
        types: Dict[str, TypeExplanation] = {}
        for spec, ts, st in zip(rouge.specs, rouge._type_scorers, stats):
            hit, pt, rt = st[0], st[1], st[2]
            base = dict(rouge_type=spec.name, kind=spec.kind, hit=hit, pred_total=pt, ref_total=rt,
                        score=ts.score(hit, pt, rt))
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
                te = TypeExplanation(**base, sentences=_union_lcs_hits(r_sents, p_sents))
            else:  # wlcs
                te = TypeExplanation(**base, sentences=_wlcs_marks(r_sents, p_sents, spec.weight))
            types[spec.name] = te
        ref_out.append(ReferenceExplanation(r, tuple(r_toks), types))
    return Explanation(
        prediction=prediction, pred_tokens=tuple(p_toks), pred_sentences=tuple(tuple(s) for s in p_sents),
        references=ref_out, combined=rouge.score(prediction=prediction, references=refs),
        multi_ref=rouge.config.multi_ref, signature=rouge.signature(),
    )


# --------------------------------------------------------------------------------------- display
_GREEN, _YELLOW, _BOLD, _DIM, _RESET = "\x1b[1;32m", "\x1b[33m", "\x1b[1m", "\x1b[2m", "\x1b[0m"


def _mark(tokens: Sequence[str], hits: Sequence[int], color: bool, weak: Sequence[int] = ()) -> str:
    hs, ws = set(hits), set(weak) - set(hits)
    out = []
    for i, t in enumerate(tokens):
        if i in hs:
            out.append(f"{_GREEN}{t}{_RESET}" if color else f"[{t}]")
        elif i in ws:
            out.append(f"{_YELLOW}{t}{_RESET}" if color else f"({t})")
        else:
            out.append(t)
    return " ".join(out)


def _fmt_score(sc: Score, scale: float) -> str:
    return f"P={sc.precision * scale:.2f} R={sc.recall * scale:.2f} F={sc.fmeasure * scale:.2f}"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.4g}"


def _format(ex: Explanation, color: bool, scale: float) -> str:
    b = (lambda s: f"{_BOLD}{s}{_RESET}") if color else (lambda s: s)
    lines = [b("prediction") + ": " + " ".join(ex.pred_tokens)]
    width = max(len(t) for t in ex.combined)
    for k, ref in enumerate(ex.references, 1):
        lines.append(b(f"reference {k}") + ": " + " ".join(ref.tokens))
        for t, te in ref.types.items():
            lines.append(f"  {t:<{width}}  {_fmt_score(te.score, scale)}  hits {_num(te.hit)} / pred "
                         f"{_num(te.pred_total)} / ref {_num(te.ref_total)}")
            if te.kind in ("ngram", "skip") and te.matches:
                units = ", ".join(
                    ("..." if te.kind == "skip" and len(m.unit) == 2 else " ").join(m.unit)
                    + f" x{m.clipped}" + (f" (pred {m.pred_count}, ref {m.ref_count})"
                                          if m.pred_count != m.ref_count else "")
                    for m in te.matches)
                lines.append(f"    matched (clipped counts): {units}")
            if te.kind == "ngram":
                lines.append("    pred: " + _mark(ex.pred_tokens, te.pred_positions, color))
                lines.append("    ref:  " + _mark(ref.tokens, te.ref_positions, color))
            elif te.kind == "lcs":
                lines.append(f"    LCS ({len(te.lcs)}): {' '.join(te.lcs)}")
                lines.append(f"    pred positions {list(te.pred_positions)}: "
                             + _mark(ex.pred_tokens, te.pred_positions, color))
                lines.append(f"    ref positions  {list(te.ref_positions)}: "
                             + _mark(ref.tokens, te.ref_positions, color))
            elif te.kind in ("lcsum", "wlcs"):
                what = "union-LCS" if te.kind == "lcsum" else "weighted-LCS"
                for s in te.sentences:
                    clipped = len(s.marked) - len(s.hits)
                    lines.append(f"    ref sentence {s.index + 1}: {what} {list(s.marked)}, hits {len(s.hits)}"
                                 + (f" ({clipped} clipped)" if clipped else "") + ": "
                                 + _mark(s.tokens, s.hits, color, weak=s.marked))
    if len(ex.references) > 1:
        lines.append(b(f"combined over references (multi_ref={ex.multi_ref})") + ":")
        for t, sc in ex.combined.items():
            lines.append(f"  {t:<{width}}  {_fmt_score(sc, scale)}")
    lines.append(ex.signature)
    return "\n".join(lines)
