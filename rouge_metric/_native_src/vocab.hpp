// Tokens -> ids: the vocabulary of one (tokenizer, stemmer), shared by every scorer and thread of
// the process that uses that configuration (rouge_metric.core.native_vocab).
//
// Ownership and the rule that makes the batch safe:
// - A Vocab (its maps `raw` and `final_`, and `nid`) changes only in resolve(), intern(), add_miss(),
//   add_collected(), restart() and Misses::add_direct(), called by one thread that holds `mu` (and the
//   host's lock, the GIL in the module, when a token needs the external stemmer: Python's).
// - No id outlives the call that gave it: a batch, or the per-pair path, tokenizes under `mu` and
//   scores from its own docs and workspace (only Vocab.tokenize, for tests, hands ids out). That is
//   what lets restart() forget every token between two calls (the vocabulary is a cache: its ids
//   change, the scores do not).
// - Its configuration (tokenizer, min_len, has_stem, native_porter, stem) is set at construction and
//   never changes: final_form() reads only it and may run on any thread at any time.
// - A batch holds `mu` from start to end. While its threads run (without the host's lock) the Vocab is
//   read-only: they only look tokens up (tokenize_doc<false>, and `final_` in Misses::add) and record
//   the unknown ones in their own Misses, each with its final form when the native stemmer can make
//   it (final_form: pure, so the stemming of a cold batch runs on every thread) and a *provisional*
//   id: the id of its final form when the Vocab has it, else an id of the thread's own, counted from
//   the `nid` the batch started with (Misses::base). An example is scored with provisional ids by
//   the thread that tokenized it; ROUGE compares the ids of one example with each other only, and
//   within a thread equal final forms get equal ids and different ones different ids, so its scores
//   are those of the final ids. Between the parallel phases the calling thread, holding `mu`,
//   interns every thread's misses (taking the host's lock only when some token needs the external
//   stemmer);
//   only after that are the workspaces sized for the examples left (batch.hpp, prepare_phase).
// - Phase 0 of the first batch on several threads, on an empty Vocab (batch.hpp, build_vocab): the
//   threads, the Vocab untouched, record the tokens they meet (Collector::record) and give each token
//   its final form once (Collector::make_forms); then the calling thread, holding `mu`, adds them all
//   (add_collected), before any example is scored; phase 1 then finds every token.
// - Exception, a batch on one thread (Misses::direct): that thread is the calling thread, holds `mu`,
//   and no other thread runs, so it adds new tokens to the Vocab itself in phase 1 (add_direct) and
//   sizes its own workspace to the Vocab before each example it scores.
// - Misses, TokBuf and Doc belong to one thread; so do the provisional ids, which never leave it
//   (a thread sizes its own workspace for them before it scores: Misses::bound).
#pragma once

#include <functional>
#include <mutex>

#include "common.hpp"
#include "hash.hpp"
#include "host.hpp"
#include "perl_porter.hpp"
#include "porter.hpp"
#include "text.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// A raw token: bytes (ASCII for the default tokenizer, UTF-8 for whitespace) and its length in
// code points (stemming applies to tokens longer than min_len code points).
struct RawTok {
    std::string s;
    size_t cps = 0;
    int form = 0;     // final_form() of s (FORM_*)
    std::string out;  // its stem when form == FORM_STEM
};
enum : int32_t { PROV_PY = -2 };

// What a raw token becomes: itself (not stemmed), `out` (its stem), dropped (its stem is not a
// valid token), or unknown until the external (Python) stemmer has run.
enum { FORM_KEEP = 0, FORM_STEM = 1, FORM_DROP = 2, FORM_PY = 3 };

// Python's re.match(r"^[a-z0-9]+$", s) (text._VALID_TOKEN_RE; `$` also matches before a final "\n").
inline bool valid_token(const char* p, size_t n) {
    if (n && p[n - 1] == '\n') --n;
    if (!n) return false;
    for (size_t i = 0; i < n; ++i)
        if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9'))) return false;
    return true;
}

