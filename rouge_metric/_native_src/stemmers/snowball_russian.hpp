// nltk's Snowball stemmer for russian (nltk.stem.snowball.RussianStemmer, nltk 3.10.4): a C++ twin. Plain C++17,
// no Python.h.
//
// What the original computes. A stopword, or a word with no code point above U+00FF, is returned unchanged (the
// word as given: Russian is not lowercased). Otherwise every Cyrillic letter (U+0410..U+044F, Ё, ё) is
// transliterated to a Latin spelling ("я" -> "i^a", "щ" -> "shch", "ъ" -> "''", ...; capitals as their small
// letters), every other code point is kept (Latin letters, digits and other scripts included), and the
// Snowball steps run on that Latin string: regions RV and R2 are found on a copy where "i^a", "i^u", "e`" are
// single vowels "A", "U", "E" (so an original Latin capital A, U or E counts as one too), then turned back
// into Latin spellings (every A, U, E of the region, original ones included, becomes "i^a", "i^u", "e`": the
// regions are then no longer suffixes of the word, and suffixes are tested on a region but cut from the word
// by length, as the original does). At the end a chain of str.replace calls, in the original's order, turns
// Latin spellings back into Cyrillic (all Latin small letters but c, h, j, q, w, x, whether they came from
// Cyrillic or not; "'" and "''" as ь and ъ).
//
// The twin keeps the word, RV and R2 as three strings and cuts them exactly as the original's slices do.
// Cost: O(n) for the transliterations and regions (the back transliteration scans the word once per
// multi-letter spelling present, at most 11 times); a suffix list (stem_common.hpp's `Suffixes`) is searched only
// among its suffixes ending with the region's last letter (at most 54 of the adjectival list's 234, of 14 code
// points at most).
#pragma once

#include <cstddef>
#include <cstdint>

#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace russian {

// A suffix (Latin spelling), and whether it is removed only after "a" or "i^a" (Snowball's group 1 endings).
struct Ending {
    Lit suffix;
    bool after_a;
};

