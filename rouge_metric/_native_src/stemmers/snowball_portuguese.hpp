// nltk's Snowball stemmer for portuguese (nltk.stem.snowball.PortugueseStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: 'ã' and 'õ' written "a~" and "o~" while stemming (and
// any "a~"/"o~" of the word, typed or made, written back as 'ã'/'õ' at the end), "qü"/"gü" made "qu"/"gu", R2
// and RV cut by the rules that name them. O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace portuguese {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiou\u00e1\u00e9\u00ed\u00f3\u00fa\u00e2\u00ea\u00f4");

inline constexpr Suffixes STEP1{
    U"amentos", U"imentos", U"u\u00e7o~es", U"amento", U"imento", U"adoras", U"adores", U"a\u00e7o~es", U"logias",
    U"\u00eancias", U"amente", U"idades", U"an\u00e7as", U"ismos", U"istas", U"adora", U"a\u00e7a~o", U"antes",
    U"\u00e2ncia", U"logia", U"u\u00e7a~o", U"\u00eancia", U"mente", U"idade", U"an\u00e7a", U"ezas", U"icos",
    U"icas", U"ismo", U"\u00e1vel", U"\u00edvel", U"ista", U"osos", U"osas", U"ador", U"ante", U"ivas", U"ivos",
    U"iras", U"eza", U"ico", U"ica", U"oso", U"osa", U"iva", U"ivo", U"ira",
};
inline constexpr Suffixes STEP2{
    U"ar\u00edamos", U"er\u00edamos", U"ir\u00edamos", U"\u00e1ssemos", U"\u00eassemos", U"\u00edssemos",
    U"ar\u00edeis", U"er\u00edeis", U"ir\u00edeis", U"\u00e1sseis", U"\u00e9sseis", U"\u00edsseis", U"\u00e1ramos",
    U"\u00e9ramos", U"\u00edramos", U"\u00e1vamos", U"aremos", U"eremos", U"iremos", U"ariam", U"eriam", U"iriam",
    U"assem", U"essem", U"issem", U"ara~o", U"era~o", U"ira~o", U"arias", U"erias", U"irias", U"ardes", U"erdes",
    U"irdes", U"asses", U"esses", U"isses", U"astes", U"estes", U"istes", U"\u00e1reis", U"areis", U"\u00e9reis",
    U"ereis", U"\u00edreis", U"ireis", U"\u00e1veis", U"\u00edamos", U"armos", U"ermos", U"irmos", U"aria", U"eria",
    U"iria", U"asse", U"esse", U"isse", U"aste", U"este", U"iste", U"arei", U"erei", U"irei", U"aram", U"eram",
    U"iram", U"avam", U"arem", U"erem", U"irem", U"ando", U"endo", U"indo", U"adas", U"idas", U"ar\u00e1s", U"aras",
    U"er\u00e1s", U"eras", U"ir\u00e1s", U"avas", U"ares", U"eres", U"ires", U"\u00edeis", U"ados", U"idos",
    U"\u00e1mos", U"amos", U"emos", U"imos", U"iras", U"ada", U"ida", U"ar\u00e1", U"ara", U"er\u00e1", U"era",
    U"ir\u00e1", U"ava", U"iam", U"ado", U"ido", U"ias", U"ais", U"eis", U"ira", U"ia", U"ei", U"am", U"em", U"ar",
    U"er", U"ir", U"as", U"es", U"is", U"eu", U"iu", U"ou",
};
inline constexpr Suffixes STEP4{
    U"os", U"a", U"i", U"o", U"\u00e1", U"\u00ed", U"\u00f3",
};

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;
    bool step1_success = false, step2_success = false;

    Str word{View(in.lower)};
    replace(word, U"\u00e3", U"a~");
    replace(word, U"\u00f5", U"o~");
    replace(word, U"q\u00fc", U"qu");
    replace(word, U"g\u00fc", U"gu");

    const R1R2 reg = r1r2_standard(word, VOWELS);
    const Str r1{tail(word, reg.r1)};  // never changed
    Str r2{tail(word, reg.r2)}, rv{tail(word, rv_standard(word, VOWELS))};

    // STEP 1: standard suffix removal
    if (const Lit* hit = STEP1.first(word)) {
        const View suf = *hit;
        const long k = (long)suf.n;
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
        } else if (one_of(suf, {U"ira", U"iras"}) && endswith(rv, suf) && eq(slice(word, -k - 1, -k), U"e")) {
            step1_success = true;
            suffix_replace(word, suf, U"ir");
            suffix_replace(rv, suf, U"ir");
        } else if (endswith(r2, suf)) {
            step1_success = true;
            if (one_of(suf, {U"logia", U"logias"})) {
                suffix_replace(word, suf, U"log");
                suffix_replace(rv, suf, U"log");
            } else if (one_of(suf, {U"u\u00e7a~o", U"u\u00e7o~es"})) {
                suffix_replace(word, suf, U"u");
                suffix_replace(rv, suf, U"u");
            } else if (one_of(suf, {U"\u00eancia", U"\u00eancias"})) {
                suffix_replace(word, suf, U"ente");
                suffix_replace(rv, suf, U"ente");
            } else if (eq(suf, U"mente")) {
                word.cut(5);
                r2.cut(5);
                rv.cut(5);
                if (endswith(r2, {U"ante", U"avel", U"ivel"})) {
                    word.cut(4);
                    rv.cut(4);
                }
            } else if (one_of(suf, {U"idade", U"idades"})) {
                word.cut(suf.n);
                r2.cut(suf.n);
                rv.cut(suf.n);
                if (endswith(r2, {U"ic", U"iv"})) {
                    word.cut(2);
                    rv.cut(2);
                } else if (endswith(r2, U"abil")) {
                    word.cut(4);
                    rv.cut(4);
                }
            } else if (one_of(suf, {U"iva", U"ivo", U"ivas", U"ivos"})) {
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

    // STEP 2: verb suffixes
    if (!step1_success) {
        if (const Lit* hit = STEP2.first(rv)) {
            step2_success = true;
            word.cut(hit->n);
            rv.cut(hit->n);
        }
    }

    if (step1_success || step2_success) {
        // STEP 3
        if (endswith(rv, U"i") && at(word, -2) == U'c') {
            word.cut(1);
            rv.cut(1);
        }
    } else {
        // STEP 4: residual suffix
        if (const Lit* hit = STEP4.first(rv)) {
            word.cut(hit->n);
            rv.cut(hit->n);
        }
    }

    // STEP 5
    if (endswith(rv, {U"e", U"\u00e9", U"\u00ea"})) {
        word.cut(1);
        rv.cut(1);
        if ((endswith(word, U"gu") && endswith(rv, U"u")) || (endswith(word, U"ci") && endswith(rv, U"i")))
            word.cut(1);
    } else if (endswith(word, U"\u00e7")) {
        suffix_replace(word, Lit(U"\u00e7"), U"c");
    }

    replace(word, U"a~", U"\u00e3");
    replace(word, U"o~", U"\u00f5");
    return word.str();
}

}  // namespace portuguese

inline constexpr Language SNOWBALL_PORTUGUESE{"portuguese", portuguese::stem};

}  // namespace stem
}  // namespace rouge