// The distinct unknown tokens one thread met in a phase, and the provisional ids it gave their final
// forms: memory O(distinct tokens), whatever the number of their occurrences.
struct Misses {
    StrMap seen;    // raw token -> index in list
    StrMap fresh;   // final form not in the Vocab -> its provisional id
    std::vector<RawTok> list;
    // By index in list, apart from the tokens' bytes (a text reads them for each of its unknown
    // tokens: 4 bytes apart, they stay in cache): the provisional id (-1 dropped, PROV_PY unknown
    // until Python stems it), and the final id that phase 2 gives (-1 until then, or dropped).
    std::vector<int32_t> prov, id;
    int32_t base = 0;    // the Vocab's nid when the phase started: provisional ids are base, base + 1, ...
    int32_t nfresh = 0;  // provisional ids given
    size_t npy = 0;      // tokens of list that need the Python stemmer
    // Direct mode (a batch on one thread, which holds the Vocab's mu and is the only thread that
    // reads or writes it while the phase runs): a new token the native stemmer can finish goes
    // straight into the Vocab with its final id (add_direct); only tokens for the Python stemmer are
    // recorded here. No provisional ids, no phase 2 for those tokens.
    bool direct = false;

    void start(int32_t vocab_nid, bool direct_) {
        clear();
        base = vocab_nid;
        direct = direct_;
    }
    // Every id this thread can meet in the phase is < bound().
    size_t bound() const { return (size_t)base + (size_t)nfresh; }
    // The index of the token in list (added, with its final form and provisional id, when new). O(1)
    // expected, plus the stemmer for a new token.
    template <class V>
    int32_t add(const V& vb, const Key& k, size_t cps) {
        if (const int32_t* v = seen.find(k)) return *v;
        if (list.size() >= (size_t)INT32_MAX - 3) throw std::length_error("rouge_metric: more than 2^31 distinct tokens");
        int32_t idx = (int32_t)list.size();
        seen.insert(k, idx);
        RawTok t{std::string(k.p, k.n), cps, 0, std::string()};
        t.form = vb.final_form(k.p, k.n, cps, t.out);
        int32_t pv = -1;
        if (t.form == FORM_PY) {
            ++npy;
            pv = PROV_PY;
        } else if (t.form != FORM_DROP) {
            const std::string& f = t.form == FORM_KEEP ? t.s : t.out;
            Key fk = make_key(f.data(), f.size());
            if (const int32_t* v = vb.final_.find(fk)) {
                pv = *v;
            } else if (const int32_t* w = fresh.find(fk)) {
                pv = *w;
            } else {
                if (base + (int64_t)nfresh >= (int64_t)INT32_MAX)
                    throw std::length_error("rouge_metric: more than 2^31 distinct tokens");
                pv = base + nfresh++;
                fresh.insert(fk, pv);
            }
        }
        list.push_back(std::move(t));
        prov.push_back(pv);
        id.push_back(-1);
        return idx;
    }
    // Direct mode: the final id of an unknown token (>= -1), added to the Vocab when new, or -3 - its
    // index in list when it needs the Python stemmer. Defined after Vocab.
    template <class V>
    int32_t add_direct(V& vb, const Key& k, size_t cps);
    void clear() {  // and give the memory back
        seen.clear();
        fresh.clear();
        std::vector<RawTok>().swap(list);
        std::vector<int32_t>().swap(prov);
        std::vector<int32_t>().swap(id);
        nfresh = 0;
        npy = 0;
    }
};

// The stemmer of the tokens no native stemmer takes: the embedder's (in the module, Python's
// text.CachedStemmer.stem_token). stem(token, n, out) returns false when the token has no stem (it
// is dropped), else puts the stem in out, as the tokenizer writes a token (UTF-8, lone surrogates
// kept), so a stem equal to a token gets its id. Called by the thread that holds the Vocab's mu and
// the host's lock; may throw (the call that needed it fails).
using ExternalStem = std::function<bool(const char* token, size_t n, std::string& out)>;

struct Collector;  // phase 0's tokens (below)

// Token interning and the stem cache: raw token -> final id (-1: the stem is not a valid token,
// dropped). With native_porter, nltk's Porter runs in C++ (porter.hpp) for every ASCII token; with
// native_perl, ROUGE-1.5.5's Porter (perl_porter.hpp) for every [a-z0-9] token; `stem` (the external
// stemmer, with the host's lock) stems the others, or every token when neither is set.
struct Vocab {
    Tokenizer tokenizer;
    ExternalStem stem;  // or empty: no external stemmer
    int min_len;        // tokens of at most min_len code points are not stemmed
    bool native_porter;
    bool native_perl;
    bool has_stem;
    StrMap raw, final_;
    int32_t nid = 0;
    std::mutex mu;

