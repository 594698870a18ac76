"""HF evaluate's ``rouge`` metric (the Hub script), with evaluate's own seeding.

evaluate gives every module a seed when the module is made (``evaluate.load(..., seed=)``; without one,
``EvaluationModule.__init__`` takes ``key[pos]`` of numpy's global legacy state, ``key[0]`` when
``pos == 624``, without moving the state). ``compute`` runs the script's ``_compute`` under
``datasets.utils.py_utils.temp_seed(self.seed)``: it saves numpy's global state, calls
``np.random.seed(seed)``, computes (the Hub script's ``BootstrapAggregator`` draws here) and restores
the saved state. So the bootstrapped numbers depend only on the module's seed, the same module gives
the same numbers on every call, and the caller's random state is the same afterwards.
:func:`evaluate_rouge` does exactly that.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from ..scoring import Rouge
from .common import HarnessResult, bootstrap_mid_f, result
from .validation import (check_batch, check_bool, check_rouge_types, check_seed, check_text_lists, check_texts,
                         type_name)

EVALUATE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def evaluate_module_seed() -> int:
    """The seed ``evaluate.load(...)`` without ``seed=`` gives its module if called now: drawn from numpy's
    global legacy state as ``EvaluationModule.__init__`` draws it (``key[pos]``, or ``key[0]`` when the
    position is 624). Reads the state without moving it.

    >>> import numpy as np
    >>> saved = np.random.get_state()
    >>> np.random.seed(7)
    >>> evaluate_module_seed()  # just after seeding: key[0], the seed itself
    7
    >>> _ = np.random.random_sample()
    >>> evaluate_module_seed() == int(np.random.get_state()[1][2])  # 2 words consumed: key[2]
    True
    >>> np.random.set_state(saved)
    """
    import numpy as np

    _, key, pos, *_ = np.random.get_state()
    return int(key[pos] if pos < 624 else key[0])


def evaluate_rouge(predictions: Sequence[str], references: Sequence[Any], *,
                   rouge_types: Sequence[str] = EVALUATE_TYPES,
                   use_aggregator: bool = True, use_stemmer: bool = False,
                   tokenizer: Optional[Callable[[str], Sequence[str]]] = None, seed: Optional[int] = None,
                   backend: Optional[str] = None) -> HarnessResult:
    """HF evaluate's ``rouge`` (the Hub script ``metrics/rouge/rouge.py``: ``Rouge._compute``), as
    ``evaluate.load("rouge", seed=seed).compute(...)`` returns it.

    Per example ``score_multi`` when ``references[i]`` is a list (the best-F reference per type), else
    ``score``; with ``use_aggregator`` a ``BootstrapAggregator`` over the examples reporting
    ``mid.fmeasure`` (the median of 1,000 resampled means, not the mean), else the per-example F.

    ``seed``: the module's seed (``evaluate.load(..., seed=)``, or ``module.seed`` of a module you
    loaded). The bootstrap runs under it as evaluate runs it: numpy's global state is saved, seeded with
    ``seed``, used by the aggregator and restored, so the caller's random state is the same afterwards.
    None: the seed ``evaluate.load`` without ``seed=`` would draw from numpy's global state at this
    moment (:func:`evaluate_module_seed`); for a module loaded earlier, pass its ``seed``. The signature
    records the seed used. ``scores`` holds the aggregated F (``use_aggregator=True``) or the mean of
    the per-example F; ``per_example`` the per-example F.

    >>> r = evaluate_rouge(["the cat sat", "a dog ran off"], ["the cat sat down", "a dog ran"], seed=0)
    >>> r.scores["rouge1"], r.signature.split("|")[2]
    (0.8571428571428571, 'reduce:bootstrap-mid(n=1000,evaluate-seed=0)')
    """
    predictions, references = check_batch("predictions", predictions, "references", references)
    predictions = check_texts("predictions", predictions)
    check_text_lists("references", references, min_size=1, accept_str=True,
                     need="score_multi needs at least one reference")
    types = check_rouge_types("rouge_types", rouge_types)
    check_bool("use_aggregator", use_aggregator)
    check_bool("use_stemmer", use_stemmer)
    if tokenizer is not None and not callable(tokenizer):
        raise TypeError(f"tokenizer: expected a callable (text -> tokens) or None, got {type_name(tokenizer)}")
    seed = check_seed("seed", seed)
    rouge = Rouge(tuple(types), use_stemmer=use_stemmer, tokenizer=tokenizer, backend=backend)
    per_scores = rouge.score_examples(predictions=predictions, references=references)
    per = [{t: s[t].fmeasure for t in rouge.rouge_types} for s in per_scores]

    import numpy as np

    if use_aggregator:
        if seed is None:
            seed = evaluate_module_seed()
        state = np.random.get_state()
        np.random.seed(seed)
        try:
            scores = bootstrap_mid_f(per_scores, rouge.rouge_types)
        finally:
            np.random.set_state(state)
        reduce = f"reduce:bootstrap-mid(n=1000,evaluate-seed={seed})"
    else:
        scores = {t: float(np.mean([r[t] for r in per])) for t in rouge.rouge_types}
        reduce = "reduce:none(per-example)"
    return result("evaluate.rouge", "evaluate", reduce + "|" + rouge.signature(), scores, per)
