// nltk's Snowball stemmer for porter (nltk.stem.snowball: SnowballStemmer("porter") is nltk's
// PorterStemmer() in its NLTK_EXTENSIONS mode, nltk 3.10): its C++ twin for every str, on code points, with
// the steps of ../porter.hpp (the default pipeline's ASCII Porter; one implementation for both).
//
// As nltk's stem(): the irregular-forms pool is looked up with the lowercased word; a word of at most two
// code points *as given* (before lowercasing, which can lengthen it) is returned lowercased; the stopwords
// are never consulted (the class takes PorterStemmer.stem, which ignores them). O(len(word)) per step.
#pragma once

#include "../porter.hpp"
#include "stem_common.hpp"

namespace rouge {
namespace stem {
namespace porter {

inline U32 stem(const Input& in) {
    std::string_view hit;
    if (porter_pool(std::u32string_view(in.lower), hit)) {
        U32 out;
        for (char c : hit) out.push_back((char32_t)(unsigned char)c);
        return out;
    }
    if (in.word.size() <= 2) return in.lower;
    U32 w = in.lower;
    porter_steps(w);
    return w;
}

}  // namespace porter

inline constexpr Language SNOWBALL_PORTER{"porter", porter::stem};

}  // namespace stem
}  // namespace rouge
