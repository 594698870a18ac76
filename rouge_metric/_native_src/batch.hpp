// Scoring examples: one with the host's lock held (Scorer::score_pair), or a batch on N threads without
// it (Scorer::batch). The host's lock is the GIL in the module (host.hpp); Python objects are read and
// made in the binding layer (py_text.hpp, py_scorer.hpp); this file sees texts and numbers.
//
// Ownership during a batch (docs/native.md, "Who owns what in a batch"):
// - Shared and read-only while worker threads run: the Vocab (see vocab.hpp), this Scorer's specs and
//   type scorers, the input texts (kept alive by the caller: py_text.hpp's Pins), ref_off.
// - Shared and written: `next` (the atomic work counter), the Interrupt and the FirstError (its own
//   mutex); values[i] and lens[i] are written only by the thread that took example i's block.
// - One thread's own for the whole call (a ThreadState leased from the scorer's pool): its Workspace,
//   TokBuf, Docs, Misses (with the provisional ids it gave: they never leave the thread; it sizes its
//   own workspace for them before it scores), Collector (phase 0: read by every thread in its step b,
//   after the joins that end step a; its saved docs and their ids, complete when step c ends, read by
//   every thread in phase 1), deferred examples, column sums and Poll. Phase 0 writes saved_in[i] and
//   saved_at[i] from the thread that recorded example i, read in phase 1 after the joins.
// - Between the parallel phases only the calling thread runs, holding vocab.mu (and the host's lock,
//   let go of while it interns when no token needs the external stemmer). It first adds the misses of
//   every thread (stemmed by their threads in phase 1, see vocab.hpp) into the Vocab and only then
//   sizes every thread's workspace to the grown vocabulary (prepare_phase), so no thread meets an id
//   past its arrays. (Sizing a thread's workspace right after resolving that thread's misses would
//   leave a thread resolved early with arrays too small for the ids that later threads add, and
//   phase 3 would write past them.)
// - A deferred example's docs (only examples with a word for the Python stemmer) are saved by the
//   thread that tokenized it (its `store`, its unknown tokens as indices into its `misses`); in phase 3
//   any thread may finish and score it with the final ids, reading that thread's store and misses,
//   which only change before phase 2 ends (phase 1 by their owner, the ids of the misses by the
//   caller in phase 2) and are cleared after phase 3.
// - A call that ends early (Ctrl-C, an error) discards its thread states instead of pooling them: a
//   kernel stopped by an exception may not have restored the zeroed arrays of its workspace.
// One file over 400 lines: the Scorer is one struct (its thread states, the phases and what they
// share), and splitting it would spread the ownership rules above over several files.
// The id batch (ids.hpp, score_id_batch) runs on the same Scorer::Run (leased states, block loop,
// first error, exact column sums) and score_example, but never touches the Vocab: its ids are interned
// by the calling thread before any worker starts.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "common.hpp"
#include "host.hpp"
#include "interrupt.hpp"
#include "scoring.hpp"
#include "text.hpp"
#include "vocab.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// An error of one example, with its index in the whole input (the caller's first_index added).
inline std::string example_error(size_t index, const char* what) {
    return "example " + std::to_string(index) + ": " + what;
}

struct Scorer {
    std::shared_ptr<Vocab> vocab;
    std::vector<Spec> specs;
    std::vector<TypeScorer> ts;
    Mode mode;
    bool need_select;
    bool global_kernels = false;  // a kind that runs on the global ids (rougeW, ROUGE-S: pair_stats)

    Scorer(std::shared_ptr<Vocab> v, std::vector<Spec> sp, Mode mode_, Fm f)
        : vocab(std::move(v)), specs(std::move(sp)), mode(mode_), need_select(mode_ == Mode::BEST_RECALL) {
        for (const Spec& s : specs) {
            ts.push_back(TypeScorer{s.kind == Kind::WLCS, s.kind == Kind::WLCS ? 1.0 / s.weight : 0.0, f});
            global_kernels |= s.kind == Kind::WLCS || s.kind == Kind::SKIP;
        }
    }

