"""LongBench (in lm-evaluation-harness, ``tasks/longbench/metrics.py``): ``rouge_score`` and
``rouge_zh_score``, the ``rouge`` package's rouge-l F (:mod:`rouge_metric.pltrdy_rouge`)."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Union

from .. import pltrdy_rouge
from .._version import __version__
from .common import HARNESS_VERSIONS, HarnessResult, result
from .validation import check_batch, check_choice, check_int_or_choice, check_text_lists, check_texts

#: The harness's frames from its metric function to the package: ``rouge_zh_score`` adds one call.
_WRAPPERS = {"en": 0, "zh": 1}


def longbench_rouge(predictions: Sequence[str], answers: Sequence[Sequence[str]], *, language: str = "en",
                    segment: Optional[Callable[[str], Sequence[str]]] = None,
                    max_backtrack: Union[int, str, None] = None) -> HarnessResult:
    """lm-evaluation-harness LongBench ``rouge_score`` / ``rouge_zh_score`` (``tasks/longbench/metrics.py``):
    per document the max over answers of the ``rouge`` package's rouge-l F (:mod:`rouge_metric.pltrdy_rouge`)
    of the stripped prediction, 0.0 for any error (its bare ``except:``); averaged with ``sum/len``.

    ``language="zh"`` segments both texts first and joins the words with spaces (the harness uses
    ``jieba.cut(text, cut_all=False)``: :func:`rouge_metric.segment.raw_segmenter` ``("jieba")`` gives its
    words; ``segment`` replaces it).

    ``max_backtrack`` decides what happens where the package's recursive LCS backtrack is too deep:

    - None (the default): what LongBench prints. The package raises ``RecursionError`` when a sentence
      pair's backtrack does not fit in what is left of Python's recursion limit, and LongBench scores that
      answer 0.0. The recipe replays the package's recursion from its own frame
      (:func:`rouge_metric.pltrdy_rouge.recursion_overflows`): each value is the one LongBench's
      ``get_rouge_score`` returns when called where this recipe is called. Inside lm-eval the metric runs
      deeper in the stack, so a sentence within a few dozen words of the limit can fall on the other side.
    - an int N: 0.0 when a backtrack takes more than N steps, wherever it is called.
    - ``"unlimited"``: the corrected number: every sentence pair scored however long, as the package
      would score it with no recursion limit. Not what LongBench prints.
    """
    check_choice("language", language, ("en", "zh"))
    max_backtrack = check_int_or_choice("max_backtrack", max_backtrack, (None, "unlimited"))
    if segment is not None and not callable(segment):
        raise TypeError(f"segment: expected a callable (text -> words) or None, got {type(segment).__name__}")
    predictions, answers = check_batch("predictions", predictions, "answers", answers)
    predictions = check_texts("predictions", predictions)
    answers = check_text_lists("answers", answers)
    seg = "none" if language == "en" else "custom"
    if language == "zh" and segment is None:
        from .. import segment as segmentation

        segment = segmentation.raw_segmenter("jieba")  # jieba.cut(text, cut_all=False), cached per text
        seg = segmentation.describe("jieba")  # SegmenterMissing (an ImportError) without jieba

    wrappers = _WRAPPERS[language]
    if max_backtrack is None:
        # longer backtracks are replayed exactly; shorter ones fit below this frame with room to spare
        limit: Optional[int] = max(pltrdy_rouge.stack_headroom() - pltrdy_rouge.PACKAGE_FRAMES - wrappers - 40, 0)
    else:
        limit = None if max_backtrack == "unlimited" else int(max_backtrack)
    name = "rouge_zh_score" if language == "zh" else "rouge_score"
    per: List[Dict[str, float]] = []
    for pred, golds in zip(predictions, answers):
        pred = pred.strip()
        if segment is not None:
            pred = " ".join(segment(pred))
        best = 0.0
        for gold in golds:
            if segment is not None:
                gold = " ".join(segment(gold))
            try:
                score = pltrdy_rouge.scores(pred, gold, pltrdy_rouge.METRICS, limit)["rouge-l"]["f"]
            except pltrdy_rouge.EmptyTextError:
                score = 0.0
            except pltrdy_rouge.BacktrackTooDeep:
                if max_backtrack is not None or pltrdy_rouge.recursion_overflows(pred, gold, wrappers):
                    score = 0.0
                else:
                    score = pltrdy_rouge.scores(pred, gold, pltrdy_rouge.METRICS)["rouge-l"]["f"]
            best = max(score, best)
        per.append({name: best})
    mean = sum(r[name] for r in per) / len(per)
    backtrack = "python-recursion" if max_backtrack is None else max_backtrack
    rest = (f"metric:rouge=={HARNESS_VERSIONS['rouge']}(rouge-l,f,set-ngrams,split:'.')|seg:{seg}|"
            f"backtrack:{backtrack}|version:{__version__}")
    return result(f"lm_eval.longbench.{name}", "lm-eval", rest, {name: mean}, per)
