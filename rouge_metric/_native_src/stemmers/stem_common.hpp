// Language stemmers (C++ twins of nltk's Snowball stemmers and of the TurkishStemmer package): the types
// every language file shares. Plain C++17, no Python.h; pure functions, no shared state (any thread).
//
// A stemmer works on code points (std::u32string), as its Python original works on str. Each language
// file (snowball_<language>.hpp, turkish_stemmer.hpp) defines one `Language` constant: its name and its
// stem function, or a null function while this build has no twin for it (the Python layer then runs the
// original). stemmers.hpp lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>

namespace rouge {
namespace stem {

using U32 = std::u32string;

struct U32Hash {
    size_t operator()(const U32& s) const noexcept {
        uint64_t h = 1469598103934665603ull;  // FNV-1a over the code points
        for (char32_t c : s) h = (h ^ (uint64_t)c) * 1099511628211ull;
        return (size_t)h;
    }
};

// The stopwords of `ignore_stopwords=True` (nltk's `stopwords.words(language)`, as a set).
using StopSet = std::unordered_set<U32, U32Hash>;

// What the Python original's stem(word) sees: the word as given, Python's `word.lower()` (made by the
// caller, which has Python's Unicode tables: the lowercase of a code point can be several code points,
// and Greek capital sigma depends on its neighbours), the stopword set (empty without
// ignore_stopwords), and the state the original instance keeps from one call to the next: nltk's
// ArabicStemmer never resets its `suffixes_verb_step1_success` flag, so once one word has passed that step
// every later word of the same instance takes the other branch. `state` is that flag (false for a new
// instance); a stemmer without such state leaves it alone. Returns exactly what the original returns.
struct Input {
    const U32& word;
    const U32& lower;
    const StopSet& stop;
    bool& state;
};

using StemFn = U32 (*)(const Input&);

struct Language {
    const char* name;  // nltk's language name ("danish", ..., "porter"), or "TurkishStemmer"
    StemFn stem;       // null: no native twin in this build
};

// ------------------------------------------------------------------------------- small helpers
// Python's `s.endswith(suffix)` for a suffix written as a UTF-32 literal.
inline bool ends_with(const U32& s, const char32_t* suffix) {
    size_t n = std::char_traits<char32_t>::length(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Python's `c in chars` for a set of characters written as a UTF-32 literal.
inline bool in(char32_t c, const char32_t* chars) {
    for (; *chars; ++chars)
        if (*chars == c) return true;
    return false;
}

}  // namespace stem
}  // namespace rouge
