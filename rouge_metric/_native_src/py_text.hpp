// Binding layer: Python str objects -> the core's texts (text.hpp), read in place and kept alive
// for the whole call. Included by bindings.cpp only, after pybind11 (and so Python.h).
//
// Ownership: everything here runs with the GIL held; a Pins belongs to one call.
#pragma once

#include <Python.h>

#include <vector>

#include "common.hpp"
#include "text.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// CPython's compact str kinds are the code unit sizes that Text::kind means.
static_assert(PyUnicode_1BYTE_KIND == 1 && PyUnicode_2BYTE_KIND == 2 && PyUnicode_4BYTE_KIND == 4,
              "Text::kind is the byte size of a code unit");

// The characters of a str object in place (kind, data, length); false when o is not a str.
inline bool get_text(PyObject* o, Text& t) {
    if (!PyUnicode_Check(o)) return false;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(o) < 0) {
        PyErr_Clear();
        return false;
    }
#endif
    t.kind = PyUnicode_KIND(o);
    t.data = PyUnicode_DATA(o);
    t.len = (size_t)PyUnicode_GET_LENGTH(o);
    // Token offsets and sentence boundaries are 32-bit.
    if (t.len >= ((size_t)1 << 31)) throw std::length_error("rouge_metric: a text of 2^31 characters or more");
    return true;
}

// Our own references to the str objects whose characters a call reads. Every Text that a call reads
// after the GIL may be released (a batch's parallel phases, waiting for a vocabulary that a batch
// holds) or after Python code may run (the Python stemmer, a signal handler) is taken through the
// call's Pins, so no str it reads can be freed by another thread, or by the code that ran, emptying
// the caller's lists. The references are dropped when the Pins goes out of scope, with the GIL held
// (every caller's scope ends after the GIL was taken back).
struct Pins {
    // The first INLINE references live in the object itself (a pair with a few references allocates
    // nothing); the rest, in `more`.
    static constexpr size_t INLINE = 8;
    PyObject* first[INLINE];
    size_t n = 0;
    std::vector<PyObject*> more;
    Pins() = default;
    Pins(const Pins&) = delete;
    Pins& operator=(const Pins&) = delete;
    ~Pins() {
        for (size_t k = 0; k < n; ++k) Py_DECREF(first[k]);
        for (PyObject* o : more) Py_DECREF(o);
    }
    // Room for `count` references in all (a batch knows how many it pins).
    void reserve(size_t count) {
        if (count > INLINE) more.reserve(count - INLINE);
    }
    // A reference to o for the whole call.
    void pin(PyObject* o) {
        if (n < INLINE)
            first[n++] = o;
        else
            more.push_back(o);
        Py_INCREF(o);
    }
    // get_text of o, keeping o alive for the whole call.
    bool text(PyObject* o, Text& t) {
        if (!get_text(o, t)) return false;
        pin(o);
        return true;
    }
};

// The texts of references: one str, or a non-empty list/tuple of str, each kept alive by pins; false
// for anything else (the caller's Python validation then names the problem). GIL held, no Python code
// runs while the sequence is read.
inline bool get_refs(PyObject* refs, std::vector<Text>& out, Pins& pins) {
    if (PyUnicode_Check(refs)) {
        out.emplace_back();
        return pins.text(refs, out.back());
    }
    if (!PyList_Check(refs) && !PyTuple_Check(refs)) return false;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(refs);
    if (n == 0) return false;
    PyObject** items = PySequence_Fast_ITEMS(refs);
    for (Py_ssize_t j = 0; j < n; ++j) {
        out.emplace_back();
        if (!pins.text(items[j], out.back())) return false;
    }
    return true;
}

// Whether a batch is plain: two lists of the same non-zero length, every prediction an exact str,
// every reference an exact str or a non-empty list of exact str (inputs.plain_batch, its Python
// twin). GIL held; only exact types are read, so no Python code runs. O(texts).
inline bool plain_texts(PyObject* preds, PyObject* refs) {
    if (!PyList_CheckExact(preds) || !PyList_CheckExact(refs)) return false;
    const Py_ssize_t n = PyList_GET_SIZE(preds);
    if (n == 0 || PyList_GET_SIZE(refs) != n) return false;
    for (Py_ssize_t i = 0; i < n; ++i)
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(preds, i))) return false;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* r = PyList_GET_ITEM(refs, i);
        if (PyUnicode_CheckExact(r)) continue;
        if (!PyList_CheckExact(r) || PyList_GET_SIZE(r) == 0) return false;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(r); ++j)
            if (!PyUnicode_CheckExact(PyList_GET_ITEM(r, j))) return false;
    }
    return true;
}

}  // namespace
}  // namespace rouge
