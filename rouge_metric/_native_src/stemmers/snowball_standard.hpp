// What nltk's `_StandardStemmer` family (nltk.stem.snowball: dutch, english, finnish, french, german, italian,
// portuguese, romanian, spanish) shares, for their C++ twins: Python's string operations on code points,
// exactly as the originals use them, and the standard regions R1, R2 (`_r1r2_standard`) and RV
// (`_rv_standard`). Plain C++17, no Python.h; pure functions (any thread).
//
// The originals keep each region as a str of its own, cut and rewritten step by step alongside the word, and
// not always the same way (a region can keep a suffix the word has lost, or hold text the word no longer
// ends with); they test it with `in` (substring search anywhere in the region), `endswith`, `index`/`rindex`
// and slices. A twin therefore keeps each region it changes in a `Str` of its own and does to it exactly what
// the original does; a region the original never changes is a `View` of the word as it was when the regions
// were computed. Indexing follows Python: negative indices count from the end, and an index out of range
// throws std::out_of_range (the binding raises IndexError, as the original would). `Lit`, `View`, the tests of
// one string (eq, endswith, startswith) and the suffix lists (`Suffixes`) are every twin's, in stem_common.hpp.
//
// Cost: every operation is O(length of its operands); a `Str` keeps up to 48 code points without allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>

#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace sb {

// A set of characters written as a literal (`c in "aeiouy..."` of the originals, for one character c). Every
// set of these stemmers is within U+0000..U+017F (Latin-1 and Latin Extended-A); a literal with a code point
// beyond fails to compile.
class Chars {
  public:
    template <size_t N>
    constexpr Chars(const char32_t (&a)[N]) : bits_{} {
        for (size_t i = 0; i + 1 < N; ++i) {
            if (a[i] >= LIMIT) throw "Chars: a code point beyond U+017F";
            bits_[a[i] >> 6] |= uint64_t(1) << (a[i] & 63);
        }
    }
    constexpr bool has(char32_t c) const { return c < LIMIT && ((bits_[c >> 6] >> (c & 63)) & 1); }

  private:
    static constexpr char32_t LIMIT = 0x180;
    uint64_t bits_[6];
};

// A string the twin changes (the word, a region): its own code points, kept inline up to 48.
class Str {
  public:
    Str() = default;
    explicit Str(View v) { assign(v); }
    Str(const Str&) = delete;
    Str& operator=(const Str&) = delete;
    ~Str() {
        if (p_ != buf_) delete[] p_;
    }

    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    const char32_t* data() const { return p_; }
    char32_t operator[](size_t i) const { return p_[i]; }
    char32_t& operator[](size_t i) { return p_[i]; }
    operator View() const { return View(p_, n_); }
    U32 str() const { return U32(p_, n_); }

    // s = v (v may lie in this string's own code points)
    void assign(View v) {
        reserve(v.n);
        std::memmove(p_, v.p, v.n * sizeof(char32_t));
        n_ = v.n;
    }
    // s = s[:-k] for k >= 1: the first max(0, len - k) code points
    void cut(size_t k) { n_ = n_ > k ? n_ - k : 0; }
    // s += l
    void append(Lit l) {
        reserve(n_ + l.n);
        std::memcpy(p_ + n_, l.s, l.n * sizeof(char32_t));
        n_ += l.n;
    }
    void push_back(char32_t c) {
        reserve(n_ + 1);
        p_[n_++] = c;
    }

  private:
    void reserve(size_t want) {
        if (want <= cap_) return;
        size_t cap = want > 2 * cap_ ? want : 2 * cap_;
        char32_t* p = new char32_t[cap];
        std::memcpy(p, p_, n_ * sizeof(char32_t));
        if (p_ != buf_) delete[] p_;
        p_ = p;
        cap_ = cap;
    }

    static constexpr size_t INLINE = 48;
    char32_t buf_[INLINE];
    char32_t* p_ = buf_;
    size_t n_ = 0;
    size_t cap_ = INLINE;
};

// ------------------------------------------------------------------------------- Python's str operations
[[noreturn]] inline void index_error() { throw std::out_of_range("string index out of range"); }

// s[i] (i < 0 counts from the end); out of range: std::out_of_range, as Python's IndexError.
inline char32_t at(View s, long i) {
    long n = (long)s.n;
    if (i < 0) i += n;
    if (i < 0 || i >= n) index_error();
    return s.p[i];
}

