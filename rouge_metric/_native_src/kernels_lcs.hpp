// LCS kernels: rougeL (LCS length) and rougeLsum (rouge-score's summary-level union-LCS).
// Reference: core_py.lcs_length, core_py.lcs_indices, core_py.union_lcs_overlap; tests/oracles.py
// holds the textbook O(mn) DP they are tested against.
//
// Ownership: only the calling thread's Workspace is touched.
//
// Bit-parallel LCS (Hyyro 2004) over a sequence B of n tokens uses W = ceil(n / 64) words per row and
// a match mask per distinct token of B. On per-pair ids 1..K (rougeL of the pair path) the masks are
// indexed by id (ws.lpm, (K + 1) x W words, left zeroed); otherwise dense masks (W words per distinct
// token, found through ws.slot) are the fast path. When the masks exceed limits.mask_bytes (a very long
// unsplit text) they are sparse: the positions of each token, expanded into one W-word scratch mask
// for the row that needs it (O(W + occurrences) per row instead of O(W)). Same rows on every path.
// One file over 400 lines: rougeL and rougeLsum share the masks, the row step and the walk.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "x86_intrinsics.hpp"  // _addcarry_u64, _subborrow_u64
#endif

#include <type_traits>

#include "common.hpp"
#include "rows.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// ------------------------------------------------------------------------------------ match masks
// Match masks of the tokens of B: W == 1 uses ws.pm1[id]; W > 1 uses ws.slot[id] -> ws.masks (dense;
// returns false) or, beyond the memory limit, ws.slot[id] -> the positions in ws.occ (sparse; true).
// O(|B| + distinct tokens * W) time (dense) or O(|B|) (sparse); clear_masks undoes it in O(|B|).
inline bool set_masks(Workspace& ws, Seq B, size_t W) {
    if (W == 1) {
        for (size_t j = 0; j < B.n; ++j) ws.pm1[B.p[j]] |= (uint64_t)1 << j;
        return false;
    }
    const size_t limit = ws.limits.mask_bytes / 8;
    size_t used = 0;  // slots first, then one zeroed allocation
    bool sparse = false;
    for (size_t j = 0; j < B.n; ++j) {
        uint32_t& s = ws.slot[B.p[j]];
        if (s == UINT32_MAX) {
            if (used + W > limit) {
                sparse = true;
                break;
            }
            s = (uint32_t)used;
            used += W;
        }
    }
    if (!sparse) {
        ws.masks.assign(used, 0);
        uint64_t* masks = ws.masks.data();
        for (size_t j = 0; j < B.n; ++j) masks[ws.slot[B.p[j]] + j / 64] |= (uint64_t)1 << (j % 64);
        return false;
    }
    // Sparse: slot = index of the distinct token; occ[occ_start[s], occ_start[s + 1]) its positions in
    // increasing order. O(n) memory.
    for (size_t j = 0; j < B.n; ++j) ws.slot[B.p[j]] = UINT32_MAX;
    uint32_t d = 0;
    ws.occ_start.clear();
    for (size_t j = 0; j < B.n; ++j) {
        uint32_t& s = ws.slot[B.p[j]];
        if (s == UINT32_MAX) {
            s = d++;
            ws.occ_start.push_back(0);
        }
        ws.occ_start[s]++;
    }
    uint32_t acc = 0;
    for (uint32_t& x : ws.occ_start) {
        uint32_t c = x;
        x = acc;
        acc += c;
    }
    ws.occ_start.push_back(acc);
    ws.occ.resize(B.n);
    std::vector<uint32_t>& fill = ws.occ_fill;  // next free index per distinct token
    fill.assign(ws.occ_start.begin(), ws.occ_start.end() - 1);
    for (size_t j = 0; j < B.n; ++j) ws.occ[fill[ws.slot[B.p[j]]]++] = (uint32_t)j;
    ws.masks.assign(W, 0);  // the one expanded mask
    return true;
}
inline void clear_masks(Workspace& ws, Seq B, size_t W) {
    if (W == 1) {
        for (size_t j = 0; j < B.n; ++j) ws.pm1[B.p[j]] = 0;
        return;
    }
    for (size_t j = 0; j < B.n; ++j) ws.slot[B.p[j]] = UINT32_MAX;
}

