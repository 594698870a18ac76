// rouge_metric._native: the compiled kernels and the batch scorer.
//
// Same functions and the same numbers as rouge_metric/core_py.py (the reference and the docs of
// every kernel), plus a Scorer that runs the whole default pipeline (tokenize -> stem cache ->
// intern -> kernels -> multi-reference combine -> P/R/F) in C++, for one pair with the GIL held or
// for a batch on N threads without the GIL. Token ids are int32 (interned per Vocab).
//
// Floating point: compiled with -ffp-contract=off and without -ffast-math; every expression is
// written in the order of the Python code it mirrors, so the doubles are bit-identical.

#include <pybind11/pybind11.h>

#include <Python.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lower_table.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>  // _addcarry_u64, _subborrow_u64
#endif

namespace py = pybind11;

namespace {

// ------------------------------------------------------------------------------------------ hashing
// Keys (tokens) are hashed from their first 16 bytes as two little-endian words k0, k1 (zero-padded)
// plus, for keys longer than 16 bytes (rare), the remaining bytes. The same words are kept inline in
// the map's slots, so comparing a key of at most 16 bytes is one branch on register values.

inline uint64_t hash_bytes(const char* p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    while (n >= 8) {
        uint64_t k;
        std::memcpy(&k, p, 8);
        h = (h ^ k) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    uint64_t k = 0;
    for (size_t i = 0; i < n; ++i) k |= (uint64_t)(uint8_t)p[i] << (8 * i);  // no memcpy call
    h = (h ^ k) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return h;
}

// Bytes p[0, 8) as a little-endian word (the byte order of the key words on every machine).
inline uint64_t load_le64(const char* p) {
    uint64_t k;
    std::memcpy(&k, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    k = __builtin_bswap64(k);
#endif
    return k;
}

// Masks of the first and second key word of a key of n bytes (index min(n, 16)): table lookups, no
// branch on the token length (it is unpredictable).
struct KeyMasks {
    uint64_t m0[17], m1[17];
    KeyMasks() {
        for (size_t n = 0; n <= 16; ++n) {
            size_t a = n < 8 ? n : 8, b = n > 8 ? n - 8 : 0;
            m0[n] = a == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * a)) - 1);
            m1[n] = b == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * b)) - 1);
        }
    }
};
const KeyMasks KEY_MASKS;

// Key words of p[0, n): any buffer (the first 16 bytes go through a zeroed local copy).
inline void key_words(const char* p, size_t n, uint64_t& k0, uint64_t& k1) {
    char b[16] = {0};
    std::memcpy(b, p, n < 16 ? n : 16);
    k0 = load_le64(b);
    k1 = load_le64(b + 8);
}

// Key words of p[0, n) without byte loops or branches on n; needs 16 readable bytes past p + n
// (the tokenizer's buffer keeps 16 bytes of slack).
inline void key_words_slack(const char* p, size_t n, uint64_t& k0, uint64_t& k1) {
    size_t c = n < 16 ? n : 16;
    k0 = load_le64(p) & KEY_MASKS.m0[c];
    k1 = load_le64(p + 8) & KEY_MASKS.m1[c];
}

// Hash of the key p[0, n) with words k0, k1. O(1) for n <= 16, O(n) beyond.
inline uint64_t hash_key(uint64_t k0, uint64_t k1, const char* p, size_t n) {
    uint64_t h = (0x9E3779B97F4A7C15ull ^ (uint64_t)n ^ k0) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
    h = (h ^ k1) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    if (n > 16) h ^= hash_bytes(p + 16, n - 16);
    return h;
}

inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

inline bool same(const char* a, const char* b, size_t n) {
    while (n >= 8) {
        uint64_t x, y;
        std::memcpy(&x, a, 8);
        std::memcpy(&y, b, 8);
        if (x != y) return false;
        a += 8;
        b += 8;
        n -= 8;
    }
    while (n--)
        if (*a++ != *b++) return false;
    return true;
}

// A hashed key: the hash, the first 16 bytes as words, and the bytes (read past 16 only).
struct Key {
    const char* p;
    size_t n;
    uint64_t h, k0, k1;
};
inline Key make_key(const char* p, size_t n) {  // any buffer
    Key k{p, n, 0, 0, 0};
    key_words(p, n, k.k0, k.k1);
    k.h = hash_key(k.k0, k.k1, p, n);
    return k;
}
inline Key make_key_slack(const char* p, size_t n) {  // 16 readable bytes past p + n
    Key k{p, n, 0, 0, 0};
    key_words_slack(p, n, k.k0, k.k1);
    k.h = hash_key(k.k0, k.k1, p, n);
    return k;
}

// String -> int32 map, open addressing with linear probing (load <= 1/2); keys live in one arena.
// 32-byte slots keep the first 16 key bytes inline, so a lookup of a token of at most 16 bytes
// (nearly all tokens) touches one slot and compares with one branch.
struct StrMap {
    struct Slot {
        uint64_t k0, k1;
        uint32_t tag;  // high half of the hash, | 1 (0: empty slot)
        uint32_t len;
        uint32_t off;  // key bytes in arena
        int32_t val;
    };
    std::vector<Slot> slots;
    std::string arena;
    size_t count = 0;

    StrMap() { slots.assign(1024, Slot{0, 0, 0, 0, 0, 0}); }

    static inline uint32_t tag_of(uint64_t h) { return (uint32_t)(h >> 32) | 1u; }

    const int32_t* find(const Key& k) const {
        size_t mask = slots.size() - 1;
        uint32_t tag = tag_of(k.h);
        for (size_t i = k.h & mask;; i = (i + 1) & mask) {
            const Slot& s = slots[i];
            if (s.tag == 0) return nullptr;
            uint64_t diff = (uint64_t)(s.tag ^ tag) | (uint64_t)(s.len ^ (uint32_t)k.n) | (s.k0 ^ k.k0) | (s.k1 ^ k.k1);
            if (diff == 0 && (k.n <= 16 || same(arena.data() + s.off + 16, k.p + 16, k.n - 16))) return &s.val;
        }
    }
    void prefetch(const Key& k) const { __builtin_prefetch(&slots[k.h & (slots.size() - 1)]); }
    void insert(const Key& k, int32_t v) {
        if ((count + 1) * 2 > slots.size()) grow();
        size_t mask = slots.size() - 1;
        size_t i = k.h & mask;
        while (slots[i].tag != 0) i = (i + 1) & mask;
        // Slots keep only the high half of the hash: grow() rehashes from the key words.
        slots[i] = Slot{k.k0, k.k1, tag_of(k.h), (uint32_t)k.n, (uint32_t)arena.size(), v};
        arena.append(k.p, k.n);
        ++count;
    }
    void grow() {
        std::vector<Slot> old;
        old.swap(slots);
        slots.assign(old.size() * 2, Slot{0, 0, 0, 0, 0, 0});
        size_t mask = slots.size() - 1;
        for (const Slot& s : old) {
            if (s.tag == 0) continue;
            uint64_t h = hash_key(s.k0, s.k1, arena.data() + s.off, s.len);
            size_t i = h & mask;
            while (slots[i].tag != 0) i = (i + 1) & mask;
            slots[i] = s;
        }
    }
};

// uint64 -> int32 table with generation stamps (O(1) clear), for n-gram and skip-bigram counts.
// A slot is 16 bytes (key, value, stamp): one cache access per probe.
struct PairTable {
    struct Slot {
        uint64_t key;
        int32_t val;
        uint32_t stamp;
    };
    std::vector<Slot> slots;
    uint32_t gen = 0;
    size_t mask = 0;
    size_t count = 0;

    void reset(size_t expected) {
        size_t cap = 16;
        while (cap < expected * 2 + 2) cap <<= 1;
        if (cap > slots.size()) {
            slots.assign(cap, Slot{0, 0, 0});
            gen = 0;
        }
        mask = slots.size() - 1;
        if (++gen == 0) {
            for (Slot& x : slots) x.stamp = 0;
            gen = 1;
        }
        count = 0;
    }
    // The value of key, created (0) when absent.
    int32_t& at(uint64_t key) {
        for (size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
            Slot& x = slots[i];
            if (x.stamp != gen) {
                x = Slot{key, 0, gen};
                ++count;
                return x.val;
            }
            if (x.key == key) return x.val;
        }
    }
    int32_t* find(uint64_t key) {
        for (size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
            Slot& x = slots[i];
            if (x.stamp != gen) return nullptr;
            if (x.key == key) return &x.val;
        }
    }
};

inline uint64_t pack(int32_t a, int32_t b) { return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b; }

// Per-thread scratch space. Dense arrays are indexed by token id and always left zeroed.
struct Workspace {
    std::vector<int32_t> cnt_a, cnt_b;
    std::vector<uint64_t> pm1;      // single-word match masks by id
    std::vector<uint32_t> slot;     // multi-word: id -> offset in masks (UINT32_MAX: none)
    std::vector<uint64_t> masks;
    std::vector<uint64_t> rows, V;
    std::vector<uint32_t> pos;
    std::vector<uint8_t> marked;
    // union_lcs: occurrence chains of the reference tokens (first by id, UINT32_MAX: none; next by
    // position), the distinct tokens of a prediction sentence, a bitmap over reference positions.
    std::vector<uint32_t> first, nxt;
    std::vector<int32_t> distinct;
    std::vector<uint64_t> bits;
    std::vector<double> wC;
    std::vector<int32_t> wL;
    std::vector<uint8_t> wB, wmask;
    std::vector<double> powk;
    double powk_w = -1.0;
    PairTable table;
    std::vector<int32_t> g1, g2, h1, h2;

