// Text -> tokens: rouge-score's default tokenizer (Python's str.lower(), then [a-z0-9]+ runs) and the
// whitespace tokenizer (Python's str.split()), reading texts of 1-, 2- and 4-byte code units in place
// (the layouts of CPython's compact str: py_text.hpp hands them over), with newline sentence ends
// (rougeLsum). Same tokens as rouge_metric/text.py; tests/test_native.py checks the lowercasing table
// and the whitespace set over every code point.
//
// The default tokenizer's scan has a variant per SIMD level (scalar, SSE2, AVX2, AVX-512; NEON on aarch64), chosen at
// run time (simd.hpp); every level gives the same tokens (tests/test_simd.py).
//
// One file over 400 lines: both tokenizers and the fast path of the default one, at every SIMD level,
// share the tables, the token buffer and the block helpers.
//
// Ownership: a TokBuf belongs to one thread. The only shared state read here is the StrMap whose
// slots are prefetched (read-only while batch threads run, see vocab.hpp) and the constant tables.
#pragma once

#include "common.hpp"
#include "hash.hpp"
#include "lower_table.h"
#include "simd.hpp"

#if ROUGE_SSE2
#include <emmintrin.h>
#endif

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// A text: len code points of `kind` bytes each (1: Latin-1, 2: UCS-2, 4: UCS-4) at data, fewer than
// 2^31 of them (token offsets and sentence boundaries are 32-bit). The owner keeps data alive and
// unchanged while a call reads it.
struct Text {
    int kind = 1;
    const void* data = nullptr;
    size_t len = 0;
};

// The tokenizers (rouge_metric._native.Tokenizer): rouge-score's default, and str.split().
enum class Tokenizer : int { DEFAULT = 0, WHITESPACE = 1 };

// Python's whitespace (str.isspace, str.split() with no argument: bidirectional class WS, B or S, or
// category Zs), the same set in every supported CPython (3.10 to 3.13; tests/test_native.py compares
// it with the interpreter's over every code point).
struct SpaceTable {
    bool t[128];
    SpaceTable() {
        for (int c = 0; c < 128; ++c) t[c] = (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
    }
};
inline const SpaceTable SPACE;
inline bool is_space(uint32_t c) {
    if (c < 128) return SPACE.t[c];
    switch (c) {
        case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
            return true;
        default:
            return c >= 0x2000 && c <= 0x200A;
    }
}

inline const char* lower_projection(uint32_t cp) {
    if (LOWER_N == 0 || cp < LOWER_CP[0] || cp > LOWER_CP[LOWER_N - 1]) return nullptr;
    const uint32_t* e = std::lower_bound(LOWER_CP, LOWER_CP + LOWER_N, cp);
    return (e != LOWER_CP + LOWER_N && *e == cp) ? LOWER_ASCII[e - LOWER_CP] : nullptr;
}

// The tokens of one text. b holds the token bytes (the fast path: the whole text lowercased; the
// general path: the tokens back to back), with at least 16 readable bytes past every token; keys[k]
// is token k (pointer into b, hash, first 16 bytes as words), cps[k] its length in code points
// (general path only; the fast path's tokens are ASCII), ends the token counts at sentence ends.
struct TokBuf {
    std::string b = std::string(256, '\0');
    size_t n = 0;   // general path: bytes used in b
    size_t nt = 0;  // tokens
    bool ascii = true;
    std::vector<uint32_t> off, cps;
    OffVec ends;  // sentence ends (token indices); the fast path writes them in place
    std::vector<Key> keys;
    std::vector<uint64_t, NoInitAlloc<uint64_t>> tokm, nlm;  // fast path: bit masks of token characters and
                                                             // newlines (every word written by the scan)
    std::vector<uint32_t> sv, ev;     // fast path: token starts and ends
    std::vector<uint8_t> proj;        // fast path: byte projection of 2- and 4-byte texts
    inline void put(char c) {
        if (n + 32 >= b.size()) b.resize(b.size() * 2);  // keep the slack
        b[n++] = c;
    }
    size_t cps_of(size_t k) const { return ascii ? keys[k].n : cps[k]; }
};

inline void put_utf8(TokBuf& s, uint32_t c) {
    if (c < 0x80) {
        s.put((char)c);
    } else if (c < 0x800) {
        s.put((char)(0xC0 | (c >> 6)));
        s.put((char)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        s.put((char)(0xE0 | (c >> 12)));
        s.put((char)(0x80 | ((c >> 6) & 0x3F)));
        s.put((char)(0x80 | (c & 0x3F)));
    } else {
        s.put((char)(0xF0 | (c >> 18)));
        s.put((char)(0x80 | ((c >> 12) & 0x3F)));
        s.put((char)(0x80 | ((c >> 6) & 0x3F)));
        s.put((char)(0x80 | (c & 0x3F)));
    }
}

// ASCII: the lowercase token character of c, or 0 for a separator.
struct AsciiTable {
    char t[128];
    AsciiTable() {
        for (int c = 0; c < 128; ++c) {
            t[c] = 0;
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) t[c] = (char)c;
            if (c >= 'A' && c <= 'Z') t[c] = (char)(c + 32);
        }
    }
};
inline const AsciiTable ASCII;

// 1-byte (Latin-1) texts: 16 characters at a time with SSE2 (baseline x86-64). Bit k of a class mask
// is set when byte k is in the class.
#if ROUGE_SSE2
inline uint32_t token_mask16(__m128i v) {  // ASCII [A-Za-z0-9]
    __m128i low = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(low, _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(low, _mm_set1_epi8('z' + 1)));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(letter, digit));
}
// 16 characters as 16 bytes; UCS-2 characters above 0xFF become 0x80 (non-ASCII).
inline __m128i load16(const uint8_t* p) { return _mm_loadu_si128((const __m128i*)p); }
inline __m128i load16(const uint16_t* p) {
    __m128i a = _mm_loadu_si128((const __m128i*)p), b = _mm_loadu_si128((const __m128i*)(p + 8));
    __m128i z = _mm_setzero_si128(), x80 = _mm_set1_epi16(0x80);
    __m128i ha = _mm_cmpeq_epi16(_mm_srli_epi16(a, 8), z), hb = _mm_cmpeq_epi16(_mm_srli_epi16(b, 8), z);
    a = _mm_or_si128(_mm_and_si128(ha, a), _mm_andnot_si128(ha, x80));
    b = _mm_or_si128(_mm_and_si128(hb, b), _mm_andnot_si128(hb, x80));
    return _mm_packus_epi16(a, b);
}
#endif

