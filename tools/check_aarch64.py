"""The same numbers on aarch64: cross-compile the extension and run the parity workload and the native
tests under qemu-aarch64 with Debian's arm64 CPython, then compare with this machine's numbers.

    python tools/check_aarch64.py            # set up (once), build, test, compare
    python tools/check_aarch64.py --no-tests # the numbers only

Needs, from Debian (as root): ``qemu-user-static``, ``g++-aarch64-linux-gnu``, and the arm64 packages
of CPython 3.11 (``dpkg --add-architecture arm64; apt-get update``: this script then downloads them
with ``apt-get download`` and unpacks them into ``build/aarch64/root``, nothing is installed); the
pure-Python test dependencies and numpy come as aarch64 wheels from PyPI (``pip download
--platform``). Without the tools it says what is missing and exits 0 (skipped); with ``--require``
it exits 1 instead. Nothing is fetched while the checks run.

The interpreter under qemu is Debian's 3.11 (the same Unicode database as every 3.11), the extension
is compiled with the flags of setup.py for aarch64, and ``tools/backend_check.py --corpora`` (every rouge
type, stemmer, tokenizer and multi-reference mode, corpus means and a bootstrap interval, float.hex)
must find both backends equal there and give this machine's numbers (same nltk and numpy versions).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "build" / "aarch64"
ROOT = WORK / "root"
SITE = WORK / "site"
PKG = WORK / "pkg"
#: Debian arm64 packages unpacked for the interpreter; the first five are required, the others are
#: libraries of optional stdlib modules (a missing one is reported and skipped).
DEB_PACKAGES = ["python3.11-minimal", "libpython3.11-minimal", "libpython3.11-stdlib", "libpython3.11-dev",
                "libpython3.11", "libc6", "libstdc++6", "libgcc-s1", "libexpat1", "zlib1g", "libffi8", "libssl3",
                "libbz2-1.0", "liblzma5", "libuuid1", "libsqlite3-0", "libncursesw6", "libtinfo6", "libreadline8",
                "libcrypt1", "libdb5.3", "libgdbm6", "libnsl2", "libtirpc3", "libgssapi-krb5-2",
                "libkrb5-3", "libk5crypto3", "libkrb5support0", "libcom-err2", "libkeyutils1"]
TESTS = ["tests/test_same_numbers.py", "tests/test_native.py", "tests/test_kernels.py", "tests/test_parity.py",
         "tests/test_golden.py", "tests/test_simd.py"]


def run(cmd, **kw):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run(cmd, check=True, **kw)


def missing_tools():
    need = {"qemu-aarch64-static": "qemu-user-static", "aarch64-linux-gnu-g++": "g++-aarch64-linux-gnu",
            "apt-get": "apt", "dpkg-deb": "dpkg"}
    return [pkg for tool, pkg in need.items() if not shutil.which(tool)]


def setup_root() -> None:
    if (ROOT / "usr" / "bin" / "python3.11").exists():
        return
    archs = subprocess.run(["dpkg", "--print-foreign-architectures"], capture_output=True, text=True).stdout.split()
    if "arm64" not in archs:
        raise SystemExit("check_aarch64: run `dpkg --add-architecture arm64 && apt-get update` (as root) first")
    debs = WORK / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(DEB_PACKAGES):
        r = subprocess.run(["apt-get", "download", f"{p}:arm64"], cwd=debs, capture_output=True, text=True)
        if r.returncode != 0:
            if i < 5:
                raise SystemExit(f"check_aarch64: apt-get download {p}:arm64 failed: {r.stderr.strip()}")
            print(f"check_aarch64: {p}:arm64 not available (optional): {r.stderr.strip()}")
    ROOT.mkdir(parents=True, exist_ok=True)
    for deb in sorted(debs.glob("*.deb")):
        run(["dpkg-deb", "-x", str(deb), str(ROOT)])


def setup_site() -> None:
    if SITE.exists():
        return
    from importlib import metadata

    wheels = WORK / "wheels"
    reqs = [f"numpy=={metadata.version('numpy')}", f"nltk=={metadata.version('nltk')}",
            "pytest", "hypothesis", "regex", "click", "joblib",
            "tqdm", "absl-py", "six", "iniconfig", "packaging", "pluggy", "attrs", "sortedcontainers",
            "exceptiongroup", "tomli", "pygments"]
    run([sys.executable, "-m", "pip", "download", "-q", "--dest", str(wheels), "--only-binary=:all:", "--no-deps",
         "--platform", "manylinux2014_aarch64", "--platform", "manylinux_2_28_aarch64", "--platform", "any",
         "--python-version", "3.11", "--implementation", "cp", *reqs])
    SITE.mkdir(parents=True)
    import zipfile

    for whl in wheels.glob("*.whl"):
        zipfile.ZipFile(whl).extractall(SITE)
    # rouge-score 0.1.2 is published as an sdist only; it is pure Python: this interpreter's copy.
    import rouge_score

    shutil.copytree(Path(rouge_score.__file__).parent, SITE / "rouge_score", ignore=shutil.ignore_patterns("__pycache__"))


def build_extension() -> Path:
    import pybind11

    gen = WORK / "gen"
    gen.mkdir(parents=True, exist_ok=True)
    src = REPO / "rouge_metric" / "_native_src"
    run([sys.executable, str(src / "gen_lower_table.py"), str(gen / "lower_table.h")])
    run([sys.executable, str(src / "gen_xlsum_table.py"), str(gen / "xlsum_table.h")])
    if PKG.exists():
        shutil.rmtree(PKG)
    shutil.copytree(REPO / "rouge_metric", PKG / "rouge_metric",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "_native_src"))
    shutil.copytree(REPO / "callbacks", PKG / "rouge_metric" / "callbacks", ignore=shutil.ignore_patterns("__pycache__"))
    out = PKG / "rouge_metric" / "_native.cpython-311-aarch64-linux-gnu.so"
    inc = [ROOT / "usr" / "include" / "python3.11", ROOT / "usr" / "include"]  # pyconfig.h includes <aarch64-linux-gnu/...>
    run(["aarch64-linux-gnu-g++", "-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c++17", "-shared", "-fPIC",
         "-fvisibility=hidden", "-DNDEBUG", f"-I{gen}", f"-I{src}", f"-I{pybind11.get_include()}",
         *[f"-I{i}" for i in inc], str(src / "bindings.cpp"), "-o", str(out), "-pthread"])
    return out


def under_qemu(args, **kw):
    env = dict(os.environ, QEMU_LD_PREFIX=str(ROOT), PYTHONPATH=f"{PKG}:{SITE}:{REPO / 'tests'}",
               PYTHONHOME=str(ROOT / "usr"), HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1",
               PYTHONDONTWRITEBYTECODE="1", ROUGE_METRIC_BACKEND="auto")
    cmd = ["qemu-aarch64-static", "-L", str(ROOT), str(ROOT / "usr" / "bin" / "python3.11"), *args]
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, env=env, cwd=str(WORK), **kw)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-tests", action="store_true", help="the numbers only (no pytest under qemu)")
    ap.add_argument("--require", action="store_true", help="exit 1 (not 0) when the tools are missing")
    args = ap.parse_args()
    miss = missing_tools()
    if miss:
        print(f"check_aarch64: skipped: install {' '.join(miss)} (Debian) to run it")
        return 1 if args.require else 0
    t0 = time.time()
    WORK.mkdir(parents=True, exist_ok=True)
    setup_root()
    setup_site()
    build_extension()
    probe = under_qemu(["-c", "import platform, rouge_metric.core as c; print(platform.machine(), platform.python_version(), "
                        "c.native_available())"], capture_output=True, text=True)
    print(probe.stdout.strip(), probe.stderr.strip())
    if probe.returncode != 0 or "aarch64" not in probe.stdout or "True" not in probe.stdout:
        print("check_aarch64: the arm64 interpreter did not load the native extension", file=sys.stderr)
        return 1
    status = 0
    if not args.no_tests:
        tests = [str(REPO / t) for t in TESTS]
        # test_simd's ROUGE_METRIC_SIMD tests start sys.executable (the arm64 interpreter) as a child, which
        # only runs under qemu where the kernel hands arm64 binaries to it (binfmt_misc); this script
        # runs the interpreter through qemu itself, so they are left out here.
        r = under_qemu(["-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(REPO), "-c",
                        str(REPO / "pyproject.toml"), "-k", "not environment_variable", *tests])
        status |= r.returncode != 0
    check = str(REPO / "tools" / "backend_check.py")
    here = WORK / "numbers-host.json"
    there = WORK / "numbers-aarch64.json"
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1")
    run([sys.executable, check, "--emit", "python", "--corpora", "--out", str(here)], env=env)
    status |= under_qemu([check, "--require-native", "--corpora"]).returncode != 0
    status |= under_qemu([check, "--emit", "python", "--corpora", "--out", str(there)]).returncode != 0
    status |= subprocess.run([sys.executable, check, "--compare", str(here), str(there)]).returncode != 0
    print(f"check_aarch64: {'identical numbers, tests passed' if not status else 'FAILED'} ({time.time() - t0:.0f} s)")
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
