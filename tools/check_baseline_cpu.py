"""Run the native core on a baseline x86-64 CPU (no POPCNT, SSSE3, SSE4, AVX, BMI) under QEMU and check
every value against the pure-Python backend on this host, bit for bit.

    python tools/check_baseline_cpu.py                 # this checkout's built extension
    python tools/check_baseline_cpu.py --tree DIR      # the rouge_metric package (with its _native) in DIR

Under ``qemu-x86_64-static -cpu qemu64`` (Debian's qemu-user-static; the CPU model of the first x86-64
processors) it runs ``tools/backend_check.py --emit native`` with the interpreter of this script, then
the same computation with the pure-Python backend on the host, and compares the ``float.hex`` of every
precision, recall and F-measure: every rouge type, every multi-reference mode, the default, whitespace
and unicode tokenizers, no stemmer / porter / perl_porter, token ids. numpy cannot run there (numpy 2
wheels need x86-64-v2), so both runs use ``backend_check.py --without-numpy``: numpy unimportable (the
scoring path must not need it) and without the two configurations that stem non-ASCII words with nltk's
Porter (nltk imports numpy); the native Porter (ASCII words) is checked. An instruction the baseline CPU
lacks kills the emulated process with SIGILL ("Illegal instruction"), and the check fails saying so.

The host's run is made twice, with the C library's default math and with ``GLIBC_TUNABLES`` making it
take the baseline CPU's code paths (no FMA): both must equal the emulated run. (rougeW's powers do not go
through the C library's pow(), whose last bit glibc lets depend on the CPU: see docs/native.md.)

Exit status: 0 identical; 1 different or crashed; 77 skipped (no qemu-x86_64-static, not an x86-64
host, or no native extension in the tree). tests/test_baseline_cpu.py runs it and skips on 77.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SKIP = 77


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=ROOT, help="directory holding the rouge_metric package to check")
    ap.add_argument("--cpu", default="qemu64", help="QEMU CPU model (default: qemu64, baseline x86-64)")
    args = ap.parse_args(argv)
    qemu = shutil.which("qemu-x86_64-static") or shutil.which("qemu-x86_64")
    if qemu is None:
        print("check_baseline_cpu: SKIPPED: qemu-x86_64-static not installed (apt-get install qemu-user-static)")
        return SKIP
    if platform.machine().lower() not in ("x86_64", "amd64") or not sys.platform.startswith("linux"):
        print(f"check_baseline_cpu: SKIPPED: needs an x86-64 Linux host, not {sys.platform}/{platform.machine()}")
        return SKIP
    tree = os.path.abspath(args.tree)
    pkg = os.path.join(tree, "rouge_metric")
    if not any(n.startswith("_native") and n.endswith((".so", ".pyd")) for n in os.listdir(pkg)):
        print(f"check_baseline_cpu: SKIPPED: no built extension in {pkg}")
        return SKIP
    env = dict(os.environ, PYTHONPATH=tree + os.pathsep + os.environ.get("PYTHONPATH", ""),
               ROUGE_METRIC_BACKEND="native", PYTHONDONTWRITEBYTECODE="1")
    check = os.path.join(HERE, "backend_check.py")
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, HERE)
        from backend_check import differences

        def emulated(backend):
            t0 = time.monotonic()
            proc = subprocess.run([qemu, "-cpu", args.cpu, sys.executable, check, "--emit", backend, "--without-numpy"],
                                  env=dict(env, ROUGE_METRIC_BACKEND=backend), cwd=tmp, capture_output=True, text=True)
            if proc.returncode != 0:
                why = proc.returncode
                if proc.returncode in (-signal.SIGILL, 128 + signal.SIGILL) or "Illegal instruction" in proc.stderr:
                    why = "SIGILL (Illegal instruction): the build uses an instruction the baseline CPU lacks"
                raise RuntimeError(f"the {backend} backend under {qemu} -cpu {args.cpu}: {why}\n{proc.stderr[-2000:]}")
            return json.loads(proc.stdout), time.monotonic() - t0

        try:
            native, t_native = emulated("native")
        except RuntimeError as exc:
            print(f"check_baseline_cpu: FAILED: {exc}")
            return 1

        def host(tunables):
            e = dict(env, ROUGE_METRIC_BACKEND="python")
            if tunables:
                e["GLIBC_TUNABLES"] = tunables
            proc = subprocess.run([sys.executable, check, "--emit", "python", "--without-numpy"], env=e, cwd=tmp,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError(f"the pure-Python run on the host failed\n{proc.stderr[-2000:]}")
            return json.loads(proc.stdout)

        try:
            python = host(NO_FMA)
            python_fma = host(None)
        except RuntimeError as exc:
            print(f"check_baseline_cpu: FAILED: {exc}")
            return 1
        diff = differences(native, python) + differences(native, python_fma)
        n = sum(len(v) for v in native.values())
        for line in diff:
            print("DIFFERENT", line)
        verdict = "identical" if not diff else "DIFFERENT"
        print(f"check_baseline_cpu: native under -cpu {args.cpu} ({t_native:.0f} s) vs pure Python on this host "
              f"(its default math and glibc's baseline math): {verdict} float.hex over {len(native)} "
              f"configurations, {n} examples ({tree})")
        return 1 if diff else 0


#: glibc's CPU features to ignore so that its math functions take the code path of a baseline x86-64 CPU.
NO_FMA = "glibc.cpu.hwcaps=-FMA,-FMA4,-AVX2"


if __name__ == "__main__":
    sys.exit(main())
