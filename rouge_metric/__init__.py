"""rouge_metric: exact, fast ROUGE for the Hugging Face ecosystem.

Numbers are bit-for-bit those of Google's rouge-score 0.1.2 for rouge1..rouge9, rougeL and rougeLsum,
and those of ROUGE-1.5.5 for rougeW, rougeS and rougeSU. See README.md.
"""

from ._lazy import lazy_attributes
from ._version import __version__
from .aggregate import CorpusAccumulator
from .config import DEFAULT_ROUGE_TYPES, MULTI_REF_MODES, RougeConfig
from .core import NativeBackendMissingWarning, active_backend
from .multilingual import SNOWBALL_LANGUAGES, unicode_tokenize
from .result import (AggregateScore, Comparison, ComparisonResult, CorpusResult, GenerationResult, Score,
                     output_key)
from .recipes import compute, make_rouge
from .scoring import Rouge, RougeScorer
from .sentence_split import split_sentences

# Imported on first use (PEP 562), so that `import rouge_metric` costs only what scoring needs: a
# command, a notebook or a job that scores once waits for the import as much as for the scores.
_LAZY = {
    "RougeMapper": "batch", "aggregate_dataset": "batch",
    "ModelGenerator": "generation", "PipelineGenerator": "generation", "generate_and_score": "generation",
    "RougeReward": "rewards", "rouge_reward": "rewards",
    "Rouge155": "rouge155",
    "compare": "significance",
}
__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, globals())

__all__ = [
    "__version__",
    "AggregateScore",
    "Comparison",
    "ComparisonResult",
    "CorpusAccumulator",
    "CorpusResult",
    "GenerationResult",
    "ModelGenerator",
    "PipelineGenerator",
    "DEFAULT_ROUGE_TYPES",
    "MULTI_REF_MODES",
    "NativeBackendMissingWarning",
    "Rouge",
    "Rouge155",
    "RougeConfig",
    "RougeMapper",
    "RougeReward",
    "RougeScorer",
    "SNOWBALL_LANGUAGES",
    "Score",
    "active_backend",
    "aggregate_dataset",
    "compare",
    "compute",
    "generate_and_score",
    "make_rouge",
    "output_key",
    "rouge_reward",
    "split_sentences",
    "unicode_tokenize",
]
