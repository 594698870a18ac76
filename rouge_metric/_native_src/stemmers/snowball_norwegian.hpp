// nltk's Snowball stemmer for norwegian (nltk.stem.snowball.NorwegianStemmer, nltk 3.10.4): a C++ twin. Plain
// C++17, no Python.h.
//
// What the original computes, on Python's word.lower() (a stopword is returned lowercased, unstemmed): R1
// (snowball_scandinavian.hpp); step 1 handles the first suffix of its list that R1 holds ("erte" and "ert"
// become "er"; a final "s" goes after one of its s-ending letters, or after a "k" that follows a non-vowel;
// the others go); step 2 removes the last letter of dt/vt in R1; step 3 removes the first suffix of its list
// that R1 holds.
//
// Cost: O(n) (R1, then a bounded number of suffix tests).
#pragma once

#include "snowball_scandinavian.hpp"
#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace norwegian {

inline constexpr const char32_t* VOWELS = U"aeiouyæåø";
inline constexpr const char32_t* S_ENDING = U"bcdfghjlmnoprtvyz";
inline constexpr Suffixes STEP1{
    U"hetenes", U"hetene", U"hetens", U"heter", U"heten", U"endes", U"ande", U"ende", U"edes", U"enes",
    U"erte",    U"ede",    U"ane",    U"ene",   U"ens",   U"ers",   U"ets",  U"het",  U"ast",  U"ert",
    U"en",      U"ar",     U"er",     U"as",    U"es",    U"et",    U"a",    U"e",    U"s",
};
inline constexpr Suffixes STEP2{U"dt", U"vt"};
inline constexpr Suffixes STEP3{U"hetslov", U"eleg", U"elig", U"elov", U"slov", U"leg",
                                U"eig",     U"lig",  U"els",  U"lov",  U"ig"};

}  // namespace norwegian

inline U32 stem_norwegian(const Input& in) {
    using namespace scandinavian;
    using namespace norwegian;
    if (in.stop.count(in.lower)) return in.lower;
    Word w{in.lower, r1_start(in.lower, VOWELS)};
    if (const Lit* s = STEP1.first(w.region())) {
        const size_t n = s->n;
        if (eq(*s, U"erte") || eq(*s, U"ert")) {
            w.cut(n - 2);  // "erte"/"ert" -> "er": the word keeps its "er"
        } else if (eq(*s, U"s")) {
            const char32_t before = w.from_end(2);
            if (stem::in(before, S_ENDING) || (before == U'k' && !stem::in(w.from_end(3), VOWELS))) w.cut(1);
        } else {
            w.cut(n);
        }
    }
    if (STEP2.first(w.region())) w.cut(1);
    if (const Lit* s = STEP3.first(w.region())) w.cut(s->n);
    return w.w;
}

inline constexpr Language SNOWBALL_NORWEGIAN{"norwegian", stem_norwegian};

}  // namespace stem
}  // namespace rouge
