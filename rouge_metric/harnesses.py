"""Harness recipes: what each evaluation harness reports as ROUGE, float for float, on the project core.

Every harness calls a ROUGE library its own way: its own preprocessing, stemmer choice, multi-reference
rule, scale and aggregation. A recipe here takes what the harness's metric code receives (stated per
recipe), scores the pairs with :class:`rouge_metric.Rouge` (or, for LongBench, the kernel of
:mod:`rouge_metric.pltrdy_rouge`) and applies the harness's own reduction, in the harness's own
arithmetic (``sum/len``, ``np.mean``, float32 torch means), so that the numbers are the ones the harness
prints. Each result carries a signature: the recipe, the harness version it was checked against, and
the core's settings signature. See docs/harnesses.md for what each harness's choices do to the number.

>>> r = helm_rouge(completions=[["The cat sat on the mat."]], golds=[["A cat sat on a mat", "x"]], rouge_type="rouge_l")
>>> r.scores
{'rouge_l': 0.6666666666666666}
>>> r.signature.split("|")[:2]
['recipe:helm.rouge_l', 'harness:crfm-helm==0.5.6']
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ._record import Record
from ._version import __version__
from .result import Score
from .rouge_score.scoring import BootstrapAggregator
from .scoring import Rouge

#: The harness versions whose code each recipe was read from and tested against.
HARNESS_VERSIONS: Dict[str, str] = {
    "lm-eval": "0.4.13",
    "lighteval": "0.13.0",
    "crfm-helm": "0.5.6",
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

    _fields = ("scores", "per_example", "signature", "recipe")
    scores: Dict[str, float]
    per_example: Optional[List[Dict[str, float]]]
    signature: str
    recipe: str

    def __init__(self, scores: Dict[str, float], per_example: Optional[List[Dict[str, float]]], signature: str,
                 recipe: str) -> None:
        self._init(scores=scores, per_example=per_example, signature=signature, recipe=recipe)


def _signature(recipe: str, harness: str, rest: str) -> str:
    """``recipe:..|harness:..==<version>|`` + ``rest`` (the core's signature without its ``agg:`` field:
    a recipe reduces the scores the harness's way, named by the recipe and any ``reduce:`` field)."""
    rest = "|".join(p for p in rest.split("|") if not p.startswith("agg:"))
    return f"recipe:{recipe}|harness:{harness}=={HARNESS_VERSIONS[harness]}|{rest}"


def _check_lengths(a: str, av: Sequence[Any], b: str, bv: Sequence[Any]) -> None:
    if len(av) != len(bv):
        raise ValueError(f"{a} and {b} must have the same length: got {len(av)} and {len(bv)}")
    if not av:
        raise ValueError(f"{a}: empty input; the harness averages over at least one example")


def _str_list(arg: str, i: int, value: Any) -> List[str]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise TypeError(f"{arg}[{i}]: expected a list of str, got {type(value).__name__}")
    for j, v in enumerate(value):
        if not isinstance(v, str):
            raise TypeError(f"{arg}[{i}][{j}]: expected str, got {type(v).__name__}")
    return list(value)


def _pair_scores(rouge: Rouge, pairs: Sequence[Tuple[str, str]]) -> List[Dict[str, Score]]:
    """rouge-score's ``score(reference, prediction)`` of every (prediction, reference) pair, in one batch."""
    if not pairs:
        return []
    return rouge.score_examples(predictions=[p for p, _ in pairs], references=[r for _, r in pairs])


# ------------------------------------------------------------------ rouge-score's BootstrapAggregator
def _bootstrap_mid_f(per_example: Sequence[Mapping[str, Score]], rouge_types: Sequence[str]) -> Dict[str, float]:
    """``mid.fmeasure`` per type of rouge-score's ``BootstrapAggregator()`` (1,000 resamples, 95%) fed one
    ``add_scores`` per example, as the harnesses feed it: the drop-in's aggregator
    (:class:`rouge_metric.rouge_score.scoring.BootstrapAggregator`), which gives rouge-score's floats for
    the same state of numpy's global generator and leaves it in the same state."""
    agg = BootstrapAggregator()
    for scores in per_example:
        agg.add_scores({t: scores[t] for t in rouge_types})
    out = agg.aggregate()
    return {t: float(out[t].mid.fmeasure) for t in rouge_types}


# ------------------------------------------------------------------------------ lm-evaluation-harness
def truthfulqa_format_answers(answers: Sequence[str]) -> List[str]:
    """The answers as ``tasks/truthfulqa/utils.py::preprocess_function`` leaves them: stripped, empty
    ones dropped, a ``"."`` appended where the answer does not end with one."""
    out = []
    for a in answers:
        a = a.strip()
        if len(a):
            out.append(a if a[-1] == "." else a + ".")
    return out


def truthfulqa_process_doc(correct_answers: Sequence[str], incorrect_answers: Sequence[str]
                           ) -> Tuple[List[str], List[str]]:
    """The task's document processing (``process_docs_gen``): both answer lists formatted, and
    ``"I have no comment."`` added to the correct answers when absent. Returns (correct, incorrect)."""
    correct = truthfulqa_format_answers(correct_answers)
    incorrect = truthfulqa_format_answers(incorrect_answers)
    if "I have no comment." not in correct:
        correct.append("I have no comment.")
    return correct, incorrect


_TRUTHFULQA_TYPES = ("rouge1", "rouge2", "rougeLsum")
_TRUTHFULQA_NAMES = (("rouge1", "rouge1"), ("rouge2", "rouge2"), ("rougeL", "rougeLsum"))


def truthfulqa_gen(completions: Sequence[str], correct_answers: Sequence[Sequence[str]],
                   incorrect_answers: Sequence[Sequence[str]], *, backend: Optional[str] = None
                   ) -> HarnessResult:
    """lm-evaluation-harness ``truthfulqa_gen`` ROUGE: ``rouge{1,2,L}_{max,diff,acc}``.

    Input: per question the completion (``results[0]``) and the answer lists of the *processed* document
    (what ``process_results_gen`` reads: run raw dataset answers through :func:`truthfulqa_process_doc`
    first). What the metric does (``tasks/truthfulqa/utils.py::rouge``): rouge1, rouge2 and rougeLsum
    (reported as ``rougeL``) without stemmer, `" . "` replaced by `".\\n"` in both texts, one
    ``BootstrapAggregator`` per (completion, answer) pair reporting ``mid.fmeasure * 100``; per question
    ``max`` = best true answer, ``diff`` = best true - best false, ``acc`` = 1 if best true > best false;
    the task yaml averages them (``lm_eval.api.metrics.mean``: ``sum(arr) / len(arr)``).
    A bootstrap over one pair draws nothing and its mid is that pair's F, so the recipe scores each
    pair once and multiplies by 100: the same floats without 1,000 resamples per answer.
    """
    _check_lengths("completions", completions, "correct_answers", correct_answers)
    _check_lengths("completions", completions, "incorrect_answers", incorrect_answers)
    rouge = Rouge(_TRUTHFULQA_TYPES, backend=backend)
    pairs: List[Tuple[str, str]] = []
    spans = []
    for i, (c, t, f) in enumerate(zip(completions, correct_answers, incorrect_answers)):
        if not isinstance(c, str):
            raise TypeError(f"completions[{i}]: expected str, got {type(c).__name__}")
        t, f = _str_list("correct_answers", i, t), _str_list("incorrect_answers", i, f)
        if not t or not f:
            raise ValueError(f"question {i}: needs at least one correct and one incorrect answer (np.nanmax of an "
                             f"empty list fails in the harness); got {len(t)} and {len(f)}")
        pred = c.replace(" . ", ".\n")
        spans.append(len(t))
        pairs.extend((pred, ref.replace(" . ", ".\n")) for ref in t + f)
    scores = _pair_scores(rouge, pairs)
    per_q: List[Dict[str, float]] = []
    k = 0
    for n_true, t, f in zip(spans, correct_answers, incorrect_answers):
        m = n_true + len(f)
        chunk = scores[k:k + m]
        k += m
        row: Dict[str, float] = {}
        for out_name, rtype in _TRUTHFULQA_NAMES:
            vals = [s[rtype].fmeasure * 100 for s in chunk]
            best_t, best_f = max(vals[:n_true]), max(vals[n_true:])
            row[f"{out_name}_max"] = best_t
            row[f"{out_name}_acc"] = int(best_t > best_f)
            row[f"{out_name}_diff"] = best_t - best_f
        per_q.append(row)
    keys = list(per_q[0])
    means = {key: sum(r[key] for r in per_q) / len(per_q) for key in keys}
    return HarnessResult(means, per_q, _signature("lm_eval.truthfulqa_gen", "lm-eval", rouge.signature()),
                         "lm_eval.truthfulqa_gen")


_WS = re.compile(r"\s+")


def lm_eval_cnn_dailymail(predictions: Sequence[str], references: Sequence[str], *,
                          backend: Optional[str] = None) -> HarnessResult:
    """lm-evaluation-harness ``cnn_dailymail_abisee``: rouge1, rouge2, rougeL F with the Porter stemmer
    after ``normalize_text`` (whitespace runs -> one space, stripped), per document, averaged with
    ``sum/len`` (``tasks/cnn_dailymail/utils.py::process_results``). Input: the generation
    (``results[0]``) and the document's ``highlights``, one each per document. 0-1 scale."""
    _check_lengths("predictions", predictions, "references", references)
    rouge = Rouge(("rouge1", "rouge2", "rougeL"), use_stemmer=True, backend=backend)
    for arg, texts in (("predictions", predictions), ("references", references)):
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"{arg}[{i}]: expected str, got {type(t).__name__}")
    norm = [(_WS.sub(" ", p).strip(), _WS.sub(" ", r).strip()) for p, r in zip(predictions, references)]
    per = [{t: s[t].fmeasure for t in rouge.rouge_types} for s in _pair_scores(rouge, norm)]
    means = {t: sum(r[t] for r in per) / len(per) for t in rouge.rouge_types}
    return HarnessResult(means, per, _signature("lm_eval.cnn_dailymail", "lm-eval", rouge.signature()),
                         "lm_eval.cnn_dailymail")


