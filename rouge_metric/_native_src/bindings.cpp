// rouge_metric._native: the Python module of the native core (the only translation unit), and the
// binding layer's entry point.
//
// Same functions and the same numbers as rouge_metric/core_py.py (the reference and the docs of
// every kernel), plus a Scorer that runs the whole default pipeline (tokenize -> stem cache ->
// intern -> kernels -> multi-reference combine -> P/R/F) in C++, for one pair with the GIL held or
// for a batch on N threads without the GIL. The core (every header but py_*.hpp) is plain C++ and
// compiles without Python.h; this file and the py_*.hpp headers are the only ones that touch CPython:
// they give the core its host (the GIL and signal handlers, host.hpp), its Python stemmer, its texts
// and ids, and make its results Python objects. The files, and who owns what when threads run, are
// listed in common.hpp; docs/native.md explains them.
//
// One file over 400 lines: it is the module's one PYBIND11_MODULE definition (every name the module
// exports, in one place) and the small helpers only it uses.
//
// Floating point: compiled with -ffp-contract=off and without -ffast-math; every expression is
// written in the order of the Python code it mirrors, so the doubles are bit-identical.
//
// Ownership here: everything below runs with the GIL held, except inside Scorer::batch, which
// releases it for its parallel phases (batch.hpp), and score_id_batch (ids.hpp). The str objects whose
// data the batch reads while the GIL is released are pinned first (py_text.hpp); the id batch copies
// every id into its own buffers before it releases the GIL (py_ids.hpp).

// pybind11 first: Python.h must come before any standard header.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "batch.hpp"
#include "common.hpp"
#include "host.hpp"
#include "ids.hpp"
#include "kernels_lcs.hpp"
#include "kernels_ngram.hpp"
#include "kernels_resample.hpp"
#include "kernels_wlcs.hpp"
#include "py_ids.hpp"
#include "py_jieba.hpp"
#include "py_pair.hpp"
#include "py_scorer.hpp"
#include "py_stemmers.hpp"
#include "py_xlsum.hpp"
#include "py_text.hpp"
#include "simd.hpp"
#include "vocab.hpp"
#include "wpow.hpp"

namespace py = pybind11;
using namespace rouge;

