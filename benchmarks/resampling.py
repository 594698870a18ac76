"""Time and peak memory of the resampling: the blocked corpus bootstrap against its oracle, and compare().

    python benchmarks/resampling.py bootstrap                     # 300,000 examples x 1,000 resamples
    python benchmarks/resampling.py bootstrap --pairs 50000 --rounds 3
    python benchmarks/resampling.py compare                       # 11,490 synthetic pairs, 2 systems

``bootstrap`` runs :func:`rouge_metric.aggregate.bootstrap` (blocked; labelled "after" in the output)
and the unblocked gather of tests/oracles.py (the test oracle, labelled "before": chunks of 64 resamples
gathered whole; ``--skip-before`` leaves it out) on the same per-example values (``--types`` rouge types
of uniform random P/R/F, seeded), each measurement in a fresh process, the two alternating (the oracle
first in odd rounds). Per process: ``cold`` is the first call, ``warm`` the second (``--warm``; off for
the oracle by default, whose call takes minutes at 300,000 examples), ``peak`` the peak RSS of the
process and ``start`` its RSS before the first call (imports and the values themselves). The two must
give the same floats: the script checks the digest of the intervals and exits 1 otherwise.

``compare`` times :func:`rouge_metric.compare` (scoring every system once + the test) cold and warm
for both methods on a synthetic news-like corpus (benchmarks/bench.py's), and
:func:`rouge_metric.significance.paired_test` alone (the resampling only), with peak RSS.
Figures are medians over ``--rounds``; the machine (CPU, logical CPUs, current load) is printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

BOOT_CHILD = textwrap.dedent("""
    import hashlib, json, resource, sys, time
    import numpy as np
    sys.path.insert(0, {tests!r})
    which, n, n_types, R, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
    from rouge_metric.aggregate import bootstrap
    from rouge_metric.result import Score
    from oracles import bootstrap_all_at_once
    fn = bootstrap if which == "after" else bootstrap_all_at_once
    rng = np.random.default_rng(0)
    values = {{f"rouge{{k + 1}}": rng.random(3 * n) for k in range(n_types)}}
    means = {{t: Score(*(float(v[i::3].mean()) for i in range(3))) for t, v in values.items()}}
    rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = rss()
    t = time.perf_counter(); out = fn(values, means, R, 0.95, 0); cold = time.perf_counter() - t
    w = None
    if warm:
        t = time.perf_counter(); again = fn(values, means, R, 0.95, 0); w = time.perf_counter() - t
        assert again == out
    digest = hashlib.sha256(repr(sorted(out.items())).encode()).hexdigest()[:16]
    print(json.dumps({{"cold": cold, "warm": w, "start": start, "peak": rss(), "digest": digest}}))
""").format(tests=os.path.join(REPO, "tests"))

COMPARE_CHILD = textwrap.dedent("""
    import json, random, resource, sys, time
    sys.path.insert(0, {bench!r})
    from bench import synthetic_corpus
    n, method, R = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    rows = synthetic_corpus(n)
    refs = [r for _, r in rows]
    base = [p for p, _ in rows]
    rnd = random.Random(1)
    def variant(text, keep):
        return " ".join(w for w in text.split(" ") if rnd.random() < keep)
    systems = {{"A": [variant(p, 0.97) for p in base], "B": [variant(p, 0.9) for p in base]}}
    import rouge_metric
    from rouge_metric import Rouge, compare
    from rouge_metric.significance import paired_test
    rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = rss()
    t = time.perf_counter(); first = compare(baseline=base, systems=systems, references=refs, method=method,
                                             n_resamples=R, use_stemmer=True); cold = time.perf_counter() - t
    t = time.perf_counter(); again = compare(baseline=base, systems=systems, references=refs, method=method,
                                             n_resamples=R, use_stemmer=True); warm = time.perf_counter() - t
    assert again.to_dict() == first.to_dict()
    rouge = Rouge(use_stemmer=True)
    vals = []
    for preds in [base] + list(systems.values()):
        acc = rouge.accumulator(keep_values=True)
        rouge.add_to(acc, predictions=preds, references=refs)
        vals.append(acc.values)
    t = time.perf_counter(); paired_test(vals[0], {{"A": vals[1], "B": vals[2]}}, method=method, n_resamples=R)
    test_only = time.perf_counter() - t
    print(json.dumps({{"cold": cold, "warm": warm, "test_only": test_only, "start": start, "peak": rss(),
                      "backend": rouge_metric.active_backend()}}))
