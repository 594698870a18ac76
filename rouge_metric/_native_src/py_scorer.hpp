// Binding layer: the Python face of a Scorer (batch.hpp, ids.hpp): its configuration read from
// Python (the _native.Kind / Mode / FMeasure enums, type names, the Score type), one example's
// {type: Score} dict, a batch's result as a _native.Batch, and the per-pair _native.PairFunction (a
// CPython type called by vectorcall, no pybind11 dispatch). Included by bindings.cpp only, after
// pybind11.
//
// Ownership: everything here runs with the GIL held; the core releases it inside Scorer::batch and
// score_id_batch (host.hpp), after the texts were pinned (py_text.hpp) or the ids interned (py_ids.hpp),
// and may release it inside Scorer::score_pair (waiting for a vocabulary that a batch holds), after the
// texts were pinned or are arguments the caller holds (PairFunction).
//
// One file over 400 lines: every Python entry point of one Scorer (score, batch, batch_ids and the
// PairFunction) shares its parsed configuration, its dict building and the text reading, and they
// are read together when one changes.
#pragma once

#include <pybind11/pybind11.h>
#include <structmember.h>

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
    // the input needs the Python validation path, else a Batch.
    py::object batch(py::handle preds, py::handle refs, int nthreads, bool want_values, bool want_dicts,
                     size_t first_index) {
        if (!PyList_Check(preds.ptr()) || !PyList_Check(refs.ptr())) return py::none();
        Py_ssize_t n = PyList_GET_SIZE(preds.ptr());
        if (PyList_GET_SIZE(refs.ptr()) != n) return py::none();
        // Every str is pinned while the lists are read (GIL held, no Python code runs), so whatever
        // another thread does to the caller's lists while the GIL is released, the texts stay alive.
        // (Pins, not copies of the lists or tuples: thousands of new GC-tracked objects per call made
        // the cyclic collector walk the whole heap, a seventh of a warm batch's time.)
        Pins pins;
        pins.reserve((size_t)n * 2);
        std::vector<Text> ptexts((size_t)n), texts;
        std::vector<size_t> ref_off((size_t)n + 1, 0);
        texts.reserve((size_t)n * 2);
        for (Py_ssize_t i = 0; i < n; ++i) {
            if (!pins.text(PyList_GET_ITEM(preds.ptr(), i), ptexts[(size_t)i])) return py::none();
            if (!get_refs(PyList_GET_ITEM(refs.ptr(), i), texts, pins)) return py::none();
            ref_off[(size_t)i + 1] = texts.size();
        }
        Scorer::BatchIn in{ptexts.data(), texts.data(), ref_off.data(), (size_t)n, first_index};
        Scorer::BatchOut out;
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
        score_id_batch(core, b, first_index, nthreads, out);
        return pack(out, (size_t)n, want_values, want_dicts);
    }
};


// The Python error of the C++ exception being handled, as the binding layer's dispatch sets it
// (pybind11's default translation, and the module's translator of SignalRaised in bindings.cpp).
inline void set_python_error() {
    try {
        throw;
    } catch (py::error_already_set& e) {
        e.restore();
    } catch (const py::builtin_exception& e) {
        e.set_error();
    } catch (const SignalRaised&) {
        if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const std::bad_alloc& e) {
        PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const std::domain_error& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::invalid_argument& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::length_error& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::out_of_range& e) {
        PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const std::range_error& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::overflow_error& e) {
        PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (...) {
        PyErr_SetString(PyExc_RuntimeError, "Caught an unknown exception!");
    }
}

// _native.PairFunction: one example's {type: Score} from a call f(a, b) with no binding-layer
// dispatch (CPython's vectorcall straight into Scorer::score_pair), the per-pair entry point of
// rouge-score's calling convention. It scores exact str input (see PyScorer::score_args); every other
// call (other types, keywords, another number of arguments, a declined zero score) goes, with the
// same arguments, to `fallback`, the caller's Python path, which validates and raises.
struct PairFn {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject* owner;              // the _native.Scorer that owns sc (a reference: keeps sc alive)
    PyObject* fallback;           // a callable
    PyScorer* sc;
    unsigned char* zero_decline;  // PyMem block of one flag per type, or nullptr
    Mode mode;
    bool refs_first;              // f(references, prediction) (rouge-score's order), else f(prediction, references)
    bool refs_list;               // references: a list or tuple of str, else one str
};

inline PyObject* pair_fn_call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
    PairFn* f = (PairFn*)self;
    if (!f->fallback) {  // cleared by the cyclic collector
        PyErr_SetString(PyExc_RuntimeError, "rouge_metric._native.PairFunction: called after it was cleared");
        return nullptr;
    }
    if (PyVectorcall_NARGS(nargsf) == 2 && !kwnames) {
        PyObject* out = nullptr;
        try {
            out = f->sc->score_args(args[f->refs_first ? 1 : 0], args[f->refs_first ? 0 : 1], f->refs_list,
                                    f->mode, f->zero_decline);
        } catch (...) {
            set_python_error();
            return nullptr;
        }
        if (out) return out;
    }
    return PyObject_Vectorcall(f->fallback, args, nargsf, kwnames);
}

