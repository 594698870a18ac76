"""The ``rouge`` PyPI package's ROUGE (pltrdy, 1.0.1), as LongBench reports it, and its fork
``rouge-chinese`` (1.0.3), as OpenCompass's ``JiebaRougeEvaluator`` reports it.

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

**Recursion.** The package backtracks each LCS recursively (``_recon_lcs``: one Python frame per step),
so a sentence pair whose backtrack path is longer than what is left of Python's recursion limit (about
1,000 words in one "."-free sentence, common in unsegmented Chinese) raises ``RecursionError``, and
LongBench's bare ``except:`` turns that into 0.0. How deep the package can go depends on the stack it is
called from. The kernel here backtracks iteratively and always returns the score; two functions
reproduce the package's failure: :func:`stack_headroom` (how many frames are left below the caller) and
:func:`recursion_overflows`, which replays the package's call chain and its recursive backtrack (the same
frames, calls and comparisons, over the same table values) from the caller's frame and says whether it
raises ``RecursionError`` there.

**rouge-chinese** (``rouge_chinese/rouge.py``, ``rouge_chinese/rouge_score.py``; the same code as its
GitHub master, which OpenCompass installs) changes two things and keeps the rest (set-based rouge-N, the
``1e-8`` F, ``ValueError`` on an empty side):

- **Sentences** come from ``cut_sent``: a newline is inserted after ``。！？?`` (and after ``......`` and
  ``……``) unless a closing quote follows, and after such a mark followed by a closing quote; the text is
  right-stripped and split on ``"\n"``. Words are then formed as above (each non-empty piece's words
  re-joined on single spaces and split on ``" "``). No split on ``"."``.
- **rouge-l is the plain LCS of the whole word lists**, sentences concatenated, repeats counted: P = LCS /
  number of prediction words, R = LCS / number of reference words (:func:`chinese_scores`). It is a
  table, not a recursion, so no text is too long for it.

One file for the package and its fork: they share the word rules, the set-based rouge-N, the F and the
error on an empty side, and differ only in the sentence splitter and rouge-l.

Complexity: tokenization O(length); rouge-N O(words); rouge-L O(sum over sentence pairs of
|r_i| * |c_j|) = O(|R| |C|) time and O(max |r_i| |c_j|) memory for one DP table at a time; the replay
of the recursion O(steps) frames per pair, after the same DP.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

#: The metric names of the package, in its output order.
METRICS: Tuple[str, ...] = ("rouge-1", "rouge-2", "rouge-l")

#: The constant of the package's F = 2PR / (P + R + 1e-8).
F_EPSILON = 1e-8


class EmptyTextError(ValueError):
    """A prediction or reference without any sentence (the package raises ValueError too)."""


def _check_not_empty(hyp: Sequence[str], ref: Sequence[str]) -> None:
    """The packages' refusal of a text without sentences, the hypothesis checked first."""
    if not hyp:
        raise EmptyTextError("Hypothesis is empty.")
    if not ref:
        raise EmptyTextError("Reference is empty.")


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


def lcs_table(x: Sequence[str], y: Sequence[str]) -> List[List[int]]:
    """The LCS length table of ``x`` (rows) and ``y`` (columns), the package's ``_lcs`` as lists of rows.
    O(len(x) * len(y)) time and memory."""
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
    return table


def backtrack(x: Sequence[str], y: Sequence[str], table: Sequence[Sequence[int]]) -> Tuple[set, int]:
    """(the set of words of the LCS the package's ``_recon`` reaches, the number of steps it takes: the
    package's recursion depth minus one). O(len(x) + len(y))."""
    out = set()
    i, j, steps = len(x), len(y), 0
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
    return out, steps


def lcs_words(x: Sequence[str], y: Sequence[str], max_backtrack: Optional[int] = None) -> set:
    """The set of words of the LCS of ``x`` (a reference sentence) and ``y`` that the package's
    ``_recon_lcs`` backtracks to. O(len(x) * len(y)) time and memory.

    ``max_backtrack``: raise :class:`BacktrackTooDeep` when the backtrack takes more steps than this.
    """
    out, steps = backtrack(x, y, lcs_table(x, y))
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
    _check_not_empty(hyp, ref)
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


