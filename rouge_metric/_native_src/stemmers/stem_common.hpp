// Language stemmers (C++ twins of nltk's Snowball stemmers and of the TurkishStemmer package): the types
// every language file shares, and the one home of their string literals, suffix tests and suffix lists
// (`Suffixes`). Plain C++17, no Python.h; pure functions, no shared state (any thread).
//
// A stemmer works on code points (std::u32string), as its Python original works on str. Each language
// file (snowball_<language>.hpp, turkish_stemmer.hpp) defines one `Language` constant: its name and its
// stem function, or a null function while this build has no twin for it (the Python layer then runs the
// original). stemmers.hpp lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>

namespace rouge {
namespace stem {

using U32 = std::u32string;

struct U32Hash {
    size_t operator()(const U32& s) const noexcept {
        uint64_t h = 1469598103934665603ull;  // FNV-1a over the code points
        for (char32_t c : s) h = (h ^ (uint64_t)c) * 1099511628211ull;
        return (size_t)h;
    }
};

// The stopwords of `ignore_stopwords=True` (nltk's `stopwords.words(language)`, as a set).
using StopSet = std::unordered_set<U32, U32Hash>;

// What the Python original's stem(word) sees: the word as given, Python's `word.lower()` (made by the
// caller, which has Python's Unicode tables: the lowercase of a code point can be several code points,
// and Greek capital sigma depends on its neighbours), the stopword set (empty without
// ignore_stopwords), and the state the original instance keeps from one call to the next: nltk's
// ArabicStemmer never resets its `suffixes_verb_step1_success` flag, so once one word has passed that step
// every later word of the same instance takes the other branch. `state` is that flag (false for a new
// instance); a stemmer without such state leaves it alone. Returns exactly what the original returns.
struct Input {
    const U32& word;
    const U32& lower;
    const StopSet& stop;
    bool& state;
};

using StemFn = U32 (*)(const Input&);

struct Language {
    const char* name;  // nltk's language name ("danish", ..., "porter"), or "TurkishStemmer"
    StemFn stem;       // null: no native twin in this build
};

// ------------------------------------------------------------------------------- small helpers
// Python's `c in chars` for a set of characters written as a UTF-32 literal.
inline bool in(char32_t c, const char32_t* chars) {
    for (; *chars; ++chars)
        if (*chars == c) return true;
    return false;
}

// ------------------------------------------------------------------------------- literals and suffix tests
// A string literal of code points with its length (a suffix, prefix or replacement of an original's lists).
// The default is the empty literal.
struct Lit {
    const char32_t* s = U"";
    size_t n = 0;
    constexpr Lit() = default;
    template <size_t N>
    constexpr Lit(const char32_t (&a)[N]) : s(a), n(N - 1) {}  // NOLINT: implicit by design
};

// A read-only run of code points: a word, a region, a slice or a literal.
struct View {
    const char32_t* p;
    size_t n;
    View(const char32_t* p_, size_t n_) : p(p_), n(n_) {}
    View(const U32& s) : p(s.data()), n(s.size()) {}  // NOLINT: implicit by design
    View(Lit l) : p(l.s), n(l.n) {}                   // NOLINT
    template <size_t N>
    View(const char32_t (&a)[N]) : p(a), n(N - 1) {}  // NOLINT
    char32_t operator[](size_t i) const { return p[i]; }
};

// Comparisons run from the end (where most suffix tests fail) in plain loops: the strings are a few code
// points long.
inline bool same(const char32_t* a, const char32_t* b, size_t n) {
    while (n--)
        if (a[n] != b[n]) return false;
    return true;
}
inline bool eq(View s, View t) { return s.n == t.n && same(s.p, t.p, s.n); }  // s == t
inline bool endswith(View s, View suf) { return s.n >= suf.n && same(s.p + (s.n - suf.n), suf.p, suf.n); }
inline bool startswith(View s, View pre) { return s.n >= pre.n && same(s.p, pre.p, pre.n); }
// s[:-k] for k <= len(s) (the word before its last k code points).
inline View drop_last(View s, size_t k) { return View(s.p, s.n - k); }

// ------------------------------------------------------------------------------- suffix lists
// The suffix of a list entry: the entry itself, or the `suffix` member of an entry that carries more (what
// replaces the suffix, a condition of the rule).
constexpr const Lit& suffix_of(const Lit& l) { return l; }
template <class E>
constexpr const Lit& suffix_of(const E& e) {
    return e.suffix;
}

// A suffix list of an original, in its order: the originals try `for suffix in ...: if s.endswith(suffix)`, and
// the first suffix s ends with (and that passes the rule's condition, where there is one) decides. An entry is
// a Lit, or a struct with a `Lit suffix` and what the rule needs besides. Only suffixes ending with the last
// letter of s can match, so the list is grouped once, at compile time, by the low 6 bits of each suffix's last
// code point (stably: list order within a group); a lookup tries only its group, still in list order, and a
// suffix of the group with another last letter fails at its first comparison.
// Lookup: O(1) to find the group + O(the group's suffixes x their length).
template <size_t N, class E = Lit>
class Suffixes {
    static_assert(N > 0 && N < 256, "a suffix list of 1 to 255 suffixes");
    static constexpr size_t GROUPS = 64;

