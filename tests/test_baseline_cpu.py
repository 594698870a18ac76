"""The native core on a baseline x86-64 CPU (QEMU's ``qemu64`` model: no POPCNT, SSSE3, SSE4, AVX):
every rouge type, multi-reference mode, tokenizer and stemmer, and token ids, bit for bit the pure-Python
backend's floats (tools/check_baseline_cpu.py). Skips without qemu-x86_64-static (Debian's
qemu-user-static), on another host architecture, or without the built extension.
"""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[1]
SKIP = 77


def test_native_core_runs_on_a_baseline_x86_64_cpu():
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "check_baseline_cpu.py"), "--tree", str(REPO)],
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode == SKIP:
        pytest.skip(proc.stdout.strip())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "identical float.hex" in proc.stdout
