"""A/B timing of two builds of rouge_metric in alternating rounds (separate processes).

    git worktree add ../base <revision> && (cd ../base && python setup.py build_ext --inplace)
    python benchmarks/ab.py --base ../base --new . --corpus ../shared/corpora/cnndm_simcls_nl.jsonl.gz

Each round runs one fresh process per build (base first in odd rounds, new first in even ones) that
imports rouge_metric from that checkout and times, on the same pairs (``--types``, default
rouge1/2/L/Lsum; stemming unless ``--no-stem``):
- ``cold``: the first ``Rouge.compute`` of the process on ``--threads`` threads (import excluded; the
  vocabulary is empty, or with ``--small-first`` holds the words of one earlier call on two toy pairs,
  as when a user tries the metric on an example before the corpus);
- ``compute``: ``Rouge.compute`` on ``--threads`` threads (default 1), warm (median of ``--reps`` calls);
- ``pair``: the per-pair ``RougeScorer.score`` loop, warm (on ``--pair-limit`` pairs).
It prints per-round times and the median over rounds of the per-round ratio base/new (> 1: new is
faster). Two builds loaded into one process would run at the speed of the first one loaded, and a
shared virtual CPU changes speed over seconds (docs/performance.md#how-to-measure), hence separate
processes and alternation.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import gzip, json, sys, time
    path, stem, reps, pair_limit, threads = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    types = sys.argv[6].split(",")
    if sys.argv[7] == "cpu":  # CPU time of the process: less sensitive to other processes on a loaded machine
        time.perf_counter = time.process_time
    rows = [json.loads(l) for l in gzip.open(path, "rt", encoding="utf-8")]
    P = [r["prediction"] for r in rows]
    R = [r["references"] for r in rows]
    from rouge_metric import Rouge, RougeScorer, active_backend
    assert active_backend() == "native"
    rouge = Rouge(types, use_stemmer=stem, num_threads=threads)
    if sys.argv[8] == "1":
        rouge.compute(predictions=["hello there", "general kenobi"], references=[["hello there"], ["general kenobi"]])
    t = time.perf_counter(); first = rouge.compute(predictions=P, references=R); cold = time.perf_counter() - t
    warm = []
    for _ in range(reps):
        t = time.perf_counter(); again = rouge.compute(predictions=P, references=R); warm.append(time.perf_counter() - t)
    assert again.scores == first.scores
    scorer = RougeScorer(types, use_stemmer=stem)
    Pp, Rp = P[:pair_limit], R[:pair_limit]
    for p, r in zip(Pp, Rp):
        scorer.score_multi(r, p)
    pair = []
    for _ in range(reps):
        t = time.perf_counter()
        for p, r in zip(Pp, Rp):
            scorer.score_multi(r, p)
        pair.append(time.perf_counter() - t)
    print(json.dumps({"n": len(P), "cold": cold, "compute": sorted(warm)[len(warm) // 2],
                      "pair": sorted(pair)[len(pair) // 2], "mean": [list(first.scores[t]) for t in types]}))
""")


def run(tree: str, args) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), ROUGE_METRIC_BACKEND="native", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, args.corpus, str(int(not args.no_stem)), str(args.reps),
                          str(args.pair_limit), str(args.threads), args.types, args.clock, str(int(args.small_first))], env=env, capture_output=True, text=True, cwd=os.path.abspath(tree))
    if out.returncode != 0:
        raise SystemExit(f"{tree}: {out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="checkout of the baseline (built in place)")
    ap.add_argument("--new", default=".", help="checkout of the candidate (built in place)")
    ap.add_argument("--corpus", required=True, help="JSONL(.gz) of {prediction, references}")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--pair-limit", type=int, default=3000)
    ap.add_argument("--no-stem", action="store_true")
    ap.add_argument("--threads", type=int, default=1, help="threads of the cold and warm compute calls")
    ap.add_argument("--types", default="rouge1,rouge2,rougeL,rougeLsum", help="comma-separated rouge types")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="wall time, or the process's CPU time (all its threads; steadier on a shared machine)")
    ap.add_argument("--small-first", action="store_true",
                    help="before the cold call, one call on two toy pairs (a vocabulary of a few words)")
    args = ap.parse_args()
    ratios = {"cold": [], "compute": [], "pair": []}
    for rnd in range(args.rounds):
        order = [("base", args.base), ("new", args.new)]
        if rnd % 2:
            order.reverse()
        res = {name: run(tree, args) for name, tree in order}
        if res["base"]["mean"] != res["new"]["mean"]:
            raise SystemExit(f"the builds disagree: {res['base']['mean']} vs {res['new']['mean']}")
        n = res["base"]["n"]
        line = []
        for k in ratios:
            ratios[k].append(res["base"][k] / res["new"][k])
            unit = n if k != "pair" else min(n, args.pair_limit)
            line.append(f"{k}: base {unit / res['base'][k]:,.0f} new {unit / res['new'][k]:,.0f} pairs/s")
        print(f"round {rnd + 1}: " + "; ".join(line), flush=True)
    print("median ratio base time / new time (> 1: new is faster): "
          + ", ".join(f"{k} {statistics.median(v):.3f} (range {min(v):.2f}-{max(v):.2f})" for k, v in ratios.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
