// nltk's Snowball stemmer for danish (nltk.stem.snowball): no native twin yet; the Python layer runs nltk's.
#pragma once

#include "stem_common.hpp"

namespace rouge {
namespace stem {

inline constexpr Language SNOWBALL_DANISH{"danish", nullptr};

}  // namespace stem
}  // namespace rouge
