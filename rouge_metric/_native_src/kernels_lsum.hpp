// rougeLsum of one (prediction, reference) pair in per-pair ids (kernels_pair.hpp): rouge-score's
// _summary_level_lcs, with the bits over the reference lines and the backtrack replayed one move per
// column. Reference: core_py.union_lcs_overlap; tests/cpp/kernels_check.cpp checks it against the
// textbook backtrack. Ownership: only the calling thread's Workspace is touched.
//
// The input is the reference reduced to the tokens the prediction has (ws.rsum: a row whose token is in
// no prediction line never joins an LCS nor moves the backtrack) and the prediction as it is (ws.lpred:
// its tokens that the reference lacks are columns that never match, but they do move the backtrack,
// which prefers "up" on ties, so they stay, but for the cut below). For every prediction line c the LCS table of each reference
// line r against c is computed column by column (one bit-parallel step per token of c, the bits over the
// rows of r; Hyyro 2004), and rouge-score's backtrack (a match diagonally, else left when
// L[i][j-1] > L[i-1][j], else up) is replayed on the columns: in column j it goes up over the rows that
// are neither a match nor a vertical step (L[i][j] = L[i-1][j] + 1, a zero bit of the column), since
// at such a row L[i][j-1] <= L[i][j] = L[i-1][j]; at a match it goes diagonally, at a vertical step
// without a match left (then L[i][j-1] = L[i][j] > L[i-1][j]). So from row i the next move is at the
// highest "stop" row (match | vertical step) at or below i, one move per column: O(|c|) moves.
//
// - Short lines (at most 64 tokens) are packed side by side into 64-bit lanes with a zero guard bit
//   between two lines, which stops the carry of the step's addition (the bits of one line form the
//   LCS columns of that line alone). One pass over c computes the columns of every line of a lane, and
//   one walk moves every line of the lane at once: with the rows bit-reversed (a line's last row at its
//   lowest bit), "the highest stop row at or below the cursor" is "the lowest stop bit at or above the
//   cursor bit", which one addition finds for every line: ((A & ~X) + B) & X & A, with B the cursor
//   bits, A the bits from each cursor to the end of its line, X the stop bits. A match moves the cursor
//   one row up (the diagonal), a vertical step leaves it (left); a line with no stop left is done.
// - Long lines (over 64 tokens) get W = ceil(len / 64) words each, their own pass and their own walk.
// - The prediction's columns: a run of tokens that match no line of a lane (any lane: tokens the
//   reference lacks; one lane alone: the lane's) is cut to one column and a run that opens a line is
//   dropped (see lsum_hits); the walk reads the masks bit-reversed from a second table.
//
// Time O(m + n + sum over prediction lines c of |c| * (lanes + sum over long lines of W)) for the
// columns and the walks, plus O(m) to place the lines and clear their masks (W = ceil(len / 64) of a
// long line). Memory: 2 (K + 1) words per lane of match masks (as they are and bit-reversed), (K + 1) x W
// for a long line, (|c| + 1) x (lanes or W) words of columns, O(m + n) for the lines and the reduced
// prediction. Lanes are taken in groups small enough for the workspace's limits (mask_bytes for the
// masks, row_bytes for the columns); when even one lane or one long line would exceed them (a very long
// unsplit text) lsum_hits returns false and the caller runs union_lcs_marks (bounded memory, the same
// marks).
#pragma once

#include "common.hpp"
#include "kernels_lcs.hpp"
#include "simd.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// The bits of x in reverse order (baseline instructions only: swaps of halves, then a byte swap).
inline uint64_t reverse_bits(uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    return bswap64(x);
}

#if ROUGE_GFNI
// reverse_bits in 4 instructions: GF2P8AFFINEQB with the anti-diagonal matrix reverses the bits of
// each byte, then the byte swap. Only where simd_gfni() says the CPU has it.
ROUGE_TARGET_GFNI ROUGE_FORCE_INLINE uint64_t reverse_bits_gfni(uint64_t x) {
    const __m128i v = _mm_gf2p8affine_epi64_epi8(_mm_cvtsi64_si128((long long)x), _mm_set1_epi64x(0x8040201008040201ll), 0);
    return bswap64((uint64_t)_mm_cvtsi128_si64(v));
}
#endif

