// Runtime CPU dispatch of the text scan (text.hpp): which SIMD level this process uses, chosen once.
//
// One build carries every level of its architecture: on x86-64 the baseline (SSE2), AVX2 and AVX-512
// variants of the scan are compiled into the same object, each in a function marked with its target
// (ROUGE_TARGET_AVX2 / ROUGE_TARGET_AVX512; the rest of the build has no -march, so nothing outside
// those functions uses an instruction the baseline lacks). Other architectures have the portable
// scalar loop only, except aarch64, whose baseline (Advanced SIMD, "neon", part of every aarch64 CPU)
// has a variant of its own. The level is detected from cpuid, and for AVX levels from the OS's saved register
// state (xgetbv: the OS must save the YMM, and for AVX-512 the opmask and ZMM, registers on a context
// switch). The embedder may lower it (the module reads ROUGE_METRIC_SIMD at import); asking for a
// level the CPU lacks is an error, never an illegal instruction.
//
// Every level gives the same tokens, hence the same floats: the levels differ only in how many bytes
// one step classifies. tests/test_simd.py compares them with the Python pipeline.
//
// Shared state: SIMD_LEVEL, one atomic int, written by set_simd_level (the module's import, a test
// hook) and read (relaxed) once per text by any thread; every level is correct at any moment.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

#include "portable.hpp"

#if (defined(__x86_64__) || defined(_M_X64)) && !defined(ROUGE_NO_DISPATCH)
#define ROUGE_X86_DISPATCH 1
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#include <immintrin.h>
#define ROUGE_TARGET_AVX2
#define ROUGE_TARGET_AVX512
#else
#include <cpuid.h>
#include "x86_intrinsics.hpp"
#define ROUGE_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define ROUGE_TARGET_AVX512 \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2,avx2,bmi,bmi2,popcnt")))
// GFNI's 128-bit form (one instruction reverses the bits of each byte): used at the AVX-512 level
// when the CPU has it (simd_gfni), by the rougeLsum walk (kernels_lsum.hpp).
#define ROUGE_GFNI 1
#define ROUGE_TARGET_GFNI __attribute__((target("gfni")))
#endif
#else
#define ROUGE_X86_DISPATCH 0
#endif

// aarch64: Advanced SIMD is part of the architecture (no detection needed).
#if (defined(__aarch64__) || defined(_M_ARM64)) && !defined(ROUGE_NO_DISPATCH)
#define ROUGE_NEON 1
#include <arm_neon.h>
#else
#define ROUGE_NEON 0
#endif

