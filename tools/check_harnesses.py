"""The harness recipes against the real harnesses: install the ``harness-tests`` extra in a venv of its own
and run the harness tests there, failing when any of them skipped for a missing package.

    python tools/check_harnesses.py            # reuse build/harness-venv when it exists
    python tools/check_harnesses.py --fresh    # delete it first

The venv (``build/harness-venv``, ``--system-site-packages``: torch, transformers, datasets, the test
oracles of this interpreter stay visible) gets ``setuptools`` (the build backend's range) and an editable
install of this checkout with ``.[harness-tests]`` (lm-eval, lighteval, mlflow-skinny, the ``rouge``
package...). lighteval pins nltk, so it lives in that venv only, not in the main environment. ``TESTS``
then run with the venv's Python from the repository root. A test skipped because an import failed
(``pytest.importorskip``: "could not import ...") fails the check: here the harnesses' own code must run,
not skip. Other skips (a corpus of ../shared that is absent) are listed and allowed. Run by ``.ci/run``.
Exit status: 0 when the tests passed with no import skip, 1 otherwise. Prints the time taken.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / "build" / "harness-venv"
#: The tests whose oracles are the harness packages of the ``harness-tests`` extra.
TESTS = ["tests/test_harnesses.py", "tests/test_hub_results.py", "tests/test_harness_examples.py"]
#: The build backend's range (pyproject.toml [build-system]); the editable install builds without isolation.
BUILD_REQUIRES = ["setuptools>=77,<85", "pybind11>=2.10,<4"]
#: How ``pytest.importorskip`` words its skip reason.
IMPORT_SKIP = "could not import"


def run(cmd, **kw) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run(cmd, **kw).returncode


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def make_venv(fresh: bool) -> bool:
    if fresh and VENV.exists():
        shutil.rmtree(VENV)
    if not venv_python().exists():
        if run([sys.executable, "-m", "venv", "--system-site-packages", str(VENV)]) != 0:
            return False
    py = str(venv_python())
    pip = [py, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    return (run(pip + BUILD_REQUIRES) == 0
            and run(pip + ["--no-build-isolation", "-e", ".[harness-tests]"], cwd=REPO) == 0)


def skips(junit: Path):
    """(test id, reason) of every skipped test in a junit XML report."""
    out = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        for sk in case.findall("skipped"):
            out.append((f"{case.get('classname')}::{case.get('name')}", sk.get("message") or ""))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fresh", action="store_true", help="delete build/harness-venv and create it again")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    ok = make_venv(args.fresh)
    t_install = time.monotonic() - t0
    if not ok:
        print(f"check_harnesses: FAILED: installing .[harness-tests] into {VENV} ({t_install:.0f} s)", flush=True)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        junit = Path(tmp) / "junit.xml"
        rc = run([str(venv_python()), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "", "-rs",
                  f"--junitxml={junit}", *TESTS], cwd=REPO)
        skipped = skips(junit) if junit.exists() else []
    elapsed = time.monotonic() - t0
    missing = [(t, r) for t, r in skipped if r.startswith(IMPORT_SKIP) or "No module named" in r]
    for t, r in skipped:
        print(f"check_harnesses: {'MISSING PACKAGE' if (t, r) in missing else 'skipped (allowed)'}: {t}: {r}")
    print(f"check_harnesses: time {elapsed:.0f} s (venv and install {t_install:.0f} s, "
          f"tests {elapsed - t_install:.0f} s)")
    if rc != 0:
        print(f"check_harnesses: FAILED: pytest exited with {rc}")
        return 1
    if missing:
        print(f"check_harnesses: FAILED: {len(missing)} test(s) skipped for a missing harness package; "
              "the real harnesses must run here")
        return 1
    print(f"check_harnesses: OK ({len(skipped)} allowed skip(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
