"""Generate with any model, then score: a model over a dataset of documents and references, end to end.

:func:`generate_and_score` runs a batch generation callable (``list[str] -> list[str]``: a transformers
``text-generation`` pipeline wrapped by :class:`PipelineGenerator`, a ``model.generate`` wrapped by
:class:`ModelGenerator`, vLLM, an HTTP client, ...) over the documents of a dataset in batches, keeps every
finished batch in a cache file, and scores the generations against the references with :class:`Rouge`
(every scoring option; no arithmetic here). It stands in for ``evaluate.evaluator("summarization")``,
which drives transformers' summarization pipeline, removed in transformers 5.

The cache (JSONL, one line per generation, appended and flushed after every batch) is keyed by the
example index, a hash of the document and a hash of the generation settings (``settings=`` and the
generator's ``generation_settings``). A rerun with the same cache generates only the examples that are
missing; an example whose document or settings changed is refused with a message naming it (or, with
``on_cache_mismatch="regenerate"``, generated again). Nothing here imports torch or transformers: the
wrappers use the objects they are given.

>>> def shout(documents):                        # any list[str] -> list[str]
...     return [d.upper() for d in documents]
>>> run = generate_and_score(shout, documents=["the cat sat", "a dog"],
...                          references=["the cat sat down", ["a dog", "dogs"]], rouge_types=["rouge1"])
>>> run.predictions
['THE CAT SAT', 'A DOG']
>>> round(run.scores["rouge1"].fmeasure, 4), run.n
(0.9286, 2)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from .config import DEFAULT_ROUGE_TYPES, RougeConfig
from .jsonl import parse_jsonl
from .result import GenerationResult
from .scoring import Rouge, normalize_references

logger = logging.getLogger("rouge_metric")

Generator = Callable[[List[str]], Sequence[str]]

#: What to do with cached generations made for another document or other settings.
ON_CACHE_MISMATCH = ("error", "regenerate")

#: Marker of the cache file format (first key of its settings lines).
CACHE_FORMAT = "rouge_metric.generation_cache/1"

#: The settings key naming what generated the rows (``module:qualname``, :func:`generator_name`): two
#: generators never share cached rows, whatever else their settings say.
GENERATOR_KEY = "generator_callable"

_HASH_CHARS = 16  # 64 bits of sha256: ample to tell documents and settings apart


# ------------------------------------------------------------------------------------------ data
def _column_list(values: Any, name: str) -> List[Any]:
    if hasattr(values, "tolist") and not isinstance(values, (str, bytes)):
        values = values.tolist()
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"column {name!r}: expected a list of values, got {type(values).__name__}") from None


def _read_jsonl_rows(path: str) -> List[Dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    return [obj for _, obj in parse_jsonl(text, path)]


def _columns_of(data: Any, names: Sequence[str], where: str) -> Tuple[List[List[Any]], str]:
    """The named columns of ``data`` and a description of it for messages."""
    if isinstance(data, (str, os.PathLike)):
        path = os.fspath(data)
        if os.path.isdir(path):
            from ._lazy import require

            data = require("datasets", "evaluate", "a dataset folder saved with save_to_disk").load_from_disk(path)
            where = path
        else:
            if not os.path.exists(path):
                raise FileNotFoundError(f"data: {path}: no such file (expected a JSONL file or a dataset folder "
                                        "saved with save_to_disk)")
            return _columns_of_rows(_read_jsonl_rows(path), names, path), path
    kind = type(data).__name__
    if kind == "DatasetDict" or (isinstance(data, Mapping) and data and
                                 all(hasattr(v, "column_names") for v in data.values())):
        raise TypeError(f"{where}: a DatasetDict with splits {list(data)}; pass one split, e.g. "
                        f"data[{next(iter(data))!r}]")
    if hasattr(data, "column_names") and hasattr(data, "with_format") and hasattr(data, "__len__"):
        available = list(data.column_names)
        _check_names(names, available, where)
        plain = data.with_format(None)
        cols = []
        for n in names:
            col = plain[n]
            if not isinstance(col, list):  # a datasets Column: a slice reads it whole, far faster than iterating
                col = col[:]
            cols.append(_column_list(col, n))
        return cols, where
    if hasattr(data, "columns") and hasattr(data, "to_dict") and not isinstance(data, Mapping):  # a DataFrame
        data = data.to_dict("list")
    if isinstance(data, Mapping):
        available = list(data)
        _check_names(names, available, where)
        cols = [_column_list(data[n], n) for n in names]
        for n, col in zip(names, cols):
            if len(col) != len(cols[0]):
                raise ValueError(f"{where}: column {n!r} has {len(col)} values but column {names[0]!r} has "
                                 f"{len(cols[0])}")
        return cols, where
    if isinstance(data, (str, bytes)) or not hasattr(data, "__iter__"):
        raise TypeError(f"data: expected a datasets.Dataset, a JSONL path, a dict of columns or a list of row "
                        f"dicts, got {type(data).__name__}")
    return _columns_of_rows(list(data), names, where), where


def _columns_of_rows(rows: List[Any], names: Sequence[str], where: str) -> List[List[Any]]:
    cols: List[List[Any]] = [[] for _ in names]
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise TypeError(f"{where}: row {i}: expected a dict of columns, got {type(row).__name__}")
        for col, n in zip(cols, names):
            if n not in row:
                raise ValueError(f"{where}: row {i} has no column {n!r}; its columns are {sorted(row)}")
            col.append(row[n])
    return cols


def _check_names(names: Sequence[str], available: Sequence[str], where: str) -> None:
    for n in names:
        if n not in available:
            raise ValueError(f"{where}: no column {n!r}; the columns are {list(available)} (choose them with "
                             "document_column= and references_column=)")


def load_examples(data: Any = None, *, documents: Optional[Sequence[str]] = None,
                  references: Optional[Sequence[Any]] = None, document_column: str = "document",
                  references_column: Union[str, Sequence[str]] = "references") -> Tuple[List[str], List[List[str]]]:
    """Documents and per-example reference lists, from ``data`` or from ``documents`` + ``references``.

    ``data`` is a ``datasets.Dataset`` (or ``IterableDataset``), a JSONL path, a folder saved with
    ``save_to_disk``, a dict of columns, a pandas DataFrame or a list of row dicts. ``references_column``
    names one column or several; a cell is a string or a list of strings, and the references of several
    columns are concatenated per example.
    """
    ref_cols = [references_column] if isinstance(references_column, str) else list(references_column)
    for arg, val in [("document_column", document_column)] + [("references_column", c) for c in ref_cols]:
        if not isinstance(val, str) or not val:
            raise TypeError(f"{arg}: expected a column name (non-empty str), got {val!r}")
    if not ref_cols:
        raise ValueError("references_column: name at least one column")
    if data is not None:
        if documents is not None or references is not None:
            raise TypeError("give data= (with document_column= / references_column=) or documents= and "
                            "references=, not both")
        cols, where = _columns_of(data, [document_column] + ref_cols, "data")
        docs, ref_values = cols[0], cols[1:]
    else:
        if documents is None or references is None:
            raise TypeError("give data= (a Dataset, a JSONL path, columns or rows), or documents= and references=")
        where, ref_cols = "data", ["references"]
        docs = _column_list(documents, "documents") if not isinstance(documents, str) else None
        if docs is None:
            raise TypeError("documents: expected a list of texts, got a single str; wrap it in a list")
        if isinstance(references, str):
            raise TypeError("references: expected a list (one entry per document), got a single str")
        document_column = "documents"
        ref_values = [_column_list(references, "references")]
        if len(ref_values[0]) != len(docs):
            raise ValueError(f"documents and references must have the same length: got {len(docs)} documents and "
                             f"{len(ref_values[0])} references")
    if not docs:
        raise ValueError(f"{where}: no examples (empty input)")
    for i, d in enumerate(docs):
        if not isinstance(d, str):
            raise TypeError(f"{document_column}[{i}]: expected str, got {'None' if d is None else type(d).__name__}")
    refs: List[List[str]] = [[] for _ in docs]
    for name, col in zip(ref_cols, ref_values):
        for i, (acc, r) in enumerate(zip(refs, col)):
            acc.extend(normalize_references(r, i, name))
    return docs, refs


# ----------------------------------------------------------------------------------------- cache
def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_CHARS]


def canonical_settings(settings: Mapping[str, Any]) -> str:
    """The settings as canonical JSON (sorted keys): what the settings hash is taken of."""
    try:
        return json.dumps(settings, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"settings: must be JSON values (str, numbers, bools, None, lists, dicts): {exc}") from None


def _describe(indices: Sequence[int]) -> str:
    if len(indices) == 1:
        return f"example {indices[0]}"
    if list(indices) == list(range(indices[0], indices[-1] + 1)):
        return f"examples {indices[0]}-{indices[-1]}"
    shown = ", ".join(map(str, indices[:6]))
    return f"examples {shown}" + (f", ... ({len(indices)} in all)" if len(indices) > 6 else "")


def _settings_diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """``key: old -> new`` for every setting that differs (``(unset)`` where a side lacks the key)."""
    show = lambda d, k: json.dumps(d[k]) if k in d else "(unset)"  # noqa: E731
    parts = [f"{k}: {show(old, k)} -> {show(new, k)}" for k in sorted(set(old) | set(new))
             if (k in old) != (k in new) or old.get(k) != new.get(k)]
    return "; ".join(parts) if parts else "(the same keys and values)"


class GenerationCache:
    """The JSONL cache of finished generations, one file per run (or per series of resumed runs).

    Lines: ``{"format": ..., "settings_sha256": h, "settings": {...}}`` once per settings used, then one
    ``{"index": i, "document_sha256": d, "settings_sha256": h, "prediction": "..."}`` per generation.
    A later line for the same index and settings replaces an earlier one. A last line cut short by an
    interruption is dropped (and cut off the file before the next append).
    """

    def __init__(self, path: Union[str, "os.PathLike[str]"], settings: Mapping[str, Any]) -> None:
        self.path = os.fspath(path)
        self.settings = dict(settings)
        self.settings_json = canonical_settings(self.settings)
        self.settings_hash = _sha(self.settings_json)
        self._valid_size = 0
        self._known_settings: Dict[str, Dict[str, Any]] = {}
        self._entries: List[Tuple[int, str, str, str]] = []
        self._fh: Any = None
        if os.path.isdir(self.path):
            raise IsADirectoryError(f"cache: {self.path} is a directory; give a file path (e.g. generations.jsonl)")
        if os.path.exists(self.path):
            self._read()

    def _read(self) -> None:
        with open(self.path, "rb") as fh:
            data = fh.read()
        end = data.rfind(b"\n") + 1  # lines after the last newline were cut by an interruption
        if end < len(data):
            logger.warning("cache %s: dropping an unfinished last line (%d bytes) left by an interrupted run",
                           self.path, len(data) - end)
        self._valid_size = end
        for lineno, raw in enumerate(data[:end].split(b"\n")[:-1], 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw.decode("utf-8"))
                if "format" in obj:
                    if obj["format"] != CACHE_FORMAT:
                        raise ValueError(f"unknown format {obj['format']!r}")
                    self._known_settings[obj["settings_sha256"]] = obj["settings"]
                else:
                    entry = (obj["index"], obj["document_sha256"], obj["settings_sha256"], obj["prediction"])
                    if not (isinstance(entry[0], int) and isinstance(entry[3], str)):
                        raise ValueError("bad index or prediction")
                    self._entries.append(entry)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise ValueError(f"cache: {self.path}:{lineno}: not a line of a rouge_metric generation cache "
                                 f"({exc}); give another cache path") from None

    def lookup(self, documents: Sequence[str]
               ) -> Tuple[Dict[int, str], List[int], List[int], Dict[str, Dict[str, Any]]]:
        """``(found, changed_documents, other_settings, their settings)`` for the current documents:
        ``found[i]`` is the cached generation of example i; the two lists name the examples that have no
        valid entry but an entry made for another document, or only entries made with other settings."""
        doc_hashes = [_sha(d) for d in documents]
        found: Dict[int, str] = {}
        stale_doc, stale_settings = set(), set()
        other: Dict[str, Dict[str, Any]] = {}
        for i, dh, sh, pred in self._entries:
            if not 0 <= i < len(documents):
                continue  # an example beyond the data (a subset of a larger run): unused
            if sh != self.settings_hash:
                stale_settings.add(i)
                other[sh] = self._known_settings.get(sh, {})
            elif dh != doc_hashes[i]:
                stale_doc.add(i)
            else:
                found[i] = pred
        return (found, sorted(stale_doc - set(found)), sorted(stale_settings - set(found) - stale_doc), other)

    def append(self, items: Sequence[Tuple[int, str, str]]) -> None:
        """Append ``(index, document, prediction)`` lines, then flush them to the disk."""
        if self._fh is None:
            if os.path.exists(self.path) and os.path.getsize(self.path) > self._valid_size:
                with open(self.path, "r+b") as fh:
                    fh.truncate(self._valid_size)
            parent = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(parent, exist_ok=True)
            self._fh = open(self.path, "a", encoding="utf-8", newline="\n")
            if self.settings_hash not in self._known_settings:
                self._write({"format": CACHE_FORMAT, "settings_sha256": self.settings_hash,
                             "settings": json.loads(self.settings_json)})
                self._known_settings[self.settings_hash] = self.settings
        for i, doc, pred in items:
            self._write({"index": i, "document_sha256": _sha(doc), "settings_sha256": self.settings_hash,
                         "prediction": pred})
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def _write(self, obj: Mapping[str, Any]) -> None:
        self._fh.write(json.dumps(obj, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


# ------------------------------------------------------------------------------------ generation
def _check_outputs(outputs: Any, batch: int, indices: List[int]) -> List[str]:
    where = f"generator: batch {batch} ({_describe(indices)})"
    if isinstance(outputs, (str, bytes)) or isinstance(outputs, Mapping) or not hasattr(outputs, "__len__"):
        raise TypeError(f"{where}: returned a {type(outputs).__name__}; expected a list of {len(indices)} str "
                        "(one generation per document)")
    outputs = list(outputs)
    if len(outputs) != len(indices):
        raise ValueError(f"{where}: returned {len(outputs)} outputs for {len(indices)} documents; expected one "
                         "generation per document, in order")
    for k, out in enumerate(outputs):
        if not isinstance(out, str):
            hint = ""
            first = out[0] if isinstance(out, list) and out else out
            if isinstance(first, Mapping) and "generated_text" in first:
                hint = " (a transformers pipeline's output: wrap the pipeline in rouge_metric.PipelineGenerator)"
            raise TypeError(f"generator: batch {batch}, output {k} (example {indices[k]}): expected str, got "
                            f"{'None' if out is None else type(out).__name__}{hint}")
    return outputs


def generator_name(generator: Any) -> str:
    """``module:qualname`` of what generates: the function, or the class of a callable object; a wrapper
    that sets ``__wrapped__`` (``functools.wraps``) is named by what it wraps, a ``functools.partial`` by its
    function."""
    seen = 0
    while seen < 100:  # __wrapped__ chains end; the bound guards against a cycle
        inner = getattr(generator, "__wrapped__", None)
        if inner is None:
            inner = getattr(generator, "func", None) if type(generator).__name__ == "partial" else None
        if inner is None:
            break
        generator, seen = inner, seen + 1
    named = generator if hasattr(generator, "__qualname__") and not hasattr(generator, "__self__") or \
        isinstance(generator, type) else None
    if named is None and hasattr(generator, "__func__"):  # a bound method: its class and name
        named = generator.__func__
    if named is None:
        named = type(generator)
    return f"{getattr(named, '__module__', None) or '?'}:{getattr(named, '__qualname__', type(named).__name__)}"


def _settings_of(generator: Any, settings: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """The cache key's settings: the generator's name (:data:`GENERATOR_KEY`), its own
    ``generation_settings`` and the caller's ``settings``."""
    out: Dict[str, Any] = {}
    own = getattr(generator, "generation_settings", None)
    if own is not None:
        out.update(own)
    if settings is not None:
        if not isinstance(settings, Mapping):
            raise TypeError(f"settings: expected a dict of JSON values, got {type(settings).__name__}")
        out.update(settings)
    if GENERATOR_KEY in out:
        raise ValueError(f"settings: {GENERATOR_KEY!r} is reserved: the cache records the generator's name there")
    out[GENERATOR_KEY] = generator_name(generator)
    canonical_settings(out)  # fail now, before any generation
    return out


