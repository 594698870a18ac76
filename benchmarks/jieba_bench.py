"""The jieba segmenter alone: the native twin (rouge_metric/_native_src/jieba.hpp) against jieba itself.

    python benchmarks/jieba_bench.py                      # every Chinese corpus of ../shared/corpora
    python benchmarks/jieba_bench.py --rounds 7 --load-rounds 5

- **Segmenting**: the distinct texts of each corpus (predictions and references), each segmented once per
  round by ``JiebaModel.cut`` (the native twin, no cache) and by ``jieba.lcut`` (jieba initialised
  beforehand), alternating which goes first. Before timing, every text's words are asserted equal. CPU
  seconds (``time.process_time``): medians, and the median of the per-round ratios.
- **Loading**: a fresh process per side and round, alternating: ``import jieba; jieba.initialize()``
  (jieba reads its cache file when there is one, as after its first run) against the native segmenter
  loaded through rouge_metric (``segment.raw_segmenter("jieba").fn``, jieba not imported). The child's
  CPU time (user + system), less that of a process that only imports rouge_metric (the same for both
  sides' ``python`` start-up): medians.

The machine may be shared, so the figures are CPU time; ``--json FILE`` writes them all.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Dict, List

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPORA_DIR = os.path.join(os.path.dirname(REPO), "shared", "corpora")
CORPORA = ("multisummeval_chinese", "lcsts_mocobart_chinese", "longbench_vcsum_zh")

LOADERS = {
    "base": "import rouge_metric",
    "jieba": "import rouge_metric, jieba; jieba.setLogLevel(40); jieba.initialize()",
    "native": ("import rouge_metric, sys; from rouge_metric import segment; s = segment.raw_segmenter('jieba'); "
               "s.fn; assert s.implementation == 'native' and 'jieba' not in sys.modules"),
}


def distinct_texts(name: str) -> List[str]:
    texts = set()
    with gzip.open(os.path.join(CORPORA_DIR, name + ".jsonl.gz"), "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            texts.add(row["prediction"])
            texts.update([row["references"]] if isinstance(row["references"], str) else row["references"])
    return sorted(texts)


def segmenting(name: str, rounds: int) -> Dict[str, float]:
    import jieba

    from rouge_metric import jieba_native

    jieba.setLogLevel(40)
    jieba.initialize()
    model = jieba_native.native_model(jieba_native.jieba_folder())[0]
    texts = distinct_texts(name)
    for t in texts:
        assert model.cut(t) == jieba.lcut(t), t[:80]
    rec: Dict[str, List[float]] = {"native": [], "jieba": []}
    for r in range(rounds):
        for side in (("native", "jieba") if r % 2 == 0 else ("jieba", "native")):
            cut = model.cut if side == "native" else jieba.lcut
            c0 = time.process_time()
            for t in texts:
                cut(t)
            rec[side].append(time.process_time() - c0)
    out = {k: statistics.median(v) for k, v in rec.items()}
    out["x"] = statistics.median(j / max(n, 1e-9) for j, n in zip(rec["jieba"], rec["native"]))
    out["texts"] = len(texts)
    out["chars"] = sum(map(len, texts))
    return out


def child_cpu(code: str) -> float:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, os.environ.get("PYTHONPATH", "")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=REPO)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def loading(rounds: int) -> Dict[str, float]:
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "rouge_metric")], check=False,
                   stdout=subprocess.DEVNULL)
    rec: Dict[str, List[float]] = {k: [] for k in LOADERS}
    order = list(LOADERS)
    for r in range(rounds):
        for side in (order if r % 2 == 0 else order[::-1]):
            rec[side].append(child_cpu(LOADERS[side]))
    base = statistics.median(rec["base"])
    return {"base": base, "jieba": statistics.median(rec["jieba"]) - base,
            "native": statistics.median(rec["native"]) - base}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="comma-separated corpora (default: the Chinese ones present)")
    ap.add_argument("--rounds", type=int, default=5, help="segmenting rounds (default 5)")
    ap.add_argument("--load-rounds", type=int, default=5, help="fresh-process rounds per side (default 5)")
    ap.add_argument("--json", default="", help="write every figure to this file")
    args = ap.parse_args()
    names = [n for n in (args.only.split(",") if args.only else CORPORA)
             if os.path.exists(os.path.join(CORPORA_DIR, n + ".jsonl.gz"))]
    out: Dict[str, Dict[str, float]] = {}
    print(f"# segmenting the distinct texts of each corpus: median of {args.rounds} alternating rounds, CPU seconds")
    print("| corpus | texts | characters | jieba | native | x |")
    print("|---|---:|---:|---:|---:|---:|")
    for n in names:
        m = out[n] = segmenting(n, args.rounds)
        print(f"| {n} | {m['texts']} | {m['chars']:,} | {m['jieba']:.3f} | {m['native']:.4f} | {m['x']:.1f} |",
              flush=True)
    m = out["load"] = loading(args.load_rounds)
    print(f"# loading, fresh processes: median of {args.load_rounds} rounds, CPU seconds beyond "
          f"`import rouge_metric` ({m['base']:.3f})")
    print(f"| jieba: import + initialize | {m['jieba']:.3f} |\n| native: raw_segmenter('jieba').fn | {m['native']:.3f} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
