"""The charts of a report: matplotlib figures rendered to inline SVG (vector, text as text, no script, no
external reference, no embedded image). matplotlib comes with the ``[report]`` extra and is imported on
first use; the figures are drawn on :class:`matplotlib.figure.Figure` with the SVG canvas directly, so the
user's pyplot state and backend are untouched.

Size is bounded whatever the number of examples: histograms are binned, and the scatter plots draw a
seeded sample of at most :data:`SCATTER_POINTS` points per system (the binned means and every correlation
use all examples)."""

from __future__ import annotations

import io
import re
from typing import Any, List, Sequence

from .._lazy import require

#: Points drawn per system in a scatter plot (a seeded sample beyond it).
SCATTER_POINTS = 2000
#: Colours of the systems, in order (matplotlib's tab10: distinguishable, colour-blind aware).
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
          "#17becf")


def color(k: int) -> str:
    """The colour of the ``k``-th system."""
    return COLORS[k % len(COLORS)]


#: Longest label (system name) a chart shows, in characters; the tables show names in full.
LABEL_CHARS = 40


def label(text: str) -> str:
    """User text as a matplotlib label shown literally: cut at :data:`LABEL_CHARS`, ``$`` escaped (no
    mathtext), and a leading ``_`` kept visible (matplotlib hides legend labels that start with one)."""
    if len(text) > LABEL_CHARS:
        text = text[:LABEL_CHARS - 1] + "…"
    text = text.replace("\\", "\\\\").replace("$", r"\$")
    return "\u200b" + text if text.startswith("_") else text


def require_matplotlib() -> Any:
    """matplotlib, or an ImportError naming the ``[report]`` extra."""
    return require("matplotlib", "report", "rouge_metric.report (the HTML report's charts)")


def _figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


#: Fixed margins of every chart, in inches: left (tick labels and the y label), right, top (a panel title),
#: the x label band under each row of panels, the band of one legend row, and the gap between columns. Fixed
#: margins instead of matplotlib's constrained layout: the layout engine measures every text several times,
#: which costs about as much as drawing the chart.
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, XLABEL_BAND, LEGEND_ROW, COLUMN_GAP = 0.8, 0.12, 0.3, 0.48, 0.2, 0.72


def _layout(fig: Any, rows: int, cols: int, legend_rows: int, titles: bool = True) -> None:
    """Place ``rows`` x ``cols`` panels with the fixed margins, leaving ``legend_rows`` rows of legend at
    the bottom."""
    w, h = fig.get_size_inches()
    top = MARGIN_TOP if titles else 0.12
    bottom = XLABEL_BAND + LEGEND_ROW * legend_rows + 0.06
    row_gap = XLABEL_BAND + (MARGIN_TOP if titles else 0.12)
    ax_h = (h - top - bottom - row_gap * (rows - 1)) / rows
    ax_w = (w - MARGIN_LEFT - MARGIN_RIGHT - COLUMN_GAP * (cols - 1)) / cols
    fig.subplots_adjust(left=MARGIN_LEFT / w, right=1 - MARGIN_RIGHT / w, top=1 - top / h, bottom=bottom / h,
                        hspace=row_gap / ax_h, wspace=COLUMN_GAP / ax_w)


def _legend(fig: Any, handles: Any, labels: Any, ncols: int) -> None:
    """The legend under the panels (the band :func:`_layout` leaves), centred."""
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncols=ncols, fontsize=8,
               frameon=False)


