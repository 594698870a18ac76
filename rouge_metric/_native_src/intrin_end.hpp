// See intrin_begin.hpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
