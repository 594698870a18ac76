"""rouge_metric.rouge_score against the real rouge-score 0.1.2: scores, score_multi, tokenizers, errors,
pickling, BootstrapAggregator (floats and numpy's global generator state afterwards) and the switch
(`install()` and `python -m rouge_metric.rouge_score`) in fresh processes."""

from __future__ import annotations

import collections
import json
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpora import STRESS_CORPORA, corpus_available, load_corpus
from strategies import texts

rs_scorer = pytest.importorskip("rouge_score.rouge_scorer")
rs_scoring = pytest.importorskip("rouge_score.scoring")
rs_tokenize = pytest.importorskip("rouge_score.tokenize")
rs_tokenizers = pytest.importorskip("rouge_score.tokenizers")

from rouge_metric.rouge_score import rouge_scorer, scoring, tokenize, tokenizers  # noqa: E402

ALL_TYPES = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exact(value):
    """A value as something == compares bit for bit, with its type: floats by hex, tuples element-wise."""
    if isinstance(value, dict):
        return [(k, exact(v)) for k, v in value.items()]
    if isinstance(value, tuple):
        return (type(value).__name__, getattr(value, "_fields", None), [exact(v) for v in value])
    if isinstance(value, (float, np.floating)):
        return (type(value).__name__, float(value).hex())
    return (type(value).__name__, value)


def outcome(fn, *args):
    """``exact`` of fn's result, or (exception type, message)."""
    try:
        return exact(fn(*args))
    except Exception as exc:  # noqa: BLE001 - the exception is the result under comparison
        return ("raised", type(exc).__name__, str(exc))


class SplitTokenizer:
    """A custom tokenizer object (whitespace, case kept)."""

    def tokenize(self, text):
        return text.split()


class CharTokenizer:
    """HELM's chinese_rouge tokenization: every character, spaces and punctuation included."""

    def tokenize(self, text):
        return list(text)


type_lists = st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=5)


# ------------------------------------------------------------------------------------------ scores
@SETTINGS
@given(types=type_lists, stem=st.booleans(), target=texts(), prediction=texts())
def test_score_matches_rouge_score(types, stem, target, prediction):
    ours = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    real = rs_scorer.RougeScorer(types, use_stemmer=stem)
    assert exact(ours.score(target, prediction)) == exact(real.score(target, prediction))


@SETTINGS
@given(types=type_lists, stem=st.booleans(), targets=st.lists(texts(), min_size=0, max_size=4),
       prediction=texts(), container=st.sampled_from([list, tuple, iter]))
def test_score_multi_matches_rouge_score(types, stem, targets, prediction, container):
    ours = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    real = rs_scorer.RougeScorer(types, use_stemmer=stem)
    assert outcome(ours.score_multi, container(targets), prediction) == \
        outcome(real.score_multi, container(targets), prediction)


@SETTINGS
@given(types=type_lists, target=texts(), prediction=texts(),
       tok=st.sampled_from([SplitTokenizer, CharTokenizer]))
def test_custom_tokenizer_objects(types, target, prediction, tok):
    ours = rouge_scorer.RougeScorer(types, use_stemmer=True, tokenizer=tok())
    real = rs_scorer.RougeScorer(types, use_stemmer=True, tokenizer=tok())
    assert exact(ours.score(target, prediction)) == exact(real.score(target, prediction))
    assert exact(ours.score_multi([target, prediction], prediction)) == \
        exact(real.score_multi([target, prediction], prediction))


@SETTINGS
@given(types=type_lists, stem=st.booleans(), target=texts(), prediction=texts(), encode=st.sampled_from(["t", "p", "tp"]))
def test_bytes_texts(types, stem, target, prediction, encode):
    """rouge-score takes UTF-8 bytes: bytes.lower() for the whole text, str.lower() per rougeLsum line."""
    t = target.encode() if "t" in encode else target
    p = prediction.encode() if "p" in encode else prediction
    ours = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    real = rs_scorer.RougeScorer(types, use_stemmer=stem)
    assert exact(ours.score(t, p)) == exact(real.score(t, p))


