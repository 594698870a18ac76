// Binding layer: the Python face of a Scorer (batch.hpp, ids.hpp): its configuration read from
// Python (the _native.Kind / Mode / FMeasure enums, type names, the Score type), one example's
// {type: Score} dict, a batch's result as a _native.Batch, and the text reading of the per-pair
// entry points (py_pair.hpp). Included by bindings.cpp only (through py_pair.hpp), after pybind11.
//
// Ownership: everything here runs with the GIL held; the core releases it inside Scorer::batch and
// score_id_batch (host.hpp), after the texts were pinned (py_text.hpp) or the ids interned (py_ids.hpp),
// and may release it inside Scorer::score_pair (waiting for a vocabulary that a batch holds), after the
// texts were pinned or are arguments the caller holds (PairFunction).
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "batch.hpp"
#include "common.hpp"
#include "host.hpp"
#include "ids.hpp"
#include "py_ids.hpp"
#include "py_text.hpp"
#include "scoring.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions
namespace py = pybind11;

// Whether the Scores of type tp can be made by PyObject_GC_NewVar instead of tp_alloc: a tuple subclass
// with the tuple's layout and nothing else (no __dict__, no __weakref__: a namedtuple, whose
// __slots__ is empty) and the default allocator. Not on CPython 3.14 and later, whose tuples cache
// their hash in a field that only the tuple's own allocation initialises.
inline bool tuple_layout(PyTypeObject* tp) {
#if PY_VERSION_HEX >= 0x030E0000
    (void)tp;
    return false;
#else
    bool plain = tp->tp_basicsize == PyTuple_Type.tp_basicsize && tp->tp_itemsize == PyTuple_Type.tp_itemsize &&
                 tp->tp_dictoffset == 0 && tp->tp_weaklistoffset == 0 && tp->tp_alloc == PyType_GenericAlloc &&
                 (tp->tp_flags & Py_TPFLAGS_HAVE_GC) && tp->tp_free == PyObject_GC_Del;
#ifdef Py_TPFLAGS_MANAGED_DICT
    plain = plain && !(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT);
#endif
#ifdef Py_TPFLAGS_MANAGED_WEAKREF
    plain = plain && !(tp->tp_flags & Py_TPFLAGS_MANAGED_WEAKREF);
#endif
    return plain;
#endif
}

// A Score (tuple subclass) of three floats. It cannot be part of a reference cycle, so it is untracked
// by the cyclic GC (as CPython does for tuples of untracked objects itself), and so is the dict of a
// result (it holds only str keys and such Scores; a later insertion of a tracked object tracks it
// again). Millions of results then cost the collector nothing: without this, results kept in a
// list triggered full collections whose cost grew with the heap (the per-pair benchmark ran 3x
// slower in a process that held earlier results). With `plain` (tuple_layout(tp)) the Score is
// allocated untracked with its items set at once, which is what tp_alloc then untracking gives,
// without its zeroing and its tracking.
inline PyObject* make_score(PyTypeObject* tp, bool plain, const Triple& t) {
    const double v[3] = {t.p, t.r, t.f};
    if (plain) {
        PyObject* x[3] = {PyFloat_FromDouble(v[0]), PyFloat_FromDouble(v[1]), PyFloat_FromDouble(v[2])};
        PyObject* o = (!x[0] || !x[1] || !x[2]) ? nullptr : (PyObject*)PyObject_GC_NewVar(PyTupleObject, tp, 3);
        if (!o) {
            for (PyObject* f : x) Py_XDECREF(f);
            throw py::error_already_set();
        }
        for (Py_ssize_t k = 0; k < 3; ++k) PyTuple_SET_ITEM(o, k, x[k]);
        return o;
    }
    PyObject* o = tp->tp_alloc(tp, 3);
    if (!o) throw py::error_already_set();
    for (Py_ssize_t k = 0; k < 3; ++k) {
        PyObject* x = PyFloat_FromDouble(v[k]);
        if (!x) {
            Py_DECREF(o);
            throw py::error_already_set();
        }
        PyTuple_SET_ITEM(o, k, x);
    }
    if (PyObject_GC_IsTracked(o)) PyObject_GC_UnTrack(o);
    return o;
}

