"""Build of the compiled kernels ``rouge_metric._native`` (everything else is in pyproject.toml).

The lowercasing table of the tokenizer is generated at build time from the building Python's
``str.lower()`` (rouge_metric/_native_src/gen_lower_table.py). The package still imports and works
(pure-Python backend) when the extension is absent.

Sanitizer builds (development only; see docs/native.md): ``ROUGE_METRIC_SANITIZE=address`` builds the
extension with AddressSanitizer + UndefinedBehaviorSanitizer, ``ROUGE_METRIC_SANITIZE=thread`` with
ThreadSanitizer; both also turn on the core's own checks (``ROUGE_METRIC_CHECKED``: every token id
is checked against the workspace of the thread that uses it). ``python tools/sanitize.py`` builds
them into a separate tree and runs the stress workload under them.
"""

import glob
import os
import platform
import subprocess
import sys

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join("rouge_metric", "_native_src")


class BuildExt(build_ext):
    def run(self):
        gen_dir = os.path.join(self.build_temp, "rouge_metric_gen")
        os.makedirs(gen_dir, exist_ok=True)
        subprocess.check_call([sys.executable, os.path.join(HERE, SRC, "gen_lower_table.py"),
                               os.path.join(gen_dir, "lower_table.h")])
        for ext in self.extensions:
            ext.include_dirs.insert(0, gen_dir)
        super().run()


class BuildPy(build_py):
    """Ship the Hub metric card (hub_card.md, kept at the repository root) inside the built package,
    so ``rouge-metric export-space`` also works from a wheel."""

    def run(self):
        super().run()
        card = os.path.join(HERE, "hub_card.md")
        if os.path.exists(card) and not self.editable_mode:
            self.copy_file(card, os.path.join(self.build_lib, "rouge_metric", "hub_card.md"))


SANITIZERS = {
    "": ([], []),
    "address": (["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer",
                 "-g", "-O1", "-D_GLIBCXX_ASSERTIONS", "-DROUGE_METRIC_CHECKED=1"],
                ["-fsanitize=address,undefined"]),
    "thread": (["-fsanitize=thread", "-g", "-O1", "-DROUGE_METRIC_CHECKED=1"], ["-fsanitize=thread"]),
}
SANITIZE = os.environ.get("ROUGE_METRIC_SANITIZE", "").strip().lower()
if SANITIZE not in SANITIZERS:
    raise SystemExit(f"ROUGE_METRIC_SANITIZE: invalid value {SANITIZE!r}; allowed: address, thread (or unset)")
san_compile, san_link = SANITIZERS[SANITIZE]

ext = Pybind11Extension(
    "rouge_metric._native",
    [os.path.join(SRC, "bindings.cpp")],
    depends=sorted(glob.glob(os.path.join(SRC, "*.hpp"))),
    include_dirs=[SRC],
    cxx_std=17,
    # Bit-identical floats: no FMA contraction, no fast-math.
    extra_compile_args=["-O3", "-ffp-contract=off", "-fno-fast-math"]
    # Hardware popcount for the bit-parallel LCS (every x86-64 CPU since 2008 has it).
    + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else [])
    + san_compile,
    extra_link_args=san_link,
)

setup(ext_modules=[ext], cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
