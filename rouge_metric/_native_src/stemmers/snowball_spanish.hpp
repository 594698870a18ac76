// nltk's Snowball stemmer for spanish (nltk.stem.snowball.SpanishStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: R1, R2 and RV each cut by the rules that name them
// (R2 and RV drift from the word), step 2b running after a successful step 2a, step 2a's list going on past a
// suffix without the 'u' before it. O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace spanish {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiou\u00e1\u00e9\u00ed\u00f3\u00fa\u00fc");

inline constexpr Suffixes STEP0{
    U"selas", U"selos", U"sela", U"selo", U"las", U"les", U"los", U"nos", U"me", U"se", U"la", U"le", U"lo",
};
inline constexpr Suffixes STEP1{
    U"amientos", U"imientos", U"amiento", U"imiento", U"acion", U"aciones", U"uciones", U"ucion", U"adoras",
    U"adores", U"ancias", U"log\u00edas", U"encias", U"amente", U"idades", U"anzas", U"ismos", U"ables", U"ibles",
    U"istas", U"adora", U"aci\u00f3n", U"antes", U"ancia", U"log\u00eda", U"uci\u00f3n", U"encia", U"mente", U"anza",
    U"icos", U"icas", U"ismo", U"able", U"ible", U"ista", U"osos", U"osas", U"ador", U"ante", U"idad", U"ivas",
    U"ivos", U"ico", U"ica", U"oso", U"osa", U"iva", U"ivo",
};
inline constexpr Suffixes STEP2A{
    U"yeron", U"yendo", U"yamos", U"yais", U"yan", U"yen", U"yas", U"yes", U"ya", U"ye", U"yo", U"y\u00f3",
};
inline constexpr Suffixes STEP2B{
    U"ar\u00edamos", U"er\u00edamos", U"ir\u00edamos", U"i\u00e9ramos", U"i\u00e9semos", U"ar\u00edais", U"aremos",
    U"er\u00edais", U"eremos", U"ir\u00edais", U"iremos", U"ierais", U"ieseis", U"asteis", U"isteis", U"\u00e1bamos",
    U"\u00e1ramos", U"\u00e1semos", U"ar\u00edan", U"ar\u00edas", U"ar\u00e9is", U"er\u00edan", U"er\u00edas",
    U"er\u00e9is", U"ir\u00edan", U"ir\u00edas", U"ir\u00e9is", U"ieran", U"iesen", U"ieron", U"iendo", U"ieras",
    U"ieses", U"abais", U"arais", U"aseis", U"\u00e9amos", U"ar\u00e1n", U"ar\u00e1s", U"ar\u00eda", U"er\u00e1n",
    U"er\u00e1s", U"er\u00eda", U"ir\u00e1n", U"ir\u00e1s", U"ir\u00eda", U"iera", U"iese", U"aste", U"iste",
    U"aban", U"aran", U"asen", U"aron", U"ando", U"abas", U"adas", U"idas", U"aras", U"ases", U"\u00edais", U"ados",
    U"idos", U"amos", U"imos", U"emos", U"ar\u00e1", U"ar\u00e9", U"er\u00e1", U"er\u00e9", U"ir\u00e1", U"ir\u00e9",
    U"aba", U"ada", U"ida", U"ara", U"ase", U"\u00edan", U"ado", U"ido", U"\u00edas", U"\u00e1is", U"\u00e9is",
    U"\u00eda", U"ad", U"ed", U"id", U"an", U"i\u00f3", U"ar", U"er", U"ir", U"as", U"\u00eds", U"en", U"es",
};
inline constexpr Suffixes STEP3{
    U"os", U"a", U"e", U"o", U"\u00e1", U"\u00e9", U"\u00ed", U"\u00f3",
};

