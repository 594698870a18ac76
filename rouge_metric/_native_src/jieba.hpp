// Chinese word segmentation: exactly jieba 0.42.1's ``jieba.cut(text)`` (accurate mode, HMM on) with the
// dictionary and HMM tables it is given (rouge_metric/jieba_native.py gives it those of the installed jieba).
// Plain C++ (no Python.h): py_jieba.hpp is its Python face; tests/test_jieba_native.py compares it with
// jieba itself on every text of the Chinese corpora and on generated text.
//
// What jieba computes, step by step, and where it is here (the names are jieba's):
//   1. cut: the text splits into maximal runs of the block class re_han_default = [U+4E00-U+9FD5
//      a-zA-Z0-9+#&._%-] and runs of anything else. Outside the blocks every character is a token of
//      its own, except "\r\n", one token (re_skip_default = (\r\n|\s) splits there; the whitespace it
//      matches is yielded as one character too, so Python's Unicode \s decides nothing): cut_text.
//   2. get_DAG: from each position k, the prefixes text[k:i+1] found in the prefix dictionary FREQ
//      (every word and every prefix of a word, the prefixes with frequency 0), the walk stopping at the
//      first one that is not there; the ends i of those with a non-zero frequency, or [k] when none.
//   3. calc: from the last position back, route[k] = max over those ends x, in increasing order, of
//      (log(FREQ[text[k:x+1]] or 1) - log(total) + route[x+1], x), Python's tuple max (the later x
//      wins a tie). The logarithms are jieba's own (the host computes them with Python's math.log);
//      each sum is evaluated in jieba's order, so every double is jieba's: jb_route.
//   4. __cut_DAG: walking the route, the one-character words are buffered; a buffer of two or more
//      characters that is not a word of the dictionary goes to finalseg (the HMM), one that is a word
//      is yielded character by character: jb_cut_block, jb_flush.
//   5. finalseg.cut: the buffer splits into runs of re_han = [U+4E00-U+9FD5] (Viterbi over the states
//      B, M, E, S with prob_start/prob_trans/prob_emit, MIN_FLOAT = -3.14e100 for a missing entry, ties
//      of Python's tuple max broken by the larger state letter) and other runs, which re_skip =
//      ([a-zA-Z0-9]+(?:\.\d+)?%?) splits into its matches and the text between them: jb_finalseg,
//      jb_viterbi.
//      Those other runs come from a block, so they are ASCII: \d sees only ASCII digits there.
//      Force_Split_Words is empty for jieba's default tokenizer (jieba_native.py checks it).
// Every token is a substring of the text and the tokens cover it in order, so a cut is the list of
// the tokens' end offsets (code points).
//
// Complexity, n code points: the DAG build (get_DAG, walked together with calc) O(n * L), L the longest
// dictionary word (16 for jieba's default dictionary), one hash probe per step; the route O(edges) of the
// DAG; the Viterbi O(n * 4 * 4) (jieba's 4 x 4 table; each state has two predecessors), memory O(n).
// Loading a dictionary: O(bytes) parsing plus O(1) expected per character of each word (load_dict).
//
// Ownership: a JiebaModel is built once (load_dict, load_hmm) and only read afterwards; cut_text keeps
// its scratch in the JiebaCut the caller owns, so any number of threads may cut with one model.
#pragma once

#include "common.hpp"

#include <memory>
#include <unordered_map>

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// ------------------------------------------------------------------------------ character classes
constexpr uint32_t JB_HAN_LO = 0x4E00, JB_HAN_HI = 0x9FD5;  // re_han's range (finalseg and the blocks)
constexpr uint32_t JB_HAN_N = JB_HAN_HI - JB_HAN_LO + 1;

inline bool jb_han(uint32_t c) { return c - JB_HAN_LO <= JB_HAN_HI - JB_HAN_LO; }
inline bool jb_alnum(uint32_t c) { return (c - '0' < 10) || ((c | 0x20) - 'a' < 26); }  // [a-zA-Z0-9]
inline bool jb_digit(uint32_t c) { return c - '0' < 10; }
// re_han_default's class: a block character.
inline bool jb_block(uint32_t c) {
    if (c < 128) return jb_alnum(c) || c == '+' || c == '#' || c == '&' || c == '.' || c == '_' || c == '%' || c == '-';
    return jb_han(c);
}

