// nltk's Snowball stemmer for french (nltk.stem.snowball.FrenchStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: regions tested with `in` (a substring anywhere in the
// region, not only at its end), R1 and R2 never shortened, RV shortened by some rules only (so later tests
// read a region the word has outgrown), `rv[rv.rindex(suffix) - 1]` reading the region's last letter when the
// suffix starts it, step 4's rule list going on past a suffix that is not in RV. O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace french {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiouy\u00e2\u00e0\u00eb\u00e9\u00ea\u00e8\u00ef\u00ee\u00f4\u00fb\u00f9");

inline constexpr Chars NO_S_AFTER(U"aiou\u00e8s");  // a final 's' after these stays (step 4)

inline constexpr Suffixes STEP1{
    U"issements", U"issement", U"atrices", U"atrice", U"ateurs", U"ations", U"logies", U"usions", U"utions",
    U"ements", U"amment", U"emment", U"ances", U"iqUes", U"ismes", U"ables", U"istes", U"ateur", U"ation", U"logie",
    U"usion", U"ution", U"ences", U"ement", U"euses", U"ments", U"ance", U"iqUe", U"isme", U"able", U"iste", U"ence",
    U"it\u00e9s", U"ives", U"eaux", U"euse", U"ment", U"eux", U"it\u00e9", U"ive", U"ifs", U"aux", U"if",
};
inline constexpr Suffixes STEP2A{
    U"issaIent", U"issantes", U"iraIent", U"issante", U"issants", U"issions", U"irions", U"issais", U"issait",
    U"issant", U"issent", U"issiez", U"issons", U"irais", U"irait", U"irent", U"iriez", U"irons", U"iront", U"isses",
    U"issez", U"\u00eemes", U"\u00eetes", U"irai", U"iras", U"irez", U"isse", U"ies", U"ira", U"\u00eet", U"ie",
    U"ir", U"is", U"it", U"i",
};
inline constexpr Suffixes STEP2B{
    U"eraIent", U"assions", U"erions", U"assent", U"assiez", U"\u00e8rent", U"erais", U"erait", U"eriez", U"erons",
    U"eront", U"aIent", U"antes", U"asses", U"ions", U"erai", U"eras", U"erez", U"\u00e2mes", U"\u00e2tes", U"ante",
    U"ants", U"asse", U"\u00e9es", U"era", U"iez", U"ais", U"ait", U"ant", U"\u00e9e", U"\u00e9s", U"er", U"ez",
    U"\u00e2t", U"ai", U"as", U"\u00e9", U"a",
};
inline constexpr Suffixes STEP4{
    U"i\u00e8re", U"I\u00e8re", U"ion", U"ier", U"Ier", U"e", U"\u00eb",
};

// __rv_french: RV = word[result:].
inline size_t rv_french(View w) {
    if (w.n < 2) return w.n;
    if (startswith(w, {U"par", U"col", U"tap"}) || (VOWELS.has(w[0]) && VOWELS.has(w[1]))) return w.n < 3 ? w.n : 3;
    for (size_t i = 1; i < w.n; ++i)
        if (VOWELS.has(w[i])) return i + 1;
    return w.n;
}

// word ends with "ic": removed when "ic" is in R2, else replaced by "iqU".
inline void ic_or_iqu(Str& word, View r2) {
    if (endswith(word, U"ic")) {
        if (contains(r2, U"ic"))
            word.cut(2);
        else
            suffix_replace(word, Lit(U"ic"), U"iqU");
    }
}

