"""The reward with recipe="xlsum", lang= and the word segmenters: XL-Sum's own numbers (rouge-score's on
segmented words) per completion; a text the segmenter fails on named as the trainer passed it."""

from __future__ import annotations

import math
import warnings

import pytest

from multilingual_cases import case, segmenter_oracle, xlsum_oracle
from rouge_metric import segment
from rouge_metric.rewards import rouge_reward


@pytest.mark.parametrize("name", ["zh", "ja", "th", "fr"])
def test_xlsum_reward_is_xlsums_scorer(name):
    lang, _, preds, refs = case(name, recipe=True)
    types = ["rouge1", "rouge2", "rougeLsum"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reward = rouge_reward({"rouge1": 0.5, "rouge2": 0.3, "rougeLsum": 0.2}, recipe="xlsum", lang=lang)
        single = rouge_reward("rougeL", "recall", recipe="xlsum", lang=lang)
    logged = {}
    got = reward(completions=preds + ["x"], reference=refs + [None], log_metric=logged.__setitem__)
    oracle = xlsum_oracle(types + ["rougeL"], False, lang, preds, refs)
    assert got[:-1] == [math.fsum((0.5 * s["rouge1"].fmeasure, 0.3 * s["rouge2"].fmeasure,
                                   0.2 * s["rougeLsum"].fmeasure)) for s in oracle] and got[-1] is None
    assert logged["rouge/rouge1"] == math.fsum(s["rouge1"].fmeasure for s in oracle) / len(oracle)
    assert single(completions=preds, reference=refs) == [s["rougeL"].recall for s in oracle]
    assert f"tok:xlsum(lang={lang}," in reward.signature()


@pytest.mark.parametrize("name", ["zh", "ja", "th"])
def test_segmenting_tokenizer_reward(name):
    _, seg, preds, refs = case(name, recipe=False)
    reward = rouge_reward("rouge2", tokenizer=seg)
    chats = [[{"role": "assistant", "content": p}] for p in preds]
    assert reward(completions=chats, reference=[[r] for r in refs]) == \
        [s["rouge2"].fmeasure for s in segmenter_oracle(["rouge2"], seg, preds, refs)]


def test_refusals_name_the_argument():
    with pytest.raises(ValueError, match=r"lang='thai': a language of recipe='xlsum'"):
        rouge_reward("rouge1", lang="thai")
    with pytest.raises(ValueError, match=r"recipe: invalid value 'xl'; allowed: 'default', 'xlsum'"):
        rouge_reward("rouge1", recipe="xl")
    with pytest.raises(ValueError, match=r"tokenizer='ids': not a setting of recipe='xlsum'"):
        rouge_reward("rouge1", recipe="xlsum", tokenizer="ids")


def test_segmenter_failure_is_named_by_the_groups_argument_and_index(monkeypatch):
    seg = segment.raw_segmenter("burmese_syllables")
    real = seg.fn
    monkeypatch.setattr(seg, "_fn", lambda t: (_ for _ in ()).throw(RuntimeError("bad")) if "boom" in t else real(t))
    seg.clear_cache()
    reward = rouge_reward("rouge1", tokenizer="burmese_syllables", reference_column="summary")
    with pytest.raises(segment.SegmenterError, match=r"^completions\[2\]: tokenizer='burmese_syllables': the "
                                                     r"segmenter failed on the text 'boom'"):
        reward(completions=["a", "b", "boom"], summary=[None, "b", "c"])
    with pytest.raises(segment.SegmenterError, match=r"^summary\[3\]\[1\]: ") as info:
        reward(completions=["a", "b", "c", "d"], summary=[None, "b", None, ["d", "boom"]])
    assert info.value.where == "summary[3][1]" and isinstance(info.value.__cause__, RuntimeError)
    seg.clear_cache()