// The HMM's states in jieba's iteration order 'BMES', and each one's letter (ties of the tuple max
// compare letters: B < E < M < S).
enum JbState : int { JB_B = 0, JB_M = 1, JB_E = 2, JB_S = 3 };
constexpr char JB_LETTER[4] = {'B', 'M', 'E', 'S'};
// finalseg.PrevStatus: the two predecessors of each state, in jieba's order.
constexpr int JB_PREV[4][2] = {{JB_E, JB_S}, {JB_M, JB_B}, {JB_B, JB_M}, {JB_S, JB_E}};

// ----------------------------------------------------------------------------------------- model
struct JiebaModel {
    // The prefix dictionary as a trie: node 0 is the empty string; every other node is one key of
    // jieba's FREQ (a word or a prefix of one). A first character c has an index f (`root[c]` in the
    // BMP, `astral` beyond); `firsts[f]` is its node and the region of `slots` that holds every edge below
    // it: an open-addressing table of 64-bit slots, each packing the parent (21 bits), the character
    // (21 bits) and the child (21 bits). A walk from one position stays in one region, and a
    // dictionary's lines grouped by first character fill one region at a time (cache-resident).
    static constexpr uint32_t NONE = 0xFFFFFFFFu;
    static constexpr uint64_t EMPTY = ~(uint64_t)0;
    static constexpr size_t MAX_NODES = (size_t)1 << 21;
    static constexpr uint64_t EDGE_MASK = ~(uint64_t)0 << 21;
    struct Region {
        uint32_t node = NONE;  // the first character's node
        size_t bound = 0;      // while loading: characters after it in its words (its edges at most)
        size_t off = 0;        // its slots: slots[off, off + 2^bits); bits 0: no edge below it
        int bits = 0;
    };
    std::vector<uint32_t> root = std::vector<uint32_t>(0x10000, NONE);
    std::vector<std::pair<uint32_t, uint32_t>> astral;  // (character, f), sorted by character
    std::vector<Region> firsts;
    std::vector<uint64_t> slots;  // (parent << 42 | c << 21 | child), or EMPTY
    std::vector<int64_t> freq;    // per node: FREQ[key] (0 for a prefix that is not a word)
    std::vector<double> lp;       // per node with freq > 0: log(freq) - log(total)
    int64_t total = 0;            // jieba's total: the sum of the frequency of every line
    double logtotal = 0, lp_one = 0;  // log(total); log(1) - log(total), a position without a word

    // HMM: prob_start, prob_trans (MIN_FLOAT where absent), prob_emit over re_han's range.
    double min_float = 0;
    double start[4] = {0, 0, 0, 0};
    double trans[4][4];
    std::vector<double> emit[4];

    size_t size() const { return freq.size() - 1; }  // len(FREQ)

    static uint64_t edge(uint32_t node, uint32_t c) { return ((uint64_t)node << 42) | ((uint64_t)c << 21); }
    static size_t hash(uint64_t e, int bits) { return (size_t)((e * 0x9E3779B97F4A7C15ull) >> (64 - bits)); }

