"""Time ROUGE implementations on the same pairs and check that they give the same numbers.

    python benchmarks/bench.py --corpus ../shared/corpora/cnndm_simcls_nl.jsonl.gz
    python benchmarks/bench.py                      # synthetic corpus

Timed, in one run, on the same inputs and settings (rouge types, stemming): rouge-score 0.1.2,
rouge-score-rs (per pair and its batch API), torchmetrics (rouge1/2/L only: its rougeLsum needs
nltk punkt data, which the benchmark does not download), and both rouge_metric backends (per-pair
``RougeScorer.score``, the batch ``Rouge.score_examples`` and the corpus ``Rouge.compute``).

Slow implementations (rouge-score, torchmetrics, our pure-Python backend) are timed on the first
``--slow-pairs`` pairs, the fast ones on the whole corpus; throughput is pairs per second (median of
``--runs`` runs, after one warm-up run that fills the stem caches; the cold first run of our native
batch is printed too). Checks: rouge-score-rs and every rouge_metric path must equal rouge-score
exactly (P, R and F of every type, every pair of the slow subset), our native path must equal
rouge-score-rs on the whole corpus, and torchmetrics (float32 tensors) is compared within 1e-6.
The exit code is 1 when an exact check fails.

``--cold`` times instead the first call in a fresh process against the second call of the same process,
for every entry point: ``rouge_metric.compute``, the ``RougeScorer.score`` loop, the evaluate module
(``evaluate.load`` of rouge_metric/rouge_metric.py), the CLI (``cli.main``, which a ``rouge-metric``
command runs once per process), rouge-score's ``score`` loop (on the first ``--slow-pairs`` pairs),
rouge-score-rs's ``score`` loop and its ``score_batch``. Each
measurement is its own process; the entry points alternate within each round (order reversed every
other round) and the figures are medians over ``--cold-rounds`` rounds. ``cold`` includes the imports
(what a user waits for; the package's bytecode is compiled first, as an installation does), ``first
call`` excludes them. The ratio columns are medians of per-process (cold / warm) or per-round ratios (both
sides timed in the same round), per pair:

    python benchmarks/bench.py --cold --corpus ../shared/corpora/cnndm_simcls_nl.jsonl.gz
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
import tempfile
import textwrap
import sys
import time
from typing import Any, Callable, Dict, List, Sequence, Tuple

Row = Tuple[str, List[str]]  # prediction, references
PerExample = List[Dict[str, Tuple[float, float, float]]]


def load_corpus(path: str, limit: int) -> List[Row]:
    opener = gzip.open if path.endswith(".gz") else open
    rows: List[Row] = []
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            refs = d["references"]
            rows.append((d["prediction"], [refs] if isinstance(refs, str) else list(refs)))
            if limit and len(rows) >= limit:
                break
    return rows


def synthetic_corpus(n: int, seed: int = 0) -> List[Row]:
    """News-like pairs: ~60 words in ~4 lines, shared vocabulary, some punctuation and case."""
    rnd = random.Random(seed)
    vocab = [rnd.choice(["", "re", "un"]) + "".join(rnd.choice("abcdefghijklmnoprstuw") for _ in range(rnd.randint(2, 9)))
             + rnd.choice(["", "", "s", "ing", "ed"]) for _ in range(5000)]

    def text(words: List[str]) -> str:
        lines, cur = [], []
        for w in words:
            cur.append(w.capitalize() if not cur else w)
            if len(cur) > 8 and rnd.random() < 0.15:
                lines.append(" ".join(cur) + " .")
                cur = []
        if cur:
            lines.append(" ".join(cur) + " .")
        return "\n".join(lines)

    rows = []
    for _ in range(n):
        ref = [rnd.choice(vocab) for _ in range(rnd.randint(30, 80))]
        pred = [w if rnd.random() < 0.6 else rnd.choice(vocab) for w in ref]
        rnd.shuffle(pred[: len(pred) // 3])
        rows.append((text(pred), [text(ref)]))
    return rows


def as_triples(scores: Dict[str, Any], types: Sequence[str]) -> Dict[str, Tuple[float, float, float]]:
    return {t: (float(scores[t].precision), float(scores[t].recall), float(scores[t].fmeasure)) for t in types}


def median_time(fn: Callable[[], Any], runs: int) -> Tuple[float, Any]:
    out = fn()  # warm-up (stem caches, allocations)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def compare(a: PerExample, b: PerExample, types: Sequence[str], tol: float = 0.0) -> int:
    bad = 0
    for x, y in zip(a, b):
        for t in types:
            if tol == 0.0:
                bad += x[t] != y[t]
            else:
                bad += any(abs(u - v) > tol for u, v in zip(x[t], y[t]))
    return bad


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    return (f"{cpu}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}, "
            f"{platform.system()} {platform.machine()}, load average {load[0]:.2f}")


# ------------------------------------------------------------------------ cold (fresh process) vs warm
COLD_CHILD = textwrap.dedent("""
    import gzip, json, os, sys, time
    what, path, stem, types, threads = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4].split(","), int(sys.argv[5])
    slow = int(sys.argv[6])
    opener = gzip.open if path.endswith(".gz") else open
    rows = [json.loads(l) for l in opener(path, "rt", encoding="utf-8")]
    P = [r["prediction"] for r in rows]
    R = [r["references"] if isinstance(r["references"], str) else r["references"][0] for r in rows]
    t0 = time.perf_counter()
    if what == "compute":
        import rouge_metric
        call = lambda: rouge_metric.compute(predictions=P, references=R, rouge_types=types, use_stemmer=stem,
                                            num_threads=threads)
    elif what == "RougeScorer.score":
        from rouge_metric import RougeScorer
        sc = RougeScorer(types, use_stemmer=stem)
        call = lambda: [sc.score(r, p) for p, r in zip(P, R)]
    elif what == "evaluate module":
        import evaluate
        m = evaluate.load(os.environ["ROUGE_METRIC_MODULE"], keep_in_memory=True)
        call = lambda: m.compute(predictions=P, references=R, rouge_types=types, use_stemmer=stem)
    elif what == "CLI":
        from rouge_metric import cli
        argv = ["score", "--predictions", path, "--json", "-q", "--rouge-types", *types] + (["--use-stemmer"] if stem else [])
        def call():
            with open(os.devnull, "w") as null:
                old, sys.stdout = sys.stdout, null
                try:
                    assert cli.main(argv) == 0
                finally:
                    sys.stdout = old
    elif what == "rouge-score score":  # the reference implementation, on the first --slow-pairs pairs
        from rouge_score import rouge_scorer
        P, R = P[:slow], R[:slow]
        sc = rouge_scorer.RougeScorer(types, use_stemmer=stem)
        call = lambda: [sc.score(r, p) for p, r in zip(P, R)]
    elif what == "rouge-score-rs score":
        import rouge_score_rs
        rs = rouge_score_rs.RougeScorer(types, use_stemmer=stem)
        call = lambda: [rs.score(r, p) for p, r in zip(P, R)]
    elif what == "rouge-score-rs score_batch":
        import rouge_score_rs
        rs = rouge_score_rs.RougeScorer(types, use_stemmer=stem)
        call = lambda: rs.score_batch(R, P)
    t1 = time.perf_counter()
    call()
    t2 = time.perf_counter()
    call()
    t3 = time.perf_counter()
    print(json.dumps({"import": t1 - t0, "first": t2 - t1, "warm": t3 - t2, "n": len(P)}))