// The mask of a token (W > 1) for one row: get() then put() when done with it.
struct DenseMasks {
    const uint64_t* masks;
    const uint32_t* slot;
    explicit DenseMasks(const Workspace& ws) : masks(ws.masks.data()), slot(ws.slot.data()) {}
    bool has(int32_t id) const { return slot[id] != UINT32_MAX; }
    const uint64_t* get(int32_t id) const { return masks + slot[id]; }
    void put(int32_t) const {}
};
// Masks indexed by id (W words per id, ids 0..K): a token absent from B has a zero mask, with which a
// row step leaves the row unchanged, so no row needs a test.
struct DirectMasks {
    const uint64_t* pm;
    size_t W;
    bool has(int32_t) const { return true; }
    const uint64_t* get(int32_t id) const { return pm + (size_t)id * W; }
    void put(int32_t) const {}
};
struct SparseMasks {
    const uint32_t *slot, *start, *occ;
    uint64_t* M;
    explicit SparseMasks(Workspace& ws)
        : slot(ws.slot.data()), start(ws.occ_start.data()), occ(ws.occ.data()), M(ws.masks.data()) {}
    bool has(int32_t id) const { return slot[id] != UINT32_MAX; }
    const uint64_t* get(int32_t id) const {
        uint32_t s = slot[id];
        for (uint32_t k = start[s]; k < start[s + 1]; ++k) M[occ[k] >> 6] |= (uint64_t)1 << (occ[k] & 63);
        return M;
    }
    void put(int32_t id) const {
        uint32_t s = slot[id];
        for (uint32_t k = start[s]; k < start[s + 1]; ++k) M[occ[k] >> 6] = 0;
    }
    // Whether position j is the first occurrence of token id.
    bool first_at(int32_t id, size_t j) const { return occ[start[slot[id]]] == (uint32_t)j; }
};

// ---------------------------------------------------------------------------------- bit-parallel rows
// a + b + carry (carry in and out: 0 or 1); add-with-carry on x86-64.
inline uint64_t addc(uint64_t a, uint64_t b, uint64_t& carry) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned long long out;
    carry = _addcarry_u64((unsigned char)carry, a, b, &out);
    return out;
#else
    uint64_t s = a + b, c1 = s < a, s2 = s + carry;
    carry = c1 | (s2 < s);
    return s2;
#endif
}
// a - b - borrow (borrow in and out: 0 or 1).
inline uint64_t subb(uint64_t a, uint64_t b, uint64_t& borrow) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned long long out;
    borrow = _subborrow_u64((unsigned char)borrow, a, b, &out);
    return out;
#else
    uint64_t d = a - b, b1 = a < b, d2 = d - borrow;
    borrow = b1 | (d < borrow);
    return d2;
#endif
}

// The word count of a multi-word kernel: a compile-time constant (WC > 0, loops unrolled) or the
// run-time W (WC == 0).
template <size_t WC>
inline size_t width(size_t W) { return WC ? WC : W; }

// One bit-parallel LCS row step over W words (Hyyro 2004): out = (V + U) | (V - U), U = V & M
// (V - U = V & ~M, no borrows). out may be V.
// With a compile-time width the ANDs, the add-with-carry chain and the ORs are separate loops, so
// that nothing between two adds clobbers the carry flag (fused, the compiler saves and restores it
// around every word, which triples the chain's latency).
template <size_t WC = 0>
inline void lcs_step(uint64_t* out, const uint64_t* V, const uint64_t* M, size_t W) {
    if constexpr (WC > 0) {
        uint64_t x[WC], s[WC];
        for (size_t w = 0; w < WC; ++w) x[w] = V[w] & M[w];
        uint64_t carry = 0;
        for (size_t w = 0; w < WC; ++w) s[w] = addc(V[w], x[w], carry);
        for (size_t w = 0; w < WC; ++w) out[w] = s[w] | (V[w] & ~M[w]);
    } else {
        uint64_t carry = 0;
        for (size_t w = 0; w < W; ++w) {
            uint64_t v = V[w], mk = M[w];
            out[w] = addc(v, v & mk, carry) | (v & ~mk);
        }
    }
}