// One column of the backtrack of every line of a lane (walk_lane): M the column's bit-reversed match
// mask, Vr its bit-reversed LCS column, E the bit past each line's reversed range, B each line's cursor
// bit; the rows it marks go into marks.
ROUGE_FORCE_INLINE void walk_column(uint64_t M, uint64_t Vr, uint64_t E, uint64_t& B, uint64_t& marks) {
    const uint64_t X = M | ~Vr;                 // stop rows: match | vertical step
    const uint64_t A = E - B;                   // each cursor up to its line's end
    const uint64_t L = ((A & ~X) + B) & X & A;  // each line's first stop row
    const uint64_t Lm = L & M;
    marks |= Lm;
    B = L + Lm;  // a match: one row further (the diagonal); a vertical step: stay (left)
}

// The backtrack of every line of one lane over the columns vs[j * stride], j = Lc .. 1, of prediction
// line c (bit-reversed match masks rpm[id * stride]); E: the bit past each line's reversed range, B:
// each line's cursor bit (its last row). Returns the rows on the walks, bit-reversed. O(Lc). The
// same walk with GFNI's bit reversal when gfni (simd_gfni()): the same marks.
inline uint64_t walk_lane_base(const uint64_t* rpm, size_t stride, const int32_t* c, size_t Lc, const uint64_t* vs,
                               uint64_t E, uint64_t B) {
    uint64_t marks = 0;
    for (size_t j = Lc; j > 0 && B; --j) walk_column(rpm[(size_t)c[j - 1] * stride], reverse_bits(vs[j * stride]), E, B, marks);
    return marks;
}
#if ROUGE_GFNI
ROUGE_TARGET_GFNI ROUGE_NOINLINE uint64_t walk_lane_gfni(const uint64_t* rpm, size_t stride, const int32_t* c, size_t Lc,
                                                         const uint64_t* vs, uint64_t E, uint64_t B) {
    uint64_t marks = 0;
    for (size_t j = Lc; j > 0 && B; --j) walk_column(rpm[(size_t)c[j - 1] * stride], reverse_bits_gfni(vs[j * stride]), E, B, marks);
    return marks;
}
#endif
inline uint64_t walk_lane(bool gfni, const uint64_t* rpm, size_t stride, const int32_t* c, size_t Lc,
                          const uint64_t* vs, uint64_t E, uint64_t B) {
#if ROUGE_GFNI
    if (gfni) return walk_lane_gfni(rpm, stride, c, Lc, vs, E, B);
#else
    (void)gfni;
#endif
    return walk_lane_base(rpm, stride, c, Lc, vs, E, B);
}

// The columns 1..Lc of one long line (W words over its rows, masks pm[id * W]) against prediction line
// c into vs[j * W], j = 1..Lc. O(Lc * W). Not inlined: inside lsum_hits the add-with-carry chain of
// lcs_step was spilled between adds (as lcs_rows, kernels_lcs.hpp).
template <size_t WC>
ROUGE_NOINLINE void long_columns(const uint64_t* pm, size_t W, const int32_t* c, size_t Lc, uint64_t* vs) {
    W = width<WC>(W);
    for (size_t w = 0; w < W; ++w) vs[w] = ~(uint64_t)0;
    if constexpr (WC > 0) {  // the column in registers, each one stored for the walk
        uint64_t v[WC];
        for (size_t w = 0; w < WC; ++w) v[w] = ~(uint64_t)0;
        for (size_t j = 0; j < Lc; ++j) {
            lcs_step<WC>(v, v, pm + (size_t)c[j] * WC, WC);
            for (size_t w = 0; w < WC; ++w) vs[(j + 1) * WC + w] = v[w];
        }
    } else {
        for (size_t j = 0; j < Lc; ++j) lcs_step<WC>(vs + (j + 1) * W, vs + j * W, pm + (size_t)c[j] * W, W);
    }
}

// The walk of one long line of len rows (columns vs, masks pm, W words) against prediction line c: the
// rows on it are OR-ed into U. O(Lc + W) word operations, plus the words a move skips.
inline void walk_long(const uint64_t* pm, size_t W, const int32_t* c, size_t Lc, const uint64_t* vs, size_t len,
                      uint64_t* U) {
    size_t i = len;  // the cursor: rows 1..i are left
    for (size_t j = Lc; j > 0 && i > 0; --j) {
        const uint64_t* M = pm + (size_t)c[j - 1] * W;
        const uint64_t* V = vs + j * W;
        size_t w = (i - 1) >> 6;
        uint64_t stop = (M[w] | ~V[w]) & (~(uint64_t)0 >> (63 - ((i - 1) & 63)));  // rows <= i of word w
        while (!stop && w > 0) {
            --w;
            stop = M[w] | ~V[w];
        }
        if (!stop) break;  // no stop row: the walk goes up to row 0
        const size_t b = 63 - (size_t)clz64(stop);
        const uint64_t hit = (M[w] >> b) & 1;
        U[w] |= hit << b;
        i = w * 64 + b + 1 - (size_t)hit;  // a match: rows 1..b (diagonal); else stay on row b + 1 (left)
    }
}

