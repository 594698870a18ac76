"""Build of the compiled kernels ``rouge_metric._native`` (everything else is in pyproject.toml).

The lowercasing table of the tokenizer is generated at build time from the building Python's
``str.lower()`` (rouge_metric/_native_src/gen_lower_table.py). The package still imports and works
(pure-Python backend) when the extension is absent.

Sanitizer builds (development only; see docs/native.md): ``ROUGE_METRIC_SANITIZE=address`` builds the
extension with AddressSanitizer + UndefinedBehaviorSanitizer, ``ROUGE_METRIC_SANITIZE=thread`` with
ThreadSanitizer; both also turn on the core's own checks (``ROUGE_METRIC_CHECKED``: every token id
is checked against the workspace of the thread that uses it). ``python tools/sanitize.py`` builds
them into a separate tree and runs the stress workload under them.

The extension is optional (the pattern RapidFuzz uses): when it cannot be compiled (no C++ compiler,
an unsupported one), the build prints a warning and installs the pure-Python package, which gives the
same numbers more slowly. ``ROUGE_METRIC_REQUIRE_NATIVE=1`` makes a failed compile a hard error; it is
implied by ``CIBUILDWHEEL=1`` (every published wheel carries the extension) and by a sanitizer build.

Compiler flags are chosen per compiler, never by the building machine's CPU: only baseline
instructions of the target (no ``-mpopcnt``/``-march``), so a wheel runs on every CPU of its platform.
The text scan's AVX2 and AVX-512 variants are compiled into the same object, each function marked
with its own target attribute, and chosen at import from cpuid (rouge_metric/_native_src/simd.hpp,
docs/native.md#runtime-cpu-dispatch-simd-levels).
Bit-identical floats need no FMA contraction and no fast-math: GCC/Clang ``-ffp-contract=off
-fno-fast-math``; MSVC ``/fp:precise`` (which never contracts without ``/fp:contract``, and no ``/arch``
flag is given, so x64 builds have no FMA instructions to contract to).
GCC/Clang also get ``-fno-tree-slp-vectorize``: the bit-parallel LCS kernels chain add-with-carry
over a few 64-bit words, which the straight-line vectorizer would move between general and vector
registers at every step (integer code only, so no float changes).
"""

import glob
import os
import re
import subprocess
import sys

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join("rouge_metric", "_native_src")


#: Per compiler family (distutils' ``compiler_type``): optimisation and floating-point flags.
COMPILER_FLAGS = {
    "unix": ["-O3", "-fno-tree-slp-vectorize", "-ffp-contract=off", "-fno-fast-math"],  # GCC and Clang (Linux, macOS)
    "mingw32": ["-O3", "-fno-tree-slp-vectorize", "-ffp-contract=off", "-fno-fast-math"],
    "msvc": ["/O2", "/fp:precise"],  # pybind11 adds /std:c++17 /EHsc /bigobj
}

#: Setting it to 1 makes a failed compile of the extension a hard error (see the module docstring).
REQUIRE_ENV = "ROUGE_METRIC_REQUIRE_NATIVE"


def native_required() -> bool:
    def on(name):
        return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")

    return on(REQUIRE_ENV) or on("CIBUILDWHEEL") or bool(SANITIZE)


FALLBACK_WARNING = """
************************************************************************************************
rouge-metric-hf: the native core (the C++ extension rouge_metric._native) could not be built:
    {error}
Installing the pure-Python package instead: the same numbers, computed much more slowly.
To get the native core, install a prebuilt wheel (pip install --only-binary rouge-metric-hf
rouge-metric-hf) or make a C++17 compiler available (g++/clang++, or MSVC Build Tools on Windows)
and reinstall. Set {env}=1 to make this a hard error.
************************************************************************************************
"""


class BuildExt(build_ext):
    def run(self):
        try:
            gen_dir = os.path.join(self.build_temp, "rouge_metric_gen")
            os.makedirs(gen_dir, exist_ok=True)
            subprocess.check_call([sys.executable, os.path.join(HERE, SRC, "gen_lower_table.py"),
                                   os.path.join(gen_dir, "lower_table.h")])
            subprocess.check_call([sys.executable, os.path.join(HERE, SRC, "gen_xlsum_table.py"),
                                   os.path.join(gen_dir, "xlsum_table.h")])
            for ext in self.extensions:
                ext.include_dirs.insert(0, gen_dir)
            super().run()
        except Exception as exc:  # noqa: BLE001 - any failure of the optional extension
            self._fallback(exc)

    def build_extensions(self):
        kind = self.compiler.compiler_type
        if kind not in COMPILER_FLAGS:
            raise RuntimeError(f"unsupported compiler type {kind!r}; supported: {', '.join(COMPILER_FLAGS)}")
        if (san_compile or san_link) and kind not in ("unix",):
            raise RuntimeError(f"ROUGE_METRIC_SANITIZE needs GCC or Clang, not compiler type {kind!r}")
        for ext in self.extensions:
            if not getattr(ext, "_rouge_flags", False):  # once (an editable build runs this twice)
                # after pybind11's own flags (its -g0 must not override a sanitizer build's -g)
                ext.extra_compile_args = ext.extra_compile_args + COMPILER_FLAGS[kind] + san_compile
                ext.extra_link_args = ext.extra_link_args + san_link
                ext._rouge_flags = True
        super().build_extensions()

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001 - compile or link error of the optional extension
            self._fallback(exc)

    _warned = False

    def _fallback(self, exc):
        if native_required():
            raise
        if BuildExt._warned:  # an editable build runs the command twice
            return
        BuildExt._warned = True
        sys.stderr.write(FALLBACK_WARNING.format(error=f"{type(exc).__name__}: {exc}".strip(), env=REQUIRE_ENV))
        sys.stderr.flush()


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
    depends=sorted(glob.glob(os.path.join(SRC, "**", "*.hpp"), recursive=True)),
    include_dirs=[SRC],
    cxx_std=17,  # on macOS this also sets -mmacosx-version-min=10.14 (aligned new) unless
    # MACOSX_DEPLOYMENT_TARGET is set; see check_macos_target
)


def check_macos_target():
    """``batch.hpp`` allocates an over-aligned type with ``new`` (C++17 aligned allocation), which
    macOS provides from 10.14: refuse an older deployment target with a clear message."""
    target = os.environ.get("MACOSX_DEPLOYMENT_TARGET", "")
    if sys.platform == "darwin" and target:
        parts = tuple(int(p) for p in target.split(".")[:2] if p.isdigit())
        if parts < (10, 14):
            raise SystemExit(f"MACOSX_DEPLOYMENT_TARGET={target}: the native core needs macOS 10.14 or newer")


check_macos_target()
REPOSITORY = "https://github.com/rouge-metric/rouge-metric-hf"


def long_description() -> str:
    """README.md with its relative links made absolute (to the release tag ``v<version>`` of the
    repository), so that they work on the package index's page; anchors and absolute links are kept."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as fh:
        text = fh.read()
    version = {}
    with open(os.path.join(HERE, "rouge_metric", "_version.py"), encoding="utf-8") as fh:
        exec(fh.read(), version)
    base = f"{REPOSITORY}/blob/v{version['__version__']}/"
    return re.sub(r"\]\((?![a-z][a-z0-9+.-]*:|#|/)([^)\s]+)\)", lambda m: f"]({base}{m.group(1)})", text)


setup(
    ext_modules=[ext],
    cmdclass={"build_ext": BuildExt, "build_py": BuildPy},
    long_description=long_description(),
    long_description_content_type="text/markdown",
)