    Vocab(Tokenizer tok, ExternalStem st, int ml, bool np, bool npp = false)
        : tokenizer(tok), stem(std::move(st)), min_len(ml), native_porter(np), native_perl(npp),
          has_stem((bool)stem || np || npp) {
        if ((np || npp) && !stem)
            throw std::invalid_argument(
                "Vocab: a native stemmer needs the Python stemmer for the tokens it does not take");
        if (np && npp) throw std::invalid_argument("Vocab: native_porter and native_perl_porter are different stemmers");
    }

    // The final form of a raw token as far as C++ can tell (FORM_*; the stem in out). Reads only the
    // configuration: any thread, no lock, no GIL. Mirrors text.CachedStemmer.stem_token.
    int final_form(const char* tp, size_t tn, size_t cps, std::string& out) const {
        if (!has_stem || cps <= (size_t)min_len) return FORM_KEEP;
        bool done = native_porter ? porter_stem(tp, tn, out) : native_perl && perl_stem(tp, tn, out);
        if (!done) return FORM_PY;
        if (valid_token(out.data(), out.size())) return FORM_STEM;
        if (valid_token(tp, tn) || out.empty()) return FORM_DROP;
        return FORM_STEM;
    }

    int32_t intern(const Key& k) {
        const int32_t* v = final_.find(k);
        if (v) return *v;
        if (nid == INT32_MAX) throw std::length_error("rouge_metric: more than 2^31 distinct tokens");
        final_.insert(k, nid);
        return nid++;
    }
    int32_t intern(const char* p, size_t n) { return intern(make_key(p, n)); }
    // The id of a raw token (key k, not in raw) whose form is known, added to the maps (mu held; the
    // host's lock too when form == FORM_PY); fk is the key of its final form: k for FORM_KEEP, its stem
    // for FORM_STEM (unused for the others). Throws what the external stemmer throws.
    int32_t add_final(const Key& k, int form, const Key& fk) {
        ROUGE_CHECK(!raw.find(k), "a token added to the vocabulary twice");
        int32_t id = final_id(k, form, fk);
        raw.insert(k, id);
        return id;
    }
    // The same without adding k to raw: its final form interned (a new id when it is new), its id
    // returned (-1: dropped).
    int32_t final_id(const Key& k, int form, const Key& fk) {
        if (form == FORM_KEEP || form == FORM_STEM) return intern(fk);
        if (form == FORM_DROP) return -1;
        std::string st;
        return stem(k.p, k.n, st) ? intern(st.data(), st.size()) : -1;
    }
    // The same with the stem as a string (out, for FORM_STEM).
    int32_t add_form(const Key& k, int form, const std::string& out) {
        return add_final(k, form, form == FORM_STEM ? make_key(out.data(), out.size()) : k);
    }
    // No token yet (the first batch of its configuration in the process has not run, or it restarted).
    bool empty() const { return nid == 0 && raw.count == 0; }
    // Every token forgotten and the maps' memory given back (mu held, between calls: see the rule
    // above). For a batch that would meet many times more new tokens than the Vocab has: built from
    // empty in phase 0, it costs less than meeting them as new words (batch.hpp, Scorer::batch).
    void restart() {
        raw.clear();
        final_.clear();
        nid = 0;
    }
    // Room for n more keys in both maps without growing while they are added.
    void reserve(size_t n) {
        raw.reserve(n);
        final_.reserve(n);
    }
    // Phase 0's tokens into the maps (defined after Collector).
    void add_collected(const std::vector<Collector*>& cols);
    // A miss recorded by a batch thread (mu held; the host's lock too when t.form == FORM_PY).
    int32_t add_miss(const RawTok& t) {
        Key k = make_key(t.s.data(), t.s.size());
        const int32_t* v = raw.find(k);  // another thread's miss too
        if (v) return *v;
        return add_form(k, t.form, t.out);
    }
    // Resolve a raw token (mu and the host's lock held).
    int32_t resolve(const Key& k, size_t cps) {
        const int32_t* v = raw.find(k);
        if (v) return *v;
        std::string out;
        return add_form(k, final_form(k.p, k.n, cps, out), out);
    }
};

