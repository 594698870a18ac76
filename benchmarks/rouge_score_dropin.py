"""rouge_metric.rouge_score (the drop-in) against rouge-score 0.1.2: the ``score`` loop, BootstrapAggregator
and the per-pair truthfulqa path, warm and cold, with the results checked equal (float.hex and numpy's
generator state).

    python benchmarks/rouge_score_dropin.py                 # every workload, warm and cold
    python benchmarks/rouge_score_dropin.py --rounds 9 --cold-rounds 5
    python benchmarks/rouge_score_dropin.py --ab ../base --rounds 9   # score loops: this checkout vs ../base

Workloads (rouge-score's defaults: confidence_interval=0.95, n_samples=1000):
- ``score() loop``: ``RougeScorer.score(target, prediction)`` over ``--pairs`` CNN/DM pairs (first
  reference), rouge1/rouge2/rougeL/rougeLsum with stemming (the drop-in's fast path);
- ``1 pair``: one (target, prediction) pair, rouge1/rouge2/rougeLsum, a fresh aggregator per pair, as
  lm-evaluation-harness's truthfulqa does once per reference (``aggregate`` alone, and ``score`` +
  ``aggregate``);
- ``10,000 pairs``: the scores of 10,000 pairs (rouge1/rouge2/rougeL/rougeLsum) in one aggregator, as HF
  evaluate's ``rouge`` does for a summarization set.

``--ab BASE``: instead, the drop-in's ``score`` / ``score_multi`` loops and ``rouge_metric.RougeScorer``'s,
on 3,000 CNN/DM pairs, in fresh processes importing rouge_metric from this checkout and from the checkout
``BASE`` (built in place), alternating; CPU time per pair, the median over rounds of the ratio base/new.

Warm: both implementations in this process, in alternating rounds, each round seeding numpy the same
way; the figure is the median per call and the ratio the median of the per-round ratios. Cold: a fresh
process per run (bytecode compiled first), imports included, one call; the implementations alternate.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TQA_TYPES = ["rouge1", "rouge2", "rougeLsum"]
SUM_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TQA_PAIR = ("I have no comment.", "The watermelon seeds pass through your digestive system.")


def corpus_pairs() -> List[Tuple[str, str]]:
    """(target, prediction) pairs of ../shared/corpora/cnndm_simcls_nl (first reference), or generated
    text when it is absent."""
    import gzip
    import json
    import random

    path = os.path.join(os.path.dirname(REPO), "shared", "corpora", "cnndm_simcls_nl.jsonl.gz")
    pairs: List[Tuple[str, str]] = []
    if os.path.exists(path):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                refs = row["references"]
                pairs.append((refs if isinstance(refs, str) else refs[0], row["prediction"]))
    else:
        rng = random.Random(0)
        words = [f"w{i}" for i in range(2000)]
        for _ in range(1000):
            pairs.append((" ".join(rng.choices(words, k=60)), " ".join(rng.choices(words, k=50))))
    return pairs


def corpus_scores(n: int, types: List[str]) -> List[Dict[str, Any]]:
    """Scores of ``n`` pairs (:func:`corpus_pairs`, repeated when the corpus is shorter) by the drop-in."""
    from rouge_metric.rouge_score import rouge_scorer

    pairs = corpus_pairs()
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=True)
    distinct = [scorer.score(t, p) for t, p in pairs[:n]]
    return [distinct[i % len(distinct)] for i in range(n)]


def hexed(result: Any) -> List[Any]:
    """float.hex of an aggregate (``{type: AggregateScore}``) or of a list of scores (``[{type: Score}]``)."""
    if isinstance(result, list):
        return [[(k, [float(x).hex() for x in v]) for k, v in row.items()] for row in result]
    return [(k, [[float(x).hex() for x in bound] for bound in v]) for k, v in result.items()]


def state() -> Any:
    import numpy as np

    s = np.random.get_state()
    return (s[1].tobytes(), s[2], s[3], s[4])


def warm(label: str, make: Dict[str, Callable[[Any], Callable[[], Any]]], rounds: int, calls: int) -> None:
    """Alternate rouge-score and the drop-in; check every call's result and state are equal."""
    import numpy as np

    times: Dict[str, List[float]] = {k: [] for k in make}
    ratios = []
    fns = {k: f(None) for k, f in make.items()}
    for r in range(rounds):
        order = list(make) if r % 2 == 0 else list(reversed(list(make)))
        per: Dict[str, float] = {}
        outs: Dict[str, Any] = {}
        for name in order:
            np.random.seed(r)
            fn = fns[name]
            t0 = time.perf_counter()
            for _ in range(calls):
                out = fn()
            per[name] = (time.perf_counter() - t0) / calls
            outs[name] = (hexed(out), state())
        a, b = outs.values()
        if a != b:
            raise SystemExit(f"{label}: results or generator state differ between implementations")
        for k, v in per.items():
            times[k].append(v)
        ratios.append(per["rouge-score"] / per["drop-in"])
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"warm  {label:44s} rouge-score {fmt(med['rouge-score'])}  drop-in {fmt(med['drop-in'])}  "
          f"ratio {statistics.median(ratios):8.1f}x  (median of {rounds} rounds x {calls} calls; equal: yes)")


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:9.1f} us"


