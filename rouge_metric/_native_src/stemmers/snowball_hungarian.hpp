// nltk's Snowball stemmer for hungarian (nltk.stem.snowball.HungarianStemmer, nltk 3.10.4): a C++ twin. Plain
// C++17, no Python.h.
//
// What the original computes, on Python's word.lower() (empty or a stopword: returned so). Its vowels are
// a e i o u ö ü á é í ó õ ú û (Latin-1 õ and û, U+00F5 and U+00FB, where Hungarian writes ő and ű; its suffix
// lists use õ likewise, so a word with ő or ű matches none of those). R1: for a word starting with a vowel,
// after the first occurrence (anywhere in the word) of the last letter of the first digraph of
// cs, dz, dzs, gy, ly, ny, ty, zs that occurs after the first letter, else after the first non-vowel after the
// first letter; for a word starting with a non-vowel, after the first vowel after the first letter. Then nine
// steps, each the first suffix of its list that the word or R1 ends with, removed or replaced by "a"/"e"
// (steps 1 and 5 undouble a double consonant before the suffix). Step 1 can shorten the word without
// shortening R1 (when R1 does not hold the double consonant), after which R1 is no longer a suffix of the word:
// the twin keeps both strings and edits each exactly as the original's slices do.
//
// Cost: O(n) (R1, then a bounded number of suffix-list lookups (stem_common.hpp's `Suffixes`) and edits at the
// end of two strings).
#pragma once

#include <cstddef>

#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace hungarian {

inline constexpr const char32_t* VOWELS = U"aeiou\u00f6\u00fc\u00e1\u00e9\u00ed\u00f3\u00f5\u00fa\u00fb";
inline constexpr Lit DIGRAPHS[] = {U"cs", U"dz", U"dzs", U"gy", U"ly", U"ny", U"ty", U"zs"};
inline constexpr Suffixes DOUBLE_CONSONANTS{
    U"bb", U"cc", U"ccs", U"dd", U"ff", U"gg", U"ggy", U"jj", U"kk", U"ll", U"lly", U"mm",
    U"nn", U"nny", U"pp", U"rr", U"ss", U"ssz", U"tt", U"tty", U"vv", U"zz", U"zzs",
};

// A suffix and what replaces it: 0 (nothing: it is removed), U'a' or U'e'.
struct Rule {
    Lit suffix;
    char32_t becomes;
};

