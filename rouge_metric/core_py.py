"""Pure-Python kernels: token sequences in, counts out.

This module is the reference implementation and the documentation of every backend: a compiled
backend provides the same functions with the same results. Tokens are any hashable values (strings
or interned ids). m and n below are the lengths of the reference and prediction token lists,
w = 64 is the machine word (Python big integers are used as bit vectors).

Every kernel returns sufficient statistics ``(hit, pred_total, ref_total)`` (plus, where ROUGE-1.5.5's
``-f B`` needs it, a selection score), never a ratio: multi-reference pooling, corpus aggregation and
process merging all work on these numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Dict, Hashable, List, Sequence, Tuple

Tokens = Sequence[Hashable]


# ----------------------------------------------------------------------------------------- n-grams
def ngram_counts(tokens: Tokens, n: int) -> Counter:
    """Counter of the n-grams of ``tokens`` (tuples for n > 1, tokens for n == 1).
    O(len * n) for n <= len, O(1) for a longer n (no n-gram)."""
    if n > len(tokens):
        return Counter()
    if n == 1:
        return Counter(tokens)
    if n == 2:
        return Counter(zip(tokens, tokens[1:]))
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def counter_overlap(a: Dict, b: Dict) -> int:
    """Clipped overlap: sum over keys of min(a[k], b[k]). O(min(|a|, |b|))."""
    if len(a) > len(b):
        a, b = b, a
    hits = 0
    get = b.get
    for k, c in a.items():
        c2 = get(k)
        if c2:
            hits += c if c < c2 else c2
    return hits


def ngram_overlap(pred: Tokens, ref: Tokens, n: int) -> Tuple[int, int, int]:
    """ROUGE-N counts: (clipped n-gram hits, prediction n-grams, reference n-grams). O(m + n)."""
    pc = ngram_counts(pred, n)
    rc = ngram_counts(ref, n)
    return counter_overlap(pc, rc), max(len(pred) - n + 1, 0), max(len(ref) - n + 1, 0)


# ---------------------------------------------------------------------------------- skip-bigrams
def skip_bigram_counts(tokens: Tokens, skip: int, unigrams: bool) -> Tuple[Counter, int]:
    """ROUGE-1.5.5 ``createSkipBigram``: pairs (t[i], t[j]) with 1 <= j - i <= skip + 1 (any distance
    when skip < 0), over the whole token list; with ``unigrams`` (ROUGE-SU) the unigrams of every
    position but the last are added (the script's quirk). Returns (counter, total).
    O(len * skip) or O(len^2) for unlimited skip.
    """
    L = len(tokens)
    c: Counter = Counter()
    if L < 2:
        return c, 0
    if skip < 0 or skip + 1 >= L - 1:
        for i in range(L - 1):
            a = tokens[i]
            c.update(zip([a] * (L - 1 - i), tokens[i + 1:]))
    else:
        for d in range(1, skip + 2):
            c.update(zip(tokens, tokens[d:]))
    if unigrams:
        # Unigram keys are single tokens, pair keys are tuples: they never collide.
        c.update(tokens[:-1])
    return c, sum(c.values())


def skip_bigram_overlap(pred: Tokens, ref: Tokens, skip: int, unigrams: bool) -> Tuple[int, int, int]:
    """ROUGE-S/SU counts (hits, prediction total, reference total), clipped per key."""
    pc, pt = skip_bigram_counts(pred, skip, unigrams)
    rc, rt = skip_bigram_counts(ref, skip, unigrams)
    return counter_overlap(pc, rc), pt, rt


# ------------------------------------------------------------------------------------------- LCS
def match_masks(seq: Tokens) -> Dict[Hashable, int]:
    """Bit mask of the positions of each token in ``seq`` (bit j set when seq[j] == token). O(len(seq)² / w)."""
    pm: Dict[Hashable, int] = {}
    bit = 1
    for t in seq:
        pm[t] = pm.get(t, 0) | bit
        bit <<= 1
    return pm


def lcs_length(a: Tokens, b: Tokens) -> int:
    """Length of the longest common subsequence, bit-parallel (Hyyro 2004).

    O(min(m, n) * max(m, n) / w) time, O(max(m, n) / w) memory: no table.
    """
    if len(a) > len(b):
        a, b = b, a
    if not a:
        return 0
    pm = match_masks(b)
    nb = len(b)
    full = (1 << nb) - 1
    v = full
    get = pm.get
    for t in a:
        u = v & get(t, 0)
        if u:
            v = ((v + u) | (v - u)) & full
    return nb - v.bit_count()


def lcs_rows(ref: Tokens, pm: Dict[Hashable, int], n: int) -> List[int]:
    """Bit-parallel LCS rows: ``rows[i]`` has bit j-1 CLEAR where L[i][j] > L[i][j-1], so
    L[i][j] = j - popcount(rows[i] & (2^j - 1)). Rows over ``ref``, bits over the prediction
    (``pm`` = its match masks, n = its length). O(m * n / w) time and memory.
    """
    full = (1 << n) - 1
    v = full
    rows = [v]
    get = pm.get
    for t in ref:
        u = v & get(t, 0)
        if u:
            v = ((v + u) | (v - u)) & full
        rows.append(v)
    return rows


def lcs_indices(ref: Tokens, can: Tokens, pm: Dict[Hashable, int] = None) -> List[int]:
    """Indices into ``ref`` of one LCS, chosen exactly as rouge-score's ``lcs_ind`` (and ROUGE-1.5.5's
    ``markLCS``): walking back from (m, n), a match is always taken diagonally; otherwise move left
    when L[i][j-1] > L[i-1][j], else up. Ascending order.

    O(m * n / w) for the rows plus O((m + n) * n / w) for the walk; O(m * n / w) memory.
    """
    n = len(can)
    if not ref or not n:
        return []
    if pm is None:
        pm = match_masks(can)
    rows = lcs_rows(ref, pm, n)
    i, j = len(ref), n
    out: List[int] = []
    # L(i, j) = j - popcount(rows[i] & mask(j)); keep up = L(i-1, j) up to date while moving left.
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
            continue
        mask = (1 << (j - 1)) - 1
        left = (j - 1) - (rows[i] & mask).bit_count()
        up = j - (rows[i - 1] & (mask | (1 << (j - 1)))).bit_count()
        if left > up:
            j -= 1
        else:
            i -= 1
    out.reverse()
    return out


def token_counts(sents: Sequence[Tokens]) -> Counter:
    """Unigram counts of a text given as sentences (the clipping tables of ROUGE-L/W). O(tokens)."""
    c: Counter = Counter()
    for s in sents:
        c.update(s)
    return c


def clip_hits(r: Tokens, positions: Sequence[int], cnt_r: Counter, cnt_c: Counter) -> List[int]:
    """ROUGE-1.5.5's clipping: the positions (ascending) of ``r`` that count as hits, each while the
    token's count stays positive in both texts; the counts are decremented. O(len(positions))."""
    hits = []
    for i in positions:
        t = r[i]
        if cnt_c[t] > 0 and cnt_r[t] > 0:
            hits.append(i)
            cnt_c[t] -= 1
            cnt_r[t] -= 1
    return hits


