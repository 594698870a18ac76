"""What each rouge type adds to a warm ``Rouge.compute`` pair, next to what it adds in the speed-limit reference.

    python benchmarks/type_costs.py --corpus ../shared/corpora/cnndm_simcls_nl.jsonl.gz \\
        --limit-data $LIMIT_DATA --limit-corpus cnndm_simcls_nl

One process, one thread, stemming, the first reference of each example. It times ``Rouge.compute`` for
rouge1 alone, rouge1 with each other type, and all four (CPU time, the fastest of ``--rounds`` calls per
configuration, the configurations alternating), and prints ns per pair and each type's increment over
rouge1 alone. With ``--limit-data`` it also runs the speed-limit reference's binary (``rouge_limit`` in
that folder, ``../shared/limit/README.md``) in its ``raw``, ``kernels`` and per-kernel modes on
``--limit-corpus``: its tokenizing cost is raw - kernels, and a kernel's increment its mode's time minus
``kernel_rouge1`` (each mode includes the pair's id mapping). Timing figures: see docs/performance.md#how-to-measure.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import time

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
SETS = [["rouge1"], ["rouge1", "rouge2"], ["rouge1", "rougeL"], ["rouge1", "rougeLsum"], TYPES]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, help="JSONL(.gz) of {prediction, references}")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--limit-data", help="the speed-limit reference's data folder (with its rouge_limit binary)")
    ap.add_argument("--limit-corpus", help="the corpus name in --limit-data (raw_<name>.bin)")
    args = ap.parse_args()

    from rouge_metric import Rouge

    opener = gzip.open if args.corpus.endswith(".gz") else open
    with opener(args.corpus, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"][0] for r in rows]
    scorers = [Rouge(s, use_stemmer=True, num_threads=1) for s in SETS]
    for r in scorers:
        r.compute(predictions=preds, references=refs)  # warm: the corpus's words in the vocabulary
    best = [float("inf")] * len(SETS)
    for _ in range(args.rounds):
        for k, r in enumerate(scorers):
            t = time.process_time()
            r.compute(predictions=preds, references=refs)
            best[k] = min(best[k], time.process_time() - t)
    ns = [b / len(rows) * 1e9 for b in best]
    print(f"{os.path.basename(args.corpus)}: {len(rows):,} pairs, warm Rouge.compute, 1 thread, CPU ns per pair "
          f"(fastest of {args.rounds})")
    print("| types | ns per pair | added to rouge1 |")
    print("|---|---:|---:|")
    for s, v in zip(SETS, ns):
        print(f"| {'+'.join(s)} | {v:,.0f} | {v - ns[0]:,.0f} |")
    if args.limit_data and args.limit_corpus:
        binary = os.path.join(args.limit_data, "rouge_limit")
        modes = ["raw", "kernels"] + [f"kernel_{t}" for t in TYPES]
        out = subprocess.run([binary, "--data", args.limit_data, "--reps", str(args.rounds), "--modes", ",".join(modes),
                              args.limit_corpus], capture_output=True, text=True, check=True).stdout
        lim = {}
        for line in out.splitlines():
            row = json.loads(line)
            if "mode" in row:
                lim[row["mode"]] = float(row["median_ns_per_pair"])
        print(f"\nthe speed-limit reference on {args.limit_corpus} (median ns per pair of {args.rounds} passes)")
        print("| part | ns per pair |")
        print("|---|---:|")
        print(f"| raw text, all four | {lim['raw']:,.0f} |")
        print(f"| tokenizing (raw - kernels) | {lim['raw'] - lim['kernels']:,.0f} |")
        print(f"| id mapping + rouge1 | {lim['kernel_rouge1']:,.0f} |")
        for t in TYPES[1:]:
            print(f"| {t} added | {lim['kernel_' + t] - lim['kernel_rouge1']:,.0f} |")


if __name__ == "__main__":
    main()