// The clipped hits of the rows marked in bits (bit k: token tok[k]), the prediction's counts in cc
// (decremented). rouge-score clips in reference order, but the total is the same in any order: for
// each token, min(its marked rows, its prediction count) (the reference's own count never binds).
inline int64_t clip_bits(uint64_t bits, const int32_t* tok, int32_t* cc) {
    int64_t hit = 0;
    for (; bits; bits &= bits - 1) {
        const int32_t t = tok[ctz64(bits)];
        const int32_t h = cc[t] > 0;
        cc[t] -= h;
        hit += h;
    }
    return hit;
}

// rougeLsum's hits of the pair (ws.rsum: the reduced reference, ids 1..K; ws.lpred: the prediction;
// ws.pc: the prediction's counts), or false, with no count or mask changed, when one lane's masks and
// columns or one long line's would exceed the workspace's limits. Leaves ws.lpm zeroed.
inline bool lsum_hits(Workspace& ws, size_t K, int64_t& hit) {
    const Doc& R = ws.rsum;
    const Doc& P = ws.lpred;
    const size_t mask_words = std::max<size_t>(1, ws.limits.mask_bytes / 8), col_words = std::max<size_t>(1, ws.limits.row_bytes / 8);
    size_t lc_max = 0;
    for (size_t k = 0; k < P.nsent(); ++k) lc_max = std::max<size_t>(lc_max, P.sb[2 * k + 1] - P.sb[2 * k]);
    // Place the lines: short ones into lanes (a guard bit after each line but a lane's last), long ones apart.
    std::vector<LsumLine>& lines = ws.llines;
    lines.resize(R.nsent());  // one per line, written in place (a push_back per line is a call)
    size_t nl = 0, off = 64, wmax = 0;
    for (size_t q = 0; q < R.nsent(); ++q) {
        const uint32_t b = R.sb[2 * q], len = R.sb[2 * q + 1] - b;
        if (len > 64) {
            const size_t W = (len + 63) / 64;
            wmax = std::max(wmax, W);
            lines[q] = LsumLine{b, len, UINT32_MAX, 0};
            continue;
        }
        if (off + len > 64) ++nl, off = 0;
        lines[q] = LsumLine{b, len, (uint32_t)(nl - 1), (uint32_t)off};
        off += len + 1;
    }
    // Lanes in groups of G, so that the masks (each lane's twice: as they are and bit-reversed) and the
    // columns of a group stay within the limits (all of them in one group when they fit: no division).
    const bool one_group = nl * 2 * (K + 1) <= mask_words && nl * (lc_max + 1) <= col_words;
    const size_t G = one_group ? nl : std::min({nl, mask_words / (2 * (K + 1)), col_words / (lc_max + 1)});
    if ((nl && G == 0) || wmax * (K + 1) > mask_words || wmax * (lc_max + 1) > col_words) return false;
    int32_t* cc = copied(ws.rc, ws.pc);  // the prediction's counts, consumed by the hits
    const size_t words = std::max(G, wmax) * (K + 1);
    if (ws.lpm.size() < words + G * (K + 1)) ws.lpm.resize(words + G * (K + 1), 0);
    ROUGE_CHECK(ws.pc.size() == K + 1 && ws.rc.size() == K + 1, "lsum_hits: counts not over the ids 0..K");
    uint64_t* pm = ws.lpm.data();
    uint64_t* rpm = pm + words;  // the lanes' masks bit-reversed, for the walks
    const int32_t* r = R.ids.data();
    // The prediction's lines with each run of tokens the reference lacks cut to one token and the runs
    // that open a line dropped (cp, lines cb: (begin, end) pairs, ncb of them), and lc_max of scratch
    // (cs). A column that matches no row of a line equals the column before it, so in a run of such
    // columns the walk goes up in the first one it meets (to the highest stop row at or below its
    // cursor) and then only left, on that row, through the others: one of them moves it the same (not
    // none: the up moves must happen before the column to the left, whose matches could stop it
    // higher). In a run that opens a line no row has a stop (the LCS is 0 there): the walk ends on it
    // either way. With one lane and no long line the lane's own cut below (ng == 1) makes the same
    // one (there a column matches no row exactly when the reference lacks its token: every token of
    // the reduced reference is in the lane), so the prediction's lines are taken as they are.
    const bool one_lane = nl == 1 && wmax == 0;
    const int32_t* cp;
    const uint32_t* cb;
    size_t ncb;
    int32_t* cs;
    if (one_lane) {
        if (ws.lcolt.size() < lc_max) ws.lcolt.resize(lc_max);
        cs = ws.lcolt.data();
        cp = P.ids.data();
        cb = P.sb.data();
        ncb = P.sb.size();
    } else {
        if (ws.lcolt.size() < P.ids.size() + lc_max) ws.lcolt.resize(P.ids.size() + lc_max);
        int32_t* out = ws.lcolt.data();
        cs = out + P.ids.size();
        std::vector<uint32_t>& lb = ws.lcolb;
        lb.resize(P.sb.size());  // at most one (begin, end) per line, written in place
        size_t n = 0, nb = 0;
        for (size_t k = 0; k < P.nsent(); ++k) {
            const size_t b = n;
            int32_t prev = 0;
            for (uint32_t j = P.sb[2 * k]; j < P.sb[2 * k + 1]; ++j) {  // branch-free: a dropped token is overwritten
                const int32_t t = P.ids[j];
                out[n] = t;
                n += (t | prev) != 0;
                prev = t;
            }
            lb[nb] = (uint32_t)b;
            lb[nb + 1] = (uint32_t)n;
            nb += n > b ? 2 : 0;
        }
        cp = out;
        cb = lb.data();
        ncb = nb;
    }
    hit = 0;
    const bool gfni = simd_gfni();
    size_t l0 = 0;  // the group's first line: short lines are placed in lane order, so a group's are a run
    for (size_t g0 = 0; g0 < nl; g0 += G) {
        const size_t g1 = std::min(nl, g0 + G), ng = g1 - g0;
        size_t l1 = l0;
        while (l1 < lines.size() && (lines[l1].lane == UINT32_MAX || lines[l1].lane < g1)) ++l1;
        uint64_t *guard = zeroed(ws.lguard, ng), *E = zeroed(ws.lend, ng), *B = zeroed(ws.lcur, ng), *U = zeroed(ws.lunion, ng);
        if (ws.ltok.size() < ng * 64) ws.ltok.resize(ng * 64);
        int32_t* tok = ws.ltok.data();
        for (size_t q = l0; q < l1; ++q) {
            const LsumLine& s = lines[q];
            if (s.lane == UINT32_MAX) continue;
            const size_t w = s.lane - g0;
            for (uint32_t i = 0; i < s.len; ++i) {
                const int32_t t = r[s.beg + i];
                ROUGE_CHECK(t >= 1 && (size_t)t <= K && s.off + i < 64, "lsum_hits: reference id past K or bit past its lane");
                pm[(size_t)t * ng + w] |= (uint64_t)1 << (s.off + i);
                rpm[(size_t)t * ng + w] |= (uint64_t)1 << (63 - (s.off + i));
                tok[w * 64 + 63 - (s.off + i)] = t;  // bit-reversed, as the walk reports rows
            }
            if (s.off + s.len < 64) guard[w] |= (uint64_t)1 << (s.off + s.len);
            if (s.off) E[w] |= (uint64_t)1 << (64 - s.off);  // a line at bit 0 ends past bit 63: 0 (mod 2^64)
            B[w] |= (uint64_t)1 << (64 - s.off - s.len);
        }
        for (size_t k = 0; 2 * k < ncb && !ws.stopped(); ++k) {
            const int32_t* c = cp + cb[2 * k];
            const size_t Lc = cb[2 * k + 1] - cb[2 * k];
            ROUGE_CHECK(Lc <= lc_max, "lsum_hits: prediction line longer than measured");
            if (ws.lcol.size() < (Lc + 1) * ng) ws.lcol.resize((Lc + 1) * ng);
            uint64_t* vs = ws.lcol.data();
            if (ng == 1) {
                // and the same cut for the runs of columns that match no line of the lane (branch-free: a
                // dropped column leaves V as it is, and the next one overwrites it)
                const uint64_t keep = ~guard[0];
                uint64_t V = keep, prev = 0;
                size_t n = 0;
                for (size_t j = 0; j < Lc; ++j) {
                    const int32_t t = c[j];
                    const uint64_t M = pm[t];
                    V = ((V + (V & M)) & keep) | (V & ~M);  // the guard bits stop the carry between lines
                    cs[n] = t;
                    vs[n + 1] = V;
                    n += (M | prev) != 0;
                    prev = M;
                }
                if (V != keep) U[0] |= walk_lane(gfni, rpm, 1, cs, n, vs, E[0], B[0]);
            } else {
                for (size_t w = 0; w < ng; ++w) vs[w] = ~guard[w];
                for (size_t j = 0; j < Lc; ++j) {
                    const uint64_t* M = pm + (size_t)c[j] * ng;
                    const uint64_t* V0 = vs + j * ng;
                    uint64_t* V1 = vs + (j + 1) * ng;
                    for (size_t w = 0; w < ng; ++w) {
                        const uint64_t v = V0[w], mk = M[w];
                        V1[w] = ((v + (v & mk)) & ~guard[w]) | (v & ~mk);
                    }
                }
                for (size_t w = 0; w < ng; ++w)
                    if (vs[Lc * ng + w] != ~guard[w]) U[w] |= walk_lane(gfni, rpm + w, ng, c, Lc, vs + w, E[w], B[w]);
            }
        }
        // The group's masks back to 0: when they are one block (pm and rpm side by side) not much larger
        // than the rows placed, all of it at once, else row by row.
        if (l1 > l0 && rpm == pm + (K + 1) * ng && 2 * (K + 1) * ng <= 4 * (R.sb[2 * l1 - 1] - R.sb[2 * l0]) + 64) {
            std::memset((void*)pm, 0, 2 * (K + 1) * ng * sizeof(uint64_t));
        } else {
            for (size_t q = l0; q < l1; ++q) {
                const LsumLine& s = lines[q];
                if (s.lane == UINT32_MAX) continue;
                for (uint32_t i = 0; i < s.len; ++i) pm[(size_t)r[s.beg + i] * ng + (s.lane - g0)] = rpm[(size_t)r[s.beg + i] * ng + (s.lane - g0)] = 0;
            }
        }
        l0 = l1;
        for (size_t w = 0; w < ng; ++w) hit += clip_bits(U[w], tok + w * 64, cc);
    }
    for (const LsumLine& s : lines) {
        if (s.lane != UINT32_MAX) continue;
        const size_t W = (s.len + 63) / 64;
        const int32_t* rl = r + s.beg;
        for (uint32_t i = 0; i < s.len; ++i) pm[(size_t)rl[i] * W + (i >> 6)] |= (uint64_t)1 << (i & 63);
        uint64_t* U = zeroed(ws.lunion, W);
        for (size_t k = 0; 2 * k < ncb && !ws.stopped(); ++k) {
            const int32_t* c = cp + cb[2 * k];
            const size_t Lc = cb[2 * k + 1] - cb[2 * k];
            if (ws.lcol.size() < (Lc + 1) * W) ws.lcol.resize((Lc + 1) * W);
            uint64_t* vs = ws.lcol.data();
            switch (W) {
                case 2: long_columns<2>(pm, W, c, Lc, vs); break;
                case 3: long_columns<3>(pm, W, c, Lc, vs); break;
                case 4: long_columns<4>(pm, W, c, Lc, vs); break;
                case 5: long_columns<5>(pm, W, c, Lc, vs); break;
                case 6: long_columns<6>(pm, W, c, Lc, vs); break;
                case 7: long_columns<7>(pm, W, c, Lc, vs); break;
                case 8: long_columns<8>(pm, W, c, Lc, vs); break;
                default: long_columns<0>(pm, W, c, Lc, vs);
            }
            walk_long(pm, W, c, Lc, vs, s.len, U);
        }
        for (uint32_t i = 0; i < s.len; ++i) pm[(size_t)rl[i] * W + (i >> 6)] = 0;
        for (size_t w = 0; w < W; ++w) hit += clip_bits(U[w], rl + w * 64, cc);
    }
    return true;
}

}  // namespace
}  // namespace rouge
