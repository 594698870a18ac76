// The TurkishStemmer package's stemmer (TurkishStemmer 1.3, `TurkishStemmer().stem(word)`; XL-Sum's Turkish
// stemmer): a C++ twin. Plain C++17, no Python.h.
//
// What the original computes. A word that is empty, has a letter outside the 29-letter Turkish alphabet (the
// check is on the word as given: no lowercasing, so any capital letter keeps the word as it is), is a protected
// word, or has fewer than two vowels is returned unchanged. Otherwise three suffix-stripping state machines run
// (nominal verb suffixes on the word; noun suffixes on the word and on every stem found so far; derivational
// suffixes likewise), each a breadth-first walk over candidate transitions (a deque) where an applied
// transition into a final state removes its sibling transitions and the "marked" ones, and one into a
// non-final state marks its siblings. A suffix is removed only when the word has vowel harmony (its last two
// vowels agree in roundness and frontness), is a listed exception, or the suffix ignores harmony; an optional
// linking letter ("y", "n", "s" or a high vowel) is then dropped when it sits after the right kind of letter,
// else the whole step is undone. Of all stems found (other than the word itself) that have a vowel, each with
// its final b/c/d/ğ hardened to p/ç/t/k (unless listed), the one in the "average stem size" exception list
// wins, else the one whose length is nearest 4 (the shorter on a tie).
//
// Every stem is a prefix of the word (suffixes and linking letters are only ever cut from the end), so the
// twin represents stems as prefix lengths: the set of stems is a bit per length, and no string is built until
// the final stem. Transitions with equal start and next states are siblings (the original compares states
// by identity; noun state M lists suffix -(s)U twice, so it can queue two identical transitions, as here).
// The original keeps no state between calls (every set and queue is local to stem()).
//
// The package's four word lists (protected words, vowel-harmony exceptions, last-consonant exceptions,
// average-stem-size exceptions) are read at run time from the installed package, never copied here: the
// binding (py_stemmers.hpp) passes them in `Input::stop`, each word prefixed by its list's tag
// (`turkish_list_key`). A tag is a control character, which no Turkish word contains, so the lists cannot
// collide with each other.
//
// Cost: a transition costs a few letter comparisons (suffix spellings are tested from their last letter;
// list lookups hash a prefix once per prefix and list, then are cached), and a transition is queued only for
// a suffix that ends the current stem, so a word queues a number of transitions proportional to its suffixes
// (a handful for a real word; each popped transition scans the queue for its siblings): O(n) to read the word
// and a small constant per suffix.
#pragma once

#include <cstdint>
#include <vector>

#include "stem_common.hpp"

