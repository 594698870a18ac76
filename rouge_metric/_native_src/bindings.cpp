// rouge_metric._native: the Python module of the native core (the only translation unit).
//
// Same functions and the same numbers as rouge_metric/core_py.py (the reference and the docs of
// every kernel), plus a Scorer that runs the whole default pipeline (tokenize -> stem cache ->
// intern -> kernels -> multi-reference combine -> P/R/F) in C++, for one pair with the GIL held or
// for a batch on N threads without the GIL. The files it includes, and who owns what when threads
// run, are listed in common.hpp; docs/native.md explains them.
//
// Floating point: compiled with -ffp-contract=off and without -ffast-math; every expression is
// written in the order of the Python code it mirrors, so the doubles are bit-identical.
//
// Ownership here: everything below runs with the GIL held, except inside Scorer::batch, which
// releases it for its parallel phases (batch.hpp), and score_id_batch (ids.hpp). The str objects whose
// data the batch reads while the GIL is released are kept alive by copies of the input lists and
// references to the items of list references, made first; the id batch copies every id into its own
// buffers before it releases the GIL.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "batch.hpp"
#include "common.hpp"
#include "ids.hpp"
#include "kernels_lcs.hpp"
#include "kernels_ngram.hpp"
#include "kernels_resample.hpp"
#include "kernels_wlcs.hpp"
#include "vocab.hpp"
#include "wpow.hpp"

namespace py = pybind11;
using namespace rouge;

