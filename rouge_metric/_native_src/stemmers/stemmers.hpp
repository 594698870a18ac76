// The language stemmers of the native core, by name: C++ twins of nltk's Snowball stemmers (what
// `use_stemmer="snowball:<language>"` and the XL-Sum recipe run) and of the TurkishStemmer package (the
// XL-Sum recipe's Turkish stemmer). Plain C++17, no Python.h; pure functions (any thread).
//
// Each twin gives, for every str, exactly what its Python original's stem() returns; tests/test_stemmers.py
// checks each against the original (the corpora's words, the stopword lists, words built from every suffix of
// every rule, hypothesis strings). A language whose Language::stem is null has no twin in this build: the
// Python layer (rouge_metric.multilingual.language_stemmer) then runs the original.
//
// Cost: each stemmer is O(length of the word) steps of suffix tests (a bounded number per step), and
// allocates only the word's own copies.
#pragma once

#include <cstring>

#include "snowball_arabic.hpp"
#include "snowball_danish.hpp"
#include "snowball_dutch.hpp"
#include "snowball_english.hpp"
#include "snowball_finnish.hpp"
#include "snowball_french.hpp"
#include "snowball_german.hpp"
#include "snowball_hungarian.hpp"
#include "snowball_italian.hpp"
#include "snowball_norwegian.hpp"
#include "snowball_porter.hpp"
#include "snowball_portuguese.hpp"
#include "snowball_romanian.hpp"
#include "snowball_russian.hpp"
#include "snowball_spanish.hpp"
#include "snowball_swedish.hpp"
#include "stem_common.hpp"
#include "turkish_stemmer.hpp"

namespace rouge {
namespace stem {

inline constexpr const Language* LANGUAGES[] = {
    &SNOWBALL_ARABIC,     &SNOWBALL_DANISH,  &SNOWBALL_DUTCH,    &SNOWBALL_ENGLISH,    &SNOWBALL_FINNISH,
    &SNOWBALL_FRENCH,     &SNOWBALL_GERMAN,  &SNOWBALL_HUNGARIAN, &SNOWBALL_ITALIAN,   &SNOWBALL_NORWEGIAN,
    &SNOWBALL_PORTER,     &SNOWBALL_PORTUGUESE, &SNOWBALL_ROMANIAN, &SNOWBALL_RUSSIAN, &SNOWBALL_SPANISH,
    &SNOWBALL_SWEDISH,    &TURKISH_STEMMER,
};

// The twin of `name`, or null when this build has none.
inline StemFn find(const char* name) {
    for (const Language* lang : LANGUAGES)
        if (std::strcmp(lang->name, name) == 0) return lang->stem;
    return nullptr;
}

}  // namespace stem
}  // namespace rouge