def longbench_rouge(predictions: Sequence[str], answers: Sequence[Sequence[str]], *, language: str = "en",
                    segment: Optional[Callable[[str], Sequence[str]]] = None,
                    max_backtrack: Optional[int] = None) -> HarnessResult:
    """lm-evaluation-harness LongBench ``rouge_score`` / ``rouge_zh_score`` (``tasks/longbench/metrics.py``):
    per document the max over answers of the ``rouge`` package's rouge-l F (:mod:`rouge_metric.pltrdy_rouge`)
    of the stripped prediction, 0.0 for any error; averaged with ``sum/len``.

    ``language="zh"`` segments both texts first and joins the words with spaces (the harness uses
    ``jieba.cut(text, cut_all=False)``; ``segment`` replaces it, jieba is imported when it is None).
    ``max_backtrack``: see :mod:`rouge_metric.pltrdy_rouge` (the package's RecursionError on very long sentences).
    """
    from . import pltrdy_rouge

    if language not in ("en", "zh"):
        raise ValueError(f"language: invalid value {language!r}; allowed: 'en', 'zh'")
    _check_lengths("predictions", predictions, "answers", answers)
    seg = "none" if language == "en" else ("jieba" if segment is None else "custom")
    if language == "zh" and segment is None:
        try:
            import jieba
        except ImportError:
            raise ImportError("longbench_rouge(language='zh') segments with jieba: pip install jieba "
                              "(or pass segment=)") from None

        def segment(text: str) -> Sequence[str]:
            return list(jieba.cut(text, cut_all=False))

    name = "rouge_zh_score" if language == "zh" else "rouge_score"
    per: List[Dict[str, float]] = []
    for i, (pred, golds) in enumerate(zip(predictions, answers)):
        if not isinstance(pred, str):
            raise TypeError(f"predictions[{i}]: expected str, got {type(pred).__name__}")
        golds = _str_list("answers", i, golds)
        pred = pred.strip()
        if segment is not None:
            pred = " ".join(segment(pred))
        best = 0.0
        for gold in golds:
            if segment is not None:
                gold = " ".join(segment(gold))
            try:
                score = pltrdy_rouge.scores(pred, gold, ("rouge-1", "rouge-2", "rouge-l"),
                                            max_backtrack)["rouge-l"]["f"]
            except (pltrdy_rouge.EmptyTextError, pltrdy_rouge.BacktrackTooDeep):
                score = 0.0
            best = max(score, best)
        per.append({name: best})
    mean = sum(r[name] for r in per) / len(per)
    rest = (f"metric:rouge=={HARNESS_VERSIONS['rouge']}(rouge-l,f,set-ngrams,split:'.')|seg:{seg}|"
            f"backtrack:{max_backtrack if max_backtrack is not None else 'unlimited'}|version:{__version__}")
    return HarnessResult({name: mean}, per, _signature(f"lm_eval.longbench.{name}", "lm-eval", rest),
                         f"lm_eval.longbench.{name}")


