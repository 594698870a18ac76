"""The run: generate a prediction for every document in batches (resuming from the cache), then score the
predictions against the references with :class:`~rouge_metric.Rouge`.

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
``on_cache_mismatch="regenerate"``, generated again).

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

import logging
import os
import sys
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from ..config import DEFAULT_ROUGE_TYPES, RougeConfig
from ..result import GenerationResult
from ..scoring import Rouge
from .cache import GENERATOR_KEY, GenerationCache, canonical_settings, describe_examples, settings_diff
from .examples import read_examples

logger = logging.getLogger("rouge_metric")

Generator = Callable[[List[str]], Sequence[str]]

#: What to do with cached generations made for another document or other settings.
ON_CACHE_MISMATCH = ("error", "regenerate")

def _is_token_ids(out: Any) -> bool:
    if hasattr(out, "tolist") and not isinstance(out, (str, bytes)):
        out = out.tolist()
    return isinstance(out, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in out)


def _check_outputs(outputs: Any, batch: int, indices: List[int], token_ids: bool = False) -> List[Any]:
    where = f"generator: batch {batch} ({describe_examples(indices)})"
    if isinstance(outputs, (str, bytes)) or isinstance(outputs, Mapping) or not hasattr(outputs, "__len__"):
        raise TypeError(f"{where}: returned a {type(outputs).__name__}; expected a list of {len(indices)} str "
                        "(one generation per document)")
    outputs = list(outputs)
    if len(outputs) != len(indices):
        raise ValueError(f"{where}: returned {len(outputs)} outputs for {len(indices)} documents; expected one "
                         "generation per document, in order")
    for k, out in enumerate(outputs):
        if not isinstance(out, str) and not (token_ids and _is_token_ids(out)):
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
            Its ``generation_settings`` attribute, when present, is part of the cache key. A generator that
            reads token ids takes tokenized rows as documents (dicts with ``input_ids``, e.g.
            ``rouge_metric.callbacks.TokenizedGenerator``, what ``RougeCallback``'s generate mode runs); with
            a scorer that reads token ids (``tokenizer="ids"``) the generations and references are token ids.
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
    docs, refs = read_examples(data, documents=documents, references=references, document_column=document_column,
                               references_column=references_column, token_ids=rouge.config.uses_ids)
    run_settings = _settings_of(generator, settings)
    store = GenerationCache(cache, run_settings) if cache is not None else None
    found: Dict[int, str] = {}
    if store is not None:
        found, changed, other, other_settings = store.lookup(docs)
        if (changed or other) and on_cache_mismatch == "error":
            problems = []
            if changed:
                problems.append(f"{describe_examples(changed)}: the document differs from the one the cached generation "
                                "was made for (the data changed or was reordered)")
            if other:
                diffs = "; ".join(settings_diff(s, run_settings) for s in other_settings.values())
                problems.append(f"{describe_examples(other)}: generated with other settings ({diffs})")
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
            outputs = _check_outputs(generator([docs[i] for i in indices]), batch, indices, rouge.config.uses_ids)
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


