// nltk's Snowball stemmer for dutch (nltk.stem.snowball): no native twin yet; the Python layer runs nltk's.
#pragma once

#include "stem_common.hpp"

namespace rouge {
namespace stem {

inline constexpr Language SNOWBALL_DUTCH{"dutch", nullptr};

}  // namespace stem
}  // namespace rouge