inline int pair_fn_traverse(PyObject* self, visitproc visit, void* arg) {
    PairFn* f = (PairFn*)self;
    Py_VISIT(f->owner);
    Py_VISIT(f->fallback);
    return 0;
}

// Breaks a cycle through the fallback (a bound method of the object that holds this function); the
// owner, whose Scorer `sc` points into, stays until deallocation.
inline int pair_fn_clear(PyObject* self) {
    Py_CLEAR(((PairFn*)self)->fallback);
    return 0;
}

inline void pair_fn_dealloc(PyObject* self) {
    PairFn* f = (PairFn*)self;
    PyObject_GC_UnTrack(self);
    Py_CLEAR(f->fallback);
    Py_CLEAR(f->owner);
    PyMem_Free(f->zero_decline);
    PyObject_GC_Del(self);
}

inline PyObject* pair_fn_repr(PyObject* self) {
    PairFn* f = (PairFn*)self;
    return PyUnicode_FromFormat("<rouge_metric._native.PairFunction (%s) of %zu types>",
                                f->refs_first ? (f->refs_list ? "targets, prediction" : "target, prediction")
                                              : (f->refs_list ? "prediction, references" : "prediction, reference"),
                                f->sc->names.size());
}

inline PyTypeObject PAIR_FN_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

// Called once when the module is made.
inline void ready_pair_fn_type() {
    PyTypeObject& t = PAIR_FN_TYPE;
    t.tp_name = "rouge_metric._native.PairFunction";
    t.tp_doc = "f(a, b) -> {type: Score}: one example scored natively (Scorer.pair_function).";
    t.tp_basicsize = sizeof(PairFn);
    t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
    t.tp_vectorcall_offset = offsetof(PairFn, vectorcall);
    t.tp_call = PyVectorcall_Call;
    t.tp_traverse = pair_fn_traverse;
    t.tp_clear = pair_fn_clear;
    t.tp_dealloc = pair_fn_dealloc;
    t.tp_repr = pair_fn_repr;
    if (PyType_Ready(&t) < 0) throw py::error_already_set();
}

// A PairFunction of the Scorer `owner` (see Scorer.pair_function in bindings.cpp).
inline py::object make_pair_fn(py::object owner, bool refs_first, bool refs_list, py::handle mode,
                               py::object fallback, py::handle zero_decline) {
    PyScorer& sc = owner.cast<PyScorer&>();
    if (!PyCallable_Check(fallback.ptr())) throw py::type_error("fallback: expected a callable");
    const Mode md = mode.is_none() ? sc.core.mode : mode_arg(mode);
    const size_t T = sc.names.size();
    unsigned char* flags = nullptr;
    if (!zero_decline.is_none()) {
        if (!PySequence_Check(zero_decline.ptr()) || (size_t)PySequence_Size(zero_decline.ptr()) != T) {
            PyErr_Clear();
            throw py::value_error("zero_decline: expected None or one bool per rouge type (" + std::to_string(T) + ")");
        }
        py::sequence seq = py::reinterpret_borrow<py::sequence>(zero_decline);
        flags = (unsigned char*)PyMem_Malloc(T ? T : 1);
        if (!flags) throw std::bad_alloc();
        for (size_t t = 0; t < T; ++t) {
            int v = PyObject_IsTrue(py::object(seq[t]).ptr());
            if (v < 0) {
                PyMem_Free(flags);
                throw py::error_already_set();
            }
            flags[t] = (unsigned char)v;
        }
    }
    PairFn* f = PyObject_GC_New(PairFn, &PAIR_FN_TYPE);
    if (!f) {
        PyMem_Free(flags);
        throw py::error_already_set();
    }
    f->vectorcall = pair_fn_call;
    f->owner = owner.release().ptr();
    f->fallback = fallback.release().ptr();
    f->sc = &sc;
    f->zero_decline = flags;
    f->mode = md;
    f->refs_first = refs_first;
    f->refs_list = refs_list;
    PyObject_GC_Track((PyObject*)f);
    return py::reinterpret_steal<py::object>((PyObject*)f);
}

