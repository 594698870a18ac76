// Compiler portability: every compiler builtin of the native core, spelled once for GCC/Clang and MSVC.
//
// Only baseline instructions of each target: nothing here needs a CPU feature beyond what the target
// architecture guarantees (x86-64: SSE2; no POPCNT/LZCNT/BMI, so a wheel runs on any x86-64 CPU).
// Code for newer CPUs lives only in the functions of a SIMD level (simd.hpp), called after cpuid.
// GCC/Clang compile __builtin_popcountll without -mpopcnt to a baseline sequence; MSVC's
// __popcnt64 needs the POPCNT instruction, so MSVC gets the same SWAR count written out.
// _BitScanForward64/_BitScanReverse64 are BSF/BSR (baseline x86-64; ARM64 has them too).
//
// Included by common.hpp; pure functions and macros, no state.
#pragma once

#include <cstdint>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#include <stdlib.h>  // _byteswap_uint64
#endif

// SSE2 (baseline x86-64) code paths of text.hpp: GCC/Clang define __SSE2__, MSVC never does (it
// always has SSE2 on x64 and says so with _M_X64, or _M_IX86_FP >= 2 on 32-bit x86).
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define ROUGE_SSE2 1
#else
#define ROUGE_SSE2 0
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define ROUGE_FORCE_INLINE __forceinline
#define ROUGE_NOINLINE __declspec(noinline)
#define ROUGE_LIKELY(x) (x)
#if defined(_M_X64) || defined(_M_IX86)
#include <xmmintrin.h>  // _mm_prefetch (SSE: baseline)
#define ROUGE_PREFETCH(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
#else
#define ROUGE_PREFETCH(p) ((void)(p))
#endif
#else
#define ROUGE_FORCE_INLINE __attribute__((always_inline)) inline
#define ROUGE_NOINLINE __attribute__((noinline))
#define ROUGE_LIKELY(x) __builtin_expect(!!(x), 1)
#define ROUGE_PREFETCH(p) __builtin_prefetch(p)
#endif

namespace rouge {

#if defined(_MSC_VER) && !defined(__clang__)
inline int popcount64(uint64_t x) {  // SWAR: no POPCNT instruction needed
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
inline int clz64(uint64_t x) {  // x != 0
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
}
inline int ctz64(uint64_t x) {  // x != 0
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
inline int ctz32(uint32_t x) {  // x != 0
    unsigned long i;
    _BitScanForward(&i, x);
    return (int)i;
}
inline uint64_t bswap64(uint64_t x) { return _byteswap_uint64(x); }
#else
inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
inline int clz64(uint64_t x) { return __builtin_clzll(x); }  // x != 0
inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }  // x != 0
inline int ctz32(uint32_t x) { return __builtin_ctz(x); }    // x != 0
inline uint64_t bswap64(uint64_t x) { return __builtin_bswap64(x); }
#endif

}  // namespace rouge
