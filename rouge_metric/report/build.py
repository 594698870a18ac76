""":func:`report` and :class:`Report`: score, compute the statistics (:mod:`~rouge_metric.report.data`),
draw the charts (:mod:`~rouge_metric.report.plots`) and assemble the page (:mod:`~rouge_metric.report.page`)."""

from __future__ import annotations

import datetime
import hashlib
import html
import os
import time
from typing import Any, Dict, Optional, Sequence

from .._version import __version__
from ..config import DEFAULT_ROUGE_TYPES, RougeConfig
from . import page
from .data import DEFAULT_TEST_RESAMPLES, ReportData, begin
from .page import EXPLAIN_EXAMPLES

#: Examples the table of a report holds at most (a seeded sample beyond it).
MAX_EXAMPLES = 500


class Report:
    """A built report: :meth:`html` is the page, :meth:`save` writes it, a notebook shows it inline.

    Attributes:
        data: the numbers (:class:`~rouge_metric.report.data.ReportData`): per-system corpus results
            (``data.systems[name].result``), comparisons, length statistics.
        results: name -> :class:`~rouge_metric.CorpusResult` of every system (with bootstrap intervals).
        comparisons: method -> :class:`~rouge_metric.ComparisonResult` (empty with one system).
        kept: the indices of the examples in the table; explained: explanations embedded (one per
            system and explained example); counts: explanations left out and why, texts cut for display.
        timings: wall seconds per stage and ``total``: ``score`` (validation, scoring, per-example
            arrays, length statistics), ``charts``, ``explanations`` (the corpus intervals and the paired
            tests resample on background threads meanwhile), ``intervals`` (waiting for them to finish),
            ``page``; cpu_timings: the CPU seconds of the process (``time.process_time``, every thread)
            in each stage.
    """

    def __init__(self, page_html: str, data: ReportData, kept: Any, counts: Dict[str, int],
                 timings: Dict[str, float], cpu_timings: Optional[Dict[str, float]] = None) -> None:
        self._html = page_html
        self.data = data
        self.results = {nm: data.systems[nm].result for nm in data.names}
        self.comparisons = dict(data.comparisons)
        self.kept = [int(i) for i in kept]
        self.counts = dict(counts)
        self.explained = counts["explained"]
        self.timings = dict(timings)
        self.cpu_timings = dict(cpu_timings or {})

    def html(self) -> str:
        """The whole self-contained HTML document."""
        return self._html

    def save(self, path: "os.PathLike[str] | str") -> str:
        """Write the page to ``path`` (UTF-8) and return the path."""
        path = os.fspath(path)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(self._html)
        return path

    def _repr_html_(self) -> str:
        """The page in a sandboxed ``<iframe srcdoc>`` (its script runs; the notebook's page is untouched)."""
        return (f'<iframe class="rouge-metric-report" sandbox="allow-scripts" style="width:100%;height:720px;'
                f'border:1px solid #e4e4e7" srcdoc="{html.escape(self._html, quote=True)}"></iframe>')

    def __repr__(self) -> str:
        return (f"Report(n={self.data.n}, systems={self.data.names!r}, kept={len(self.kept)}, "
                f"bytes={len(self._html.encode('utf-8'))})")


def fingerprint(names: Sequence[str], predictions: Dict[str, Sequence[str]], references: Sequence[Sequence[str]]) -> str:
    """SHA-256 of the inputs (system names, predictions, references; length-prefixed UTF-8), its first 16
    hex digits: the same inputs give the same fingerprint."""
    h = hashlib.sha256()
    parts: list = []

    def add(s: str) -> None:
        b = s.encode("utf-8", "surrogatepass")
        parts.append(len(b).to_bytes(8, "little"))
        parts.append(b)

    def flush() -> None:
        h.update(b"".join(parts))
        parts.clear()

    for refs in references:
        parts.append(len(refs).to_bytes(4, "little"))
        for r in refs:
            add(r)
        if len(parts) > 4096:
            flush()
    for nm in names:
        add(nm)
        for p in predictions[nm]:
            add(p)
            if len(parts) > 4096:
                flush()
    flush()
    return h.hexdigest()[:16]


def python_call(systems: Any, name: Optional[str], rouge_types: Sequence[str], options: Dict[str, Any]) -> str:
    """The Python call that rebuilds a report from the same inputs (the data named by variables)."""
    args = ["predictions", "references"]
    if systems is not None:
        args.append("systems={...}")
    if name is not None:
        args.append(f"name={name!r}")
    if tuple(rouge_types) != tuple(DEFAULT_ROUGE_TYPES):
        args.append(f"rouge_types={list(rouge_types)!r}")
    args += [f"{k}={v!r}" for k, v in options.items()]
    return "from rouge_metric.report import report; report(" + ", ".join(args) + ")"


