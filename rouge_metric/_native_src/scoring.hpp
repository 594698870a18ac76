// Statistics -> scores: the sufficient statistics of one (prediction, reference, type) from the
// kernels, P/R/F, the multi-reference modes and exact (Shewchuk) sums. Mirrors scoring.py double for
// double (tests/test_backends.py). Ownership: TypeScorer and Spec are read-only after construction;
// Partials belong to the thread that adds to them.
#pragma once

#include "common.hpp"
#include "kernels_lcs.hpp"
#include "kernels_ngram.hpp"
#include "kernels_pair.hpp"
#include "kernels_wlcs.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

inline double round5(double x) {  // ROUGE-1.5.5's sprintf("%7.5f"), as float("%.5f" % x)
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.5f", x);
    return std::strtod(buf, nullptr);
}

// ------------------------------------------------------------------------------------ type specs
// The kinds of rouge type (rouge_metric._native.Kind; config.TypeSpec.kind names them): ROUGE-N,
// rougeL, rougeLsum, rougeW, ROUGE-S/SU.
enum class Kind : int { NGRAM = 0, LCS = 1, LCSUM = 2, WLCS = 3, SKIP = 4 };
struct Spec {
    Kind kind;
    int n;
    int skip;
    bool unigrams;
    double weight;
};

// scoring.pair_stats for one (prediction, reference) pair and one type.
inline Stats pair_stat(Workspace& ws, const Spec& s, const Doc& pred, const Doc& ref, bool sel) {
    Stats o{0, 0, 0, 0};
    switch (s.kind) {
        case Kind::NGRAM: {
            int64_t np = (int64_t)pred.ids.size() - s.n + 1, nr = (int64_t)ref.ids.size() - s.n + 1;
            int64_t h = ngram_hits(ws, pred.all(), ref.all(), s.n);
            o.hit = (double)h;
            o.pt = (double)std::max<int64_t>(np, 0);
            o.rt = (double)std::max<int64_t>(nr, 0);
            if (sel) o.sel = o.rt ? round5(o.hit / o.rt) : 0.0;
            break;
        }
        case Kind::LCS: {
            int64_t h = (pred.ids.empty() || ref.ids.empty()) ? 0 : lcs_len(ws, ref.all(), pred.all());
            o.hit = (double)h;
            o.pt = (double)pred.ids.size();
            o.rt = (double)ref.ids.size();
            if (sel) o.sel = o.rt ? o.hit / o.rt : 0.0;
            break;
        }
        case Kind::LCSUM: {
            int64_t h, a, b;
            union_lcs(ws, ref, pred, h, a, b);
            o.hit = (double)h;
            o.pt = (double)a;
            o.rt = (double)b;
            if (sel) o.sel = b ? o.hit / o.rt : 0.0;
            break;
        }
        case Kind::SKIP: {
            int64_t h, a, b;
            skip_hits(ws, pred.all(), ref.all(), s.skip, s.unigrams, h, a, b);
            o.hit = (double)h;
            o.pt = (double)a;
            o.rt = (double)b;
            if (sel) o.sel = b ? round5(o.hit / o.rt) : 0.0;
            break;
        }
        case Kind::WLCS:
        default:
            o = wlcs(ws, ref, pred, s.weight);
    }
    return o;
}

// Whether d is one sentence of all its tokens.
inline bool one_sentence(const Doc& d) { return d.nsent() == 1 && d.sb[0] == 0 && d.sb[1] == d.ids.size(); }

