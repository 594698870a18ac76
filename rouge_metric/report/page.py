"""The report page: one self-contained HTML document (style, script, charts and data inline; nothing is
fetched) built from a :class:`~rouge_metric.report.data.ReportData`.

Every piece of user text (texts, system names, the call) enters the markup through :func:`esc`, or as
JSON through :func:`script_json` and then the page's ``textContent``; the examples' explanations are
:func:`rouge_metric.explain.explanation_html` fragments, the one renderer of explanations.

What the file keeps, whatever the number of examples (the size rule):

* the examples table holds every example up to ``max_examples``, beyond it a seeded sample of
  ``max_examples`` (:func:`~rouge_metric.report.stats.sample_indices`) plus the largest gains and losses;
* each text is cut for display at :func:`text_chars` characters (at most :data:`TEXT_CHARS`; less when the
  table's texts would pass :data:`TEXT_BUDGET`), and at most :data:`MAX_REFS_SHOWN` references are shown;
  the scores always use the full texts;
* explanations (every system's) are embedded (gzip, base64) for at most ``explain_examples``
  (:data:`EXPLAIN_EXAMPLES`) of the table's examples, chosen by :func:`explained_examples`: all of them
  when the table is that small, otherwise the largest gains and losses, the :data:`EXPLAIN_EXTREMES` lowest
  and highest first-type F of every system, and a seeded sample; an example whose texts pass
  :data:`EXPLAIN_MAX_CHARS` characters gets none, and embedding stops at :data:`EXPLAIN_BUDGET` bytes;
* charts are binned histograms and scatter plots of at most
  :data:`~rouge_metric.report.plots.SCATTER_POINTS` points per system.
"""

from __future__ import annotations

import base64
import html
import json
import zlib
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..explain import CSS as EXPLAIN_CSS
from ..explain import explain, explanation_html
from . import plots, stats
from .assets import CSS, JS
from .data import ReportData

#: Longest text shown in the examples table, in characters (the display only).
TEXT_CHARS = 1000
#: The texts of the table take at most about this many characters (the cut shrinks, down to 200).
TEXT_BUDGET = 3_000_000
#: References shown per example.
MAX_REFS_SHOWN = 4
#: Examples with a longer text get no embedded explanation (an explanation's markup grows with the text).
EXPLAIN_MAX_CHARS = 5000
#: Bytes of compressed explanations a file embeds at most (base64 text).
EXPLAIN_BUDGET = 5_000_000
#: Examples of the table whose explanations (of every system) a file embeds, by default: explaining an
#: example runs the pure-Python evidence and renderer (about 2 ms per system for a news summary), so the
#: number of explanations, not n, sets the time of this step.
EXPLAIN_EXAMPLES = 100
#: Among them, per system, the table's examples with the lowest and with the highest F of the first type.
EXPLAIN_EXTREMES = 10
#: Why an example has no embedded explanation (the ``x`` of a row; 0: embedded).
NOT_EXPLAINED = {"too_long": 1, "over_budget": 2, "not_chosen": 3}


def esc(x: Any) -> str:
    """``x`` as HTML text or attribute value: ``& < > " '`` escaped."""
    return html.escape(str(x), quote=True)


