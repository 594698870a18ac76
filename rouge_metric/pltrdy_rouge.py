"""The ``rouge`` PyPI package's ROUGE (pltrdy, 1.0.1), as LongBench and OpenCompass report it.

A different definition from rouge-score's and ROUGE-1.5.5's, kept apart on purpose: nothing else in
rouge_metric uses this module, and :mod:`rouge_metric.harnesses` is its only caller. What the package
does (``rouge/rouge.py::Rouge.get_scores``, ``rouge/rouge_score.py``), which this module reproduces:

- **Sentences and words.** The text is split on every ``"."``; each non-empty piece is re-joined on
  single spaces (``" ".join(piece.split())``), so a piece of only whitespace becomes the empty sentence
  ``""``. Words are the pieces' ``split(" ")``, concatenated across sentences (the empty sentence gives
  the one word ``""``). No lower-casing, no punctuation removal, no stemming.
- **rouge-N counts sets.** The n-grams of the whole word list (crossing sentence boundaries) are a set:
  repeats count once. P = |common| / |prediction n-grams|, R = |common| / |reference n-grams| (0 when
  a side has none).
- **rouge-L is a summary-level union LCS of word sets.** For every (reference sentence, prediction
  sentence) pair the package backtracks one LCS (ties: up when ``T[i-1][j] > T[i][j-1]``, else left)
  and keeps the set of its *words*; the LCS count is the size of the union of those word sets over all
  pairs. P and R divide by the number of *distinct* words of the prediction and of the reference.
- **F = 2PR / (P + R + 1e-8)**, in this order of operations (not 2PR/(P+R)): F is a little below the
  harmonic mean and 0.0 when P = R = 0.
- **Errors.** An empty side (no sentence: ``""``, ``"..."``) raises ``ValueError`` in the package;
  LongBench catches every exception and reports 0.0. :func:`scores` raises the same ``ValueError``
  (:class:`EmptyTextError`).

One divergence, stated: the package's backtrack is recursive, one Python frame per step, so a sentence
pair whose backtrack path is longer than what is left of Python's recursion limit (about 1,000 words
in one "."-free sentence, common in unsegmented Chinese) raises ``RecursionError``, and LongBench then
reports 0.0 for that answer. The kernel here is iterative and returns the score; pass
``max_backtrack`` to reproduce the package's 0.0 at a given depth (the exact depth depends on the
caller's stack, so no default can match every run).

Complexity: tokenization O(length); rouge-N O(words); rouge-L O(sum over sentence pairs of
|r_i| * |c_j|) = O(|R| |C|) time and O(max |r_i| |c_j|) memory for one DP table at a time.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

#: The metric names of the package, in its output order.
METRICS: Tuple[str, ...] = ("rouge-1", "rouge-2", "rouge-l")

#: The constant of the package's F = 2PR / (P + R + 1e-8).
F_EPSILON = 1e-8


class EmptyTextError(ValueError):
    """A prediction or reference without any sentence (the package raises ValueError too)."""


class BacktrackTooDeep(RecursionError):
    """A sentence pair whose LCS backtrack is deeper than ``max_backtrack`` (the package's RecursionError)."""


def sentences(text: str) -> List[str]:
    """The package's sentences: pieces between ``"."``, non-empty before whitespace is collapsed.

    >>> sentences("The cat sat. . On the  mat.")
    ['The cat sat', '', 'On the mat']
    """
    return [" ".join(piece.split()) for piece in text.split(".") if len(piece) > 0]


def words(sents: Sequence[str]) -> List[str]:
    """The package's words: each sentence's ``split(" ")``, concatenated.

    >>> words(["The cat sat", "", "On the mat"])
    ['The', 'cat', 'sat', '', 'On', 'the', 'mat']
    """
    out: List[str] = []
    for s in sents:
        out.extend(s.split(" "))
    return out


def f_measure(p: float, r: float) -> float:
    """The package's ``2.0 * ((p * r) / (p + r + 1e-8))``."""
    return 2.0 * ((p * r) / (p + r + F_EPSILON))


def _prf(overlap: int, hyp_count: int, ref_count: int) -> Dict[str, float]:
    p = overlap / hyp_count if hyp_count else 0.0
    r = overlap / ref_count if ref_count else 0.0
    return {"f": f_measure(p, r), "p": p, "r": r}


def rouge_n(hyp_words: Sequence[str], ref_words: Sequence[str], n: int) -> Dict[str, float]:
    """Set-based rouge-N of two word lists (``{"f", "p", "r"}``). O(len(hyp) + len(ref))."""
    hyp = {tuple(hyp_words[i:i + n]) for i in range(len(hyp_words) - n + 1)}
    ref = {tuple(ref_words[i:i + n]) for i in range(len(ref_words) - n + 1)}
    return _prf(len(hyp & ref), len(hyp), len(ref))


def lcs_words(x: Sequence[str], y: Sequence[str], max_backtrack: Optional[int] = None) -> set:
    """The set of words of the LCS of ``x`` (a reference sentence) and ``y`` that the package's
    ``_recon_lcs`` backtracks to. O(len(x) * len(y)) time and memory.

    ``max_backtrack``: raise :class:`BacktrackTooDeep` when the backtrack takes more steps than this
    (the package recurses once per step).
    """
    n, m = len(x), len(y)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        xi = x[i - 1]
        prev, row = table[i - 1], table[i]
        for j in range(1, m + 1):
            if xi == y[j - 1]:
                row[j] = prev[j - 1] + 1
            else:
                a, b = prev[j], row[j - 1]
                row[j] = a if a > b else b
    out = set()
    i, j, steps = n, m, 0
    while i > 0 and j > 0:
        steps += 1
        if x[i - 1] == y[j - 1]:
            out.add(x[i - 1])
            i -= 1
            j -= 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    if max_backtrack is not None and steps > max_backtrack:
        raise BacktrackTooDeep(f"LCS backtrack of {steps} steps exceeds max_backtrack={max_backtrack}")
    return out


def rouge_l(hyp_sents: Sequence[str], ref_sents: Sequence[str], max_backtrack: Optional[int] = None
            ) -> Dict[str, float]:
    """Summary-level union-LCS rouge-L of two sentence lists (``{"f", "p", "r"}``)."""
    union: set = set()
    hyp_words = [s.split(" ") for s in hyp_sents]
    for ref_s in ref_sents:
        rw = ref_s.split(" ")
        for hw in hyp_words:
            union |= lcs_words(rw, hw, max_backtrack)
    m = len(set(words(ref_sents)))
    n = len(set(words(hyp_sents)))
    llcs = len(union)
    r = llcs / m
    p = llcs / n
    return {"f": f_measure(p, r), "p": p, "r": r}


def scores(hypothesis: str, reference: str, metrics: Sequence[str] = METRICS,
           max_backtrack: Optional[int] = None) -> Dict[str, Dict[str, float]]:
    """``Rouge(metrics).get_scores([hypothesis], [reference], avg=True)`` of the ``rouge`` package.

    Raises :class:`EmptyTextError` where the package raises ValueError (a side with no sentence).

    >>> s = scores("the cat sat on the mat", "the cat was on the mat")
    >>> s["rouge-l"]  # 5 distinct words a side, 4 in common; F is just under 0.8 (the 1e-8)
    {'f': 0.7999999950000002, 'p': 0.8, 'r': 0.8}
    """
    hyp = sentences(hypothesis)
    ref = sentences(reference)
    if not hyp:
        raise EmptyTextError("Hypothesis is empty.")
    if not ref:
        raise EmptyTextError("Reference is empty.")
    out: Dict[str, Dict[str, float]] = {}
    hw = rw = None
    for m in metrics:
        if m == "rouge-l":
            out[m] = rouge_l(hyp, ref, max_backtrack)
        elif m in ("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5"):
            if hw is None:
                hw, rw = words(hyp), words(ref)
            out[m] = rouge_n(hw, rw, int(m[-1]))
        else:
            raise ValueError(f"metrics: unknown metric {m!r}; allowed: rouge-1 ... rouge-5, rouge-l")
    return out