  public:
    // A list of literals: Suffixes LIST{U"ern", U"em", ...}.
    template <class... T>
    constexpr Suffixes(const T&... entries) : sorted_{}, position_{}, start_{} {
        const E list[N] = {E(entries)...};
        group(list);
    }
    // A list of entries (see suffix_list).
    constexpr explicit Suffixes(const E (&entries)[N]) : sorted_{}, position_{}, start_{} { group(entries); }

    // f(entry) for each entry of the list whose suffix ends s, in list order, until f returns true; that entry,
    // or null.
    template <class F>
    const E* each(View s, F&& f) const {
        if (s.n == 0) return nullptr;
        const size_t g = s.p[s.n - 1] % GROUPS;
        for (size_t j = start_[g]; j < start_[g + 1]; ++j)
            if (endswith(s, suffix_of(sorted_[j])) && f(sorted_[j])) return &sorted_[j];
        return nullptr;
    }
    // The first entry of the list whose suffix ends s, or null.
    const E* first(View s) const {
        return each(s, [](const E&) { return true; });
    }
    // The entry whose suffix equals s, or null: s in the list (a tuple of strings of the original).
    const E* find_word(View s) const {
        return each(s, [&](const E& e) { return suffix_of(e).n == s.n; });
    }
    bool contains_word(View s) const { return find_word(s) != nullptr; }
    // The position in the list of an entry returned by first, each or find_word.
    size_t index(const E* e) const { return position_[e - sorted_]; }

  private:
    constexpr void group(const E (&list)[N]) {
        size_t count[GROUPS + 1] = {};
        for (size_t i = 0; i < N; ++i) {
            const Lit& l = suffix_of(list[i]);
            if (l.n == 0) throw "Suffixes: an empty suffix";
            ++count[l.s[l.n - 1] % GROUPS + 1];
        }
        for (size_t g = 0; g < GROUPS; ++g) start_[g + 1] = (uint8_t)(start_[g] + count[g + 1]);
        size_t next[GROUPS] = {};
        for (size_t g = 0; g < GROUPS; ++g) next[g] = start_[g];
        for (size_t i = 0; i < N; ++i) {  // a stable counting sort by group
            const Lit& l = suffix_of(list[i]);
            const size_t j = next[l.s[l.n - 1] % GROUPS]++;
            sorted_[j] = list[i];
            position_[j] = (uint8_t)i;
        }
    }

    E sorted_[N];
    uint8_t position_[N];
    uint8_t start_[GROUPS + 1];  // the group g is sorted_[start_[g] .. start_[g + 1])
};
template <class... T>
Suffixes(const T&...) -> Suffixes<sizeof...(T)>;

// A list of entries that carry more than their suffix, in the original's order:
// `inline constexpr auto STEP = suffix_list<Rule>({{U"ok", 0}, {U"ak", U'a'}, ...});`
template <class E, size_t N>
constexpr Suffixes<N, E> suffix_list(const E (&entries)[N]) {
    return Suffixes<N, E>(entries);
}

}  // namespace stem
}  // namespace rouge
