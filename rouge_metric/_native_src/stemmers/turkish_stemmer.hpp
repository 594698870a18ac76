// The TurkishStemmer package's stemmer (XL-Sum's Turkish stemmer): no native twin yet; the Python layer
// runs the package's.
#pragma once

#include "stem_common.hpp"

namespace rouge {
namespace stem {

inline constexpr Language TURKISH_STEMMER{"TurkishStemmer", nullptr};

}  // namespace stem
}  // namespace rouge