// First j >= i where s[j] is not an ASCII token character (or len).
template <class C>
inline size_t token_run_end(const C* s, size_t i, size_t len) {
#if ROUGE_SSE2
    while (i + 16 <= len) {
        uint32_t m = ~token_mask16(load16(s + i)) & 0xFFFFu;
        if (m) return i + (size_t)ctz32(m);
        i += 16;
    }
#endif
    while (i < len && (uint32_t)s[i] < 0x80 && ASCII.t[(uint32_t)s[i]]) ++i;
    return i;
}

// First j >= i where s[j] is a token character, a newline or non-ASCII (or len).
template <class C>
inline size_t skip_separators(const C* s, size_t i, size_t len) {
#if ROUGE_SSE2
    while (i + 16 <= len) {
        __m128i v = load16(s + i);
        uint32_t m = token_mask16(v) | (uint32_t)_mm_movemask_epi8(v) |
                     (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
        if (m) return i + (size_t)ctz32(m);
        i += 16;
    }
#endif
    while (i < len && !((uint32_t)s[i] >= 0x80 || ASCII.t[(uint32_t)s[i]] || s[i] == '\n')) ++i;
    return i;
}

// Lowercase copy of an ASCII token run (letters and digits: OR 0x20). dst has 16 bytes of slack;
// avail >= n characters are readable at src. When the run rounded up to 16 is readable, whole
// 16-byte blocks are copied (the bytes past n are scratch), so there is no byte loop whose
// varying trip count costs a branch miss per token.
template <class C>
inline void lower_copy(char* dst, const C* src, size_t n, size_t avail) {
#if ROUGE_SSE2
    size_t k = 0;
    if (((n + 15) & ~(size_t)15) <= avail) {
        for (; k < n; k += 16)
            _mm_storeu_si128((__m128i*)(dst + k), _mm_or_si128(load16(src + k), _mm_set1_epi8(0x20)));
        return;
    }
    for (; k + 16 <= n; k += 16)
        _mm_storeu_si128((__m128i*)(dst + k), _mm_or_si128(load16(src + k), _mm_set1_epi8(0x20)));
    for (; k < n; ++k) dst[k] = (char)(src[k] | 0x20);
#else
    (void)avail;
    for (size_t k = 0; k < n; ++k) dst[k] = (char)(src[k] | 0x20);
#endif
}

// Tokenize text (newline-split into sentences) into cur: the token bytes are appended to cur.b
// (cur.n bytes, 16 bytes of slack kept past them) and tok(offset, length, cps) is called for each
// token, sent() at each line end. Default: Python's str.lower() then [a-z0-9]+ runs (ASCII table
// plus the generated table of non-ASCII code points whose lowercase has ASCII letters or digits).
// Whitespace: str.split() on Python's whitespace, tokens kept as they are. O(len).
template <class C, class OnTok, class OnSent>
void tokenize(Tokenizer tokenizer, const C* s, size_t len, TokBuf& cur, OnTok&& tok, OnSent&& sent) {
    cur.n = 0;
    if (tokenizer == Tokenizer::DEFAULT) {
        // Hot loop on locals (the buffer pointer and length live in registers).
        const char* T = ASCII.t;
        char* buf = &cur.b[0];
        size_t cap = cur.b.size(), n = 0, start = 0, i = 0;
        auto emit = [&]() {
            if (n > start) {
                tok(start, n - start, n - start);
                start = n;
            }
        };
        while (i < len) {
            uint32_t c = (uint32_t)s[i];
            if (c < 0x80) {
                if (!T[c]) {
                    emit();
                    if (c == '\n') sent();
                    ++i;
                    if constexpr (sizeof(C) <= 2) i = skip_separators(s, i, len);
                    continue;
                }
                size_t j;
                if constexpr (sizeof(C) <= 2) {
                    j = token_run_end(s, i + 1, len);
                } else {
                    j = i + 1;
                    while (j < len && (uint32_t)s[j] < 0x80 && T[(uint32_t)s[j]]) ++j;
                }
                if (n + (j - i) + 32 > cap) {
                    cur.b.resize(std::max(cap * 2, n + (j - i) + 32));
                    buf = &cur.b[0];
                    cap = cur.b.size();
                }
                if constexpr (sizeof(C) <= 2) {
                    lower_copy(buf + n, s + i, j - i, len - i);
                    n += j - i;
                } else {
                    for (size_t k = i; k < j; ++k) buf[n++] = T[(uint32_t)s[k]];
                }
                i = j;
                continue;
            }
            const char* proj = lower_projection(c);
            if (!proj) {
                emit();
            } else {
                for (const char* q = proj; *q; ++q) {
                    if (*q == ' ') {
                        emit();
                    } else {
                        if (n + 32 >= cap) {
                            cur.b.resize(cap * 2);
                            buf = &cur.b[0];
                            cap = cur.b.size();
                        }
                        buf[n++] = *q;
                    }
                }
            }
            ++i;
        }
        emit();
        sent();
        cur.n = n;
        std::memset(buf + n, 0, 16);
        return;
    }
    size_t start = 0, cps = 0;
    auto flush = [&]() {
        if (cur.n > start) {
            tok(start, cur.n - start, cps);
            start = cur.n;
            cps = 0;
        }
    };
    for (size_t i = 0; i < len; ++i) {
        uint32_t c = (uint32_t)s[i];
        if (is_space(c)) {
            flush();
            if (c == '\n') sent();
            continue;
        }
        put_utf8(cur, c);
        ++cps;
    }
    flush();
    sent();
    std::memset(&cur.b[0] + cur.n, 0, 16);
}

// ---------------------------------------------------------------------- fast default tokenizer
// For the default tokenizer every character outside ASCII is a separator, except the few whose
// lowercase has ASCII letters or digits (the generated table: U+0130 and the Kelvin sign). A text
// without those is scanned as bytes (2- and 4-byte texts through a projection where every
// non-ASCII character is 0x80): 16 characters at a time, the lowercase of the whole text is written
// to cur.b (OR 0x20 is the lowercase of [A-Za-z0-9]; other bytes are never read as token bytes),
// with bit masks of the token characters and of the newlines; then the tokens are the runs of set
// bits, found with count-trailing-zeros, and each is hashed where it lies. O(len / 16 + tokens).

inline bool lower_table_hit(uint32_t c) { return lower_projection(c) != nullptr; }

// A table this small is tested exactly in the vector paths: one equality compare per code point
// (a block of curly quotes or dashes, common in 2-byte texts, then costs no scalar pass); a larger
// table takes a range test and a scalar look at the blocks it flags.
constexpr bool LOWER_EXACT = LOWER_N <= 4;

// Byte projection of a 2- or 4-byte text into out; false when it has a character of the table.
template <class C>
bool project_bytes(const C* s, size_t len, uint8_t* out) {
    for (size_t i = 0; i < len; ++i) {
        uint32_t c = (uint32_t)s[i];
        if (c < 0x80) {
            out[i] = (uint8_t)c;
        } else {
            if (lower_table_hit(c)) return false;
            out[i] = 0x80;
        }
    }
    return true;
}

// Phase 1 of the fast path, one 64-character block at a time: bit k of tm is set when character k
// is an ASCII letter or digit, of nm when it is '\n'; out[0, 64) receives the characters as bytes
// OR 0x20 (the lowercase of [A-Za-z0-9]; a character above 0x7F becomes a byte with the high bit
// set, never read as a token byte). False when the block has a character of the lower table (2- and
// 4-byte texts only: the caller sends Latin-1 texts here only when the table has nothing below 0x100).
// Every level computes the same tm, nm and the same out bytes at token positions; they differ in the
// width of one step. A level's block reads exactly 64 characters at src: the caller passes either a
// full block of the text or a zero-padded copy of its last partial block (AVX-512: a masked load,
// which reads no byte past the text).
template <class C>
inline bool block_has_table_char(const C* src, size_t n) {
    for (size_t k = 0; k < n; ++k)
        if ((uint32_t)src[k] >= 0x80 && lower_table_hit((uint32_t)src[k])) return true;
    return false;
}

template <class C>
inline bool block_scalar(const C* src, char* out, uint64_t& tm, uint64_t& nm) {
    const bool check = sizeof(C) > 1 && LOWER_N > 0;
    tm = 0;
    nm = 0;
    for (size_t k = 0; k < 64; ++k) {
        uint32_t c = (uint32_t)src[k];
        if (check && c >= 0x80 && lower_table_hit(c)) return false;
        if (c < 0x80 && ASCII.t[c]) tm |= (uint64_t)1 << k;
        if (c == '\n') nm |= (uint64_t)1 << k;
        out[k] = (char)((c < 0x80 ? c : 0x80) | 0x20);
    }
    return true;
}

#if ROUGE_SSE2
// SSE2 (x86-64 baseline): 16 characters per step; 1- and 2-byte texts (4-byte texts are projected to
// bytes first, project_bytes).
template <class C>
inline bool block_sse2(const C* src, char* out, uint64_t& tm, uint64_t& nm) {
    static_assert(sizeof(C) <= 2, "4-byte texts are projected to bytes before the SSE2 scan");
    const bool check = sizeof(C) > 1 && LOWER_N > 0;
    tm = 0;
    nm = 0;
    for (size_t q = 0; q < 4; ++q) {
        const C* p = src + q * 16;
        if (check) {
            __m128i a = _mm_loadu_si128((const __m128i*)p), b = _mm_loadu_si128((const __m128i*)(p + 8));
            if constexpr (LOWER_EXACT) {
                __m128i eq = _mm_setzero_si128();
                for (int i = 0; i < LOWER_N; ++i) {
                    if (LOWER_CP[i] > 0xFFFF) continue;
                    __m128i c = _mm_set1_epi16((short)(uint16_t)LOWER_CP[i]);
                    eq = _mm_or_si128(eq, _mm_or_si128(_mm_cmpeq_epi16(a, c), _mm_cmpeq_epi16(b, c)));
                }
                if (_mm_movemask_epi8(eq)) return false;
            } else {
                __m128i lo = _mm_set1_epi16((short)(uint16_t)std::min<uint32_t>(LOWER_CP[0] - 1, 0xFFFF));
                __m128i hi = _mm_or_si128(_mm_subs_epu16(a, lo), _mm_subs_epu16(b, lo));
                if (_mm_movemask_epi8(_mm_cmpeq_epi8(hi, _mm_setzero_si128())) != 0xFFFF && block_has_table_char(p, 16))
                    return false;
            }
        }
        __m128i v = load16(p);
        tm |= (uint64_t)token_mask16(v) << (q * 16);
        nm |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))) << (q * 16);
        _mm_storeu_si128((__m128i*)(out + q * 16), _mm_or_si128(v, _mm_set1_epi8(0x20)));
    }
    return true;
}
#endif

