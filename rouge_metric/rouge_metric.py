"""ROUGE as an ``evaluate`` metric: ``evaluate.load("./rouge_metric")`` (or a Hub Space with this file).

A thin adapter over the rouge_metric core. Every sibling module the core needs is imported below with
``from .x import y`` at column 0: that is how ``evaluate`` knows to copy them next to this script, so the
module also works where the rouge_metric package is not installed (it then uses the pure-Python
kernels, which give the same numbers).
"""

try:
    import datasets
    import evaluate
except ImportError as _exc:  # the core install has neither: they are the [evaluate] extra
    raise ImportError('rouge_metric.rouge_metric (the evaluate module) needs evaluate and datasets, which the '
                      '[evaluate] extra installs: pip install -e ".[evaluate]" (in a clone of rouge_metric)') from _exc

# Every pure-Python module of the package, so that evaluate copies them all (names unused here).
from ._record import Record
from ._version import __version__
from .aggregate import CorpusAccumulator
from .backends import make_backend
from .config import DEFAULT_ROUGE_TYPES, RougeConfig
from .core import native_module
from .core_py import lcs_length
from .ids import IdPipeline
from .jieba_native import Unavailable
from .inputs import check_prediction, plain_batch
from .measures import TypeScorer
from .multilingual import unicode_tokenize
from .perl_porter import PerlPorterStemmer
from .perl_text import PerlPipeline
from .recipes import make_rouge
from .result import STATS, output_key
from .rouge155 import perl_tokens
from .scoring import Rouge, validate_batch
from .segment import EXTRA
from .sentence_split import split_sentences
from .stemmers import LanguageStemmer
from .text import TextPipeline
from .xlsum import XLSumRouge

_CITATION = """\
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    address = "Barcelona, Spain",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W04-1013",
    pages = "74--81",
}
"""

