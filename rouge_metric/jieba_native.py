"""jieba's ``jieba.cut`` for the ``jieba`` segmenter: the native twin, and the guard on jieba's state.

The ``jieba`` segmenter of :mod:`rouge_metric.segment` is ``list(jieba.cut(text))`` of the installed jieba
with its default dictionary and the HMM on. Two implementations give it, with the same tokens:

- **native**: the C++ twin of jieba 0.42.1's cut (``rouge_metric/_native_src/jieba.hpp``), with the
  dictionary (``dict.txt``) and HMM tables (``finalseg/prob_*.py``) read from the installed jieba's folder,
  found without importing jieba: it loads in a fraction of jieba's time and segments many times faster
  (docs/performance.md). Used when the native core is built and not switched off
  (``ROUGE_METRIC_BACKEND=python``) and the two source files whose code it reproduces,
  ``jieba/__init__.py`` and ``jieba/finalseg/__init__.py``, are byte for byte those of a version listed in
  :data:`JIEBA_SOURCES` (a patched or other jieba gets jieba itself);
- **jieba**: jieba itself, otherwise.

``ROUGE_METRIC_JIEBA`` chooses: ``auto`` (the default: native when it can), ``python`` (jieba itself),
``native`` (the native twin, or a :class:`~rouge_metric.segment.SegmenterError` saying why not).

**jieba's state.** ``jieba.cut`` follows whatever the process did to jieba's default tokenizer:
``jieba.load_userdict``, ``add_word``, ``del_word``, ``suggest_freq(..., tune=True)``,
``set_dictionary``, a cache file built from another dictionary, jieba's regular expressions replaced. The
``jieba`` segmenter means jieba's default dictionary as installed, which its signature names by digest
(``jieba(0.42.1,dict=sha256:...)``). When jieba is imported and its default tokenizer is not in that
state, segmenting a new text raises :class:`~rouge_metric.segment.SegmenterError` naming what differs,
whichever implementation runs (:func:`state_problem`; a scorer with such a process state fails when it is
built). We refuse rather than follow jieba's changes because numbers and caches must match their signature:
following would make ``tokenizer="jieba"`` mean whatever the process last did to jieba, while the signature
(built with the scorer) and the caches of segmented and tokenized texts (kept for the whole process) would
still stand for what it was. To segment with a changed jieba, give its function as the tokenizer, e.g.
``segment=jieba.lcut`` in the harness recipes or ``callable_tokenizer=jieba.lcut`` in the XL-Sum recipe.

What the guard sees: jieba's default tokenizer (``jieba.dt``) given another dictionary, its word table of
another size or total (every change through jieba's API adds to the total, or to finalseg's forced
splits: ``del_word``, ``add_word(word, 0)``; without the native core, the total only), finalseg's forced
splits, jieba's and finalseg's regular
expressions (compared by pattern), finalseg's HMM tables replaced by tables of other values, ``jieba.cut``
replaced (``enable_parallel`` too). Not seen: a value written straight into ``jieba.dt.FREQ`` (without
changing its size) or into one of finalseg's tables, and jieba's functions replaced by others.

Costs: the check is O(1) per new text (a tuple of jieba's attributes compared with the last one
checked); the native model loads once per process, O(dictionary bytes), shared by every caller.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import threading
from typing import Any, Dict, Optional, Tuple

#: The jieba versions the native segmenter reproduces: version -> sha256 of the source files whose code
#: it mirrors, ``jieba/__init__.py`` and ``jieba/finalseg/__init__.py``, as the release ships them.
JIEBA_SOURCES: Dict[str, Tuple[str, str]] = {
    "0.42.1": ("b47cefcfd0bf683b0c708c1de0328df83be2c35264637c442106e79d739fb7f3",
               "2168475bf522c0dae9d0a5e2bcb63c11b8c15931a622035cb8905d1e77e94f84"),
}

#: ``auto`` | ``native`` | ``python``: which implementation gives the ``jieba`` segmenter.
ENV_VAR = "ROUGE_METRIC_JIEBA"
MODES = ("auto", "native", "python")

#: finalseg.MIN_FLOAT of those versions: the log probability of an entry the HMM tables do not have.
MIN_FLOAT = -3.14e100

#: jieba 0.42.1's regular expressions (pattern, flags): cut's blocks and spaces, finalseg's blocks and pieces.
PATTERNS = {
    "re_han_default": ("([\u4E00-\u9FD5a-zA-Z0-9+#&\\._%\\-]+)", 32),
    "re_skip_default": ("(\r\n|\\s)", 32),
    "finalseg.re_han": ("([\u4E00-\u9FD5]+)", 32),
    "finalseg.re_skip": ("([a-zA-Z0-9]+(?:\\.\\d+)?%?)", 32),
}

_LOCK = threading.Lock()
_MODELS: Dict[str, Tuple[Any, str]] = {}  # folder -> (native JiebaModel, its dictionary's digest)
_REFERENCES: Dict[str, Tuple[int, Optional[int]]] = {}  # folder -> (total, len(FREQ)) of its dict.txt


class Unavailable(Exception):
    """Why the native segmenter cannot stand in for the installed jieba."""


def mode() -> str:
    """The requested implementation (``ROUGE_METRIC_JIEBA``; ValueError naming the allowed values)."""
    value = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if value not in MODES:
        raise ValueError(f"{ENV_VAR}: invalid value {value!r}; allowed: {', '.join(MODES)}")
    return value


def jieba_folder() -> Optional[str]:
    """The folder of the jieba package that ``import jieba`` would load, found without importing it; None
    when jieba is not installed (or ``sys.modules["jieba"]`` is None)."""
    try:
        spec = importlib.util.find_spec("jieba")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.submodule_search_locations:
        return None
    return os.path.dirname(os.path.abspath(spec.origin))


def _read(folder: str, *parts: str) -> bytes:
    with open(os.path.join(folder, *parts), "rb") as fh:
        return fh.read()


def source_version(folder: str) -> Optional[str]:
    """The version in :data:`JIEBA_SOURCES` whose two source files ``folder`` holds, or None."""
    try:
        digests = (hashlib.sha256(_read(folder, "__init__.py")).hexdigest(),
                   hashlib.sha256(_read(folder, "finalseg", "__init__.py")).hexdigest())
    except OSError:
        return None
    for version, known in JIEBA_SOURCES.items():
        if digests == known:
            return version
    return None


def dictionary_digest(data: bytes) -> str:
    """How the signature names a dictionary: ``sha256:`` and the first 8 hex digits of its bytes' digest."""
    return "sha256:" + hashlib.sha256(data).hexdigest()[:8]


