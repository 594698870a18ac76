"""Run the native core on a baseline x86-64 CPU (no POPCNT, SSSE3, SSE4, AVX, BMI) under QEMU and check
every value against the pure-Python backend, bit for bit.

    python tools/check_baseline_cpu.py                 # this checkout's built extension
    python tools/check_baseline_cpu.py --tree DIR      # the rouge_metric package (with its _native) in DIR

Under ``qemu-x86_64-static -cpu qemu64`` (Debian's qemu-user-static; the CPU model of the first x86-64
processors) it runs ``tools/backend_check.py --emit native`` with the interpreter of this script, then
the same computation with the pure-Python backend on the host with ``GLIBC_TUNABLES`` set so that the C
library's math takes the baseline CPU's code paths (no FMA), and compares the ``float.hex`` of every
precision, recall and F-measure: every rouge type, every multi-reference mode, the default, whitespace
and unicode tokenizers, no stemmer / porter / perl_porter, token ids. numpy cannot run there (numpy 2
wheels need x86-64-v2), so both runs use ``backend_check.py --without-numpy``: numpy unimportable (the
scoring path must not need it) and without the two configurations that stem non-ASCII words with nltk's
Porter (nltk imports numpy); the native Porter (ASCII words) is checked. An instruction the baseline CPU
lacks kills the emulated process with SIGILL ("Illegal instruction"), and the check fails saying so.

It then prints, for information, how the emulated CPU's floats compare with this host's default: rougeW can
differ in the last bit between CPUs with and without FMA, on both backends alike, because glibc's pow()
(rougeW's P and R are pow(hit / total, 1 / weight)) picks its implementation by CPU
(``--strict-across-cpus`` makes that an error).

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
    ap.add_argument("--strict-across-cpus", action="store_true",
                    help="also fail when the emulated CPU's floats differ from this host's")
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
        diff = differences(native, python)
        n = sum(len(v) for v in native.values())
        for line in diff:
            print("DIFFERENT", line)
        verdict = "identical" if not diff else "DIFFERENT"
        print(f"check_baseline_cpu: native under -cpu {args.cpu} ({t_native:.0f} s) vs pure Python on this host "
              f"with glibc's baseline (non-FMA) math: {verdict} float.hex over {len(native)} configurations, "
              f"{n} examples ({tree})")
        # Across CPUs (information): the host's pure-Python floats with the C library's default choice. A
        # difference here is not the native core's (both backends agree on each CPU) but glibc's: pow()
        # has an FMA and a non-FMA implementation, picked by CPU, and rougeW's P and R are
        # pow(hit / total, 1 / weight).
        cross = differences(native, python_fma, limit=1000)
        types = sorted({t for line in cross for t in ROUGE_TYPE_NAMES if _type_differs(line, t)})
        print(f"check_baseline_cpu: across CPUs (emulated {args.cpu} vs this host's default math): "
              + ("identical" if not cross else f"{len(cross)} configurations differ, in {', '.join(types) or '?'}"))
        if cross and args.strict_across_cpus:
            return 1
        return 1 if diff else 0


#: glibc's CPU features to ignore so that its math functions take the code path of a baseline x86-64 CPU.
NO_FMA = "glibc.cpu.hwcaps=-FMA,-FMA4,-AVX2"

ROUGE_TYPE_NAMES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeLsum", "rougeL", "rougeW", "rougeSU4", "rougeSU",
                    "rougeS4", "rougeS"]


def _type_differs(line: str, name: str) -> bool:
    """Whether the values of type ``name`` differ in a ``differences`` line (``a != b`` of two rows)."""
    import ast

    try:
        left, right = line.split(": ", 2)[2].split(" != ")
        a, b = dict((r[0], r[1:]) for r in ast.literal_eval(left)), dict((r[0], r[1:]) for r in ast.literal_eval(right))
    except (ValueError, SyntaxError, IndexError):
        return False
    return a.get(name) != b.get(name)


if __name__ == "__main__":
    sys.exit(main())
