"""What :class:`~rouge_metric.callbacks.RougeCallback` writes besides its JSON files: the HTML report of an
evaluation (:func:`rouge_metric.report.report`, the ``[report]`` extra) and the TensorBoard writers its
histograms go to. The option values and file names live here."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from .compute_metrics import RougeComputeMetrics
from .evaluation_record import EvaluationRecord

#: The HTML report of the evaluation at global step N (``report="each"``), and of the best one (``"best"``).
REPORT_STEP_FILE = "rouge_report-step-{step}.html"
REPORT_BEST_FILE = "rouge_report-best.html"
_STEP_FILE_RE = re.compile(r"rouge_report-step-\d+\.html\Z")
#: Allowed values of ``report``.
REPORT_CHOICES = ("each", "best", None)
#: Keys ``report_options`` may hold (arguments of :func:`rouge_metric.report.report`); the scoring settings
#: are the metric's.
REPORT_OPTIONS = ("max_examples", "explain_examples", "test_resamples", "n_resamples", "confidence_level", "seed",
                  "title")
#: Default of ``report_max_examples``: the texts kept per evaluation for the report.
REPORT_MAX_EXAMPLES = 5000


def is_report_step_file(name: str) -> bool:
    """True for a file name :data:`REPORT_STEP_FILE` makes."""
    return bool(_STEP_FILE_RE.match(name))


def check_report_options(report: Any, max_examples: Any, options: Any, best_metric: Optional[str]) -> Dict[str, Any]:
    """Validate ``report``, ``report_max_examples`` and ``report_options`` (a copy is returned); with a report,
    check that the ``[report]`` extra is installed, so a missing matplotlib fails now, not at an evaluation."""
    if report not in REPORT_CHOICES or isinstance(report, bool):
        raise ValueError(f"report: expected one of {', '.join(map(repr, REPORT_CHOICES))}, got {report!r}")
    if report == "best" and best_metric is None:
        raise ValueError("report: 'best' needs best_metric (the key that ranks evaluations), but best_metric=None")
    if isinstance(max_examples, bool) or not isinstance(max_examples, int) or max_examples < 1:
        raise ValueError(f"report_max_examples: expected an integer >= 1, got {max_examples!r}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise TypeError(f"report_options: expected a dict, got {type(options).__name__}")
    for key in options:
        if key not in REPORT_OPTIONS:
            raise ValueError(f"report_options: unknown key {key!r}; allowed: {', '.join(map(repr, REPORT_OPTIONS))} "
                             "(the scoring settings are the metric's)")
    if report is not None:
        from rouge_metric.report.plots import require_matplotlib

        require_matplotlib()
    return dict(options)


def tensorboard_writers(trainer: Any) -> List[Any]:
    """The SummaryWriters of ``trainer``'s TensorBoard callbacks (``report_to="tensorboard"``) that are open
    (on the main process, once they have logged); none without a trainer."""
    if trainer is None:
        return []
    from transformers.integrations import TensorBoardCallback

    handler = getattr(trainer, "callback_handler", None)
    return [cb.tb_writer for cb in getattr(handler, "callbacks", [])
            if isinstance(cb, TensorBoardCallback) and cb.tb_writer is not None]


def build_report_page(record: EvaluationRecord, metric: RougeComputeMetrics, prefix: str, step: int, epoch: Any,
                      report: str, options: Dict[str, Any]) -> Any:
    """The :class:`~rouge_metric.report.Report` of the texts ``record`` kept, scored with ``metric``'s settings;
    its header says which evaluation it is and how many of its examples it covers."""
    from rouge_metric.report import report as build_report

    options = dict(options)
    kept, n = len(record.predictions), record.n
    scope = f"all {n} examples" if kept == n else f"the first {kept} of {n} examples (report_max_examples)"
    title = options.pop("title", f"ROUGE at step {step} ({prefix})")
    command = (f"RougeCallback(report={report!r}): evaluation '{prefix}' at global step {step}, epoch {epoch}; "
               f"{scope}")
    return build_report(record.predictions, record.references, name=f"step {step}", config=metric.rouge.config,
                        backend=metric.rouge.backend, title=title, command=command, **options)