def test_bytes_with_letters_that_lower_to_ascii():
    # U+0130 and U+212A lower to ASCII as str, not as bytes: the two rouge-score paths differ on them
    t, p = "İstanbul \u212aelvin\nİ".encode(), "i stanbul kelvin".encode()
    for types in (["rouge1", "rougeL", "rougeLsum"], ["rougeLsum"], ["rouge2"]):
        assert exact(rouge_scorer.RougeScorer(types).score(t, p)) == exact(rs_scorer.RougeScorer(types).score(t, p))


@SETTINGS
@given(target=texts(), prediction=texts())
def test_split_summaries_without_sentence_types(target, prediction):
    types = ["rouge1", "rouge2", "rougeL"]
    ours = rouge_scorer.RougeScorer(types, split_summaries=True)
    real = rs_scorer.RougeScorer(types, split_summaries=True)
    assert exact(ours.score(target, prediction)) == exact(real.score(target, prediction))


def test_split_summaries_rougelsum_agrees_with_nltk_data_state():
    """With punkt data both use nltk.sent_tokenize; without it both raise LookupError."""
    texts_ = ("The cat sat. It was on the mat. Then it left.", "A cat sat on a mat. It left.")
    ours = outcome(rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score, *texts_)
    real = outcome(rs_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score, *texts_)
    if real[0] == "raised":
        assert real[1] == "LookupError" and ours[:2] == ("raised", "LookupError")
    else:
        assert ours == real


@pytest.mark.parametrize("types", [
    ["rouge0"], ["rougeX"], ["rouge10"], ["rouge1", "bogus"], [b"rouge1"], [b"rougeL"], ["rouge1\n"],
    [1], [None], None, 5, [], ["rouge1", "rouge1", "rougeL", "rougeL"], ("rouge2",), "rouge1", "rougeL",
])
def test_rouge_types_read_as_rouge_score_reads_them(types):
    for t, p in (("the cat sat", "the cat ran"), ("", "x y")):
        assert outcome(rouge_scorer.RougeScorer(types).score, t, p) == outcome(rs_scorer.RougeScorer(types).score, t, p)


@pytest.mark.parametrize("target,prediction", [
    (None, "a"), ("a", None), (1, "a"), (["a b"], "a"), (bytearray(b"a"), "a"), ("a", b"\xff"),
])
@pytest.mark.parametrize("types", [["rouge1"], ["rougeLsum"], ["rougeL", "rougeLsum"], []])
def test_invalid_texts_raise_what_rouge_score_raises(target, prediction, types):
    ours = outcome(rouge_scorer.RougeScorer(types).score, target, prediction)
    real = outcome(rs_scorer.RougeScorer(types).score, target, prediction)
    if real[0] == "raised":
        assert ours[:2] == real[:2], (ours, real)
    else:
        assert ours == real


def test_rouge_types_changed_in_place_are_honoured():
    types = ["rouge1"]
    ours, real = rouge_scorer.RougeScorer(types), rs_scorer.RougeScorer(list(types))
    assert exact(ours.score("a b c", "a b")) == exact(real.score("a b c", "a b"))
    types.append("rougeL")
    real.rouge_types.append("rougeL")
    assert exact(ours.score("a b c", "a c")) == exact(real.score("a b c", "a c"))


def test_settings_changed_between_calls_are_honoured():
    """Every setting rouge-score reads at each call, changed between calls of the same scorer (the
    per-pair native entry point of the first settings must not be used for the next)."""
    ours, real = rouge_scorer.RougeScorer(["rouge1", "rougeL"]), rs_scorer.RougeScorer(["rouge1", "rougeL"])
    pairs = [("The cats ran\nfast", "the cat runs"), ("", "x y"), ("a b", "")]

    def same():
        for t, p in pairs:
            assert outcome(ours.score, t, p) == outcome(real.score, t, p)
            assert outcome(ours.score_multi, [t, "cats"], p) == outcome(real.score_multi, [t, "cats"], p)

    same()
    for scorer in (ours, real):
        scorer.rouge_types[0] = "rouge2"  # in place
    same()
    for scorer in (ours, real):
        scorer.rouge_types = ("rougeLsum", "rouge1")  # another object
    same()
    for scorer in (ours, real):
        scorer.rouge_types = ["rouge1", "rougeX"]  # invalid: the error at rouge-score's step
    same()
    for scorer in (ours, real):
        scorer.rouge_types = ["rouge1", "rougeL"]
        scorer._tokenizer = SplitTokenizer()  # rouge-score's own attribute, read at each call
    same()
    for scorer in (ours, real):
        scorer._tokenizer = rs_tokenizers.DefaultTokenizer(True) if scorer is real else tokenizers.DefaultTokenizer(True)
    same()


