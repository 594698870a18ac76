// Shared definitions of the native core: includes, the checked-build switch, token sequences.
//
// Layout of rouge_metric/_native_src (one translation unit, bindings.cpp, includes the rest; each file
// follows one step of the Python data path, see docs/native.md). The core compiles without Python.h:
// only the binding layer (bindings.cpp and the py_*.hpp headers) reads Python objects.
//
// The core (plain C++17; tests/cpp/kernels_check.cpp builds and tests it without Python):
//   common.hpp     this file                     hash.hpp       string and pair hash tables
//   portable.hpp   compiler builtins (popcount, bit scans, prefetch, inlining) for GCC/Clang and MSVC
//   x86_intrinsics.hpp  the x86 intrinsics headers, without GCC 12's false warnings on them
//   host.hpp       what the core asks of the program that embeds it (an interpreter lock, signals)
//   interrupt.hpp  Ctrl-C and errors across threads
//   simd.hpp       runtime CPU dispatch: the SIMD level of the text scan
//   text.hpp       text -> tokens (rouge-score's default tokenizer, whitespace), at each SIMD level
//   porter.hpp, perl_porter.hpp  the two Porter stemmers (nltk's, ROUGE-1.5.5's), pure functions
//   vocab.hpp      tokens -> ids: interning and the stem cache (shared by threads, see its header)
//   workspace.hpp  per-thread scratch space of the kernels
//   kernels_ngram.hpp, kernels_lcs.hpp, kernels_wlcs.hpp, rows.hpp
//                  ids -> sufficient statistics (core_py.py is the reference of every kernel)
//   scoring.hpp    statistics -> P/R/F, the rouge kinds, multi-reference modes and F-measures, exact sums
//   kernels_resample.hpp  resampled means for the bootstrap and the paired tests (aggregate.py)
//   batch.hpp      one example, or a batch on N threads (see its header)
//   ids.hpp        token ids as input: an interned batch scored like batch.hpp's
//   jieba.hpp      Chinese words: jieba's cut (prefix dictionary, route, HMM), and loading its tables
// The binding layer (CPython and pybind11):
//   py_text.hpp    str objects -> texts, kept alive for a call (Pins)
//   py_ids.hpp     Python lists of int ids -> an interned id batch
//   py_jieba.hpp   the jieba segmenter's model: loading it with Python's float parser and math.log, cuts
//   py_scorer.hpp  the Python face of a Scorer: Score dicts, the Batch result
//   py_pair.hpp    the per-pair entry points: PairFunction, PairMethod and its PairPlan
//   bindings.cpp   the module: the host hooks, enums, classes and kernel functions
#pragma once

#include "portable.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

// ROUGE_METRIC_CHECKED=1 (the sanitizer builds, see setup.py): invariants that the fast build assumes
// are checked, and a violation aborts with a message (the sanitizers then print the stack).
#ifndef ROUGE_METRIC_CHECKED
#define ROUGE_METRIC_CHECKED 0
#endif
#define ROUGE_CHECK(cond, what)                                                                   \
    do {                                                                                          \
        if (ROUGE_METRIC_CHECKED && !(cond)) {                                                    \
            std::fprintf(stderr, "rouge_metric._native: check failed at %s:%d: %s\n", __FILE__, \
                         __LINE__, what);                                                         \
            std::abort();                                                                         \
        }                                                                                         \
    } while (0)

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// Allocator of vectors that are always written before they are read: resize() leaves new elements of
// a trivial type uninitialized (default-initialized) instead of zeroing them, so that a buffer reused
// for texts of varying length is not cleared again at every growth within its capacity. Only for
// buffers whose every read index was written first (resize(n, value) still fills).
template <class T>
struct NoInitAlloc : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = NoInitAlloc<U>;
    };
    NoInitAlloc() = default;
    template <class U>
    NoInitAlloc(const NoInitAlloc<U>&) noexcept {}
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible<U>::value) {
        ::new ((void*)p) U;
    }
    template <class U, class... A>
    void construct(U* p, A&&... a) {
        ::new ((void*)p) U(std::forward<A>(a)...);
    }
};