// Phase 0 of the first batch on several threads, on an empty Vocab (batch.hpp, Scorer::build_vocab): one
// thread's part. Memory O(distinct tokens the thread met), whatever the number of their occurrences, plus
// the docs it saved (O(their tokens)).
//   a. record_all(): the distinct tokens the thread meets, unstemmed, in `seen` (their bytes in its arena;
//      the value is the token's *local* index, the order the thread met it in), with their length in
//      code points (`cps`, capped at INT32_MAX: only compared with min_len). save_doc() records a
//      text's tokens and keeps the text as a pending doc in `saved` (every token -3 - its local index,
//      as a batch thread keeps a doc with unknown tokens), so that the batch scores it without
//      tokenizing it again.
//   b. make_forms(): once every thread has recorded, the threads share the slots of all the `seen`
//      maps; for each token of its slots that no thread before the slot's owner met, a thread makes
//      the final form (Vocab::final_form, pure) into its own `made` and `stems`; a token that an
//      earlier thread met goes to its `links` instead (the earliest such thread, which made it): every
//      token of the batch gets its form exactly once.
//   c. Vocab::add_collected(): the calling thread adds the tokens of every `made` and gives every
//      token of every thread its final id (`ids`, by local index: the made ones as they are added,
//      the linked ones from the thread that made them); the first thread's `seen` becomes the
//      Vocab's raw map.
// Between the steps only the joins of the threads order the reads and writes: in b every `seen` is
// read-only, and each thread writes only its own `made`, `stems` and `links`; after c every `saved`
// and `ids` is read-only.
struct Collector {
    StrMap seen;
    std::vector<int32_t> cps;
    // Where c finds a made token without reading the threads' slots again for its final form.
    struct Made {
        uint32_t src;    // the thread whose `seen` holds the token
        uint32_t slot;   // its slot there
        int32_t local;   // its local index there
        int32_t form;    // FORM_*
        uint32_t off, len;  // the final form: stems[off, off + len) for FORM_STEM, else the token's bytes in
                            // cols[src]->seen's arena (for FORM_PY, the token the external stemmer takes)
    };
    std::vector<Made> made;
    std::string stems;
    std::string scratch;
    struct Link {  // the token of local index `local` of thread src is the token `first` of thread `by`
        uint32_t src;
        int32_t local;
        uint32_t by;
        int32_t first;
    };
    std::vector<Link> links;
    std::vector<int32_t, BigAlloc<int32_t>> saved;  // pending docs, per doc [1, tokens, ends, raw ids..., ends...]
    std::vector<int32_t> ids;    // c: the final id of each local index (-1: dropped)