    // The index of first character c, or NONE.
    uint32_t first(uint32_t c) const {
        if (c < 0x10000) return root[c];
        auto it = std::lower_bound(astral.begin(), astral.end(), std::make_pair(c, (uint32_t)0));
        return (it != astral.end() && it->first == c) ? it->second : NONE;
    }
    // The child by c of a node of region r, or NONE.
    uint32_t child(const Region& r, uint32_t node, uint32_t c) const {
        if (!r.bits) return NONE;
        const uint64_t e = edge(node, c);
        const size_t mask = ((size_t)1 << r.bits) - 1;
        const uint64_t* t = slots.data() + r.off;
        for (size_t i = hash(e, r.bits);; i = (i + 1) & mask) {
            const uint64_t v = t[i];
            if ((v & EDGE_MASK) == e) return (uint32_t)(v & (MAX_NODES - 1));
            if (v == EMPTY) return NONE;
        }
    }
    // The child by c of a node of region r, created (frequency 0) when absent; NONE past MAX_NODES nodes.
    // The region has room (load_dict sizes it from its bound).
    uint32_t add_child(const Region& r, uint32_t node, uint32_t c) {
        const uint64_t e = edge(node, c);
        const size_t mask = ((size_t)1 << r.bits) - 1;
        uint64_t* t = slots.data() + r.off;
        size_t i = hash(e, r.bits);
        for (; t[i] != EMPTY; i = (i + 1) & mask)
            if ((t[i] & EDGE_MASK) == e) return (uint32_t)(t[i] & (MAX_NODES - 1));
        const uint32_t id = new_node();
        if (id != NONE) t[i] = e | id;
        return id;
    }
    // A new node (frequency 0), or NONE past MAX_NODES nodes.
    uint32_t new_node() {
        if (freq.size() >= MAX_NODES) return NONE;
        freq.push_back(0);
        return (uint32_t)(freq.size() - 1);
    }
    // The node of the string c[0, n), or NONE when it is not a key.
    uint32_t find(const uint32_t* c, size_t n) const {
        const uint32_t f = n ? first(c[0]) : NONE;
        if (f == NONE) return NONE;
        const Region& r = firsts[f];
        uint32_t node = r.node;
        for (size_t i = 1; i < n && node != NONE; ++i) node = child(r, node, c[i]);
        return node;
    }
    // FREQ.get(word): its frequency, or -1 when it is not a key.
    int64_t get(const uint32_t* c, size_t n) const {
        uint32_t node = find(c, n);
        return node == NONE ? -1 : freq[node];
    }
    // A non-zero FREQ.get(word) (jieba's "if FREQ.get(buf)").
    bool is_word(const uint32_t* c, size_t n) const {
        uint32_t node = find(c, n);
        return node != NONE && freq[node] != 0;
    }
};

// ------------------------------------------------------------------------------- loading: text
// One code point of strict UTF-8 (Python's decoder: no overlong forms, no surrogates, at most
// U+10FFFF) at p[0, e), p < e; false when the bytes are not valid UTF-8.
ROUGE_FORCE_INLINE bool jb_utf8(const unsigned char*& p, const unsigned char* e, uint32_t& cp) {
    const unsigned c = *p;
    if (c < 0x80) {
        cp = c;
        ++p;
        return true;
    }
    if ((c & 0xF0) == 0xE0 && e - p >= 3) {  // three bytes: the BMP beyond U+07FF (every Han character)
        const unsigned c1 = p[1], c2 = p[2];
        cp = ((c & 0x0F) << 12) | ((c1 & 0x3F) << 6) | (c2 & 0x3F);
        p += 3;
        return ((c1 & 0xC0) == 0x80) & ((c2 & 0xC0) == 0x80) & (cp >= 0x800) & ((cp & 0xF800) != 0xD800);
    }
    int n;
    uint32_t lo;
    if (c >= 0xC2 && c <= 0xDF) n = 1, cp = c & 0x1F, lo = 0x80;
    else if (c >= 0xF0 && c <= 0xF4) n = 3, cp = c & 0x07, lo = 0x10000;
    else return false;
    if (e - p <= n) return false;
    for (int i = 1; i <= n; ++i) {
        if ((p[i] & 0xC0) != 0x80) return false;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < lo || cp > 0x10FFFF) return false;
    p += n + 1;
    return true;
}

inline bool jb_bytes_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }  // bytes.strip()

