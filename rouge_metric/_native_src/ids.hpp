// Token ids as input (RougeConfig(tokenizer="ids")): the native twin of rouge_metric/ids.py's
// IdPipeline.process, and a batch of id examples on N threads without the GIL (score_id_batch).
//
// Ownership during an id batch (the rule of docs/native.md, in its simplest form):
// - Serial, the calling thread with the GIL held (read_id_batch): the Python lists are read once and
//   every id is interned into dense int32 ids by an IdMap local to the call (checking for signals
//   every 2^18 ids, so Ctrl-C stops a long read too). The result, an IdBatch
//   (ids, sentence bounds, offsets, and the number of distinct ids `nid`), is complete before any
//   worker starts and read-only while they run. No Python object is touched after this step.
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

// Interning and IdPipeline.process for one call (GIL held). Ids that do not fit int64 (Python ints
// are unbounded) are interned through a dict of their own; both maps share one code space.
struct IdReader {
    IdMap map;
    py::dict big;
    IdBatch& out;
    size_t doc_start = 0, sent_start = 0;
    // Ids left before the next check for signals (Ctrl-C): reading tens of millions of ids takes a
    // second or more, with the GIL held and no worker running.
    static constexpr size_t POLL_EVERY = (size_t)1 << 18;
    size_t budget = POLL_EVERY;

    explicit IdReader(IdBatch& b) : out(b) {}

    void poll() {
        budget = POLL_EVERY;
        if (PyErr_CheckSignals() < 0) throw py::error_already_set();
    }

    int32_t fresh() {
        if (out.nid == INT32_MAX) throw std::length_error("rouge_metric: more than 2^31 distinct token ids");
        return out.nid++;
    }
    // The code of one Python int (exact int, checked by the caller).
    int32_t code(PyObject* v) {
        int overflow = 0;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
        if (!overflow) return map.get((int64_t)x, [this] { return fresh(); });
        PyObject* c = PyDict_GetItemWithError(big.ptr(), v);
        if (c) return (int32_t)PyLong_AsLong(c);
        if (PyErr_Occurred()) throw py::error_already_set();
        int32_t id = fresh();
        set_big(v, id);
        return id;
    }
    void set_big(PyObject* v, int32_t c) {
        py::int_ cv((Py_ssize_t)c);
        if (PyDict_SetItem(big.ptr(), v, cv.ptr()) < 0) throw py::error_already_set();
    }
    // ignore_ids and sentence_ids (tuples of ints, validated by RougeConfig) as reserved codes.
    bool reserve(PyObject* seq, int32_t c) {
        if (!PyTuple_Check(seq) && !PyList_Check(seq)) return false;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        PyObject** it = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t j = 0; j < n; ++j) {
            if (!PyLong_CheckExact(it[j])) return false;
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(it[j], &overflow);
            if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
            if (overflow)
                set_big(it[j], c);
            else
                map.get((int64_t)x, [c] { return c; });
        }
        return true;
    }

    static bool is_seq(PyObject* o) { return PyList_Check(o) || PyTuple_Check(o); }
    // One id sequence (a list or tuple of exact ints) as the next document; false when it is not one.
    // The check for signals may run Python code (a signal handler) that changes or frees what is being
    // read: the sequence is ours for the whole document, and its size and items are read again at
    // every step (each item's type checked as it is read), never through a saved item pointer.
    bool doc(PyObject* borrowed) {
        py::object seq = py::reinterpret_borrow<py::object>(borrowed);
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
        doc_start = sent_start = out.ids.size();
        for (Py_ssize_t j = 0; j < n; ++j) {
            PyObject* v = PySequence_Fast_GET_ITEM(seq.ptr(), j);
            if (!PyLong_CheckExact(v)) return false;
            int32_t c = code(v);  // runs no Python code (exact ints)
            if (c >= 0) {
                out.ids.push_back(c);
            } else if (c == ID_SENTENCE_END) {
                end_sentence();
            }
            // A handler that changed the sequence's length: the caller validates and reads it again.
            if (--budget == 0 && (poll(), PySequence_Fast_GET_SIZE(seq.ptr()) != n)) return false;
        }
        end_sentence();
        if (out.ids.size() - doc_start >= (size_t)UINT32_MAX)
            throw std::length_error("rouge_metric: a token-id sequence longer than 2^32 - 1");
        out.off.push_back(out.ids.size());
        out.sb_off.push_back(out.sb.size());
        return true;
    }
    void end_sentence() {
        size_t e = out.ids.size();
        if (e > sent_start) {
            out.sb.push_back((uint32_t)(sent_start - doc_start));
            out.sb.push_back((uint32_t)(e - doc_start));
        }
        sent_start = e;
    }
    // Example i: a prediction (one sequence) and its references: one sequence (a non-empty sequence
    // whose first item is an int) or a non-empty list/tuple of sequences, as ids.id_references reads
    // them. False for anything else (the caller's Python validation then names the problem). Both
    // are ours while they are read (see doc).
    bool example(PyObject* pred_b, PyObject* refs_b) {
        py::object pred = py::reinterpret_borrow<py::object>(pred_b);
        py::object refs = py::reinterpret_borrow<py::object>(refs_b);
        if (!is_seq(pred.ptr()) || !is_seq(refs.ptr()) || !doc(pred.ptr())) return false;
        const Py_ssize_t k = PySequence_Fast_GET_SIZE(refs.ptr());
        if (k == 0) return false;
        if (PyLong_CheckExact(PySequence_Fast_GET_ITEM(refs.ptr(), 0))) {
            if (!doc(refs.ptr())) return false;
        } else {
            for (Py_ssize_t j = 0; j < k; ++j) {
                if (PySequence_Fast_GET_SIZE(refs.ptr()) != k) return false;  // changed by a handler
                PyObject* r = PySequence_Fast_GET_ITEM(refs.ptr(), j);
                if (!is_seq(r) || !doc(r)) return false;
            }
        }
        out.ex_off.push_back(out.off.size() - 1);
        return true;
    }
};

