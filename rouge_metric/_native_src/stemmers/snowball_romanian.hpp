// nltk's Snowball stemmer for romanian (nltk.stem.snowball.RomanianStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: suffixes tested with `in` against regions that are
// never (R1) or seldom (R2, RV) cut, step 1 repeated while it replaces and its success flag cleared by a final
// suffix outside R1, step 3's list going on past a suffix that is not in RV, `rv.index` (the first occurrence)
// in step 3. The letters with comma below are nltk's: ş and ţ with cedilla (U+015F, U+0163). O(len(word)) per
// step (step 1 shortens the word each time it repeats).
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace romanian {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiou\u0103\u00e2\u00ee");
inline constexpr Chars STEP3_VOWELS(U"aeio\u0103\u00e2\u00ee");

inline constexpr Suffixes STEP0{
    U"iilor", U"ului", U"elor", U"iile", U"ilor", U"atei", U"a\u0163ie", U"a\u0163ia", U"aua", U"ele", U"iua",
    U"iei", U"ile", U"ul", U"ea", U"ii",
};
inline constexpr Suffixes STEP1{
    U"abilitate", U"abilitati", U"abilit\u0103\u0163i", U"ibilitate", U"abilit\u0103i", U"ivitate", U"ivitati",
    U"ivit\u0103\u0163i", U"icitate", U"icitati", U"icit\u0103\u0163i", U"icatori", U"ivit\u0103i", U"icit\u0103i",
    U"icator", U"a\u0163iune", U"atoare", U"\u0103toare", U"i\u0163iune", U"itoare", U"iciva", U"icive", U"icivi",
    U"iciv\u0103", U"icala", U"icale", U"icali", U"ical\u0103", U"ativa", U"ative", U"ativi", U"ativ\u0103",
    U"atori", U"\u0103tori", U"itiva", U"itive", U"itivi", U"itiv\u0103", U"itori", U"iciv", U"ical", U"ativ",
    U"ator", U"\u0103tor", U"itiv", U"itor",
};
inline constexpr Suffixes STEP2{
    U"abila", U"abile", U"abili", U"abil\u0103", U"ibila", U"ibile", U"ibili", U"ibil\u0103", U"atori", U"itate",
    U"itati", U"it\u0103\u0163i", U"abil", U"ibil", U"oasa", U"oas\u0103", U"oase", U"anta", U"ante", U"anti",
    U"ant\u0103", U"ator", U"it\u0103i", U"iune", U"iuni", U"isme", U"ista", U"iste", U"isti", U"ist\u0103",
    U"i\u015fti", U"ata", U"at\u0103", U"ati", U"ate", U"uta", U"ut\u0103", U"uti", U"ute", U"ita", U"it\u0103",
    U"iti", U"ite", U"ica", U"ice", U"ici", U"ic\u0103", U"osi", U"o\u015fi", U"ant", U"iva", U"ive", U"ivi",
    U"iv\u0103", U"ism", U"ist", U"at", U"ut", U"it", U"ic", U"os", U"iv",
};
inline constexpr Suffixes STEP3{
    U"seser\u0103\u0163i", U"aser\u0103\u0163i", U"iser\u0103\u0163i", U"\u00e2ser\u0103\u0163i",
    U"user\u0103\u0163i", U"seser\u0103m", U"aser\u0103m", U"iser\u0103m", U"\u00e2ser\u0103m", U"user\u0103m",
    U"ser\u0103\u0163i", U"sese\u015fi", U"seser\u0103", U"easc\u0103", U"ar\u0103\u0163i", U"ur\u0103\u0163i",
    U"ir\u0103\u0163i", U"\u00e2r\u0103\u0163i", U"ase\u015fi", U"aser\u0103", U"ise\u015fi", U"iser\u0103",
    U"\u00e2se\u015fi", U"\u00e2ser\u0103", U"use\u015fi", U"user\u0103", U"ser\u0103m", U"sesem", U"indu",
    U"\u00e2ndu", U"eaz\u0103", U"e\u015fti", U"e\u015fte", U"\u0103\u015fti", U"\u0103\u015fte", U"ea\u0163i",
    U"ia\u0163i", U"ar\u0103m", U"ur\u0103m", U"ir\u0103m", U"\u00e2r\u0103m", U"asem", U"isem", U"\u00e2sem",
    U"usem", U"se\u015fi", U"ser\u0103", U"sese", U"are", U"ere", U"ire", U"\u00e2re", U"ind", U"\u00e2nd", U"eze",
    U"ezi", U"esc", U"\u0103sc", U"eam", U"eai", U"eau", U"iam", U"iai", U"iau", U"a\u015fi", U"ar\u0103",
    U"u\u015fi", U"ur\u0103", U"i\u015fi", U"ir\u0103", U"\u00e2\u015fi", U"\u00e2r\u0103", U"ase", U"ise",
    U"\u00e2se", U"use", U"a\u0163i", U"e\u0163i", U"i\u0163i", U"\u00e2\u0163i", U"sei", U"ez", U"am", U"ai", U"au",
    U"ea", U"ia", U"ui", U"\u00e2i", U"\u0103m", U"em", U"im", U"\u00e2m", U"se",
};

// rv = suffix_replace(rv, suffix, rep) when the suffix is in RV, else "" (step 0).
inline void rv_replace_or_clear(Str& rv, View suffix, Lit rep) {
    if (contains(rv, suffix))
        suffix_replace(rv, suffix, rep);
    else
        rv.assign(View(U""));
}

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;
    bool step1_success = false, step2_success = false;

    Str word{View(in.lower)};
    const size_t n = word.size();
    for (size_t i = 1; i + 1 < n; ++i) {  // 'u' and 'i' between vowels
        if (VOWELS.has(word[i - 1]) && VOWELS.has(word[i + 1])) {
            if (word[i] == U'u')
                word[i] = U'U';
            else if (word[i] == U'i')
                word[i] = U'I';
        }
    }

    const R1R2 reg = r1r2_standard(word, VOWELS);
    const Str r1{tail(word, reg.r1)};  // never changed
    Str r2{tail(word, reg.r2)}, rv{tail(word, rv_standard(word, VOWELS))};

    // STEP 0: plurals and other simplifications
    if (const Lit* hit = STEP0.first(word)) {
        const View suf = *hit;
        if (contains(r1, suf)) {
            if (one_of(suf, {U"ul", U"ului"})) {
                word.cut(suf.n);
                if (contains(rv, suf))
                    rv.cut(suf.n);
                else
                    rv.assign(View(U""));
            } else if (eq(suf, U"aua") || eq(suf, U"atei") || (eq(suf, U"ile") && !eq(slice(word, -5, -3), U"ab"))) {
                word.cut(2);
            } else if (one_of(suf, {U"ea", U"ele", U"elor"})) {
                suffix_replace(word, suf, U"e");
                rv_replace_or_clear(rv, suf, U"e");
            } else if (one_of(suf, {U"ii", U"iua", U"iei", U"iile", U"iilor", U"ilor"})) {
                suffix_replace(word, suf, U"i");
                rv_replace_or_clear(rv, suf, U"i");
            } else if (one_of(suf, {U"a\u0163ie", U"a\u0163ia"})) {
                word.cut(1);
            }
        }
    }

    // STEP 1: combining suffixes, reduced again while a reduction happens (each one shortens the word)
    for (;;) {
        const Lit* hit = STEP1.first(word);
        if (!hit) break;
        const View suf = *hit;
        if (!contains(r1, suf)) {
            step1_success = false;
            break;
        }
        step1_success = true;
        if (one_of(suf, {U"abilitate", U"abilitati", U"abilit\u0103i", U"abilit\u0103\u0163i"})) {
            suffix_replace(word, suf, U"abil");
        } else if (eq(suf, U"ibilitate")) {
            word.cut(5);
        } else if (one_of(suf, {U"ivitate", U"ivitati", U"ivit\u0103i", U"ivit\u0103\u0163i"})) {
            suffix_replace(word, suf, U"iv");
        } else if (one_of(suf, {U"icitate", U"icitati", U"icit\u0103i", U"icit\u0103\u0163i", U"icator", U"icatori",
                                U"iciv", U"iciva", U"icive", U"icivi", U"iciv\u0103", U"ical", U"icala", U"icale",
                                U"icali", U"ical\u0103"})) {
            suffix_replace(word, suf, U"ic");
        } else if (one_of(suf, {U"ativ", U"ativa", U"ative", U"ativi", U"ativ\u0103", U"a\u0163iune", U"atoare",
                                U"ator", U"atori", U"\u0103toare", U"\u0103tor", U"\u0103tori"})) {
            suffix_replace(word, suf, U"at");
            if (contains(r2, suf)) suffix_replace(r2, suf, U"at");
        } else {  // itiv, itiva, itive, itivi, itivă, iţiune, itoare, itor, itori: the rest of the list
            suffix_replace(word, suf, U"it");
            if (contains(r2, suf)) suffix_replace(r2, suf, U"it");
        }
    }

    // STEP 2: standard suffixes
    if (const Lit* hit = STEP2.first(word)) {
        const View suf = *hit;
        if (contains(r2, suf)) {
            step2_success = true;
            if (one_of(suf, {U"iune", U"iuni"})) {
                if (at(word, -5) == U'\u0163') {
                    word.cut(5);
                    word.push_back(U't');
                }
            } else if (one_of(suf, {U"ism", U"isme", U"ist", U"ista", U"iste", U"isti", U"ist\u0103",
                                    U"i\u015fti"})) {
                suffix_replace(word, suf, U"ist");
            } else {
                word.cut(suf.n);
            }
        }
    }

    // STEP 3: verb suffixes (a suffix not in RV: the next one)
    if (!step1_success && !step2_success) {
        if (const Lit* hit = STEP3.each(word, [&](const Lit& l) { return contains(rv, l); })) {
            const View suf = *hit;
            if (one_of(suf, {U"seser\u0103\u0163i", U"seser\u0103m", U"ser\u0103\u0163i", U"sese\u015fi",
                             U"seser\u0103", U"ser\u0103m", U"sesem", U"se\u015fi", U"ser\u0103", U"sese",
                             U"a\u0163i", U"e\u0163i", U"i\u0163i", U"\u00e2\u0163i", U"sei", U"\u0103m", U"em",
                             U"im", U"\u00e2m", U"se"})) {
                word.cut(suf.n);
                rv.cut(suf.n);
            } else if (!startswith(rv, suf) && !STEP3_VOWELS.has(at(rv, find(rv, suf) - 1))) {
                word.cut(suf.n);
            }
        }
    }

    // STEP 4: final vowel
    for (Lit suf : {Lit(U"ie"), Lit(U"a"), Lit(U"e"), Lit(U"i"), Lit(U"\u0103")}) {
        if (endswith(word, suf)) {
            if (contains(rv, suf)) word.cut(suf.n);
            break;
        }
    }

    replace(word, U"I", U"i");
    replace(word, U"U", U"u");
    return word.str();
}

}  // namespace romanian

inline constexpr Language SNOWBALL_ROMANIAN{"romanian", romanian::stem};

}  // namespace stem
}  // namespace rouge