// scoring.pair_stats for one pair and every type: out[k * stride] for specs[k], k < T. ROUGE-N, rougeL
// and rougeLsum run on the pair in per-pair ids (kernels_pair.hpp; made once for all of them), the
// other kinds on the global ids (pair_stat). Same statistics as pair_stat type by type.
// rougeLsum of a pair whose sides are one sentence each (a text without line breaks: most single-line
// summaries, and long documents given as one line) is rougeL's LCS: rouge-score's union LCS is then
// one LCS of the two texts, and every token of it is a hit (a token's count on either side is at
// least its count in a common subsequence, so the clipping never binds). The LCS is computed once for
// both types.
inline void pair_stats(Workspace& ws, const Spec* specs, size_t T, const Doc& pred, const Doc& ref, bool sel,
                       Stats* out, size_t stride) {
    size_t K = SIZE_MAX;  // per-pair ids not made yet
    int reduced = -1;     // rougeL's reduced pair: not made yet, 0 (an empty side), 1
    int64_t lcs = -1;     // the LCS length of the pair: not computed yet
    auto pair_lcs = [&]() {
        if (lcs < 0) {
            if (reduced < 0) reduced = reduce_pair(ws) ? 1 : 0;
            lcs = reduced ? lcs_len(ws, Seq{ws.rref.data(), ws.rref.size()}, Seq{ws.rpred.data(), ws.rpred.size()}, K) : 0;
        }
        return lcs;
    };
    for (size_t k = 0; k < T; ++k) {
        const Spec& s = specs[k];
        Stats& o = out[k * stride];
        if (s.kind == Kind::WLCS || s.kind == Kind::SKIP) {
            o = pair_stat(ws, s, pred, ref, sel);
            continue;
        }
        if (K == SIZE_MAX) K = pair_local_ids(ws, pred, ref);
        o = Stats{0, 0, 0, 0};
        const Doc &P = ws.lpred, &R = ws.lref;
        if (s.kind == Kind::NGRAM) {
            int64_t np = (int64_t)P.ids.size() - s.n + 1, nr = (int64_t)R.ids.size() - s.n + 1;
            int64_t h = s.n == 1   ? unigram_hits_local(ws, K)
                        : s.n == 2 ? bigram_hits_local(ws, P.all(), R.all(), K)
                                   : ngram_hits(ws, P.all(), R.all(), s.n);
            o.hit = (double)h;
            o.pt = (double)std::max<int64_t>(np, 0);
            o.rt = (double)std::max<int64_t>(nr, 0);
            if (sel) o.sel = o.rt ? round5(o.hit / o.rt) : 0.0;
        } else if (s.kind == Kind::LCS) {
            const int64_t h = pair_lcs();
            o.hit = (double)h;
            o.pt = (double)P.ids.size();
            o.rt = (double)R.ids.size();
            if (sel) o.sel = o.rt ? o.hit / o.rt : 0.0;
        } else {  // Kind::LCSUM
            int64_t h, a, b;
            if (one_sentence(P) && one_sentence(R)) {
                h = pair_lcs();
                a = (int64_t)P.ids.size();
                b = (int64_t)R.ids.size();
            } else {
                union_lcs_local(ws, h, a, b);
            }
            o.hit = (double)h;
            o.pt = (double)a;
            o.rt = (double)b;
            if (sel) o.sel = b ? o.hit / o.rt : 0.0;
        }
    }
}

// -------------------------------------------------------------------------- P / R / F, multi-ref
// Multi-reference modes (rouge_metric._native.Mode; RougeConfig.multi_ref names them): the best F, the
// mean of P, R and F, the pooled statistics, the reference with the best recall (ROUGE-1.5.5's -f B).
enum class Mode : int { MAX = 0, MEAN = 1, POOL = 2, BEST_RECALL = 3 };
// F-measures (rouge_metric._native.FMeasure): 2PR / (P + R); ROUGE-1.5.5's alpha (parameter: alpha);
// the general F-beta (parameter: beta^2).
enum class FMeasure : int { F1 = 0, ALPHA = 1, BETA = 2 };

struct Fm {
    FMeasure kind;
    double a;  // alpha, or beta^2
    double operator()(double p, double r) const {
        if (kind == FMeasure::ALPHA) {
            double d = (1.0 - a) * p + a * r;
            return d > 0 ? p * r / d : 0.0;
        }
        if (kind == FMeasure::F1) return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
        double d = a * p + r;
        return d > 0 ? (1 + a) * p * r / d : 0.0;
    }
};

struct Triple {
    double p, r, f;
};