def union_lcs_marks(r: Tokens, cands: Sequence[Tuple[Tokens, Dict[Hashable, int]]]) -> List[int]:
    """Ascending union of the LCS indices (:func:`lcs_indices`) of ``r`` against every candidate
    sentence ``(tokens, match masks)``; sentences sharing no token with ``r`` are skipped."""
    rset = set(r)
    marked = set()
    for c, pm in cands:
        if not rset.isdisjoint(pm):
            marked.update(lcs_indices(r, c, pm))
    return sorted(marked)


def union_lcs_hits(ref_sents: Sequence[Tokens], pred_sents: Sequence[Tokens], cnt_r: Counter,
                   cnt_c: Counter) -> int:
    """Summary-level LCS hits given the clipping tables: for each reference sentence in order, the
    union of its LCS indices against every prediction sentence, clipped by ``cnt_r``/``cnt_c``
    (decremented). O(sum over sentence pairs of |r|*|c|/w)."""
    cands = [(c, match_masks(c)) for c in pred_sents if c]
    hits = 0
    for r in ref_sents:
        if r:
            hits += len(clip_hits(r, union_lcs_marks(r, cands), cnt_r, cnt_c))
    return hits


def union_lcs_overlap(ref_sents: Sequence[Tokens], pred_sents: Sequence[Tokens]) -> Tuple[int, int, int]:
    """Summary-level LCS (rougeLsum; ROUGE-1.5.5's ROUGE-L), exactly rouge-score's ``_summary_level_lcs``:
    :func:`union_lcs_hits` with the unigram counts of both texts as clipping tables.

    Returns (hits, prediction tokens, reference tokens). O(sum over sentence pairs of |r|*|c|/w);
    pairs of sentences with no common token are skipped.
    """
    m = sum(map(len, ref_sents))
    n = sum(map(len, pred_sents))
    if not m or not n:
        return 0, n, m
    return union_lcs_hits(ref_sents, pred_sents, token_counts(ref_sents), token_counts(pred_sents)), n, m