// _native.PairPlan: what a PairMethod runs for one instance, and the settings it was made for:
// PairPlan(functions, attributes, values, items=None, snapshot=(), others=()). It holds while
// - each attributes[i] of the instance's __dict__ is values[i] (the same object);
// - items is None, or a list whose items are exact str equal to those of the tuple snapshot;
// - for each (owner, name, value) of others, owner.__dict__[name] is value.
// functions[k] (a PairFunction, or None for no native path) is what the PairMethod of index k runs.
struct PairPlan {
    PyObject_HEAD
    PyObject* functions;   // tuple
    PyObject* attributes;  // tuple of str
    PyObject* values;      // tuple, as long as attributes
    PyObject* items;       // list or None
    PyObject* snapshot;    // tuple of str
    PyObject* others;      // tuple of (owner, name, value) tuples
};

inline PyTypeObject PAIR_PLAN_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

// d[name] is value, d a dict (referenced by the caller). The entry at *pos (the next one in the
// dict's order) is looked at first: the attributes of an instance stay in the order they were first
// set, so the usual check costs no hashing; anywhere else, a lookup. *pos moves past a match.
inline bool dict_holds(PyObject* d, Py_ssize_t* pos, PyObject* name, PyObject* value) {
    Py_ssize_t p = *pos;
    PyObject *k, *v;
    if (PyDict_Next(d, &p, &k, &v) && k == name) {
        *pos = p;
        return v == value;
    }
    v = PyDict_GetItemWithError(d, name);  // a borrowed reference, compared only
    if (!v) PyErr_Clear();
    return v && v == value;
}

// Whether plan holds for an instance whose __dict__ is d (both referenced by the caller); the
// attributes are looked for from the entry at pos on (see dict_holds).
inline bool plan_holds(const PairPlan* plan, PyObject* d, Py_ssize_t pos) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(plan->attributes); ++i)
        if (!dict_holds(d, &pos, PyTuple_GET_ITEM(plan->attributes, i), PyTuple_GET_ITEM(plan->values, i)))
            return false;
    if (plan->items != Py_None) {
        PyObject* seq = plan->items;
        PyObject* snap = plan->snapshot;
        if (PyList_GET_SIZE(seq) != PyTuple_GET_SIZE(snap)) return false;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(snap); ++i) {
            // No Python code runs here (exact str only), so the list cannot change under the loop.
            PyObject* a = PyList_GET_ITEM(seq, i);
            PyObject* b = PyTuple_GET_ITEM(snap, i);
            if (a != b && (!PyUnicode_CheckExact(a) || PyUnicode_Compare(a, b) != 0)) return false;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(plan->others); ++i) {
        PyObject* c = PyTuple_GET_ITEM(plan->others, i);
        PyObject* od = PyObject_GenericGetDict(PyTuple_GET_ITEM(c, 0), nullptr);  // a new reference
        if (!od) {
            PyErr_Clear();
            return false;
        }
        Py_ssize_t opos = 0;
        const bool ok = PyDict_CheckExact(od) && dict_holds(od, &opos, PyTuple_GET_ITEM(c, 1), PyTuple_GET_ITEM(c, 2));
        Py_DECREF(od);
        if (!ok) return false;
    }
    return true;
}

inline int pair_plan_traverse(PyObject* self, visitproc visit, void* arg) {
    PairPlan* p = (PairPlan*)self;
    Py_VISIT(p->functions);
    Py_VISIT(p->attributes);
    Py_VISIT(p->values);
    Py_VISIT(p->items);
    Py_VISIT(p->snapshot);
    Py_VISIT(p->others);
    return 0;
}

// Every field stays a valid object of its type (None or empty tuples) after a clear, so a plan met
// by a PairMethod after the cyclic collector cleared it simply does not hold.
inline int pair_plan_clear(PyObject* self) {
    PairPlan* p = (PairPlan*)self;
    PyObject* empty = PyTuple_New(0);
    if (!empty) return -1;
    Py_INCREF(empty);
    Py_INCREF(empty);
    Py_INCREF(empty);
    Py_INCREF(empty);
    Py_INCREF(Py_None);
    Py_SETREF(p->functions, empty);
    Py_SETREF(p->attributes, empty);
    Py_SETREF(p->values, empty);
    Py_SETREF(p->snapshot, empty);
    Py_SETREF(p->others, empty);
    Py_SETREF(p->items, Py_None);
    return 0;
}

