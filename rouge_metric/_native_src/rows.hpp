// The rows of a dynamic program, visited backwards in bounded memory.
//
// The traceback walks (rouge-score's LCS backtrack in kernels_lcs.hpp, ROUGE-1.5.5's WLCS traceback in
// kernels_wlcs.hpp) visit the rows of their table from the last to the first, row k together with row
// k - 1, and never come back to a row. reverse_rows() serves them the rows of a recurrence
// row[k + 1] = advance(k, row[k]) while holding at most `cap` rows: all m + 1 rows when they fit in
// the budget (computed once: the usual case), otherwise checkpoint rows about sqrt(m) apart, from
// which each block of rows is recomputed when the walk reaches it (recursively, when a block does not
// fit either). Each row is computed (levels + 1) times; one level suffices while m <= (cap / 2)^2.
// Memory: cap rows, cap = max(budget / row size, 16) (grown only when 16 rows cannot reach m).
// The visits are the same, in the same order, on every path: results do not depend on the budget.
#pragma once

#include "common.hpp"
#include "interrupt.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

struct RowPlan {
    size_t block, nblocks;  // rows per block, blocks (the last may be shorter)
};

// Checkpoints for `span` rows when `avail` rows are free: at most (avail - 2) / 2 of them (two more
// rows are scratch for rolling forward), about sqrt(span) apart.
inline RowPlan row_plan(size_t span, size_t avail) {
    size_t c = (avail - 2) / 2;
    size_t r = (size_t)std::ceil(std::sqrt((double)span));
    if (r < c) c = r;
    size_t block = (span + c) / (c + 1);  // ceil(span / (c + 1)) < span
    return RowPlan{block, (span + block - 1) / block};
}

// Whether `avail` rows are enough for `span` rows (the last block has the fewest free rows).
inline bool rows_fit(size_t span, size_t avail) {
    while (span + 1 > avail) {
        if (avail < 6) return false;
        RowPlan p = row_plan(span, avail);
        span = p.block;
        avail -= p.nblocks - 1;
    }
    return true;
}

// RC: the row size when it is a compile-time constant (0: the run-time rec), so that row addresses
// need no multiplication in the hot loops.
template <size_t RC, class T, class Advance, class Visit, class Stop>
bool reverse_rows_run(T* buf, size_t rec, size_t cap, size_t k0, size_t k1, size_t base, Advance& advance,
                      Visit& visit, Stop& stop) {
    if (RC) rec = RC;
    auto row = [&](size_t s) { return buf + s * rec; };
    size_t span = k1 - k0, avail = cap - base;
    if (span + 1 <= avail) {  // rows k0..k1 in slots base..base + span
        const size_t every = check_every(rec, 1024);
        for (size_t kb = k0; kb < k1; kb += every) {
            if (stop()) return false;
            size_t ke = std::min(k1, kb + every);
            for (size_t k = kb; k < ke; ++k) advance(k, row(base + k - k0), row(base + k - k0 + 1));
        }
        for (size_t k = k1; k > k0; --k)
            if (!visit(k, row(base + k - k0), row(base + k - k0 - 1))) return false;
        return true;
    }
    // Checkpoints: row k0 + t * block in slot base + t (t < nblocks); two rolling scratch slots after.
    RowPlan p = row_plan(span, avail);
    T *s0 = row(base + p.nblocks), *s1 = row(base + p.nblocks + 1);
    const T* cur = row(base);
    size_t last = k0 + (p.nblocks - 1) * p.block;
    CheckPoints check(check_every(rec, 1024));
    for (size_t k = k0; k < last; ++k) {
        if (check.due() && stop()) return false;
        size_t d = k + 1 - k0;
        T* out = d % p.block == 0 ? row(base + d / p.block) : (cur == s0 ? s1 : s0);
        advance(k, cur, out);
        cur = out;
    }
    // Blocks from the last to the first: a block's recursion may overwrite the checkpoints after it,
    // which are no longer needed.
    for (size_t t = p.nblocks; t-- > 0;) {
        size_t a = k0 + t * p.block, b = std::min(k1, a + p.block);
        if (!reverse_rows_run<RC>(buf, rec, cap, a, b, base + t, advance, visit, stop)) return false;
    }
    return true;
}

// buf[0, rec) holds row 0 on entry (buf is grown when needed, row 0 kept). advance(k, const T* row_k, T* out)
// writes row k + 1; visit(k, const T* row_k, const T* row_k_minus_1) returns false to end the walk;
// stop() is polled every check_every(rec, 1024) rows (interruption). budget_bytes bounds the rows held.
template <size_t RC = 0, class T, class Advance, class Visit, class Stop>
void reverse_rows(std::vector<T>& buf, size_t rec, size_t m, size_t budget_bytes, Advance&& advance, Visit&& visit,
                  Stop&& stop) {
    size_t cap = m + 1;  // all rows: the usual case
    if ((m + 1) * rec * sizeof(T) > budget_bytes) {
        cap = std::max<size_t>(16, budget_bytes / (std::max<size_t>(rec, 1) * sizeof(T)));
        if (cap > m + 1) cap = m + 1;
        while (!rows_fit(m, cap)) cap *= 2;
    }
    if (buf.size() < cap * rec) buf.resize(cap * rec);  // never shrunk: growing again would zero-fill
    reverse_rows_run<RC>(buf.data(), rec, cap, 0, m, 0, advance, visit, stop);
}

}  // namespace
}  // namespace rouge
