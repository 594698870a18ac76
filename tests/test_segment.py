"""Named word-segmenting tokenizers: jieba, fugashi, thai_newmm, burmese_syllables."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from typing import List

import pytest

from rouge_metric import Rouge, compute, segment


def _need(package: str) -> None:
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed (extra 'multilingual')")


def test_jieba_words_in_rouge():
    _need("jieba")
    r = Rouge(["rouge1", "rouge2", "rougeLsum"], tokenizer="jieba")
    assert r.process("今天北京的天气很好。\n明天下雨！")[0] == ["今天", "北京", "的", "天气", "很", "好", "明天", "下雨"]
    assert r.score(prediction="今天北京的天气很好", references="今天北京天气不错")["rouge1"].fmeasure == 0.6
    sig = r.signature()
    import jieba

    with jieba.get_dict_file() as fh:  # jieba's own default dictionary, as jieba finds it
        digest = hashlib.sha256(fh.read()).hexdigest()[:8]
    assert f"tok:jieba({segment.package_version('jieba')},dict=sha256:{digest})" in sig


def test_fugashi_words_and_dictionary_in_signature():
    _need("fugashi")
    r = Rouge(["rouge1"], tokenizer="fugashi")
    assert r.process("東京タワーに行きました。")[0] == ["東京", "タワー", "に", "行き", "まし", "た"]
    assert "tok:fugashi(" in r.signature() and ",dict=unidic" in r.signature()


def test_thai_newmm_words():
    _need("pythainlp")
    r = Rouge(["rouge1"], tokenizer="thai_newmm")
    assert r.process("ภาษาไทย ง่ายนิดเดียว")[0] == ["ภาษาไทย", "ง่าย", "นิดเดียว"]
    assert "tok:pythainlp-newmm(" in r.signature()


def test_burmese_syllables_need_no_package():
    r = compute(predictions=["မြန်မာ စာ"], references=[["မြန်မာ နိုင်ငံ"]], rouge_types=["rouge1"],
                tokenizer="burmese_syllables")
    s = r.scores["rouge1"]  # syllables: မြန် မာ စာ against မြန် မာ နိုင် ငံ
    assert (s.precision, s.recall) == (2 / 3, 0.5) and s.fmeasure == pytest.approx(4 / 7)
    assert "tok:burmese_syllables(ding2019)" in r.signature


def test_words_are_lowercased_and_punctuation_dropped():
    # the rule splits every character that is not a dependent sign: Latin letters one by one
    assert segment.words("burmese_syllables", "မြန်မာ။ AB") == ["မြန်", "မာ", "a", "b"]


def test_stemmer_applies_to_segmented_words():
    _need("jieba")
    r = Rouge(["rouge1"], tokenizer="jieba", use_stemmer=True)
    assert r.process("running 中文")[0] == ["run", "中文"]


def test_missing_package_names_the_extra_and_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "jieba", None)
    with pytest.raises(segment.SegmenterMissing, match=r"needs the package 'jieba'.*pip install jieba.*'multilingual' extra"):
        segment.JiebaSegmenter().fn
    monkeypatch.setitem(sys.modules, "pythainlp", None)
    monkeypatch.setitem(sys.modules, "pythainlp.tokenize", None)
    with pytest.raises(ImportError, match="'pythainlp'"):
        segment.ThaiNewmmSegmenter().fn


def test_dictionary_that_cannot_be_loaded(monkeypatch):
    _need("fugashi")
    import fugashi

    def broken(*args, **kwargs):
        raise RuntimeError("Failed initializing MeCab")

    monkeypatch.setattr(fugashi, "Tagger", broken)
    with pytest.raises(segment.SegmenterError, match="could not load a dictionary.*unidic-lite.*unidic download"):
        segment.FugashiSegmenter().fn


class _Counting(segment.BurmeseSegmenter):
    def __init__(self) -> None:
        super().__init__()
        self.calls: List[str] = []

    def load(self):
        def run(text):
            self.calls.append(text)
            if "boom" in text:
                raise ValueError("bad input")
            return text.split()

        return run


def test_segmenter_failure_shows_the_text():
    seg = _Counting()
    with pytest.raises(segment.SegmenterError, match=r"failed on the text 'a boom b' \(ValueError: bad input\)"):
        seg("a boom b")


def test_segmentation_is_cached_per_unique_text():
    seg = _Counting()
    for _ in range(3):
        assert seg("a b") == ("a", "b")
        assert seg("c") == ("c",)
    assert seg.calls == ["a b", "c"]


def test_unknown_segmenter_names_the_allowed_set():
    with pytest.raises(ValueError, match="unknown segmenter 'klingon'; allowed: 'jieba', 'fugashi'"):
        segment.raw_segmenter("klingon")
    with pytest.raises(ValueError, match="tokenizer: unknown tokenizer 'klingon'"):
        Rouge(["rouge1"], tokenizer="klingon")