#if ROUGE_X86_DISPATCH
// AVX2: 32 characters per step. 2- and 4-byte characters are clamped to 0x80 (unsigned min) and
// packed to bytes; the packs work within 128-bit lanes, so a permute puts the bytes back in order.
template <class C>
ROUGE_TARGET_AVX2 ROUGE_FORCE_INLINE __m256i avx2_bytes32(const C* p) {
    if constexpr (sizeof(C) == 1) {
        return _mm256_loadu_si256((const __m256i*)p);
    } else if constexpr (sizeof(C) == 2) {
        __m256i m = _mm256_set1_epi16(0x80);
        __m256i a = _mm256_min_epu16(_mm256_loadu_si256((const __m256i*)p), m);
        __m256i b = _mm256_min_epu16(_mm256_loadu_si256((const __m256i*)(p + 16)), m);
        return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
    } else {
        __m256i m = _mm256_set1_epi32(0x80);
        __m256i a = _mm256_min_epu32(_mm256_loadu_si256((const __m256i*)p), m);
        __m256i b = _mm256_min_epu32(_mm256_loadu_si256((const __m256i*)(p + 8)), m);
        __m256i c = _mm256_min_epu32(_mm256_loadu_si256((const __m256i*)(p + 16)), m);
        __m256i d = _mm256_min_epu32(_mm256_loadu_si256((const __m256i*)(p + 24)), m);
        __m256i x = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
        return _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    }
}
// Whether any of the 32 characters at p is a code point of the table (LOWER_EXACT), else whether any
// is at or above the table's first code point (the caller then looks at them one by one).
template <class C>
ROUGE_TARGET_AVX2 ROUGE_FORCE_INLINE bool avx2_maybe_table(const C* p) {
    if constexpr (sizeof(C) == 1) {
        return false;
    } else if constexpr (LOWER_EXACT) {
        __m256i eq = _mm256_setzero_si256();
        for (int i = 0; i < LOWER_N; ++i) {
            if (sizeof(C) == 2 && LOWER_CP[i] > 0xFFFF) continue;
            for (int k = 0; k < (int)(32 * sizeof(C) / 32); ++k) {
                __m256i v = _mm256_loadu_si256((const __m256i*)(p + k * (32 / sizeof(C))));
                eq = _mm256_or_si256(eq, sizeof(C) == 2 ? _mm256_cmpeq_epi16(v, _mm256_set1_epi16((short)(uint16_t)LOWER_CP[i]))
                                                        : _mm256_cmpeq_epi32(v, _mm256_set1_epi32((int)LOWER_CP[i])));
            }
        }
        return !_mm256_testz_si256(eq, eq);
    } else if constexpr (sizeof(C) == 2) {
        __m256i lo = _mm256_set1_epi16((short)(uint16_t)std::min<uint32_t>(LOWER_CP[0] - 1, 0xFFFF));
        __m256i hi = _mm256_or_si256(_mm256_subs_epu16(_mm256_loadu_si256((const __m256i*)p), lo),
                                     _mm256_subs_epu16(_mm256_loadu_si256((const __m256i*)(p + 16)), lo));
        return !_mm256_testz_si256(hi, hi);
    } else {
        __m256i lo = _mm256_set1_epi32((int)(LOWER_CP[0] - 1));
        __m256i x = _mm256_setzero_si256();
        for (int k = 0; k < 4; ++k) {
            __m256i v = _mm256_loadu_si256((const __m256i*)(p + 8 * k));
            x = _mm256_or_si256(x, _mm256_xor_si256(_mm256_max_epu32(v, lo), lo));  // != lo iff v > lo
        }
        return !_mm256_testz_si256(x, x);
    }
}
template <class C>
ROUGE_TARGET_AVX2 inline bool block_avx2(const C* src, char* out, uint64_t& tm, uint64_t& nm) {
    const bool check = sizeof(C) > 1 && LOWER_N > 0;
    const __m256i x20 = _mm256_set1_epi8(0x20), am1 = _mm256_set1_epi8('a' - 1), zp1 = _mm256_set1_epi8('z' + 1);
    const __m256i d0 = _mm256_set1_epi8('0' - 1), d9 = _mm256_set1_epi8('9' + 1), nlc = _mm256_set1_epi8('\n');
    tm = 0;
    nm = 0;
    for (size_t h = 0; h < 2; ++h) {
        const C* p = src + h * 32;
        if (check && avx2_maybe_table(p) && (LOWER_EXACT || block_has_table_char(p, 32))) return false;
        __m256i v = avx2_bytes32(p);
        __m256i low = _mm256_or_si256(v, x20);  // signed compares: bytes >= 0x80 are below '0'
        __m256i letter = _mm256_and_si256(_mm256_cmpgt_epi8(low, am1), _mm256_cmpgt_epi8(zp1, low));
        __m256i digit = _mm256_and_si256(_mm256_cmpgt_epi8(v, d0), _mm256_cmpgt_epi8(d9, v));
        tm |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(letter, digit)) << (h * 32);
        nm |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, nlc)) << (h * 32);
        _mm256_storeu_si256((__m256i*)(out + h * 32), low);
    }
    return true;
}

