"""Installing without a compiler: the pure-Python package, the same numbers, one warning.

The extension is optional (setup.py): a failed compile installs the pure-Python package. At run time a
fallback on a platform with native wheels warns once (:class:`rouge_metric.NativeBackendMissingWarning`),
never when the user chose ``ROUGE_METRIC_BACKEND=python``. The expected numbers are the native backend's
in this process (float.hex), so these tests need the built extension.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rouge_metric import core

# Every test starts Python processes (one of them pip): the integration tier.
pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[1]
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
PREDS = ["the cats sat on the mat\nwith hats", "a dog ran quickly", ""]
REFS = [["the cat sat on a mat", "cats with hats sat"], ["the dog runs quick"], ["x"]]

# Scores every example with the default backend; prints the backend, the float.hex of every value and the
# warnings of category NativeBackendMissingWarning (scored twice: the warning must come once).
SCRIPT = textwrap.dedent(f"""
    import json, os, sys, warnings
    if os.environ.get("HIDE_EDITABLE"):  # an editable install's finder would find the checkout's extension
        sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in str(getattr(f, "__module__", ""))]
    warnings.simplefilter("always")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import rouge_metric
        from rouge_metric import Rouge
        for _ in range(2):
            rows = Rouge({TYPES!r}, use_stemmer=True, multi_ref="max").score_examples(
                predictions={PREDS!r}, references={REFS!r})
    hexes = [[[s.precision.hex(), s.recall.hex(), s.fmeasure.hex()] for s in r.values()] for r in rows]
    msgs = [str(w.message) for w in caught if issubclass(w.category, rouge_metric.NativeBackendMissingWarning)]
    print(json.dumps({{"backend": rouge_metric.active_backend(), "file": rouge_metric.__file__, "hex": hexes,
                      "warnings": msgs}}))
""")


def native_hex():
    from rouge_metric import Rouge

    rows = Rouge(TYPES, use_stemmer=True, multi_ref="max", backend="native").score_examples(
        predictions=PREDS, references=REFS)
    return [[[s.precision.hex(), s.recall.hex(), s.fmeasure.hex()] for s in r.values()] for r in rows]


needs_native = pytest.mark.skipif(not core.native_available(), reason="the expected numbers come from the native backend")


def run_script(python: str, cwd: Path, **env: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if k not in ("ROUGE_METRIC_BACKEND", "PYTHONPATH")}
    environ.update(env)
    proc = subprocess.run([python, "-c", SCRIPT], cwd=cwd, env=environ, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def package_copy_without_extension(tmp_path: Path) -> Path:
    """The package's Python files alone (what a failed compile installs)."""
    dst = tmp_path / "site" / "rouge_metric"
    shutil.copytree(REPO / "rouge_metric", dst, ignore=shutil.ignore_patterns("_native*", "__pycache__", "*.so"))
    return dst.parent


@needs_native
def test_fallback_warns_once_and_gives_the_native_numbers(tmp_path):
    site = package_copy_without_extension(tmp_path)
    got = run_script(sys.executable, tmp_path, PYTHONPATH=str(site), HIDE_EDITABLE="1")
    assert got["file"].startswith(str(site))
    assert got["backend"] == "python"
    assert got["hex"] == native_hex()
    if core.native_capable_platform():
        assert len(got["warnings"]) == 1, got["warnings"]
        assert "pure-Python backend" in got["warnings"][0] and "--only-binary rouge-metric-hf" in got["warnings"][0]


@needs_native
def test_no_warning_when_python_is_chosen(tmp_path):
    site = package_copy_without_extension(tmp_path)
    got = run_script(sys.executable, tmp_path, PYTHONPATH=str(site), HIDE_EDITABLE="1", ROUGE_METRIC_BACKEND="python")
    assert got["backend"] == "python" and got["warnings"] == []
    assert got["hex"] == native_hex()


def test_no_warning_with_the_extension(tmp_path):
    if not core.native_available():
        pytest.skip("the extension is not built")
    got = run_script(sys.executable, tmp_path, PYTHONPATH=str(REPO))
    assert got["backend"] == "native" and got["warnings"] == []


def venv_seeing_this_environment(venv: Path) -> str:
    """A venv whose interpreter also imports this environment's packages; its python.

    The build requirements (setuptools, pybind11), the dependencies and pip come from the running
    environment, offline. ``--system-site-packages`` would not do: from inside a virtual environment it
    shows the base interpreter's packages (another setuptools, or none), not the active environment's.
    A ``.pth`` file in the venv adds this environment's site directories, in this process's order, after
    the venv's own, so what pip installs into the venv comes first.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    site_dirs = set(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        site_dirs.add(site.getusersitepackages())
    outer = [p for p in dict.fromkeys(sys.path) if p in site_dirs]
    own = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    Path(own, "this_environment.pth").write_text(
        "import site; " + "; ".join(f"site.addsitedir({p!r})" for p in outer) + "\n", encoding="utf-8")
    return str(python)


@needs_native
def test_pip_install_without_a_compiler(tmp_path):
    """``CC=/bin/false CXX=/bin/false pip install .``: succeeds, says why, installs the pure-Python package."""
    venv = tmp_path / "venv"
    python = venv_seeing_this_environment(venv)
    src = tmp_path / "src"  # a copy without the built extension, so the wheel cannot pick it up
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "*.so",
                                                            "__pycache__", ".hypothesis", ".pytest_cache"))
    env = dict(os.environ, CC="/bin/false", CXX="/bin/false", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("ROUGE_METRIC_REQUIRE_NATIVE", None)
    env.pop("CIBUILDWHEEL", None)
    proc = subprocess.run([python, "-m", "pip", "install", "-v", "--no-deps", "--no-build-isolation", str(src)],
                          env=env, capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "the native core (the C++ extension rouge_metric._native) could not be built" in proc.stdout + proc.stderr
    got = run_script(python, tmp_path, HIDE_EDITABLE="1")  # the venv sees this environment's packages too
    assert got["file"].startswith(str(venv)), got["file"]
    assert got["backend"] == "python"
    assert got["hex"] == native_hex()
    if core.native_capable_platform():
        assert len(got["warnings"]) == 1

    # ROUGE_METRIC_REQUIRE_NATIVE=1: the same install is an error that says why.
    env["ROUGE_METRIC_REQUIRE_NATIVE"] = "1"
    proc = subprocess.run([python, "-m", "pip", "install", "--force-reinstall", "--no-deps", "--no-build-isolation",
                           str(src)], env=env, capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert proc.returncode != 0
