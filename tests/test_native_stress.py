"""Stress of the native core: cold and warm vocabularies, several thread counts, one scorer shared by
many Python threads, chunk and work-block boundaries, Unicode and very long texts, every rouge type and
option, every entry point, interruption and memory. Every example is compared with the pure-Python
backend (the reference), never with a stored number.

The normal test run uses a small scale; ``ROUGE_METRIC_STRESS=full`` (set by ``tools/sanitize.py``,
which runs this module under AddressSanitizer + UBSan and under ThreadSanitizer) a larger one.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeScorer, backends, core, scoring
from rouge_metric.text import get_stemmer
from corpora import STRESS_CORPORA, corpus_available, generated_corpus, load_corpus
from strategies import WORDS, texts

pytestmark = [pytest.mark.skipif(not core.native_available(), reason="native extension not built"),
              pytest.mark.integration]
native = pytest.importorskip("rouge_metric._native") if core.native_available() else None

FULL = os.environ.get("ROUGE_METRIC_STRESS", "") == "full"
TESTS = Path(__file__).resolve().parent
ALL_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeS4", "rougeSU",
             "rougeSU4"]


def python_scores(preds, refs, **cfg):
    return Rouge(backend="python", **cfg).score_examples(predictions=preds, references=refs)


def cold():
    """Forget the process's native vocabularies: the next scorer starts from an empty one."""
    core._VOCABS.clear()


def assert_same(got, expected, what=""):
    assert len(got) == len(expected), what
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g == e, f"{what}: example {i}: native {g} != python {e}"


def run_python(code: str, timeout: float = 600, **popen) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS)] + [p for p in sys.path if p]))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, env=env, **popen)