def _native_method(name):
    """The drop-in's method `name` as the class holds it: a _native.PairMethod when the core is built."""
    return rouge_scorer.RougeScorer.__dict__[name]


def test_native_entry_points_follow_every_setting_rouge_score_reads():
    """score and score_multi check in C, at every call, that each setting rouge-score reads is the
    object the native plan was made for; any change (in place, a new object, the tokenizer's stemming,
    split_summaries) takes the Python method, which re-plans, and the next calls are native again."""
    pairs = [("The cats ran\nfast. Away.", "the cat runs\naway"), ("", "x y"), ("dogs and cats", "cats")]
    state = {}

    def make(module, types, stem):
        state["types"] = types
        return module.RougeScorer(types, use_stemmer=stem)

    ours, real = make(rouge_scorer, ["rouge1", "rougeL"], True), make(rs_scorer, ["rouge1", "rougeL"], True)

    def same():
        for t, p in pairs:
            for scorer_call in (lambda s: s.score(t, p), lambda s: s.score_multi([t, "cats run"], p)):
                a, b = outcome(scorer_call, ours), outcome(scorer_call, real)
                assert a == b if b[0] != "raised" else a[:2] == b[:2], (a, b)
        native_plan = ours.__dict__.get("_native_plan")
        if native_plan is not None:  # the plan of the next native calls is made for these very objects
            checks = dict(zip(native_plan.attributes, native_plan.values))
            assert checks["rouge_types"] is ours.rouge_types and checks["_tokenizer"] is ours._tokenizer
            assert checks["_split_summaries"] is ours._split_summaries

    same()
    if type(_native_method("score")).__name__ == "PairMethod":
        assert ours.__dict__["_native_plan"] is not None
    ours.rouge_types[0] = "rouge" + "1"  # an equal str: the same plan
    same()
    for scorer in (ours, real):
        scorer.rouge_types = list(scorer.rouge_types)  # an equal list, another object
    same()
    for scorer in (ours, real):
        scorer.rouge_types.append("rougeLsum")
    same()
    ours._tokenizer._use_stemmer = False  # rouge-score's tokenizer keeps a stemmer or None instead
    real._tokenizer._stemmer = None
    same()
    ours._tokenizer._use_stemmer = 1  # any truthy value stems, as the tokenizer's own tokenize() does
    real._tokenizer = rs_tokenizers.DefaultTokenizer(True)
    same()
    ours._tokenizer._use_stemmer = True
    same()
    for scorer in (ours, real):  # split_summaries: nltk's sentences (or LookupError without punkt data)
        scorer._split_summaries = True
    same()
    for scorer in (ours, real):
        scorer._split_summaries = False
        scorer.rouge_types = ("rouge2", "rougeL")  # a tuple
    same()


def test_native_entry_points_leave_subclasses_patches_and_introspection_as_python_has_them(monkeypatch):
    import inspect

    class Sub(rouge_scorer.RougeScorer):
        pass

    class RealSub(rs_scorer.RougeScorer):
        pass

    class Own(rouge_scorer.RougeScorer):
        def score(self, target, prediction):
            return "own"

    for t, p in (("the cats ran", "a cat runs"), ("", "x")):
        sub, real = Sub(["rouge1", "rougeL"], use_stemmer=True), RealSub(["rouge1", "rougeL"], use_stemmer=True)
        for _ in range(2):
            assert exact(sub.score(t, p)) == exact(real.score(t, p))
            assert exact(sub.score_multi([t], p)) == exact(real.score_multi([t], p))
            sub.rouge_types.append("rouge2")
            real.rouge_types.append("rouge2")
    assert Own(["rouge1"]).score("a", "b") == "own"
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    scorer.score("a b", "a")
    monkeypatch.setattr(rouge_scorer.RougeScorer, "score", lambda self, t, p: "patched")
    assert scorer.score("a b", "a") == "patched"
    monkeypatch.undo()
    scorer.score = lambda t, p: "instance"  # an instance attribute wins, as over a function
    assert scorer.score("a b", "a") == "instance"
    del scorer.score
    real = rs_scorer.RougeScorer(["rouge1"])
    for name in ("score", "score_multi"):
        ours_m, real_m = getattr(scorer, name), getattr(real, name)
        assert list(inspect.signature(ours_m).parameters) == list(inspect.signature(real_m).parameters)
        assert ours_m.__name__ == real_m.__name__ and inspect.ismethod(ours_m)
    for wrong in (lambda s: s.score("a"), lambda s: s.score("a", "b", "c"), lambda s: s.score(target="a", x="b")):
        ours_error, real_error = outcome(wrong, scorer), outcome(wrong, real)
        assert ours_error[:2] == real_error[:2] == ("raised", "TypeError")
    assert exact(pickle.loads(pickle.dumps(scorer.score))("a b", "a")) == exact(real.score("a b", "a"))


