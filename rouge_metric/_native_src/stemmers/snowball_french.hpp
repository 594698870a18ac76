// nltk's Snowball stemmer for french (nltk.stem.snowball): no native twin yet; the Python layer runs nltk's.
#pragma once

#include "stem_common.hpp"

namespace rouge {
namespace stem {

inline constexpr Language SNOWBALL_FRENCH{"french", nullptr};

}  // namespace stem
}  // namespace rouge
