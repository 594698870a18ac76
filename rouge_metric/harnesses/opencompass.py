"""OpenCompass's Chinese ROUGE, ``JiebaRougeEvaluator`` (``opencompass/openicl/icl_evaluator/
icl_jieba_rouge_evaluator.py``): OpenCompass's ``general_postprocess``, jieba words joined by spaces,
then the ``rouge-chinese`` package's rouge-1, rouge-2 and rouge-l (:mod:`rouge_metric.pltrdy_rouge`),
averaged over the examples and multiplied by 100.

>>> # segment= stands in for jieba here (the default; extra "multilingual")
>>> r = opencompass_jieba_rouge(predictions=["今天 天气 很好。"], references=["今天 天气 不错"], segment=str.split)
>>> r.scores["rouge1"]  # 2 of 3 words a side, x100, the 1e-8 in F
66.66666616666667
>>> r.signature.split("|")[:2]
['recipe:opencompass.jieba_rouge', 'harness:opencompass==0.5.3']
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Sequence

from .. import pltrdy_rouge
from .._version import __version__
from ..scoring import Rouge
from .common import HARNESS_VERSIONS, HarnessResult, result
from .validation import check_batch, check_texts

#: The evaluator's output names and the package's metric each one reports (its F).
METRICS: Dict[str, str] = {"rouge1": "rouge-1", "rouge2": "rouge-2", "rougeL": "rouge-l"}

#: What the evaluator puts in place of a text that is empty after segmentation.
PREDICTION_PLACEHOLDER = "__PREDPLACEHOLDER__"
REFERENCE_PLACEHOLDER = "__REFRPLACEHOLDER__"

_FIRST_CLAUSE = re.compile(r"[\n.,]")
_PUNCTUATION = re.compile(r"[^\w\s]")
_ARTICLES = re.compile(r"\b(a|an|the)\b", flags=re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def general_postprocess(text: str) -> str:
    """OpenCompass's ``general_postprocess`` (``opencompass/utils/text_postprocessors.py``), which the
    evaluator applies to every prediction and reference: the text up to the first newline, ``"."`` or
    ``","`` (ASCII only: ``"。"`` and ``"，"`` do not cut), every character that is neither a word
    character nor whitespace removed (Unicode-aware: Chinese punctuation goes too), the English articles
    a/an/the removed as whole words, whitespace runs collapsed to one space, stripped.

    >>> general_postprocess("The cat, a dog")
    'cat'
    >>> general_postprocess("今天天气很好，我们去公园。明天 下雨")
    '今天天气很好我们去公园明天 下雨'
    """
    truncated = _FIRST_CLAUSE.split(text, 1)[0]
    no_punctuation = _PUNCTUATION.sub("", truncated)
    no_articles = _ARTICLES.sub("", no_punctuation)
    return _SPACES.sub(" ", no_articles).strip()


class _CoreLCS:
    """The LCS length of two word lists on the project core (rougeL's hit count on interned token ids)."""

    def __init__(self) -> None:
        self.rouge = Rouge(["rougeL"], tokenizer="ids")
        self.ids: Dict[str, int] = {}

    def __call__(self, x: Sequence[str], y: Sequence[str]) -> int:
        ids = self.ids
        a = [ids.setdefault(w, len(ids)) for w in x]
        b = [ids.setdefault(w, len(ids)) for w in y]
        return int(self.rouge.pair_stats(self.rouge.process(b), self.rouge.process(a))[0][0])


def opencompass_jieba_rouge(predictions: Sequence[str], references: Sequence[str], *,
                            segment: Optional[Callable[[str], Sequence[str]]] = None) -> HarnessResult:
    """OpenCompass ``JiebaRougeEvaluator().score(predictions, references)`` (OpenCompass 0.5.3; used by
    its LCSTS, CompassBench language and SeedBench configurations).

    The input is what ``score`` receives: the predictions after the dataset's ``pred_postprocessor``
    (LCSTS's ``lcsts_postprocess``, for example), one reference string per example. Per text:
    :func:`general_postprocess`, then ``" ".join(jieba.cut(text))`` (``segment`` replaces jieba's cut;
    jieba is :func:`rouge_metric.segment.raw_segmenter` ``("jieba")``, the same ``jieba.cut`` with its
    default dictionary), and an empty result replaced by ``"__PREDPLACEHOLDER__"`` /
    ``"__REFRPLACEHOLDER__"`` as the evaluator does (so an empty prediction scores 0, and an empty
    prediction against an empty reference scores 0 too). Then ``rouge_chinese.Rouge().get_scores(...,
    avg=True)``: per example the package's rouge-1 and rouge-2 (distinct n-grams) and rouge-l (the LCS
    of the whole word lists, computed by the core's LCS kernel), summed in example order and divided by
    the count; the result is each F times 100 (``scores``). ``per_example`` holds each example's F of
    the three measures, on the package's 0-1 scale.

    Where the evaluator returns ``{"error": ...}`` (lists of different lengths), this raises
    ``ValueError``.
    """
    if segment is not None and not callable(segment):
        raise TypeError(f"segment: expected a callable (text -> words) or None, got {type(segment).__name__}")
    predictions, references = check_batch("predictions", predictions, "references", references)
    predictions = check_texts("predictions", predictions)
    references = check_texts("references", references)
    if segment is None:
        from .. import segment as segmentation

        jieba = segmentation.raw_segmenter("jieba")
        seg = segmentation.describe("jieba")
        cut: Callable[[str], Sequence[str]] = jieba
    else:
        seg, cut = "custom", segment

    def prepare(text: str, placeholder: str) -> str:
        joined = " ".join(cut(general_postprocess(text)))
        return joined if joined else placeholder

    lcs = _CoreLCS()
    stats = ("r", "p", "f")
    sums = {m: {s: 0 for s in stats} for m in METRICS.values()}
    per: List[Dict[str, float]] = []
    for pred, ref in zip(predictions, references):
        sc = pltrdy_rouge.chinese_scores(prepare(pred, PREDICTION_PLACEHOLDER), prepare(ref, REFERENCE_PLACEHOLDER),
                                         tuple(METRICS.values()), lcs)
        for m, total in sums.items():
            for s in stats:
                total[s] = total[s] + sc[m][s]
        per.append({name: sc[m]["f"] for name, m in METRICS.items()})
    count = len(per)
    scores = {name: sums[m]["f"] / count * 100 for name, m in METRICS.items()}
    rest = (f"metric:rouge-chinese=={HARNESS_VERSIONS['rouge-chinese']}(rouge-1,rouge-2,rouge-l,f,set-ngrams,"
            f"lcs-l,cut_sent)|post:general_postprocess|seg:{seg}|scale:100|version:{__version__}")
    return result("opencompass.jieba_rouge", "opencompass", rest, scores, per)