// The rows of lcs_len over the tokens of A (masks set, W words, ws.V the state). Polls for
// interruption every check_every(W, 4096) rows.
// With a compile-time width the row is a local array that the compiler keeps in registers for the
// whole loop (ws.V, or a pointer that may point to it, would be stored and reloaded at every step), and
// a DirectMasks row is found with a constant multiply. Not inlined: inside its caller the add-with-carry
// chain of lcs_step was spilled between adds.
template <size_t WC, class MS>
ROUGE_NOINLINE void lcs_rows(Workspace& ws, const MS& ms, Seq A, size_t W) {
    W = width<WC>(W);
    const size_t every = check_every(W, 4096);
    auto rows = [&](auto&& step) {  // step(t) for each token of A, in blocks of `every`, polling between them
        for (size_t i0 = 0; i0 < A.n; i0 += every) {
            if (ws.stopped()) break;
            const size_t i1 = std::min(A.n, i0 + every);
            for (size_t i = i0; i < i1; ++i) step(A.p[i]);
        }
    };
    if constexpr (WC > 0) {
        uint64_t v[WC];
        for (size_t w = 0; w < WC; ++w) v[w] = ws.V[w];
        rows([&](int32_t t) {
            if constexpr (std::is_same<MS, DirectMasks>::value) {
                lcs_step<WC>(v, v, ms.pm + (size_t)t * WC, WC);  // every id has a row (zero: no change)
            } else {
                if (!ms.has(t)) return;  // no match: the row unchanged
                lcs_step<WC>(v, v, ms.get(t), WC);
                ms.put(t);
            }
        });
        for (size_t w = 0; w < WC; ++w) ws.V[w] = v[w];
    } else {
        uint64_t* V = ws.V.data();
        rows([&](int32_t t) {
            if (!ms.has(t)) return;  // no match: the row unchanged
            lcs_step<0>(V, V, ms.get(t), W);
            ms.put(t);
        });
    }
}

// The rows of lcs_len at a run-time or compile-time width (2..12 words).
template <class MS>
void lcs_rows_w(Workspace& ws, const MS& ms, Seq A, size_t W) {
    switch (W) {
        case 2: lcs_rows<2>(ws, ms, A, W); break;
        case 3: lcs_rows<3>(ws, ms, A, W); break;
        case 4: lcs_rows<4>(ws, ms, A, W); break;
        case 5: lcs_rows<5>(ws, ms, A, W); break;
        case 6: lcs_rows<6>(ws, ms, A, W); break;
        case 7: lcs_rows<7>(ws, ms, A, W); break;
        case 8: lcs_rows<8>(ws, ms, A, W); break;
        case 9: lcs_rows<9>(ws, ms, A, W); break;
        case 10: lcs_rows<10>(ws, ms, A, W); break;
        case 11: lcs_rows<11>(ws, ms, A, W); break;
        case 12: lcs_rows<12>(ws, ms, A, W); break;
        default: lcs_rows<0>(ws, ms, A, W);
    }
}

