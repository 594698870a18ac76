"""The Porter stemmer of ROUGE-1.5.5.pl, in Python.

ROUGE-1.5.5's ``-m`` uses Martin Porter's own Perl implementation ("Release 1", tartarus.org) with
Chin-Yew Lin's change of 02/14/2004 in step 4: ``ement`` is tried in the main suffix list, then
``ment`` and then ``ent`` are tried as separate, successive rules on the result, and ``(s|t)ion`` only
when ``ent`` did not match. So ``agreement`` -> ``agreem`` and ``government`` -> ``govern``, where
nltk's Porter (any mode) gives ``agreement``/``govern``.

Every rule below is the Perl regular expression translated as is (Python's ``re`` has the same
leftmost-first backtracking semantics for these patterns). The stemmer is applied by the script only
to tokens longer than 3 characters, after a WordNet exception lookup (see :mod:`rouge_metric.rouge155`);
:func:`stem` itself returns words shorter than 3 characters unchanged, as the Perl ``stem`` does.

This module is the reference: the native core has a C++ twin of :func:`stem` for ``[a-z0-9]`` words
(``_native.perl_porter_stem``, ``perl_porter.hpp``), checked against it word for word.
"""

from __future__ import annotations

import re
from typing import Dict

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble",
    "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate",
    "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al",
    "iviti": "ive", "biliti": "ble", "logi": "log",
}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}

_c = "[^aeiou]"  # consonant
_v = "[aeiouy]"  # vowel
_C = _c + "[^aeiouy]*"  # consonant sequence
_V = _v + "[aeiou]*"  # vowel sequence
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")  # [C]VC... is m>0
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")  # [C]VC[V] is m=1
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")  # [C]VCVC... is m>1
_VOWEL_IN_STEM = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

_S1A_SSES_IES = re.compile(r"(ss|i)es$")
_S1A_S = re.compile(r"([^s])s$")
_S1B_EED = re.compile(r"eed$")
_S1B_ED_ING = re.compile(r"(ed|ing)$")
_S1B_AT_BL_IZ = re.compile(r"(at|bl|iz)$")
_S1B_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_S1C_Y = re.compile(r"y$")
_S2 = re.compile(
    r"(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness"
    r"|ousness|aliti|iviti|biliti|logi)$"
)
_S3 = re.compile(r"(icate|ative|alize|iciti|ical|ful|ness)$")
_S4 = re.compile(r"(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_S4_MENT = re.compile(r"ment$")
_S4_ENT = re.compile(r"ent$")
_S4_ION = re.compile(r"(s|t)(ion)$")
_S5_E = re.compile(r"e$")
_S5_LL = re.compile(r"ll$")


def stem(w: str) -> str:
    """ROUGE-1.5.5's ``stem($w)``: Porter with Lin's step-4 change. O(len(w)).

    >>> [stem(w) for w in ["agreement", "government", "running", "ponies", "caresses", "relational"]]
    ['agreem', 'govern', 'run', 'poni', 'caress', 'relat']
    """
    if len(w) < 3:
        return w
    firstch = w[0]
    if firstch == "y":  # initial y is a consonant: map to Y so that the patterns skip it
        w = "Y" + w[1:]

    # Step 1a
    m = _S1A_SSES_IES.search(w)
    if m:
        w = w[: m.start()] + m.group(1)
    else:
        m = _S1A_S.search(w)
        if m:
            w = w[: m.start()] + m.group(1)
    # Step 1b
    m = _S1B_EED.search(w)
    if m:
        if _MGR0.search(w[: m.start()]):
            w = w[:-1]
    else:
        m = _S1B_ED_ING.search(w)
        if m:
            stem_ = w[: m.start()]
            if _VOWEL_IN_STEM.search(stem_):
                w = stem_
                if _S1B_AT_BL_IZ.search(w):
                    w += "e"
                elif _S1B_DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"
    # Step 1c
    m = _S1C_Y.search(w)
    if m:
        stem_ = w[: m.start()]
        if _VOWEL_IN_STEM.search(stem_):
            w = stem_ + "i"
    # Step 2
    m = _S2.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR0.search(stem_):
            w = stem_ + _STEP2[m.group(1)]
    # Step 3
    m = _S3.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR0.search(stem_):
            w = stem_ + _STEP3[m.group(1)]
    # Step 4 (C.-Y. Lin, 02/14/2004: "ement" in the list, then "ment", then "ent" / "(s|t)ion")
    m = _S4.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_):
            w = stem_
    m = _S4_MENT.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_):
            w = stem_
    m = _S4_ENT.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_):
            w = stem_
    else:
        m = _S4_ION.search(w)
        if m:
            stem_ = w[: m.start()] + m.group(1)
            if _MGR1.search(stem_):
                w = stem_
    # Step 5
    m = _S5_E.search(w)
    if m:
        stem_ = w[: m.start()]
        if _MGR1.search(stem_) or (_MEQ1.search(stem_) and not _CVC.search(stem_)):
            w = stem_
    if _S5_LL.search(w) and _MGR1.search(w):
        w = w[:-1]
    if firstch == "y":
        w = "y" + w[1:]
    return w


class PerlPorterStemmer:
    """:func:`stem` with a per-word cache (``stem(word)`` like nltk's stemmers)."""

    def __init__(self) -> None:
        self.cache: Dict[str, str] = {}

    def stem(self, word: str) -> str:
        s = self.cache.get(word)
        if s is None:
            s = self.cache[word] = stem(word)
        return s


__all__ = ["PerlPorterStemmer", "stem"]
