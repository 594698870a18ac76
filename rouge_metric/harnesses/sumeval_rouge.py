"""sumeval's Japanese and Chinese ROUGE (``chakki-works/sumeval`` 0.2.2, ``sumeval/metrics/rouge.py``
``RougeCalculator(lang="ja" | "zh")``), on the project core.

What sumeval does to a text (``tokenize``; the default settings: ``stopwords=True``, ``stemming=False``, no
word or length limit):

- **ja**: every character outside ``[ぁ-んァ-ン一-龥ーa-zA-Zａ-ｚＡ-Ｚ0-9０-９]`` becomes a space, then MeCab
  (``MeCab.Tagger("-Ochasen")`` when the ``MeCab`` module imports and the tagger loads) or, failing that,
  janome's ``Tokenizer()`` (its bundled IPADIC) gives the words' surfaces;
- **zh**: the characters ``.!/_,$%^*()+“’—!。：？、，：:~@#￥&（）【】「」《》·`` become spaces, then
  ``jieba.cut(text, cut_all=False)``;
- then words are stripped and lower-cased, empty ones dropped, and words in sumeval's stop list of the
  language (``sumeval/metrics/lang/data/<lang>/stop_words.txt``, read from the installed sumeval) dropped.
  sumeval has no stemming data for ja or zh, so ``stemming=True`` changes nothing there.

Scores (``rouge_n``, ``rouge_l``): matches are clipped n-gram counts (rouge-L: the LCS length of the whole
word lists), **pooled over the references**: R = sum of matches / sum of reference counts, P = sum of
matches / (number of references x prediction count), F = P R / ((1 - alpha) P + alpha R), 0 (an int)
when a denominator is 0. The CLI (``sumeval r-nl``) averages each measure over the examples with
``statistics.mean``; :func:`sumeval_rouge` does the same.
"""

from __future__ import annotations

import hashlib
import io
import re
import statistics
import threading
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .._version import __version__
from ..scoring import Rouge
from .common import result
from .validation import check_batch, check_choice, check_text_lists, type_name

LANGUAGES: Tuple[str, ...] = ("ja", "zh")

#: sumeval's measures, by its CLI's output names, and the core type giving each one's statistics.
MEASURES: Dict[str, str] = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-L": "rougeL"}

_SYMBOLS = {
    "ja": re.compile(r"[^ぁ-んァ-ン一-龥ーa-zA-Zａ-ｚＡ-Ｚ0-9０-９]"),
    "zh": re.compile(r"[\.\!/_,$%\^\*\(\)\+\“\’\—\!。：？、，：:~@#￥&（）【】「」《》·]"),
}

_LOCK = threading.Lock()
_JA_TOKENIZER: List[Tuple[Callable[[str], List[str]], str]] = []
_STOPWORDS: Dict[str, Tuple[FrozenSet[str], str]] = {}


def _japanese_tokenizer() -> Tuple[Callable[[str], List[str]], str]:
    """sumeval's Japanese tokenizer: MeCab with ``-Ochasen`` when it loads, else janome (built once)."""
    with _LOCK:
        if not _JA_TOKENIZER:
            try:
                import MeCab

                tagger = MeCab.Tagger("-Ochasen")

                def mecab(text: str) -> List[str]:
                    tagger.parse("")
                    node = tagger.parseToNode(text)
                    out = []
                    while node:
                        if node.surface:
                            out.append(node.surface)
                        node = node.next
                    return out

                from ..segment import package_version

                _JA_TOKENIZER.append((mecab, f"mecab({package_version('mecab-python3')},-Ochasen)"))
            except Exception:  # noqa: BLE001 - sumeval falls back to janome on any failure, so do we
                try:
                    from janome.tokenizer import Tokenizer
                except ImportError:
                    raise ImportError("sumeval_rouge(lang='ja') tokenizes with MeCab or, without it, janome: "
                                      "pip install janome (or pass segment=)") from None
                from ..segment import package_version

                janome = Tokenizer()
                _JA_TOKENIZER.append((lambda text: [t.surface for t in janome.tokenize(text)],
                                      f"janome({package_version('janome')},dict=ipadic)"))
        return _JA_TOKENIZER[0]