// AVX-512 (F, BW, VL): 64 characters per step, compares straight into 64-bit masks. The last block
// is read with masked loads: the lanes past the text's end are neither read (a masked-off lane
// cannot fault) nor set (they load as 0, no class). 2- and 4-byte characters are clamped to 0x80 and
// narrowed with vpmovwb / vpmovdb.
template <class C>
ROUGE_TARGET_AVX512 ROUGE_NOINLINE bool scan_masks_avx512(const C* text, size_t len, size_t W, char* buf, uint64_t* tk,
                                                  uint64_t* nl) {
    const bool check = sizeof(C) > 1 && LOWER_N > 0;
    const __m512i x20 = _mm512_set1_epi8(0x20), ca = _mm512_set1_epi8('a'), c0 = _mm512_set1_epi8('0');
    const __m512i c26 = _mm512_set1_epi8(26), c10 = _mm512_set1_epi8(10), nlc = _mm512_set1_epi8('\n');
    for (size_t w = 0; w < W; ++w) {
        const size_t off = w * 64, rem = len - off;  // off < len
        const C* p = text + off;
        __m512i v;
        if constexpr (sizeof(C) == 1) {
            const __mmask64 lm = rem >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << rem) - 1);
            v = _mm512_maskz_loadu_epi8(lm, p);
        } else if constexpr (sizeof(C) == 2) {
            const __m512i m = _mm512_set1_epi16(0x80);
            const __m512i lo = _mm512_set1_epi16((short)(uint16_t)std::min<uint32_t>(LOWER_CP[0], 0xFFFF));
            __m256i half[2];
            for (size_t h = 0; h < 2; ++h) {
                size_t r = rem > h * 32 ? rem - h * 32 : 0;
                const __mmask32 lm = r >= 32 ? ~(__mmask32)0 : (((__mmask32)1 << r) - 1);
                __m512i x = _mm512_maskz_loadu_epi16(lm, p + h * 32);
                if constexpr (LOWER_EXACT) {  // the masked-off lanes are 0, never a code point of the table
                    __mmask32 eq = 0;
                    for (int i = 0; i < LOWER_N; ++i)
                        if (LOWER_CP[i] <= 0xFFFF)
                            eq |= _mm512_cmpeq_epi16_mask(x, _mm512_set1_epi16((short)(uint16_t)LOWER_CP[i]));
                    if (check && eq) return false;
                } else if (check && _mm512_cmpge_epu16_mask(x, lo) &&
                           block_has_table_char(p + h * 32, r < 32 ? r : 32)) {
                    return false;
                }
                half[h] = _mm512_cvtepi16_epi8(_mm512_min_epu16(x, m));
            }
            v = _mm512_inserti64x4(_mm512_castsi256_si512(half[0]), half[1], 1);
        } else {
            const __m512i m = _mm512_set1_epi32(0x80);
            const __m512i lo = _mm512_set1_epi32((int)LOWER_CP[0]);
            v = _mm512_setzero_si512();
            __m128i q4[4];
            for (size_t q = 0; q < 4; ++q) {
                size_t r = rem > q * 16 ? rem - q * 16 : 0;
                const __mmask16 lm = r >= 16 ? (__mmask16)0xFFFF : (__mmask16)(((unsigned)1 << r) - 1);
                __m512i x = _mm512_maskz_loadu_epi32(lm, p + q * 16);
                if constexpr (LOWER_EXACT) {
                    __mmask16 eq = 0;
                    for (int i = 0; i < LOWER_N; ++i)
                        eq |= _mm512_cmpeq_epi32_mask(x, _mm512_set1_epi32((int)LOWER_CP[i]));
                    if (check && eq) return false;
                } else if (check && _mm512_cmpge_epu32_mask(x, lo) &&
                           block_has_table_char(p + q * 16, r < 16 ? r : 16)) {
                    return false;
                }
                q4[q] = _mm512_cvtepi32_epi8(_mm512_min_epu32(x, m));
            }
            v = _mm512_inserti32x4(_mm512_castsi128_si512(q4[0]), q4[1], 1);
            v = _mm512_inserti32x4(v, q4[2], 2);
            v = _mm512_inserti32x4(v, q4[3], 3);
        }
        __m512i low = _mm512_or_si512(v, x20);
        __mmask64 letter = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(low, ca), c26);
        __mmask64 digit = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, c0), c10);
        tk[w] = (uint64_t)(letter | digit);
        nl[w] = (uint64_t)_mm512_cmpeq_epi8_mask(v, nlc);
        _mm512_storeu_si512((void*)(buf + off), low);
    }
    return true;
}
#endif

