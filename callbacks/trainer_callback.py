"""``RougeCallback``: ROUGE during fine-tuning, logged through the Trainer.

Two modes:

* **reuse** (``RougeCallback(compute_metrics=metric)`` where ``metric`` is the
  :class:`~rouge_metric.callbacks.RougeComputeMetrics` given to the Trainer): the scores are already in
  the evaluation metrics, hence in ``state.log_history`` and every reporter; the callback adds the
  history file, the sample table and best-checkpoint tracking.
* **generate** (``RougeCallback(eval_dataset=subset, ...)``): at each evaluation it generates on a fixed
  tokenized subset (for runs that do not generate over the whole eval set), scores it with the core and
  logs ``<prefix>_rouge1 ...`` with ``trainer.log`` (so ``log_history`` and every reporter get them; a
  callback that only edits ``metrics`` would miss both). Bind the trainer with :meth:`RougeCallback.bind`.
  The keys are also added to the ``metrics`` of the evaluation, so ``metric_for_best_model`` and
  ``EarlyStoppingCallback`` can use them. Every rank generates the same subset (same numbers everywhere,
  collectives stay in step); only the main process writes files.

Files written in ``output_dir`` (default ``args.output_dir``), by the main process only:
``rouge_history.jsonl`` (one object per evaluation: step, epoch, prefix, metrics, n, signature),
``rouge_samples.jsonl`` (per evaluation, the first ``num_samples`` predictions with their scores) and
``rouge_best.json`` (the best evaluation by ``best_metric`` and its checkpoint, when one was saved);
with ``report="each"`` the HTML report of every evaluation (``rouge_report-step-<N>.html``), with
``report="best"`` the one of the best evaluation so far (``rouge_report-best.html``).

With ``distributions=True`` and a bound trainer, each evaluation's per-example F and length distributions go
to the Trainer's TensorBoard writer as histograms, with the mean lengths as scalars
(:mod:`~rouge_metric.callbacks.evaluation_record`); ``log_history`` and the other reporters get the same
keys as without it.
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any, Dict, List, Optional

from rouge_metric.generation import LENGTH_KEYS

from ._compat import import_transformers
from .compute_metrics import RougeComputeMetrics
from .evaluation_record import EvaluationRecord, log_to_tensorboard
from .report_outputs import (REPORT_BEST_FILE, REPORT_MAX_EXAMPLES, REPORT_STEP_FILE, build_report_page,
                             check_report_options, is_report_step_file, tensorboard_writers)
from .generate_mode import generate_and_score, score_subset  # noqa: F401  (generate_and_score: deprecated home)

_transformers = import_transformers()
from transformers import TrainerCallback  # noqa: E402  (after the version check)
from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR  # noqa: E402

logger = logging.getLogger("rouge_metric")

HISTORY_FILE = "rouge_history.jsonl"
SAMPLES_FILE = "rouge_samples.jsonl"
BEST_FILE = "rouge_best.json"


class _TokenizerFromTrainer:
    """Stands for the Trainer's ``processing_class`` until the first evaluation supplies it."""

    pad_token_id = 0

    def batch_decode(self, *args: Any, **kwargs: Any) -> List[str]:
        raise RuntimeError("RougeCallback: no tokenizer yet; pass tokenizer=... or give the Trainer a processing_class")


