"""Each harness's own ROUGE path against its recipe in rouge_metric.harnesses, on the harness's workload
shape: same numbers asserted, wall time cold and warm.

    pip install -e ".[bench]" lm-eval lighteval rouge==1.0.1 jieba fuzzywuzzy
    python benchmarks/harness_bench.py                       # every workload, 3 rounds
    python benchmarks/harness_bench.py --only truthfulqa --rounds 5
    python benchmarks/harness_bench.py --effects              # what two harness choices do to the number

Workloads (built from ../shared/corpora, no download):

- ``truthfulqa``: 817 questions as lm-eval's ``truthfulqa_gen`` sees them: a one-to-three-sentence
  completion, 1-5 correct answers (plus "I have no comment.") and 2-6 incorrect ones of 5-20 words,
  processed by the task's ``process_docs_gen``. Harness: ``tasks/truthfulqa/utils.py::process_results_gen``
  per question, its BLEU replaced by 0 (timed: ROUGE only; a fresh ``BootstrapAggregator`` per answer).
- ``evaluate``: 10,000 cnndm_simcls_nl pairs, ``rouge`` with the aggregator, module seed 0. Harness:
  ``evaluate.load(<the Hub rouge script>, seed=0).compute(...)`` (the script re-created offline in
  tests/hub_rouge/rouge.py; load, Arrow round trip and rouge-score included).
- ``lighteval``: ``rouge_t5`` on 10,000 cnndm_simcls_nl samples (one prediction, one gold). Harness:
  ``Metrics.rouge_t5`` ``sample_level_fn.compute`` per sample, then ``np.mean``.
- ``longbench``: 100 longbench_govreport pairs through ``tasks/longbench/metrics.py::get_rouge_score``.
- ``torchmetrics``: ``ROUGEScore(rouge_keys=(rouge1, rouge2, rougeL))`` on 2,000 cnndm_simcls_nl pairs
  with two targets each (the reference and another summary), ``accumulate="best"``.

``--effects`` prints, instead of timings, the figures docs/harnesses.md gives for two choices: the
stemmer's effect on rouge1/2/L F (points, x100) on 10,000 pairs of cnndm_simcls_nl and xsum_brio, and
how far evaluate's bootstrap mid (``evaluate_rouge``, module seeds 0, 1, 2) is from the exact mean on
10,000 cnndm_simcls_nl pairs. A few seconds.

Warm: in one process, after the harness's imports and one call of the recipe, ``--rounds`` rounds
alternating which side runs first; median seconds per side and the median of per-round ratios. Cold: a
fresh process per side (``--cold-rounds``, alternating order; bytecode compiled first, as an installed
package has it), imports + the first call, medians. Every round asserts the recipe's numbers equal
the harness's (exit 1 otherwise).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPORA = os.path.join(os.path.dirname(REPO), "shared", "corpora")
WORKLOADS = ("truthfulqa", "evaluate", "lighteval", "longbench", "torchmetrics")


def _rows(name: str, n: int) -> List[Dict[str, Any]]:
    out = []
    with gzip.open(os.path.join(CORPORA, name + ".jsonl.gz"), "rt", encoding="utf-8") as fh:
        for line in fh:
            out.append(json.loads(line))
            if len(out) >= n:
                break
    return out


def truthfulqa_docs(n: int = 817, seed: int = 0) -> List[Tuple[str, List[str], List[str]]]:
    """(completion, correct answers, incorrect answers) per question, after the task's process_docs_gen."""
    from rouge_metric.harnesses import truthfulqa_process_doc

    rnd = random.Random(seed)
    words = [w for r in _rows("xsum_brio", 4000) for w in r["references"][0].split()]
    preds = [r["prediction"] for r in _rows("xsum_halluc", 2000)]

    def answer() -> str:
        k = rnd.randint(5, 20)
        i = rnd.randrange(len(words) - k)
        return " ".join(words[i:i + k])

    docs = []
    for q in range(n):
        completion = " . ".join(preds[(q * 3 + j) % len(preds)] for j in range(rnd.randint(1, 3)))
        correct, incorrect = truthfulqa_process_doc([answer() for _ in range(rnd.randint(1, 5))],
                                                    [answer() for _ in range(rnd.randint(2, 6))])
        docs.append((completion, correct, incorrect))
    return docs