#if ROUGE_NEON
// NEON (aarch64's baseline): 16 characters per step, 64 per block. 2- and 4-byte characters are
// clamped to 0x80 (unsigned min) and narrowed to bytes. NEON has no byte movemask: the 0x00/0xFF
// lanes of four vectors keep one weight bit each (1, 2, ..., 128 over every 8 bytes) and three rounds
// of pairwise adds fold 64 lanes into the 8 bytes of the 64-bit mask (bit k = lane k).
template <class C>
inline uint8x16_t neon_bytes16(const C* p) {
    if constexpr (sizeof(C) == 1) {
        return vld1q_u8((const uint8_t*)p);
    } else if constexpr (sizeof(C) == 2) {
        const uint16x8_t m = vdupq_n_u16(0x80);
        const uint16x8_t a = vminq_u16(vld1q_u16((const uint16_t*)p), m);
        const uint16x8_t b = vminq_u16(vld1q_u16((const uint16_t*)p + 8), m);
        return vcombine_u8(vmovn_u16(a), vmovn_u16(b));
    } else {
        const uint32x4_t m = vdupq_n_u32(0x80);
        const uint32_t* q = (const uint32_t*)p;
        const uint16x8_t ab = vcombine_u16(vmovn_u32(vminq_u32(vld1q_u32(q), m)), vmovn_u32(vminq_u32(vld1q_u32(q + 4), m)));
        const uint16x8_t cd =
            vcombine_u16(vmovn_u32(vminq_u32(vld1q_u32(q + 8), m)), vmovn_u32(vminq_u32(vld1q_u32(q + 12), m)));
        return vcombine_u8(vmovn_u16(ab), vmovn_u16(cd));
    }
}
// Whether any of the 16 characters at p is at or above the table's first code point.
template <class C>
inline bool neon_maybe_table(const C* p) {
    if constexpr (sizeof(C) == 1) {
        return false;
    } else if constexpr (LOWER_EXACT && sizeof(C) == 2) {  // exact: a code point of the table
        const uint16_t* q = (const uint16_t*)p;
        const uint16x8_t a = vld1q_u16(q), b = vld1q_u16(q + 8);
        uint16x8_t eq = vdupq_n_u16(0);
        for (int i = 0; i < LOWER_N; ++i) {
            if (LOWER_CP[i] > 0xFFFF) continue;
            const uint16x8_t c = vdupq_n_u16((uint16_t)LOWER_CP[i]);
            eq = vorrq_u16(eq, vorrq_u16(vceqq_u16(a, c), vceqq_u16(b, c)));
        }
        return vmaxvq_u16(eq) != 0;
    } else if constexpr (LOWER_EXACT) {
        const uint32_t* q = (const uint32_t*)p;
        uint32x4_t eq = vdupq_n_u32(0);
        for (int i = 0; i < LOWER_N; ++i) {
            const uint32x4_t c = vdupq_n_u32(LOWER_CP[i]);
            for (int k = 0; k < 4; ++k) eq = vorrq_u32(eq, vceqq_u32(vld1q_u32(q + 4 * k), c));
        }
        return vmaxvq_u32(eq) != 0;
    } else if constexpr (sizeof(C) == 2) {
        const uint16_t* q = (const uint16_t*)p;
        return vmaxvq_u16(vmaxq_u16(vld1q_u16(q), vld1q_u16(q + 8))) >= std::min<uint32_t>(LOWER_CP[0], 0xFFFF);
    } else {
        const uint32_t* q = (const uint32_t*)p;
        const uint32x4_t x = vmaxq_u32(vmaxq_u32(vld1q_u32(q), vld1q_u32(q + 4)), vmaxq_u32(vld1q_u32(q + 8), vld1q_u32(q + 12)));
        return vmaxvq_u32(x) >= LOWER_CP[0];
    }
}
inline uint64_t neon_mask64(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
    static const uint8_t W[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t w = vld1q_u8(W);
    const uint8x16_t ab = vpaddq_u8(vandq_u8(a, w), vandq_u8(b, w));  // lanes 2i, 2i+1 of a, then of b
    const uint8x16_t cd = vpaddq_u8(vandq_u8(c, w), vandq_u8(d, w));
    const uint8x16_t q = vpaddq_u8(ab, cd);  // 4 lanes each
    const uint8x16_t o = vpaddq_u8(q, q);    // 8 lanes each: byte k = lanes 8k..8k+7
    return vgetq_lane_u64(vreinterpretq_u64_u8(o), 0);
}
template <class C>
inline bool block_neon(const C* src, char* out, uint64_t& tm, uint64_t& nm) {
    const bool check = sizeof(C) > 1 && LOWER_N > 0;
    const uint8x16_t x20 = vdupq_n_u8(0x20), ca = vdupq_n_u8('a'), c0 = vdupq_n_u8('0');
    const uint8x16_t c26 = vdupq_n_u8(26), c10 = vdupq_n_u8(10), nlc = vdupq_n_u8('\n');
    uint8x16_t t[4], n[4];
    for (size_t q = 0; q < 4; ++q) {
        const C* p = src + q * 16;
        if (check && neon_maybe_table(p) && (LOWER_EXACT || block_has_table_char(p, 16))) return false;
        const uint8x16_t v = neon_bytes16(p);
        const uint8x16_t low = vorrq_u8(v, x20);
        // unsigned: a byte >= 0x80 is neither a letter (low - 'a' >= 0x3F) nor a digit
        t[q] = vorrq_u8(vcltq_u8(vsubq_u8(low, ca), c26), vcltq_u8(vsubq_u8(v, c0), c10));
        n[q] = vceqq_u8(v, nlc);
        vst1q_u8((uint8_t*)out + q * 16, low);
    }
    tm = neon_mask64(t[0], t[1], t[2], t[3]);
    nm = neon_mask64(n[0], n[1], n[2], n[3]);
    return true;
}
#endif

// Phase 1 over the whole text at one level: blocks [0, W) into buf, tk, nl; full blocks are read in
// place, the last partial block (len % 64 characters) from a zero-padded copy, so no level reads
// past text + len.
template <class C, class Block>
inline bool scan_masks_blocks(const C* text, size_t len, size_t W, char* buf, uint64_t* tk, uint64_t* nl,
                              Block&& block) {
    size_t full = len / 64;
    for (size_t w = 0; w < full; ++w)
        if (!block(text + w * 64, buf + w * 64, tk[w], nl[w])) return false;
    if (full < W) {
        C tmp[64] = {0};
        std::memcpy(tmp, text + full * 64, (len - full * 64) * sizeof(C));
        if (!block((const C*)tmp, buf + full * 64, tk[full], nl[full])) return false;
    }
    return true;
}

#if ROUGE_X86_DISPATCH
template <class C>
ROUGE_TARGET_AVX2 ROUGE_NOINLINE bool scan_masks_avx2(const C* text, size_t len, size_t W, char* buf, uint64_t* tk,
                                                      uint64_t* nl) {
    size_t full = len / 64;
    for (size_t w = 0; w < full; ++w)
        if (!block_avx2(text + w * 64, buf + w * 64, tk[w], nl[w])) return false;
    if (full < W) {
        C tmp[64] = {0};
        std::memcpy(tmp, text + full * 64, (len - full * 64) * sizeof(C));
        if (!block_avx2((const C*)tmp, buf + full * 64, tk[full], nl[full])) return false;
    }
    return true;
}
#endif

// Phase 1 at the process's SIMD level (simd.hpp). 4-byte texts reach the SSE2 level projected to
// bytes (collect_tokens), the other levels as they are.
template <class C>
inline bool scan_masks(int level, const C* text, size_t len, size_t W, char* buf, uint64_t* tk, uint64_t* nl) {
#if ROUGE_X86_DISPATCH
    if (level == SIMD_AVX512) return scan_masks_avx512(text, len, W, buf, tk, nl);
    if (level == SIMD_AVX2) return scan_masks_avx2(text, len, W, buf, tk, nl);
#endif
#if ROUGE_NEON
    if (level == SIMD_NEON)
        return scan_masks_blocks(text, len, W, buf, tk, nl, [](const C* s, char* o, uint64_t& t, uint64_t& n) {
            return block_neon(s, o, t, n);
        });
#endif
#if ROUGE_SSE2
    if constexpr (sizeof(C) <= 2)
        if (level == SIMD_SSE2)
            return scan_masks_blocks(text, len, W, buf, tk, nl, [](const C* s, char* o, uint64_t& t, uint64_t& n) {
                return block_sse2(s, o, t, n);
            });
#endif
    (void)level;
    return scan_masks_blocks(text, len, W, buf, tk, nl, [](const C* s, char* o, uint64_t& t, uint64_t& n) {
        return block_scalar(s, o, t, n);
    });
}

// First set bit at or after i in a[0, W) (W * 64 when none).
inline size_t next_set(const uint64_t* a, size_t i, size_t W) {
    size_t w = i >> 6;
    if (w >= W) return W * 64;
    uint64_t x = a[w] & (~(uint64_t)0 << (i & 63));
    while (!x) {
        if (++w >= W) return W * 64;
        x = a[w];
    }
    return w * 64 + (size_t)ctz64(x);
}
#if ROUGE_X86_DISPATCH
// AVX-512 VBMI2: the set bits' positions compressed out of 0..63 (vpcompressb), widened to 32 bits and
// offset by base, stored 16 at a time: up to 15 entries past the last one are written (scratch; the
// arrays have 64 entries of slack) and then overwritten or ignored.
ROUGE_TARGET_AVX512 ROUGE_FORCE_INLINE void flatten_vbmi2(uint32_t* out, size_t& n, uint32_t base, uint64_t x) {
    const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44,
                                         43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25,
                                         24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4,
                                         3, 2, 1, 0);
    const size_t cnt = (size_t)_mm_popcnt_u64(x);
    const __m512i pos = _mm512_maskz_compress_epi8((__mmask64)x, iota);
    const __m512i b = _mm512_set1_epi32((int)base);
    uint32_t* o = out + n;
    _mm512_storeu_si512((void*)o, _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(pos)), b));
    if (cnt > 16) {
        _mm512_storeu_si512((void*)(o + 16),
                            _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(pos, 1)), b));
        if (cnt > 32) {
            _mm512_storeu_si512((void*)(o + 32),
                                _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(pos, 2)), b));
            _mm512_storeu_si512((void*)(o + 48),
                                _mm512_add_epi32(_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(pos, 3)), b));
        }
    }
    n += cnt;
}
ROUGE_TARGET_AVX512 ROUGE_NOINLINE size_t flatten_bounds_avx512(const uint64_t* tk, size_t W, uint32_t* sv,
                                                                 uint32_t* ev) {
    size_t ns = 0, ne = 0;
    uint64_t carry = 0;
    for (size_t w = 0; w <= W; ++w) {
        uint64_t t = tk[w], prev = (t << 1) | carry;
        carry = t >> 63;
        flatten_vbmi2(sv, ns, (uint32_t)(w * 64), t & ~prev);
        flatten_vbmi2(ev, ne, (uint32_t)(w * 64), ~t & prev);
    }
    return ne;
}
#endif