    void ensure(size_t nid) {
        if (cnt_a.size() < nid) {
            size_t n = std::max(nid, cnt_a.size() * 2);
            cnt_a.resize(n, 0);
            cnt_b.resize(n, 0);
            pm1.resize(n, 0);
            slot.resize(n, UINT32_MAX);
            first.resize(n, UINT32_MAX);
        }
    }
    // pow(k, w) for k = 0..kmax, cached per weight (bit-identical to Python's k ** w).
    const double* powtab(double w, size_t kmax) {
        if (w != powk_w) {
            powk.clear();
            powk_w = w;
        }
        while (powk.size() <= kmax) powk.push_back(std::pow((double)powk.size(), w));
        return powk.data();
    }
};

struct Seq {
    const int32_t* p;
    size_t n;
};

// A tokenized text: all token ids, and the [begin, end) offsets of its non-empty sentences.
struct Doc {
    std::vector<int32_t> ids;
    std::vector<uint32_t> sb;  // sentence boundaries: sentence k is ids[sb[2k], sb[2k+1])
    size_t nsent() const { return sb.size() / 2; }
    Seq sent(size_t k) const { return Seq{ids.data() + sb[2 * k], (size_t)(sb[2 * k + 1] - sb[2 * k])}; }
    Seq all() const { return Seq{ids.data(), ids.size()}; }
    void clear() {
        ids.clear();
        sb.clear();
    }
};

// ------------------------------------------------------------------------------------------ kernels
struct Stats {
    double hit, pt, rt, sel;
};

// ROUGE-N clipped overlap. O(m + n) expected (hash counts); n >= 3 interns the n-grams level by level.
int64_t ngram_hits(Workspace& ws, Seq P, Seq R, int n) {
    if ((int64_t)P.n < n || (int64_t)R.n < n) return 0;
    if (n == 1) {
        int32_t* c = ws.cnt_a.data();
        for (size_t i = 0; i < P.n; ++i) c[P.p[i]]++;
        int64_t hit = 0;
        for (size_t i = 0; i < R.n; ++i) {
            int32_t& x = c[R.p[i]];
            int32_t h = x > 0;
            hit += h;
            x -= h;
        }
        for (size_t i = 0; i < P.n; ++i) c[P.p[i]] = 0;
        return hit;
    }
    size_t np = P.n - n + 1, nr = R.n - n + 1;
    PairTable& t = ws.table;
    if (n == 2) {
        // Reference bigrams are inserted too (count 0 when absent): no branch on whether they match.
        t.reset(np + nr);
        for (size_t i = 0; i < np; ++i) t.at(pack(P.p[i], P.p[i + 1]))++;
        int64_t hit = 0;
        for (size_t i = 0; i < nr; ++i) {
            int32_t& x = t.at(pack(R.p[i], R.p[i + 1]));
            int32_t h = x > 0;
            hit += h;
            x -= h;
        }
        return hit;
    }
    // n >= 3: gram ids of length k from (id of the (k-1)-gram, next token), exact.
    std::vector<int32_t>&gp = ws.g1, &gr = ws.g2, &hp = ws.h1, &hr = ws.h2;
    gp.assign(P.p, P.p + P.n);
    gr.assign(R.p, R.p + R.n);
    int32_t next = 0;
    for (int k = 2; k <= n; ++k) {
        t.reset(gp.size() + gr.size());
        next = 0;
        hp.resize(P.n - k + 1);
        hr.resize(R.n - k + 1);
        for (size_t i = 0; i < hp.size(); ++i) {
            int32_t& v = t.at(pack(gp[i], P.p[i + k - 1]));
            if (v == 0) v = ++next;
            hp[i] = v - 1;
        }
        for (size_t i = 0; i < hr.size(); ++i) {
            int32_t& v = t.at(pack(gr[i], R.p[i + k - 1]));
            if (v == 0) v = ++next;
            hr[i] = v - 1;
        }
        gp.swap(hp);
        gr.swap(hr);
    }
    std::vector<int32_t> c((size_t)next, 0);
    for (int32_t g : gp) c[g]++;
    int64_t hit = 0;
    for (int32_t g : gr) {
        if (c[g] > 0) {
            ++hit;
            --c[g];
        }
    }
    return hit;
}

// ROUGE-S/SU: pairs with 1 <= j - i <= skip + 1 (any when skip < 0), SU adds the unigrams of all
// positions but the last. O(len * skip) (O(len^2) unlimited) expected.
const uint32_t UNI = 0xFFFFFFFFu;
void skip_hits(Workspace& ws, Seq P, Seq R, int skip, bool uni, int64_t& hit, int64_t& pt, int64_t& rt) {
    hit = pt = rt = 0;
    auto span = [skip](size_t L) -> size_t { return skip < 0 ? L : (size_t)skip + 1; };
    PairTable& t = ws.table;
    size_t L = P.n;
    size_t dmax = span(L);
    size_t expect = L < 2 ? 0 : (L - 1) * std::min(dmax, L - 1) + L;
    if (expect > 4096) {  // distinct keys <= V^2 + V (V distinct tokens): do not size by pairs
        int32_t* c = ws.cnt_a.data();
        size_t V = 0;
        for (size_t i = 0; i < L; ++i)
            if (c[P.p[i]]++ == 0) ++V;
        for (size_t i = 0; i < L; ++i) c[P.p[i]] = 0;
        expect = std::min(expect, V * V + V);
    }
    t.reset(expect);
    if (L >= 2) {
        for (size_t i = 0; i + 1 < L; ++i) {
            size_t jmax = std::min(L - 1, i + dmax);
            for (size_t j = i + 1; j <= jmax; ++j) {
                t.at(pack(P.p[i], P.p[j]))++;
                ++pt;
            }
            if (uni) {
                t.at(pack(P.p[i], (int32_t)UNI))++;
                ++pt;
            }
        }
    }
    L = R.n;
    if (L < 2) return;
    dmax = span(L);
    for (size_t i = 0; i + 1 < L; ++i) {
        size_t jmax = std::min(L - 1, i + dmax);
        for (size_t j = i + 1; j <= jmax; ++j) {
            ++rt;
            if (pt) {
                int32_t* x = t.find(pack(R.p[i], R.p[j]));
                if (x && *x > 0) {
                    ++hit;
                    --*x;
                }
            }
        }
        if (uni) {
            ++rt;
            if (pt) {
                int32_t* x = t.find(pack(R.p[i], (int32_t)UNI));
                if (x && *x > 0) {
                    ++hit;
                    --*x;
                }
            }
        }
    }
}

// Match masks of the tokens of B: W == 1 uses ws.pm1[id]; W > 1 uses ws.slot[id] -> ws.masks.
void set_masks(Workspace& ws, Seq B, size_t W) {
    if (W == 1) {
        for (size_t j = 0; j < B.n; ++j) ws.pm1[B.p[j]] |= (uint64_t)1 << j;
        return;
    }
    uint32_t used = 0;  // slots first, then one zeroed allocation
    for (size_t j = 0; j < B.n; ++j) {
        uint32_t& s = ws.slot[B.p[j]];
        if (s == UINT32_MAX) {
            s = used;
            used += (uint32_t)W;
        }
    }
    ws.masks.assign(used, 0);
    uint64_t* masks = ws.masks.data();
    for (size_t j = 0; j < B.n; ++j) masks[ws.slot[B.p[j]] + j / 64] |= (uint64_t)1 << (j % 64);
}
void clear_masks(Workspace& ws, Seq B, size_t W) {
    if (W == 1) {
        for (size_t j = 0; j < B.n; ++j) ws.pm1[B.p[j]] = 0;
        return;
    }
    for (size_t j = 0; j < B.n; ++j) ws.slot[B.p[j]] = UINT32_MAX;
}

// a + b + carry (carry in and out: 0 or 1); add-with-carry on x86-64.
inline uint64_t addc(uint64_t a, uint64_t b, uint64_t& carry) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned long long out;
    carry = _addcarry_u64((unsigned char)carry, a, b, &out);
    return out;
#else
    uint64_t s = a + b, c1 = s < a, s2 = s + carry;
    carry = c1 | (s2 < s);
    return s2;
#endif
}
// a - b - borrow (borrow in and out: 0 or 1).
inline uint64_t subb(uint64_t a, uint64_t b, uint64_t& borrow) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned long long out;
    borrow = _subborrow_u64((unsigned char)borrow, a, b, &out);
    return out;
#else
    uint64_t d = a - b, b1 = a < b, d2 = d - borrow;
    borrow = b1 | (d < borrow);
    return d2;
#endif
}

// The word count of a multi-word kernel: a compile-time constant (WC > 0, loops unrolled) or the
// run-time W (WC == 0).
template <size_t WC>
inline size_t width(size_t W) { return WC ? WC : W; }

// One bit-parallel LCS row step over W words (Hyyro 2004): out = (V + U) | (V - U), U = V & M
// (V - U = V & ~M, no borrows). out may be V.
template <size_t WC = 0>
inline void lcs_step(uint64_t* out, const uint64_t* V, const uint64_t* M, size_t W) {
    uint64_t carry = 0;
    for (size_t w = 0; w < width<WC>(W); ++w) {
        uint64_t v = V[w], mk = M[w];
        out[w] = addc(v, v & mk, carry) | (v & ~mk);
    }
}

