"""The harness recipes against the real harnesses: install the ``harness-tests`` extra in a venv of its own
and run the harness tests there, failing when any of them skipped for a missing package.

    python tools/check_harnesses.py            # reuse build/harness-venv when it exists
    python tools/check_harnesses.py --fresh    # delete it first
    python tools/check_harnesses.py --prepare  # only create and fill the venv (no tests)

The venv (``build/harness-venv``, ``--system-site-packages``: torch, transformers, datasets, the test
oracles of this interpreter stay visible) gets the project's requirements and its ``harness-tests`` extra
(lm-eval, lighteval, mlflow-skinny, the ``rouge`` package...), read from pyproject.toml. lighteval pins
nltk, so it lives in that venv only, not in the main environment. The project itself is not installed
there again (that would compile the native core once more): ``TESTS`` run with the venv's Python from the
repository root, which imports this checkout's package, built in place by the README's editable install;
the check first makes sure that the venv imports it from this checkout with its native core. A test
skipped because an import failed (``pytest.importorskip``: "could not import ...") fails the check: here
the harnesses' own code must run, not skip. Other skips (a corpus of ../shared that is absent) are listed
and allowed. Run by ``.ci/run``.
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
#: Tests of those files whose oracles are not harness packages (evaluate, torchmetrics, rouge-score, HELM's
#: recreated code: all in the ``test`` extra). The README's tiers run them in the main environment, so the
#: venv skips them (``-k``); every other test of ``TESTS`` runs there, a new one included.
ELSEWHERE = ["test_evaluate_rouge", "test_torchmetrics", "test_helm_matches_recreation",
             "test_recipes_aggregator_matches_rouge_score_aggregator", "test_recipes_refuse_what_they_cannot_honour",
             "test_pltrdy_max_backtrack_gives_zero_like_a_recursion_error"]
#: The extra whose packages the venv gets, with the project's own requirements.
EXTRA = "harness-tests"
#: How ``pytest.importorskip`` words its skip reason.
IMPORT_SKIP = "could not import"


def run(cmd, **kw) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run(cmd, **kw).returncode


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def requirements() -> list:
    """The project's requirements and those of its ``EXTRA``, as pyproject.toml lists them."""
    try:
        import tomllib
    except ImportError:  # Python 3.10: tomli, which pytest needs there
        import tomli as tomllib
    with open(REPO / "pyproject.toml", "rb") as fh:
        project = tomllib.load(fh)["project"]
    return list(project["dependencies"]) + list(project["optional-dependencies"][EXTRA])


#: Run with the venv's Python from the repository root, as the tests are: the package must be this
#: checkout's, with its native core (built in place by the editable install).
IMPORT_CHECK = """
import pathlib, sys
import rouge_metric, rouge_metric._native
root = pathlib.Path(sys.argv[1]).resolve()
where = pathlib.Path(rouge_metric.__file__).resolve()
if root not in where.parents:
    sys.exit(f"rouge_metric is imported from {where}, not from this checkout {root}")
"""


def make_venv(fresh: bool) -> bool:
    if fresh and VENV.exists():
        shutil.rmtree(VENV)
    if not venv_python().exists():
        if run([sys.executable, "-m", "venv", "--system-site-packages", str(VENV)]) != 0:
            return False
    py = str(venv_python())
    pip = [py, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    return run(pip + requirements(), cwd=REPO) == 0


def imports_checkout() -> bool:
    if run([str(venv_python()), "-c", IMPORT_CHECK, str(REPO)], cwd=REPO) == 0:
        return True
    print("check_harnesses: FAILED: the venv does not import this checkout's rouge_metric with its native core; "
          'install the checkout first (pip install -e ".[test]")', flush=True)
    return False


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
    ap.add_argument("--prepare", action="store_true", help="only create and fill the venv; run no test")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    ok = make_venv(args.fresh)
    t_install = time.monotonic() - t0
    if not ok:
        print(f"check_harnesses: FAILED: installing the {EXTRA} extra into {VENV} ({t_install:.0f} s)", flush=True)
        return 1
    if args.prepare:
        print(f"check_harnesses: {VENV} ready ({t_install:.0f} s)", flush=True)
        return 0
    if not imports_checkout():
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        junit = Path(tmp) / "junit.xml"
        rc = run([str(venv_python()), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "", "-rs",
                  "-k", "not (" + " or ".join(ELSEWHERE) + ")", f"--junitxml={junit}", *TESTS], cwd=REPO)
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