    // a. A token that is not in `seen` recorded: its local index. Fewer than 2^31 - 3 distinct tokens
    // (so that -3 - a local index is an int32, and a slot index fits 32 bits). Out of line: the
    // recording loop (record_all) keeps its registers for the common case, a token met before.
    ROUGE_NOINLINE int32_t add_new(const Key& k, size_t cps_) {
        if (seen.count >= (size_t)INT32_MAX - 3) throw std::length_error("rouge_metric: more than 2^31 distinct tokens");
        int32_t local = (int32_t)seen.count;
        seen.insert(k, local);
        cps.push_back((int32_t)std::min<size_t>(cps_, INT32_MAX));
        return local;
    }
    // a. The tokens of the text in cur recorded, and the text saved as a pending doc (the layout of
    // batch.hpp's store, which load_docs reads). O(tokens) expected.
    void save_doc(const TokBuf& cur) {
        size_t nt = cur.nt, ne = cur.ends.size();
        if (nt > (size_t)INT32_MAX || ne > (size_t)INT32_MAX)
            throw std::length_error("rouge_metric: a text of more than 2^31 tokens");
        size_t at = saved.size();
        saved.resize(at + 3 + nt + ne);
        int32_t* p = saved.data() + at;
        p[0] = 1;
        p[1] = (int32_t)nt;
        p[2] = (int32_t)ne;
        record_all(cur, p + 3);
        for (size_t e = 0; e < ne; ++e) p[3 + nt + e] = (int32_t)cur.ends[e];
    }
    // a. Every token of cur recorded, -3 - its local index into out[k] when out is given. A long text's
    // slots are prefetched LOOKUP_AHEAD tokens ahead (a short text's were prefetched with its keys, as
    // for lookup_ids). O(tokens) expected.
    // The map's slots, mask and key bytes are kept in registers (StrMap::value_hot), and read again
    // after an insert, which may grow the map or move its key bytes.
    void record_all(const TokBuf& cur, int32_t* out) {
        const size_t nt = cur.nt;
        const bool ahead = nt > LONG_TEXT_TOKENS;
        const StrMap::Slot* S = seen.slot_data();
        size_t mask = seen.slot_mask();
        const char* A = seen.arena_data();
        for (size_t k = 0; k < nt; ++k) {
            if (ahead && k + LOOKUP_AHEAD < nt) ROUGE_PREFETCH(S + (cur.keys[k + LOOKUP_AHEAD].h & mask));
            int32_t local = StrMap::value_hot(S, mask, A, cur.keys[k], -1);
            if (local < 0) {
                local = add_new(cur.keys[k], cur.cps_of(k));
                S = seen.slot_data();
                mask = seen.slot_mask();
                A = seen.arena_data();
            }
            if (out) out[k] = -3 - local;
        }
    }
    // b. The tokens of slots [s0, s1) of cols[src]->seen. O(slots + threads per token) expected, plus
    // the stemmer. (Prefetching the earlier threads' slots of a token some slots ahead measured no
    // faster on two threads: each slot's key then had to be read twice.)
    void make_forms(const Vocab& vb, const std::vector<Collector*>& cols, size_t src, size_t s0, size_t s1) {
        const StrMap& m = cols[src]->seen;
        const char* arena = m.arena_data();
        Key k;
        int32_t local;
        for (size_t i = s0; i < s1; ++i) {
            if (!m.at(i, k, local)) continue;
            bool met_before = false;
            for (size_t t = 0; t < src && !met_before; ++t) {
                if (const int32_t* first = cols[t]->seen.find(k)) {
                    links.push_back(Link{(uint32_t)src, local, (uint32_t)t, *first});
                    met_before = true;
                }
            }
            if (met_before) continue;
            int form = vb.final_form(k.p, k.n, (size_t)cols[src]->cps[(size_t)local], scratch);
            Made d{(uint32_t)src, (uint32_t)i, local, form, (uint32_t)(k.p - arena), (uint32_t)k.n};
            if (form == FORM_STEM) {
                if (stems.size() + scratch.size() > UINT32_MAX)
                    throw std::length_error("rouge_metric: the token vocabulary exceeds 4 GiB of distinct tokens");
                d.off = (uint32_t)stems.size();
                d.len = (uint32_t)scratch.size();
                stems += scratch;
            }
            made.push_back(d);
        }
    }
    // After c: the maps and lists of a and b given back (what the batch still reads stays: saved, ids).
    void drop_tables() {
        seen.clear();
        std::vector<int32_t>().swap(cps);
        std::vector<Made>().swap(made);
        std::string().swap(stems);
        std::vector<Link>().swap(links);
    }
    void clear() {  // and give the memory back
        drop_tables();
        std::vector<int32_t, BigAlloc<int32_t>>().swap(saved);
        std::vector<int32_t>().swap(ids);
    }
};