# ------------------------------------------------------------------------------------------ lighteval
_LIGHTEVAL_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _bigbench_normalizer(text: str) -> str:
    return text.replace(" . ", ".\n")


def lighteval_rouge_t5(predictions: Sequence[Sequence[str]], golds: Sequence[Sequence[str]], *,
                       backend: Optional[str] = None) -> HarnessResult:
    """lighteval ``rouge_t5`` (``metrics/metrics.py``; ``metrics_sample.py::ROUGE`` with ``bootstrap=True``).

    Input per sample: the model's ``final_text`` list and the doc's golds. Both go through
    ``bigbench_normalizer`` (`" . "` -> `".\\n"`); the sample's score is a ``BootstrapAggregator`` over
    ``zip(golds, predictions)`` (so with one prediction only the *first* gold counts) reporting
    ``mid.fmeasure * 100`` for rouge1/2/L/Lsum; the corpus value is ``np.mean`` over samples. A sample
    with one pair draws nothing; several pairs draw from numpy's global generator exactly as the
    harness does (the drop-in's ``BootstrapAggregator``).
    """
    import numpy as np

    _check_lengths("predictions", predictions, "golds", golds)
    rouge = Rouge(_LIGHTEVAL_TYPES, backend=backend)
    per: List[Dict[str, float]] = []
    for i, (preds, gs) in enumerate(zip(predictions, golds)):
        preds, gs = _str_list("predictions", i, preds), _str_list("golds", i, gs)
        pairs = [(_bigbench_normalizer(p), _bigbench_normalizer(g)) for g, p in zip(gs, preds)]
        if not pairs:
            raise ValueError(f"sample {i}: no (gold, prediction) pair; the harness's aggregator fails on it")
        scores = _pair_scores(rouge, pairs)
        if len(scores) == 1:
            row = {t: scores[0][t].fmeasure * 100 for t in _LIGHTEVAL_TYPES}
        else:
            mid = _bootstrap_mid_f(scores, _LIGHTEVAL_TYPES)
            row = {t: mid[t] * 100 for t in _LIGHTEVAL_TYPES}
        per.append(row)
    means = {t: float(np.mean([r[t] for r in per])) for t in _LIGHTEVAL_TYPES}
    return HarnessResult(means, per, _signature("lighteval.rouge_t5", "lighteval", rouge.signature()),
                         "lighteval.rouge_t5")


