"""OpenCompass's Chinese ROUGE recipe against the real ``rouge-chinese`` 1.0.3 and jieba, float for float.

The oracle is OpenCompass's ``JiebaRougeEvaluator.score`` re-created line for line on the real packages
(OpenCompass itself needs torch, mmengine and dozens more; its evaluator is 30 lines: they are copied in
:func:`evaluator_score` with its ``general_postprocess``). rouge-chinese is installed into a folder of its
own by tools/xlsum_oracle_env.sh (``build/oracles/rouge-chinese``, or ``$ROUGE_METRIC_ORACLES``), because
its wheel also ships a ``rouge`` package that would replace pltrdy's.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpora import corpus_available, load_corpus

ORACLES = Path(os.environ.get("ROUGE_METRIC_ORACLES", Path(__file__).resolve().parents[1] / "build" / "oracles"))
if (ORACLES / "rouge-chinese").is_dir() and str(ORACLES / "rouge-chinese") not in sys.path:
    sys.path.append(str(ORACLES / "rouge-chinese"))

jieba = pytest.importorskip("jieba", reason="jieba is not installed (extra 'multilingual')")
rouge_chinese = pytest.importorskip(
    "rouge_chinese", reason="rouge-chinese 1.0.3 is not installed (PYTHON=python bash tools/xlsum_oracle_env.sh)")

from rouge_metric import harnesses as H  # noqa: E402
from rouge_metric import pltrdy_rouge  # noqa: E402
from rouge_metric.harnesses import opencompass  # noqa: E402

CORPORA = ["lcsts_mocobart_chinese", "longbench_vcsum_zh", "multisummeval_chinese"]


# ----------------------------------------------------------------- the oracle: OpenCompass's evaluator
def oracle_general_postprocess(text: str) -> str:
    # opencompass/utils/text_postprocessors.py (OpenCompass 0.5.3), verbatim
    truncated_text = re.split(r'[\n.,]', text, 1)[0]
    no_punctuation = re.sub(r'[^\w\s]', '', truncated_text)
    no_articles = re.sub(r'\b(a|an|the)\b', '', no_punctuation, flags=re.IGNORECASE)
    cleaned_text = re.sub(r'\s+', ' ', no_articles).strip()
    return cleaned_text


def evaluator_score(predictions, references):
    # opencompass/openicl/icl_evaluator/icl_jieba_rouge_evaluator.py (OpenCompass 0.5.3), verbatim
    if len(predictions) != len(references):
        return {'error': 'predictions and references have different length'}
    predictions = [oracle_general_postprocess(i) for i in predictions]
    references = [oracle_general_postprocess(i) for i in references]
    metric = rouge_chinese.Rouge()
    predictions = [' '.join(jieba.cut(i)) for i in predictions]
    references = [' '.join(jieba.cut(i)) for i in references]
    predictions = [i if i else '__PREDPLACEHOLDER__' for i in predictions]
    references = [i if i else '__REFRPLACEHOLDER__' for i in references]
    score = metric.get_scores(predictions, references, avg=True)
    return {
        'rouge1': score['rouge-1']['f'] * 100,
        'rouge2': score['rouge-2']['f'] * 100,
        'rougeL': score['rouge-l']['f'] * 100,
    }


def _corpus(name):
    if not corpus_available(name):
        pytest.skip(f"../shared/corpora/{name} is absent")
    preds, refs = load_corpus(name)
    return preds, [r[0] for r in refs]


# ------------------------------------------------------------------------------------ strategies
ZH = ["今天", "天气", "很好", "不错", "我们", "去", "公园", "的", "了", "是", "中国", "经济", "增长", "北京",
      "上海", "发布", "新", "政策", "市场", "公司", "人", "说", "会议", "讨论", "问题"]
PUNCT = ["，", "。", "！", "？", "?", "“", "”", "’", "、", "：", "……", "......", ".", ",", "!", "\n", " ", "  ",
         "\t", "《", "》", "（", "）", "-", "_", "%", "3.5", "2024年", "AI", "the", "The", "a", "an", "GDP",
         "__PREDPLACEHOLDER__", "ｱ", "①", "é"]
zh_texts = st.lists(st.sampled_from(ZH + PUNCT), max_size=40).map("".join)
zh_batches = st.integers(1, 6).flatmap(
    lambda n: st.tuples(st.lists(zh_texts, min_size=n, max_size=n), st.lists(zh_texts, min_size=n, max_size=n)))


# ------------------------------------------------------------------------------------------- tests
def test_general_postprocess_matches_opencompass():
    for t in ["The cat, a dog", "今天天气很好，我们去公园。明天 下雨", "a\nb", "  An apple  ", "x.y", "", "……?!"]:
        assert opencompass.general_postprocess(t) == oracle_general_postprocess(t)


@settings(max_examples=400, deadline=None)
@given(t=zh_texts)
def test_general_postprocess_on_generated_text(t):
    assert opencompass.general_postprocess(t) == oracle_general_postprocess(t)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(h=zh_texts, r=zh_texts)
def test_chinese_kernel_matches_rouge_chinese(h, r):
    # the package's own input, without OpenCompass's cleaning: sentence splitting on 。！？ and the rest
    h, r = " ".join(jieba.cut(h)), " ".join(jieba.cut(r))
    try:
        want = rouge_chinese.Rouge().get_scores([h], [r], avg=True)
    except ValueError:
        with pytest.raises(pltrdy_rouge.EmptyTextError):
            pltrdy_rouge.chinese_scores(h, r)
        return
    assert pltrdy_rouge.chinese_scores(h, r) == want
    assert pltrdy_rouge.chinese_scores(h, r, lcs=opencompass._CoreLCS()) == want


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=zh_batches)
def test_recipe_matches_evaluator_on_generated_text(batch):
    preds, refs = batch
    assert H.opencompass_jieba_rouge(preds, refs).scores == evaluator_score(preds, refs)


@pytest.mark.parametrize("name", CORPORA)
def test_recipe_matches_evaluator_on_corpus(name):
    preds, refs = _corpus(name)
    got = H.opencompass_jieba_rouge(preds, refs)
    assert got.scores == evaluator_score(preds, refs)
    for i in range(0, len(preds), max(1, len(preds) // 25)):  # every example's own numbers too
        one = evaluator_score([preds[i]], [refs[i]])
        assert {k: v * 100 for k, v in got.per_example[i].items()} == one


def test_corpus_raw_package_kernel_on_long_texts():
    # LongBench VCSUM predictions are long, multi-sentence Chinese: rouge-chinese's own splitting on 。！？
    preds, refs = _corpus("longbench_vcsum_zh")
    for p, r in list(zip(preds, refs))[:40]:
        h, g = " ".join(jieba.cut(p)), " ".join(jieba.cut(r))
        try:
            want = rouge_chinese.Rouge().get_scores([h], [g], avg=True)
        except ValueError:
            continue
        assert pltrdy_rouge.chinese_scores(h, g, lcs=opencompass._CoreLCS()) == want


def test_empty_texts_score_like_the_evaluator():
    preds, refs = ["", "。。。", "今天", ""], ["今天", "", "...", ""]
    got = H.opencompass_jieba_rouge(preds, refs)
    assert got.scores == evaluator_score(preds, refs)
    assert got.per_example[3] == {"rouge1": 0.0, "rouge2": 0.0, "rougeL": 0.0}


def test_signature_names_harness_package_and_segmenter():
    sig = H.opencompass_jieba_rouge(["今天天气很好"], ["今天天气不错"]).signature
    assert sig.startswith("recipe:opencompass.jieba_rouge|harness:opencompass==0.5.3|metric:rouge-chinese==1.0.3(")
    with jieba.get_dict_file() as fh:  # jieba's own default dictionary, as jieba finds it
        digest = hashlib.sha256(fh.read()).hexdigest()[:8]
    assert f"seg:jieba({jieba.__version__},dict=sha256:{digest})" in sig
    assert H.RECIPES["opencompass.jieba_rouge"] is H.opencompass_jieba_rouge


def test_custom_segment_and_bad_input():
    r = H.opencompass_jieba_rouge(["ab cd"], ["ab"], segment=str.split)
    assert "seg:custom" in r.signature and r.per_example[0]["rouge1"] == pltrdy_rouge.f_measure(0.5, 1.0)
    with pytest.raises(ValueError, match="predictions and references must have the same length"):
        H.opencompass_jieba_rouge(["a"], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[1\]: expected str, got list"):
        H.opencompass_jieba_rouge(["a", "b"], ["a", ["b"]])
    with pytest.raises(TypeError, match="segment: expected a callable"):
        H.opencompass_jieba_rouge(["a"], ["a"], segment="jieba")
