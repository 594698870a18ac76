"""Settings validation (errors name the argument and the allowed set) and the signature."""

import pytest

from rouge_metric import Rouge, RougeConfig, RougeScorer, __version__
from rouge_metric.config import parse_rouge_type


@pytest.mark.parametrize("name,kind,n,skip,uni", [
    ("rouge1", "ngram", 1, -1, False), ("rouge12", "ngram", 12, -1, False), ("rougeL", "lcs", 0, -1, False),
    ("rougeLsum", "lcsum", 0, -1, False), ("rougeW", "wlcs", 0, -1, False), ("rougeS", "skip", 0, -1, False),
    ("rougeS4", "skip", 0, 4, False), ("rougeS0", "skip", 0, 0, False), ("rougeSU", "skip", 0, -1, True),
    ("rougeSU4", "skip", 0, 4, True),
])
def test_type_names(name, kind, n, skip, uni):
    spec = parse_rouge_type(name)
    assert (spec.kind, spec.n, spec.skip, spec.unigrams) == (kind, n, skip, uni)


@pytest.mark.parametrize("bad", ["rouge0", "rougeLSum", "rouge_1", "ROUGE1", "rougeS-1", "rouge01", "rougeW2", ""])
def test_invalid_type_fails_at_construction(bad):
    with pytest.raises(ValueError, match="rouge_types: invalid rouge type .* allowed: rouge1"):
        RougeScorer([bad])


@pytest.mark.parametrize("kwargs,match", [
    ({"multi_ref": "best"}, r"multi_ref: invalid value 'best'; allowed: 'max', 'mean', 'pool', 'best_recall'"),
    ({"aggregation": "median"}, r"aggregation: invalid value 'median'"),
    ({"tokenizer": "spacy"}, r"tokenizer: unknown tokenizer 'spacy'; allowed: 'default'"),
    ({"use_stemmer": "lancaster"}, r"use_stemmer: unknown stemmer 'lancaster'"),
    ({"sentence_splitter": "punkt"}, r"sentence_splitter: unknown splitter 'punkt'"),
    ({"beta": 0}, r"beta: expected a finite number > 0"),
    ({"alpha": 1.5}, r"alpha: expected a number in \[0, 1\]"),
    ({"wlcs_weight": -1}, r"wlcs_weight: expected a number > 0"),
    ({"n_resamples": 0}, r"n_resamples: expected an integer >= 1"),
    ({"confidence_level": 1.0}, r"confidence_level: expected a number in \(0, 1\)"),
    ({"seed": -3}, r"seed: expected an integer >= 0"),
    ({"rouge_types": []}, r"rouge_types: must not be empty"),
    ({"rouge_types": ["rouge1", "rouge1"]}, r"rouge_types: duplicate"),
])
def test_invalid_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        RougeConfig(**kwargs)


def test_bad_tokenizer_object():
    with pytest.raises(TypeError, match="tokenizer: expected a name"):
        RougeConfig(tokenizer=42)


def test_signature_states_every_setting():
    sig = RougeConfig(rouge_types=("rouge1", "rougeLsum", "rougeW"), use_stemmer=True, multi_ref="pool",
                      aggregation="bootstrap", seed=7, n_resamples=500, alpha=0.5).signature("python")
    assert sig == ("types:rouge1,rougeLsum,rougeW|tok:default|stem:porter|split:newline|w:1.2|multiref:pool|"
                   f"f:alpha=0.5|agg:bootstrap(n=500,ci=0.95,seed=7)|backend:python|version:{__version__}")


def test_signature_custom_tokenizer_names_it_and_drops_stemmer():
    def my_tok(text):
        return text.split()

    sig = Rouge(["rouge1"], tokenizer=my_tok, use_stemmer=True).signature()
    assert "tok:custom(test_signature_custom_tokenizer_names_it_and_drops_stemmer.<locals>.my_tok)" in sig and "stem:none" in sig


def test_split_summaries_without_punkt_raises_clear_error():
    from nltk.tokenize import punkt_model_available

    if punkt_model_available("english"):
        pytest.skip("punkt data is installed here")
    with pytest.raises(LookupError, match="punkt_tab.*never downloads"):
        RougeScorer(["rougeLsum"], split_summaries=True)
    # a scorer that does not need sentences does not care
    RougeScorer(["rouge1"], split_summaries=True)


def test_stemmer_with_custom_tokenizer_warns(caplog):
    with caplog.at_level("WARNING", logger="rouge_metric"):
        Rouge(["rouge1"], tokenizer=str.split, use_stemmer=True)
    assert "use_stemmer has no effect with a custom tokenizer" in caplog.text
    assert "the porter stemmer is not applied" in caplog.text
    assert "use_stemmer='porter'" not in caplog.text  # the user passed True, not 'porter'


@pytest.mark.parametrize("beta", [1e200, 1.4e154, 1e-200, float("inf"), float("nan")])
def test_beta_whose_square_is_not_a_finite_nonzero_float_is_refused(beta):
    # F = (1+b^2)PR/(b^2 P + R): b^2 = inf gives inf/inf = NaN; b^2 = 0 silently gives P
    with pytest.raises(ValueError, match=r"beta: expected a finite number > 0 whose square is a finite non-zero"):
        RougeConfig(beta=beta)


@pytest.mark.parametrize("beta", [1e150, 1e-150, 3.0])
def test_extreme_valid_beta_gives_finite_scores(beta):
    from rouge_metric import compute

    for backend in ("python", "native"):
        sc = compute(predictions=["a b c"], references=["a b d e"], rouge_types=["rouge1"], beta=beta,
                     backend=backend if backend == "python" or _native() else "python").scores["rouge1"]
        p, r = 2 / 3, 1 / 2
        b2 = beta * beta
        assert sc.fmeasure == pytest.approx((1 + b2) * p * r / (b2 * p + r), rel=1e-12)


def _native():
    from rouge_metric import core

    return core.native_available()


@pytest.mark.parametrize("bad", [None, 3, {"rouge1": 1}, b"rouge1"])
def test_rouge_types_that_are_not_names_fail_clearly_everywhere(bad):
    for build in (lambda: RougeConfig(rouge_types=bad), lambda: Rouge(bad), lambda: RougeScorer(bad)):
        with pytest.raises(TypeError, match=r"rouge_types: expected a list of type names \(str\), got"):
            build()


def test_a_single_type_name_is_one_type():
    assert RougeConfig(rouge_types="rougeL").rouge_types == ("rougeL",)
    assert Rouge("rougeLsum").rouge_types == ("rougeLsum",)
