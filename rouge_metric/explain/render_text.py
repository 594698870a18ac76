"""Text rendering of an explanation: the terminal report of ``rouge-metric explain`` (ANSI or plain)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..result import Score
from .shown import Shown, number, pred_shown, ref_shown, sentence_shown, shown_note

if TYPE_CHECKING:  # annotations only: the records import their renderers, not the reverse
    from .evidence import Explanation

#: ANSI styles: hits, clipped union-LCS positions, headings.
_GREEN, _YELLOW, _BOLD, _RESET = "\x1b[1;32m", "\x1b[33m", "\x1b[1m", "\x1b[0m"


def _mark(shown: Shown, hits: Sequence[int], color: bool, weak: Sequence[int] = ()) -> str:
    """The shown text with ``hits`` highlighted and the other ``weak`` positions marked as clipped; line
    breaks as ``⏎``."""
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


def format_text(ex: "Explanation", color: bool = False, scale: float = 100.0, tokens: bool = False) -> str:
    """A report of one explanation for the terminal: per reference and type P/R/F with the counts, the
    matched units, and the matched words highlighted in the user's texts (ANSI colours with ``color``,
    else hits as ``[word]`` and clipped union-LCS positions as ``(word)``); ``tokens=True`` (and a text
    without character spans) shows the normalized tokens instead. What :meth:`Explanation.format` and
    ``rouge-metric explain`` print."""
    b = (lambda s: f"{_BOLD}{s}{_RESET}") if color else (lambda s: s)
    original = not tokens and ex.has_spans
    pred = pred_shown(ex, original)
    lines = [b("prediction") + ": " + _mark(pred, (), False)]
    width = max(len(t) for t in ex.combined)
    for k, ref in enumerate(ex.references, 1):
        rs = ref_shown(ref, original)
        lines.append(b(f"reference {k}") + ": " + _mark(rs, (), False))
        for t, te in ref.types.items():
            lines.append(f"  {t:<{width}}  {_fmt_score(te.score, scale)}  hits {number(te.hit)} / pred "
                         f"{number(te.pred_total)} / ref {number(te.ref_total)}")
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
                    shown = sentence_shown(s.tokens, ref.reference, ref.sentence_ranges, ref.sentence_spans,
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
    lines.append(shown_note(ex, original, "--tokens"))
    lines.append(ex.signature)
    return "\n".join(lines)