// An n-gram order or skip distance (any Python int) for the kernels, which count in 32-bit ints:
// clamped to [INT32_MIN, INT32_MAX]. Clamping changes no count: every text has fewer than 2^31 tokens
// (get_text refuses longer ones), so an order beyond INT32_MAX has no n-gram, as INT32_MAX has none,
// and a skip distance beyond it allows every pair, as INT32_MAX does; negative skips mean unlimited.
inline int order_arg(py::handle v, const char* what) {
    if (!PyLong_Check(v.ptr())) throw py::type_error(std::string(what) + ": expected an int");
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow > 0 || x > INT32_MAX) return INT32_MAX;
    if (overflow < 0 || x < INT32_MIN) return INT32_MIN;
    return (int)x;
}

// The result of a batch (_native.Batch, read-only): n examples of T types; values: n*T*3 float64
// (example-major, then type, then P, R, F; empty when not asked for); lengths: 2n float64 (prediction
// length, mean reference length per example); partials: the exact (Shewchuk) partial sums of the
// 3T + 2 columns (P, R, F per type, then the two lengths), a list of lists of float; scores: the
// {type: Score} dict of every example, or None when not asked for.
struct Batch {
    size_t n = 0;
    py::bytes values, lengths;
    py::object partials, scores;
};

// An item of a Python enum of the module (Kind, Mode, FMeasure): TypeError naming where it was read
// and what was expected when it is anything else (an int included).
template <class E>
E enum_arg(py::handle v, const std::string& where, const char* expected) {
    if (!py::isinstance<E>(v))
        throw py::type_error(where + ": expected a rouge_metric._native." + expected + ", got " +
                             std::string(Py_TYPE(v.ptr())->tp_name));
    return v.cast<E>();
}

// The members of _native.Mode by value (bindings.cpp fills it when the module is made, holding a
// reference to each): the per-pair path recognises its mode argument by identity, without a lookup.
inline PyObject* MODE_MEMBERS[4] = {nullptr, nullptr, nullptr, nullptr};
inline Mode mode_arg(py::handle v) {
    for (int k = 0; k < 4; ++k)
        if (v.ptr() == MODE_MEMBERS[k]) return (Mode)k;
    return enum_arg<Mode>(v, "mode", "Mode");
}

// The Python face of a Scorer: type names and the Score type of the results.
struct PyScorer {
    std::vector<py::object> names;  // (declared before core: its constructor fills them)
    py::object score_type;
    bool plain_scores = false;  // tuple_layout(score_type)
    Scorer core;

    // specs: a list of (name, Kind, n, skip, unigrams, weight), one per rouge type.
    static std::vector<Spec> parse(py::list spec_list, std::vector<py::object>& names) {
        std::vector<Spec> specs;
        size_t i = 0;
        for (py::handle h : spec_list) {
            const std::string where = "specs[" + std::to_string(i++) + "]";
            if (!PyTuple_Check(h.ptr()) || PyTuple_GET_SIZE(h.ptr()) != 6)
                throw py::type_error(where + ": expected a tuple (name, Kind, n, skip, unigrams, weight)");
            py::tuple t = py::reinterpret_borrow<py::tuple>(h);
            Spec s;
            names.push_back(py::reinterpret_borrow<py::object>(t[0]));
            s.kind = enum_arg<Kind>(t[1], where + "[1]", "Kind");
            s.n = order_arg(t[2], "n");
            s.skip = order_arg(t[3], "skip");
            s.unigrams = t[4].cast<bool>();
            s.weight = t[5].cast<double>();
            specs.push_back(s);
        }
        return specs;
    }

    PyScorer(std::shared_ptr<Vocab> v, py::list spec_list, Mode mode, FMeasure fmeasure, double fparam,
             py::object score_tp)
        : score_type(std::move(score_tp)), core(std::move(v), parse(spec_list, names), mode, Fm{fmeasure, fparam}) {
        if (!PyType_Check(score_type.ptr()) || !PyType_IsSubtype((PyTypeObject*)score_type.ptr(), &PyTuple_Type))
            throw py::type_error("score_type must be a tuple subclass");
        plain_scores = tuple_layout((PyTypeObject*)score_type.ptr());
    }

    py::dict to_dict(const Triple* out) const {
        py::dict d;
        PyTypeObject* tp = (PyTypeObject*)score_type.ptr();
        for (size_t k = 0; k < names.size(); ++k) {
            PyObject* s = make_score(tp, plain_scores, out[k]);
            if (PyDict_SetItem(d.ptr(), names[k].ptr(), s) < 0) {
                Py_DECREF(s);
                throw py::error_already_set();
            }
            Py_DECREF(s);
        }
        if (PyObject_GC_IsTracked(d.ptr())) PyObject_GC_UnTrack(d.ptr());  // see make_score
        return d;
    }

