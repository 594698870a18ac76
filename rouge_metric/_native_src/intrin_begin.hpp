// Included right before a system intrinsics header (x86intrin.h, immintrin.h), intrin_end.hpp right
// after it. GCC 12's AVX-512 headers give an intrinsic's unused merge operand the "undefined" value
// `__m512i __Y = __Y;`, which GCC 12 then reports (-Wmaybe-uninitialized, -Wuninitialized) wherever
// such an intrinsic is inlined (GCC bug 105593; the value is never read: the mask keeps every lane).
// The warnings are turned off for the headers' own lines only, so that they still cover the core's code.
// No include guard: each use pushes the diagnostic state that intrin_end.hpp pops.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