// c. The tokens of every cols[t]->made (each token of the batch once, see Collector) into the maps, in
// the order of cols, and every token's final id into the `ids` of the thread that met it (mu held, the
// Vocab empty; the host's lock too when a form is FORM_PY). First the final forms are interned in that
// order (the ids are those of adding the tokens one by one), and each value of the first thread's
// `seen` (a local index) is replaced by its token's id as it is given; then that map, which holds most
// of the batch's tokens, becomes `raw`, and only the tokens the first thread did not meet are
// inserted. Both loops are pipelines over the made tokens, so that the cache misses of large tables
// overlap: the bytes (or slot) of token i + 2 AHEAD are prefetched; the key of token i + AHEAD is read
// and its table slot prefetched; token i is interned or inserted. Neither table grows inside its loop
// (both are reserved first: a prefetched slot stays the table's). O(made tokens) expected, plus a
// rehash of raw when the other threads' tokens outgrow it, plus the external stemmer for FORM_PY.
inline void Vocab::add_collected(const std::vector<Collector*>& cols) {
    ROUGE_CHECK(empty(), "phase 0 on a vocabulary that has tokens");
    ROUGE_CHECK(!cols.empty(), "phase 0 without a thread");
    size_t total = 0, bytes = 0, others = 0;
    for (Collector* c : cols) {
        total += c->made.size();
        c->ids.assign(c->seen.count, INT32_MIN);
        for (const Collector::Made& d : c->made) {
            if (d.form == FORM_KEEP || d.form == FORM_STEM) bytes += d.len;
            others += d.src != 0;
        }
    }
    final_.reserve(total, bytes);
    constexpr size_t AHEAD = 8;
    Key ring[AHEAD];
    for (const Collector* c : cols) {
        const std::vector<Collector::Made>& L = c->made;
        const size_t n = L.size();
        // The final form's bytes (for FORM_DROP and FORM_PY, the token's: only its bytes are read).
        auto bytes_of = [&](const Collector::Made& d) {
            return d.form == FORM_STEM ? c->stems.data() + d.off : cols[d.src]->seen.arena_data() + d.off;
        };
        auto key_of = [&](size_t i) {
            const Collector::Made& d = L[i];
            Key& f = ring[i % AHEAD];
            f = make_key(bytes_of(d), d.len);
            if (d.form == FORM_KEEP || d.form == FORM_STEM) final_.prefetch(f);
        };
        for (size_t i = 0; i < n && i < 2 * AHEAD; ++i) ROUGE_PREFETCH(bytes_of(L[i]));
        for (size_t i = 0; i < n && i < AHEAD; ++i) key_of(i);
        for (size_t i = 0; i < n; ++i) {
            const Key f = ring[i % AHEAD];
            if (i + 2 * AHEAD < n) ROUGE_PREFETCH(bytes_of(L[i + 2 * AHEAD]));
            if (i + AHEAD < n) key_of(i + AHEAD);
            const Collector::Made& d = L[i];
            if (ROUGE_METRIC_CHECKED) {
                Key k{};
                int32_t local = -1;
                ROUGE_CHECK(cols[d.src]->seen.at(d.slot, k, local) && local == d.local &&
                                (d.form == FORM_STEM || (k.p == f.p && k.n == f.n && k.h == f.h)),
                            "phase 0: a made form without its token");
            }
            const int32_t id = final_id(f, d.form, f);
            cols[d.src]->ids[(size_t)d.local] = id;
            // The first thread's map becomes raw below: its value for this token, the local index,
            // becomes the id (each of its tokens is made by the first thread, once).
            if (d.src == 0) cols[0]->seen.set_value(d.slot, id);
        }
    }
    // A link names the earliest thread that met the token, which made it: its id is set above.
    for (const Collector* c : cols)
        for (const Collector::Link& l : c->links) {
            int32_t id = cols[l.by]->ids[(size_t)l.first];
            ROUGE_CHECK(id != INT32_MIN, "phase 0: a link to a token without its id");
            cols[l.src]->ids[(size_t)l.local] = id;
        }
    // raw: the first thread's tokens with their ids (every one of them has its id now), then the
    // others' (their made tokens: the tokens the first thread met are made by it, or linked to it).
    Collector& first = *cols[0];
    raw.swap(first.seen);  // raw was empty (ROUGE_CHECK above); first.seen now is
    raw.reserve(others);
    for (const Collector* c : cols) {
        const std::vector<Collector::Made>& L = c->made;
        const size_t n = L.size();
        auto key_of = [&](size_t i) {
            const Collector::Made& d = L[i];
            if (d.src == 0) return;
            Key& k = ring[i % AHEAD];
            int32_t local = -1;
            bool there = cols[d.src]->seen.at(d.slot, k, local);
            ROUGE_CHECK(there && local == d.local, "phase 0: a made form without its token");
            (void)there;
            raw.prefetch(k);
        };
        for (size_t i = 0; i < n && i < 2 * AHEAD; ++i)
            if (L[i].src != 0) cols[L[i].src]->seen.prefetch_slot(L[i].slot);
        for (size_t i = 0; i < n && i < AHEAD; ++i) key_of(i);
        for (size_t i = 0; i < n; ++i) {
            const Key k = ring[i % AHEAD];
            if (i + 2 * AHEAD < n && L[i + 2 * AHEAD].src != 0)
                cols[L[i + 2 * AHEAD].src]->seen.prefetch_slot(L[i + 2 * AHEAD].slot);
            if (i + AHEAD < n) key_of(i + AHEAD);
            const Collector::Made& d = L[i];
            if (d.src == 0) continue;  // in raw already
            ROUGE_CHECK(!raw.find(k), "a token added to the vocabulary twice");
            raw.insert(k, cols[d.src]->ids[(size_t)d.local]);
        }
    }
    if (ROUGE_METRIC_CHECKED)
        for (const Collector* c : cols)
            for (int32_t id : c->ids) ROUGE_CHECK(id != INT32_MIN, "phase 0: a token without its id");
}