def lighteval_rouge(predictions: Sequence[Sequence[str]], golds: Sequence[Sequence[str]], rouge_type: str, *,
                    backend: Optional[str] = None) -> HarnessResult:
    """lighteval's single-type ``rouge1`` / ``rouge2`` / ``rougeL`` / ``rougeLsum``: per sample ``np.mean``
    of the F of every (prediction, gold) pair (``ROUGE._rouge_score``, no stemmer, no normalizer), then
    ``np.mean`` over samples. 0-1 scale."""
    import numpy as np

    if rouge_type not in _LIGHTEVAL_TYPES:
        raise ValueError(f"rouge_type: invalid value {rouge_type!r}; allowed: {', '.join(_LIGHTEVAL_TYPES)}")
    _check_lengths("predictions", predictions, "golds", golds)
    rouge = Rouge((rouge_type,), backend=backend)
    pairs: List[Tuple[str, str]] = []
    counts = []
    for i, (preds, gs) in enumerate(zip(predictions, golds)):
        preds, gs = _str_list("predictions", i, preds), _str_list("golds", i, gs)
        if not preds or not gs:
            raise ValueError(f"sample {i}: needs at least one prediction and one gold (np.mean of no score is nan)")
        pairs.extend((p, g) for p in preds for g in gs)
        counts.append(len(preds) * len(gs))
    scores = _pair_scores(rouge, pairs)
    per: List[Dict[str, float]] = []
    k = 0
    for c in counts:
        per.append({rouge_type: float(np.mean([s[rouge_type].fmeasure for s in scores[k:k + c]]))})
        k += c
    mean = float(np.mean([r[rouge_type] for r in per]))
    return HarnessResult({rouge_type: mean}, per,
                         _signature(f"lighteval.{rouge_type}", "lighteval", rouge.signature()), f"lighteval.{rouge_type}")


