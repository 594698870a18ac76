// nltk's Snowball stemmer for english (nltk.stem.snowball.EnglishStemmer, nltk 3.10): its C++ twin.
//
// Step by step what nltk's stem() does, quirks included: words of up to two letters and the special words
// returned first, the three apostrophes made one, R1 after "gener"/"commun"/"arsen", the regions rewritten
// with the word (a region too short for a rewritten suffix becomes empty, or "e" for R2 in two rules of step
// 2), step 1b's 'e' added to R2 only when the word is longer than 5 or R1 has 3 letters. O(len(word)) per step.
#pragma once

#include "snowball_standard.hpp"

namespace rouge {
namespace stem {
namespace english {

using namespace sb;

inline constexpr Chars VOWELS(U"aeiouy");
inline constexpr Chars LI_ENDING(U"cdeghkmnrt");
inline constexpr Chars WXY(U"wxY");

inline constexpr Suffixes STEP0{U"'s'", U"'s", U"'"};
inline constexpr Suffixes STEP1A{U"sses", U"ied", U"ies", U"us", U"ss", U"s"};
inline constexpr Suffixes STEP1B{U"eedly", U"ingly", U"edly", U"eed", U"ing", U"ed"};
inline constexpr Suffixes STEP2{
    U"ization", U"ational", U"fulness", U"ousness", U"iveness", U"tional", U"biliti", U"lessli", U"entli", U"ation",
    U"alism", U"aliti", U"ousli", U"iviti", U"fulli", U"enci", U"anci", U"abli", U"izer", U"ator", U"alli", U"bli",
    U"ogi", U"li",
};
inline constexpr Suffixes STEP3{
    U"ational", U"tional", U"alize", U"icate", U"iciti", U"ative", U"ical", U"ness", U"ful",
};
inline constexpr Suffixes STEP4{
    U"ement", U"ance", U"ence", U"able", U"ible", U"ment", U"ant", U"ent", U"ism", U"ate", U"iti", U"ous", U"ive",
    U"ize", U"ion", U"al", U"er", U"ic",
};
inline constexpr Suffixes DOUBLE_CONSONANTS{U"bb", U"dd", U"ff", U"gg", U"mm", U"nn", U"pp", U"rr", U"tt"};

// The special words (returned as their stem before any step) and their stems, in the same order.
inline constexpr Suffixes SPECIAL_WORDS{
    U"skis", U"skies", U"dying", U"lying", U"tying", U"idly", U"gently", U"ugly", U"early", U"only", U"singly",
    U"sky", U"news", U"howe", U"atlas", U"cosmos", U"bias", U"andes", U"inning", U"innings", U"outing", U"outings",
    U"canning", U"cannings", U"herring", U"herrings", U"earring", U"earrings", U"proceed", U"proceeds", U"proceeded",
    U"proceeding", U"exceed", U"exceeds", U"exceeded", U"exceeding", U"succeed", U"succeeds", U"succeeded",
    U"succeeding",
};
inline constexpr Lit SPECIAL_STEMS[] = {
    U"ski", U"sky", U"die", U"lie", U"tie", U"idl", U"gentl", U"ugli", U"earli", U"onli", U"singl", U"sky", U"news",
    U"howe", U"atlas", U"cosmos", U"bias", U"andes", U"inning", U"inning", U"outing", U"outing", U"canning",
    U"canning", U"herring", U"herring", U"earring", U"earring", U"proceed", U"proceed", U"proceed", U"proceed",
    U"exceed", U"exceed", U"exceed", U"exceed", U"succeed", U"succeed", U"succeed", U"succeed",
};

// The three strings of each step, changed together.
struct Word3 {
    Str& word;
    Str& r1;
    Str& r2;
    void cut(size_t k) {
        word.cut(k);
        r1.cut(k);
        r2.cut(k);
    }
    // word = suffix_replace(word, suffix, rep); each region the same when it is at least as long as the
    // suffix, else "" (R2: `r2_short`, "" or "e").
    void rewrite(View suffix, Lit rep, Lit r2_short = U"") {
        suffix_replace(word, suffix, rep);
        if (r1.size() >= suffix.n)
            suffix_replace(r1, suffix, rep);
        else
            r1.assign(View(U""));
        if (r2.size() >= suffix.n)
            suffix_replace(r2, suffix, rep);
        else
            r2.assign(r2_short);
    }
    // The last letter of the word replaced by c; of each region too, or the region emptied when it is empty.
    void set_last(Lit c) {
        suffix_replace(word, Lit(U"."), c);
        if (r1.size() >= 1) suffix_replace(r1, Lit(U"."), c);
        if (r2.size() >= 1) suffix_replace(r2, Lit(U"."), c);
    }
};

inline bool has_vowel(View s) {
    for (size_t i = 0; i < s.n; ++i)
        if (VOWELS.has(s[i])) return true;
    return false;
}

inline U32 stem(const Input& in) {
    if (is_stopword(in) || in.lower.size() <= 2) return in.lower;
    if (const Lit* special = SPECIAL_WORDS.find_word(View(in.lower))) {
        const Lit& stem = SPECIAL_STEMS[SPECIAL_WORDS.index(special)];
        return U32(stem.s, stem.n);
    }

    Str word{View(in.lower)};
    for (size_t i = 0; i < word.size(); ++i)  // the three apostrophes made one
        if (word[i] == U'\u2019' || word[i] == U'\u2018' || word[i] == U'\u201b') word[i] = U'\'';
    if (startswith(word, U"'")) word.assign(tail(word, 1));
    if (startswith(word, U"y")) word[0] = U'Y';
    for (size_t i = 1; i < word.size(); ++i)
        if (VOWELS.has(word[i - 1]) && word[i] == U'y') word[i] = U'Y';

    Str r1, r2;
    if (startswith(word, {U"gener", U"commun", U"arsen"})) {
        size_t a = startswith(word, {U"gener", U"arsen"}) ? 5 : 6;
        r1.assign(tail(word, a));
        r2.assign(tail(word, after_vowel_consonant(word, a, VOWELS)));
    } else {
        const R1R2 reg = r1r2_standard(word, VOWELS);
        r1.assign(tail(word, reg.r1));
        r2.assign(tail(word, reg.r2));
    }
    Word3 w{word, r1, r2};

    // STEP 0
    if (const Lit* hit = STEP0.first(word)) w.cut(hit->n);

    // STEP 1a
    if (const Lit* hit = STEP1A.first(word)) {
        const View suf = *hit;
        if (eq(suf, U"sses")) {
            w.cut(2);
        } else if (one_of(suf, {U"ied", U"ies"})) {
            w.cut(word.size() > 4 ? 2 : 1);  // len(word[:-3]) > 1
        } else if (eq(suf, U"s")) {
            if (has_vowel(slice(word, 0, -2))) w.cut(1);
        }
    }

    // STEP 1b
    if (const Lit* hit = STEP1B.first(word)) {
        const View suf = *hit;
        if (one_of(suf, {U"eed", U"eedly"})) {
            if (endswith(r1, suf)) w.rewrite(suf, U"ee");
        } else if (has_vowel(slice(word, 0, -(long)suf.n))) {
            w.cut(suf.n);
            if (endswith(word, {U"at", U"bl", U"iz"})) {
                word.append(U"e");
                r1.append(U"e");
                if (word.size() > 5 || r1.size() >= 3) r2.append(U"e");
            } else if (DOUBLE_CONSONANTS.first(word)) {
                w.cut(1);
            } else if ((r1.empty() && word.size() >= 3 && !VOWELS.has(at(word, -1)) && !WXY.has(at(word, -1)) &&
                        VOWELS.has(at(word, -2)) && !VOWELS.has(at(word, -3))) ||
                       (r1.empty() && word.size() == 2 && VOWELS.has(word[0]) && !VOWELS.has(word[1]))) {
                word.append(U"e");
                if (!r1.empty()) r1.append(U"e");
                if (!r2.empty()) r2.append(U"e");
            }
        }
    }

    // STEP 1c
    if (word.size() > 2 && (at(word, -1) == U'y' || at(word, -1) == U'Y') && !VOWELS.has(at(word, -2)))
        w.set_last(U"i");

    // STEP 2
    if (const Lit* hit = STEP2.first(word)) {
        const View suf = *hit;
        if (endswith(r1, suf)) {
            if (eq(suf, U"tional")) {
                w.cut(2);
            } else if (one_of(suf, {U"enci", U"anci", U"abli"})) {
                w.set_last(U"e");
            } else if (eq(suf, U"entli")) {
                w.cut(2);
            } else if (one_of(suf, {U"izer", U"ization"})) {
                w.rewrite(suf, U"ize");
            } else if (one_of(suf, {U"ational", U"ation", U"ator"})) {
                w.rewrite(suf, U"ate", U"e");
            } else if (one_of(suf, {U"alism", U"aliti", U"alli"})) {
                w.rewrite(suf, U"al");
            } else if (eq(suf, U"fulness")) {
                w.cut(4);
            } else if (one_of(suf, {U"ousli", U"ousness"})) {
                w.rewrite(suf, U"ous");
            } else if (one_of(suf, {U"iveness", U"iviti"})) {
                w.rewrite(suf, U"ive", U"e");
            } else if (one_of(suf, {U"biliti", U"bli"})) {
                w.rewrite(suf, U"ble");
            } else if (eq(suf, U"ogi") && at(word, -4) == U'l') {
                w.cut(1);
            } else if (one_of(suf, {U"fulli", U"lessli"})) {
                w.cut(2);
            } else if (eq(suf, U"li") && LI_ENDING.has(at(word, -3))) {
                w.cut(2);
            }
        }
    }

    // STEP 3
    if (const Lit* hit = STEP3.first(word)) {
        const View suf = *hit;
        if (endswith(r1, suf)) {
            if (eq(suf, U"tional")) {
                w.cut(2);
            } else if (eq(suf, U"ational")) {
                w.rewrite(suf, U"ate");
            } else if (eq(suf, U"alize")) {
                w.cut(3);
            } else if (one_of(suf, {U"icate", U"iciti", U"ical"})) {
                w.rewrite(suf, U"ic");
            } else if (one_of(suf, {U"ful", U"ness"})) {
                w.cut(suf.n);
            } else if (eq(suf, U"ative") && endswith(r2, suf)) {
                w.cut(5);
            }
        }
    }

    // STEP 4
    if (const Lit* hit = STEP4.first(word)) {
        const View suf = *hit;
        if (endswith(r2, suf)) {
            if (eq(suf, U"ion")) {
                const char32_t c = at(word, -4);
                if (c == U's' || c == U't') w.cut(3);
            } else {
                w.cut(suf.n);
            }
        }
    }

    // STEP 5
    if (endswith(r2, U"l") && at(word, -2) == U'l') {
        word.cut(1);
    } else if (endswith(r2, U"e")) {
        word.cut(1);
    } else if (endswith(r1, U"e")) {
        if (word.size() >= 4 && (VOWELS.has(at(word, -2)) || WXY.has(at(word, -2)) || !VOWELS.has(at(word, -3)) ||
                                 VOWELS.has(at(word, -4))))
            word.cut(1);
    }

    replace(word, U"Y", U"y");
    return word.str();
}

}  // namespace english

inline constexpr Language SNOWBALL_ENGLISH{"english", english::stem};

}  // namespace stem
}  // namespace rouge