def test_int_zeros_and_str_subclasses_on_the_fast_path():
    """rougeL/rougeLsum of a text without tokens are int zeros, a zero score of texts with tokens float
    zeros; str subclasses and keywords take the steps, with the same result."""
    class Text(str):
        pass

    ours, real = (m.RougeScorer(["rouge1", "rougeL", "rougeLsum"], use_stemmer=True) for m in (rouge_scorer, rs_scorer))
    for t, p in (("", ""), ("...", "a"), ("a b", "c d"), ("a\n\nb", "!!\nc"), ("x", "x"), (Text("a b"), Text("a"))):
        assert exact(ours.score(t, p)) == exact(real.score(t, p))
        assert exact(ours.score(target=t, prediction=p)) == exact(real.score(target=t, prediction=p))
        assert exact(ours.score_multi((t, "zz"), p)) == exact(real.score_multi((t, "zz"), p))
        assert exact(ours.score_multi([t], p)) == exact(real.score_multi([t], p))


# Pieces of texts that often hold no token at all: separators, punctuation, non-ASCII letters (not
# tokens), and the two code points that lowercase to ASCII letters (U+0130, the Kelvin sign: tokens).
_SPARSE = st.lists(st.sampled_from([" ", "\n", "...", "!!\n", "\u00e9\u00e8", "\u4e2d\u6587", "-", "\u0130",
                                    "\u212a", "a", "Running", "ab1", "\n\n"]), max_size=8).map("".join)


@SETTINGS
@given(stem=st.booleans(), lcs=st.sampled_from([["rougeL"], ["rougeLsum"], ["rouge2", "rougeLsum", "rougeL"]]),
       target=_SPARSE, prediction=_SPARSE, long_side=st.sampled_from(["", "t", "p"]))
def test_zero_lcs_scores_match_rouge_score(stem, lcs, target, prediction, long_side):
    """A zero rougeL/rougeLsum is rouge-score's int zeros exactly when a side has no token, float zeros
    otherwise, whatever the other side's length (the fast path decides it on the native pipeline)."""
    filler = " ".join(["report", "findings", "agency"] * 30)  # tokens no short side has
    if long_side == "t":
        target = target + "\n" + filler
    elif long_side == "p":
        prediction = filler + "\n" + prediction
    ours, real = (m.RougeScorer(lcs, use_stemmer=stem) for m in (rouge_scorer, rs_scorer))
    assert exact(ours.score(target, prediction)) == exact(real.score(target, prediction))
    assert exact(ours.score_multi([target, prediction], prediction)) == exact(real.score_multi([target, prediction], prediction))
    assert exact(ours.score_multi((prediction, target), target)) == exact(real.score_multi((prediction, target), target))


def test_tokenize_modules_match():
    from nltk.stem import porter

    for text in ("The İstanbul café, 3.14! Running dogs", "RUNNING\nfaster", b"Caf\xc3\xa9 running", ""):
        for stem in (None, porter.PorterStemmer()):
            assert tokenize.tokenize(text, stem) == rs_tokenize.tokenize(text, stem)
        for use in (False, True):
            assert tokenizers.DefaultTokenizer(use).tokenize(text) == rs_tokenizers.DefaultTokenizer(use).tokenize(text)
    for name in ("NON_ALPHANUM_PATTERN", "SPACES_PATTERN", "VALID_TOKEN_PATTERN"):
        assert getattr(tokenize, name) == getattr(rs_tokenize, name)
    assert issubclass(tokenizers.DefaultTokenizer, tokenizers.Tokenizer)
    with pytest.raises(TypeError):
        tokenizers.Tokenizer()


