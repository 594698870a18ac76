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


def test_a_scorer_signature_follows_its_config_and_backend():
    """The scorer keeps its signature between calls; one whose config or backend attribute is replaced
    states the new settings, never the kept ones."""
    r = Rouge(["rouge1", "rougeLsum"], use_stemmer=True, backend="python")
    assert r.signature() == r.config.signature("python")
    assert r.compute(predictions=["a b"], references=["a c"]).signature == r.signature()
    r.config = RougeConfig(rouge_types=("rouge1", "rougeLsum"), multi_ref="mean")
    assert "stem:none" in r.signature() and "multiref:mean" in r.signature()
    assert r.signature() == r.config.signature("python")
    r.backend = "native"
    assert r.signature() == r.config.signature("native")


def test_type_specs_are_decoded_once_per_setting():
    """The decoded types of equal settings are the same frozen objects, equal to a fresh decoding."""
    a = RougeConfig(rouge_types=("rouge2", "rougeW", "rougeSU4"), wlcs_weight=1.5)
    b = RougeConfig(rouge_types=("rouge2", "rougeW", "rougeSU4"), wlcs_weight=1.5)
    assert a.type_specs is b.type_specs
    assert a.type_specs == tuple(parse_rouge_type(t, 1.5) for t in ("rouge2", "rougeW", "rougeSU4"))
    assert RougeConfig(rouge_types=("rougeW",), wlcs_weight=2.0).type_specs[0].weight == 2.0


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


# The settings and result types are frozen records (rouge_metric/_record.py) rather than dataclasses,
# whose import costs 11 ms of every fresh process; what the dataclasses gave them still holds.
def _records():
    import rouge_metric.config as config_mod
    from rouge_metric.result import ComparisonResult, CorpusResult, GenerationResult, Score

    res = CorpusResult(scores={"rouge1": Score(0.5, 0.25, 1 / 3)}, n=2, pred_len=3.0, ref_len=4.5, signature="sig")
    return [
        RougeConfig(), RougeConfig(rouge_types=["rougeL"], use_stemmer=True, stopwords=["the", "a"]),
        config_mod.TypeSpec("rougeSU4", "skip", skip=4, unigrams=True), res,
        ComparisonResult(comparisons={}, n=3, method="paired_bootstrap", n_resamples=10, confidence_level=0.9, seed=1,
                         signature="sig"),
        GenerationResult(result=res, predictions=["p"], references=[["r"]], generated=1, cached=0),
    ]


@pytest.mark.parametrize("index", range(6))
def test_records_are_frozen_ordered_comparable_and_picklable(index):
    import copy
    import inspect
    import pickle

    obj = _records()[index]
    cls = type(obj)
    assert list(inspect.signature(cls).parameters) == list(cls._fields)  # every field is a parameter, in order
    with pytest.raises(AttributeError, match="frozen"):
        setattr(obj, cls._fields[0], None)
    with pytest.raises(AttributeError, match="frozen"):
        delattr(obj, cls._fields[0])
    with pytest.raises(AttributeError):
        obj.not_a_field = 1
    again = cls(**obj._asdict())
    assert again == obj and again is not obj and not (again != obj)
    assert pickle.loads(pickle.dumps(obj)) == obj and copy.deepcopy(obj) == obj and copy.copy(obj) == obj
    assert obj != tuple(obj._asdict().values())  # only equal to its own class
    assert repr(obj).startswith(cls.__qualname__ + "(")
    try:
        h = hash(obj)
    except TypeError:  # a field holds a dict (the results), as with a frozen dataclass
        assert any(isinstance(v, dict) for v in obj._asdict().values())
    else:
        assert h == hash(again)


def test_config_hash_repr_and_replace():
    a = RougeConfig(use_stemmer=True, stopwords=["the", "a"])
    b = RougeConfig(use_stemmer="porter", stopwords=("a", "the"))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1  # normalised settings compare equal
    assert "stopwords" not in repr(a) and "use_stemmer='porter'" in repr(a)
    c = a.replace(rouge_types=["rougeL"])
    assert c.rouge_types == ("rougeL",) and c.stopwords == a.stopwords and a.rouge_types != c.rouge_types
    with pytest.raises(ValueError, match="multi_ref: invalid value"):
        a.replace(multi_ref="best")  # validated again
    with pytest.raises(TypeError, match="no_such_option"):
        a.replace(no_such_option=1)
    assert RougeConfig._defaults()["multi_ref"] == "max" and set(RougeConfig._defaults()) == set(RougeConfig._fields)


def test_a_registered_tokenizer_is_accepted_by_name_and_leaves_the_public_set_alone():
    """register_tokenizer adds a name every configuration accepts and the error lists, while TOKENIZERS (the
    tuple config, the CLI choices and the Space read) stays the one fixed object."""
    from rouge_metric import Rouge, config, text

    before = text.TOKENIZERS
    name = "test_registered_upper_words"
    text.register_tokenizer(name, lambda s, stemmer=None: s.upper().split())
    assert text.TOKENIZERS is before and config.TOKENIZERS is before and name not in before
    assert name in text.tokenizer_names()
    got = Rouge(["rouge1"], tokenizer=name).score(prediction="a b", references=["A c"])["rouge1"]
    assert (got.precision, got.recall) == (0.5, 0.5)
    with pytest.raises(ValueError, match=rf"unknown tokenizer 'nope'; allowed: .*'{name}'"):
        Rouge(["rouge1"], tokenizer="nope")
