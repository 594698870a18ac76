"""Every rouge type, on both backends, to the last bit: the smoke test of an installed rouge_metric.

    python tools/backend_check.py                   # native vs pure Python in this process; exit 1 on a difference
    python tools/backend_check.py --require-native  # also fail unless the native backend is the active one
    python tools/backend_check.py --emit native > n.json   # float.hex of every value, one backend only
    python tools/backend_check.py --compare n.json p.json  # two such files
    python tools/backend_check.py --corpora ...            # also the first rows of ../shared/corpora

It scores a fixed pseudo-random corpus (seeded; short texts and texts longer than one and two 64-bit
words of the bit-parallel LCS, newline sentences, repeats, non-ASCII words) with rouge1..rouge4, rougeL,
rougeLsum, rougeW, rougeS, rougeS4, rougeSU, rougeSU4, under every multi-reference mode, the default,
whitespace and unicode tokenizers, no stemmer / porter / perl_porter, and token ids, and compares the
``float.hex`` of every precision, recall and F-measure; Snowball stemming, Fβ with another rougeW weight
and ROUGE-1.5.5's alpha; and, where numpy is importable, the exact corpus means and a seeded bootstrap
interval. ``--emit`` exists for runs where the two
backends cannot share a process: the native core under an emulated CPU (tools/check_baseline_cpu.py),
the pure-Python twin on the host. ``--without-numpy`` makes ``import numpy`` fail and leaves out the
two configurations that stem non-ASCII words with nltk's Porter (nltk imports numpy): numpy 2 wheels
need an x86-64-v2 CPU (POPCNT, SSE4.2), so on the baseline CPU it is numpy, not rouge_metric, that
dies; every other configuration (the native Porter included) runs without numpy. Used by cibuildwheel's test command (pyproject.toml) and
tools/check_wheel.py on every built wheel, and to compare interpreters (tools/check_interpreters.py) and
CPUs (tools/check_baseline_cpu.py, tools/check_aarch64.py) with each other.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, Dict, List

ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW", "rougeS", "rougeS4",
               "rougeSU", "rougeSU4"]
MODES = ["max", "mean", "pool", "best_recall"]
TEXT_CONFIGS = [
    ("default", False), ("default", "porter"), ("default", "perl_porter"),
    ("whitespace", False), ("whitespace", "porter"),
    ("unicode", False), ("unicode", "porter"),
]
WORDS = ("the cat sat on mat dog running runs ran hat with and of a was jumps quick brown fox lazy "
         "connection connected generously relational Über café naïve 東京 北京 x1 42 the the a").split()


def corpus(seed: int = 21, n: int = 36):
    """``(predictions, references)``: lengths up to 150 tokens (LCS rows of 1, 2 and 3 machine words)."""
    rng = random.Random(seed)

    def text() -> str:
        k = rng.choice([0, 1, 3, 8, 20, 63, 64, 65, 90, 130, 150])
        words = [rng.choice(WORDS) for _ in range(k)]
        for i in range(len(words) - 1):
            if rng.random() < 0.08:
                words[i] += "\n"
        return " ".join(words).replace("\n ", "\n")

    preds = [text() for _ in range(n)]
    refs = [[text() for _ in range(rng.choice([1, 2, 3]))] for _ in range(n)]
    return preds, refs


def id_corpus(seed: int = 22, n: int = 36):
    rng = random.Random(seed)

    def seq() -> List[int]:
        return [rng.choice([1, 2, 3, 4, 5, 6, 7, 9, 2 ** 40, -100]) for _ in range(rng.choice([0, 2, 40, 70, 140]))]

    return [seq() for _ in range(n)], [[seq() for _ in range(rng.choice([1, 2, 3]))] for _ in range(n)]


#: Configurations whose stemmer imports nltk (and so numpy): nltk's Porter on non-ASCII words.
NEEDS_NUMPY = {("whitespace", "porter"), ("unicode", "porter")}
#: More settings on the default tokenizer (name, options, needs numpy): nltk's Snowball, Fβ with rougeW's
#: weight, ROUGE-1.5.5's alpha.
MORE_CONFIGS = [
    ("snowball|mean", dict(use_stemmer="snowball:english", multi_ref="mean"), True),
    ("pool|w1.5|beta2", dict(multi_ref="pool", wlcs_weight=1.5, beta=2.0), False),
    ("mean|alpha0.3", dict(multi_ref="mean", alpha=0.3), False),
]
#: Real corpora (../shared/corpora beside the checkout, when present; --corpora): news in English,
#: German, Spanish and Chinese; the first rows of each.
CORPORA = ("cnndm_simcls_nl", "xsum_halluc", "de_cnndm_t5", "mlsum_es", "longbench_vcsum_zh")


def real_corpora(rows: int = 12):
    """``(predictions, references, names)`` of the first ``rows`` pairs of each corpus in CORPORA present."""
    import gzip
    import os

    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..", "shared", "corpora")
    preds, refs, names = [], [], []
    for name in CORPORA:
        path = os.path.join(root, f"{name}.jsonl.gz")
        if not os.path.isfile(path):
            continue
        names.append(name)
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for k, line in enumerate(fh):
                if k == rows:
                    break
                row = json.loads(line)
                r = row["references"]
                preds.append(row["prediction"])
                refs.append([r] if isinstance(r, str) else list(r))
    return preds, refs, names


def scores(backend: str, without_numpy: bool = False, corpora: bool = False) -> Dict[str, Any]:
    """``{config name: [[type, P.hex, R.hex, F.hex] per type] per example}`` on ``backend``; with numpy,
    also the exact corpus means and a seeded bootstrap interval (``corpus|...`` entries)."""
    if without_numpy:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # import numpy -> ImportError
    from rouge_metric import Rouge

    out: Dict[str, Any] = {}
    preds, refs = corpus()
    if corpora:
        more_p, more_r, names = real_corpora()
        preds, refs = preds + more_p, refs + more_r
        out["corpora"] = names
    for name, options, needs_numpy in MORE_CONFIGS:
        if without_numpy and needs_numpy:
            continue
        rouge = Rouge(ROUGE_TYPES, backend=backend, **options)
        out[f"default|{name}"] = _hex(rouge.score_examples(predictions=preds, references=refs))
        if not without_numpy:
            res = rouge.compute(predictions=preds, references=refs)
            out[f"corpus|{name}"] = [[[t, *(x.hex() for x in res.scores[t])] for t in ROUGE_TYPES]]
    if not without_numpy:
        boot = Rouge(["rouge1", "rougeL", "rougeW"], backend=backend, aggregation="bootstrap", seed=7, n_resamples=200)
        res = boot.compute(predictions=preds, references=refs)
        out["corpus|bootstrap"] = [[[t, *(x.hex() for x in (*res.ci[t].low, *res.ci[t].high))] for t in res.ci]]
    for mode in MODES:
        for tok, stem in TEXT_CONFIGS:
            if without_numpy and (tok, stem) in NEEDS_NUMPY:
                continue
            rouge = Rouge(ROUGE_TYPES, tokenizer=tok, use_stemmer=stem, multi_ref=mode, backend=backend)
            rows = rouge.score_examples(predictions=preds, references=refs)
            out[f"{tok}|{stem or 'none'}|{mode}"] = _hex(rows)
        ipreds, irefs = id_corpus()
        rouge = Rouge(ROUGE_TYPES, tokenizer="ids", ignore_ids=[-100], multi_ref=mode, backend=backend)
        out[f"ids|none|{mode}"] = _hex(rouge.score_examples(predictions=ipreds, references=irefs))
    return out


def _hex(rows) -> List[List[List[str]]]:
    return [[[t, s.precision.hex(), s.recall.hex(), s.fmeasure.hex()] for t, s in row.items()] for row in rows]


def differences(a: Dict[str, Any], b: Dict[str, Any], limit: int = 10) -> List[str]:
    """Up to ``limit`` descriptions of where ``a`` and ``b`` differ (empty: identical)."""
    out = []
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            out.append(f"{key}: only in one run")
        elif a[key] != b[key]:
            for i, (ra, rb) in enumerate(zip(a[key], b[key])):
                if ra != rb:
                    out.append(f"{key}: example {i}: {ra} != {rb}")
                    break
            else:
                out.append(f"{key}: {len(a[key])} vs {len(b[key])} examples")
        if len(out) >= limit:
            break
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--require-native", action="store_true", help="fail unless the native backend is active")
    ap.add_argument("--emit", choices=["native", "python"], help="print the float.hex JSON of one backend")
    ap.add_argument("--compare", nargs=2, metavar="JSON", help="compare two --emit outputs")
    ap.add_argument("--without-numpy", action="store_true", help="numpy unimportable; no nltk-stemmed configurations")
    ap.add_argument("--corpora", action="store_true", help="add the first rows of the corpora beside the checkout")
    ap.add_argument("--out", help="write the pure-Python backend's JSON (--emit: that backend's) to this file")
    args = ap.parse_args(argv)
    if args.compare:
        a, b = (json.load(open(p, encoding="utf-8")) for p in args.compare)
        diff = differences(a, b)
    else:
        import rouge_metric

        backend = rouge_metric.active_backend()
        print(f"rouge_metric {rouge_metric.__version__} from {rouge_metric.__file__}: active backend {backend}",
              file=sys.stderr)
        if args.require_native and backend != "native":
            print("backend_check: the native backend is not active (is the extension in the wheel?)", file=sys.stderr)
            return 1
        if args.emit:
            result = scores(args.emit, args.without_numpy, args.corpora)
            if args.out:
                with open(args.out, "w", encoding="utf-8") as fh:
                    json.dump(result, fh)
            else:
                json.dump(result, sys.stdout)
            return 0
        native = scores("native", args.without_numpy, args.corpora)
        python = scores("python", args.without_numpy, args.corpora)
        if args.out:  # the numbers, for comparing runs (--compare)
            with open(args.out, "w", encoding="utf-8") as fh:
                json.dump(python, fh)
        diff = differences(native, python)
    n = sum(len(v) for v in (a if args.compare else native).values())
    for line in diff:
        print("DIFFERENT", line, file=sys.stderr)
    print(f"backend_check: {len(diff) == 0 and 'identical' or 'DIFFERENT'} float.hex over {n} examples x "
          f"{len(ROUGE_TYPES)} types", file=sys.stderr)
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
