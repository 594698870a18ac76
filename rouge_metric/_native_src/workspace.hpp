// Per-thread scratch space of the kernels.
//
// Ownership: a Workspace belongs to exactly one thread for the whole of a call (the batch gives each
// worker its own thread state; the per-pair path and the kernel functions lease one from a pool,
// see bindings.cpp with_workspace). Nothing in it is shared. Its dense arrays are indexed by token id
// and must cover every id the thread scores: the owner sizes them after the vocabulary stops
// changing and before it scores (Scorer::fit in batch.hpp, ensure() for the kernel functions; for
// token ids, after the call's interning: ids.hpp), and checked builds verify it for every text
// (Scorer::fits, covers()).
#pragma once

#include <mutex>

#include "common.hpp"
#include "hash.hpp"
#include "interrupt.hpp"
#include "wpow.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// Memory limits of the kernels. Beyond them a kernel switches to a path whose memory does not grow
// with the product of the lengths, with the same results: sparse match masks (kernels_lcs.hpp), DP
// rows recomputed from checkpoints (rows.hpp). Settable for tests (_native._set_limits).
struct Limits {
    size_t mask_bytes = (size_t)64 << 20;  // dense match masks of one sequence: distinct tokens x words
    size_t row_bytes = (size_t)64 << 20;   // DP rows held for one sentence pair (LCS and WLCS walks)
    size_t trim_bytes = (size_t)16 << 20;  // a scratch buffer larger than this is freed after a call
    size_t saved_bytes = (size_t)32 << 20;  // the docs phase 0 of a first batch keeps (batch.hpp), all threads
    // A batch on several threads that is expected to meet more than restart_ratio times as many distinct
    // tokens as its vocabulary has starts that vocabulary again, empty, and builds it in phase 0
    // (batch.hpp, Scorer::batch); 0: never (same results either way).
    size_t restart_ratio = 16;
};
// The limits in force, read by every call at its start: under a mutex, since the GIL is no
// protection once an interpreter runs without one.
inline std::mutex LIMITS_MU;
inline Limits LIMITS;
inline Limits current_limits() {
    std::lock_guard<std::mutex> g(LIMITS_MU);
    return LIMITS;
}
inline void set_limits(const Limits& l) {
    std::lock_guard<std::mutex> g(LIMITS_MU);
    LIMITS = l;
}

// One cell of the ROUGE-W dynamic program: the weighted score and the run length ending here.
struct WCell {
    double c;
    int32_t l;
};

// A slot of the n-gram pair path's bigram table (kernels_pair.hpp): key 0 is a free slot.
struct BigramSlot {
    uint64_t key;
    int32_t cnt;
};

// v as n zeros: vector::assign(n, 0) is an out-of-line call, which costs more than the memset of the
// few hundred words of a pair.
// (V: a std::vector or a PodVec.)
template <class V>
inline typename V::value_type* zeroed(V& v, size_t n) {
    v.resize(n);
    std::memset((void*)v.data(), 0, n * sizeof(typename V::value_type));
    return v.data();
}

// dst as a copy of src (vector::assign from a range is an out-of-line call; V, W: a std::vector or a
// PodVec of the same values).
template <class V, class W>
inline typename V::value_type* copied(V& dst, const W& src) {
    static_assert(std::is_same<typename V::value_type, typename W::value_type>::value, "copied: the same values");
    dst.resize(src.size());
    if (!src.empty()) std::memcpy((void*)dst.data(), (const void*)src.data(), src.size() * sizeof(typename V::value_type));
    return dst.data();
}

// A line of rougeLsum's reduced reference (kernels_lsum.hpp): tokens [beg, beg + len); a short line sits
// in lane `lane` at bits [off, off + len), a long one has lane UINT32_MAX.
struct LsumLine {
    uint32_t beg, len, lane, off;
};

