"""The compiled kernels against textbook oracles and the pure-Python kernels; the tokenizer's
lowercasing table against Python over every code point; backend selection."""


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeScorer, active_backend, core, core_py
from rouge_metric.text import default_tokenize, whitespace_tokenize

from oracles import lcs_indices as dp_indices
from oracles import lcs_table

native = pytest.importorskip("rouge_metric._native") if core.native_available() else None
needs_native = pytest.mark.skipif(native is None, reason="native extension not built")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tokens(alphabet=4, max_size=200):
    return st.lists(st.sampled_from("abcdefgh"[:alphabet]), max_size=max_size)


# ------------------------------------------------------------------------------------- kernels
@needs_native
@SETTINGS
@given(a=tokens(), b=tokens())
def test_bit_parallel_lcs_matches_textbook_dp(a, b):
    assert native.lcs_length(a, b) == lcs_table(a, b)[-1][-1] == core_py.lcs_length(a, b)
    assert native.lcs_indices(a, b) == dp_indices(a, b) == core_py.lcs_indices(a, b)


@needs_native
@settings(max_examples=8, deadline=None)
@given(rnd=st.randoms(use_true_random=False), m=st.integers(1000, 1300), n=st.integers(1000, 1300))
def test_lcs_beyond_sixteen_words(rnd, m, n):
    a = [rnd.choice("abc") for _ in range(m)]
    b = [rnd.choice("abcd") for _ in range(n)]
    assert native.lcs_length(a, b) == core_py.lcs_length(a, b)
    assert native.lcs_indices(a, b) == core_py.lcs_indices(a, b)


@needs_native
@SETTINGS
@given(a=tokens(6), b=tokens(6), n=st.integers(1, 6))
def test_ngram_overlap(a, b, n):
    assert native.ngram_overlap(a, b, n) == core_py.ngram_overlap(a, b, n)


@needs_native
@SETTINGS
@given(a=tokens(5, 120), b=tokens(5, 120), skip=st.sampled_from([-1, 0, 1, 4, 200]), uni=st.booleans())
def test_skip_bigram_overlap(a, b, skip, uni):
    assert native.skip_bigram_overlap(a, b, skip, uni) == core_py.skip_bigram_overlap(a, b, skip, uni)


sentences = st.lists(tokens(4, 80), max_size=5)


@needs_native
@SETTINGS
@given(r=sentences, c=sentences)
def test_union_lcs_and_wlcs(r, c):
    assert native.union_lcs_overlap(r, c) == core_py.union_lcs_overlap(r, c)
    for w in (1.2, 2.0):
        assert native.wlcs_overlap(r, c, w) == core_py.wlcs_overlap(r, c, w)


@needs_native
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(rnd=st.randoms(use_true_random=False), nref=st.integers(1, 3), npred=st.integers(4, 12),
       plen=st.sampled_from([5, 40, 70, 140]))
