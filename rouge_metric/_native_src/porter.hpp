// nltk's PorterStemmer() (mode NLTK_EXTENSIONS, the one rouge-score builds): for ASCII words (porter_stem,
// the default pipeline's stemmer) and, on code points, for every str (stemmers/snowball_porter.hpp, nltk's
// SnowballStemmer("porter")).
//
// Ownership: pure functions of their arguments; no shared state (the irregular-forms pool is a
// constant). Any thread may call them at any time, with or without the GIL.
//
// Each function mirrors the method of nltk/stem/porter.py with the same name, statement for
// statement, including the NLTK_EXTENSIONS special cases (the irregular-forms pool, step 1a's
// "ies" of length 4, step 1b's "ied", step 1c's condition, step 2's "alli" recursion, "fulli" and
// "logi", the two-letter cvc) and the quirks of its rule lists (the first rule whose suffix matches
// decides, even when its condition fails; step 1b's "*d" rule also matches a literal "*d" suffix).
// The steps are templates over the character type: bytes for ASCII words, code points (char32_t) for
// any str. nltk's rules name only ASCII letters, so a code point outside them is a consonant like any
// letter other than a, e, i, o, u and y. Checked against nltk 3.10 (core.NATIVE_PORTER_NLTK): every
// distinct token of the test corpora, generated words over every rule and suffix, and random strings
// (tests/test_porter.py, tests/test_stemmer_porter.py). porter_stem returns false for a word with a byte
// >= 0x80: Python's str.lower() of non-ASCII text is the binding's (stemmers/snowball_porter.hpp).
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>