namespace {

// ---------------------------------------------------------------------------------- the host
// The core's host (host.hpp) is this interpreter: its lock is the GIL (what py::gil_scoped_release
// does), and its signal handlers run through PyErr_CheckSignals, taking the GIL when the polling
// thread let go of it (the exception a handler raises stays set in that thread's state).
void* host_release() { return PyEval_SaveThread(); }
void host_acquire(void* state) { PyEval_RestoreThread((PyThreadState*)state); }
int host_check_signals(bool holds_gil) {
    if (holds_gil) return PyErr_CheckSignals();
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = PyErr_CheckSignals();
    PyGILState_Release(g);
    return rc;
}

// The Python stemmer of a Vocab (text.CachedStemmer.stem_token: str -> str | None), as the core's
// ExternalStem (vocab.hpp): the token decoded as the tokenizer wrote it (UTF-8, lone surrogates
// kept), the stem encoded back the same way. Called with the GIL held; a Python error propagates.
struct PythonStem {
    py::object fn;
    bool operator()(const char* p, size_t n, std::string& out) const {
        PyObject* s = PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "surrogatepass");
        if (!s) throw py::error_already_set();
        py::object o = fn(py::reinterpret_steal<py::object>(s));
        if (o.is_none()) return false;
        if (!PyUnicode_Check(o.ptr())) throw py::type_error("rouge_metric: the stemmer returned a non-str stem");
        PyObject* b = PyUnicode_AsEncodedString(o.ptr(), "utf-8", "surrogatepass");
        if (!b) throw py::error_already_set();
        py::object keep = py::reinterpret_steal<py::object>(b);
        out.assign(PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
        return true;
    }
};

// ------------------------------------------------------------------- kernels on Python sequences
// Token sequences of any hashable values are mapped to ids through a dict, then the int kernels run
// on this thread's workspace (GIL held; interruptible; discarded when a call fails).
void intern_seq(py::handle seq, py::dict& ids, IdVec& out) {
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

// ROUGE_METRIC_SIMD's error, if its value was refused at import (raised at first use).
std::string SIMD_ENV_ERROR;
void check_simd_env() {
    if (!SIMD_ENV_ERROR.empty()) throw py::value_error(SIMD_ENV_ERROR);
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "Compiled ROUGE kernels and batch scorer (same functions and results as rouge_metric.core_py).";

    HOST.release = host_release;
    HOST.acquire = host_acquire;
    HOST.check_signals = host_check_signals;

    // The text scan's SIMD level (simd.hpp): the CPU's best, or ROUGE_METRIC_SIMD. A bad value (a level
    // the CPU lacks, an unknown name) is raised as ValueError by simd_level() and by every Vocab
    // constructor (every text pipeline needs one): an ImportError here would make the package fall back
    // to the Python backend, and the level must never be silently other than the one asked for.
    {
        const char* env = std::getenv("ROUGE_METRIC_SIMD");
        std::string err = set_simd_level(env);
        if (!err.empty()) SIMD_ENV_ERROR = std::string("ROUGE_METRIC_SIMD=") + env + ": " + err;
    }
    m.def("simd_level", []() {
              check_simd_env();
              return std::string(SIMD_NAMES[simd_level()]);
          },
          "The SIMD level of the text scan in this process: scalar, sse2, avx2 or avx512 (the numbers never "
          "depend on it; ROUGE_METRIC_SIMD lowers it at import).");
    m.def("simd_levels", []() {
              py::list out;
              for (int l = 0; l <= simd_detect(); ++l)
                  if (l == SIMD_SCALAR || l >= simd_baseline()) out.append(SIMD_NAMES[l]);
              return out;
          },
          "The SIMD levels this CPU and build can run, lowest first.");
    m.def("_set_simd_level", [](const std::string& name) {
              std::string err = set_simd_level(name.c_str());
              if (!err.empty()) throw py::value_error("name: " + err);
              SIMD_ENV_ERROR.clear();
              return std::string(SIMD_NAMES[simd_level()]);
          },
          py::arg("name"), "Tests only: switch the text scan to another level (or \"auto\"); returns it.");

    // A Ctrl-C seen by a poll: the KeyboardInterrupt (or the signal handler's exception) is already
    // set in the caller's thread state.
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const SignalRaised&) {
            if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        }
    });

    // The configuration enums of the core; their member names are the Python settings' strings
    // (config.TypeSpec.kind, RougeConfig.multi_ref, the tokenizer), so Python maps a setting by name:
    // getattr(_native.Kind, spec.kind).
    py::enum_<Kind>(m, "Kind", "The kind of a rouge type: ROUGE-N, rougeL, rougeLsum, rougeW, ROUGE-S/SU.")
        .value("ngram", Kind::NGRAM)
        .value("lcs", Kind::LCS)
        .value("lcsum", Kind::LCSUM)
        .value("wlcs", Kind::WLCS)
        .value("skip", Kind::SKIP);
    py::enum_<Mode> modes(m, "Mode", "Multi-reference mode: best F, mean of P/R/F, pooled statistics, best recall.");
    modes.value("max", Mode::MAX).value("mean", Mode::MEAN).value("pool", Mode::POOL).value("best_recall", Mode::BEST_RECALL);
    const char* mode_names[4] = {"max", "mean", "pool", "best_recall"};
    for (int k = 0; k < 4; ++k)  // the members themselves (Mode.max is one object), held for the process
        MODE_MEMBERS[k] = py::object(modes.attr(mode_names[k])).inc_ref().ptr();
    py::enum_<FMeasure>(m, "FMeasure",
                        "F-measure: f1 = 2PR/(P+R); alpha = ROUGE-1.5.5's, fparam = alpha; beta = F-beta, "
                        "fparam = beta * beta.")
        .value("f1", FMeasure::F1)
        .value("alpha", FMeasure::ALPHA)
        .value("beta", FMeasure::BETA);
    py::enum_<Tokenizer>(m, "Tokenizer", "The tokenizers of the native pipeline: rouge-score's default, str.split().")
        .value("default", Tokenizer::DEFAULT)
        .value("whitespace", Tokenizer::WHITESPACE);

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
        [](py::object mask_bytes, py::object row_bytes, py::object trim_bytes, py::object saved_bytes,
           py::object restart_ratio) {
            Limits l = current_limits();
            if (!mask_bytes.is_none()) l.mask_bytes = mask_bytes.cast<size_t>();
            if (!row_bytes.is_none()) l.row_bytes = row_bytes.cast<size_t>();
            if (!trim_bytes.is_none()) l.trim_bytes = trim_bytes.cast<size_t>();
            if (!saved_bytes.is_none()) l.saved_bytes = saved_bytes.cast<size_t>();
            if (!restart_ratio.is_none()) l.restart_ratio = restart_ratio.cast<size_t>();
            set_limits(l);
            return py::make_tuple(l.mask_bytes, l.row_bytes, l.trim_bytes, l.saved_bytes, l.restart_ratio);
        },
        py::arg("mask_bytes") = py::none(), py::arg("row_bytes") = py::none(), py::arg("trim_bytes") = py::none(),
        py::arg("saved_bytes") = py::none(), py::arg("restart_ratio") = py::none(),
        "Tests only: the memory limits beyond which the kernels take their bounded-memory paths, the "
        "docs a first batch keeps from building the vocabulary to scoring, and how small a vocabulary "
        "must be for a batch on several threads to start it again (0: never); same results either way. "
        "Returns the limits in force (mask_bytes, row_bytes, trim_bytes, saved_bytes, restart_ratio).");
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
        .def(py::init([](Tokenizer tokenizer, py::object stem, int min_len, bool native_porter, bool native_perl) {
                 check_simd_env();
                 ExternalStem ext;
                 if (!stem.is_none()) ext = PythonStem{stem};
                 return std::make_shared<Vocab>(tokenizer, std::move(ext), min_len, native_porter, native_perl);
             }),
             py::arg("tokenizer"), py::arg("stem"), py::arg("min_len") = 3, py::arg("native_porter") = false,
             py::arg("native_perl_porter") = false)
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

    py::class_<Batch>(m, "Batch",
                      "The result of Scorer.batch / batch_ids (read-only). n: examples; values: bytes of n*T*3 "
                      "float64 (example-major, then type, then P, R, F; empty when not asked for); lengths: bytes "
                      "of 2n float64 (prediction length, mean reference length per example); partials: the exact "
                      "(Shewchuk) partial sums of the 3T + 2 columns (P, R, F per type, then the two lengths), a "
                      "list of lists of float; scores: the {type: Score} dict of every example, or None when not "
                      "asked for.")
        .def_readonly("n", &Batch::n)
        .def_readonly("values", &Batch::values)
        .def_readonly("lengths", &Batch::lengths)
        .def_readonly("partials", &Batch::partials)
        .def_readonly("scores", &Batch::scores)
        .def("__repr__", [](const Batch& b) { return "<rouge_metric._native.Batch of " + std::to_string(b.n) + " examples>"; });

    m.def(
        "plain_texts", [](py::handle preds, py::handle refs) { return plain_texts(preds.ptr(), refs.ptr()); },
        py::arg("predictions"), py::arg("references"),
        "Whether a batch is plain (inputs.plain_batch): lists of the same non-zero length, every prediction "
        "a str, every reference a str or a non-empty list of str (exact types). O(texts).");
    ready_pair_fn_type();
    m.attr("PairFunction") = py::handle((PyObject*)&PAIR_FN_TYPE);
    ready_pair_plan_type();
    m.attr("PairPlan") = py::handle((PyObject*)&PAIR_PLAN_TYPE);
    ready_pair_method_type();
    m.attr("PairMethod") = py::handle((PyObject*)&PAIR_METHOD_TYPE);
    py::class_<PyScorer>(m, "Scorer", "The default pipeline and all kernels in C++, for one configuration.")
        .def(py::init<std::shared_ptr<Vocab>, py::list, Mode, FMeasure, double, py::object>(), py::arg("vocab"),
             py::arg("specs"), py::arg("mode"), py::arg("fmeasure"), py::arg("fparam"), py::arg("score_type"),
             "specs: (name, Kind, n, skip, unigrams, weight) per rouge type; mode: the multi-reference Mode; "
             "fmeasure and fparam: the FMeasure and its parameter; score_type: the tuple subclass of the scores.")
        .def_property_readonly("vocab", [](const PyScorer& s) { return s.core.vocab; },
                               "The Vocab this scorer interns its tokens in (shared by every scorer of its "
                               "tokenizer and stemmer).")
        .def("score", &PyScorer::score, py::arg("prediction"), py::arg("references"), py::arg("mode") = py::none(),
             "{type: Score} of one example (mode: a Mode, or None for the scorer's), or None when the input "
             "needs Python validation. O(tokenize + kernels) with the GIL held.")
        .def("pair_function", &make_pair_fn, py::arg("refs_first"), py::arg("refs_list"), py::arg("mode"),
             py::arg("fallback"), py::arg("zero_decline") = py::none(),
             "A PairFunction f(a, b) -> {type: Score} of this scorer: refs_first: f(references, prediction) "
             "(rouge-score's order), else f(prediction, references); refs_list: references a non-empty list "
             "or tuple of str, else one str; mode: a Mode, or None for the scorer's. Exact str input is scored "
             "here (O(tokenize + kernels), the GIL held); any other call goes to fallback(*args, **kwargs), as "
             "does a call in which a type flagged in zero_decline (None, or one bool per type) scores P = R "
             "= F = 0.")
        .def("batch", &PyScorer::batch, py::arg("predictions"), py::arg("references"), py::arg("num_threads") = 1,
             py::arg("want_values") = false, py::arg("want_dicts") = false, py::arg("first_index") = 0,
             py::arg("stop") = -1,
             "Score a batch on num_threads threads without the GIL: a Batch, or None when the input needs "
             "Python validation. With stop >= 0 the lists are the whole input and the batch their items "
             "[first_index, stop); else the lists are the batch and first_index the input index of their first "
             "item (for errors).")
        .def("batch_ids", &PyScorer::batch_ids, py::arg("predictions"), py::arg("references"),
             py::arg("num_threads") = 1, py::arg("want_values") = false, py::arg("want_dicts") = false,
             py::arg("first_index") = 0, py::arg("ignore_ids") = py::tuple(), py::arg("sentence_ids") = py::tuple(),
             "Score a batch of token-id sequences on num_threads threads without the GIL (ids read and "
             "interned first, O(total ids)): a Batch, or None when the input needs Python validation.");

    // The language stemmers' twins (py_stemmers.hpp): LanguageStemmer, language_stemmers().
    bind_language_stemmers(m);
    // XL-Sum's text cleaner (py_xlsum.hpp): xlsum_clean().
    bind_xlsum(m);
    // ------------------------------------------------------------- jieba's word segmentation
    bind_jieba(m);  // JiebaModel, jieba_load (py_jieba.hpp)
}
