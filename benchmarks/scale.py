"""A million pairs three ways: one process, ``datasets.map(num_proc=2)``, Ray Data on 2 local CPUs.

    python benchmarks/scale.py                      # 1,000,000 pairs (the shared news corpora, repeated)
    python benchmarks/scale.py --pairs 50000        # a quick run

Input: the news corpora of ../shared/corpora (CNN/DM and XSum system outputs) repeated up to ``--pairs``
pairs, or generated news-like text (tests/corpora.py) when they are absent. The pairs are written once
to Parquet (untimed); every method then runs in a fresh process:

- ``one process``: read the Parquet file into lists, ``Rouge.compute`` (native, 2 threads);
- ``datasets.map``: ``Dataset.from_parquet``, ``map(RougeMapper, batched=True, num_proc=2)`` (per-example
  columns written to the cache), ``mapper.aggregate`` (exact mean of the columns);
- ``ray``: ``ray.init(num_cpus=2)``, ``read_parquet`` -> ``map_batches(PartialScorer, num_threads=1)`` ->
  ``aggregate(RougeAggregate)`` (:func:`rouge_metric.ray_data.score_dataset`), with the sort-based
  shuffle strategy (no aggregator actors to start for one global aggregate).

Per method: ``cold`` is the first run in the process (imports excluded; Ray's start-up counted
separately as ``start``), ``warm`` the second run; ``peak`` the peak RSS of the whole process tree
(workers included: map processes, Ray's raylet and workers), sampled every 50 ms. Figures are medians
over ``--rounds`` (methods alternate order between rounds). The three results must be the same floats:
the script prints their digest and exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CORPORA = os.path.join(os.path.dirname(REPO), "shared", "corpora")
NEWS = ("cnndm_simcls_nl", "cnndm_pgn_cov", "xsum_simcls", "xsum_brio", "xsum_halluc", "frank")
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

CHILD = textwrap.dedent("""
    import hashlib, json, os, sys, threading, time
    import psutil
    method, path, types = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    proc = psutil.Process()
    peak = [0]
    def tree_rss():
        total = 0
        for p in [proc] + proc.children(recursive=True):
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total
    stop = threading.Event()
    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], tree_rss())
            time.sleep(0.05)
    threading.Thread(target=sample, daemon=True).start()
    from rouge_metric import Rouge, RougeMapper
    out = {"start": 0.0}
    if method == "one":
        import pyarrow.parquet as pq
        def run():
            t = pq.read_table(path)
            return Rouge(types, use_stemmer=True, num_threads=2).compute(
                predictions=t.column("prediction").to_pylist(), references=t.column("references").to_pylist())
    elif method == "datasets":
        import datasets, tempfile
        datasets.disable_progress_bars()
        cache = tempfile.mkdtemp()
        def run():
            ds = datasets.Dataset.from_parquet(path, cache_dir=cache)
            mapper = RougeMapper(types, use_stemmer=True)
            scored = ds.map(mapper, batched=True, batch_size=2000, num_proc=2, load_from_cache_file=False)
            return mapper.aggregate(scored, batch_size=10000)
    else:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        import ray
        t0 = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        out["start"] = time.perf_counter() - t0
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        # one global aggregate of a few hundred state rows: the sort-based shuffle starts no aggregator
        # actors (the default hash shuffle starts them on every run; docs/scale.md)
        ctx.shuffle_strategy = ray.data.context.ShuffleStrategy.SORT_SHUFFLE_PULL_BASED
        from rouge_metric.ray_data import score_dataset
        def run():
            ds = ray.data.read_parquet(path)
            return score_dataset(ds, types, use_stemmer=True, batch_size=4096, num_threads=1)
    for label in ("cold", "warm"):
        t = time.perf_counter()
        res = run()
        out[label] = time.perf_counter() - t
    stop.set()
    out["peak"] = max(peak[0], tree_rss())
    out["n"] = res.n
    out["digest"] = hashlib.sha256(json.dumps({k: [x.hex() for x in v] for k, v in res.scores.items()}
                                              ).encode()).hexdigest()[:16]
    out["rouge1"] = res.scores["rouge1"].fmeasure
    print(json.dumps(out))
""")


def load_pairs(n: int):
    preds, refs = [], []
    sources = [os.path.join(CORPORA, f"{c}.jsonl.gz") for c in NEWS]
    sources = [s for s in sources if os.path.isfile(s)]
    if sources:
        base_p, base_r = [], []
        for s in sources:
            with gzip.open(s, "rt", encoding="utf-8") as fh:
                for line in fh:
                    row = json.loads(line)
                    r = row["references"]
                    base_p.append(row["prediction"])
                    base_r.append([r] if isinstance(r, str) else list(r))
        origin = f"{len(base_p):,} pairs of {', '.join(os.path.basename(s) for s in sources)}, repeated"
    else:
        sys.path.insert(0, os.path.join(REPO, "tests"))
        from corpora import generated_corpus

        base_p, base_r = generated_corpus(min(n, 50000), seed=0)
        origin = f"{len(base_p):,} generated news-like pairs (../shared/corpora absent), repeated"
    while len(preds) < n:
        k = min(len(base_p), n - len(preds))
        preds.extend(base_p[:k])
        refs.extend(base_r[:k])
    return preds, refs, origin


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--methods", default="one,datasets,ray")
    args = ap.parse_args()
    import pyarrow as pa
    import pyarrow.parquet as pq

    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}")
    preds, refs, origin = load_pairs(args.pairs)
    print(f"input: {len(preds):,} pairs ({origin}); types {','.join(TYPES)}, stemming")
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "pairs.parquet")
    pq.write_table(pa.table({"prediction": preds, "references": refs}), path, row_group_size=50_000)
    del preds, refs
    methods = args.methods.split(",")
    runs = {m: [] for m in methods}
    for r in range(args.rounds):
        for m in (methods if r % 2 == 0 else methods[::-1]):
            proc = subprocess.run([sys.executable, "-c", CHILD, m, path, ",".join(TYPES)], capture_output=True,
                                  text=True, env=dict(os.environ, PYTHONPATH=REPO))
            if proc.returncode != 0:
                print(proc.stderr[-3000:])
                return 1
            runs[m].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    labels = {"one": "one process (Rouge.compute, 2 threads)", "datasets": "datasets.map num_proc=2 + aggregate",
              "ray": "Ray Data, 2 local CPUs (score_dataset)"}
    print(f"\n| method | cold s | warm s | pairs/s (warm) | Ray start s | peak RSS (tree) | digest |")
    print("|---|---|---|---|---|---|---|")
    for m in methods:
        med = lambda k: statistics.median(x[k] for x in runs[m])  # noqa: E731
        n = runs[m][0]["n"]
        print(f"| {labels[m]} | {med('cold'):.1f} | {med('warm'):.1f} | {n / med('warm'):,.0f} | "
              f"{med('start'):.1f} | {med('peak') / 2**30:.2f} GiB | {runs[m][0]['digest']} |")
    digests = {x["digest"] for m in methods for x in runs[m]}
    print(f"\nrouge1 F = {runs[methods[0]][0]['rouge1']!r}; identical floats in every method and run: {len(digests) == 1}")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
