// The suffix (and prefix) lists of the Snowball twins of arabic, danish, hungarian, norwegian, russian and
// swedish: a literal with its length computed at compile time, and the test Python's str.endswith makes.
// Plain C++17, no Python.h.
//
// Cost: a test compares at most the suffix's length, its last letter first (most suffixes of a list fail
// there).
#pragma once

#include <cstddef>

#include "stem_common.hpp"

namespace rouge {
namespace stem {

constexpr size_t literal_length(const char32_t* s) { return *s ? 1 + literal_length(s + 1) : 0; }

struct Suffix {
    const char32_t* text;
    size_t size;
    constexpr Suffix(const char32_t* t) : text(t), size(literal_length(t)) {}  // NOLINT: implicit by design
};

// s[:end].endswith(x), for end <= s.size().
inline bool ends_at(const U32& s, size_t end, const Suffix& x) {
    if (x.size == 0) return true;
    if (end < x.size || s[end - 1] != x.text[x.size - 1]) return false;
    const char32_t* p = s.data() + end - x.size;
    for (size_t i = 0; i + 1 < x.size; ++i)
        if (p[i] != x.text[i]) return false;
    return true;
}

// s.endswith(x)
inline bool ends(const U32& s, const Suffix& x) { return ends_at(s, s.size(), x); }

// The two suffixes are the same string.
inline bool same(const Suffix& a, const Suffix& b) {
    if (a.size != b.size) return false;
    for (size_t i = 0; i < a.size; ++i)
        if (a.text[i] != b.text[i]) return false;
    return true;
}

}  // namespace stem
}  // namespace rouge
