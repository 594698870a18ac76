// Binding layer: Python lists of int token ids -> an interned IdBatch (ids.hpp), the native twin of
// rouge_metric/ids.py's IdPipeline.process. Included by bindings.cpp only, after pybind11.
//
// Ownership: everything here runs on the calling thread with the GIL held, before any worker starts
// (ids.hpp); the IdReader and its dict of large ids belong to one call.
#pragma once

#include <pybind11/pybind11.h>

#include "common.hpp"
#include "ids.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions
namespace py = pybind11;

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

}  // namespace
}  // namespace rouge
