// Binding layer: the per-pair entry points, CPython types called by vectorcall with no pybind11
// dispatch: _native.PairFunction (f(a, b) -> {type: Score} of one Scorer, rouge_metric.RougeScorer's
// score and score_multi), and _native.PairMethod with its _native.PairPlan (a method that runs a
// PairFunction while an instance's settings are those it was made for: the rouge_score drop-in's).
// Included by bindings.cpp only, after pybind11.
//
// Ownership: everything here runs with the GIL held, which Scorer::score_pair may release (waiting for
// a vocabulary that a batch holds) and during which Python code may run (the Python stemmer): a
// PairFunction reads the caller's arguments (held by the caller) and pins the items of a list
// (py_text.hpp); a PairMethod holds its plan, and so the PairFunction and its Scorer, for the call.
//
// One file over 400 lines: the three types are one mechanism (a PairMethod checks a PairPlan and runs
// its PairFunction's path directly), and most of the file is the CPython type boilerplate of each.
#pragma once

#include <pybind11/pybind11.h>
#include <structmember.h>

#include <string>
#include <vector>

#include "common.hpp"
#include "host.hpp"
#include "py_scorer.hpp"
#include "py_text.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions
namespace py = pybind11;

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