namespace rouge {
namespace stem {

// The package's word lists, as tagged entries of Input::stop.
enum class TurkishList : char32_t {
    PROTECTED = 1,         // resources/protected_words.txt: never stemmed, no suffix removed from them
    HARMONY_EXCEPTION = 2,  // resources/vowel_harmony_exceptions.txt: suffixes removed despite disharmony
    LAST_CONSONANT = 3,    // resources/last_consonant_exceptions.txt: final consonant kept as it is
    AVERAGE_SIZE = 4,      // resources/average_stem_size_exceptions.txt: preferred over every other stem
};

// The Input::stop entry of `word` in `list`.
inline U32 turkish_list_key(TurkishList list, const U32& word) {
    U32 key;
    key.reserve(word.size() + 1);
    key.push_back((char32_t)list);
    key += word;
    return key;
}

namespace turkish {

// The package's letter classes: bit 1 a letter of its alphabet, 2 a vowel, 4 a consonant (its consonants are
// the alphabet's letters but the vowels), and for vowel harmony 8 front (e i ö ü), 16 back (ı u a o),
// 32 unrounded (i ı e a), 64 rounded (o ö u ü), 128 "following rounded" (a e u ü).
enum : unsigned { LETTER = 1, VOWEL = 2, CONSONANT = 4, FRONT = 8, BACK = 16, UNROUNDED = 32, ROUNDED = 64,
                  AFTER_ROUNDED = 128 };

inline unsigned letter_class(char32_t c) {
    switch (c) {
        case U'a': return LETTER | VOWEL | BACK | UNROUNDED | AFTER_ROUNDED;
        case U'e': return LETTER | VOWEL | FRONT | UNROUNDED | AFTER_ROUNDED;
        case U'ı': return LETTER | VOWEL | BACK | UNROUNDED;
        case U'i': return LETTER | VOWEL | FRONT | UNROUNDED;
        case U'o': return LETTER | VOWEL | BACK | ROUNDED;
        case U'ö': return LETTER | VOWEL | FRONT | ROUNDED;
        case U'u': return LETTER | VOWEL | BACK | ROUNDED | AFTER_ROUNDED;
        case U'ü': return LETTER | VOWEL | FRONT | ROUNDED | AFTER_ROUNDED;
        case U'b': case U'c': case U'ç': case U'd': case U'f': case U'g': case U'ğ': case U'h': case U'j':
        case U'k': case U'l': case U'm': case U'n': case U'p': case U'r': case U's': case U'ş': case U't':
        case U'v': case U'y': case U'z':
            return LETTER | CONSONANT;
        default: return 0;
    }
}
inline bool is_vowel(char32_t c) { return letter_class(c) & VOWEL; }
inline bool is_consonant(char32_t c) { return letter_class(c) & CONSONANT; }

// A suffix: its spellings (all of one length), the optional linking letter(s) before it, and whether it needs
// vowel harmony.
struct Suffix {
    const char32_t* spellings[8];
    int count;
    int length;
    const char32_t* optional;  // the letters that may link it (one of them), or null
    bool harmony;
};

// Nominal verb suffixes (the package's NominalVerbSuffix S1..S15).
inline constexpr Suffix NV1{{U"ım", U"im", U"um", U"üm"}, 4, 2, U"y", true};
inline constexpr Suffix NV2{{U"sın", U"sin", U"sun", U"sün"}, 4, 3, nullptr, true};
inline constexpr Suffix NV3{{U"ız", U"iz", U"uz", U"üz"}, 4, 2, U"y", true};
inline constexpr Suffix NV4{{U"sınız", U"siniz", U"sunuz", U"sünüz"}, 4, 5, nullptr, true};
inline constexpr Suffix NV5{{U"lar", U"ler"}, 2, 3, nullptr, true};
inline constexpr Suffix NV6{{U"m"}, 1, 1, nullptr, true};
inline constexpr Suffix NV7{{U"n"}, 1, 1, nullptr, true};
inline constexpr Suffix NV8{{U"k"}, 1, 1, nullptr, true};
inline constexpr Suffix NV9{{U"nız", U"niz", U"nuz", U"nüz"}, 4, 3, nullptr, true};
inline constexpr Suffix NV10{{U"tır", U"tir", U"tur", U"tür", U"dır", U"dir", U"dur", U"dür"}, 8, 3, nullptr, true};
inline constexpr Suffix NV11{{U"casına", U"çasına", U"cesine", U"çesine"}, 4, 6, nullptr, true};
inline constexpr Suffix NV12{{U"dı", U"di", U"du", U"dü", U"tı", U"ti", U"tu", U"tü"}, 8, 2, U"y", true};
inline constexpr Suffix NV13{{U"sa", U"se"}, 2, 2, U"y", true};
inline constexpr Suffix NV14{{U"muş", U"miş", U"müş", U"mış"}, 4, 3, U"y", true};
inline constexpr Suffix NV15{{U"ken"}, 1, 3, U"y", true};

// Noun suffixes (NounSuffix S1..S19).
inline constexpr Suffix N1{{U"lar", U"ler"}, 2, 3, nullptr, true};
inline constexpr Suffix N2{{U"m"}, 1, 1, U"ıiuü", true};
inline constexpr Suffix N3{{U"mız", U"miz", U"muz", U"müz"}, 4, 3, U"ıiuü", true};
inline constexpr Suffix N4{{U"ın", U"in", U"un", U"ün"}, 4, 2, nullptr, true};
inline constexpr Suffix N5{{U"nız", U"niz", U"nuz", U"nüz"}, 4, 3, U"ıiuü", true};
inline constexpr Suffix N6{{U"ı", U"i", U"u", U"ü"}, 4, 1, U"s", true};
inline constexpr Suffix N7{{U"ları", U"leri"}, 2, 4, nullptr, true};
inline constexpr Suffix N8{{U"ı", U"i", U"u", U"ü"}, 4, 1, U"y", true};
inline constexpr Suffix N9{{U"nı", U"ni", U"nu", U"nü"}, 4, 2, nullptr, true};
inline constexpr Suffix N10{{U"ın", U"in", U"un", U"ün"}, 4, 2, U"n", true};
inline constexpr Suffix N11{{U"a", U"e"}, 2, 1, U"y", true};
inline constexpr Suffix N12{{U"na", U"ne"}, 2, 2, nullptr, true};
inline constexpr Suffix N13{{U"da", U"de", U"ta", U"te"}, 4, 2, nullptr, true};
inline constexpr Suffix N14{{U"nta", U"nte", U"nda", U"nde"}, 4, 3, nullptr, true};
inline constexpr Suffix N15{{U"dan", U"tan", U"den", U"ten"}, 4, 3, nullptr, true};
inline constexpr Suffix N16{{U"ndan", U"ntan", U"nden", U"nten"}, 4, 4, nullptr, true};
inline constexpr Suffix N17{{U"la", U"le"}, 2, 2, U"y", true};
inline constexpr Suffix N18{{U"ki"}, 1, 2, nullptr, false};
inline constexpr Suffix N19{{U"ca", U"ce"}, 2, 2, U"n", true};

// Derivational suffix (DerivationalSuffix S1).
inline constexpr Suffix D1{{U"lı", U"li", U"lu", U"lü"}, 4, 2, nullptr, true};

// A state: final or not, and its outgoing transitions in the order the original tries them (a suffix and
// the index of the next state in the same machine).
struct Edge {
    const Suffix* suffix;
    int next;
};
struct State {
    bool final;
    int count;
    Edge edges[19];
};
struct Machine {
    int count;
    State states[11];
};

// NominalVerbState A..H (A initial).
inline constexpr Machine NOMINAL_VERB{
    8,
    {
        /*A*/ {false, 15, {{&NV11, 7}, {&NV4, 1}, {&NV14, 5}, {&NV15, 5}, {&NV2, 1}, {&NV5, 2}, {&NV9, 3}, {&NV10, 4},
                          {&NV3, 1}, {&NV1, 1}, {&NV12, 5}, {&NV13, 5}, {&NV6, 3}, {&NV7, 3}, {&NV8, 3}}},
        /*B*/ {true, 1, {{&NV14, 5}}},
        /*C*/ {true, 4, {{&NV10, 5}, {&NV12, 5}, {&NV13, 5}, {&NV14, 5}}},
        /*D*/ {false, 2, {{&NV12, 5}, {&NV13, 5}}},
        /*E*/ {true, 6, {{&NV1, 6}, {&NV2, 6}, {&NV3, 6}, {&NV4, 6}, {&NV5, 6}, {&NV14, 5}}},
        /*F*/ {true, 0, {}},
        /*G*/ {false, 1, {{&NV14, 5}}},
        /*H*/ {false, 6, {{&NV1, 6}, {&NV2, 6}, {&NV3, 6}, {&NV4, 6}, {&NV5, 6}, {&NV14, 5}}},
    }};

// NounState A, B, C, D, E, F, G, H, K, L, M (indices 0..10; A initial).
inline constexpr Machine NOUN{
    11,
    {
        /*A*/ {true, 19, {{&N16, 2}, {&N7, 8}, {&N3, 7}, {&N5, 7}, {&N1, 9}, {&N14, 5}, {&N15, 6}, {&N17, 4}, {&N10, 4},
                          {&N19, 10}, {&N4, 7}, {&N9, 2}, {&N12, 5}, {&N13, 1}, {&N18, 3}, {&N2, 7}, {&N6, 7}, {&N8, 1},
                          {&N11, 1}}},
        /*B*/ {true, 5, {{&N1, 9}, {&N2, 7}, {&N3, 7}, {&N4, 7}, {&N5, 7}}},
        /*C*/ {false, 2, {{&N6, 7}, {&N7, 8}}},
        /*D*/ {false, 3, {{&N10, 4}, {&N13, 1}, {&N14, 5}}},
        /*E*/ {true, 8, {{&N1, 9}, {&N2, 7}, {&N3, 7}, {&N4, 7}, {&N5, 7}, {&N6, 7}, {&N7, 8}, {&N18, 3}}},
        /*F*/ {false, 3, {{&N6, 7}, {&N7, 8}, {&N18, 3}}},
        /*G*/ {true, 6, {{&N1, 9}, {&N2, 7}, {&N3, 7}, {&N4, 7}, {&N5, 7}, {&N18, 3}}},
        /*H*/ {true, 1, {{&N1, 9}}},
        /*K*/ {true, 0, {}},
        /*L*/ {true, 1, {{&N18, 3}}},
        /*M*/ {true, 8, {{&N1, 9}, {&N2, 7}, {&N3, 7}, {&N4, 7}, {&N5, 7}, {&N6, 7}, {&N6, 7}, {&N7, 8}}},
    }};

// DerivationalState A, B.
inline constexpr Machine DERIVATIONAL{2, {/*A*/ {false, 1, {{&D1, 1}}}, /*B*/ {true, 0, {}}}};

class Stemmer {
  public:
    Stemmer(const U32& word, const StopSet& lists) : w_(word), lists_(lists), n_(word.size()) {}

