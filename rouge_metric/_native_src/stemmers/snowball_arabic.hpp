// nltk's Snowball stemmer for arabic (nltk.stem.snowball.ArabicStemmer, nltk 3.10.4): a C++ twin. Plain C++17,
// no Python.h.
//
// What the original computes. From the word as given (no lowercasing): it is a noun and not a verb when it
// starts with an article (كال/بال and longer than 4, ال/لل and longer than 3; the article also makes it
// "defined") or ends with ة (longer than 2) or ات (longer than 3). Then its pre-normalisation removes every
// code point of three regular expressions, whose character classes (nltk compiles them with the `regex`
// module) hold more than their comments say: U+064B..U+0652 (harakat), U+0640 (tatweel), U+060C..U+061B,
// U+061F, and "-" (ASCII hyphen, twice: `[\u064b-\u064c-...]` is ranges joined by literal hyphens). A
// stopword or a word of at most 2 code points is returned so. Then suffix steps for verbs and nouns and
// prefix steps run, each a list tried in order with a length condition, and a post-normalisation folds
// hamza forms (a final أ إ آ ؤ ئ becomes ء; an initial آ أ إ becomes ا; every ؤ و, ئ ي, and أ آ إ ا).
//
// Quirks kept: the suffix steps 2b, 2c1, 2c2, 1b and 3 of nouns iterate over a string, not a tuple, so step 2b
// removes two letters after a word ending in ا or ت (not only ات); the verb flag
// `suffixes_verb_step1_success` is the only one the original never resets, so once a word of an instance has
// passed verb step 1, every later word of that instance takes the step-2a branch (the framework passes it as
// `Input::state`: read and set here exactly where the original reads and sets it); the alef-maqsura step runs
// only for a word that is a verb and not a noun, which no word is at that point (kept as written).
//
// Cost: O(n) per step (a removed prefix moves a start index; suffixes are cut in place), a bounded number of
// steps: O(n).
#pragma once

#include <cstddef>

#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace arabic {

// The removed code points of the pre-normalisation (vocalization, kasheeda, punctuation).
inline bool removed_by_normalisation(char32_t c) {
    return (c >= 0x064B && c <= 0x0652) || c == 0x0640 || (c >= 0x060C && c <= 0x061B) || c == 0x061F || c == U'-';
}

// The token being stemmed: s[b:], so removing a prefix moves b.
struct Token {
    U32 s;
    size_t b = 0;

    size_t size() const { return s.size() - b; }
    View view() const { return View(s.data() + b, size()); }
    bool starts(View p) const { return startswith(view(), p); }
    bool ends(View x) const { return endswith(view(), x); }
    bool ends(char32_t c) const { return size() >= 1 && s.back() == c; }
    bool starts(char32_t c) const { return size() >= 1 && s[b] == c; }
    void cut(size_t k) { s.resize(s.size() - k); }  // the original's token[:-k], k <= size() at every use
    void drop(size_t k) { b += k; }                 // token[k:]
    U32 str() const { return s.substr(b); }
};

struct Flags {
    bool is_verb = true, is_noun = true, is_defined = false;
    bool verb2a = false, verb2b = false, noun2c2 = false, noun2a = false, noun2b = false, noun1b = false;
    bool prefix2a = false, prefix3a = false, prefix3b = false;
};

// Verb step 1: ه ك (length >= 4), ني نا ها هم هن كم كن (>= 5), هما كما كمو (>= 6), in this order; sets the
// instance's never-reset flag.
inline void verb_step1(Token& t, bool& step1_success) {
    static constexpr Suffixes SUFFIXES{U"ه", U"ك", U"ني", U"نا", U"ها", U"هم",
                                       U"هن", U"كم", U"كن", U"هما", U"كما", U"كمو"};
    if (const Lit* x = SUFFIXES.each(t.view(), [&](const Lit& l) { return t.size() >= l.n + 3; })) {
        t.cut(x->n);
        step1_success = true;
    }
}

