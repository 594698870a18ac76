// nltk's Snowball stemmer for dutch (nltk.stem.snowball.DutchStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: accents removed first, 'y' and 'i' marked as
// consonants, R1 moved to leave at least three letters before it, step 3b cutting R1 or R2 only in some rules
// (later tests read the uncut one). O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace dutch {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiouy\u00e8");

inline constexpr Suffixes STEP1{U"heden", U"ene", U"en", U"se", U"s"};
inline constexpr Suffixes STEP3B{U"baar", U"lijk", U"bar", U"end", U"ing", U"ig"};

// The three strings of the steps that cut the word and both regions alike.
struct Word3 {
    Str& word;
    Str& r1;
    Str& r2;
    void cut(size_t k) {
        word.cut(k);
        r1.cut(k);
        r2.cut(k);
    }
    // A final "kk", "dd" or "tt" undoubled, in the word and both regions.
    void undouble() {
        if (endswith(word, {U"kk", U"dd", U"tt"})) cut(1);
    }
};

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;
    bool step2_success = false;

    Str word{View(in.lower)};
    for (size_t i = 0; i < word.size(); ++i) {  // accents removed
        switch (word[i]) {
            case U'\u00e4': case U'\u00e1': word[i] = U'a'; break;
            case U'\u00eb': case U'\u00e9': word[i] = U'e'; break;
            case U'\u00ed': case U'\u00ef': word[i] = U'i'; break;
            case U'\u00f6': case U'\u00f3': word[i] = U'o'; break;
            case U'\u00fc': case U'\u00fa': word[i] = U'u'; break;
            default: break;
        }
    }
    const size_t n = word.size();
    if (n && word[0] == U'y') word[0] = U'Y';
    for (size_t i = 1; i < n; ++i)  // 'y' after a vowel
        if (VOWELS.has(word[i - 1]) && word[i] == U'y') word[i] = U'Y';
    for (size_t i = 1; i + 1 < n; ++i)  // 'i' between vowels
        if (VOWELS.has(word[i - 1]) && word[i] == U'i' && VOWELS.has(word[i + 1])) word[i] = U'I';

    const R1R2 reg = r1r2_standard(word, VOWELS);
    Str r1{tail(word, reg.r1)}, r2{tail(word, reg.r2)};
    // R1 leaves at least 3 letters before it: when the first vowel-consonant pair ends at index 1, R1 = word[3:]
    for (size_t i = 1; i < n; ++i) {
        if (!VOWELS.has(word[i]) && VOWELS.has(word[i - 1])) {
            if (i + 1 < 3) r1.assign(tail(word, 3));
            break;
        }
    }
    Word3 w{word, r1, r2};

    // STEP 1
    if (const Lit* hit = STEP1.first(r1)) {
        const View suf = *hit;
        const long k = (long)suf.n;
        if (eq(suf, U"heden")) {
            suffix_replace(word, suf, U"heid");
            suffix_replace(r1, suf, U"heid");
            if (endswith(r2, U"heden")) suffix_replace(r2, suf, U"heid");
        } else if (one_of(suf, {U"ene", U"en"}) && !endswith(word, U"heden") && !VOWELS.has(at(word, -k - 1)) &&
                   !eq(slice(word, -k - 3, -k), U"gem")) {
            w.cut(suf.n);
            w.undouble();
        } else if (one_of(suf, {U"se", U"s"}) && !VOWELS.has(at(word, -k - 1)) && at(word, -k - 1) != U'j') {
            w.cut(suf.n);
        }
    }

    // STEP 2
    if (endswith(r1, U"e") && !VOWELS.has(at(word, -2))) {
        step2_success = true;
        w.cut(1);
        w.undouble();
    }

    // STEP 3a
    if (endswith(r2, U"heid") && at(word, -5) != U'c') {
        w.cut(4);
        if (endswith(r1, U"en") && !VOWELS.has(at(word, -3)) && !eq(slice(word, -5, -2), U"gem")) {
            w.cut(2);
            w.undouble();
        }
    }

    // STEP 3b: derivational suffixes
    if (const Lit* hit = STEP3B.first(r2)) {
        const View suf = *hit;
        if (one_of(suf, {U"end", U"ing"})) {
            word.cut(3);
            r2.cut(3);
            if (endswith(r2, U"ig") && at(word, -3) != U'e')
                word.cut(2);
            else if (endswith(word, {U"kk", U"dd", U"tt"}))
                word.cut(1);
        } else if (eq(suf, U"ig") && at(word, -3) != U'e') {
            word.cut(2);
        } else if (eq(suf, U"lijk")) {
            word.cut(4);
            r1.cut(4);
            if (endswith(r1, U"e") && !VOWELS.has(at(word, -2))) {
                word.cut(1);
                if (endswith(word, {U"kk", U"dd", U"tt"})) word.cut(1);
            }
        } else if (eq(suf, U"baar")) {
            word.cut(4);
        } else if (eq(suf, U"bar") && step2_success) {
            word.cut(3);
        }
    }

    // STEP 4: undouble a vowel ("aa", "ee", "oo", "uu" between a consonant and a final consonant other than 'I')
    if (word.size() >= 4) {
        const char32_t last = word[word.size() - 1];
        if (!VOWELS.has(last) && last != U'I' &&
            one_of(slice(word, -3, -1), {U"aa", U"ee", U"oo", U"uu"}) && !VOWELS.has(at(word, -4))) {
            word.cut(2);  // word[:-3] + word[-3] + word[-1]
            word.push_back(last);
        }
    }

    replace(word, U"I", U"i");
    replace(word, U"Y", U"y");
    return word.str();
}

}  // namespace dutch

inline constexpr Language SNOWBALL_DUTCH{"dutch", dutch::stem};

}  // namespace stem
}  // namespace rouge