""")
COLD_ENTRIES = ["compute", "RougeScorer.score", "evaluate module", "CLI", "rouge-score score", "rouge-score-rs score",
                "rouge-score-rs score_batch"]


def cold_vs_warm(args: argparse.Namespace, types: Sequence[str], stem: bool) -> int:
    """First call in a fresh process (imports included, and excluded) against the second call."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    skip = set(args.skip.split(","))
    entries = [e for e in COLD_ENTRIES if not (e.startswith("rouge-score-rs") and "rs" in skip)
               and not (e == "evaluate module" and "evaluate" in skip)
               and not (e == "rouge-score score" and "rouge-score" in skip)]
    env = dict(os.environ, ROUGE_METRIC_MODULE=os.path.join(repo, "rouge_metric"), RAYON_NUM_THREADS=str(args.threads),
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1",
               HF_DATASETS_OFFLINE="1")
    # Bytecode for the package, as `pip install` writes it: an editable checkout run with
    # PYTHONDONTWRITEBYTECODE would otherwise compile every module in every fresh process, which no
    # installed user pays.
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(repo, "rouge_metric")], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.corpus
        rows = load_corpus(path, args.max_pairs)
        if args.max_pairs or path.endswith(".gz"):  # the CLI reads plain JSONL; single reference, as the others
            path = os.path.join(tmp, "corpus.jsonl")
            with open(path, "w", encoding="utf-8") as fh:
                for p, r in rows:
                    fh.write(json.dumps({"prediction": p, "references": r[0]}) + "\n")
        print(f"corpus {os.path.basename(args.corpus)}: {len(rows)} pairs (first reference); types {list(types)}; "
              f"stemming {'on' if stem else 'off'}; threads {args.threads}; {args.cold_rounds} alternating rounds "
              "of fresh processes, medians")
        print("machine:", machine())
        runs: Dict[str, List[Dict[str, float]]] = {e: [] for e in entries}
        for rnd in range(args.cold_rounds):
            for e in (entries if rnd % 2 == 0 else entries[::-1]):
                proc = subprocess.run([sys.executable, "-c", COLD_CHILD, e, path, "1" if stem else "0", ",".join(types),
                                       str(args.threads), str(args.slow_pairs)], capture_output=True, text=True, env=env, cwd=tmp)
                if proc.returncode != 0:
                    print(f"  {e}: failed\n{proc.stderr[-2000:]}")
                    return 1
                runs[e].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    # times per pair (the rouge-score entry scores only the first --slow-pairs pairs)
    med = {e: {k: statistics.median(r[k] / r["n"] for r in rs) for k in ("import", "first", "warm")}
           for e, rs in runs.items()}
    ns = {e: rs[0]["n"] for e, rs in runs.items()}

    def cold(m):  # seconds per pair of a fresh process: the imports spread over the pairs it scores
        return m["import"] + m["first"]

    def vs(e, key, base):  # median over rounds of the per-round ratio base time / e time
        if base not in runs:
            return "-"
        return f"{statistics.median(b[key] / b['n'] / (r[key] / r['n']) for r, b in zip(runs[e], runs[base])):,.1f}x"

    def cold_vs(e, base):
        if base not in runs:
            return "-"
        return f"{statistics.median(cold(b) / b['n'] / (cold(r) / r['n']) for r, b in zip(runs[e], runs[base])):,.1f}x"

    print("\n| entry point | pairs | import s | first call, pairs/s | cold (import + first call), pairs/s | warm, pairs/s "
          "| cold / warm | cold vs rouge-score-rs cold | warm vs rouge-score-rs warm | warm vs rouge-score warm |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for e, m in med.items():
        print(f"| {e} | {ns[e]:,} | {m['import'] * ns[e]:.3f} | {1 / m['first']:,.0f} | {1 / cold(m):,.0f} "
              f"| {1 / m['warm']:,.0f} | {statistics.median(r['warm'] / (r['import'] + r['first']) for r in runs[e]):.2f} "
              f"| {cold_vs(e, 'rouge-score-rs score')} "
              f"| {vs(e, 'warm', 'rouge-score-rs score')} | {vs(e, 'warm', 'rouge-score score')} |")
    return 0


def main(argv: Sequence[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="JSONL(.gz) with prediction and references (default: synthetic)")
    ap.add_argument("--types", default="rouge1,rouge2,rougeL,rougeLsum")
    ap.add_argument("--no-stem", action="store_true", help="stemming off (default: on)")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per implementation (median)")
    ap.add_argument("--threads", type=int, default=1, help="threads of the batch APIs (ours and rouge-score-rs)")
    ap.add_argument("--slow-pairs", type=int, default=1000, help="pairs given to the slow implementations")
    ap.add_argument("--max-pairs", type=int, default=0, help="use only the first N pairs of the corpus")
    ap.add_argument("--synthetic-pairs", type=int, default=5000)
    ap.add_argument("--skip", default="", help="comma-separated: rouge-score,rs,torchmetrics,python")
    ap.add_argument("--cold", action="store_true",
                    help="first call in a fresh process vs the second call, every entry point (needs --corpus)")
    ap.add_argument("--cold-rounds", type=int, default=5, help="alternating rounds of fresh processes (--cold)")
    args = ap.parse_args(argv)
    if args.cold:
        if not args.corpus:
            ap.error("--cold needs --corpus")
        return cold_vs_warm(args, [t for t in args.types.split(",") if t], not args.no_stem)

    os.environ["RAYON_NUM_THREADS"] = str(args.threads)  # before rouge_score_rs starts its pool
    # numpy's OpenBLAS threads spin after use and steal the cores the timed code runs on.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    types = [t for t in args.types.split(",") if t]
    stem = not args.no_stem
    skip = set(args.skip.split(","))
    rows = load_corpus(args.corpus, args.max_pairs) if args.corpus else synthetic_corpus(args.synthetic_pairs)
    name = os.path.basename(args.corpus) if args.corpus else f"synthetic({len(rows)})"
    preds = [p for p, _ in rows]
    refs = [r for _, r in rows]
    single = all(len(r) == 1 for r in refs)
    k = min(args.slow_pairs, len(rows))
    print(f"corpus {name}: {len(rows)} pairs ({'single' if single else 'multi'}-reference); types {types}; "
          f"stemming {'on' if stem else 'off'}; batch threads {args.threads}; slow subset {k} pairs; "
          f"median of {args.runs} runs")
    print("machine:", machine())

    from rouge_metric import Rouge, RougeScorer, core

    results: List[Tuple[str, int, float]] = []  # label, pairs, seconds
    outputs: Dict[str, PerExample] = {}

    def triples(out: Sequence[Dict[str, Any]]) -> PerExample:
        return [as_triples(s, types) for s in out]

    def run(label: str, n: int, fn: Callable[[], Any], convert: Callable[[Any], PerExample] = triples) -> None:
        """Time fn (the calls only: the conversion of its results for the checks is not timed)."""
        sec, out = median_time(fn, args.runs)
        results.append((label, n, sec))
        outputs[label] = convert(out)
        print(f"  {label:<42} {n / sec:>12,.0f} pairs/s", flush=True)

    def pairwise(scorer: Any, n: int) -> Callable[[], List[Dict[str, Any]]]:
        if single:
            return lambda: [scorer.score(r[0], p) for p, r in zip(preds[:n], refs[:n])]
        return lambda: [scorer.score_multi(r, p) for p, r in zip(preds[:n], refs[:n])]

    # -------------------------------------------------------------------- peers
    if "rouge-score" not in skip:
        from rouge_score import rouge_scorer

        run("rouge-score 0.1.2 (per pair)", k, pairwise(rouge_scorer.RougeScorer(types, use_stemmer=stem), k))
    if "rs" not in skip:
        import rouge_score_rs

        rs = rouge_score_rs.RougeScorer(types, use_stemmer=stem)
        run("rouge-score-rs (per pair)", len(rows), pairwise(rs, len(rows)))
        if single:
            targets = [r[0] for r in refs]
            run(f"rouge-score-rs score_batch ({args.threads} thr)", len(rows),
                lambda: rs.score_batch(targets, preds))
    tm_types = [t for t in types if t != "rougeLsum"]
    if "torchmetrics" not in skip and tm_types:
        from torchmetrics.functional.text import rouge_score as tm_rouge

        def tm() -> List[Dict[str, Any]]:
            return [tm_rouge(p, r if len(r) > 1 else r[0], use_stemmer=stem, rouge_keys=tuple(tm_types),
                             accumulate="best") for p, r in zip(preds[:k], refs[:k])]

        def tm_triples(out: List[Dict[str, Any]]) -> PerExample:
            return [{t: (float(d[t + "_precision"]), float(d[t + "_recall"]), float(d[t + "_fmeasure"]))
                     for t in tm_types} for d in out]

        run("torchmetrics (per pair; rouge1/2/L)", k, tm, tm_triples)

    # -------------------------------------------------------------------- ours
    if "python" not in skip:
        run("rouge_metric python: RougeScorer.score", k, pairwise(RougeScorer(types, use_stemmer=stem, backend="python"), k))
        rp = Rouge(types, use_stemmer=stem, backend="python")
        run("rouge_metric python: score_examples", k,
            lambda: rp.score_examples(predictions=preds[:k], references=refs[:k]))
    if core.native_available():
        rn = Rouge(types, use_stemmer=stem, backend="native", num_threads=args.threads)
        t0 = time.perf_counter()
        rn.compute(predictions=preds, references=refs)
        cold = time.perf_counter() - t0
        print(f"  {'rouge_metric native: compute, cold stem cache':<42} {len(rows) / cold:>12,.0f} pairs/s  "
              "(first call: every distinct token stemmed and interned once)")
        run("rouge_metric native: RougeScorer.score", len(rows),
            pairwise(RougeScorer(types, use_stemmer=stem, backend="native"), len(rows)))
        run(f"rouge_metric native: score_examples ({args.threads} thr)", len(rows),
            lambda: rn.score_examples(predictions=preds, references=refs))
        if args.threads != 1:
            sec, _ = median_time(lambda: rn.compute(predictions=preds, references=refs), args.runs)
            results.append((f"rouge_metric native: compute ({args.threads} thr)", len(rows), sec))
            print(f"  {results[-1][0]:<42} {len(rows) / sec:>12,.0f} pairs/s")
        else:
            # 1 and 2 threads alternate, so that both see the same machine (the speed of a virtual CPU
            # drifts over seconds); the thread ratio is the median of the per-round ratios.
            rn2 = Rouge(types, use_stemmer=stem, backend="native", num_threads=2)
            rn2.compute(predictions=preds, references=refs)
            one, two = [], []
            for _ in range(max(args.runs, 5)):
                for r, acc in ((rn, one), (rn2, two)):
                    t0 = time.perf_counter()
                    r.compute(predictions=preds, references=refs)
                    acc.append(time.perf_counter() - t0)
            sec, sec2 = statistics.median(one), statistics.median(two)
            ratio = statistics.median(a / b for a, b in zip(one, two))
            results.append(("rouge_metric native: compute (1 thr)", len(rows), sec))
            print(f"  {results[-1][0]:<42} {len(rows) / sec:>12,.0f} pairs/s")
            results.append(("rouge_metric native: compute (2 thr)", len(rows), sec2))
            print(f"  {results[-1][0]:<42} {len(rows) / sec2:>12,.0f} pairs/s  ({ratio:.2f}x 1 thread, "
                  f"median of {len(one)} alternating rounds)")
    else:
        print("  rouge_metric native: not available (extension not built)")

    # -------------------------------------------------------------------- checks
    failures = 0
    ref_label = "rouge-score 0.1.2 (per pair)"
    print("\nchecks:")
    if ref_label in outputs:
        base = outputs[ref_label]
        for label, out in outputs.items():
            if label == ref_label:
                continue
            if label.startswith("torchmetrics"):
                bad = compare(base, out[:k], tm_types, tol=1e-6)
                print(f"  {label}: {bad} of {k * len(tm_types)} scores differ from rouge-score by > 1e-6 (float32)")
                continue
            bad = compare(base, out[:k], types)
            failures += bad
            print(f"  {label}: {'identical to' if not bad else f'{bad} scores differ from'} rouge-score "
                  f"({k} pairs x {len(types)} types, exact)")
    rs_label = "rouge-score-rs (per pair)"
    nat_label = "rouge_metric native: RougeScorer.score"
    if rs_label in outputs and nat_label in outputs:
        for label in (nat_label, f"rouge_metric native: score_examples ({args.threads} thr)"):
            bad = compare(outputs[rs_label], outputs[label], types)
            failures += bad
            print(f"  {label} vs rouge-score-rs on all {len(rows)} pairs: {'identical' if not bad else f'{bad} differ'}")

    # -------------------------------------------------------------------- table
    by = {label: n / sec for label, n, sec in results}
    base_rs = by.get(rs_label)
    base_score = by.get(ref_label)
    print("\n| implementation | pairs | pairs/s | vs rouge-score | vs rouge-score-rs (per pair) |")
    print("|---|---:|---:|---:|---:|")
    for label, n, sec in results:
        v = n / sec
        a = f"{v / base_score:.1f}x" if base_score else "-"
        b = f"{v / base_rs:.2f}x" if base_rs else "-"
        print(f"| {label} | {n} | {v:,.0f} | {a} | {b} |")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