def test_types_and_fmeasure():
    assert scoring.Score._fields == rs_scoring.Score._fields
    assert scoring.AggregateScore._fields == rs_scoring.AggregateScore._fields
    assert scoring.Score(1, 2, 3) == rs_scoring.Score(1, 2, 3)
    assert isinstance(rouge_scorer.RougeScorer(["rouge1"]), scoring.BaseScorer)
    for p, r in ((0.5, 0.25), (0, 0), (1, 0), (0.1, 0.7)):
        assert exact(scoring.fmeasure(p, r)) == exact(rs_scoring.fmeasure(p, r))


def test_pickling():
    for scorer in (rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True),
                   rouge_scorer.RougeScorer(["rougeL"], tokenizer=SplitTokenizer())):
        before = scorer.score("Running cats\nsat here", "the cats ran")
        clone = pickle.loads(pickle.dumps(scorer))
        assert exact(clone.score("Running cats\nsat here", "the cats ran")) == exact(before)
    agg = scoring.BootstrapAggregator(0.9, 50)
    agg.add_scores({"rouge1": scoring.Score(0.5, 0.25, 1 / 3)})
    agg.add_scores({"rouge1": scoring.Score(0.75, 0.5, 0.6)})
    clone = pickle.loads(pickle.dumps(agg))
    np.random.seed(3)
    a = agg.aggregate()
    np.random.seed(3)
    assert exact(clone.aggregate()) == exact(a)


# -------------------------------------------------------------------------------------- corpora
@pytest.mark.integration
@pytest.mark.parametrize("name", STRESS_CORPORA)
def test_corpora(name):
    if not corpus_available(name):
        pytest.skip(f"../shared/corpora/{name}.jsonl.gz is not present")
    preds, refs = load_corpus(name, limit=8 if name.startswith("longbench") else 60)  # rouge-score's LCS is O(mn) Python
    for stem in (False, True):
        ours = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"], use_stemmer=stem)
        real = rs_scorer.RougeScorer(["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"], use_stemmer=stem)
        ours_agg, real_agg = scoring.BootstrapAggregator(), rs_scoring.BootstrapAggregator()
        for p, rs in zip(preds, refs):
            o, r = ours.score_multi(rs, p), real.score_multi(rs, p)
            assert exact(o) == exact(r)
            assert exact(ours.score(rs[0], p)) == exact(real.score(rs[0], p))
            ours_agg.add_scores(o)
            real_agg.add_scores(r)
        np.random.seed(len(preds))
        a = exact(ours_agg.aggregate())
        state = np.random.get_state()
        np.random.seed(len(preds))
        assert a == exact(real_agg.aggregate())
        assert_same_state(state, np.random.get_state())


# ---------------------------------------------------------------------------------- the aggregator
def assert_same_state(a, b):
    assert a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:] == b[2:]


Pair = collections.namedtuple("Pair", ["first", "second"])


@st.composite
def score_rows(draw):
    """(type -> list of scores) of one kind: Score with float / rounded / int-zero values, plain tuples,
    a two-field namedtuple, float32 values."""
    n = draw(st.integers(1, 40))
    kind = draw(st.sampled_from(["float", "rounded", "zeros", "tuple", "pair", "float32", "mixed_zero"]))
    unit = st.floats(0, 1, allow_nan=False)
    rows = []
    for _ in range(n):
        p, r = draw(unit), draw(unit)
        f = 2 * p * r / (p + r) if p + r > 0 else 0.0
        if kind == "rounded":
            p, r, f = round(p, 1), round(r, 1), round(f, 2)
        if kind == "zeros" or (kind == "mixed_zero" and draw(st.booleans())):
            rows.append(scoring.Score(0, 0, 0))
        elif kind == "tuple":
            rows.append((p, r, f))
        elif kind == "pair":
            rows.append(Pair(p, r))
        elif kind == "float32":
            rows.append(scoring.Score(np.float32(p), np.float32(r), np.float32(f)))
        else:
            rows.append(scoring.Score(p, r, f))
    if draw(st.booleans()) and n > 1:  # identical rows
        rows = [rows[0]] * n
    return rows


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(types=st.lists(score_rows(), min_size=1, max_size=3), n_samples=st.integers(1, 300),
       ci=st.one_of(st.sampled_from([0.0, 0.5, 0.9, 0.95, 0.99, 1.0]), st.floats(0, 1)),
       seed=st.integers(0, 2**32 - 1))