// s[a:b] with Python's clamping of negative and out-of-range bounds.
inline View slice(View s, long a, long b) {
    long n = (long)s.n;
    if (a < 0) a = a + n < 0 ? 0 : a + n;
    if (a > n) a = n;
    if (b < 0) b = b + n < 0 ? 0 : b + n;
    if (b > n) b = n;
    return b > a ? View(s.p + a, (size_t)(b - a)) : View(s.p, 0);
}
// s[a:] for a >= 0
inline View tail(View s, size_t a) { return a < s.n ? View(s.p + a, s.n - a) : View(s.p + s.n, 0); }

// (eq, endswith and startswith of one string: stem_common.hpp)
using stem::endswith;
using stem::startswith;

// s.endswith((a, b, ...))
inline bool endswith(View s, std::initializer_list<Lit> sufs) {
    for (Lit l : sufs)
        if (endswith(s, l)) return true;
    return false;
}
inline bool startswith(View s, std::initializer_list<Lit> pres) {
    for (Lit l : pres)
        if (startswith(s, l)) return true;
    return false;
}
// s in (a, b, ...), for a tuple of strings
inline bool one_of(View s, std::initializer_list<Lit> options) {
    for (Lit l : options)
        if (eq(s, l)) return true;
    return false;
}

// s.find(t) (the first occurrence; -1 when absent) and s.rfind(t) (the last).
inline long find(View s, View t) {
    if (t.n > s.n) return -1;
    for (size_t i = 0; i + t.n <= s.n; ++i)
        if (same(s.p + i, t.p, t.n)) return (long)i;
    return -1;
}
inline long rfind(View s, View t) {
    if (t.n > s.n) return -1;
    for (size_t i = s.n - t.n + 1; i-- > 0;)
        if (same(s.p + i, t.p, t.n)) return (long)i;
    return -1;
}
// t in s (substring anywhere in s)
inline bool contains(View s, View t) { return find(s, t) >= 0; }

// s = suffix_replace(s, old, new) (nltk.stem.util): s[:-len(old)] + new
inline void suffix_replace(Str& s, View old, Lit rep) {
    s.cut(old.n);
    s.append(rep);
}

// s = s.replace(from, to) (every occurrence, left to right, not overlapping).
inline void replace(Str& s, Lit from, Lit to) {
    if (from.n == 1 && to.n == 1) {
        for (size_t i = 0; i < s.size(); ++i)
            if (s[i] == from.s[0]) s[i] = to.s[0];
        return;
    }
    if (find(s, from) < 0) return;
    Str out;
    size_t i = 0;
    while (i < s.size()) {
        if (i + from.n <= s.size() && same(s.data() + i, from.s, from.n)) {
            out.append(to);
            i += from.n;
        } else {
            out.push_back(s[i++]);
        }
    }
    s.assign(out);
}

// ------------------------------------------------------------------------------- the standard regions
// The index just after the first non-vowel that follows a vowel, looking at positions from + 1 .. len - 1
// (the loops of `_r1r2_standard`); len(w) when there is none.
inline size_t after_vowel_consonant(View w, size_t from, const Chars& vowels) {
    for (size_t i = from + 1; i < w.n; ++i)
        if (!vowels.has(w[i]) && vowels.has(w[i - 1])) return i + 1;
    return w.n;
}

// `_r1r2_standard(word, vowels)`: R1 = word[r1:], R2 = word[r2:] (R2 is looked for inside R1, from its second
// character).
struct R1R2 {
    size_t r1, r2;
};
inline R1R2 r1r2_standard(View w, const Chars& vowels) {
    size_t r1 = after_vowel_consonant(w, 0, vowels);
    size_t r2 = r1 < w.n ? after_vowel_consonant(w, r1, vowels) : w.n;
    return {r1, r2};
}

// `_rv_standard(word, vowels)`: RV = word[rv:].
inline size_t rv_standard(View w, const Chars& vowels) {
    if (w.n < 2) return w.n;
    if (!vowels.has(w[1])) {
        for (size_t i = 2; i < w.n; ++i)
            if (vowels.has(w[i])) return i + 1;
        return w.n;
    }
    if (vowels.has(w[0])) {  // both first letters are vowels
        for (size_t i = 2; i < w.n; ++i)
            if (!vowels.has(w[i])) return i + 1;
        return w.n;
    }
    return w.n < 3 ? w.n : 3;
}

// `word in self.stopwords` (with ignore_stopwords): the lowercased word is a stopword.
inline bool is_stopword(const Input& in) { return !in.stop.empty() && in.stop.count(in.lower) != 0; }

}  // namespace sb
}  // namespace stem
}  // namespace rouge