    U32 run() {
        const U32& w = w_;
        if (n_ == 0) return w;
        for (char32_t c : w)
            if (!(letter_class(c) & LETTER)) return w;
        if (listed(n_, TurkishList::PROTECTED)) return w;
        if (vowels_in(n_) < 2) return w;
        stems_.assign(n_ + 1, 0);
        found_.reserve(16);
        strip(NOMINAL_VERB, n_);
        // The noun machine runs on the word and on every stem found so far, then the derivational machine on
        // the word and every stem found by then (the original iterates over a copy of the set; what one run
        // adds does not depend on the other runs, so the order does not matter).
        for (const Machine* m : {&NOUN, &DERIVATIONAL}) {
            const size_t known = found_.size();
            strip(*m, n_);
            for (size_t i = 0; i < known; ++i)
                if (found_[i] != n_) strip(*m, found_[i]);
        }
        return choose();
    }

  private:
    struct Transition {
        int start, next;
        const Suffix* suffix;
        size_t len;  // the prefix the suffix is tried on
        bool marked, alive;
    };

    // Membership of the prefix of length `len` in one of the package's lists (cached per prefix and list).
    bool listed(size_t len, TurkishList list) {
        if (cache_.empty()) cache_.assign(n_ + 1, 0);
        const unsigned bit = 1u << ((unsigned)list - 1), known = bit << 4;
        uint8_t& c = cache_[len];
        if (!(c & known)) {
            key_.assign(1, (char32_t)list);
            key_.append(w_, 0, len);
            c |= known | (lists_.count(key_) ? bit : 0);
        }
        return c & bit;
    }