def run_in_threads(n_threads: int, work) -> None:
    """``work(tid)`` on ``n_threads`` Python threads released together by a barrier; fails with every
    thread's exception (a failure in a thread does not stop the others)."""
    barrier = threading.Barrier(n_threads)
    errors = []

    def body(tid):
        try:
            barrier.wait()
            work(tid)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append((tid, exc))

    threads = [threading.Thread(target=body, args=(t,)) for t in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


# ------------------------------------------------------------------ the first batch of a process
# The first multi-threaded batch of a process meets words the vocabulary has not seen: every thread must
# stay within its workspace while they are stemmed and entered (an overrun crashes, or silently gives
# wrong scores). Each source runs in a fresh process on 1, 2, 3 and 8 threads (300 pairs; 1,500 pairs
# three times at full scale), with stemming and, for generated text, also without.
COLD_SOURCES = [(name, True) for name in STRESS_CORPORA] + [("generated", True), ("generated", False)]


@pytest.mark.parametrize("source,stem", COLD_SOURCES, ids=[f"{s}-stem{int(t)}" for s, t in COLD_SOURCES])
def test_first_batch_in_a_fresh_process_equals_python(source, stem):
    if source != "generated" and not corpus_available(source):
        pytest.skip(f"../shared/corpora/{source}.jsonl.gz is not present")
    n, repeats = (1500, 3) if FULL else (300, 1)
    proc = subprocess.run([sys.executable, str(TESTS / "cold_batch_check.py"), source, str(n), str(int(stem)),
                           "1,2,3,8", str(repeats)], capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]


def test_default_thread_count_first_call_in_fresh_process():
    # What a user runs: rouge_metric.compute with default threads (all cores), first call.
    proc = run_python("""
        import math
        from corpora import generated_corpus
        import rouge_metric
        from rouge_metric import Rouge
        P, R = generated_corpus(800, seed=3, vocab=6000)
        got = rouge_metric.compute(predictions=P, references=R, use_stemmer=True)
        exp = Rouge(backend="python", use_stemmer=True).compute(predictions=P, references=R)
        assert got.scores == exp.scores, (got.scores, exp.scores)
        print("ok")
    """)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr[-4000:]


# ------------------------------------------------------------ stemming on the batch threads
# With the native Porter (an nltk in core.NATIVE_PORTER_NLTK) the threads stem their unknown ASCII words
# in phase 1 and the caller interns them without the GIL; non-ASCII words (whitespace tokenizer) still
# go through nltk with the GIL. Without it (nltk outside the range) every word goes through nltk.
@pytest.mark.parametrize("tokenizer", ["default", "whitespace"])
@pytest.mark.parametrize("native_porter", [True, False], ids=["native-porter", "nltk-porter"])
def test_stemming_cold_warm_and_partly_warm_on_threads(monkeypatch, tokenizer, native_porter):
    if native_porter and not core.native_porter_checked():
        pytest.skip("installed nltk is outside core.NATIVE_PORTER_NLTK")
    monkeypatch.setattr(core, "native_porter_checked", lambda: native_porter)
    n = 1500 if FULL else 300
    first = generated_corpus(n, seed=21, vocab=8000)
    second = generated_corpus(n, seed=22, vocab=8000)  # shares some words with the first: partly warm
    exp = [python_scores(*c, tokenizer=tokenizer, use_stemmer=True) for c in (first, second)]
    for threads in (1, 2, 3, 8):
        cold()
        r = Rouge(backend="native", tokenizer=tokenizer, use_stemmer=True, num_threads=threads)
        assert core.native_vocab(tokenizer, "porter", get_stemmer("porter")).native_porter is native_porter
        for what, (preds, refs), e in [("cold", first, exp[0]), ("partly warm", second, exp[1]),
                                       ("warm", first, exp[0])]:
            assert_same(r.score_examples(predictions=preds, references=refs), e, f"threads={threads} {what}")



# The first batch on several threads, on an empty vocabulary, first enters every new word (phase 0): the
# threads collect and stem them, the caller adds them, a word met by several threads once. A batch after
# a warm-up scores its examples in phase 1 with provisional ids: a new word takes the id of its stem
# when the vocabulary has that stem, else an id of its thread's own, shared by the thread's new words
# with the same stem. Examples with a word that needs the Python stemmer (non-ASCII, whitespace
# tokenizer) wait for phase 3. Word families make every case meet in one example and across threads.
# The warm-ups here are a few words, so small for the batch that on several threads it would start the
# vocabulary again (phase 0): the provisional cases turn that off (restart_ratio 0), and one case keeps it.
FAMILIES = [("running", "runs", "run", "runner"), ("jumped", "jumping", "jumps", "jump"),
            ("connection", "connected", "connecting", "connects"), ("happily", "happy", "happiness", "happier"),
            ("generalization", "generalize", "general", "generally"), ("caresses", "caress", "cares", "caring"),
            # more than 16 bytes: the vocabulary's tables keep only 16 bytes in the slot
            ("internationalizations", "internationalization", "internationalize", "internationally")]


@pytest.mark.parametrize("tokenizer", ["default", "whitespace"])
@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_new_words_share_ids_with_known_stems_and_with_each_other(tokenizer, threads):
    import random

    rnd = random.Random(threads)
    words = [w for fam in FAMILIES for w in fam] + ["café", "naïve", "über"] + [f"w{i}x" for i in range(200)]
    n = 600 if FULL else 260

    def text():
        return " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 12)))

    preds = [text() for _ in range(n)]
    refs = [[text() for _ in range(rnd.randint(1, 2))] for _ in range(n)]
    native = core.native_module()
    limits = native._set_limits()
    family = ["running jumped connection happily general caress"]
    try:
        # extra: the warm-up's forms the vocabulary keeps beyond the batch's own (on several threads; the
        # family's words are the batch's, and "filler", "words", "only" are 3 forms it does not have)
        for what, warmup, ratio, extra in [("empty vocabulary (phase 0)", None, None, 0),
                                           ("a stem of each family known (provisional ids)", family, 0, 0),
                                           ("other words known (provisional ids)", ["filler words only"], 0, 3),
                                           ("other words known, the vocabulary started again (phase 0)",
                                            ["filler words only"], limits[4], 0)]:
            native._set_limits(restart_ratio=ratio)
            cold()
            r = Rouge(ALL_TYPES, backend="native", tokenizer=tokenizer, use_stemmer=True, num_threads=threads)
            if warmup:
                r.score_examples(predictions=warmup, references=warmup)
            got = r.score_examples(predictions=preds, references=refs)
            assert_same(got, python_scores(preds, refs, rouge_types=ALL_TYPES, tokenizer=tokenizer,
                                           use_stemmer=True), f"{what}, threads={threads}")
            size = core.native_vocab(tokenizer, "porter", get_stemmer("porter")).size
            if warmup is None:
                fresh = size  # the batch's forms only
            elif threads > 1:
                assert size == fresh + extra, what
    finally:
        native._set_limits(*limits)


# ------------------------------------------------------------ one scorer, many Python threads
def test_one_rouge_and_one_scorer_shared_by_eight_python_threads():
    cold()
    n = 800 if FULL else 240
    preds, refs = generated_corpus(n, seed=11, vocab=8000 if FULL else 3000)
    exp = python_scores(preds, refs, use_stemmer=True)
    exp_single = Rouge(backend="python", use_stemmer=True)
    shared = Rouge(backend="native", use_stemmer=True, num_threads=3)
    shared8 = Rouge(backend="native", use_stemmer=True, num_threads=8)  # same vocabulary, other scorer
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True, backend="native")

    def work(tid):
        lo = (tid * n) // 8
        hi = ((tid + 1) * n) // 8
        for rep in range(3 if FULL else 2):
            got = (shared if tid % 2 else shared8).score_examples(predictions=preds[lo:hi], references=refs[lo:hi])
            assert_same(got, exp[lo:hi], f"thread {tid} batch")
            for i in range(lo, min(hi, lo + 20)):
                assert shared.score(prediction=preds[i], references=refs[i]) == exp[i]
                want = exp_single.combine(exp_single.example_stats(preds[i], refs[i])[0])
                got1 = scorer.score_multi(refs[i], preds[i])
                assert got1 == {k: want[k] for k in got1}

    run_in_threads(8, work)