// Length of the LCS, bit-parallel: O(max(m, n) * ceil(min(m, n) / w)) time, O(min / w) memory plus the
// masks (dense: O(distinct * min / w) words up to the limit; sparse beyond: O(min)).
// K > 0: every id of A and B is in 1..K (per-pair ids, kernels_pair.hpp); while (K + 1) x W words fit
// limits.mask_bytes the masks are indexed by id in ws.lpm (left zeroed: only B's words are set, then
// cleared), with no slot to find per token of B. Same rows, same length.
inline int64_t lcs_len(Workspace& ws, Seq A, Seq B, size_t K = 0) {
    if (A.n < B.n) std::swap(A, B);  // bits over the shorter (B)
    if (!B.n) return 0;
    size_t W = (B.n + 63) / 64;
    if (W > 1 && K > 0 && K + 1 <= ws.limits.mask_bytes / 8 / W) {
        const size_t words = (K + 1) * W;
        if (ws.lpm.size() < words) ws.lpm.resize(words, 0);
        uint64_t* pm = ws.lpm.data();
        for (size_t j = 0; j < B.n; ++j) {
            ROUGE_CHECK(B.p[j] >= 1 && (size_t)B.p[j] <= K, "lcs_len: id of B past K");
            pm[(size_t)B.p[j] * W + j / 64] |= (uint64_t)1 << (j % 64);
        }
        for (size_t i = 0; i < A.n; ++i) ROUGE_CHECK(A.p[i] >= 1 && (size_t)A.p[i] <= K, "lcs_len: id of A past K");
        ws.V.assign(W, ~(uint64_t)0);
        lcs_rows_w(ws, DirectMasks{pm, W}, A, W);
        for (size_t j = 0; j < B.n; ++j) pm[(size_t)B.p[j] * W + j / 64] = 0;
        int64_t ones = 0;
        for (size_t w = 0; w < W; ++w) ones += popcount64(ws.V[w]);
        return (int64_t)(W * 64) - ones;  // bits past B.n stay 1
    }
    bool sparse = set_masks(ws, B, W);
    int64_t res;
    if (W == 1) {
        uint64_t v = ~(uint64_t)0;
        const uint64_t* pm = ws.pm1.data();
        for (size_t i = 0; i < A.n; ++i) {
            uint64_t u = v & pm[A.p[i]];
            v = (v + u) | (v - u);
        }
        uint64_t full = B.n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << B.n) - 1);
        res = (int64_t)B.n - popcount64(v & full);
    } else {
        ws.V.assign(W, ~(uint64_t)0);
        if (sparse) {
            lcs_rows<0>(ws, SparseMasks(ws), A, W);
        } else {
            lcs_rows_w(ws, DenseMasks(ws), A, W);
        }
        int64_t ones = 0;
        for (size_t w = 0; w < W; ++w) ones += popcount64(ws.V[w]);
        res = (int64_t)(W * 64) - ones;  // bits past B.n stay 1
    }
    clear_masks(ws, B, W);
    return res;
}

// ------------------------------------------------------------------------------- the LCS walk
// The multi-word rows and walk of lcs_mark_pos (W = width<WC>(W) >= 2 words over c, n = |c|). The rows
// come from reverse_rows (rows.hpp): all kept when they fit limits.row_bytes, else recomputed from
// checkpoints; the walk visits the same rows in the same order either way.
template <size_t WC, class MS>
void lcs_mark_pos_w(Workspace& ws, const MS& ms, Seq r, size_t n, size_t W, const uint32_t* pos, size_t m,
                    uint8_t* mark) {
    W = width<WC>(W);
    ws.V.resize(W);  // the left mask of the current row
    uint64_t* left = ws.V.data();
    if (ws.rows.size() < W) ws.rows.resize(W);
    for (size_t w = 0; w < W; ++w) ws.rows[w] = ~(uint64_t)0;  // row 0
    size_t j = n;
    auto advance = [&](size_t k, const uint64_t* in, uint64_t* out) {
        int32_t t = r.p[pos[k]];
        lcs_step<WC>(out, in, ms.get(t), W);
        ms.put(t);
    };
    auto visit = [&](size_t i, const uint64_t* vc, const uint64_t* vp) -> bool {
        int32_t t = r.p[pos[i - 1]];
        const uint64_t* M = ms.get(t);
        size_t top = (j - 1) / 64;  // the highest word with columns below j
        uint64_t borrow = 0, carry = 0;
        for (size_t w = 0; w <= top; ++w) {
            uint64_t d = subb(~vp[w] & vc[w], ~vc[w] & vp[w], borrow);  // Y - X
            left[w] = ((d << 1) | carry) & vp[w];
            carry = d >> 63;
        }
        uint64_t stop = (M[top] | ~left[top]) & (~(uint64_t)0 >> (63 - (j - 1) % 64));
        size_t w = top;
        while (!stop && w > 0) {
            --w;
            stop = M[w] | ~left[w];
        }
        if (!stop) {
            ms.put(t);
            return false;
        }
        size_t b = w * 64 + 63 - (size_t)clz64(stop);
        size_t hit = (size_t)((M[w] >> (b % 64)) & 1);
        ms.put(t);
        mark[pos[i - 1]] |= (uint8_t)hit;
        j = b + 1 - hit;
        return j > 0;
    };
    reverse_rows<WC>(ws.rows, W, m, ws.limits.row_bytes, advance, visit, [&] { return ws.stopped(); });
}

