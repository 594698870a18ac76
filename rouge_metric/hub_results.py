"""Hub results: a score written into a model card's ``model-index``, merged, never clobbering.

A model card (``README.md`` of a model repository) carries its evaluation results in the YAML header
under ``model-index``: ``- name: <model>`` with ``results:`` entries, each ``task`` (``type``,
``name``), ``dataset`` (``type`` = the dataset id, ``name``, ``config``, ``split``, ``revision``) and
``metrics`` (``type``, ``value``, ``name``, ``config``, ``args``). :func:`write_model_card` adds one
metric per ROUGE variant, with ``args`` holding the statistic, the scale and the signature, and merges:

- a result with the same task type and the same dataset (id, config, split, revision) is updated in
  place: metrics with the same ``(type, name, config)`` are replaced, other metrics are kept;
- every other result, every other model-index entry, every other YAML field and the card body are
  kept as they were (the header is rewritten by ``huggingface_hub.metadata_save``).

The newer ``.eval_results/*.yaml`` format (one ``{dataset: {id, task_id, revision}, value, date,
source, notes}`` per benchmark score) is written by :func:`write_eval_results` when asked: one file, one
entry for the one ROUGE value you name, the signature in ``notes``. It is tied to benchmark datasets
registered on the Hub, so it only suits a ROUGE number that such a benchmark defines.

>>> import rouge_metric, tempfile, pathlib
>>> result = rouge_metric.compute(predictions=["the cat sat"], references=[["the cat sat down"]],
...                               rouge_types=["rouge1", "rougeL"])
>>> entry = model_index_result(result, dataset_id="abisee/cnn_dailymail", dataset_config="3.0.0", split="test")
>>> [(m["name"], m["value"]) for m in entry["metrics"]]
[('rouge1', 85.71428571428571), ('rougeL', 85.71428571428571)]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

#: The model-index metric ``type`` of every ROUGE variant (the Hub's metric id).
METRIC_TYPE = "rouge"


def _values(result: Any, stat: str, scale: Optional[float]) -> tuple:
    """(name -> value, signature, scale, extra args) of a CorpusResult or a HarnessResult."""
    from .harnesses import HarnessResult
    from .result import CorpusResult

    if isinstance(result, HarnessResult):
        s = 1.0 if scale is None else scale  # already on the harness's own scale
        return {k: float(v) * s for k, v in result.scores.items()}, result.signature, s, {"recipe": result.recipe}
    if isinstance(result, CorpusResult):
        if stat not in ("precision", "recall", "fmeasure"):
            raise ValueError(f"stat: invalid value {stat!r}; allowed: 'precision', 'recall', 'fmeasure'")
        s = 100.0 if scale is None else scale
        return ({t: getattr(sc, stat) * s for t, sc in result.scores.items()}, result.signature, s,
                {"stat": stat, "n": result.n})
    raise TypeError(f"result: expected a CorpusResult (rouge_metric.compute) or a HarnessResult "
                    f"(rouge_metric.harnesses), got {type(result).__name__}")


def model_index_result(result: Any, *, dataset_id: str, dataset_name: Optional[str] = None,
                       dataset_config: Optional[str] = None, split: Optional[str] = None,
                       revision: Optional[str] = None, task_type: str = "summarization",
                       task_name: Optional[str] = None, stat: str = "fmeasure",
                       scale: Optional[float] = None) -> Dict[str, Any]:
    """One ``model-index`` result entry: task, dataset, and one metric per ROUGE variant.

    ``scale``: multiplies the values (default 100 for a :class:`~rouge_metric.CorpusResult`, as model
    cards and transformers' summarization example report ROUGE; 1 for a
    :class:`~rouge_metric.harnesses.HarnessResult`, whose numbers are already the harness's). The
    metric ``args`` record ``stat``, ``scale`` and the ``signature``.
    """
    if not isinstance(dataset_id, str) or not dataset_id:
        raise ValueError("dataset_id: expected the dataset's Hub id (e.g. 'abisee/cnn_dailymail'), got "
                         f"{dataset_id!r}")
    values, signature, s, extra = _values(result, stat, scale)
    dataset: Dict[str, Any] = {"type": dataset_id, "name": dataset_name or dataset_id}
    for key, value in (("config", dataset_config), ("split", split), ("revision", revision)):
        if value is not None:
            dataset[key] = value
    metrics = []
    for name, value in values.items():
        args: Dict[str, Any] = dict(extra)
        args.update({"scale": s, "signature": signature})
        metrics.append({"type": METRIC_TYPE, "value": value, "name": name, "config": name, "args": args})
    task = {"type": task_type, "name": task_name or task_type.replace("-", " ").capitalize()}
    return {"task": task, "dataset": dataset, "metrics": metrics}


_DATASET_KEYS = ("type", "config", "split", "revision")


def _same_result(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    ta, tb = a.get("task") or {}, b.get("task") or {}
    da, db = a.get("dataset") or {}, b.get("dataset") or {}
    return ta.get("type") == tb.get("type") and all(da.get(k) == db.get(k) for k in _DATASET_KEYS)


def _metric_key(m: Mapping[str, Any]) -> tuple:
    return (m.get("type"), m.get("name"), m.get("config"))


def merge_model_index(metadata: Mapping[str, Any], entry: Mapping[str, Any], model_name: Optional[str] = None
                      ) -> Dict[str, Any]:
    """A copy of the card ``metadata`` with ``entry`` merged into its ``model-index`` (see the module doc).

    ``model_name``: the model-index entry to update (created when absent); default: the first entry's
    name, or an error when the card has no model-index yet.
    """
    import copy

    data = copy.deepcopy(dict(metadata))
    index = data.get("model-index")
    if index is None:
        index = []
    if not isinstance(index, list):
        raise ValueError(f"model-index: expected a list in the card's YAML, got {type(index).__name__}")
    if model_name is None:
        if not index:
            raise ValueError("model_name: the card has no model-index yet; give the model's name")
        model_name = index[0].get("name")
    target = next((m for m in index if isinstance(m, dict) and m.get("name") == model_name), None)
    if target is None:
        target = {"name": model_name, "results": []}
        index.append(target)
    results = target.setdefault("results", [])
    new = copy.deepcopy(dict(entry))
    for old in results:
        if _same_result(old, new):
            keys = {_metric_key(m) for m in new["metrics"]}
            kept = [m for m in old.get("metrics") or [] if _metric_key(m) not in keys]
            old["metrics"] = kept + new["metrics"]
            for k, v in new["dataset"].items():
                old.setdefault("dataset", {}).setdefault(k, v)
            break
    else:
        results.append(new)
    data["model-index"] = index
    return data


def write_model_card(path: Union[str, Path], result: Any, *, dataset_id: str, model_name: Optional[str] = None,
                     dataset_name: Optional[str] = None, dataset_config: Optional[str] = None,
                     split: Optional[str] = None, revision: Optional[str] = None,
                     task_type: str = "summarization", task_name: Optional[str] = None, stat: str = "fmeasure",
                     scale: Optional[float] = None) -> Dict[str, Any]:
    """Merge ``result`` into the model card at ``path`` (created when missing) and return the new metadata.

    The card body and every other YAML field are kept; read it back with ``huggingface_hub.ModelCard.load``
    (``card.data.eval_results``) or ``metadata_load``. Offline: nothing is sent to the Hub.
    """
    try:
        from huggingface_hub import metadata_load, metadata_save
    except ImportError:
        raise ImportError("write_model_card needs huggingface_hub: pip install huggingface_hub") from None

    path = Path(path)
    entry = model_index_result(result, dataset_id=dataset_id, dataset_name=dataset_name,
                               dataset_config=dataset_config, split=split, revision=revision, task_type=task_type,
                               task_name=task_name, stat=stat, scale=scale)
    metadata = metadata_load(path) if path.exists() else None
    if model_name is None and not (metadata or {}).get("model-index"):
        model_name = path.resolve().parent.name  # the model repository's folder
    data = merge_model_index(metadata or {}, entry, model_name)
    if not path.exists():
        path.write_text("", encoding="utf-8")
    metadata_save(path, data)
    return data


def write_eval_results(directory: Union[str, Path], result: Any, *, key: str, dataset_id: str, task_id: str,
                       revision: Optional[str] = None, filename: Optional[str] = None, stat: str = "fmeasure",
                       scale: Optional[float] = None, date: Optional[str] = None) -> Path:
    """Write ``<directory>/.eval_results/<filename>.yaml`` with one entry: the value of ``key`` (a rouge type
    of a CorpusResult or a score name of a HarnessResult), ``dataset: {id, task_id, revision}``, ``notes``
    = the signature. An existing file with other entries keeps them; an entry with the same dataset id
    and task id is replaced. Returns the file's path.
    """
    import yaml

    values, signature, s, _ = _values(result, stat, scale)
    if key not in values:
        raise ValueError(f"key: {key!r} is not in the result; allowed: {', '.join(map(repr, values))}")
    if not dataset_id or not task_id:
        raise ValueError("dataset_id and task_id: both are required by the .eval_results format")
    entry: Dict[str, Any] = {"dataset": {"id": dataset_id, "task_id": task_id}, "value": values[key]}
    if revision is not None:
        entry["dataset"]["revision"] = revision
    if date is not None:
        entry["date"] = date
    entry["notes"] = f"{key} x{s:g}; {signature}"
    out_dir = Path(directory) / ".eval_results"
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{filename or dataset_id.replace('/', '__') + '__' + task_id}.yaml"
    entries: List[Dict[str, Any]] = []
    if path.exists():
        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        if not isinstance(loaded, list):
            raise ValueError(f"{path}: expected a YAML list of entries, got {type(loaded).__name__}")
        entries = [e for e in loaded if not (isinstance(e, dict) and (e.get("dataset") or {}).get("id") == dataset_id
                                             and (e.get("dataset") or {}).get("task_id") == task_id)]
    entries.append(entry)
    path.write_text(yaml.safe_dump(entries, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------ the CLI
def add_model_card_arguments(parser: argparse.ArgumentParser) -> None:
    """``rouge-metric score`` options: write the result into a model card's model-index."""
    g = parser.add_argument_group("Hub model card (rouge_metric.hub_results)")
    g.add_argument("--model-card", metavar="PATH", default=None,
                   help="merge the scores into this model card's model-index (README.md; created if missing)")
    g.add_argument("--dataset-id", metavar="ID", default=None, help="with --model-card: the dataset's Hub id")
    g.add_argument("--dataset-config", metavar="NAME", default=None, help="with --model-card: dataset config")
    g.add_argument("--dataset-split", metavar="NAME", default=None, help="with --model-card: dataset split")
    g.add_argument("--dataset-revision", metavar="REV", default=None, help="with --model-card: dataset revision")
    g.add_argument("--model-name", metavar="NAME", default=None,
                   help="with --model-card: the model-index entry (default: the card's first, or its folder's name)")


def check_model_card_args(args: argparse.Namespace) -> None:
    """Refuse ``--dataset-*`` without ``--model-card`` and ``--model-card`` without ``--dataset-id``."""
    card = getattr(args, "model_card", None)
    if card is None:
        for opt in ("dataset_id", "dataset_config", "dataset_split", "dataset_revision", "model_name"):
            if getattr(args, opt, None) is not None:
                raise ValueError(f"--{opt.replace('_', '-')}: only used with --model-card")
        return
    if not args.dataset_id:
        raise ValueError("--model-card: needs --dataset-id (the dataset's Hub id, e.g. abisee/cnn_dailymail)")


def write_from_args(args: argparse.Namespace, result: Any) -> None:
    if getattr(args, "model_card", None) is None:
        return
    write_model_card(args.model_card, result, dataset_id=args.dataset_id, model_name=args.model_name,
                     dataset_config=args.dataset_config, split=args.dataset_split,
                     revision=args.dataset_revision)