""").format(bench=HERE)


def machine() -> str:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, load average {os.getloadavg()[0]:.2f}"


def child(code: str, args) -> dict:
    out = subprocess.run([sys.executable, "-c", code] + [str(a) for a in args], capture_output=True, text=True,
                         cwd=REPO, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def mb(x: float) -> str:
    return f"{x / 2**20:.0f} MB"


def cmd_bootstrap(a) -> int:
    print(f"bootstrap: {a.pairs:,} examples x {a.types} types x {a.resamples:,} resamples; {machine()}")
    labels = ["after"] if a.skip_before else ["before", "after"]
    res = {k: [] for k in labels}
    for rnd in range(a.rounds):
        order = labels if rnd % 2 == 0 else labels[::-1]
        for which in order:
            warm = a.warm or which == "after"
            r = child(BOOT_CHILD, [which, a.pairs, a.types, a.resamples, int(warm)])
            res[which].append(r)
            print(f"  round {rnd + 1} {which:6s} cold {r['cold']:7.2f} s"
                  + (f"  warm {r['warm']:7.2f} s" if r["warm"] is not None else "")
                  + f"  peak RSS {mb(r['peak'])} (at start {mb(r['start'])})", flush=True)
    print("medians:")
    for which, rs in res.items():
        warm = [r["warm"] for r in rs if r["warm"] is not None]
        print(f"  {which:6s} cold {statistics.median(r['cold'] for r in rs):7.2f} s"
              + (f"  warm {statistics.median(warm):7.2f} s" if warm else "")
              + f"  peak RSS {mb(statistics.median(r['peak'] for r in rs))}")
    if len(labels) == 2:
        ratios = [b["cold"] / f["cold"] for b, f in zip(res["before"], res["after"])]
        print(f"  cold time before/after (median of per-round ratios): {statistics.median(ratios):.2f}")
    digests = {r["digest"] for rs in res.values() for r in rs}
    print("same intervals before and after: " + ("yes" if len(digests) == 1 else f"NO {digests}"))
    return 0 if len(digests) == 1 else 1


def cmd_compare(a) -> int:
    print(f"compare: {a.pairs:,} synthetic pairs, baseline + 2 systems, rouge1/2/L/Lsum, stemming; {machine()}")
    for method, R in (("paired_bootstrap", a.bs_resamples), ("approximate_randomization", a.ar_resamples)):
        rs = [child(COMPARE_CHILD, [a.pairs, method, R]) for _ in range(a.rounds)]
        med = lambda k: statistics.median(r[k] for r in rs)
        print(f"  {method} ({R:,}): cold {med('cold'):6.2f} s  warm {med('warm'):6.2f} s  "
              f"test only {med('test_only'):6.2f} s  peak RSS {mb(med('peak'))} (at start {mb(med('start'))})  "
              f"[{rs[0]['backend']}]", flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bootstrap")
    b.add_argument("--pairs", type=int, default=300_000)
    b.add_argument("--types", type=int, default=4)
    b.add_argument("--resamples", type=int, default=1000)
    b.add_argument("--rounds", type=int, default=1)
    b.add_argument("--warm", action="store_true", help="also a warm call of 'before'")
    b.add_argument("--skip-before", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("--pairs", type=int, default=11_490)
    c.add_argument("--bs-resamples", type=int, default=1000)
    c.add_argument("--ar-resamples", type=int, default=10_000)
    c.add_argument("--rounds", type=int, default=1)
    a = ap.parse_args(argv)
    return cmd_bootstrap(a) if a.cmd == "bootstrap" else cmd_compare(a)


if __name__ == "__main__":
    sys.exit(main())
