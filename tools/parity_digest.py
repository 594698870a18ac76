"""Every number of a fixed ROUGE workload as ``float.hex``, for comparing interpreters, CPUs and backends.

    python tools/parity_digest.py --out digest.json            # both backends, checked equal here
    python tools/parity_digest.py --compare a.json b.json ...   # exit 1 on any difference, listed

The workload is deterministic and needs nothing outside this repository: generated pairs over a
vocabulary with stemmable words, Unicode, repeats, several sentences and one to three references
(tests/corpora.py generated_corpus), plus the real corpora beside the checkout when they are present
(``--corpora``; their presence is recorded, so digests are compared only when made the same way).
Every rouge type (rouge1..4, rougeL, rougeLsum, rougeW at two weights, rougeS, rougeS4, rougeSU,
rougeSU4), every multi-reference mode, three stemmers, three tokenizers, Fβ and ROUGE-1.5.5's alpha,
per-example P/R/F, the exact corpus means and a seeded bootstrap interval, on the pure-Python backend
and, when it is built, the native one (which must agree: exit 1 otherwise).

The interpreter matrix (tools/check_interpreters.py), the baseline-x86-64 check and the aarch64 check
(tools/qemu_check.py) compare the digests of every interpreter and CPU with each other.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

TYPES = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeS4", "rougeSU", "rougeSU4"]
CONFIGS = [
    dict(use_stemmer=False),
    dict(use_stemmer="porter"),
    dict(use_stemmer="perl_porter", multi_ref="pool"),
    dict(use_stemmer="snowball:english", multi_ref="mean"),
    dict(tokenizer="whitespace", multi_ref="best_recall"),
    dict(tokenizer="unicode", use_stemmer="porter"),
    dict(multi_ref="pool", wlcs_weight=1.5, beta=2.0),
    dict(multi_ref="mean", alpha=0.3),
]


def workload(n: int, corpora: bool):
    from corpora import STRESS_CORPORA, corpus_available, generated_corpus, load_corpus

    preds, refs = generated_corpus(n, seed=21, vocab=3000, max_words=60)
    used = []
    if corpora:
        for name in STRESS_CORPORA:
            if name != "longbench_govreport" and corpus_available(name):  # long reports: minutes in Python
                p, r = load_corpus(name, limit=max(1, n // 10))
                preds += p
                refs += r
                used.append(name)
    return preds, refs, used


def hexes(x):
    if isinstance(x, float):
        return x.hex()
    if isinstance(x, (list, tuple)):
        return [hexes(v) for v in x]
    if isinstance(x, dict):
        return {k: hexes(v) for k, v in x.items()}
    return x


def run(backend: str, preds, refs) -> dict:
    from rouge_metric import Rouge

    out = {}
    for i, cfg in enumerate(CONFIGS):
        r = Rouge(TYPES, backend=backend, **cfg)
        per = r.score_examples(predictions=preds, references=refs)
        res = r.compute(predictions=preds, references=refs)
        ci = None
        if i == 0:
            boot = Rouge(["rouge1", "rougeL"], backend=backend, aggregation="bootstrap", seed=7, n_resamples=200, **cfg)
            ci = boot.compute(predictions=preds, references=refs)
        out[str(i)] = {
            "config": {k: v for k, v in sorted(cfg.items())},
            "per_example": hexes([{t: tuple(s[t]) for t in TYPES} for s in per]),
            "means": hexes({t: tuple(res.scores[t]) for t in TYPES}),
            "lengths": hexes([res.pred_len, res.ref_len]),
            "bootstrap": hexes({t: [tuple(ci.ci[t].low), tuple(ci.ci[t].high)] for t in ci.ci}) if ci else None,
        }
    return out


def make(args) -> int:
    import numpy
    import rouge_metric
    from rouge_metric import core

    preds, refs, used = workload(args.n, args.corpora)
    backends = ["python"] + (["native"] if core.native_available() else [])
    results = {b: run(b, preds, refs) for b in backends}
    status = 0
    if "native" in results and results["native"] != results["python"]:
        bad = [k for k in results["python"] if results["python"][k] != results["native"][k]]
        print(f"parity_digest: the native backend differs from the Python backend in configurations {bad}",
              file=sys.stderr)
        status = 1
    numbers = results["python"]
    digest = hashlib.sha256(json.dumps(numbers, sort_keys=True).encode()).hexdigest()
    doc = {
        "digest": digest,
        "workload": {"n": len(preds), "generated": args.n, "corpora": used},
        "backends": backends,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "numpy": numpy.__version__,
        "rouge_metric": rouge_metric.__version__,
        "numbers": numbers,
    }
    text = json.dumps(doc, sort_keys=True)
    if args.out:
        Path(args.out).write_text(text)
    print(f"parity_digest: Python {doc['python']} {doc['machine']} backends {'+'.join(backends)}: "
          f"{len(preds)} examples x {len(CONFIGS)} configurations, digest {digest[:16]}")
    return status


def compare(paths) -> int:
    docs = [json.loads(Path(p).read_text()) for p in paths]
    base = docs[0]
    status = 0
    for p, d in zip(paths[1:], docs[1:]):
        who = f"{d['python']} {d['machine']} ({p})"
        if d["workload"] != base["workload"]:
            print(f"parity_digest: {who}: a different workload {d['workload']} != {base['workload']}")
            status = 1
            continue
        if d["digest"] == base["digest"]:
            print(f"parity_digest: {who}: identical to {base['python']} {base['machine']} ({paths[0]})")
            continue
        status = 1
        for k, v in base["numbers"].items():
            w = d["numbers"].get(k)
            if w == v:
                continue
            for part in ("per_example", "means", "lengths", "bootstrap"):
                if v[part] != w[part]:
                    where = ""
                    if part == "per_example":
                        i = next(i for i, (a, b) in enumerate(zip(v[part], w[part])) if a != b)
                        where = f" first at example {i}: {v[part][i]} != {w[part][i]}"
                    print(f"parity_digest: {who}: configuration {v['config']} {part} differ{where}")
    return status


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="write the digest JSON here")
    ap.add_argument("--n", type=int, default=120, help="generated examples (default 120)")
    ap.add_argument("--corpora", action="store_true", help="add the corpora beside the checkout when present")
    ap.add_argument("--compare", nargs="+", metavar="JSON", help="compare digests; exit 1 on any difference")
    args = ap.parse_args()
    if args.compare:
        return compare(args.compare)
    return make(args)


if __name__ == "__main__":
    sys.exit(main())