    // Per-pair path: prediction str, references str or list/tuple of str, in multi-reference mode
    // `mode` (None: the scorer's). None when the input needs the Python validation path.
    py::object score(py::handle pred, py::handle refs, py::handle mode) {
        const Mode md = mode.is_none() ? core.mode : mode_arg(mode);
        // score_pair may release the GIL (waiting for a vocabulary that a batch holds) and run Python
        // code (the Python stemmer): every text it reads is pinned first.
        Pins pins;
        Text tp;
        if (!pins.text(pred.ptr(), tp)) return py::none();
        std::vector<Text> rt;
        if (!get_refs(refs.ptr(), rt, pins)) return py::none();
        return py::reinterpret_steal<py::object>(score_texts(tp, rt.data(), rt.size(), md, nullptr));
    }

    // {type: Score} of one example (a new reference), or nullptr, with no Python error set, when a
    // type flagged in zero_decline (one flag per type; nullptr: none) scores P = R = F = 0, so that
    // the caller's own path decides what that score is. Every text is alive for the whole call.
    PyObject* score_texts(const Text& tp, const Text* rt, size_t k, Mode md, const unsigned char* zero_decline) {
        const size_t T = names.size();
        Triple small[16];
        std::vector<Triple> big;
        Triple* o = small;
        if (T > 16) {
            big.resize(T);
            o = big.data();
        }
        core.score_pair(tp, rt, k, md, o);
        if (zero_decline)
            for (size_t t = 0; t < T; ++t)
                if (zero_decline[t] && o[t].p == 0.0 && o[t].r == 0.0 && o[t].f == 0.0) return nullptr;
        return to_dict(o).release().ptr();
    }

    // The per-pair path of a PairFunction (below): pred one exact str; refs one exact str, or with
    // refs_list a non-empty list or tuple of exact str. nullptr (no Python error set) for any other
    // input, or as score_texts declines. pred and refs are the caller's arguments, alive for the whole
    // call; the items of a list are pinned (another thread may empty it while the GIL is released).
    PyObject* score_args(PyObject* pred, PyObject* refs, bool refs_list, Mode md, const unsigned char* zero_decline) {
        Text tp;
        if (!PyUnicode_CheckExact(pred) || !get_text(pred, tp)) return nullptr;
        if (!refs_list) {
            Text rt;
            if (!PyUnicode_CheckExact(refs) || !get_text(refs, rt)) return nullptr;
            return score_texts(tp, &rt, 1, md, zero_decline);
        }
        const bool list = PyList_CheckExact(refs);
        if (!list && !PyTuple_CheckExact(refs)) return nullptr;
        const size_t k = (size_t)PySequence_Fast_GET_SIZE(refs);
        if (k == 0) return nullptr;
        PyObject** items = PySequence_Fast_ITEMS(refs);
        Text small[Pins::INLINE];
        std::vector<Text> big;
        Text* rt = small;
        if (k > Pins::INLINE) {
            big.resize(k);
            rt = big.data();
        }
        for (size_t j = 0; j < k; ++j)
            if (!PyUnicode_CheckExact(items[j]) || !get_text(items[j], rt[j])) return nullptr;
        Pins pins;  // no Python code ran since the items were read
        if (list) {
            pins.reserve(k);
            for (size_t j = 0; j < k; ++j) pins.pin(items[j]);
        }
        return score_texts(tp, rt, k, md, zero_decline);
    }