    // ws's dense arrays sized for the global ids below nid, as this scorer's kinds need them (the
    // kernels' arrays only for a kind on the global ids; the per-pair kinds size them for K), and
    // whether they cover doc.
    void fit(Workspace& ws, size_t nid) const {
        if (global_kernels)
            ws.ensure(nid);
        else
            ws.ensure_local(nid);
    }
    bool fits(const Workspace& ws, const Doc& d) const { return global_kernels ? ws.covers(d) : ws.covers_local(d); }

    size_t ntypes() const { return specs.size(); }

    // One example: stats of every (reference, type), then combine. out[k] per type.
    void score_docs(Workspace& ws, const Doc& pred, const Doc* refs, size_t nref, Mode md, Triple* out,
                    std::vector<Stats>& st) const {
        size_t T = specs.size();
        st.resize(nref * T);
        const bool sel = need_select || md == Mode::BEST_RECALL;
        for (size_t j = 0; j < nref; ++j) pair_stats(ws, specs.data(), T, pred, refs[j], sel, st.data() + j * T, 1);
        for (size_t k = 0; k < T; ++k) out[k] = ts[k].combine(st.data() + k, nref, T, md);
    }

    // ------------------------------------------------------------------------------ thread states
    // The scratch of one thread for one call, pooled per scorer (safe when several Python threads
    // use one scorer: each call takes its own).
    struct alignas(128) ThreadState {  // aligned: two threads never write to one cache line
        Workspace ws;
        TokBuf cur;
        std::vector<Doc> docs;
        Misses misses;
        Collector col;  // phase 0 (build_vocab); empty otherwise
        // Deferred examples of phase 1: (example index, offset of its docs in store). store holds the
        // docs of each: per doc [pending, ids, ends or sb, ids..., ends or sb...] (save_docs).
        std::vector<std::pair<uint32_t, size_t>> deferred;
        std::vector<int32_t> store;
        std::vector<Stats> st;
        std::vector<Triple> out;
        std::vector<double> vals;    // the values of one example when the batch does not keep them
        std::vector<FixedSum> cols;  // exact sums of the columns of the examples this thread scored
        Poll poll;
    };
    std::mutex pool_mu;
    std::vector<std::unique_ptr<ThreadState>> pool_free;
    std::unique_ptr<ThreadState> take() {
        {
            std::lock_guard<std::mutex> g(pool_mu);
            if (!pool_free.empty()) {
                std::unique_ptr<ThreadState> t = std::move(pool_free.back());
                pool_free.pop_back();
                return t;
            }
        }
        return std::make_unique<ThreadState>();
    }
    void give(std::unique_ptr<ThreadState> t) {
        std::lock_guard<std::mutex> g(pool_mu);
        pool_free.push_back(std::move(t));
    }

    // ------------------------------------------------------------------------------ one example
    // Scores of one example into out[0, ntypes()) (the host's lock held): the prediction and its k
    // references, in multi-reference mode md.
    // Known tokens are looked up with prefetching; an example with unknown ones is redone resolving.
    // The scratch is a thread state leased from the pool (not thread_local: Python's threads are
    // detached, and per-thread storage freed at their exit is reused by the next thread without an
    // order a race detector could see).
    void score_pair(const Text& pred, const Text* refs, size_t k, Mode md, Triple* out) {
        std::unique_ptr<ThreadState> state = take();
        ThreadState& ps = *state;
        Interrupt intr;
        Poll poll(&intr, true, true);
        ps.ws.poll = &poll;
        ps.ws.limits = current_limits();
        {
            VocabLock lk(*vocab);
            if (!tokenize_example<false>(*vocab, pred, refs, k, ps.docs, ps.cur, nullptr))
                tokenize_example<true>(*vocab, pred, refs, k, ps.docs, ps.cur, nullptr);
            fit(ps.ws, (size_t)vocab->nid + 1);
        }
        for (size_t j = 0; j <= k; ++j) ROUGE_CHECK(fits(ps.ws, ps.docs[j]), "token id past the workspace");
        score_docs(ps.ws, ps.docs[0], ps.docs.data() + 1, k, md, out, ps.st);
        intr.rethrow_if_stopped();  // an interrupted or failed call drops its state (unique_ptr)
        ps.ws.poll = nullptr;
        ps.ws.trim();
        give(std::move(state));
    }

