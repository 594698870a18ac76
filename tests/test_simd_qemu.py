"""The text scan's runtime dispatch on emulated CPUs (qemu-x86_64 user mode): each CPU model selects the
level its cpuid offers and gives, bit for bit, the pure-Python backend's floats on this host
(tools/check_baseline_cpu.py); a level the emulated CPU lacks is refused with a ValueError, never run.
QEMU's user mode emulates AVX2 but not AVX-512 (Icelake-Server runs at the AVX2 level there). Skips
without qemu-x86_64-static, on another host architecture, or without the built extension.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[1]
SKIP = 77
QEMU = shutil.which("qemu-x86_64-static") or shutil.which("qemu-x86_64")


def test_haswell_and_icelake_models_select_avx2_and_give_the_same_floats():
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "check_baseline_cpu.py"), "--tree", str(REPO),
                           "--cpu", "Haswell", "Icelake-Server", "--expect-level", "avx2", "avx2"],
                          capture_output=True, text=True, timeout=3600)
    if proc.returncode == SKIP:
        pytest.skip(proc.stdout.strip())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("identical float.hex") == 2, proc.stdout


@pytest.mark.skipif(QEMU is None, reason="qemu-x86_64-static not installed (apt-get install qemu-user-static)")
@pytest.mark.parametrize("cpu,level", [("qemu64", "avx2"), ("Haswell", "avx512")])
def test_a_level_the_emulated_cpu_lacks_is_a_value_error(cpu, level):
    env = dict(os.environ, PYTHONPATH=str(REPO), ROUGE_METRIC_SIMD=level, PYTHONDONTWRITEBYTECODE="1")
    code = "from rouge_metric import _native; print(_native.simd_level())"
    proc = subprocess.run([QEMU, "-cpu", cpu, sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=600)
    if "No module named" in proc.stderr or "cannot import name '_native'" in proc.stderr:
        pytest.skip("no built extension")
    assert proc.returncode == 1, proc.stderr
    assert f"ValueError: ROUGE_METRIC_SIMD={level}: SIMD level {level} is not supported by this CPU" in proc.stderr