// Read a batch (GIL held): predictions and references are lists of equal length, read from copies
// of the two lists (a signal handler run by a check for signals cannot change them). False when an
// item needs the Python validation path. O(total ids) expected time.
inline bool read_id_batch(PyObject* preds, PyObject* refs, PyObject* ignore_ids, PyObject* sentence_ids, IdBatch& b) {
    IdReader rd(b);
    if (!rd.reserve(ignore_ids, ID_IGNORED) || !rd.reserve(sentence_ids, ID_SENTENCE_END)) return false;
    Py_ssize_t n = PyList_GET_SIZE(preds);
    if (PyList_GET_SIZE(refs) != n) return false;
    py::list keep_p = py::reinterpret_steal<py::list>(PyList_GetSlice(preds, 0, n));
    py::list keep_r = py::reinterpret_steal<py::list>(PyList_GetSlice(refs, 0, n));
    if (!keep_p || !keep_r) throw py::error_already_set();
    for (Py_ssize_t i = 0; i < n; ++i)
        if (!rd.example(PyList_GET_ITEM(keep_p.ptr(), i), PyList_GET_ITEM(keep_r.ptr(), i))) return false;
    return true;
}

// Score an interned id batch on nthreads threads (GIL held on entry and exit, released while threads
// run): the outputs of Scorer::batch, from the same Scorer::Run and score_example, so the same floats
// as the text path on the same token ids. One parallel phase: nothing is unknown after interning.
inline void score_id_batch(Scorer& sc, const IdBatch& in, size_t first_index, int nthreads, Scorer::BatchOut& res) {
    const size_t N = in.n();
    Scorer::Run run(sc, N, nthreads, res);
    for (Scorer::ThreadState* th : run.lease.th) th->ws.ensure((size_t)in.nid + 1);  // after the interning
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