// __replace_accented: á é í ó ú -> a e i o u
inline void replace_accented(Str& s) {
    for (size_t i = 0; i < s.size(); ++i) {
        switch (s[i]) {
            case U'\u00e1': s[i] = U'a'; break;
            case U'\u00e9': s[i] = U'e'; break;
            case U'\u00ed': s[i] = U'i'; break;
            case U'\u00f3': s[i] = U'o'; break;
            case U'\u00fa': s[i] = U'u'; break;
            default: break;
        }
    }
}

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;
    bool step1_success = false;

    Str word{View(in.lower)};
    const R1R2 reg = r1r2_standard(word, VOWELS);
    Str r1{tail(word, reg.r1)}, r2{tail(word, reg.r2)}, rv{tail(word, rv_standard(word, VOWELS))};

    // STEP 0: attached pronoun
    if (const Lit* hit = STEP0.each(word, [&](const Lit& l) { return endswith(rv, l); })) {
        const View suf = *hit;
        const long k = -(long)suf.n;
        const View rv_before = slice(rv, 0, k);
        if (endswith(rv_before, {U"ando", U"\u00e1ndo", U"ar", U"\u00e1r", U"er", U"\u00e9r", U"iendo", U"i\u00e9ndo",
                                 U"ir", U"\u00edr"}) ||
            (endswith(rv_before, U"yendo") && endswith(slice(word, 0, k), U"uyendo"))) {
            word.cut(suf.n);
            r1.cut(suf.n);
            r2.cut(suf.n);
            rv.cut(suf.n);
            replace_accented(word);
            replace_accented(r1);
            replace_accented(r2);
            replace_accented(rv);
        }
    }

    // STEP 1: standard suffix removal
    if (const Lit* hit = STEP1.first(word)) {
        const View suf = *hit;
        if (eq(suf, U"amente") && endswith(r1, suf)) {
            step1_success = true;
            word.cut(6);
            r2.cut(6);
            rv.cut(6);
            if (endswith(r2, U"iv")) {
                word.cut(2);
                r2.cut(2);
                rv.cut(2);
                if (endswith(r2, U"at")) {
                    word.cut(2);
                    rv.cut(2);
                }
            } else if (endswith(r2, {U"os", U"ic", U"ad"})) {
                word.cut(2);
                rv.cut(2);
            }
        } else if (endswith(r2, suf)) {
            step1_success = true;
            if (one_of(suf, {U"adora", U"ador", U"aci\u00f3n", U"adoras", U"adores", U"acion", U"aciones", U"ante",
                             U"antes", U"ancia", U"ancias"})) {
                word.cut(suf.n);
                r2.cut(suf.n);
                rv.cut(suf.n);
                if (endswith(r2, U"ic")) {
                    word.cut(2);
                    rv.cut(2);
                }
            } else if (one_of(suf, {U"log\u00eda", U"log\u00edas"})) {
                suffix_replace(word, suf, U"log");
                suffix_replace(rv, suf, U"log");
            } else if (one_of(suf, {U"uci\u00f3n", U"uciones", U"ucion"})) {
                suffix_replace(word, suf, U"u");
                suffix_replace(rv, suf, U"u");
            } else if (one_of(suf, {U"encia", U"encias"})) {
                suffix_replace(word, suf, U"ente");
                suffix_replace(rv, suf, U"ente");
            } else if (eq(suf, U"mente")) {
                word.cut(suf.n);
                r2.cut(suf.n);
                rv.cut(suf.n);
                if (endswith(r2, {U"ante", U"able", U"ible"})) {
                    word.cut(4);
                    rv.cut(4);
                }
            } else if (one_of(suf, {U"idad", U"idades"})) {
                word.cut(suf.n);
                r2.cut(suf.n);
                rv.cut(suf.n);
                for (Lit pre : {Lit(U"abil"), Lit(U"ic"), Lit(U"iv")}) {
                    if (endswith(r2, pre)) {
                        word.cut(pre.n);
                        rv.cut(pre.n);
                    }
                }
            } else if (one_of(suf, {U"ivo", U"iva", U"ivos", U"ivas"})) {
                word.cut(suf.n);
                r2.cut(suf.n);
                rv.cut(suf.n);
                if (endswith(r2, U"at")) {
                    word.cut(2);
                    rv.cut(2);
                }
            } else {
                word.cut(suf.n);
                rv.cut(suf.n);
            }
        }
    }

    if (!step1_success) {
        // STEP 2a: verb suffixes beginning with 'y' (after a 'u')
        if (const Lit* hit = STEP2A.each(rv, [&](const Lit& l) {
                const long k = (long)l.n;
                return eq(slice(word, -k - 1, -k), U"u");
            })) {
            word.cut(hit->n);
            rv.cut(hit->n);
        }
        // STEP 2b: other verb suffixes
        if (const Lit* hit = STEP2B.first(rv)) {
            const View suf = *hit;
            word.cut(suf.n);
            rv.cut(suf.n);
            if (one_of(suf, {U"en", U"es", U"\u00e9is", U"emos"})) {
                if (endswith(word, U"gu")) word.cut(1);
                if (endswith(rv, U"gu")) rv.cut(1);
            }
        }
    }

    // STEP 3: residual suffix
    if (const Lit* hit = STEP3.first(rv)) {
        const View suf = *hit;
        word.cut(suf.n);
        if (one_of(suf, {U"e", U"\u00e9"})) {
            rv.cut(suf.n);
            if (endswith(word, U"gu") && endswith(rv, U"u")) word.cut(1);
        }
    }

    replace_accented(word);
    return word.str();
}

}  // namespace spanish

inline constexpr Language SNOWBALL_SPANISH{"spanish", spanish::stem};

}  // namespace stem
}  // namespace rouge