def test_resampled_means_from_four_python_threads_without_the_gil():
    # _native.resample_means releases the GIL: four Python threads gather from one shared table at once
    # (the bootstrap of one process while another thread runs compare, say), each checked against numpy.
    import numpy as np

    n = 20_000 if FULL else 4_000
    table = np.random.default_rng(3).random((n, 12))

    def work(tid):
        rng = np.random.default_rng(tid)
        for _ in range(6 if FULL else 3):
            idx = rng.integers(0, n, size=(5, n))
            got = native.resample_means(table, idx)
            assert np.array_equal(got, np.cumsum(table[idx], axis=1)[:, -1, :] / n), f"thread {tid}"

    run_in_threads(4, work)


# ------------------------------------------------------------ chunk and work-block boundaries
@pytest.mark.parametrize("threads", [1, 2, 8])
def test_work_block_boundaries(threads):
    # Blocks are min(16, n / (64 * threads)) examples; threads = min(num_threads, n / 64 + 1).
    sizes = [0, 1, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 2047, 2048, 2049]
    if FULL:
        sizes += [8191, 8192, 8193]
    preds, refs = generated_corpus(max(sizes), seed=5, vocab=2000, max_words=30)
    exp = python_scores(preds, refs)
    for n in sizes:
        cold()
        got = Rouge(backend="native", num_threads=threads).score_examples(predictions=preds[:n], references=refs[:n])
        assert_same(got, exp[:n], f"n={n}")


def test_chunk_boundaries_and_error_index(monkeypatch):
    monkeypatch.setattr(backends, "NATIVE_CHUNK", 50)
    preds, refs = generated_corpus(260, seed=9, vocab=3000, max_words=40)
    for n in (49, 50, 51, 100, 101, 260):
        cold()
        r = Rouge(backend="native", num_threads=2, use_stemmer=True)
        assert_same(r.score_examples(predictions=preds[:n], references=refs[:n]),
                    python_scores(preds[:n], refs[:n], use_stemmer=True), f"n={n}")
        acc = r.accumulator(keep_values=True)
        r.add_to(acc, predictions=preds[:n], references=refs[:n])
        assert acc.n == n
    # An input error names the example's index in the whole input, past the first chunk, on both backends.
    long_pred = " ".join(["w"] * 40)
    bad_preds = ["a"] * 120 + [long_pred] + ["a"] * 10  # f(1) = 1 for the others: no overflow
    bad_refs = [["b"]] * 120 + [[long_pred]] + [["a"]] * 10
    for backend in ("python", "native"):
        with pytest.raises(OverflowError, match=r"^example 120: rougeW: f\(k\) = k\*\*40 overflows"):
            Rouge(["rougeW"], wlcs_weight=40, backend=backend, num_threads=2).compute(
                predictions=bad_preds, references=bad_refs)


