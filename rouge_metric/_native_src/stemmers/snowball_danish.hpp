// nltk's Snowball stemmer for danish (nltk.stem.snowball.DanishStemmer, nltk 3.10.4): a C++ twin. Plain C++17,
// no Python.h.
//
// What the original computes, on Python's word.lower() (a stopword is returned lowercased, unstemmed): R1
// (snowball_scandinavian.hpp); step 1 removes the first suffix of its list that R1 holds (a final "s" only
// after one of its s-ending letters); step 2 removes the last letter of gd/dt/gt/kt in R1; step 3 removes
// "igst"'s "st", then the first of elig/løst/lig/els/ig in R1 ("løst" loses its "t"; the others go, and then
// a gd/dt/gt/kt left in R1 loses its last letter); step 4 undoubles a final double consonant of a word
// longer than 3 (the word, not R1).
//
// Cost: O(n) (R1, then a bounded number of suffix tests).
#pragma once

#include "snowball_scandinavian.hpp"
#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace danish {

inline constexpr const char32_t* VOWELS = U"aeiouyæåø";
inline constexpr const char32_t* S_ENDING = U"abcdfghjklmnoprtvyzå";
inline constexpr const char32_t* DOUBLED = U"bcdfghjklmnpqrstvwxz";  // bb cc ... zz
inline constexpr Suffixes STEP1{
    U"erendes", U"erende", U"hedens", U"ethed", U"erede", U"heden", U"heder", U"endes", U"ernes", U"erens", U"erets",
    U"ered",    U"ende",   U"erne",   U"eren",  U"erer",  U"heds",  U"enes",  U"eres",  U"eret",  U"hed",   U"ene",
    U"ere",     U"ens",    U"ers",    U"ets",   U"en",    U"er",    U"es",    U"et",    U"e",     U"s",
};
inline constexpr Suffixes STEP2{U"gd", U"dt", U"gt", U"kt"};
inline constexpr Suffixes STEP3{U"elig", U"løst", U"lig", U"els", U"ig"};

}  // namespace danish

inline U32 stem_danish(const Input& in) {
    using namespace scandinavian;
    using namespace danish;
    if (in.stop.count(in.lower)) return in.lower;
    Word w{in.lower, r1_start(in.lower, VOWELS)};
    if (const Lit* s = STEP1.first(w.region())) cut_step1(w, *s, S_ENDING);
    if (STEP2.first(w.region())) w.cut(1);
    if (endswith(w.region(), U"igst")) w.cut(2);
    if (const Lit* s = STEP3.first(w.region())) {
        if (eq(*s, U"løst")) {
            w.cut(1);
        } else {
            w.cut(s->n);
            if (STEP2.first(w.region())) w.cut(1);
        }
    }
    const size_t n = w.w.size();
    if (n > 3 && w.w[n - 1] == w.w[n - 2] && stem::in(w.w[n - 1], DOUBLED)) w.cut(1);
    return w.w;
}

inline constexpr Language SNOWBALL_DANISH{"danish", stem_danish};

}  // namespace stem
}  // namespace rouge
