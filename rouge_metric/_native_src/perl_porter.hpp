// ROUGE-1.5.5's Porter variant (rouge_metric/perl_porter.py, use_stemmer="perl_porter"), for words of
// [a-z0-9] of at most PERL_MAX_LEN bytes; any other word is left to the Python twin (perl_stem
// returns false).
//
// Ownership: pure functions of their arguments; no shared state. Any thread may call them at any
// time, with or without the GIL.
//
// perl_porter.py is the Perl script's regular expressions translated as they are; this file follows
// it statement for statement. Two kinds of expressions occur:
// - suffix rules (`(ss|i)es$`, `(ed|ing)$`, step 2-4 lists): a search returns the match that starts
//   leftmost, and every alternative must reach the end of the word, so the longest listed suffix wins;
// - measure conditions (`^([^aeiou][^aeiouy]*)?[aeiouy][aeiou]*...`): only whether a match exists is
//   used. They are evaluated exactly, as the set of positions a prefix of the pattern can end at (a bit
//   mask over positions 0..n, so n < 64), element by element: a character class moves every position
//   whose character is in the class one step; a starred class repeats that to a fixed point; an
//   optional group adds its result to its input. A pattern without `$` matches when the set is not
//   empty at its end, one with `$` when it holds position n.
// Checked against perl_porter.stem on every distinct token of the test corpora, on generated words
// over every suffix, and on random strings (tests/test_porter.py).
#pragma once

#include <cstdint>
#include <string>

