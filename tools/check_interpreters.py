"""The same floats on every supported CPython: build the extension for each interpreter present and run
the backend-agreement, parity and kernel tests there, then compare every interpreter's numbers.

    python tools/check_interpreters.py                 # every supported interpreter found but this one
    python tools/check_interpreters.py --python 3.12   # only these versions
    python tools/check_interpreters.py --list          # what would run

For each supported version (``SUPPORTED``) with an interpreter on this machine (``pyenv`` versions,
then ``python3.X`` on PATH), a virtual environment in ``build/interpreters/<version>`` gets the
test oracles (rouge-score, hypothesis, scipy; nltk at the version this interpreter has, so the stems
are comparable) and a regular, non-editable install of this checkout (the extension compiled for that
interpreter). The tests in ``TESTS`` then run against the installed package (from a directory where
the source tree is not importable), ``tools/backend_check.py --corpora`` checks that both backends give
the same floats there, and its numbers must equal this interpreter's to the last bit (computed while the
first environments are set up). The tests are those files' fast tier (``pytest``'s default selection,
``pyproject.toml``); their integration tests (the very long texts of the parity tests) run once, in this
interpreter's ``pytest -m integration``. Two interpreters run at a time (``--jobs``), each logging to
``build/interpreters/<version>.log`` (shown when it fails) and printing the time of each phase (set-up,
build, tests, numbers). Run by ``.ci/run``.
Exit status: 0 when every interpreter present passed, 1 otherwise; versions not present are listed.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The CPython versions the package declares (pyproject.toml requires-python and classifiers).
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
#: Tests that need no Hugging Face stack, torch or network: backend agreement, parity with rouge-score
#: and the ROUGE-1.5.5 golden vectors, kernels against their oracles, the float-order checks.
TESTS = ["tests/test_same_numbers.py", "tests/test_backends.py", "tests/test_parity.py", "tests/test_kernels.py",
         "tests/test_golden.py"]


def find_interpreter(version: str):
    """An interpreter of ``version`` (X.Y): pyenv's newest, else python3.X on PATH, else None."""
    roots = []
    try:
        roots.append(subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        pass
    roots.append(os.path.expanduser("~/.pyenv"))
    for root in roots:
        found = sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", "python")),
                       key=lambda p: [int(x) for x in p.split("/versions/")[1].split("/")[0].split(".") if x.isdigit()])
        found = [p for p in found if "t/" not in p.split("/versions/")[1]]  # not free-threaded builds
        if found:
            return found[-1]
    return shutil.which(f"python{version}")


def run(cmd, log, **kw) -> int:
    """Run ``cmd`` with its output appended to ``log``; its exit status."""
    log.write("+ " + " ".join(str(c) for c in cmd) + "\n")
    log.flush()
    return subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, **kw).returncode


def oracle_requirements() -> list:
    """Test oracles at the versions of this interpreter's (so every interpreter compares against the same)."""
    from importlib import metadata

    reqs = ["pytest", "hypothesis", "numpy", "setuptools>=77,<85", "wheel", "pybind11>=2.10,<4"]
    for name in ("rouge-score", "nltk"):
        reqs.append(f"{name}=={metadata.version(name)}")
    return reqs


