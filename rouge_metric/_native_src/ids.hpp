// Token ids as input (RougeConfig(tokenizer="ids")): the interned form of a batch of id examples
// (IdMap, IdBatch: what rouge_metric/ids.py's IdPipeline.process describes), and its scoring on N
// threads without the host's lock (score_id_batch).
//
// Ownership during an id batch (the rule of docs/native.md, in its simplest form):
// - Serial, the calling thread with the GIL held (py_ids.hpp, read_id_batch, binding layer): the
//   Python lists are read once and every id is interned into dense int32 ids by an IdMap local to
//   the call (checking for signals every 2^18 ids, so Ctrl-C stops a long read too). The result, an
//   IdBatch (ids, sentence bounds, offsets, and the number of distinct ids `nid`), is complete before
//   any worker starts and read-only while they run. No Python object is touched after this step.
// - Then every thread's workspace is sized to `nid` (the interning is over, so no thread can meet an
//   id past its arrays), and the threads score without the GIL. The shared Vocab of the text path is
//   neither read nor locked: ids need no tokenizer and no stem cache.
// - Shared and written while threads run: the work counter, the Interrupt, and values[i]/lens[i],
//   written only by the thread that took example i's block. Everything else a thread writes is in
//   its own ThreadState (leased from the scorer's pool exactly as in Scorer::batch, and discarded
//   when the call ends early).
#pragma once

#include "batch.hpp"
#include "common.hpp"
#include "hash.hpp"
#include "interrupt.hpp"
#include "scoring.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// Interned codes of the ids that are not tokens.
enum : int32_t { ID_IGNORED = -1, ID_SENTENCE_END = -2 };

// int64 id -> int32 code (a dense token id, or ID_IGNORED / ID_SENTENCE_END), open addressing with
// linear probing, grown at half load. O(1) expected per lookup; memory O(distinct ids). One call's own.
struct IdMap {
    struct Slot {
        int64_t key;
        int32_t val;
        int32_t used;
    };
    std::vector<Slot> slots;
    size_t mask = 0, count = 0;

    IdMap() { slots.assign(1024, Slot{0, 0, 0}), mask = 1023; }
    // The code of key, inserting `fresh` when it is absent (fresh() is called only then).
    template <class Fresh>
    int32_t get(int64_t key, Fresh&& fresh) {
        for (size_t i = mix64((uint64_t)key) & mask;; i = (i + 1) & mask) {
            Slot& s = slots[i];
            if (!s.used) {
                int32_t v = fresh();
                s = Slot{key, v, 1};
                if (++count * 2 > slots.size()) grow();
                return v;
            }
            if (s.key == key) return s.val;
        }
    }
    void grow() {
        std::vector<Slot> old(slots.size() * 2, Slot{0, 0, 0});
        old.swap(slots);
        mask = slots.size() - 1;
        for (const Slot& s : old)
            if (s.used)
                for (size_t i = mix64((uint64_t)s.key) & mask;; i = (i + 1) & mask)
                    if (!slots[i].used) {
                        slots[i] = s;
                        break;
                    }
    }
};

// A batch of id examples after interning: example i is documents ex_off[i] (the prediction) to
// ex_off[i + 1] - 1 (its references); document d is ids[off[d], off[d + 1]) with the sentence bounds
// sb[sb_off[d], sb_off[d + 1]) (relative to the document's start), exactly the Doc that
// IdPipeline.process describes: ignored ids and sentence ends dropped, non-empty sentences only.
struct IdBatch {
    std::vector<int32_t> ids;
    std::vector<uint32_t> sb;
    std::vector<size_t> off{0}, sb_off{0}, ex_off{0};
    int32_t nid = 0;  // distinct token ids: every id is < nid

    size_t n() const { return ex_off.size() - 1; }
    void load(Doc& d, size_t doc) const {
        d.ids.assign(ids.begin() + (ptrdiff_t)off[doc], ids.begin() + (ptrdiff_t)off[doc + 1]);
        d.sb.assign(sb.begin() + (ptrdiff_t)sb_off[doc], sb.begin() + (ptrdiff_t)sb_off[doc + 1]);
    }
};

// Score an interned id batch on nthreads threads (the host's lock held on entry and exit, let go of
// while threads run): the outputs of Scorer::batch, from the same Scorer::Run and score_example, so the same floats
// as the text path on the same token ids. One parallel phase: nothing is unknown after interning.
inline void score_id_batch(Scorer& sc, const IdBatch& in, size_t first_index, int nthreads, Scorer::BatchOut& res) {
    const size_t N = in.n();
    Scorer::Run run(sc, N, nthreads, res);
    for (Scorer::ThreadState* th : run.lease.th) sc.fit(th->ws, (size_t)in.nid + 1);  // after the interning
    run.blocks(N, [&](Scorer::ThreadState& th, size_t i) {
        size_t d0 = in.ex_off[i], k = in.ex_off[i + 1] - d0 - 1;
        if (th.docs.size() < k + 1) th.docs.resize(k + 1);
        for (size_t j = 0; j <= k; ++j) in.load(th.docs[j], d0 + j);
        sc.score_example(th, i, k, run.bad, res);
    });
    run.finish(first_index, res);
}

}  // namespace
}  // namespace rouge
