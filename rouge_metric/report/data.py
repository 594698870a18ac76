"""The numbers of a report: inputs validated at the boundary, every system scored once by one
:class:`~rouge_metric.Rouge` (bootstrap aggregation: exact means and seeded intervals), the per-example
P/R/F and lengths kept as arrays, the length statistics, and for two or more systems the paired tests of
:func:`rouge_metric.significance.paired_test` (what :func:`rouge_metric.compare` runs) with both methods.
No HTML here: :mod:`rouge_metric.report.page` renders what :func:`collect` returns.

The per-example values are computed once and every number reuses them: the table, the distributions and
the length statistics read the arrays, the corpus intervals and the paired tests resample them. The
resampling (the native gather of :func:`rouge_metric.aggregate.resampled_means`, which releases the GIL)
runs on two background threads started by :func:`begin`, while the caller draws the charts and explains
examples from the arrays; :meth:`ReportData.wait` joins them. The numbers are those of the sequential
computation: each resampling draws from its own ``default_rng(seed)``."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..aggregate import CorpusAccumulator, bootstrap
from ..config import DEFAULT_ROUGE_TYPES, RougeConfig
from ..inputs import check_prediction, normalize_references
from ..result import ComparisonResult, CorpusResult
from ..scoring import Rouge
from ..significance import METHODS, paired_test, comparison_label
from . import stats

#: Resamples (bootstrap) and trials (approximate randomization) of the paired tests of a report.
DEFAULT_TEST_RESAMPLES = 1000
#: The largest gains and losses listed per system.
TOP_K = 10


class SystemScores:
    """One system's scores: its :class:`CorpusResult` (means, bootstrap intervals, signature; None until
    :meth:`ReportData.wait`), and per example the (P, R, F) of every type (``values[type]``: an ``(n, 3)``
    float64 array) and the prediction length in tokens (``pred_len``)."""

    def __init__(self, name: str, result: Optional[CorpusResult], values: Dict[str, Any], flat: Dict[str, Any],
                 pred_len: Any) -> None:
        self.name = name
        self.result = result
        self.values = values
        self.flat = flat  # type -> flat (P, R, F) sequence, what paired_test takes
        self.pred_len = pred_len

    def f(self, rouge_type: str) -> Any:
        """Per-example F of one type."""
        return self.values[rouge_type][:, 2]


class ReportData:
    """Everything a report shows, as numbers.

    Attributes:
        rouge: the scorer; types: the rouge types; n: examples.
        names: system names in order (the first is the baseline of the comparisons).
        predictions: name -> list of predictions; references: per example, its list of references.
        systems: name -> :class:`SystemScores`.
        ref_len: per-example mean reference length (tokens); ratio[name]: prediction / reference length.
        correlations: name -> type -> :class:`~rouge_metric.report.stats.Correlation`.
        buckets: name -> the rows of :func:`~rouge_metric.report.stats.ratio_buckets`.
        length_flagged, length_note: whether length explains a large share of the scores, and the sentence.
        comparisons: method -> :class:`ComparisonResult` (empty with one system; after :meth:`wait`).
        deltas: name -> type -> per-example F delta against the baseline; wins: name -> type -> (w, t, l).
        gains, losses: name -> example indices with the largest F gains / losses (first type).
        test_resamples: resamples of each paired test.
    """

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    @property
    def baseline(self) -> str:
        return self.names[0]

    def wait(self) -> "ReportData":
        """Join the resampling :func:`begin` started: fill every system's ``result`` and ``comparisons``
        (an error raised there is raised here). Idempotent; :func:`collect` returns data already joined."""
        pending = self.__dict__.pop("_pending", None)
        if pending is not None:
            pool, results, tests = pending
            try:
                for nm, result in zip(self.names, results.result()):
                    self.systems[nm].result = result
                self.comparisons = tests.result() if tests is not None else {}
            finally:
                pool.shutdown(wait=True)
        return self


def _runs(predictions: Any, systems: Any, name: str) -> List[Tuple[str, str, Any]]:
    """``(name, argument, predictions)`` of every system, the baseline first; names checked."""
    runs: List[Tuple[str, str, Any]] = []
    seen: Dict[str, str] = {}
    if predictions is not None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"name: expected a non-empty string, got {name!r}")
        runs.append((name, "predictions", predictions))
        seen[name] = "name"
    if systems is not None:
        if isinstance(systems, (str, bytes)) or not hasattr(systems, "__iter__"):
            raise TypeError(f"systems: expected a mapping of name -> predictions or a list of (name, predictions) "
                            f"pairs, got {type(systems).__name__}")
        items = list(systems.items()) if isinstance(systems, Mapping) else list(systems)
        for k, item in enumerate(items):
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                raise TypeError(f"systems[{k}]: expected a (name, predictions) pair, got {type(item).__name__}")
            nm, preds = item
            if not isinstance(nm, str) or not nm:
                raise TypeError(f"systems[{k}]: the name must be a non-empty string, got {nm!r}")
            if nm in seen:
                raise ValueError(f"systems[{k}]: system name {nm!r} given twice (also {seen[nm]}); "
                                 "give every system its own name")
            seen[nm] = f"systems[{k}]"
            runs.append((nm, f"systems[{nm!r}]", preds))
    if not runs:
        raise ValueError("predictions: none given; pass predictions, or systems with at least one system")
    return runs


def _check_predictions(preds: Any, arg: str, n: int) -> List[str]:
    if preds is None or isinstance(preds, (str, bytes)) or not hasattr(preds, "__iter__"):
        got = "None" if preds is None else f"a single {type(preds).__name__}" if isinstance(preds, (str, bytes)) \
            else type(preds).__name__
        raise TypeError(f"{arg}: expected a list of texts (one per example), got {got}")
    preds = list(preds)
    if len(preds) != n:
        raise ValueError(f"{arg}: {len(preds)} predictions, but references has {n} examples; every system needs "
                         "one prediction per reference entry")
    return [check_prediction(p, i, arg) for i, p in enumerate(preds)]


def validate(predictions: Any, references: Any, systems: Any, name: str
             ) -> Tuple[List[Tuple[str, List[str]]], List[List[str]]]:
    """The systems (name, predictions) and the references, validated: errors name the argument and index."""
    runs = _runs(predictions, systems, name)
    if references is None or isinstance(references, (str, bytes)) or not hasattr(references, "__iter__"):
        raise TypeError("references: expected a list (one entry per example: a string or a list of strings)")
    refs = [normalize_references(r, i) for i, r in enumerate(references)]
    if not refs:
        raise ValueError("references: no examples (empty corpus); a report needs at least one example")
    return [(nm, _check_predictions(p, arg, len(refs))) for nm, arg, p in runs], refs


def make_rouge(rouge_types: Sequence[str], config: Optional[RougeConfig], backend: Optional[str],
               num_threads: Optional[int], options: Dict[str, Any]) -> Rouge:
    """The report's scorer: the user's settings with bootstrap aggregation (the corpus intervals)."""
    agg = options.pop("aggregation", None)
    if config is not None and agg is None:
        agg = config.aggregation if config.aggregation != "mean" else None
    if agg not in (None, "bootstrap"):
        raise ValueError(f"aggregation: a report always gives bootstrap intervals; got {agg!r}, leave it unset")
    return Rouge(rouge_types, config=config, backend=backend, num_threads=num_threads, aggregation="bootstrap",
                 **options)


def score_system(rouge: Rouge, preds: List[str], refs: List[List[str]]) -> Tuple[CorpusAccumulator, Any]:
    """One system scored once: its accumulator (exact sums and the per-example values) and the per-example
    ``(prediction, reference)`` lengths, an ``(n, 2)`` array."""
    import numpy as np

    acc = rouge.accumulator(keep_values=True)
    lengths = []
    for batch in rouge.score_batches(predictions=preds, references=refs, values=True, scores=False):
        acc.add_batch(batch)
        lengths.append(np.asarray(batch.lengths, dtype=np.float64).reshape(-1, 2))
    return acc, (np.concatenate(lengths) if lengths else np.zeros((0, 2)))


def corpus_results(rouge: Rouge, accs: Sequence[CorpusAccumulator]) -> List[CorpusResult]:
    """The :class:`CorpusResult` of every accumulator, with bootstrap intervals: the result
    ``rouge.result(acc)`` gives for each, from one set of resamples. The systems are scored on the same
    examples, so their intervals use the same index rows (``default_rng(seed)``): drawn once, every
    system's columns are gathered from them in one pass of :func:`rouge_metric.aggregate.bootstrap`
    (each column's resampled means depend only on that column and the rows: the same floats as one
    bootstrap per system)."""
    cfg = rouge.config
    types = list(rouge.rouge_types)
    values = {f"{k}:{t}": acc.values[t] for k, acc in enumerate(accs) for t in types}  # type: ignore[index]
    means = {f"{k}:{t}": sc for k, acc in enumerate(accs) for t, sc in acc.means().items()}
    ci = bootstrap(values, means, cfg.n_resamples, cfg.confidence_level, cfg.seed)
    out = []
    for k, acc in enumerate(accs):
        pl, rl = acc.mean_lengths()
        out.append(CorpusResult(scores=acc.means(), n=acc.n, pred_len=pl, ref_len=rl, signature=rouge.signature(),
                                ci={t: ci[f"{k}:{t}"] for t in types}, confidence_level=cfg.confidence_level))
    return out


def collect(predictions: Any, references: Any, *, systems: Any = None, name: Optional[str] = None,
            rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, config: Optional[RougeConfig] = None,
            backend: Optional[str] = None, num_threads: Optional[int] = None,
            test_resamples: int = DEFAULT_TEST_RESAMPLES, **options: Any) -> ReportData:
    """Validate, score every system once and compute every statistic of the report (see :class:`ReportData`):
    :func:`begin`, then :meth:`ReportData.wait`."""
    return begin(predictions, references, systems=systems, name=name, rouge_types=rouge_types, config=config,
                 backend=backend, num_threads=num_threads, test_resamples=test_resamples, **options).wait()


def begin(predictions: Any, references: Any, *, systems: Any = None, name: Optional[str] = None,
          rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, config: Optional[RougeConfig] = None,
          backend: Optional[str] = None, num_threads: Optional[int] = None,
          test_resamples: int = DEFAULT_TEST_RESAMPLES, **options: Any) -> ReportData:
    """:func:`collect` without waiting for the resampling: validate, score every system once, compute the
    per-example arrays and the length statistics, and start the corpus intervals (:func:`corpus_results`)
    and the paired tests (:func:`paired_tests`) on two background threads. Everything but ``results``
    and ``comparisons`` is ready on return; :meth:`ReportData.wait` gives those."""
    import numpy as np

    if isinstance(test_resamples, bool) or not isinstance(test_resamples, int) or test_resamples < 1:
        raise ValueError(f"test_resamples: expected an integer >= 1, got {test_resamples!r}")
    if name is None:
        name = "predictions" if systems is None else "baseline"
    rouge = make_rouge(rouge_types, config, backend, num_threads, dict(options))
    runs, refs = validate(predictions, references, systems, name)
    types = list(rouge.rouge_types)
    scored_runs = [score_system(rouge, preds, refs) for _, preds in runs]
    names = [nm for nm, _ in runs]
    flats = [dict(acc.values) for acc, _ in scored_runs]  # type: ignore[arg-type]
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="rouge_metric-report")
    try:
        results = pool.submit(corpus_results, rouge, [acc for acc, _ in scored_runs])
        tests = pool.submit(paired_tests, rouge, names, flats, len(refs), test_resamples) if len(names) > 1 else None
        scored: Dict[str, SystemScores] = {}
        for nm, flat, (_, lens) in zip(names, flats, scored_runs):
            values = {t: np.asarray(flat[t], dtype=np.float64).reshape(-1, 3) for t in types}
            scored[nm] = SystemScores(nm, None, values, flat, lens[:, 0])
        ref_len = scored_runs[0][1][:, 1]
        ratio = {nm: stats.length_ratio(s.pred_len, ref_len) for nm, s in scored.items()}
        correlations = {nm: stats.correlations({t: s.f(t) for t in types}, s.pred_len, ratio[nm])
                        for nm, s in scored.items()}
        buckets = {nm: stats.ratio_buckets(ratio[nm], {t: s.f(t) for t in types}) for nm, s in scored.items()}
        flagged, note = stats.length_note(correlations, len(refs))
        deltas: Dict[str, Dict[str, Any]] = {}
        wins: Dict[str, Dict[str, Tuple[int, int, int]]] = {}
        gains: Dict[str, List[int]] = {}
        losses: Dict[str, List[int]] = {}
        base = scored[names[0]]
        for nm in names[1:]:
            deltas[nm] = {t: scored[nm].f(t) - base.f(t) for t in types}
            wins[nm] = {t: stats.wins(deltas[nm][t]) for t in types}
            gains[nm], losses[nm] = stats.largest(deltas[nm][types[0]], TOP_K)
    except BaseException:
        pool.shutdown(wait=True)
        raise
    return ReportData(rouge=rouge, types=types, n=len(refs), names=names, predictions=dict(runs), references=refs,
                      systems=scored, ref_len=np.asarray(ref_len), ratio=ratio, correlations=correlations,
                      buckets=buckets, length_flagged=flagged, length_note=note, comparisons={},
                      deltas=deltas, wins=wins, gains=gains, losses=losses, test_resamples=test_resamples,
                      _pending=(pool, results, tests))


def paired_tests(rouge: Rouge, names: Sequence[str], flats: Sequence[Dict[str, Any]], n: int,
                 test_resamples: int) -> Dict[str, ComparisonResult]:
    """method -> :class:`ComparisonResult` of every system against the first (``flats[k]``: type -> flat
    per-example (P, R, F) of system ``k``), both methods of :func:`~rouge_metric.significance.paired_test`
    with ``test_resamples`` resamples and the scorer's level and seed: what :func:`rouge_metric.compare`
    gives with ``n_resamples = ci_resamples = test_resamples``."""
    cfg = rouge.config
    mean_sig = cfg.replace(aggregation="mean").signature(rouge.backend)
    others = dict(zip(names[1:], flats[1:]))
    comparisons: Dict[str, ComparisonResult] = {}
    boot_comps: Dict[str, Dict[str, Dict[str, Any]]] = {}
    for method in METHODS:
        # Approximate randomization reports the paired bootstrap interval of ci_resamples resamples drawn
        # from default_rng(seed): with ci_resamples = test_resamples that is exactly the interval the
        # paired bootstrap test has just computed (same seed, same rows), and its trials draw from their
        # own default_rng(seed). So the interval is taken from there instead of being resampled twice.
        ar = method == "approximate_randomization"
        comps, exact = paired_test(flats[0], others, method=method, n_resamples=test_resamples,
                                   confidence_level=cfg.confidence_level, seed=cfg.seed,
                                   ci_resamples=1 if ar else test_resamples)
        if ar:
            comps = {nm: {t: {s: c._replace(ci_low=boot_comps[nm][t][s].ci_low, ci_high=boot_comps[nm][t][s].ci_high)
                              for s, c in per_stat.items()} for t, per_stat in per_type.items()}
                     for nm, per_type in comps.items()}
        else:
            boot_comps = comps
        sig = mean_sig + "|" + comparison_label(method, test_resamples, cfg.confidence_level, cfg.seed,
                                                test_resamples, exact)
        comparisons[method] = ComparisonResult(comparisons=comps, n=n, method=method, n_resamples=test_resamples,
                                               confidence_level=float(cfg.confidence_level), seed=cfg.seed,
                                               signature=sig, exact=exact, baseline_name=names[0])
    return comparisons