def check(version: str, python: str, numbers_ref, keep: bool) -> bool:
    """Build, test and compare one interpreter; its output goes to build/interpreters/<version>.log.

    ``numbers_ref``: a future of this interpreter's numbers file (None when they could not be computed).
    """
    env_dir = REPO / "build" / "interpreters" / version
    vpy = env_dir / "bin" / "python"
    log_path = env_dir.parent / f"{version}.log"
    t0 = time.time()
    phases = []

    def phase(name, start):
        phases.append(f"{name} {time.time() - start:.0f} s")
        return time.time()

    env = dict(os.environ, ROUGE_METRIC_REQUIRE_NATIVE="1", HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1")
    env.pop("PYTHONPATH", None)
    # An empty directory of its own as the children's working directory: the source tree must not be
    # importable, and neither may whatever lies in the shared temporary directory (a stray types.py there
    # would shadow the standard library's module for `python -c`, whose path starts with the cwd).
    with tempfile.TemporaryDirectory() as where, open(log_path, "w", encoding="utf-8") as log:
        status = "set-up failed"
        ok = (vpy.exists() or run([python, "-m", "venv", str(env_dir)], log) == 0) and \
            run([str(vpy), "-m", "pip", "install", "-q", "--disable-pip-version-check", *oracle_requirements()], log) == 0
        t = phase("set-up", t0)
        if ok:
            # A regular install (not editable): the extension is compiled for this interpreter (a failed
            # compile is an error: ROUGE_METRIC_REQUIRE_NATIVE) and the tests import the installed package.
            with tempfile.TemporaryDirectory() as tmp:
                src = Path(tmp) / "src"
                shutil.copytree(REPO, src, ignore=shutil.ignore_patterns("build", ".git", "*.so", "__pycache__", ".venv",
                                                                          "*.egg-info", ".hypothesis", ".pytest_cache"))
                ok = run([str(vpy), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
                          "--no-build-isolation", "--force-reinstall", str(src)], log, env=env) == 0
            t = phase("build", t)
        if ok:
            probe = subprocess.run([str(vpy), "-c", "import rouge_metric, rouge_metric.core as c; "
                                    "print(rouge_metric.__file__); assert c.native_available(), 'no native extension'"],
                                   cwd=where, env=env, capture_output=True, text=True)
            log.write(probe.stdout + probe.stderr)
            ok = probe.returncode == 0 and probe.stdout.strip().startswith(str(env_dir))
            status = "the installed package is not importable with its extension" if not ok else status
        if ok:
            tests = [str(REPO / t) for t in TESTS]
            passed = run([str(env_dir / "bin" / "pytest"), "-q", "-p", "no:cacheprovider", "--rootdir", str(REPO),
                          "-c", str(REPO / "pyproject.toml"), *tests], log, cwd=where, env=env) == 0
            t = phase("tests", t)
            out = env_dir / "numbers.json"
            check_py = str(REPO / "tools" / "backend_check.py")
            agree = run([str(vpy), check_py, "--require-native", "--corpora", "--out", str(out)], log, cwd=where,
                        env=env) == 0
            t = phase("numbers", t)
            ref = numbers_ref.result()
            same = ref is not None and out.exists() and \
                run([sys.executable, check_py, "--compare", str(ref), str(out)], log) == 0
            ok = passed and agree and same
            status = (f"tests {'passed' if passed else 'FAILED'}, backends {'agree' if agree else 'DIFFER'}, "
                      f"numbers {'identical to this interpreter' if same else 'DIFFERENT'}")
    print(f"check_interpreters: Python {version} ({python}): {status} ({time.time() - t0:.0f} s: "
          f"{', '.join(phases)}; log {log_path})", flush=True)
    if not ok:
        sys.stdout.write(log_path.read_text(encoding="utf-8")[-6000:])
    if not keep:
        shutil.rmtree(env_dir, ignore_errors=True)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", action="append", metavar="X.Y", help="only these versions (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the interpreters found and exit")
    ap.add_argument("--keep", action="store_true", help="keep build/interpreters/<version> (faster reruns)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="interpreters at a time (default 2)")
    args = ap.parse_args()
    os.environ["ROUGE_METRIC_REQUIRE_NATIVE"] = "1"  # a wheel build that cannot compile fails, never falls back
    me = f"{sys.version_info[0]}.{sys.version_info[1]}"
    versions = args.python or [v for v in SUPPORTED if v != me]
    found = {v: find_interpreter(v) for v in versions}
    for v, p in found.items():
        print(f"check_interpreters: Python {v}: {p or 'not found (skipped)'}")
    if args.list:
        return 0
    ref = REPO / "build" / "interpreters" / f"numbers-{me}.json"
    ref.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1")

    def reference_numbers():
        """This interpreter's numbers, computed while the other interpreters' environments are set up."""
        t0 = time.time()
        rc = subprocess.run([sys.executable, str(REPO / "tools" / "backend_check.py"), "--corpora", "--out", str(ref)],
                            env=env).returncode
        print(f"check_interpreters: Python {me} (this one): numbers {'written' if rc == 0 else 'FAILED'} "
              f"({time.time() - t0:.0f} s)", flush=True)
        return ref if rc == 0 else None

    # Two interpreters at a time (the tests run on one core each; the compiles overlap the other's tests).
    from concurrent.futures import ThreadPoolExecutor

    present = [(v, p) for v, p in found.items() if p]
    with ThreadPoolExecutor(max_workers=1) as single, \
            ThreadPoolExecutor(max_workers=max(1, min(args.jobs, len(present) or 1))) as pool:
        numbers_ref = single.submit(reference_numbers)
        done = {v: pool.submit(check, v, p, numbers_ref, args.keep) for v, p in present}
        results = {v: f.result() for v, f in done.items()}
    if numbers_ref.result() is None:
        return 1
    print("check_interpreters: " + ", ".join(f"{v} {'ok' if ok else 'FAILED'}" for v, ok in results.items())
          + (f"; not present: {', '.join(v for v, p in found.items() if not p)}" if not all(found.values()) else ""))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
