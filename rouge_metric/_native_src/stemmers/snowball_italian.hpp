// nltk's Snowball stemmer for italian (nltk.stem.snowball.ItalianStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: acute accents made grave, step 0's tests on slices
// of RV, "logia"/"logie" setting RV to the word less two more letters, R2 and RV cut by the rules that name
// them. O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace italian {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiou\u00e0\u00e8\u00ec\u00f2\u00f9");

inline constexpr Suffixes STEP0{
    U"gliela", U"gliele", U"glieli", U"glielo", U"gliene", U"sene", U"mela", U"mele", U"meli", U"melo", U"mene",
    U"tela", U"tele", U"teli", U"telo", U"tene", U"cela", U"cele", U"celi", U"celo", U"cene", U"vela", U"vele",
    U"veli", U"velo", U"vene", U"gli", U"ci", U"la", U"le", U"li", U"lo", U"mi", U"ne", U"si", U"ti", U"vi",
};
inline constexpr Suffixes STEP1{
    U"atrice", U"atrici", U"azione", U"azioni", U"uzione", U"uzioni", U"usione", U"usioni", U"amento", U"amenti",
    U"imento", U"imenti", U"amente", U"abile", U"abili", U"ibile", U"ibili", U"mente", U"atore", U"atori", U"logia",
    U"logie", U"anza", U"anze", U"iche", U"ichi", U"ismo", U"ismi", U"ista", U"iste", U"isti", U"ist\u00e0",
    U"ist\u00e8", U"ist\u00ec", U"ante", U"anti", U"enza", U"enze", U"ico", U"ici", U"ica", U"ice", U"oso", U"osi",
    U"osa", U"ose", U"it\u00e0", U"ivo", U"ivi", U"iva", U"ive",
};
inline constexpr Suffixes STEP2{
    U"erebbero", U"irebbero", U"assero", U"assimo", U"eranno", U"erebbe", U"eremmo", U"ereste", U"eresti", U"essero",
    U"iranno", U"irebbe", U"iremmo", U"ireste", U"iresti", U"iscano", U"iscono", U"issero", U"arono", U"avamo",
    U"avano", U"avate", U"eremo", U"erete", U"erono", U"evamo", U"evano", U"evate", U"iremo", U"irete", U"irono",
    U"ivamo", U"ivano", U"ivate", U"ammo", U"ando", U"asse", U"assi", U"emmo", U"enda", U"ende", U"endi", U"endo",
    U"erai", U"erei", U"Yamo", U"iamo", U"immo", U"irai", U"irei", U"isca", U"isce", U"isci", U"isco", U"ano",
    U"are", U"ata", U"ate", U"ati", U"ato", U"ava", U"avi", U"avo", U"er\u00e0", U"ere", U"er\u00f2", U"ete", U"eva",
    U"evi", U"evo", U"ir\u00e0", U"ire", U"ir\u00f2", U"ita", U"ite", U"iti", U"ito", U"iva", U"ivi", U"ivo", U"ono",
    U"uta", U"ute", U"uti", U"uto", U"ar", U"ir",
};

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;
    bool step1_success = false;

    Str word{View(in.lower)};
    for (size_t i = 0; i < word.size(); ++i) {  // acute accents made grave
        switch (word[i]) {
            case U'\u00e1': word[i] = U'\u00e0'; break;
            case U'\u00e9': word[i] = U'\u00e8'; break;
            case U'\u00ed': word[i] = U'\u00ec'; break;
            case U'\u00f3': word[i] = U'\u00f2'; break;
            case U'\u00fa': word[i] = U'\u00f9'; break;
            default: break;
        }
    }
    const size_t n = word.size();
    for (size_t i = 1; i < n; ++i)  // 'u' after 'q'
        if (word[i - 1] == U'q' && word[i] == U'u') word[i] = U'U';
    for (size_t i = 1; i + 1 < n; ++i) {  // 'u' and 'i' between vowels
        if (VOWELS.has(word[i - 1]) && VOWELS.has(word[i + 1])) {
            if (word[i] == U'u')
                word[i] = U'U';
            else if (word[i] == U'i')
                word[i] = U'I';
        }
    }

    const R1R2 reg = r1r2_standard(word, VOWELS);
    Str r1{tail(word, reg.r1)}, r2{tail(word, reg.r2)}, rv{tail(word, rv_standard(word, VOWELS))};

    // STEP 0: attached pronoun
    if (const Lit* hit = STEP0.first(rv)) {
        const View suf = *hit;
        const long k = (long)suf.n;
        if (one_of(slice(rv, -k - 4, -k), {U"ando", U"endo"})) {
            word.cut(suf.n);
            r1.cut(suf.n);
            r2.cut(suf.n);
            rv.cut(suf.n);
        } else if (one_of(slice(rv, -k - 2, -k), {U"ar", U"er", U"ir"})) {
            suffix_replace(word, suf, U"e");
            suffix_replace(r1, suf, U"e");
            suffix_replace(r2, suf, U"e");
            suffix_replace(rv, suf, U"e");
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
            } else if (endswith(r2, {U"os", U"ic"})) {
                word.cut(2);
                rv.cut(2);
            } else if (endswith(r2, U"abil")) {
                word.cut(4);
                rv.cut(4);
            }
        } else if (one_of(suf, {U"amento", U"amenti", U"imento", U"imenti"}) && endswith(rv, suf)) {
            step1_success = true;
            word.cut(6);
            rv.cut(6);
        } else if (endswith(r2, suf)) {
            step1_success = true;
            if (one_of(suf, {U"azione", U"azioni", U"atore", U"atori"})) {
                word.cut(suf.n);
                r2.cut(suf.n);
                rv.cut(suf.n);
                if (endswith(r2, U"ic")) {
                    word.cut(2);
                    rv.cut(2);
                }
            } else if (one_of(suf, {U"logia", U"logie"})) {
                word.cut(2);
                rv.assign(slice(word, 0, -2));
            } else if (one_of(suf, {U"uzione", U"uzioni", U"usione", U"usioni"})) {
                word.cut(5);
                rv.cut(5);
            } else if (one_of(suf, {U"enza", U"enze"})) {
                suffix_replace(word, suf, U"te");
                suffix_replace(rv, suf, U"te");
            } else if (eq(suf, U"it\u00e0")) {
                word.cut(3);
                r2.cut(3);
                rv.cut(3);
                if (endswith(r2, {U"ic", U"iv"})) {
                    word.cut(2);
                    rv.cut(2);
                } else if (endswith(r2, U"abil")) {
                    word.cut(4);
                    rv.cut(4);
                }
            } else if (one_of(suf, {U"ivo", U"ivi", U"iva", U"ive"})) {
                word.cut(3);
                r2.cut(3);
                rv.cut(3);
                if (endswith(r2, U"at")) {
                    word.cut(2);
                    r2.cut(2);
                    rv.cut(2);
                    if (endswith(r2, U"ic")) {
                        word.cut(2);
                        rv.cut(2);
                    }
                }
            } else {
                word.cut(suf.n);
                rv.cut(suf.n);
            }
        }
    }

    // STEP 2: verb suffixes
    if (!step1_success) {
        if (const Lit* hit = STEP2.first(rv)) {
            word.cut(hit->n);
            rv.cut(hit->n);
        }
    }

    // STEP 3a
    if (endswith(rv, {U"a", U"e", U"i", U"o", U"\u00e0", U"\u00e8", U"\u00ec", U"\u00f2"})) {
        word.cut(1);
        rv.cut(1);
        if (endswith(rv, U"i")) {
            word.cut(1);
            rv.cut(1);
        }
    }
    // STEP 3b
    if (endswith(rv, {U"ch", U"gh"})) word.cut(1);

    replace(word, U"I", U"i");
    replace(word, U"U", U"u");
    return word.str();
}

}  // namespace italian

inline constexpr Language SNOWBALL_ITALIAN{"italian", italian::stem};

}  // namespace stem
}  // namespace rouge
