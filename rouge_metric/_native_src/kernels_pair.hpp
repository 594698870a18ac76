// One (prediction, reference) pair in per-pair ids, shared by the kernels of every rouge type of the
// pair. Reference: scoring.pair_stats (the kernels' results do not depend on the id values, only on
// which tokens are equal). Ownership: only the calling thread's Workspace is touched.
//
// The reference's distinct tokens get the ids 1..K in order of first occurrence, a prediction token
// the id of the same token of the reference or 0 when the reference does not have it. Every kernel
// compares prediction tokens with reference tokens only (the prediction's 0s never match), so their
// counts are those of the global ids; but the dense arrays they index (counts, match masks, slots) are
// now K + 1 entries that stay in L1, instead of entries spread over the vocabulary.
// On top of them:
// - rouge1 is the sum over ids of min(counts), the prediction's counts taken once for the pair;
// - rouge2 counts bigrams in a direct (K + 1)^2 table while it is small (PAIR_DIRECT_CELLS), else in
//   an open-addressing table keyed by the packed id pair (bigram_hits_local);
// - rouge3 and up use ngram_hits on the per-pair ids;
// - rougeL runs on both sequences reduced to the tokens the other one has (the LCS is unchanged);
// - rougeLsum runs on the reference reduced to the tokens the prediction has, sentence by sentence
//   (empty sentences dropped): a reference row whose token is in no prediction sentence never joins an
//   LCS nor moves rouge-score's backtrack (lcs_mark), and the clipped hits only count tokens of the
//   prediction, whose reference counts the reduction keeps; it runs lane-packed (kernels_lsum.hpp),
//   or on union_lcs_marks when the lanes would exceed the memory limits; a pair of one sentence a
//   side takes rougeL's LCS instead (scoring.hpp, pair_stats).
#pragma once

#include "common.hpp"
#include "kernels_lcs.hpp"
#include "kernels_lsum.hpp"
#include "kernels_ngram.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// rouge2's direct table: at most this many cells ((K + 1)^2, K <= 511), 16-bit counts (512 KiB at most,
// allocated once per workspace; only the cells of the pair's bigrams are touched and cleared, so a
// long reference of a few hundred distinct tokens still costs O(m + n), not O(K^2)).
constexpr size_t PAIR_DIRECT_CELLS = (size_t)1 << 18;

// The pair in per-pair ids (ws.lref, ws.lpred), K = the reference's distinct tokens. O(m + n) time, one
// lookup per token in ws.local (dense by global id, left zeroed); O(m + n + K) memory.
inline size_t pair_local_ids(Workspace& ws, const Doc& pred, const Doc& ref) {
    const size_t m = ref.ids.size(), n = pred.ids.size();
    ROUGE_CHECK(ws.covers_local(ref) && ws.covers_local(pred), "pair_local_ids: token id past the workspace");
    int32_t* lo = ws.local.data();
    if (ws.touched.size() < m + 1) ws.touched.resize(m + 1);
    int32_t* tp = ws.touched.data();
    Doc& R = ws.lref;
    Doc& P = ws.lpred;
    R.ids.resize(m);
    P.ids.resize(n);
    copied(R.sb, ref.sb);  // (inline: vector::operator= is an out-of-line call)
    copied(P.sb, pred.sb);
    int32_t* rl = R.ids.data();
    int32_t K = 0;
    for (size_t i = 0; i < m; ++i) {  // branch-free: whether a token is new is unpredictable
        const int32_t g = ref.ids[i];
        const int32_t l0 = lo[g];
        const int32_t fresh = l0 == 0;
        K += fresh;
        const int32_t l = l0 | (K & -fresh);
        lo[g] = l;
        tp[K & -fresh] = g;  // tp[0] is scratch
        rl[i] = l;
    }
    int32_t* pl = P.ids.data();
    ws.rpred.resize(n);
    int32_t* rp = ws.rpred.data();
    size_t np = 0;
    for (size_t j = 0; j < n; ++j) {  // and the prediction's tokens the reference has, in order
        const int32_t l = lo[pred.ids[j]];
        pl[j] = l;
        rp[np] = l;
        np += l != 0;
    }
    ws.rpred.resize(np);
    for (int32_t k = 1; k <= K; ++k) lo[tp[k]] = 0;
    // The prediction's count of each local id (pc[0] = 0), counted on the reduced prediction: its many
    // 0s would chain every increment through one counter.
    zeroed(ws.pc, (size_t)K + 1);
    int32_t* pc = ws.pc.data();
    for (size_t j = 0; j < np; ++j) pc[rp[j]]++;
    ws.ensure_dense((size_t)K + 1);  // the kernels' arrays cover the per-pair ids
    ROUGE_CHECK((size_t)K <= m && ws.touched.size() > (size_t)K && ws.capacity() > (size_t)K,
                "pair_local_ids: per-pair ids past their buffers");
    return (size_t)K;
}

