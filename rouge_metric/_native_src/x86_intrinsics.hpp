// The x86 intrinsics for GCC and Clang (x86intrin.h: immintrin.h's vector intrinsics, and
// _addcarry_u64 and the like); included by simd.hpp and kernels_lcs.hpp on x86-64 only.
// GCC 12's AVX-512 headers give an intrinsic's unused merge operand the "undefined" value
// `__m512i __Y = __Y;`, which GCC 12 then reports (-Wmaybe-uninitialized, -Wuninitialized) wherever
// such an intrinsic is inlined (GCC bug 105593; the value is never read: the mask keeps every lane).
// The warnings are turned off for the header's own lines only, so that they still cover the core's code.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <x86intrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