// math.fsum (Shewchuk partials, correctly rounded), as CPython's implementation.
struct Partials {
    std::vector<double> p;
    // O(partials) per value, branch-free in the loop (which partial survives is unpredictable): the
    // same operations and partials as msum's loop.
    void add(double x) {
        const size_t n = p.size();
        double* q = p.data();
        size_t i = 0;
        for (size_t k = 0; k < n; ++k) {
            const double y0 = q[k];
            const bool sw = std::fabs(x) < std::fabs(y0);
            const double a = sw ? y0 : x, b = sw ? x : y0;
            const double hi = a + b;
            const double lo = b - (hi - a);
            q[i] = lo;  // i <= k: overwrites a partial already read
            i += lo != 0.0;
            x = hi;
        }
        if (i < n) {
            q[i] = x;
            p.resize(i + 1);
        } else {
            p.push_back(x);
        }
    }
    double sum() const {
        size_t n = p.size();
        double hi = 0.0;
        if (n > 0) {
            hi = p[--n];
            double lo = 0.0;
            while (n > 0) {
                double x = hi, y = p[--n];
                hi = x + y;
                double yr = hi - x;
                lo = y - yr;
                if (lo != 0.0) break;
            }
            if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
                double y = lo * 2.0;
                double x = hi + y;
                double yr = x - hi;
                if (y == yr) hi = x;
            }
        }
        return hi;
    }
};

// The exact sum of a column of doubles in fixed point: every finite double below 2^64 in magnitude is
// an integer multiple of 2^-1074 (the smallest subnormal) of at most 53 significant bits, so it adds
// exactly into 32-bit limbs of that integer kept in int64 counters (the spare high bits absorb the
// carries; they are propagated every 2^28 additions, long before a counter could overflow). A value of
// 2^64 or more (or not finite) goes to a Partials instead. partials() turns the limbs into doubles (each
// limb times a power of two: exact) and adds them and the rare values into one Partials: the same exact
// sum as adding every value to a Partials one by one (Partials::add is exact), so the correctly rounded
// sum, and every mean made from it, is the same double. Sums of several threads add limb by limb
// (merge), exactly.
//
// The common case first: a non-negative value in [2^-64, 2^64) (every score and length) adds its
// significand (53 bits with the leading 1) into the integer counter of its exponent, `win` (one load,
// add and store); every PENDING_MAX such additions, and before the limbs are read, each counter moves
// into the limbs as one value (flush). A counter holds at most PENDING_MAX significands, < 2^63, so it
// never overflows, and the limbs receive the same integer as from the values one by one. O(1) per
// value; a flush is O(WIN).
struct FixedSum {
    static constexpr int RARE_EXP = 1087;  // biased exponent of 2^64: from it on, a value goes to rare
    static constexpr int LIMBS = 37;       // (RARE_EXP - 1 + 53) / 32 + 2 (room for the top carry)
    static constexpr uint32_t WIN = 128;   // win[e]: the values of biased exponent WIN_LO + e
    static constexpr uint32_t WIN_LO = RARE_EXP - WIN;
    static constexpr uint32_t PENDING_MAX = 1024;  // PENDING_MAX * 2^53 <= 2^63
    int64_t limb[LIMBS] = {};
    uint32_t adds = 0;
    uint32_t pending = 0;  // values in win since the last flush
    uint64_t win[WIN] = {};
    Partials rare;
    ROUGE_FORCE_INLINE void add(double x) {
        uint64_t b;
        std::memcpy(&b, &x, 8);
        // Sign and exponent: a negative value's are >= 2048, outside the window.
        const uint64_t e = (b >> 52) - WIN_LO;
        if (e < WIN) {
            win[e] += (b & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);  // normal: the leading 1
            if (++pending == PENDING_MAX) flush();
            return;
        }
        if (b == 0) return;  // +0.0 (a score of 0)
        const uint32_t ex = (uint32_t)(b >> 52) & 0x7FF;
        if (ex >= (uint32_t)RARE_EXP) {
            rare.add(x);
            return;
        }
        // |x| = m * 2^(s - 1074): normal m = 1.mantissa (53 bits), s = ex - 1; subnormal s = 0.
        uint64_t m = b & (((uint64_t)1 << 52) - 1);
        const uint32_t normal = ex != 0;
        m |= (uint64_t)normal << 52;
        add_scaled(m, ex - normal, -(int64_t)(b >> 63));
    }
    // v * 2^(s - 1074), negated when sg is -1 (sg 0 or -1), into the limbs: v < 2^64, s < RARE_EXP - 1.
    ROUGE_FORCE_INLINE void add_scaled(uint64_t v, uint32_t s, int64_t sg) {
        const uint32_t i = s >> 5, o = s & 31;
        const uint64_t w0 = (v & 0xFFFFFFFFu) << o, w1 = (v >> 32) << o;  // < 2^63 each
        const int64_t a0 = (int64_t)(w0 & 0xFFFFFFFFu), a1 = (int64_t)((w0 >> 32) + (w1 & 0xFFFFFFFFu)),
                      a2 = (int64_t)(w1 >> 32);
        int64_t* L = limb + i;  // (a ^ sg) - sg negates a negative value's words
        L[0] += (a0 ^ sg) - sg;
        L[1] += (a1 ^ sg) - sg;
        L[2] += (a2 ^ sg) - sg;
        if (++adds == ((uint32_t)1 << 28)) carry();
    }
    // The window's counters into the limbs (the value is unchanged).
    void flush() {
        for (uint32_t e = 0; e < WIN; ++e)
            if (win[e]) {
                add_scaled(win[e], WIN_LO + e - 1, 0);  // biased exponent WIN_LO + e, normal
                win[e] = 0;
            }
        pending = 0;
    }
    // Every limb but the top one into [0, 2^32), the carries moved up (the value is unchanged).
    void carry() {
        for (int k = 0; k + 1 < LIMBS; ++k) {
            const int64_t c = limb[k] >> 32;  // floor division by 2^32 (arithmetic shift)
            limb[k] -= c * ((int64_t)1 << 32);
            limb[k + 1] += c;
        }
        adds = 0;
    }
    void merge(const FixedSum& o) {
        flush();
        carry();
        FixedSum t = o;
        t.flush();
        t.carry();
        for (int k = 0; k < LIMBS; ++k) limb[k] += t.limb[k];
        carry();
        for (double x : o.rare.p) rare.add(x);
    }
    // The exact sum as Shewchuk partials.
    Partials partials() const {
        FixedSum t = *this;
        t.flush();
        t.carry();
        Partials out;
        for (int k = 0; k < LIMBS; ++k)
            if (t.limb[k]) out.add(std::ldexp((double)t.limb[k], 32 * k - 1074));  // exact: < 2^53 * 2^e
        for (double x : rare.p) out.add(x);
        return out;
    }
};

