"""The evaluation as a person looks at it: one self-contained HTML file (``report(...).save(path)``, or
``rouge-metric report``) with the corpus scores and their intervals, the distributions of per-example F,
the length analysis, every example (or a stated seeded sample) with its explanation one click away, and
for two or more systems the paired tests, per-example deltas, wins, ties and losses.

The page works offline: its style, script, charts (matplotlib SVG, from the ``[report]`` extra) and data
are inline and it requests nothing. In a notebook a :class:`Report` shows itself inline.

The package, one module per concern:

* :mod:`~rouge_metric.report.data`: validation, scoring (one :class:`~rouge_metric.Rouge`, bootstrap
  intervals) and every statistic, as numbers;
* :mod:`~rouge_metric.report.stats`: correlations, length-ratio buckets, the length note, samples;
* :mod:`~rouge_metric.report.plots`: the matplotlib charts as inline SVG;
* :mod:`~rouge_metric.report.page` and :mod:`~rouge_metric.report.assets`: the HTML, its style and script,
  and the size rule (what a file keeps);
* :mod:`~rouge_metric.report.build`: :func:`report` and :class:`Report`;
* :mod:`~rouge_metric.report.cli`: the ``report`` subcommand (``add_parser``, ``run``).
"""

from .._lazy import lazy_attributes

# Imported on first use: the command line imports rouge_metric.report.cli to declare the subcommand, and
# that must not load the scorer, the explanations and the significance tests.
__getattr__, __dir__ = lazy_attributes(__name__, {"MAX_EXAMPLES": "build", "Report": "build", "report": "build"},
                                       globals())

__all__ = ["MAX_EXAMPLES", "Report", "report"]
