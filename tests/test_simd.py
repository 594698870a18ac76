"""The native text scan at every SIMD level this CPU runs (``_native.simd_levels()``): the same tokens
and sentences as the Python pipeline, and the same floats, on generated texts of every string kind
(ASCII, Latin-1, UCS-2, UCS-4) whose lengths straddle the 16-, 32- and 64-character blocks of the
levels, with tokens and newlines across block edges; and the level's choice through
``ROUGE_METRIC_SIMD``."""

import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, core
from rouge_metric.text import default_tokenize, whitespace_tokenize

native = pytest.importorskip("rouge_metric._native") if core.native_available() else None
pytestmark = pytest.mark.skipif(native is None, reason="native extension not built")
# the fixture only restores the level after the test: nothing in it needs resetting between inputs
HEALTH = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=HEALTH)
LEVELS = native.simd_levels() if native is not None else []

# One character forcing each string kind; U+0130 and U+212A lowercase to ASCII letters (the scan's
# table), U+2028 is whitespace, not a newline.
KIND_CHARS = {"ascii": "", "latin1": "\u00e9\u00ff\u00a0", "ucs2": "\u0151\u65e5\u2028\u0130\u212a\u0100",
              "ucs4": "\U0001f600\U00010400"}
BASE = list("aaaabZz09 ..,\n\n\r\t-")
WORDS = ["x" * 15, "Y" * 16, "q" * 17, "abcdefghijklmnopqrstuvwxyz0123456789", "a", "42", "W" * 31, "m" * 33, "k" * 64]


def _sentences(text, func):
    """Token ids per non-empty newline-separated sentence, ids in first-seen order over the text."""
    seen, out = {}, []
    for line in text.split("\n"):
        toks = func(line)
        if toks:
            out.append([seen.setdefault(t, len(seen)) for t in toks])
    return out


@pytest.fixture
def each_level():
    """Runs the body at every level, then restores the process's level."""
    before = native.simd_level()
    try:
        yield LEVELS
    finally:
        native._set_simd_level(before)


