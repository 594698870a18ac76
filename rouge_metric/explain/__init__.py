"""Why a score is what it is: matched n-grams, LCS tokens and positions, rougeLsum union-LCS hits.

:func:`explain` runs the scorer's own text pipeline and kernels on one example and returns an
:class:`Explanation`: per reference and rouge type the sufficient statistics exactly as the scorer
computes them (``hit``, ``pred_total``, ``ref_total`` from :meth:`rouge_metric.Rouge.pair_stats`)
plus the evidence behind ``hit``:

* rougeN / rougeS / rougeSU: the shared units with their counts in both texts; the hit is the sum of
  the clipped counts ``min(pred_count, ref_count)``;
* rougeL: the LCS (rouge-score's choice, :func:`rouge_metric.core_py.lcs_indices`) with its token
  positions in the reference and a matching embedding in the prediction (leftmost occurrences);
* rougeLsum: per reference sentence, the union of its LCS positions against every prediction
  sentence and which of them count as hits after the unigram clipping of ROUGE-1.5.5 / rouge-score;
* rougeW: per reference sentence, the positions on the weighted-LCS paths.

The display (:meth:`Explanation.format`, :meth:`Explanation.to_html`) shows the user's own text with the
matched words highlighted: every token carries the character span it came from
(:meth:`rouge_metric.text.TextPipeline.token_spans`: the named tokenizers give spans, the word
segmenters and the XL-Sum recipe included (``explain(..., scorer=XLSumRouge(...))``, mapped back through
its lowercasing and cleaner); stemming and stopwords keep them; a token that is not in the text as
written, such as a Burmese syllable the segmenter reorders, is left unhighlighted and
``Explanation.unlocated_note`` names it); ``tokens=True`` shows the tokens as the scorer sees them (after lower-casing and
stemming) instead, and so does a custom tokenizer callable, which gives no spans (the display says so).
Positions in the explanation are token positions either way. Every explanation is
cross-checked (:func:`cross_check`): P/R/F re-derived from its counts with ROUGE-1.5.5's general F
formula, the evidence adding up to the hit, each LCS verified as a common subsequence of both texts;
``Explanation.cross_checked`` says whether all held. :meth:`Explanation.to_html` renders it with the
matches highlighted in both texts (the Hub Space and ``rouge-metric explain --html`` show that).

The package, one module per concern:

* :mod:`~rouge_metric.explain.evidence`: the records (:class:`Explanation` and its parts) and
  :func:`explain`, which fills them from the scorer's public methods and the pure-Python kernels;
* :mod:`~rouge_metric.explain.checks`: the cross-checks (:func:`cross_check`, :func:`combined_checks`);
* :mod:`~rouge_metric.explain.render_text`: the terminal report (:func:`format_text`, ANSI or plain);
* :mod:`~rouge_metric.explain.render_html`: the HTML fragment and its CSS (:func:`explanation_html`), the
  one renderer of the Hub Space, ``rouge-metric explain --html`` and any page of explanations;
* :mod:`~rouge_metric.explain.shown`: how both renderers show a text (words or tokens).

>>> ex = explain(prediction="the cat sat on the mat", references="the cat lay on the mat",
...              rouge_types=["rouge2", "rougeL"])
>>> d = ex.references[0].types["rouge2"]
>>> [(" ".join(m.unit), m.clipped) for m in d.matches], d.hit
([('the cat', 1), ('on the', 1), ('the mat', 1)], 3)
>>> l = ex.references[0].types["rougeL"]
>>> l.lcs, l.ref_positions, l.pred_positions
(('the', 'cat', 'on', 'the', 'mat'), (0, 1, 3, 4, 5), (0, 1, 3, 4, 5))
>>> print(ex.format(color=False).splitlines()[2])
  rouge2     P=60.00 R=60.00 F=60.00  hits 3 / pred 5 / ref 5
>>> page = explanation_html(ex, css=False)
>>> page.startswith('<div class="rm-explain">'), "<style>" in page
(True, False)
"""

from .checks import Check, combined_checks, cross_check
from .evidence import Explanation, ReferenceExplanation, SentenceHits, TypeExplanation, UnitMatch, explain
from .render_html import CSS, TYPE_COLORS, explanation_html, type_color
from .render_text import format_text
from ..text import Span

__all__ = [
    "CSS",
    "Check",
    "Explanation",
    "ReferenceExplanation",
    "SentenceHits",
    "Span",
    "TYPE_COLORS",
    "TypeExplanation",
    "UnitMatch",
    "combined_checks",
    "cross_check",
    "explain",
    "explanation_html",
    "format_text",
    "type_color",
]