def native_core() -> Any:
    """The compiled core, ``rouge_metric._native``; :class:`Unavailable` when ``ROUGE_METRIC_BACKEND=python``
    forces the pure-Python backend or the extension is not available (:mod:`rouge_metric.core` decides)."""
    from . import core

    if core.get_backend() != "native":
        why = "ROUGE_METRIC_BACKEND=python" if core.requested_backend() == "python" else "the extension is not built"
        raise Unavailable(f"the native core is not in use ({why})")
    return core.kernels("native")


def native_model(folder: str) -> Tuple[Any, str]:
    """The native model of the jieba in ``folder`` (loaded once per process, shared) and its dictionary's
    digest; :class:`Unavailable` saying why it cannot be used."""
    native = native_core()
    with _LOCK:
        got = _MODELS.get(folder)
        if got is not None:
            return got
        if source_version(folder) is None:
            raise Unavailable(
                f"the jieba at {folder} is not one it reproduces (the sha256 of jieba/__init__.py and "
                f"jieba/finalseg/__init__.py are not those of jieba {', '.join(JIEBA_SOURCES)})")
        try:
            data = _read(folder, "dict.txt")
            tables = [_read(folder, "finalseg", f"prob_{t}.py") for t in ("start", "trans", "emit")]
        except OSError as exc:
            raise Unavailable(f"jieba's files cannot be read ({exc})") from None
        try:
            model = native.jieba_load(data, *tables, MIN_FLOAT)
        except ValueError as exc:
            raise Unavailable(f"jieba's tables are not read as jieba reads them: {exc}") from None
        got = _MODELS[folder] = (model, dictionary_digest(data))
        _REFERENCES[folder] = (model.total, model.size)
        return got


