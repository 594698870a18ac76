// x ** y for ROUGE-W (f(k) = k^w, the totals; ^(1/w) for P, R and the -f B selection), the same
// double on every CPU, OS and compiler, and the same as rouge_metric/core_py.py wpow, statement for
// statement. The C library's pow() is not one function: glibc picks one of two implementations by
// CPU (with or without FMA), and they differ in the last bit for about one input in a thousand. This
// one uses only + - * / (correctly rounded IEEE operations; the build turns off contraction into
// FMA) and frexp/ldexp/floor (exact), in a fixed order. Faithfully rounded (within one unit in the
// last place; measured 0.61 ulp at most). Pure functions: any thread.
#pragma once

#include <cfloat>
#include <cmath>

#include "common.hpp"

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "rouge_metric needs double arithmetic evaluated in double (SSE2 on x86, not the x87 unit)"
#endif

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

constexpr double WP_SPLIT = 134217729.0;  // 2^27 + 1: Veltkamp's split
constexpr double WP_SQRT_HALF = 0x1.6a09e667f3bcdp-1;
constexpr double WP_LN2_HI = 0x1.62e42fee00000p-1;  // ln 2 to 32 bits: k * WP_LN2_HI is exact
constexpr double WP_LN2_LO = 0x1.a39ef35793c76p-33;
constexpr double WP_INV_LN2 = 0x1.71547652b82fep+0;
// 1/3, 1/5, ..., 1/25 and 1/2!, 1/3!, ..., 1/14!, correctly rounded (the Python twin's constants).
constexpr double WP_ATANH[12] = {0x1.5555555555555p-2, 0x1.999999999999ap-3, 0x1.2492492492492p-3,
                                 0x1.c71c71c71c71cp-4, 0x1.745d1745d1746p-4, 0x1.3b13b13b13b14p-4,
                                 0x1.1111111111111p-4, 0x1.e1e1e1e1e1e1ep-5, 0x1.af286bca1af28p-5,
                                 0x1.8618618618618p-5, 0x1.642c8590b2164p-5, 0x1.47ae147ae147bp-5};
constexpr double WP_EXPM1[13] = {0x1.0000000000000p-1,  0x1.5555555555555p-3,  0x1.5555555555555p-5,
                                 0x1.1111111111111p-7,  0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13,
                                 0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19, 0x1.27e4fb7789f5cp-22,
                                 0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33,
                                 0x1.93974a8c07c9dp-37};

struct DD {
    double hi, lo;
};

inline DD two_sum(double a, double b) {
    double s = a + b;
    double bb = s - a;
    return DD{s, (a - (s - bb)) + (b - bb)};
}

inline DD fast_two_sum(double a, double b) {
    double s = a + b;
    return DD{s, b - (s - a)};
}

inline DD two_prod(double a, double b) {
    double p = a * b;
    double c = WP_SPLIT * a;
    double ah = c - (c - a);
    double al = a - ah;
    c = WP_SPLIT * b;
    double bh = c - (c - b);
    double bl = b - bh;
    return DD{p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

// x ** y for x >= 0 and y > 0 (core_py.wpow). O(1).
inline double wpow(double x, double y) {
    if (x == 0.0 || x == 1.0 || std::isinf(x)) return x;
    int e;
    double m = std::frexp(x, &e);
    if (m < WP_SQRT_HALF) {
        m = m * 2.0;
        e -= 1;
    }
    double f = m - 1.0;
    DD g = two_sum(m, 1.0);
    double s = f / g.hi;
    DD p = two_prod(s, g.hi);
    double s_lo = (((f - p.hi) - p.lo) - s * g.lo) / g.hi;
    double t = s * s;
    double q = WP_ATANH[11];
    for (int i = 10; i >= 0; --i) q = WP_ATANH[i] + t * q;
    DD lm = fast_two_sum(2.0 * s, 2.0 * s_lo + 2.0 * ((s * t) * q));
    double ef = (double)e;
    DD a = two_sum(ef * WP_LN2_HI, lm.hi);
    DD l = fast_two_sum(a.hi, a.lo + (lm.lo + ef * WP_LN2_LO));
    double z = y * l.hi;
    if (z > 709.8) return HUGE_VAL;
    if (z < -745.2) return 0.0;
    DD zz = two_prod(y, l.hi);
    zz = fast_two_sum(zz.hi, zz.lo + y * l.lo);
    double kf = std::floor(zz.hi * WP_INV_LN2 + 0.5);
    DD r = two_sum(zz.hi, -(kf * WP_LN2_HI));
    r = two_sum(r.hi, r.lo + (zz.lo - kf * WP_LN2_LO));
    q = WP_EXPM1[12];
    for (int i = 11; i >= 0; --i) q = WP_EXPM1[i] + r.hi * q;
    DD h = two_sum(1.0, r.hi);
    double lo = h.lo + ((r.hi * r.hi) * q + (r.lo + r.lo * r.hi));
    return std::ldexp(h.hi + lo, (int)kf);
}

}  // namespace
}  // namespace rouge