@pytest.mark.integration
def test_bootstrap_matches_rouge_score(types, n_samples, ci, seed):
    ours, real = scoring.BootstrapAggregator(ci, n_samples), rs_scoring.BootstrapAggregator(ci, n_samples)
    n = min(len(rows) for rows in types)
    for i in range(n):
        example = {f"t{k}": rows[i] for k, rows in enumerate(types)}
        ours.add_scores(example)
        real.add_scores(example)
    np.random.seed(seed)
    got = outcome(ours.aggregate)  # a plain tuple is an error in both (tuple(*bounds))
    state = np.random.get_state()
    np.random.seed(seed)
    assert got == outcome(real.aggregate)
    assert_same_state(state, np.random.get_state())


def test_bootstrap_blocks_and_single_pair(monkeypatch):
    """Blocks smaller than one resample's worth and a single pair (no draw at all) give rouge-score's
    floats and state."""
    rng = np.random.default_rng(7)
    for n, block in ((1, 1), (2, 3), (37, 50), (200, 10_000)):
        monkeypatch.setattr(scoring, "_BLOCK_VALUES", block)
        rows = [scoring.Score(*rng.random(3)) for _ in range(n)]
        ours, real = scoring.BootstrapAggregator(), rs_scoring.BootstrapAggregator()
        for row in rows:
            ours.add_scores({"rouge1": row, "rougeL": row})
            real.add_scores({"rouge1": row, "rougeL": row})
        for seed in range(3):
            np.random.seed(seed)
            np.random.random(seed)  # a generator mid-stream
            got = exact(ours.aggregate())
            state = np.random.get_state()
            np.random.seed(seed)
            np.random.random(seed)
            assert got == exact(real.aggregate())
            assert_same_state(state, np.random.get_state())


@pytest.mark.parametrize("args", [(-0.1, 10), (1.1, 10), (0.95, 0), (0.95, -3), (0.5, 2.5), (0.5, True)])
def test_bootstrap_validation(args):
    def run(cls):
        agg = cls(*args)
        agg.add_scores({"rouge1": scoring.Score(0.5, 0.5, 0.5)})
        agg.add_scores({"rouge1": scoring.Score(0.25, 0.5, 1 / 3)})
        np.random.seed(0)
        return agg.aggregate()

    ours, real = outcome(run, scoring.BootstrapAggregator), outcome(run, rs_scoring.BootstrapAggregator)
    if real[0] == "raised":
        assert ours[:2] == real[:2]
    else:
        assert ours == real
    assert outcome(lambda: scoring.BootstrapAggregator().aggregate()) == exact({})


# ---------------------------------------------------------------------------------------- the switch
SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    from rouge_score import rouge_scorer, scoring
    import rouge_score.tokenizers

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    agg = scoring.BootstrapAggregator()
    pairs = [("The cats were running.\\nHome.", "A cat ran home"), ("", "x"), ("one two three", "one two")]
    rows = []
    for t, p in pairs:
        s = scorer.score(t, p)
        agg.add_scores(s)
        rows.append({k: [float(x).hex() for x in v] + [type(v[0]).__name__] for k, v in s.items()})
    np.random.seed(int(sys.argv[1]))
    out = {k: [[float(x).hex() for x in b] for b in v] for k, v in agg.aggregate().items()}
    print(json.dumps({"module": rouge_scorer.__name__, "args": sys.argv[1:], "rows": rows, "agg": out,
                      "state": int(np.random.get_state()[2])}))
