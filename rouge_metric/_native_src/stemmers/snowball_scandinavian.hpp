// What nltk's Danish, Norwegian and Swedish Snowball stemmers share (nltk.stem.snowball._ScandinavianStemmer,
// nltk 3.10.4): the region R1, and the word being stemmed with its R1. Plain C++17, no Python.h.
//
// R1 (_r1_scandinavian): the region after the first non-vowel that follows a vowel, moved right so that at
// least three letters precede it; empty when there is no such non-vowel. In these three stemmers R1 stays a
// suffix of the word (every step cuts or replaces the same end of both, after testing that R1 holds the
// suffix), so the twin keeps R1 as a start index into the word.
//
// Cost: O(n) for R1; a suffix list is searched as stem_common.hpp's `Suffixes` (the suffixes ending with R1's
// last letter, each compared over at most its length).
#pragma once

#include <cstddef>

#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace scandinavian {

// The start of R1 in `word` (word.size() when R1 is empty); `vowels` as a UTF-32 literal.
inline size_t r1_start(const U32& word, const char32_t* vowels) {
    for (size_t i = 1; i < word.size(); ++i)
        if (!in(word[i], vowels) && in(word[i - 1], vowels))
            return i == 1 ? (word.size() < 3 ? word.size() : 3) : i + 1;  // (i == 1: R1 = word[3:])
    return word.size();
}

// The word being stemmed and the start of its R1.
struct Word {
    U32 w;
    size_t r1;

    // R1 (a suffix of the word).
    View region() const { return r1 < w.size() ? View(w.data() + r1, w.size() - r1) : View(w.data() + w.size(), 0); }
    // Cut k code points from the end of the word (and of R1, which holds them when this is called after R1 was
    // found to end with them).
    void cut(size_t k) { w.resize(w.size() - k); }
    char32_t from_end(size_t k) const { return w[w.size() - k]; }  // word[-k]
};

// Step 1 of the Danish and Swedish stemmers once R1 holds `suffix`: a final "s" is cut only after a letter of
// `s_ending`, any other suffix is cut whole. (Norwegian's step 1 has its own rules for "s" and "erte"/"ert".)
inline void cut_step1(Word& word, const Lit& suffix, const char32_t* s_ending) {
    if (eq(suffix, U"s")) {
        if (in(word.from_end(2), s_ending)) word.cut(1);
    } else {
        word.cut(suffix.n);
    }
}

}  // namespace scandinavian
}  // namespace stem
}  // namespace rouge