def build(workload: str) -> Tuple[Callable[[], Any], Callable[[], Any], Callable[[Any, Any], bool], int]:
    """(harness call, recipe call, equality check, examples) of one workload; imports happen in the calls."""
    if workload == "truthfulqa":
        docs = truthfulqa_docs()

        def harness():
            from lm_eval.tasks.truthfulqa import utils

            utils.bleu = lambda refs, preds: 0.0
            rows = []
            for c, t, f in docs:
                res = utils.process_results_gen({"correct_answers": t, "incorrect_answers": f}, [c])
                rows.append({k: v for k, v in res.items() if k.startswith("rouge")})
            return {k: sum(r[k] for r in rows) / len(rows) for k in rows[0]}

        def ours():
            from rouge_metric.harnesses import truthfulqa_gen

            return truthfulqa_gen([d[0] for d in docs], [d[1] for d in docs], [d[2] for d in docs]).scores

        return harness, ours, lambda a, b: a == b, len(docs)
    if workload in ("evaluate", "lighteval"):
        rows = _rows("cnndm_simcls_nl", 10000)
        P = [r["prediction"] for r in rows]
        R = [r["references"][0] for r in rows]
        if workload == "evaluate":
            def harness():
                import evaluate

                script = os.path.join(REPO, "tests", "hub_rouge", "rouge.py")
                out = evaluate.load(script, seed=0, keep_in_memory=True).compute(predictions=P, references=R)
                return {k: float(v) for k, v in out.items()}

            def ours():
                from rouge_metric.harnesses import evaluate_rouge

                return evaluate_rouge(P, R, seed=0).scores

            return harness, ours, lambda a, b: a == b, len(P)

        def harness():
            import numpy as np
            from lighteval.metrics.metrics import Metrics
            from lighteval.models.model_output import ModelResponse
            from lighteval.tasks.requests import Doc

            m = Metrics.rouge_t5.value
            per = [m.sample_level_fn.compute(doc=Doc(query="", choices=[r], gold_index=0),
                                             model_response=ModelResponse(text=[p])) for p, r in zip(P, R)]
            return {t: m.corpus_level_fn[t]([s[t] for s in per]) for t in m.corpus_level_fn}

        def ours():
            from rouge_metric.harnesses import lighteval_rouge_t5

            return lighteval_rouge_t5([[p] for p in P], [[r] for r in R]).scores

        return harness, ours, lambda a, b: a == b, len(P)
    if workload == "longbench":
        rows = _rows("longbench_govreport", 100)
        P = [r["prediction"] for r in rows]
        A = [r["references"] for r in rows]

        def harness():
            from lm_eval.tasks.longbench.metrics import get_rouge_score

            per = [get_rouge_score({"answers": a}, [p])["rouge_score"] for p, a in zip(P, A)]
            return {"rouge_score": sum(per) / len(per)}

        def ours():
            from rouge_metric.harnesses import longbench_rouge

            return longbench_rouge(P, A).scores

        return harness, ours, lambda a, b: a == b, len(P)
    if workload == "torchmetrics":
        rows = _rows("cnndm_simcls_nl", 2000)
        P = [r["prediction"] for r in rows]
        T = [[r["references"][0], rows[(i + 1) % len(rows)]["prediction"]] for i, r in enumerate(rows)]
        keys = ("rouge1", "rouge2", "rougeL")

        def harness():
            from torchmetrics.text.rouge import ROUGEScore

            m = ROUGEScore(rouge_keys=keys, accumulate="best")
            m.update(P, T)
            return {k: float(v) for k, v in m.compute().items()}

        def ours():
            from rouge_metric.harnesses import torchmetrics_rouge

            return torchmetrics_rouge(P, T, rouge_keys=keys).scores

        return harness, ours, lambda a, b: a == b, len(P)
    raise ValueError(f"workload: {workload!r}; allowed: {', '.join(WORKLOADS)}")