// scoring._TypeScorer.score / combine.
struct TypeScorer {
    bool w;
    double inv;
    Fm f;
    Triple score(double h, double pt, double rt) const {
        double p, r;
        if (!w) {
            p = pt ? h / pt : 0.0;
            r = rt ? h / rt : 0.0;
        } else {
            p = pt ? wpow(h / pt, inv) : 0.0;
            r = rt ? wpow(h / rt, inv) : 0.0;
        }
        return Triple{p, r, f(p, r)};
    }
    Triple combine(const Stats* st, size_t k, size_t stride, Mode mode) const {
        if (k == 1) return score(st[0].hit, st[0].pt, st[0].rt);
        if (mode == Mode::MAX) {
            Triple best = score(st[0].hit, st[0].pt, st[0].rt);
            for (size_t j = 1; j < k; ++j) {
                const Stats& s = st[j * stride];
                Triple sc = score(s.hit, s.pt, s.rt);
                if (sc.f > best.f) best = sc;
            }
            return best;
        }
        if (mode == Mode::MEAN) {
            Partials a, b, c;
            for (size_t j = 0; j < k; ++j) {
                const Stats& s = st[j * stride];
                Triple sc = score(s.hit, s.pt, s.rt);
                a.add(sc.p);
                b.add(sc.r);
                c.add(sc.f);
            }
            double kk = (double)k;
            return Triple{a.sum() / kk, b.sum() / kk, c.sum() / kk};
        }
        if (mode == Mode::POOL) {
            double h = 0.0, a = 0.0, b = 0.0;
            for (size_t j = 0; j < k; ++j) {
                const Stats& s = st[j * stride];
                h += s.hit;
                a += s.pt;
                b += s.rt;
            }
            return score(h, a, b);
        }
        const Stats* best = st;
        double key = -1.0;
        for (size_t j = 0; j < k; ++j) {
            const Stats& s = st[j * stride];
            if (s.sel > key) {
                best = &s;
                key = s.sel;
            }
        }
        return score(best->hit, best->pt, best->rt);
    }
};

}  // namespace
}  // namespace rouge
