// nltk's Snowball stemmer for finnish (nltk.stem.snowball.FinnishStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: step 3's list going on past "siin"/"den"/"tten"/
// "seen" when their condition fails (and stopping at any other suffix of R1 whatever its condition), step 5
// cutting R2 in one branch only, the final undoubling of a double consonant followed by vowels.
// O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace finnish {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiouy\u00e4\u00f6");
inline constexpr Chars RESTRICTED_VOWELS(U"aeiou\u00e4\u00f6");
inline constexpr Chars CONSONANTS(U"bcdfghjklmnpqrstvwxz");
inline constexpr Chars STEP1_BEFORE(U"ntaeiouy\u00e4\u00f6");  // letters a particle (step 1) may follow
inline constexpr Chars IJ(U"ij");
inline constexpr Chars STEP6_FINAL(U"a\u00e4ei");

inline constexpr Suffixes STEP1{
    U"kaan", U"k\u00e4\u00e4n", U"sti", U"kin", U"han", U"h\u00e4n", U"ko", U"k\u00f6", U"pa", U"p\u00e4",
};
inline constexpr Suffixes STEP2{
    U"nsa", U"ns\u00e4", U"mme", U"nne", U"si", U"ni", U"an", U"\u00e4n", U"en",
};
inline constexpr Suffixes STEP3{
    U"siin", U"tten", U"seen", U"han", U"hen", U"hin", U"hon", U"h\u00e4n", U"h\u00f6n", U"den", U"tta", U"tt\u00e4",
    U"ssa", U"ss\u00e4", U"sta", U"st\u00e4", U"lla", U"ll\u00e4", U"lta", U"lt\u00e4", U"lle", U"ksi", U"ine",
    U"ta", U"t\u00e4", U"na", U"n\u00e4", U"a", U"\u00e4", U"n",
};
inline constexpr Suffixes STEP4{
    U"impi", U"impa", U"imp\u00e4", U"immi", U"imma", U"imm\u00e4", U"mpi", U"mpa", U"mp\u00e4", U"mmi", U"mma",
    U"mm\u00e4", U"eja", U"ej\u00e4",
};
inline constexpr Suffixes DOUBLE_CONSONANTS{
    U"bb", U"cc", U"dd", U"ff", U"gg", U"hh", U"jj", U"kk", U"ll", U"mm", U"nn", U"pp", U"qq", U"rr", U"ss", U"tt",
    U"vv", U"ww", U"xx", U"zz",
};
inline constexpr Suffixes LONG_VOWELS{
    U"aa", U"ee", U"ii", U"oo", U"uu", U"\u00e4\u00e4", U"\u00f6\u00f6",
};