template <class V>
int32_t Misses::add_direct(V& vb, const Key& k, size_t cps) {
    if (const int32_t* v = vb.raw.find(k)) return *v;  // met earlier in this phase
    if (npy)
        if (const int32_t* v = seen.find(k)) return -3 - *v;  // a token for the Python stemmer, met earlier
    std::string out;
    int form = vb.final_form(k.p, k.n, cps, out);
    if (form != FORM_PY) return vb.add_form(k, form, out);
    return -3 - add(vb, k, cps);
}

// The final ids and sentences of a text from its raw ids (one per token, in order) and sentence ends:
// the tokens whose stem is not a token (-1) are dropped, a token recorded as the miss m of a batch
// thread (-3 - m) takes miss_ids[m] (Misses::id, the id that phase 2 gave it, or Misses::prov, its
// provisional id, which must not be PROV_PY), empty sentences are skipped. raw may be doc.ids.data()
// (compaction in place: the write index never passes the read index). O(tokens).
inline void finish_doc(const int32_t* raw, size_t nt, const uint32_t* ends, size_t nends, const int32_t* miss_ids,
                       Doc& doc) {
    doc.sb.clear();
    doc.ids.resize(nt);  // no reallocation when raw is doc.ids.data() (its size is nt)
    int32_t* ids = doc.ids.data();
    size_t w = 0, k = 0, start = 0;
    for (size_t s = 0; s < nends; ++s) {
        for (uint32_t e = ends[s]; k < e; ++k) {
            int32_t id = raw[k];
            if (id <= -3) id = miss_ids[-3 - id];
            if (id >= 0) ids[w++] = id;
        }
        if (w > start) {
            doc.sb.push_back((uint32_t)start);
            doc.sb.push_back((uint32_t)w);
        }
        start = w;
    }
    ROUGE_CHECK(k == nt, "sentence ends do not cover the tokens");
    doc.ids.resize(w);
}

// Tokenize into doc. With RESOLVE=false (no GIL, no writes to the Vocab) an unknown token makes the
// call return false; when misses is given, each unknown token is recorded there (once per thread)
// and doc is left *pending*: doc.ids holds the raw ids, an unknown token as -3 - (its index in
// misses), and doc.ends the sentence ends, so that the batch can finish the doc after phase 2
// (finish_doc) without tokenizing the text again. The map slots of all the tokens are prefetched
// before the first lookup, so the cache misses of a large vocabulary overlap. O(text length + tokens).

// ids[k] = the value of keys[k] in map, or -2 when it has none, for k < nt; returns the OR of the ids
// (negative when a token is unknown or dropped). A long text's slots are prefetched LOOKUP_AHEAD tokens
// ahead of each lookup; a short text's were all prefetched with its keys and are still in L1 (text.hpp,
// LONG_TEXT_TOKENS). A function of its own: the code of this loop, the hottest of the tokenizer, then
// does not depend on what the compiler inlines around it. O(nt) expected.
ROUGE_NOINLINE int32_t lookup_ids(const StrMap& map, const Key* keys, size_t nt, int32_t* ids) {
    int32_t neg = 0;
    const auto* slots = map.slot_data();
    const size_t mask = map.slot_mask();
    const char* arena = map.arena_data();
    if (nt > LONG_TEXT_TOKENS) {
        for (size_t k = 0; k < nt; ++k) {
            if (k + LOOKUP_AHEAD < nt) ROUGE_PREFETCH(slots + (keys[k + LOOKUP_AHEAD].h & mask));
            neg |= ids[k] = StrMap::value_hot(slots, mask, arena, keys[k], -2);
        }
    } else {
        for (size_t k = 0; k < nt; ++k) neg |= ids[k] = StrMap::value_hot(slots, mask, arena, keys[k], -2);
    }
    return neg;
}