// The rows of lcs_len over the tokens of A (masks set, W words, ws.V the state).
template <size_t WC>
void lcs_rows(Workspace& ws, Seq A, size_t W) {
    W = width<WC>(W);
    uint64_t* V = ws.V.data();
    const uint64_t* masks = ws.masks.data();
    const uint32_t* slot = ws.slot.data();
    for (size_t i = 0; i < A.n; ++i) {
        uint32_t s = slot[A.p[i]];
        if (s == UINT32_MAX) continue;  // no match: V unchanged
        lcs_step<WC>(V, V, masks + s, W);
    }
}

// Length of the LCS, bit-parallel: O(max(m, n) * ceil(min(m, n) / w)) time, O(min / w) memory.
int64_t lcs_len(Workspace& ws, Seq A, Seq B) {
    if (A.n < B.n) std::swap(A, B);  // bits over the shorter (B)
    if (!B.n) return 0;
    size_t W = (B.n + 63) / 64;
    set_masks(ws, B, W);
    int64_t res;
    if (W == 1) {
        uint64_t v = ~(uint64_t)0;
        const uint64_t* pm = ws.pm1.data();
        for (size_t i = 0; i < A.n; ++i) {
            uint64_t u = v & pm[A.p[i]];
            v = (v + u) | (v - u);
        }
        uint64_t full = B.n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << B.n) - 1);
        res = (int64_t)B.n - __builtin_popcountll(v & full);
    } else {
        ws.V.assign(W, ~(uint64_t)0);
        switch (W) {
            case 2: lcs_rows<2>(ws, A, W); break;
            case 3: lcs_rows<3>(ws, A, W); break;
            case 4: lcs_rows<4>(ws, A, W); break;
            case 5: lcs_rows<5>(ws, A, W); break;
            case 6: lcs_rows<6>(ws, A, W); break;
            case 7: lcs_rows<7>(ws, A, W); break;
            case 8: lcs_rows<8>(ws, A, W); break;
            default: lcs_rows<0>(ws, A, W);
        }
        int64_t ones = 0;
        for (size_t w = 0; w < W; ++w) ones += __builtin_popcountll(ws.V[w]);
        res = (int64_t)(W * 64) - ones;  // bits past B.n stay 1
    }
    clear_masks(ws, B, W);
    return res;
}

// The multi-word rows and walk of lcs_mark_pos (W = width<WC>(W) >= 2 words over c, n = |c|).
template <size_t WC>
void lcs_mark_pos_w(Workspace& ws, Seq r, size_t n, size_t W, const uint32_t* pos, size_t m, uint8_t* mark) {
    W = width<WC>(W);
    uint64_t* rows = ws.rows.data();
    const uint64_t* masks = ws.masks.data();
    const uint32_t* slot = ws.slot.data();
    for (size_t k = 0; k < m; ++k)
        lcs_step<WC>(rows + (k + 1) * W, rows + k * W, masks + slot[r.p[pos[k]]], W);
    ws.V.resize(W);  // the left mask of the current row
    uint64_t* left = ws.V.data();
    size_t i = m, j = n;
    while (i > 0 && j > 0) {
        const uint64_t *vc = rows + i * W, *vp = rows + (i - 1) * W;
        const uint64_t* M = masks + slot[r.p[pos[i - 1]]];
        size_t top = (j - 1) / 64;  // the highest word with columns below j
        uint64_t borrow = 0, carry = 0;
        for (size_t w = 0; w <= top; ++w) {
            uint64_t d = subb(~vp[w] & vc[w], ~vc[w] & vp[w], borrow);  // Y - X
            left[w] = ((d << 1) | carry) & vp[w];
            carry = d >> 63;
        }
        uint64_t stop = (M[top] | ~left[top]) & (~(uint64_t)0 >> (63 - (j - 1) % 64));
        size_t w = top;
        while (!stop && w > 0) {
            --w;
            stop = M[w] | ~left[w];
        }
        if (!stop) break;
        size_t b = w * 64 + 63 - (size_t)__builtin_clzll(stop);
        size_t hit = (size_t)((M[w] >> (b % 64)) & 1);
        mark[pos[i - 1]] |= (uint8_t)hit;
        j = b + 1 - hit;
        --i;
    }
}

// Mark (mark[i] = 1) the indices into r of rouge-score's lcs_ind(r, c): a match is always taken
// diagonally, else left when L[i][j-1] > L[i-1][j], else up. The masks of c must be set (W words).
// pos[0, m): the increasing indices into r whose token occurs in c (m >= 1; see match_positions).
//
// The walk takes O(W) word operations per row, not one step per cell. Row k of the bit-parallel
// LCS has a zero bit b exactly where L[k][b+1] = L[k][b] + 1, so with Zc, Zp the zero bits of rows
// i and i-1, D(j) = L[i][j] - L[i-1][j] (0 or 1) rises at the bits of X = Zc & ~Zp and falls at the
// bits of Y = Zp & ~Zc, which alternate; hence bit b of Y - X is D(b + 1) (a borrow fills each
// [rise, fall) run). From column j the walk goes left while c[j-1] != r_i and L[i][j-1] > L[i-1][j],
// i.e. D(j-1) = 1 and L[i-1][j] = L[i-1][j-1] (bit j-1 of row i-1 set): those columns are the bits of
// left = ((Y - X) << 1) & Vp. It stops at the highest bit b < j of stop = M | ~left (M: the matches
// of r_i in c) and then takes the diagonal (a match: marked) or goes up; when there is no such bit it
// reaches column 0 and the walk ends.
// O(m * ceil(|c| / w)) time for the rows and the walk, O(m * ceil(|c| / w)) memory.
void lcs_mark_pos(Workspace& ws, Seq r, Seq c, size_t W, const uint32_t* pos, size_t m, uint8_t* mark) {
    size_t n = c.n;
    ws.rows.resize((m + 1) * W);
    uint64_t* rows = ws.rows.data();
    for (size_t w = 0; w < W; ++w) rows[w] = ~(uint64_t)0;
    if (W == 1) {
        const uint64_t* pm = ws.pm1.data();
        uint64_t v = ~(uint64_t)0;
        for (size_t k = 0; k < m; ++k) {
            uint64_t u = v & pm[r.p[pos[k]]];
            v = (v + u) | (v - u);
            rows[k + 1] = v;
        }
        size_t i = m, j = n;  // 1 <= j <= 64
        while (i > 0) {
            uint64_t vc = rows[i], vp = rows[i - 1];
            uint64_t x = ~vc & vp, y = ~vp & vc;
            uint64_t left = ((y - x) << 1) & vp;
            uint64_t M = pm[r.p[pos[i - 1]]];
            uint64_t stop = (M | ~left) & (~(uint64_t)0 >> (64 - j));
            if (!stop) break;
            size_t b = 63 - (size_t)__builtin_clzll(stop);
            size_t hit = (size_t)((M >> b) & 1);
            mark[pos[i - 1]] |= (uint8_t)hit;
            j = b + 1 - hit;
            --i;
            if (!j) break;
        }
        return;
    }
    switch (W) {
        case 2: lcs_mark_pos_w<2>(ws, r, n, W, pos, m, mark); break;
        case 3: lcs_mark_pos_w<3>(ws, r, n, W, pos, m, mark); break;
        case 4: lcs_mark_pos_w<4>(ws, r, n, W, pos, m, mark); break;
        default: lcs_mark_pos_w<0>(ws, r, n, W, pos, m, mark);
    }
}

// The indices into r whose token occurs in c (the masks of c set, W words) into pos[0, r.n), in
// increasing order; returns their count. Branch-free. O(|r|).
size_t match_positions(const Workspace& ws, Seq r, size_t W, uint32_t* pos) {
    size_t np = 0;
    if (W == 1) {
        const uint64_t* pm = ws.pm1.data();
        for (size_t i = 0; i < r.n; ++i) {
            pos[np] = (uint32_t)i;
            np += pm[r.p[i]] != 0;
        }
    } else {
        const uint32_t* sl = ws.slot.data();
        for (size_t i = 0; i < r.n; ++i) {
            pos[np] = (uint32_t)i;
            np += sl[r.p[i]] != UINT32_MAX;
        }
    }
    return np;
}

// Only reference positions whose token occurs in c change a row. The walk through an unchanged
// row always moves up (L[i][j-1] = L[i-1][j-1] <= L[i-1][j]) and never marks, so the rows and the
// walk run on those positions only, with the same marks. O(|r|) for the filter plus lcs_mark_pos.
void lcs_mark(Workspace& ws, Seq r, Seq c, size_t W, uint8_t* mark) {
    if (ws.pos.size() < r.n) ws.pos.resize(r.n);
    size_t np = match_positions(ws, r, W, ws.pos.data());
    if (np) lcs_mark_pos(ws, r, c, W, ws.pos.data(), np, mark);
}

