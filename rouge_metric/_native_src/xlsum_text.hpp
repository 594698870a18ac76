// XL-Sum's text cleaner (rouge_metric.xlsum: BERT's basic cleaner as XL-Sum keeps it) on code points: the
// cleaned words of a lowercased text, joined by single spaces, in one pass. Plain C++17, no Python.h; a pure
// function (any thread).
//
// The class of each code point comes from xlsum_table.h, generated at build time from rouge_metric.xlsum's
// clean_map and the building Python's unicodedata (gen_xlsum_table.py): deleted (control characters, U+FFFD),
// a word break (whitespace, punctuation, ASCII symbols, and what str.split() calls whitespace), or kept. Kept
// characters are also told apart for the fallback tokenizer: letters and combining marks below U+3000, ASCII
// digits, anything else. A text is *plain* when every word is letters (a mark never first) or ASCII digits
// only: pyonmttok's aggressive mode then returns its words unchanged (tests/test_xlsum.py checks every such
// code point against the installed pyonmttok), so the recipe can skip it.
//
// Cost: O(length) time, one table lookup per code point; the output is at most the input's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "xlsum_table.h"

namespace rouge {
namespace xlsum {

enum Class : uint8_t { KEEP = 0, SPACE = 1, DELETE = 2, LETTER = 3, MARK = 4, DIGIT = 5 };

inline Class char_class(uint32_t cp) {
    if (cp >= 0x110000) return KEEP;  // not a code point Python can hold; never reached from a str
    return (Class)XLSUM_CLASS[XLSUM_BLOCK[cp >> 8]][cp & 0xFF];
}

// The cleaned words of `src[0..n)` (code units of width 1, 2 or 4, already lowercased) joined by single
// spaces, written to `out` (cleared first); returns whether the text is plain (see above).
template <class C>
bool clean(const C* src, size_t n, std::u32string& out) {
    out.clear();
    out.reserve(n);
    bool plain = true, in_word = false, has_letter = false, has_digit = false;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t cp = (uint32_t)src[i];
        const Class c = char_class(cp);
        if (c == DELETE) continue;
        if (c == SPACE) {
            in_word = false;
            continue;
        }
        if (!in_word) {
            if (!out.empty()) out.push_back(U' ');
            in_word = true;
            has_letter = has_digit = false;
            if (c == MARK) plain = false;  // pyonmttok splits a mark that starts a word
        }
        out.push_back((char32_t)cp);
        if (c == LETTER || c == MARK) {
            if (has_digit) plain = false;
            has_letter = true;
        } else if (c == DIGIT) {
            if (has_letter) plain = false;
            has_digit = true;
        } else {
            plain = false;
        }
    }
    return plain;
}

}  // namespace xlsum
}  // namespace rouge