    // ---------------------------------------------------------------------------------- a batch
    // n thread states from the scorer's pool, given back at the end of the scope unless the call
    // ended early.
    struct Lease {
        Scorer& sc;
        std::vector<std::unique_ptr<ThreadState>> own;
        std::vector<ThreadState*> th;
        bool keep = false;  // set when the call completed
        Lease(Scorer& s, size_t n) : sc(s) {
            while (own.size() < n) own.push_back(sc.take());
            for (auto& t : own) th.push_back(t.get());
        }
        ~Lease() {
            if (keep)
                for (auto& t : own) sc.give(std::move(t));
        }
    };

    // The input of a batch: example i is preds[i] with references refs[ref_off[i], ref_off[i + 1]).
    struct BatchIn {
        const Text* preds;
        const Text* refs;
        const size_t* ref_off;
        size_t n;
        size_t first_index;  // index of example 0 in the caller's input (error messages)
        // The code units of all the texts.
        size_t units() const {
            size_t u = 0;
            for (size_t i = 0; i < n; ++i) u += preds[i].len;
            for (size_t j = ref_off[0]; j < ref_off[n]; ++j) u += refs[j].len;
            return u;
        }
    };
    // The first 4 KiB of a text prefetched: the texts of example i + 1 are prefetched while example i
    // is tokenized (phase 0) or scored (phase 1). They are read once, so without it every text starts
    // with cache misses (measured: a fifth of the tokenizer's time in phase 1, a tenth of phase 0's).
    static void prefetch_text(const Text& t) {
        const char* p = (const char*)t.data;
        size_t bytes = std::min<size_t>(t.len * (size_t)t.kind, 4096);
        for (size_t o = 0; o < bytes; o += 64) ROUGE_PREFETCH(p + o);
    }
    // The distinct tokens a table should have room for before the first batch on an empty vocabulary,
    // so that it does not grow token by token (each growth rehashes every key and touches new memory):
    // from the batch's length u in code units, min(u / 16, 20 sqrt(u), 2^17). The vocabulary of text
    // grows about as the square root of its length (Heaps' law); 20 sqrt(u) covers the distinct tokens
    // of every corpus of the test suite, in English, German, Spanish, French, Turkish, Russian,
    // Indonesian, Basque, Chinese and Japanese, whole or in part (at most 19.9 sqrt(u)), without
    // reserving slots a batch never fills: u / 16 overestimates a long batch's vocabulary many times.
    static size_t expected_tokens(const BatchIn& in) {
        const size_t u = in.units();
        return std::min<size_t>({u / 16, (size_t)(20.0 * std::sqrt((double)u)), (size_t)1 << 17});
    }
    // values: n x ntypes x (P, R, F), only when keep_values is set by the caller (else left empty: a
    // corpus score needs only the sums); lens: n x (prediction length, mean reference length); cols:
    // the exact sums of the 3 * ntypes + 2 columns.
    struct BatchOut {
        bool keep_values = true;
        std::vector<double> values, lens;
        std::vector<Partials> cols;
    };

    // Every thread's workspace covers every id of the vocabulary as it is now. Called by the calling
    // thread (the host's lock and vocab.mu held) after the vocabulary's last change and before threads score.
    void prepare_phase(Lease& lease) {
        for (ThreadState* th : lease.th) fit(th->ws, (size_t)vocab->nid + 1);
    }

    // ------------------------------------------------------------- the parts both batches share
    // (the text batch below and the id batch, ids.hpp score_id_batch)

