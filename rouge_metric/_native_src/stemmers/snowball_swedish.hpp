// nltk's Snowball stemmer for swedish (nltk.stem.snowball.SwedishStemmer, nltk 3.10.4): a C++ twin. Plain C++17,
// no Python.h.
//
// What the original computes, on Python's word.lower() (a stopword is returned lowercased, unstemmed): R1
// (snowball_scandinavian.hpp); step 1 removes the first suffix of its list that R1 holds (a final "s" only
// after one of its s-ending letters); step 2 removes the last letter of dd/gd/nn/dt/gt/kt/tt in R1; step 3
// handles the first of fullt/löst/els/lig/ig in R1 (the first two lose their "t", the others go).
//
// Cost: O(n) (R1, then a bounded number of suffix tests).
#pragma once

#include "snowball_scandinavian.hpp"
#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace swedish {

inline constexpr const char32_t* VOWELS = U"aeiouyäåö";
inline constexpr const char32_t* S_ENDING = U"bcdfghjklmnoprtvy";
inline constexpr Suffixes STEP1{
    U"heterna", U"hetens", U"heter", U"heten", U"anden", U"arnas", U"ernas", U"ornas", U"andes", U"andet",
    U"arens",   U"arna",   U"erna",  U"orna",  U"ande",  U"arne",  U"aste",  U"aren",  U"ades",  U"erns",
    U"ade",     U"are",    U"ern",   U"ens",   U"het",   U"ast",   U"ad",    U"en",    U"ar",    U"er",
    U"or",      U"as",     U"es",    U"at",    U"a",     U"e",     U"s",
};
inline constexpr Suffixes STEP2{U"dd", U"gd", U"nn", U"dt", U"gt", U"kt", U"tt"};
inline constexpr Suffixes STEP3{U"fullt", U"löst", U"els", U"lig", U"ig"};

}  // namespace swedish

inline U32 stem_swedish(const Input& in) {
    using namespace scandinavian;
    using namespace swedish;
    if (in.stop.count(in.lower)) return in.lower;
    Word w{in.lower, r1_start(in.lower, VOWELS)};
    if (const Lit* s = STEP1.first(w.region())) cut_step1(w, *s, S_ENDING);
    if (STEP2.first(w.region())) w.cut(1);
    if (const Lit* s = STEP3.first(w.region())) w.cut(eq(*s, U"fullt") || eq(*s, U"löst") ? 1 : s->n);
    return w.w;
}

inline constexpr Language SNOWBALL_SWEDISH{"swedish", stem_swedish};

}  // namespace stem
}  // namespace rouge
