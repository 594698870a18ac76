// nltk's PorterStemmer() (mode NLTK_EXTENSIONS, the one rouge-score builds), for ASCII words.
//
// Ownership: pure functions of their arguments; no shared state (the irregular-forms pool is a
// constant). Any thread may call them at any time, with or without the GIL.
//
// Each function mirrors the method of nltk/stem/porter.py with the same name, statement for
// statement, including the NLTK_EXTENSIONS special cases (the irregular-forms pool, step 1a's
// "ies" of length 4, step 1b's "ied", step 1c's condition, step 2's "alli" recursion, "fulli" and
// "logi", the two-letter cvc) and the quirks of its rule lists (the first rule whose suffix matches
// decides, even when its condition fails; step 1b's "*d" rule also matches a literal "*d" suffix).
// Checked against nltk 3.10 (core.NATIVE_PORTER_NLTK): every distinct token of the test corpora,
// generated words over every rule and suffix, and random strings (tests/test_porter.py). A word
// with a byte >= 0x80 is not handled (porter_stem returns false): Python's str.lower() and the
// pool lookup of non-ASCII text are left to nltk itself.
#pragma once

#include <string>
#include <string_view>

namespace rouge {
namespace {

using sv = std::string_view;

inline bool p_is_vowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

// _is_consonant(word, i): a 'y' is a consonant at the start or after a vowel (runs of 'y' alternate).
inline bool p_is_consonant(sv w, size_t i) {
    if (p_is_vowel(w[i])) return false;
    if (w[i] == 'y') {
        bool negate = false;
        while (i > 0 && w[i] == 'y') {
            negate = !negate;
            --i;
        }
        return (!p_is_vowel(w[i])) != negate;
    }
    return true;
}

// _measure(stem): the number of "vc" in the consonant/vowel sequence (_consonant_flags).
inline int p_measure(sv s) {
    int m = 0;
    bool prev = false;  // flag of s[i - 1] (true: consonant)
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        bool cons = p_is_vowel(c) ? false : (c == 'y' ? (i == 0 ? true : !prev) : true);
        if (i > 0 && !prev && cons) ++m;
        prev = cons;
    }
    return m;
}

// _contains_vowel(stem): not all(_consonant_flags(stem)).
inline bool p_contains_vowel(sv s) {
    bool prev = false;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        bool cons = p_is_vowel(c) ? false : (c == 'y' ? (i == 0 ? true : !prev) : true);
        if (!cons) return true;
        prev = cons;
    }
    return false;
}

inline bool p_ends_double_consonant(sv w) {
    size_t n = w.size();
    return n >= 2 && w[n - 1] == w[n - 2] && p_is_consonant(w, n - 1);
}

inline bool p_ends_cvc(sv w) {
    size_t n = w.size();
    char last = n ? w[n - 1] : 0;
    return (n >= 3 && p_is_consonant(w, n - 3) && !p_is_consonant(w, n - 2) && p_is_consonant(w, n - 1) &&
            last != 'w' && last != 'x' && last != 'y') ||
           (n == 2 && !p_is_consonant(w, 0) && p_is_consonant(w, 1));
}

// w.endswith(suf). The last bytes are compared first: most rules fail there.
inline bool p_ends(sv w, sv suf) {
    size_t n = w.size(), m = suf.size();
    if (n < m) return false;
    for (size_t i = 1; i <= m; ++i)
        if (w[n - i] != suf[m - i]) return false;
    return true;
}

// The steps rewrite the word in place (nltk returns a new str: the same characters).
// w = w[:-cut] + rep
inline void p_replace(std::string& w, size_t cut, sv rep) {
    w.resize(w.size() - cut);
    w.append(rep.data(), rep.size());
}

// The conditions of the rule lists.
enum PCond { P_NONE, P_M0, P_M1, P_ION, P_LOGI, P_LL, P_1C };
struct PRule {
    sv suf, rep;
    PCond cond;
};

inline bool p_cond(PCond c, sv stem, sv word) {
    switch (c) {
        case P_NONE: return true;
        case P_M0: return p_measure(stem) > 0;
        case P_M1: return p_measure(stem) > 1;
        case P_ION: return p_measure(stem) > 1 && (stem.back() == 's' || stem.back() == 't');
        case P_LOGI: return p_measure(word.substr(0, word.size() - 3)) > 0;  // word[:-3]
        case P_LL: return p_measure(word.substr(0, word.size() - 1)) > 1;    // word[:-1]
        case P_1C: return stem.size() > 1 && p_is_consonant(stem, stem.size() - 1);
    }
    return false;
}

// _apply_rule_list without the "*d" rule (only step 1b has it, written out there): the first rule
// whose suffix matches decides, even when its condition fails.
template <size_t N>
inline void p_apply(std::string& w, const PRule (&rules)[N]) {
    for (const PRule& r : rules) {
        if (p_ends(w, r.suf)) {
            sv word(w);
            if (p_cond(r.cond, word.substr(0, w.size() - r.suf.size()), word)) p_replace(w, r.suf.size(), r.rep);
            return;
        }
    }
}

inline void p_step1a(std::string& w) {
    if (p_ends(w, "ies") && w.size() == 4) return p_replace(w, 3, "ie");  // w[:1] + "ie"
    static const PRule rules[] = {{"sses", "ss", P_NONE}, {"ies", "i", P_NONE}, {"ss", "ss", P_NONE}, {"s", "", P_NONE}};
    p_apply(w, rules);
}

