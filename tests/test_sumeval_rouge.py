"""sumeval's Japanese and Chinese ROUGE recipe against the real sumeval 0.2.2 (janome for Japanese, as sumeval
uses it when MeCab is absent; jieba for Chinese), float for float.

sumeval is installed into a folder of its own by tools/xlsum_oracle_env.sh (``build/oracles/sumeval``, or
``$ROUGE_METRIC_ORACLES``): its sdist needs ``--use-pep517`` to build. The recipe reads sumeval's stop
lists from that same package.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpora import corpus_available, load_corpus

ORACLES = Path(os.environ.get("ROUGE_METRIC_ORACLES", Path(__file__).resolve().parents[1] / "build" / "oracles"))
if (ORACLES / "sumeval").is_dir() and str(ORACLES / "sumeval") not in sys.path:
    sys.path.append(str(ORACLES / "sumeval"))

pytest.importorskip("jieba", reason="jieba is not installed (extra 'multilingual')")
sumeval_rouge_module = pytest.importorskip(
    "sumeval.metrics.rouge", reason="sumeval 0.2.2 is not installed (PYTHON=python bash tools/xlsum_oracle_env.sh)")
RougeCalculator = sumeval_rouge_module.RougeCalculator

from rouge_metric import harnesses as H  # noqa: E402

_CALC = {}


def calculator(lang):
    if lang not in _CALC:
        _CALC[lang] = RougeCalculator(lang=lang)
    return _CALC[lang]


def needs_ja_tokenizer():
    try:
        calculator("ja")
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"sumeval's Japanese tokenizer does not load ({exc}): pip install janome")


def oracle(preds, refs, lang, alpha=0.5):
    calc = calculator(lang)
    per = [{"ROUGE-1": calc.rouge_1(p, r, alpha), "ROUGE-2": calc.rouge_2(p, r, alpha),
            "ROUGE-L": calc.rouge_l(p, r, alpha)} for p, r in zip(preds, refs)]
    # sumeval's CLI: statistics.mean of each measure
    return {k: statistics.mean(s[k] for s in per) for k in ("ROUGE-1", "ROUGE-2", "ROUGE-L")}, per


def _corpus(name, n=0):
    if not corpus_available(name):
        pytest.skip(f"../shared/corpora/{name} is absent")
    preds, refs = load_corpus(name, n)
    return preds, [r[0] for r in refs]


ZH = ["今天", "天气", "很好", "不错", "我们", "的", "了", "是", "中国", "经济", "北京", "发布", "政策", "公司",
      "，", "。", "！", "？", "“", "”", "《", "》", "（", "）", "、", "：", ":", "~", "@", "#", "￥", "&", "·",
      ".", "!", "/", "_", ",", "$", "%", "^", "*", "(", ")", "+", "—", "’", " ", "\n", "GDP", "AI", "The", "3.5"]
JA = ["東京", "に", "住む", "住んで", "います", "。", "、", "私", "は", "学生", "です", "カタカナ", "ひらがな", "漢字",
      "ＡＢＣ", "ａｂｃ", "０１２", "ABC", "abc", "123", "「", "」", "！", "？", " ", "\n", "ー", "・", "（", "）",
      "日本語", "の", "本", "を", "読む", "が", "好き", "Wikipedia", "は、", "ｱｲｳ", "①"]
zh_texts = st.lists(st.sampled_from(ZH), max_size=30).map("".join)
ja_texts = st.lists(st.sampled_from(JA), max_size=30).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preds=st.lists(zh_texts, min_size=1, max_size=4), data=st.data())
def test_zh_matches_sumeval_on_generated_text(preds, data):
    refs = [data.draw(st.one_of(zh_texts, st.lists(zh_texts, min_size=1, max_size=3))) for _ in preds]
    want, per = oracle(preds, refs, "zh")
    got = H.sumeval_rouge(preds, refs, lang="zh")
    assert got.scores == want and got.per_example == per


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preds=st.lists(ja_texts, min_size=1, max_size=4), data=st.data(), alpha=st.sampled_from([0.5, 0.2, 1.0]))
def test_ja_matches_sumeval_on_generated_text(preds, data, alpha):
    needs_ja_tokenizer()
    refs = [data.draw(st.one_of(ja_texts, st.lists(ja_texts, min_size=1, max_size=3))) for _ in preds]
    want, per = oracle(preds, refs, "ja", alpha)
    got = H.sumeval_rouge(preds, refs, lang="ja", alpha=alpha)
    assert got.scores == want and got.per_example == per


def _zh_corpus_case(name, rows):
    preds, refs = _corpus(name, rows)
    want, per = oracle(preds, refs, "zh")
    got = H.sumeval_rouge(preds, refs, lang="zh")
    assert got.scores == want and got.per_example == per


def _ja_corpus_case(rows):
    needs_ja_tokenizer()
    preds, refs = _corpus("wikillm_japanese", rows)
    want, per = oracle(preds, refs, "ja")
    got = H.sumeval_rouge(preds, refs, lang="ja")
    assert got.scores == want and got.per_example == per


# the head of each corpus (sumeval's LCS is pure Python: the long VCSUM and Wikipedia texts are slow in it)
@pytest.mark.parametrize("name, rows", [("lcsts_mocobart_chinese", 200), ("multisummeval_chinese", 200),
                                        ("longbench_vcsum_zh", 25)])
def test_zh_matches_sumeval_on_corpus(name, rows):
    _zh_corpus_case(name, rows)


def test_ja_matches_sumeval_on_corpus():
    _ja_corpus_case(20)


@pytest.mark.integration
@pytest.mark.parametrize("name", ["lcsts_mocobart_chinese", "multisummeval_chinese", "longbench_vcsum_zh"])
def test_zh_matches_sumeval_on_whole_corpus(name):
    _zh_corpus_case(name, 0)


@pytest.mark.integration
def test_ja_matches_sumeval_on_whole_corpus():
    _ja_corpus_case(0)


def test_empty_and_symbol_only_texts():
    preds, refs = ["", "。。。", "今天", "的了是"], ["今天", "", "!!!", "的"]
    want, per = oracle(preds, refs, "zh")
    got = H.sumeval_rouge(preds, refs, lang="zh")
    assert got.scores == want and got.per_example == per


def test_signature_and_options():
    r = H.sumeval_rouge(["今天天气很好"], ["今天天气不错"], lang="zh")
    sig = r.signature
    assert sig.startswith("recipe:sumeval.rouge_zh|harness:sumeval==0.2.2|metric:sumeval-rouge(lang=zh,alpha=0.5,")
    assert "seg:jieba(" in sig and "stop:sumeval-stop-zh(sha256:" in sig
    assert H.RECIPES["sumeval.rouge"] is H.sumeval_rouge
    no_stop = H.sumeval_rouge(["今天的天气"], ["今天的"], lang="zh", stopwords=False)
    assert "stop:none" in no_stop.signature
    assert no_stop.per_example[0]["ROUGE-1"] == RougeCalculator(stopwords=False, lang="zh").rouge_1("今天的天气", "今天的")


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="lang: invalid value 'en'; allowed: ja, zh"):
        H.sumeval_rouge(["a"], ["a"], lang="en")
    with pytest.raises(ValueError, match=r"references\[0\]: expected at least 1 str"):
        H.sumeval_rouge(["a"], [[]], lang="zh")
    with pytest.raises(TypeError, match=r"predictions\[1\]: expected str, got int"):
        H.sumeval_rouge(["a", 3], ["a", "b"], lang="zh")
    with pytest.raises(ValueError, match="alpha: expected a number in"):
        H.sumeval_rouge(["a"], ["a"], lang="zh", alpha=2)
