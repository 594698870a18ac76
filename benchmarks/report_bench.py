"""Time the HTML report on a large corpus and check the file-size rule.

    python benchmarks/report_bench.py                          # 100,000 examples, two systems
    python benchmarks/report_bench.py --pairs 100000 --systems 1
    python benchmarks/report_bench.py --pairs 10000 --out /tmp/report.html

Input: the CNN/DM test outputs of two systems (../shared/corpora/cnndm_pgn_cov and cnndm_simcls_nl:
pointer-generator with coverage, SimCLS), aligned on the reference text (11,349 articles are in both files;
the files list them in different orders), repeated up to
``--pairs`` examples; generated news-like text (tests/corpora.py) when they are absent. Default rouge
types (rouge1, rouge2, rougeL, rougeLsum), stemming off, 1,000 bootstrap resamples, 1,000 resamples of
each paired test.

Prints the machine, the time per stage (``Report.timings``: scoring with the corpus bootstrap and the
paired tests, charts, explanations, page) and in total, the size of the file, and the wall time of
``report(...)`` including the import of matplotlib (the first report of a process pays it).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent.parent / "shared" / "corpora"
SYSTEMS = {"pgn_cov": "cnndm_pgn_cov.jsonl.gz", "simcls": "cnndm_simcls_nl.jsonl.gz"}


def load(pairs: int, systems: int):
    paths = [CORPORA / f for f in SYSTEMS.values()]
    if all(p.exists() for p in paths):
        runs = []
        for p in paths[:systems]:
            with gzip.open(p, "rt", encoding="utf-8") as fh:
                runs.append([json.loads(line) for line in fh])
        # the two files list the articles in different orders: align them on the reference text (letters and
        # digits of the first reference), keeping the articles found in both
        key = lambda row: re.sub(r"[^a-z0-9]", "", row["references"][0].lower())[:200]  # noqa: E731
        where = [{key(r): i for i, r in enumerate(run)} for run in runs]
        common = [k for k in (key(r) for r in runs[0]) if all(k in w for w in where)]
        refs = [runs[0][where[0][k]]["references"] for k in common]
        preds = {name: [run[w[k]]["prediction"] for k in common] for name, run, w in zip(SYSTEMS, runs, where)}
        source = (f"CNN/DM test outputs ({', '.join(list(SYSTEMS)[:systems])}; {len(common):,} articles"
                  + (" in both files" if systems > 1 else "") + ")")
    else:
        sys.path.insert(0, str(HERE.parent / "tests"))
        from corpora import generated_corpus

        base = generated_corpus(20000, seed=0)
        other = generated_corpus(20000, seed=1)
        refs = [r for _, r in base]
        preds = {"a": [p for p, _ in base], "b": [p for p, _ in other]}
        preds = dict(list(preds.items())[:systems])
        source = "generated news-like text (tests/corpora.py)"
    reps = -(-pairs // len(refs))
    refs = (refs * reps)[:pairs]
    preds = {k: (v * reps)[:pairs] for k, v in preds.items()}
    return refs, preds, source


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--systems", type=int, choices=(1, 2), default=2)
    ap.add_argument("--out", default="/tmp/report_bench.html")
    args = ap.parse_args()
    refs, preds, source = load(args.pairs, args.systems)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
          f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print(f"input: {len(refs):,} examples, {len(preds)} system(s), {source}")
    names = list(preds)
    t = time.perf_counter()
    from rouge_metric.report import report

    rep = report(preds[names[0]], refs, name=names[0], systems={k: preds[k] for k in names[1:]} or None)
    wall = time.perf_counter() - t
    rep.save(args.out)
    size = os.path.getsize(args.out)
    print("stages (s): " + ", ".join(f"{k} {v:.2f}" for k, v in rep.timings.items()))
    print(f"wall with imports: {wall:.2f} s")
    print(f"file: {args.out}, {size / 1e6:.2f} MB; table keeps {len(rep.kept):,} examples, "
          f"{rep.explained:,} explanations embedded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