_DESCRIPTION = """\
ROUGE (Recall-Oriented Understudy for Gisting Evaluation) compares a prediction with one or more
references by overlapping units: n-grams (rouge1 ... rougeN), the longest common subsequence (rougeL),
its summary-level union over newline-separated sentences (rougeLsum), the weighted LCS (rougeW) and
skip-bigrams (rougeS, rougeS4, rougeSU, rougeSU4). rouge1..rouge9, rougeL and rougeLsum are bit-for-bit
those of Google's rouge-score 0.1.2; rougeW/S/SU follow ROUGE-1.5.5. The aggregated value is the exact
mean of the per-example scores (deterministic), not a bootstrap median; seeded bootstrap confidence
intervals are available on request. For Chinese, Japanese, Thai and Burmese, word-segmenting tokenizers
(jieba, fugashi/MeCab, pythainlp newmm, Burmese syllables) score words; recipe="xlsum" with lang= gives
the ROUGE of XL-Sum's multilingual_rouge_scoring (XL-Sum, CrossSum, mT5/mBART papers) bit for bit.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predictions to score (strings).
    references: list of references, one per prediction: a string or a list of strings.
    rouge_types: list of types, default ["rouge1", "rouge2", "rougeL", "rougeLsum"]. Valid: rouge1 ...
        rougeN (any N >= 1), rougeL, rougeLsum, rougeW, rougeS, rougeS<d>, rougeSU, rougeSU<d>.
    use_stemmer: Porter stemming (rouge-score's), default False.
    tokenizer: None (rouge-score's), "whitespace", "unicode" (every script; CJK/Thai per character),
        "perl" (ROUGE-1.5.5's), a word segmenter ("jieba" Chinese, "fugashi" Japanese, "thai_newmm" Thai,
        "burmese_syllables"; the [multilingual] extra), a callable str -> list[str] or an object with
        .tokenize.
    use_stemmer: also a stemmer name: "porter", "perl_porter", "snowball:<language>".
    sentence_splitter: how rougeLsum finds sentences: "newline" (default, as rouge-score), "offline"
        (rules, no data needed) or "nltk" (needs punkt data).
    stopwords: words removed before scoring (a file path with one word per line, or a list).
    use_aggregator: True (default) returns corpus means; False returns per-example lists.
    multi_ref: "max" (default; rouge-score's score_multi), "mean", "pool" (ROUGE-1.5.5 -f A),
        "best_recall" (ROUGE-1.5.5 -f B).
    return_precision_recall: also return `<type>_precision` and `<type>_recall`.
    confidence_interval: True also returns `<key>_low` / `<key>_high` (seeded percentile bootstrap of the
        corpus mean; not with use_aggregator=False). A number in (0, 1) is the confidence level, as in
        rouge-score's BootstrapAggregator(confidence_interval=0.95): 0.9 gives a 90% interval.
    n_resamples, confidence_level, seed: bootstrap settings (defaults 1000, 0.95, 0); only with
        confidence_interval (given without it, they are refused rather than ignored).
    beta: F-measure beta (default 1: F1). alpha: ROUGE-1.5.5's -p alpha, instead of beta (not both).
    wlcs_weight: ROUGE-W weight (default 1.2).
    recipe: None (the options above) or "xlsum": the ROUGE of XL-Sum's multilingual_rouge_scoring, bit for
        bit (its cleaner, the language's segmenter and stemmer; rouge1..rouge9, rougeL, rougeLsum;
        use_stemmer True or False). With it, tokenizer, stopwords and a sentence_splitter other than
        "newline" are refused (XL-Sum's scorer has its own).
    lang: with recipe="xlsum", XL-Sum's language: "chinese", "japanese", "thai", "burmese", "bengali",
        "hindi", "turkish", a Snowball language ("english", "spanish", ...), an alias ("bangla", "turkce",
        "chinese_simplified", "chinese_traditional", "mundo") or None. A language XL-Sum does not know gives
        its numbers (no segmenter, no stemmer) and a warning. Refused without recipe="xlsum".
    return_signature: also return "signature", a string naming every setting.
Returns:
    A dict of plain Python floats (or lists of floats when use_aggregator=False), keyed "rouge1",
    "rouge2", "rougeL", "rougeLsum" (F-measures in [0, 1]); "rouge1_precision", "rouge1_recall" ...
    on request.
Examples:
    >>> import evaluate
    >>> rouge = evaluate.load("./rouge_metric")  # doctest: +SKIP
    >>> rouge.compute(predictions=["hello there", "general kenobi"],
    ...               references=["hello there", "general kenobi"])  # doctest: +SKIP
    {'rouge1': 1.0, 'rouge2': 1.0, 'rougeL': 1.0, 'rougeLsum': 1.0}
    >>> rouge.compute(predictions=["今天天气很好"], references=["今天天气不错"], rouge_types=["rouge1"],
    ...               recipe="xlsum", lang="chinese")  # doctest: +SKIP
    {'rouge1': 0.6666666666666666}
"""


_SPELLINGS = {"add": ("prediction", "reference"), "add_batch": ("predictions", "references")}


def _check_keywords(method, kwargs):
    """Reject keywords this module has no input for, naming the right spelling (evaluate would
    otherwise report the missing input as None): add() takes one example, add_batch() a batch."""
    if not kwargs:
        return
    other = "add_batch" if method == "add" else "add"
    mine, theirs = _SPELLINGS[method], _SPELLINGS[other]
    fixes = [f"{k}= -> {mine[theirs.index(k)]}=" for k in sorted(kwargs) if k in theirs]
    raise TypeError(
        f"{method}: unexpected keyword argument(s) {', '.join(map(repr, sorted(kwargs)))}; {method}() takes "
        f"{mine[0]}= and {mine[1]}=" + (f" (did you mean {', '.join(fixes)}?)" if fixes else "")
        + f"; {other}() takes {theirs[0]}= and {theirs[1]}="
    )