// rougeLsum (rouge-score's _summary_level_lcs): per reference sentence the union of its LCS indices
// against every prediction sentence, then the clipped hits in reference order.
// Per prediction sentence c, the reference positions that matter (those whose token occurs in c, see
// lcs_mark) are found either by testing every reference token against the masks of c (branch-free,
// O(m) per prediction sentence: the choice while m * (number of prediction sentences) is small), or,
// for long references with many prediction sentences, from occurrence chains of the reference tokens
// (built once, O(m)) that set bits in a bitmap over the reference: O(|c| + o_c + m / w) per
// prediction sentence, o_c the reference occurrences of the tokens of c.
// Then O(sum over sentence pairs of m' * ceil(|c| / w)) for the rows and the walks (lcs_mark_pos),
// m' <= |r| the positions of the pair.
void union_lcs(Workspace& ws, const Doc& ref, const Doc& pred, int64_t& hit, int64_t& pt, int64_t& rt) {
    int64_t m = (int64_t)ref.ids.size(), n = (int64_t)pred.ids.size();
    hit = 0;
    pt = n;
    rt = m;
    if (!m || !n) return;
    ws.marked.assign((size_t)m, 0);
    const bool direct = (size_t)m * pred.nsent() <= 8192;
    uint32_t* first = ws.first.data();
    uint32_t* nxt = nullptr;
    uint64_t* bits = nullptr;
    size_t Wm = ((size_t)m + 63) / 64;
    if (!direct) {
        // Occurrence chains: first[t] = first position of t in the reference, nxt[p] = next one.
        ws.nxt.resize((size_t)m);
        nxt = ws.nxt.data();
        for (size_t p = (size_t)m; p-- > 0;) {
            int32_t t = ref.ids[p];
            nxt[p] = first[t];
            first[t] = (uint32_t)p;
        }
        ws.bits.assign(Wm, 0);
        bits = ws.bits.data();
    }
    std::vector<uint32_t>& pos = ws.pos;
    if (pos.size() < (size_t)m) pos.resize((size_t)m);
    for (size_t k = 0; k < pred.nsent(); ++k) {
        Seq c = pred.sent(k);
        size_t W = (c.n + 63) / 64;
        set_masks(ws, c, W);
        if (direct) {
            for (size_t q = 0; q < ref.nsent(); ++q) {
                Seq r = ref.sent(q);
                size_t np = match_positions(ws, r, W, pos.data());
                if (np) lcs_mark_pos(ws, r, c, W, pos.data(), np, ws.marked.data() + ref.sb[2 * q]);
            }
        } else {
            // Distinct tokens of c (first occurrences: no lower bit set in the token's mask).
            ws.distinct.clear();
            for (size_t j = 0; j < c.n; ++j) {
                int32_t t = c.p[j];
                bool firstocc;
                if (W == 1) {
                    firstocc = __builtin_ctzll(ws.pm1[t]) == (int)j;
                } else {
                    const uint64_t* mk = ws.masks.data() + ws.slot[t];
                    firstocc = __builtin_ctzll(mk[j / 64]) == (int)(j % 64);
                    for (size_t w = 0; firstocc && w < j / 64; ++w) firstocc = mk[w] == 0;
                }
                if (firstocc) ws.distinct.push_back(t);
            }
            for (int32_t t : ws.distinct)
                for (uint32_t p = first[t]; p != UINT32_MAX; p = nxt[p]) bits[p / 64] |= (uint64_t)1 << (p % 64);
            for (size_t q = 0; q < ref.nsent(); ++q) {
                size_t b0 = ref.sb[2 * q], b1 = ref.sb[2 * q + 1];  // b0 < b1 (sentences are non-empty)
                size_t np = 0;
                for (size_t w = b0 / 64; w <= (b1 - 1) / 64; ++w) {
                    uint64_t x = bits[w];
                    if (w == b0 / 64) x &= ~(uint64_t)0 << (b0 % 64);
                    if (w == (b1 - 1) / 64 && b1 % 64) x &= ((uint64_t)1 << (b1 % 64)) - 1;
                    while (x) {
                        pos[np++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x) - b0);
                        x &= x - 1;
                    }
                }
                if (np) lcs_mark_pos(ws, ref.sent(q), c, W, pos.data(), np, ws.marked.data() + b0);
            }
            std::fill(bits, bits + Wm, 0);
        }
        clear_masks(ws, c, W);
    }
    if (!direct)
        for (int32_t t : ref.ids) first[t] = UINT32_MAX;
    // Clipped hits in reference order (branch-free).
    int32_t* cr = ws.cnt_a.data();
    int32_t* cc = ws.cnt_b.data();
    for (int32_t t : ref.ids) cr[t]++;
    for (int32_t t : pred.ids) cc[t]++;
    const uint8_t* marked = ws.marked.data();
    for (size_t p = 0; p < (size_t)m; ++p) {
        int32_t t = ref.ids[p];
        int32_t h = marked[p] & (cc[t] > 0) & (cr[t] > 0);
        hit += h;
        cc[t] -= h;
        cr[t] -= h;
    }
    for (int32_t t : ref.ids) cr[t] = 0;
    for (int32_t t : pred.ids) cc[t] = 0;
}

// ROUGE-1.5.5 wlcs_inner + traceback for one sentence pair; marks reference positions.
// O(|r| * |c|) time and memory.
void wlcs_mark(Workspace& ws, Seq r, Seq c, const double* powk, uint8_t* mask) {
    size_t m = r.n, n = c.n, N = n + 1;
    ws.wC.assign((m + 1) * N, 0.0);
    ws.wL.assign((m + 1) * N, 0);
    ws.wB.assign((m + 1) * N, 0);
    double* C = ws.wC.data();
    int32_t* L = ws.wL.data();
    uint8_t* B = ws.wB.data();
    for (size_t i = 1; i <= m; ++i) {
        int32_t ri = r.p[i - 1];
        double *Ci = C + i * N, *Cp = C + (i - 1) * N;
        int32_t *Li = L + i * N, *Lp = L + (i - 1) * N;
        uint8_t* Bi = B + i * N;
        for (size_t j = 1; j <= n; ++j) {
            if (ri == c.p[j - 1]) {
                int32_t k = Lp[j - 1];
                Ci[j] = (Cp[j - 1] + powk[k + 1]) - powk[k];
                Li[j] = k + 1;
                Bi[j] = 1;
            } else if (Cp[j] >= Ci[j - 1]) {
                Ci[j] = Cp[j];
                Bi[j] = 2;
            } else {
                Ci[j] = Ci[j - 1];
                Bi[j] = 3;
            }
        }
    }
    size_t i = m, j = n;
    while (i > 0 && j > 0) {
        uint8_t b = B[i * N + j];
        if (b == 1) {
            mask[i - 1] = 1;
            --i;
            --j;
        } else if (b == 2) {
            --i;
        } else {
            --j;
        }
    }
}

// ROUGE-W exactly as ROUGE-1.5.5 (see core_py.wlcs_overlap). O(sum over sentence pairs |r| * |c|).
Stats wlcs(Workspace& ws, const Doc& ref, const Doc& pred, double f) {
    size_t n = pred.ids.size();
    size_t maxlen = n;
    for (size_t q = 0; q < ref.nsent(); ++q) maxlen = std::max(maxlen, ref.sent(q).n);
    const double* powk = ws.powtab(f, maxlen + 1);
    double base = 0.0;
    for (size_t q = 0; q < ref.nsent(); ++q) base += powk[ref.sent(q).n];
    int32_t* cr = ws.cnt_a.data();
    int32_t* cc = ws.cnt_b.data();
    for (int32_t t : ref.ids) cr[t]++;
    for (int32_t t : pred.ids) cc[t]++;
    double hit = 0.0;
    for (size_t q = 0; q < ref.nsent(); ++q) {
        Seq r = ref.sent(q);
        size_t Lr = r.n;
        ws.wmask.assign(Lr, 0);
        for (size_t k = 0; k < pred.nsent(); ++k) wlcs_mark(ws, r, pred.sent(k), powk, ws.wmask.data());
        // wlcs_mark reallocates nothing that powk points to (powk lives in ws.powk, untouched).
        int64_t run = 0;
        for (size_t p = 0; p < Lr; ++p) {
            int32_t t = r.p[p];
            if (ws.wmask[p] && cr[t] > 0 && cc[t] > 0) {
                ++run;
                if (p + 1 < Lr) {
                    if (ws.wmask[p + 1] == 0) {
                        hit += powk[run];
                        run = 0;
                    }
                } else {
                    hit += powk[run];
                    run = 0;
                }
                --cr[t];
                --cc[t];
            }
        }
    }
    for (int32_t t : ref.ids) cr[t] = 0;
    for (int32_t t : pred.ids) cc[t] = 0;
    Stats s;
    s.hit = hit;
    s.pt = std::pow((double)n, f);
    s.rt = std::pow(base, f);
    s.sel = base > 0 ? std::pow(hit / base, 1.0 / f) : 0.0;
    return s;
}

double round5(double x) {  // ROUGE-1.5.5's sprintf("%7.5f"), as float("%.5f" % x)
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.5f", x);
    return std::strtod(buf, nullptr);
}

// ------------------------------------------------------------------------------------ type specs
enum Kind { NGRAM = 0, LCS = 1, LCSUM = 2, WLCS = 3, SKIP = 4 };
struct Spec {
    int kind;
    int n;
    int skip;
    bool unigrams;
    double weight;
};