    // The input error (rougeW overflow) of the lowest example index, whatever the thread count.
    struct FirstError {
        std::mutex mu;
        size_t index = SIZE_MAX;
        std::string what;
        void note(size_t i, const char* w) {
            std::lock_guard<std::mutex> g(mu);
            if (i < index) index = i, what = w;
        }
    };

    // The threads of a batch: nth leased states (thread 0 is the caller), one Interrupt, the first
    // input error, and the outputs sized for N examples.
    struct Run {
        Lease lease;
        Interrupt intr;
        FirstError bad;
        Run(Scorer& sc, size_t N, int nthreads, BatchOut& res)
            : lease(sc, std::min<size_t>((size_t)std::max(nthreads, 1), std::max<size_t>(1, N / 64 + 1))) {
            const size_t T = sc.specs.size();
            res.values.assign(res.keep_values ? N * T * 3 : 0, 0.0);
            res.lens.assign(N * 2, 0.0);
            for (size_t t = 0; t < nth(); ++t) {
                ThreadState& th = *lease.th[t];
                th.cols.assign(3 * T + 2, FixedSum());
                th.poll = Poll(&intr, t == 0, false);
                th.ws.poll = &th.poll;
                th.ws.limits = current_limits();
            }
        }

        // fn(thread state, item) over items [0, total) in blocks taken from a shared counter, on nth
        // threads without the host's lock (the caller holds it on entry; the caller is thread 0). A thread's
        // exception stops every thread and is rethrown by finish().
        template <class F>
        void blocks(size_t total, F&& fn) {
            Unlocked nogil;
            std::atomic<size_t> next{0};
            // Blocks of up to 16 examples; smaller for short inputs, so that the threads finish
            // together (at least 64 blocks per thread).
            const size_t block = std::max<size_t>(1, std::min<size_t>(16, total / (64 * nth())));
            auto worker = [&](size_t tid) {
                ThreadState& th = *lease.th[tid];
                try {
                    for (;;) {
                        size_t b = next.fetch_add(block);
                        if (b >= total) break;
                        size_t e = std::min(total, b + block);
                        for (size_t i = b; i < e; ++i) {
                            if (th.poll.stopped()) return;
                            fn(th, i);
                        }
                    }
                } catch (...) {
                    intr.fail(std::current_exception());
                }
            };
            std::vector<std::thread> threads;
            for (size_t t = 1; t < nth(); ++t) {
                try {
                    threads.emplace_back(worker, t);
                } catch (const std::system_error&) {
                    break;  // fewer threads: the others take every block
                }
            }
            worker(0);
            for (auto& t : threads) t.join();
        }

        size_t nth() const { return lease.th.size(); }

        // After the last phase (the host's lock held): rethrow a thread's exception or the first input error, else
        // the exact column sums into res.cols and the thread states back to the pool.
        void finish(size_t first_index, BatchOut& res) {
            intr.rethrow_if_stopped();  // the states are dropped (a kernel may have stopped midway)
            if (bad.index != SIZE_MAX) {
                lease.keep = true;  // the kernels completed: the workspaces are clean
                throw std::overflow_error(example_error(first_index + bad.index, bad.what.c_str()));
            }
            // Exact column sums: each thread kept the exact (fixed-point) sums of the examples it
            // scored; they add exactly, so the corpus mean (correctly rounded from the partials by
            // aggregate.ExactSum) does not depend on the thread count.
            std::vector<FixedSum> sums = lease.th[0]->cols;
            for (size_t t = 1; t < lease.th.size(); ++t)
                for (size_t c = 0; c < sums.size(); ++c) sums[c].merge(lease.th[t]->cols[c]);
            res.cols.clear();
            for (const FixedSum& s : sums) res.cols.push_back(s.partials());
            for (ThreadState* th : lease.th) {
                th->ws.poll = nullptr;
                th->ws.trim();
            }
            lease.keep = true;
        }
    };

