"""Paired significance tests: is system B really better than the baseline A on these references?

Every example is scored once per system (:class:`rouge_metric.Rouge`, any backend); the tests then
work on the per-example P, R and F that the corpus means are made of, and follow sacreBLEU's
``significance`` module (paired bootstrap resampling and approximate randomization) with the
differences listed in docs/significance.md:

- the statistic is the difference of the corpus means ``delta = mean(system) - mean(baseline)``;
- **paired bootstrap**: resample ``r`` draws ``n`` example indices with replacement
  (``numpy.random.default_rng(seed).integers(0, n, size=n)``, what sacreBLEU's ``rng.choice``
  draws), shared by every system, type and statistic; the interval is the percentile interval of the
  resampled differences ``delta*_r``; the p-value counts resamples whose difference, centred on the
  observed one, is at least as far from 0 as the observed one: ``(1 + #{|delta*_r - delta| >=
  |delta|}) / (1 + R)``;
- **approximate randomization**: trial ``r`` swaps the two outputs of each example with probability
  1/2 (``rng.integers(0, 2, size=n, dtype=bool)`` per trial); ``p = (1 + #{|delta*_r| >= |delta|}) /
  (1 + R)``. When ``2**n <= R`` every assignment is enumerated instead and the p-value is exact
  (``#{...} / 2**n``). Its interval is the paired bootstrap interval (``ci_resamples`` resamples of
  the same seed).

"At least as far" compares with a relative tolerance of 100 ulps (scipy's convention), so that
rounding does not decide ties: a system compared with itself gets ``p = 1``. All draws come from
``default_rng(seed)``: the same numbers in every process and on both backends. The resampling runs
in blocks (:func:`rouge_metric.aggregate.resampled_means`): memory flat in the number of resamples.

>>> refs = ["the cat sat on the mat", "a dog barked at the mailman", "birds sing in the morning",
...         "it rained all day long"]
>>> baseline = ["the cat sat", "a dog barked", "birds sing", "it rained"]
>>> longer = ["the cat sat on a mat", "a dog barked at the man", "birds sing in the trees", "it rained all day"]
>>> res = compare(baseline=baseline, systems={"longer": longer}, references=refs, rouge_types=["rouge1"],
...               method="approximate_randomization")
>>> c = res.comparisons["longer"]["rouge1"]["fmeasure"]
>>> round(c.baseline, 4), round(c.system, 4), round(c.delta, 4)
(0.619, 0.8389, 0.2198)
>>> res.exact, c.p_value  # 4 examples: all 2**4 assignments enumerated; 2 of 16 are as extreme
(True, 0.125)
>>> res.to_dict()["longer"]["rouge1"]["fmeasure"]["p_value"]
0.125
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .aggregate import bootstrap_rows, mean_of, percentile_interval, resampled_means
from .config import DEFAULT_ROUGE_TYPES, RougeConfig
from .result import STATS, Comparison, ComparisonResult
from .scoring import Rouge, check_prediction, normalize_references

#: The tests: sacreBLEU's ``bs`` and ``ar``.
METHODS: Tuple[str, ...] = ("paired_bootstrap", "approximate_randomization")
#: Resamples (bootstrap) or trials (randomization) when ``n_resamples`` is None: sacreBLEU's defaults.
DEFAULT_RESAMPLES: Dict[str, int] = {"paired_bootstrap": 1000, "approximate_randomization": 10000}
#: Bootstrap resamples of the interval reported with approximate randomization (sacreBLEU's default).
DEFAULT_CI_RESAMPLES = 1000
#: Relative tolerance of "at least as extreme" (scipy.stats.permutation_test's: 100 ulps).
TIE_RTOL = 100 * 2.220446049250313e-16
#: Examples per scoring call (granularity of the progress callback).
SCORE_CHUNK = 2000

#: ``progress(stage, k, total)``: ``k`` more examples scored (stage ``"scoring"``) or resamples
#: drawn (stage ``"resampling"``), out of ``total`` for the stage.
Progress = Callable[[str, int, int], None]


def _check_int(arg: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{arg}: expected an integer >= {minimum}, got {value!r}")
    return value


def _check_settings(method: Any, n_resamples: Any, confidence_level: Any, seed: Any, ci_resamples: Any) -> int:
    if method not in METHODS:
        raise ValueError(f"method: invalid value {method!r}; allowed: {', '.join(map(repr, METHODS))}")
    if n_resamples is None:
        n_resamples = DEFAULT_RESAMPLES[method]
    _check_int("n_resamples", n_resamples, 1)
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, (int, float)) \
            or not 0.0 < confidence_level < 1.0:
        raise ValueError(f"confidence_level: expected a number in (0, 1), got {confidence_level!r}")
    _check_int("seed", seed, 0)
    _check_int("ci_resamples", ci_resamples, 1)
    return n_resamples


def _matrix(values: Mapping[str, Sequence[float]], types: Sequence[str], arg: str) -> Any:
    """``(n, 3 * types)`` float64 matrix of flat (P, R, F) values per type."""
    import numpy as np

    if list(values) != list(types):
        raise ValueError(f"{arg}: rouge types {list(values)} differ from the baseline's {list(types)}")
    cols = []
    for t in types:
        v = np.asarray(values[t], dtype=np.float64)
        if v.ndim != 1 or v.size % 3:
            raise ValueError(f"{arg}[{t!r}]: expected a flat sequence of (P, R, F) triples, got shape {v.shape}")
        cols.append(v.reshape(-1, 3))
    n = cols[0].shape[0]
    for t, c in zip(types, cols):
        if c.shape[0] != n:
            raise ValueError(f"{arg}[{t!r}]: {c.shape[0]} examples, but {arg}[{types[0]!r}] has {n}")
    return np.concatenate(cols, axis=1)


def _sign_rows(rng: Any, n: int) -> Callable[[int], Any]:
    """Index rows into the interleaved table ``[d_0, -d_0, d_1, -d_1, ...]``: per trial, one fair coin
    per example (``rng.integers(0, 2, size=n, dtype=bool)``; 1 = outputs swapped)."""
    import numpy as np

    base = 2 * np.arange(n, dtype=np.intp)

    def draw(b: int) -> Any:
        return base + np.stack([rng.integers(0, 2, size=n, dtype=bool) for _ in range(b)])

    return draw


def _all_sign_rows(n: int) -> Callable[[int], Any]:
    """Every assignment once: row ``r`` swaps example ``i`` when bit ``i`` of ``r`` is set."""
    import numpy as np

    base = 2 * np.arange(n, dtype=np.intp)
    bits = np.arange(n, dtype=np.int64)
    state = {"next": 0}

    def draw(b: int) -> Any:
        r = np.arange(state["next"], state["next"] + b, dtype=np.int64)
        state["next"] += b
        return base + ((r[:, None] >> bits) & 1)

    return draw


def paired_test(baseline: Mapping[str, Sequence[float]], systems: Mapping[str, Mapping[str, Sequence[float]]], *,
                method: str = "paired_bootstrap", n_resamples: Optional[int] = None,
                confidence_level: float = 0.95, seed: int = 0, ci_resamples: int = DEFAULT_CI_RESAMPLES,
                progress: Optional[Callable[[int, int], None]] = None
                ) -> Tuple[Dict[str, Dict[str, Dict[str, Comparison]]], bool]:
    """The paired test on per-example scores: ``baseline[type]`` and ``systems[name][type]`` are flat
    (P, R, F) sequences, one triple per example (a :class:`CorpusAccumulator`'s ``values``).

    Returns ``(comparisons, exact)``: name -> type -> statistic -> :class:`Comparison`, and whether
    approximate randomization enumerated every assignment. ``progress(k, total)`` is called as
    blocks of ``k`` resamples finish. O((R + ci_resamples) * n * 3 * types * systems) time; memory
    O(n * 3 * types * systems) plus a fixed block (:func:`resampled_means`).

    >>> base = {"rouge1": [0.5, 0.5, 0.5, 0.2, 0.4, 0.3]}         # two examples: (P, R, F) each
    >>> better = {"rouge1": [0.6, 0.6, 0.6, 0.5, 0.5, 0.5]}
    >>> comps, exact = paired_test(base, {"B": better}, method="approximate_randomization")
    >>> comps["B"]["rouge1"]["fmeasure"].p_value, exact       # both of 4 assignments with |delta| >= 0.15
    (0.5, True)
    """
    import numpy as np

    n_resamples = _check_settings(method, n_resamples, confidence_level, seed, ci_resamples)
    if not isinstance(systems, Mapping) or not systems:
        raise ValueError("systems: expected a non-empty mapping of name -> per-example values")
    types = list(baseline)
    if not types:
        raise ValueError("baseline: no rouge types")
    base = _matrix(baseline, types, "baseline")
    n = base.shape[0]
    if n == 0:
        raise ValueError("baseline: no examples; a test needs at least one")
    names = list(systems)
    mats = []
    for name in names:
        m = _matrix(systems[name], types, f"systems[{name!r}]")
        if m.shape[0] != n:
            raise ValueError(f"systems[{name!r}]: {m.shape[0]} examples, but the baseline has {n}")
        mats.append(m)
    width = base.shape[1]
    diffs = np.concatenate([m - base for m in mats], axis=1)  # (n, width * systems)

    # The observed statistic, summed exactly as every resample is (identity row): the identity
    # assignment of the randomization test reproduces it to the last bit.
    observed = resampled_means(diffs, lambda b: np.broadcast_to(np.arange(n), (b, n)), 1, n)[0]
    tol = TIE_RTOL * np.abs(observed)

    exact = False
    ar_rows = n_resamples
    if method == "approximate_randomization" and n < 63 and 2 ** n <= n_resamples:
        exact, ar_rows = True, 2 ** n
    total = ci_resamples + ar_rows if method == "approximate_randomization" else n_resamples

    def tick(k: int) -> None:
        if progress is not None:
            progress(k, total)

    boot_n = n_resamples if method == "paired_bootstrap" else ci_resamples
    boot = resampled_means(diffs, bootstrap_rows(np.random.default_rng(seed), n), boot_n, n, tick)
    ci_low, ci_high = percentile_interval(boot, confidence_level)
    if method == "paired_bootstrap":
        count = np.sum(np.abs(boot - observed) >= np.abs(observed) - tol, axis=0)
        p = (count + 1) / (n_resamples + 1)
    else:
        signed = np.empty((2 * n, diffs.shape[1]), dtype=np.float64)
        signed[0::2] = diffs
        signed[1::2] = -diffs
        draw = _all_sign_rows(n) if exact else _sign_rows(np.random.default_rng(seed), n)
        null = resampled_means(signed, draw, ar_rows, n, tick)
        count = np.sum(np.abs(null) >= np.abs(observed) - tol, axis=0)
        p = count / ar_rows if exact else (count + 1) / (ar_rows + 1)

    base_means = [mean_of(base[:, j]) for j in range(width)]
    out: Dict[str, Dict[str, Dict[str, Comparison]]] = {}
    for s, (name, m) in enumerate(zip(names, mats)):
        per_type: Dict[str, Dict[str, Comparison]] = {}
        for k, t in enumerate(types):
            per_stat: Dict[str, Comparison] = {}
            for q, stat in enumerate(STATS):
                j = 3 * k + q
                col = s * width + j
                b, v = base_means[j], mean_of(m[:, j])
                per_stat[stat] = Comparison(b, v, v - b, float(ci_low[col]), float(ci_high[col]),
                                            float(min(1.0, p[col])))
            per_type[t] = per_stat
        out[name] = per_type
    return out, exact


def comparison_label(method: str, n_resamples: int, confidence_level: float, seed: int, ci_resamples: int,
                   exact: bool) -> str:
    """The ``test:...`` part of a comparison's signature (:func:`compare`'s, and a report's)."""
    ci = f"ci={confidence_level:g}"
    if method == "paired_bootstrap":
        return f"test:paired_bootstrap(n={n_resamples},{ci},seed={seed})"
    trials = "exact" if exact else f"n={n_resamples},seed={seed}"
    return f"test:approximate_randomization({trials},{ci}:bootstrap(n={ci_resamples},seed={seed}))"


def _validate_predictions(predictions: Any, arg: str, n: int) -> List[str]:
    if predictions is None or isinstance(predictions, (str, bytes)):
        got = "None" if predictions is None else f"a single {type(predictions).__name__}"
        raise TypeError(f"{arg}: expected a list of texts, got {got}")
    preds = list(predictions)
    if len(preds) != n:
        raise ValueError(f"{arg}: {len(preds)} predictions, but references has {n} examples")
    return [check_prediction(p, i, arg) for i, p in enumerate(preds)]


def compare(*, baseline: Sequence[str], systems: Mapping[str, Sequence[str]], references: Sequence[Any],
            method: str = "paired_bootstrap", n_resamples: Optional[int] = None, confidence_level: float = 0.95,
            seed: int = 0, ci_resamples: int = DEFAULT_CI_RESAMPLES,
            rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, baseline_name: str = "baseline",
            config: Optional[RougeConfig] = None, backend: Optional[str] = None, num_threads: Optional[int] = None,
            progress: Optional[Progress] = None, **options: Any) -> ComparisonResult:
    """Compare each system with the baseline on the same references, per rouge type and statistic.

    Args:
        baseline: the baseline's predictions, aligned with ``references``.
        systems: name -> predictions (several systems in one call; the baseline is scored once).
        references: ``references[i]`` is a string or a list of strings.
        method: ``paired_bootstrap`` or ``approximate_randomization`` (see the module docstring).
        n_resamples: bootstrap resamples or randomization trials (default: 1000 or 10000).
        confidence_level: level of the interval of each difference.
        seed: seed of every draw (``numpy.random.default_rng(seed)``).
        ci_resamples: bootstrap resamples of the interval under approximate randomization.
        rouge_types, config, backend, num_threads, options: the scoring settings, as for
            :class:`rouge_metric.Rouge` (``options`` are :class:`RougeConfig` fields).
        progress: ``progress(stage, k, total)``, see :data:`Progress`.

    Returns a :class:`ComparisonResult`; ``to_dict()`` maps system -> type -> statistic ->
    ``{"baseline", "system", "delta", "ci_low", "ci_high", "p_value"}``. No correction for multiple
    comparisons is applied (docs/significance.md says what to do).
    """
    n_resamples = _check_settings(method, n_resamples, confidence_level, seed, ci_resamples)
    rouge = Rouge(rouge_types, config=config, backend=backend, num_threads=num_threads, **options)
    if rouge.config.aggregation != "mean":
        raise ValueError(f"aggregation: compare reports exact means and tests their differences; got "
                         f"{rouge.config.aggregation!r}, leave it unset")
    if not isinstance(systems, Mapping):
        raise TypeError(f"systems: expected a mapping of name -> predictions, got {type(systems).__name__}")
    if not systems:
        raise ValueError("systems: empty; give at least one system to compare with the baseline")
    for name in systems:
        if not isinstance(name, str) or not name:
            raise TypeError(f"systems: names must be non-empty strings, got {name!r}")
    if references is None or isinstance(references, (str, bytes)):
        raise TypeError("references: expected a list (one entry per example)")
    refs = [normalize_references(r, i) for i, r in enumerate(references)]
    n = len(refs)
    if n == 0:
        raise ValueError("references: no examples; a test needs at least one")
    runs = [("baseline", _validate_predictions(baseline, "baseline", n))]
    runs += [(name, _validate_predictions(preds, f"systems[{name!r}]", n)) for name, preds in systems.items()]

    values = []
    total = n * len(runs)
    for _, preds in runs:
        acc = rouge.accumulator(keep_values=True)
        step = SCORE_CHUNK if progress is not None else n
        for a in range(0, n, step):
            rouge.add_to(acc, predictions=preds[a:a + step], references=refs[a:a + step])
            if progress is not None:
                progress("scoring", min(step, n - a), total)
        values.append(acc.values)

    tick = (lambda k, tot: progress("resampling", k, tot)) if progress is not None else None  # type: ignore[misc]
    comps, exact = paired_test(values[0], {name: v for (name, _), v in zip(runs[1:], values[1:])},  # type: ignore[arg-type]
                               method=method, n_resamples=n_resamples, confidence_level=confidence_level,
                               seed=seed, ci_resamples=ci_resamples, progress=tick)
    sig = rouge.signature() + "|" + comparison_label(method, n_resamples, confidence_level, seed, ci_resamples, exact)
    return ComparisonResult(comparisons=comps, n=n, method=method, n_resamples=n_resamples,
                            confidence_level=float(confidence_level), seed=seed, signature=sig, exact=exact,
                            baseline_name=baseline_name)
