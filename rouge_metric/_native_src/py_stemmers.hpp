// The Python face of the language stemmers (stemmers/stemmers.hpp): `_native.LanguageStemmer(name,
// stopwords=None, history=True)`, whose `stem(word)` and `stem_many(words)` give what the Python original's stem() gives,
// and `_native.language_stemmers()`, the names this build has a twin for. Everything here runs with the GIL
// held: a str is read into code points, its Python lowercase is made with str.lower() (Python's Unicode
// tables, special casing included) unless it is ASCII, and the stem is returned as a new str. The TurkishStemmer
// twin takes no stopwords: its `stop` set holds the package's word lists, read from the installed package.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <utility>

#include "stemmers/stemmers.hpp"

namespace rouge {
namespace {

namespace py = pybind11;

// The code points of a str (lone surrogates kept, as Python keeps them).
inline stem::U32 str_to_u32(PyObject* s) {
    const Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    const int kind = PyUnicode_KIND(s);
    const void* data = PyUnicode_DATA(s);
    stem::U32 out((size_t)n, U'\0');
    for (Py_ssize_t i = 0; i < n; ++i) out[(size_t)i] = (char32_t)PyUnicode_READ(kind, data, i);
    return out;
}

inline py::str u32_to_str(const stem::U32& w) {
    PyObject* o = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, w.data(), (Py_ssize_t)w.size());
    if (!o) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(o);
}

class PyLanguageStemmer {
  public:
    PyLanguageStemmer(const std::string& name, py::object stopwords, bool history)
        : name_(name), fn_(stem::find(name.c_str())), history_(history) {
        if (!fn_) {
            std::string have;
            for (const stem::Language* lang : stem::LANGUAGES)
                if (lang->stem) have += (have.empty() ? "" : ", ") + std::string(lang->name);
            throw py::value_error("rouge_metric: no native stemmer " + py::repr(py::str(name)).cast<std::string>() +
                                  " in this build; it has: " + (have.empty() ? std::string("none") : have));
        }
        if (name_ == "TurkishStemmer") {
            if (!stopwords.is_none())
                throw py::value_error("stopwords: the TurkishStemmer takes none (it has its own word lists)");
            load_turkish_lists();
        } else if (!stopwords.is_none()) {
            Py_ssize_t i = 0;
            for (py::handle w : py::iter(stopwords)) {
                if (!PyUnicode_Check(w.ptr()))
                    throw py::type_error("stopwords[" + std::to_string(i) + "]: expected str, got " +
                                         std::string(Py_TYPE(w.ptr())->tp_name));
                stop_.insert(str_to_u32(w.ptr()));
                ++i;
            }
        }
    }

    py::str stem(py::handle word) const {
        if (!PyUnicode_Check(word.ptr()))
            throw py::type_error("word: expected str, got " + std::string(Py_TYPE(word.ptr())->tp_name));
        return u32_to_str(run(word.ptr()));
    }