def script_json(obj: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: ``<``, ``>``, ``&``, U+2028 and U+2029
    escaped as ``\\uXXXX`` (no ``</script>`` or ``<!--`` can appear; still valid JSON)."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def text_chars(rows: int, texts_per_row: int) -> int:
    """The display cut of the table's texts: :data:`TEXT_CHARS`, shrunk so that ``rows * texts_per_row``
    texts stay within :data:`TEXT_BUDGET` characters, never below 200."""
    return max(200, min(TEXT_CHARS, TEXT_BUDGET // max(1, rows * texts_per_row)))


def _cut(text: str, limit: int) -> Tuple[str, bool]:
    return (text, False) if len(text) <= limit else (text[:limit] + "…", True)


def _pct(x: Optional[float]) -> str:
    return "—" if x is None else f"{x * 100:.2f}"


def _r(x: Optional[float]) -> str:
    return "—" if x is None else f"{x:+.3f}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], left: Any = 1, attrs: str = "", cls: str = "") -> str:
    """An HTML table; cells are already-escaped HTML; the first ``left`` columns (or the columns
    in ``left``, a tuple) align left; ``cls``: more
    classes, ``attrs``: more attributes (escaped by the caller)."""
    lefts = set(range(left)) if isinstance(left, int) else set(left)
    th = "".join(f'<th class="l">{h}</th>' if k in lefts else f"<th>{h}</th>" for k, h in enumerate(head))
    body = "".join("<tr>" + "".join(f'<td class="l">{c}</td>' if k in lefts else f"<td>{c}</td>"
                                    for k, c in enumerate(r)) + "</tr>" for r in rows)
    return f'<div class="rm-scroll"><table class="rm-t{" " + cls if cls else ""}"{attrs}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>'


# ------------------------------------------------------------------------------------------ sections
def header(d: ReportData, *, title: str, call: str, version: str, date: str, fingerprint: str) -> str:
    cfg = d.rouge.config
    items = [("signature", f'<code>{esc(d.rouge.signature())}</code>'), ("examples (n)", f"{d.n:,}"),
             ("systems", esc(", ".join(d.names))), ("rouge_metric", esc(version)), ("date (UTC)", esc(date)),
             ("reproduce", f"<code>{esc(call)}</code>"), ("inputs (sha256)", f'<code>{esc(fingerprint)}</code>'),
             ("intervals", esc(f"{cfg.confidence_level * 100:g}% bootstrap percentile intervals, "
                               f"{cfg.n_resamples} resamples, seed {cfg.seed}"))]
    meta = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
    nav = ['<a href="#corpus">corpus</a>', '<a href="#distributions">distributions</a>',
           '<a href="#length">length</a>'] + (['<a href="#systems">systems</a>'] if len(d.names) > 1 else []) + [
        '<a href="#examples">examples</a>']
    return f'<header><h1>{esc(title)}</h1><dl class="rm-meta">{meta}</dl><nav>{"".join(nav)}</nav></header>'


def corpus_section(d: ReportData) -> str:
    level = d.rouge.config.confidence_level
    rows = []
    for nm in d.names:
        res = d.systems[nm].result
        for t in d.types:
            sc, ci = res.scores[t], res.ci[t]
            cells = [f"{getattr(sc, s) * 100:.2f} <span class=\"rm-note\">[{getattr(ci.low, s) * 100:.2f}, "
                     f"{getattr(ci.high, s) * 100:.2f}]</span>" for s in ("precision", "recall", "fmeasure")]
            rows.append([esc(nm), esc(t)] + cells)
    lens = [[esc(nm), f"{d.systems[nm].result.pred_len:.1f}", f"{d.systems[nm].result.ref_len:.1f}",
             f"{d.systems[nm].result.pred_len / d.systems[nm].result.ref_len:.2f}"
             if d.systems[nm].result.ref_len else "—"] for nm in d.names]
    return ('<section id="corpus"><h2>Corpus scores</h2>'
            f'<p class="rm-note">Exact means of the per-example scores ×100, with {level * 100:g}% seeded bootstrap '
            "intervals in brackets.</p>"
            + _table(["system", "type", "precision", "recall", "F"], rows, left=2, attrs=' id="rm-corpus"')
            + "<h3>Mean lengths (tokens, as the scorer counts them)</h3>"
            + _table(["system", "prediction", "reference", "ratio"], lens) + "</section>")


def _figure(name: str, svg: str, caption: str) -> str:
    return f'<figure data-chart="{name}">{svg}<figcaption>{caption}</figcaption></figure>'


def distributions_section(d: ReportData) -> str:
    svg = plots.distributions(d.types, d.names, lambda nm, t: d.systems[nm].f(t))
    return ('<section id="distributions"><h2>Distributions</h2><div class="rm-charts">'
            + _figure("distributions", svg, "Per-example F of every rouge type (×100, bins of 5), one line per "
                      "system.") + "</div></section>")


def length_section(d: ReportData, seed: int) -> str:
    t0 = d.types[0]
    sampled = d.n > plots.SCATTER_POINTS
    pts = (f" Points: a seeded sample of {plots.SCATTER_POINTS:,} of the {d.n:,} examples; the binned means and "
           "the correlations use all of them." if sampled else "")
    lens = plots.lengths(d.names, lambda nm: d.systems[nm].pred_len, d.ref_len, seed)
    svl = plots.score_vs_length(t0, d.names, lambda nm: d.systems[nm].f(t0), lambda nm: d.systems[nm].pred_len,
                                lambda nm: d.ratio[nm], seed)
    corr_rows = [[esc(nm), esc(t), _r(c.pearson_len), _r(c.spearman_len), _r(c.pearson_ratio), _r(c.spearman_ratio),
                  f"{c.r2 * 100:.0f}%"] for nm in d.names for t, c in d.correlations[nm].items()]
    corr = _table(["system", "type", "Pearson (length)", "Spearman (length)", "Pearson (ratio)",
                   "Spearman (ratio)", "largest r²"], corr_rows, left=2, attrs=' id="rm-correlations"')
    missing = int((~(d.ref_len > 0)).sum())
    buckets = []
    for nm in d.names:
        rows = [[esc(label), f"{count:,}"] + [_pct(means[t]) for t in d.types] for label, count, means in d.buckets[nm]]
        buckets.append((f"<h3>{esc(nm)}</h3>" if len(d.names) > 1 else "")
                       + _table(["length ratio", "examples"] + [f"mean {esc(t)} F" for t in d.types], rows,
                                cls="rm-buckets"))
    note_cls = "rm-flag" if d.length_flagged else "rm-ok"
    return ('<section id="length"><h2>Length</h2>'
            f'<p class="{note_cls}" id="rm-length-note">{esc(d.length_note)}</p>'
            '<div class="rm-charts">'
            + _figure("lengths", lens, "Prediction length against reference length (tokens as the scorer counts them; "
                      "with several references, their mean)." + pts)
            + _figure("score-vs-length", svl, f"{esc(t0)} F against the prediction length and against the length "
                      "ratio, with the mean F in 20 quantile bins of all examples." + pts)
            + "</div><h3>Correlation of per-example F with length</h3>" + corr
            + '<p class="rm-note">Length ratio: prediction length / mean reference length. r²: the larger squared '
              "Pearson correlation, the share of the variance of F that length explains linearly."
            + (f" {missing:,} example(s) whose references have no token have no ratio." if missing else "") + "</p>"
            + "<h3>Length-ratio buckets</h3>" + "".join(buckets) + "</section>")


def deltas_chart(d: ReportData) -> str:
    """The SVG of the per-example F deltas of every compared system (no paired test needed)."""
    return plots.deltas(d.types, d.names[1:], lambda nm, t: d.deltas[nm][t])


def systems_section(d: ReportData, snippet: Any, deltas_svg: Optional[str] = None) -> str:
    """The comparison of every system with the baseline (empty with one system); ``deltas_svg``: the
    chart of :func:`deltas_chart` when already drawn."""
    if len(d.names) < 2:
        return ""
    base = d.baseline
    boot, ar = d.comparisons["paired_bootstrap"], d.comparisons["approximate_randomization"]
    level = boot.confidence_level
    rows = []
    for nm in d.names[1:]:
        for t in d.types:
            cb, ca = boot.comparisons[nm][t]["fmeasure"], ar.comparisons[nm][t]["fmeasure"]
            w, ti, lo = d.wins[nm][t]
            cls = "rm-pos" if cb.delta > 0 else "rm-neg" if cb.delta < 0 else ""
            rows.append([esc(nm), esc(t), f"{cb.baseline * 100:.2f}", f"{cb.system * 100:.2f}",
                         f'<span class="{cls}">{cb.delta * 100:+.2f}</span>',
                         f"[{cb.ci_low * 100:+.2f}, {cb.ci_high * 100:+.2f}]", f"{cb.p_value:.4f}",
                         f"{ca.p_value:.4f}", f"{w:,} / {ti:,} / {lo:,}"])
    sig = _table(["system", "type", f"{esc(base)} F", "system F", "Δ F", f"{level * 100:g}% CI of Δ",
                  "p (paired bootstrap)", "p (approx. randomization)", "wins / ties / losses"], rows, left=2,
                 attrs=' id="rm-significance"')
    ex_note = "exact: every assignment enumerated" if ar.exact else f"{ar.n_resamples:,} trials"
    svg = deltas_svg if deltas_svg is not None else deltas_chart(d)
    t0 = d.types[0]
    lists = []
    for nm in d.names[1:]:
        for what, idx in (("gains", d.gains[nm]), ("losses", d.losses[nm])):
            rows = [[f"{i}", f"{d.systems[base].f(t0)[i] * 100:.2f}", f"{d.systems[nm].f(t0)[i] * 100:.2f}",
                     f"{d.deltas[nm][t0][i] * 100:+.2f}", f'<span class="rm-snip">{esc(snippet(nm, i))}</span>',
                     f'<button class="rm-open" data-example="{i}">open</button>'] for i in idx]
            body = _table(["#", f"{esc(base)}", esc(nm), "Δ", "prediction", ""], rows, left=(0, 4),
                          cls=f"rm-{what}", attrs=f' data-system="{esc(nm)}"') if rows else \
                '<p class="rm-note">none</p>'
            lists.append(f"<h3>Largest {what}: {esc(nm)} against {esc(base)} ({esc(t0)} F ×100)</h3>{body}")
    return ('<section id="systems"><h2>Systems compared</h2>'
            f'<p class="rm-note">Each system against the baseline <b>{esc(base)}</b> on the same references, F ×100. '
            f"Δ = system − baseline (exact means); the interval is the paired bootstrap percentile interval; "
            f"p-values are two-sided, paired bootstrap ({boot.n_resamples:,} resamples) and approximate randomization "
            f"({ex_note}), seed {boot.seed}, as rouge_metric.compare computes them (the smallest p-value "
            f"{boot.n_resamples:,} resamples can give is 1/{boot.n_resamples + 1:,} = {1 / (boot.n_resamples + 1):.4f}); "
            "each row is tested on its own (no "
            "correction for multiple comparisons). Wins / ties / losses count examples whose F is higher / equal / "
            "lower than the baseline's.</p>" + sig
            + f'<p class="rm-note rm-sig"><code>{esc(boot.signature)}</code><br><code>{esc(ar.signature)}</code></p>'
            + '<div class="rm-charts">'
            + _figure("deltas", svg, "Per-example F delta (system − baseline, ×100, bins of 5) per rouge type.")
            + "</div>" + "".join(lists) + "</section>")


def explained_examples(d: ReportData, keep: Any, limit: int, seed: int) -> List[int]:
    """The examples of the table (``keep``) whose explanations the file embeds, sorted: every one when
    the table holds at most ``limit`` examples (none when ``limit`` is 0). Otherwise, always the largest
    gains and losses of every compared system and, per system, the :data:`EXPLAIN_EXTREMES` examples of
    the table with the lowest and with the highest F of the first rouge type (equal F in index order);
    then a seeded sample of the other examples of the table,
    ``numpy.random.default_rng(seed).choice(rest, k, replace=False)`` (``rest`` sorted), up to ``limit``
    examples in all (the forced examples alone may be more)."""
    import numpy as np

    keep = np.asarray(keep, dtype=np.int64)
    if limit <= 0:
        return []
    if keep.size <= limit:
        return [int(i) for i in keep]
    chosen = set(forced_examples(d))
    t0 = d.types[0]
    for nm in d.names:
        f = d.systems[nm].f(t0)[keep]
        chosen.update(int(i) for i in keep[np.argsort(f, kind="stable")[:EXPLAIN_EXTREMES]])
        chosen.update(int(i) for i in keep[np.argsort(-f, kind="stable")[:EXPLAIN_EXTREMES]])
    rest = np.asarray([i for i in keep.tolist() if i not in chosen], dtype=np.int64)
    k = min(limit - len(chosen), rest.size)
    if k > 0:
        chosen.update(int(i) for i in np.random.default_rng(seed).choice(rest, size=k, replace=False))
    return sorted(chosen)


def explained_rule(limit: int, seed: int) -> str:
    """The sentence that states :func:`explained_examples`' rule."""
    if limit <= 0:
        return "No explanation is embedded (explain_examples=0)."
    return (f"Explanations are embedded for {limit:,} examples of the table (all of them when it holds no more; "
            "more when the gains, losses and extremes below alone exceed that): "
            f"the largest gains and losses, the {EXPLAIN_EXTREMES} lowest and {EXPLAIN_EXTREMES} highest "
            f"first-type F of every system, and a seeded sample of the others "
            f"(numpy.random.default_rng({seed}).choice(rest, k, replace=False)); rows marked ◆ carry theirs. "
            "rouge-metric explain shows any example.")


def examples_data(d: ReportData, keep: Any, budget: int = EXPLAIN_BUDGET, explain_examples: int = EXPLAIN_EXAMPLES,
                  seed: int = 0) -> Tuple[Dict[str, Any], Optional[str], Dict[str, int]]:
    """The examples table's JSON, the base64 gzip of the explanations (None when none is embedded), and
    counts (``cut``: texts cut for display, ``explained``: explanations embedded, ``too_long``,
    ``over_budget``, ``not_chosen``: explanations left out, per system). Explanations are embedded for the
    examples of :func:`explained_examples`."""
    ns = len(d.names)
    chosen = set(explained_examples(d, keep, explain_examples, seed))
    refs_shown = [min(len(d.references[i]), MAX_REFS_SHOWN) for i in keep]
    per_row = ns + (max(refs_shown) if refs_shown else 1)
    limit = text_chars(len(keep), per_row)
    comp = zlib.compressobj(6, zlib.DEFLATED, 31)  # gzip container, what DecompressionStream("gzip") reads
    chunks: List[bytes] = [comp.compress(b"[")]
    size = 0
    counts = {"cut": 0, "explained": 0, "too_long": 0, "over_budget": 0, "not_chosen": 0}
    rows = []
    scores = [[d.systems[nm].f(t) for t in d.types] for nm in d.names]
    for k, i in enumerate(int(x) for x in keep):
        refs = d.references[i]
        preds = [d.predictions[nm][i] for nm in d.names]
        shown_p = [_cut(p, limit) for p in preds]
        shown_r = [_cut(r, limit) for r in refs[:MAX_REFS_SHOWN]]
        cut = sum(c for _, c in shown_p + shown_r)
        counts["cut"] += cut
        status, frags = [], []
        ref_long = max(len(r) for r in refs) > EXPLAIN_MAX_CHARS
        for nm, p in zip(d.names, preds):
            why = ("not_chosen" if i not in chosen else "too_long" if ref_long or len(p) > EXPLAIN_MAX_CHARS
                   else "over_budget" if size > budget else None)
            if why is None:
                ex = explain(prediction=p, references=refs, config=d.rouge.config, backend=d.rouge.backend)
                frags.append(explanation_html(ex, css=False))
                status.append(0)
                counts["explained"] += 1
            else:
                frags.append(None)
                status.append(NOT_EXPLAINED[why])
                counts[why] += 1
        piece = (b"," if k else b"") + json.dumps(frags, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        out = comp.compress(piece)
        chunks.append(out)
        size += len(out) * 4 // 3
        rows.append({"i": i, "k": k, "p": [s for s, _ in shown_p], "r": [s for s, _ in shown_r],
                     "more": len(refs) - len(shown_r), "cut": bool(cut),
                     "s": [[float(f[i]) for f in per_sys] for per_sys in scores], "x": status})
    chunks.append(comp.compress(b"]"))
    chunks.append(comp.flush())
    blob = base64.b64encode(b"".join(chunks)).decode("ascii") if counts["explained"] else None
    data = {"types": d.types, "systems": d.names, "rows": rows, "textChars": limit, "explainChars": EXPLAIN_MAX_CHARS,
            "explainBudget": f"{budget / 1e6:g} MB", "explainRule": explained_rule(explain_examples, seed)}
    return data, blob, counts


def examples_section(d: ReportData, keep: Any, counts: Dict[str, int], limit: int, max_examples: int,
                     seed: int, explain_examples: int = EXPLAIN_EXAMPLES) -> str:
    notes = []
    if len(keep) < d.n or d.n > max_examples:
        notes.append(f"The file holds {len(keep):,} of the {d.n:,} examples: a seeded sample of {max_examples:,} "
                     f"(numpy.random.default_rng({seed}).choice(n, {max_examples}, replace=False))"
                     + (" plus the largest gains and losses" if len(d.names) > 1 else "")
                     + "; every chart and number above uses all examples.")
    else:
        notes.append(f"All {d.n:,} examples.")
    if counts["cut"]:
        notes.append(f"{counts['cut']:,} text(s) longer than {limit:,} characters are cut in this display "
                     "(the scores use the full texts).")
    if counts["not_chosen"] or explain_examples <= 0:
        notes.append(explained_rule(explain_examples, seed))
    if counts["too_long"] or counts["over_budget"]:
        notes.append(f"Explanations left out: {counts['too_long']:,} for texts over {EXPLAIN_MAX_CHARS:,} characters, "
                     f"{counts['over_budget']:,} beyond the file's {EXPLAIN_BUDGET / 1e6:g} MB budget "
                     "(rouge-metric explain shows any example).")
    notes.append("Click a column to sort, a row to see its explanation: the matched n-grams and the LCS "
                 "highlighted in the texts. The filter matches text (or #index).")
    return ('<section id="examples"><h2>Examples</h2>'
            + "".join(f'<p class="rm-note">{esc(n)}</p>' for n in notes)
            + '<div class="rm-controls"><input type="search" id="rm-filter" placeholder="filter by text or #index" '
              'aria-label="filter examples">'
              '<button id="rm-prev" type="button">‹ prev</button><button id="rm-next" type="button">next ›</button>'
              '<label class="rm-note">rows <select id="rm-size"><option>10</option><option selected>25</option>'
              '<option>50</option><option>100</option></select></label>'
              '<span class="rm-note" id="rm-pageinfo" aria-live="polite"></span></div>'
              '<div class="rm-scroll"><table class="rm-t" id="rm-examples"><thead></thead><tbody></tbody></table></div>'
              '<div id="rm-detail" hidden aria-live="polite"></div>'
              "</section>")


def document(body: str, title: str, data_json: str, blob: Optional[str]) -> str:
    """The whole page. The Content-Security-Policy forbids every fetch (``default-src 'none'``) and allows
    only the inline style and script of the file itself."""
    csp = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'none'; "
           "connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'")
    ex = f'<script type="application/octet-stream" id="rm-explanations">{blob}</script>' if blob else ""
    return ("<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{csp}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{CSS}{EXPLAIN_CSS}</style></head>"
            f"<body><main>{body}</main>"
            f'<script type="application/json" id="rm-data">{data_json}</script>{ex}'
            f"<script>{JS}</script></body></html>\n")


def snippet_fn(d: ReportData, chars: int = 120) -> Any:
    def snippet(nm: str, i: int) -> str:
        return _cut(d.predictions[nm][i], chars)[0]
    return snippet


def forced_examples(d: ReportData) -> List[int]:
    """The examples every table keeps: the largest gains and losses of every system."""
    return sorted({i for nm in d.names[1:] for i in d.gains[nm] + d.losses[nm]})


def sample(d: ReportData, max_examples: int, seed: int) -> Any:
    return stats.sample_indices(d.n, max_examples, seed, forced_examples(d))
