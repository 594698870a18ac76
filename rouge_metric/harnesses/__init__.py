"""Harness recipes: what each evaluation harness reports as ROUGE, float for float, on the project core.

Every harness calls a ROUGE library its own way: its own preprocessing, stemmer choice, multi-reference
rule, scale and aggregation. A recipe here takes what the harness's metric code receives (stated per
recipe), scores the pairs with :class:`rouge_metric.Rouge` (or, for LongBench, the kernel of
:mod:`rouge_metric.pltrdy_rouge`) and applies the harness's own reduction, in the harness's own
arithmetic (``sum/len``, ``np.mean``, float32 torch means), so that the numbers are the ones the harness
prints. Each result carries a signature: the recipe, the harness version it was checked against, and
the core's settings signature. See docs/harnesses.md for what each harness's choices do to the number.

One module per harness, over one set of input checks (:mod:`.validation`) and one result type
(:mod:`.common`):

- :mod:`.lm_eval_tasks`: lm-evaluation-harness ``truthfulqa_gen`` and ``cnn_dailymail``;
- :mod:`.longbench`: LongBench (lm-evaluation-harness), the ``rouge`` package's measure;
- :mod:`.lighteval_metrics`: lighteval ``rouge_t5`` and the single-type metrics;
- :mod:`.helm`: HELM;
- :mod:`.hf_evaluate`: HF evaluate's ``rouge`` with evaluate's seeding;
- :mod:`.mlflow_metrics`: MLflow's ROUGE metrics;
- :mod:`.torchmetrics_score`: torchmetrics ``ROUGEScore``;
- :mod:`.xlsum`: XL-Sum's ``calculate_rouge`` on its multilingual scorer.

>>> r = helm_rouge(completions=[["The cat sat on the mat."]], golds=[["A cat sat on a mat", "x"]], rouge_type="rouge_l")
>>> r.scores
{'rouge_l': 0.6666666666666666}
>>> r.signature.split("|")[:2]
['recipe:helm.rouge_l', 'harness:crfm-helm==0.5.6']
"""

from __future__ import annotations

from typing import Callable, Dict

from ..result import Score
from ..rouge_score.scoring import BootstrapAggregator
from ..scoring import Rouge
from .common import HARNESS_VERSIONS, HarnessResult
from .helm import helm_rouge
from .hf_evaluate import evaluate_module_seed, evaluate_rouge
from .lighteval_metrics import lighteval_rouge, lighteval_rouge_t5
from .lm_eval_tasks import lm_eval_cnn_dailymail, truthfulqa_format_answers, truthfulqa_gen, truthfulqa_process_doc
from .longbench import longbench_rouge
from .mlflow_metrics import mlflow_rouge
from .torchmetrics_score import torchmetrics_rouge
from .xlsum import xlsum_rouge

#: Every recipe by name (the first field of its signature).
RECIPES: Dict[str, Callable[..., HarnessResult]] = {
    "lm_eval.truthfulqa_gen": truthfulqa_gen,
    "lm_eval.cnn_dailymail": lm_eval_cnn_dailymail,
    "lm_eval.longbench": longbench_rouge,
    "lighteval.rouge_t5": lighteval_rouge_t5,
    "lighteval.rouge": lighteval_rouge,
    "helm.rouge": helm_rouge,
    "evaluate.rouge": evaluate_rouge,
    "mlflow.rouge": mlflow_rouge,
    "torchmetrics.rouge": torchmetrics_rouge,
    "xlsum.calculate_rouge": xlsum_rouge,
}

__all__ = ["HARNESS_VERSIONS", "HarnessResult", "RECIPES", "evaluate_module_seed", "evaluate_rouge", "helm_rouge",
           "lighteval_rouge", "lighteval_rouge_t5", "lm_eval_cnn_dailymail", "longbench_rouge", "mlflow_rouge",
           "torchmetrics_rouge", "truthfulqa_format_answers", "truthfulqa_gen", "truthfulqa_process_doc",
           "xlsum_rouge"]
# Rouge, Score and BootstrapAggregator stay importable from here, where the single-module version had them.
