// Hash tables of the native core: StrMap (token bytes -> int32, the vocabulary's maps) and PairTable
// (uint64 -> int32 counts, the n-gram and skip-bigram kernels).
//
// Neither is synchronised. A StrMap inside the Vocab is shared by the batch threads and only read
// while they run (see vocab.hpp); a PairTable lives in one thread's Workspace.
#pragma once

#include "common.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// Keys (tokens) are hashed from their first 16 bytes as two little-endian words k0, k1 (zero-padded)
// plus, for keys longer than 16 bytes (rare), the remaining bytes. The same words are kept inline in
// the map's slots, so comparing a key of at most 16 bytes is one branch on register values.

// Out of line: only keys of more than 16 bytes (rare) reach it, and inlined into the tokenizer's
// hashing loop its loop took the registers of the common case.
ROUGE_NOINLINE uint64_t hash_bytes(const char* p, size_t n) {
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
    k = bswap64(k);
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
inline const KeyMasks KEY_MASKS;

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
// One multiply mixes the two words (in parallel with the loads of k0), one more the whole; the
// final shift brings the high bits, which every input bit reaches, down to the slot index.
inline uint64_t hash_key(uint64_t k0, uint64_t k1, const char* p, size_t n) {
    uint64_t x = k0 ^ (k1 * 0x9E3779B97F4A7C15ull) ^ (uint64_t)n;
    if (n > 16) x ^= hash_bytes(p + 16, n - 16);
    uint64_t h = x * 0xD6E8FEB86659FD93ull;
    return h ^ (h >> 32);
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

// Allocator of the large slot arrays: blocks of at least 2 MiB are mapped on their own, 2 MiB
// aligned, and marked for transparent huge pages where the kernel offers them (one page fault per
// 2 MiB instead of 512: a cold vocabulary touches tens of MB of new slots). Smaller blocks, and
// systems without madvise, use operator new.
template <class T>
struct BigAlloc {
    using value_type = T;
    static constexpr size_t HUGE_PAGE = (size_t)2 << 20;
    BigAlloc() = default;
    template <class U>
    BigAlloc(const BigAlloc<U>&) {}
    // Whether a block of n T is mapped on its own (else it comes from operator new): the one test
    // of allocate, deallocate and ZeroArray.
    static bool maps_own(size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        return n * sizeof(T) >= HUGE_PAGE && n <= SIZE_MAX / sizeof(T) - HUGE_PAGE;
#else
        (void)n;
        return false;
#endif
    }
    static size_t mapped(size_t n) { return (n * sizeof(T) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1); }
    T* allocate(size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (maps_own(n)) {
            size_t len = mapped(n);
            void* p = mmap(nullptr, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) throw std::bad_alloc();
            uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
            size_t head = a - (uintptr_t)p;
            if (head) munmap(p, head);
            if (HUGE_PAGE - head) munmap((char*)a + len, HUGE_PAGE - head);
            madvise((void*)a, len, MADV_HUGEPAGE);  // a hint: without it the block works the same
            return (T*)a;
        }
#endif
        return (T*)::operator new(n * sizeof(T));
    }
    void deallocate(T* p, [[maybe_unused]] size_t n) {  // n: Linux only
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (maps_own(n)) {
            munmap(p, mapped(n));
            return;
        }
#endif
        ::operator delete(p);
    }
    template <class U>
    bool operator==(const BigAlloc<U>&) const { return true; }
    template <class U>
    bool operator!=(const BigAlloc<U>&) const { return false; }
};

// A fixed array of n trivially copyable T whose bytes are all zero when it is made, from memory the
// kernel has just zeroed: a block of at least 2 MiB mapped on its own (BigAlloc), a smaller one by
// calloc. The zeros are not written a second time (filling a new table of a cold vocabulary with empty
// slots touched every page twice: the kernel's zeroing at the fault, then the fill). Move-only.
template <class T>
class ZeroArray {
    static_assert(std::is_trivially_copyable<T>::value, "ZeroArray holds plain data");
    T* p_ = nullptr;
    size_t n_ = 0;
    void release() noexcept {
        if (!p_) return;
        if (BigAlloc<T>::maps_own(n_))
            BigAlloc<T>().deallocate(p_, n_);
        else
            std::free(p_);
        p_ = nullptr;
        n_ = 0;
    }

  public:
    ZeroArray() = default;
    explicit ZeroArray(size_t n) : n_(n) {
        if (BigAlloc<T>::maps_own(n)) {
            p_ = BigAlloc<T>().allocate(n);  // a new anonymous mapping: zero pages
        } else {
            p_ = (T*)std::calloc(n ? n : 1, sizeof(T));
            if (!p_) throw std::bad_alloc();
        }
    }
    ZeroArray(const ZeroArray&) = delete;
    ZeroArray& operator=(const ZeroArray&) = delete;
    ZeroArray(ZeroArray&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
    ZeroArray& operator=(ZeroArray&& o) noexcept {
        if (this != &o) {
            release();
            p_ = o.p_, n_ = o.n_;
            o.p_ = nullptr, o.n_ = 0;
        }
        return *this;
    }
    ~ZeroArray() { release(); }
    void swap(ZeroArray& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
    }
    size_t size() const { return n_; }
    T* data() { return p_; }
    const T* data() const { return p_; }
    T& operator[](size_t i) { return p_[i]; }
    const T& operator[](size_t i) const { return p_[i]; }
    const T* begin() const { return p_; }
    const T* end() const { return p_ + n_; }
};

// String -> int32 map, open addressing with linear probing (load <= 1/2); keys live in one arena.
// 32-byte slots keep the first 16 key bytes inline, so a lookup of a token of at most 16 bytes
// (nearly all tokens) touches one slot and compares with one branch. Memory: O(distinct keys).
struct StrMap {
    struct Slot {
        uint64_t k0, k1;
        uint32_t tag;  // high half of the hash, | 1 (0: empty slot)
        uint32_t len;
        uint32_t off;  // key bytes in arena
        int32_t val;
    };
    ZeroArray<Slot> slots;  // all-zero bytes: an empty slot
    std::string arena;
    size_t count = 0;

    StrMap() : slots(1024) {}

    static inline uint32_t tag_of(uint64_t h) { return (uint32_t)(h >> 32) | 1u; }

    // The slot of k, or nullptr when absent: the probe of every lookup, for a loop that keeps the slot
    // array S = slot_data(), mask = slot_mask() and key bytes A = arena_data() in registers. The common
    // case is tested first: the key in the first slot probed, all its words compared at once, one
    // branch (a key of at most 16 bytes is its words and length; a longer one also compares its bytes,
    // out of line). O(1) expected.
    static ROUGE_FORCE_INLINE const Slot* probe(const Slot* S, size_t mask, const char* A, const Key& k) {
        const uint32_t tag = tag_of(k.h);
        for (size_t i = k.h & mask;; i = (i + 1) & mask) {
            const Slot& s = S[i];
            const uint64_t diff =
                (uint64_t)(s.tag ^ tag) | (uint64_t)(s.len ^ (uint32_t)k.n) | (s.k0 ^ k.k0) | (s.k1 ^ k.k1);
            if (diff == 0 && (k.n <= 16 || same_tail(A + s.off, k))) return &s;
            if (s.tag == 0) return nullptr;  // (a found key's tag is never 0)
        }
    }
    const int32_t* find(const Key& k) const {
        const Slot* s = probe(slots.data(), slots.size() - 1, arena.data(), k);
        return s ? &s->val : nullptr;
    }
    // find() in a loop over many keys (see probe): the value of k, or `none` when absent.
    static ROUGE_FORCE_INLINE int32_t value(const Slot* S, size_t mask, const char* A, const Key& k, int32_t none) {
        const Slot* s = probe(S, mask, A, k);
        return s ? s->val : none;
    }
    // value() for the tokenizer's lookup loop: the common case (a key of at most 16 bytes in its home
    // slot) inline, with no loop and one branch; every other case (a longer key, a key further along
    // its probe run, an absent key) by value() out of line, so that the loop's registers are not saved
    // around a call on its common path. The same value as value(). O(1) expected.
    static ROUGE_FORCE_INLINE int32_t value_hot(const Slot* S, size_t mask, const char* A, const Key& k, int32_t none) {
        const Slot& s = S[k.h & mask];
        const uint64_t diff = (s.k0 ^ k.k0) | (s.k1 ^ k.k1) |
                              (uint64_t)((s.tag ^ tag_of(k.h)) | (s.len ^ (uint32_t)k.n)) | (uint64_t)(k.n > 16);
        if (ROUGE_LIKELY(diff == 0)) return s.val;
        return value_cold(S, mask, A, k, none);
    }
    static ROUGE_NOINLINE int32_t value_cold(const Slot* S, size_t mask, const char* A, const Key& k, int32_t none) {
        return value(S, mask, A, k, none);
    }
    // The bytes past the first 16 of a key of more than 16 bytes equal those at a (out of line: the
    // lookup loops keep their registers for the common case).
    static ROUGE_NOINLINE bool same_tail(const char* a, const Key& k) { return same(a + 16, k.p + 16, k.n - 16); }
    const char* arena_data() const { return arena.data(); }
    void prefetch(const Key& k) const { prefetch_hash(k.h); }
    void prefetch_hash(uint64_t h) const { ROUGE_PREFETCH(&slots[h & (slots.size() - 1)]); }
    void prefetch_slot(size_t i) const { ROUGE_PREFETCH(&slots[i]); }
    // The slot array and its index mask, for a loop that prefetches many keys (the compiler cannot
    // keep them in registers across the loop's stores).
    const Slot* slot_data() const { return slots.data(); }
    size_t slot_mask() const { return slots.size() - 1; }
    // Slots, for a walk over the keys (at(i) of every i < capacity()): the key of slot i, if any, with
    // its hash recomputed from the slot's words, and its value. The key's bytes stay valid until the
    // next insert.
    size_t capacity() const { return slots.size(); }
    bool at(size_t i, Key& k, int32_t& v) const {
        const Slot& s = slots[i];
        if (s.tag == 0) return false;
        const char* p = arena.data() + s.off;
        k = Key{p, s.len, hash_key(s.k0, s.k1, p, s.len), s.k0, s.k1};
        v = s.val;
        return true;
    }
    // Insert a key that is not in the map. The offsets and lengths are 32-bit: a map whose keys
    // exceed 4 GiB (or a key of 4 GiB) is refused rather than corrupted.
    void insert(const Key& k, int32_t v) {
        if (k.n > UINT32_MAX || arena.size() + k.n > UINT32_MAX)
            throw std::length_error("rouge_metric: the token vocabulary exceeds 4 GiB of distinct tokens");
        if ((count + 1) * 2 > slots.size()) grow();
        size_t mask = slots.size() - 1;
        size_t i = k.h & mask;
        while (slots[i].tag != 0) i = (i + 1) & mask;
        // Slots keep only the high half of the hash: grow() rehashes from the key words.
        slots[i] = Slot{k.k0, k.k1, tag_of(k.h), (uint32_t)k.n, (uint32_t)arena.size(), v};
        arena.append(k.p, k.n);
        ++count;
    }
    // Room for n more keys (and `bytes` more key bytes) without growing while they are inserted.
    void reserve(size_t n, size_t bytes = 0) {
        size_t want = slots.size();
        while ((count + n) * 2 > want) want *= 2;
        if (want != slots.size()) grow(want);
        if (bytes) arena.reserve(arena.size() + bytes);
    }
    void grow() { grow(slots.size() * 2); }
    void grow(size_t size) {
        ZeroArray<Slot> old(size);
        old.swap(slots);
        size_t mask = slots.size() - 1;
        for (const Slot& s : old) {
            if (s.tag == 0) continue;
            uint64_t h = hash_key(s.k0, s.k1, arena.data() + s.off, s.len);
            size_t i = h & mask;
            while (slots[i].tag != 0) i = (i + 1) & mask;
            slots[i] = s;
        }
    }
    // The value of the key in slot i (which holds one) set to v.
    void set_value(size_t i, int32_t v) {
        ROUGE_CHECK(i < slots.size() && slots[i].tag != 0, "StrMap::set_value: an empty slot");
        slots[i].val = v;
    }
    void swap(StrMap& o) {
        slots.swap(o.slots);
        arena.swap(o.arena);
        std::swap(count, o.count);
    }
    // Empty, and the memory of earlier keys given back.
    void clear() {
        if (!count && slots.size() == 1024) return;
        ZeroArray<Slot>(1024).swap(slots);
        std::string().swap(arena);
        count = 0;
    }
};

// uint64 -> int32 table with generation stamps (O(1) clear), for n-gram and skip-bigram counts.
// A slot is 16 bytes (key, value, stamp): one cache access per probe. reset(bound) sizes it for at
// most `bound` distinct keys (the n-gram kernels know an exact bound: at() never grows, and stays
// small enough to inline); reset_hint(hint) sizes it from a hint of at most INITIAL_MAX slots and
// at_growing() doubles it when half full (skip-bigrams), so its memory is O(distinct keys).
struct PairTable {
    struct Slot {
        uint64_t key;
        int32_t val;
        uint32_t stamp;
    };
    static constexpr size_t INITIAL_MAX = (size_t)1 << 20;
    std::vector<Slot> slots;
    uint32_t gen = 0;
    size_t mask = 0;
    size_t count = 0;

    void reset(size_t bound) { reset_slots(bound, SIZE_MAX); }
    void reset_hint(size_t hint) { reset_slots(hint, INITIAL_MAX); }
    void reset_slots(size_t expected, size_t most) {
        size_t cap = 16;
        while (cap < expected * 2 + 2 && cap < most) cap <<= 1;
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
    // The value of key, created (0) when absent; at most the bound given to reset() distinct keys.
    // The reference is valid until the next insertion.
    ROUGE_FORCE_INLINE int32_t& at(uint64_t key) {
        ROUGE_CHECK((count + 1) * 2 <= slots.size(), "PairTable: more keys than its bound");
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
    int32_t& at_growing(uint64_t key) {
        if ((count + 1) * 2 > slots.size()) grow();
        return at(key);
    }
    int32_t* find(uint64_t key) {
        for (size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
            Slot& x = slots[i];
            if (x.stamp != gen) return nullptr;
            if (x.key == key) return &x.val;
        }
    }
    void grow() {
        std::vector<Slot> old;
        old.swap(slots);
        uint32_t g = gen;
        slots.assign(old.size() * 2, Slot{0, 0, 0});
        mask = slots.size() - 1;
        gen = 1;
        for (const Slot& s : old) {
            if (s.stamp != g) continue;
            size_t i = mix64(s.key) & mask;
            while (slots[i].stamp == gen) i = (i + 1) & mask;
            slots[i] = Slot{s.key, s.val, gen};
        }
    }
};

inline uint64_t pack(int32_t a, int32_t b) { return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b; }

}  // namespace
}  // namespace rouge