def report(predictions: Optional[Sequence[str]], references: Sequence[Any], *, systems: Any = None,
           name: Optional[str] = None, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
           config: Optional[RougeConfig] = None, backend: Optional[str] = None, num_threads: Optional[int] = None,
           max_examples: int = MAX_EXAMPLES, test_resamples: int = DEFAULT_TEST_RESAMPLES,
           explain_examples: int = EXPLAIN_EXAMPLES, title: Optional[str] = None, command: Optional[str] = None,
           **rouge_options: Any) -> Report:
    """Build the HTML report of one or more systems on the same references.

    Args:
        predictions: the predictions of the (first) system, aligned with ``references``; may be None
            when ``systems`` gives every system (the first is then the baseline).
        references: ``references[i]`` is a string or a list of strings.
        systems: more systems, a mapping name -> predictions or a list of ``(name, predictions)`` pairs;
            with two or more systems in all, each is compared with the first (the baseline).
        name: the name of ``predictions`` (default ``predictions``, or ``baseline`` with ``systems``).
        rouge_types, config, backend, num_threads, rouge_options: the scoring settings, as for
            :class:`rouge_metric.Rouge`; the corpus intervals use ``n_resamples``, ``confidence_level``
            and ``seed`` (aggregation is always ``bootstrap``). ``seed`` also draws the paired tests and
            the examples sample.
        max_examples: examples the table holds (a seeded sample beyond it).
        explain_examples: examples of the table whose explanations (of every system) the page embeds: all
            of them when the table holds no more, otherwise the largest gains and losses, the lowest and
            highest scores of every system and a seeded sample
            (:func:`~rouge_metric.report.page.explained_examples`); 0 embeds none.
        test_resamples: resamples of the paired bootstrap and trials of approximate randomization.
        title: the page title; command: the command line shown as the way to reproduce the page (the CLI
            sets it; by default the Python call is shown).

    Errors name the argument and index: systems of another length than ``references``, an empty
    corpus, a system name given twice, a text that is not a string.

    Every system is scored once; its per-example values feed the table, the charts, the length statistics,
    the corpus intervals and the paired tests. The resampling (native when the native backend is active)
    runs on two background threads while the charts are drawn and the examples explained: the same
    numbers as one step after the other. Time grows linearly with n in scoring and resampling only.

    >>> rep = report(["the cat sat on the mat"], ["the cat lay on the mat"], rouge_types=["rouge1"])  # doctest: +SKIP
    >>> rep.save("report.html")  # doctest: +SKIP
    'report.html'
    """
    if isinstance(max_examples, bool) or not isinstance(max_examples, int) or max_examples < 1:
        raise ValueError(f"max_examples: expected an integer >= 1, got {max_examples!r}")
    if isinstance(explain_examples, bool) or not isinstance(explain_examples, int) or explain_examples < 0:
        raise ValueError(f"explain_examples: expected an integer >= 0, got {explain_examples!r}")
    from .plots import require_matplotlib

    require_matplotlib()  # before any scoring: a missing extra fails at once
    marks = [(time.perf_counter(), time.process_time())]
    # The corpus intervals and the paired tests resample on background threads while the charts and the
    # explanations are made from the per-example values; wait() joins them before the sections that show them.
    data = begin(predictions, references, systems=systems, name=name, rouge_types=rouge_types, config=config,
                 backend=backend, num_threads=num_threads, test_resamples=test_resamples, **rouge_options)
    try:
        marks.append((time.perf_counter(), time.process_time()))
        seed = data.rouge.config.seed
        charts = [page.distributions_section(data), page.length_section(data, seed)]
        deltas_svg = page.deltas_chart(data) if len(data.names) > 1 else None
        marks.append((time.perf_counter(), time.process_time()))
        keep = page.sample(data, max_examples, seed)
        ex_data, blob, counts = page.examples_data(data, keep, explain_examples=explain_examples, seed=seed)
        marks.append((time.perf_counter(), time.process_time()))
    finally:
        data.wait()
    marks.append((time.perf_counter(), time.process_time()))
    body = [None, page.corpus_section(data)] + charts + [page.systems_section(data, page.snippet_fn(data), deltas_svg),
                                                         page.examples_section(data, keep, counts, ex_data["textChars"],
                                                                               max_examples, seed, explain_examples)]
    options = dict(rouge_options)
    if max_examples != MAX_EXAMPLES:
        options["max_examples"] = max_examples
    if test_resamples != DEFAULT_TEST_RESAMPLES:
        options["test_resamples"] = test_resamples
    if explain_examples != EXPLAIN_EXAMPLES:
        options["explain_examples"] = explain_examples
    call = command if command is not None else python_call(systems, name, data.types, options)
    title = title if title is not None else "ROUGE report"
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    body[0] = page.header(data, title=title, call=call, version=__version__, date=date,
                          fingerprint=fingerprint(data.names, data.predictions, data.references))
    doc = page.document("".join(body), title, page.script_json(ex_data), blob)
    marks.append((time.perf_counter(), time.process_time()))
    stages = ("score", "charts", "explanations", "intervals", "page")
    timings = {k: marks[j + 1][0] - marks[j][0] for j, k in enumerate(stages)}
    timings["total"] = marks[-1][0] - marks[0][0]
    cpu = {k: marks[j + 1][1] - marks[j][1] for j, k in enumerate(stages)}
    cpu["total"] = marks[-1][1] - marks[0][1]
    return Report(doc, data, keep, counts, timings, cpu)