    // Score example i (k references) from th.docs[0, k + 1) into its slots of res and th's column
    // sums. Every id of the docs must be covered by th's workspace (checked in checked builds).
    void score_example(ThreadState& th, size_t i, size_t k, FirstError& bad, BatchOut& res) const {
        const size_t T = specs.size();
        for (size_t j = 0; j <= k; ++j) ROUGE_CHECK(fits(th.ws, th.docs[j]), "token id past the workspace");
        th.out.resize(T);
        try {
            score_docs(th.ws, th.docs[0], th.docs.data() + 1, k, mode, th.out.data(), th.st);
        } catch (const WeightOverflow& e) {
            bad.note(i, e.what());  // the batch goes on: the error names the first such example
        }
        if (th.vals.size() < 3 * T) th.vals.resize(3 * T);
        double* v = res.keep_values ? res.values.data() + i * T * 3 : th.vals.data();
        for (size_t t = 0; t < T; ++t) {
            v[3 * t] = th.out[t].p;
            v[3 * t + 1] = th.out[t].r;
            v[3 * t + 2] = th.out[t].f;
        }
        size_t rl = 0;
        for (size_t j = 1; j <= k; ++j) rl += th.docs[j].ids.size();
        double* l = res.lens.data() + 2 * i;
        l[0] = (double)th.docs[0].ids.size();
        l[1] = (double)rl / (double)k;
        for (size_t c = 0; c < 3 * T; ++c) th.cols[c].add(v[c]);
        th.cols[3 * T].add(l[0]);
        th.cols[3 * T + 1].add(l[1]);
    }