// Verb step 2a (only on a token longer than 3): ت ا ن ي (one letter), نا تا تن (length >= 5), ان ون ين
// (longer than 5), تما (>= 6).
inline void verb_step2a(Token& t, Flags& f) {
    static constexpr Suffixes SUFFIXES{U"ت",  U"ا",  U"ن",  U"ي",  U"نا", U"تا",
                                       U"تن", U"ان", U"ون", U"ين", U"تما"};
    const size_t len = t.size();
    if (len <= 3) return;
    if (const Lit* x = SUFFIXES.each(t.view(), [&](const Lit& l) {
            const size_t n = l.n;
            const bool present = n == 2 && (l.s[0] == U'ا' || l.s[0] == U'و' || l.s[0] == U'ي');
            return (n == 1 && len >= 4) || (n == 2 && !present && len >= 5) || (present && len > 5) ||
                   (n == 3 && len >= 6);
        })) {
        t.cut(x->n);
        f.verb2a = true;
    }
}

// Verb step 2c: و (length >= 4) is tried before تمو (>= 6), so تمو is only reached when و is not removed.
inline void verb_step2c(Token& t) {
    if (t.ends(U'و')) {
        if (t.size() >= 4) {
            t.cut(1);
            return;
        }
    }
    if (t.ends(U"تمو") && t.size() >= 6) t.cut(3);
}

// Verb step 2b: وا تم (length >= 5).
inline void verb_step2b(Token& t, Flags& f) {
    if ((t.ends(U"وا") || t.ends(U"تم")) && t.size() >= 5) {
        t.cut(2);
        f.verb2b = true;
    }
}

// Noun step 1a: ي ك ه (length >= 4), نا كم ها هن هم (>= 5), كما هما (>= 6), in this order.
inline void noun_step1a(Token& t) {
    static constexpr Suffixes SUFFIXES{U"ي", U"ك", U"ه", U"نا", U"كم", U"ها", U"هن", U"هم", U"كما", U"هما"};
    if (const Lit* x = SUFFIXES.each(t.view(), [&](const Lit& l) { return t.size() >= l.n + 3; })) t.cut(x->n);
}

// Noun step 2a: ا ي و (longer than 4).
inline void noun_step2a(Token& t, Flags& f) {
    if ((t.ends(U'ا') || t.ends(U'ي') || t.ends(U'و')) && t.size() > 4) {
        t.cut(1);
        f.noun2a = true;
    }
}

// Noun step 2b: the original iterates over the string "ات": a final ا or ت (length >= 5) removes two letters.
inline void noun_step2b(Token& t, Flags& f) {
    if ((t.ends(U'ا') || t.ends(U'ت')) && t.size() >= 5) {
        t.cut(2);
        f.noun2b = true;
    }
}

// Noun step 2c1: ت (length >= 4).
inline void noun_step2c1(Token& t) {
    if (t.ends(U'ت') && t.size() >= 4) t.cut(1);
}

// Noun steps 2a, then 2b unless 2a applied, then 2c1 unless either applied.
inline void noun_steps2(Token& t, Flags& f) {
    noun_step2a(t, f);
    if (!f.noun2a) noun_step2b(t, f);
    if (!f.noun2b && !f.noun2a) noun_step2c1(t);
}

// Prefix step 3b for nouns: ب ك ل بب كك in this order.
inline void prefix_step3b_noun(Token& t, Flags& f) {
    static constexpr Lit PREFIXES[] = {U"ب", U"ك", U"ل", U"بب", U"كك"};
    for (const Lit& p : PREFIXES) {
        if (!t.starts(p)) continue;
        const size_t n = p.n;
        if (t.size() > 3) {
            if (n == 1 && p.s[0] == U'ب') {  // ب
                t.drop(1);
                f.prefix3b = true;
                return;
            }
            if (n == 2) {  // بب كك become ب ك
                t.drop(1);
                f.prefix3b = true;
                return;
            }
        }
        if (n == 1 && (p.s[0] == U'ك' || p.s[0] == U'ل') && t.size() > 4) {
            t.drop(1);
            f.prefix3b = true;
            return;
        }
    }
}

inline bool is_hamza_alef(char32_t c) { return c == U'أ' || c == U'آ' || c == U'إ'; }

}  // namespace arabic

