// The native core's kernels against textbook dynamic programming and brute force, in plain C++: no
// Python, no pybind11. It includes the core headers of rouge_metric/_native_src (every one but the
// binding layer's py_*.hpp), so it also proves that they compile without Python.h.
//
//   c++ -std=c++17 -O1 -ffp-contract=off -pthread -I rouge_metric/_native_src -I DIR
//       tests/cpp/kernels_check.cpp -o kernels_check && ./kernels_check [seed [rounds]]
//
// (DIR holds the generated lower_table.h: python rouge_metric/_native_src/gen_lower_table.py DIR/lower_table.h.)
// tests/test_native_cpp.py builds and runs it; tools/sanitize.py runs it under the sanitizers.
//
// Checked, on random token sequences (lengths from 0 to several 64-bit words, alphabets from 1 to 1,000
// tokens: small ones make many ties), each under the default memory limits and under tiny ones
// (sparse match masks, DP rows recomputed from checkpoints):
// - rougeL: lcs_len against the O(mn) LCS table; lcs_mark against rouge-score's lcs_ind backtrack;
// - rougeLsum: union_lcs against rouge-score's _summary_level_lcs (union of lcs_ind per reference
//   sentence over the prediction sentences, clipped by token counts), short and long references;
// - rougeW: wlcs against ROUGE-1.5.5's full weighted-LCS table and traceback (core_py.wlcs_overlap);
// - ROUGE-N: ngram_hits against clipped counts of every n-gram;
// - ROUGE-S/SU: skip_hits against every pair within the skip distance (and the SU unigrams);
// - the workspace is left clean (its dense arrays zeroed) after every kernel call;
// - the pair path (kernels_pair.hpp: per-pair ids, rouge2's direct table and its hash table on both
//   sides of PAIR_DIRECT_CELLS, reduced sequences for rougeL and rougeLsum) through pair_stats against
//   the same oracles and against pair_stat on the global ids, with sparse global ids;
// - the batch's exact column sums (FixedSum, fixed point) against Shewchuk's partials (math.fsum's
//   algorithm): doubles of every magnitude (subnormal, both sides of the fixed-point range, negative),
//   carries at random points, merged halves; their sums agree exactly (the difference sums to 0);
// - a text batch (Vocab + Scorer::batch, with an external stemmer for some words) gives the same
//   values on 1 and 3 threads as Scorer::score_pair one example at a time;
// - jieba (jieba.hpp): random and corrupted dictionaries and HMM tables are refused or read, and a cut of
//   a random text is non-empty tokens that cover it in order (its words are checked against jieba itself
//   in tests/test_jieba_native.py).
// Exit status 0 when every check passed; else 1, with the first mismatches printed.

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "batch.hpp"
#include "common.hpp"
#include "ids.hpp"
#include "jieba.hpp"
#include "kernels_lcs.hpp"
#include "kernels_ngram.hpp"
#include "kernels_pair.hpp"
#include "kernels_wlcs.hpp"
#include "scoring.hpp"
#include "vocab.hpp"
#include "workspace.hpp"
#include "wpow.hpp"

#if defined(Py_PYTHON_H) || defined(PYBIND11_VERSION_MAJOR)
#error "a core header of rouge_metric/_native_src includes Python.h or pybind11: only py_*.hpp and bindings.cpp may"
#endif

using namespace rouge;
using Tokens = std::vector<int32_t>;
using Sents = std::vector<Tokens>;

