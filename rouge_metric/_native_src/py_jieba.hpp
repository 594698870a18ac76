// Binding layer: the Python face of the jieba segmenter (jieba.hpp). Included by bindings.cpp only,
// after pybind11 (and so Python.h).
//
// _native.jieba_load(...) builds a JiebaModel from the bytes of jieba's dictionary and the sources of its
// HMM tables, with Python's math.log (what jieba calls) and Python's float parser (PyOS_string_to_double,
// what the compiler uses for a float literal), so every double is jieba's on every platform.
// JiebaModel.cut(text) is list(jieba.cut(text)).
//
// Ownership: everything here runs with the GIL held, and nothing calls back into Python while a cut runs
// (the output list is built after it), so a model is read by one thread at a time; it is never written
// after jieba_load. Each cut has its own scratch (a cut may be entered again from a finalizer that the
// garbage collector runs while the output list is built).
#pragma once

#include <Python.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "jieba.hpp"
#include "py_text.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

namespace py = pybind11;

struct PyJieba {
    std::shared_ptr<const JiebaModel> m;
};

// A text's code points into w.cps.
inline void jb_code_points(const Text& t, JiebaCut& w) {
    w.cps.resize(t.len);
    uint32_t* o = w.cps.data();
    if (t.kind == 1) {
        const uint8_t* s = (const uint8_t*)t.data;
        for (size_t i = 0; i < t.len; ++i) o[i] = s[i];
    } else if (t.kind == 2) {
        const uint16_t* s = (const uint16_t*)t.data;
        for (size_t i = 0; i < t.len; ++i) o[i] = s[i];
    } else {
        std::memcpy(o, t.data, 4 * t.len);
    }
}

// A float literal's digits (no sign) as the double Python's compiler makes of it: PyOS_string_to_double,
// the parser the compiler calls (correctly rounded on every platform). False unless the whole token is a
// number. (std::from_chars would be faster, but needs a newer C++ runtime than the wheels may assume.)
inline bool jb_parse_double(const char* s, size_t n, double& out) {
    std::string tok(s, n);
    char* end = nullptr;
    double v = PyOS_string_to_double(tok.c_str(), &end, nullptr);
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    if (end != tok.c_str() + tok.size()) return false;
    out = v;
    return true;
}

inline py::list jb_cut(const PyJieba& self, py::handle text) {
    Text t;
    if (!get_text(text.ptr(), t))
        throw py::type_error("text: expected str, got " + std::string(Py_TYPE(text.ptr())->tp_name));
    JiebaCut w;
    jb_code_points(t, w);
    cut_text(*self.m, w.cps.data(), w.cps.size(), w);
    PyObject* out = PyList_New((Py_ssize_t)w.ends.size());
    if (!out) throw py::error_already_set();
    py::list list = py::reinterpret_steal<py::list>(out);
    Py_ssize_t start = 0;
    for (size_t k = 0; k < w.ends.size(); ++k) {
        PyObject* tok = PyUnicode_Substring(text.ptr(), start, (Py_ssize_t)w.ends[k]);
        if (!tok) throw py::error_already_set();
        PyList_SET_ITEM(out, (Py_ssize_t)k, tok);
        start = (Py_ssize_t)w.ends[k];
    }
    return list;
}

inline void bind_jieba(py::module_& m) {
    py::class_<PyJieba>(m, "JiebaModel",
                        "jieba 0.42.1's jieba.cut (accurate mode, HMM on) with one dictionary and HMM tables "
                        "(rouge_metric/_native_src/jieba.hpp). Built by jieba_load; read-only.")
        .def("cut", &jb_cut, py::arg("text"),
             "list(jieba.cut(text)): the words of text, spaces and punctuation included. O(n * L) for n "
             "characters and the longest dictionary word L, plus O(n) for the HMM.")
        .def_property_readonly("total", [](const PyJieba& s) { return s.m->total; },
                               "jieba's total: the sum of the frequencies of the dictionary's lines.")
        .def_property_readonly("size", [](const PyJieba& s) { return s.m->size(); },
                               "len(FREQ): the words and their prefixes.")
        .def("freq",
             [](const PyJieba& s, py::handle word) -> py::object {
                 Text t;
                 if (!get_text(word.ptr(), t)) throw py::type_error("word: expected str");
                 JiebaCut w;
                 jb_code_points(t, w);
                 int64_t f = s.m->get(w.cps.data(), w.cps.size());
                 if (f < 0) return py::none();
                 return py::int_(f);
             },
             py::arg("word"), "FREQ.get(word): its frequency (0 for a prefix), or None when it is not a key.")
        .def("hmm",
             [](const PyJieba& s) {
                 const JiebaModel& j = *s.m;
                 py::dict start, trans, emit;
                 for (int y = 0; y < 4; ++y) {
                     const std::string a(1, JB_LETTER[y]);
                     start[py::str(a)] = j.start[y];
                     py::dict row;
                     for (int z = 0; z < 4; ++z) row[py::str(std::string(1, JB_LETTER[z]))] = j.trans[y][z];
                     trans[py::str(a)] = row;
                     py::list col;
                     for (double v : j.emit[y]) col.append(v);
                     emit[py::str(a)] = col;
                 }
                 return py::make_tuple(start, trans, emit, j.min_float);
             },
             "For tests: (start, trans, emit, min_float), trans with min_float where jieba's table has no "
             "entry, emit[state][c - 0x4E00] for every character c of U+4E00-U+9FD5.");

    m.def(
        "jieba_load",
        [](py::bytes dictionary, py::bytes start_src, py::bytes trans_src, py::bytes emit_src, double min_float) {
            auto model = std::make_shared<JiebaModel>();
            py::object math_log = py::module_::import("math").attr("log");
            auto log = [&](int64_t x) {
                PyObject* n = PyLong_FromLongLong((long long)x);
                if (!n) throw py::error_already_set();
                py::object r = math_log(py::reinterpret_steal<py::object>(n));
                double v = PyFloat_AsDouble(r.ptr());
                if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
                return v;
            };
            auto parse = [](const char* s, size_t n, double& out) { return jb_parse_double(s, n, out); };
            char* data;
            Py_ssize_t len;
            if (PyBytes_AsStringAndSize(dictionary.ptr(), &data, &len) < 0) throw py::error_already_set();
            std::string err = load_dict(*model, data, (size_t)len, log);
            if (!err.empty()) throw py::value_error("dictionary: " + err);
            err = load_hmm(*model, std::string(start_src), std::string(trans_src), std::string(emit_src), min_float,
                           parse);
            if (!err.empty()) throw py::value_error("HMM tables: " + err);
            return PyJieba{std::move(model)};
        },
        py::arg("dictionary"), py::arg("prob_start"), py::arg("prob_trans"), py::arg("prob_emit"), py::arg("min_float"),
        "A JiebaModel from the bytes of a jieba dictionary (dict.txt: 'word frequency [tag]' lines) and of the "
        "sources of jieba.finalseg's prob_start.py, prob_trans.py and prob_emit.py; min_float is "
        "finalseg.MIN_FLOAT. ValueError naming the line or table it cannot read as jieba does. O(bytes).");
}

}  // namespace
}  // namespace rouge