// Clipped unigram overlap of the pair in per-pair ids: sum over ids of min(reference count, prediction
// count). O(m + K).
inline int64_t unigram_hits_local(Workspace& ws, size_t K) {
    zeroed(ws.rc, K + 1);
    int32_t* rc = ws.rc.data();
    for (int32_t t : ws.lref.ids) {
        ROUGE_CHECK(t >= 1 && (size_t)t <= K, "unigram_hits_local: id past K");
        rc[t]++;
    }
    const int32_t* pc = ws.pc.data();
    int64_t hit = 0;
    for (size_t k = 1; k <= K; ++k) hit += std::min(rc[k], pc[k]);
    return hit;
}

// Clipped bigram overlap of the per-pair sequences P (prediction, 0 = not in R) and R (ids 1..K), with
// the bigram (a, b) as the key a * (K + 1) + b (a reference bigram's key is >= K + 1; a prediction
// bigram with a 0 never equals one). O(m + n) either way:
// - direct table while (K + 1)^2 <= PAIR_DIRECT_CELLS and the counts fit 16 bits: one cell per key,
//   branch-free, the touched cells cleared after;
// - else open addressing over about 2 (m - 1) slots of (key, count), multiplicative hash, linear
//   probing (expected O(1) per bigram; the table stays in cache for a reference of a few thousand
//   tokens), the reference's slots cleared after.
inline int64_t bigram_hits_local(Workspace& ws, Seq P, Seq R, size_t K) {
    if (P.n < 2 || R.n < 2) return 0;
    const uint64_t K1 = K + 1;
    const int32_t* r = R.p;
    const int32_t* p = P.p;
    const size_t nr = R.n - 1, np = P.n - 1;
    int64_t hit = 0;
    if (K1 * K1 <= PAIR_DIRECT_CELLS && R.n <= 65535) {
        if (ws.big2.size() < K1 * K1) ws.big2.resize(K1 * K1, 0);
        uint16_t* T = ws.big2.data();
        for (size_t i = 0; i < nr; ++i) {
            ROUGE_CHECK(r[i] * K1 + r[i + 1] < ws.big2.size(), "bigram_hits_local: cell past the table");
            T[r[i] * K1 + r[i + 1]]++;
        }
        for (size_t j = 0; j < np; ++j) {  // cells with a 0 (a token R lacks) stay 0: never a hit
            ROUGE_CHECK((size_t)p[j] <= K && (size_t)p[j + 1] <= K, "bigram_hits_local: id past K");
            uint16_t& x = T[p[j] * K1 + p[j + 1]];
            const uint16_t h = x > 0;
            x = (uint16_t)(x - h);
            hit += h;
        }
        for (size_t i = 0; i < nr; ++i) T[r[i] * K1 + r[i + 1]] = 0;
        return hit;
    }
    int bits = 4;
    while (((size_t)1 << bits) < 2 * nr) ++bits;
    const size_t mask = ((size_t)1 << bits) - 1;
    const int shift = 64 - bits;
    if (ws.bslots.size() < mask + 1) ws.bslots.resize(mask + 1, BigramSlot{0, 0});
    if (ws.bslot_of.size() < nr) ws.bslot_of.resize(nr);
    ROUGE_CHECK(2 * nr <= mask + 1 && mask < ws.bslots.size() && nr <= ws.bslot_of.size(), "bigram_hits_local: table too small");
    BigramSlot* T = ws.bslots.data();
    uint32_t* at = ws.bslot_of.data();
    for (size_t i = 0; i < nr; ++i) {
        const uint64_t key = r[i] * K1 + (uint64_t)r[i + 1];  // >= K1 > 0: 0 marks a free slot
        size_t s = (size_t)((key * 0x9E3779B97F4A7C15ull) >> shift);
        while (T[s].key && T[s].key != key) s = (s + 1) & mask;
        T[s].key = key;
        T[s].cnt++;
        at[i] = (uint32_t)s;
    }
    for (size_t j = 0; j < np; ++j) {
        const uint64_t key = p[j] * K1 + (uint64_t)p[j + 1];  // with a 0: equals no reference key
        size_t s = (size_t)((key * 0x9E3779B97F4A7C15ull) >> shift);
        while (T[s].key && T[s].key != key) s = (s + 1) & mask;
        const int32_t c = T[s].cnt, h = c > 0;  // a free slot (key 0 or not found) has count 0
        T[s].cnt = c - h;
        hit += h;
    }
    for (size_t i = 0; i < nr; ++i) T[at[i]] = BigramSlot{0, 0};
    return hit;
}