def dictionary_total(data: bytes) -> int:
    """jieba's total (``gen_pfdict``'s) of the bytes of a dictionary, in Python: the reference of the guard
    without the native core. ValueError on a line jieba refuses. O(bytes)."""
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()  # the end of the last line, not a line
    total = 0
    for lineno, line in enumerate(lines, 1):
        try:
            total += int(line.strip().decode("utf-8").split(" ")[1])
        except (ValueError, IndexError):
            raise ValueError(f"invalid dictionary entry at line {lineno}: {line[:80]!r}") from None
    return total


def reference(folder: str) -> Tuple[int, Optional[int]]:
    """``(total, len(FREQ))`` of jieba's default tokenizer loaded from ``folder``'s dict.txt, once per
    process; without the native core, ``(total, None)`` (counting FREQ's keys, every prefix of every word,
    would take Python longer than jieba takes to load)."""
    with _LOCK:
        got = _REFERENCES.get(folder)
    if got is not None:
        return got
    try:
        model = native_model(folder)[0]
        return model.total, model.size
    except Unavailable:
        total = dictionary_total(_read(folder, "dict.txt"))
        with _LOCK:
            return _REFERENCES.setdefault(folder, (total, None))


# --------------------------------------------------------------------------------------- the guard
def fingerprint(jb: Any) -> Tuple[Any, ...]:
    """Everything :func:`state_problem` reads of the imported jieba module ``jb``, to compare with the
    last state checked. O(1)."""
    dt = jb.dt
    fs = jb.finalseg
    tables = (fs.start_P, fs.trans_P, fs.emit_P)
    # the tables by identity (a replaced table is compared by value once, by state_problem); the tuple
    # holds them, so an id cannot be reused while it is kept
    return (dt.total, len(dt.FREQ), dt.initialized, dt.dictionary, len(fs.Force_Split_Words),
            tuple(map(id, tables)), jb, jb.cut, dt, jb.re_han_default, jb.re_skip_default, fs.re_han, fs.re_skip,
            tables)


def state_problem(jb: Any, folder: str, known: bool) -> Optional[str]:
    """What makes the imported jieba module ``jb`` differ from jieba's pristine default tokenizer loaded
    from ``folder``, or None when nothing does. ``known``: the installed sources are a version of
    :data:`JIEBA_SOURCES`, whose regular expressions are compared too."""
    try:
        where = os.path.dirname(os.path.abspath(jb.__file__))
        if where != folder:
            return f"the imported jieba is the one at {where}, not the installed one at {folder}"
        dt, fs = jb.dt, jb.finalseg
        cut = jb.cut
        if getattr(cut, "__self__", None) is not dt or getattr(cut, "__func__", None) is not jb.Tokenizer.cut:
            return "jieba.cut is not the default tokenizer's cut (replaced, or jieba.enable_parallel)"
        if dt.dictionary is not None:
            return f"the default tokenizer's dictionary is {dt.dictionary!r} (jieba.set_dictionary)"
        if fs.Force_Split_Words:
            return (f"jieba.finalseg forces {len(fs.Force_Split_Words)} word(s) apart (jieba.del_word, or "
                    "add_word or suggest_freq with frequency 0)")
        if dt.initialized:
            total, size = reference(folder)
            if dt.total != total or (size is not None and len(dt.FREQ) != size):
                want = f"{size} of total {total}" if size is not None else f"a total of {total}"
                return (f"the default tokenizer's word table has {len(dt.FREQ)} entries of total frequency "
                        f"{dt.total}, where its dictionary gives {want} (jieba.add_word, load_userdict, "
                        "suggest_freq(tune=True), or a cache file of another dictionary)")
        for name, module in (("start_P", "prob_start"), ("trans_P", "prob_trans"), ("emit_P", "prob_emit")):
            mod, table = sys.modules.get(f"jieba.finalseg.{module}"), getattr(fs, name)
            if mod is None or (table is not getattr(mod, "P", None) and table != getattr(mod, "P", None)):
                return f"jieba.finalseg.{name} is not the table of jieba.finalseg.{module}"
        if known:
            for name, (pattern, flags) in PATTERNS.items():
                owner, attr = (fs, name[9:]) if name.startswith("finalseg.") else (jb, name)
                rx = getattr(owner, attr)
                if (getattr(rx, "pattern", None), getattr(rx, "flags", None)) != (pattern, flags):
                    return f"jieba.{name} is not jieba's expression {pattern!r}"
    except AttributeError as exc:
        return f"the imported jieba module is not jieba's package ({exc})"
    return None