def _interval_level(confidence_interval, confidence_level, use_aggregator, bootstrap_settings):
    """The bootstrap confidence level asked for, or None for no interval; refuses every combination whose
    setting would be dropped. ``confidence_interval`` is True/False or, as rouge-score's
    ``BootstrapAggregator(confidence_interval=0.95)`` spells it, the level itself (a number in (0, 1))."""
    if isinstance(confidence_interval, bool):
        default = RougeConfig.defaults()["confidence_level"]
        level = (default if confidence_level is None else confidence_level) if confidence_interval else None
    elif isinstance(confidence_interval, (int, float)) and 0.0 < confidence_interval < 1.0:
        if confidence_level is not None and confidence_level != confidence_interval:
            raise ValueError(
                f"confidence_interval={confidence_interval!r} is a confidence level, and confidence_level="
                f"{confidence_level!r} another: give one of them"
            )
        level = float(confidence_interval)
    else:
        raise ValueError(
            "confidence_interval: expected True/False or a confidence level in (0, 1) (e.g. 0.9, as "
            f"rouge-score's BootstrapAggregator takes it), got {confidence_interval!r}"
        )
    if level is None:
        given = [k for k, v in [("confidence_level", confidence_level), *bootstrap_settings.items()] if v is not None]
        if given:
            raise ValueError(
                f"{', '.join(given)}: bootstrap settings, used only with confidence_interval=True (or a level "
                "such as confidence_interval=0.9); add it or drop them"
            )
    elif not use_aggregator:
        raise ValueError(
            "confidence_interval: an interval is one of the corpus mean, and use_aggregator=False returns "
            "per-example scores; drop one of them"
        )
    return level


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RougeMetric(evaluate.Metric):
    """The ``rouge_metric`` evaluate module (name derived from the class name)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {
                        "predictions": datasets.Value("string"),
                        "references": datasets.Sequence(datasets.Value("string")),
                    }
                ),
                datasets.Features(
                    {
                        "predictions": datasets.Value("string"),
                        "references": datasets.Value("string"),
                    }
                ),
            ],
            codebase_urls=["https://github.com/google-research/google-research/tree/master/rouge"],
            reference_urls=["https://aclanthology.org/W04-1013"],
        )

    def _download_and_prepare(self, dl_manager):
        """Nothing to download. Prepares what every ``compute`` of the process needs, once, at
        ``evaluate.load``: from evaluate's copy of these modules, it finds and checks the installed
        package's native core (:func:`rouge_metric.core.native_module`), so the first ``compute`` costs what
        any call on new text costs. Which backend runs is still decided by each ``compute``, as before: a
        missing or mismatched core warns, or raises when the native backend is required, there."""
        native_module()

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of predictions and references (validated: the message names the bad index)."""
        _check_keywords("add_batch", kwargs)
        # Validate here, where the index of a bad input is still known (evaluate's own check cannot
        # name it, and an empty batch makes it raise IndexError). References are always stored as
        # lists: evaluate picks one feature format from the first example, and a plain string stored
        # under the list format would silently become a list of characters.
        if predictions is not None or references is not None:
            predictions, references = validate_batch(predictions, references)
            if not predictions:
                raise ValueError("predictions: empty list; give at least one prediction")
            if self._write_validated({"predictions": predictions, "references": references}):
                return None
        return super().add_batch(predictions=predictions, references=references, **kwargs)

    def _write_validated(self, batch):
        """Write a validated batch to evaluate's own Arrow writer (same cache file, locks and gathering
        across processes), as ``EvaluationModule.add_batch`` does, minus its per-element encoding: on
        str and lists of str that encoding returns them unchanged, and it was two thirds of what the
        module added to a direct ``compute`` (about 60 ms on 11,490 pairs). False when evaluate's
        writer API is not the one this was written for (evaluate 0.4): then evaluate's add_batch runs.
        """
        if not all(callable(getattr(self, a, None)) for a in ("_init_writer", "_infer_feature_from_batch")) or \
                not hasattr(self, "writer"):
            return False
        if self.writer is None:
            self.selected_feature_format = self._infer_feature_from_batch(batch)
            self._init_writer()
        self.writer.write_batch(batch)
        return True

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the module: ``EvaluationModule.compute``, whose result, random state and module state
        afterwards this keeps exactly. When the whole input comes to this call in a single process with
        nothing added before, the input is validated and scored directly, without the round trip
        through evaluate's Arrow cache (which returns the same validated lists); every other case
        (``add``/``add_batch`` before, several processes, a missing input) is evaluate's own path."""
        if predictions is None or references is None or not self._direct_compute_possible():
            return super().compute(predictions=predictions, references=references, **kwargs)
        if not plain_batch(predictions, references):  # plain lists are scored as they are
            predictions, references = validate_batch(predictions, references)
            if not predictions:
                raise ValueError("predictions: empty list; give at least one prediction")
        with evaluate.module.temp_seed(self.seed):
            output = self._compute(predictions=predictions, references=references, **kwargs)
        # what EvaluationModule.compute leaves behind
        self.cache_file_name = None
        self.filelock = None
        self.selected_feature_format = None
        return output

    def _direct_compute_possible(self):
        """One process, nothing written yet, and the evaluate this was written for (its attributes)."""
        state = ("num_process", "process_id", "writer", "buf_writer", "data", "seed", "cache_file_name",
                 "filelock", "selected_feature_format")
        if not all(hasattr(self, a) for a in state) or not callable(getattr(evaluate.module, "temp_seed", None)):
            return False
        return (self.num_process == 1 and self.process_id == 0 and self.writer is None
                and self.buf_writer is None and self.data is None)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one prediction and its reference(s) (validated)."""
        _check_keywords("add", kwargs)
        if prediction is not None or reference is not None:
            preds, refs = validate_batch([prediction], [reference])
            prediction, reference = preds[0], refs[0]
        return super().add(prediction=prediction, reference=reference, **kwargs)

    def _compute(
        self,
        predictions,
        references,
        rouge_types=None,
        use_stemmer=False,
        tokenizer=None,
        sentence_splitter="newline",
        use_aggregator=True,
        multi_ref="max",
        return_precision_recall=False,
        confidence_interval=False,
        n_resamples=None,
        confidence_level=None,
        seed=None,
        beta=None,
        alpha=None,
        wlcs_weight=1.2,
        stopwords=None,
        return_signature=False,
        recipe=None,
        lang=None,
    ):
        if alpha is not None and beta is not None:
            raise ValueError(f"alpha={alpha!r} and beta={beta!r}: both set the F-measure (alpha = 1/(1+beta^2)); "
                             "give one of them")
        level = _interval_level(confidence_interval, confidence_level, use_aggregator,
                                {"n_resamples": n_resamples, "seed": seed})
        defaults = RougeConfig.defaults()
        rouge = make_rouge(
            rouge_types if rouge_types is not None else DEFAULT_ROUGE_TYPES,
            recipe=recipe,
            lang=lang,
            use_stemmer=use_stemmer,
            tokenizer=tokenizer,
            sentence_splitter=sentence_splitter,
            multi_ref=multi_ref,
            beta=defaults["beta"] if beta is None else beta,
            alpha=alpha,
            wlcs_weight=wlcs_weight,
            aggregation="bootstrap" if level is not None else "mean",
            n_resamples=defaults["n_resamples"] if n_resamples is None else n_resamples,
            confidence_level=defaults["confidence_level"] if level is None else level,
            seed=defaults["seed"] if seed is None else seed,
            stopwords=stopwords,
        )
        config = rouge.config
        stats = STATS if return_precision_recall else ("fmeasure",)
        if not use_aggregator:
            # Per-example lists from the batches' flat (P, R, F) values, column by column: the same
            # floats as each example's Score, without a Score object per example and type.
            out = {output_key(t, s): [] for t in config.rouge_types for s in STATS if s in stats}
            for batch in rouge.score_batches(predictions=predictions, references=references, values=True,
                                             scores=False):
                for key, values in batch.columns(stats):
                    out[key].extend(values)
        else:
            result = rouge.compute(predictions=predictions, references=references)
            out = result.to_dict(stats)
            if result.ci is not None:
                for t, agg in result.ci.items():
                    for s in stats:
                        out[output_key(t, s, "low")] = float(getattr(agg.low, s))
                        out[output_key(t, s, "high")] = float(getattr(agg.high, s))
        if return_signature:
            out["signature"] = rouge.signature()
        return out