inline void p_step1b(std::string& w) {
    size_t n = w.size();
    if (p_ends(w, "ied")) return p_replace(w, 3, n == 4 ? "ie" : "i");
    if (p_ends(w, "eed")) {
        if (p_measure(sv(w).substr(0, n - 3)) > 0) p_replace(w, 3, "ee");
        return;
    }
    size_t cut = 0;
    for (sv suf : {sv("ed"), sv("ing")}) {
        if (p_ends(w, suf) && p_contains_vowel(sv(w).substr(0, n - suf.size()))) {
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
    char last = w.back();
    if (p_ends_double_consonant(w) || p_ends(w, "*d")) {
        if (last != 'l' && last != 's' && last != 'z') p_replace(w, 2, sv(&last, 1));
        return;
    }
    // ("", "e", m == 1 and cvc)
    if (p_measure(w) == 1 && p_ends_cvc(w)) w.push_back('e');
}

inline void p_step1c(std::string& w) {
    static const PRule rules[] = {{"y", "i", P_1C}};
    p_apply(w, rules);
}

inline void p_step2(std::string& w) {
    if (p_ends(w, "alli") && p_measure(sv(w).substr(0, w.size() - 4)) > 0) {
        p_replace(w, 4, "al");
        return p_step2(w);
    }
    static const PRule rules[] = {
        {"ational", "ate", P_M0}, {"tional", "tion", P_M0}, {"enci", "ence", P_M0},  {"anci", "ance", P_M0},
        {"izer", "ize", P_M0},    {"bli", "ble", P_M0},     {"alli", "al", P_M0},     {"entli", "ent", P_M0},
        {"eli", "e", P_M0},       {"ousli", "ous", P_M0},   {"ization", "ize", P_M0}, {"ation", "ate", P_M0},
        {"ator", "ate", P_M0},    {"alism", "al", P_M0},    {"iveness", "ive", P_M0}, {"fulness", "ful", P_M0},
        {"ousness", "ous", P_M0}, {"aliti", "al", P_M0},    {"iviti", "ive", P_M0},   {"biliti", "ble", P_M0},
        {"fulli", "ful", P_M0},   {"logi", "log", P_LOGI},
    };
    p_apply(w, rules);
}

inline void p_step3(std::string& w) {
    static const PRule rules[] = {{"icate", "ic", P_M0}, {"ative", "", P_M0}, {"alize", "al", P_M0},
                                  {"iciti", "ic", P_M0}, {"ical", "ic", P_M0}, {"ful", "", P_M0},
                                  {"ness", "", P_M0}};
    p_apply(w, rules);
}

inline void p_step4(std::string& w) {
    static const PRule rules[] = {
        {"al", "", P_M1},   {"ance", "", P_M1}, {"ence", "", P_M1}, {"er", "", P_M1},    {"ic", "", P_M1},
        {"able", "", P_M1}, {"ible", "", P_M1}, {"ant", "", P_M1},  {"ement", "", P_M1}, {"ment", "", P_M1},
        {"ent", "", P_M1},  {"ion", "", P_ION}, {"ou", "", P_M1},   {"ism", "", P_M1},   {"ate", "", P_M1},
        {"iti", "", P_M1},  {"ous", "", P_M1},  {"ive", "", P_M1},  {"ize", "", P_M1},
    };
    p_apply(w, rules);
}

inline void p_step5a(std::string& w) {
    if (p_ends(w, "e")) {
        sv stem = sv(w).substr(0, w.size() - 1);
        int m = p_measure(stem);
        if (m > 1 || (m == 1 && !p_ends_cvc(stem))) w.pop_back();
    }
}

inline void p_step5b(std::string& w) {
    static const PRule rules[] = {{"ll", "l", P_LL}};
    p_apply(w, rules);
}

// stem(word): false (out untouched) when word has a byte >= 0x80.
inline bool porter_stem(const char* p, size_t n, std::string& out) {
    std::string w(p, n);
    for (char& c : w) {
        if ((unsigned char)c >= 0x80) return false;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');  // str.lower() of ASCII
    }
    // The irregular-forms pool, looked up with the lowercased word.
    static const std::pair<sv, sv> pool[] = {
        {"sky", "sky"},       {"skies", "sky"},         {"dying", "die"},     {"lying", "lie"},
        {"tying", "tie"},     {"news", "news"},         {"innings", "inning"}, {"inning", "inning"},
        {"outings", "outing"}, {"outing", "outing"},    {"cannings", "canning"}, {"canning", "canning"},
        {"howe", "howe"},     {"proceed", "proceed"},   {"exceed", "exceed"}, {"succeed", "succeed"},
    };
    if (w.size() >= 3 && w.size() <= 8) {
        for (const auto& e : pool) {
            if (e.first == sv(w)) {
                out.assign(e.second);
                return true;
            }
        }
    }
    if (n <= 2) {
        out = std::move(w);
        return true;
    }
    p_step1a(w);
    p_step1b(w);
    p_step1c(w);
    p_step2(w);
    p_step3(w);
    p_step4(w);
    p_step5a(w);
    p_step5b(w);
    out = std::move(w);
    return true;
}

}  // namespace
}  // namespace rouge