namespace rouge {
namespace {

constexpr size_t PERL_MAX_LEN = 60;

// A word's characters as class masks (bit p: the character at position p is in the class).
struct PerlMasks {
    uint64_t all = 0, aeiou = 0, y = 0, aeiouwxy = 0;
    explicit PerlMasks(const std::string& s) {
        for (size_t p = 0; p < s.size(); ++p) {
            uint64_t b = (uint64_t)1 << p;
            char ch = s[p];
            all |= b;
            bool v = ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u';
            if (v) aeiou |= b;
            if (ch == 'y') y |= b;
            if (v || ch == 'w' || ch == 'x' || ch == 'y') aeiouwxy |= b;
        }
    }
    uint64_t c() const { return all & ~aeiou; }        // [^aeiou]
    uint64_t k() const { return all & ~(aeiou | y); }  // [^aeiouy]
    uint64_t v() const { return aeiou | y; }           // [aeiouy]
    uint64_t a() const { return aeiou; }               // [aeiou]
    uint64_t w() const { return all & ~aeiouwxy; }     // [^aeiouwxy]
};

inline uint64_t perl_one(uint64_t at, uint64_t cls) { return (at & cls) << 1; }
inline uint64_t perl_star(uint64_t at, uint64_t cls) {
    for (;;) {
        uint64_t next = at | perl_one(at, cls);
        if (next == at) return at;
        at = next;
    }
}
// C = [^aeiou][^aeiouy]*, V = [aeiouy][aeiou]*
inline uint64_t perl_C(uint64_t at, const PerlMasks& m) { return perl_star(perl_one(at, m.c()), m.k()); }
inline uint64_t perl_V(uint64_t at, const PerlMasks& m) { return perl_star(perl_one(at, m.v()), m.a()); }

// ^(C)?VC : m > 0
inline bool perl_mgr0(const std::string& s) {
    PerlMasks m(s);
    uint64_t at = 1;
    at |= perl_C(at, m);
    return perl_C(perl_V(at, m), m) != 0;
}
// ^(C)?VC(V)?$ : m = 1
inline bool perl_meq1(const std::string& s) {
    PerlMasks m(s);
    uint64_t at = 1;
    at |= perl_C(at, m);
    at = perl_C(perl_V(at, m), m);
    at |= perl_V(at, m);
    return (at >> s.size()) & 1;
}
// ^(C)?VCVC : m > 1
inline bool perl_mgr1(const std::string& s) {
    PerlMasks m(s);
    uint64_t at = 1;
    at |= perl_C(at, m);
    at = perl_C(perl_V(at, m), m);
    return perl_C(perl_V(at, m), m) != 0;
}
// ^(C)?[aeiouy] : a vowel in the stem
inline bool perl_vowel_in_stem(const std::string& s) {
    PerlMasks m(s);
    uint64_t at = 1;
    at |= perl_C(at, m);
    return perl_one(at, m.v()) != 0;
}
// ^C[aeiouy][^aeiouwxy]$
inline bool perl_cvc(const std::string& s) {
    PerlMasks m(s);
    uint64_t at = perl_one(perl_one(perl_C(1, m), m.v()), m.w());
    return (at >> s.size()) & 1;
}

inline bool perl_ends(const std::string& w, const char* suf, size_t n) {
    return w.size() >= n && w.compare(w.size() - n, n, suf) == 0;
}

// The longest suffix of w in list (pairs of suffix, replacement), or nullptr.
struct PerlRule {
    const char* suf;
    const char* rep;
};
template <size_t N>
inline const PerlRule* perl_longest(const std::string& w, const PerlRule (&list)[N]) {
    const PerlRule* best = nullptr;
    size_t bl = 0;
    for (const PerlRule& r : list) {
        size_t n = std::char_traits<char>::length(r.suf);
        if (n > bl && perl_ends(w, r.suf, n)) best = &r, bl = n;
    }
    return best;
}

inline const PerlRule PERL_STEP2[] = {
    {"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
    {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"},
    {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"},
    {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}, {"logi", "log"},
};
inline const PerlRule PERL_STEP3[] = {
    {"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
};
inline const PerlRule PERL_STEP4[] = {
    {"al", ""}, {"ance", ""}, {"ence", ""}, {"er", ""}, {"ic", ""}, {"able", ""}, {"ible", ""}, {"ant", ""},
    {"ement", ""}, {"ou", ""}, {"ism", ""}, {"ate", ""}, {"iti", ""}, {"ous", ""}, {"ive", ""}, {"ize", ""},
};

// perl_porter.stem(word) into out; false (out unspecified) for a word outside [a-z0-9]{0,PERL_MAX_LEN}.
// O(len(word)) rules, each O(len(word)) (the masks).
inline bool perl_stem(const char* p, size_t n, std::string& out) {
    if (n > PERL_MAX_LEN) return false;
    for (size_t i = 0; i < n; ++i)
        if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9'))) return false;
    std::string w(p, n);
    if (n < 3) {
        out = w;
        return true;
    }
    const bool firsty = w[0] == 'y';
    if (firsty) w[0] = 'Y';  // an initial y is a consonant

    // Step 1a: (ss|i)es$ -> drop "es"; else ([^s])s$ -> drop "s"
    if (perl_ends(w, "sses", 4) || perl_ends(w, "ies", 3))
        w.resize(w.size() - 2);
    else if (w.size() >= 2 && w.back() == 's' && w[w.size() - 2] != 's')
        w.pop_back();
    // Step 1b
    if (perl_ends(w, "eed", 3)) {
        if (perl_mgr0(w.substr(0, w.size() - 3))) w.pop_back();
    } else {
        size_t cut = perl_ends(w, "ed", 2) ? 2 : perl_ends(w, "ing", 3) ? 3 : 0;
        if (cut) {
            std::string stem = w.substr(0, w.size() - cut);
            if (perl_vowel_in_stem(stem)) {
                w = stem;
                if (perl_ends(w, "at", 2) || perl_ends(w, "bl", 2) || perl_ends(w, "iz", 2)) {
                    w += 'e';
                } else if (w.size() >= 2 && w.back() == w[w.size() - 2] &&
                           std::string("aeiouylsz").find(w.back()) == std::string::npos) {
                    w.pop_back();
                } else if (perl_cvc(w)) {
                    w += 'e';
                }
            }
        }
    }
    // Step 1c: y$ -> i when the stem has a vowel
    if (!w.empty() && w.back() == 'y') {
        std::string stem = w.substr(0, w.size() - 1);
        if (perl_vowel_in_stem(stem)) w = stem + 'i';
    }
    // Steps 2 and 3
    if (const PerlRule* r = perl_longest(w, PERL_STEP2)) {
        std::string stem = w.substr(0, w.size() - std::char_traits<char>::length(r->suf));
        if (perl_mgr0(stem)) w = stem + r->rep;
    }
    if (const PerlRule* r = perl_longest(w, PERL_STEP3)) {
        std::string stem = w.substr(0, w.size() - std::char_traits<char>::length(r->suf));
        if (perl_mgr0(stem)) w = stem + r->rep;
    }
    // Step 4 (C.-Y. Lin, 02/14/2004): the list, then "ment", then "ent" or else "(s|t)ion"
    if (const PerlRule* r = perl_longest(w, PERL_STEP4)) {
        std::string stem = w.substr(0, w.size() - std::char_traits<char>::length(r->suf));
        if (perl_mgr1(stem)) w = stem;
    }
    if (perl_ends(w, "ment", 4)) {
        std::string stem = w.substr(0, w.size() - 4);
        if (perl_mgr1(stem)) w = stem;
    }
    if (perl_ends(w, "ent", 3)) {
        std::string stem = w.substr(0, w.size() - 3);
        if (perl_mgr1(stem)) w = stem;
    } else if (w.size() >= 4 && perl_ends(w, "ion", 3) && (w[w.size() - 4] == 's' || w[w.size() - 4] == 't')) {
        std::string stem = w.substr(0, w.size() - 3);
        if (perl_mgr1(stem)) w = stem;
    }
    // Step 5
    if (!w.empty() && w.back() == 'e') {
        std::string stem = w.substr(0, w.size() - 1);
        if (perl_mgr1(stem) || (perl_meq1(stem) && !perl_cvc(stem))) w = stem;
    }
    if (perl_ends(w, "ll", 2) && perl_mgr1(w)) w.pop_back();
    if (firsty) {
        if (w.empty())
            w = "y";
        else
            w[0] = 'y';
    }
    out = std::move(w);
    return true;
}

}  // namespace
}  // namespace rouge
