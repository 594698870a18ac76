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
the same floats there, and its numbers must equal this interpreter's to the last bit. Run by ``.ci/run``.
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


def run(cmd, **kw) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def oracle_requirements() -> list:
    """Test oracles at the versions of this interpreter's (so every interpreter compares against the same)."""
    from importlib import metadata

    reqs = ["pytest", "hypothesis", "numpy", "setuptools>=77,<85", "wheel", "pybind11>=2.10,<4"]
    for name in ("rouge-score", "nltk"):
        reqs.append(f"{name}=={metadata.version(name)}")
    return reqs


def check(version: str, python: str, numbers_ref: Path, keep: bool) -> bool:
    env_dir = REPO / "build" / "interpreters" / version
    vpy = env_dir / "bin" / "python"
    t0 = time.time()
    if not vpy.exists():
        run([python, "-m", "venv", str(env_dir)])
    run([str(vpy), "-m", "pip", "install", "-q", "--disable-pip-version-check", *oracle_requirements()])
    # A regular install (not editable): the extension is compiled for this interpreter and the tests
    # import the installed package, never the source tree.
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(REPO, src, ignore=shutil.ignore_patterns("build", ".git", "*.so", "__pycache__", ".venv",
                                                                  "*.egg-info", ".hypothesis", ".pytest_cache"))
        run([str(vpy), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
             "--no-build-isolation", "--force-reinstall", str(src)])
    env = dict(os.environ, ROUGE_METRIC_REQUIRE_NATIVE="1", HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1")
    env.pop("PYTHONPATH", None)
    where = subprocess.run([str(vpy), "-c", "import rouge_metric, rouge_metric.core as c; "
                            "print(rouge_metric.__file__); assert c.native_available(), 'no native extension'"],
                           cwd=tempfile.gettempdir(), env=env, capture_output=True, text=True)
    if where.returncode != 0 or not where.stdout.strip().startswith(str(env_dir)):
        print(f"check_interpreters: {version}: the installed package is not importable with its extension:\n"
              f"{where.stdout}{where.stderr}", file=sys.stderr)
        return False
    tests = [str(REPO / t) for t in TESTS]
    pytest = subprocess.run([str(env_dir / "bin" / "pytest"), "-q", "-p", "no:cacheprovider", "--rootdir", str(REPO),
                             "-c", str(REPO / "pyproject.toml"), *tests], cwd=tempfile.gettempdir(), env=env)
    out = env_dir / "numbers.json"
    check = str(REPO / "tools" / "backend_check.py")
    agree = subprocess.run([str(vpy), check, "--require-native", "--corpora"], cwd=tempfile.gettempdir(), env=env)
    emit = subprocess.run([str(vpy), check, "--emit", "python", "--corpora", "--out", str(out)],
                          cwd=tempfile.gettempdir(), env=env)
    same = subprocess.run([sys.executable, check, "--compare", str(numbers_ref), str(out)]) if emit.returncode == 0 else emit
    ok = pytest.returncode == 0 and agree.returncode == 0 and same.returncode == 0
    print(f"check_interpreters: Python {version} ({python}): tests {'passed' if pytest.returncode == 0 else 'FAILED'}, "
          f"backends {'agree' if agree.returncode == 0 else 'DIFFER'}, numbers "
          f"{'identical to this interpreter' if same.returncode == 0 else 'DIFFERENT'} "
          f"({time.time() - t0:.0f} s)", flush=True)
    if not keep:
        shutil.rmtree(env_dir, ignore_errors=True)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", action="append", metavar="X.Y", help="only these versions (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the interpreters found and exit")
    ap.add_argument("--keep", action="store_true", help="keep build/interpreters/<version> (faster reruns)")
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
    if subprocess.run([sys.executable, str(REPO / "tools" / "backend_check.py"), "--emit", "python", "--corpora",
                       "--out", str(ref)], env=env).returncode != 0:
        return 1
    results = {v: check(v, p, ref, args.keep) for v, p in found.items() if p}
    print("check_interpreters: " + ", ".join(f"{v} {'ok' if ok else 'FAILED'}" for v, ok in results.items())
          + (f"; not present: {', '.join(v for v, p in found.items() if not p)}" if not all(found.values()) else ""))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