# ------------------------------------------------------------------------- the package's recursion
def stack_headroom(cap: int = 20000) -> int:
    """How many nested plain Python calls the caller can still make before ``RecursionError`` (at most
    ``cap``): a probe that recurses until the limit. O(headroom)."""

    def down(n: int) -> int:
        if n >= cap:
            return n
        try:
            return down(n + 1)
        except RecursionError:
            return n

    return down(1)


#: Frames between LongBench's metric function and the first frame of the package's ``_recon``:
#: ``rouge_score``, ``Rouge.get_scores``, ``_get_avg_scores``, the rouge-l lambda,
#: ``rouge_l_summary_level``, ``_union_lcs``, ``_recon_lcs`` (``rouge_zh_score`` adds one).
PACKAGE_FRAMES = 7


def recursion_overflows(hypothesis: str, reference: str, wrappers: int = 0) -> bool:
    """Whether the package's rouge-l of ``hypothesis`` against ``reference`` raises ``RecursionError``
    when LongBench's metric function runs in the caller's frame.

    This call stands for ``rouge_score(prediction, ground_truth)`` (``wrappers`` more plain calls in
    front: 1 for ``rouge_zh_score``); below it the package's chain is replayed frame for frame
    (``get_scores`` with a keyword, ``_get_avg_scores``, the lambda called with a keyword, which calls
    ``rouge_l_summary_level`` with ``**kwargs``, ``_union_lcs``, ``_recon_lcs``) and, for every sentence
    pair in the package's order, its recursive ``_recon`` over a dict keyed by ``(i, j)`` tuples, with the
    package's comparisons in the package's order, so Python counts the same frames and nested
    comparisons. Sentence pairs whose backtrack is short enough for the stack are skipped by a probe.
    O(the package's DP) time; O(steps) frames.
    """
    if wrappers > 0:
        return recursion_overflows(hypothesis, reference, wrappers - 1)
    try:
        _Replay().get_scores([hypothesis], [reference], avg=True)
    except RecursionError:
        return True
    return False


class _Replay:
    """The package's ``Rouge`` call chain down to ``_recon`` (rouge-l only), for :func:`recursion_overflows`."""

    def get_scores(self, hyps: List[str], refs: List[str], avg: bool = False) -> None:
        return self._get_avg_scores(hyps, refs)

    def _get_avg_scores(self, hyps: List[str], refs: List[str]) -> None:
        hyp, ref = sentences(hyps[0]), sentences(refs[0])
        if not hyp or not ref:
            return None  # the package raises ValueError before any recursion
        # backtracks this much shorter than the headroom below this frame cannot reach the limit
        floor = stack_headroom() - 40
        fn = _REPLAY_ROUGE_L
        return fn(hyp, ref, exclusive=True, floor=floor)


def _replay_summary_level(evaluated_sentences: List[str], reference_sentences: List[str], exclusive: bool = True,
                          floor: int = 0) -> None:
    for ref_s in reference_sentences:
        _replay_union_lcs(evaluated_sentences, ref_s, prev_union=None, exclusive=exclusive, floor=floor)


_REPLAY_ROUGE_L = lambda hyp, ref, **k: _replay_summary_level(hyp, ref, **k)  # noqa: E731 (the package's form)


def _replay_union_lcs(evaluated_sentences: List[str], reference_sentence: str, prev_union: Optional[set] = None,
                      exclusive: bool = True, floor: int = 0) -> None:
    reference_words = reference_sentence.split(" ")
    for eval_s in evaluated_sentences:
        _replay_recon_lcs(reference_words, eval_s.split(" "), exclusive=exclusive, floor=floor)


def _replay_recon_lcs(x: List[str], y: List[str], exclusive: bool = True, floor: int = 0) -> None:
    rows = lcs_table(x, y)
    _, steps = backtrack(x, y, rows)
    if steps < floor:
        return None
    # the entries the backtrack reads, keyed by tuples as the package's table is: a lookup compares
    # a new (i, j) tuple with the stored one, as the package's lookups do
    table: Dict[Tuple[int, int], int] = {}
    i, j = len(x), len(y)
    while i > 0 and j > 0:
        if x[i - 1] == y[j - 1]:
            i, j = i - 1, j - 1
        else:
            table[i - 1, j] = rows[i - 1][j]
            table[i, j - 1] = rows[i][j - 1]
            if rows[i - 1][j] > rows[i][j - 1]:
                i -= 1
            else:
                j -= 1

    def _recon(i: int, j: int) -> list:
        if i == 0 or j == 0:
            return []
        elif x[i - 1] == y[j - 1]:
            return _recon(i - 1, j - 1) + [(x[i - 1], i)]
        elif table[i - 1, j] > table[i, j - 1]:
            return _recon(i - 1, j)
        else:
            return _recon(i, j - 1)

    _recon(len(x), len(y))
    return None