inline constexpr auto PERFECTIVE_GERUND = suffix_list<Ending>({
    {U"ivshis'", false}, {U"yvshis'", false}, {U"vshis'", true}, {U"ivshi", false}, {U"yvshi", false},
    {U"vshi", true}, {U"iv", false}, {U"yv", false}, {U"v", true},
});
inline constexpr auto ADJECTIVAL = suffix_list<Ending>({
    {U"ui^ushchi^ui^u", false}, {U"ui^ushchi^ai^a", false}, {U"ui^ushchimi", false}, {U"ui^ushchymi", false},
    {U"ui^ushchego", false}, {U"ui^ushchogo", false}, {U"ui^ushchemu", false}, {U"ui^ushchomu", false},
    {U"ui^ushchikh", false}, {U"ui^ushchykh", false}, {U"ui^ushchui^u", false}, {U"ui^ushchaia", false},
    {U"ui^ushchoi^u", false}, {U"ui^ushchei^u", false}, {U"i^ushchi^ui^u", true}, {U"i^ushchi^ai^a", true},
    {U"ui^ushchee", false}, {U"ui^ushchie", false}, {U"ui^ushchye", false}, {U"ui^ushchoe", false},
    {U"ui^ushchei`", false}, {U"ui^ushchii`", false}, {U"ui^ushchyi`", false}, {U"ui^ushchoi`", false},
    {U"ui^ushchem", false}, {U"ui^ushchim", false}, {U"ui^ushchym", false}, {U"ui^ushchom", false},
    {U"i^ushchimi", true}, {U"i^ushchymi", true}, {U"i^ushchego", true}, {U"i^ushchogo", true},
    {U"i^ushchemu", true}, {U"i^ushchomu", true}, {U"i^ushchikh", true}, {U"i^ushchykh", true},
    {U"i^ushchui^u", true}, {U"i^ushchai^a", true}, {U"i^ushchoi^u", true}, {U"i^ushchei^u", true},
    {U"i^ushchee", true}, {U"i^ushchie", true}, {U"i^ushchye", true}, {U"i^ushchoe", true}, {U"i^ushchei`", true},
    {U"i^ushchii`", true}, {U"i^ushchyi`", true}, {U"i^ushchoi`", true}, {U"i^ushchem", true},
    {U"i^ushchim", true}, {U"i^ushchym", true}, {U"i^ushchom", true}, {U"shchi^ui^u", true}, {U"shchi^ai^a", true},
    {U"ivshi^ui^u", false}, {U"ivshi^ai^a", false}, {U"yvshi^ui^u", false}, {U"yvshi^ai^a", false},
    {U"shchimi", true}, {U"shchymi", true}, {U"shchego", true}, {U"shchogo", true}, {U"shchemu", true},
    {U"shchomu", true}, {U"shchikh", true}, {U"shchykh", true}, {U"shchui^u", true}, {U"shchai^a", true},
    {U"shchoi^u", true}, {U"shchei^u", true}, {U"ivshimi", false}, {U"ivshymi", false}, {U"ivshego", false},
    {U"ivshogo", false}, {U"ivshemu", false}, {U"ivshomu", false}, {U"ivshikh", false}, {U"ivshykh", false},
    {U"ivshui^u", false}, {U"ivshai^a", false}, {U"ivshoi^u", false}, {U"ivshei^u", false}, {U"yvshimi", false},
    {U"yvshymi", false}, {U"yvshego", false}, {U"yvshogo", false}, {U"yvshemu", false}, {U"yvshomu", false},
    {U"yvshikh", false}, {U"yvshykh", false}, {U"yvshui^u", false}, {U"yvshai^a", false}, {U"yvshoi^u", false},
    {U"yvshei^u", false}, {U"vshi^ui^u", true}, {U"vshi^ai^a", true}, {U"shchee", true}, {U"shchie", true},
    {U"shchye", true}, {U"shchoe", true}, {U"shchei`", true}, {U"shchii`", true}, {U"shchyi`", true},
    {U"shchoi`", true}, {U"shchem", true}, {U"shchim", true}, {U"shchym", true}, {U"shchom", true},
    {U"ivshee", false}, {U"ivshie", false}, {U"ivshye", false}, {U"ivshoe", false}, {U"ivshei`", false},
    {U"ivshii`", false}, {U"ivshyi`", false}, {U"ivshoi`", false}, {U"ivshem", false}, {U"ivshim", false},
    {U"ivshym", false}, {U"ivshom", false}, {U"yvshee", false}, {U"yvshie", false}, {U"yvshye", false},
    {U"yvshoe", false}, {U"yvshei`", false}, {U"yvshii`", false}, {U"yvshyi`", false}, {U"yvshoi`", false},
    {U"yvshem", false}, {U"yvshim", false}, {U"yvshym", false}, {U"yvshom", false}, {U"vshimi", true},
    {U"vshymi", true}, {U"vshego", true}, {U"vshogo", true}, {U"vshemu", true}, {U"vshomu", true},
    {U"vshikh", true}, {U"vshykh", true}, {U"vshui^u", true}, {U"vshai^a", true}, {U"vshoi^u", true},
    {U"vshei^u", true}, {U"emi^ui^u", true}, {U"emi^ai^a", true}, {U"nni^ui^u", true}, {U"nni^ai^a", true},
    {U"vshee", true}, {U"vshie", true}, {U"vshye", true}, {U"vshoe", true}, {U"vshei`", true}, {U"vshii`", true},
    {U"vshyi`", true}, {U"vshoi`", true}, {U"vshem", true}, {U"vshim", true}, {U"vshym", true}, {U"vshom", true},
    {U"emimi", true}, {U"emymi", true}, {U"emego", true}, {U"emogo", true}, {U"ememu", true}, {U"emomu", true},
    {U"emikh", true}, {U"emykh", true}, {U"emui^u", true}, {U"emai^a", true}, {U"emoi^u", true}, {U"emei^u", true},
    {U"nnimi", true}, {U"nnymi", true}, {U"nnego", true}, {U"nnogo", true}, {U"nnemu", true}, {U"nnomu", true},
    {U"nnikh", true}, {U"nnykh", true}, {U"nnui^u", true}, {U"nnai^a", true}, {U"nnoi^u", true}, {U"nnei^u", true},
    {U"emee", true}, {U"emie", true}, {U"emye", true}, {U"emoe", true}, {U"emei`", true}, {U"emii`", true},
    {U"emyi`", true}, {U"emoi`", true}, {U"emem", true}, {U"emim", true}, {U"emym", true}, {U"emom", true},
    {U"nnee", true}, {U"nnie", true}, {U"nnye", true}, {U"nnoe", true}, {U"nnei`", true}, {U"nnii`", true},
    {U"nnyi`", true}, {U"nnoi`", true}, {U"nnem", true}, {U"nnim", true}, {U"nnym", true}, {U"nnom", true},
    {U"i^ui^u", false}, {U"i^ai^a", false}, {U"imi", false}, {U"ymi", false}, {U"ego", false}, {U"ogo", false},
    {U"emu", false}, {U"omu", false}, {U"ikh", false}, {U"ykh", false}, {U"ui^u", false}, {U"ai^a", false},
    {U"oi^u", false}, {U"ei^u", false}, {U"ee", false}, {U"ie", false}, {U"ye", false}, {U"oe", false},
    {U"ei`", false}, {U"ii`", false}, {U"yi`", false}, {U"oi`", false}, {U"em", false}, {U"im", false},
    {U"ym", false}, {U"om", false},
});
inline constexpr Suffixes REFLEXIVE{U"si^a", U"s'"};
inline constexpr auto VERB = suffix_list<Ending>({
    {U"esh'", true}, {U"ei`te", false}, {U"ui`te", false}, {U"ui^ut", false}, {U"ish'", false}, {U"ete", true},
    {U"i`te", true}, {U"i^ut", true}, {U"nno", true}, {U"ila", false}, {U"yla", false}, {U"ena", false},
    {U"ite", false}, {U"ili", false}, {U"yli", false}, {U"ilo", false}, {U"ylo", false}, {U"eno", false},
    {U"i^at", false}, {U"uet", false}, {U"eny", false}, {U"it'", false}, {U"yt'", false}, {U"ui^u", false},
    {U"la", true}, {U"na", true}, {U"li", true}, {U"em", true}, {U"lo", true}, {U"no", true}, {U"et", true},
    {U"ny", true}, {U"t'", true}, {U"ei`", false}, {U"ui`", false}, {U"il", false}, {U"yl", false}, {U"im", false},
    {U"ym", false}, {U"en", false}, {U"it", false}, {U"yt", false}, {U"i^u", false}, {U"i`", true}, {U"l", true},
    {U"n", true},
});
inline constexpr Suffixes NOUN{
    U"ii^ami", U"ii^akh", U"i^ami", U"ii^am", U"i^akh", U"ami", U"iei`", U"i^am", U"iem", U"akh", U"ii^u", U"'i^u",
    U"ii^a", U"'i^a", U"ev", U"ov", U"ie", U"'e", U"ei", U"ii", U"ei`", U"oi`", U"ii`", U"em", U"am", U"om",
    U"i^u", U"i^a", U"a", U"e", U"i", U"i`", U"o", U"u", U"y", U"'",
};
inline constexpr Suffixes SUPERLATIVE{U"ei`she", U"ei`sh"};
inline constexpr Suffixes DERIVATIONAL{U"ost'", U"ost"};