def sumeval_stopwords(lang: str) -> Tuple[FrozenSet[str], str]:
    """sumeval's stop list of ``lang`` read from the installed sumeval package, and its name with a
    digest (``sumeval-stop-zh(sha256:...)``). Raises ImportError naming the package when it is absent."""
    with _LOCK:
        hit = _STOPWORDS.get(lang)
        if hit is None:
            from importlib.util import find_spec
            from pathlib import Path

            spec = find_spec("sumeval")
            path = None
            if spec is not None and spec.submodule_search_locations:
                path = Path(list(spec.submodule_search_locations)[0]) / "metrics" / "lang" / "data" / lang / "stop_words.txt"
            if path is None or not path.is_file():
                raise ImportError(f"sumeval_rouge(stopwords=True) reads sumeval's stop list of {lang!r} from the "
                                  "installed sumeval package, which is not installed (pip install --use-pep517 "
                                  "sumeval==0.2.2), or pass stopwords=False or a collection of words")
            data = path.read_bytes()
            # sumeval reads it with open(encoding="utf-8").readlines(): universal newlines
            lines = [ln.strip() for ln in io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").readlines()]
            hit = _STOPWORDS[lang] = (frozenset(ln for ln in lines if ln),
                                      f"sumeval-stop-{lang}(sha256:{hashlib.sha256(data).hexdigest()[:12]})")
        return hit


def _f(matches: int, count_for_recall: int, count_for_precision: int, alpha: float) -> float:
    # sumeval's RougeCalculator._calc_f1, operation for operation
    recall = 0 if count_for_recall == 0 else matches / count_for_recall
    precision = 0 if count_for_precision == 0 else matches / count_for_precision
    denom = (1.0 - alpha) * precision + alpha * recall
    return 0 if denom == 0 else precision * recall / denom


def sumeval_rouge(predictions: Sequence[str], references: Sequence[Any], *, lang: str,
                  alpha: float = 0.5, stopwords: Any = True,
                  segment: Optional[Callable[[str], Sequence[str]]] = None) -> Any:
    """sumeval 0.2.2's ``RougeCalculator(lang=lang)`` ``rouge_1``, ``rouge_2`` and ``rouge_l`` of every
    prediction against its reference(s) (``references[i]``: a string or a list of strings, pooled as
    sumeval pools them), averaged with ``statistics.mean`` as sumeval's CLI averages them.

    ``lang``: ``"ja"`` or ``"zh"``. ``alpha``: sumeval's F weight (0.5: the harmonic mean).
    ``stopwords``: True (sumeval's list, read from the installed sumeval), False (none) or a collection of
    words. ``segment`` replaces the segmenter (MeCab/janome for ja, jieba for zh); the symbol replacement
    before it and the word filtering after it stay. Returns a :class:`~rouge_metric.harnesses.HarnessResult`
    whose ``scores`` and ``per_example`` use sumeval's names ``ROUGE-1``, ``ROUGE-2``, ``ROUGE-L``.

    The n-gram and LCS counts come from the core's kernels (``Rouge(..., tokenizer="ids")`` statistics of
    interned words); sumeval's own arithmetic combines them.
    """
    check_choice("lang", lang, LANGUAGES)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha: expected a number in [0, 1], got {alpha!r}")
    if segment is not None and not callable(segment):
        raise TypeError(f"segment: expected a callable (text -> words) or None, got {type_name(segment)}")
    predictions, references = check_batch("predictions", predictions, "references", references)
    preds = [p for p in predictions]
    for i, p in enumerate(preds):
        if not isinstance(p, str):
            raise TypeError(f"predictions[{i}]: expected str, got {type_name(p)}")
    refs = check_text_lists("references", references, min_size=1, accept_str=True,
                            need="sumeval pools over the references of example {i}")
    if stopwords is True:
        stop, stop_name = sumeval_stopwords(lang)
    elif stopwords is False or stopwords is None:
        stop, stop_name = frozenset(), "none"
    elif isinstance(stopwords, str) or not hasattr(stopwords, "__iter__"):
        raise TypeError(f"stopwords: expected True, False or a collection of words, got {type_name(stopwords)}")
    else:
        stop = frozenset(stopwords)
        stop_name = f"custom({len(stop)})"
    if segment is not None:
        cut, seg_name = segment, "custom"
    elif lang == "zh":
        from .. import segment as segmentation

        cut, seg_name = segmentation.raw_segmenter("jieba"), segmentation.describe("jieba")
    else:
        cut, seg_name = _japanese_tokenizer()
    symbols = _SYMBOLS[lang]
    ids: Dict[str, int] = {}
    cache: Dict[str, List[int]] = {}

    def words(text: str) -> List[int]:
        out = cache.get(text)
        if out is None:
            toks = [w.strip() for w in cut(symbols.sub(" ", text))]
            toks = [w.lower().strip() for w in toks if w]
            out = cache[text] = [ids.setdefault(w, len(ids)) for w in toks if w and w not in stop]
        return out

    rouge = Rouge(list(MEASURES.values()), tokenizer="ids")
    per: List[Dict[str, float]] = []
    for pred, golds in zip(preds, refs):
        view = rouge.process(words(pred))
        sums = [[0, 0, 0] for _ in MEASURES]
        for gold in golds:
            for k, st in enumerate(rouge.pair_stats(view, rouge.process(words(gold)))):
                hit, pred_total, ref_total = int(st[0]), int(st[1]), int(st[2])
                sums[k][0] += hit
                sums[k][1] += ref_total
                sums[k][2] = len(golds) * pred_total
        per.append({name: _f(s[0], s[1], s[2], alpha) for name, s in zip(MEASURES, sums)})
    scores = {name: statistics.mean(r[name] for r in per) for name in MEASURES}
    rest = (f"metric:sumeval-rouge(lang={lang},alpha={alpha},pool-refs,lcs-l)|seg:{seg_name}|stop:{stop_name}|"
            f"reduce:statistics.mean|version:{__version__}")
    return result(f"sumeval.rouge_{lang}", "sumeval", rest, scores, per)
