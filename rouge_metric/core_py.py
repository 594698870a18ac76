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
    """Counter of the n-grams of ``tokens`` (tuples for n > 1, tokens for n == 1). O(len * n)."""
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
def _match_masks(seq: Tokens) -> Dict[Hashable, int]:
    """Bit mask of the positions of each token in ``seq`` (bit j set when seq[j] == token)."""
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
    pm = _match_masks(b)
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
        pm = _match_masks(can)
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
    cands = [(c, _match_masks(c)) for c in pred_sents if c]
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


# ------------------------------------------------------------------------------------ weighted LCS
def _wlcs_mark(r: Tokens, c: Tokens, weight: float, mask: List[int]) -> None:
    """ROUGE-1.5.5 ``wlcs_inner`` + traceback: mark in ``mask`` the reference positions on the
    weighted-LCS path of (r, c). On a match the cell is always diagonal with
    C = C[i-1][j-1] + f(k+1) - f(k), k = run length at (i-1, j-1); otherwise up when
    C[i-1][j] >= C[i][j-1], else left. O(|r| * |c|) time and memory.
    """
    m, n = len(r), len(c)
    C = [[0.0] * (n + 1) for _ in range(m + 1)]
    Lr = [[0] * (n + 1) for _ in range(m + 1)]
    B = [bytearray(n + 1) for _ in range(m + 1)]  # 1 diag, 2 up, 3 left
    for i in range(1, m + 1):
        ri = r[i - 1]
        Ci, Cp, Li, Lp, Bi = C[i], C[i - 1], Lr[i], Lr[i - 1], B[i]
        for j in range(1, n + 1):
            if ri == c[j - 1]:
                k = Lp[j - 1]
                Ci[j] = Cp[j - 1] + (k + 1) ** weight - k ** weight
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
    hit = 0.0
    for r in ref_sents:
        L = len(r)
        if not L:
            continue
        mask = [0] * L
        rset = set(r)
        for c, cset in cands:
            if not rset.isdisjoint(cset):
                _wlcs_mark(r, c, f, mask)
        run = 0
        for p in range(L):
            t = r[p]
            if mask[p] and cnt_r[t] > 0 and cnt_c[t] > 0:
                run += 1
                if p + 1 < L:
                    if mask[p + 1] == 0:
                        hit += run ** f
                        run = 0
                else:
                    hit += run ** f
                    run = 0
                cnt_r[t] -= 1
                cnt_c[t] -= 1
    return hit


def wlcs_overlap(ref_sents: Sequence[Tokens], pred_sents: Sequence[Tokens], weight: float
                 ) -> Tuple[float, float, float, float]:
    """ROUGE-W exactly as ROUGE-1.5.5 (``computeWLCSScore``), f(k) = k ** weight.

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
    try:
        top = float(maxlen) ** f
        base = 0.0
        for r in ref_sents:
            base += len(r) ** f
        pred_total = n ** f
        ref_total = base ** f
    except OverflowError:
        top = math.inf
    if math.isinf(top) or math.isinf(base) or math.isinf(ref_total):
        raise OverflowError(weight_overflow_message(f, maxlen))
    hit = wlcs_hits(ref_sents, pred_sents, f, token_counts(ref_sents), token_counts(pred_sents))
    select = (hit / base) ** (1.0 / f) if base > 0 else 0.0
    return hit, pred_total, ref_total, select


def weight_overflow_message(weight: float, maxlen: int) -> str:
    """The error of ROUGE-W when f(k) = k ** weight is not a finite double on an input: f(maxlen),
    the reference base sum_r f(|r|) or f(base) overflows (every other quantity is smaller)."""
    return (f"rougeW: f(k) = k**{weight:g} overflows a double on this input (sentences of up to {maxlen} "
            f"tokens, wlcs_weight={weight:g}); use a smaller wlcs_weight (ROUGE-1.5.5's default is 1.2)")
