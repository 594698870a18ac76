"""An offline sentence splitter for rougeLsum that needs no nltk data.

``sentence_splitter="offline"`` chooses it (named ``split:offline`` in the signature). nltk's
``sent_tokenize`` needs the punkt_tab data, which is often missing (and rouge_metric never downloads
anything); this module embeds its abbreviation list, so it also works inside the folder that
``evaluate.load`` copies (only ``.py`` files are copied).

Rules, applied to each line separately (a newline always ends a sentence):

* ``.``, ``!``, ``?``, ``…`` (and Arabic ``؟``/``۔``, Devanagari danda ``।``/``॥``), optionally followed by
  closing quotes or brackets, end a sentence when whitespace or the end of the line follows. So
  decimals (``3.5``), ``$3.50``, ``U.S.A.x`` and e-mail-like tokens never split.
* CJK full stops ``。！？｡．`` (with their closing quotes ``」』”）``) end a sentence with or without a
  following space.
* No split after a known abbreviation (``Mr.``, ``Dr.``, ``Inc.``, ``Jan.``, ``e.g.``, ``p.m.``, ...; see
  :data:`ABBREVIATIONS`), after a single-letter initial (``J. Smith``), or after letter groups joined
  by periods (``U.S.``, ``z.B.``, ``Ph.D.``). Some abbreviations only hold before a number
  (``No. 5``, ``Fig. 3``, ``pp. 12``; :data:`NUMBER_ABBREVIATIONS`).
* ``?``/``!`` followed by a closing quote and a lowercase word do not split (``"Is it?" she asked.``);
  neither does an ellipsis followed by a lowercase word. A single ``.`` before a lowercase word does
  split, as Punkt does, because many summarization corpora are lowercased (``the cat sat . it ran .``).

O(len(text)).
"""

from __future__ import annotations

import re
from typing import List

#: Abbreviations (lowercase, without the final period, inner periods kept) after which a period
#: does not end a sentence.
ABBREVIATIONS = frozenset("""
mr mrs ms messrs mme mlle dr drs prof profs sr sra srta jr st mt ft gen gov sen sens rep reps rev hon pres
capt col lt sgt cpl maj adm cmdr supt insp brig cdr det gen lieut pvt
inc ltd co corp llc plc bros dept univ assn
jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
vs v etc cf al approx est min max avg ca viz resp incl excl
e.g i.e a.m p.m u.s u.k u.n e.u d.c ph.d b.a m.a b.sc m.sc u.s.a n.y l.a
ave blvd rd hwy
bzw usw vgl z.b u.a d.h hr fr nr dt
av pág sres
""".split())

#: Abbreviations that hold only when a number follows (``No. 5``): elsewhere ``no.`` may end a sentence.
NUMBER_ABBREVIATIONS = frozenset("no nos art arts vol vols p pp fig figs ch chap sec secs op eq eqs tab nr núm".split())

_TERM = r"[.!?\u2026\u061f\u06d4\u0964\u0965]+"
_CJK_TERM = "[\u3002\uff01\uff1f\uff61\uff0e]+"
_CLOSE = "[\"'\u201d\u2019\u00bb)\\]\u300d\u300f\uff09\u300b\u3009\u3011]*"
_END_RE = re.compile(f"(?P<cjk>{_CJK_TERM})(?P<cclose>{_CLOSE})|(?P<term>{_TERM})(?P<close>{_CLOSE})")
_OPENERS = "\"'\u201c\u2018\u00ab([{\u300c\u300e\uff08"
_LAST_WORD_RE = re.compile(r"\S*$")
_INNER_PERIODS_RE = re.compile(r"^(?:[^\W\d_]{1,3}\.)+[^\W\d_]{1,3}$")


def _is_abbreviation(word: str, next_char: str) -> bool:
    w = word.lstrip(_OPENERS)
    if not w:
        return False
    low = w.lower()
    if low in ABBREVIATIONS:
        return True
    if low in NUMBER_ABBREVIATIONS:
        return next_char.isdigit()
    if len(w) == 1 and w.isalpha():  # an initial: "J. Smith"
        return True
    return bool(_INNER_PERIODS_RE.match(w))


def _split_line(line: str) -> List[str]:
    out: List[str] = []
    start = 0
    n = len(line)
    for m in _END_RE.finditer(line):
        end = m.end()
        if m.group("cjk") is None:
            if end < n and not line[end].isspace():
                continue  # 3.5, U.S.A, e.g.x: not followed by a space
            rest = line[end:].lstrip()
            if rest:
                nxt = rest[0]
                term, close = m.group("term"), m.group("close")
                if term == ".":
                    if not close:
                        word = _LAST_WORD_RE.search(line, 0, m.start()).group()
                        if _is_abbreviation(word, nxt):
                            continue
                elif set(term) <= {".", "\u2026"}:  # an ellipsis
                    if nxt.islower():
                        continue
                elif close and nxt.islower():  # "Is it?" she asked.
                    continue
        sent = line[start:end].strip()
        if sent:
            out.append(sent)
        start = end
    tail = line[start:].strip()
    if tail:
        out.append(tail)
    return out


def split_sentences(text: str) -> List[str]:
    """Split ``text`` into sentences offline (rules in the module docstring); empty ones are dropped.

    >>> split_sentences("Mr. Smith went to Washington. He met Dr. Jones at 3 p.m. on Monday.")
    ['Mr. Smith went to Washington.', 'He met Dr. Jones at 3 p.m. on Monday.']
    >>> split_sentences("今天天气很好。我们去公园吧！好的")
    ['今天天气很好。', '我们去公园吧！', '好的']
    """
    out: List[str] = []
    for line in text.splitlines():
        out.extend(_split_line(line))
    return out


def add_newlines(text: str) -> str:
    """``text`` with one sentence per line (what rougeLsum with the ``newline`` splitter expects)."""
    return "\n".join(split_sentences(text))


__all__ = ["ABBREVIATIONS", "NUMBER_ABBREVIATIONS", "add_newlines", "split_sentences"]