// Phase 2 of the fast path: the keys of the tokens (hashed where they lie in buf, their slots in map
// prefetched) and the sentence ends, from the token masks tk[0, W] (tk[W] == 0, which ends a token
// that reaches the end of the text) and the newline masks nl[0, W]. Token starts are the set bits
// after a clear one, ends the clear bits after a set one. Both ways below give the same keys and ends.
//
// Every level but AVX-512: the bits are walked word by word, each token hashed as it is found (in a
// word, starts and ends alternate, after the end of a token left open by the previous word).
inline size_t keys_from_masks(const uint64_t* tk, const uint64_t* nl, size_t W, const char* buf, TokBuf& cur,
                              const StrMap& map) {
    if (cur.keys.size() < (W * 64) / 2 + 2) cur.keys.resize((W * 64) / 2 + 2);
    Key* keys = cur.keys.data();
    const auto* slots = map.slot_data();  // in registers: the stores to keys could alias the map's fields
    const size_t mask = map.slot_mask();
    size_t nt = 0, nextnl = next_set(nl, 0, W);
    auto emit = [&](size_t s, size_t e) {
        if (s > nextnl) {  // a newline since the last token: the sentence ends
            cur.ends.push_back((uint32_t)nt);
            nextnl = next_set(nl, s, W);
        }
        keys[nt] = make_key_slack(buf + s, e - s);
        ROUGE_PREFETCH(slots + (keys[nt].h & mask));
        ++nt;
    };
    uint64_t carry = 0;
    size_t start = 0;
    bool open = false;
    for (size_t w = 0; w <= W; ++w) {
        uint64_t t = tk[w], prev = (t << 1) | carry;
        uint64_t st = t & ~prev, en = ~t & prev;
        carry = t >> 63;
        size_t base = w * 64;
        if (open && en) {
            emit(start, base + (size_t)ctz64(en));
            en &= en - 1;
            open = false;
        }
        while (st) {
            size_t s = base + (size_t)ctz64(st);
            st &= st - 1;
            if (en) {
                emit(s, base + (size_t)ctz64(en));
                en &= en - 1;
            } else {
                start = s;
                open = true;
            }
        }
    }
    return nt;
}