namespace {

// A Score (tuple subclass) of three floats. It cannot be part of a reference cycle, so it is untracked
// by the cyclic GC (as CPython does for tuples of untracked objects itself), and so is the dict of a
// result (it holds only str keys and such Scores; a later insertion of a tracked object tracks it
// again). Millions of results then cost the collector nothing: without this, results kept in a
// list triggered full collections whose cost grew with the heap (the per-pair benchmark ran 3x
// slower in a process that held earlier results).
PyObject* make_score(PyTypeObject* tp, const Triple& t) {
    PyObject* o = tp->tp_alloc(tp, 3);
    if (!o) throw py::error_already_set();
    const double v[3] = {t.p, t.r, t.f};
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

// The texts of references: one str, or a non-empty list/tuple of str, each kept alive by pins; false
// for anything else (the caller's Python validation then names the problem). GIL held, no Python code
// runs while the sequence is read.
bool get_refs(PyObject* refs, std::vector<Text>& out, Pins& pins) {
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

// An n-gram order or skip distance (any Python int) for the kernels, which count in 32-bit ints:
// clamped to [INT32_MIN, INT32_MAX]. Clamping changes no count: every text has fewer than 2^31 tokens
// (get_text refuses longer ones), so an order beyond INT32_MAX has no n-gram, as INT32_MAX has none,
// and a skip distance beyond it allows every pair, as INT32_MAX does; negative skips mean unlimited.
int order_arg(py::handle v, const char* what) {
    if (!PyLong_Check(v.ptr())) throw py::type_error(std::string(what) + ": expected an int");
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow > 0 || x > INT32_MAX) return INT32_MAX;
    if (overflow < 0 || x < INT32_MIN) return INT32_MIN;
    return (int)x;
}

// The Python face of a Scorer: type names and the Score type of the results.
struct PyScorer {
    std::vector<py::object> names;  // (declared before core: its constructor fills them)
    py::object score_type;
    Scorer core;

    static std::vector<Spec> parse(py::list spec_list, std::vector<py::object>& names) {
        std::vector<Spec> specs;
        for (py::handle h : spec_list) {
            py::tuple t = py::reinterpret_borrow<py::tuple>(h);
            Spec s;
            names.push_back(py::reinterpret_borrow<py::object>(t[0]));
            s.kind = t[1].cast<int>();
            s.n = order_arg(t[2], "n");
            s.skip = order_arg(t[3], "skip");
            s.unigrams = t[4].cast<bool>();
            s.weight = t[5].cast<double>();
            specs.push_back(s);
        }
        return specs;
    }

    PyScorer(std::shared_ptr<Vocab> v, py::list spec_list, int mode, int fkind, double fparam, py::object score_tp)
        : score_type(std::move(score_tp)), core(std::move(v), parse(spec_list, names), mode, Fm{fkind, fparam}) {
        if (!PyType_Check(score_type.ptr()) || !PyType_IsSubtype((PyTypeObject*)score_type.ptr(), &PyTuple_Type))
            throw py::type_error("score_type must be a tuple subclass");
    }

    py::dict to_dict(const Triple* out) const {
        py::dict d;
        PyTypeObject* tp = (PyTypeObject*)score_type.ptr();
        for (size_t k = 0; k < names.size(); ++k) {
            PyObject* s = make_score(tp, out[k]);
            if (PyDict_SetItem(d.ptr(), names[k].ptr(), s) < 0) {
                Py_DECREF(s);
                throw py::error_already_set();
            }
            Py_DECREF(s);
        }
        if (PyObject_GC_IsTracked(d.ptr())) PyObject_GC_UnTrack(d.ptr());  // see make_score
        return d;
    }

    // Per-pair path: prediction str, references str or list/tuple of str. None when the input needs
    // the Python validation path.
    py::object score(py::handle pred, py::handle refs, int md) {
        if (md < 0) md = core.mode;
        // score_pair may release the GIL (waiting for a vocabulary that a batch holds) and run Python
        // code (the Python stemmer): every text it reads is pinned first.
        Pins pins;
        Text tp;
        if (!pins.text(pred.ptr(), tp)) return py::none();
        std::vector<Text> rt;
        if (!get_refs(refs.ptr(), rt, pins)) return py::none();
        Triple small[64];
        std::vector<Triple> big;
        Triple* o = small;
        if (names.size() > 64) {
            big.resize(names.size());
            o = big.data();
        }
        core.score_pair(tp, rt.data(), rt.size(), md, o);
        return to_dict(o);
    }

    // Batch: predictions list, references list (items str or list/tuple of str). Returns None when
    // the input needs the Python validation path, else a tuple
    //   (n, values: bytes of n*T*3 doubles or None, lens: bytes of n*2 doubles, partials: list of
    //    lists (3T + 2 columns: P, R, F per type, then pred_len, ref_len), dicts: list or None).
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
        pins.v.reserve((size_t)n * 2);
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

    // The Python result of a batch (see batch above).
    py::object pack(const Scorer::BatchOut& out, size_t n, bool want_values, bool want_dicts) const {
        py::list parts;
        for (auto& c : out.cols) {
            py::list l;
            for (double x : c.p) l.append(x);
            parts.append(l);
        }
        const size_t T = names.size();
        py::object dicts = py::none();
        if (want_dicts) {
            py::list dl;
            std::vector<Triple> tr(T);
            for (size_t i = 0; i < (size_t)n; ++i) {
                const double* v = out.values.data() + i * T * 3;
                for (size_t k = 0; k < T; ++k) tr[k] = Triple{v[3 * k], v[3 * k + 1], v[3 * k + 2]};
                dl.append(to_dict(tr.data()));
            }
            dicts = dl;
        }
        py::object vals = py::none();
        if (want_values) vals = py::bytes((const char*)out.values.data(), out.values.size() * sizeof(double));
        py::bytes lb((const char*)out.lens.data(), out.lens.size() * sizeof(double));
        return py::make_tuple(py::int_(n), vals, lb, parts, dicts);
    }

    // Batch of token ids (RougeConfig(tokenizer="ids")): predictions a list of id sequences (list or
    // tuple of int), references a list whose items are one id sequence or a list of them;
    // ignore_ids and sentence_ids tuples of int. The ids are read and interned with the GIL held
    // (ids.hpp), then scored on num_threads threads without it. Same result as batch, or None when
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

// ------------------------------------------------------------------- kernels on Python sequences
// Token sequences of any hashable values are mapped to ids through a dict, then the int kernels run
// on this thread's workspace (GIL held; interruptible; discarded when a call fails).
void intern_seq(py::handle seq, py::dict& ids, std::vector<int32_t>& out) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(seq);
    for (auto item : s) {
        // Our own reference: the lookup may run Python code (__hash__, __eq__ of the token), which
        // may change the sequence.
        py::object h = item;
        PyObject* v = PyDict_GetItemWithError(ids.ptr(), h.ptr());
        if (!v) {
            if (PyErr_Occurred()) throw py::error_already_set();
            py::int_ nv((Py_ssize_t)PyDict_Size(ids.ptr()));
            if (PyDict_SetItem(ids.ptr(), h.ptr(), nv.ptr()) < 0) throw py::error_already_set();
            out.push_back((int32_t)PyDict_Size(ids.ptr()) - 1);
        } else {
            out.push_back((int32_t)PyLong_AsLong(v));
        }
    }
}

Doc doc_tokens(py::handle toks, py::dict& ids) {
    Doc d;
    intern_seq(toks, ids, d.ids);
    if (!d.ids.empty()) {
        d.sb.push_back(0);
        d.sb.push_back((uint32_t)d.ids.size());
    }
    return d;
}

Doc doc_sents(py::handle sents, py::dict& ids) {
    Doc d;
    for (py::handle s : py::reinterpret_borrow<py::sequence>(sents)) {
        uint32_t b = (uint32_t)d.ids.size();
        intern_seq(s, ids, d.ids);
        uint32_t e = (uint32_t)d.ids.size();
        if (e > b) {
            d.sb.push_back(b);
            d.sb.push_back(e);
        }
    }
    return d;
}

// Run fn(ws) on a kernel workspace sized for nid ids, with Ctrl-C checks. Workspaces are pooled (not
// thread_local: see Scorer::score_pair); one whose call failed is dropped, not pooled.
std::mutex kernel_pool_mu;
std::vector<std::unique_ptr<Workspace>> kernel_pool;

template <class Fn>
auto with_workspace(size_t nid, Fn&& fn) {
    std::unique_ptr<Workspace> ws;
    {
        std::lock_guard<std::mutex> g(kernel_pool_mu);
        if (!kernel_pool.empty()) {
            ws = std::move(kernel_pool.back());
            kernel_pool.pop_back();
        }
    }
    if (!ws) ws = std::make_unique<Workspace>();
    Interrupt intr;
    Poll poll(&intr, true, true);
    ws->ensure(nid + 1);
    ws->poll = &poll;
    ws->limits = current_limits();
    auto r = fn(*ws);
    intr.rethrow_if_stopped();
    ws->poll = nullptr;
    ws->trim();
    std::lock_guard<std::mutex> g(kernel_pool_mu);
    kernel_pool.push_back(std::move(ws));
    return r;
}

// One word through a native stemmer: its stem, or None when the stemmer leaves the word to Python.
py::object stem_word(py::handle word, bool (*stem)(const char*, size_t, std::string&)) {
    Text t;
    if (!get_text(word.ptr(), t)) throw py::type_error("word: expected str");
    Py_ssize_t n;
    const char* u = PyUnicode_AsUTF8AndSize(word.ptr(), &n);
    if (!u) throw py::error_already_set();
    std::string out;
    if (!stem(u, (size_t)n, out)) return py::none();
    return py::str(out);
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "Compiled ROUGE kernels and batch scorer (same functions and results as rouge_metric.core_py).";

    // A Ctrl-C seen by a poll: the KeyboardInterrupt (or the signal handler's exception) is already
    // set in the caller's thread state.
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const PythonErrorPending&) {
            if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        }
    });

    m.def(
        "ngram_overlap",
        [](py::handle pred, py::handle ref, py::handle n_arg) {
            const int n = order_arg(n_arg, "n");
            py::dict ids;
            Doc p = doc_tokens(pred, ids), r = doc_tokens(ref, ids);
            int64_t h = with_workspace(PyDict_Size(ids.ptr()), [&](Workspace& ws) { return ngram_hits(ws, p.all(), r.all(), n); });
            return py::make_tuple(h, std::max<int64_t>((int64_t)p.ids.size() - n + 1, 0),
                                  std::max<int64_t>((int64_t)r.ids.size() - n + 1, 0));
        },
        "ROUGE-N counts: (clipped n-gram hits, prediction n-grams, reference n-grams). O(m + n) expected.");
    m.def(
        "skip_bigram_overlap",
        [](py::handle pred, py::handle ref, py::handle skip_arg, bool unigrams) {
            const int skip = order_arg(skip_arg, "skip");
            py::dict ids;
            Doc p = doc_tokens(pred, ids), r = doc_tokens(ref, ids);
            return with_workspace(PyDict_Size(ids.ptr()), [&](Workspace& ws) {
                int64_t h, a, b;
                skip_hits(ws, p.all(), r.all(), skip, unigrams, h, a, b);
                return py::make_tuple(h, a, b);
            });
        },
        "ROUGE-S/SU counts (hits, prediction total, reference total), clipped per key. "
        "O(len * skip) or O(len^2) for unlimited skip; memory O(distinct pairs).");
    m.def(
        "lcs_length",
        [](py::handle a, py::handle b) {
            py::dict ids;
            Doc x = doc_tokens(a, ids), y = doc_tokens(b, ids);
            return with_workspace(PyDict_Size(ids.ptr()), [&](Workspace& ws) { return lcs_len(ws, x.all(), y.all()); });
        },
        "Length of the longest common subsequence, bit-parallel (Hyyro 2004). "
        "O(max(m, n) * ceil(min(m, n) / w)) time, O(min(m, n) / w) memory plus bounded match masks.");
    m.def(
        "lcs_indices",
        [](py::handle ref, py::handle can) {
            py::dict ids;
            Doc r = doc_tokens(ref, ids), c = doc_tokens(can, ids);
            py::list out;
            if (r.ids.empty() || c.ids.empty()) return out;
            std::vector<uint8_t> mark(r.ids.size(), 0);
            with_workspace(PyDict_Size(ids.ptr()), [&](Workspace& ws) {
                size_t W = (c.ids.size() + 63) / 64;
                bool sparse = set_masks(ws, c.all(), W);
                lcs_mark(ws, sparse, r.all(), c.all(), W, mark.data());
                clear_masks(ws, c.all(), W);
                return 0;
            });
            for (size_t i = 0; i < mark.size(); ++i)
                if (mark[i]) out.append(i);
            return out;
        },
        "Indices into ref of one LCS, chosen exactly as rouge-score's lcs_ind. "
        "O(m * n / w) time; memory O(m * n / w) words up to a limit, rows recomputed beyond it.");
    m.def(
        "union_lcs_overlap",
        [](py::handle ref_sents, py::handle pred_sents) {
            py::dict ids;
            Doc r = doc_sents(ref_sents, ids), p = doc_sents(pred_sents, ids);
            return with_workspace(PyDict_Size(ids.ptr()), [&](Workspace& ws) {
                int64_t h, a, b;
                union_lcs(ws, r, p, h, a, b);
                return py::make_tuple(h, a, b);
            });
        },
        "Summary-level LCS (rougeLsum), exactly rouge-score's _summary_level_lcs: (hits, prediction "
        "tokens, reference tokens). O(sum over sentence pairs of |r| * |c| / w) time, bounded memory.");
    m.def(
        "wlcs_overlap",
        [](py::handle ref_sents, py::handle pred_sents, double weight) {
            py::dict ids;
            Doc r = doc_sents(ref_sents, ids), p = doc_sents(pred_sents, ids);
            return with_workspace(PyDict_Size(ids.ptr()), [&](Workspace& ws) {
                Stats s = wlcs(ws, r, p, weight);
                return py::make_tuple(s.hit, s.pt, s.rt, s.sel);
            });
        },
        "ROUGE-W exactly as ROUGE-1.5.5: (hit, pred_total, ref_total, select). "
        "O(sum over sentence pairs |r| * |c|) time, bounded memory. OverflowError when k**weight "
        "overflows a double on this input.");

    m.def("wpow", &wpow, py::arg("x"), py::arg("y"),
          "x ** y for x >= 0, y > 0, the same double on every platform: core_py.wpow (ROUGE-W's powers).");
    m.def(
        "_set_limits",
        [](py::object mask_bytes, py::object row_bytes, py::object trim_bytes) {
            Limits l = current_limits();
            if (!mask_bytes.is_none()) l.mask_bytes = mask_bytes.cast<size_t>();
            if (!row_bytes.is_none()) l.row_bytes = row_bytes.cast<size_t>();
            if (!trim_bytes.is_none()) l.trim_bytes = trim_bytes.cast<size_t>();
            set_limits(l);
            return py::make_tuple(l.mask_bytes, l.row_bytes, l.trim_bytes);
        },
        py::arg("mask_bytes") = py::none(), py::arg("row_bytes") = py::none(), py::arg("trim_bytes") = py::none(),
        "Tests only: the memory limits beyond which the kernels take their bounded-memory paths "
        "(same results); returns the limits in force (mask_bytes, row_bytes, trim_bytes).");
    m.attr("CHECKED") = py::bool_(ROUGE_METRIC_CHECKED != 0);
    m.def(
        "porter_stem",
        [](py::handle word) { return stem_word(word, porter_stem); },
        py::arg("word"),
        "nltk's PorterStemmer().stem(word) (NLTK_EXTENSIONS), computed in C++; None when word is not ASCII.");

    m.def(
        "perl_porter_stem",
        [](py::handle word) { return stem_word(word, perl_stem); },
        py::arg("word"),
        "rouge_metric.perl_porter.stem(word) (ROUGE-1.5.5's Porter), computed in C++; None when word is not "
        "[a-z0-9] or longer than 60 characters.");

    py::class_<Vocab, std::shared_ptr<Vocab>>(m, "Vocab",
                                              "Token interning and stem cache of one (tokenizer, stemmer).")
        .def(py::init<int, py::object, int, bool, bool>(), py::arg("tokenizer"), py::arg("stem"),
             py::arg("min_len") = 3, py::arg("native_porter") = false, py::arg("native_perl_porter") = false)
        .def_readonly("native_porter", &Vocab::native_porter, "Whether ASCII tokens are stemmed by the native Porter.")
        .def_readonly("native_perl_porter", &Vocab::native_perl,
                      "Whether [a-z0-9] tokens are stemmed by the native ROUGE-1.5.5 Porter (perl_porter).")
        .def_property_readonly("size", [](Vocab& v) {
            VocabLock lk(v);
            return v.nid;
        })
        .def("tokenize",
             [](Vocab& v, py::handle text) {
                 Text t;
                 if (!get_text(text.ptr(), t)) throw py::type_error("text: expected str");
                 Doc d;
                 TokBuf cur;
                 {
                     VocabLock lk(v);
                     tokenize_doc<true>(v, t, d, cur, nullptr);
                 }
                 py::list sents;
                 for (size_t k = 0; k < d.nsent(); ++k) {
                     py::list s;
                     for (size_t i = d.sb[2 * k]; i < d.sb[2 * k + 1]; ++i) s.append(d.ids[i]);
                     sents.append(s);
                 }
                 return sents;
             },
             "Token ids of text, per non-empty sentence (newline-split); for tests.");

    m.def(
        "resample_means",
        [](py::array_t<double, py::array::c_style | py::array::forcecast> table,
           py::array_t<int64_t, py::array::c_style | py::array::forcecast> idx) {
            if (table.ndim() != 2) throw py::value_error("table: expected a 2-d array of float64");
            if (idx.ndim() != 2) throw py::value_error("idx: expected a 2-d array of int64");
            const int64_t n_items = table.shape(0), k = table.shape(1), b = idx.shape(0), n = idx.shape(1);
            if (n == 0 && b > 0) throw py::value_error("idx: index rows of length 0 have no mean");
            py::array_t<double> out({b, k});
            const double* tp = table.data();
            const int64_t* ip = idx.data();
            double* op = out.mutable_data();
            int64_t bad;
            {
                py::gil_scoped_release nogil;  // the arrays are kept alive by this frame
                bad = resample_means(tp, n_items, k, ip, b, n, op);
            }
            if (bad >= 0)
                throw py::index_error("idx[" + std::to_string(bad / n) + ", " + std::to_string(bad % n) +
                                      "]: index out of range for a table of " + std::to_string(n_items) + " rows");
            return out;
        },
        py::arg("table"), py::arg("idx"),
        "out[r] = table[idx[r]].mean(axis=0), summed left to right (numpy's floats). O(b * n * k).");

    py::class_<PyScorer>(m, "Scorer", "The default pipeline and all kernels in C++, for one configuration.")
        .def(py::init<std::shared_ptr<Vocab>, py::list, int, int, double, py::object>(), py::arg("vocab"),
             py::arg("specs"), py::arg("mode"), py::arg("fkind"), py::arg("fparam"), py::arg("score_type"))
        .def("score", &PyScorer::score, py::arg("prediction"), py::arg("references"), py::arg("mode") = -1,
             "{type: Score} of one example, or None when the input needs Python validation. "
             "O(tokenize + kernels) with the GIL held.")
        .def("batch", &PyScorer::batch, py::arg("predictions"), py::arg("references"), py::arg("num_threads") = 1,
             py::arg("want_values") = false, py::arg("want_dicts") = false, py::arg("first_index") = 0,
             "Score a batch on num_threads threads without the GIL; see bindings.cpp for the result.")
        .def("batch_ids", &PyScorer::batch_ids, py::arg("predictions"), py::arg("references"),
             py::arg("num_threads") = 1, py::arg("want_values") = false, py::arg("want_dicts") = false,
             py::arg("first_index") = 0, py::arg("ignore_ids") = py::tuple(), py::arg("sentence_ids") = py::tuple(),
             "Score a batch of token-id sequences on num_threads threads without the GIL (ids read and "
             "interned first, O(total ids)); the result of batch, or None when the input needs Python "
             "validation.");
}