@st.composite
def texts(draw):
    kind = draw(st.sampled_from(sorted(KIND_CHARS)))
    alphabet = BASE + list(KIND_CHARS[kind])
    parts = draw(st.lists(st.sampled_from(alphabet) | st.sampled_from(WORDS), max_size=60))
    text = "".join(parts)
    # a length next to a block edge, padded with token characters or newlines at the edge
    edge = draw(st.sampled_from([0, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193]))
    fill = draw(st.sampled_from(["a", "\n", " ", "Z9"]))
    if len(text) < edge:
        text += fill * ((edge - len(text)) // len(fill) + 1)
    text = text[:edge] if draw(st.booleans()) and edge else text
    if kind != "ascii" and KIND_CHARS[kind] and not any(c in text for c in KIND_CHARS[kind]):
        where = draw(st.integers(0, len(text)))
        text = text[:where] + KIND_CHARS[kind][0] + text[where:]
    return text


def test_levels_are_listed_lowest_first_and_the_active_one_is_among_them():
    assert LEVELS[0] == "scalar" and native.simd_level() in LEVELS
    order = ["scalar", "sse2", "avx2", "avx512", "neon"]
    assert LEVELS == sorted(LEVELS, key=order.index)


@SETTINGS
@given(text=texts())
def test_every_level_tokenizes_as_python(each_level, text):
    want = {code: _sentences(text, func) for code, func in
            ((native.Tokenizer.default, default_tokenize), (native.Tokenizer.whitespace, whitespace_tokenize))}
    for level in each_level:
        native._set_simd_level(level)
        for code, sentences in want.items():
            assert native.Vocab(code, None, 3).tokenize(text) == sentences, (level, code)


@settings(max_examples=25, deadline=None, suppress_health_check=HEALTH)
@given(pairs=st.lists(st.tuples(texts(), texts()), min_size=1, max_size=6))
def test_every_level_gives_the_python_backends_floats(each_level, pairs):
    preds = [p for p, _ in pairs]
    refs = [[r] for _, r in pairs]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    want = Rouge(types, use_stemmer=True, backend="python").compute(predictions=preds, references=refs)
    for level in each_level:
        native._set_simd_level(level)
        got = Rouge(types, use_stemmer=True, backend="native").compute(predictions=preds, references=refs)
        for t in types:
            assert [x.hex() for x in got.scores[t]] == [x.hex() for x in want.scores[t]], (level, t)


def test_a_long_text_of_every_kind_at_every_level(each_level):
    body = "The İstanbul café, 3.14!\nKelvin \u212a  " + "".join(WORDS) + "\n\n"
    for extra in ("", "\u00e9", "\u65e5", "\U0001f600"):
        text = (body + extra) * 97 + "tail"
        want = _sentences(text, default_tokenize)
        for level in each_level:
            native._set_simd_level(level)
            assert native.Vocab(native.Tokenizer.default, None, 3).tokenize(text) == want, (level, repr(extra))


def test_set_level_rejects_an_unknown_name(each_level):
    with pytest.raises(ValueError, match="unknown SIMD level neon2; expected one of"):
        native._set_simd_level("neon2")
    assert native._set_simd_level("auto") == LEVELS[-1]


def _run_with(value, code="from rouge_metric import _native; print(_native.simd_level())"):
    env = dict(os.environ, ROUGE_METRIC_SIMD=value)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("level", LEVELS)
def test_the_environment_variable_forces_a_level(level):
    proc = _run_with(level.upper())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == level


def test_the_environment_variable_refuses_a_bad_value_at_first_use():
    # not an ImportError (the package would fall back to the Python backend): a ValueError from the
    # level's query and from the first native text pipeline
    proc = _run_with("fastest")
    assert proc.returncode != 0
    assert "ValueError: ROUGE_METRIC_SIMD=fastest: unknown SIMD level fastest; expected one of: auto, scalar" in proc.stderr
    proc = _run_with("fastest", "from rouge_metric import Rouge; Rouge(['rouge1'], backend='native').score('a b', 'a')")
    assert proc.returncode != 0
    assert "ValueError: ROUGE_METRIC_SIMD=fastest: unknown SIMD level" in proc.stderr
    missing = [lv for lv in ("sse2", "avx2", "avx512") if lv not in LEVELS]
    if missing:  # a level this CPU (or this architecture) lacks: an error, not an illegal instruction
        proc = _run_with(missing[-1])
        assert proc.returncode != 0
        assert f"SIMD level {missing[-1]} is not supported by this CPU or build" in proc.stderr


@st.composite
def summaries(draw):
    """Multi-sentence texts over a small vocabulary: rougeLsum's union-LCS walks (lanes of short lines,
    lines longer than 64 tokens) do real work on them."""
    words = draw(st.lists(st.sampled_from("a b c d e f g h".split()), min_size=1, max_size=8, unique=True))
    lines = draw(st.lists(st.lists(st.sampled_from(words), min_size=0, max_size=90), min_size=1, max_size=12))
    return "\n".join(" ".join(line) for line in lines)


@settings(max_examples=40, deadline=None, suppress_health_check=HEALTH)
@given(pairs=st.lists(st.tuples(summaries(), summaries()), min_size=1, max_size=8))
def test_rougelsum_walks_at_every_level_give_the_python_backends_floats(each_level, pairs):
    # The backtrack of rougeLsum reverses bit columns: with GFNI's instruction at the AVX-512 level (on
    # a CPU that has it), with shifts and masks at the others. Every example, to the last bit.
    preds = [p for p, _ in pairs]
    refs = [[r] for _, r in pairs]
    want = Rouge(["rougeLsum"], backend="python").score_examples(predictions=preds, references=refs)
    for level in each_level:
        native._set_simd_level(level)
        got = Rouge(["rougeLsum"], backend="native").score_examples(predictions=preds, references=refs)
        for g, w in zip(got, want):
            assert [x.hex() for x in g["rougeLsum"]] == [x.hex() for x in w["rougeLsum"]], level