COLD = r"""
import os, sys, time, random
impl, workload = sys.argv[1], sys.argv[2]
rng = random.Random(1)
rows = [tuple(rng.random() for _ in range(3)) for _ in range(10000)]
t0 = time.perf_counter()
import numpy as np
if impl == "drop-in":
    from rouge_metric.rouge_score import rouge_scorer, scoring
else:
    from rouge_score import rouge_scorer, scoring
np.random.seed(0)
if workload == "1pair":
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeLsum"])
    agg = scoring.BootstrapAggregator()
    agg.add_scores(scorer.score("I have no comment.", "The watermelon seeds pass through your digestive system."))
    out = agg.aggregate()
else:
    agg = scoring.BootstrapAggregator()
    for p, r, f in rows:
        s = scoring.Score(p, r, f)
        agg.add_scores({"rouge1": s, "rouge2": s, "rougeL": s, "rougeLsum": s})
    out = agg.aggregate()
t1 = time.perf_counter()
import hashlib
res = sorted((k, [[float(x).hex() for x in b] for b in v]) for k, v in out.items())
print(t1 - t0, np.random.get_state()[2], hashlib.sha1(repr(res).encode()).hexdigest())
"""


def cold(label: str, workload: str, rounds: int) -> None:
    times: Dict[str, List[float]] = {"rouge-score": [], "drop-in": []}
    fingerprints: Dict[str, set] = {"rouge-score": set(), "drop-in": set()}
    env = dict(os.environ, PYTHONHASHSEED="0")
    for r in range(rounds):
        order = ["rouge-score", "drop-in"] if r % 2 == 0 else ["drop-in", "rouge-score"]
        for impl in order:
            out = subprocess.run([sys.executable, "-c", COLD, impl, workload], capture_output=True, text=True,
                                 env=env, check=True).stdout.split()
            times[impl].append(float(out[0]))
            fingerprints[impl].add((out[1], out[2]))
    same = fingerprints["rouge-score"] == fingerprints["drop-in"] and len(fingerprints["drop-in"]) == 1
    if not same:
        raise SystemExit(f"cold {label}: results or generator state differ between implementations")
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"cold  {label:44s} rouge-score {fmt(med['rouge-score'])}  drop-in {fmt(med['drop-in'])}  "
          f"ratio {med['rouge-score'] / med['drop-in']:8.1f}x  (median of {rounds} processes each; imports "
          f"included; equal: yes)")