namespace rouge {
namespace {

using sv = std::string_view;
template <class C>
using p_view = std::basic_string_view<C>;
template <class C>
using p_string = std::basic_string<C>;

// ASCII byte c as a character of type C.
template <class C>
constexpr C p_char(char c) {
    return (C)(unsigned char)c;
}

template <class C>
inline bool p_is_vowel(C c) {
    return c == C('a') || c == C('e') || c == C('i') || c == C('o') || c == C('u');
}

// _is_consonant(word, i): a 'y' is a consonant at the start or after a vowel (runs of 'y' alternate).
template <class C>
inline bool p_is_consonant(p_view<C> w, size_t i) {
    if (p_is_vowel(w[i])) return false;
    if (w[i] == C('y')) {
        bool negate = false;
        while (i > 0 && w[i] == C('y')) {
            negate = !negate;
            --i;
        }
        return (!p_is_vowel(w[i])) != negate;
    }
    return true;
}

// _measure(stem): the number of "vc" in the consonant/vowel sequence (_consonant_flags).
template <class C>
inline int p_measure(p_view<C> s) {
    int m = 0;
    bool prev = false;  // flag of s[i - 1] (true: consonant)
    for (size_t i = 0; i < s.size(); ++i) {
        C c = s[i];
        bool cons = p_is_vowel(c) ? false : (c == C('y') ? (i == 0 ? true : !prev) : true);
        if (i > 0 && !prev && cons) ++m;
        prev = cons;
    }
    return m;
}

// _contains_vowel(stem): not all(_consonant_flags(stem)).
template <class C>
inline bool p_contains_vowel(p_view<C> s) {
    bool prev = false;
    for (size_t i = 0; i < s.size(); ++i) {
        C c = s[i];
        bool cons = p_is_vowel(c) ? false : (c == C('y') ? (i == 0 ? true : !prev) : true);
        if (!cons) return true;
        prev = cons;
    }
    return false;
}

template <class C>
inline bool p_ends_double_consonant(p_view<C> w) {
    size_t n = w.size();
    return n >= 2 && w[n - 1] == w[n - 2] && p_is_consonant(w, n - 1);
}

template <class C>
inline bool p_ends_cvc(p_view<C> w) {
    size_t n = w.size();
    C last = n ? w[n - 1] : C(0);
    return (n >= 3 && p_is_consonant(w, n - 3) && !p_is_consonant(w, n - 2) && p_is_consonant(w, n - 1) &&
            last != C('w') && last != C('x') && last != C('y')) ||
           (n == 2 && !p_is_consonant(w, 0) && p_is_consonant(w, 1));
}

// w.endswith(suf) for an ASCII suffix. The last characters are compared first: most rules fail there.
template <class C>
inline bool p_ends(p_view<C> w, sv suf) {
    size_t n = w.size(), m = suf.size();
    if (n < m) return false;
    for (size_t i = 1; i <= m; ++i)
        if (w[n - i] != p_char<C>(suf[m - i])) return false;
    return true;
}
template <class C>
inline bool p_ends(const p_string<C>& w, sv suf) {
    return p_ends(p_view<C>(w), suf);
}

// The steps rewrite the word in place (nltk returns a new str: the same characters).
// w = w[:-cut] + rep
template <class C>
inline void p_replace(p_string<C>& w, size_t cut, sv rep) {
    w.resize(w.size() - cut);
    if constexpr (sizeof(C) == 1) {
        w.append(rep.data(), rep.size());
    } else {
        for (char c : rep) w.push_back(p_char<C>(c));
    }
}

// The conditions of the rule lists.
enum PCond { P_NONE, P_M0, P_M1, P_ION, P_LOGI, P_LL, P_1C };
struct PRule {
    sv suf, rep;
    PCond cond;
};

template <class C>
inline bool p_cond(PCond c, p_view<C> stem, p_view<C> word) {
    switch (c) {
        case P_NONE: return true;
        case P_M0: return p_measure(stem) > 0;
        case P_M1: return p_measure(stem) > 1;
        case P_ION: return p_measure(stem) > 1 && (stem.back() == C('s') || stem.back() == C('t'));
        case P_LOGI: return p_measure(word.substr(0, word.size() - 3)) > 0;  // word[:-3]
        case P_LL: return p_measure(word.substr(0, word.size() - 1)) > 1;    // word[:-1]
        case P_1C: return stem.size() > 1 && p_is_consonant(stem, stem.size() - 1);
    }
    return false;
}

// The rules of a list grouped by the last character of their suffix, each group in list order
// (first[c]: the first rule whose suffix ends with c, next[i]: the next one after rule i; N: none). A
// word can only match a rule whose suffix ends with the word's last character, so the first rule of
// its group that matches is the first of the whole list that matches. Suffixes are ASCII.
template <size_t N>
struct PIndex {
    static_assert(N < 255, "rule lists index with uint8_t");
    uint8_t first[128] = {};
    uint8_t next[N] = {};
    constexpr explicit PIndex(const PRule (&rules)[N]) {
        for (uint8_t& f : first) f = (uint8_t)N;
        for (size_t i = N; i-- > 0;) {  // backwards: each group's head ends at its first rule
            const unsigned char c = (unsigned char)rules[i].suf.back();
            next[i] = first[c & 127];
            first[c & 127] = (uint8_t)i;
        }
    }
};

// _apply_rule_list without the "*d" rule (only step 1b has it, written out there): the first rule
// whose suffix matches decides, even when its condition fails. Only the rules of the word's last
// character are tried (PIndex).
template <class C, size_t N>
inline void p_apply(p_string<C>& w, const PRule (&rules)[N], const PIndex<N>& idx) {
    if (w.empty()) return;
    const uint32_t last = (uint32_t)(std::make_unsigned_t<C>)w.back();
    if (last >= 128) return;  // no suffix ends with it
    for (size_t i = idx.first[last]; i < N; i = idx.next[i]) {
        const PRule& r = rules[i];
        if (p_ends(w, r.suf)) {
            p_view<C> word(w);
            if (p_cond(r.cond, word.substr(0, w.size() - r.suf.size()), word)) p_replace(w, r.suf.size(), r.rep);
            return;
        }
    }
}

template <class C>
inline void p_step1a(p_string<C>& w) {
    if (p_ends(w, "ies") && w.size() == 4) return p_replace(w, 3, "ie");  // w[:1] + "ie"
    static constexpr PRule rules[] = {{"sses", "ss", P_NONE}, {"ies", "i", P_NONE}, {"ss", "ss", P_NONE}, {"s", "", P_NONE}};
    static constexpr PIndex<std::size(rules)> index(rules);
    p_apply(w, rules, index);
}

template <class C>
inline void p_step1b(p_string<C>& w) {
    size_t n = w.size();
    if (p_ends(w, "ied")) return p_replace(w, 3, n == 4 ? "ie" : "i");
    if (p_ends(w, "eed")) {
        if (p_measure(p_view<C>(w).substr(0, n - 3)) > 0) p_replace(w, 3, "ee");
        return;
    }
    size_t cut = 0;
    for (sv suf : {sv("ed"), sv("ing")}) {
        if (p_ends(w, suf) && p_contains_vowel(p_view<C>(w).substr(0, n - suf.size()))) {
            cut = suf.size();
            break;
        }
    }
    if (!cut) return;
    w.resize(n - cut);  // w is now the stem s (non-empty: it has a vowel)
    if (p_ends(w, "at")) return p_replace(w, 2, "ate");
    if (p_ends(w, "bl")) return p_replace(w, 2, "ble");
    if (p_ends(w, "iz")) return p_replace(w, 2, "ize");
    // ("*d", s[-1], s[-1] not in "lsz"): a double consonant, or (as nltk's endswith("*d")) the literal suffix.
    C last = w.back();
    if (p_ends_double_consonant(p_view<C>(w)) || p_ends(w, "*d")) {
        if (last != C('l') && last != C('s') && last != C('z')) {
            w.resize(w.size() - 2);  // s[:-2] + s[-1]
            w.push_back(last);
        }
        return;
    }
    // ("", "e", m == 1 and cvc)
    if (p_measure(p_view<C>(w)) == 1 && p_ends_cvc(p_view<C>(w))) w.push_back(C('e'));
}

template <class C>
inline void p_step1c(p_string<C>& w) {
    static constexpr PRule rules[] = {{"y", "i", P_1C}};
    static constexpr PIndex<std::size(rules)> index(rules);
    p_apply(w, rules, index);
}

template <class C>
inline void p_step2(p_string<C>& w) {
    if (p_ends(w, "alli") && p_measure(p_view<C>(w).substr(0, w.size() - 4)) > 0) {
        p_replace(w, 4, "al");
        return p_step2(w);
    }
    static constexpr PRule rules[] = {
        {"ational", "ate", P_M0}, {"tional", "tion", P_M0}, {"enci", "ence", P_M0},  {"anci", "ance", P_M0},
        {"izer", "ize", P_M0},    {"bli", "ble", P_M0},     {"alli", "al", P_M0},     {"entli", "ent", P_M0},
        {"eli", "e", P_M0},       {"ousli", "ous", P_M0},   {"ization", "ize", P_M0}, {"ation", "ate", P_M0},
        {"ator", "ate", P_M0},    {"alism", "al", P_M0},    {"iveness", "ive", P_M0}, {"fulness", "ful", P_M0},
        {"ousness", "ous", P_M0}, {"aliti", "al", P_M0},    {"iviti", "ive", P_M0},   {"biliti", "ble", P_M0},
        {"fulli", "ful", P_M0},   {"logi", "log", P_LOGI},
    };
    static constexpr PIndex<std::size(rules)> index(rules);
    p_apply(w, rules, index);
}

template <class C>
inline void p_step3(p_string<C>& w) {
    static constexpr PRule rules[] = {{"icate", "ic", P_M0}, {"ative", "", P_M0}, {"alize", "al", P_M0},
                                  {"iciti", "ic", P_M0}, {"ical", "ic", P_M0}, {"ful", "", P_M0},
                                  {"ness", "", P_M0}};
    static constexpr PIndex<std::size(rules)> index(rules);
    p_apply(w, rules, index);
}

template <class C>
inline void p_step4(p_string<C>& w) {
    static constexpr PRule rules[] = {
        {"al", "", P_M1},   {"ance", "", P_M1}, {"ence", "", P_M1}, {"er", "", P_M1},    {"ic", "", P_M1},
        {"able", "", P_M1}, {"ible", "", P_M1}, {"ant", "", P_M1},  {"ement", "", P_M1}, {"ment", "", P_M1},
        {"ent", "", P_M1},  {"ion", "", P_ION}, {"ou", "", P_M1},   {"ism", "", P_M1},   {"ate", "", P_M1},
        {"iti", "", P_M1},  {"ous", "", P_M1},  {"ive", "", P_M1},  {"ize", "", P_M1},
    };
    static constexpr PIndex<std::size(rules)> index(rules);
    p_apply(w, rules, index);
}

template <class C>
inline void p_step5a(p_string<C>& w) {
    if (p_ends(w, "e")) {
        p_view<C> stem = p_view<C>(w).substr(0, w.size() - 1);
        int m = p_measure(stem);
        if (m > 1 || (m == 1 && !p_ends_cvc(stem))) w.pop_back();
    }
}

template <class C>
inline void p_step5b(p_string<C>& w) {
    static constexpr PRule rules[] = {{"ll", "l", P_LL}};
    static constexpr PIndex<std::size(rules)> index(rules);
    p_apply(w, rules, index);
}

// The irregular-forms pool, looked up with the lowercased word: true and `out` set when w is in it.
template <class C>
inline bool porter_pool(p_view<C> w, sv& out) {
    static const std::pair<sv, sv> pool[] = {
        {"sky", "sky"},       {"skies", "sky"},         {"dying", "die"},     {"lying", "lie"},
        {"tying", "tie"},     {"news", "news"},         {"innings", "inning"}, {"inning", "inning"},
        {"outings", "outing"}, {"outing", "outing"},    {"cannings", "canning"}, {"canning", "canning"},
        {"howe", "howe"},     {"proceed", "proceed"},   {"exceed", "exceed"}, {"succeed", "succeed"},
    };
    if (w.size() < 3 || w.size() > 8) return false;
    for (const auto& e : pool) {
        if (e.first.size() == w.size() && p_ends(w, e.first)) {
            out = e.second;
            return true;
        }
    }
    return false;
}

// Steps 1a to 5b of stem(), on the lowercased word.
template <class C>
inline void porter_steps(p_string<C>& w) {
    p_step1a(w);
    p_step1b(w);
    p_step1c(w);
    p_step2(w);
    p_step3(w);
    p_step4(w);
    p_step5a(w);
    p_step5b(w);
}

// stem(word): false (out untouched) when word has a byte >= 0x80.
inline bool porter_stem(const char* p, size_t n, std::string& out) {
    for (size_t i = 0; i < n; ++i)
        if ((unsigned char)p[i] >= 0x80) return false;
    out.assign(p, n);  // the word is stemmed in out (no string of its own)
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');  // str.lower() of ASCII
    sv hit;
    if (porter_pool(sv(out), hit)) {
        out.assign(hit);
        return true;
    }
    if (n > 2) porter_steps(out);
    return true;
}

}  // namespace
}  // namespace rouge