// Mark (mark[i] = 1) the indices into r of rouge-score's lcs_ind(r, c): a match is always taken
// diagonally, else left when L[i][j-1] > L[i-1][j], else up. The masks of c must be set (W words).
// pos[0, m): the increasing indices into r whose token occurs in c (m >= 1; see match_positions).
//
// The walk takes O(W) word operations per row, not one step per cell. Row k of the bit-parallel
// LCS has a zero bit b exactly where L[k][b+1] = L[k][b] + 1, so with Zc, Zp the zero bits of rows
// i and i-1, D(j) = L[i][j] - L[i-1][j] (0 or 1) rises at the bits of X = Zc & ~Zp and falls at the
// bits of Y = Zp & ~Zc, which alternate; hence bit b of Y - X is D(b + 1) (a borrow fills each
// [rise, fall) run). From column j the walk goes left while c[j-1] != r_i and L[i][j-1] > L[i-1][j],
// i.e. D(j-1) = 1 and L[i-1][j] = L[i-1][j-1] (bit j-1 of row i-1 set): those columns are the bits of
// left = ((Y - X) << 1) & Vp. It stops at the highest bit b < j of stop = M | ~left (M: the matches
// of r_i in c) and then takes the diagonal (a match: marked) or goes up; when there is no such bit it
// reaches column 0 and the walk ends.
// O(m * ceil(|c| / w)) time for the rows and the walk; memory O(m) words for |c| <= 64, else
// min(m * ceil(|c| / w) words, limits.row_bytes) (rows recomputed beyond: at most ~2x the time).
inline void lcs_mark_pos(Workspace& ws, bool sparse, Seq r, Seq c, size_t W, const uint32_t* pos, size_t m,
                         uint8_t* mark) {
    size_t n = c.n;
    if (W == 1) {
        if (ws.rows.size() < m + 1) ws.rows.resize(m + 1);
        uint64_t* rows = ws.rows.data();
        rows[0] = ~(uint64_t)0;
        const uint64_t* pm = ws.pm1.data();
        uint64_t v = ~(uint64_t)0;
        for (size_t k = 0; k < m; ++k) {
            uint64_t u = v & pm[r.p[pos[k]]];
            v = (v + u) | (v - u);
            rows[k + 1] = v;
        }
        size_t i = m, j = n;  // 1 <= j <= 64
        while (i > 0) {
            uint64_t vc = rows[i], vp = rows[i - 1];
            uint64_t x = ~vc & vp, y = ~vp & vc;
            uint64_t left = ((y - x) << 1) & vp;
            uint64_t M = pm[r.p[pos[i - 1]]];
            uint64_t stop = (M | ~left) & (~(uint64_t)0 >> (64 - j));
            if (!stop) break;
            size_t b = 63 - (size_t)clz64(stop);
            size_t hit = (size_t)((M >> b) & 1);
            mark[pos[i - 1]] |= (uint8_t)hit;
            j = b + 1 - hit;
            --i;
            if (!j) break;
        }
        return;
    }
    if (sparse) return lcs_mark_pos_w<0>(ws, SparseMasks(ws), r, n, W, pos, m, mark);
    DenseMasks ms(ws);
    switch (W) {
        case 2: lcs_mark_pos_w<2>(ws, ms, r, n, W, pos, m, mark); break;
        case 3: lcs_mark_pos_w<3>(ws, ms, r, n, W, pos, m, mark); break;
        case 4: lcs_mark_pos_w<4>(ws, ms, r, n, W, pos, m, mark); break;
        case 5: lcs_mark_pos_w<5>(ws, ms, r, n, W, pos, m, mark); break;
        case 6: lcs_mark_pos_w<6>(ws, ms, r, n, W, pos, m, mark); break;
        case 7: lcs_mark_pos_w<7>(ws, ms, r, n, W, pos, m, mark); break;
        case 8: lcs_mark_pos_w<8>(ws, ms, r, n, W, pos, m, mark); break;
        default: lcs_mark_pos_w<0>(ws, ms, r, n, W, pos, m, mark);
    }
}