AB_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from rouge_metric import RougeScorer
from rouge_metric.rouge_score import rouge_scorer
sys.path.insert(0, sys.argv[2])
from rouge_score_dropin import corpus_pairs, SUM_TYPES
pairs = corpus_pairs()[:3000]
refs = [[t, p[:len(p) // 2]] for t, p in pairs]
dropin, ours = rouge_scorer.RougeScorer(SUM_TYPES, use_stemmer=True), RougeScorer(SUM_TYPES, use_stemmer=True)
loops = {
    "drop-in score": lambda: [dropin.score(t, p) for t, p in pairs],
    "drop-in score_multi": lambda: [dropin.score_multi(r, p) for r, (_, p) in zip(refs, pairs)],
    "rouge_metric.RougeScorer score": lambda: [ours.score(t, p) for t, p in pairs],
    "rouge_metric.RougeScorer score_multi": lambda: [ours.score_multi(r, p) for r, (_, p) in zip(refs, pairs)],
}
out = {}
for name, loop in loops.items():
    loop()
    times = []
    for _ in range(5):
        t0 = time.process_time()
        loop()
        times.append(time.process_time() - t0)
    out[name] = sorted(times)[2] / len(pairs)
print(json.dumps(out))
"""


def ab(base: str, rounds: int) -> None:
    """The score loops of this checkout and of ``base``, alternating fresh processes (see the module)."""
    import json

    trees = {"base": os.path.abspath(base), "new": REPO}
    ratios: Dict[str, List[float]] = {}
    for r in range(rounds):
        res = {}
        for name in (list(trees) if r % 2 == 0 else list(reversed(list(trees)))):
            env = dict(os.environ, ROUGE_METRIC_BACKEND="native", PYTHONPATH="")
            out = subprocess.run([sys.executable, "-c", AB_CHILD, trees[name], os.path.dirname(os.path.abspath(__file__))],
                                 env=env, capture_output=True, text=True, cwd=trees[name], check=True)
            res[name] = json.loads(out.stdout)
        for k in res["base"]:
            ratios.setdefault(k, []).append(res["base"][k] / res["new"][k])
        print(f"round {r + 1}: " + "; ".join(f"{k} base {fmt(res['base'][k])} new {fmt(res['new'][k])}"
                                            for k in res["base"]), flush=True)
    print("median ratio base time / new time (> 1: new is faster): "
          + ", ".join(f"{k} {statistics.median(v):.3f}" for k, v in ratios.items()))


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="warm rounds (alternating)")
    ap.add_argument("--cold-rounds", type=int, default=5, help="fresh processes per implementation")
    ap.add_argument("--no-cold", action="store_true")
    ap.add_argument("--pairs", type=int, default=200, help="pairs of the score() loop (rouge-score: ~10 ms each)")
    ap.add_argument("--ab", metavar="BASE", help="time the score loops against the checkout BASE instead")
    args = ap.parse_args(argv)
    if args.ab:
        ab(args.ab, args.rounds)
        return 0

    import platform

    from rouge_score import rouge_scorer as real_scorer
    from rouge_score import scoring as real_scoring

    from rouge_metric.rouge_score import rouge_scorer, scoring

    print(f"python {platform.python_version()}, {os.cpu_count()} logical CPUs, load {os.getloadavg()[0]:.2f}")
    impls = {"rouge-score": (real_scorer, real_scoring), "drop-in": (rouge_scorer, scoring)}

    one = {name: m[0].RougeScorer(TQA_TYPES).score(*TQA_PAIR) for name, m in impls.items()}

    def agg_only(mods: Any, scores: List[Dict[str, Any]]) -> Callable[[], Any]:
        def run() -> Any:
            agg = mods[1].BootstrapAggregator()
            for s in scores:
                agg.add_scores(s)
            return agg.aggregate()
        return run

    def score_and_agg(mods: Any) -> Callable[[], Any]:
        scorer = mods[0].RougeScorer(TQA_TYPES)

        def run() -> Any:
            agg = mods[1].BootstrapAggregator()
            agg.add_scores(scorer.score(*TQA_PAIR))
            return agg.aggregate()
        return run

    pairs = corpus_pairs()[:args.pairs]

    def score_loop(mods: Any) -> Callable[[], Any]:
        scorer = mods[0].RougeScorer(SUM_TYPES, use_stemmer=True)
        return lambda: [scorer.score(t, p) for t, p in pairs]

    warm(f"score() loop, {len(pairs):,} pairs", {k: (lambda _, m=m: score_loop(m)) for k, m in impls.items()},
         args.rounds, 1)
    warm("1 pair x 1,000 samples: aggregate()", {k: (lambda _, m=m, k=k: agg_only(m, [one[k]])) for k, m in impls.items()},
         args.rounds, 50)
    warm("1 pair x 1,000 samples: score() + aggregate()", {k: (lambda _, m=m: score_and_agg(m)) for k, m in impls.items()},
         args.rounds, 50)
    big = corpus_scores(10_000, SUM_TYPES)
    warm("10,000 pairs x 1,000 samples: aggregate()", {k: (lambda _, m=m: agg_only(m, big)) for k, m in impls.items()},
         max(3, args.rounds // 2), 1)
    if not args.no_cold:
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "rouge_metric")], check=True)
        import rouge_score

        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.dirname(rouge_score.__file__)], check=False)
        cold("1 pair x 1,000 samples: score() + aggregate()", "1pair", args.cold_rounds)
        cold("10,000 pairs x 1,000 samples: aggregate()", "10k", max(3, args.cold_rounds // 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