    // ------------------------------------------------------------------------ the text batch
    // Phase 0, for the first batch on an empty Vocab (the first batch of a configuration in a process) on
    // several threads: every token of the batch enters the Vocab before any example is scored, so that
    // phase 1 finds every token and phase 2 has nothing to do. (Scored on an empty vocabulary, every
    // token is a miss: a second lookup per occurrence in the thread's own table, each word stemmed by
    // every thread that meets it, and the serial phase 2 for all of them. A later batch, whose new words
    // are few, would only pay the extra tokenization, so it takes phase 1's provisional ids.)
    // The three steps of vocab.hpp's Collector:
    //   a. Threads, no host lock, the Vocab untouched: every text is tokenized and its tokens recorded
    //      in the thread's Collector (once per thread, unstemmed). Until the threads have saved
    //      Limits::saved_bytes (each its share), each also saves its examples' texts as pending docs
    //      (raw ids and sentence ends): phase 1 scores a saved example from them instead of tokenizing
    //      it again.
    //   b. Threads, no host lock: the slots of all the threads' records, split between the threads; each
    //      token receives its final form once (Vocab::final_form: the native stemmer, pure).
    //   c. The calling thread (mu held; the host's lock only when a token needs the external stemmer):
    //      the tokens into the Vocab (Vocab::add_collected), each once, and their final ids into each
    //      thread's Collector.
    // saved_in[i] and saved_at[i] say where example i was saved (nullptr: not saved). True when done;
    // when the call is stopped (Ctrl-C, a thread's error) in a or b, false, having changed nothing. The
    // Collectors keep the saved docs and their ids (the caller clears them). O(tokens of the batch) for
    // a, O(distinct tokens per thread x threads) for b and c, plus the stemmer; memory O(distinct tokens
    // per thread) + Limits::saved_bytes (each thread's share can end one example past it).
    bool build_vocab(const BatchIn& in, Run& run, std::vector<const Collector*>& saved_in,
                     std::vector<size_t>& saved_at) {
        Lease& lease = run.lease;
        const Vocab& vb = *vocab;
        // Each thread meets most of a batch's vocabulary: its table starts at the size it would grow to
        // (expected_tokens), so that it is not rehashed and its memory is touched once.
        const size_t units = in.units();
        // Its saved docs: about a token per 4 code units (reserved, not touched: the memory it does not
        // fill is never paged in).
        const size_t share = lease.th[0]->ws.limits.saved_bytes / sizeof(int32_t) / run.nth();
        for (ThreadState* th : lease.th) {
            th->col.seen.reserve(expected_tokens(in));
            th->col.saved.reserve(std::min(share, units / (4 * run.nth()) + 4096));
        }
        saved_in.assign(in.n, nullptr);
        saved_at.assign(in.n, 0);
        run.blocks(in.n, [&](ThreadState& th, size_t i) {
            size_t r0 = in.ref_off[i], r1 = in.ref_off[i + 1];
            Collector& col = th.col;
            const bool save = col.saved.size() < share;
            if (save) {
                saved_in[i] = &col;
                saved_at[i] = col.saved.size();
            }
            if (i + 1 < in.n) {
                prefetch_text(in.preds[i + 1]);
                for (size_t j = r1; j < in.ref_off[i + 2]; ++j) prefetch_text(in.refs[j]);
            }
            for (size_t j = 0; j <= r1 - r0; ++j) {
                const Text& t = j ? in.refs[r0 + j - 1] : in.preds[i];
                collect_tokens(vb.tokenizer, t, th.cur, col.seen);
                if (save)
                    col.save_doc(th.cur);
                else
                    col.record_all(th.cur, nullptr);
            }
        });
        if (run.intr.stopped()) return false;
        std::vector<Collector*> cols;
        for (ThreadState* th : lease.th) cols.push_back(&th->col);
        // Items of b: runs of SLOTS slots; thread t's slots are items [off[t], off[t + 1]).
        constexpr size_t SLOTS = 256;
        std::vector<size_t> off{0};
        for (const Collector* c : cols) off.push_back(off.back() + (c->seen.capacity() + SLOTS - 1) / SLOTS);
        run.blocks(off.back(), [&](ThreadState& th, size_t q) {
            size_t t = (size_t)(std::upper_bound(off.begin(), off.end(), q) - off.begin()) - 1;
            size_t s0 = (q - off[t]) * SLOTS;
            th.col.make_forms(vb, cols, t, s0, std::min(s0 + SLOTS, cols[t]->seen.capacity()));
        });
        if (run.intr.stopped()) return false;
        size_t npy = 0;
        for (const Collector* c : cols)
            for (const Collector::Made& d : c->made) npy += d.form == FORM_PY;
        if (npy) {
            vocab->add_collected(cols);
        } else {
            Unlocked nogil;
            vocab->add_collected(cols);
        }
        for (Collector* c : cols) c->drop_tables();
        return true;
    }