// scoring.pair_stats for one (prediction, reference) pair and one type.
Stats pair_stat(Workspace& ws, const Spec& s, const Doc& pred, const Doc& ref, bool sel) {
    Stats o{0, 0, 0, 0};
    switch (s.kind) {
        case NGRAM: {
            int64_t np = (int64_t)pred.ids.size() - s.n + 1, nr = (int64_t)ref.ids.size() - s.n + 1;
            int64_t h = ngram_hits(ws, pred.all(), ref.all(), s.n);
            o.hit = (double)h;
            o.pt = (double)std::max<int64_t>(np, 0);
            o.rt = (double)std::max<int64_t>(nr, 0);
            if (sel) o.sel = o.rt ? round5(o.hit / o.rt) : 0.0;
            break;
        }
        case LCS: {
            int64_t h = (pred.ids.empty() || ref.ids.empty()) ? 0 : lcs_len(ws, ref.all(), pred.all());
            o.hit = (double)h;
            o.pt = (double)pred.ids.size();
            o.rt = (double)ref.ids.size();
            if (sel) o.sel = o.rt ? o.hit / o.rt : 0.0;
            break;
        }
        case LCSUM: {
            int64_t h, a, b;
            union_lcs(ws, ref, pred, h, a, b);
            o.hit = (double)h;
            o.pt = (double)a;
            o.rt = (double)b;
            if (sel) o.sel = b ? o.hit / o.rt : 0.0;
            break;
        }
        case SKIP: {
            int64_t h, a, b;
            skip_hits(ws, pred.all(), ref.all(), s.skip, s.unigrams, h, a, b);
            o.hit = (double)h;
            o.pt = (double)a;
            o.rt = (double)b;
            if (sel) o.sel = b ? round5(o.hit / o.rt) : 0.0;
            break;
        }
        default:
            o = wlcs(ws, ref, pred, s.weight);
    }
    return o;
}

// -------------------------------------------------------------------------- P / R / F, multi-ref
enum Mode { MAX = 0, MEAN = 1, POOL = 2, BEST_RECALL = 3 };
enum FKind { F1 = 0, FALPHA = 1, FBETA = 2 };

struct Fm {
    int kind;
    double a;  // alpha, or beta^2
    double operator()(double p, double r) const {
        if (kind == FALPHA) {
            double d = (1.0 - a) * p + a * r;
            return d > 0 ? p * r / d : 0.0;
        }
        if (kind == F1) return p + r > 0 ? 2 * p * r / (p + r) : 0.0;
        double d = a * p + r;
        return d > 0 ? (1 + a) * p * r / d : 0.0;
    }
};

struct Triple {
    double p, r, f;
};

// math.fsum (Shewchuk partials, correctly rounded), as CPython's implementation.
struct Partials {
    std::vector<double> p;
    void add(double x) {
        size_t i = 0;
        for (size_t k = 0; k < p.size(); ++k) {
            double y = p[k];
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            double hi = x + y;
            double lo = y - (hi - x);
            if (lo != 0.0) p[i++] = lo;
            x = hi;
        }
        p.resize(i);
        p.push_back(x);
    }
    double sum() const {
        size_t n = p.size();
        double hi = 0.0;
        if (n > 0) {
            hi = p[--n];
            double lo = 0.0;
            while (n > 0) {
                double x = hi, y = p[--n];
                hi = x + y;
                double yr = hi - x;
                lo = y - yr;
                if (lo != 0.0) break;
            }
            if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
                double y = lo * 2.0;
                double x = hi + y;
                double yr = x - hi;
                if (y == yr) hi = x;
            }
        }
        return hi;
    }
};

// scoring._TypeScorer.score / combine.
struct TypeScorer {
    bool w;
    double inv;
    Fm f;
    Triple score(double h, double pt, double rt) const {
        double p, r;
        if (!w) {
            p = pt ? h / pt : 0.0;
            r = rt ? h / rt : 0.0;
        } else {
            p = pt ? std::pow(h / pt, inv) : 0.0;
            r = rt ? std::pow(h / rt, inv) : 0.0;
        }
        return Triple{p, r, f(p, r)};
    }
    Triple combine(const Stats* st, size_t k, size_t stride, int mode) const {
        if (k == 1) return score(st[0].hit, st[0].pt, st[0].rt);
        if (mode == MAX) {
            Triple best = score(st[0].hit, st[0].pt, st[0].rt);
            for (size_t j = 1; j < k; ++j) {
                const Stats& s = st[j * stride];
                Triple sc = score(s.hit, s.pt, s.rt);
                if (sc.f > best.f) best = sc;
            }
            return best;
        }
        if (mode == MEAN) {
            Partials a, b, c;
            for (size_t j = 0; j < k; ++j) {
                const Stats& s = st[j * stride];
                Triple sc = score(s.hit, s.pt, s.rt);
                a.add(sc.p);
                b.add(sc.r);
                c.add(sc.f);
            }
            double kk = (double)k;
            return Triple{a.sum() / kk, b.sum() / kk, c.sum() / kk};
        }
        if (mode == POOL) {
            double h = 0.0, a = 0.0, b = 0.0;
            for (size_t j = 0; j < k; ++j) {
                const Stats& s = st[j * stride];
                h += s.hit;
                a += s.pt;
                b += s.rt;
            }
            return score(h, a, b);
        }
        const Stats* best = st;
        double key = -1.0;
        for (size_t j = 0; j < k; ++j) {
            const Stats& s = st[j * stride];
            if (s.sel > key) {
                best = &s;
                key = s.sel;
            }
        }
        return score(best->hit, best->pt, best->rt);
    }
};

// ------------------------------------------------------------------------------------ text access
struct Text {
    int kind = 1;
    const void* data = nullptr;
    size_t len = 0;
};

bool get_text(PyObject* o, Text& t) {
    if (!PyUnicode_Check(o)) return false;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(o) < 0) {
        PyErr_Clear();
        return false;
    }
#endif
    t.kind = PyUnicode_KIND(o);
    t.data = PyUnicode_DATA(o);
    t.len = (size_t)PyUnicode_GET_LENGTH(o);
    return true;
}

inline const char* lower_projection(uint32_t cp) {
    if (LOWER_N == 0 || cp < LOWER_CP[0] || cp > LOWER_CP[LOWER_N - 1]) return nullptr;
    const uint32_t* e = std::lower_bound(LOWER_CP, LOWER_CP + LOWER_N, cp);
    return (e != LOWER_CP + LOWER_N && *e == cp) ? LOWER_ASCII[e - LOWER_CP] : nullptr;
}

enum Tok { TOK_DEFAULT = 0, TOK_WHITESPACE = 1 };

// A raw token: bytes (ASCII for the default tokenizer, UTF-8 for whitespace) and its length in
// code points (stemming applies to tokens longer than min_len code points).
struct RawTok {
    std::string s;
    size_t cps = 0;
};

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
const AsciiTable ASCII;

// 1-byte (Latin-1) texts: 16 characters at a time with SSE2 (baseline x86-64). Bit k of a class mask
// is set when byte k is in the class.
#if defined(__SSE2__)
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
#if defined(__SSE2__)
    while (i + 16 <= len) {
        uint32_t m = ~token_mask16(load16(s + i)) & 0xFFFFu;
        if (m) return i + (size_t)__builtin_ctz(m);
        i += 16;
    }
#endif
    while (i < len && (uint32_t)s[i] < 0x80 && ASCII.t[(uint32_t)s[i]]) ++i;
    return i;
}