def test_union_lcs_long_reference_many_sentences(rnd, nref, npred, plen):
    # reference tokens x prediction sentences beyond 8,192: the occurrence-chain path of the kernel
    r = [[rnd.choice("abcdefghij") for _ in range(rnd.randint(2400, 3200) // nref)] for _ in range(nref)]
    c = [[rnd.choice("abcdefghijklm") for _ in range(rnd.randint(1, plen))] for _ in range(npred)]
    assert sum(map(len, r)) * npred > 8192
    assert native.union_lcs_overlap(r, c) == core_py.union_lcs_overlap(r, c)


@needs_native
def test_kernels_accept_any_hashable_tokens():
    a, b = ["x", 1, ("t",), "x"], [("t",), "x", 1]
    assert native.ngram_overlap(a, b, 1) == core_py.ngram_overlap(a, b, 1)
    assert native.lcs_length(a, b) == core_py.lcs_length(a, b)


# ------------------------------------------------------------------------------------ tokenizer
def _ids_in_first_seen_order(toks):
    seen = {}
    return [seen.setdefault(t, len(seen)) for t in toks]


@needs_native
def test_lowercasing_table_matches_python_over_every_code_point():
    # Every non-ASCII code point, each between two ASCII letters, so a code point whose lower()
    # contains [a-z0-9] joins or splits tokens exactly as Python's str.lower() does.
    text = "".join("q" + chr(cp) + "z" for cp in range(0x80, 0x110000))
    vocab = native.Vocab(native.Tokenizer.default, None, 3)
    got = [i for s in vocab.tokenize(text) for i in s]
    want = _ids_in_first_seen_order(default_tokenize(text))
    assert got == want


@needs_native
@SETTINGS
@given(text=st.text(alphabet=st.sampled_from(list("aZ09 .\n\r\t\u00a0\u3000\u0130\u212a\u00e9\u65e5-")) | st.characters(),
                    max_size=80))
def test_tokenizers_match_python(text):
    for code, func in ((native.Tokenizer.default, default_tokenize), (native.Tokenizer.whitespace, whitespace_tokenize)):
        got = [i for s in native.Vocab(code, None, 3).tokenize(text) for i in s]
        want = [i for line in text.split("\n") if line for i in func(line)]
        assert got == _ids_in_first_seen_order(want)


def _python_sentences(text, func):
    """Token ids per non-empty newline-separated sentence, ids in first-seen order over the text."""
    seen = {}
    out = []
    for line in text.split("\n"):
        toks = func(line)
        if toks:
            out.append([seen.setdefault(t, len(seen)) for t in toks])
    return out


# The byte-scanning fast path of the default tokenizer: 1-, 2- and 4-byte str (an extra character
# that is not ASCII forces the kind), runs across the 16- and 64-character blocks, tokens longer than
# the 16 key bytes, newline runs; sentence boundaries compared too.
_FAST_ALPHABET = list("aaaabZz09 ..,\n\n\r\t-")
_FAST_WORDS = st.sampled_from(["x" * 15, "Y" * 16, "q" * 17, "abcdefghijklmnopqrstuvwxyz0123456789", "a", "42"])


@needs_native
@SETTINGS
@given(parts=st.lists(st.sampled_from(_FAST_ALPHABET) | _FAST_WORDS, max_size=200),
       extra=st.sampled_from(["", "\u00e9", "\u00ff", "\u0151", "\u65e5", "\U0001f600", "\u0130", "\u212a"]),
       where=st.integers(0, 200))
def test_fast_tokenizer_matches_python_per_sentence(parts, extra, where):
    text = "".join(parts)
    text = text[:where] + extra + text[where:]
    for code, func in ((native.Tokenizer.default, default_tokenize), (native.Tokenizer.whitespace, whitespace_tokenize)):
        assert native.Vocab(code, None, 3).tokenize(text) == _python_sentences(text, func)


@needs_native
def test_whitespace_set_matches_python_over_every_code_point():
    # Every code point between two letters: the whitespace tokenizer splits exactly where str.split() does.
    text = "".join("q" + chr(cp) + "z" for cp in range(0x110000))
    got = native.Vocab(native.Tokenizer.whitespace, None, 3).tokenize(text)
    assert got == _python_sentences(text, whitespace_tokenize)


# ------------------------------------------------------------------------ the extension's API
@needs_native
def test_enums_are_named_as_the_settings():
    from rouge_metric.config import MULTI_REF_MODES, RougeConfig

    assert list(native.Kind.__members__) == ["ngram", "lcs", "lcsum", "wlcs", "skip"]
    assert list(native.Mode.__members__) == list(MULTI_REF_MODES) == ["max", "mean", "pool", "best_recall"]
    assert list(native.FMeasure.__members__) == ["f1", "alpha", "beta"]
    assert list(native.Tokenizer.__members__) == list(core.NATIVE_TOKENIZERS) == ["default", "whitespace"]
    cfg = RougeConfig(rouge_types=["rouge1", "rougeL", "rougeLsum", "rougeW", "rougeSU4"])
    specs, mode, fmeasure, fparam = core._scorer_args(cfg)
    assert [s[1] for s in specs] == [native.Kind.ngram, native.Kind.lcs, native.Kind.lcsum, native.Kind.wlcs,
                                     native.Kind.skip]
    assert (mode, fmeasure, fparam) == (native.Mode.max, native.FMeasure.f1, 0.0)
    assert core._scorer_args(RougeConfig(rouge_types=["rouge1"], alpha=0.5))[2:] == (native.FMeasure.alpha, 0.5)
    assert core._scorer_args(RougeConfig(rouge_types=["rouge1"], beta=2.0))[2:] == (native.FMeasure.beta, 4.0)
    assert core._scorer_args(RougeConfig(rouge_types=["rouge1"], multi_ref="pool"))[1] == native.Mode.pool


@needs_native
def test_integer_codes_are_refused():
    from rouge_metric.result import Score

    vocab = native.Vocab(native.Tokenizer.default, None, 3)
    spec = ("rouge1", native.Kind.ngram, 1, -1, False, 1.2)
    with pytest.raises(TypeError):
        native.Vocab(0, None, 3)
    with pytest.raises(TypeError):
        native.Scorer(vocab, [spec], 0, native.FMeasure.f1, 0.0, Score)
    with pytest.raises(TypeError):
        native.Scorer(vocab, [spec], native.Mode.max, 0, 0.0, Score)
    with pytest.raises(TypeError, match=r"specs\[1\]\[1\]: expected a rouge_metric._native.Kind, got int"):
        native.Scorer(vocab, [spec, ("rouge2", 0, 2, -1, False, 1.2)], native.Mode.max, native.FMeasure.f1, 0.0,
                      Score)
    with pytest.raises(TypeError, match=r"specs\[0\]: expected a tuple"):
        native.Scorer(vocab, [["rouge1"]], native.Mode.max, native.FMeasure.f1, 0.0, Score)
    scorer = native.Scorer(vocab, [spec], native.Mode.mean, native.FMeasure.f1, 0.0, Score)
    with pytest.raises(TypeError, match="mode: expected a rouge_metric._native.Mode, got int"):
        scorer.score("a b", ["a", "b"], 0)
    assert scorer.score("a b", ["a", "b"], native.Mode.max) == {"rouge1": Score(0.5, 1.0, 2 / 3)}
    assert scorer.score("a b", ["a", "b"]) == scorer.score("a b", ["a", "b"], native.Mode.mean)


@needs_native
def test_batch_result_has_named_read_only_fields():
    from array import array

    from rouge_metric.result import Score

    rouge = Rouge(["rouge1", "rougeL"])
    specs, mode, fmeasure, fparam = core._scorer_args(rouge.config)
    scorer = native.Scorer(core.native_vocab("default", False), specs, mode, fmeasure, fparam, Score)
    preds, refs = ["a b c", "b c", "x"], ["a b", ["c", "b c d"], "y"]
    want = [rouge.score(prediction=p, references=r) for p, r in zip(preds, refs)]
    full = scorer.batch(preds, refs, 2, True, True)
    assert isinstance(full, native.Batch) and full.n == 3 and full.scores == want
    values = array("d", full.values)
    assert list(values) == [x for d in want for sc in d.values() for x in sc]
    assert list(array("d", full.lengths)) == [3, 2, 2, 2, 1, 1]
    assert len(full.partials) == 3 * 2 + 2 and all(isinstance(c, list) for c in full.partials)
    assert [sum(c) for c in full.partials[-2:]] == [6, 5]
    bare = scorer.batch(preds, refs)
    assert (bare.n, bare.values, bare.scores, bare.lengths, bare.partials) == (3, b"", None, full.lengths,
                                                                                 full.partials)
    with pytest.raises(AttributeError):
        bare.n = 4
    assert scorer.batch(preds, refs[:2]) is None and scorer.batch(tuple(preds), refs) is None
    assert scorer.batch(["a", 3], ["a", "b"]) is None
    ids = native.Scorer(native.Vocab(native.Tokenizer.default, None), specs, mode, fmeasure, fparam, Score)
    out = ids.batch_ids([[1, 2, 3]], [[[1, 2], [3]]], 1, True, True)
    assert isinstance(out, native.Batch) and out.n == 1 and len(out.values) == 2 * 3 * 8
    assert ids.batch_ids([[1, "x"]], [[1]]) is None


@needs_native
def test_batch_reads_a_chunk_of_the_whole_lists_and_names_errors_by_input_index():
    from rouge_metric.result import Score

    rouge = Rouge(["rouge1", "rouge2", "rougeLsum"])
    specs, mode, fmeasure, fparam = core._scorer_args(rouge.config)
    scorer = native.Scorer(core.native_vocab("default", False), specs, mode, fmeasure, fparam, Score)
    preds = [f"the cat {i} sat\non mat {i % 3}" for i in range(40)]
    refs = [f"a cat {i % 5} sat on\nthe mat" if i % 4 else [f"cat {i}", "the mat sat"] for i in range(40)]
    for lo, hi in [(0, 40), (0, 1), (7, 23), (39, 40), (12, 12)]:
        chunk = scorer.batch(preds, refs, 2, True, True, lo, hi)
        sliced = scorer.batch(preds[lo:hi], refs[lo:hi], 2, True, True, lo)
        assert chunk.n == hi - lo and chunk.scores == sliced.scores and chunk.values == sliced.values
        assert chunk.partials == sliced.partials and chunk.lengths == sliced.lengths
    for lo, hi in [(5, 41), (6, 5)]:
        with pytest.raises(ValueError, match=r"first_index <= stop <= len\(predictions\)"):
            scorer.batch(preds, refs, 1, False, False, lo, hi)
    # A chunk's non-str item sends the whole input to validation, whose error names its input index.
    bad = preds[:30] + [3] + preds[31:]
    assert scorer.batch(bad, refs, 1, False, False, 20, 40) is None
    assert scorer.batch(bad, refs, 1, False, False, 0, 30) is not None
    with pytest.raises(TypeError, match="30"):
        rouge.compute(predictions=bad, references=refs)


# ---------------------------------------------------------------------------- backend selection
def test_backend_env_var(monkeypatch):
    monkeypatch.setenv(core.ENV_VAR, "python")
    assert core.get_backend() == "python" and active_backend() == "python"
    assert "backend:python" in Rouge(["rouge1"]).signature()
    monkeypatch.setenv(core.ENV_VAR, "bogus")
    with pytest.raises(ValueError, match="ROUGE_METRIC_BACKEND"):
        core.get_backend()
    if native is not None:
        monkeypatch.setenv(core.ENV_VAR, "native")
        assert active_backend() == "native"
        assert "backend:native" in RougeScorer(["rouge1"])._rouge.signature()


def test_forcing_native_when_missing_fails_loudly(monkeypatch):
    monkeypatch.setattr(core, "_native", None)
    monkeypatch.setattr(core, "_native_error", ImportError("simulated: no compiled extension"))
    monkeypatch.setenv(core.ENV_VAR, "native")
    with pytest.raises(ImportError, match="native backend was requested.*simulated"):
        core.get_backend()
    with pytest.raises(ImportError, match="rouge_metric._native"):
        Rouge(["rouge1"])
    with pytest.raises(ImportError):
        Rouge(["rouge1"], backend="native")
    # auto falls back to the pure-Python backend and still scores
    monkeypatch.setenv(core.ENV_VAR, "auto")
    rouge = Rouge(["rouge1", "rougeLsum"])
    assert rouge.backend == "python" and not rouge.native_pipeline
    assert rouge.score(prediction="a b", references="a b")["rouge1"].fmeasure == 1.0
    assert core.native_scorer(rouge.config) is None


def test_num_threads_validation():
    with pytest.raises(ValueError, match="num_threads"):
        Rouge(["rouge1"], num_threads=0)
    with pytest.raises(ValueError, match="num_threads"):
        Rouge(["rouge1"], num_threads=True)
    assert core.default_num_threads() >= 1


@needs_native
@pytest.mark.parametrize("n", [50, 400])  # one thread (direct mode); two threads on an empty vocabulary (phase 0)
def test_stem_cache_calls_the_python_stemmer_once_per_token(n):
    calls = []

    def stem(tok):
        calls.append(tok)
        return None if tok == "dropme" else tok[:4]

    from rouge_metric.result import Score

    vocab = native.Vocab(native.Tokenizer.default, stem, 3)
    scorer = native.Scorer(vocab, [("rouge1", native.Kind.ngram, 1, -1, False, 1.2)], native.Mode.max,
                           native.FMeasure.f1, 0.0, Score)
    # Every word in every example: with two threads, each thread meets each of them.
    out = scorer.batch(["Running dropme runner cat"] * n, ["running runs CAT"] * n, 2)
    assert sorted(calls) == ["dropme", "runner", "running", "runs"]
    # "running" and "runner" share the stem "runn"; "dropme" is dropped; "cat" (<= 3 chars) is not stemmed.
    # Ids are labels (their order depends on the thread count), so only their equalities are checked.
    ids = vocab.tokenize("running runner dropme cat")
    assert len(ids) == 1 and len(ids[0]) == 3 and ids[0][0] == ids[0][1] != ids[0][2]
    assert out.n == n
    assert vocab.tokenize("RUNNING Runner cat") == ids
    assert sorted(calls) == ["dropme", "runner", "running", "runs"]  # cached: no second call


@needs_native
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_a_python_stemmer_error_fails_the_batch_and_leaves_a_vocabulary_that_scores_right(threads):
    # The first batch (phase 0 on two or three threads) stops at the word the stemmer refuses; the words
    # entered before it stay, and later batches on that vocabulary score as on a fresh one.
    from rouge_metric.result import Score

    def make(fail):
        def stem(tok):
            if fail and tok == "refused":
                raise RuntimeError("stemmer refused a word")
            return tok[:5]
        vocab = native.Vocab(native.Tokenizer.default, stem, 3)
        return native.Scorer(vocab, [("rouge1", native.Kind.ngram, 1, -1, False, 1.2),
                                     ("rougeL", native.Kind.lcs, 0, -1, False, 1.2)],
                             native.Mode.max, native.FMeasure.f1, 0.0, Score)

    words = [f"word{i}long" for i in range(300)] + ["morphology", "morphologies", "internationalizations"]
    preds = [" ".join(words[(7 * i + j) % len(words)] for j in range(9)) for i in range(400)]
    refs = [" ".join(words[(11 * i + j) % len(words)] for j in range(7)) for i in range(400)]
    failing = make(True)
    with pytest.raises(RuntimeError, match="stemmer refused a word"):
        failing.batch(preds[:200] + ["a refused word"] + preds[200:], refs[:200] + ["x"] + refs[200:], threads)
    fresh = make(False)
    for lo, hi in [(0, 400), (100, 300)]:
        got = failing.batch(preds[lo:hi], refs[lo:hi], threads, True)
        want = fresh.batch(preds[lo:hi], refs[lo:hi], threads, True)
        assert len(got.values) == (hi - lo) * 2 * 3 * 8
        assert bytes(got.values) == bytes(want.values) and bytes(got.lengths) == bytes(want.lengths)


@needs_native
def test_native_results_are_invisible_to_the_cyclic_gc():
    import gc

    scorer = RougeScorer(["rouge1", "rougeLsum"], backend="native")
    out = scorer.score("the cat sat", "the cat sat on the mat")
    assert not gc.is_tracked(out) and not any(gc.is_tracked(s) for s in out.values())
    assert out == RougeScorer(["rouge1", "rougeLsum"], backend="python").score("the cat sat", "the cat sat on the mat")
    out["mine"] = [out]  # a cycle through the dict: CPython tracks it again, so it is collectable
    assert gc.is_tracked(out)
    batch = Rouge(["rouge1"], backend="native").score_examples(predictions=["a b"], references=["a"])
    assert not gc.is_tracked(batch[0]) and not gc.is_tracked(batch[0]["rouge1"])


@needs_native
def test_score_types_of_any_tuple_layout():
    """A namedtuple Score is allocated directly; a tuple subclass with a __dict__ goes through its own
    allocator: both give their type, the floats, and a balanced type refcount."""
    import collections
    import sys

    from rouge_metric.config import RougeConfig

    class WithDict(tuple):
        pass

    Named = collections.namedtuple("Named", "p r f")
    cfg = RougeConfig(rouge_types=["rouge1", "rougeL"])
    want = Rouge(["rouge1", "rougeL"], backend="python").score(prediction="a b c", references="a c d")
    for tp in (Named, WithDict):
        scorer = native.Scorer(core.native_vocab("default", False), *core._scorer_args(cfg), tp)
        before = sys.getrefcount(tp)
        outs = [scorer.score("a b c", "a c d") for _ in range(1000)]
        assert sys.getrefcount(tp) == before + 2000
        out = outs[0]
        assert all(type(s) is tp for s in out.values()) and {k: tuple(v) for k, v in out.items()} == {
            k: tuple(v) for k, v in want.items()}
        if tp is WithDict:  # its __dict__ slot was set up by its allocator
            out["rouge1"].note = 1
            assert vars(out["rouge1"]) == {"note": 1}
        del outs, out
        assert sys.getrefcount(tp) == before


@needs_native
def test_pair_function_scores_exact_str_and_hands_everything_else_to_its_fallback():
    import gc
    import weakref

    rouge = Rouge(["rouge1", "rougeL"], use_stemmer=True, multi_ref="max")
    scorer = core.native_scorer(rouge.config)
    calls = []

    def fallback(*args, **kwargs):
        calls.append((args, kwargs))
        return "fallback"

    one = scorer.pair_function(True, False, None, fallback)
    many = scorer.pair_function(False, True, native.Mode.max, fallback, [False, True])
    assert isinstance(one, native.PairFunction) and "target, prediction" in repr(one)
    want = rouge.score(prediction="the cats ran", references="a cat runs")
    assert one("a cat runs", "the cats ran") == want and not calls
    assert many("the cats ran", ["a cat runs", "x"]) == rouge.score(prediction="the cats ran", references=["a cat runs", "x"])
    assert many("the cats ran", ("a cat runs",)) == want and not calls

    class Text(str):
        pass

    declined = [((["a"], "b"), {}), (("a", b"b"), {}), ((Text("a"), "b"), {}), (("a", "b", "c"), {}), (("a",), {}),
                ((), {"target": "a", "prediction": "b"})]
    for args, kwargs in declined:
        assert one(*args, **kwargs) == "fallback"
    assert calls == declined
    calls.clear()
    for refs in ([], "a b", ["a", 1], [Text("a")], ["a", None]):
        assert many("a b", refs) == "fallback"
    assert many("the dog", ["a cat"]) == "fallback"  # rougeL scores 0: declined by the flag
    assert len(calls) == 6
    with pytest.raises(TypeError, match="fallback"):
        scorer.pair_function(True, False, None, None)
    with pytest.raises(ValueError, match="zero_decline"):
        scorer.pair_function(True, False, None, fallback, [True])
    with pytest.raises(TypeError, match="Mode"):
        scorer.pair_function(True, False, 1, fallback)

    class Holder:  # a cycle through the fallback is collected
        pass

    def make():
        holder = Holder()
        holder.f = scorer.pair_function(True, False, None, lambda *a: holder)
        return weakref.ref(holder)

    ref = make()
    gc.collect()
    assert ref() is None


@needs_native
def test_pair_method_runs_its_plan_only_while_every_check_holds():
    """A PairMethod scores natively with the PairFunction of the plan in the instance's __dict__ only
    while every check of that plan holds, and calls its fallback with the same arguments otherwise."""
    import gc
    import inspect
    import weakref

    rouge = Rouge(["rouge1", "rougeL"], use_stemmer=True)
    scorer = core.native_scorer(rouge.config)
    calls = []

    def fallback(self, target, prediction):
        """The Python method."""
        calls.append((target, prediction))
        return "fallback"

    class Owner:
        pass

    class Setting:
        pass

    Owner.score = native.PairMethod(fallback, Owner, "_plan", 1)
    pf = scorer.pair_function(True, False, None, lambda *a, **k: "declined")
    obj, setting = Owner(), Setting()
    items = ["rouge1", "rougeL"]
    obj.types, obj.flag, setting.stem = items, True, "porter"
    plan = native.PairPlan((None, pf), ("types", "flag"), (items, True), items, tuple(items),
                           ((setting, "stem", "porter"),))
    assert plan.functions == (None, pf) and plan.attributes == ("types", "flag") and plan.items is items
    obj._plan = plan
    want = rouge.score(prediction="the cats ran", references="a cat runs")

    def ours(who=obj):
        calls.clear()
        return who.score("a cat runs", "the cats ran")

    assert ours() == want and not calls
    assert Owner.score(obj, "a cat runs", "the cats ran") == want and not calls  # from the class
    bound = obj.score
    assert bound("a cat runs", "the cats ran") == want and not calls  # a bound method
    items[0] = "rouge" + "1"  # an equal str: the plan holds
    assert ours() == want and not calls
    other = Owner()  # the same settings set in another order: found by lookup, the plan holds
    other._plan, other.flag, other.types = plan, True, items
    assert ours(other) == want and not calls
    for change, undo in [
        (lambda: items.append("rouge2"), lambda: items.pop()),
        (lambda: items.__setitem__(0, "rouge2"), lambda: items.__setitem__(0, "rouge1")),
        (lambda: setattr(obj, "types", list(items)), lambda: setattr(obj, "types", items)),
        (lambda: setattr(obj, "flag", 1), lambda: setattr(obj, "flag", True)),  # equal but not the same
        (lambda: delattr(obj, "flag"), lambda: setattr(obj, "flag", True)),  # (back at the end of the dict)
        (lambda: setattr(setting, "stem", "porter2"), lambda: setattr(setting, "stem", "porter")),
        (lambda: delattr(setting, "stem"), lambda: setattr(setting, "stem", "porter")),
        (lambda: delattr(obj, "_plan"), lambda: setattr(obj, "_plan", plan)),
        (lambda: setattr(obj, "_plan", (plan,)), lambda: setattr(obj, "_plan", plan)),  # not a PairPlan
    ]:
        change()
        assert ours() == "fallback" and calls == [("a cat runs", "the cats ran")]
        undo()
        assert ours() == want and not calls
    for bad, exc in [(dict(functions=(lambda a, b: 0,)), TypeError), (dict(values=()), ValueError),
                     (dict(attributes=(1, 2)), TypeError), (dict(items=("a",)), TypeError),
                     (dict(snapshot=(1,)), TypeError), (dict(others=((setting, "stem"),)), TypeError)]:
        args = dict(functions=(None, pf), attributes=("types", "flag"), values=(items, True))
        args.update(bad)
        with pytest.raises(exc):
            native.PairPlan(**args)
    # every other call goes to the fallback with its arguments: keywords, another count, a subclass
    with pytest.raises(TypeError):
        obj.score("a")
    assert obj.score(target="a cat runs", prediction="the cats ran") == "fallback"

    class Sub(Owner):
        pass

    sub = Sub()
    sub.__dict__.update(obj.__dict__)
    calls.clear()
    assert sub.score("a cat runs", "the cats ran") == "fallback" and calls
    # the PairFunction's own declines are its fallback's
    assert obj.score(b"a", "b") == "declined"
    assert obj.score("the dog", "a cat") == rouge.score(prediction="a cat", references="the dog")
    # a plan without a native function for the method: the fallback
    Owner.first = native.PairMethod(fallback, Owner, "_plan", 0)
    calls.clear()
    assert obj.first("a", "b") == "fallback" and calls
    Owner.far = native.PairMethod(fallback, Owner, "_plan", 7)  # past the plan
    assert obj.far("a", "b") == "fallback"

    class Slotted:  # no __dict__: no plan
        __slots__ = ()

    Slotted.score = native.PairMethod(fallback, Slotted, "_plan", 1)
    assert Slotted().score("a", "b") == "fallback"
    # it looks like the method it stands for
    assert Owner.__dict__["score"].__wrapped__ is fallback and Owner.score.__doc__ == fallback.__doc__
    assert Owner.score.__name__ == "fallback" and "fallback" in repr(Owner.score)
    assert str(inspect.signature(obj.score)) == "(target, prediction)"
    assert inspect.ismethod(obj.score) and obj.score.__func__ is Owner.__dict__["score"]
    with pytest.raises(TypeError, match="fallback"):
        native.PairMethod(None, Owner, "_plan", 0)
    with pytest.raises(TypeError, match="cls"):
        native.PairMethod(fallback, obj, "_plan", 0)
    with pytest.raises(ValueError, match="index"):
        native.PairMethod(fallback, Owner, "_plan", -1)

    def make():  # a cycle through the fallback is collected
        class Cyclic:
            pass

        Cyclic.m = native.PairMethod(lambda self, a, b: Cyclic, Cyclic, "_plan", 0)
        return weakref.ref(Cyclic)

    ref = make()
    gc.collect()
    assert ref() is None

    def cycle_through_a_plan():
        holder = Owner()
        holder._plan = native.PairPlan((pf,), ("me",), (holder,))
        holder.me = holder
        return weakref.ref(holder)

    ref = cycle_through_a_plan()
    gc.collect()
    assert ref() is None


@needs_native
def test_rouge_scorer_entry_points_are_native_and_keep_their_python_behaviour():
    scorer = RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    assert isinstance(scorer.score, native.PairFunction) and isinstance(scorer.score_multi, native.PairFunction)
    python = RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True, backend="python")
    for t, p in (("The cats\nran", "a cat runs"), ("", "x"), ("x", "")):
        assert scorer.score(t, p) == python.score(t, p) == scorer.score(target=t, prediction=p)
        assert scorer.score_multi([t, "cat"], p) == python.score_multi([t, "cat"], p)
    with pytest.raises(TypeError, match="target"):
        scorer.score(["a"], "b")
    with pytest.raises(TypeError, match="targets"):
        scorer.score_multi(5, "b")

    import gc
    import weakref

    from rouge_metric.rouge_score.rouge_scorer import RougeScorer as DropIn

    enabled = gc.isenabled()
    gc.disable()
    try:  # no reference cycle: a dropped scorer is freed at once, with its native scorers
        for make in (lambda: RougeScorer(["rouge1", "rougeL"]), lambda: DropIn(["rouge1", "rougeL"])):
            one = make()
            one.score("a b", "a"), one.score_multi(["a b"], "a"), one.score(target="a b", prediction="a")
            ref = weakref.ref(one)
            del one
            assert ref() is None
    finally:
        if enabled:
            gc.enable()

    class Mine(RougeScorer):
        def score(self, target, prediction):
            return "mine"

    assert Mine(["rouge1"]).score("a", "b") == "mine"  # a subclass's method stays its own
    import pickle

    clone = pickle.loads(pickle.dumps(scorer))
    assert isinstance(clone.score, native.PairFunction) and clone.score("a b", "a") == scorer.score("a b", "a")
