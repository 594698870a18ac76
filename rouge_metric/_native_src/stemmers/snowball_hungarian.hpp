// nltk's Snowball stemmer for hungarian (nltk.stem.snowball): no native twin yet; the Python layer runs nltk's.
#pragma once

#include "stem_common.hpp"

namespace rouge {
namespace stem {

inline constexpr Language SNOWBALL_HUNGARIAN{"hungarian", nullptr};

}  // namespace stem
}  // namespace rouge