// A growable array of a trivially copyable T for the per-text and per-pair buffers (token ids,
// sentence bounds): resize(n) leaves new elements uninitialized, as NoInitAlloc does, and is one
// predictable branch (whether the storage must grow) and a store of the size. std::vector's resize
// also branches on whether n is above or below the current size, which goes up and down from one text
// to the next: about one mispredicted branch per resize, dozens per pair. The storage never shrinks
// (a std::vector's does not either; an owner that wants its memory back swaps in an empty one).
// Only for buffers whose every read index was written first. The subset of
// std::vector's interface the core uses, with the same meaning.
template <class T>
class PodVec {
    static_assert(std::is_trivially_copyable<T>::value, "PodVec holds trivially copyable values");
    T* p_ = nullptr;
    size_t n_ = 0, cap_ = 0;

    // Storage for c >= n_ elements, the first n_ kept.
    void reallocate(size_t c) {
        if (c > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        T* q = static_cast<T*>(::operator new(c * sizeof(T)));
        if (n_) std::memcpy((void*)q, (const void*)p_, n_ * sizeof(T));
        ::operator delete(p_);
        p_ = q;
        cap_ = c;
    }
    ROUGE_NOINLINE void grow(size_t n) { reallocate(std::max<size_t>({n, 2 * cap_, 16})); }

   public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    PodVec() = default;
    PodVec(const PodVec& o) { assign(o.begin(), o.end()); }
    PodVec(PodVec&& o) noexcept : p_(o.p_), n_(o.n_), cap_(o.cap_) { o.p_ = nullptr, o.n_ = o.cap_ = 0; }
    PodVec& operator=(const PodVec& o) {
        if (this != &o) assign(o.begin(), o.end());
        return *this;
    }
    PodVec& operator=(PodVec&& o) noexcept {
        PodVec(std::move(o)).swap(*this);
        return *this;
    }
    ~PodVec() { ::operator delete(p_); }
    void swap(PodVec& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        std::swap(cap_, o.cap_);
    }

    size_t size() const { return n_; }
    size_t capacity() const { return cap_; }
    bool empty() const { return n_ == 0; }
    T* data() { return p_; }
    const T* data() const { return p_; }
    T* begin() { return p_; }
    T* end() { return p_ + n_; }
    const T* begin() const { return p_; }
    const T* end() const { return p_ + n_; }
    T& operator[](size_t i) { return p_[i]; }
    const T& operator[](size_t i) const { return p_[i]; }

    void resize(size_t n) {
        if (n > cap_) grow(n);
        n_ = n;
    }
    void clear() { n_ = 0; }
    void push_back(T v) {
        if (n_ == cap_) grow(n_ + 1);
        p_[n_++] = v;
    }
    // [a, b) of pointers (or of random-access iterators) to elements of another array.
    template <class It>
    void assign(It a, It b) {
        const size_t n = (size_t)(b - a);
        resize(n);
        for (size_t i = 0; i < n; ++i, ++a) p_[i] = *a;
    }
};
using IdVec = PodVec<int32_t>;
using OffVec = PodVec<uint32_t>;

// A sequence of token ids.
struct Seq {
    const int32_t* p;
    size_t n;
};

// A tokenized text: all token ids, and the [begin, end) offsets of its non-empty sentences.
struct Doc {
    IdVec ids;  // written before read (tokenize_doc, finish_doc, the kernels' reductions)
    OffVec sb;  // sentence boundaries: sentence k is ids[sb[2k], sb[2k+1])
    // A batch's doc with unknown tokens (vocab.hpp, tokenize_doc): ids are raw, ends the sentence ends.
    bool pending = false;
    OffVec ends;
    size_t nsent() const { return sb.size() / 2; }
    Seq sent(size_t k) const { return Seq{ids.data() + sb[2 * k], (size_t)(sb[2 * k + 1] - sb[2 * k])}; }
    Seq all() const { return Seq{ids.data(), ids.size()}; }
    void clear() {
        ids.clear();
        sb.clear();
    }
    // The largest id + 1 (0 when empty): the workspace size the kernels need for this text.
    size_t id_bound() const {
        int32_t m = -1;
        for (int32_t x : ids) m = std::max(m, x);
        return (size_t)(m + 1);
    }
};

// Sufficient statistics of one (prediction, reference, type): hits, prediction total, reference
// total, and the value best_recall selects on.
struct Stats {
    double hit, pt, rt, sel;
};

}  // namespace
}  // namespace rouge