inline U32 stem_arabic(const Input& in) {
    using namespace arabic;
    const U32& word = in.word;
    Flags f;
    // Checks 1 and 2 (on the word as given).
    {
        static constexpr Lit ARTICLES[] = {U"كال", U"بال", U"ال", U"لل"};
        for (const Lit& p : ARTICLES) {
            if (word.size() > p.n + 1 && startswith(word, p)) {
                f.is_noun = true;
                f.is_verb = false;
                f.is_defined = true;
                break;
            }
        }
        const size_t n = word.size();
        if ((n >= 1 && word[n - 1] == U'ة' && n > 2) || (n >= 2 && word.compare(n - 2, 2, U"ات") == 0 && n > 3)) {
            f.is_noun = true;
            f.is_verb = false;
        }
    }
    Token t;
    t.s.reserve(word.size());
    for (char32_t c : word)
        if (!removed_by_normalisation(c)) t.s.push_back(c);
    if (t.s.size() <= 2 || in.stop.count(t.s)) return t.s;

    if (f.is_verb) {
        verb_step1(t, in.state);
        if (in.state) {
            verb_step2a(t, f);
            if (!f.verb2a) verb_step2c(t);
        } else {
            verb_step2b(t, f);
            if (!f.verb2b) verb_step2a(t, f);
        }
    }
    if (f.is_noun) {
        if (t.ends(U'ة') && t.size() >= 3) {  // noun step 2c2
            t.cut(1);
            f.noun2c2 = true;
        }
        if (!f.noun2c2) {
            if (!f.is_defined) {
                noun_step1a(t);
                noun_steps2(t, f);
            } else {
                if (t.ends(U'ن') && t.size() > 5) {  // noun step 1b
                    t.cut(1);
                    f.noun1b = true;
                }
                if (f.noun1b)
                    noun_steps2(t, f);
                else
                    noun_step2b(t, f);  // (step 2a only when not defined, which this branch is not)
            }
        }
        if (t.ends(U'ي') && t.size() >= 3) t.cut(1);  // noun step 3
    }
    if (!f.is_noun && f.is_verb && t.ends(U'ى')) t.s.back() = U'ي';  // alef maqsura

    // Prefix step 1: أأ أآ أؤ أا أإ (longer than 3) drop the first letter.
    if (t.size() > 3 && t.starts(U'أ') && stem::in(t.s[t.b + 1], U"أآؤاإ")) t.drop(1);
    // Prefix step 2a: فال وال (longer than 5); else 2b: ف و (longer than 3) unless the token starts فا or وا.
    if ((t.starts(U"فال") || t.starts(U"وال")) && t.size() > 5) {
        t.drop(3);
        f.prefix2a = true;
    }
    if (!f.prefix2a && (t.starts(U'ف') || t.starts(U'و')) && t.size() > 3 && !t.starts(U"وا") && !t.starts(U"فا"))
        t.drop(1);
    // Prefix step 3a for nouns: ال لل (longer than 4, sets its flag), كال بال (longer than 5), in the order
    // ال لل كال بال.
    {
        static constexpr Lit PREFIXES[] = {U"ال", U"لل", U"كال", U"بال"};
        for (const Lit& p : PREFIXES) {
            if (!t.starts(p)) continue;
            const size_t n = p.n;
            if (n == 2 && t.size() > 4) {
                t.drop(2);
                f.prefix3a = true;
                break;
            }
            if (n == 3 && t.size() > 5) {
                t.drop(3);
                break;
            }
        }
    }
    if (!f.prefix3a && f.is_noun) {
        prefix_step3b_noun(t, f);
    } else if (!f.prefix3b && f.is_verb) {
        // Prefix step 3 for verbs: سي ست سن سأ (longer than 4) drop the س.
        if (t.size() > 4 && t.starts(U'س') && stem::in(t.s[t.b + 1], U"يتنأ")) t.drop(1);
        // Prefix step 4 for verbs: يست نست تست (longer than 4) become است.
        if (t.size() > 4 && (t.starts(U"يست") || t.starts(U"نست") || t.starts(U"تست"))) t.s[t.b] = U'ا';
    }

    // Post-normalisation.
    U32 out = t.str();
    if (!out.empty()) {
        char32_t& last = out.back();
        if (is_hamza_alef(last) || last == U'ؤ' || last == U'ئ') last = U'ء';
        if (is_hamza_alef(out[0])) out[0] = U'ا';
    }
    for (char32_t& c : out) {
        if (c == U'ؤ')
            c = U'و';
        else if (c == U'ئ')
            c = U'ي';
        else if (is_hamza_alef(c))
            c = U'ا';
    }
    return out;
}

inline constexpr Language SNOWBALL_ARABIC{"arabic", stem_arabic};

}  // namespace stem
}  // namespace rouge
