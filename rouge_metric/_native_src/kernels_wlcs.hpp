// ROUGE-W kernel: ROUGE-1.5.5's weighted LCS, f(k) = k^w. Reference: core_py.wlcs_overlap.
// Ownership: only the calling thread's Workspace is touched.
#pragma once

#include "common.hpp"
#include "rows.hpp"
#include "workspace.hpp"

namespace rouge {
namespace {  // internal linkage: one translation unit, and inlining as for static functions

// f(k) = k^w is not a finite double for some quantity of this input (the same condition, and the
// same message, as core_py.wlcs_overlap).
struct WeightOverflow : std::overflow_error {
    using std::overflow_error::overflow_error;
};
inline std::string weight_overflow_message(double w, size_t maxlen) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "rougeW: f(k) = k**%g overflows a double on this input (sentences of up to %zu tokens, "
                  "wlcs_weight=%g); use a smaller wlcs_weight (ROUGE-1.5.5's default is 1.2)",
                  w, maxlen, w);
    return buf;
}

// ROUGE-1.5.5 wlcs_inner + traceback for one sentence pair; marks reference positions in mask.
// On a match the cell is always diagonal with C = C[i-1][j-1] + f(k+1) - f(k), k the run length at
// (i-1, j-1); otherwise up when C[i-1][j] >= C[i][j-1], else left (the direction is recomputed from
// the rows during the walk, as it was chosen). O(|r| * |c|) time; rows through reverse_rows: memory
// min(|r| * |c|, limits.row_bytes / 16) cells (recomputed from checkpoints beyond).
inline void wlcs_mark(Workspace& ws, Seq r, Seq c, const double* powk, uint8_t* mask) {
    size_t m = r.n, n = c.n, N = n + 1;
    if (ws.wrows.size() < N) ws.wrows.resize(N);
    std::fill(ws.wrows.begin(), ws.wrows.begin() + N, WCell{0.0, 0});  // row 0
    auto advance = [&](size_t k, const WCell* Cp, WCell* Ci) {  // row i = k + 1
        int32_t ri = r.p[k];
        Ci[0] = WCell{0.0, 0};
        for (size_t j = 1; j <= n; ++j) {
            if (ri == c.p[j - 1]) {
                int32_t l = Cp[j - 1].l;
                Ci[j] = WCell{(Cp[j - 1].c + powk[l + 1]) - powk[l], l + 1};
            } else if (Cp[j].c >= Ci[j - 1].c) {
                Ci[j] = WCell{Cp[j].c, 0};
            } else {
                Ci[j] = WCell{Ci[j - 1].c, 0};
            }
        }
    };
    size_t j = n;
    auto visit = [&](size_t i, const WCell* Ci, const WCell* Cp) -> bool {
        int32_t ri = r.p[i - 1];
        while (j > 0) {
            if (ri == c.p[j - 1]) {  // diagonal
                mask[i - 1] = 1;
                --j;
                return j > 0;
            }
            if (Cp[j].c >= Ci[j - 1].c) return true;  // up
            --j;                                       // left
        }
        return false;
    };
    reverse_rows(ws.wrows, N, m, ws.limits.row_bytes, advance, visit, [&] { return ws.stopped(); });
}

// ROUGE-W exactly as ROUGE-1.5.5 (see core_py.wlcs_overlap). O(sum over sentence pairs |r| * |c|).
// Throws WeightOverflow when f overflows a double on this input.
inline Stats wlcs(Workspace& ws, const Doc& ref, const Doc& pred, double f) {
    size_t n = pred.ids.size();
    size_t maxlen = n;
    for (size_t q = 0; q < ref.nsent(); ++q) maxlen = std::max(maxlen, ref.sent(q).n);
    const double* powk = ws.powtab(f, maxlen + 1);
    double base = 0.0;
    for (size_t q = 0; q < ref.nsent(); ++q) base += powk[ref.sent(q).n];
    Stats s;
    s.pt = wpow((double)n, f);
    s.rt = wpow(base, f);
    if (!std::isfinite(powk[maxlen]) || !std::isfinite(base) || !std::isfinite(s.rt))
        throw WeightOverflow(weight_overflow_message(f, maxlen));
    int32_t* cr = ws.cnt_a.data();
    int32_t* cc = ws.cnt_b.data();
    for (int32_t t : ref.ids) cr[t]++;
    for (int32_t t : pred.ids) cc[t]++;
    double hit = 0.0;
    for (size_t q = 0; q < ref.nsent() && !ws.stopped(); ++q) {
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
    s.hit = hit;
    s.sel = base > 0 ? wpow(hit / base, 1.0 / f) : 0.0;
    return s;
}

}  // namespace
}  // namespace rouge