// Loads jieba's gen_pfdict from the bytes of a dictionary file: for each line (split at b"\n"),
// ``line.strip().decode("utf-8")``, then the word and frequency are its first two fields split at " ";
// FREQ[word] = int(frequency) (the last line of a word wins), total += it, and every prefix of the word
// not yet a key gets frequency 0. A line jieba refuses (no frequency, undecodable) is refused, and so
// is a frequency other than ASCII digits with an optional "+" (jieba's int() also takes "1_000",
// "-3", Unicode digits: those dictionaries are left to jieba itself). ``log(x)`` is the host's
// natural logarithm of the integer x (called once per distinct frequency, and for the total).
// Returns "" or the reason the dictionary was refused.
template <class Log>
std::string load_dict(JiebaModel& m, const char* data, size_t n, Log&& log) {
    // 1. every line: its word's characters (into cps), its frequency, its first character's index
    struct Line {
        size_t begin;  // the word is cps[begin, begin + len)
        uint32_t len, first;
        int64_t freq;
    };
    std::vector<uint32_t> cps;
    std::vector<Line> lines;
    {
        size_t count = 1;
        for (const char* q = data; (q = (const char*)std::memchr(q, '\n', (size_t)(data + n - q))); ++q) ++count;
        lines.reserve(count);
        cps.reserve(n / 3 + 16);
    }
    const unsigned char* p = (const unsigned char*)data;
    const unsigned char* end = p + n;
    int64_t total = 0;
    while (p < end) {
        const unsigned char* nl = (const unsigned char*)std::memchr(p, '\n', (size_t)(end - p));
        const unsigned char* a = p;
        const unsigned char* b = nl ? nl : end;
        p = nl ? nl + 1 : end;
        while (a < b && jb_bytes_space(*a)) ++a;
        while (b > a && jb_bytes_space(b[-1])) --b;
        auto bad = [&](const char* why) { return "line " + std::to_string(lines.size() + 1) + ": " + why; };
        // the word: up to the first space; then the frequency, up to the next space or the end
        const size_t begin = cps.size();
        const unsigned char* q = a;
        while (q < b && *q != ' ') {
            uint32_t cp;
            if (!jb_utf8(q, b, cp)) return bad("not UTF-8");
            cps.push_back(cp);
        }
        if (q == b) return bad("no frequency (jieba needs 'word frequency [tag]')");
        const unsigned char* f = q + 1;
        if (f < b && *f == '+') ++f;
        int64_t fr = 0;
        const unsigned char* d = f;
        for (; d < b && *d != ' '; ++d) {
            if (*d < '0' || *d > '9') return bad("a frequency that is not a decimal number");
            if (d - f >= 15) return bad("a frequency of 16 digits or more");
            fr = fr * 10 + (*d - '0');
        }
        if (d == f) return bad("an empty frequency");
        for (const unsigned char* r = d; r < b;) {  // the rest (the tag) must decode too
            if (*r < 0x80) {
                ++r;
                continue;
            }
            uint32_t cp;
            if (!jb_utf8(r, b, cp)) return bad("not UTF-8");
        }
        total += fr;
        if (total > ((int64_t)1 << 52)) return bad("a total frequency of 2^52 or more");
        const uint32_t c0 = cps[begin];
        uint32_t fi = m.first(c0);
        if (fi == JiebaModel::NONE) {
            fi = (uint32_t)m.firsts.size();
            m.firsts.emplace_back();
            if (c0 < 0x10000) m.root[c0] = fi;
            else m.astral.insert(std::lower_bound(m.astral.begin(), m.astral.end(), std::make_pair(c0, (uint32_t)0)),
                                 std::make_pair(c0, fi));
        }
        const uint32_t len = (uint32_t)(cps.size() - begin);
        m.firsts[fi].bound += len - 1;
        lines.push_back(Line{begin, len, fi, fr});
    }
    if (total <= 0) return "a dictionary whose total frequency is 0";
    // 2. the regions: room for 1.5 times the bound, a power of two
    size_t slots = 0;
    for (auto& r : m.firsts) {
        r.off = slots;
        r.bits = 0;
        if (!r.bound) continue;
        while (((size_t)1 << r.bits) < (size_t)r.bound + r.bound / 2 + 1) ++r.bits;
        slots += (size_t)1 << r.bits;
    }
    m.slots.assign(slots, JiebaModel::EMPTY);
    // 3. the words, in the order of the lines (a word's last line gives its frequency), each from the node
    // of the prefix it shares with the previous word
    m.freq.assign(1, 0);
    m.freq.reserve(cps.size() / 2 + 16);
    std::vector<uint32_t> nodes;  // the previous word's nodes
    const Line* prev = nullptr;
    for (const Line& ln : lines) {
        JiebaModel::Region& r = m.firsts[ln.first];
        const uint32_t* w = cps.data() + ln.begin;
        size_t common = 0;
        if (prev && prev->first == ln.first) {
            const uint32_t* pw = cps.data() + prev->begin;
            while (common < ln.len && common < prev->len && w[common] == pw[common]) ++common;
        }
        if (common == 0) {
            if (r.node == JiebaModel::NONE) r.node = m.new_node();
            if (r.node == JiebaModel::NONE) return "more than 2^21 words and prefixes";
            common = 1;
        }
        nodes.resize(ln.len);
        nodes[0] = r.node;
        for (size_t i = common; i < ln.len; ++i) {
            nodes[i] = m.add_child(r, nodes[i - 1], w[i]);
            if (nodes[i] == JiebaModel::NONE) return "more than 2^21 words and prefixes";
        }
        m.freq[nodes[ln.len - 1]] = ln.freq;
        prev = &ln;
    }
    m.total = total;
    m.logtotal = log(total);
    m.lp_one = log(1) - m.logtotal;
    m.lp.assign(m.freq.size(), 0.0);
    // log(frequency) once per distinct frequency: small ones in an array, the rest in a map
    std::vector<double> small(1 << 16);
    std::vector<uint8_t> have(1 << 16, 0);
    std::unordered_map<int64_t, double> large;
    for (size_t i = 1; i < m.freq.size(); ++i) {
        const int64_t fr = m.freq[i];
        if (fr == 0) continue;
        double lf;
        if (fr < (1 << 16)) {
            if (!have[fr]) small[fr] = log(fr), have[fr] = 1;
            lf = small[fr];
        } else {
            auto it = large.find(fr);
            if (it == large.end()) it = large.emplace(fr, log(fr)).first;
            lf = it->second;
        }
        m.lp[i] = lf - m.logtotal;
    }
    return "";
}