inline void pair_plan_dealloc(PyObject* self) {
    PairPlan* p = (PairPlan*)self;
    PyObject_GC_UnTrack(self);
    Py_CLEAR(p->functions);
    Py_CLEAR(p->attributes);
    Py_CLEAR(p->values);
    Py_CLEAR(p->items);
    Py_CLEAR(p->snapshot);
    Py_CLEAR(p->others);
    PyObject_GC_Del(self);
}

inline PyObject* pair_plan_new(PyTypeObject*, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"functions", "attributes", "values", "items", "snapshot", "others", nullptr};
    PyObject *functions, *attributes, *values, *items = Py_None, *snapshot = nullptr, *others = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!|OO!O!:PairPlan", (char**)kw, &PyTuple_Type, &functions,
                                     &PyTuple_Type, &attributes, &PyTuple_Type, &values, &items, &PyTuple_Type,
                                     &snapshot, &PyTuple_Type, &others))
        return nullptr;
    auto fail = [](PyObject* exc, const char* msg) -> PyObject* {
        PyErr_SetString(exc, msg);
        return nullptr;
    };
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(functions); ++i) {
        PyObject* f = PyTuple_GET_ITEM(functions, i);
        if (f != Py_None && Py_TYPE(f) != &PAIR_FN_TYPE)
            return fail(PyExc_TypeError, "functions: expected a tuple of PairFunction or None");
    }
    if (PyTuple_GET_SIZE(attributes) != PyTuple_GET_SIZE(values))
        return fail(PyExc_ValueError, "values: expected one value per attribute");
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(attributes); ++i)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(attributes, i)))
            return fail(PyExc_TypeError, "attributes: expected a tuple of str");
    if (items != Py_None && !PyList_CheckExact(items)) return fail(PyExc_TypeError, "items: expected a list or None");
    if (!snapshot) snapshot = PyTuple_New(0);
    else Py_INCREF(snapshot);
    if (!snapshot) return nullptr;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(snapshot); ++i)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(snapshot, i))) {
            Py_DECREF(snapshot);
            return fail(PyExc_TypeError, "snapshot: expected a tuple of str");
        }
    if (!others) others = PyTuple_New(0);
    else Py_INCREF(others);
    if (!others) {
        Py_DECREF(snapshot);
        return nullptr;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(others); ++i) {
        PyObject* c = PyTuple_GET_ITEM(others, i);
        if (!PyTuple_CheckExact(c) || PyTuple_GET_SIZE(c) != 3 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(c, 1))) {
            Py_DECREF(snapshot);
            Py_DECREF(others);
            return fail(PyExc_TypeError, "others: expected a tuple of (owner, name: str, value)");
        }
    }
    PairPlan* p = PyObject_GC_New(PairPlan, &PAIR_PLAN_TYPE);
    if (!p) {
        Py_DECREF(snapshot);
        Py_DECREF(others);
        return nullptr;
    }
    Py_INCREF(functions);
    Py_INCREF(values);
    Py_INCREF(items);
    p->functions = functions;
    p->values = values;
    p->items = items;
    p->snapshot = snapshot;
    p->others = others;
    // The names interned, so that they are the very key objects of the instances' dicts (dict_holds).
    p->attributes = PyTuple_New(PyTuple_GET_SIZE(attributes));
    if (!p->attributes) {
        Py_DECREF(p);  // (GC-untracked; dealloc handles the fields set)
        return nullptr;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(attributes); ++i) {
        PyObject* name = PyTuple_GET_ITEM(attributes, i);
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        PyTuple_SET_ITEM(p->attributes, i, name);
    }
    PyObject_GC_Track((PyObject*)p);
    return (PyObject*)p;
}