struct Word3 {
    Str& word;
    Str& r1;
    Str& r2;
    void cut(size_t k) {
        word.cut(k);
        r1.cut(k);
        r2.cut(k);
    }
};

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;
    bool step3_success = false;

    Str word{View(in.lower)};
    const R1R2 reg = r1r2_standard(word, VOWELS);
    Str r1{tail(word, reg.r1)}, r2{tail(word, reg.r2)};
    Word3 w{word, r1, r2};

    // STEP 1: particles
    if (const Lit* hit = STEP1.first(r1)) {
        const View suf = *hit;
        if (eq(suf, U"sti")) {
            if (contains(r2, suf)) w.cut(3);
        } else if (STEP1_BEFORE.has(at(word, -(long)suf.n - 1))) {
            w.cut(suf.n);
        }
    }

    // STEP 2: possessives
    if (const Lit* hit = STEP2.first(r1)) {
        const View suf = *hit;
        if (eq(suf, U"si")) {
            if (at(word, -3) != U'k') w.cut(2);
        } else if (eq(suf, U"ni")) {
            w.cut(2);
            if (endswith(word, U"kse")) suffix_replace(word, Lit(U"kse"), U"ksi");
            if (endswith(r1, U"kse")) suffix_replace(r1, Lit(U"kse"), U"ksi");
            if (endswith(r2, U"kse")) suffix_replace(r2, Lit(U"kse"), U"ksi");
        } else if (eq(suf, U"an")) {
            if (one_of(slice(word, -4, -2), {U"ta", U"na"}) ||
                one_of(slice(word, -5, -2), {U"ssa", U"sta", U"lla", U"lta"}))
                w.cut(2);
        } else if (eq(suf, U"\u00e4n")) {
            if (one_of(slice(word, -4, -2), {U"t\u00e4", U"n\u00e4"}) ||
                one_of(slice(word, -5, -2), {U"ss\u00e4", U"st\u00e4", U"ll\u00e4", U"lt\u00e4"}))
                w.cut(2);
        } else if (eq(suf, U"en")) {
            if (one_of(slice(word, -5, -2), {U"lle", U"ine"})) w.cut(2);
        } else {  // nsa, nsä, mme, nne
            w.cut(3);
        }
    }

    // STEP 3: cases. The first suffix of R1 decides, except that "siin", "den", "tten" and "seen" whose
    // condition fails give way to the next suffix of R1.
    const Lit* hit3 = STEP3.each(r1, [&](const Lit& l) {
        const View suf = l;
        const long k = (long)suf.n;
        if (one_of(suf, {U"siin", U"den", U"tten"}))
            return at(word, -k - 1) == U'i' && RESTRICTED_VOWELS.has(at(word, -k - 2));
        if (eq(suf, U"seen")) return LONG_VOWELS.contains_word(slice(word, -6, -4));
        return true;
    });
    if (hit3) {
        const View suf = *hit3;
        if (one_of(suf, {U"han", U"hen", U"hin", U"hon", U"h\u00e4n", U"h\u00f6n"})) {
            if (at(word, -4) == suf[1]) {  // the vowel of the suffix repeated before it
                w.cut(3);
                step3_success = true;
            }
        } else if (one_of(suf, {U"siin", U"den", U"tten"})) {  // its condition held
            w.cut(suf.n);
            step3_success = true;
        } else if (eq(suf, U"seen")) {  // its condition held
            w.cut(4);
            step3_success = true;
        } else if (one_of(suf, {U"a", U"\u00e4"})) {
            if (VOWELS.has(at(word, -2)) && CONSONANTS.has(at(word, -3))) {
                w.cut(1);
                step3_success = true;
            }
        } else if (one_of(suf, {U"tta", U"tt\u00e4"})) {
            if (at(word, -4) == U'e') {
                w.cut(3);
                step3_success = true;
            }
        } else if (eq(suf, U"n")) {
            w.cut(1);
            step3_success = true;
            if (endswith(word, U"ie") || LONG_VOWELS.contains_word(slice(word, -2, (long)word.size()))) w.cut(1);
        } else {
            w.cut(suf.n);
            step3_success = true;
        }
    }

    // STEP 4: other endings
    if (const Lit* hit = STEP4.first(r2)) {
        const View suf = *hit;
        if (one_of(suf, {U"mpi", U"mpa", U"mp\u00e4", U"mmi", U"mma", U"mm\u00e4"})) {
            if (!eq(slice(word, -5, -3), U"po")) w.cut(3);
        } else {
            w.cut(suf.n);
        }
    }

    // STEP 5: plurals
    if (step3_success && r1.size() >= 1 && IJ.has(r1[r1.size() - 1])) {
        word.cut(1);
        r1.cut(1);
    } else if (!step3_success && r1.size() >= 2 && r1[r1.size() - 1] == U't' && VOWELS.has(r1[r1.size() - 2])) {
        w.cut(1);
        if (endswith(r2, U"imma")) {
            word.cut(4);
            r1.cut(4);
        } else if (endswith(r2, U"mma") && !eq(slice(r2, -5, -3), U"po")) {
            word.cut(3);
            r1.cut(3);
        }
    }

    // STEP 6: tidying up
    if (LONG_VOWELS.contains_word(slice(r1, -2, (long)r1.size()))) {
        word.cut(1);
        r1.cut(1);
    }
    if (r1.size() >= 2 && CONSONANTS.has(r1[r1.size() - 2]) && STEP6_FINAL.has(r1[r1.size() - 1])) {
        word.cut(1);
        r1.cut(1);
    }
    if (endswith(r1, {U"oj", U"uj"})) {
        word.cut(1);
        r1.cut(1);
    }
    if (endswith(r1, U"jo")) {
        word.cut(1);
        r1.cut(1);
    }
    // A double consonant followed by nothing but vowels: its second consonant removed.
    for (size_t i = 1; i < word.size(); ++i) {
        const size_t p = word.size() - i;  // word[-i]
        if (VOWELS.has(word[p])) continue;
        if (DOUBLE_CONSONANTS.contains_word(slice(word, (long)p - 1, (long)p + 1))) {  // word[-i-1:-i+1]
            for (size_t j = p; j + 1 < word.size(); ++j) word[j] = word[j + 1];
            word.cut(1);
        }
        break;
    }

    return word.str();
}

}  // namespace finnish

inline constexpr Language SNOWBALL_FINNISH{"finnish", finnish::stem};

}  // namespace stem
}  // namespace rouge
