// The Python face of XL-Sum's cleaner (xlsum_text.hpp): `_native.xlsum_clean(text)` -> (cleaned, plain).
// Runs with the GIL held: the str is lowercased by Python's own str.lower() (special casing and the Greek final
// sigma included), then read in place.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "xlsum_text.hpp"

namespace rouge {
namespace {

namespace py = pybind11;

inline py::tuple xlsum_clean(py::handle text) {
    if (!PyUnicode_Check(text.ptr()))
        throw py::type_error("text: expected str, got " + std::string(Py_TYPE(text.ptr())->tp_name));
    PyObject* low = PyObject_CallMethod(text.ptr(), "lower", nullptr);
    if (!low) throw py::error_already_set();
    py::object keep = py::reinterpret_steal<py::object>(low);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(low);
    std::u32string out;
    bool plain;
    switch (PyUnicode_KIND(low)) {
        case PyUnicode_1BYTE_KIND: plain = xlsum::clean(PyUnicode_1BYTE_DATA(low), (size_t)n, out); break;
        case PyUnicode_2BYTE_KIND: plain = xlsum::clean(PyUnicode_2BYTE_DATA(low), (size_t)n, out); break;
        default: plain = xlsum::clean(PyUnicode_4BYTE_DATA(low), (size_t)n, out); break;
    }
    PyObject* s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out.data(), (Py_ssize_t)out.size());
    if (!s) throw py::error_already_set();
    return py::make_tuple(py::reinterpret_steal<py::str>(s), py::bool_(plain));
}

inline void bind_xlsum(py::module_& m) {
    m.def("xlsum_clean", &xlsum_clean, py::arg("text"),
          "XL-Sum's cleaner: (the words of text.lower() joined by single spaces, plain), where plain means every "
          "word is letters or ASCII digits only, so that pyonmttok's aggressive mode would return them as they "
          "are. O(len(text)).");
}

}  // namespace
}  // namespace rouge
