"""RougeComputeMetrics and RougeCallback with recipe="xlsum", lang= and the word segmenters: XL-Sum's own
numbers (and rouge-score's on segmented words) on decoded real texts, in the plain and the batched mode."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from multilingual_cases import case, mean_f, segmenter_oracle, xlsum_oracle  # noqa: E402
from rouge_metric.callbacks import RougeCallback, RougeComputeMetrics  # noqa: E402
from rouge_metric.callbacks.testing import build_tokenizer  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _eval_pred(preds, refs):
    """A byte-level BPE tokenizer trained on the texts, and ``(generated ids, label ids)`` that decode to them."""
    tok = build_tokenizer(preds + refs)
    width = max(len(tok(t)["input_ids"]) for t in preds + refs) + 1

    def pad(ids, value):
        return ids + [value] * (width - len(ids))

    gen = [pad([tok.pad_token_id] + tok(p)["input_ids"], tok.pad_token_id) for p in preds]
    labels = [pad(tok(r)["input_ids"], -100) for r in refs]
    return tok, gen, labels


@pytest.mark.parametrize("name", ["zh", "ja", "th", "fr"])
def test_compute_metrics_with_the_xlsum_recipe_is_xlsums_scorer(name):
    lang, _, preds, refs = case(name, recipe=True)
    if lang == "french":  # XL-Sum's training script stems (use_stemmer=True): Snowball needs nltk's stopwords
        from multilingual_cases import use_nltk_data

        if not use_nltk_data():
            pytest.skip("nltk's stopwords corpus is not installed")
    tok, gen, labels = _eval_pred(preds, refs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metric = RougeComputeMetrics(tok, recipe="xlsum", lang=lang, num_samples=len(preds))
        out = metric((gen, labels))
    decoded = [(s["prediction"], s["reference"]) for s in metric.last_samples]
    assert decoded == list(zip(preds, refs))  # the texts round-trip through the tokenizer
    oracle = xlsum_oracle(TYPES, True, lang, preds, refs)
    assert {t: metric.last_result.scores[t].fmeasure for t in TYPES} == {t: mean_f(oracle, t) for t in TYPES}
    assert {t: out[t] for t in TYPES} == {t: mean_f(oracle, t) * 100 for t in TYPES}
    assert f"tok:xlsum(lang={lang}," in metric.signature
    # batch_eval_metrics=True: the same floats
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert metric((gen[:2], labels[:2]), compute_result=False) == {}
        batched = metric((gen[2:], labels[2:]), compute_result=True)
    assert batched == out


@pytest.mark.parametrize("name", ["zh", "ja", "th"])
def test_compute_metrics_with_a_segmenting_tokenizer(name):
    _, seg, preds, refs = case(name, recipe=False)
    types = ["rouge1", "rouge2", "rougeL"]
    tok, gen, labels = _eval_pred(preds, refs)
    metric = RougeComputeMetrics(tok, types, use_stemmer=False, rouge_tokenizer=seg, gen_len=False, scale=1.0)
    out = metric((gen, labels))
    oracle = segmenter_oracle(types, seg, preds, refs)
    assert out == {t: mean_f(oracle, t) for t in types}


def test_refusals_name_the_argument():
    tok = build_tokenizer(["a b c"])
    with pytest.raises(ValueError, match=r"recipe='xlsum', lang='chinese': score_ids=True scores token ids"):
        RougeComputeMetrics(tok, score_ids=True, recipe="xlsum", lang="chinese")
    with pytest.raises(ValueError, match=r"lang='chinese': a language of recipe='xlsum'"):
        RougeComputeMetrics(tok, lang="chinese")
    with pytest.raises(ValueError, match=r"tokenizer='jieba': not a setting of recipe='xlsum'"):
        RougeComputeMetrics(tok, recipe="xlsum", rouge_tokenizer="jieba")
    with pytest.raises(ValueError, match=r"recipe: invalid value 'XLSum'; allowed: 'default', 'xlsum'"):
        RougeComputeMetrics(tok, recipe="XLSum")
    with pytest.raises(ValueError, match=r"sentence_splitter='offline': not a setting of recipe='xlsum'"):
        RougeComputeMetrics(tok, recipe="xlsum", sentence_splitter="offline")


def test_callback_passes_the_recipe_to_its_metric():
    lang, _, preds, refs = case("zh", recipe=True)
    tok = build_tokenizer(preds + refs)
    cb = RougeCallback(eval_dataset=[{"input_ids": [1], "labels": [1]}], tokenizer=tok, recipe="xlsum", lang=lang,
                       rouge_types=["rouge1", "rougeL"])
    assert f"tok:xlsum(lang={lang}," in cb.metric.signature and cb.metric.rouge.rouge_types == ("rouge1", "rougeL")
    with pytest.raises(ValueError, match="lang='chinese': a language of recipe='xlsum'"):
        RougeCallback(eval_dataset=[{"input_ids": [1], "labels": [1]}], tokenizer=tok, lang="chinese")


@pytest.mark.integration
def test_trainer_logs_xlsums_numbers_of_its_generations(tmp_path):
    """A real Seq2SeqTrainer evaluation (an untrained tiny T5 generating from Chinese documents): the logged
    ROUGE is XL-Sum's scorer on the independently decoded generations and labels."""
    import numpy as np
    import transformers

    from rouge_metric.callbacks.testing import build_model, encode_pairs, tiny_training_args

    lang, _, preds, refs = case("zh", rows=6, recipe=True)
    tok = build_tokenizer(preds + refs)
    model = build_model(len(tok), seed=0, max_length=16)
    eval_set = encode_pairs(tok, list(zip(preds, refs)), max_target_length=64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metric = RougeComputeMetrics(tok, recipe="xlsum", lang=lang, use_stemmer=False)
    args = tiny_training_args(str(tmp_path), generation_max_length=16)
    trainer = transformers.Seq2SeqTrainer(model=model, args=args, eval_dataset=eval_set, compute_metrics=metric,
                                          data_collator=transformers.DataCollatorForSeq2Seq(tok, model=model),
                                          processing_class=tok)
    logged = trainer.evaluate()
    out = trainer.predict(eval_set)

    def decode(ids):
        ids = np.where(np.asarray(ids) < 0, tok.pad_token_id, ids)
        return [t.strip() for t in tok.batch_decode(ids.tolist(), skip_special_tokens=True)]

    gen, labels = decode(out.predictions), decode(out.label_ids)
    assert labels == refs
    oracle = xlsum_oracle(TYPES, False, lang, gen, labels)
    assert {t: logged[f"eval_{t}"] for t in TYPES} == {t: mean_f(oracle, t) * 100 for t in TYPES}
