"""The native core without Python: tests/cpp/kernels_check.cpp (LCS, union-LCS, WLCS, n-gram and
skip-bigram kernels against textbook dynamic programming and brute force on random inputs, and a
threaded text batch) built with the system C++ compiler and run; and the rule that only the binding
layer (bindings.cpp, py_*.hpp) of rouge_metric/_native_src includes Python.h or pybind11."""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "rouge_metric" / "_native_src"
CHECK = REPO / "tests" / "cpp" / "kernels_check.cpp"
BINDING_LAYER = re.compile(r"^(bindings\.cpp|py_\w+\.hpp)$")


def compiler():
    """The C++ compiler the extension is built with (``CXX``, else the interpreter's), or None."""
    for cxx in (os.environ.get("CXX"), sysconfig.get_config_var("CXX"), "c++", "g++", "clang++"):
        if cxx and shutil.which(cxx.split()[0]):
            return cxx.split()[0]
    return None


def test_only_the_binding_layer_touches_cpython():
    core = [p for p in sorted(SRC.rglob("*")) if p.suffix in (".hpp", ".cpp") and not BINDING_LAYER.match(p.name)]
    assert {p.name for p in core} >= {"common.hpp", "text.hpp", "vocab.hpp", "scoring.hpp", "batch.hpp", "ids.hpp",
                                      "kernels_lcs.hpp", "kernels_ngram.hpp", "kernels_wlcs.hpp", "stemmers.hpp",
                                      "snowball_english.hpp", "turkish_stemmer.hpp"}
    cpython = re.compile(r"#\s*include\s*[<\"](Python\.h|pybind11/)|\bPy[A-Z_]\w*\(|\bPyObject\b|\bpy::")
    offenders = {p.name: m.group(0) for p in core for m in [cpython.search(p.read_text())] if m}
    assert offenders == {}, f"core headers that touch CPython (only bindings.cpp and py_*.hpp may): {offenders}"


def test_kernels_against_textbook_dp_in_plain_cpp(tmp_path):
    cxx = compiler()
    if cxx is None:
        pytest.skip("no C++ compiler found (CXX, the interpreter's CXX, c++, g++ or clang++): the C++ kernel check "
                    "needs one")
    subprocess.run([sys.executable, str(SRC / "gen_lower_table.py"), str(tmp_path / "lower_table.h")], check=True)
    exe = tmp_path / "kernels_check"
    build = subprocess.run([cxx, "-std=c++17", "-O1", "-ffp-contract=off", "-fno-fast-math", "-pthread",
                            f"-I{SRC}", f"-I{tmp_path}", str(CHECK), "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, f"{cxx} failed on {CHECK}:\n{build.stderr[-5000:]}"
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"kernels_check failed:\n{run.stdout}\n{run.stderr[-5000:]}"
    assert re.search(r"\d+ checks, 0 failures", run.stdout), run.stdout