struct Workspace {
    // Dense by token id, always left zeroed (UINT32_MAX for slot/first).
    std::vector<int32_t> cnt_a, cnt_b;
    std::vector<uint64_t> pm1;   // single-word match masks by id
    std::vector<uint32_t> slot;  // multi-word masks: id -> offset in masks, or distinct index (sparse)
    std::vector<uint32_t> first; // union_lcs: first position of a token in the reference
    std::vector<int32_t> local;  // per-pair id of a reference token (kernels_pair.hpp), 0 otherwise
    // Scratch of one kernel call.
    std::vector<uint64_t> masks;     // dense multi-word masks, or the one expanded mask (sparse)
    std::vector<uint32_t> occ, occ_start, occ_fill;  // sparse masks: positions grouped by token
    std::vector<uint64_t> rows, V;
    std::vector<uint32_t> pos;
    std::vector<uint8_t> marked;
    // union_lcs: occurrence chains of the reference tokens (next by position), the distinct tokens
    // of a prediction sentence, a bitmap over reference positions.
    std::vector<uint32_t> nxt;
    std::vector<int32_t> distinct;
    std::vector<uint64_t> bits;
    std::vector<WCell> wrows;
    std::vector<uint8_t> wmask;
    std::vector<double> powk;
    double powk_w = -1.0;
    PairTable table;
    std::vector<int32_t> g1, g2, h1, h2;
    // kernels_pair.hpp: the pair in per-pair ids, rougeL's and rougeLsum's reduced sequences, rouge2's
    // direct bigram table (left zeroed), the reference's distinct global ids.
    Doc lref, lpred, rsum;
    IdVec rref, rpred, touched, pc, rc;  // written before read (pc, rc: zeroed)
    std::vector<uint16_t> big2;
    std::vector<BigramSlot> bslots;  // left free (key 0)
    std::vector<uint32_t> bslot_of;
    // kernels_lsum.hpp: match masks by per-pair id, as they are and bit-reversed (left zeroed), the columns
    // of one prediction line, the lines and, per lane, guard bits, line ends, cursors, marked rows and the
    // tokens of its bits; the prediction's tokens the reference has and its lines' bounds.
    std::vector<uint64_t> lpm, lcol, lguard, lend, lcur, lunion;
    std::vector<int32_t> ltok, lcolt;
    std::vector<uint32_t> lcolb;
    std::vector<LsumLine> llines;
    Poll* poll = nullptr;  // this thread's interruption checks (none: never stops)
    Limits limits;         // a copy of the limits taken by the owner at the start of a call

    // Two kinds of dense array, sized apart (4 bytes per id against 24):
    // - the kernels' (cnt_a, cnt_b, pm1, slot, first): every id a kernel is given, the global ids
    //   for rougeW and ROUGE-S (and the kernel functions), only the per-pair ids 1..K for the kinds
    //   that run on them (kernels_pair.hpp sizes them for K);
    // - `local`: every global id of the texts the per-pair kinds score (pair_local_ids maps them).
    // Both grow by doubling at least (a vocabulary that grows a little in each call is not copied
    // in each call).
    size_t capacity() const { return cnt_a.size(); }  // ids the kernels' arrays cover
    void ensure_dense(size_t nid) {
        if (cnt_a.size() < nid) {
            size_t n = std::max(nid, cnt_a.size() * 2);
            cnt_a.resize(n, 0);
            cnt_b.resize(n, 0);
            pm1.resize(n, 0);
            slot.resize(n, UINT32_MAX);
            first.resize(n, UINT32_MAX);
        }
    }
    void ensure_local(size_t nid) {
        if (local.size() < nid) local.resize(std::max(nid, local.size() * 2), 0);
    }
    // Global ids below nid for every kind (the kernels' arrays and `local`).
    void ensure(size_t nid) {
        ensure_dense(nid);
        ensure_local(nid);
    }
    // Whether every id of d is covered: for every kind, or for the per-pair kinds only.
    bool covers(const Doc& d) const { return d.id_bound() <= capacity() && d.id_bound() <= local.size(); }
    bool covers_local(const Doc& d) const { return d.id_bound() <= local.size(); }
    ROUGE_FORCE_INLINE bool stopped() { return poll && poll->stopped(); }

    // wpow(k, w) for k = 0..kmax, cached per weight (core_py.wpow_table).
    const double* powtab(double w, size_t kmax) {
        if (w != powk_w) {
            powk.clear();
            powk_w = w;
        }
        while (powk.size() <= kmax) powk.push_back(wpow((double)powk.size(), w));
        return powk.data();
    }

    // Free the scratch buffers that one very long input made large (the dense arrays by id stay:
    // they are bounded by the vocabulary).
    void trim() {
        size_t most = limits.trim_bytes;
        auto big = [most](const auto& v) { return v.capacity() * sizeof(v[0]) > most; };
        auto drop = [&](auto& v) {
            if (big(v)) std::remove_reference_t<decltype(v)>().swap(v);
        };
        drop(masks), drop(occ), drop(occ_start), drop(occ_fill), drop(rows), drop(V), drop(pos), drop(marked), drop(nxt);
        drop(distinct), drop(bits), drop(wrows), drop(wmask), drop(powk), drop(g1), drop(g2), drop(h1), drop(h2);
        drop(rref), drop(rpred), drop(touched), drop(pc), drop(rc), drop(bslots), drop(bslot_of), drop(lref.ids), drop(lpred.ids), drop(rsum.ids);
        drop(lpm), drop(lcol), drop(lguard), drop(lend), drop(lcur), drop(lunion), drop(ltok), drop(lcolt), drop(lcolb), drop(llines);
        if (big(table.slots)) table = PairTable();
    }
};

}  // namespace
}  // namespace rouge
