// Tokens -> ids: the vocabulary of one (tokenizer, stemmer), shared by every scorer and thread of
// the process that uses that configuration (rouge_metric.core.native_vocab).
//
// Ownership and the rule that makes the batch safe:
// - A Vocab (its maps `raw` and `final_`, and `nid`) changes only in resolve()/intern(), called by a
//   thread that holds both the GIL (the stemmer is Python) and `mu`.
// - A batch holds `mu` from start to end. While its threads run (without the GIL) the Vocab is
//   read-only: they only look tokens up (tokenize_doc<false>) and record the unknown ones in their
//   own Misses. Between the parallel phases the calling thread, holding the GIL and `mu`, resolves
//   every thread's misses; only after that are the workspaces sized (batch.hpp, prepare_phase), so
//   every id a thread can meet in the next phase is < vocab.nid <= its workspace size.
// - Misses, TokBuf and Doc belong to one thread.
#pragma once

#include <pybind11/pybind11.h>

#include <mutex>

#include "common.hpp"
#include "hash.hpp"
#include "text.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions
namespace py = pybind11;

// A raw token: bytes (ASCII for the default tokenizer, UTF-8 for whitespace) and its length in
// code points (stemming applies to tokens longer than min_len code points).
struct RawTok {
    std::string s;
    size_t cps = 0;
};

// The distinct unknown tokens one thread met in a phase: memory O(distinct tokens), whatever the
// number of their occurrences.
struct Misses {
    StrMap seen;
    std::vector<RawTok> list;
    void add(const Key& k, size_t cps) {
        if (seen.find(k)) return;
        seen.insert(k, 0);
        list.push_back(RawTok{std::string(k.p, k.n), cps});
    }
    void clear() {  // and give the memory back
        seen.clear();
        std::vector<RawTok>().swap(list);
    }
};

// Token interning and the stem cache: raw token -> final id (-1: the stem is not a valid token,
// dropped). Misses call the Python stemmer (GIL held).
struct Vocab {
    int tokenizer;
    py::object stem;  // callable str -> str | None, or None
    int min_len;      // tokens of at most min_len code points are not stemmed
    StrMap raw, final_;
    int32_t nid = 0;
    std::mutex mu;

    Vocab(int tok, py::object st, int ml) : tokenizer(tok), stem(std::move(st)), min_len(ml) {}

    int32_t intern(const char* p, size_t n) {
        Key k = make_key(p, n);
        const int32_t* v = final_.find(k);
        if (v) return *v;
        if (nid == INT32_MAX) throw std::length_error("rouge_metric: more than 2^31 distinct tokens");
        final_.insert(k, nid);
        return nid++;
    }
    // Resolve a raw token (GIL and mu held). Throws py::error_already_set on a stemmer error.
    int32_t resolve(const char* tp, size_t tn, size_t cps) {
        Key key = make_key(tp, tn);
        const int32_t* v = raw.find(key);
        if (v) return *v;
        int32_t id;
        if (stem.is_none() || cps <= (size_t)min_len) {
            id = intern(tp, tn);
        } else {
            PyObject* s = PyUnicode_DecodeUTF8(tp, (Py_ssize_t)tn, "surrogatepass");
            if (!s) throw py::error_already_set();
            py::object out = stem(py::reinterpret_steal<py::object>(s));
            if (out.is_none()) {
                id = -1;
            } else {
                Py_ssize_t n;
                const char* u = PyUnicode_AsUTF8AndSize(out.ptr(), &n);
                if (!u) throw py::error_already_set();
                id = intern(u, (size_t)n);
            }
        }
        raw.insert(key, id);
        return id;
    }
};

// Tokenize into doc. With RESOLVE=false (no GIL, no writes to the Vocab) unknown tokens go to misses
// (when given) and false is returned. The map slots of all the tokens are prefetched before the first lookup, so
// the cache misses of a large vocabulary overlap. O(text length + tokens).
template <bool RESOLVE>
bool tokenize_doc(Vocab& vb, const Text& t, Doc& doc, TokBuf& cur, Misses* misses) {
    collect_tokens(vb.tokenizer, t, cur, vb.raw);
    size_t nt = cur.nt;
    const Key* keys = cur.keys.data();
    doc.sb.clear();
    doc.ids.resize(nt);
    int32_t* ids = doc.ids.data();
    int32_t neg = 0;
    if (RESOLVE) {
        for (size_t k = 0; k < nt; ++k) neg |= ids[k] = vb.resolve(keys[k].p, keys[k].n, cur.cps_of(k));
    } else {
        if (!cur.ascii)
            for (size_t k = 0; k < nt; ++k) vb.raw.prefetch(keys[k]);  // the fast path did it while hashing
        for (size_t k = 0; k < nt; ++k) {
            const int32_t* v = vb.raw.find(keys[k]);
            neg |= ids[k] = v ? *v : -2;
        }
    }
    if (neg >= 0) {  // every token known and kept: the sentences are the ends
        uint32_t start = 0;
        for (uint32_t e : cur.ends) {
            if (e > start) {
                doc.sb.push_back(start);
                doc.sb.push_back(e);
            }
            start = e;
        }
        return true;
    }
    // Drop the tokens whose stem is not a token (-1), collect the unknown ones (-2), cut sentences.
    bool ok = true;
    size_t w = 0, k = 0, start = 0;
    for (uint32_t e : cur.ends) {
        for (; k < e; ++k) {
            int32_t id = ids[k];
            if (id >= 0) {
                ids[w++] = id;
            } else if (id == -2) {  // only without RESOLVE (resolve() gives ids >= -1)
                ok = false;
                if constexpr (!RESOLVE)
                    if (misses) misses->add(keys[k], cur.cps_of(k));
            }
        }
        if (w > start) {
            doc.sb.push_back((uint32_t)start);
            doc.sb.push_back((uint32_t)w);
        }
        start = w;
    }
    doc.ids.resize(w);
    return ok;
}

// The texts of one example (the prediction, then its k references) into docs[0, k + 1); false when
// RESOLVE is false and a text has unknown tokens (collected in misses).
template <bool RESOLVE>
bool tokenize_example(Vocab& vb, const Text& pred, const Text* refs, size_t k, std::vector<Doc>& docs, TokBuf& cur,
                      Misses* misses) {
    if (docs.size() < k + 1) docs.resize(k + 1);
    bool ok = tokenize_doc<RESOLVE>(vb, pred, docs[0], cur, misses);
    for (size_t j = 0; j < k; ++j) ok &= tokenize_doc<RESOLVE>(vb, refs[j], docs[j + 1], cur, misses);
    return ok;
}

// Lock a vocab from a thread that holds the GIL without deadlocking against a batch in progress
// (the batch may need the GIL to stem while it holds mu).
struct VocabLock {
    std::unique_lock<std::mutex> lk;
    explicit VocabLock(Vocab& v) : lk(v.mu, std::try_to_lock) {
        if (!lk.owns_lock()) {
            py::gil_scoped_release nogil;
            lk.lock();
        }
    }
};

}  // namespace
}  // namespace rouge