# ----------------------------------------------------------------------------------------------- HELM
_HELM_TYPES = {"rouge_1": "rouge1", "rouge_2": "rouge2", "rouge_l": "rougeL",
               "chinese_rouge_1": "rouge1", "chinese_rouge_2": "rouge2"}


def _chars(text: str) -> List[str]:
    """HELM's ``ChineseTokenizer.tokenize``: every character, spaces and punctuation included."""
    return [c for c in text]


def helm_rouge(completions: Sequence[Sequence[str]], golds: Sequence[Sequence[str]], rouge_type: str, *,
               backend: Optional[str] = None) -> HarnessResult:
    """HELM ``rouge_1`` / ``rouge_2`` / ``rouge_l`` / ``chinese_rouge_1`` / ``chinese_rouge_2``
    (``metrics/evaluate_reference_metrics.py``: ``get_rouge_function``, ``get_chinese_rouge_function``,
    ``compute_reference_metrics``).

    Input per instance: the completions sorted by log-probability as HELM sorts them (the first one is
    scored; each is stripped here as HELM strips it) and the texts of the *correct* references. The value
    is the max over golds of rouge-score's F (``use_stemmer=True``; the Chinese metrics tokenize every
    character, so the stemmer has no effect); the run's number is the mean over instances
    (``Stat``: sum / count). 0-1 scale.
    """
    if rouge_type not in _HELM_TYPES:
        raise ValueError(f"rouge_type: invalid value {rouge_type!r}; allowed: {', '.join(_HELM_TYPES)}")
    _check_lengths("completions", completions, "golds", golds)
    chinese = rouge_type.startswith("chinese_")
    t = _HELM_TYPES[rouge_type]
    rouge = Rouge((t,), use_stemmer=not chinese, tokenizer=_chars if chinese else None, backend=backend)
    pairs: List[Tuple[str, str]] = []
    counts = []
    for i, (comps, gs) in enumerate(zip(completions, golds)):
        comps, gs = _str_list("completions", i, comps), _str_list("golds", i, gs)
        if not comps or not gs:
            raise ValueError(f"instance {i}: needs a completion and at least one correct reference")
        pred = comps[0].strip()
        pairs.extend((pred, g) for g in gs)
        counts.append(len(gs))
    scores = _pair_scores(rouge, pairs)
    per: List[Dict[str, float]] = []
    k = 0
    for c in counts:
        per.append({rouge_type: max(s[t].fmeasure for s in scores[k:k + c])})
        k += c
    total = 0.0
    for r in per:
        total += r[rouge_type]
    return HarnessResult({rouge_type: total / len(per)}, per,
                         _signature(f"helm.{rouge_type}", "crfm-helm", rouge.signature()), f"helm.{rouge_type}")


