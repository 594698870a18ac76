"""A drop-in for Google's ``rouge_score`` 0.1.2 (``pip install rouge-score``): the same API, the same
numbers, on rouge_metric's scorer.

Change ``from rouge_score import rouge_scorer, scoring`` to
``from rouge_metric.rouge_score import rouge_scorer, scoring`` and no number changes; or leave the code
as it is and switch ``import rouge_score`` over explicitly, in the process (:func:`install`, before the
program imports ``rouge_score``) or from the command line::

    python -m rouge_metric.rouge_score program.py args...
    python -m rouge_metric.rouge_score -m package.module args...

Modules: :mod:`~rouge_metric.rouge_score.rouge_scorer` (``RougeScorer``),
:mod:`~rouge_metric.rouge_score.scoring` (``Score``, ``AggregateScore``, ``BaseScorer``,
``BootstrapAggregator``, ``fmeasure``), :mod:`~rouge_metric.rouge_score.tokenize` (``tokenize``) and
:mod:`~rouge_metric.rouge_score.tokenizers` (``Tokenizer``, ``DefaultTokenizer``). Not provided:
``rouge_score.io``, ``rouge_score.rouge`` (the absl command line), ``rouge_score.create_pyrouge_files`` and
rouge-score's private helpers (``_score_lcs``, ``_create_ngrams``, ...). See docs/rouge_score_dropin.md.

>>> from rouge_metric.rouge_score import rouge_scorer, scoring
>>> scorer = rouge_scorer.RougeScorer(["rouge1"])
>>> scorer.score("the cat sat", "the cat ran")["rouge1"].fmeasure
0.6666666666666666
"""

from . import rouge_scorer, scoring, tokenize, tokenizers
from ._switch import install, is_installed, uninstall

__all__ = ["install", "is_installed", "rouge_scorer", "scoring", "tokenize", "tokenizers", "uninstall"]