inline PyMemberDef PAIR_PLAN_MEMBERS[] = {
    {"functions", T_OBJECT, offsetof(PairPlan, functions), READONLY, nullptr},
    {"attributes", T_OBJECT, offsetof(PairPlan, attributes), READONLY, nullptr},
    {"values", T_OBJECT, offsetof(PairPlan, values), READONLY, nullptr},
    {"items", T_OBJECT, offsetof(PairPlan, items), READONLY, nullptr},
    {"snapshot", T_OBJECT, offsetof(PairPlan, snapshot), READONLY, nullptr},
    {"others", T_OBJECT, offsetof(PairPlan, others), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

inline PyObject* pair_plan_repr(PyObject* self) {
    PairPlan* p = (PairPlan*)self;
    return PyUnicode_FromFormat("<rouge_metric._native.PairPlan of %R>", p->attributes);
}

// _native.PairMethod: a method (a class attribute, bound like a function) whose calls f(obj, a, b) run
// a PairFunction kept in the instance's __dict__ for as long as the instance's settings are those it
// was made for, with no Python code in between. Every other call goes to `fallback` (the Python method
// it replaces, called as fallback(self, *args, **kwargs)).
//
// PairMethod(fallback, cls, attr, index): the PairPlan is obj.__dict__[attr]; the method runs its
// functions[index] when obj is an instance of `cls` itself (not of a subclass, whose attribute access
// may be its own), the plan holds (see PairPlan) and that function is a PairFunction. Reading the
// instance's __dict__ is what attribute access reads for an instance of a class that defines no data
// descriptor of those names. The method holds its own references to the plan and to the dicts it
// reads for the whole call (Python code may run during it: a __dict__ replaced, a plan dropped, its
// scorer freed).
struct PairMethod {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject* fallback;  // a callable
    PyObject* cls;       // a type
    PyObject* attr;      // a str
    Py_ssize_t index;
};

inline PyTypeObject PAIR_METHOD_TYPE = {PyVarObject_HEAD_INIT(nullptr, 0)};

inline PyObject* pair_method_call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
    PairMethod* m = (PairMethod*)self;
    if (!m->fallback) {  // cleared by the cyclic collector
        PyErr_SetString(PyExc_RuntimeError, "rouge_metric._native.PairMethod: called after it was cleared");
        return nullptr;
    }
    // Only f(self, a, b): any other call (keywords, another number of arguments) is the fallback's, so
    // that its errors are the method's own.
    const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs == 3 && (!kwnames || PyTuple_GET_SIZE(kwnames) == 0) && (PyObject*)Py_TYPE(args[0]) == m->cls) {
        // No plan to be found (no __dict__, a failed lookup) is the fallback's call, as a plan that does not hold.
        // The plan is looked for first in the dict's first entry (see dict_holds), then by lookup.
        PyObject* d = PyObject_GenericGetDict(args[0], nullptr);  // a new reference
        PyObject* plan = nullptr;
        Py_ssize_t pos = 0;
        if (d && PyDict_CheckExact(d)) {
            PyObject* k;
            if (!PyDict_Next(d, &pos, &k, &plan) || k != m->attr) {
                pos = 0;
                plan = PyDict_GetItemWithError(d, m->attr);
            }
        }
        if (!plan) PyErr_Clear();
        PyObject* f = nullptr;
        if (plan && Py_TYPE(plan) == &PAIR_PLAN_TYPE) {
            Py_INCREF(plan);
            const PairPlan* pp = (const PairPlan*)plan;
            if (m->index < PyTuple_GET_SIZE(pp->functions) && plan_holds(pp, d, pos))
                f = PyTuple_GET_ITEM(pp->functions, m->index);
        } else {
            plan = nullptr;
        }
        Py_XDECREF(d);
        if (f && Py_TYPE(f) == &PAIR_FN_TYPE) {
            // args + 1 without PY_VECTORCALL_ARGUMENTS_OFFSET: args[0] is not ours to overwrite. The
            // plan's reference keeps f (and its scorer) alive whatever the call's Python code does.
            PyObject* out = pair_fn_call(f, args + 1, 2, nullptr);
            Py_DECREF(plan);
            return out;
        }
        Py_XDECREF(plan);
    }
    return PyObject_Vectorcall(m->fallback, args, nargsf, kwnames);
}

