"""Build the native core with a sanitizer and run the native tests under it.

    python tools/sanitize.py address            # AddressSanitizer + UndefinedBehaviorSanitizer
    python tools/sanitize.py thread             # ThreadSanitizer
    python tools/sanitize.py address --quick    # the stress at the normal test scale
    python tools/sanitize.py thread -- -k cold  # extra pytest arguments after --
    python tools/sanitize.py address --tests tests/test_native_stress.py   # only these test files

It builds ``rouge_metric._native`` with ``ROUGE_METRIC_SANITIZE=<kind>`` (see setup.py: the sanitizer
flags plus the core's own checks, ``ROUGE_METRIC_CHECKED``) into ``build/sanitize-<kind>/``, next to a
copy of the Python package, so the installed build is left alone. First the plain C++ check of the core
(``tests/cpp/kernels_check.cpp``: the kernels against textbook DP, a text batch on 1 and 3 threads; no
Python) is built with the same sanitizer and run. Then it runs pytest on the native tests with the
copy first on the path, the sanitizer runtime preloaded into the interpreter and ``halt_on_error``:
any report fails the run. ``tests/test_native_stress.py`` runs at its full scale
(``ROUGE_METRIC_STRESS=full``): cold and warm vocabularies, 1/2/3/8 threads, chunk and work-block
boundaries, one scorer shared by 8 Python threads, Unicode and very long texts, every type and
option, the bounded-memory kernel paths, Ctrl-C, and the evaluate, datasets.map and Trainer entry
points, every example compared with the pure-Python backend.

The interpreter is this script's own (``sys.executable``), started directly: a shell-script shim in
front of Python (pyenv's, say) would itself run under the preloaded runtime, which ThreadSanitizer
does not survive. Exit status: pytest's (0 when every test passed and no sanitizer reported).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The sanitizer flags of setup.py's ``SANITIZERS`` (compile, link), for the C++ check.
CPP_FLAGS = {
    "address": ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g", "-O1",
                "-D_GLIBCXX_ASSERTIONS", "-DROUGE_METRIC_CHECKED=1"],
    "thread": ["-fsanitize=thread", "-g", "-O1", "-DROUGE_METRIC_CHECKED=1"],
}
KINDS = {
    "address": {
        "runtime": "libasan.so",
        "env": {
            "ASAN_OPTIONS": "detect_leaks=0:halt_on_error=1:abort_on_error=1:strict_string_checks=1",
            "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
            "PYTHONMALLOC": "malloc",  # every Python allocation visible to ASan
        },
        "tests": ["tests/test_native_stress.py", "tests/test_native.py", "tests/test_backends.py",
                  "tests/test_aggregate.py", "tests/test_ids_native.py", "tests/test_perl_porter_native.py"],
    },
    "thread": {
        "runtime": "libtsan.so",
        # The suppressions: glibc's own frees of a finished thread's dynamic TLS (see the file).
        "env": {"TSAN_OPTIONS": "halt_on_error=1:second_deadlock_stack=1:suppressions="
                                + str(REPO / "tools" / "tsan_suppressions.txt")},
        "tests": ["tests/test_native_stress.py", "tests/test_perl_porter_native.py"],
    },
}


def compiler() -> str:
    cxx = (sysconfig.get_config_var("CXX") or "c++").split()[0]
    return shutil.which(cxx) or cxx


def runtime_path(name: str) -> str:
    out = subprocess.run([compiler(), f"-print-file-name={name}"], capture_output=True, text=True, check=True)
    path = out.stdout.strip()
    if not os.path.isabs(path) or not os.path.exists(path):
        raise SystemExit(f"sanitize: the compiler has no {name} (install the sanitizer runtimes of {compiler()})")
    return os.path.realpath(path)


def build(kind: str) -> Path:
    """The sanitized extension and a copy of the package in build/sanitize-<kind>/lib; returns lib."""
    root = REPO / "build" / f"sanitize-{kind}"
    lib = root / "lib"
    pkg = lib / "rouge_metric"
    t0 = time.monotonic()
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(lib), "--build-temp",
                    str(root / "tmp")], cwd=REPO, check=True, env=dict(os.environ, ROUGE_METRIC_SANITIZE=kind))
    # The whole package (its subpackages too), but not the sources and builds of the extension.
    shutil.copytree(REPO / "rouge_metric", pkg, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "_native_src", "_native*.so", "_native*.pyd"))
    shutil.copytree(REPO / "callbacks", pkg / "callbacks", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    print(f"sanitize: built {kind} in {time.monotonic() - t0:.0f} s -> {lib}", flush=True)
    return lib


def cpp_check(kind: str, root: Path, env: dict, quick: bool) -> int:
    """Build tests/cpp/kernels_check.cpp with the sanitizer and run it (fewer rounds with --quick);
    its exit status (reports are written where env's *SAN_OPTIONS say)."""
    gen = root / "cpp"
    gen.mkdir(parents=True, exist_ok=True)
    src = REPO / "rouge_metric" / "_native_src"
    subprocess.run([sys.executable, str(src / "gen_lower_table.py"), str(gen / "lower_table.h")], check=True)
    exe = gen / "kernels_check"
    t0 = time.monotonic()
    subprocess.run([compiler(), "-std=c++17", "-ffp-contract=off", "-fno-fast-math", "-pthread", *CPP_FLAGS[kind],
                    f"-I{src}", f"-I{gen}", str(REPO / "tests" / "cpp" / "kernels_check.cpp"), "-o", str(exe)],
                   check=True)
    rc = subprocess.run([str(exe), "20240527", "60" if quick else "300"], env=env).returncode
    print(f"sanitize: {kind}: C++ kernels_check exit status {rc} after {time.monotonic() - t0:.0f} s", flush=True)
    return rc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("--quick", action="store_true", help="the stress at the normal test scale")
    ap.add_argument("--tests", nargs="+", metavar="FILE", help="test files to run instead of the default ones")
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    args.pytest_args = extra
    spec = KINDS[args.kind]
    lib = build(args.kind)
    # Reports go to files (pytest captures the test's stderr, and a halted process would lose them):
    # build/sanitize-<kind>/reports/report.<pid>, printed at the end.
    reports = lib.parent / "reports"
    shutil.rmtree(reports, ignore_errors=True)
    reports.mkdir(parents=True)
    env = dict(os.environ)
    for var, value in spec["env"].items():
        env[var] = value + (f":log_path={reports / 'report'}" if var.endswith("SAN_OPTIONS") else "")
    cpp_rc = cpp_check(args.kind, lib.parent, env, args.quick)
    # The runtime first; libstdc++ right after it, so that the runtime's interceptors of C++
    # exceptions find it (the interpreter itself does not link it).
    preload = f"{runtime_path(spec['runtime'])} {runtime_path('libstdc++.so')}"
    env.update(PYTHONPATH=str(lib), LD_PRELOAD=preload, ROUGE_METRIC_BACKEND="native",
               ROUGE_METRIC_STRESS="" if args.quick else "full", PYTHONDONTWRITEBYTECODE="1")
    check = subprocess.run([sys.executable, "-c", "import rouge_metric._native as n; print(n.__file__, n.CHECKED)"],
                           cwd=lib, env=env, capture_output=True, text=True)
    if check.returncode != 0 or str(lib) not in check.stdout or "True" not in check.stdout:
        print(check.stdout, check.stderr, file=sys.stderr)
        raise SystemExit("sanitize: the sanitized extension did not load")
    # Run from lib (not the repository root) so that `import rouge_metric` finds the copy.
    cmd = [sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"), "--rootdir", str(REPO),
           "-p", "no:cacheprovider", "-q", "-m", "",  # every selected test, whatever its tier
           *[str(REPO / t) for t in (args.tests or spec["tests"])], *args.pytest_args]
    t0 = time.monotonic()
    rc = subprocess.run(cmd, cwd=lib, env=env).returncode
    found = sorted(reports.iterdir())
    for report in found:
        print(f"\n==== {report}", flush=True)
        print(report.read_text(errors="replace")[:20000], flush=True)
    print(f"sanitize: {args.kind}: C++ check exit status {cpp_rc}; pytest exit status {rc} after "
          f"{time.monotonic() - t0:.0f} s; {len(found)} sanitizer report(s)", flush=True)
    return rc or cpp_rc or (1 if found else 0)


if __name__ == "__main__":
    sys.exit(main())
