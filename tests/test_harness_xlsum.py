"""harnesses.xlsum_rouge against XL-Sum's ``calculate_rouge`` (``seq2seq/utils.py``), re-created on XL-Sum's own
scorer (PyPI ``multilingual-rouge`` 0.0.1): the seq2seq module imports torch, transformers and fairseq helpers, so
its function is copied here as it reads, with numpy in the same state on both sides."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from multilingual_cases import case, use_nltk_data
from rouge_metric import harnesses
from rouge_metric.harnesses import xlsum as xlsum_harness

ROUGE_KEYS = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _simple_sent_tokenize(text, language="english"):
    """A stand-in for punkt (its data is not installed here): split after . ! ? 。 and a space or the end."""
    return [s for s in re.split(r"(?<=[.!?。])\s*", text) if s]


def calculate_rouge(pred_lns, tgt_lns, use_stemmer=True, rouge_keys=ROUGE_KEYS, return_precision_and_recall=False,
                    bootstrap_aggregation=True, newline_sep=True, rouge_lang=None):
    """XL-Sum's ``seq2seq/utils.py::calculate_rouge``, on XL-Sum's scorer (its loop variables swapped as there)."""
    import nltk
    from multilingual_rouge import rouge_scorer, scoring

    def add_newline_to_end_of_each_sentence(x):
        re.sub("<n>", "", x)  # remove pegasus newline char (a no-op there too)
        return "\n".join(nltk.sent_tokenize(x))

    scorer = rouge_scorer.RougeScorer(rouge_keys, lang=rouge_lang, use_stemmer=use_stemmer)
    aggregator = scoring.BootstrapAggregator()
    for pred, tgt in zip(tgt_lns, pred_lns):
        if newline_sep:
            pred = add_newline_to_end_of_each_sentence(pred)
            tgt = add_newline_to_end_of_each_sentence(tgt)
        scores = scorer.score(pred, tgt)
        aggregator.add_scores(scores)
    result = aggregator.aggregate()
    if return_precision_and_recall:
        return {k1: {stat: round(getattr(v1.mid, stat), 4) for stat in ["precision", "recall", "fmeasure"]}
                for k1, v1 in result.items()}
    return {k: round(v.mid.fmeasure * 100, 4) for k, v in result.items()}


def _both(preds, refs, seed, **kw):
    lang = kw.pop("lang", None)
    ours_kw = dict(kw)
    if "rouge_keys" in ours_kw:
        ours_kw["rouge_types"] = ours_kw.pop("rouge_keys")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.random.seed(seed)
        want = calculate_rouge(preds, refs, rouge_lang=lang, **kw)
        after_oracle = np.random.get_state()[1].copy(), np.random.get_state()[2]
        np.random.seed(seed)
        got = harnesses.xlsum_rouge(preds, refs, lang=lang, **ours_kw)
    after = np.random.get_state()
    assert (after[1] == after_oracle[0]).all() and after[2] == after_oracle[1]  # the same draws
    return got, want


@pytest.mark.parametrize("name", ["zh", "ja", "th", "fr"])
@pytest.mark.parametrize("newline_sep", [False, True])
def test_xlsum_rouge_is_calculate_rouge(name, newline_sep, monkeypatch):
    lang, _, preds, refs = case(name, rows=6, recipe=True)
    if lang == "french" and not use_nltk_data():
        pytest.skip("nltk's stopwords corpus is not installed (XL-Sum stems: Snowball with ignore_stopwords)")
    if newline_sep:
        import nltk

        monkeypatch.setattr(nltk, "sent_tokenize", _simple_sent_tokenize)
        monkeypatch.setattr(xlsum_harness, "check_nltk_punkt", lambda: None)
    got, want = _both(preds, refs, 3, lang=lang, newline_sep=newline_sep)
    assert got.scores == want
    assert got.recipe == "xlsum.calculate_rouge" and len(got.per_example) == len(preds)
    sig = got.signature.split("|")
    assert sig[:4] == ["recipe:xlsum.calculate_rouge", "harness:multilingual-rouge==0.0.1",
                       "reduce:bootstrap-mid(n=1000,numpy-global),x100,round4",
                       "newline_sep:" + ("nltk-sent_tokenize" if newline_sep else "none")]
    assert any(p.startswith(f"tok:xlsum(lang={lang},") for p in sig)


def test_precision_recall_types_and_no_stemmer():
    lang, _, preds, refs = case("zh", rows=6, recipe=True)
    got, want = _both(preds, refs, 11, lang=lang, use_stemmer=False, rouge_keys=["rouge1", "rougeL"],
                      return_precision_and_recall=True, newline_sep=False)
    assert got.scores == want and set(want) == {"rouge1", "rougeL"}


def test_listed_with_the_other_recipes():
    assert harnesses.RECIPES["xlsum.calculate_rouge"] is harnesses.xlsum_rouge
    assert harnesses.HARNESS_VERSIONS["multilingual-rouge"] == "0.0.1"


def test_inputs_are_checked_first():
    with pytest.raises(TypeError, match=r"references\[1\]: expected str, got list"):
        harnesses.xlsum_rouge(["a", "b"], ["a", ["b"]])
    with pytest.raises(ValueError, match=r"rouge_types\[0\]: invalid value 'rougeW'"):
        harnesses.xlsum_rouge(["a"], ["a"], rouge_types=["rougeW"])
    with pytest.raises(TypeError, match="newline_sep: expected True or False"):
        harnesses.xlsum_rouge(["a"], ["a"], newline_sep="yes")


def test_missing_punkt_is_a_clear_error():
    pytest.importorskip("pyonmttok")
    from rouge_metric.text import check_nltk_punkt

    try:
        check_nltk_punkt()
    except LookupError:
        pass
    else:
        pytest.skip("nltk's punkt_tab data is installed")
    with pytest.raises(LookupError, match="punkt_tab.*never downloads data"):
        harnesses.xlsum_rouge(["a b."], ["a."], use_stemmer=False)