""")


def run_py(args, cwd, **kw):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable] + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, **kw)
    return proc


@pytest.mark.integration
def test_switch_runs_an_unmodified_script(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(SCRIPT)
    real = run_py([str(script), "11"], tmp_path)
    dropin = run_py(["-m", "rouge_metric.rouge_score", str(script), "11"], tmp_path)
    assert real.returncode == 0, real.stderr
    assert dropin.returncode == 0, dropin.stderr
    r, d = json.loads(real.stdout), json.loads(dropin.stdout)
    assert r["module"] == "rouge_score.rouge_scorer"
    assert d["module"] == "rouge_metric.rouge_score.rouge_scorer"
    assert d["args"] == ["11"]
    del r["module"], d["module"]
    assert d == r


@pytest.mark.integration
def test_switch_dash_m_module(tmp_path):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "run.py").write_text(SCRIPT)
    real = run_py(["-m", "mypkg.run", "5"], tmp_path)
    dropin = run_py(["-m", "rouge_metric.rouge_score", "-m", "mypkg.run", "5"], tmp_path)
    assert dropin.returncode == 0, dropin.stderr
    r, d = json.loads(real.stdout), json.loads(dropin.stdout)
    assert d.pop("module") == "rouge_metric.rouge_score.rouge_scorer" and r.pop("module") == "rouge_score.rouge_scorer"
    assert d == r


def test_install_in_process_and_its_limits(tmp_path):
    code = textwrap.dedent("""
        import sys
        import rouge_metric.rouge_score as dropin
        assert "rouge_score" not in sys.modules          # never implicit
        dropin.install()
        dropin.install()                                 # idempotent
        import rouge_score, rouge_score.rouge_scorer
        from rouge_score import scoring, tokenize, tokenizers
        assert rouge_score is dropin and scoring is dropin.scoring and tokenizers is dropin.tokenizers
        assert rouge_score.rouge_scorer.RougeScorer is dropin.rouge_scorer.RougeScorer
        for name in ("rouge_score.io", "rouge_score.rouge", "rouge_score.create_pyrouge_files"):
            try:
                __import__(name)
            except ModuleNotFoundError as exc:
                assert "drop-in" in str(exc) and name in str(exc), exc
            else:
                raise AssertionError(name)
        dropin.uninstall()
        assert "rouge_score" not in sys.modules and not dropin.is_installed()
        import rouge_score.scoring as real                # the real package again
        assert real.__name__ == "rouge_score.scoring" and real is not dropin.scoring
        try:
            dropin.install()
        except RuntimeError as exc:
            assert "already imported" in str(exc) and "rouge_score.scoring" in str(exc), exc
        else:
            raise AssertionError("install() after the real rouge_score was imported")
        print("ok")
    """)
    proc = run_py(["-c", code], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_switch_command_line_usage(tmp_path):
    proc = run_py(["-m", "rouge_metric.rouge_score"], tmp_path)
    assert proc.returncode == 2 and "usage" in proc.stderr
    proc = run_py(["-m", "rouge_metric.rouge_score", "missing.py"], tmp_path)
    assert proc.returncode == 2 and "no such file" in proc.stderr


@pytest.mark.integration
def test_a_scorer_pickled_by_rouge_score_loads_under_the_switch(tmp_path):
    """A RougeScorer pickled by the real rouge-score (its DefaultTokenizer holds an nltk stemmer) loads
    as the drop-in's under the switch and gives the same scores."""
    make = textwrap.dedent("""
        import pickle, sys
        from rouge_score import rouge_scorer
        scorer = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
        pickle.dump((scorer, scorer.score("Running cats\\nsat", "the cat runs")), open(sys.argv[1], "wb"))
    """)
    load = textwrap.dedent("""
        import pickle, sys
        import rouge_metric.rouge_score as dropin
        dropin.install()
        scorer, expected = pickle.load(open(sys.argv[1], "rb"))
        assert type(scorer) is dropin.rouge_scorer.RougeScorer and scorer._tokenizer._use_stemmer
        got = scorer.score("Running cats\\nsat", "the cat runs")
        assert [(k, [float(x).hex() for x in v]) for k, v in got.items()] == \\
            [(k, [float(x).hex() for x in v]) for k, v in expected.items()], (got, expected)
        print("ok")
    """)
    path = str(tmp_path / "scorer.pkl")
    assert run_py(["-c", make, path], tmp_path).returncode == 0
    proc = run_py(["-c", load, path], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
