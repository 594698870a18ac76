#!/usr/bin/env bash
# Compile the native core (rouge_metric/_native_src/bindings.cpp, the one translation unit) with every
# compiler this machine has, as far as each target allows here, and fail on an error or a warning:
#   g++, clang++          -Wall -Wextra -Werror, the flags of setup.py (x86-64 Linux, baseline CPU)
#   aarch64-linux-gnu-g++ cross compile of the object (Debian: g++-aarch64-linux-gnu)
#   x86_64-w64-mingw32-g++-posix  cross compile of the object against a Win64 pyconfig.h (Debian:
#                         g++-mingw-w64-x86-64-posix): the Windows spellings of portable.hpp, no POSIX-only
#                         header, the HUGE macro of math.h
# A compiler that is absent is skipped with a message. MSVC itself cannot run here: its spellings are in
# portable.hpp; cibuildwheel builds the Windows wheels with it (.github/workflows/release.yml).
#
#   tools/cross_build.sh            # every compiler present; exit 1 when one fails
#   tools/cross_build.sh mingw-w64  # only these (gcc, clang, aarch64, mingw-w64)
# Takes about 1-2 minutes per compiler on a loaded 2-core machine (-O1 for the cross compiles).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
SRC=rouge_metric/_native_src
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$PY" "$SRC/gen_lower_table.py" "$WORK/lower_table.h" || exit 1
"$PY" "$SRC/gen_xlsum_table.py" "$WORK/xlsum_table.h" || exit 1
PYINC=$("$PY" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
PBINC=$("$PY" -c "import pybind11; print(pybind11.get_include())")
# -Wno-missing-field-initializers: CPython's idiom for a static type object, `PyTypeObject T =
# {PyVarObject_HEAD_INIT(nullptr, 0)};` (its other fields zero until the module fills them), names only
# the head; -Wextra would report each of the other fields.
COMMON=(-std=c++17 -fvisibility=hidden -ffp-contract=off -fno-fast-math -Wall -Wextra -Wno-missing-field-initializers -Werror -I"$WORK" -I"$SRC" -I"$PBINC")

# The host's Python headers with a Win64 pyconfig.h (the defines of CPython's PC/pyconfig.h that the
# headers read) in place of the host's (Python.h includes it with quotes: from its own directory).
cp -r "$PYINC" "$WORK/win64"
cat > "$WORK/win64/pyconfig.h" <<'EOF'
#ifndef Py_CONFIG_H
#define Py_CONFIG_H
#define MS_WIN32
#define MS_WIN64
#define MS_WINDOWS
#define NT_THREADS
#define WITH_THREAD
#define Py_ENABLE_SHARED 1
#define Py_NO_LINK_LIB
#define PY_LONG_LONG long long
#define SIZEOF_VOID_P 8
#define SIZEOF_SIZE_T 8
#define SIZEOF_TIME_T 8
#define SIZEOF_INT 4
#define SIZEOF_LONG 4
#define SIZEOF_LONG_LONG 8
#define SIZEOF_SHORT 2
#define SIZEOF_DOUBLE 8
#define SIZEOF_FLOAT 4
#define SIZEOF_FPOS_T 8
#define SIZEOF_WCHAR_T 2
#define SIZEOF__BOOL 1
#define SIZEOF_OFF_T 4
#define SIZEOF_PID_T 8
#define ALIGNOF_LONG 4
#define ALIGNOF_SIZE_T 8
#define ALIGNOF_MAX_ALIGN_T 8
#define HAVE_LONG_LONG 1
#define HAVE_DECLSPEC_DLL
#define HAVE_STDARG_PROTOTYPES
#define HAVE_WCHAR_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_ERRNO_H 1
#define HAVE_FCNTL_H 1
#define HAVE_COPYSIGN 1
#define HAVE_HYPOT 1
#define HAVE_STRFTIME 1
#define HAVE_DYNAMIC_LOADING
#define DONT_HAVE_SIG_ALARM
#define DONT_HAVE_SIG_PAUSE
#define LONG_BIT 32
#define WORD_BIT 32
#define PY_SSIZE_T_CLEAN
#define Py_WINVER 0x0A00
#define Py_NTDDI NTDDI_WIN10
#define PLATFORM "win32"
#define COMPILER "[MinGW-w64 cross check]"
#define SIZEOF_HKEY 8
#define PY_SUPPORT_TIER 1
#define PY_HAVE_THREAD_NATIVE_ID
#define WITH_DOC_STRINGS 1
#define WITH_PYMALLOC 1
#define HAVE_CLOCK 1
#define HAVE_STRERROR 1
#define HAVE_IO_H 1
#define HAVE_PROCESS_H 1
#define HAVE_SIGNAL_H 1
#define HAVE_STDDEF_H 1
#define HAVE_TZNAME
#define HAVE_UTIME_H 1
#define HAVE_DIRECT_H 1
#define HAVE_PUTENV
#define HAVE_WINDOWS_CONSOLE_IO 1
#define DOUBLE_IS_LITTLE_ENDIAN_IEEE754 1
#endif
EOF

status=0
ONLY=" $* "
run() {  # run NAME COMPILER ARGS...
    local name=$1 cc=$2
    shift 2
    if [ "$ONLY" != "  " ] && [[ "$ONLY" != *" $name "* ]]; then
        return
    fi
    if ! command -v "$cc" >/dev/null; then
        echo "cross_build: $name: SKIPPED ($cc not installed)"
        return
    fi
    local t0=$SECONDS
    if nice "$cc" "${COMMON[@]}" "$@" -c "$SRC/bindings.cpp" -o "$WORK/$name.o" 2> "$WORK/$name.log"; then
        echo "cross_build: $name: ok ($((SECONDS - t0)) s; $($cc --version | head -1))"
    else
        echo "cross_build: $name: FAILED ($cc)"
        head -40 "$WORK/$name.log"
        status=1
    fi
}

run gcc g++ -O3 -fPIC -I"$PYINC"
run clang clang++ -O3 -fPIC -I"$PYINC"
run aarch64 aarch64-linux-gnu-g++ -O1 -fPIC -I"$PYINC"
run mingw-w64 x86_64-w64-mingw32-g++-posix -O1 -I"$WORK/win64"
exit $status
