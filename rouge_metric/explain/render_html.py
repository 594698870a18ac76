"""HTML rendering of an explanation: markup and CSS, one renderer for the Hub Space, ``rouge-metric
explain --html`` and any page that shows explanations (:func:`explanation_html`)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Sequence

from .shown import Shown, number, pred_shown, ref_shown, sentence_shown, shown_note

if TYPE_CHECKING:  # annotations only: the records import their renderers, not the reverse
    from .evidence import Explanation, ReferenceExplanation, TypeExplanation


#: Highlight colour per rouge type family (the legend shows the types present). Readable on white.
TYPE_COLORS = {"ngram1": "#93c5fd", "ngram2": "#86efac", "ngram": "#5eead4", "lcs": "#fdba74",
               "lcsum": "#d8b4fe", "wlcs": "#f9a8d4", "skip": "#fde047"}
#: The style of the fragments of :func:`explanation_html` (every rule scoped to ``rm-`` classes).
CSS = """
.rm-explain{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:14px;line-height:1.9;color:#111}
.rm-explain table{border-collapse:collapse;margin:.4em 0}
.rm-explain th,.rm-explain td{border:1px solid #d4d4d8;padding:2px 8px;text-align:right}
.rm-explain th:first-child,.rm-explain td:first-child{text-align:left}
.rm-scroll{overflow-x:auto;max-width:100%}
.rm-explain .rm-scroll table.rm-scores :is(th,td){white-space:nowrap;padding:2px 8px}
@media (max-width:480px){.rm-explain .rm-scroll table.rm-scores :is(th,td){padding:2px 5px}}
.rm-status{padding:4px 8px;border-radius:6px;margin:.3em 0;font-weight:600}
.rm-ok{background:#dcfce7;color:#14532d}.rm-bad{background:#fee2e2;color:#7f1d1d}
.rm-warn{background:#fef9c3;color:#713f12;font-weight:400}
.rm-legend span{display:inline-block;margin-right:12px}
.rm-swatch{display:inline-block;width:1em;height:1em;border-radius:3px;vertical-align:-2px;margin-right:4px}
.rm-type{border-left:4px solid var(--c);padding:2px 10px;margin:.5em 0}
.rm-head{font-weight:600}.rm-note{color:#52525b;font-size:12px}
.rm-label{display:inline-block;min-width:7em;color:#52525b;font-size:12px}
.rm-tok{border-radius:3px}
mark.rm-tok{padding:1px 1px}
.rm-text{white-space:pre-wrap;overflow-wrap:anywhere}
mark.rm-hit{background:var(--c);color:#111}
mark.rm-clipped{background:transparent;outline:2px dashed var(--c);color:#111}
.rm-chip{display:inline-block;background:var(--c);border-radius:10px;padding:0 8px;margin:1px 3px;font-size:12px}
.rm-sig{color:#71717a;font-size:11px;word-break:break-all}
"""


def type_color(te: "TypeExplanation") -> str:
    """The highlight colour of a rouge type (rouge1, rouge2 and longer n-grams differ)."""
    if te.kind == "ngram":
        n = len(te.matches[0].unit) if te.matches else int(te.rouge_type[len("rouge"):])
        return TYPE_COLORS.get(f"ngram{n}", TYPE_COLORS["ngram"])
    return TYPE_COLORS[te.kind]


def _h(x: Any) -> str:
    """``x`` as HTML text or attribute value: ``& < > " '`` escaped."""
    return html.escape(str(x), quote=True)


def _tokens_html(shown: Shown, hits: Sequence[int], side: str, weak: Sequence[int] = ()) -> str:
    """The shown text with every token a ``<span>``, ``hits`` as ``<mark class="rm-hit">`` and the other
    ``weak`` positions as ``<mark class="rm-clipped">`` (``side``: ``pred`` or ``ref``, with the position)."""
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


def _type_html(ex: "Explanation", ref: "ReferenceExplanation", te: "TypeExplanation", scale: float,
               original: bool) -> str:
    """One rouge type against one reference: its scores and counts, the matched units, the highlights."""
    color = type_color(te)
    sc = te.score
    head = (f'<div class="rm-head">{_h(te.rouge_type)} <span class="rm-note">P {_pct(sc.precision, scale)} · '
            f'R {_pct(sc.recall, scale)} · F {_pct(sc.fmeasure, scale)} · hits {number(te.hit)} / prediction '
            f'{number(te.pred_total)} / reference {number(te.ref_total)}</span></div>')
    body = []
    pred, rs = pred_shown(ex, original), ref_shown(ref, original)
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
                shown = sentence_shown(toks, ex.prediction, ex.pred_sentence_ranges, ex.pred_sentence_spans, k,
                                       original)
                body.append(_row(f"prediction s{k + 1}", _tokens_html(shown, marks, "pred")))
        for s in te.sentences:
            clipped = len(s.marked) - len(s.hits)
            label = f"reference s{s.index + 1}"
            note = f' <span class="rm-note">hits {len(s.hits)}' + (f", {clipped} clipped" if clipped else "") + "</span>"
            shown = sentence_shown(s.tokens, ref.reference, ref.sentence_ranges, ref.sentence_spans, s.index,
                                   original)
            body.append(_row(label, _tokens_html(shown, s.hits, "ref", weak=s.marked) + note))
    elif te.kind == "skip" and not te.matches:
        body.append(_row("matched", '<span class="rm-note">(none)</span>'))
    return (f'<div class="rm-type" data-type="{_h(te.rouge_type)}" style="--c:{color}">' + head + "".join(body)
            + "</div>")


def explanation_html(ex: "Explanation", scale: float = 100.0, tokens: bool = False, css: bool = True) -> str:
    """One example's explanation as an HTML fragment (one ``<div class="rm-explain">``): whether the
    cross-checks held, the P/R/F table with the counts per reference, which tokens could not be
    mapped back to the text (they are not highlighted; ``Explanation.unlocated_note``), a legend, and
    per reference and rouge type the matches highlighted in both texts (one colour per type; for rougeLsum every
    sentence, clipped union-LCS positions dashed), then the signature. Every piece of user text (texts,
    tokens, the signature, check details) is HTML-escaped; the fragment holds no script, link or
    attribute taken from user text. ``scale`` multiplies the scores (100: percent, 2 decimals);
    ``tokens=True`` (and a text without character spans) shows the normalized tokens instead of the
    user's texts. The score table scrolls sideways inside its own box where the page is narrower (a
    phone). ``css=False`` leaves out the ``<style>`` element (:data:`CSS`), for a page that holds
    many fragments and includes the style once. What :meth:`Explanation.to_html`, the Hub Space and
    ``rouge-metric explain --html`` show."""
    original = not tokens and ex.has_spans
    parts = ([f"<style>{CSS}</style>"] if css else []) + ['<div class="rm-explain">']
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
        cells = "".join(f"<td>{number(r.types[t].hit)} / {number(r.types[t].pred_total)} / {number(r.types[t].ref_total)}</td>"
                        for r in ex.references)
        rows.append(f'<tr data-type="{_h(t)}"><td>{_h(t)}</td><td>{_pct(sc.precision, scale)}</td>'
                    f"<td>{_pct(sc.recall, scale)}</td><td>{_pct(sc.fmeasure, scale)}</td>{cells}</tr>")
    caption = f"<caption>scores ×{scale:g}" + (f", combined over references (multi_ref={_h(ex.multi_ref)})"
                                                 if multi else "") + "</caption>"
    parts.append(f'<div class="rm-scroll"><table class="rm-scores">{caption}{head}{"".join(rows)}</table></div>')
    counts = [f"prediction: {len(ex.pred_tokens)} tokens"] + [
        f"reference {k}: {len(r.tokens)} tokens" for k, r in enumerate(ex.references, 1)]
    parts.append(f'<div class="rm-note rm-counts">{_h(" · ".join(counts))}</div>')
    if original and ex.unlocated_note:  # said before the texts, where the missing highlight is seen
        parts.append(f'<div class="rm-status rm-warn rm-unlocated">{_h(ex.unlocated_note)}</div>')
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
                 f'{_h(shown_note(ex, original, "the tokens option", unlocated=False))}</div>'
                 f'<div class="rm-sig">{_h(ex.signature)}</div></div>')
    return "".join(parts)