// The indices into r whose token occurs in c (the masks of c set, W words) into pos[0, r.n), in
// increasing order; returns their count. Branch-free. O(|r|).
inline size_t match_positions(const Workspace& ws, Seq r, size_t W, uint32_t* pos) {
    size_t np = 0;
    if (W == 1) {
        const uint64_t* pm = ws.pm1.data();
        for (size_t i = 0; i < r.n; ++i) {
            pos[np] = (uint32_t)i;
            np += pm[r.p[i]] != 0;
        }
    } else {
        const uint32_t* sl = ws.slot.data();
        for (size_t i = 0; i < r.n; ++i) {
            pos[np] = (uint32_t)i;
            np += sl[r.p[i]] != UINT32_MAX;
        }
    }
    return np;
}

// Only reference positions whose token occurs in c change a row. The walk through an unchanged
// row always moves up (L[i][j-1] = L[i-1][j-1] <= L[i-1][j]) and never marks, so the rows and the
// walk run on those positions only, with the same marks. O(|r|) for the filter plus lcs_mark_pos.
inline void lcs_mark(Workspace& ws, bool sparse, Seq r, Seq c, size_t W, uint8_t* mark) {
    if (ws.pos.size() < r.n) ws.pos.resize(r.n);
    size_t np = match_positions(ws, r, W, ws.pos.data());
    if (np) lcs_mark_pos(ws, sparse, r, c, W, ws.pos.data(), np, mark);
}