namespace {

int failures = 0;
long checks = 0;

void fail(const char* what, const std::string& detail) {
    if (++failures <= 20) std::fprintf(stderr, "MISMATCH %s: %s\n", what, detail.c_str());
}

template <class T>
void expect_eq(const char* what, const T& got, const T& want, const std::string& where) {
    ++checks;
    if (!(got == want)) fail(what, where);
}

std::string show(const Tokens& t) {
    std::string s = "[";
    for (size_t i = 0; i < t.size(); ++i) s += (i ? "," : "") + std::to_string(t[i]);
    return s + "]";
}
std::string show(const Sents& ss) {
    std::string s = "{";
    for (const Tokens& t : ss) s += show(t);
    return s + "}";
}

// ------------------------------------------------------------------------------- textbook oracles
// The LCS table, L[i][j] = LCS of a[0, i) and b[0, j). O(mn).
std::vector<std::vector<int>> lcs_table(const Tokens& a, const Tokens& b) {
    std::vector<std::vector<int>> L(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j)
            L[i][j] = a[i - 1] == b[j - 1] ? L[i - 1][j - 1] + 1 : std::max(L[i - 1][j], L[i][j - 1]);
    return L;
}

// rouge-score's lcs_ind(ref, can): the backtrack that takes a match diagonally, else left when
// L[i][j-1] > L[i-1][j], else up. Indices into ref, increasing.
std::vector<size_t> lcs_ind(const Tokens& ref, const Tokens& can) {
    auto L = lcs_table(ref, can);
    std::vector<size_t> out;
    size_t i = ref.size(), j = can.size();
    while (i > 0 && j > 0) {
        if (ref[i - 1] == can[j - 1]) {
            out.insert(out.begin(), i - 1);
            --i, --j;
        } else if (L[i][j - 1] > L[i - 1][j]) {
            --j;
        } else {
            --i;
        }
    }
    return out;
}

// rouge-score's _summary_level_lcs: (hits, prediction tokens, reference tokens).
std::tuple<int64_t, int64_t, int64_t> union_lcs_oracle(const Sents& ref, const Sents& pred) {
    std::map<int32_t, int> cr, cc;
    int64_t m = 0, n = 0, hits = 0;
    for (const Tokens& s : ref)
        for (int32_t t : s) ++cr[t], ++m;
    for (const Tokens& s : pred)
        for (int32_t t : s) ++cc[t], ++n;
    if (!m || !n) return {0, n, m};
    for (const Tokens& r : ref) {
        std::set<size_t> uni;
        for (const Tokens& c : pred)
            for (size_t i : lcs_ind(r, c)) uni.insert(i);
        for (size_t i : uni) {
            int32_t t = r[i];
            if (cc[t] > 0 && cr[t] > 0) ++hits, --cc[t], --cr[t];
        }
    }
    return {hits, n, m};
}

// ROUGE-1.5.5's weighted LCS (core_py._wlcs_mark): the full tables C (score), K (run length) and
// B (1 diagonal, 2 up, 3 left), then the traceback marking the reference positions on the path.
void wlcs_mark_oracle(const Tokens& r, const Tokens& c, const std::vector<double>& powk, std::vector<int>& mask) {
    size_t m = r.size(), n = c.size();
    std::vector<std::vector<double>> C(m + 1, std::vector<double>(n + 1, 0.0));
    std::vector<std::vector<int>> K(m + 1, std::vector<int>(n + 1, 0)), B(m + 1, std::vector<int>(n + 1, 0));
    for (size_t i = 1; i <= m; ++i)
        for (size_t j = 1; j <= n; ++j) {
            if (r[i - 1] == c[j - 1]) {
                int k = K[i - 1][j - 1];
                C[i][j] = C[i - 1][j - 1] + powk[k + 1] - powk[k];
                K[i][j] = k + 1;
                B[i][j] = 1;
            } else if (C[i - 1][j] >= C[i][j - 1]) {
                C[i][j] = C[i - 1][j];
                B[i][j] = 2;
            } else {
                C[i][j] = C[i][j - 1];
                B[i][j] = 3;
            }
        }
    size_t i = m, j = n;
    while (i > 0 && j > 0) {
        if (B[i][j] == 1) {
            mask[i - 1] = 1;
            --i, --j;
        } else if (B[i][j] == 2) {
            --i;
        } else {
            --j;
        }
    }
}

// core_py.wlcs_overlap: (hit, pred_total, ref_total, select).
Stats wlcs_oracle(const Sents& ref, const Sents& pred, double f) {
    size_t n = 0, maxlen = 0;
    for (const Tokens& s : pred) n += s.size();
    maxlen = n;
    for (const Tokens& r : ref) maxlen = std::max(maxlen, r.size());
    std::vector<double> powk;
    for (size_t k = 0; k <= maxlen + 1; ++k) powk.push_back(wpow((double)k, f));
    double base = 0.0;
    for (const Tokens& r : ref) base += powk[r.size()];
    std::map<int32_t, int> cr, cc;
    for (const Tokens& s : ref)
        for (int32_t t : s) ++cr[t];
    for (const Tokens& s : pred)
        for (int32_t t : s) ++cc[t];
    double hit = 0.0;
    for (const Tokens& r : ref) {
        size_t L = r.size();
        if (!L) continue;
        std::vector<int> mask(L, 0);
        for (const Tokens& c : pred)
            if (!c.empty()) wlcs_mark_oracle(r, c, powk, mask);
        int64_t run = 0;
        for (size_t p = 0; p < L; ++p) {
            int32_t t = r[p];
            if (mask[p] && cr[t] > 0 && cc[t] > 0) {
                ++run;
                if (p + 1 < L) {
                    if (mask[p + 1] == 0) hit += powk[run], run = 0;
                } else {
                    hit += powk[run], run = 0;
                }
                --cr[t], --cc[t];
            }
        }
    }
    Stats s;
    s.hit = hit;
    s.pt = wpow((double)n, f);
    s.rt = wpow(base, f);
    s.sel = base > 0 ? wpow(hit / base, 1.0 / f) : 0.0;
    return s;
}

// Clipped n-gram hits: sum over n-grams of min(count in P, count in R).
int64_t ngram_oracle(const Tokens& P, const Tokens& R, int n) {
    std::map<Tokens, int> cp, cr;
    for (size_t i = 0; i + n <= P.size(); ++i) ++cp[Tokens(P.begin() + i, P.begin() + i + n)];
    for (size_t i = 0; i + n <= R.size(); ++i) ++cr[Tokens(R.begin() + i, R.begin() + i + n)];
    int64_t hit = 0;
    for (auto& kv : cp) {
        auto it = cr.find(kv.first);
        if (it != cr.end()) hit += std::min(kv.second, it->second);
    }
    return hit;
}

// ROUGE-1.5.5's createSkipBigram: pairs (t[i], t[j]) with 1 <= j - i <= skip + 1 (any when skip < 0);
// with unigrams, (t[i]) for every position but the last. Keys (a, b, is_pair).
using SkipKey = std::tuple<int32_t, int32_t, int>;
std::map<SkipKey, int> skip_counts(const Tokens& t, int skip, bool uni, int64_t& total) {
    std::map<SkipKey, int> c;
    total = 0;
    if (t.size() < 2) return c;
    for (size_t i = 0; i + 1 < t.size(); ++i) {
        for (size_t j = i + 1; j < t.size(); ++j)
            if (skip < 0 || (int64_t)(j - i) <= (int64_t)skip + 1) ++c[SkipKey{t[i], t[j], 1}], ++total;
        if (uni) ++c[SkipKey{t[i], 0, 0}], ++total;
    }
    return c;
}
std::tuple<int64_t, int64_t, int64_t> skip_oracle(const Tokens& P, const Tokens& R, int skip, bool uni) {
    int64_t pt, rt, hit = 0;
    auto cp = skip_counts(P, skip, uni, pt), cr = skip_counts(R, skip, uni, rt);
    for (auto& kv : cp) {
        auto it = cr.find(kv.first);
        if (it != cr.end()) hit += std::min(kv.second, it->second);
    }
    return {hit, pt, rt};
}

// ----------------------------------------------------------------------------- random inputs
std::mt19937_64 rng;
size_t pick(size_t n) { return (size_t)(rng() % n); }

const size_t LENGTHS[] = {0, 1, 2, 3, 7, 20, 63, 64, 65, 100, 127, 128, 129, 191, 200, 257, 300, 380, 420, 480, 520};
const int32_t ALPHABETS[] = {1, 2, 3, 4, 6, 12, 50, 1000};

Tokens random_tokens(size_t len, int32_t alpha) {
    Tokens t(len);
    for (auto& x : t) x = (int32_t)pick((size_t)alpha);
    return t;
}
size_t random_length() { return LENGTHS[pick(sizeof LENGTHS / sizeof LENGTHS[0])]; }

// Up to `most` sentences of about `len` tokens in total, some empty.
Sents random_sents(size_t len, int32_t alpha, size_t most = 5) {
    Sents s;
    size_t k = 1 + pick(most);
    for (size_t q = 0; q < k; ++q) s.push_back(random_tokens(pick(len / k + 2), alpha));
    return s;
}

Doc doc_of(const Sents& ss) {
    Doc d;
    for (const Tokens& s : ss) {
        if (s.empty()) continue;
        d.sb.push_back((uint32_t)d.ids.size());
        for (int32_t t : s) d.ids.push_back(t);
        d.sb.push_back((uint32_t)d.ids.size());
    }
    return d;
}
Seq seq(const Tokens& t) { return Seq{t.data(), t.size()}; }

// The kernels leave the dense arrays of the workspace as they found them.
void expect_clean(const Workspace& ws, int32_t alpha, const std::string& where) {
    bool clean = true;
    for (int32_t t = 0; t < alpha; ++t)
        clean &= ws.cnt_a[t] == 0 && ws.cnt_b[t] == 0 && ws.pm1[t] == 0 && ws.slot[t] == UINT32_MAX &&
                 ws.first[t] == UINT32_MAX;
    for (uint64_t x : ws.lpm) clean &= x == 0;  // the masks by per-pair id (lcs_len with K, lsum_hits)
    expect_eq("workspace left clean", clean, true, where);
}

// ------------------------------------------------------------------------------------ checks
void check_kernels(int rounds, bool tiny) {
    Workspace ws;
    if (tiny) {  // sparse match masks beyond one word, DP rows recomputed from checkpoints
        ws.limits.mask_bytes = 64;
        ws.limits.row_bytes = 512;
    }
    for (int it = 0; it < rounds; ++it) {
        int32_t alpha = ALPHABETS[pick(sizeof ALPHABETS / sizeof ALPHABETS[0])];
        ws.ensure((size_t)alpha + 1);
        Tokens a = random_tokens(random_length(), alpha), b = random_tokens(random_length(), alpha);
        const std::string where = std::string(tiny ? "tiny limits " : "") + "a=" + show(a) + " b=" + show(b);

        const int64_t want = (int64_t)lcs_table(a, b)[a.size()][b.size()];
        expect_eq("lcs_len", (int64_t)lcs_len(ws, seq(a), seq(b)), want, where);
        expect_clean(ws, alpha, where);
        {  // per-pair ids 1..K: the masks by id while (K + 1) x W words fit the limit (else as above)
            Tokens a1 = a, b1 = b;
            for (auto& x : a1) ++x;
            for (auto& x : b1) ++x;
            ws.ensure((size_t)alpha + 2);
            expect_eq("lcs_len (ids 1..K)", (int64_t)lcs_len(ws, seq(a1), seq(b1), (size_t)alpha), want, where);
            expect_clean(ws, alpha + 1, where);
        }

        if (!a.empty() && !b.empty()) {
            size_t W = (b.size() + 63) / 64;
            bool sparse = set_masks(ws, seq(b), W);
            std::vector<uint8_t> mark(a.size(), 0);
            lcs_mark(ws, sparse, seq(a), seq(b), W, mark.data());
            clear_masks(ws, seq(b), W);
            std::vector<size_t> got;
            for (size_t i = 0; i < mark.size(); ++i)
                if (mark[i]) got.push_back(i);
            expect_eq("lcs_mark (rouge-score lcs_ind)", got, lcs_ind(a, b), where);
            expect_clean(ws, alpha, where);
        }

        for (int n : {1, 2, 3, 4}) {
            expect_eq("ngram_hits", ngram_hits(ws, seq(a), seq(b), n), ngram_oracle(a, b, n),
                      where + " n=" + std::to_string(n));
            expect_clean(ws, alpha, where);
        }

        for (int skip : {-1, 0, 1, 4, 9}) {
            for (bool uni : {false, true}) {
                if (skip < 0 && (a.size() > 200 || b.size() > 200)) continue;  // the oracle's map is O(len^2)
                int64_t h, pt, rt;
                skip_hits(ws, seq(a), seq(b), skip, uni, h, pt, rt);
                auto want = skip_oracle(a, b, skip, uni);
                expect_eq("skip_hits", std::make_tuple(h, pt, rt), want,
                          where + " skip=" + std::to_string(skip) + " uni=" + std::to_string(uni));
                expect_clean(ws, alpha, where);
            }
        }

        // Every 8th round a long reference and many prediction sentences: union_lcs's occurrence-chain
        // path (reference tokens x prediction sentences > 8,192) instead of its direct scan.
        const bool longer = it % 8 == 0;
        Sents rs = random_sents(longer ? 3000 : random_length(), alpha, longer ? 8 : 5);
        Sents ps = random_sents(random_length(), alpha, longer ? 16 : 5);
        const std::string swhere = std::string(tiny ? "tiny limits " : "") + "ref=" + show(rs) + " pred=" + show(ps);
        Doc rd = doc_of(rs), pd = doc_of(ps);
        int64_t h, pt, rt;
        union_lcs(ws, rd, pd, h, pt, rt);
        expect_eq("union_lcs (rouge-score _summary_level_lcs)", std::make_tuple(h, pt, rt), union_lcs_oracle(rs, ps), swhere);
        expect_clean(ws, alpha, swhere);

        for (double f : {1.2, 1.5, 2.0}) {
            Stats got = wlcs(ws, rd, pd, f), want = wlcs_oracle(rs, ps, f);
            expect_eq("wlcs (ROUGE-1.5.5 weighted LCS)", std::make_tuple(got.hit, got.pt, got.rt, got.sel),
                      std::make_tuple(want.hit, want.pt, want.rt, want.sel), swhere + " w=" + std::to_string(f));
            expect_clean(ws, alpha, swhere);
        }
    }
}

// pair_stats (one pair, every type, per-pair ids) against the oracles and pair_stat on global ids.
// Global ids are spread (7 t + 3) so that per-pair ids differ from them; alphabets of up to 5,000
// tokens and references of up to 3,000 give pairs on both sides of rouge2's direct-table limit.
void check_pairs(int rounds, bool tiny) {
    Workspace ws;
    if (tiny) {
        ws.limits.mask_bytes = 64;
        ws.limits.row_bytes = 512;
    }
    const int32_t alphas[] = {1, 2, 3, 6, 50, 1000, 5000};
    std::vector<Spec> specs;
    for (int n : {1, 2, 3, 4}) specs.push_back(Spec{Kind::NGRAM, n, 0, false, 0.0});
    specs.push_back(Spec{Kind::LCS, 0, 0, false, 0.0});
    specs.push_back(Spec{Kind::LCSUM, 0, 0, false, 0.0});
    specs.push_back(Spec{Kind::SKIP, 0, 4, true, 0.0});
    const size_t T = specs.size();
    int direct = 0, hashed = 0;
    auto spread = [](Sents ss) {
        for (Tokens& t : ss)
            for (int32_t& x : t) x = 7 * x + 3;
        return ss;
    };
    auto flat = [](const Sents& ss) {
        Tokens t;
        for (const Tokens& s : ss) t.insert(t.end(), s.begin(), s.end());
        return t;
    };
    for (int it = 0; it < rounds; ++it) {
        int32_t alpha = alphas[pick(sizeof alphas / sizeof alphas[0])];
        ws.ensure((size_t)alpha * 7 + 4);
        const bool longer = it % 6 == 0;
        Sents rs = spread(random_sents(longer ? 3000 : random_length(), alpha, longer ? 8 : 5));
        Sents ps = spread(random_sents(random_length(), alpha, 5));
        Doc rd = doc_of(rs), pd = doc_of(ps);
        Tokens r = flat(rs), c = flat(ps);
        const std::string where = std::string(tiny ? "tiny limits " : "") + "ref=" + show(rs) + " pred=" + show(ps);
        std::set<int32_t> distinct(r.begin(), r.end());
        ((distinct.size() + 1) * (distinct.size() + 1) <= PAIR_DIRECT_CELLS ? direct : hashed) += r.size() >= 2 && c.size() >= 2;
        std::vector<Stats> got(T);
        pair_stats(ws, specs.data(), T, pd, rd, true, got.data(), 1);
        for (size_t k = 0; k < T; ++k) {
            const Spec& s = specs[k];
            Stats g = got[k], want = pair_stat(ws, s, pd, rd, true);
            expect_eq("pair_stats against pair_stat", std::make_tuple(g.hit, g.pt, g.rt, g.sel),
                      std::make_tuple(want.hit, want.pt, want.rt, want.sel), where + " type " + std::to_string(k));
            std::tuple<int64_t, int64_t, int64_t> oracle;
            if (s.kind == Kind::NGRAM) {
                int64_t np = (int64_t)c.size() - s.n + 1, nr = (int64_t)r.size() - s.n + 1;
                oracle = std::make_tuple(ngram_oracle(c, r, s.n), std::max<int64_t>(np, 0), std::max<int64_t>(nr, 0));
            } else if (s.kind == Kind::LCS) {
                oracle = std::make_tuple((int64_t)lcs_table(r, c)[r.size()][c.size()], (int64_t)c.size(), (int64_t)r.size());
            } else if (s.kind == Kind::LCSUM) {
                oracle = union_lcs_oracle(rs, ps);
            } else {
                oracle = skip_oracle(c, r, s.skip, s.unigrams);
            }
            expect_eq("pair_stats against the oracle", std::make_tuple((int64_t)g.hit, (int64_t)g.pt, (int64_t)g.rt), oracle,
                      where + " type " + std::to_string(k));
        }
        bool clean = true;
        for (int32_t x : ws.local) clean &= x == 0;
        for (uint16_t x : ws.big2) clean &= x == 0;
        for (size_t t = 0; t < ws.capacity(); ++t)
            clean &= ws.cnt_a[t] == 0 && ws.cnt_b[t] == 0 && ws.pm1[t] == 0 && ws.slot[t] == UINT32_MAX &&
                     ws.first[t] == UINT32_MAX;
        expect_eq("pair path left the workspace clean", clean, true, where);
    }
    // Both sides of rouge2's direct-table limit were exercised.
    expect_eq("rouge2 direct-table pairs checked", direct > 0, true, "check_pairs");
    expect_eq("rouge2 hash-table pairs checked", hashed > 0, true, "check_pairs");
}

// rougeLsum's column walks (kernels_lsum.hpp, lsum_hits) against rouge-score's _summary_level_lcs, on
// both sides of each cut-over: references of many short lines (several per 64-bit lane, up to a
// hundred lanes), lines of exactly 64 and 65 tokens, long lines of up to 21 words (past the widths
// fixed at compile time), prediction lines with tokens the reference lacks (runs of them, and of
// tokens one lane lacks, are cut to one column); each pair under the default limits, under limits that
// split the lanes into groups of 1 to 3, and under limits that send it to union_lcs_marks (lsum_hits
// declines); lsum_hits directly and through pair_stats. The masks are left zeroed.
void check_lsum(int rounds) {
    Workspace ws;
    const int32_t alphas[] = {1, 2, 3, 6, 20, 200, 3000};
    const size_t ref_lines[] = {1, 2, 3, 5, 12, 40, 300};
    const size_t line_lens[] = {0, 1, 2, 3, 5, 9, 13, 20, 31, 40, 63, 64, 65, 100, 128, 129, 200, 520, 1100, 1300};
    const size_t pred_lens[] = {1, 2, 3, 5, 9, 15, 30, 63, 64, 65, 130, 300};
    int taken = 0, grouped = 0, declined = 0;
    for (int it = 0; it < rounds; ++it) {
        const int32_t alpha = alphas[pick(sizeof alphas / sizeof alphas[0])];
        const size_t nr = ref_lines[pick(sizeof ref_lines / sizeof ref_lines[0])];
        Sents rs, ps;
        size_t total = 0;
        for (size_t q = 0; q < nr && total < 4000; ++q) {
            // mostly short lines; a long one now and then, fewer when there are many lines
            size_t len = line_lens[pick(nr > 12 ? 12 : sizeof line_lens / sizeof line_lens[0])];
            rs.push_back(random_tokens(len, alpha));
            total += len;
        }
        const size_t np = 1 + pick(8);
        for (size_t q = 0; q < np; ++q) {
            Tokens t = random_tokens(pred_lens[pick(sizeof pred_lens / sizeof pred_lens[0])], alpha + 4);  // some absent
            ps.push_back(t);
        }
        for (Sents* ss : {&rs, &ps})
            for (Tokens& t : *ss)
                for (int32_t& x : t) x = 5 * x + 1;
        Doc rd = doc_of(rs), pd = doc_of(ps);
        const std::string where = "ref=" + show(rs) + " pred=" + show(ps);
        const int64_t want = std::get<0>(union_lcs_oracle(rs, ps));
        ws.ensure((size_t)(alpha + 4) * 5 + 2);
        for (int lim = 0; lim < 3; ++lim) {
            ws.limits = Limits();
            const size_t K = pair_local_ids(ws, pd, rd);
            reduce_sum_ref(ws);
            if (ws.rsum.ids.empty()) {
                expect_eq("no common token: no rougeLsum hit", want, (int64_t)0, where);
                break;
            }
            if (lim == 1) ws.limits.mask_bytes = 16 * (K + 1) * (1 + pick(3));  // lanes in groups of 1 to 3
            if (lim == 2) ws.limits.mask_bytes = 8;                            // declined: union_lcs_marks
            int64_t h = -1;
            const bool ok = lsum_hits(ws, K, h);
            bool long_line = false;
            for (size_t q = 0; q < ws.rsum.nsent(); ++q) long_line |= ws.rsum.sb[2 * q + 1] - ws.rsum.sb[2 * q] > 64;
            const size_t lanes = ws.lguard.size();
            if (lim < 2) {
                expect_eq("lsum_hits runs within the limits", ok || (lim == 1 && long_line), true, where);
                if (ok) {
                    expect_eq("lsum_hits (rouge-score _summary_level_lcs)", h, want, where + " limits " + std::to_string(lim));
                    ++taken;
                    grouped += lim == 1 && lanes > 0;
                }
            } else {
                expect_eq("lsum_hits declines beyond the limits", ok, false, where);
                ++declined;
            }
            // pair_stats (lsum_hits or union_lcs_marks behind it) under the same limits
            Spec s{Kind::LCSUM, 0, 0, false, 0.0};
            Stats got;
            pair_stats(ws, &s, 1, pd, rd, false, &got, 1);
            expect_eq("pair_stats rougeLsum", (int64_t)got.hit, want, where + " limits " + std::to_string(lim));
            bool clean = true;
            for (uint64_t x : ws.lpm) clean &= x == 0;
            for (int32_t x : ws.local) clean &= x == 0;
            expect_eq("lsum_hits left its masks zeroed", clean, true, where);
        }
    }
    expect_eq("lsum_hits: pairs checked", taken > 0 && grouped > 0 && declined > 0, true, "check_lsum");
}

// A text batch through the Python-free pipeline: Vocab (default tokenizer, an external stemmer for
// the words it takes: the deferred path), Scorer::batch on 1 and 3 threads, Scorer::score_pair.
void check_batch() {
    const char* words[] = {"The", "cat", "sat", "on", "mat", "dog", "running", "RUNS", "ran", "x1", "42", "quick",
                           "brown", "fox", "lazy", "jumps", "connection", "connected", "a", "of"};
    const size_t nw = sizeof words / sizeof words[0];
    auto text = [&](size_t len) {
        std::string s;
        for (size_t i = 0; i < len; ++i) {
            s += words[pick(nw)];
            s += pick(10) == 0 ? "\n" : (pick(4) == 0 ? ", " : " ");
        }
        return s;
    };
    const size_t N = 300;
    std::vector<std::string> preds, refs;
    std::vector<size_t> ref_off{0};
    for (size_t i = 0; i < N; ++i) {
        preds.push_back(text(random_length() % 150));
        size_t k = 1 + pick(3);
        for (size_t j = 0; j < k; ++j) refs.push_back(text(random_length() % 150));
        ref_off.push_back(refs.size());
    }
    auto as_text = [](const std::string& s) { return Text{1, s.data(), s.size()}; };
    std::vector<Text> pt, rt;
    for (auto& s : preds) pt.push_back(as_text(s));
    for (auto& s : refs) rt.push_back(as_text(s));
    std::vector<Spec> specs = {{Kind::NGRAM, 1, -1, false, 1.2}, {Kind::NGRAM, 2, -1, false, 1.2},
                               {Kind::LCS, 1, -1, false, 1.2},   {Kind::LCSUM, 1, -1, false, 1.2},
                               {Kind::WLCS, 1, -1, false, 1.2},  {Kind::SKIP, 2, 4, true, 1.2}};
    // The external stemmer: words starting with "conn" stem to "conn", "jumps" is dropped, the others kept.
    ExternalStem stem = [](const char* p, size_t n, std::string& out) {
        std::string w(p, n);
        if (w == "jumps") return false;
        out = w.compare(0, 4, "conn") == 0 ? "conn" : w;
        return true;
    };
    for (Mode mode : {Mode::MAX, Mode::MEAN, Mode::POOL, Mode::BEST_RECALL}) {
        std::vector<std::vector<double>> runs;
        for (int threads : {1, 3}) {
            Scorer sc(std::make_shared<Vocab>(Tokenizer::DEFAULT, stem, 3, false, false), specs, mode,
                      Fm{FMeasure::F1, 0.0});
            Scorer::BatchIn in{pt.data(), rt.data(), ref_off.data(), N, 0};
            Scorer::BatchOut out;
            sc.batch(in, threads, out);
            runs.push_back(out.values);
            // The same scorer (warm vocabulary), one example at a time.
            std::vector<double> one;
            std::vector<Triple> o(specs.size());
            for (size_t i = 0; i < N; ++i) {
                sc.score_pair(pt[i], rt.data() + ref_off[i], ref_off[i + 1] - ref_off[i], mode, o.data());
                for (const Triple& t : o) one.insert(one.end(), {t.p, t.r, t.f});
            }
            runs.push_back(one);
        }
        const std::string where = "batch, mode " + std::to_string((int)mode);
        expect_eq("batch on 3 threads == batch on 1 thread", runs[2], runs[0], where);
        expect_eq("score_pair == batch", runs[1], runs[0], where);
        expect_eq("score_pair (3-thread scorer) == batch", runs[3], runs[0], where);
    }
}

// jieba (jieba.hpp): its exact words are checked against jieba itself in tests/test_jieba_native.py; here,
// under the sanitizers, its loaders on malformed input (random bytes, truncated and corrupted tables:
// refused or read, never a read past the input) and its cuts on random texts over random small
// dictionaries (every token non-empty, in order, and together the whole text).
std::string utf8(uint32_t c) {
    std::string o;
    if (c < 0x80) o += (char)c;
    else if (c < 0x800) o += (char)(0xC0 | (c >> 6)), o += (char)(0x80 | (c & 0x3F));
    else if (c < 0x10000) o += (char)(0xE0 | (c >> 12)), o += (char)(0x80 | ((c >> 6) & 0x3F)), o += (char)(0x80 | (c & 0x3F));
    else o += (char)(0xF0 | (c >> 18)), o += (char)(0x80 | ((c >> 12) & 0x3F)), o += (char)(0x80 | ((c >> 6) & 0x3F)),
         o += (char)(0x80 | (c & 0x3F));
    return o;
}

void check_jieba(int rounds) {
    const uint32_t alphabet[] = {0x4E00, 0x4E01, 0x4E03, 0x9FD5, 'a', 'B', '1', '.', '%', '+', ' ', 0x3000, 0xFF0C,
                                 0x20000, '\r', '\n', 0xD7FF};
    const size_t na = sizeof(alphabet) / sizeof(alphabet[0]);
    auto log = [](int64_t x) { return std::log((double)x); };
    auto parse = [](const char* s, size_t n, double& out) {
        std::string t(s, n);
        char* e = nullptr;
        out = std::strtod(t.c_str(), &e);
        return e == t.c_str() + n;
    };
    const std::string start = "P={'B': -0.5, 'E': -3.14e+100, 'M': -3.14e+100, 'S': -1.0}\n";
    const std::string trans = "P={'B': {'E': -0.5, 'M': -1.0}, 'E': {'B': -0.5, 'S': -1.0}, 'M': {'E': -0.5, 'M': -1.0},"
                              " 'S': {'B': -0.5, 'S': -1.0}}\n";
    const std::string emit = "from __future__ import unicode_literals\n\nP={'B': {'\\u4e00': -1.0, '\\u4e01': -2.0},\n"
                             " 'E': {'\\u4e01': -1.0}, 'M': {}, 'S': {u'\\u4e03': -1.0, \"\\u9fd5\": -2.0}}\n";
    for (int it = 0; it < rounds; ++it) {
        // a random small dictionary, sometimes with corrupted bytes
        std::string dict;
        const size_t lines = 1 + pick(12);
        for (size_t l = 0; l < lines; ++l) {
            const size_t len = 1 + pick(4);
            for (size_t k = 0; k < len; ++k) {
                uint32_t c = alphabet[pick(na)];
                dict += (c == ' ' || c == '\n' || c == '\r') ? std::string("x") : utf8(c);
            }
            dict += " " + std::to_string(pick(4)) + (pick(2) ? " n" : "") + (pick(4) ? "\n" : "\r\n");
        }
        if (pick(4) == 0) dict[pick(dict.size())] = (char)pick(256);
        if (pick(4) == 0) dict.resize(pick(dict.size() + 1));
        // the HMM tables, sometimes truncated or corrupted
        std::string e2 = emit, t2 = trans;
        if (pick(4) == 0) e2.resize(pick(e2.size() + 1));
        if (pick(4) == 0) t2[pick(t2.size())] = (char)pick(256);
        JiebaModel m;
        std::string err = load_dict(m, dict.data(), dict.size(), log);
        std::string err2 = err.empty() ? load_hmm(m, start, t2, e2, -3.14e100, parse) : "";
        ++checks;
        if (!err.empty() || !err2.empty()) continue;
        for (int t = 0; t < 8; ++t) {
            std::vector<uint32_t> text(pick(40));
            for (auto& c : text) c = alphabet[pick(na)];
            JiebaCut w;
            cut_text(m, text.data(), text.size(), w);
            bool ok = text.empty() ? w.ends.empty() : (!w.ends.empty() && w.ends.back() == text.size());
            for (size_t k = 0; k < w.ends.size(); ++k) ok = ok && w.ends[k] > (k ? w.ends[k - 1] : 0);
            expect_eq("jieba cut covers the text in order", ok, true, "round " + std::to_string(it));
        }
    }
}

// FixedSum (the batch's column sums) against Partials (Shewchuk's exact partials, as math.fsum): the
// same exact value (the partials of one minus every input sum to exactly 0), and the same correctly
// rounded sum, whatever the magnitudes, the carry points and the split into merged halves.
void check_fixed_sum(int rounds) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int it = 0; it < rounds; ++it) {
        const int kind = it % 5;
        const size_t n = 1 + pick(it % 7 == 0 ? 5000 : it % 11 == 0 ? 3000 : 200);  // past PENDING_MAX too
        std::vector<double> xs;
        for (size_t i = 0; i < n; ++i) {
            double x;
            if (kind == 0) {  // scores: [0, 1]
                x = pick(8) == 0 ? (double)pick(2) : unit(rng);
            } else if (kind == 1) {  // lengths: integers and means of integers
                x = (double)pick(3000) / (double)(1 + pick(4));
            } else if (kind == 2) {  // any exponent, both signs, subnormals
                uint64_t b = ((uint64_t)rng() << 32) ^ (uint64_t)rng();
                std::memcpy(&x, &b, 8);
                if (!std::isfinite(x) || std::fabs(x) > 0x1p1000) x = std::ldexp(x, -100);  // no overflow of a sum
                if (!std::isfinite(x)) x = 0.0;
                if (pick(4) == 0) x = std::ldexp(unit(rng), -1074 + (int)pick(120));  // subnormal and near
            } else if (kind == 3) {  // both sides of the fixed-point range (2^64)
                x = std::ldexp(1.0 + unit(rng), 60 + (int)pick(8)) * (pick(2) ? 1.0 : -1.0);
            } else {  // cancellation
                x = std::ldexp(unit(rng), (int)pick(200) - 100) * (pick(2) ? 1.0 : -1.0);
            }
            xs.push_back(x);
        }
        FixedSum whole, a, b;
        Partials want, diff;
        const size_t cut = pick(n + 1);
        for (size_t i = 0; i < n; ++i) {
            whole.add(xs[i]);
            (i < cut ? a : b).add(xs[i]);
            want.add(xs[i]);
            if (pick(50) == 0) whole.carry();
            if (pick(70) == 0) whole.flush();  // the window's counters at any point
        }
        a.merge(b);
        const std::string where = "fixed sum, round " + std::to_string(it) + ", n " + std::to_string(n);
        for (const FixedSum* f : {&whole, &a}) {
            Partials got = f->partials();
            expect_eq("FixedSum sum == Shewchuk sum", got.sum(), want.sum(), where);
            diff = got;
            for (double x : xs) diff.add(-x);
            expect_eq("FixedSum exact (difference 0)", diff.sum(), 0.0, where);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    unsigned long long seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20240527ull;
    int rounds = argc > 2 ? std::atoi(argv[2]) : 300;
    rng.seed(seed);
    check_kernels(rounds, false);
    check_kernels(rounds, true);
    check_pairs(rounds, false);
    check_pairs(rounds, true);
    check_lsum(rounds / 2);
    check_batch();
    check_jieba(rounds);
    check_fixed_sum(rounds * 4);
    std::printf("kernels_check: seed %llu, %ld checks, %d failures\n", seed, checks, failures);
    return failures ? 1 : 0;
}