// First j >= i where s[j] is a token character, a newline or non-ASCII (or len).
template <class C>
inline size_t skip_separators(const C* s, size_t i, size_t len) {
#if defined(__SSE2__)
    while (i + 16 <= len) {
        __m128i v = load16(s + i);
        uint32_t m = token_mask16(v) | (uint32_t)_mm_movemask_epi8(v) |
                     (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
        if (m) return i + (size_t)__builtin_ctz(m);
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
#if defined(__SSE2__)
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
void tokenize(int tokenizer, const C* s, size_t len, TokBuf& cur, OnTok&& tok, OnSent&& sent) {
    cur.n = 0;
    if (tokenizer == TOK_DEFAULT) {
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
        if (Py_UNICODE_ISSPACE(c)) {
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

// --------------------------------------------------------------------------------------- vocab
// Token interning and the stem cache of one (tokenizer, stemmer): raw token -> final id (-1: the
// stem is not a valid token, dropped). Misses call the Python stemmer (GIL held).
struct Vocab {
    int tokenizer;
    py::object stem;  // callable str -> str | None, or None
    int min_len;      // tokens of at most min_len code points are not stemmed
    StrMap raw, final_;
    int32_t nid = 0;
    std::mutex mu;

    Vocab(int tok, py::object st, int ml) : tokenizer(tok), stem(std::move(st)), min_len(ml) {}

    int32_t intern(const char* p, size_t n) {
        Key k = make_key(p, n);
        const int32_t* v = final_.find(k);
        if (v) return *v;
        final_.insert(k, nid);
        return nid++;
    }
    // Resolve a raw token (GIL held). Throws py::error_already_set on a stemmer error.
    int32_t resolve(const char* tp, size_t tn, size_t cps) {
        Key key = make_key(tp, tn);
        const int32_t* v = raw.find(key);
        if (v) return *v;
        int32_t id;
        if (stem.is_none() || cps <= (size_t)min_len) {
            id = intern(tp, tn);
        } else {
            PyObject* s = PyUnicode_DecodeUTF8(tp, (Py_ssize_t)tn, "surrogatepass");
            if (!s) throw py::error_already_set();
            py::object out = stem(py::reinterpret_steal<py::object>(s));
            if (out.is_none()) {
                id = -1;
            } else {
                Py_ssize_t n;
                const char* u = PyUnicode_AsUTF8AndSize(out.ptr(), &n);
                if (!u) throw py::error_already_set();
                id = intern(u, (size_t)n);
            }
        }
        raw.insert(key, id);
        return id;
    }
};

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
    return w * 64 + (size_t)__builtin_ctzll(x);
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
#if defined(__SSE2__)
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
            emit(start, base + (size_t)__builtin_ctzll(en));
            en &= en - 1;
            open = false;
        }
        while (st) {
            size_t s = base + (size_t)__builtin_ctzll(st);
            st &= st - 1;
            if (en) {
                emit(s, base + (size_t)__builtin_ctzll(en));
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
void collect_tokens(int tokenizer, const Text& t, TokBuf& cur, const StrMap& map) {
    cur.ends.clear();
    cur.nt = 0;
    cur.ascii = true;
    if (tokenizer == TOK_DEFAULT) {
        if (t.kind == PyUnicode_1BYTE_KIND) {
            // Latin-1: nothing lowercases to ASCII unless the table says so.
            if (!(LOWER_N && LOWER_CP[0] <= 0xFF) && scan_default((const uint8_t*)t.data, t.len, cur, map)) return;
        } else if (t.kind == PyUnicode_2BYTE_KIND) {
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
        case PyUnicode_1BYTE_KIND:
            tokenize(tokenizer, (const uint8_t*)t.data, t.len, cur, on_tok, on_sent);
            break;
        case PyUnicode_2BYTE_KIND:
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
// misses of a large vocabulary overlap.
template <bool RESOLVE>
bool tokenize_doc(Vocab& vb, const Text& t, Doc& doc, TokBuf& cur, std::vector<RawTok>* misses) {
    collect_tokens(vb.tokenizer, t, cur, vb.raw);
    size_t nt = cur.nt;
    const Key* keys = cur.keys.data();
    doc.sb.clear();
    doc.ids.resize(nt);
    int32_t* ids = doc.ids.data();
    int32_t neg = 0;
    if (RESOLVE) {
        for (size_t k = 0; k < nt; ++k) neg |= ids[k] = vb.resolve(keys[k].p, keys[k].n, cur.cps_of(k));
    } else {
        if (!cur.ascii)
            for (size_t k = 0; k < nt; ++k) vb.raw.prefetch(keys[k]);  // the fast path did it while hashing
        for (size_t k = 0; k < nt; ++k) {
            const int32_t* v = vb.raw.find(keys[k]);
            neg |= ids[k] = v ? *v : -2;
        }
    }
    if (neg >= 0) {  // every token known and kept: the sentences are the ends
        uint32_t start = 0;
        for (uint32_t e : cur.ends) {
            if (e > start) {
                doc.sb.push_back(start);
                doc.sb.push_back(e);
            }
            start = e;
        }
        return true;
    }
    // Drop the tokens whose stem is not a token (-1), collect the unknown ones (-2), cut sentences.
    bool ok = true;
    size_t w = 0, k = 0, start = 0;
    for (uint32_t e : cur.ends) {
        for (; k < e; ++k) {
            int32_t id = ids[k];
            if (id >= 0) {
                ids[w++] = id;
            } else if (id == -2) {  // only without RESOLVE (resolve() gives ids >= -1)
                ok = false;
                if constexpr (!RESOLVE) misses->push_back(RawTok{std::string(keys[k].p, keys[k].n), cur.cps_of(k)});
            }
        }
        if (w > start) {
            doc.sb.push_back((uint32_t)start);
            doc.sb.push_back((uint32_t)w);
        }
        start = w;
    }
    doc.ids.resize(w);
    return ok;
}

// The texts of one example (the prediction, then its k references) into docs[0, k + 1); false when
// RESOLVE is false and a text has unknown tokens (collected in misses).
template <bool RESOLVE>
bool tokenize_example(Vocab& vb, const Text& pred, const Text* refs, size_t k, std::vector<Doc>& docs, TokBuf& cur,
                      std::vector<RawTok>* misses) {
    if (docs.size() < k + 1) docs.resize(k + 1);
    bool ok = tokenize_doc<RESOLVE>(vb, pred, docs[0], cur, misses);
    for (size_t j = 0; j < k; ++j) ok &= tokenize_doc<RESOLVE>(vb, refs[j], docs[j + 1], cur, misses);
    return ok;
}

// Lock a vocab from a thread that holds the GIL without deadlocking against a batch in progress.
struct VocabLock {
    std::unique_lock<std::mutex> lk;
    explicit VocabLock(Vocab& v) : lk(v.mu, std::try_to_lock) {
        if (!lk.owns_lock()) {
            py::gil_scoped_release nogil;
            lk.lock();
        }
    }
};

// ------------------------------------------------------------------------------------------ scorer
struct Example {
    PyObject* pred;
    std::vector<PyObject*> refs;
};

// A Score (tuple subclass) of three floats. It cannot be part of a reference cycle, so it is untracked
// by the cyclic GC (as CPython does for tuples of untracked objects itself), and so is the dict of a
// result (it holds only str keys and such Scores; a later insertion of a tracked object tracks it
// again). Millions of results then cost the collector nothing: without this, results kept in a
// list triggered full collections whose cost grew with the heap (the per-pair benchmark ran 3x
// slower in a process that held earlier results).
PyObject* make_score(PyTypeObject* tp, const Triple& t) {
    PyObject* o = tp->tp_alloc(tp, 3);
    if (!o) throw py::error_already_set();
    const double v[3] = {t.p, t.r, t.f};
    for (Py_ssize_t k = 0; k < 3; ++k) {
        PyObject* x = PyFloat_FromDouble(v[k]);
        if (!x) {
            Py_DECREF(o);
            throw py::error_already_set();
        }
        PyTuple_SET_ITEM(o, k, x);
    }
    if (PyObject_GC_IsTracked(o)) PyObject_GC_UnTrack(o);
    return o;
}

struct Scorer {
    std::shared_ptr<Vocab> vocab;
    std::vector<Spec> specs;
    std::vector<TypeScorer> ts;
    std::vector<py::object> names;
    py::object score_type;
    int mode;
    bool need_select;

    Scorer(std::shared_ptr<Vocab> v, py::list spec_list, int mode_, int fkind, double fparam, py::object score_tp)
        : vocab(std::move(v)), score_type(std::move(score_tp)), mode(mode_) {
        if (!PyType_Check(score_type.ptr()) || !PyType_IsSubtype((PyTypeObject*)score_type.ptr(), &PyTuple_Type))
            throw py::type_error("score_type must be a tuple subclass");
        Fm f{fkind, fparam};
        for (py::handle h : spec_list) {
            py::tuple t = py::reinterpret_borrow<py::tuple>(h);
            Spec s;
            names.push_back(py::reinterpret_borrow<py::object>(t[0]));
            s.kind = t[1].cast<int>();
            s.n = t[2].cast<int>();
            s.skip = t[3].cast<int>();
            s.unigrams = t[4].cast<bool>();
            s.weight = t[5].cast<double>();
            specs.push_back(s);
            ts.push_back(TypeScorer{s.kind == WLCS, s.kind == WLCS ? 1.0 / s.weight : 0.0, f});
        }
        need_select = mode == BEST_RECALL;
    }

    size_t ntypes() const { return specs.size(); }

    // Scratch space of one batch thread, kept between calls (pool). Aligned so that two threads
    // never write to one cache line (the vector headers in here change at every example).
    struct alignas(128) Thread {
        Workspace ws;
        TokBuf cur;
        std::vector<Doc> docs;
        std::vector<RawTok> misses;
        std::vector<uint32_t> deferred;
        std::vector<Stats> st;
        std::vector<Triple> out;
        std::vector<Partials> cols;  // exact sums of the columns of the examples this thread scored
    };
    std::mutex pool_mu;
    std::vector<std::unique_ptr<Thread>> pool_free;
    // Takes n thread states from the scorer's pool (new ones when it is short), gives them back at
    // the end of the scope. Safe when two Python threads run batches on one scorer.
    struct ThreadPool {
        Scorer& sc;
        std::vector<std::unique_ptr<Thread>> own;
        std::vector<Thread*> th;
        ThreadPool(Scorer& s, size_t n) : sc(s) {
            {
                std::lock_guard<std::mutex> g(sc.pool_mu);
                while (own.size() < n && !sc.pool_free.empty()) {
                    own.push_back(std::move(sc.pool_free.back()));
                    sc.pool_free.pop_back();
                }
            }
            while (own.size() < n) own.push_back(std::make_unique<Thread>());
            for (auto& t : own) {
                t->misses.clear();
                t->deferred.clear();
                t->cols.assign(3 * sc.specs.size() + 2, Partials());
                th.push_back(t.get());
            }
        }
        ~ThreadPool() {
            std::lock_guard<std::mutex> g(sc.pool_mu);
            for (auto& t : own) sc.pool_free.push_back(std::move(t));
        }
    };

    // Score example i from th.docs (prediction, then its k references) into values and lens.
    void score_one(Thread& th, size_t i, size_t k, double* values, double* lens) const {
        size_t T = specs.size();
        th.out.resize(T);
        Triple* o = th.out.data();
        score_docs(th.ws, th.docs[0], th.docs.data() + 1, k, mode, o, th.st);
        double* v = values + i * T * 3;
        for (size_t t = 0; t < T; ++t) {
            v[3 * t] = o[t].p;
            v[3 * t + 1] = o[t].r;
            v[3 * t + 2] = o[t].f;
        }
        size_t rl = 0;
        for (size_t j = 1; j <= k; ++j) rl += th.docs[j].ids.size();
        lens[2 * i] = (double)th.docs[0].ids.size();
        lens[2 * i + 1] = (double)rl / (double)k;
        for (size_t c = 0; c < 3 * T; ++c) th.cols[c].add(v[c]);
        th.cols[3 * T].add(lens[2 * i]);
        th.cols[3 * T + 1].add(lens[2 * i + 1]);
    }

    // One example: stats of every (reference, type), then combine. out[k] per type.
    void score_docs(Workspace& ws, const Doc& pred, const Doc* refs, size_t nref, int md, Triple* out,
                    std::vector<Stats>& st) const {
        size_t T = specs.size();
        st.resize(nref * T);
        for (size_t j = 0; j < nref; ++j)
            for (size_t k = 0; k < T; ++k)
                st[j * T + k] = pair_stat(ws, specs[k], pred, refs[j], need_select || md == BEST_RECALL);
        for (size_t k = 0; k < T; ++k) out[k] = ts[k].combine(st.data() + k, nref, T, md);
    }

    py::dict to_dict(const Triple* out) const {
        py::dict d;
        PyTypeObject* tp = (PyTypeObject*)score_type.ptr();
        for (size_t k = 0; k < specs.size(); ++k) {
            PyObject* s = make_score(tp, out[k]);
            if (PyDict_SetItem(d.ptr(), names[k].ptr(), s) < 0) {
                Py_DECREF(s);
                throw py::error_already_set();
            }
            Py_DECREF(s);
        }
        if (PyObject_GC_IsTracked(d.ptr())) PyObject_GC_UnTrack(d.ptr());  // see make_score
        return d;
    }

    // Per-pair path (GIL held): prediction str, references str or list/tuple of str.
    // Returns None when the input needs the Python validation path.
    py::object score(py::handle pred, py::handle refs, int md) {
        if (md < 0) md = mode;
        Text tp;
        if (!get_text(pred.ptr(), tp)) return py::none();
        std::vector<Text> rt;
        if (PyUnicode_Check(refs.ptr())) {
            rt.emplace_back();
            if (!get_text(refs.ptr(), rt.back())) return py::none();
        } else if (PyList_Check(refs.ptr()) || PyTuple_Check(refs.ptr())) {
            PyObject* seq = refs.ptr();
            Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
            if (n == 0) return py::none();
            PyObject** items = PySequence_Fast_ITEMS(seq);
            rt.resize((size_t)n);
            for (Py_ssize_t j = 0; j < n; ++j)
                if (!get_text(items[j], rt[(size_t)j])) return py::none();
        } else {
            return py::none();
        }
        static thread_local Workspace ws;
        static thread_local std::vector<Doc> docs;
        static thread_local std::vector<Stats> st;
        static thread_local TokBuf cur;
        static thread_local std::vector<RawTok> misses;
        Triple out[64];
        std::vector<Triple> big;
        Triple* o = out;
        if (specs.size() > 64) {
            big.resize(specs.size());
            o = big.data();
        }
        {
            VocabLock lk(*vocab);
            // Known tokens are looked up with prefetching; an example with unknown ones is redone resolving.
            misses.clear();
            if (!tokenize_example<false>(*vocab, tp, rt.data(), rt.size(), docs, cur, &misses))
                tokenize_example<true>(*vocab, tp, rt.data(), rt.size(), docs, cur, nullptr);
            ws.ensure((size_t)vocab->nid + 1);
        }
        score_docs(ws, docs[0], docs.data() + 1, rt.size(), md, o, st);
        return to_dict(o);
    }

    // Batch: predictions list, references list (items str or list/tuple of str). Returns None when
    // the input needs the Python validation path, else a tuple
    //   (values: bytes of n*T*3 doubles, lens: bytes of n*2 doubles, partials: list of lists
    //    (3T + 2 columns: P, R, F per type, then pred_len, ref_len), dicts: list or None).
    py::object batch(py::handle preds, py::handle refs, int nthreads, bool want_values, bool want_dicts) {
        if (!PyList_Check(preds.ptr()) || !PyList_Check(refs.ptr())) return py::none();
        Py_ssize_t n = PyList_GET_SIZE(preds.ptr());
        if (PyList_GET_SIZE(refs.ptr()) != n) return py::none();
        // Gather texts (GIL held). The lists are copied so that the str objects stay alive.
        py::list keep_p = py::reinterpret_steal<py::list>(PyList_GetSlice(preds.ptr(), 0, n));
        py::list keep_r = py::reinterpret_steal<py::list>(PyList_GetSlice(refs.ptr(), 0, n));
        std::vector<Text> texts;
        std::vector<size_t> ref_off((size_t)n + 1, 0);
        texts.reserve((size_t)n * 2);
        std::vector<Text> ptexts((size_t)n);
        std::vector<py::object> keep_tuples;
        for (Py_ssize_t i = 0; i < n; ++i) {
            if (!get_text(PyList_GET_ITEM(keep_p.ptr(), i), ptexts[(size_t)i])) return py::none();
            PyObject* r = PyList_GET_ITEM(keep_r.ptr(), i);
            if (PyUnicode_Check(r)) {
                texts.emplace_back();
                if (!get_text(r, texts.back())) return py::none();
            } else if (PyList_Check(r) || PyTuple_Check(r)) {
                // a list could be mutated while the GIL is released: keep a tuple copy
                PyObject* tup = PySequence_Tuple(r);
                if (!tup) throw py::error_already_set();
                keep_tuples.push_back(py::reinterpret_steal<py::object>(tup));
                Py_ssize_t k = PyTuple_GET_SIZE(tup);
                if (k == 0) return py::none();
                for (Py_ssize_t j = 0; j < k; ++j) {
                    texts.emplace_back();
                    if (!get_text(PyTuple_GET_ITEM(tup, j), texts.back())) return py::none();
                }
            } else {
                return py::none();
            }
            ref_off[(size_t)i + 1] = texts.size();
        }
        size_t N = (size_t)n, T = specs.size();
        if (nthreads < 1) nthreads = 1;
        size_t nth = std::min<size_t>((size_t)nthreads, std::max<size_t>(1, N / 64 + 1));
        std::vector<double> values(N * T * 3), lens(N * 2);

        // One example: tokenize (lookups only) and score; false when a text has unknown tokens
        // (collected in th.misses, the example is not scored).
        // The texts of example i + 1 are prefetched while example i is scored: they are read once, so
        // without it every text starts with cache misses (measured: a fifth of the tokenizer's time).
        auto prefetch_text = [](const Text& t) {
            const char* p = (const char*)t.data;
            size_t bytes = std::min<size_t>(t.len * (size_t)t.kind, 4096);
            for (size_t o = 0; o < bytes; o += 64) __builtin_prefetch(p + o);
        };
        auto run = [&](Thread& th, size_t i) -> bool {
            size_t r0 = ref_off[i], r1 = ref_off[i + 1], k = r1 - r0;
            if (i + 1 < N) {
                prefetch_text(ptexts[i + 1]);
                for (size_t j = r1; j < ref_off[i + 2]; ++j) prefetch_text(texts[j]);
            }
            if (!tokenize_example<false>(*vocab, ptexts[i], texts.data() + r0, k, th.docs, th.cur, &th.misses))
                return false;
            score_one(th, i, k, values.data(), lens.data());
            return true;
        };
        auto parallel = [&](auto&& fn, size_t total) {
            std::atomic<size_t> next{0};
            // Blocks of up to 16 examples; smaller for short inputs, so that the threads finish
            // together (at least 64 blocks per thread).
            const size_t block = std::max<size_t>(1, std::min<size_t>(16, total / (64 * nth)));
            auto worker = [&](size_t tid) {
                for (;;) {
                    size_t b = next.fetch_add(block);
                    if (b >= total) break;
                    size_t e = std::min(total, b + block);
                    for (size_t i = b; i < e; ++i) fn(tid, i);
                }
            };
            if (nth == 1) {
                worker(0);
                return;
            }
            std::vector<std::thread> th;
            for (size_t t = 1; t < nth; ++t) th.emplace_back(worker, t);
            worker(0);
            for (auto& t : th) t.join();
        };

        ThreadPool pool(*this, nth);
        std::vector<Thread*>& ths = pool.th;
        VocabLock lk(*vocab);
        for (Thread* th : ths) th->ws.ensure((size_t)vocab->nid + 1);
        {
            // Phase 1 (no GIL): every example whose tokens are all known is tokenized and scored.
            py::gil_scoped_release nogil;
            parallel([&](size_t tid, size_t i) { if (!run(*ths[tid], i)) ths[tid]->deferred.push_back((uint32_t)i); }, N);
        }
        std::vector<uint32_t> deferred;
        for (Thread* th : ths) deferred.insert(deferred.end(), th->deferred.begin(), th->deferred.end());
        if (!deferred.empty()) {
            // Phase 2 (GIL): stem and intern the unknown tokens.
            for (Thread* th : ths) {
                for (const RawTok& t : th->misses) vocab->resolve(t.s.data(), t.s.size(), t.cps);
                th->misses.clear();
                th->ws.ensure((size_t)vocab->nid + 1);
            }
            // Phase 3 (no GIL): the deferred examples.
            std::vector<uint8_t> again(deferred.size(), 0);
            {
                py::gil_scoped_release nogil;
                parallel([&](size_t tid, size_t q) { again[q] = !run(*ths[tid], deferred[q]); }, deferred.size());
            }
            for (size_t q = 0; q < deferred.size(); ++q) {  // unreachable: every token is known by now
                if (!again[q]) continue;
                Thread& th = *ths[0];
                size_t i = deferred[q], r0 = ref_off[i], k = ref_off[i + 1] - r0;
                tokenize_example<true>(*vocab, ptexts[i], texts.data() + r0, k, th.docs, th.cur, nullptr);
                th.ws.ensure((size_t)vocab->nid + 1);
                score_one(th, i, k, values.data(), lens.data());
            }
        }
        lk.lk.unlock();
        // Exact column sums: each thread kept Shewchuk partials of the examples it scored; adding one
        // thread's partials into another's keeps the sum exact, so the corpus mean (correctly rounded
        // from the partials by aggregate.ExactSum) does not depend on the thread count.
        std::vector<Partials> cols(ths[0]->cols);
        for (size_t t = 1; t < ths.size(); ++t)
            for (size_t c = 0; c < cols.size(); ++c)
                for (double x : ths[t]->cols[c].p) cols[c].add(x);
        py::list parts;
        for (auto& c : cols) {
            py::list l;
            for (double x : c.p) l.append(x);
            parts.append(l);
        }
        py::object dicts = py::none();
        if (want_dicts) {
            py::list dl;
            for (size_t i = 0; i < N; ++i) {
                std::vector<Triple> tr(T);
                for (size_t k = 0; k < T; ++k)
                    tr[k] = Triple{values[i * T * 3 + 3 * k], values[i * T * 3 + 3 * k + 1], values[i * T * 3 + 3 * k + 2]};
                dl.append(to_dict(tr.data()));
            }
            dicts = dl;
        }
        py::object vals = py::none();
        if (want_values)
            vals = py::bytes((const char*)values.data(), values.size() * sizeof(double));
        py::bytes lb((const char*)lens.data(), lens.size() * sizeof(double));
        return py::make_tuple(py::int_(n), vals, lb, parts, dicts);
    }
};

// ------------------------------------------------------------------- kernels on Python sequences
// Token sequences of any hashable values are mapped to ids through a dict, then the int kernels run.
struct Interned {
    std::vector<Doc> docs;
    size_t nid = 0;
};

void intern_seq(py::handle seq, py::dict& ids, std::vector<int32_t>& out) {
    py::sequence s = py::reinterpret_borrow<py::sequence>(seq);
    for (py::handle h : s) {
        PyObject* v = PyDict_GetItemWithError(ids.ptr(), h.ptr());
        if (!v) {
            if (PyErr_Occurred()) throw py::error_already_set();
            py::int_ nv((Py_ssize_t)PyDict_Size(ids.ptr()));
            if (PyDict_SetItem(ids.ptr(), h.ptr(), nv.ptr()) < 0) throw py::error_already_set();
            out.push_back((int32_t)PyDict_Size(ids.ptr()) - 1);
        } else {
            out.push_back((int32_t)PyLong_AsLong(v));
        }
    }
}

Doc doc_tokens(py::handle toks, py::dict& ids) {
    Doc d;
    intern_seq(toks, ids, d.ids);
    if (!d.ids.empty()) {
        d.sb.push_back(0);
        d.sb.push_back((uint32_t)d.ids.size());
    }
    return d;
}

Doc doc_sents(py::handle sents, py::dict& ids) {
    Doc d;
    for (py::handle s : py::reinterpret_borrow<py::sequence>(sents)) {
        uint32_t b = (uint32_t)d.ids.size();
        intern_seq(s, ids, d.ids);
        uint32_t e = (uint32_t)d.ids.size();
        if (e > b) {
            d.sb.push_back(b);
            d.sb.push_back(e);
        }
    }
    return d;
}

Workspace& kws(size_t nid) {
    static thread_local Workspace ws;
    ws.ensure(nid + 1);
    return ws;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "Compiled ROUGE kernels and batch scorer (same functions and results as rouge_metric.core_py).";

    m.def(
        "ngram_overlap",
        [](py::handle pred, py::handle ref, int n) {
            py::dict ids;
            Doc p = doc_tokens(pred, ids), r = doc_tokens(ref, ids);
            Workspace& ws = kws(PyDict_Size(ids.ptr()));
            int64_t h = ngram_hits(ws, p.all(), r.all(), n);
            return py::make_tuple(h, std::max<int64_t>((int64_t)p.ids.size() - n + 1, 0),
                                  std::max<int64_t>((int64_t)r.ids.size() - n + 1, 0));
        },
        "ROUGE-N counts: (clipped n-gram hits, prediction n-grams, reference n-grams). O(m + n) expected.");
    m.def(
        "skip_bigram_overlap",
        [](py::handle pred, py::handle ref, int skip, bool unigrams) {
            py::dict ids;
            Doc p = doc_tokens(pred, ids), r = doc_tokens(ref, ids);
            Workspace& ws = kws(PyDict_Size(ids.ptr()));
            int64_t h, a, b;
            skip_hits(ws, p.all(), r.all(), skip, unigrams, h, a, b);
            return py::make_tuple(h, a, b);
        },
        "ROUGE-S/SU counts (hits, prediction total, reference total), clipped per key. "
        "O(len * skip) or O(len^2) for unlimited skip.");
    m.def(
        "lcs_length",
        [](py::handle a, py::handle b) {
            py::dict ids;
            Doc x = doc_tokens(a, ids), y = doc_tokens(b, ids);
            Workspace& ws = kws(PyDict_Size(ids.ptr()));
            return lcs_len(ws, x.all(), y.all());
        },
        "Length of the longest common subsequence, bit-parallel (Hyyro 2004). "
        "O(max(m, n) * ceil(min(m, n) / w)) time, O(min(m, n) / w) memory.");
    m.def(
        "lcs_indices",
        [](py::handle ref, py::handle can) {
            py::dict ids;
            Doc r = doc_tokens(ref, ids), c = doc_tokens(can, ids);
            Workspace& ws = kws(PyDict_Size(ids.ptr()));
            py::list out;
            if (r.ids.empty() || c.ids.empty()) return out;
            size_t W = (c.ids.size() + 63) / 64;
            std::vector<uint8_t> mark(r.ids.size(), 0);
            set_masks(ws, c.all(), W);
            lcs_mark(ws, r.all(), c.all(), W, mark.data());
            clear_masks(ws, c.all(), W);
            for (size_t i = 0; i < mark.size(); ++i)
                if (mark[i]) out.append(i);
            return out;
        },
        "Indices into ref of one LCS, chosen exactly as rouge-score's lcs_ind. "
        "O(m * n / w) for the rows plus O((m + n) * n / w) for the walk; O(m * n / w) memory.");
    m.def(
        "union_lcs_overlap",
        [](py::handle ref_sents, py::handle pred_sents) {
            py::dict ids;
            Doc r = doc_sents(ref_sents, ids), p = doc_sents(pred_sents, ids);
            Workspace& ws = kws(PyDict_Size(ids.ptr()));
            int64_t h, a, b;
            union_lcs(ws, r, p, h, a, b);
            return py::make_tuple(h, a, b);
        },
        "Summary-level LCS (rougeLsum), exactly rouge-score's _summary_level_lcs: (hits, prediction "
        "tokens, reference tokens). O(sum over sentence pairs of |r| * |c| / w).");
    m.def(
        "wlcs_overlap",
        [](py::handle ref_sents, py::handle pred_sents, double weight) {
            py::dict ids;
            Doc r = doc_sents(ref_sents, ids), p = doc_sents(pred_sents, ids);
            Workspace& ws = kws(PyDict_Size(ids.ptr()));
            Stats s = wlcs(ws, r, p, weight);
            return py::make_tuple(s.hit, s.pt, s.rt, s.sel);
        },
        "ROUGE-W exactly as ROUGE-1.5.5: (hit, pred_total, ref_total, select). "
        "O(sum over sentence pairs |r| * |c|).");

    py::class_<Vocab, std::shared_ptr<Vocab>>(m, "Vocab",
                                              "Token interning and stem cache of one (tokenizer, stemmer).")
        .def(py::init<int, py::object, int>(), py::arg("tokenizer"), py::arg("stem"), py::arg("min_len") = 3)
        .def_property_readonly("size", [](Vocab& v) { return v.nid; })
        .def("tokenize",
             [](Vocab& v, py::handle text) {
                 Text t;
                 if (!get_text(text.ptr(), t)) throw py::type_error("text: expected str");
                 Doc d;
                 TokBuf cur;
                 {
                     VocabLock lk(v);
                     tokenize_doc<true>(v, t, d, cur, nullptr);
                 }
                 py::list sents;
                 for (size_t k = 0; k < d.nsent(); ++k) {
                     py::list s;
                     for (size_t i = d.sb[2 * k]; i < d.sb[2 * k + 1]; ++i) s.append(d.ids[i]);
                     sents.append(s);
                 }
                 return sents;
             },
             "Token ids of text, per non-empty sentence (newline-split); for tests.");

    py::class_<Scorer>(m, "Scorer", "The default pipeline and all kernels in C++, for one configuration.")
        .def(py::init<std::shared_ptr<Vocab>, py::list, int, int, double, py::object>(), py::arg("vocab"),
             py::arg("specs"), py::arg("mode"), py::arg("fkind"), py::arg("fparam"), py::arg("score_type"))
        .def("score", &Scorer::score, py::arg("prediction"), py::arg("references"), py::arg("mode") = -1,
             "{type: Score} of one example, or None when the input needs Python validation. "
             "O(tokenize + kernels) with the GIL held.")
        .def("batch", &Scorer::batch, py::arg("predictions"), py::arg("references"), py::arg("num_threads") = 1,
             py::arg("want_values") = false, py::arg("want_dicts") = false,
             "Score a batch on num_threads threads without the GIL; see the C++ source for the result.");
}