    // Batch: predictions list, references list (items str or list/tuple of str). Returns None when
    // the input needs the Python validation path, else a Batch. With stop >= 0 the lists are the whole
    // input and the batch is their items [first_index, stop) (no slices of them made by the caller);
    // else the lists are the batch, first_index the input index of their first item (for errors).
    py::object batch(py::handle preds, py::handle refs, int nthreads, bool want_values, bool want_dicts,
                     size_t first_index, Py_ssize_t stop) {
        if (!PyList_Check(preds.ptr()) || !PyList_Check(refs.ptr())) return py::none();
        const Py_ssize_t all = PyList_GET_SIZE(preds.ptr());
        if (PyList_GET_SIZE(refs.ptr()) != all) return py::none();
        Py_ssize_t lo = 0, n = all;
        if (stop >= 0) {
            if (stop > all || first_index > (size_t)stop)
                throw py::value_error("batch: expected first_index <= stop <= len(predictions), got " +
                                      std::to_string(first_index) + " and " + std::to_string(stop));
            lo = (Py_ssize_t)first_index;
            n = stop - lo;
        }
        // Every str is pinned while the lists are read (GIL held, no Python code runs), so whatever
        // another thread does to the caller's lists while the GIL is released, the texts stay alive.
        // (Pins, not copies of the lists or tuples: thousands of new GC-tracked objects per call made
        // the cyclic collector walk the whole heap, a seventh of a warm batch's time.)
        Pins pins;
        pins.reserve((size_t)n * 2);
        std::vector<Text> ptexts((size_t)n), texts;
        std::vector<size_t> ref_off((size_t)n + 1, 0);
        texts.reserve((size_t)n * 2);
        // The str objects a few examples ahead are prefetched: each one's header is read (and its
        // reference count written) once, and they lie all over the heap.
        constexpr Py_ssize_t AHEAD = 8;
        for (Py_ssize_t i = 0; i < n; ++i) {
            if (i + AHEAD < n) {
                ROUGE_PREFETCH(PyList_GET_ITEM(preds.ptr(), lo + i + AHEAD));
                ROUGE_PREFETCH(PyList_GET_ITEM(refs.ptr(), lo + i + AHEAD));
            }
            if (!pins.text(PyList_GET_ITEM(preds.ptr(), lo + i), ptexts[(size_t)i])) return py::none();
            if (!get_refs(PyList_GET_ITEM(refs.ptr(), lo + i), texts, pins)) return py::none();
            ref_off[(size_t)i + 1] = texts.size();
        }
        Scorer::BatchIn in{ptexts.data(), texts.data(), ref_off.data(), (size_t)n, first_index};
        Scorer::BatchOut out;
        out.keep_values = want_values || want_dicts;
        core.batch(in, nthreads, out);
        return pack(out, (size_t)n, want_values, want_dicts);
    }

    // The Batch of a batch's outputs.
    py::object pack(const Scorer::BatchOut& out, size_t n, bool want_values, bool want_dicts) const {
        Batch b;
        b.n = n;
        py::list parts;
        for (auto& c : out.cols) {
            py::list l;
            for (double x : c.p) l.append(x);
            parts.append(l);
        }
        b.partials = parts;
        const size_t T = names.size();
        b.scores = py::none();
        if (want_dicts) {
            py::list dl;
            std::vector<Triple> tr(T);
            for (size_t i = 0; i < (size_t)n; ++i) {
                const double* v = out.values.data() + i * T * 3;
                for (size_t k = 0; k < T; ++k) tr[k] = Triple{v[3 * k], v[3 * k + 1], v[3 * k + 2]};
                dl.append(to_dict(tr.data()));
            }
            b.scores = dl;
        }
        b.values = want_values ? py::bytes((const char*)out.values.data(), out.values.size() * sizeof(double))
                               : py::bytes();
        b.lengths = py::bytes((const char*)out.lens.data(), out.lens.size() * sizeof(double));
        return py::cast(std::move(b));
    }

    // Batch of token ids (RougeConfig(tokenizer="ids")): predictions a list of id sequences (list or
    // tuple of int), references a list whose items are one id sequence or a list of them;
    // ignore_ids and sentence_ids tuples of int. The ids are read and interned with the GIL held
    // (py_ids.hpp), then scored on num_threads threads without it. Same result as batch, or None when
    // the input needs the Python validation path (ids.validate_id_batch).
    py::object batch_ids(py::handle preds, py::handle refs, int nthreads, bool want_values, bool want_dicts,
                         size_t first_index, py::handle ignore_ids, py::handle sentence_ids) {
        if (!PyList_Check(preds.ptr()) || !PyList_Check(refs.ptr())) return py::none();
        Py_ssize_t n = PyList_GET_SIZE(preds.ptr());
        if (PyList_GET_SIZE(refs.ptr()) != n) return py::none();
        IdBatch b;
        if (!read_id_batch(preds.ptr(), refs.ptr(), ignore_ids.ptr(), sentence_ids.ptr(), b)) return py::none();
        Scorer::BatchOut out;
        out.keep_values = want_values || want_dicts;
        score_id_batch(core, b, first_index, nthreads, out);
        return pack(out, (size_t)n, want_values, want_dicts);
    }
};

}  // namespace
}  // namespace rouge