# ------------------------------------------------------------------------------ HF evaluate and MLflow
def evaluate_rouge(predictions: Sequence[str], references: Sequence[Any], *,
                   rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
                   use_aggregator: bool = True, use_stemmer: bool = False,
                   tokenizer: Optional[Callable[[str], Sequence[str]]] = None, seed: Optional[int] = None,
                   backend: Optional[str] = None) -> HarnessResult:
    """HF evaluate's ``rouge`` (``metrics/rouge/rouge.py::Rouge._compute``): ``score_multi`` per example
    when references are lists (the best-F reference per type), ``score`` otherwise; with
    ``use_aggregator`` a ``BootstrapAggregator`` over the examples, reporting ``mid.fmeasure`` (the median
    of 1,000 resampled means, not the mean), else the list of per-example F.

    The aggregator draws from numpy's global generator: the same state gives the same floats here and
    there (the drop-in's ``BootstrapAggregator``). ``seed``: call ``np.random.seed(seed)`` first, as a harness run
    that seeds numpy does (the signature records it; without it the number depends on whatever state
    numpy is in, as in evaluate). ``scores`` holds the aggregated F (``use_aggregator=True``) or the
    mean of the per-example F; ``per_example`` the per-example F.
    """
    import numpy as np

    if not predictions:
        raise ValueError("predictions: empty input")
    rouge = Rouge(tuple(rouge_types), use_stemmer=use_stemmer, tokenizer=tokenizer, backend=backend)
    per_scores = rouge.score_examples(predictions=predictions, references=references)
    per = [{t: s[t].fmeasure for t in rouge.rouge_types} for s in per_scores]
    if use_aggregator:
        if seed is not None:
            np.random.seed(seed)
        scores = _bootstrap_mid_f(per_scores, rouge.rouge_types)
        agg_sig = f"reduce:bootstrap-mid(n=1000,np.random.seed={seed if seed is not None else 'caller'})"
    else:
        scores = {t: float(np.mean([r[t] for r in per])) for t in rouge.rouge_types}
        agg_sig = "reduce:none(per-example)"
    return HarnessResult(scores, per, _signature("evaluate.rouge", "evaluate", agg_sig + "|" + rouge.signature()),
                         "evaluate.rouge")


def mlflow_rouge(predictions: Sequence[str], targets: Sequence[str], rouge_type: str, *,
                 backend: Optional[str] = None) -> HarnessResult:
    """MLflow ``mlflow.metrics.rouge1/rouge2/rougeL/rougeLsum`` (``metrics/metric_definitions.py``:
    ``_rouge1_eval_fn`` ...): evaluate's ``rouge`` with ``use_aggregator=False`` for one type gives the
    per-row F (``MetricValue.scores``); ``standard_aggregations`` reports ``mean`` (``np.mean``),
    ``variance`` (``np.var``) and ``p90`` (``np.percentile(scores, 90)``), logged as
    ``<type>/v1/mean`` etc. No stemmer; no randomness."""
    import numpy as np

    if rouge_type not in _LIGHTEVAL_TYPES:
        raise ValueError(f"rouge_type: invalid value {rouge_type!r}; allowed: {', '.join(_LIGHTEVAL_TYPES)}")
    r = evaluate_rouge(predictions, targets, rouge_types=(rouge_type,), use_aggregator=False, backend=backend)
    values = [row[rouge_type] for row in r.per_example or []]
    scores = {"mean": float(np.mean(values)), "variance": float(np.var(values)),
              "p90": float(np.percentile(values, 90))}
    sig = "reduce:mean,variance,p90|" + r.signature.split("|", 3)[3]  # evaluate's, without its reduce:
    return HarnessResult(scores, r.per_example, _signature(f"mlflow.{rouge_type}", "mlflow", sig),
                         f"mlflow.{rouge_type}")


# ------------------------------------------------------------------------------------------ torchmetrics
_TM_KEYS = {"rouge1": "rouge1", "rouge2": "rouge2", "rougeL": "rougeL", "rougeLsum": "rougeLsum"}


