// ROUGE-N and ROUGE-S/SU kernels: clipped overlap counts of n-grams and skip-bigrams.
// Reference: core_py.ngram_overlap and core_py.skip_bigram_overlap. Ownership: only the calling
// thread's Workspace is touched.
#pragma once

#include "common.hpp"
#include "hash.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// ROUGE-N clipped overlap. O(m + n) expected (hash counts); n >= 3 interns the n-grams level by level.
inline int64_t ngram_hits(Workspace& ws, Seq P, Seq R, int n) {
    if ((int64_t)P.n < n || (int64_t)R.n < n) return 0;
    if (n == 1) {
        int32_t* c = ws.cnt_a.data();
        for (size_t i = 0; i < P.n; ++i) c[P.p[i]]++;
        int64_t hit = 0;
        for (size_t i = 0; i < R.n; ++i) {
            int32_t& x = c[R.p[i]];
            int32_t h = x > 0;
            hit += h;
            x -= h;
        }
        for (size_t i = 0; i < P.n; ++i) c[P.p[i]] = 0;
        return hit;
    }
    size_t np = P.n - n + 1, nr = R.n - n + 1;
    PairTable& t = ws.table;
    if (n == 2) {
        // Reference bigrams are inserted too (count 0 when absent): no branch on whether they match.
        t.reset(np + nr);
        for (size_t i = 0; i < np; ++i) t.at(pack(P.p[i], P.p[i + 1]))++;
        int64_t hit = 0;
        for (size_t i = 0; i < nr; ++i) {
            int32_t& x = t.at(pack(R.p[i], R.p[i + 1]));
            int32_t h = x > 0;
            hit += h;
            x -= h;
        }
        return hit;
    }
    // n >= 3: gram ids of length k from (id of the (k-1)-gram, next token), exact.
    std::vector<int32_t>&gp = ws.g1, &gr = ws.g2, &hp = ws.h1, &hr = ws.h2;
    gp.assign(P.p, P.p + P.n);
    gr.assign(R.p, R.p + R.n);
    int32_t next = 0;
    for (int k = 2; k <= n; ++k) {
        t.reset(gp.size() + gr.size());
        next = 0;
        hp.resize(P.n - k + 1);
        hr.resize(R.n - k + 1);
        for (size_t i = 0; i < hp.size(); ++i) {
            int32_t& v = t.at(pack(gp[i], P.p[i + k - 1]));
            if (v == 0) v = ++next;
            hp[i] = v - 1;
        }
        for (size_t i = 0; i < hr.size(); ++i) {
            int32_t& v = t.at(pack(gr[i], R.p[i + k - 1]));
            if (v == 0) v = ++next;
            hr[i] = v - 1;
        }
        gp.swap(hp);
        gr.swap(hr);
    }
    std::vector<int32_t> c((size_t)next, 0);
    for (int32_t g : gp) c[g]++;
    int64_t hit = 0;
    for (int32_t g : gr) {
        if (c[g] > 0) {
            ++hit;
            --c[g];
        }
    }
    return hit;
}

// ROUGE-S/SU: pairs with 1 <= j - i <= skip + 1 (any when skip < 0), SU adds the unigrams of all
// positions but the last. O(len * skip) (O(len^2) unlimited) expected time, O(distinct pairs) memory.
// Stops early (meaningless counts) when ws is interrupted.
constexpr uint32_t UNI = 0xFFFFFFFFu;
inline void skip_hits(Workspace& ws, Seq P, Seq R, int skip, bool uni, int64_t& hit, int64_t& pt, int64_t& rt) {
    hit = pt = rt = 0;
    auto span = [skip](size_t L) -> size_t { return skip < 0 ? L : (size_t)skip + 1; };
    PairTable& t = ws.table;
    size_t L = P.n;
    size_t dmax = span(L);
    size_t expect = L < 2 ? 0 : (L - 1) * std::min(dmax, L - 1) + L;
    if (expect > 4096) {  // distinct keys <= V^2 + V (V distinct tokens): do not size by pairs
        int32_t* c = ws.cnt_a.data();
        size_t V = 0;
        for (size_t i = 0; i < L; ++i)
            if (c[P.p[i]]++ == 0) ++V;
        for (size_t i = 0; i < L; ++i) c[P.p[i]] = 0;
        expect = std::min(expect, V * V + V);
    }
    t.reset_hint(expect);
    if (L >= 2) {
        CheckPoints check(check_every(4 * std::min(dmax, L), 256));  // a table update: about 4 word operations
        for (size_t i = 0; i + 1 < L; ++i) {
            if (check.due() && ws.stopped()) return;
            size_t jmax = std::min(L - 1, i + dmax);
            for (size_t j = i + 1; j <= jmax; ++j) {
                t.at_growing(pack(P.p[i], P.p[j]))++;
                ++pt;
            }
            if (uni) {
                t.at_growing(pack(P.p[i], (int32_t)UNI))++;
                ++pt;
            }
        }
    }
    L = R.n;
    if (L < 2) return;
    dmax = span(L);
    CheckPoints check(check_every(4 * std::min(dmax, L), 256));
    for (size_t i = 0; i + 1 < L; ++i) {
        if (check.due() && ws.stopped()) return;
        size_t jmax = std::min(L - 1, i + dmax);
        for (size_t j = i + 1; j <= jmax; ++j) {
            ++rt;
            if (pt) {
                int32_t* x = t.find(pack(R.p[i], R.p[j]));
                if (x && *x > 0) {
                    ++hit;
                    --*x;
                }
            }
        }
        if (uni) {
            ++rt;
            if (pt) {
                int32_t* x = t.find(pack(R.p[i], (int32_t)UNI));
                if (x && *x > 0) {
                    ++hit;
                    --*x;
                }
            }
        }
    }
}

}  // namespace
}  // namespace rouge