    size_t vowels_in(size_t len) const {
        size_t k = 0;
        for (size_t i = 0; i < len; ++i) k += is_vowel(w_[i]);
        return k;
    }

    bool matches(size_t len, const Suffix& s) const {
        const size_t k = (size_t)s.length;
        if (len < k) return false;
        const char32_t* end = w_.data() + len - k;
        for (int i = 0; i < s.count; ++i) {
            const char32_t* sp = s.spellings[i];
            if (sp[k - 1] != end[k - 1]) continue;  // the last letter first: most spellings fail there
            size_t j = 0;
            while (j + 1 < k && sp[j] == end[j]) ++j;
            if (j + 1 >= k) return true;
        }
        return false;
    }

    // The last two vowels of the prefix agree in roundness and frontness (True with fewer than two vowels).
    bool harmony(size_t len) const {
        char32_t last = 0, before = 0;
        size_t i = len;
        while (i > 0 && !before) {
            char32_t c = w_[--i];
            if (!is_vowel(c)) continue;
            if (!last)
                last = c;
            else
                before = c;
        }
        if (!before) return true;
        const unsigned b = letter_class(before), l = letter_class(last);
        const bool round = ((b & UNROUNDED) && (l & UNROUNDED)) || ((b & ROUNDED) && (l & AFTER_ROUNDED));
        const bool front = ((b & FRONT) && (l & FRONT)) || ((b & BACK) && (l & BACK));
        return round && front;
    }

    bool removable(size_t len, const Suffix& s) {
        if (listed(len, TurkishList::PROTECTED)) return false;
        return !s.harmony || harmony(len) || listed(len, TurkishList::HARMONY_EXCEPTION);
    }

