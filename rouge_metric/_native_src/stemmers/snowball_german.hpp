// nltk's Snowball stemmer for german (nltk.stem.snowball.GermanStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: 'ß' written "ss" before the regions are found, R1
// moved to leave at least three letters before it, step 3's tests on slices of R1/R2 (`"ig" in r2[-5:-3]`)
// and its cuts of the word alone. O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace german {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiouy\u00e4\u00f6\u00fc");
inline constexpr Chars S_ENDING(U"bdfghklmnrt");
inline constexpr Chars ST_ENDING(U"bdfghklmnt");

inline constexpr Suffixes STEP1{U"ern", U"em", U"er", U"en", U"es", U"e", U"s"};
inline constexpr Suffixes STEP2{U"est", U"en", U"er", U"st"};
inline constexpr Suffixes STEP3{U"isch", U"lich", U"heit", U"keit", U"end", U"ung", U"ig", U"ik"};

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;

    Str word{View(in.lower)};
    replace(word, U"\u00df", U"ss");
    const size_t n = word.size();
    for (size_t i = 1; i + 1 < n; ++i) {  // 'u' and 'y' between vowels
        if (VOWELS.has(word[i - 1]) && VOWELS.has(word[i + 1])) {
            if (word[i] == U'u')
                word[i] = U'U';
            else if (word[i] == U'y')
                word[i] = U'Y';
        }
    }

    const R1R2 reg = r1r2_standard(word, VOWELS);
    Str r1{tail(word, reg.r1)}, r2{tail(word, reg.r2)};
    // R1 leaves at least 3 letters before it: when the first vowel-consonant pair ends at index 1, R1 = word[3:]
    for (size_t i = 1; i < n; ++i) {
        if (!VOWELS.has(word[i]) && VOWELS.has(word[i - 1])) {
            if (i + 1 < 3) r1.assign(tail(word, 3));
            break;
        }
    }

    // STEP 1
    if (const Lit* hit = STEP1.first(r1)) {
        const View suf = *hit;
        const long k = (long)suf.n;
        if (one_of(suf, {U"en", U"es", U"e"}) && eq(slice(word, -k - 4, -k), U"niss")) {
            word.cut(suf.n + 1);
            r1.cut(suf.n + 1);
            r2.cut(suf.n + 1);
        } else if (eq(suf, U"s")) {
            if (S_ENDING.has(at(word, -2))) {
                word.cut(1);
                r1.cut(1);
                r2.cut(1);
            }
        } else {
            word.cut(suf.n);
            r1.cut(suf.n);
            r2.cut(suf.n);
        }
    }

    // STEP 2
    if (const Lit* hit = STEP2.first(r1)) {
        const View suf = *hit;
        if (eq(suf, U"st")) {
            if (ST_ENDING.has(at(word, -3)) && word.size() >= 6) {  // len(word[:-3]) >= 3
                word.cut(2);
                r1.cut(2);
                r2.cut(2);
            }
        } else {
            word.cut(suf.n);
            r1.cut(suf.n);
            r2.cut(suf.n);
        }
    }

    // STEP 3: derivational suffixes (the word alone is cut)
    if (const Lit* hit = STEP3.first(r2)) {
        const View suf = *hit;
        const long k = (long)suf.n;
        if (one_of(suf, {U"end", U"ung"})) {
            if (contains(slice(r2, -k - 2, -k), U"ig") && !contains(slice(r2, -k - 3, -k - 2), U"e"))
                word.cut(suf.n + 2);
            else
                word.cut(suf.n);
        } else if (one_of(suf, {U"ig", U"ik", U"isch"}) && !contains(slice(r2, -k - 1, -k), U"e")) {
            word.cut(suf.n);
        } else if (one_of(suf, {U"lich", U"heit"})) {
            const View before = slice(r1, -k - 2, -k);
            if (contains(before, U"er") || contains(before, U"en"))
                word.cut(suf.n + 2);
            else
                word.cut(suf.n);
        } else if (eq(suf, U"keit")) {
            if (contains(slice(r2, -k - 4, -k), U"lich"))
                word.cut(suf.n + 4);
            else if (contains(slice(r2, -k - 2, -k), U"ig"))
                word.cut(suf.n + 2);
            else
                word.cut(suf.n);
        }
    }

    replace(word, U"\u00e4", U"a");
    replace(word, U"\u00f6", U"o");
    replace(word, U"\u00fc", U"u");
    replace(word, U"U", U"u");
    replace(word, U"Y", U"y");
    return word.str();
}

}  // namespace german

inline constexpr Language SNOWBALL_GERMAN{"german", german::stem};

}  // namespace stem
}  // namespace rouge
