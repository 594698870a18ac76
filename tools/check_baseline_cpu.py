"""Run the native core on a baseline x86-64 CPU (no POPCNT, SSSE3, SSE4, AVX, BMI) under QEMU and check
every value against the pure-Python backend on this host, bit for bit.

    python tools/check_baseline_cpu.py                 # this checkout's built extension
    python tools/check_baseline_cpu.py --tree DIR      # the rouge_metric package (with its _native) in DIR
    python tools/check_baseline_cpu.py --cpu qemu64 Haswell Icelake-Server --expect-level sse2 avx2 avx2

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

With several ``--cpu`` models each is run in turn (the dispatch of the text scan picks its SIMD level
from the emulated cpuid, which the line of each model names; ``--expect-level`` checks it). QEMU's user
mode emulates AVX2 but not AVX-512, so ``Icelake-Server`` runs at the AVX2 level there; the AVX-512
level is checked on a host that has it (tests/test_simd.py, tools/compare_builds.py).

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
    ap.add_argument("--cpu", nargs="+", default=["qemu64"],
                    help="QEMU CPU models, each checked in turn (default: qemu64, baseline x86-64)")
    ap.add_argument("--expect-level", nargs="+", default=None, metavar="LEVEL",
                    help="the SIMD level (rouge_metric._native.simd_level()) each --cpu model must select")
    args = ap.parse_args(argv)
    if args.expect_level is not None and len(args.expect_level) != len(args.cpu):
        ap.error(f"--expect-level: expected {len(args.cpu)} levels (one per --cpu model), got {len(args.expect_level)}")
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

        def emulated(cpu, argv):
            t0 = time.monotonic()
            proc = subprocess.run([qemu, "-cpu", cpu, sys.executable, *argv], env=env, cwd=tmp,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                why = proc.returncode
                if proc.returncode in (-signal.SIGILL, 128 + signal.SIGILL) or "Illegal instruction" in proc.stderr:
                    why = "SIGILL (Illegal instruction): the build uses an instruction this CPU model lacks"
                raise RuntimeError(f"{' '.join(argv[:3])} under {qemu} -cpu {cpu}: {why}\n{proc.stderr[-2000:]}")
            return proc.stdout, time.monotonic() - t0

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
        failed = False
        for i, cpu in enumerate(args.cpu):
            try:
                out, _ = emulated(cpu, ["-c", "from rouge_metric import _native; print(_native.simd_level())"])
                level = out.strip()
                out, t_native = emulated(cpu, [check, "--emit", "native", "--without-numpy"])
                native = json.loads(out)
            except RuntimeError as exc:
                print(f"check_baseline_cpu: FAILED: {exc}")
                failed = True
                continue
            diff = differences(native, python) + differences(native, python_fma)
            n = sum(len(v) for v in native.values())
            for line in diff:
                print("DIFFERENT", cpu, line)
            verdict = "identical" if not diff else "DIFFERENT"
            print(f"check_baseline_cpu: native under -cpu {cpu} (SIMD level {level}; {t_native:.0f} s) vs pure "
                  f"Python on this host (its default math and glibc's baseline math): {verdict} float.hex over "
                  f"{len(native)} configurations, {n} examples ({tree})")
            failed |= bool(diff)
            if args.expect_level is not None and level != args.expect_level[i]:
                print(f"check_baseline_cpu: FAILED: -cpu {cpu} selected SIMD level {level}, expected {args.expect_level[i]}")
                failed = True
        return 1 if failed else 0


#: glibc's CPU features to ignore so that its math functions take the code path of a baseline x86-64 CPU.
NO_FMA = "glibc.cpu.hwcaps=-FMA,-FMA4,-AVX2"


if __name__ == "__main__":
    sys.exit(main())
