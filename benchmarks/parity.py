"""Parity run: score whole corpora with rouge_metric and rouge-score 0.1.2 and count identical results.

    python benchmarks/parity.py [--corpora DIR] [--names a,b] [--backend python|native] [--limit N]

For every pair (``score_multi`` over its references) and for stemming off and on, the four default
types must give identical floats. Prints one line per corpus: pairs, identical, mismatches.
"""

import argparse
import gzip
import json
import os
import time
from pathlib import Path

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpora"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", default=str(DEFAULT_DIR))
    ap.add_argument("--names", default="", help="comma-separated corpus names (default: all)")
    ap.add_argument("--backend", default=None, choices=["python", "native"])
    ap.add_argument("--limit", type=int, default=0, help="pairs per corpus (0 = all)")
    args = ap.parse_args()
    if args.backend:
        os.environ["ROUGE_METRIC_BACKEND"] = args.backend
    from rouge_score import rouge_scorer

    from rouge_metric import RougeScorer

    files = sorted(Path(args.corpora).glob("*.jsonl.gz"))
    if args.names:
        keep = set(args.names.split(","))
        files = [f for f in files if f.name.split(".")[0] in keep]
    total = same_total = 0
    for f in files:
        with gzip.open(f, "rt", encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh]
        if args.limit:
            rows = rows[: args.limit]
        t0 = time.perf_counter()
        same = 0
        bad = []
        for stem in (False, True):
            mine = RougeScorer(TYPES, use_stemmer=stem)
            theirs = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
            for row in rows:
                a = mine.score_multi(row["references"], row["prediction"])
                b = theirs.score_multi(row["references"], row["prediction"])
                if a == b:
                    same += 1
                elif len(bad) < 3:
                    bad.append(row["id"])
        n = 2 * len(rows)
        total += n
        same_total += same
        print(f"{f.name.split('.')[0]:22s} pairs x stem settings={n:6d} identical={same:6d} "
              f"mismatch={n - same} {bad} ({time.perf_counter() - t0:.0f}s, backend={mine._rouge.backend})",
              flush=True)
    print(f"TOTAL {same_total}/{total} identical")


if __name__ == "__main__":
    main()