namespace rouge {

// The levels, in increasing order of what they need. SSE2 to AVX-512 exist on x86-64 only, NEON on
// aarch64 only (there it is the baseline and the top: an x86-64 CPU never reaches it).
enum SimdLevel : int { SIMD_SCALAR = 0, SIMD_SSE2 = 1, SIMD_AVX2 = 2, SIMD_AVX512 = 3, SIMD_NEON = 4 };
inline constexpr const char* SIMD_NAMES[] = {"scalar", "sse2", "avx2", "avx512", "neon"};
inline constexpr int SIMD_COUNT = 5;

#if ROUGE_X86_DISPATCH
struct CpuidRegs {
    unsigned a = 0, b = 0, c = 0, d = 0;
};
inline CpuidRegs cpuid(unsigned leaf, unsigned sub) {
    CpuidRegs r;
#if defined(_MSC_VER) && !defined(__clang__)
    int v[4];
    __cpuidex(v, (int)leaf, (int)sub);
    r.a = (unsigned)v[0], r.b = (unsigned)v[1], r.c = (unsigned)v[2], r.d = (unsigned)v[3];
#else
    if (!__get_cpuid_count(leaf, sub, &r.a, &r.b, &r.c, &r.d)) r = CpuidRegs{};
#endif
    return r;
}
// XCR0: which register states the OS saves (call only when cpuid says OSXSAVE).
inline uint64_t xcr0() {
#if defined(_MSC_VER) && !defined(__clang__)
    return (uint64_t)_xgetbv(0);
#else
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
#endif
}
#endif

// The highest level this CPU and OS support (computed once per call; cheap).
inline int simd_detect() {
#if ROUGE_X86_DISPATCH
    CpuidRegs l0 = cpuid(0, 0);
    CpuidRegs l1 = cpuid(1, 0);
    bool osxsave = (l1.c >> 27) & 1, avx = (l1.c >> 28) & 1, popcnt = (l1.c >> 23) & 1;
    if (!(osxsave && avx && popcnt) || l0.a < 7) return SIMD_SSE2;
    uint64_t x = xcr0();
    if ((x & 0x6) != 0x6) return SIMD_SSE2;  // XMM and YMM state
    CpuidRegs l7 = cpuid(7, 0);
    bool avx2 = (l7.b >> 5) & 1, bmi1 = (l7.b >> 3) & 1, bmi2 = (l7.b >> 8) & 1;
    if (!(avx2 && bmi1 && bmi2)) return SIMD_SSE2;
    bool f = (l7.b >> 16) & 1, bw = (l7.b >> 30) & 1, vl = (l7.b >> 31) & 1, vbmi2 = (l7.c >> 6) & 1;
    if (f && bw && vl && vbmi2 && (x & 0xE6) == 0xE6) return SIMD_AVX512;  // + opmask, ZMM0-15 high, ZMM16-31
    return SIMD_AVX2;
#elif ROUGE_NEON
    return SIMD_NEON;
#else
    return SIMD_SCALAR;
#endif
}

// Whether the CPU has GFNI (cpuid leaf 7, ECX bit 8). Its 128-bit form needs no register state
// beyond SSE's.
inline bool cpu_gfni() {
#if ROUGE_X86_DISPATCH
    if (cpuid(0, 0).a < 7) return false;
    return (cpuid(7, 0).c >> 8) & 1;
#else
    return false;
#endif
}

// The lowest level of this architecture (what a build without dispatch would run).
inline int simd_baseline() {
#if ROUGE_X86_DISPATCH || ROUGE_SSE2
    return SIMD_SSE2;
#elif ROUGE_NEON
    return SIMD_NEON;
#else
    return SIMD_SCALAR;
#endif
}

// The level in use: -1 until first read (then the detected one) or set.
inline std::atomic<int> SIMD_LEVEL{-1};

inline int simd_level() {
    int v = SIMD_LEVEL.load(std::memory_order_relaxed);
    if (v < 0) {
        v = simd_detect();
        SIMD_LEVEL.store(v, std::memory_order_relaxed);
    }
    return v;
}

#ifndef ROUGE_GFNI
#define ROUGE_GFNI 0
#endif
// GFNI in use: at the AVX-512 level on a CPU that has it (so that forcing a lower level also turns
// it off: every level is testable on one machine). Read once per call of a kernel that uses it.
inline const bool CPU_GFNI = cpu_gfni();
inline bool simd_gfni() { return ROUGE_GFNI && CPU_GFNI && simd_level() == SIMD_AVX512; }

// Set the level by name ("" or "auto": the detected one). Returns an empty string, or the error:
// an unknown name, or a level this CPU lacks (named with the levels it has).
inline std::string set_simd_level(const char* name) {
    int top = simd_detect();
    std::string s = name ? name : "";
    for (char& ch : s) ch = (char)((ch >= 'A' && ch <= 'Z') ? ch + 32 : ch);
    if (s.empty() || s == "auto") {
        SIMD_LEVEL.store(top, std::memory_order_relaxed);
        return std::string();
    }
    std::string avail = SIMD_NAMES[SIMD_SCALAR];
    for (int l = simd_baseline(); l <= top; ++l)
        if (l != SIMD_SCALAR) avail += std::string(", ") + SIMD_NAMES[l];
    for (int l = 0; l < SIMD_COUNT; ++l) {
        if (s != SIMD_NAMES[l]) continue;
        if (l > top || (l != SIMD_SCALAR && l < simd_baseline()))
            return "SIMD level " + s + " is not supported by this CPU or build; available: " + avail;
        SIMD_LEVEL.store(l, std::memory_order_relaxed);
        return std::string();
    }
    return "unknown SIMD level " + s + "; expected one of: auto, " + avail;
}

}  // namespace rouge