// The Latin spelling of each Cyrillic letter А..Я / а..я (in code point order).
inline constexpr const char32_t* TO_LATIN[32] = {
    U"a", U"b", U"v", U"g", U"d", U"e", U"zh", U"z", U"i", U"i`", U"k", U"l", U"m", U"n", U"o", U"p",
    U"r", U"s", U"t", U"u", U"f", U"kh", U"t^s", U"ch", U"sh", U"shch", U"''", U"y", U"'", U"e`", U"i^u", U"i^a",
};

// Back to Cyrillic. The original chains 33 str.replace calls (Latin spelling -> Cyrillic letter). Each
// single-letter replacement (k e a b v g d z i l m n o p r s t u f y ') comes in the chain after every longer
// spelling that contains its letter, and replacing a letter that a spelling does not contain cannot change
// where that spelling occurs, so the single letters can all go last, in one pass (`single_letter`). The longer
// spellings run first, in the chain's order, which matters where they overlap ("t^shch" becomes т^щ: shch
// goes before t^s).
struct Replacement {
    Lit latin;
    char32_t cyrillic;
};
inline constexpr Replacement SPELLINGS[] = {
    {U"i^u", U'ю'}, {U"i^a", U'я'}, {U"shch", U'щ'}, {U"kh", U'х'}, {U"t^s", U'ц'}, {U"ch", U'ч'},
    {U"e`", U'э'},  {U"i`", U'й'},  {U"sh", U'ш'},   {U"zh", U'ж'}, {U"''", U'ъ'},
};
inline char32_t single_letter(char32_t c) {
    switch (c) {
        case U'k': return U'к';
        case U'e': return U'е';
        case U'a': return U'а';
        case U'b': return U'б';
        case U'v': return U'в';
        case U'g': return U'г';
        case U'd': return U'д';
        case U'z': return U'з';
        case U'i': return U'и';
        case U'l': return U'л';
        case U'm': return U'м';
        case U'n': return U'н';
        case U'o': return U'о';
        case U'p': return U'п';
        case U'r': return U'р';
        case U's': return U'с';
        case U't': return U'т';
        case U'u': return U'у';
        case U'f': return U'ф';
        case U'y': return U'ы';
        case U'\'': return U'ь';
        default: return c;
    }
}