COLD_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[3])
import harness_bench
h, o, _, n = harness_bench.build(sys.argv[1])
call = h if sys.argv[2] == "harness" else o
t0 = time.perf_counter()
out = call()
t1 = time.perf_counter()
print(json.dumps({"cold": t1 - t0, "scores": out}))
"""


def cold(workload: str, side: str) -> Dict[str, Any]:
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1", HF_DATASETS_OFFLINE="1", OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", COLD_CHILD, workload, side, os.path.dirname(os.path.abspath(__file__))],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{workload} {side}: cold run failed\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _import(*names: str) -> Callable[[], None]:
    import importlib

    return lambda: [importlib.import_module(n) for n in names] and None


PREPARE = {
    "truthfulqa": _import("lm_eval.tasks.truthfulqa.utils", "rouge_score.rouge_scorer"),
    "evaluate": _import("evaluate", "rouge_score.rouge_scorer", "rouge_score.scoring", "numpy"),
    "lighteval": _import("lighteval.metrics.metrics", "lighteval.models.model_output", "lighteval.tasks.requests",
                         "rouge_score.rouge_scorer"),
    "longbench": _import("lm_eval.tasks.longbench.metrics"),
    "torchmetrics": _import("torchmetrics.text.rouge"),
}


def effects() -> None:
    """The stemmer's effect and the bootstrap mid's distance from the mean (see the module docstring)."""
    import rouge_metric
    from rouge_metric.harnesses import evaluate_rouge

    types = ["rouge1", "rouge2", "rougeL"]
    for name in ("cnndm_simcls_nl", "xsum_brio"):
        rows = _rows(name, 10000)
        P = [r["prediction"] for r in rows]
        R = [r["references"][0] for r in rows]
        stem = rouge_metric.compute(predictions=P, references=R, rouge_types=types, use_stemmer=True)
        plain = rouge_metric.compute(predictions=P, references=R, rouge_types=types)
        delta = {t: round(100 * (stem.scores[t].fmeasure - plain.scores[t].fmeasure), 2) for t in types}
        print(f"stemmer, {name} ({len(P):,} pairs): F difference in points {delta}")
    rows = _rows("cnndm_simcls_nl", 10000)
    P = [r["prediction"] for r in rows]
    R = [r["references"][0] for r in rows]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    exact = rouge_metric.compute(predictions=P, references=R, rouge_types=types)
    for seed in (0, 1, 2):
        mid = evaluate_rouge(P, R, seed=seed).scores
        gap = {t: f"{mid[t] - exact.scores[t].fmeasure:+.1e}" for t in types}
        print(f"evaluate bootstrap mid - exact mean, cnndm_simcls_nl ({len(P):,} pairs), seed {seed}: {gap}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads (default: all)")
    ap.add_argument("--rounds", type=int, default=3, help="warm rounds (default: %(default)s)")
    ap.add_argument("--cold-rounds", type=int, default=1, help="fresh-process rounds per side (default: %(default)s)")
    ap.add_argument("--cold-sides", default="harness,recipe",
                    help="sides timed cold (truthfulqa's harness pass takes minutes: --cold-sides recipe)")
    ap.add_argument("--effects", action="store_true",
                    help="print the effect of the stemmer and of the bootstrap mid instead of timing")
    args = ap.parse_args(argv)
    if args.effects:
        effects()
        return 0
    # bytecode as an installed package has it (this machine sets PYTHONDONTWRITEBYTECODE)
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "rouge_metric")], check=True)
    import numpy
    import rouge_metric

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, numpy {numpy.__version__}, rouge_metric {rouge_metric.__version__} "
          f"backend {rouge_metric.active_backend()}")
    print("| workload | examples | harness warm s | recipe warm s | warm speed-up | harness cold s | recipe cold s "
          "| cold speed-up | same numbers |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    failed = False
    for w in args.only.split(","):
        harness, ours, same, n = build(w)
        PREPARE[w]()  # the harness's imports (its first call would repeat a whole pass: slow harnesses)
        ours()  # imports and caches: the warm rounds time the calls only
        th, to, ratios = [], [], []
        for rnd in range(args.rounds):
            order = [("h", harness), ("o", ours)] if rnd % 2 == 0 else [("o", ours), ("h", harness)]
            t, res = {}, {}
            for side, fn in order:
                t0 = time.perf_counter()
                res[side] = fn()
                t[side] = time.perf_counter() - t0
            if not same(res["h"], res["o"]):
                print(f"{w}: round {rnd}: numbers differ\n  harness {res['h']}\n  recipe  {res['o']}")
                failed = True
            th.append(t["h"])
            to.append(t["o"])
            ratios.append(t["h"] / t["o"])
        ch = co = cratio = float("nan")
        if args.cold_rounds:
            chs, cos, crs = [], [], []
            wanted = args.cold_sides.split(",")
            for rnd in range(args.cold_rounds):
                sides = [s for s in (["harness", "recipe"] if rnd % 2 == 0 else ["recipe", "harness"]) if s in wanted]
                got = {s: cold(w, s) for s in sides}
                for s in sides:
                    if got[s]["scores"] != res["h"]:
                        print(f"{w}: cold round {rnd}: {s} numbers differ from the warm harness run")
                        failed = True
                if "harness" in got:
                    chs.append(got["harness"]["cold"])
                if "recipe" in got:
                    cos.append(got["recipe"]["cold"])
                if len(got) == 2:
                    crs.append(got["harness"]["cold"] / got["recipe"]["cold"])
            med = lambda xs: statistics.median(xs) if xs else float("nan")  # noqa: E731
            ch, co, cratio = med(chs), med(cos), med(crs)
        print(f"| {w} | {n:,} | {statistics.median(th):.2f} | {statistics.median(to):.3f} | "
              f"{statistics.median(ratios):.0f}x | {ch:.2f} | {co:.3f} | {cratio:.0f}x | "
              f"{'yes' if not failed else 'NO'} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