inline U32 stem(const Input& in) {
    if (is_stopword(in)) return in.lower;
    bool step1_success = false, rv_ending_found = false, step2a_success = false, step2b_success = false;

    Str word{View(in.lower)};
    const size_t n = word.size();
    for (size_t i = 1; i < n; ++i)  // 'u' after 'q'
        if (word[i - 1] == U'q' && word[i] == U'u') word[i] = U'U';
    for (size_t i = 1; i + 1 < n; ++i) {  // 'u', 'i' between vowels; 'y' next to a vowel
        bool before = VOWELS.has(word[i - 1]), after = VOWELS.has(word[i + 1]);
        if (before && after) {
            if (word[i] == U'u')
                word[i] = U'U';
            else if (word[i] == U'i')
                word[i] = U'I';
        }
        if ((before || after) && word[i] == U'y') word[i] = U'Y';
    }

    const Str marked{View(word)};  // R1 and R2 are never changed: views of the word as marked
    const R1R2 reg = r1r2_standard(marked, VOWELS);
    const View r1 = tail(marked, reg.r1), r2 = tail(marked, reg.r2);
    Str rv{tail(marked, rv_french(marked))};

    // STEP 1: standard suffix removal
    if (const Lit* hit = STEP1.first(word)) {
        const View suf = *hit;
        if (eq(suf, U"eaux")) {
            word.cut(1);
            step1_success = true;
        } else if (one_of(suf, {U"euse", U"euses"})) {
            if (contains(r2, suf)) {
                word.cut(suf.n);
                step1_success = true;
            } else if (contains(r1, suf)) {
                suffix_replace(word, suf, U"eux");
                step1_success = true;
            }
        } else if (one_of(suf, {U"ement", U"ements"}) && contains(rv, suf)) {
            word.cut(suf.n);
            step1_success = true;
            if (endswith(word, U"iv") && contains(r2, U"iv")) {
                word.cut(2);
                if (endswith(word, U"at") && contains(r2, U"at")) word.cut(2);
            } else if (endswith(word, U"eus")) {
                if (contains(r2, U"eus"))
                    word.cut(3);
                else if (contains(r1, U"eus"))
                    suffix_replace(word, Lit(U"s"), U"x");
            } else if (endswith(word, {U"abl", U"iqU"})) {
                if (contains(r2, U"abl") || contains(r2, U"iqU")) word.cut(3);
            } else if (endswith(word, {U"i\u00e8r", U"I\u00e8r"})) {
                if (contains(rv, U"i\u00e8r") || contains(rv, U"I\u00e8r")) suffix_replace(word, Lit(U"i\u00e8r"), U"i");
            }
        } else if (eq(suf, U"amment") && contains(rv, suf)) {
            suffix_replace(word, suf, U"ant");
            suffix_replace(rv, suf, U"ant");
            rv_ending_found = true;
        } else if (eq(suf, U"emment") && contains(rv, suf)) {
            suffix_replace(word, suf, U"ent");
            rv_ending_found = true;
        } else if (one_of(suf, {U"ment", U"ments"}) && contains(rv, suf) && !startswith(rv, suf) &&
                   VOWELS.has(at(rv, rfind(rv, suf) - 1))) {
            word.cut(suf.n);
            rv.cut(suf.n);
            rv_ending_found = true;
        } else if (eq(suf, U"aux") && contains(r1, suf)) {
            suffix_replace(word, Lit(U"ux"), U"l");
            step1_success = true;
        } else if (one_of(suf, {U"issement", U"issements"}) && contains(r1, suf) &&
                   !VOWELS.has(at(word, -(long)suf.n - 1))) {
            word.cut(suf.n);
            step1_success = true;
        } else if (one_of(suf, {U"ance", U"iqUe", U"isme", U"able", U"iste", U"eux", U"ances", U"iqUes", U"ismes",
                                U"ables", U"istes"}) &&
                   contains(r2, suf)) {
            word.cut(suf.n);
            step1_success = true;
        } else if (one_of(suf, {U"atrice", U"ateur", U"ation", U"atrices", U"ateurs", U"ations"}) &&
                   contains(r2, suf)) {
            word.cut(suf.n);
            step1_success = true;
            ic_or_iqu(word, r2);
        } else if (one_of(suf, {U"logie", U"logies"}) && contains(r2, suf)) {
            suffix_replace(word, suf, U"log");
            step1_success = true;
        } else if (one_of(suf, {U"usion", U"ution", U"usions", U"utions"}) && contains(r2, suf)) {
            suffix_replace(word, suf, U"u");
            step1_success = true;
        } else if (one_of(suf, {U"ence", U"ences"}) && contains(r2, suf)) {
            suffix_replace(word, suf, U"ent");
            step1_success = true;
        } else if (one_of(suf, {U"it\u00e9", U"it\u00e9s"}) && contains(r2, suf)) {
            word.cut(suf.n);
            step1_success = true;
            if (endswith(word, U"abil")) {
                if (contains(r2, U"abil"))
                    word.cut(4);
                else
                    suffix_replace(word, Lit(U"il"), U"l");
            } else if (endswith(word, U"ic")) {
                ic_or_iqu(word, r2);
            } else if (endswith(word, U"iv")) {
                if (contains(r2, U"iv")) word.cut(2);
            }
        } else if (one_of(suf, {U"if", U"ive", U"ifs", U"ives"}) && contains(r2, suf)) {
            word.cut(suf.n);
            step1_success = true;
            if (endswith(word, U"at") && contains(r2, U"at")) {
                word.cut(2);
                ic_or_iqu(word, r2);
            }
        }
    }

    // STEP 2a: verb suffixes beginning with 'i'
    if (!step1_success || rv_ending_found) {
        if (const Lit* hit = STEP2A.first(word)) {
            const View suf = *hit;
            if (contains(rv, suf) && rv.size() > suf.n && !VOWELS.has(at(rv, rfind(rv, suf) - 1))) {
                word.cut(suf.n);
                step2a_success = true;
            }
        }
        // STEP 2b: other verb suffixes
        if (!step2a_success) {
            if (const Lit* hit = STEP2B.first(rv)) {
                const View suf = *hit;
                if (eq(suf, U"ions") && contains(r2, U"ions")) {
                    word.cut(4);
                    step2b_success = true;
                } else if (one_of(suf, {U"eraIent", U"erions", U"\u00e8rent", U"erais", U"erait", U"eriez", U"erons",
                                        U"eront", U"erai", U"eras", U"erez", U"\u00e9es", U"era", U"iez", U"\u00e9e",
                                        U"\u00e9s", U"er", U"ez", U"\u00e9"})) {
                    word.cut(suf.n);
                    step2b_success = true;
                } else if (one_of(suf, {U"assions", U"assent", U"assiez", U"aIent", U"antes", U"asses", U"\u00e2mes",
                                        U"\u00e2tes", U"ante", U"ants", U"asse", U"ais", U"ait", U"ant", U"\u00e2t",
                                        U"ai", U"as", U"a"})) {
                    word.cut(suf.n);
                    rv.cut(suf.n);
                    step2b_success = true;
                    if (endswith(rv, U"e")) word.cut(1);
                }
            }
        }
    }

    if (step1_success || step2a_success || step2b_success) {
        // STEP 3
        char32_t last = at(word, -1);
        if (last == U'Y')
            word[word.size() - 1] = U'i';
        else if (last == U'\u00e7')
            word[word.size() - 1] = U'c';
    } else {
        // STEP 4: residual suffixes
        if (word.size() >= 2 && word[word.size() - 1] == U's' && !NO_S_AFTER.has(word[word.size() - 2]))
            word.cut(1);
        // the first suffix of the word that is in RV (a suffix not in RV: the next one)
        if (const Lit* hit = STEP4.each(word, [&](const Lit& l) { return contains(rv, l); })) {
            const View suf = *hit;
            if (eq(suf, U"ion") && contains(r2, suf) && Chars(U"st").has(at(rv, -4))) {
                word.cut(3);
            } else if (one_of(suf, {U"ier", U"i\u00e8re", U"Ier", U"I\u00e8re"})) {
                suffix_replace(word, suf, U"i");
            } else if (eq(suf, U"e")) {
                word.cut(1);
            } else if (eq(suf, U"\u00eb") && eq(slice(word, -3, -1), U"gu")) {
                word.cut(1);
            }
        }
    }

    // STEP 5: undouble
    if (endswith(word, {U"enn", U"onn", U"ett", U"ell", U"eill"})) word.cut(1);

    // STEP 6: un-accent the last vowel (not the first letter) when it is é or è and not the last letter
    for (size_t i = 1; i < word.size(); ++i) {
        char32_t c = word[word.size() - i];
        if (!VOWELS.has(c)) continue;
        if (i != 1 && (c == U'\u00e9' || c == U'\u00e8')) word[word.size() - i] = U'e';
        break;
    }

    replace(word, U"I", U"i");
    replace(word, U"U", U"u");
    replace(word, U"Y", U"y");
    return word.str();
}

}  // namespace french

inline constexpr Language SNOWBALL_FRENCH{"french", french::stem};

}  // namespace stem
}  // namespace rouge
