"""The native jieba segmenter (rouge_metric/_native_src/jieba.hpp, :mod:`rouge_metric.jieba_native`)
against jieba itself, the installed jieba 0.42.1 (its ``jieba.lcut``, ``Tokenizer`` and ``finalseg``):

- the tables: every key of jieba's FREQ, its total, the HMM tables and MIN_FLOAT;
- the cuts: the texts of the Chinese corpora (the first rows here, every row in the integration tier),
  generated text of every kind of character (Han common and rare, CJK extensions, ASCII and jieba's
  ``+#&._%-``, Unicode digits and spaces, punctuation, full-width forms, emoji, kana, Hangul, empty and
  whitespace-only), and strings made for the HMM (runs of characters that are no word) and for
  finalseg's ``re_skip`` (``3.14%``, ``abc.5``);
- small generated dictionaries and HMM tables whose values tie often, against a ``jieba.Tokenizer`` on
  the same dictionary with finalseg's tables replaced (jieba's tie-breaking in the route and the Viterbi);
- dictionary files: the lines jieba reads (CRLF, tags, repeated words, zero frequencies, a BOM) and the
  ones it refuses, and the ones the native loader leaves to jieba;
- the segmenter: which implementation runs, ``ROUGE_METRIC_JIEBA``, and the refusal of a process that
  changed jieba's default tokenizer (simulated here; the real calls of jieba's API in fresh processes in
  the integration tier).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpora import corpus_available, load_corpus
from rouge_metric import Rouge, core, jieba_native, segment

jieba = pytest.importorskip("jieba", reason="jieba is not installed (extra 'multilingual')")
if not core.native_available():
    pytest.skip("the native core is not built", allow_module_level=True)

import jieba.finalseg  # noqa: E402

jieba.setLogLevel(40)
jieba.initialize()
FOLDER = jieba_native.jieba_folder()
CORPORA = ["multisummeval_chinese", "lcsts_mocobart_chinese", "longbench_vcsum_zh"]
REPO = Path(__file__).resolve().parents[1]


def native_model():
    try:
        return jieba_native.native_model(FOLDER)[0]
    except jieba_native.Unavailable as why:
        pytest.skip(f"the native segmenter cannot stand in for this jieba: {why}")


def table_sources(start: dict, trans: dict, emit: dict) -> Tuple[bytes, bytes, bytes]:
    """HMM tables as prob_*.py sources (``P=`` and the literal)."""
    return tuple(f"P={t!r}\n".encode("utf-8") for t in (start, trans, emit))  # type: ignore[return-value]


def jieba_tables() -> Tuple[bytes, bytes, bytes]:
    folder = Path(FOLDER, "finalseg")
    return tuple((folder / f"prob_{t}.py").read_bytes() for t in ("start", "trans", "emit"))  # type: ignore


def oracle_tokenizer(data: bytes) -> "jieba.Tokenizer":
    """A jieba Tokenizer on the dictionary ``data`` (its own gen_pfdict; no cache file)."""
    tk = jieba.Tokenizer()
    tk.FREQ, tk.total = jieba.Tokenizer.gen_pfdict(io.BytesIO(data))
    tk.initialized = True
    return tk


# ---------------------------------------------------------------------------------------- the tables
def test_the_tables_are_jiebas():
    m = native_model()
    assert (m.total, m.size) == (jieba.dt.total, len(jieba.dt.FREQ))
    assert all(m.freq(k) == v for k, v in jieba.dt.FREQ.items())  # same size: the same map
    assert m.freq("没有这个词的词") is None and m.freq("") is None
    start, trans, emit, min_float = m.hmm()
    fs = jieba.finalseg
    assert min_float == fs.MIN_FLOAT == jieba_native.MIN_FLOAT
    assert start == fs.start_P
    assert trans == {a: {b: fs.trans_P[a].get(b, fs.MIN_FLOAT) for b in "BMES"} for a in "BMES"}
    for y in "BMES":
        assert emit[y] == [fs.emit_P[y].get(chr(c), fs.MIN_FLOAT) for c in range(0x4E00, 0x9FD6)]


def test_the_expressions_and_sources_are_those_the_native_segmenter_reproduces():
    assert jieba_native.source_version(FOLDER) == jieba.__version__ == "0.42.1"
    for name, (pattern, flags) in jieba_native.PATTERNS.items():
        rx = getattr(jieba.finalseg, name[9:]) if name.startswith("finalseg.") else getattr(jieba, name)
        assert (rx.pattern, rx.flags) == (pattern, flags), name


# ------------------------------------------------------------------------------------------- the cuts
def corpus_texts(name: str, limit: int = 0) -> List[str]:
    if not corpus_available(name):
        pytest.skip(f"../shared/corpora/{name} is absent")
    preds, refs = load_corpus(name, limit)
    return sorted(set(preds) | {r for rs in refs for r in rs})


def check_cuts(texts) -> None:
    m = native_model()
    for t in texts:
        assert m.cut(t) == jieba.lcut(t), t[:80]


@pytest.mark.parametrize("name", CORPORA)
def test_corpus_first_rows(name):
    check_cuts(corpus_texts(name, 25))


@pytest.mark.integration
@pytest.mark.parametrize("name", CORPORA)
def test_corpus_every_row(name):
    check_cuts(corpus_texts(name))


COMMON_HAN = ("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好"
              "都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长北京清华今气很网易杭研厦硕士毕业计算")
DICT_WORDS = ["中国科学院", "北京", "清华大学", "计算所", "网易", "杭研", "大厦", "硕士", "毕业", "AT&T", "c++", "C#", "B超",
              "γ射线", "T恤", "3G", "PM2.5", "e-mail", "卡拉OK", "阿Q", "一一", "不了了之", "了不起"]
PIECES = ["3.14%", "abc.5", ".5", "a.b", "1.2.3", "x%", "%%", "--", "c++", "AT&T", "\r\n", "\r\r\n", "\n\r", "12.",
          "0.5%z", "v2.0", "a_b", "#&", "A1.23%B"]
EXTENSIONS = [0x3400, 0x4DB5, 0x9FD5, 0x9FD6, 0x9FEF, 0xF900, 0xFA6D, 0x20000, 0x2A6D6, 0x2B740, 0x4DFF, 0x4E00]
OTHERS = ("abcXYZ0123456789+#&._%-!@$^*()=[]{};:'\",<>/?\\|`~ "
          "٠١٢٣٤٥٦٧٨٩０１２３४५੩๓"  # Unicode digits (\\d, not jieba's 0-9)
          " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u205f\u3000"  # Unicode spaces
          "，。！？、；：“”‘’（）《》【】…—·「」"
          "ＡＢＣａｂｃ＋＃＆．＿％－"
          "ひらがなカタカナー한국어가나éÉüßñ×÷\u0301\ufeff")
EMOJI = ["😀", "🎉", "👍🏽", "👨‍👩‍👧", "🇨🇳"]

chars = st.one_of(
    st.sampled_from(COMMON_HAN),
    st.integers(0x4E00, 0x9FD5).map(chr),  # mostly rare: no word, the HMM
    st.sampled_from(EXTENSIONS).map(chr),
    st.sampled_from(OTHERS),
    st.sampled_from(EMOJI),
)
pieces = st.one_of(chars, st.sampled_from(DICT_WORDS), st.sampled_from(PIECES),
                   st.text(alphabet=st.sampled_from(COMMON_HAN), min_size=2, max_size=8))
texts = st.lists(pieces, max_size=40).map("".join)


hmm_runs = st.lists(st.one_of(st.integers(0x4E00, 0x9FD5).map(chr), st.sampled_from("abcXY019.%+#&_-")), min_size=1,
                   max_size=30).map("".join)


def same_cut(text: str) -> None:
    assert native_model().cut(text) == jieba.lcut(text)


def tiers(fast: int, integration: int):
    """A hypothesis test twice: ``fast`` examples in the fast tier, ``integration`` in the integration tier."""
    def make(strategy, fn):
        def run(n):
            checks = [HealthCheck.too_slow]
            return settings(max_examples=n, deadline=None, suppress_health_check=checks)(given(strategy)(fn))
        return run(fast), pytest.mark.integration(run(integration))
    return make


test_generated_text, test_generated_text_more = tiers(100, 3000)(texts, same_cut)
test_any_text, test_any_text_more = tiers(40, 1000)(st.text(max_size=60), same_cut)
test_runs_for_the_hmm_and_finalseg_pieces, test_runs_for_the_hmm_more = tiers(60, 2000)(hmm_runs, same_cut)


def test_edge_texts():
    rare = "".join(chr(c) for c in range(0x9F90, 0x9FD6))  # rare characters: the HMM over a long run
    for t in ["", " ", "\r\n", "\r\r\n\n", "\u3000\u3000", "。", "a", "A", "中", rare, rare + "abc3.14%" + rare,
              "鿐鿑3.14%鿒", "鿐abc.5鿑", "鿐.5鿑x", "3.14.15", "的的的的的", "一" * 300, "abc" * 50, "𠀀𠀁𠀂", "中\ud800文",
              "\x00中文\x00", "c++和C#", "AT&T公司", "B超检查", "γ射线"]:
        assert native_model().cut(t) == jieba.lcut(t), repr(t)


def test_texts_of_every_str_layout():
    m = native_model()
    for t in ["latin1 é only", "北京 BMP", "astral 😀 北京", "\ud83d lone surrogate 北京"]:
        assert m.cut(t) == jieba.lcut(t)
    with pytest.raises(TypeError, match="text: expected str, got bytes"):
        m.cut(b"abc")


# ---------------------------------------------------------- small dictionaries and tables with many ties
ALPHABET = "甲乙丙丁戊ab1.%"


@st.composite
def dictionaries(draw) -> bytes:
    words = draw(st.lists(st.text(alphabet=ALPHABET, min_size=1, max_size=4), min_size=1, max_size=25))
    lines = [f"{w} {draw(st.sampled_from([0, 1, 1, 2, 3, 7]))}" + draw(st.sampled_from(["", " n", " nz x"]))
             for w in words]
    if all(line.split(" ")[1] == "0" for line in lines):
        lines.append(f"{words[0]} 1")
    return ("\n".join(lines) + draw(st.sampled_from(["", "\n"]))).encode("utf-8")


@st.composite
def hmm_tables(draw) -> Tuple[dict, dict, dict]:
    values = st.sampled_from([-1.0, -2.0, -3.0, -0.5, jieba_native.MIN_FLOAT])
    start = {y: draw(values) for y in "BMES"}
    trans = {y: {z: draw(values) for z in "BMES" if draw(st.booleans())} for y in "BMES"}
    emit = {y: {c: draw(values) for c in "甲乙丙丁戊" if draw(st.booleans())} for y in "BMES"}
    return start, trans, emit


def small_model_cuts(case) -> None:
    data, tables, sample = case
    m = core.kernels("native").jieba_load(data, *table_sources(*tables), jieba_native.MIN_FLOAT)
    tk = oracle_tokenizer(data)
    assert (m.total, m.size) == (tk.total, len(tk.FREQ))
    assert all(m.freq(k) == v for k, v in tk.FREQ.items())
    fs = jieba.finalseg
    saved = fs.start_P, fs.trans_P, fs.emit_P
    fs.start_P, fs.trans_P, fs.emit_P = tables
    try:
        for text in sample:
            assert m.cut(text) == list(tk.cut(text)), (text, data, tables)
    finally:
        fs.start_P, fs.trans_P, fs.emit_P = saved


small_cases = st.tuples(dictionaries(), hmm_tables(),
                        st.lists(st.text(alphabet=ALPHABET + " ，", max_size=12), min_size=1, max_size=5))
test_small_dictionaries_and_tables_break_ties_as_jieba, test_small_dictionaries_more = tiers(80, 3000)(
    small_cases, small_model_cuts)


def reference_total(data: bytes) -> None:
    assert jieba_native.dictionary_total(data) == oracle_tokenizer(data).total


test_the_python_reference_total_is_gen_pfdicts, test_the_python_reference_total_more = tiers(30, 500)(
    dictionaries(), reference_total)


# ------------------------------------------------------------------------------------ dictionary files
ACCEPTED = {
    "crlf": b"\xe7\x94\xb2\xe4\xb9\x99 3 n\r\n\xe7\x94\xb2 2\r\n",
    "spaces around": b"  \t\xe7\x94\xb2\xe4\xb9\x99 3 n \t\n\xe7\x94\xb2 2\x0b\x0c\n",
    "a word twice": b"\xe7\x94\xb2 3\n\xe7\x94\xb2 5\n",
    "zero": b"\xe7\x94\xb2\xe4\xb9\x99 0\n\xe4\xb9\x99 4\n",
    "plus sign": b"\xe7\x94\xb2 +3\n",
    "bom": b"\xef\xbb\xbf\xe7\x94\xb2 3\n\xe7\x94\xb2 1\n",
    "extra fields": b"\xe7\x94\xb2 3 n x y z\n",
    "a tab inside": b"a\tb 3\nab 2\n",
    "astral": "𠀀𠀁 3\n甲 1\n".encode(),
    "no final newline": b"\xe7\x94\xb2 3",
}
REFUSED_BY_JIEBA = {
    "no frequency": b"\xe7\x94\xb2\n",
    "an empty line": b"\xe7\x94\xb2 3\n\n\xe4\xb9\x99 1\n",
    "two spaces": b"\xe7\x94\xb2  3\n",
    "not utf-8": b"\xe7\x94 3\n",
    "a letter": b"\xe7\x94\xb2 3x\n",
    "surrogate": b"\xed\xa0\x80 3\n",
}
LEFT_TO_JIEBA = {"underscore": b"\xe7\x94\xb2 1_000\n", "negative": b"\xe7\x94\xb2 -3\n\xe4\xb9\x99 5\n",
                 "arabic digits": "甲 ٣\n".encode(), "huge": b"\xe7\x94\xb2 10000000000000000\n"}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_dictionary_lines_jieba_reads(name):
    data = ACCEPTED[name]
    m = core.kernels("native").jieba_load(data, *jieba_tables(), jieba_native.MIN_FLOAT)
    tk = oracle_tokenizer(data)
    assert (m.total, m.size) == (tk.total, len(tk.FREQ))
    assert all(m.freq(k) == v for k, v in tk.FREQ.items())
    for text in ["甲乙", "甲乙甲", "a\tb", "ab甲", "𠀀𠀁甲乙"]:
        assert m.cut(text) == list(tk.cut(text))


@pytest.mark.parametrize("name", sorted(REFUSED_BY_JIEBA) + sorted(LEFT_TO_JIEBA))
def test_dictionary_lines_refused(name):
    data = REFUSED_BY_JIEBA.get(name, LEFT_TO_JIEBA.get(name))
    with pytest.raises(ValueError, match=r"dictionary: line \d+: "):
        core.kernels("native").jieba_load(data, *jieba_tables(), jieba_native.MIN_FLOAT)
    if name in REFUSED_BY_JIEBA:
        with pytest.raises(ValueError):
            jieba.Tokenizer.gen_pfdict(io.BytesIO(data))
    else:  # jieba reads it; the segmenter then runs jieba itself
        jieba.Tokenizer.gen_pfdict(io.BytesIO(data))


@pytest.mark.parametrize("sources, error", [
    ((b"P={'B': -1.0}\n", None, None), "prob_start.py: no number for state M"),
    ((b"P = {'B': -1.0, 'M': -1, 'E': -1, 'S': -1}\n", b"P={}", None), "prob_trans.py: no table for state B"),
    ((b"P={'B': x}", None, None), "prob_start.py: expected a number or a dict"),
    ((None, None, b"import os\nP={}"), "prob_emit.py: expected 'P ='"),
    ((None, None, b"P={'B': {'\\N{CJK UNIFIED IDEOGRAPH-4E00}': -1.0}}"), "prob_emit.py: an escape other than"),
    ((None, b"P={'B': {'E': -1.0}}\nP={}", None), "prob_trans.py: text after the table"),
])
def test_hmm_tables_it_cannot_read(sources, error):
    got = [s if s is not None else d for s, d in zip(sources, jieba_tables())]
    with pytest.raises(ValueError, match=re.escape("HMM tables: " + error)):
        core.kernels("native").jieba_load(b"a 1\n", *got, jieba_native.MIN_FLOAT)


def test_a_patched_jieba_is_not_reproduced(tmp_path):
    copy = tmp_path / "jieba"
    shutil.copytree(FOLDER, copy, ignore=shutil.ignore_patterns("__pycache__", "lac_small", "analyse", "posseg"))
    assert jieba_native.source_version(str(copy)) == "0.42.1"
    with open(copy / "finalseg" / "__init__.py", "a", encoding="utf-8") as fh:
        fh.write("\n# patched\n")
    assert jieba_native.source_version(str(copy)) is None
    with pytest.raises(jieba_native.Unavailable, match="is not one it reproduces"):
        jieba_native.native_model(str(copy))


# ------------------------------------------------------------------------------------------ the segmenter
def test_the_segmenter_is_native_and_names_the_dictionary(monkeypatch):
    monkeypatch.delenv(jieba_native.ENV_VAR, raising=False)
    seg = segment.JiebaSegmenter()
    assert seg("他来到了网易杭研大厦") == tuple(jieba.lcut("他来到了网易杭研大厦"))
    assert seg.implementation == "native"
    digest = jieba_native.dictionary_digest(Path(FOLDER, "dict.txt").read_bytes())
    assert seg.describe() == f"jieba({jieba.__version__},dict={digest})"
    monkeypatch.setenv(jieba_native.ENV_VAR, "python")
    seg_py = segment.JiebaSegmenter()
    assert seg_py("他来到了网易杭研大厦") == seg("他来到了网易杭研大厦")
    assert seg_py.implementation == "jieba" and seg_py.describe() == seg.describe()


def test_the_environment_chooses(monkeypatch):
    monkeypatch.setenv(jieba_native.ENV_VAR, "fast")
    with pytest.raises(ValueError, match="ROUGE_METRIC_JIEBA: invalid value 'fast'; allowed: auto, native, python"):
        segment.JiebaSegmenter().fn
    monkeypatch.setenv(jieba_native.ENV_VAR, "native")
    monkeypatch.setenv("ROUGE_METRIC_BACKEND", "python")
    with pytest.raises(segment.SegmenterError, match="ROUGE_METRIC_JIEBA=native, but .*ROUGE_METRIC_BACKEND=python"):
        segment.JiebaSegmenter().fn
    monkeypatch.setenv(jieba_native.ENV_VAR, "auto")
    seg = segment.JiebaSegmenter()
    assert seg("今天天气很好") == tuple(jieba.lcut("今天天气很好")) and seg.implementation == "jieba"


CHANGES = {
    "total": lambda mp: mp.setattr(jieba.dt, "total", jieba.dt.total + 1),
    "FREQ": lambda mp: mp.setattr(jieba.dt, "FREQ", dict(jieba.dt.FREQ, 没有这个词的词=5)),
    "force split": lambda mp: mp.setattr(jieba.finalseg, "Force_Split_Words", {"北京"}),
    "dictionary": lambda mp: mp.setattr(jieba.dt, "dictionary", "/elsewhere/dict.txt"),
    "re_han_default": lambda mp: mp.setattr(jieba, "re_han_default",  # the hack that keeps spaces in words
                                            re.compile("([\u4E00-\u9FD5a-zA-Z0-9+#&\\._% ]+)", re.U)),
    "re_skip_default": lambda mp: mp.setattr(jieba, "re_skip_default", re.compile("(\r\n|\n)", re.U)),
    "finalseg.re_han": lambda mp: mp.setattr(jieba.finalseg, "re_han", re.compile("([\u4E00-\u9FFF]+)")),
    "finalseg.re_skip": lambda mp: mp.setattr(jieba.finalseg, "re_skip", re.compile("([a-zA-Z0-9]+)")),
    "emit_P": lambda mp: mp.setattr(jieba.finalseg, "emit_P", dict(jieba.finalseg.emit_P, B={})),
    "cut": lambda mp: mp.setattr(jieba, "cut", lambda text, *a, **k: iter([text])),
    "dt": lambda mp: mp.setattr(jieba, "dt", jieba.Tokenizer()),
}
PROBLEMS = {"total": "word table has", "FREQ": "word table has", "force split": "forces 1 word",
            "dictionary": "dictionary is '/elsewhere", "re_han_default": "jieba.re_han_default is not",
            "re_skip_default": "jieba.re_skip_default", "finalseg.re_han": "jieba.finalseg.re_han",
            "finalseg.re_skip": "jieba.finalseg.re_skip", "emit_P": "finalseg.emit_P is not",
            "cut": "jieba.cut is not", "dt": "jieba.cut is not"}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_changed_jieba_is_refused(change, monkeypatch):
    monkeypatch.delenv(jieba_native.ENV_VAR, raising=False)
    seen = segment.JiebaSegmenter()
    before = seen("今天天气很好")
    assert before == tuple(jieba.lcut("今天天气很好"))
    CHANGES[change](monkeypatch)
    problem = re.escape(PROBLEMS[change])
    changed = f"jieba's default tokenizer was changed in this process: .*{problem}"
    with pytest.raises(segment.SegmenterError, match=changed):
        seen("北京欢迎你")
    assert seen("今天天气很好") == before  # segmented before the change: its cached words (the definition's)
    with pytest.raises(segment.SegmenterError, match=problem):
        segment.JiebaSegmenter().describe()
    with pytest.raises(segment.SegmenterError, match=problem):
        Rouge(["rouge1"], tokenizer="jieba").score(prediction="北京欢迎你们", references="北京欢迎我们")
    monkeypatch.undo()
    assert seen("北京欢迎你") == tuple(jieba.lcut("北京欢迎你"))


def test_without_the_native_core_the_word_table_is_compared_by_total(monkeypatch):
    total = jieba_native.dictionary_total(Path(FOLDER, "dict.txt").read_bytes())
    assert total == jieba.dt.total
    monkeypatch.setattr(jieba_native, "reference", lambda folder: (total, None))
    assert jieba_native.state_problem(jieba, FOLDER, True) is None
    monkeypatch.setattr(jieba.dt, "total", total + 3)
    assert "where its dictionary gives a total of" in jieba_native.state_problem(jieba, FOLDER, True)


def test_an_unchanged_jieba_is_not_refused(monkeypatch, tmp_path):
    seg = segment.JiebaSegmenter()
    monkeypatch.setattr(jieba.dt, "tmp_dir", str(tmp_path))  # where jieba keeps its cache: not its dictionary
    monkeypatch.setattr(jieba, "re_han_default", re.compile(jieba.re_han_default.pattern, re.U))  # equal copies
    monkeypatch.setattr(jieba.finalseg, "emit_P", {k: dict(v) for k, v in jieba.finalseg.emit_P.items()})
    assert seg("北京欢迎你") == tuple(jieba.lcut("北京欢迎你"))


# ------------------------------------------------------------------------- jieba's API in fresh processes
API_CHANGES = {
    "add_word": "jieba.add_word('杭研大厦')",
    "del_word": "jieba.del_word('北京')",
    "suggest_freq split": "jieba.suggest_freq(('中', '将'), True)",
    "suggest_freq join": "jieba.suggest_freq('台中', True)",
    "load_userdict": "jieba.load_userdict(io.StringIO('云计算 5\\n创新办 3 i\\n'))",
    "set_dictionary": "jieba.set_dictionary(os.path.join(FOLDER, 'dict.txt'))",
    "initialize with a path": "jieba.initialize(os.path.join(FOLDER, 'dict.txt'))",
}


def run_python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    env.pop(jieba_native.ENV_VAR, None)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          cwd=str(REPO), timeout=300)


@pytest.mark.integration
@pytest.mark.parametrize("change", sorted(API_CHANGES))
def test_jiebas_api_changes_are_refused(change):
    run = run_python(f"""
        import io, os
        import jieba
        jieba.setLogLevel(40)
        from rouge_metric import segment
        from rouge_metric.jieba_native import jieba_folder
        FOLDER = jieba_folder()
        seg = segment.raw_segmenter("jieba")
        assert seg("今天天气很好") == tuple(jieba.lcut("今天天气很好"))
        {API_CHANGES[change]}
        try:
            seg("北京欢迎你")
        except segment.SegmenterError as exc:
            print("REFUSED", exc)
        else:
            print("ACCEPTED")
    """)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "REFUSED tokenizer='jieba': jieba's default tokenizer was changed in this process" in run.stdout


@pytest.mark.integration
def test_a_process_that_never_imports_jieba_does_not_load_it():
    run = run_python("""
        import sys
        from rouge_metric import Rouge
        r = Rouge(["rouge1"], tokenizer="jieba")
        print(r.score(prediction="今天北京的天气很好", references="今天北京天气不错")["rouge1"].fmeasure)
        print("jieba" in sys.modules)
    """)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["0.6", "False"]