def _legend_rows(entries: int, ncols: int) -> int:
    return -(-entries // ncols)


def to_svg(fig: Any) -> str:
    """The figure as an inline ``<svg>`` element: no XML prolog, no fixed size (the page's CSS sizes it)."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    FigureCanvasSVG(fig)
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "rouge_metric"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, count=1, flags=re.S)  # RDF boilerplate
    # the viewBox keeps the aspect ratio; CSS gives the width
    svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 class="rm-chart" role="img"', svg, count=1)
    return svg


def _count(v: float, _: Any = None) -> str:
    """A count as a tick label of bounded width: ``950``, ``12.5k``, ``1.2M``."""
    if abs(v) >= 1e6:
        return f"{v / 1e6:.3g}M"
    return f"{v / 1e3:.3g}k" if abs(v) >= 1e4 else f"{v:g}"


def _counts_axis(ax: Any) -> None:
    from matplotlib.ticker import FuncFormatter

    ax.yaxis.set_major_formatter(FuncFormatter(_count))


def _style(ax: Any) -> None:
    ax.grid(True, color="#e4e4e7", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _sample(n: int, k: int, seed: int) -> Any:
    import numpy as np

    if n <= k:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size=k, replace=False))


def _marker(n: int) -> tuple:
    """Marker size and opacity for ``n`` points: few points large and solid, many small and light."""
    if n <= 200:
        return 16.0, 0.75
    if n <= 1000:
        return 9.0, 0.45
    return 5.0, 0.25


def _grid(count: int) -> tuple:
    cols = min(count, 3)
    rows = (count + cols - 1) // cols
    return rows, cols


def distributions(types: Sequence[str], names: Sequence[str], f: Any) -> str:
    """Per rouge type, the histogram of per-example F (×100, bins of 5), one step line per system;
    ``f(name, type)`` gives the per-example F."""
    import numpy as np

    rows, cols = _grid(len(types))
    fig = _figure(9.0, 2.5 * rows + 0.4)
    axes = fig.subplots(rows, cols, squeeze=False)
    bins = np.linspace(0, 100, 21)
    for k, t in enumerate(types):
        ax = axes[k // cols][k % cols]
        for j, nm in enumerate(names):
            counts, _ = np.histogram(np.asarray(f(nm, t)) * 100, bins=bins)
            ax.stairs(counts, bins, color=color(j), linewidth=1.6, label=label(nm))
        ax.set_title(label(t), fontsize=10)
        ax.set_xlabel("F ×100")
        ax.set_ylabel("examples")
        ax.set_xlim(0, 100)
        _counts_axis(ax)
        _style(ax)
    for k in range(len(types), rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    ncols = min(len(names), 3)
    _layout(fig, rows, cols, _legend_rows(len(names), ncols) if len(names) > 1 else 0)
    if len(names) > 1:
        _legend(fig, *axes[0][0].get_legend_handles_labels(), ncols=ncols)
    return to_svg(fig)


def lengths(names: Sequence[str], pred_len: Any, ref_len: Any, seed: int) -> str:
    """Prediction length against reference length (tokens), a seeded sample of points per system, with
    the line ``prediction = reference``; ``pred_len(name)`` gives the per-example lengths."""
    import numpy as np

    fig = _figure(5.2, 4.6)
    ax = fig.subplots()
    idx = _sample(len(ref_len), SCATTER_POINTS, seed)
    top = 1.0
    for j, nm in enumerate(names):
        p = np.asarray(pred_len(nm))
        size, alpha = _marker(len(idx))
        ax.scatter(ref_len[idx], p[idx], s=size, alpha=alpha, color=color(j), linewidths=0, label=label(nm))
        top = max(top, float(np.max(p)) if p.size else 1.0)
    top = max(top, float(np.max(ref_len)) if len(ref_len) else 1.0)
    ax.plot([0, top], [0, top], color="#71717a", linewidth=1, linestyle="--", label="prediction = reference")
    ax.set_xlabel("reference length (tokens, mean over references)")
    ax.set_ylabel("prediction length (tokens)")
    _layout(fig, 1, 1, _legend_rows(len(names) + 1, 2), titles=False)
    _legend(fig, *ax.get_legend_handles_labels(), ncols=2)
    _style(ax)
    return to_svg(fig)


#: Quantile bins of the binned-mean lines (fewer for small corpora: at least 25 examples per bin).
MEAN_BINS = 20


def _binned_means(x: Any, y: Any) -> tuple:
    """Mean of ``y`` in quantile bins of ``x`` (all points, at least 25 per bin): bin centres (mean x) and
    means; empty when there are fewer than 50 points."""
    import numpy as np

    ok = np.isfinite(x)
    x, y = x[ok], y[ok]
    bins = min(MEAN_BINS, x.size // 25)
    if bins < 2:
        return np.zeros(0), np.zeros(0)
    order = np.argsort(x, kind="stable")
    parts = np.array_split(order, bins)
    return np.array([x[p].mean() for p in parts]), np.array([y[p].mean() for p in parts])


def score_vs_length(rouge_type: str, names: Sequence[str], f: Any, pred_len: Any, ratio: Any, seed: int) -> str:
    """Two panels for one rouge type: per-example F (×100) against the prediction length and against the
    length ratio (log scale), a seeded sample of points and the binned means of all examples per system."""
    import numpy as np

    fig = _figure(9.0, 4.0)
    ax_len, ax_ratio = fig.subplots(1, 2)
    n = len(np.asarray(f(names[0])))
    idx = _sample(n, SCATTER_POINTS, seed)
    for j, nm in enumerate(names):
        y = np.asarray(f(nm)) * 100
        x_len = np.asarray(pred_len(nm), dtype=np.float64)
        x_ratio = np.asarray(ratio(nm), dtype=np.float64)
        for ax, x in ((ax_len, x_len), (ax_ratio, x_ratio)):
            xs, ys = x[idx], y[idx]
            if ax is ax_ratio:
                keep = np.isfinite(xs) & (xs > 0)
                xs, ys = xs[keep], ys[keep]
            size, alpha = _marker(len(idx))
            ax.scatter(xs, ys, s=size, alpha=alpha, color=color(j), linewidths=0,
                       label=label(nm) if ax is ax_len else None)
            bx, by = _binned_means(x if ax is ax_len else np.where(x > 0, x, np.nan), y)
            if bx.size:
                ax.plot(bx, by, color=color(j), linewidth=2, label=label(nm) + " (binned mean)")
    ax_len.set_xlabel("prediction length (tokens)")
    ax_ratio.set_xlabel("length ratio (prediction / reference, log scale)")
    ax_ratio.set_xscale("log")
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    ax_ratio.xaxis.set_major_locator(FixedLocator([0.125, 0.25, 0.5, 1, 2, 4, 8]))
    ax_ratio.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax_ratio.xaxis.set_minor_locator(NullLocator())
    ax_ratio.axvline(1.0, color="#71717a", linewidth=1, linestyle="--")
    for ax in (ax_len, ax_ratio):
        ax.set_ylabel(f"{label(rouge_type)} F ×100")
        ax.set_ylim(-2, 102)
        _style(ax)
    handles, labels = ax_len.get_legend_handles_labels()
    ncols = min(2 * len(names), 4)
    _layout(fig, 1, 2, _legend_rows(len(labels), ncols), titles=False)
    _legend(fig, handles, labels, ncols=ncols)
    return to_svg(fig)


def deltas(types: Sequence[str], names: Sequence[str], delta: Any) -> str:
    """Per rouge type, the histogram of per-example F deltas (×100, system − baseline, bins of 5), one
    step line per compared system; ``delta(name, type)`` gives them."""
    import numpy as np

    rows, cols = _grid(len(types))
    fig = _figure(9.0, 2.5 * rows + 0.4)
    axes = fig.subplots(rows, cols, squeeze=False)
    bins = np.linspace(-100, 100, 41)
    for k, t in enumerate(types):
        ax = axes[k // cols][k % cols]
        for j, nm in enumerate(names, start=1):
            counts, _ = np.histogram(np.asarray(delta(nm, t)) * 100, bins=bins)
            ax.stairs(counts, bins, color=color(j), linewidth=1.6, label=label(nm))
        ax.axvline(0.0, color="#71717a", linewidth=1, linestyle="--")
        ax.set_title(label(t), fontsize=10)
        ax.set_xlabel("F delta ×100 (system − baseline)")
        ax.set_ylabel("examples")
        _counts_axis(ax)
        _style(ax)
    for k in range(len(types), rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    ncols = min(len(names), 3)
    _layout(fig, rows, cols, _legend_rows(len(names), ncols))
    _legend(fig, *axes[0][0].get_legend_handles_labels(), ncols=ncols)
    return to_svg(fig)


def chart_names() -> List[str]:
    """The ``data-chart`` names of the charts a report can hold."""
    return ["distributions", "lengths", "score-vs-length", "deltas"]