class RougeCallback(TrainerCallback):
    """Log ROUGE while fine-tuning, keep its history, sample predictions and the best checkpoint.

    Args:
        compute_metrics: the :class:`RougeComputeMetrics` passed to the Trainer (reuse mode), or the
            scorer settings to use when generating.
        eval_dataset: a fixed tokenized subset (``input_ids``, optional ``attention_mask``, ``labels``) to
            generate on at each evaluation (generate mode). A list of dicts or a ``datasets.Dataset``.
        tokenizer: decodes generations (default: the Trainer's ``processing_class``) in generate mode.
        metric_prefix: key prefix in generate mode (``eval_subset`` gives ``eval_subset_rougeL``).
        batch_size: generation batch size; generation_kwargs: passed to ``model.generate`` (default:
            ``args.generation_max_length`` / ``generation_num_beams`` when set).
        best_metric: the output key ranking evaluations (``rougeL``, ``rouge2_recall``, ...; None: off).
        num_samples: how many predictions to keep per evaluation with their per-example scores (in reuse
            mode the given ``RougeComputeMetrics`` keeps them: its ``num_samples`` is raised to this).
        output_dir: where the files go (default ``args.output_dir``).
        report: write the HTML report (:func:`rouge_metric.report.report`, the ``[report]`` extra) of
            ``"each"`` evaluation (``rouge_report-step-<N>.html``) or of the ``"best"`` one by ``best_metric``
            (``rouge_report-best.html``, rewritten when a better evaluation comes); None (default): none.
        report_max_examples: the report covers the first this many examples of an evaluation (their
            decoded texts are what the metric keeps in memory); the page says when it is fewer than all.
        report_options: more arguments of :func:`rouge_metric.report.report`, among
            :data:`~rouge_metric.callbacks.report_outputs.REPORT_OPTIONS`; the scoring settings are the metric's.
        distributions: log each evaluation's per-example F and length distributions as histograms (and the
            mean lengths as scalars) to the Trainer's TensorBoard (``report_to="tensorboard"``); needs
            :meth:`bind`. The memory is bounded (see :mod:`~rouge_metric.callbacks.evaluation_record`).
        **rouge_options: settings of the scorer built in generate mode when ``compute_metrics`` is None
            (``RougeComputeMetrics`` arguments: ``rouge_types``, ``use_stemmer``, ``stats``,
            ``rouge_tokenizer`` (e.g. ``"jieba"``), ``recipe="xlsum"`` with ``lang`` ...).
    """

    def __init__(self, compute_metrics: Optional[RougeComputeMetrics] = None, *, eval_dataset: Any = None,
                 tokenizer: Any = None, metric_prefix: str = "eval_subset", batch_size: int = 8,
                 generation_kwargs: Optional[Dict[str, Any]] = None, best_metric: Optional[str] = "rougeL",
                 num_samples: int = 4, output_dir: Optional[str] = None, report: Optional[str] = None,
                 report_max_examples: int = REPORT_MAX_EXAMPLES, report_options: Optional[Dict[str, Any]] = None,
                 distributions: bool = False, **rouge_options: Any) -> None:
        if compute_metrics is not None and not isinstance(compute_metrics, RougeComputeMetrics):
            raise TypeError(
                f"compute_metrics: expected a RougeComputeMetrics, got {type(compute_metrics).__name__}"
            )
        if compute_metrics is None and eval_dataset is None:
            raise ValueError(
                "RougeCallback needs compute_metrics=RougeComputeMetrics(...) (the one given to the Trainer, whose "
                "scores it records) or eval_dataset=<tokenized subset> (to generate on at each evaluation)"
            )
        if compute_metrics is not None and rouge_options:
            raise ValueError(
                f"{sorted(rouge_options)}: scorer settings go to RougeComputeMetrics when compute_metrics is given"
            )
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size: expected an integer >= 1, got {batch_size!r}")
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples < 0:
            raise ValueError(f"num_samples: expected an integer >= 0, got {num_samples!r}")
        report_options = check_report_options(report, report_max_examples, report_options, best_metric)
        if not isinstance(distributions, bool):
            raise ValueError(f"distributions: expected True or False, got {distributions!r}")
        if eval_dataset is not None:
            if not hasattr(eval_dataset, "__len__") or len(eval_dataset) == 0:
                raise ValueError("eval_dataset: expected a non-empty sized dataset of tokenized examples")
            first = eval_dataset[0]
            for key in ("input_ids", "labels"):
                if not isinstance(first, dict) or key not in first:
                    raise ValueError(f"eval_dataset[0]: expected a dict with 'input_ids' and 'labels', missing {key!r}")
        self.mode = "generate" if eval_dataset is not None else "reuse"
        self.eval_dataset = eval_dataset
        self.tokenizer = tokenizer
        self.metric_prefix = metric_prefix
        self.batch_size = batch_size
        self.generation_kwargs = dict(generation_kwargs or {})
        self.num_samples = num_samples
        self.output_dir = output_dir
        self.metric: Optional[RougeComputeMetrics] = None
        #: The instance the Trainer calls (when given): it learns the eval set size at each prediction step.
        self.trainer_metric = compute_metrics
        if self.mode == "reuse":
            self.metric = compute_metrics
            # The Trainer calls that instance, so it must keep the samples this callback writes.
            compute_metrics.num_samples = max(compute_metrics.num_samples, num_samples)
        elif compute_metrics is not None:
            self.metric = compute_metrics.clone()
        else:  # validated now; the Trainer's processing_class replaces the placeholder at the first evaluation
            self.metric = RougeComputeMetrics(tokenizer or _TokenizerFromTrainer(), **rouge_options)
        self._check_best_metric(best_metric, self.metric)
        if report is not None and self.metric.score_ids:
            raise ValueError("report: the HTML report shows texts, but the metric scores token ids (score_ids=True); "
                             "use report=None or a metric that decodes")
        self.best_metric = best_metric
        self.report = report
        self.report_max_examples = report_max_examples
        self.report_options = report_options
        self.distributions = distributions
        if report is not None or distributions:
            # The metric that scores the evaluation keeps the distributions and the texts the report needs.
            self.metric.record = True
            if report is not None:
                self.metric.keep_texts = max(self.metric.keep_texts, report_max_examples)
        #: Paths of the HTML reports written so far.
        self.reports: List[str] = []
        #: The tags written to TensorBoard at the last evaluation (``distributions=True``).
        self.logged_tags: List[str] = []
        self._warned_histograms = False
        self.trainer: Any = None
        #: One dict per evaluation (as written to rouge_history.jsonl).
        self.history: List[Dict[str, Any]] = []
        #: The latest sample table: dicts with index, prediction, reference and scores.
        self.samples: List[Dict[str, Any]] = []
        #: The best evaluation so far: metric, value, step, checkpoint (None until one is seen).
        self.best: Optional[Dict[str, Any]] = None
        self._seen = 0
        self._warned_unbound = False

    @staticmethod
    def _check_best_metric(best_metric: Optional[str], metric: RougeComputeMetrics) -> None:
        if best_metric is None:
            return
        allowed = [k for k in metric.output_keys() if k != "gen_len"]
        if best_metric not in allowed:
            raise ValueError(f"best_metric: {best_metric!r} is not a ROUGE key of this scorer; allowed: {allowed}")

    def bind(self, trainer: Any) -> "RougeCallback":
        """Remember the trainer, so generate mode logs through ``trainer.log`` (every reporter sees it)."""
        self.trainer = trainer
        return self

    # ------------------------------------------------------------------------------------ hooks
    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if state.global_step == 0 and state.is_world_process_zero:  # a fresh run: start new files
            directory = self._dir(args)
            for name in (HISTORY_FILE, SAMPLES_FILE, BEST_FILE, REPORT_BEST_FILE):
                path = os.path.join(directory, name)
                if os.path.exists(path):
                    os.remove(path)
            if self.report is not None and os.path.isdir(directory):
                for name in os.listdir(directory):
                    if is_report_step_file(name):
                        os.remove(os.path.join(directory, name))

    def on_prediction_step(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        # Runs before compute_metrics sees the gathered predictions: tell the adapter the eval set size so the
        # duplicates of a distributed sampler's last batch are dropped.
        if self.trainer_metric is not None:
            self.trainer_metric.expected_examples = dataset_length(kwargs.get("eval_dataloader"))

    def on_evaluate(self, args: Any, state: Any, control: Any, metrics: Optional[Dict[str, float]] = None,
                    **kwargs: Any) -> None:
        if self.mode == "reuse":
            entry = self._from_compute_metrics(metrics or {})
        else:
            entry = self._generate_and_log(args, state, metrics, kwargs)
        if entry is None:
            return
        entry = {"step": state.global_step, "epoch": state.epoch, **entry}
        self.history.append(entry)
        self._update_best(entry)
        if state.is_world_process_zero:
            directory = self._dir(args)
            os.makedirs(directory, exist_ok=True)
            with open(os.path.join(directory, HISTORY_FILE), "a", encoding="utf-8") as fh:
                fh.write(json.dumps(entry) + "\n")
            if self.samples:
                with open(os.path.join(directory, SAMPLES_FILE), "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"step": state.global_step, "prefix": entry["prefix"],
                                         "samples": self.samples}) + "\n")
            self._write_best(args)
            record = self.metric.last_record if self.metric is not None else None
            if record is not None and (self.report is not None or self.distributions):
                if self.distributions:
                    self._log_distributions(record, entry["prefix"], state.global_step)
                if self.report is not None:
                    self._write_report(directory, record, entry, state)

    def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if self.best is not None and self.best["step"] == state.global_step:
            path = os.path.join(args.output_dir, f"{PREFIX_CHECKPOINT_DIR}-{state.global_step}")
            if os.path.isdir(path):
                self.best["checkpoint"] = path
                if state.is_world_process_zero:
                    self._write_best(args)

    # ----------------------------------------------------------------------------------- modes
    def _from_compute_metrics(self, metrics: Dict[str, float]) -> Optional[Dict[str, Any]]:
        metric = self.metric
        assert metric is not None
        if metric.completed == self._seen or metric.last_metrics is None:
            logger.warning(
                "RougeCallback: the RougeComputeMetrics given to the callback was not called in this evaluation; "
                "pass the same instance as Trainer(compute_metrics=...) and set predict_with_generate=True, or "
                "give the callback eval_dataset=... to generate on a subset"
            )
            return None
        self._seen = metric.completed
        prefix = next((k[: -len("_runtime")] for k in metrics if k.endswith("_runtime")), "eval")
        # the values exactly as the Trainer logged them (same floats as metric.last_metrics)
        values = {k: metrics.get(f"{prefix}_{k}", v) for k, v in metric.last_metrics.items()}
        self.samples = list(metric.last_samples[: self.num_samples])
        result = metric.last_result
        return {"prefix": prefix, "mode": "compute_metrics", "metrics": values, "n": result.n if result else None,
                "signature": metric.signature}

    def _generate_and_log(self, args: Any, state: Any, metrics: Optional[Dict[str, float]],
                          kwargs: Dict[str, Any]) -> Dict[str, Any]:
        model = kwargs.get("model")
        tokenizer = self.tokenizer or kwargs.get("processing_class") or kwargs.get("tokenizer")
        if model is None or tokenizer is None:
            raise ValueError("RougeCallback: generate mode needs the model and a tokenizer (tokenizer=... or the "
                             "Trainer's processing_class)")
        metric = self.metric
        assert metric is not None
        if isinstance(metric.tokenizer, _TokenizerFromTrainer):
            metric.tokenizer = tokenizer
        metric.num_samples = max(metric.num_samples, self.num_samples)
        values = score_subset(model, tokenizer, self.eval_dataset, metric, batch_size=self.batch_size,
                              generation_kwargs=self._generation_kwargs(args))
        logs = {f"{self.metric_prefix}_{k}": v for k, v in values.items()}
        if metrics is not None:
            metrics.update(logs)  # evaluate()'s return value: metric_for_best_model, early stopping
        if self.trainer is not None:
            self.trainer.log(dict(logs))  # a log_history entry that every reporter receives
        else:
            if state.log_history:
                state.log_history[-1].update(logs)
            if not self._warned_unbound:
                self._warned_unbound = True
                logger.warning(
                    "RougeCallback: no trainer bound, so ROUGE went into state.log_history and the evaluation "
                    "metrics but reporters (TensorBoard, W&B) did not receive it; call callback.bind(trainer)"
                )
        self.samples = list(metric.last_samples[: self.num_samples])
        return {"prefix": self.metric_prefix, "mode": "generate", "metrics": values, "n": metric.last_result.n,
                "signature": metric.signature}

    def _generation_kwargs(self, args: Any) -> Dict[str, Any]:
        """``args.generation_max_length`` / ``generation_num_beams`` under the user's ``generation_kwargs``;
        a length the user gives (``max_length`` or ``max_new_tokens``) replaces ``generation_max_length``, so
        ``generate`` never receives both."""
        out: Dict[str, Any] = {}
        user_length = any(self.generation_kwargs.get(k) is not None for k in LENGTH_KEYS)
        if getattr(args, "generation_max_length", None) is not None and not user_length:
            out["max_length"] = args.generation_max_length
        if getattr(args, "generation_num_beams", None) is not None:
            out["num_beams"] = args.generation_num_beams
        out.update(self.generation_kwargs)
        return out

    # --------------------------------------------------------------------------- report, histograms
    def _log_distributions(self, record: EvaluationRecord, prefix: str, step: int) -> None:
        writers = tensorboard_writers(self.trainer)
        if not writers:
            if not self._warned_histograms:
                self._warned_histograms = True
                logger.warning(
                    "RougeCallback(distributions=True): no reporting integration takes histograms here; call "
                    "callback.bind(trainer) and use report_to='tensorboard' (the other reporters get the same "
                    "scalar means as without distributions)"
                    if self.trainer is None else
                    "RougeCallback(distributions=True): the bound trainer has no TensorBoard writer "
                    "(report_to='tensorboard'); the per-example distributions were not logged"
                )
            return
        tags: List[str] = []
        for writer in writers:
            tags = log_to_tensorboard(writer, record, prefix, step)
        self.logged_tags = tags

    def _write_report(self, directory: str, record: EvaluationRecord, entry: Dict[str, Any], state: Any) -> None:
        step = state.global_step
        if self.report == "each":
            name = REPORT_STEP_FILE.format(step=step)
        elif self.best is not None and self.best["step"] == step and self.best["value"] == entry["metrics"].get(
                self.best_metric):
            name = REPORT_BEST_FILE
        else:
            return
        if not record.predictions:
            return
        assert self.metric is not None
        path = os.path.join(directory, name)
        try:
            build_report_page(record, self.metric, entry["prefix"], step, state.epoch, self.report,
                              self.report_options).save(path)
        except Exception as exc:  # a side output: the training goes on, the reason is logged
            logger.warning("RougeCallback: the HTML report of step %s was not written: %s: %s", step,
                           type(exc).__name__, exc)
            return
        self.reports.append(path)

    # ------------------------------------------------------------------------------ bookkeeping
    def _dir(self, args: Any) -> str:
        return self.output_dir or args.output_dir or "."

    def _update_best(self, entry: Dict[str, Any]) -> None:
        if self.best_metric is None:
            return
        value = entry["metrics"].get(self.best_metric)
        if value is None:
            return
        if self.best is None or value > self.best["value"]:
            self.best = {"metric": f"{entry['prefix']}_{self.best_metric}", "value": value, "step": entry["step"],
                         "checkpoint": None}

    def _write_best(self, args: Any) -> None:
        if self.best is None:
            return
        with open(os.path.join(self._dir(args), BEST_FILE), "w", encoding="utf-8") as fh:
            json.dump(self.best, fh, indent=1)

    def format_samples(self, width: int = 40) -> str:
        """The latest sample table as plain text (prediction, reference, scores)."""
        rows = []
        for s in self.samples:
            scores = "  ".join(f"{k}={v:.2f}" for k, v in s["scores"].items())
            cut = lambda t: t if len(t) <= width else t[: width - 1] + "…"
            rows.append(f"{s['index']:>4}  {cut(s['prediction']):<{width}}  {cut(s['reference']):<{width}}  {scores}")
        head = f"{'#':>4}  {'prediction':<{width}}  {'reference':<{width}}  scores"
        return "\n".join([head] + rows)


def dataset_length(dataloader: Any) -> Optional[int]:
    """Number of examples behind a (possibly accelerate-prepared) dataloader, or None when unknown."""
    if dataloader is None:
        return None
    length = getattr(dataloader, "total_dataset_length", None)
    if isinstance(length, int):
        return length
    try:
        return len(dataloader.dataset)
    except (TypeError, AttributeError):
        return None