# ------------------------------------------------------------------ Unicode and very long texts
@st.composite
def long_texts(draw):
    n = draw(st.sampled_from([70, 300, 2000] + ([9000] if FULL else [])))
    words = draw(st.lists(st.sampled_from(WORDS), min_size=n // 2, max_size=n))
    seps = draw(st.lists(st.sampled_from([" ", " ", " ", "\n", ", "]), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps))


@settings(max_examples=60 if FULL else 15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(examples=st.lists(st.tuples(texts() | long_texts(), st.lists(texts() | long_texts(), min_size=1, max_size=3)),
                         min_size=1, max_size=40),
       threads=st.sampled_from([1, 2, 8]), is_cold=st.booleans(), stem=st.booleans())
def test_hypothesis_unicode_and_long_texts(examples, threads, is_cold, stem):
    preds = [p for p, _ in examples]
    refs = [r for _, r in examples]
    if is_cold:
        cold()
    got = Rouge(ALL_TYPES, backend="native", num_threads=threads, use_stemmer=stem).score_examples(
        predictions=preds, references=refs)
    assert_same(got, python_scores(preds, refs, rouge_types=ALL_TYPES, use_stemmer=stem))


# ------------------------------------------------------------------ every type and option
OPTIONS = [
    dict(),
    dict(use_stemmer="porter", multi_ref="mean"),
    dict(use_stemmer="perl_porter", multi_ref="pool", alpha=0.3),
    dict(use_stemmer="snowball:english", multi_ref="best_recall", beta=2.0),
    dict(tokenizer="whitespace", use_stemmer=True, wlcs_weight=1.5),
    dict(tokenizer="unicode", use_stemmer="snowball:german"),
    dict(tokenizer="perl", multi_ref="pool"),
    dict(stopwords=["the", "a", "of", "and"], use_stemmer=True),
]


@pytest.mark.parametrize("options", OPTIONS, ids=[",".join(f"{k}={v}" for k, v in o.items()) or "defaults" for o in OPTIONS])
def test_every_type_and_option_on_threads_cold_and_warm(options):
    preds, refs = generated_corpus(400 if FULL else 120, seed=13, vocab=3000, max_words=60)
    exp = python_scores(preds, refs, rouge_types=ALL_TYPES, **options)
    for threads in (1, 2, 8):
        for is_cold in (True, False):
            if is_cold:
                cold()
            r = Rouge(ALL_TYPES, backend="native", num_threads=threads, **options)
            assert_same(r.score_examples(predictions=preds, references=refs), exp, f"threads={threads} cold={is_cold}")
            for i in range(0, len(preds), 17):
                assert r.score(prediction=preds[i], references=refs[i]) == exp[i]


# ------------------------------------------------------------------------------ token ids
def id_corpus(n, seed, vocab, max_len=300):
    """GRPO-like id batches: ragged completions with -100 padding and sentence ends (id 13) over a
    vocabulary of ``vocab`` ids offset by 2**40 (ids the workspaces only cover after interning), one to
    three references each."""
    import numpy as np

    rnd = np.random.default_rng(seed)

    def one():
        x = rnd.integers(0, vocab, size=int(rnd.integers(0, max_len))) + 2**40
        x[rnd.random(x.size) < 0.05] = 13
        return x.tolist() + [-100] * int(rnd.integers(0, 5))

    return [one() for _ in range(n)], [[one() for _ in range(int(rnd.integers(1, 4)))] for _ in range(n)]


@pytest.mark.parametrize("mode", ["max", "mean", "pool", "best_recall"])
def test_id_batches_on_threads_equal_python(mode):
    preds, refs = id_corpus(600 if FULL else 150, seed=21, vocab=50_000 if FULL else 5_000)
    cfg = dict(rouge_types=ALL_TYPES, tokenizer="ids", sentence_ids=[13], multi_ref=mode)
    exp = python_scores(preds, refs, **cfg)
    for threads in (1, 2, 3, 8):
        r = Rouge(backend="native", num_threads=threads, **cfg)
        assert r.native_pipeline
        for rep in range(2):  # the second call reuses the pooled thread states
            assert_same(r.score_examples(predictions=preds, references=refs), exp, f"threads={threads} rep={rep}")


def test_one_id_rouge_shared_by_eight_python_threads():
    n = 800 if FULL else 240
    preds, refs = id_corpus(n, seed=23, vocab=30_000 if FULL else 3_000, max_len=120)
    cfg = dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"], tokenizer="ids", sentence_ids=[13])
    exp = python_scores(preds, refs, **cfg)
    shared = Rouge(backend="native", num_threads=3, **cfg)
    shared8 = Rouge(backend="native", num_threads=8, **cfg)

    def work(tid):
        lo, hi = (tid * n) // 8, ((tid + 1) * n) // 8
        for rep in range(3 if FULL else 2):
            got = (shared if tid % 2 else shared8).score_examples(predictions=preds[lo:hi], references=refs[lo:hi])
            assert_same(got, exp[lo:hi], f"thread {tid} batch")
            for i in range(lo, min(hi, lo + 10)):
                assert shared.score(prediction=preds[i], references=refs[i]) == exp[i]

    run_in_threads(8, work)


# ------------------------------------------------------------ bounded-memory paths of the kernels
@pytest.fixture
def tiny_limits():
    """Limits so small that every multi-word kernel takes its sparse-mask and checkpointed-rows paths."""
    old = native._set_limits()
    native._set_limits(mask_bytes=64, row_bytes=512, trim_bytes=1024)
    yield
    native._set_limits(*old)


@settings(max_examples=40 if FULL else 12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(pred=long_texts(), ref=long_texts(), threads=st.sampled_from([1, 2]))
def test_bounded_memory_paths_give_the_same_scores(tiny_limits, pred, ref, threads):
    types = ["rougeL", "rougeLsum", "rougeW"]
    exp = python_scores([pred, ref], [[ref], [pred]], rouge_types=types)
    got = Rouge(types, backend="native", num_threads=threads).score_examples(
        predictions=[pred, ref], references=[[ref], [pred]])
    assert_same(got, exp)


@settings(max_examples=20 if FULL else 6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(n=st.sampled_from([70, 700, 3000]), seed=st.integers(0, 10**6), threads=st.sampled_from([1, 2]))
def test_bounded_memory_paths_give_the_same_scores_on_ids(tiny_limits, n, seed, threads):
    import numpy as np

    rnd = np.random.default_rng(seed)
    a, b = (rnd.integers(0, 40, size=n) + 2**40 for _ in range(2))
    a[rnd.random(n) < 0.02] = 13
    preds, refs = [a.tolist(), b.tolist()], [[b.tolist()], [a.tolist()]]
    cfg = dict(rouge_types=["rougeL", "rougeLsum", "rougeW"], tokenizer="ids", sentence_ids=[13])
    got = Rouge(backend="native", num_threads=threads, **cfg).score_examples(predictions=preds, references=refs)
    assert_same(got, python_scores(preds, refs, **cfg))


def test_long_unsplit_pair_memory_is_bounded():
    # One pair of 60,000 tokens each on one line: the rows of the LCS walk alone would take
    # 60,000 x 938 words (450 MB); rougeLsum on one line each is the LCS, so it equals rougeL.
    proc = run_python("""
        import random, resource
        from rouge_metric import Rouge
        rnd = random.Random(1)
        words = [f"w{i}" for i in range(3000)]
        a = " ".join(rnd.choice(words) for _ in range(60000))
        b = " ".join(rnd.choice(words) for _ in range(60000))
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        s = Rouge(["rougeL", "rougeLsum"], backend="native").score(prediction=a, references=b)
        grow = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
        assert s["rougeLsum"] == s["rougeL"], s
        print(f"MB {grow:.0f}")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    grow = float(proc.stdout.split("MB")[-1])
    assert grow < 200, f"peak memory grew by {grow} MB"


def test_cold_vocabulary_memory_is_bounded_by_distinct_words():
    # 100 pairs of 20,000 tokens over 20,000 distinct words, cold: the memory kept for unknown tokens
    # must follow the distinct words, not the 4 million occurrences.
    proc = run_python("""
        import random, resource
        from rouge_metric import Rouge
        rnd = random.Random(2)
        words = ["".join(rnd.choice("abcdefghij") for _ in range(9)) for _ in range(20000)]
        P = [" ".join(rnd.choice(words) for _ in range(20000)) for _ in range(100)]
        R = [" ".join(rnd.choice(words) for _ in range(20000)) for _ in range(100)]
        rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        base = rss()
        Rouge(["rouge1"], backend="native", num_threads=2).compute(predictions=P, references=R)
        cold_grow = rss() - base
        print(f"MB {cold_grow:.0f}")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    grow = float(proc.stdout.split("MB")[-1])
    assert grow < 80, f"a cold batch of 4M token occurrences grew the peak memory by {grow} MB"


# ------------------------------------------------------------------------------ interruption
INTERRUPT = """
    import math, os, random, signal, sys, time
    from rouge_metric import Rouge
    # Python's own Ctrl-C handler, as in a terminal: a process started in the background by a
    # non-interactive shell inherits SIGINT ignored, and Python then installs no handler.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    def tasks():
        return len(os.listdir("/proc/self/task"))
    kind = sys.argv[1]
    if kind in ("batch", "ids-batch"):
        ids = kind == "ids-batch"
        rnd = random.Random(0)
        pool = [rnd.randrange(50) + 2**40 if ids else f"w{rnd.randrange(50)}" for _ in range(20000)]
        join = (lambda x: x) if ids else " ".join
        r = Rouge(["rougeL", "rougeLsum"], backend="native", num_threads=2, tokenizer="ids" if ids else "default")
        texts = [join(pool[i: i + 6000]) for i in range(0, 9000, 10)]  # shared by the examples
        def make(size):  # size examples of 6,000 tokens: linear in size
            P = [texts[i % 900] for i in range(size)]
            R = [texts[(7 * i + 3) % 900] for i in range(size)]
            return lambda: r.compute(predictions=P, references=R)
        base, power = 200, 1
    else:
        r = Rouge(["rougeLsum"], backend="native", num_threads=2)
        def make(size):  # one pair of size tokens each: the union LCS is quadratic in size
            a = " ".join(["a", "b", "c", "d"] * (size // 4))
            b = " ".join(["b", "a", "d", "c"] * (size // 4))
            return (lambda: r.score(prediction=a, references=b)) if kind == "pair" else \\
                   (lambda: r.compute(predictions=[a], references=[b]))
        base, power = 40000, 2
    # The call must outlast the test's one-second wait on any machine: time a small one, then size the
    # real one for about 10 s of work.
    small = make(base)
    small()
    t0 = time.perf_counter()
    small()
    took = max(time.perf_counter() - t0, 1e-4)
    size = int(base * max(4.0, (10.0 / took) ** (1 / power)))
    size = min(size, 3_000_000 if power == 2 else 60_000) // 4 * 4
    call = make(size)
    Rouge(["rouge1"], backend="native", num_threads=2).compute(predictions=["a b"] * 200, references=["b a"] * 200)
    before = tasks()  # after a first threaded call (a sanitizer runtime may start a thread of its own)
    print("started", flush=True)
    try:
        call()
        print("finished")
    except KeyboardInterrupt:
        t = time.time()
        time.sleep(0.2)
        print(f"interrupted {t:.3f} tasks {tasks()} {before}")
        if kind == "ids-batch":
            s = r.score(prediction=[1, 2, 3], references=[1, 2, 3, 4])
        else:
            s = r.score(prediction="the cat sat", references="the cat sat down")
        print("after", s[r.rouge_types[0]].fmeasure)
"""


@pytest.mark.parametrize("kind", ["batch", "pair", "one-example-batch", "ids-batch"])
def test_ctrl_c_stops_native_work_within_a_second(kind, tmp_path):
    # The signal comes from another process, as from a terminal (a thread of the child would need
    # the GIL, which the per-pair path holds).
    script = tmp_path / "interrupt.py"
    script.write_text(textwrap.dedent(INTERRUPT))
    proc = subprocess.Popen([sys.executable, str(script), kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "started", proc.stderr.read()[-3000:]
    time.sleep(1.0)
    sent = time.time()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert "interrupted" in out, (out, err[-3000:])
    words = out.split()
    delay = float(words[words.index("interrupted") + 1]) - sent
    after, before = int(words[words.index("tasks") + 1]), int(words[words.index("tasks") + 2])
    limit = 5.0 if native.CHECKED else 1.0  # sanitizer builds run 5-15x slower
    assert delay < limit, f"KeyboardInterrupt came {delay:.2f} s after the signal"
    assert after == before, f"{after} threads after the interrupt, {before} before"
    assert "after 0.857" in out  # the scorer works after an interrupted call (F of 3/3 vs 3/4 words)


def test_ctrl_c_stops_the_reading_of_a_large_id_batch():
    # The id batch reads and interns every id with the GIL held before any worker starts: 36 million
    # ids take half a second or more. A timer signal 50 ms into the call lands in that reading, which
    # checks for signals every 2^18 ids (before, the signal waited for the whole read).
    out = run_python("""
        import random, signal, sys, time
        from rouge_metric import Rouge
        rnd = random.Random(0)
        pool = [rnd.randrange(50) + 2**40 for _ in range(20000)]
        P = [pool[i % 9000: i % 9000 + 6000] for i in range(3000)]
        R = [pool[(7 * i) % 9000: (7 * i) % 9000 + 6000] for i in range(3000)]
        r = Rouge(["rouge1"], backend="native", num_threads=2, tokenizer="ids")
        t = time.perf_counter()
        r.compute(predictions=P, references=R)
        print("full", time.perf_counter() - t)  # mostly the read: rouge1 on ids is quick to score
        def on_alarm(*_):  # Python runs it when the native code checks for signals
            raise KeyboardInterrupt
        signal.signal(signal.SIGALRM, on_alarm)
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        try:
            r.compute(predictions=P, references=R)
            print("finished", time.perf_counter() - start)
        except KeyboardInterrupt:
            print("interrupted", time.perf_counter() - start - 0.05)  # since the signal arrived
        print("after", r.score(prediction=[1, 2, 3], references=[1, 2, 3, 4])["rouge1"].fmeasure)
    """)
    assert out.returncode == 0, out.stderr[-3000:]
    words = out.stdout.split()
    full = float(words[1])
    assert words[2] == "interrupted", out.stdout
    # Relative to the whole call on this machine and build (sanitizers run 5-15x slower): without the
    # checks the signal waits for the rest of the read, about 0.9 of the call.
    delay = float(words[3])
    assert delay < 0.25 * full, f"KeyboardInterrupt came {delay:.2f} s after the signal (whole call {full:.2f} s)"
    assert "after 0.857" in out.stdout


# ----------------------------------------------------------------------------- entry points
def test_entry_points_evaluate_datasets_and_trainer_adapter_cold():
    preds, refs = generated_corpus(600 if FULL else 200, seed=17, vocab=4000, max_words=50)
    single = [r[0] for r in refs]
    exp = Rouge(backend="python", use_stemmer=True).compute(predictions=preds, references=single,
                                                              return_per_example=True)
    # the evaluate module
    evaluate = pytest.importorskip("evaluate")
    cold()
    module = evaluate.load(str(Path(__file__).resolve().parents[1] / "rouge_metric"))
    got = module.compute(predictions=preds, references=single, use_stemmer=True, return_precision_recall=True)
    for t, s in exp.scores.items():
        assert got[t] == s.fmeasure and got[f"{t}_precision"] == s.precision and got[f"{t}_recall"] == s.recall
    # datasets.map
    datasets = pytest.importorskip("datasets")
    from rouge_metric import RougeMapper

    cold()
    ds = datasets.Dataset.from_dict({"prediction": preds, "references": single})
    scored = ds.map(RougeMapper(use_stemmer=True), batched=True, batch_size=64, load_from_cache_file=False)
    for t in exp.scores:
        assert scored[t] == [e[t].fmeasure for e in exp.per_example]
    # the Trainer adapter, on decoded token ids
    pytest.importorskip("transformers")
    import numpy as np

    from rouge_metric.callbacks import RougeComputeMetrics, decode_eval_pred
    from rouge_metric.callbacks.testing import build_tokenizer

    tok = build_tokenizer(preds + single, vocab_size=2000)
    width = 400
    enc = lambda texts: np.array([(tok(t)["input_ids"] + [-100] * width)[:width] for t in texts])  # noqa: E731
    p_ids, l_ids = enc(preds), enc(single)
    cold()
    metrics = RougeComputeMetrics(tok, gen_len=False)((p_ids, l_ids))
    decoded = decode_eval_pred(tok, p_ids, l_ids)
    want = Rouge(backend="python", use_stemmer=True).compute(predictions=decoded.predictions,
                                                             references=decoded.references)
    assert metrics == want.to_dict(("fmeasure",), scale=100.0)


# ------------------------------------------------------------------ borrowed references (use-after-free)
# The per-pair native path may release the GIL (waiting for a vocabulary that a batch holds) and run
# Python code (the Python stemmer) while it reads the texts of a references list. Another thread, or
# the code that runs, may empty that list and free its strings: the native core must hold its own
# references. Both triggers are made deterministic with a Python stemmer callback on a raw Vocab;
# under AddressSanitizer (tools/sanitize.py) a read of a freed string is a report, in a release build
# a wrong score.

def _fresh_texts(words, n, salt):
    """n new str objects (not interned, not shared with any other object)."""
    return [" ".join(f"{w}{salt}{k}x" for w in words[k % 3:]) + f" tail{k}" for k in range(n)]


def _raw_scorer(stem, types=("rouge1", "rougeL", "rougeLsum")):
    from rouge_metric.config import RougeConfig
    from rouge_metric.result import Score

    cfg = RougeConfig(rouge_types=list(types))
    vocab = native.Vocab(native.Tokenizer.default, stem, 3, False, False)
    return vocab, native.Scorer(vocab, *core._scorer_args(cfg), Score)


def _overwrite_freed_memory():
    """Allocate many strings of the sizes just freed, so a read of freed memory sees other text."""
    return ["".join(chr(65 + (i + j) % 26) for j in range(40 + i % 80)) for i in range(4000)]


def _expected(types, pred, refs):
    return Rouge(list(types), backend="python").score(prediction=pred, references=refs)


def _pair_call(scorer, entry):
    """The per-pair entry point ``entry`` of a raw Scorer as ``f(prediction, references)``: its bound
    ``score``, or a PairFunction (whose fallback must not run: the input is plain)."""
    if entry == "score":
        return scorer.score

    def fallback(*args, **kwargs):
        raise AssertionError(f"fallback called with {args!r} {kwargs!r}")

    return scorer.pair_function(False, True, None, fallback)


@pytest.mark.parametrize("entry", ["score", "pair_function"])
def test_pair_path_owns_references_while_the_python_stemmer_runs(entry):
    types = ("rouge1", "rougeL", "rougeLsum")
    words = ["alpha", "bravo", "charlie", "delta", "echo"]
    for trial in range(3 if not FULL else 20):
        refs = _fresh_texts(words, 6, f"s{trial}")
        pred = " ".join(words) + f" s{trial}0x tail0"
        want = _expected(types, pred, list(refs))
        junk = []
        fired = []

        def stem(token, refs=refs):
            if not fired:  # the first new word: empty the caller's list and reuse the memory
                fired.append(1)
                refs.clear()
                junk.append(_overwrite_freed_memory())
            return token  # identity stems: the scores are those of the unstemmed texts

        _, scorer = _raw_scorer(stem, types)
        got = _pair_call(scorer, entry)(pred, refs)
        assert fired, "the stemmer callback never ran"
        assert got == want, f"trial {trial}: {got} != {want}"


@pytest.mark.parametrize("entry", ["score", "pair_function"])
def test_pair_path_owns_references_while_waiting_for_a_batch(entry):
    """A batch holds the vocabulary (its Python stemmer sleeps with the GIL released); a per-pair call
    on the same vocabulary waits for it without the GIL, and meanwhile a third thread empties its list."""
    types = ("rouge1", "rougeL", "rougeLsum")
    words = ["kilo", "lima", "mike", "november", "oscar"]
    holding = threading.Event()

    def stem(token):
        if not holding.is_set():
            holding.set()
            time.sleep(0.4)  # the batch holds vocab.mu; the GIL is released while it sleeps
        return token

    _, scorer = _raw_scorer(stem, types)
    call = _pair_call(scorer, entry)
    refs = _fresh_texts(words, 6, "w")
    pred = " ".join(words) + " w0x tail0"
    want = _expected(types, pred, list(refs))
    got, errors, junk = [], [], []
    calling = threading.Event()

    def batch():
        try:
            scorer.batch([f"batch words number {i} zulu{i}" for i in range(50)], ["batch words"] * 50, 1)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def pair():
        holding.wait()
        calling.set()
        try:
            got.append(call(pred, refs))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def clear():
        calling.wait()
        time.sleep(0.1)  # by then the pair call waits for vocab.mu without the GIL
        refs.clear()
        junk.append(_overwrite_freed_memory())

    threads = [threading.Thread(target=f) for f in (batch, pair, clear)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert got == [want]


@pytest.mark.parametrize("trigger", ["stemmer", "batch"])
def test_pair_method_owns_its_plan_while_python_code_runs(trigger):
    """A PairMethod finds its PairFunction in the instance's __dict__; the Python stemmer (or a third
    thread, while the call waits for a batch's vocabulary without the GIL) drops that plan, the only
    reference to the PairFunction and its Scorer: the call must keep them alive to its end."""
    from rouge_metric.config import RougeConfig
    from rouge_metric.result import Score

    types = ("rouge1", "rougeL", "rougeLsum")
    words = ["papa", "quebec", "romeo", "sierra", "tango"]
    holding = threading.Event()
    junk, fired = [], []

    class Holder:
        pass

    holder = Holder()

    def drop_plan():
        fired.append(1)
        holder.__dict__.clear()  # the plan, its PairFunction and the Scorer have no other reference
        junk.append(_overwrite_freed_memory())

    def stem(token):
        if trigger == "stemmer" and not fired:
            drop_plan()
        if trigger == "batch" and not holding.is_set():
            holding.set()
            time.sleep(0.4)  # the batch holds vocab.mu; the GIL is released while it sleeps
        return token

    def fallback(*args, **kwargs):
        raise AssertionError(f"fallback called with {args!r} {kwargs!r}")

    cfg = RougeConfig(rouge_types=list(types))
    vocab = native.Vocab(native.Tokenizer.default, stem, 3, False, False)
    holder.plan = native.PairPlan((native.Scorer(vocab, *core._scorer_args(cfg), Score).pair_function(
        False, True, None, fallback),), (), ())
    Holder.score = native.PairMethod(fallback, Holder, "plan", 0)
    batch_scorer = native.Scorer(vocab, *core._scorer_args(cfg), Score)  # the same vocabulary
    refs = _fresh_texts(words, 6, f"m{trigger}")
    pred = " ".join(words) + f" m{trigger}0x tail0"
    want = _expected(types, pred, list(refs))
    got, errors = [], []
    calling = threading.Event()

    def batch():
        try:
            batch_scorer.batch([f"batch words number {i} yankee{i}" for i in range(50)], ["batch words"] * 50, 1)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def pair():
        if trigger == "batch":
            holding.wait()
            calling.set()
        try:
            got.append(holder.score(pred, refs))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def drop():
        calling.wait()
        time.sleep(0.1)  # by then the pair call waits for vocab.mu without the GIL
        drop_plan()

    if trigger == "stemmer":
        pair()
    else:
        threads = [threading.Thread(target=f) for f in (batch, pair, drop)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert fired and not errors, errors
    assert got == [want] and "plan" not in holder.__dict__


def test_id_batch_owns_sequences_while_a_signal_handler_runs():
    """The id reader checks for signals every 2**18 ids; a handler that empties the list being read
    must not make it read freed memory. The reader then sees the change and leaves the call to the
    validated Python path, so the scores are those of the input either before or after the handler."""
    types = ["rouge1", "rouge2"]
    r = Rouge(types, tokenizer="ids", backend="native")
    n = 3_000_000 if FULL else 1_500_000
    preds = [list(range(1000, 1000 + n)), list(range(100, 200))]
    refs = [[list(range(1050, 1050 + n))], [list(range(150, 260))]]
    python = Rouge(types, tokenizer="ids", backend="python")
    before = python.score_examples(predictions=[list(p) for p in preds], references=refs)
    fired = []

    def handler(signum, frame):
        fired.append(1)
        preds[0].clear()  # the list being read: its ints (beyond the small-int cache) are freed
        _overwrite_freed_memory()

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.005)  # during the read of the first prediction
        got = r.score_examples(predictions=preds, references=refs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert fired
    after = python.score_examples(predictions=preds, references=refs)
    assert got in (before, after), got
