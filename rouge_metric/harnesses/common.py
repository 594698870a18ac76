"""What every harness recipe shares: the result type, the signature, the harness versions, pair scoring
on the core and rouge-score's bootstrap aggregator."""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .._record import Record
from ..result import Score
from ..rouge_score.scoring import BootstrapAggregator
from ..scoring import Rouge

#: The harness versions whose code each recipe was read from and tested against.
HARNESS_VERSIONS: Dict[str, str] = {
    "lm-eval": "0.4.13",
    "lighteval": "0.13.0",
    "crfm-helm": "0.5.6",
    "multilingual-rouge": "0.0.1",
    "evaluate": "0.4.6",
    "mlflow": "3.17.2",
    "torchmetrics": "1.9.0",
    "rouge": "1.0.1",
}


class HarnessResult(Record):
    """What a recipe returns.

    Attributes:
        scores: the harness's reported numbers, under the harness's own metric names.
        per_example: the per-example (per-question, per-sample, per-row) values the harness averages,
            one dict per example under the same names (None for recipes without them).
        signature: ``recipe:<name>|harness:<package>==<version>|`` + the core's settings signature.
        recipe: the recipe name (the first field of the signature).
    """

    __module__ = "rouge_metric.harnesses"  # its public home (repr, pickles)
    _fields = ("scores", "per_example", "signature", "recipe")
    scores: Dict[str, float]
    per_example: Optional[List[Dict[str, float]]]
    signature: str
    recipe: str

    def __init__(self, scores: Dict[str, float], per_example: Optional[List[Dict[str, float]]], signature: str,
                 recipe: str) -> None:
        self._init(scores=scores, per_example=per_example, signature=signature, recipe=recipe)


def signature(recipe: str, harness: str, rest: str) -> str:
    """``recipe:..|harness:..==<version>|`` + ``rest`` (the core's signature without its ``agg:`` field:
    a recipe reduces the scores the harness's way, named by the recipe and any ``reduce:`` field)."""
    rest = "|".join(p for p in rest.split("|") if not p.startswith("agg:"))
    return f"recipe:{recipe}|harness:{harness}=={HARNESS_VERSIONS[harness]}|{rest}"


def result(recipe: str, harness: str, rest: str, scores: Dict[str, float],
           per_example: Optional[List[Dict[str, float]]]) -> HarnessResult:
    """A :class:`HarnessResult` whose signature is :func:`signature` of ``recipe``, ``harness``, ``rest``."""
    return HarnessResult(scores, per_example, signature(recipe, harness, rest), recipe)


def pair_scores(rouge: Rouge, pairs: Sequence[Tuple[str, str]]) -> List[Dict[str, Score]]:
    """rouge-score's ``score(reference, prediction)`` of every (prediction, reference) pair, in one batch."""
    if not pairs:
        return []
    return rouge.score_examples(predictions=[p for p, _ in pairs], references=[r for _, r in pairs])


def chunks(values: Sequence, sizes: Sequence[int]) -> List[Sequence]:
    """``values`` cut into consecutive pieces of the given sizes (the pairs of each example)."""
    out, k = [], 0
    for n in sizes:
        out.append(values[k:k + n])
        k += n
    return out


def bootstrap_mid_f(per_example: Sequence[Mapping[str, Score]], rouge_types: Sequence[str]) -> Dict[str, float]:
    """``mid.fmeasure`` per type of rouge-score's ``BootstrapAggregator()`` (1,000 resamples, 95%) fed one
    ``add_scores`` per example, as the harnesses feed it: the drop-in's aggregator
    (:class:`rouge_metric.rouge_score.scoring.BootstrapAggregator`), which gives rouge-score's floats for
    the same state of numpy's global generator and leaves it in the same state."""
    agg = BootstrapAggregator()
    for scores in per_example:
        agg.add_scores({t: scores[t] for t in rouge_types})
    out = agg.aggregate()
    return {t: float(out[t].mid.fmeasure) for t in rouge_types}