inline constexpr Suffixes STEP2{
    U"k\u00e9ppen", U"onk\u00e9nt", U"enk\u00e9nt", U"ank\u00e9nt", U"k\u00e9pp", U"k\u00e9nt", U"ban", U"ben",
    U"nak", U"nek", U"val", U"vel", U"t\u00f3l", U"t\u00f5l", U"r\u00f3l", U"r\u00f5l", U"b\u00f3l", U"b\u00f5l",
    U"hoz", U"hez", U"h\u00f6z", U"n\u00e1l", U"n\u00e9l", U"\u00e9rt", U"kor", U"ba", U"be", U"ra", U"re", U"ig",
    U"at", U"et", U"ot", U"\u00f6t", U"ul", U"\u00fcl", U"v\u00e1", U"v\u00e9", U"en", U"on", U"an", U"\u00f6n",
    U"n", U"t",
};
inline constexpr auto STEP3 = suffix_list<Rule>({{U"\u00e1nk\u00e9nt", U'a'}, {U"\u00e1n", U'a'}, {U"\u00e9n", U'e'}});
inline constexpr auto STEP4 = suffix_list<Rule>({
    {U"astul", 0}, {U"est\u00fcl", 0}, {U"\u00e1stul", U'a'}, {U"\u00e9st\u00fcl", U'e'},
    {U"stul", 0},  {U"st\u00fcl", 0},
});
inline constexpr Lit STEP5[] = {U"\u00e1", U"\u00e9"};
inline constexpr auto STEP6 = suffix_list<Rule>({
    {U"ok\u00e9", 0},         {U"\u00f6k\u00e9", 0},    {U"ak\u00e9", 0},         {U"ek\u00e9", 0},
    {U"\u00e1k\u00e9", U'a'}, {U"\u00e1\u00e9i", U'a'}, {U"\u00e9k\u00e9", U'e'}, {U"\u00e9\u00e9i", U'e'},
    {U"k\u00e9", 0},          {U"\u00e9i", 0},          {U"\u00e9\u00e9", U'e'},  {U"\u00e9", 0},
});
inline constexpr auto STEP7 = suffix_list<Rule>({
    {U"\u00e1juk", U'a'}, {U"\u00e9j\u00fck", U'e'}, {U"\u00fcnk", 0}, {U"unk", 0}, {U"juk", 0}, {U"j\u00fck", 0},
    {U"\u00e1nk", U'a'}, {U"\u00e9nk", U'e'}, {U"nk", 0}, {U"uk", 0}, {U"\u00fck", 0}, {U"em", 0}, {U"om", 0},
    {U"am", 0}, {U"od", 0}, {U"ed", 0}, {U"ad", 0}, {U"\u00f6d", 0}, {U"ja", 0}, {U"je", 0}, {U"\u00e1m", U'a'},
    {U"\u00e1d", U'a'}, {U"\u00e9m", U'e'}, {U"\u00e9d", U'e'}, {U"m", 0}, {U"d", 0}, {U"a", 0}, {U"e", 0},
    {U"o", 0}, {U"\u00e1", U'a'}, {U"\u00e9", U'e'},
});
inline constexpr auto STEP8 = suffix_list<Rule>({
    {U"jaitok", 0}, {U"jeitek", 0}, {U"jaink", 0}, {U"jeink", 0}, {U"aitok", 0}, {U"eitek", 0},
    {U"\u00e1itok", U'a'}, {U"\u00e9itek", U'e'}, {U"jaim", 0}, {U"jeim", 0}, {U"jaid", 0}, {U"jeid", 0},
    {U"eink", 0}, {U"aink", 0}, {U"itek", 0}, {U"jeik", 0}, {U"jaik", 0}, {U"\u00e1ink", U'a'},
    {U"\u00e9ink", U'e'}, {U"aim", 0}, {U"eim", 0}, {U"aid", 0}, {U"eid", 0}, {U"jai", 0}, {U"jei", 0},
    {U"ink", 0}, {U"aik", 0}, {U"eik", 0}, {U"\u00e1im", U'a'}, {U"\u00e1id", U'a'}, {U"\u00e1ik", U'a'},
    {U"\u00e9im", U'e'}, {U"\u00e9id", U'e'}, {U"\u00e9ik", U'e'}, {U"im", 0}, {U"id", 0}, {U"ai", 0},
    {U"ei", 0}, {U"ik", 0}, {U"\u00e1i", U'a'}, {U"\u00e9i", U'e'}, {U"i", 0},
});
inline constexpr auto STEP9 = suffix_list<Rule>({
    {U"\u00e1k", U'a'}, {U"\u00e9k", U'e'}, {U"\u00f6k", 0}, {U"ok", 0}, {U"ek", 0}, {U"ak", 0}, {U"k", 0},
});

// Python's s[:-k] (k > 0): empty when s is shorter.
inline void cut(U32& s, size_t k) { s.resize(s.size() > k ? s.size() - k : 0); }

// Python's suffix_replace(s, suffix, c): s[:-len(suffix)] + c, or s cut when c is 0.
inline void replace_end(U32& s, size_t suffix_len, char32_t c) {
    cut(s, suffix_len);
    if (c) s.push_back(c);
}

// Python's s[-k-off:-off] == d for the double consonant d of length k and off in {1, 2} (negative indices
// clamp to the start, so a string too short never matches): s[:-off] ends with d.
inline bool double_before(const U32& s, const Lit& d, size_t off) {
    return s.size() >= off && endswith(drop_last(s, off), d);
}
// The first double consonant d of the list with double_before(s, d, off), or null.
inline const Lit* first_double_before(const U32& s, size_t off) {
    return s.size() >= off ? DOUBLE_CONSONANTS.first(drop_last(s, off)) : nullptr;
}