def _is_transformers_pipeline(obj: Any) -> bool:
    return any(c.__module__.startswith("transformers.pipelines") and c.__name__ == "Pipeline"
               for c in type(obj).__mro__)


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with datasets
        return None
    return tqdm(total=total, initial=initial, file=sys.stderr, unit="ex", desc="generating",
                disable=None, mininterval=0.5)


def generate_and_score(generator: Generator, data: Any = None, *, documents: Optional[Sequence[str]] = None,
                       references: Optional[Sequence[Any]] = None, document_column: str = "document",
                       references_column: Union[str, Sequence[str]] = "references", batch_size: int = 8,
                       cache: Union[None, str, "os.PathLike[str]"] = None,
                       settings: Optional[Mapping[str, Any]] = None, on_cache_mismatch: str = "error",
                       rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, config: Optional[RougeConfig] = None,
                       backend: Optional[str] = None, num_threads: Optional[int] = None,
                       return_per_example: bool = False, progress: bool = True, **options: Any) -> GenerationResult:
    """Generate a prediction for every document with ``generator``, then score them against the references.

    Args:
        generator: a batch callable ``list[str] -> list[str]`` (one generation per document, in order):
            :class:`PipelineGenerator` (a transformers ``text-generation`` pipeline, chat models included),
            :class:`ModelGenerator` (``model.generate``), or any function (vLLM, an HTTP client, ...).
            Its ``generation_settings`` attribute, when present, is part of the cache key.
        data: a ``datasets.Dataset``, a JSONL path, a folder saved with ``save_to_disk``, a dict of columns
            or a list of row dicts; or give ``documents=`` and ``references=`` lists instead.
        document_column, references_column: the column of the document, and the column (or list of
            columns) of the reference(s): a string or a list of strings per example.
        batch_size: documents per generator call.
        cache: a JSONL file keeping finished generations (flushed after every batch): a rerun generates
            only the missing examples. None keeps nothing.
        settings: JSON values that change the generations (model name, checkpoint, prompt, sampling
            parameters, ...): hashed into the cache key with the generator's own ``generation_settings``.
        on_cache_mismatch: ``"error"`` (default): refuse a cache holding, for an example still to do, a
            generation made for another document or with other settings; ``"regenerate"``: generate those
            examples again (the stale lines stay in the file, unused).
        rouge_types, config, backend, num_threads, **options: the scorer (:class:`Rouge`; ``options`` are
            :class:`RougeConfig` fields: ``use_stemmer``, ``multi_ref``, ``aggregation``, ...).
        return_per_example: keep per-example scores (``result.per_example`` and :meth:`GenerationResult.rows`).
        progress: draw a progress bar on stderr (when stderr is a terminal).

    Returns a :class:`GenerationResult`: the :class:`CorpusResult` (n, mean scores, mean prediction and
    reference lengths, signature, intervals when bootstrapping), the predictions and the references.

    Complexity: one generator call per ``batch_size`` missing examples; the cache is read once (O(file
    size)) and written once per batch; scoring is :meth:`Rouge.compute` (linear in the tokens for
    n-grams, O(m·n/w) per pair for the LCS types).
    """
    if not callable(generator):
        raise TypeError(f"generator: expected a callable list[str] -> list[str], got {type(generator).__name__}")
    if _is_transformers_pipeline(generator):
        raise TypeError("generator: a transformers pipeline returns dicts, not strings; wrap it: "
                        "rouge_metric.PipelineGenerator(pipe, prompt=..., max_new_tokens=...)")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size: expected an integer >= 1, got {batch_size!r}")
    if on_cache_mismatch not in ON_CACHE_MISMATCH:
        raise ValueError(f"on_cache_mismatch: expected one of {', '.join(ON_CACHE_MISMATCH)}, "
                         f"got {on_cache_mismatch!r}")
    # Everything that can be wrong is checked before the first (possibly expensive) generation.
    rouge = Rouge(rouge_types, config=config, backend=backend, num_threads=num_threads, **options)
    docs, refs = load_examples(data, documents=documents, references=references, document_column=document_column,
                               references_column=references_column)
    run_settings = _settings_of(generator, settings)
    store = GenerationCache(cache, run_settings) if cache is not None else None
    found: Dict[int, str] = {}
    if store is not None:
        found, changed, other, other_settings = store.lookup(docs)
        if (changed or other) and on_cache_mismatch == "error":
            problems = []
            if changed:
                problems.append(f"{_describe(changed)}: the document differs from the one the cached generation "
                                "was made for (the data changed or was reordered)")
            if other:
                diffs = "; ".join(_settings_diff(s, run_settings) for s in other_settings.values())
                problems.append(f"{_describe(other)}: generated with other settings ({diffs})")
                if any(GENERATOR_KEY not in s for s in other_settings.values()):
                    problems.append(f"a cache written before {GENERATOR_KEY!r} was recorded cannot tell which "
                                    "generator made its rows, so they are not reused")
            raise ValueError(f"cache: {store.path} holds generations made for other inputs: " + "; ".join(problems)
                             + ". Delete the file, give another cache path, or pass on_cache_mismatch='regenerate' "
                             "to generate these examples again")
        if changed or other:
            logger.warning("cache %s: generating %d examples again (%s)", store.path, len(changed) + len(other),
                           "changed documents or settings")
    predictions: List[Optional[str]] = [found.get(i) for i in range(len(docs))]
    missing = [i for i, p in enumerate(predictions) if p is None]
    bar = _progress_bar(len(docs), len(docs) - len(missing), progress and bool(missing))
    batch = 0
    try:
        for batch, start in enumerate(range(0, len(missing), batch_size)):
            indices = missing[start:start + batch_size]
            outputs = _check_outputs(generator([docs[i] for i in indices]), batch, indices)
            if store is not None:
                store.append([(i, docs[i], out) for i, out in zip(indices, outputs)])
            for i, out in zip(indices, outputs):
                predictions[i] = out
            if bar is not None:
                bar.update(len(indices))
    except BaseException:
        if store is not None and missing:
            done = sum(p is not None for p in predictions)
            logger.warning("generation stopped at batch %d; %d of %d generations are in %s: run again with the same "
                           "cache to resume", batch, done, len(docs), store.path)
        raise
    finally:
        if bar is not None:
            bar.close()
        if store is not None:
            store.close()
    preds: List[str] = predictions  # type: ignore[assignment]  # every slot is filled now
    result = rouge.compute(predictions=preds, references=refs, return_per_example=return_per_example)
    return GenerationResult(result=result, predictions=preds, references=refs, generated=len(missing),
                            cached=len(docs) - len(missing), cache=store.path if store is not None else None,
                            settings=run_settings)


