"""XL-Sum's evaluation (``seq2seq/utils.py``: ``calculate_rouge``) on XL-Sum's multilingual scorer
(:class:`rouge_metric.xlsum.XLSumRouge`, PyPI ``multilingual-rouge``)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from ..recipes import make_rouge
from ..rouge_score.scoring import BootstrapAggregator
from ..text import check_nltk_punkt
from .common import HarnessResult, result
from .validation import check_batch, check_bool, check_rouge_types, check_texts

#: ``calculate_rouge``'s default ``rouge_keys``.
XLSUM_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _newline_sentences(text: str) -> str:
    """XL-Sum's ``add_newline_to_end_of_each_sentence``: nltk's English ``sent_tokenize``, joined by newlines."""
    import nltk

    return "\n".join(nltk.sent_tokenize(text))


def xlsum_rouge(predictions: Sequence[str], references: Sequence[str], *, lang: Optional[str] = None,
                use_stemmer: bool = True, rouge_types: Sequence[str] = XLSUM_TYPES,
                return_precision_and_recall: bool = False, newline_sep: bool = True,
                backend: Optional[str] = None) -> HarnessResult:
    """XL-Sum's ``calculate_rouge(pred_lns, tgt_lns, use_stemmer=True, rouge_keys=..., rouge_lang=lang)``:
    what the XL-Sum models' evaluation (``pipeline.py`` through ``build_compute_metrics_fn``) prints.

    Per example (one prediction, one target): with ``newline_sep`` both texts go through nltk's
    ``sent_tokenize`` (English punkt, whatever the language; it needs nltk's ``punkt_tab`` data, which is
    never downloaded) and are joined by newlines, for rougeLsum; then XL-Sum's
    ``RougeScorer(rouge_keys, lang=lang, use_stemmer=use_stemmer).score(target, prediction)``. The
    examples go into rouge-score's ``BootstrapAggregator()`` (1,000 resamples of numpy's global legacy
    generator, drawn as the harness draws them: seed it with ``np.random.seed`` to repeat a run), and
    ``scores`` is ``round(mid.fmeasure * 100, 4)`` per type, or with ``return_precision_and_recall``
    ``{type: {"precision", "recall", "fmeasure"}}`` of ``round(mid.<stat>, 4)`` (0-1 scale), as
    ``extract_rouge_mid_statistics`` returns them. ``per_example``: each example's F (0-1).

    ``lang``: XL-Sum's language (``rouge_metric.xlsum.LANGUAGES``, aliases included, or None); the
    ``multilingual`` extra supplies its segmenter and stemmer.

    >>> import numpy as np
    >>> np.random.seed(0)
    >>> r = xlsum_rouge(["the cats sat on the mat"], ["a cat sat on the mat"], rouge_types=["rouge1"],
    ...                 newline_sep=False)  # doctest: +SKIP
    >>> r.scores, r.signature.split("|")[:3]  # doctest: +SKIP
    ({'rouge1': 83.3333}, ['recipe:xlsum.calculate_rouge', 'harness:multilingual-rouge==0.0.1', 'reduce:bootstrap-mid(n=1000,numpy-global),x100,round4'])
    """
    predictions, references = check_batch("predictions", predictions, "references", references)
    predictions = check_texts("predictions", predictions)
    references = check_texts("references", references)
    types = check_rouge_types("rouge_types", rouge_types)
    check_bool("use_stemmer", use_stemmer)
    check_bool("return_precision_and_recall", return_precision_and_recall)
    check_bool("newline_sep", newline_sep)
    rouge = make_rouge(tuple(types), recipe="xlsum", lang=lang, use_stemmer=use_stemmer, backend=backend)
    if newline_sep:
        check_nltk_punkt()
        predictions = [_newline_sentences(p) for p in predictions]
        references = [_newline_sentences(r) for r in references]
    per_scores = rouge.score_examples(predictions=predictions, references=references)
    agg = BootstrapAggregator()
    for scores in per_scores:
        agg.add_scores(scores)
    mids = {t: a.mid for t, a in agg.aggregate().items()}
    if return_precision_and_recall:
        # numpy's round of the aggregator's numpy.float64 values, as the harness rounds them
        out: Dict[str, Any] = {t: {s: float(round(getattr(m, s), 4)) for s in ("precision", "recall", "fmeasure")}
                               for t, m in mids.items()}
        reduce = "reduce:bootstrap-mid(n=1000,numpy-global),round4"
    else:
        out = {t: float(round(m.fmeasure * 100, 4)) for t, m in mids.items()}
        reduce = "reduce:bootstrap-mid(n=1000,numpy-global),x100,round4"
    per: List[Dict[str, float]] = [{t: s[t].fmeasure for t in rouge.rouge_types} for s in per_scores]
    split = "newline_sep:nltk-sent_tokenize" if newline_sep else "newline_sep:none"
    return result("xlsum.calculate_rouge", "multilingual-rouge", f"{reduce}|{split}|{rouge.signature()}", out, per)