    // Score a batch on nthreads threads (the host's lock held on entry and exit; let go of while threads
    // run). Phase 0, on several threads and an empty vocabulary: every token into the Vocab first
    // (build_vocab). Phase 1 (threads, no host lock): every example is tokenized and scored; an unknown token is recorded
    // in the thread's Misses (distinct per thread, stemmed there by the native Porter) with a
    // provisional id (see vocab.hpp), so a cold batch is scored in this phase too. Only an example
    // with a token that needs the Python stemmer (a non-ASCII word, or a stemmer that is not the
    // native Porter) is deferred, its docs saved. Phase 2 (caller; the host's lock only for the external
    // stemmer): every thread's unknown tokens into the Vocab. Phase 3 (threads, no host lock): the
    // deferred examples,
    // from their saved docs (each text is tokenized once).
    void batch(const BatchIn& in, int nthreads, BatchOut& res) {
        const size_t N = in.n;
        Run run(*this, N, nthreads, res);
        Lease& lease = run.lease;
        VocabLock lk(*vocab);
        // One thread: it holds mu and nothing else reads the Vocab, so it adds new tokens itself (into
        // maps sized for the batch when the Vocab is empty).
        const bool direct = run.nth() == 1;
        if (direct && vocab->empty()) vocab->reserve(expected_tokens(in));
        // On several threads, a vocabulary that holds few tokens for this batch (a small call came
        // first) starts again empty, so that phase 0 builds it for the batch: its few tokens are met
        // again and stemmed once more, at a cost that the phase makes up for many times.
        const size_t ratio = lease.th[0]->ws.limits.restart_ratio;
        if (!direct && !vocab->empty() && ratio && vocab->raw.count < expected_tokens(in) / ratio) vocab->restart();
        for (ThreadState* th : lease.th) {
            th->misses.start(vocab->nid, direct);
            th->deferred.clear();
            th->store.clear();
        }
        prepare_phase(lease);

        // Keep the docs of a deferred example (th.docs[0, k + 1)) in th.store, so that phase 3 does not
        // tokenize its texts again: O(its tokens) ints until the end of the call.
        auto save_docs = [](ThreadState& th, size_t k) {
            std::vector<int32_t>& st = th.store;
            for (size_t j = 0; j <= k; ++j) {
                const Doc& d = th.docs[j];
                const OffVec& cuts = d.pending ? d.ends : d.sb;
                if (d.ids.size() > (size_t)INT32_MAX || cuts.size() > (size_t)INT32_MAX)
                    throw std::length_error("rouge_metric: a text of more than 2^31 tokens");
                st.push_back(d.pending);
                st.push_back((int32_t)d.ids.size());
                st.push_back((int32_t)cuts.size());
                st.insert(st.end(), d.ids.begin(), d.ids.end());
                for (uint32_t c : cuts) st.push_back((int32_t)c);
            }
        };
        // The docs of an example saved at p (save_docs, or phase 0's Collector::save_doc) into
        // th.docs[0, k + 1), each pending one finished with miss_ids (the ids of the saving thread's
        // misses after phase 2, or of its Collector's tokens after phase 0).
        auto load_docs = [](ThreadState& th, const int32_t* p, size_t k, const int32_t* miss_ids) {
            if (th.docs.size() < k + 1) th.docs.resize(k + 1);
            for (size_t j = 0; j <= k; ++j) {
                Doc& d = th.docs[j];
                bool pending = p[0] != 0;
                size_t nt = (size_t)p[1], nc = (size_t)p[2];
                const int32_t* ids = p + 3;
                const uint32_t* cuts = (const uint32_t*)(ids + nt);
                if (pending) {
                    finish_doc(ids, nt, cuts, nc, miss_ids, d);
                } else {
                    d.ids.assign(ids, ids + nt);
                    d.sb.assign(cuts, cuts + nc);
                }
                d.pending = false;
                p = ids + nt + nc;
            }
        };
        // The pending docs of an example (th.docs[0, k + 1)) finished with provisional ids, unless a
        // token of theirs waits for the Python stemmer (false: nothing changed).
        auto finish_provisional = [this](ThreadState& th, size_t k) {
            const int32_t* prov = th.misses.prov.data();
            for (size_t j = 0; j <= k; ++j) {
                const Doc& d = th.docs[j];
                if (!d.pending) continue;
                for (int32_t id : d.ids)
                    if (id <= -3 && prov[-3 - id] == PROV_PY) return false;
            }
            for (size_t j = 0; j <= k; ++j) {
                Doc& d = th.docs[j];
                if (!d.pending) continue;
                finish_doc(d.ids.data(), d.ids.size(), d.ends.data(), d.ends.size(), prov, d);
                d.pending = false;
            }
            fit(th.ws, th.misses.bound() + 1);  // this thread's provisional ids (its own workspace)
            return true;
        };
        struct Clear {  // phase 0's Collectors (their saved docs) back however the call ends
            Lease& l;
            ~Clear() {
                for (ThreadState* th : l.th) th->col.clear();
            }
        } clear_on_exit{lease};
        std::vector<const Collector*> saved_in;  // phase 0: where example i was saved (nullptr: not)
        std::vector<size_t> saved_at;
        bool built = false;
        if (run.nth() > 1 && vocab->empty()) {
            built = build_vocab(in, run, saved_in, saved_at);  // when stopped, phase 1 below stops at once
            for (ThreadState* th : lease.th) th->misses.start(vocab->nid, direct);
            prepare_phase(lease);
        }
        // Phase 1, example i: tokenize (lookups only) and score; an example with a token that needs
        // the Python stemmer is deferred instead (its docs in th.store). An example that phase 0 saved
        // is scored from its saved docs (every token has its final id).
        auto phase1 = [&](ThreadState& th, size_t i) {
            size_t r0 = in.ref_off[i], r1 = in.ref_off[i + 1], k = r1 - r0;
            if (built && saved_in[i]) {
                const Collector& c = *saved_in[i];
                load_docs(th, c.saved.data() + saved_at[i], k, c.ids.data());
                score_example(th, i, k, run.bad, res);
                return;
            }
            if (i + 1 < N) {
                prefetch_text(in.preds[i + 1]);
                for (size_t j = r1; j < in.ref_off[i + 2]; ++j) prefetch_text(in.refs[j]);
            }
            if (tokenize_example<false>(*vocab, in.preds[i], in.refs + r0, k, th.docs, th.cur, &th.misses) ||
                finish_provisional(th, k)) {
                if (direct) fit(th.ws, (size_t)vocab->nid + 1);  // the ids it just added
                score_example(th, i, k, run.bad, res);
            } else {
                th.deferred.emplace_back((uint32_t)i, th.store.size());
                save_docs(th, k);
            }
        };
        run.blocks(N, phase1);

        size_t nmiss = 0;
        for (ThreadState* th : lease.th) nmiss += th->misses.list.size();
        if (nmiss && !run.intr.stopped()) {
            // Phase 2 (vocab.mu): every thread's unknown tokens into the Vocab (each miss receives its
            // id). The threads stemmed them natively in phase 1; the host's lock is kept only when some
            // token needs the external (Python) stemmer. For the next calls, and for the deferred examples.
            size_t npy = 0;
            for (ThreadState* th : lease.th) npy += th->misses.npy;
            auto add_all = [&] {
                // Room for the largest thread's misses, the fewest new tokens there can be: the threads
                // meet many of the same words, and reserving their sum would often double the maps
                // for room they never fill (inserts grow them, if need be).
                size_t least = 0;
                for (ThreadState* th : lease.th) least = std::max(least, th->misses.list.size());
                vocab->reserve(least);
                for (size_t t = 0; t < lease.th.size(); ++t)
                    for (size_t i = 0; i < lease.th[t]->misses.list.size(); ++i)
                        lease.th[t]->misses.id[i] = vocab->add_miss(lease.th[t]->misses.list[i]);
            };
            if (npy) {
                add_all();
            } else {
                Unlocked nogil;
                add_all();
            }
            struct Deferred {
                uint32_t i, tid;
                size_t off;
            };
            std::vector<Deferred> deferred;
            for (uint32_t t = 0; t < (uint32_t)lease.th.size(); ++t)
                for (const auto& d : lease.th[t]->deferred) deferred.push_back(Deferred{d.first, t, d.second});
            if (!deferred.empty()) {
                prepare_phase(lease);
                // Phase 3 (threads, no host lock): the deferred examples from their saved docs. Every thread
                // reads the stores and misses of the others, which nobody writes until the call ends.
                run.blocks(deferred.size(), [&](ThreadState& th, size_t q) {
                    const Deferred& d = deferred[q];
                    size_t k = in.ref_off[d.i + 1] - in.ref_off[d.i];
                    const ThreadState& src = *lease.th[d.tid];
                    load_docs(th, src.store.data() + d.off, k, src.misses.id.data());
                    score_example(th, d.i, k, run.bad, res);
                });
            }
        }
        for (ThreadState* th : lease.th) {
            th->misses.clear();  // give the memory of the phases back
            std::vector<std::pair<uint32_t, size_t>>().swap(th->deferred);
            std::vector<int32_t>().swap(th->store);
        }
        run.finish(in.first_index, res);
    }
};

}  // namespace
}  // namespace rouge