# ---------------------------------------------------------------------------- transformers wrappers
def _format_prompt(prompt: str, document: str) -> str:
    return prompt.replace("{document}", document)


def _check_prompt(prompt: Any) -> str:
    if not isinstance(prompt, str) or "{document}" not in prompt:
        raise ValueError(f"prompt: expected a str containing {{document}} (where the document goes), got {prompt!r}")
    return prompt


def _json_kwargs(kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    for k, v in kwargs.items():
        try:
            json.dumps(v, allow_nan=False)
        except (TypeError, ValueError):
            raise TypeError(f"{k}: generation keyword arguments must be JSON values (they key the cache), got "
                            f"{type(v).__name__}") from None
    return dict(kwargs)


#: The ``generate`` arguments that set the output length: give one, ``generate`` warns when both are set.
LENGTH_KEYS = ("max_length", "max_new_tokens")


@contextlib.contextmanager
def _one_length(owners: Sequence[Any], kwargs: Mapping[str, Any]) -> Iterator[None]:
    """With an explicit ``max_new_tokens`` (and no ``max_length``) in ``kwargs``, set aside the ``max_length``
    of the owners' ``generation_config`` for the block, and put it back after.

    transformers takes ``max_new_tokens`` over ``max_length`` but warns "Both max_new_tokens and max_length
    seem to have been set" when a ``generation_config`` carries a ``max_length`` too; setting it aside
    changes no generated token.
    """
    saved = []
    if kwargs.get("max_new_tokens") is not None and kwargs.get("max_length") is None:
        for owner in owners:
            config = getattr(owner, "generation_config", None)
            if getattr(config, "max_length", None) is not None:
                saved.append((config, config.max_length))
                config.max_length = None
    try:
        yield
    finally:
        for config, value in saved:
            config.max_length = value


def generate_once(model: Any, **kwargs: Any) -> Any:
    """``model.generate(**kwargs)`` where an explicit ``max_new_tokens`` is the only length (no "Both
    max_new_tokens and max_length" warning; the same tokens)."""
    with _one_length([model], kwargs):
        return model.generate(**kwargs)


class PipelineGenerator:
    """A transformers ``text-generation`` pipeline as a batch callable ``list[str] -> list[str]``.

    Each document is put into ``prompt`` (at ``{document}``); with a chat model (the tokenizer has a chat
    template, or ``chat=True``) the prompt is sent as the user message, after ``system`` when given.
    Decoding is greedy unless ``do_sample=True`` is given (the pipeline itself samples when
    ``do_sample`` is unset, so two runs would differ). The pipeline returns only the new text
    (``return_full_text=False``) and runs each batch of documents as one batch (``batch_size`` splits it
    further, e.g. for memory). ``generate_kwargs``
    (``max_new_tokens``, ``do_sample``, ...) go to every call; they, the prompt and the model's name are
    the :attr:`generation_settings` that key the cache.
    """

    def __init__(self, pipe: Any, prompt: str = "{document}", *, system: Optional[str] = None,
                 chat: Optional[bool] = None, batch_size: Optional[int] = None, **generate_kwargs: Any) -> None:
        if not callable(pipe):
            raise TypeError(f"pipe: expected a transformers text-generation pipeline, got {type(pipe).__name__}")
        task = getattr(pipe, "task", None)
        if task is not None and task != "text-generation":
            raise ValueError(f"pipe: expected a 'text-generation' pipeline, got task {task!r}")
        self.pipe = pipe
        self.prompt = _check_prompt(prompt)
        self.system = system
        tokenizer = getattr(pipe, "tokenizer", None)
        self.chat = bool(getattr(tokenizer, "chat_template", None)) if chat is None else bool(chat)
        self.batch_size = batch_size
        self.generate_kwargs = _json_kwargs({"do_sample": False, **generate_kwargs})

    @property
    def generation_settings(self) -> Dict[str, Any]:
        model = getattr(self.pipe, "model", None)
        return {"generator": "transformers text-generation pipeline",
                "model": getattr(model, "name_or_path", None) or type(model).__name__,
                "prompt": self.prompt, "system": self.system, "chat": self.chat,
                "generate_kwargs": self.generate_kwargs}

    def _input(self, document: str) -> Any:
        text = _format_prompt(self.prompt, document)
        if not self.chat:
            return text
        messages = [{"role": "system", "content": self.system}] if self.system is not None else []
        return messages + [{"role": "user", "content": text}]

    def __call__(self, documents: List[str]) -> List[str]:
        kwargs = dict(self.generate_kwargs, return_full_text=False, batch_size=self.batch_size or len(documents))
        with _one_length([getattr(self.pipe, "model", None), self.pipe], kwargs):
            outputs = self.pipe([self._input(d) for d in documents], **kwargs)
        texts = []
        for out in outputs:
            first = out[0] if isinstance(out, list) else out
            text = first["generated_text"]
            if isinstance(text, list):  # a conversation: the reply is the last message
                text = text[-1]["content"]
            texts.append(text)
        return texts


class ModelGenerator:
    """``model.generate`` as a batch callable ``list[str] -> list[str]``, for seq2seq and causal LMs.

    Documents are put into ``prompt`` (at ``{document}``), tokenized as one padded batch (left padding for a
    decoder-only model, whose prompt is then cut from the output), truncated to ``max_input_length``
    tokens when given, generated with ``generate_kwargs`` (greedy unless ``do_sample=True``) and decoded
    without special tokens. A model in
    training mode generates in eval mode (no dropout) and is put back in training mode. The keyword
    arguments, the prompt and the model's name are the :attr:`generation_settings`.
    """

    def __init__(self, model: Any, tokenizer: Any, prompt: str = "{document}", *,
                 max_input_length: Optional[int] = None, **generate_kwargs: Any) -> None:
        if not hasattr(model, "generate"):
            raise TypeError(f"model: expected a transformers model with .generate, got {type(model).__name__}")
        if tokenizer is None or not callable(tokenizer):
            raise TypeError(f"tokenizer: expected the model's tokenizer, got {type(tokenizer).__name__}")
        if max_input_length is not None and (isinstance(max_input_length, bool) or not isinstance(max_input_length, int)
                                             or max_input_length < 1):
            raise ValueError(f"max_input_length: expected an integer >= 1 or None, got {max_input_length!r}")
        self.model = model
        self.tokenizer = tokenizer
        self.prompt = _check_prompt(prompt)
        self.max_input_length = max_input_length
        self.generate_kwargs = _json_kwargs({"do_sample": False, **generate_kwargs})
        self.encoder_decoder = bool(getattr(getattr(model, "config", None), "is_encoder_decoder", False))

    @property
    def generation_settings(self) -> Dict[str, Any]:
        return {"generator": "model.generate", "model": getattr(self.model, "name_or_path", None)
                or type(self.model).__name__, "prompt": self.prompt, "max_input_length": self.max_input_length,
                "generate_kwargs": self.generate_kwargs}

    def __call__(self, documents: List[str]) -> List[str]:
        tok = self.tokenizer
        texts = [_format_prompt(self.prompt, d) for d in documents]
        side = tok.padding_side
        tok.padding_side = "right" if self.encoder_decoder else "left"
        try:
            enc = tok(texts, return_tensors="pt", padding=True, truncation=self.max_input_length is not None,
                      max_length=self.max_input_length)
        finally:
            tok.padding_side = side
        device = getattr(self.model, "device", None)
        if device is not None:
            enc = enc.to(device)
        training = getattr(self.model, "training", False)
        if training:  # no dropout while generating; a model in training goes back to training mode
            self.model.eval()
        try:
            out = generate_once(self.model, **enc, **self.generate_kwargs)
        finally:
            if training:
                self.model.train()
        if not self.encoder_decoder:
            out = out[:, enc["input_ids"].shape[1]:]
        return tok.batch_decode(out, skip_special_tokens=True)