// ------------------------------------------------------------------------ loading: HMM tables
// The probability tables of finalseg, read from the source of its modules prob_start.py, prob_trans.py
// and prob_emit.py: ``P=`` a Python literal of nested dicts with str keys and float values. Only that
// shape is read (comment, blank and ``from __future__`` lines before it; str keys in single or double
// quotes with \\ \' \" \uXXXX \UXXXXXXXX \xXX escapes; numbers with an optional sign); anything else is
// refused. ``parse(s, n, out)`` is the host's float parser (Python's, so every double is the one
// Python's compiler makes of the literal); false when it does not take the whole token.
struct JbLit {
    bool is_dict = false;
    double num = 0;
    std::vector<std::pair<std::vector<uint32_t>, JbLit>> items;  // in order; a repeated key: the last wins
    const JbLit* get(const char* key) const {
        const JbLit* out = nullptr;
        for (auto& kv : items)
            if (kv.first.size() == 1 && kv.first[0] == (uint32_t)(unsigned char)key[0] && key[1] == 0) out = &kv.second;
        return out;
    }
};

template <class Parse>
struct JbLitParser {
    const unsigned char* p;
    const unsigned char* e;
    Parse& parse;
    std::string err;
    int depth = 0;

    bool fail(const char* why) {
        if (err.empty()) {
            err = why;
            err += " at byte ";
            err += std::to_string((size_t)(e - p));
            err += " before the end";
        }
        return false;
    }
    void ws() {
        while (p < e) {
            if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
            else if (*p == '#') {
                while (p < e && *p != '\n') ++p;
            } else break;
        }
    }
    bool str(std::vector<uint32_t>& out) {
        out.clear();
        if (p < e && (*p == 'u' || *p == 'U')) ++p;
        if (p >= e || (*p != '\'' && *p != '"')) return fail("expected a str key");
        const unsigned char q = *p++;
        if (p + 1 < e && p[0] == q && p[1] == q) return fail("a triple-quoted str");
        while (true) {
            if (p >= e || *p == '\n') return fail("an unterminated str");
            if (*p == q) {
                ++p;
                return true;
            }
            if (*p == '\\') {
                ++p;
                if (p >= e) return fail("an unterminated str");
                const unsigned char c = *p++;
                int hex = 0;
                if (c == '\\' || c == '\'' || c == '"') out.push_back(c);
                else if (c == 'u') hex = 4;
                else if (c == 'U') hex = 8;
                else if (c == 'x') hex = 2;
                else return fail("an escape other than \\\\ \\' \\\" \\u \\U \\x");
                if (hex) {
                    uint32_t v = 0;
                    for (int i = 0; i < hex; ++i, ++p) {
                        if (p >= e) return fail("a short escape");
                        const unsigned char h = *p;
                        uint32_t dv;
                        if (h >= '0' && h <= '9') dv = h - '0';
                        else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f') dv = (h | 0x20) - 'a' + 10;
                        else return fail("a bad hex digit in an escape");
                        v = v * 16 + dv;
                    }
                    if (v > 0x10FFFF) return fail("an escape past U+10FFFF");
                    out.push_back(v);
                }
                continue;
            }
            uint32_t cp;
            if (!jb_utf8(p, e, cp)) return fail("not UTF-8");
            out.push_back(cp);
        }
    }
    bool value(JbLit& out) {
        ws();
        if (p >= e) return fail("expected a value");
        if (*p == '{') {
            if (++depth > 4) return fail("dicts nested too deep");
            ++p;
            out.is_dict = true;
            ws();
            while (p < e && *p != '}') {
                out.items.emplace_back();
                if (!str(out.items.back().first)) return false;
                ws();
                if (p >= e || *p != ':') return fail("expected ':'");
                ++p;
                if (!value(out.items.back().second)) return false;
                ws();
                if (p < e && *p == ',') {
                    ++p;
                    ws();
                } else if (p < e && *p != '}') {
                    return fail("expected ',' or '}'");
                }
            }
            if (p >= e) return fail("an unterminated dict");
            ++p;
            --depth;
            return true;
        }
        bool neg = false;
        if (*p == '-' || *p == '+') {
            neg = *p == '-';
            ++p;
        }
        const unsigned char* s = p;
        while (p < e && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
                         ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E'))))
            ++p;
        if (p == s) return fail("expected a number or a dict");
        double v;
        if (!parse((const char*)s, (size_t)(p - s), v)) return fail("a number the float parser refused");
        out.num = neg ? -v : v;  // unary minus of the literal: exact
        return true;
    }
    // The whole module: header lines, then P = <literal>, then nothing but blanks and comments.
    bool module(JbLit& out) {
        while (true) {
            ws();
            static const char fut[] = "from __future__ import ";
            if ((size_t)(e - p) >= sizeof(fut) - 1 && std::memcmp(p, fut, sizeof(fut) - 1) == 0) {
                while (p < e && *p != '\n') ++p;
                continue;
            }
            break;
        }
        if (p >= e || *p != 'P') return fail("expected 'P ='");
        ++p;
        while (p < e && (*p == ' ' || *p == '\t')) ++p;
        if (p >= e || *p != '=') return fail("expected 'P ='");
        ++p;
        if (!value(out)) return false;
        ws();
        if (p != e) return fail("text after the table");
        return true;
    }
};

template <class Parse>
std::string jb_parse_module(const std::string& src, Parse& parse, JbLit& out) {
    JbLitParser<Parse> lp{(const unsigned char*)src.data(), (const unsigned char*)src.data() + src.size(), parse};
    if (!lp.module(out)) return lp.err;
    return "";
}

// Loads finalseg's tables from the sources of prob_start.py, prob_trans.py and prob_emit.py; min_float
// is finalseg.MIN_FLOAT. Returns "" or the reason they were refused (a state jieba indexes that is
// missing: jieba would raise KeyError).
template <class Parse>
std::string load_hmm(JiebaModel& m, const std::string& start_src, const std::string& trans_src,
                     const std::string& emit_src, double min_float, Parse&& parse) {
    static const char* const names[4] = {"B", "M", "E", "S"};
    JbLit st, tr, em;
    std::string err;
    if (!(err = jb_parse_module(start_src, parse, st)).empty()) return "prob_start.py: " + err;
    if (!(err = jb_parse_module(trans_src, parse, tr)).empty()) return "prob_trans.py: " + err;
    if (!(err = jb_parse_module(emit_src, parse, em)).empty()) return "prob_emit.py: " + err;
    if (!st.is_dict || !tr.is_dict || !em.is_dict) return "a table that is not a dict";
    m.min_float = min_float;
    for (int y = 0; y < 4; ++y) {
        const JbLit* s = st.get(names[y]);
        if (!s || s->is_dict) return std::string("prob_start.py: no number for state ") + names[y];
        m.start[y] = s->num;
        const JbLit* t = tr.get(names[y]);
        if (!t || !t->is_dict) return std::string("prob_trans.py: no table for state ") + names[y];
        for (int z = 0; z < 4; ++z) {
            const JbLit* v = t->get(names[z]);
            if (v && v->is_dict) return "prob_trans.py: a table where a number belongs";
            m.trans[y][z] = v ? v->num : min_float;
        }
        const JbLit* x = em.get(names[y]);
        if (!x || !x->is_dict) return std::string("prob_emit.py: no table for state ") + names[y];
        m.emit[y].assign(JB_HAN_N, min_float);
        for (auto& kv : x->items) {
            if (kv.second.is_dict) return "prob_emit.py: a table where a number belongs";
            if (kv.first.size() == 1 && jb_han(kv.first[0])) m.emit[y][kv.first[0] - JB_HAN_LO] = kv.second.num;
            // other keys are never looked up: finalseg's Viterbi only sees re_han's characters
        }
    }
    return "";
}

// ------------------------------------------------------------------------------------------- cut
// The scratch of one cut (owned by the caller; reused across calls of one thread).
struct JiebaCut {
    std::vector<uint32_t> cps;     // the text's code points
    std::vector<double> rval;      // route[k][0]
    std::vector<int32_t> rx;       // route[k][1]
    std::vector<uint8_t> back;     // Viterbi back pointers, 4 per character
    std::vector<uint8_t> path;     // the Viterbi path
    std::vector<uint32_t> ends;    // the output: the end offset of each token
    void emit(uint32_t e) {
        ROUGE_CHECK(ends.empty() ? e > 0 : e > ends.back(), "jieba: tokens out of order");
        ends.push_back(e);
    }
};

// finalseg.__cut on the re_han run s[0, n) (n >= 1) at text offset base: the Viterbi path, then its words.
inline void jb_viterbi(const JiebaModel& m, const uint32_t* s, size_t n, uint32_t base, JiebaCut& w) {
    w.back.resize(4 * n);
    w.path.resize(n);
    double v[4], nv[4];
    {
        const uint32_t c = s[0] - JB_HAN_LO;
        for (int y = 0; y < 4; ++y) v[y] = m.start[y] + m.emit[y][c];
    }
    for (size_t t = 1; t < n; ++t) {
        const uint32_t c = s[t] - JB_HAN_LO;
        for (int y = 0; y < 4; ++y) {
            const double em = m.emit[y][c];
            const int y1 = JB_PREV[y][0], y2 = JB_PREV[y][1];
            const double p1 = v[y1] + m.trans[y1][y] + em;
            const double p2 = v[y2] + m.trans[y2][y] + em;
            // max([(p1, y1), (p2, y2)]): the second when it is greater as a tuple
            const bool second = p2 > p1 || (p2 == p1 && JB_LETTER[y2] > JB_LETTER[y1]);
            nv[y] = second ? p2 : p1;
            w.back[4 * t + y] = (uint8_t)(second ? y2 : y1);
        }
        for (int y = 0; y < 4; ++y) v[y] = nv[y];
    }
    // max((V[E], 'E'), (V[S], 'S')): S unless V[E] is greater
    int state = v[JB_S] >= v[JB_E] ? JB_S : JB_E;
    for (size_t t = n; t-- > 0;) {
        w.path[t] = (uint8_t)state;
        if (t) state = w.back[4 * t + state];
    }
    size_t begin = 0, nexti = 0;
    for (size_t i = 0; i < n; ++i) {
        const int pos = w.path[i];
        if (pos == JB_B) {
            begin = i;
        } else if (pos == JB_E) {
            ROUGE_CHECK(w.ends.empty() || w.ends.back() == base + begin, "jieba: a word that does not follow");
            w.emit(base + (uint32_t)i + 1);
            nexti = i + 1;
        } else if (pos == JB_S) {
            w.emit(base + (uint32_t)i + 1);
            nexti = i + 1;
        }
    }
    if (nexti < n) w.emit(base + (uint32_t)n);
}

// finalseg.cut on the buffer s[a, b) (block characters): re_han runs through the Viterbi, the others
// split by re_skip into its matches and the text between them.
inline void jb_finalseg(const JiebaModel& m, const uint32_t* s, uint32_t a, uint32_t b, JiebaCut& w) {
    uint32_t p = a;
    while (p < b) {
        uint32_t q = p;
        if (jb_han(s[p])) {
            while (q < b && jb_han(s[q])) ++q;
            jb_viterbi(m, s + p, q - p, p, w);
        } else {
            while (q < b && !jb_han(s[q])) ++q;
            uint32_t r = p, piece = p;  // piece: where the text since the last match starts
            while (r < q) {
                if (!jb_alnum(s[r])) {
                    ++r;
                    continue;
                }
                uint32_t e = r;
                while (e < q && jb_alnum(s[e])) ++e;
                if (e + 1 < q && s[e] == '.' && jb_digit(s[e + 1])) {
                    e += 2;
                    while (e < q && jb_digit(s[e])) ++e;
                }
                if (e < q && s[e] == '%') ++e;
                if (piece < r) w.emit(r);
                w.emit(e);
                r = piece = e;
            }
            if (piece < q) w.emit(q);
        }
        p = q;
    }
}

// The buffered single characters s[a, b) of __cut_DAG: one character is a word; more than one that is a
// word of the dictionary gives its characters; otherwise finalseg.
inline void jb_flush(const JiebaModel& m, const uint32_t* s, uint32_t a, uint32_t b, JiebaCut& w) {
    if (b - a == 1) {
        w.emit(b);
    } else if (!m.is_word(s + a, b - a)) {
        jb_finalseg(m, s, a, b, w);
    } else {
        for (uint32_t i = a + 1; i <= b; ++i) w.emit(i);
    }
}

// get_DAG and calc on the block s[a, b): rx[k] = the end chosen at k, rval[k] its log probability.
inline void jb_route(const JiebaModel& m, const uint32_t* s, uint32_t a, uint32_t b, JiebaCut& w) {
    const size_t n = b - a;
    w.rval.resize(n + 1);
    w.rx.resize(n + 1);
    w.rval[n] = 0.0;
    for (size_t k = n; k-- > 0;) {
        double best = 0;
        int32_t bx = -1;
        const uint32_t f = m.first(s[a + k]);
        const JiebaModel::Region* r = f == JiebaModel::NONE ? nullptr : &m.firsts[f];
        uint32_t node = r ? r->node : JiebaModel::NONE;
        for (size_t i = k; node != JiebaModel::NONE;) {
            if (m.freq[node] != 0) {
                const double cand = m.lp[node] + w.rval[i + 1];
                if (bx < 0 || cand >= best) {  // tuple max over increasing x: a tie goes to the later x
                    best = cand;
                    bx = (int32_t)i;
                }
            }
            if (++i >= n) break;
            node = m.child(*r, node, s[a + i]);
        }
        if (bx < 0) {
            best = m.lp_one + w.rval[k + 1];
            bx = (int32_t)k;
        }
        w.rval[k] = best;
        w.rx[k] = bx;
    }
}

// __cut_DAG on the block s[a, b).
inline void jb_cut_block(const JiebaModel& m, const uint32_t* s, uint32_t a, uint32_t b, JiebaCut& w) {
    jb_route(m, s, a, b, w);
    uint32_t x = a, buf = a;  // buf: where the buffered single characters start (empty when buf == x)
    while (x < b) {
        const uint32_t y = a + (uint32_t)w.rx[x - a] + 1;
        if (y - x != 1) {
            if (buf < x) jb_flush(m, s, buf, x, w);
            w.emit(y);
            buf = y;
        }
        x = y;
    }
    if (buf < b) jb_flush(m, s, buf, b, w);
}

// jieba.cut(text) on the code points cps[0, n): w.ends gets the end offset of every token.
inline void cut_text(const JiebaModel& m, const uint32_t* s, size_t n, JiebaCut& w) {
    w.ends.clear();
    uint32_t p = 0;
    const uint32_t N = (uint32_t)n;
    while (p < N) {
        uint32_t q = p;
        if (jb_block(s[p])) {
            while (q < N && jb_block(s[q])) ++q;
            jb_cut_block(m, s, p, q, w);
        } else {
            while (q < N && !jb_block(s[q])) {
                q += (s[q] == '\r' && q + 1 < N && s[q + 1] == '\n') ? 2 : 1;
                w.emit(q);
            }
        }
        p = q;
    }
}

}  // namespace
}  // namespace rouge
