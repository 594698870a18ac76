"""Two builds of rouge_metric, the same floats: every example of every corpus, to the last bit.

    python tools/compare_builds.py --base ../base --new .            # every corpus in ../shared/corpora
    python tools/compare_builds.py --base ../base --new . --names xsum_brio --threads 1 3
    ROUGE_METRIC_SIMD=sse2 python tools/compare_builds.py ...        # the environment reaches both children

Each build runs in its own process (two builds of the extension cannot share one) with that checkout
first on ``sys.path``. For every corpus it scores every example with ``Rouge.score_examples`` under each
configuration below, on each thread count, and the per-pair ``RougeScorer.score_multi`` loop, and writes
the ``float.hex`` of every precision, recall and F-measure; then the two outputs are compared and the
first differences printed. Exit status 1 on any difference. Configurations: rouge1-4, rougeL, rougeLsum,
rougeW, rougeS4 and rougeSU4 with stemming off and on, the default tokenizer and max/mean multi-reference
modes (every reference of each example).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpora"

CHILD = textwrap.dedent("""
    import gzip, json, sys
    sys.path.insert(0, sys.argv[1])
    import rouge_metric
    from rouge_metric import Rouge, RougeScorer
    assert rouge_metric.__file__.startswith(sys.argv[1]), rouge_metric.__file__
    corpora, threads, limit, out = json.loads(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4"]
    def hexes(rows):
        return [[(s.precision.hex(), s.recall.hex(), s.fmeasure.hex()) for s in (row[t] for t in sorted(row))] for row in rows]
    with open(out, "w") as f:
        for path in corpora:
            rows = [json.loads(l) for l in gzip.open(path, "rt")]
            if limit:
                rows = rows[:limit]
            preds = [r["prediction"] for r in rows]
            refs = [list(r["references"]) for r in rows]
            name = path.rsplit("/", 1)[-1]
            for stem in (False, True):
                for mode in ("max", "mean"):
                    for th in threads:
                        r = Rouge(TYPES, use_stemmer=stem, multi_ref=mode, num_threads=th)
                        f.write(json.dumps([name, stem, mode, th, hexes(r.score_examples(predictions=preds, references=refs))]) + "\\n")
                s = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=stem)
                f.write(json.dumps([name, stem, "pair", 0, hexes([s.score_multi(rf, p) for p, rf in zip(preds, refs)])]) + "\\n")
""")


def run(checkout: str, corpora: list, threads: list, limit: int, out: str) -> None:
    # In an empty directory: `python -c` puts its cwd first on the path, and no checkout (nor a stray module
    # of the shared temporary directory) may be imported from there.
    with tempfile.TemporaryDirectory() as empty:
        subprocess.run([sys.executable, "-c", CHILD, os.path.abspath(checkout), json.dumps(corpora), json.dumps(threads),
                        str(limit), out], check=True, cwd=empty)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True, help="checkout of the reference build (built in place)")
    ap.add_argument("--new", default=".", help="checkout of the build under test (built in place)")
    ap.add_argument("--corpora", default=str(DEFAULT_DIR))
    ap.add_argument("--names", nargs="*", default=None, help="corpus names (default: every *.jsonl.gz)")
    ap.add_argument("--threads", nargs="*", type=int, default=[1, 2, 3])
    ap.add_argument("--limit", type=int, default=0, help="examples per corpus (0 = all)")
    a = ap.parse_args()
    d = Path(a.corpora)
    names = a.names or sorted(p.name[:-len(".jsonl.gz")] for p in d.glob("*.jsonl.gz"))
    corpora = [str(d / f"{n}.jsonl.gz") for n in names]
    missing = [c for c in corpora if not os.path.exists(c)]
    if missing:
        print(f"compare_builds: no such corpus: {missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        outs = [os.path.join(tmp, "base.jsonl"), os.path.join(tmp, "new.jsonl")]
        run(a.base, corpora, a.threads, a.limit, outs[0])
        run(a.new, corpora, a.threads, a.limit, outs[1])
        bad = 0
        lines = 0
        with open(outs[0]) as fb, open(outs[1]) as fn:
            for lb, ln in zip(fb, fn):
                lines += 1
                b, n = json.loads(lb), json.loads(ln)
                if b != n:
                    bad += 1
                    diffs = [i for i, (x, y) in enumerate(zip(b[4], n[4])) if x != y]
                    print(f"DIFF {b[:4]}: {len(diffs)} examples differ, first {diffs[:5]}", file=sys.stderr)
        digest = hashlib.sha256(open(outs[1], "rb").read()).hexdigest()[:16]
    print(json.dumps({"corpora": len(corpora), "runs": lines, "differing_runs": bad, "digest": digest}))
    return 1 if bad or lines == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
