"""rouge_metric.recipes: recipe="xlsum" and lang= as every adapter takes them, against XL-Sum's own scorer on real
texts; what the recipe cannot honour is refused with the argument and the allowed set."""

from __future__ import annotations

import warnings

import pytest

from multilingual_cases import case, has, mean_f, segmenter_oracle, use_nltk_data, xlsum_oracle
from rouge_metric import Rouge, compute, segment
from rouge_metric.recipes import RECIPES, check_recipe, make_rouge

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


@pytest.mark.parametrize("name", ["zh", "zh_lcsts", "ja", "th", "fr"])
@pytest.mark.parametrize("stem", [False, True])
def test_xlsum_recipe_is_xlsums_scorer_on_real_text(name, stem):
    lang, _, preds, refs = case(name, recipe=True)
    if stem and lang == "french" and not use_nltk_data():
        pytest.skip("nltk's stopwords corpus is not installed (Snowball with ignore_stopwords=True)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # XL-Sum's "no stemmer for this language" for zh/ja/th
        rouge = make_rouge(TYPES, recipe="xlsum", lang=lang, use_stemmer=stem)
    ours = rouge.score_examples(predictions=preds, references=refs)
    oracle = xlsum_oracle(TYPES, stem, lang, preds, refs)
    assert ours == oracle
    res = rouge.compute(predictions=preds, references=refs)
    assert {t: res.scores[t].fmeasure for t in TYPES} == {t: mean_f(oracle, t) for t in TYPES}
    assert "tok:xlsum(lang=" in rouge.signature()


@pytest.mark.parametrize("name", ["zh", "ja", "th"])
def test_segmenting_tokenizer_is_rouge_score_on_segmented_words(name):
    _, seg, preds, refs = case(name, recipe=False)
    types = ["rouge1", "rouge2", "rougeL"]
    ours = compute(predictions=preds, references=refs, rouge_types=types, tokenizer=seg, return_per_example=True)
    assert ours.per_example == segmenter_oracle(types, seg, preds, refs)
    assert make_rouge(types, tokenizer=seg).score_examples(predictions=preds, references=refs) == ours.per_example


def test_default_recipe_is_the_core():
    preds, refs = ["the cats sat on the mat", "a b c"], [["a cat sat on the mat", "x"], "a b"]
    assert make_rouge(TYPES, use_stemmer=True).compute(predictions=preds, references=refs) == \
        Rouge(TYPES, use_stemmer=True).compute(predictions=preds, references=refs)
    assert make_rouge(TYPES, recipe="default").signature() == Rouge(TYPES).signature()


# ------------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize("bad", ["XLSUM", "rouge155", "", 3])
def test_unknown_recipe_names_the_allowed_set(bad):
    with pytest.raises(ValueError, match=r"recipe: invalid value .*; allowed: 'default', 'xlsum' \(or None\)"):
        make_rouge(["rouge1"], recipe=bad)
    assert check_recipe(None) == "default" and RECIPES == ("default", "xlsum")


def test_lang_without_the_recipe_is_refused():
    with pytest.raises(ValueError, match=r"lang='chinese': a language of recipe='xlsum'.*tokenizer='jieba'"):
        make_rouge(["rouge1"], lang="chinese")
    with pytest.raises(ValueError, match=r"min_char_length: settings of recipe='xlsum'"):
        make_rouge(["rouge1"], min_char_length=2)


@pytest.mark.parametrize("arg,value,match", [
    ("tokenizer", "jieba", r"tokenizer='jieba': not a setting of recipe='xlsum'\. XL-Sum's scorer tokenizes"),
    ("tokenizer", "unicode", r"tokenizer='unicode': not a setting"),
    ("sentence_splitter", "nltk", r"sentence_splitter='nltk': not a setting of recipe='xlsum'.*newlines"),
    ("stopwords", ["the"], r"stopwords=\['the'\]: not a setting of recipe='xlsum'"),
    ("use_stemmer", "porter", r"use_stemmer='porter': recipe='xlsum' stems with the stemmer of lang"),
    ("use_stemmer", "snowball:german", r"use_stemmer='snowball:german'"),
])
def test_settings_the_xlsum_recipe_cannot_honour_are_refused(arg, value, match):
    with pytest.raises(ValueError, match=match):
        make_rouge(["rouge1"], recipe="xlsum", lang="english", **{arg: value})


def test_xlsum_recipe_refuses_types_it_does_not_have():
    if not has("pyonmttok"):
        pytest.skip("pyonmttok is not installed")
    with pytest.raises(ValueError, match=r"rouge_types\[1\]: 'rougeW' is not a rouge type of XL-Sum's scorer; "
                                         r"allowed: rouge1 \.\.\. rouge9, rougeL, rougeLsum"):
        make_rouge(["rouge1", "rougeW"], recipe="xlsum")


def test_unset_values_are_accepted_by_the_xlsum_recipe():
    if not has("pyonmttok"):
        pytest.skip("pyonmttok is not installed")
    a = make_rouge(["rouge1"], recipe="xlsum", tokenizer=None, sentence_splitter="newline", stopwords=None)
    b = make_rouge(["rouge1"], recipe="xlsum", tokenizer="default")
    assert a.signature() == b.signature()


def test_unknown_language_gives_xlsums_numbers_and_warns_once():
    if not (has("pyonmttok") and has("multilingual_rouge")):
        pytest.skip("the XL-Sum recipe or its oracle is not installed")
    preds, refs = ["running dogs were running 中文"], ["the dog runs 中文"]
    with pytest.warns(UserWarning, match=r"lang='klingon-recipes': not a language of XL-Sum's scorer.*Known "
                                         r"languages: .*chinese"):
        rouge = make_rouge(["rouge1", "rougeL"], recipe="xlsum", lang="klingon-recipes")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_rouge(["rouge2"], recipe="xlsum", lang="klingon-recipes")
    assert rouge.score_examples(predictions=preds, references=refs) == \
        xlsum_oracle(["rouge1", "rougeL"], False, "klingon-recipes", preds, refs)
    with pytest.warns(UserWarning, match="no stemmer for this language"):  # with the stemmer: XLSumRouge's
        make_rouge(["rouge1"], recipe="xlsum", lang="klingon-recipes-stem", use_stemmer=True)


def test_missing_segmenter_of_the_language_names_lang_package_and_extra(monkeypatch):
    if not has("pyonmttok"):
        pytest.skip("pyonmttok is not installed")
    import sys

    monkeypatch.setitem(sys.modules, "pythainlp", None)
    monkeypatch.setitem(sys.modules, "pythainlp.tokenize", None)
    monkeypatch.setattr(segment.raw_segmenter("thai_newmm"), "_fn", None)
    with pytest.raises(segment.SegmenterMissing, match=r"^lang='thai': recipe='xlsum' segments it with thai_newmm: "
                                                       r"tokenizer='thai_newmm' needs the package 'pythainlp'.*"
                                                       r"'multilingual' extra"):
        make_rouge(["rouge1"], recipe="xlsum", lang="thai", use_stemmer=True, min_char_length=7)


def test_missing_pyonmttok_is_named_with_what_to_do(monkeypatch):
    """Without pyonmttok (always so on CPython 3.13, where it has no package) the XL-Sum recipe raises
    SegmenterMissing naming it; below 3.13 it says how to install it, on 3.13 which Pythons have it."""
    import sys

    from rouge_metric import xlsum

    monkeypatch.setitem(sys.modules, "pyonmttok", None)  # import pyonmttok raises ImportError
    for version, advice in (((3, 12, 0), r"install it with `pip install pyonmttok`.*'multilingual' extra"),
                            ((3, 13, 0), r"pyonmttok publishes no package for this Python \(3\.13\); "
                                         r"use CPython 3\.10 to 3\.12")):
        monkeypatch.setattr(sys, "version_info", version)
        with pytest.raises(segment.SegmenterMissing, match=r"the XL-Sum recipe needs the package 'pyonmttok'.*"
                                                           r"is not installed .*; " + advice):
            xlsum.XLSumRouge(["rouge1"], lang="spanish")


def test_lang_of_the_wrong_type_is_refused():
    with pytest.raises(TypeError, match="lang: expected a language name"):
        make_rouge(["rouge1"], recipe="xlsum", lang=3)


# ------------------------------------------------------------------ a text the segmenter fails on
@pytest.fixture
def failing_burmese(monkeypatch):
    """``burmese_syllables`` failing on any text holding "boom" (it needs no package)."""
    seg = segment.raw_segmenter("burmese_syllables")
    real = seg.fn

    def fn(text):
        if "boom" in text:
            raise RuntimeError("cannot segment")
        return real(text)

    monkeypatch.setattr(seg, "_fn", fn)
    seg.clear_cache()
    yield seg
    seg.clear_cache()


@pytest.mark.parametrize("backend", ["python", "native"])
def test_segmenter_failure_names_argument_and_index_in_rouge_and_compute(failing_burmese, backend):
    if backend == "native":
        from rouge_metric import core

        if not core.native_available():
            pytest.skip("native backend not built")
    preds, refs = ["မြန်မာ", "စာ", "boom here"], [["မြန်မာ"], ["x", "boom"], ["y"]]
    rouge = Rouge(["rouge1"], tokenizer="burmese_syllables", backend=backend)
    with pytest.raises(segment.SegmenterError, match=r"^references\[1\]\[1\]: tokenizer='burmese_syllables': the "
                                                     r"segmenter failed on the text 'boom' \(RuntimeError: cannot"):
        rouge.compute(predictions=preds, references=refs)
    with pytest.raises(segment.SegmenterError, match=r"^predictions\[2\]: "):
        rouge.score_examples(predictions=preds, references=[["a"], ["b"], ["c"]])
    with pytest.raises(segment.SegmenterError, match=r"^prediction: "):
        rouge.score(prediction="boom", references="a")
    with pytest.raises(segment.SegmenterError, match=r"^references\[0\]: ") as info:
        rouge.score(prediction="a", references=["boom"])
    assert info.value.where == "references[0]" and isinstance(info.value.__cause__, RuntimeError)


def test_segmenter_failure_in_compute_names_the_index(failing_burmese):
    with pytest.raises(segment.SegmenterError, match=r"^predictions\[1\]: tokenizer='burmese_syllables'"):
        compute(predictions=["a", "boom"], references=["a", "b"], tokenizer="burmese_syllables")


def test_a_located_error_is_not_located_twice():
    exc = segment.located(segment.SegmenterError("tokenizer='jieba': failed"), "predictions[1]")
    assert segment.located(exc, "predictions[9]") is exc
    assert segment.locate_failure(exc, lambda t: None, [("predictions[9]", "x")]) is exc
    assert str(exc) == "predictions[1]: tokenizer='jieba': failed" and exc.original.where is None