// rougeLsum (rouge-score's _summary_level_lcs): per reference sentence the union of its LCS indices
// against every prediction sentence, then the clipped hits in reference order.
// Per prediction sentence c, the reference positions that matter (those whose token occurs in c, see
// lcs_mark) are found either by testing every reference token against the masks of c (branch-free,
// O(m) per prediction sentence: the choice while m * (number of prediction sentences) is small), or,
// for long references with many prediction sentences, from occurrence chains of the reference tokens
// (built once, O(m)) that set bits in a bitmap over the reference: O(|c| + o_c + m / w) per
// prediction sentence, o_c the reference occurrences of the tokens of c.
// Then O(sum over sentence pairs of m' * ceil(|c| / w)) for the rows and the walks (lcs_mark_pos),
// m' <= |r| the positions of the pair. Memory O(m + n) plus the bounded masks and rows.
// union_lcs_marks: the union marks into ws.marked[0, m) (m, n >= 1); union_lcs adds the clipped hits.
inline void union_lcs_marks(Workspace& ws, const Doc& ref, const Doc& pred) {
    int64_t m = (int64_t)ref.ids.size();
    ws.marked.assign((size_t)m, 0);
    const bool direct = (size_t)m * pred.nsent() <= 8192;
    uint32_t* first = ws.first.data();
    uint32_t* nxt = nullptr;
    uint64_t* bits = nullptr;
    size_t Wm = ((size_t)m + 63) / 64;
    if (!direct) {
        // Occurrence chains: first[t] = first position of t in the reference, nxt[p] = next one.
        ws.nxt.resize((size_t)m);
        nxt = ws.nxt.data();
        for (size_t p = (size_t)m; p-- > 0;) {
            int32_t t = ref.ids[p];
            nxt[p] = first[t];
            first[t] = (uint32_t)p;
        }
        ws.bits.assign(Wm, 0);
        bits = ws.bits.data();
    }
    if (ws.pos.size() < (size_t)m) ws.pos.resize((size_t)m);
    uint32_t* pos = ws.pos.data();
    for (size_t k = 0; k < pred.nsent() && !ws.stopped(); ++k) {
        Seq c = pred.sent(k);
        size_t W = (c.n + 63) / 64;
        bool sparse = set_masks(ws, c, W);
        if (direct) {
            for (size_t q = 0; q < ref.nsent(); ++q) {
                Seq r = ref.sent(q);
                size_t np = match_positions(ws, r, W, pos);
                if (np) lcs_mark_pos(ws, sparse, r, c, W, pos, np, ws.marked.data() + ref.sb[2 * q]);
            }
        } else {
            // Distinct tokens of c (first occurrences: no lower bit set in the token's mask).
            ws.distinct.clear();
            for (size_t j = 0; j < c.n; ++j) {
                int32_t t = c.p[j];
                bool firstocc;
                if (W == 1) {
                    firstocc = ctz64(ws.pm1[t]) == (int)j;
                } else if (sparse) {
                    firstocc = SparseMasks(ws).first_at(t, j);
                } else {
                    const uint64_t* mk = ws.masks.data() + ws.slot[t];
                    firstocc = ctz64(mk[j / 64]) == (int)(j % 64);
                    for (size_t w = 0; firstocc && w < j / 64; ++w) firstocc = mk[w] == 0;
                }
                if (firstocc) ws.distinct.push_back(t);
            }
            for (int32_t t : ws.distinct)
                for (uint32_t p = first[t]; p != UINT32_MAX; p = nxt[p]) bits[p / 64] |= (uint64_t)1 << (p % 64);
            for (size_t q = 0; q < ref.nsent() && !ws.stopped(); ++q) {
                size_t b0 = ref.sb[2 * q], b1 = ref.sb[2 * q + 1];  // b0 < b1 (sentences are non-empty)
                size_t np = 0;
                for (size_t w = b0 / 64; w <= (b1 - 1) / 64; ++w) {
                    uint64_t x = bits[w];
                    if (w == b0 / 64) x &= ~(uint64_t)0 << (b0 % 64);
                    if (w == (b1 - 1) / 64 && b1 % 64) x &= ((uint64_t)1 << (b1 % 64)) - 1;
                    while (x) {
                        pos[np++] = (uint32_t)(w * 64 + (size_t)ctz64(x) - b0);
                        x &= x - 1;
                    }
                }
                if (np) lcs_mark_pos(ws, sparse, ref.sent(q), c, W, pos, np, ws.marked.data() + b0);
            }
            std::fill(bits, bits + Wm, 0);
        }
        clear_masks(ws, c, W);
    }
    if (!direct)
        for (int32_t t : ref.ids) first[t] = UINT32_MAX;
}

// The clipped hits of the marks (ws.marked[0, |ref|)) in reference order, cc[t] the prediction's count
// of token t (decremented by the hits). rouge-score also requires a positive count of t left in the
// reference, which always holds in reference order (it starts at the occurrences of t and loses at
// most one per occurrence visited). Branch-free, O(m).
inline int64_t clipped_marks(const Workspace& ws, const Doc& ref, int32_t* cc) {
    const uint8_t* marked = ws.marked.data();
    int64_t hit = 0;
    for (size_t p = 0; p < ref.ids.size(); ++p) {
        int32_t t = ref.ids[p];
        int32_t h = marked[p] & (cc[t] > 0);
        hit += h;
        cc[t] -= h;
    }
    return hit;
}

inline void union_lcs(Workspace& ws, const Doc& ref, const Doc& pred, int64_t& hit, int64_t& pt, int64_t& rt) {
    int64_t m = (int64_t)ref.ids.size(), n = (int64_t)pred.ids.size();
    hit = 0;
    pt = n;
    rt = m;
    if (!m || !n) return;
    union_lcs_marks(ws, ref, pred);
    int32_t* cc = ws.cnt_b.data();
    for (int32_t t : pred.ids) cc[t]++;
    hit = clipped_marks(ws, ref, cc);
    for (int32_t t : pred.ids) cc[t] = 0;
}

}  // namespace
}  // namespace rouge