// s[i:i+n] == lit (lit of n code points; false when s is shorter).
inline bool at(const U32& s, size_t i, const char32_t* lit, size_t n) {
    if (i + n > s.size()) return false;
    for (size_t j = 0; j < n; ++j)
        if (s[i + j] != lit[j]) return false;
    return true;
}


// Python's s = s[:-k] (k > 0): empty when s is shorter.
inline void cut(U32& s, size_t k) { s.resize(s.size() > k ? s.size() - k : 0); }

// The region `rv` has "a" or "i^a" just before its last k code points (the original's slices
// rv[-k-3:-k] == "i^a" or rv[-k-1:-k] == "a").
inline bool after_a(const U32& rv, size_t k) {
    const size_t n = rv.size();
    return (n >= k + 3 && at(rv, n - k - 3, U"i^a", 3)) || (n >= k + 1 && rv[n - k - 1] == U'a');
}

inline bool is_vowel(char32_t c) { return in(c, U"AUEaeiouy"); }

// Python's s.replace(latin, cyrillic) (non-overlapping, left to right), in place.
inline void replace_all(U32& s, const char32_t* latin, size_t n, char32_t cyrillic) {
    if (s.size() < n || s.find(latin[0]) == U32::npos) return;
    size_t out = 0;
    for (size_t i = 0; i < s.size();) {
        if (s[i] == latin[0] && at(s, i, latin, n)) {
            s[out++] = cyrillic;
            i += n;
        } else {
            s[out++] = s[i++];
        }
    }
    s.resize(out);
}