    // The prefix left after removing `s` from the prefix of length `len` (itself when nothing is removed).
    size_t stem_word(size_t len, const Suffix& s) {
        size_t out = len;
        if (removable(len, s) && matches(len, s)) out = len - s.length;
        if (s.optional && out >= 1 && in(w_[out - 1], s.optional)) {
            const char32_t link = w_[out - 1];
            const bool valid = out >= 2 && (is_vowel(link) ? is_consonant(w_[out - 2]) : is_vowel(w_[out - 2]));
            out = valid ? out - 1 : len;
        }
        return out;
    }

    void add_transitions(const Machine& m, int state, size_t len) {
        const State& st = m.states[state];
        for (int i = 0; i < st.count; ++i)
            if (matches(len, *st.edges[i].suffix))
                queue_.push_back(Transition{state, st.edges[i].next, st.edges[i].suffix, len, false, true});
    }

    void strip(const Machine& m, size_t len) {
        queue_.clear();
        add_transitions(m, 0, len);
        for (size_t head = 0; head < queue_.size(); ++head) {
            if (!queue_[head].alive) continue;
            const Transition t = queue_[head];
            const size_t stem = stem_word(t.len, *t.suffix);
            if (stem == t.len) continue;
            const bool to_final = m.states[t.next].final;
            for (size_t j = head + 1; j < queue_.size(); ++j) {
                Transition& o = queue_[j];
                if (!o.alive) continue;
                const bool sibling = o.start == t.start && o.next == t.next;
                if (to_final) {
                    if (sibling || o.marked) o.alive = false;
                } else if (sibling) {
                    o.marked = true;
                }
            }
            if (to_final && !stems_[stem]) {
                stems_[stem] = 1;
                found_.push_back(stem);
            }
            add_transitions(m, t.next, stem);
        }
    }

    // The final stem: the word when no stem with a vowel was found.
    U32 choose() {
        U32 best, cand;
        bool have = false, best_listed = false;
        size_t first_vowel = n_;
        for (size_t i = 0; i < n_; ++i)
            if (is_vowel(w_[i])) {
                first_vowel = i;
                break;
            }
        for (size_t len = first_vowel + 1; len < n_; ++len) {
            if (!stems_[len]) continue;
            cand.assign(w_, 0, len);
            if (!listed(len, TurkishList::LAST_CONSONANT)) {
                char32_t& c = cand.back();
                c = c == U'b' ? U'p' : c == U'c' ? U'ç' : c == U'd' ? U't' : c == U'ğ' ? U'k' : c;
            }
            key_.assign(1, (char32_t)TurkishList::AVERAGE_SIZE);
            key_ += cand;
            const bool is_listed = lists_.count(key_) != 0;
            // A listed stem sorts before every other one. Two listed stems of one word would be ordered by the
            // original's set iteration (string hashes); the package's lists allow no such word (checked by
            // tests/test_stemmer_turkish.py), so the first one is kept.
            bool better;
            if (!have)
                better = true;
            else if (best_listed || is_listed)
                better = !best_listed;
            else {
                const size_t d_best = best.size() > 4 ? best.size() - 4 : 4 - best.size();
                const size_t d = len > 4 ? len - 4 : 4 - len;
                better = d < d_best || (d == d_best && len < best.size());
            }
            if (better) {
                best.swap(cand);
                best_listed = is_listed;
                have = true;
            }
        }
        return have ? best : w_;
    }

    const U32& w_;
    const StopSet& lists_;
    const size_t n_;
    std::vector<char> stems_;      // stems_[k]: the prefix of length k is a stem
    std::vector<size_t> found_;    // the stems' lengths, in the order found
    std::vector<uint8_t> cache_;   // per prefix length: list membership bits (low 4) and known bits (high 4)
    std::vector<Transition> queue_;
    U32 key_;
};

}  // namespace turkish

// The twin of TurkishStemmer().stem(word): `in.stop` holds the package's word lists (turkish_list_key).
inline U32 stem_turkish(const Input& in) { return turkish::Stemmer(in.word, in.stop).run(); }

inline constexpr Language TURKISH_STEMMER{"TurkishStemmer", stem_turkish};

}  // namespace stem
}  // namespace rouge
