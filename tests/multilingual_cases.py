"""Real multilingual texts and the two oracles of the adapters' multilingual tests.

- XL-Sum's own scorer (PyPI ``multilingual-rouge`` 0.0.1; tools/xlsum_oracle_env.sh) for ``recipe="xlsum"``;
- rouge-score 0.1.2 with a tokenizer object that segments with the package itself (jieba, fugashi, pythainlp),
  lowercases and drops words without a letter or digit, for the named word segmenters.

Texts: the first rows of ../shared/corpora (Chinese, Japanese, French), and a few Thai sentences (no Thai
corpus there). Each case skips, saying why, when its corpus, segmenter or oracle is missing.
"""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

from corpora import SHARED_CORPORA, corpus_available, load_corpus

NLTK_DATA = Path(__file__).resolve().parents[2] / "shared" / "nltk_data"

#: case: (corpus or None for THAI, XL-Sum language, named segmenter or None, the segmenter's package)
CASES: Dict[str, Tuple[Optional[str], str, Optional[str], Optional[str]]] = {
    "zh": ("multisummeval_chinese", "chinese", "jieba", "jieba"),
    "zh_lcsts": ("lcsts_mocobart_chinese", "chinese_simplified", "jieba", "jieba"),
    "ja": ("wikillm_japanese", "japanese", "fugashi", "fugashi"),
    "th": (None, "thai", "thai_newmm", "pythainlp"),
    "fr": ("multisummeval_french", "french", None, None),
}

THAI_PREDICTIONS = [
    "รัฐบาลประกาศมาตรการช่วยเหลือเกษตรกรที่ได้รับผลกระทบจากภัยแล้งในภาคอีสาน",
    "นักวิทยาศาสตร์ค้นพบดาวเคราะห์ดวงใหม่ที่อาจมีน้ำอยู่บนพื้นผิว",
    "ราคาน้ำมันดิบในตลาดโลกปรับตัวสูงขึ้นเป็นวันที่สามติดต่อกัน",
]
THAI_REFERENCES = [
    "รัฐบาลออกมาตรการช่วยเกษตรกรภาคอีสานที่เดือดร้อนจากภัยแล้ง",
    "ดาวเคราะห์ดวงใหม่ที่ค้นพบอาจมีน้ำบนพื้นผิว นักวิทยาศาสตร์ระบุ",
    "ราคาน้ำมันโลกขึ้นต่อเนื่องสามวัน",
]

ROWS = 4


def has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def use_nltk_data() -> bool:
    """Put ../shared/nltk_data on nltk's path; True when the stopwords corpus (Snowball stemming of the XL-Sum
    recipe) is there."""
    import nltk

    if NLTK_DATA.is_dir() and str(NLTK_DATA) not in nltk.data.path:
        nltk.data.path.insert(0, str(NLTK_DATA))
    try:
        from nltk.corpus import stopwords

        stopwords.words("english")
        return True
    except LookupError:
        return False


def case(name: str, rows: int = ROWS, *, recipe: bool) -> Tuple[str, Optional[str], List[str], List[str]]:
    """``(lang, segmenter, predictions, references)`` of a case (one reference per prediction), or skip."""
    corpus, lang, seg, package = CASES[name]
    if package is not None and not has(package):
        pytest.skip(f"{name}: {package} is not installed (extra 'multilingual')")
    if recipe:
        if not has("pyonmttok"):
            pytest.skip("the XL-Sum recipe needs pyonmttok (extra 'multilingual')")
        if not has("multilingual_rouge"):
            pytest.skip("XL-Sum's scorer (pip install multilingual-rouge==0.0.1) is not installed")
    if corpus is None:
        return lang, seg, THAI_PREDICTIONS[:rows], THAI_REFERENCES[:rows]
    if not corpus_available(corpus):
        pytest.skip(f"{SHARED_CORPORA}/{corpus}.jsonl.gz is not present")
    preds, refs = load_corpus(corpus, rows)
    return lang, seg, preds, [r[0] for r in refs]


def xlsum_oracle(types: Sequence[str], use_stemmer: bool, lang: Optional[str], predictions: Sequence[str],
                 references: Sequence[str]) -> List[dict]:
    """XL-Sum's ``RougeScorer(types, use_stemmer, lang).score(target, prediction)`` of every pair."""
    from multilingual_rouge import rouge_scorer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=use_stemmer, lang=lang)
        return [scorer.score(r, p) for p, r in zip(predictions, references)]


class _SegmentedWords:
    """rouge-score's tokenizer interface over a segmenter package (not over rouge_metric)."""

    def __init__(self, segmenter: str) -> None:
        if segmenter == "jieba":
            import jieba

            self.cut = lambda t: list(jieba.cut(t))
        elif segmenter == "fugashi":
            from fugashi import Tagger

            parse = Tagger("-O wakati -b 50000").parse
            self.cut = lambda t: parse(t).split()
        elif segmenter == "thai_newmm":
            from pythainlp.tokenize import word_tokenize

            self.cut = lambda t: word_tokenize(t, engine="newmm")
        else:  # pragma: no cover
            raise ValueError(segmenter)

    def tokenize(self, text: str) -> List[str]:
        return [w.lower() for w in self.cut(text) if any(c.isalnum() for c in w)]


def segmenter_oracle(types: Sequence[str], segmenter: str, predictions: Sequence[str],
                     references: Sequence[str]) -> List[dict]:
    """rouge-score 0.1.2 with the segmenter package as its tokenizer: ``score(target, prediction)`` per pair."""
    rs = pytest.importorskip("rouge_score.rouge_scorer")
    if "rougeLsum" in types:
        raise ValueError("the segmenter oracle scores rouge1..9 and rougeL (rouge-score's rougeLsum with a custom "
                         "tokenizer splits lines the same way, but is not needed here)")
    scorer = rs.RougeScorer(list(types), tokenizer=_SegmentedWords(segmenter))
    return [scorer.score(r, p) for p, r in zip(predictions, references)]


def mean_f(per_example: Sequence[dict], t: str) -> float:
    """The core's corpus mean of a type's F (math.fsum order-independent exact sum / n)."""
    import math

    return math.fsum(s[t].fmeasure for s in per_example) / len(per_example)