def torchmetrics_rouge(preds: Sequence[str], target: Sequence[Sequence[str]], *, accumulate: str = "best",
                       use_stemmer: bool = False,
                       rouge_keys: Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
                       backend: Optional[str] = None) -> HarnessResult:
    """torchmetrics ``ROUGEScore`` / ``rouge_score`` (``functional/text/rouge.py``) with its default
    normalizer and tokenizer.

    Its normalizer (lower-case, ``[^a-z0-9]+`` -> space, split on whitespace, Porter on words longer than
    3 with ``use_stemmer``) yields rouge-score's tokens, and its n-gram, LCS and summary-level LCS
    (rougeLsum, sentences from ``nltk.sent_tokenize``: needs the punkt data) are rouge-score's, so each
    (prediction, target) pair's P/R/F is the core's, then stored as a float32 tensor. Per prediction,
    ``best`` keeps the target with the largest float32 F (``torch.argmax``: the first on ties), ``avg``
    the float32 mean over targets; the result is the float32 mean over predictions. The float32 steps
    run in torch, as in torchmetrics (torch is imported). Keys: ``rouge1_fmeasure`` etc.
    """
    import numpy as np
    import torch

    if accumulate not in ("best", "avg"):
        raise ValueError(f"accumulate: invalid value {accumulate!r}; allowed: 'avg', 'best'")
    keys = list(rouge_keys)
    for k in keys:
        if not re.fullmatch(r"rouge[1-9]|rougeL|rougeLsum", k):
            raise ValueError(f"rouge_keys: invalid key {k!r}; allowed: rouge1 ... rouge9, rougeL, rougeLsum")
    _check_lengths("preds", preds, "target", target)
    rouge = Rouge(tuple(keys), use_stemmer=use_stemmer,
                  sentence_splitter="nltk" if "rougeLsum" in keys else "newline", backend=backend)
    pairs: List[Tuple[str, str]] = []
    counts = []
    for i, (p, ts) in enumerate(zip(preds, target)):
        if not isinstance(p, str):
            raise TypeError(f"preds[{i}]: expected str, got {type(p).__name__}")
        ts = [ts] if isinstance(ts, str) else _str_list("target", i, ts)
        if not ts:
            raise ValueError(f"target[{i}]: empty list of targets")
        pairs.extend((p, t) for t in ts)
        counts.append(len(ts))
    scores = _pair_scores(rouge, pairs)
    stats = ("fmeasure", "precision", "recall")
    # (pairs x types x 3) as float32: torch.tensor(python float) rounds to nearest, as numpy's cast does
    # (torchmetrics returns tensor(0.0) for all three when P == R == 0; F is 0.0 there too)
    f32 = np.array([[[getattr(sc[k], s) for s in stats] for k in keys] for sc in scores],
                   dtype=np.float64).astype(np.float32)
    cols: Dict[str, List[Any]] = {f"{k}_{s}": [] for k in keys for s in stats}
    j = 0
    for c in counts:
        block = f32[j:j + c]
        j += c
        for ki, k in enumerate(keys):
            if accumulate == "best":
                best = block[int(np.argmax(block[:, ki, 0])), ki]  # first maximum, as torch.argmax
                for si, s in enumerate(stats):
                    cols[f"{k}_{s}"].append(best[si])
            else:
                for si, s in enumerate(stats):
                    cols[f"{k}_{s}"].append(torch.from_numpy(np.ascontiguousarray(block[:, ki, si])).mean().item())
    per = [{name: float(v[i]) for name, v in cols.items()} for i in range(len(counts))]
    # torchmetrics: torch.tensor(list of 0-d float32 tensors).mean(), a float32 1-D mean in torch
    result = {name: float(torch.tensor(np.array(v, dtype=np.float32)).mean()) for name, v in cols.items()}
    sig = f"reduce:accumulate={accumulate},float32-mean|{rouge.signature()}"
    return HarnessResult(result, per, _signature("torchmetrics.rouge", "torchmetrics", sig), "torchmetrics.rouge")


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
}