    py::list stem_many(py::handle words) const {
        if (!PyList_Check(words.ptr()) && !PyTuple_Check(words.ptr()))
            throw py::type_error("words: expected a list or tuple of str, got " +
                                 std::string(Py_TYPE(words.ptr())->tp_name));
        py::object seq = py::reinterpret_borrow<py::object>(words);  // held for the call
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.ptr());
        py::list out(n);
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject* w = PySequence_Fast_GET_ITEM(seq.ptr(), i);
            if (!PyUnicode_Check(w))
                throw py::type_error("words[" + std::to_string(i) + "]: expected str, got " +
                                     std::string(Py_TYPE(w)->tp_name));
            py::object keep = py::reinterpret_borrow<py::object>(w);
            PyList_SET_ITEM(out.ptr(), i, u32_to_str(run(w)).release().ptr());
        }
        return out;
    }

    const std::string& name() const { return name_; }
    // (the TurkishStemmer twin's set holds the package's word lists, not stopwords)
    size_t stopword_count() const { return name_ == "TurkishStemmer" ? 0 : stop_.size(); }

  private:
    // The TurkishStemmer twin's word lists (stemmers/turkish_stemmer.hpp), from the installed package: the
    // sets its default instance uses (TurkishStemmer.DefaultSetHolder, read by the package from its
    // resources/ at import), tagged by list into stop_.
    void load_turkish_lists() {
        static const std::pair<const char*, stem::TurkishList> LISTS[] = {
            {"DEFAULT_PROTECTED_WORDS", stem::TurkishList::PROTECTED},
            {"DEFAULT_VOWEL_HARMONY_EXCEPTIONS", stem::TurkishList::HARMONY_EXCEPTION},
            {"DEFAULT_LAST_CONSONANT_EXCEPTIONS", stem::TurkishList::LAST_CONSONANT},
            {"DEFAULT_AVERAGE_STEM_SIZE_EXCEPTIONS_FILE", stem::TurkishList::AVERAGE_SIZE},  // the package's name
        };
        py::object holder;
        try {
            holder = py::module_::import("TurkishStemmer").attr("DefaultSetHolder");
        } catch (py::error_already_set& e) {
            throw py::import_error("rouge_metric: the TurkishStemmer twin reads its word lists from the installed "
                                   "TurkishStemmer package: " + std::string(e.what()));
        }
        for (const auto& list : LISTS)
            for (py::handle w : py::iter(holder.attr(list.first))) {
                if (!PyUnicode_Check(w.ptr()))
                    throw py::type_error(std::string("TurkishStemmer.DefaultSetHolder.") + list.first +
                                         ": expected str entries");
                stop_.insert(stem::turkish_list_key(list.second, str_to_u32(w.ptr())));
            }
    }

    stem::U32 run(PyObject* w) const {
        stem::U32 word = str_to_u32(w);
        stem::U32 lower;
        if (PyUnicode_IS_ASCII(w)) {
            lower = word;
            for (char32_t& c : lower)
                if (c >= U'A' && c <= U'Z') c += 32;
        } else {
            PyObject* low = PyObject_CallMethod(w, "lower", nullptr);
            if (!low) throw py::error_already_set();
            py::object keep = py::reinterpret_steal<py::object>(low);
            lower = str_to_u32(low);
        }
        if (!history_) state_ = false;
        return fn_(stem::Input{word, lower, stop_, state_});
    }

    std::string name_;
    stem::StemFn fn_;
    stem::StopSet stop_;
    bool history_;
    mutable bool state_ = false;

  public:
    bool state() const { return state_; }
    void set_state(bool s) { state_ = s; }
};

inline py::tuple native_language_stemmers() {
    py::list names;
    for (const stem::Language* lang : stem::LANGUAGES)
        if (lang->stem) names.append(py::str(lang->name));
    return py::tuple(names);
}

inline void bind_language_stemmers(py::module_& m) {
    py::class_<PyLanguageStemmer>(m, "LanguageStemmer",
                                  "A C++ twin of a language stemmer (nltk's Snowball stemmers, TurkishStemmer): "
                                  "stem(word) and stem_many(words) give what the original's stem() gives.")
        .def(py::init<const std::string&, py::object, bool>(), py::arg("name"), py::arg("stopwords") = py::none(),
             py::arg("history") = true,
             "history: keep the original instance's state from one call to the next (as one nltk instance "
             "does); False: every word is stemmed as by a new instance.")
        .def("stem", &PyLanguageStemmer::stem, py::arg("word"))
        .def("stem_many", &PyLanguageStemmer::stem_many, py::arg("words"))
        .def_property_readonly("name", &PyLanguageStemmer::name)
        .def_property_readonly("stopword_count", &PyLanguageStemmer::stopword_count)
        .def_property("state", &PyLanguageStemmer::state, &PyLanguageStemmer::set_state,
                      "The state the original keeps between calls (nltk's ArabicStemmer's "
                      "suffixes_verb_step1_success; False for every other stemmer).");
    m.def("language_stemmers", &native_language_stemmers,
          "The names of the stemmers this build has a C++ twin for (LanguageStemmer).");
}

}  // namespace
}  // namespace rouge