// Regions RV and R2 of the Latin word, as the original finds them (see the file's comment).
inline void regions(const U32& word, U32& rv, U32& r2) {
    U32 w;  // "i^a", "i^u", "e`" as A, U, E (one left-to-right scan equals the original's three replaces:
            // no two of the patterns can overlap, and none can form across a replaced one)
    w.reserve(word.size());
    for (size_t i = 0; i < word.size();) {
        if (at(word, i, U"i^a", 3)) {
            w.push_back(U'A');
            i += 3;
        } else if (at(word, i, U"i^u", 3)) {
            w.push_back(U'U');
            i += 3;
        } else if (at(word, i, U"e`", 2)) {
            w.push_back(U'E');
            i += 2;
        } else {
            w.push_back(word[i++]);
        }
    }
    size_t r1 = w.size(), r2_at = w.size(), rv_at = w.size();
    for (size_t i = 1; i < w.size(); ++i)
        if (!is_vowel(w[i]) && is_vowel(w[i - 1])) {
            r1 = i + 1;
            break;
        }
    for (size_t i = 1; r1 + i < w.size(); ++i)  // the same inside R1 (its first letter is not looked at alone)
        if (!is_vowel(w[r1 + i]) && is_vowel(w[r1 + i - 1])) {
            r2_at = r1 + i + 1;
            break;
        }
    for (size_t i = 0; i < w.size(); ++i)
        if (is_vowel(w[i])) {
            rv_at = i + 1;
            break;
        }
    auto spell = [&](size_t from, U32& out) {
        out.clear();
        for (size_t i = from; i < w.size(); ++i) {
            const char32_t c = w[i];
            if (c == U'A')
                out += U"i^a";
            else if (c == U'U')
                out += U"i^u";
            else if (c == U'E')
                out += U"e`";
            else
                out.push_back(c);
        }
    };
    spell(rv_at, rv);
    spell(r2_at, r2);
}

// Cut k code points (a suffix) from the word and both regions.
inline void remove(U32& word, U32& rv, U32& r2, size_t k) {
    cut(word, k);
    cut(r2, k);
    cut(rv, k);
}

// The first suffix of `list` that ends rv (and, for a group 1 ending, follows "a"/"i^a") is removed from the
// word and both regions; returns whether one was.
template <size_t N>
inline bool remove_first(U32& word, U32& rv, U32& r2, const Suffixes<N, Ending>& list) {
    const Ending* x = list.each(rv, [&](const Ending& e) { return !e.after_a || after_a(rv, e.suffix.n); });
    if (x) remove(word, rv, r2, x->suffix.n);
    return x != nullptr;
}

}  // namespace russian

inline U32 stem_russian(const Input& in) {
    using namespace russian;
    if (in.stop.count(in.word)) return in.word;
    bool beyond_latin1 = false;
    for (char32_t c : in.word)
        if (c > 255) {
            beyond_latin1 = true;
            break;
        }
    if (!beyond_latin1) return in.word;

    U32 word;
    word.reserve(in.word.size() + 8);
    for (char32_t c : in.word) {
        if (c >= 0x410 && c <= 0x44F)
            word += TO_LATIN[(c - 0x410) & 31];
        else if (c == 0x401 || c == 0x451)
            word.push_back(U'e');
        else
            word.push_back(c);
    }
    U32 rv, r2;
    regions(word, rv, r2);

    // Step 1: perfective gerund; else reflexive, then adjectival, else verb, else noun.
    if (!remove_first(word, rv, r2, PERFECTIVE_GERUND)) {
        if (const Lit* x = REFLEXIVE.first(rv)) remove(word, rv, r2, x->n);
        if (!remove_first(word, rv, r2, ADJECTIVAL) && !remove_first(word, rv, r2, VERB))
            if (const Lit* x = NOUN.first(rv)) remove(word, rv, r2, x->n);
    }
    // Step 2
    if (!rv.empty() && rv.back() == U'i') {
        cut(word, 1);
        cut(r2, 1);
    }
    // Step 3
    if (const Lit* x = DERIVATIONAL.first(r2)) cut(word, x->n);
    // Step 4
    if (endswith(word, U"nn")) {
        cut(word, 1);
    } else {
        const Lit* superlative = SUPERLATIVE.first(word);
        if (superlative) cut(word, superlative->n);
        if (endswith(word, U"nn")) cut(word, 1);
        if (!superlative && !word.empty() && word.back() == U'\'') cut(word, 1);
    }
    for (const Replacement& r : SPELLINGS) replace_all(word, r.latin.s, r.latin.n, r.cyrillic);
    for (char32_t& c : word) c = single_letter(c);
    return word;
}

inline constexpr Language SNOWBALL_RUSSIAN{"russian", stem_russian};

}  // namespace stem
}  // namespace rouge