# ------------------------------------------------------------------------------- powers (ROUGE-W)
# ROUGE-W raises to the power w = wlcs_weight (f(k) = k**w, the totals) and to 1/w (P, R, the -f B
# selection). The C library's pow() is not the same function everywhere: glibc alone picks one of
# two implementations by CPU (with or without FMA), and they differ in the last bit for about one
# input in a thousand; macOS and Windows have their own. wpow uses only + - * / (correctly rounded
# IEEE operations) and frexp/ldexp/floor (exact), in one fixed order that the native core repeats
# (rouge_metric/_native_src/wpow.hpp), so the double is the same on every CPU, OS and Python, on both
# backends. Faithfully rounded: within one unit in the last place of the exact power (error < 2**-55
# relative before the final rounding).

_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's split of a double into two halves of 26 bits
_SQRT_HALF = float.fromhex("0x1.6a09e667f3bcdp-1")
_LN2_HI = float.fromhex("0x1.62e42fee00000p-1")  # ln 2 to 32 bits: k * _LN2_HI is exact for |k| < 2**21
_LN2_LO = float.fromhex("0x1.a39ef35793c76p-33")  # ln 2 - _LN2_HI
_INV_LN2 = float.fromhex("0x1.71547652b82fep+0")
#: 1/3, 1/5, ..., 1/25 (correctly rounded): atanh(s)/s - 1 = s^2/3 + s^4/5 + ...
_ATANH = tuple(float.fromhex(h) for h in (
    "0x1.5555555555555p-2", "0x1.999999999999ap-3", "0x1.2492492492492p-3", "0x1.c71c71c71c71cp-4",
    "0x1.745d1745d1746p-4", "0x1.3b13b13b13b14p-4", "0x1.1111111111111p-4", "0x1.e1e1e1e1e1e1ep-5",
    "0x1.af286bca1af28p-5", "0x1.8618618618618p-5", "0x1.642c8590b2164p-5", "0x1.47ae147ae147bp-5"))
#: 1/2!, 1/3!, ..., 1/14! (correctly rounded): (exp(r) - 1 - r) / r^2 = 1/2! + r/3! + ...
_EXPM1 = tuple(float.fromhex(h) for h in (
    "0x1.0000000000000p-1", "0x1.5555555555555p-3", "0x1.5555555555555p-5", "0x1.1111111111111p-7",
    "0x1.6c16c16c16c17p-10", "0x1.a01a01a01a01ap-13", "0x1.a01a01a01a01ap-16", "0x1.71de3a556c734p-19",
    "0x1.27e4fb7789f5cp-22", "0x1.ae64567f544e4p-26", "0x1.1eed8eff8d898p-29", "0x1.6124613a86d09p-33",
    "0x1.93974a8c07c9dp-37"))