// A text of more than LONG_TEXT_TOKENS tokens has its vocabulary slots prefetched LOOKUP_AHEAD tokens
// ahead of each lookup (tokenize_doc): prefetched all at once, while the keys are made, the early ones
// would be gone from L1 by the time of their lookups. A shorter text's are all prefetched while its keys
// are made (by the AVX-512 key pass; the bit walk of the other levels prefetches every text's).
constexpr size_t LONG_TEXT_TOKENS = 256;
constexpr size_t LOOKUP_AHEAD = 16;

// AVX-512: all starts and all ends first (vpcompressb, no branch per token), then one counted loop
// hashes the tokens, so the hashes of consecutive tokens overlap instead of waiting on the
// mispredicted branches of the bit walk. The sentence ends come from a pass of their own over the
// newlines (sentence_ends), which keeps the hashing loop free of branches and its pointers in
// registers.
#if ROUGE_X86_DISPATCH
// The sentence ends of a text: for each run of newlines between two tokens (or before the first), the
// index of the token after it, ascending and once each; a run after the last token adds nothing (the
// caller ends the last sentence). sv: the nt token starts, ascending; nl[0, W): the newline masks.
// The same ends as keys_from_masks's walk. O(W + nt + newlines).
inline size_t sentence_ends(const uint64_t* nl, size_t W, const uint32_t* sv, size_t nt, uint32_t* ends) {
    size_t ne = 0, t = 0, last = SIZE_MAX;
    for (size_t w = 0; w < W; ++w) {
        for (uint64_t x = nl[w]; x; x &= x - 1) {
            const size_t p = w * 64 + (size_t)ctz64(x);
            while (t < nt && sv[t] < p) ++t;
            if (t == nt) return ne;
            if (t != last) ends[ne++] = (uint32_t)t, last = t;
        }
    }
    return ne;
}