// Python's "".join((s[:-m], s[-(m-1)])) for m = 4 (step 1) or 3 (step 5): drop the letter m from the end and
// the last m-2 letters (the suffix), keeping the one between. s has at least m letters here.
inline void undouble(U32& s, size_t m) {
    const char32_t keep = s[s.size() - (m - 1)];
    s.resize(s.size() - m);
    s.push_back(keep);
}

inline U32 r1(const U32& word) {
    const size_t n = word.size();
    if (in(word[0], VOWELS)) {
        for (const Lit& d : DIGRAPHS)
            if (word.find(d.s, 1, d.n) != U32::npos) return word.substr(word.find(d.s[d.n - 1]) + 1);
        for (size_t i = 1; i < n; ++i)
            if (!in(word[i], VOWELS)) return word.substr(i + 1);
    } else {
        for (size_t i = 1; i < n; ++i)
            if (in(word[i], VOWELS)) return word.substr(i + 1);
    }
    return U32();
}

// Steps 7, 8 and 9: the first rule whose suffix ends the word decides; it applies when R1 ends with it too.
template <size_t N>
inline void word_then_r1(U32& word, U32& reg, const Suffixes<N, Rule>& rules, bool edit_r1) {
    const Rule* r = rules.first(word);
    if (r && endswith(reg, r->suffix)) {
        const size_t k = r->suffix.n;
        replace_end(word, k, r->becomes);
        if (edit_r1) replace_end(reg, k, r->becomes);
    }
}

// Steps 3, 4 and 6: the first rule whose suffix ends R1 applies to both.
template <size_t N>
inline void in_r1(U32& word, U32& reg, const Suffixes<N, Rule>& rules) {
    if (const Rule* r = rules.first(reg)) {
        const size_t k = r->suffix.n;
        replace_end(word, k, r->becomes);
        replace_end(reg, k, r->becomes);
    }
}

}  // namespace hungarian

inline U32 stem_hungarian(const Input& in) {
    using namespace hungarian;
    if (in.lower.empty() || in.stop.count(in.lower)) return in.lower;
    U32 word = in.lower;
    U32 reg = r1(word);

    // Step 1: -al/-el after a double consonant (R1 holding -al/-el) loses the suffix and one consonant.
    if (endswith(reg, U"al") || endswith(reg, U"el"))
        if (const Lit* d = first_double_before(word, 2)) {
            undouble(word, 4);
            if (double_before(reg, *d, 2)) undouble(reg, 4);
        }
    // Step 2: the first suffix ending the word decides; removed when R1 ends with it, and a final á/é of R1
    // then becomes a/e in both.
    if (const Lit* s = STEP2.first(word))
        if (endswith(reg, *s)) {
            cut(word, s->n);
            cut(reg, s->n);
            if (endswith(reg, U"\u00e1")) {
                replace_end(word, 1, U'a');
                replace_end(reg, 1, U'a');
            } else if (endswith(reg, U"\u00e9")) {
                replace_end(word, 1, U'e');
                replace_end(reg, 1, U'e');
            }
        }
    in_r1(word, reg, STEP3);
    in_r1(word, reg, STEP4);
    // Step 5: for each of á, é (both are tried) that R1 ends with, a double consonant before it loses the
    // vowel and one consonant.
    for (const Lit& s : STEP5)
        if (endswith(reg, s))
            if (const Lit* d = first_double_before(word, 1)) {
                undouble(word, 3);
                if (double_before(reg, *d, 1)) undouble(reg, 3);
            }
    in_r1(word, reg, STEP6);
    word_then_r1(word, reg, STEP7, true);
    word_then_r1(word, reg, STEP8, true);
    word_then_r1(word, reg, STEP9, false);
    return word;
}

inline constexpr Language SNOWBALL_HUNGARIAN{"hungarian", stem_hungarian};

}  // namespace stem
}  // namespace rouge
