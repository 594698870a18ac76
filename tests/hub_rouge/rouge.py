"""HF evaluate's Hub ``rouge`` metric (``evaluate-metric/rouge``, the script ``metrics/rouge/rouge.py`` of
huggingface/evaluate), re-created as a local module script so that ``evaluate.load(<path of this file>)``
loads it offline, with evaluate's own loading, seeding (``temp_seed``) and Arrow round trip.

It makes the same calls in the same order as the Hub script: an ``evaluate.Metric`` subclass named
``Rouge`` (module name ``rouge``), two feature sets (one reference string, or a list of them), and
``_compute`` building rouge-score's ``RougeScorer`` (``tokenizer`` wrapped in an object with a
``tokenize`` method), ``score_multi`` when ``references[0]`` is a list else ``score``, one
``BootstrapAggregator`` reporting ``mid.fmeasure`` or the per-example F lists. The oracle of
tests/test_harnesses.py for :func:`rouge_metric.harnesses.evaluate_rouge` and MLflow.
"""

import datasets
import evaluate
from rouge_score import rouge_scorer, scoring


class TokenizerAdapter:
    """A callable tokenizer as rouge-score wants it: an object with ``tokenize(text)``."""

    def __init__(self, func):
        self.func = func

    def tokenize(self, text):
        return self.func(text)


class Rouge(evaluate.Metric):
    def _info(self):
        text = datasets.Value("string", id="sequence")
        return evaluate.MetricInfo(
            description="ROUGE (rouge-score), as the Hub's evaluate-metric/rouge computes it.",
            citation="Lin, Chin-Yew. ROUGE: A Package for Automatic Evaluation of Summaries. 2004.",
            inputs_description="predictions: list of str; references: list of str or of lists of str; "
                               "rouge_types, use_aggregator, use_stemmer, tokenizer.",
            features=[
                datasets.Features({"predictions": text, "references": datasets.Sequence(text)}),
                datasets.Features({"predictions": text, "references": text}),
            ],
        )

    def _compute(self, predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False,
                 tokenizer=None):
        if rouge_types is None:
            rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        multi_ref = isinstance(references[0], list)
        if tokenizer is not None:
            tokenizer = TokenizerAdapter(tokenizer)
        scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer, tokenizer=tokenizer)
        aggregator = scoring.BootstrapAggregator() if use_aggregator else None
        scores = []
        for ref, pred in zip(references, predictions):
            score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
            if aggregator is not None:
                aggregator.add_scores(score)
            else:
                scores.append(score)
        if aggregator is not None:
            result = aggregator.aggregate()
            return {key: result[key].mid.fmeasure for key in result}
        return {key: [s[key].fmeasure for s in scores] for key in scores[0]}
