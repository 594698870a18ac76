// Text -> tokens: rouge-score's default tokenizer (Python's str.lower(), then [a-z0-9]+ runs) and the
// whitespace tokenizer (Python's str.split()), reading texts of 1-, 2- and 4-byte code units in place
// (the layouts of CPython's compact str: py_text.hpp hands them over), with newline sentence ends
// (rougeLsum). Same tokens as rouge_metric/text.py; tests/test_native.py checks the lowercasing table
// and the whitespace set over every code point.
//
// One file over 400 lines: both tokenizers and the fast path of the default one share the tables,
// the token buffer and the SSE2 helpers.
//
// Ownership: a TokBuf belongs to one thread. The only shared state read here is the StrMap whose
// slots are prefetched (read-only while batch threads run, see vocab.hpp) and the constant tables.
#pragma once

#include "common.hpp"
#include "hash.hpp"
#include "lower_table.h"

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
    std::vector<uint32_t> off, cps, ends;
    std::vector<Key> keys;
    std::vector<uint64_t> tokm, nlm;  // fast path: bit masks of token characters and newlines
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
// The fast path over text[0, len) (see above): fills cur.keys, cur.nt, cur.ends, and prefetches the
// slot of each token in map. For 2-byte text (C = uint16_t) the projection happens while loading;
// false when the text has a character of the table (found before any token is recorded).
template <class C>
bool scan_default(const C* text, size_t len, TokBuf& cur, const StrMap& map) {
    size_t W = (len + 63) / 64;
    if (cur.b.size() < W * 64 + 64) cur.b.resize(W * 64 + 64);
    cur.tokm.resize(W + 1);
    cur.nlm.resize(W + 1);
    char* buf = &cur.b[0];
    uint64_t* tk = cur.tokm.data();
    uint64_t* nl = cur.nlm.data();
    // Characters at or above the table's first code point are checked against it (2-byte text).
    const bool check = sizeof(C) > 1 && LOWER_N > 0;
    for (size_t w = 0; w < W; ++w) {
        uint64_t tm = 0, nm = 0;
        for (size_t q = 0; q < 4; ++q) {
            size_t o = w * 64 + q * 16;
            const C* src = text + o;
            C tmp[16] = {0};
            if (o + 16 > len) {
                if (o < len) std::memcpy(tmp, text + o, (len - o) * sizeof(C));
                src = tmp;
            }
#if ROUGE_SSE2
            if (check) {
                __m128i a = _mm_loadu_si128((const __m128i*)src), b = _mm_loadu_si128((const __m128i*)(src + 8));
                __m128i lo = _mm_set1_epi16((short)(uint16_t)(LOWER_CP[0] - 1));
                __m128i hi = _mm_or_si128(_mm_subs_epu16(a, lo), _mm_subs_epu16(b, lo));
                if (_mm_movemask_epi8(_mm_cmpeq_epi8(hi, _mm_setzero_si128())) != 0xFFFF)
                    for (size_t k = 0; k < 16; ++k)
                        if (lower_table_hit((uint32_t)src[k])) return false;
            }
            __m128i v = load16(src);
            tm |= (uint64_t)token_mask16(v) << (q * 16);
            nm |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))) << (q * 16);
            _mm_storeu_si128((__m128i*)(buf + o), _mm_or_si128(v, _mm_set1_epi8(0x20)));
#else
            for (size_t k = 0; k < 16; ++k) {
                uint32_t c = (uint32_t)src[k];
                if (check && c >= 0x80 && lower_table_hit(c)) return false;
                if (c < 0x80 && ASCII.t[c]) tm |= (uint64_t)1 << (q * 16 + k);
                if (c == '\n') nm |= (uint64_t)1 << (q * 16 + k);
                buf[o + k] = (char)((c < 0x80 ? c : 0x80) | 0x20);
            }
#endif
        }
        tk[w] = tm;
        nl[w] = nm;
    }
    tk[W] = 0;
    nl[W] = 0;
    std::memset(buf + W * 64, 0, 64);
    if (cur.keys.size() < len / 2 + 2) cur.keys.resize(len / 2 + 2);
    Key* keys = cur.keys.data();
    size_t nt = 0, nextnl = next_set(nl, 0, W);
    auto emit = [&](size_t s, size_t e) {
        if (s > nextnl) {  // a newline since the last token: the sentence ends
            cur.ends.push_back((uint32_t)nt);
            nextnl = next_set(nl, s, W);
        }
        keys[nt] = make_key_slack(buf + s, e - s);
        map.prefetch(keys[nt]);
        ++nt;
    };
    // Token starts are the set bits after a clear one, ends the clear bits after a set one; in a word
    // they alternate, after the end of a token left open by the previous word.
    uint64_t carry = 0;
    size_t start = 0;
    bool open = false;
    for (size_t w = 0; w <= W; ++w) {  // tk[W] == 0 ends a token that reaches the end
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
    cur.ends.push_back((uint32_t)nt);
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
        if (t.kind == 1) {
            // Latin-1: nothing lowercases to ASCII unless the table says so.
            if (!(LOWER_N && LOWER_CP[0] <= 0xFF) && scan_default((const uint8_t*)t.data, t.len, cur, map)) return;
        } else if (t.kind == 2) {
            if (scan_default((const uint16_t*)t.data, t.len, cur, map)) return;
        } else {
            cur.proj.resize(t.len);
            if (project_bytes((const uint32_t*)t.data, t.len, cur.proj.data()) &&
                scan_default((const uint8_t*)cur.proj.data(), t.len, cur, map))
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