// m.__get__(obj, type): as a function's: the method itself from the class, a bound method from an instance.
inline PyObject* pair_method_get(PyObject* self, PyObject* obj, PyObject*) {
    if (obj == nullptr || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

inline int pair_method_traverse(PyObject* self, visitproc visit, void* arg) {
    PairMethod* m = (PairMethod*)self;
    Py_VISIT(m->fallback);
    Py_VISIT(m->cls);
    return 0;
}

inline int pair_method_clear(PyObject* self) {
    Py_CLEAR(((PairMethod*)self)->fallback);
    Py_CLEAR(((PairMethod*)self)->cls);
    return 0;
}

inline void pair_method_dealloc(PyObject* self) {
    PyObject_GC_UnTrack(self);
    pair_method_clear(self);
    Py_CLEAR(((PairMethod*)self)->attr);
    PyObject_GC_Del(self);
}

// The fallback's attribute `name` (__doc__, __name__, __qualname__, __module__), so that help(),
// inspect and pickling of bound methods see the method it stands for; __wrapped__ is the fallback.
inline PyObject* pair_method_attr(PyObject* self, void* name) {
    PairMethod* m = (PairMethod*)self;
    if (!m->fallback) Py_RETURN_NONE;
    if (!name) {
        Py_INCREF(m->fallback);
        return m->fallback;
    }
    return PyObject_GetAttrString(m->fallback, (const char*)name);
}

inline PyObject* pair_method_repr(PyObject* self) {
    PairMethod* m = (PairMethod*)self;
    return PyUnicode_FromFormat("<rouge_metric._native.PairMethod over %R>", m->fallback ? m->fallback : Py_None);
}

inline PyGetSetDef PAIR_METHOD_GETSET[] = {
    {"__doc__", pair_method_attr, nullptr, nullptr, (void*)"__doc__"},
    {"__name__", pair_method_attr, nullptr, nullptr, (void*)"__name__"},
    {"__qualname__", pair_method_attr, nullptr, nullptr, (void*)"__qualname__"},
    {"__module__", pair_method_attr, nullptr, nullptr, (void*)"__module__"},
    {"__wrapped__", pair_method_attr, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

inline PyObject* pair_method_new(PyTypeObject*, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"fallback", "cls", "attr", "index", nullptr};
    PyObject *fallback, *cls, *attr;
    Py_ssize_t index;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOUn:PairMethod", (char**)kw, &fallback, &cls, &attr, &index))
        return nullptr;
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "fallback: expected a callable");
        return nullptr;
    }
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "cls: expected a class");
        return nullptr;
    }
    if (index < 0) {
        PyErr_SetString(PyExc_ValueError, "index: expected an int >= 0");
        return nullptr;
    }
    PairMethod* m = PyObject_GC_New(PairMethod, &PAIR_METHOD_TYPE);
    if (!m) return nullptr;
    m->vectorcall = pair_method_call;
    Py_INCREF(fallback);
    Py_INCREF(cls);
    Py_INCREF(attr);
    PyUnicode_InternInPlace(&attr);  // the dict lookup then compares pointers
    m->fallback = fallback;
    m->cls = cls;
    m->attr = attr;
    m->index = index;
    PyObject_GC_Track((PyObject*)m);
    return (PyObject*)m;
}

// Called once when the module is made.
inline void ready_pair_plan_type() {
    PyTypeObject& t = PAIR_PLAN_TYPE;
    t.tp_name = "rouge_metric._native.PairPlan";
    t.tp_doc = "PairPlan(functions, attributes, values, items=None, snapshot=(), others=()): the PairFunctions "
               "a PairMethod runs for one instance, while each attribute of its __dict__ is the value given "
               "(the same object), items (a list) has the snapshot's items, and each (owner, name, value) of "
               "others has owner.__dict__[name] is value.";
    t.tp_basicsize = sizeof(PairPlan);
    t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC;
    t.tp_new = pair_plan_new;
    t.tp_members = PAIR_PLAN_MEMBERS;
    t.tp_traverse = pair_plan_traverse;
    t.tp_clear = pair_plan_clear;
    t.tp_dealloc = pair_plan_dealloc;
    t.tp_repr = pair_plan_repr;
    if (PyType_Ready(&t) < 0) throw py::error_already_set();
}

// Called once when the module is made.
inline void ready_pair_method_type() {
    PyTypeObject& t = PAIR_METHOD_TYPE;
    t.tp_name = "rouge_metric._native.PairMethod";
    t.tp_doc = "PairMethod(fallback, cls, attr, index): a method that runs the PairFunction functions[index] "
               "of the PairPlan in an instance's __dict__[attr] while the plan holds for the instance, and "
               "fallback(self, *args, **kwargs) otherwise.";
    t.tp_basicsize = sizeof(PairMethod);
    t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR;
    t.tp_vectorcall_offset = offsetof(PairMethod, vectorcall);
    t.tp_call = PyVectorcall_Call;
    t.tp_descr_get = pair_method_get;
    t.tp_getset = PAIR_METHOD_GETSET;
    t.tp_new = pair_method_new;
    t.tp_traverse = pair_method_traverse;
    t.tp_clear = pair_method_clear;
    t.tp_dealloc = pair_method_dealloc;
    t.tp_repr = pair_method_repr;
    if (PyType_Ready(&t) < 0) throw py::error_already_set();
}

}  // namespace
}  // namespace rouge
