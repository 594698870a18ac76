"""Generate with any model, then score: a model over a dataset of documents and references, end to end.

* :mod:`.run`: :func:`generate_and_score`, the run (batches, resume, scoring with :class:`~rouge_metric.Rouge`);
* :mod:`.examples`: :func:`load_examples`, the documents and references of a dataset, a JSONL file, a saved
  dataset folder, columns or rows (files read by :mod:`rouge_metric.readers`, as the command line reads them);
* :mod:`.cache`: :class:`GenerationCache`, the resumable JSONL cache and its keys;
* :mod:`.generators`: :class:`PipelineGenerator` and :class:`ModelGenerator`, Hugging Face objects as batch
  callables.

The public names are documented as ``rouge_metric.generation.<name>`` (and re-exported by ``rouge_metric``).
"""

from .cache import CACHE_FORMAT, GENERATOR_KEY, GenerationCache, canonical_settings
from .examples import load_examples
from .generators import LENGTH_KEYS, ModelGenerator, PipelineGenerator, generate_once
from .run import ON_CACHE_MISMATCH, Generator, generate_and_score, generator_name

__all__ = ["CACHE_FORMAT", "GENERATOR_KEY", "GenerationCache", "Generator", "LENGTH_KEYS", "ModelGenerator",
           "ON_CACHE_MISMATCH", "PipelineGenerator", "canonical_settings", "generate_and_score", "generate_once",
           "generator_name", "load_examples"]

for _name in ("GenerationCache", "ModelGenerator", "PipelineGenerator", "canonical_settings", "generate_and_score",
              "generate_once", "generator_name", "load_examples"):
    globals()[_name].__module__ = __name__  # their documented home
del _name
