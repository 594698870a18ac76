// Resampled means: the gather at the heart of the bootstrap and the paired tests (aggregate.py
// resampled_means, significance.py). Reference: the numpy path of aggregate.resampled_means.
//
// Ownership: no shared state. The caller (bindings.cpp) passes buffers it keeps alive and runs this
// without the GIL on its own thread; `table` and `idx` are only read, `out` belongs to the call.
#pragma once

#include "common.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// out[r][c] = (table[idx[r][0]][c] + table[idx[r][1]][c] + ... ) / n, summed left to right in double
// from the first term (as numpy's add.reduce over that axis: the same floats as
// table[idx].mean(axis=1)). table: n_items x k, idx: b x n, out: b x k, all row-major.
// Returns the first (r, j) whose index is outside [0, n_items), or -1 (then out is complete).
// O(b * n * k) time, random reads of table rows; O(k) extra memory.
inline int64_t resample_means(const double* table, int64_t n_items, int64_t k, const int64_t* idx, int64_t b,
                              int64_t n, double* out) {
    std::vector<double> acc((size_t)k);
    for (int64_t r = 0; r < b; ++r) {
        const int64_t* row = idx + r * n;
        for (int64_t j = 0; j < n; ++j)
            if ((uint64_t)row[j] >= (uint64_t)n_items) return r * n + j;
        const double* first = table + row[0] * k;
        for (int64_t c = 0; c < k; ++c) acc[c] = first[c];
        // The reads are random rows of a table larger than the caches: prefetch PF rows ahead so that
        // the misses overlap (the sums themselves stay in order).
        constexpr int64_t PF = 16;
        const int64_t stride_bytes = k * (int64_t)sizeof(double);
        for (int64_t j = 1; j < n; ++j) {
            if (j + PF < n) {
                const char* p = (const char*)(table + row[j + PF] * k);
                for (int64_t off = 0; off < stride_bytes; off += 64) ROUGE_PREFETCH(p + off);
                ROUGE_PREFETCH(p + stride_bytes - 1);
            }
            const double* t = table + row[j] * k;
            for (int64_t c = 0; c < k; ++c) acc[c] += t[c];
        }
        for (int64_t c = 0; c < k; ++c) out[r * k + c] = acc[c] / (double)n;
    }
    return -1;
}

}  // namespace
}  // namespace rouge