# ------------------------------------------------------------------------------- rouge-chinese 1.0.3
_CUT_SENT = (
    (re.compile("([。！？\\?])([^”’])"), r"\1\n\2"),
    (re.compile("(\\.{6})([^”’])"), r"\1\n\2"),
    (re.compile("(\\…{2})([^”’])"), r"\1\n\2"),
    (re.compile("([。！？\\?][”’])([^，。！？\\?])"), r"\1\n\2"),
)


def cut_sent(text: str) -> List[str]:
    """rouge-chinese's ``Rouge.cut_sent``: the text's pieces, split after sentence-final marks.

    >>> cut_sent("今天天气很好。我们去公园！好吗？")
    ['今天天气很好。', '我们去公园！', '好吗？']
    """
    for pattern, repl in _CUT_SENT:
        text = pattern.sub(repl, text)
    return text.rstrip().split("\n")


def chinese_sentences(text: str) -> List[str]:
    """rouge-chinese's sentences of a text: :func:`cut_sent`'s non-empty pieces, whitespace collapsed.

    >>> chinese_sentences("今天 天气  很好 。\\n  \\n我们")
    ['今天 天气 很好 。', '', '我们']
    """
    return [" ".join(piece.split()) for piece in cut_sent(text) if len(piece) > 0]


def lcs_length(x: Sequence[str], y: Sequence[str]) -> int:
    """The length of the longest common subsequence of two word lists. O(len(x) * len(y)) time,
    O(len(y)) memory."""
    if not x or not y:
        return 0
    prev = [0] * (len(y) + 1)
    for xi in x:
        row = [0]
        for j, yj in enumerate(y, 1):
            if xi == yj:
                row.append(prev[j - 1] + 1)
            else:
                a, b = prev[j], row[j - 1]
                row.append(a if a > b else b)
        prev = row
    return prev[-1]


def chinese_scores(hypothesis: str, reference: str, metrics: Sequence[str] = METRICS,
                   lcs: Callable[[Sequence[str], Sequence[str]], int] = lcs_length
                   ) -> Dict[str, Dict[str, float]]:
    """``rouge_chinese.Rouge(metrics).get_scores([hypothesis], [reference], avg=True)``.

    ``lcs``: the function giving the LCS length of two word lists (:func:`lcs_length`; a harness recipe
    passes the core's kernel). Raises :class:`EmptyTextError` where the package raises ValueError.

    >>> s = chinese_scores("今天 天气 很 好", "今天 天气 不错")
    >>> s["rouge-1"]["p"], s["rouge-l"]["r"]
    (0.5, 0.6666666666666666)
    """
    hyp = chinese_sentences(hypothesis)
    ref = chinese_sentences(reference)
    _check_not_empty(hyp, ref)
    hw, rw = words(hyp), words(ref)
    out: Dict[str, Dict[str, float]] = {}
    for m in metrics:
        if m == "rouge-l":
            out[m] = lcs_prf(lcs(rw, hw), len(hw), len(rw))
        elif m in ("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5"):
            out[m] = rouge_n(hw, rw, int(m[-1]))
        else:
            raise ValueError(f"metrics: unknown metric {m!r}; allowed: rouge-1 ... rouge-5, rouge-l")
    return out


def lcs_prf(lcs: int, hyp_words: int, ref_words: int) -> Dict[str, float]:
    """rouge-chinese's rouge-l ``{"f", "p", "r"}`` from the LCS length and the two word counts (both > 0:
    a side with a sentence has at least one word)."""
    r = lcs / ref_words
    p = lcs / hyp_words
    return {"f": f_measure(p, r), "p": p, "r": r}