template <bool RESOLVE>
bool tokenize_doc(Vocab& vb, const Text& t, Doc& doc, TokBuf& cur, Misses* misses) {
    collect_tokens(vb.tokenizer, t, cur, vb.raw);
    size_t nt = cur.nt;
    const Key* keys = cur.keys.data();
    doc.pending = false;
    doc.ids.resize(nt);
    int32_t* ids = doc.ids.data();
    int32_t neg = 0;
    if (RESOLVE) {
        for (size_t k = 0; k < nt; ++k) neg |= ids[k] = vb.resolve(keys[k], cur.cps_of(k));
    } else {
        if (!cur.ascii)
            for (size_t k = 0; k < nt; ++k) vb.raw.prefetch(keys[k]);  // the fast path did it while hashing
        neg = lookup_ids(vb.raw, keys, nt, ids);
    }
    if (neg >= 0) {  // every token known and kept: the sentences are the ends (written in place)
        doc.sb.resize(2 * cur.ends.size());
        uint32_t* sb = doc.sb.data();
        size_t w = 0;
        uint32_t start = 0;
        for (uint32_t e : cur.ends) {
            sb[w] = start;
            sb[w + 1] = e;
            w += e > start ? 2 : 0;
            start = e;
        }
        doc.sb.resize(w);
        return true;
    }
    doc.sb.clear();
    if constexpr (!RESOLVE) {  // resolve() gives ids >= -1: unknown tokens (-2) only here
        bool unknown = false;
        for (size_t k = 0; k < nt && !unknown; ++k) unknown = ids[k] == -2;
        if (unknown) {
            if (!misses) return false;
            bool pending = true;
            if (misses->direct) {
                pending = false;
                for (size_t k = 0; k < nt; ++k)
                    if (ids[k] == -2) pending |= (ids[k] = misses->add_direct(vb, keys[k], cur.cps_of(k))) <= -3;
            } else {
                // The thread's map of unknown tokens is as large as the vocabulary on a cold call (every
                // token of the text is unknown then): its slots are prefetched LOOKUP_AHEAD tokens
                // ahead of their lookups, so the cache misses overlap.
                for (size_t k = 0; k < nt && k < LOOKUP_AHEAD; ++k)
                    if (ids[k] == -2) misses->seen.prefetch(keys[k]);
                for (size_t k = 0; k < nt; ++k) {
                    if (k + LOOKUP_AHEAD < nt && ids[k + LOOKUP_AHEAD] == -2) misses->seen.prefetch(keys[k + LOOKUP_AHEAD]);
                    if (ids[k] == -2) ids[k] = -3 - misses->add(vb, keys[k], cur.cps_of(k));
                }
            }
            if (pending) {
                doc.pending = true;
                doc.ends.assign(cur.ends.begin(), cur.ends.end());
                return false;
            }
        }
    }
    // Only dropped tokens (-1): compact in place and cut sentences.
    finish_doc(ids, nt, cur.ends.data(), cur.ends.size(), nullptr, doc);
    return true;
}

// The texts of one example (the prediction, then its k references) into docs[0, k + 1); false when
// RESOLVE is false and a text has unknown tokens (collected in misses).
template <bool RESOLVE>
bool tokenize_example(Vocab& vb, const Text& pred, const Text* refs, size_t k, std::vector<Doc>& docs, TokBuf& cur,
                      Misses* misses) {
    if (docs.size() < k + 1) docs.resize(k + 1);
    bool ok = tokenize_doc<RESOLVE>(vb, pred, docs[0], cur, misses);
    for (size_t j = 0; j < k; ++j) ok &= tokenize_doc<RESOLVE>(vb, refs[j], docs[j + 1], cur, misses);
    return ok;
}

// Lock a vocab from a thread that holds the host's lock without deadlocking against a batch in
// progress (the batch may need the host's lock to stem while it holds mu): it lets go of the host's
// lock while it waits.
struct VocabLock {
    std::unique_lock<std::mutex> lk;
    explicit VocabLock(Vocab& v) : lk(v.mu, std::try_to_lock) {
        if (!lk.owns_lock()) {
            Unlocked nogil;
            lk.lock();
        }
    }
};

}  // namespace
}  // namespace rouge