inline size_t keys_from_bounds(const uint64_t* tk, const uint64_t* nl, size_t W, const char* buf,
                               TokBuf& cur, const StrMap& map) {
    size_t cap = (W * 64) / 2 + 2 + 64;  // at most len / 2 + 1 tokens, and 64 entries of slack
    if (cur.sv.size() < cap) {
        cur.sv.resize(cap);
        cur.ev.resize(cap);
    }
    uint32_t* sv = cur.sv.data();
    uint32_t* ev = cur.ev.data();
    const size_t nt = flatten_bounds_avx512(tk, W, sv, ev);
    if (cur.keys.size() < nt + 1) cur.keys.resize(nt + 1);
    cur.ends.resize(nt + 1);  // at most one end per token (and room for the last one, scan_default's)
    cur.ends.resize(sentence_ends(nl, W, sv, nt, cur.ends.data()));
    Key* keys = cur.keys.data();
    const auto* slots = map.slot_data();
    const size_t mask = map.slot_mask();
    const size_t pre = nt > LONG_TEXT_TOKENS ? LOOKUP_AHEAD : nt;  // a long text: the lookups prefetch
    size_t k = 0;
    for (; k < pre; ++k) {
        keys[k] = make_key_slack(buf + sv[k], ev[k] - sv[k]);
        ROUGE_PREFETCH(slots + (keys[k].h & mask));
    }
    for (; k < nt; ++k) keys[k] = make_key_slack(buf + sv[k], ev[k] - sv[k]);
    return nt;
}
#endif

// The fast path over text[0, len) (see above): fills cur.keys, cur.nt, cur.ends, and prefetches the
// slot of each token in map. For 2-byte text (C = uint16_t) the projection happens while loading;
// false when the text has a character of the table (found before any token is recorded).
template <class C>
bool scan_default(int level, const C* text, size_t len, TokBuf& cur, const StrMap& map) {
    size_t W = (len + 63) / 64;
    if (cur.b.size() < W * 64 + 64) cur.b.resize(W * 64 + 64);
    cur.tokm.resize(W + 1);
    cur.nlm.resize(W + 1);
    char* buf = &cur.b[0];
    uint64_t* tk = cur.tokm.data();
    uint64_t* nl = cur.nlm.data();
    if (!scan_masks(level, text, len, W, buf, tk, nl)) return false;
    tk[W] = 0;
    nl[W] = 0;
    std::memset(buf + W * 64, 0, 64);
#if ROUGE_X86_DISPATCH
    size_t nt = level == SIMD_AVX512 ? keys_from_bounds(tk, nl, W, buf, cur, map)
                                     : keys_from_masks(tk, nl, W, buf, cur, map);
#else
    size_t nt = keys_from_masks(tk, nl, W, buf, cur, map);
#endif
    cur.ends.push_back((uint32_t)nt);  // the last sentence ends with the text
    cur.nt = nt;
    return true;
}

// The tokens of a text into cur (keys, cps, ends), by the fast path when it applies (which also
// prefetches the tokens' slots in map).
inline void collect_tokens(Tokenizer tokenizer, const Text& t, TokBuf& cur, const StrMap& map) {
    cur.ends.clear();
    cur.nt = 0;
    cur.ascii = true;
    if (tokenizer == Tokenizer::DEFAULT) {
        const int level = simd_level();
        if (t.kind == 1) {
            // Latin-1: nothing lowercases to ASCII unless the table says so.
            if (!(LOWER_N && LOWER_CP[0] <= 0xFF) && scan_default(level, (const uint8_t*)t.data, t.len, cur, map))
                return;
        } else if (t.kind == 2) {
            if (scan_default(level, (const uint16_t*)t.data, t.len, cur, map)) return;
        } else if (level != SIMD_SSE2) {
            if (scan_default(level, (const uint32_t*)t.data, t.len, cur, map)) return;
        } else {
            cur.proj.resize(t.len);
            if (project_bytes((const uint32_t*)t.data, t.len, cur.proj.data()) &&
                scan_default(level, (const uint8_t*)cur.proj.data(), t.len, cur, map))
                return;
        }
        cur.ends.clear();
    }
    // General path: the character-by-character tokenizer, tokens back to back in cur.b.
    cur.ascii = false;
    cur.off.clear();
    cur.cps.clear();
    auto on_tok = [&](size_t off, size_t n, size_t cps) {
        cur.off.push_back((uint32_t)off);
        cur.cps.push_back((uint32_t)cps);
        (void)n;
    };
    auto on_sent = [&]() { cur.ends.push_back((uint32_t)cur.off.size()); };
    switch (t.kind) {
        case 1:
            tokenize(tokenizer, (const uint8_t*)t.data, t.len, cur, on_tok, on_sent);
            break;
        case 2:
            tokenize(tokenizer, (const uint16_t*)t.data, t.len, cur, on_tok, on_sent);
            break;
        default:
            tokenize(tokenizer, (const uint32_t*)t.data, t.len, cur, on_tok, on_sent);
    }
    size_t nt = cur.off.size();
    cur.off.push_back((uint32_t)cur.n);
    if (cur.keys.size() < nt) cur.keys.resize(nt);
    const char* base = cur.b.data();
    for (size_t k = 0; k < nt; ++k) cur.keys[k] = make_key_slack(base + cur.off[k], cur.off[k + 1] - cur.off[k]);
    cur.nt = nt;
}

// Tokenize into doc. With RESOLVE=false (no GIL, no writes) unknown tokens go to misses and false is
// returned. The map slots of all the tokens are prefetched before the first lookup, so the cache

}  // namespace
}  // namespace rouge