// rougeL's sequences reduced to the tokens the other one has: ws.rpred (made by pair_local_ids) and
// ws.rref. O(m). Returns false when one of them is empty (LCS 0).
inline bool reduce_pair(Workspace& ws) {
    const Doc& R = ws.lref;
    const int32_t* pc = ws.pc.data();
    ws.rref.resize(R.ids.size());
    size_t nr = 0;
    for (int32_t t : R.ids) {
        ROUGE_CHECK((size_t)t < ws.pc.size(), "reduce_pair: id past K");
        ws.rref[nr] = t;
        nr += pc[t] > 0;
    }
    ws.rref.resize(nr);
    return nr && !ws.rpred.empty();
}

// rougeLsum's reference reduced to the tokens the prediction has, sentence by sentence (empty ones
// dropped), into ws.rsum: O(m + n).
inline void reduce_sum_ref(Workspace& ws) {
    const Doc& R = ws.lref;
    const int32_t* pc = ws.pc.data();
    Doc& D = ws.rsum;
    D.ids.resize(R.ids.size());
    D.sb.resize(R.sb.size());  // at most R's sentences, written in place
    uint32_t* sb = D.sb.data();
    size_t nr = 0, ns = 0;
    for (size_t q = 0; q < R.nsent(); ++q) {
        size_t b = nr;
        for (uint32_t i = R.sb[2 * q]; i < R.sb[2 * q + 1]; ++i) {
            int32_t t = R.ids[i];
            ROUGE_CHECK((size_t)t < ws.pc.size(), "reduce_sum_ref: id past K");
            D.ids[nr] = t;
            nr += pc[t] > 0;
        }
        sb[ns] = (uint32_t)b;
        sb[ns + 1] = (uint32_t)nr;
        ns += nr > b ? 2 : 0;
    }
    D.sb.resize(ns);
    D.ids.resize(nr);
}

// rougeLsum of the pair in per-pair ids: union_lcs on the reduced reference, with the totals of the
// whole texts (m, n).
inline void union_lcs_local(Workspace& ws, int64_t& hit, int64_t& pt, int64_t& rt) {
    pt = (int64_t)ws.lpred.ids.size();
    rt = (int64_t)ws.lref.ids.size();
    hit = 0;
    reduce_sum_ref(ws);
    if (ws.rsum.ids.empty()) return;  // no common token (or an empty side)
    // lsum_hits, or union_lcs_marks beyond lsum_hits's memory limits (bounded memory, the same hits).
    if (lsum_hits(ws, ws.pc.size() - 1, hit)) return;
    union_lcs_marks(ws, ws.rsum, ws.lpred);
    copied(ws.rc, ws.pc);  // the prediction's counts, consumed by the hits
    ROUGE_CHECK(ws.marked.size() >= ws.rsum.ids.size(), "union_lcs_local: marks shorter than the reference");
    hit = clipped_marks(ws, ws.rsum, ws.rc.data());
}

}  // namespace
}  // namespace rouge
