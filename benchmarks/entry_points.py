"""Every entry point against its own yardstick, in one run: the per-pair loop, the evaluate module, the cold call.

    python benchmarks/entry_points.py --rounds 5
    python benchmarks/entry_points.py --rounds 5 --only pair --corpora cnndm_simcls_nl

Five measurements, each in alternating rounds (the order reversed every other round), medians of
wall-clock and of CPU time:

- ``limit``: warm ``Rouge.compute`` on one thread (rouge1/2/L/Lsum, stemming) against the raw-text mode of
  the speed-limit reference's binary (``rouge_limit`` in ``--limit-data``, or ``--limit-binary``), on the
  limit's raw pairs of each corpus; in each round, the limit's median of its 3 repetitions and the median of
  3 of our calls. Ratio: limit time / our time (1 = the limit's speed). Set
  ``ROUGE_METRIC_SIMD=avx2`` (and pass a limit built without AVX-512) for the AVX2 comparison.

- ``pair``: the warm ``score(target, prediction)`` loop of :class:`rouge_metric.RougeScorer` and of the
  drop-in ``rouge_metric.rouge_score.rouge_scorer.RougeScorer`` (rouge1/2/L/Lsum, stemming), against the
  per-pair CPython floor ``rouge_limit_py`` of ``../shared/limit`` (its README builds it; ``--limit-data``,
  default ``$LIMIT_DATA`` or ``limit_data`` under the temp dir), on the limit's raw pairs of each corpus,
  in one process. Ratio: floor time / our time (1 = the floor's speed). Then the cost of one call alone:
  the same three on a six-word pair (CPU time per call, ``8 * --rounds`` alternating rounds).
- ``small``: warm ``Rouge.compute`` on one thread on the first 1, 8, 64 and 512 raw pairs of the first of
  ``--corpora`` (a call per training step or reward batch), against the per-pair floor's loop over the same
  pairs; CPU microseconds per call. Ratio: floor time / our time.
- ``evaluate``: one fresh process per round. It times ``import evaluate`` and ``evaluate.load`` of this
  checkout's module (reported, not in the ratios), the module's first ``compute`` on ``--corpus``, its warm
  ``compute`` and ``Rouge.compute`` with the same settings and threads (all cores, both). Ratios: warm /
  first (the first call's share of a warm one) and ``Rouge.compute`` / module ``compute``.
- ``cold``: ``benchmarks/bench.py --cold``'s fresh processes for ``compute`` (``--threads``) and
  rouge-score-rs's ``score`` loop; cold = imports + first call. Ratio: rouge-score-rs's cold / ours.

The package is byte-compiled first and the children run without ``PYTHONDONTWRITEBYTECODE``, as an
installation runs (one untimed evaluate process first compiles the module's copy in evaluate's cache).
``--checkout DIR`` measures another built checkout of rouge_metric (its package first on the path, its
evaluate module), for before/after figures.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import COLD_CHILD, machine  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
CORPORA = ["cnndm_simcls_nl", "xsum_brio", "longbench_govreport"]


def clocks() -> Tuple[float, float]:
    return time.perf_counter(), time.process_time()


def timed(fn: Callable[[], Any]) -> Tuple[float, float]:
    w, c = clocks()
    fn()
    w2, c2 = clocks()
    return w2 - w, c2 - c


def median_ratio(base: List[float], ours: List[float]) -> float:
    """Median over rounds of base / ours (> 1: ours is faster)."""
    return statistics.median(b / o for b, o in zip(base, ours))


# ------------------------------------------------------------------------------------ the pair loop
def raw_pairs(path: str) -> List[Tuple[str, str]]:
    """(reference, prediction) pairs of a prep.py raw_<corpus>.bin file."""
    with open(path, "rb") as fh:
        b = fh.read()
    (n,), off, out = struct.unpack_from("<I", b, 0), 4, []
    for _ in range(n):
        (lr,) = struct.unpack_from("<I", b, off)
        off += 4
        ref = b[off:off + lr].decode()
        off += lr
        (lp,) = struct.unpack_from("<I", b, off)
        off += 4
        pred = b[off:off + lp].decode()
        off += lp
        out.append((ref, pred))
    return out


def limit_corpora(args: argparse.Namespace) -> Iterator[Tuple[str, List[Tuple[str, str]]]]:
    """(corpus, raw pairs) of each of --corpora in --limit-data; a table row says which file is missing."""
    for corpus in args.corpora:
        path = os.path.join(args.limit_data, f"raw_{corpus}.bin")
        if not os.path.exists(path):
            print(f"| {corpus} | missing {path} |")
            continue
        yield corpus, raw_pairs(path)


def floor_score(args: argparse.Namespace, what: str) -> Optional[Callable[[str, str], Any]]:
    """The per-pair CPython floor's ``score(target, prediction)`` (``rouge_limit_py`` in ``--limit-data``),
    or None, with a line saying that measurement ``what`` is skipped, when it is not built."""
    pyext = os.path.join(args.limit_data, "pyext")
    if not os.path.isdir(pyext):
        print(f"{what}: skipped ({pyext} missing: build rouge_limit_py as ../shared/limit/README.md says)")
        return None
    if pyext not in sys.path:
        sys.path.insert(0, pyext)
    import rouge_limit_py

    return rouge_limit_py.Scorer(os.path.join(args.limit_data, "stemmap.txt")).score


def cpu_rounds(fns: Dict[str, Callable[[], Any]], rounds: int, calls: int) -> Dict[str, List[float]]:
    """CPU seconds per call of each of ``fns``: ``rounds`` alternating rounds (the order reversed every
    other round) of ``calls`` calls each, after one untimed call of each."""
    names = list(fns)
    for f in fns.values():
        f()
    cpu: Dict[str, List[float]] = {k: [] for k in fns}
    for rnd in range(rounds):
        for k in (names if rnd % 2 == 0 else names[::-1]):
            f = fns[k]
            c = time.process_time()
            for _ in range(calls):
                f()
            cpu[k].append((time.process_time() - c) / calls)
    return cpu


def pair_loops(args: argparse.Namespace) -> None:
    floor = floor_score(args, "pair")
    if floor is None:
        return
    from rouge_metric import RougeScorer
    from rouge_metric.rouge_score.rouge_scorer import RougeScorer as DropIn

    loops = {"floor": floor, "RougeScorer": RougeScorer(TYPES, use_stemmer=True).score,
             "drop-in": DropIn(TYPES, use_stemmer=True).score}
    print(f"\npair: warm score(target, prediction) loops, {args.rounds} alternating rounds, one process; "
          "ratio = floor time / ours (median of per-round ratios)")
    print("| corpus | pairs | floor, pairs/s | RougeScorer, pairs/s | of floor (wall, CPU) | drop-in, pairs/s "
          "| of floor (wall, CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for corpus, pairs in limit_corpora(args):
        for f in loops.values():  # warm: stem caches filled
            [f(r, p) for r, p in pairs]
        wall: Dict[str, List[float]] = {k: [] for k in loops}
        cpu: Dict[str, List[float]] = {k: [] for k in loops}
        names = list(loops)
        for rnd in range(args.rounds):
            for k in (names if rnd % 2 == 0 else names[::-1]):
                f = loops[k]
                gc.collect()
                w, c = timed(lambda: [f(r, p) for r, p in pairs])
                wall[k].append(w)
                cpu[k].append(c)
        n = len(pairs)
        mw = {k: statistics.median(v) for k, v in wall.items()}
        cells = [f"{n / mw['floor']:,.0f}"]
        for k in ("RougeScorer", "drop-in"):
            cells += [f"{n / mw[k]:,.0f}",
                      f"{median_ratio(wall['floor'], wall[k]):.3f}, {median_ratio(cpu['floor'], cpu[k]):.3f}"]
        print(f"| {corpus} | {n:,} | " + " | ".join(cells) + " |", flush=True)
    call_cost(loops, args.rounds * 8)


def small_calls(args: argparse.Namespace, sizes: Sequence[int] = (1, 8, 64, 512)) -> None:
    """Warm ``Rouge.compute`` (1 thread) on the first 1, 8, 64 and 512 raw pairs of the first corpus against
    the per-pair floor's loop over the same pairs: what a call per training step or reward batch costs."""
    floor = floor_score(args, "small")
    if floor is None:
        return
    from rouge_metric import Rouge

    rouge = Rouge(TYPES, use_stemmer=True, num_threads=1)
    corpus, pairs = next(iter(limit_corpora(args)))
    print(f"\nsmall: warm Rouge.compute on 1 thread on the first n pairs of {corpus} against the per-pair floor's "
          f"loop over the same pairs; CPU microseconds per call, median of {args.rounds} alternating rounds of "
          f"max(20, 2000 / n) calls; ratio = floor time / ours")
    print("| pairs | floor loop, us | compute, us | of the floor |")
    print("|---:|---:|---:|---:|")
    for n in sizes:
        some = pairs[:n]
        calls = max(20, 2000 // n)
        refs, preds = [r for r, _ in some], [p for _, p in some]
        cpu = cpu_rounds({"floor": lambda: [floor(r, p) for r, p in some],
                          "compute": lambda: rouge.compute(predictions=preds, references=refs)}, args.rounds, calls)
        us = {k: statistics.median(v) * 1e6 for k, v in cpu.items()}
        print(f"| {len(some)} | {us['floor']:,.1f} | {us['compute']:,.1f} | "
              f"{median_ratio(cpu['floor'], cpu['compute']):.2f} |", flush=True)


def limit_ns_per_pair(binary: str, data: str, corpus: str) -> float:
    """One run of the speed-limit reference's raw-text mode (3 repetitions): its median ns per pair."""
    out = subprocess.run([binary, "--data", data, "--reps", "3", "--modes", "raw", corpus],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        row = json.loads(line)
        if row.get("mode") == "raw":
            return float(row["median_ns_per_pair"])
    raise SystemExit(f"limit: no raw-mode timing for {corpus} in {binary}'s output: {out[-300:]}")


def compute_vs_limit(args: argparse.Namespace) -> None:
    binary = args.limit_binary or os.path.join(args.limit_data, "rouge_limit")
    if not os.path.exists(binary):
        print(f"limit: skipped ({binary} missing: build it as ../shared/limit/README.md says)")
        return
    import importlib

    import rouge_metric
    from rouge_metric import Rouge, core

    level = importlib.import_module("rouge_metric._native").simd_level() if core.native_available() else "none"

    print(f"\nlimit: warm Rouge.compute on 1 thread against the speed-limit reference's raw-text mode "
          f"({binary}), {args.rounds} alternating rounds, each side the median of 3 calls in a round; ratio = "
          f"limit time / ours (median of per-round ratios); native SIMD level: {level}; package: "
          f"{os.path.dirname(rouge_metric.__file__)}")
    print("| corpus | pairs | limit, pairs/s | compute, pairs/s | of the limit |")
    print("|---|---:|---:|---:|---:|")
    for corpus, pairs in limit_corpora(args):
        refs, preds = [r for r, _ in pairs], [p for _, p in pairs]
        rouge = Rouge(TYPES, use_stemmer=True, num_threads=1)
        rouge.compute(predictions=preds, references=refs)  # warm: the corpus's words in the vocabulary
        limit: List[float] = []
        ours: List[float] = []
        for rnd in range(args.rounds):
            for k in (("limit", "ours") if rnd % 2 == 0 else ("ours", "limit")):
                if k == "limit":
                    limit.append(limit_ns_per_pair(binary, args.limit_data, corpus) * 1e-9 * len(pairs))
                else:  # the median of 3 calls, as the limit reports the median of its 3 repetitions
                    gc.collect()
                    ours.append(statistics.median(
                        timed(lambda: rouge.compute(predictions=preds, references=refs))[0] for _ in range(3)))
        n = len(pairs)
        print(f"| {corpus} | {n:,} | {n / statistics.median(limit):,.0f} | {n / statistics.median(ours):,.0f} | "
              f"{median_ratio(limit, ours):.3f} |", flush=True)


#: A short pair (every token in the limit's stem table): the per-pair loop's cost is then mostly the call's.
SHORT_PAIR = ("the police said the man", "police said a man was")


def call_cost(loops: Dict[str, Callable[[str, str], Any]], rounds: int, calls: int = 20000) -> None:
    """CPU time per call of each loop on :data:`SHORT_PAIR`, alternating rounds of ``calls`` calls."""
    target, prediction = SHORT_PAIR
    cpu = cpu_rounds({k: (lambda f=f: f(target, prediction)) for k, f in loops.items()}, rounds, calls)
    ns = {k: statistics.median(v) * 1e9 for k, v in cpu.items()}
    print(f"\ncall: the six-word pair {SHORT_PAIR}, CPU ns per call, median of {rounds} alternating rounds of "
          f"{calls:,} calls; ratio = floor time / ours")
    print("| floor | RougeScorer | of floor | drop-in | of floor |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {ns['floor']:.0f} | {ns['RougeScorer']:.0f} | {median_ratio(cpu['floor'], cpu['RougeScorer']):.3f} "
          f"| {ns['drop-in']:.0f} | {median_ratio(cpu['floor'], cpu['drop-in']):.3f} |", flush=True)


# -------------------------------------------------------------------------------- the evaluate module
EVALUATE_CHILD = textwrap.dedent("""
    import gzip, json, sys, time
    path, module, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    opener = gzip.open if path.endswith(".gz") else open
    rows = [json.loads(l) for l in opener(path, "rt", encoding="utf-8")]
    P = [r["prediction"] for r in rows]
    R = [r["references"] for r in rows]
    def clocks():
        return time.perf_counter(), time.process_time()
    def timed(fn):
        w, c = clocks(); out = fn(); w2, c2 = clocks()
        return out, [w2 - w, c2 - c]
    _, imp = timed(lambda: __import__("evaluate"))
    import evaluate
    m, load = timed(lambda: evaluate.load(module))
    call = lambda: m.compute(predictions=P, references=R, use_stemmer=True)
    first_out, first = timed(call)
    warm = [timed(call)[1] for _ in range(reps)]
    from rouge_metric import Rouge
    rouge = Rouge(use_stemmer=True)  # all cores, as the module's
    rouge.compute(predictions=P, references=R)
    direct = [timed(lambda: rouge.compute(predictions=P, references=R))[1] for _ in range(reps)]
    assert first_out == timed(call)[0]
    med = lambda xs, i: sorted(x[i] for x in xs)[len(xs) // 2]
    print(json.dumps({"n": len(P), "import": imp, "load": load, "first": first,
                      "warm": [med(warm, 0), med(warm, 1)], "direct": [med(direct, 0), med(direct, 1)]}))
""")


def evaluate_module(args: argparse.Namespace, env: Dict[str, str], tmp: str) -> None:
    cmd = [sys.executable, "-c", EVALUATE_CHILD, args.corpus, os.path.join(args.checkout, "rouge_metric"), "3"]
    subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp)  # untimed: evaluate's copy compiled
    runs = []
    for _ in range(args.rounds):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp)
        if proc.returncode != 0:
            print(f"evaluate: failed\n{proc.stderr[-2000:]}")
            return
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    n = runs[0]["n"]

    def med(key: str, i: int) -> float:
        return statistics.median(r[key][i] for r in runs)

    def ratio(num: str, den: str, i: int) -> float:
        return statistics.median(r[num][i] / r[den][i] for r in runs)

    print(f"\nevaluate: {os.path.basename(args.corpus)} ({n:,} pairs, stemming, all cores), {args.rounds} fresh "
          "processes; seconds, medians (wall / CPU)")
    print("| import evaluate | evaluate.load | first compute | warm compute | Rouge.compute | warm / first "
          "(wall, CPU) | Rouge.compute / warm (wall, CPU) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    cell = lambda k: f"{med(k, 0):.3f} / {med(k, 1):.3f}"  # noqa: E731
    print(f"| {cell('import')} | {cell('load')} | {cell('first')} | {cell('warm')} | {cell('direct')} "
          f"| {ratio('warm', 'first', 0):.2f}, {ratio('warm', 'first', 1):.2f} "
          f"| {ratio('direct', 'warm', 0):.2f}, {ratio('direct', 'warm', 1):.2f} |", flush=True)


# -------------------------------------------------------------------------------------------- cold
def cold_calls(args: argparse.Namespace, env: Dict[str, str], tmp: str) -> None:
    import gzip

    opener = gzip.open if args.corpus.endswith(".gz") else open
    with opener(args.corpus, "rt", encoding="utf-8") as fh:
        n = sum(1 for _ in fh)
    entries = ["compute", "rouge-score-rs score"]
    runs: Dict[str, List[Dict[str, float]]] = {e: [] for e in entries}
    for rnd in range(args.rounds):
        for e in (entries if rnd % 2 == 0 else entries[::-1]):
            proc = subprocess.run([sys.executable, "-c", COLD_CHILD, e, args.corpus, "1", ",".join(TYPES),
                                   str(args.threads), "0"], capture_output=True, text=True, env=env, cwd=tmp)
            if proc.returncode != 0:
                print(f"cold: {e} failed\n{proc.stderr[-2000:]}")
                return
            runs[e].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    cold = {e: [r["import"] + r["first"] for r in rs] for e, rs in runs.items()}
    print(f"\ncold: {os.path.basename(args.corpus)} ({n:,} pairs, first reference, stemming), {args.rounds} "
          f"alternating rounds of fresh processes; compute on {args.threads} thread(s); seconds, medians")
    print("| entry point | import | first call | cold (import + first) | rouge-score-rs cold / ours |")
    print("|---|---:|---:|---:|---:|")
    for e in entries:
        m = lambda k: statistics.median(r[k] for r in runs[e])  # noqa: E731
        print(f"| {e} | {m('import'):.3f} | {m('first'):.3f} | {statistics.median(cold[e]):.3f} "
              f"| {median_ratio(cold['rouge-score-rs score'], cold[e]):.1f}x |", flush=True)


def main(argv: Sequence[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", choices=["limit", "pair", "small", "evaluate", "cold"], action="append",
                    help="run only these measurements (repeatable; default: all five)")
    ap.add_argument("--corpora", nargs="*", default=CORPORA, help="corpora of the limit and pair measurements")
    ap.add_argument("--limit-binary", help="the speed-limit reference's binary (default: rouge_limit in --limit-data; "
                    "a build without AVX-512 for an AVX2 comparison)")
    ap.add_argument("--limit-data", default=os.environ.get("LIMIT_DATA", os.path.join(tempfile.gettempdir(), "limit_data")))
    ap.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpora", "cnndm_simcls_nl.jsonl.gz"),
                    help="JSONL(.gz) of the evaluate and cold measurements")
    ap.add_argument("--threads", type=int, default=1, help="threads of the cold compute (and rouge-score-rs's)")
    ap.add_argument("--checkout", default=REPO, help="the built rouge_metric checkout to measure (default: this one)")
    args = ap.parse_args(argv)
    args.checkout = os.path.abspath(args.checkout)
    only = set(args.only or ["limit", "pair", "small", "evaluate", "cold"])
    print("machine:", machine())
    print("checkout:", args.checkout)
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(args.checkout, "rouge_metric")], check=True)
    sys.path.insert(0, args.checkout)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([args.checkout] + [p for p in [env.get("PYTHONPATH")] if p])
    env.update(RAYON_NUM_THREADS=str(args.threads), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    if "limit" in only:
        compute_vs_limit(args)
    if "pair" in only:
        pair_loops(args)
    if "small" in only:
        small_calls(args)
    with tempfile.TemporaryDirectory() as tmp:
        if "evaluate" in only:
            evaluate_module(args, env, tmp)
        if "cold" in only:
            cold_calls(args, env, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