def _two_sum(a: float, b: float) -> Tuple[float, float]:
    """(s, e) with s = fl(a + b) and s + e = a + b exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fast_two_sum(a: float, b: float) -> Tuple[float, float]:
    """As :func:`_two_sum` when |a| >= |b| (Dekker)."""
    s = a + b
    return s, b - (s - a)


def _two_prod(a: float, b: float) -> Tuple[float, float]:
    """(p, e) with p = fl(a * b) and p + e = a * b exactly (Dekker, Veltkamp's split; no FMA), for
    |a|, |b| < 2**995."""
    p = a * b
    c = _SPLIT * a
    ah = c - (c - a)
    al = a - ah
    c = _SPLIT * b
    bh = c - (c - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def wpow(x: float, y: float) -> float:
    """``x ** y`` for x >= 0 and y > 0, the same double on every platform (see above).

    ln x in double-double (x = m 2^e, ln m = 2 atanh((m - 1)/(m + 1))), times y in double-double,
    then exp by reduction to r = y ln x - k ln 2 (|r| <= ln2/2) and a series. O(1): about 120
    floating-point operations. inf when the power overflows a double, 0.0 when it underflows below
    the smallest subnormal.
    """
    if x == 0.0 or x == 1.0 or math.isinf(x):
        return x
    m, e = math.frexp(x)
    if m < _SQRT_HALF:
        m = m * 2.0
        e -= 1
    f = m - 1.0  # exact (Sterbenz)
    g, g_lo = _two_sum(m, 1.0)
    s = f / g
    p, p_lo = _two_prod(s, g)
    s_lo = (((f - p) - p_lo) - s * g_lo) / g  # s + s_lo = f / (g + g_lo) to about 2**-104
    t = s * s
    q = _ATANH[11]
    for c in _ATANH[10::-1]:
        q = c + t * q
    lm_hi, lm_lo = _fast_two_sum(2.0 * s, 2.0 * s_lo + 2.0 * ((s * t) * q))  # ln m
    ef = float(e)
    a_hi, a_lo = _two_sum(ef * _LN2_HI, lm_hi)
    l_hi, l_lo = _fast_two_sum(a_hi, a_lo + (lm_lo + ef * _LN2_LO))  # ln x
    z = y * l_hi
    if z > 709.8:
        return math.inf
    if z < -745.2:
        return 0.0
    z_hi, z_lo = _two_prod(y, l_hi)
    z_hi, z_lo = _fast_two_sum(z_hi, z_lo + y * l_lo)  # y ln x
    kf = float(math.floor(z_hi * _INV_LN2 + 0.5))
    r, r_lo = _two_sum(z_hi, -(kf * _LN2_HI))
    r, r_lo = _two_sum(r, r_lo + (z_lo - kf * _LN2_LO))  # y ln x - k ln 2, |r_lo| <= ulp(r)/2
    q = _EXPM1[12]
    for c in _EXPM1[11::-1]:
        q = c + r * q
    hi, lo = _two_sum(1.0, r)  # exp(r + r_lo) = 1 + r + r^2 q + r_lo (1 + r) + O(2**-100)
    lo = lo + ((r * r) * q + (r_lo + r_lo * r))
    return math.ldexp(hi + lo, int(kf))


_WPOW_TABLES: Dict[float, List[float]] = {}


def wpow_table(weight: float, kmax: int) -> List[float]:
    """``[wpow(k, weight) for k in range(kmax + 1)]``, kept per weight and grown on demand (ROUGE-W's
    f(k) for run lengths and sentence lengths). Amortized O(1) per k."""
    table = _WPOW_TABLES.get(weight)
    if table is None:
        table = _WPOW_TABLES[weight] = [0.0]
    while len(table) <= kmax:
        table.append(wpow(float(len(table)), weight))
    return table


# ------------------------------------------------------------------------------------ weighted LCS
def wlcs_mark(r: Tokens, c: Tokens, weight: float, mask: List[int]) -> None:
    """ROUGE-1.5.5 ``wlcs_inner`` + traceback: mark in ``mask`` the reference positions on the
    weighted-LCS path of (r, c). On a match the cell is always diagonal with
    C = C[i-1][j-1] + f(k+1) - f(k), k = run length at (i-1, j-1); otherwise up when
    C[i-1][j] >= C[i][j-1], else left. O(|r| * |c|) time and memory.
    """
    m, n = len(r), len(c)
    powk = wpow_table(weight, min(m, n) + 1)
    C = [[0.0] * (n + 1) for _ in range(m + 1)]
    Lr = [[0] * (n + 1) for _ in range(m + 1)]
    B = [bytearray(n + 1) for _ in range(m + 1)]  # 1 diag, 2 up, 3 left
    for i in range(1, m + 1):
        ri = r[i - 1]
        Ci, Cp, Li, Lp, Bi = C[i], C[i - 1], Lr[i], Lr[i - 1], B[i]
        for j in range(1, n + 1):
            if ri == c[j - 1]:
                k = Lp[j - 1]
                Ci[j] = Cp[j - 1] + powk[k + 1] - powk[k]
                Li[j] = k + 1
                Bi[j] = 1
            elif Cp[j] >= Ci[j - 1]:
                Ci[j] = Cp[j]
                Bi[j] = 2
            else:
                Ci[j] = Ci[j - 1]
                Bi[j] = 3
    i, j = m, n
    while i > 0 and j > 0:
        b = B[i][j]
        if b == 1:
            mask[i - 1] = 1
            i -= 1
            j -= 1
        elif b == 2:
            i -= 1
        else:
            j -= 1


def wlcs_hits(ref_sents: Sequence[Tokens], pred_sents: Sequence[Tokens], weight: float, cnt_r: Counter,
              cnt_c: Counter) -> float:
    """ROUGE-W hit given the clipping tables (decremented): per reference sentence, the weighted-LCS
    marks unioned over the prediction sentences, f(run) per maximal run of consecutive marked
    positions, with the script's clipping quirks (see :func:`wlcs_overlap`). O(sum |r| * |c|)."""
    f = weight
    cands = [(c, set(c)) for c in pred_sents if c]
    powk = wpow_table(f, max(map(len, ref_sents), default=0))
    hit = 0.0
    for r in ref_sents:
        L = len(r)
        if not L:
            continue
        mask = [0] * L
        rset = set(r)
        for c, cset in cands:
            if not rset.isdisjoint(cset):
                wlcs_mark(r, c, f, mask)
        run = 0
        for p in range(L):
            t = r[p]
            if mask[p] and cnt_r[t] > 0 and cnt_c[t] > 0:
                run += 1
                if p + 1 < L:
                    if mask[p + 1] == 0:
                        hit += powk[run]
                        run = 0
                else:
                    hit += powk[run]
                    run = 0
                cnt_r[t] -= 1
                cnt_c[t] -= 1
    return hit


def wlcs_overlap(ref_sents: Sequence[Tokens], pred_sents: Sequence[Tokens], weight: float
                 ) -> Tuple[float, float, float, float]:
    """ROUGE-W exactly as ROUGE-1.5.5 (``computeWLCSScore``), f(k) = k ** weight (:func:`wpow`).

    Per reference sentence the weighted-LCS marks are unioned over the prediction sentences; the
    hit adds f(run) for each maximal run of consecutive marked reference positions, with the same
    unigram clipping as ROUGE-L (a marked but clipped position neither extends nor ends a run, and a
    run still pending at the sentence end after clipped positions is dropped: the script's quirks).

    Returns (hit, pred_total, ref_total, select) with pred_total = f(prediction tokens) and
    ref_total = f(sum_r f(|r|)) (the script applies f twice); P = (hit/pred_total)^(1/w),
    R = (hit/ref_total)^(1/w); select = (hit / sum_r f(|r|))^(1/w) is the ``-f B`` selection score.
    O(sum over sentence pairs |r| * |c|).
    """
    f = weight
    n = sum(map(len, pred_sents))
    maxlen = max([n] + [len(r) for r in ref_sents])
    powk = wpow_table(f, maxlen + 1)
    base = 0.0
    for r in ref_sents:
        base += powk[len(r)]
    pred_total = wpow(float(n), f)
    ref_total = wpow(base, f)
    if math.isinf(powk[maxlen]) or math.isinf(base) or math.isinf(ref_total):
        raise OverflowError(weight_overflow_message(f, maxlen))
    hit = wlcs_hits(ref_sents, pred_sents, f, token_counts(ref_sents), token_counts(pred_sents))
    select = wpow(hit / base, 1.0 / f) if base > 0 else 0.0
    return hit, pred_total, ref_total, select


def weight_overflow_message(weight: float, maxlen: int) -> str:
    """The error of ROUGE-W when f(k) = k ** weight is not a finite double on an input: f(maxlen),
    the reference base sum_r f(|r|) or f(base) overflows (every other quantity is smaller)."""
    return (f"rougeW: f(k) = k**{weight:g} overflows a double on this input (sentences of up to {maxlen} "
            f"tokens, wlcs_weight={weight:g}); use a smaller wlcs_weight (ROUGE-1.5.5's default is 1.2)")
