"""The XL-Sum recipe (``rouge_metric.xlsum.XLSumRouge``) against XL-Sum's own scorer (PyPI
``multilingual-rouge`` 0.0.1, ``RougeScorer(...).score`` per pair, what XL-Sum users run), on every real
multilingual corpus of ../shared/corpora, each in its own language: every pair's P, R and F asserted equal.

    PYTHON=python bash tools/xlsum_oracle_env.sh          # the oracle and the segmenters
    NLTK_DATA=../shared/nltk_data python benchmarks/xlsum_bench.py                  # warm and cold
    NLTK_DATA=../shared/nltk_data python benchmarks/xlsum_bench.py --only wikillm_japanese --rounds 7

Settings: rouge1, rouge2, rougeL, rougeLsum, ``use_stemmer=True`` (``--no-stemmer``: False), ``lang=`` the
corpus's language; every (prediction, reference) pair of the corpus (multi-reference rows give one pair per
reference). Ours is ``XLSumRouge(...).score_examples`` on the whole batch (native backend when built).

- **Warm**: one process; both scorers built and called once on the corpus untimed (that call is the
  parity check); then ``--rounds`` rounds alternating which side runs first. Each round times the oracle
  and ours twice: *cache-cold* (every cache of ours emptied just before, ``XLSumRouge.clear_cache``: tokens
  per text, per rougeLsum line, stems per token, the segmenter's output and the scorer's token ids: the work
  of a first call, imports and loading aside) and
  *cache-hot* (the caches as the previous call left them). Medians of CPU time (``time.process_time``)
  and of wall time; the ratio is the median of the per-round ratios.
- **Cold**: a fresh process per side and round (``--cold-rounds``, alternating order): imports, building
  the scorer, reading the corpus and scoring it, as a script run once does. Bytecode is compiled first
  (``compileall`` of the package and of the oracle), as an installed package has it. Medians of the
  child's CPU time (user + system, ``resource.getrusage``) and of its wall time.

The machine is shared, so CPU time is the figure docs/performance.md reports; wall time is printed too.
``--external`` prints instead how much of our cache-cold call is third-party work: the segmenter (or
pyonmttok) run on every unique text and the stemmer on every unique token it stems. ``--json FILE`` writes every figure.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any, Dict, List, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPORA_DIR = os.path.join(os.path.dirname(REPO), "shared", "corpora")
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

#: corpus -> XL-Sum language name (the ``lang`` field of the rows, where they have one).
CORPORA: Dict[str, str] = {
    "multisummeval_indonesian": "indonesian",
    "multisummeval_french": "french",
    "multisummeval_turkish": "turkish",
    "multisummeval_russian": "russian",
    "multisummeval_german": "german",
    "multisummeval_spanish": "spanish",
    "multisummeval_chinese": "chinese",
    "lcsts_mocobart_chinese": "chinese",
    "basse_spanish": "spanish",
    "basse_basque": "basque",
    "wikillm_japanese": "japanese",
    "mlsum_es": "spanish",
    "de_cnndm_t5": "german",
    "longbench_vcsum_zh": "chinese",
}


def load_pairs(name: str) -> Tuple[List[str], List[str]]:
    """(predictions, references): one pair per reference of each row."""
    preds, refs = [], []
    with gzip.open(os.path.join(CORPORA_DIR, name + ".jsonl.gz"), "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            for ref in row["references"]:
                preds.append(row["prediction"])
                refs.append(ref)
    return preds, refs


def oracle_scorer(lang: str, stem: bool = True) -> Any:
    from multilingual_rouge import rouge_scorer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rouge_scorer.RougeScorer(TYPES, use_stemmer=stem, lang=lang)


def our_scorer(lang: str, stem: bool = True) -> Any:
    from rouge_metric.xlsum import XLSumRouge

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return XLSumRouge(TYPES, use_stemmer=stem, lang=lang)


def run_oracle(scorer: Any, preds: List[str], refs: List[str]) -> List[Dict[str, Any]]:
    return [scorer.score(r, p) for p, r in zip(preds, refs)]


def run_ours(scorer: Any, preds: List[str], refs: List[str]) -> List[Dict[str, Any]]:
    return scorer.score_examples(predictions=preds, references=refs)


def check_equal(name: str, want: List[Dict[str, Any]], got: List[Dict[str, Any]]) -> None:
    assert len(want) == len(got), (name, len(want), len(got))
    for i, (w, g) in enumerate(zip(want, got)):
        for t in TYPES:
            a, b = w[t], g[t]
            if (float(a.precision), float(a.recall), float(a.fmeasure)) != (b.precision, b.recall, b.fmeasure):
                raise SystemExit(f"{name}: pair {i} {t}: oracle {a} != ours {b}")


def timed(fn: Any) -> Tuple[float, float, Any]:
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return time.process_time() - c0, time.perf_counter() - w0, out


def warm(name: str, rounds: int, stem: bool) -> Dict[str, Any]:
    lang = CORPORA[name]
    preds, refs = load_pairs(name)
    oracle, ours = oracle_scorer(lang, stem), our_scorer(lang, stem)
    want = run_oracle(oracle, preds, refs)
    check_equal(name, want, run_ours(ours, preds, refs))
    rec: Dict[str, List[float]] = {k: [] for k in ("oracle_cpu", "oracle_wall", "cold_cpu", "cold_wall",
                                                   "hot_cpu", "hot_wall")}
    for r in range(rounds):
        sides = ["oracle", "cold", "hot"] if r % 2 == 0 else ["cold", "hot", "oracle"]
        for side in sides:
            if side == "oracle":
                cpu, wall, out = timed(lambda: run_oracle(oracle, preds, refs))
            else:
                if side == "cold":
                    ours.clear_cache()
                cpu, wall, out = timed(lambda: run_ours(ours, preds, refs))
                if r == 0 and side == "cold":
                    check_equal(name, want, out)
            rec[side + "_cpu"].append(cpu)
            rec[side + "_wall"].append(wall)
    med = {k: statistics.median(v) for k, v in rec.items()}
    for side in ("cold", "hot"):
        for unit in ("cpu", "wall"):
            med[f"x_{side}_{unit}"] = statistics.median(
                o / max(s, 1e-9) for o, s in zip(rec["oracle_" + unit], rec[f"{side}_{unit}"]))
    med.update(pairs=len(preds), lang=lang)
    return med


def external_share(name: str, rounds: int, stem: bool) -> Dict[str, Any]:
    """CPU seconds of the third-party work inside one cache-cold call of ours: the segmenter (pyonmttok's
    tokenizer where the language has none) on every unique cleaned text, uncached, and the stemmer on every
    unique token it stems (medians of ``rounds``)."""
    from rouge_metric.xlsum import clean_words

    lang = CORPORA[name]
    preds, refs = load_pairs(name)
    ours = our_scorer(lang, stem)
    tok = ours.tokenizer
    run_ours(ours, preds, refs)
    seg = getattr(tok.segmenter, "fn", tok.segmenter)  # the segmenter itself, without its cache
    cleaned = sorted({" ".join(clean_words(t.lower().strip())) for t in set(preds) | set(refs)})
    words = set()
    for c in cleaned:
        toks = seg(c) if seg is not None else ()
        words.update(toks if toks or not c else tok.fallback(c))
    for t in set(preds) | set(refs):
        for line in t.split("\n"):
            words.update(clean_words(line.lower()))
    stemmed = sorted(w for w in words if len(w) > tok.min_char_length) if tok.stem is not None else []
    rec: Dict[str, List[float]] = {"cold_cpu": [], "seg_cpu": [], "stem_cpu": []}
    for _ in range(rounds):
        ours.clear_cache()
        rec["cold_cpu"].append(timed(lambda: run_ours(ours, preds, refs))[0])
        rec["seg_cpu"].append(timed(lambda: [seg(c) if seg is not None else tok.fallback(c) for c in cleaned])[0])
        rec["stem_cpu"].append(timed(lambda: [tok.stem(w) for w in stemmed])[0])
    out = {k: statistics.median(v) for k, v in rec.items()}
    out.update(unique_texts=len(cleaned), stemmed_tokens=len(stemmed))
    return out


CHILD = r"""
import sys, warnings
sys.path.insert(0, {bench!r})
import xlsum_bench as B
name, side, stem = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
scorer = (B.oracle_scorer if side == "oracle" else B.our_scorer)(B.CORPORA[name], stem)
preds, refs = B.load_pairs(name)
out = (B.run_oracle if side == "oracle" else B.run_ours)(scorer, preds, refs)
print(len(out))
"""


def child(name: str, side: str, stem: bool) -> Tuple[float, float]:
    code = CHILD.format(bench=os.path.dirname(os.path.abspath(__file__)))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, name, side, "1" if stem else "0"], check=True, stdout=subprocess.DEVNULL, cwd=REPO)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def cold(name: str, rounds: int, stem: bool) -> Dict[str, Any]:
    rec: Dict[str, List[float]] = {k: [] for k in ("oracle_cpu", "oracle_wall", "ours_cpu", "ours_wall")}
    for r in range(rounds):
        for side in (("oracle", "ours") if r % 2 == 0 else ("ours", "oracle")):
            cpu, wall = child(name, side, stem)
            rec[side + "_cpu"].append(cpu)
            rec[side + "_wall"].append(wall)
    med = {k: statistics.median(v) for k, v in rec.items()}
    for unit in ("cpu", "wall"):
        med["x_" + unit] = statistics.median(o / max(s, 1e-9) for o, s in zip(rec["oracle_" + unit], rec["ours_" + unit]))
    return med


def compile_bytecode() -> None:
    """Bytecode of the package and of the oracle, as installed packages have it (this machine sets
    PYTHONDONTWRITEBYTECODE, so an editable checkout would otherwise compile in every fresh process)."""
    import multilingual_rouge

    for path in (os.path.join(REPO, "rouge_metric"), os.path.dirname(multilingual_rouge.__file__),
                 os.path.dirname(os.path.abspath(__file__))):
        subprocess.run([sys.executable, "-m", "compileall", "-q", path], check=False, stdout=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="comma-separated corpora (default: all present)")
    ap.add_argument("--rounds", type=int, default=5, help="warm rounds (default 5)")
    ap.add_argument("--cold-rounds", type=int, default=3, help="fresh-process rounds per side (default 3)")
    ap.add_argument("--no-stemmer", action="store_true", help="use_stemmer=False on both sides")
    ap.add_argument("--no-warm", action="store_true")
    ap.add_argument("--no-cold", action="store_true")
    ap.add_argument("--external", action="store_true",
                    help="instead of timing against the oracle: the segmenter's and the stemmer's CPU time inside "
                         "our cache-cold call")
    ap.add_argument("--json", default="", help="write every figure to this file")
    args = ap.parse_args()
    names = [n for n in (args.only.split(",") if args.only else CORPORA)
             if os.path.exists(os.path.join(CORPORA_DIR, n + ".jsonl.gz"))]
    from rouge_metric import active_backend

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"# {cpu}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}, backend {active_backend()}, "
          f"NLTK_DATA={os.environ.get('NLTK_DATA', '')}, use_stemmer={not args.no_stemmer}")
    out: Dict[str, Any] = {}
    if args.external:
        print(f"# third-party work in one cache-cold call of ours: median of {args.rounds} rounds, CPU seconds")
        print("| corpus | lang | ours, cache-cold | segmenter or pyonmttok (unique texts) | stemmer (unique tokens) | share |")
        print("|---|---|---:|---:|---:|---:|")
        for n in names:
            m = external_share(n, args.rounds, not args.no_stemmer)
            out[n] = m
            print(f"| {n} | {CORPORA[n]} | {m['cold_cpu']:.4f} | {m['seg_cpu']:.4f} ({m['unique_texts']}) | "
                  f"{m['stem_cpu']:.4f} ({m['stemmed_tokens']}) | "
                  f"{(m['seg_cpu'] + m['stem_cpu']) / max(m['cold_cpu'], 1e-9):.0%} |", flush=True)
        args.no_warm = args.no_cold = True
    if not args.no_warm:
        print(f"# warm: median of {args.rounds} alternating rounds, seconds of CPU (wall); ratio = oracle / ours")
        print("| corpus | lang | pairs | oracle | ours, cache-cold | x | ours, cache-hot | x |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for n in names:
            m = warm(n, args.rounds, not args.no_stemmer)
            out.setdefault(n, {})["warm"] = m
            print(f"| {n} | {m['lang']} | {m['pairs']} | {m['oracle_cpu']:.3f} ({m['oracle_wall']:.3f}) | "
                  f"{m['cold_cpu']:.4f} ({m['cold_wall']:.4f}) | {m['x_cold_cpu']:.1f} ({m['x_cold_wall']:.1f}) | "
                  f"{m['hot_cpu']:.4f} ({m['hot_wall']:.4f}) | {m['x_hot_cpu']:.1f} ({m['x_hot_wall']:.1f}) |",
                  flush=True)
    if not args.no_cold:
        compile_bytecode()
        print(f"# cold: fresh processes, median of {args.cold_rounds} alternating rounds, seconds of CPU (wall)")
        print("| corpus | lang | oracle | ours | x |")
        print("|---|---|---:|---:|---:|")
        for n in names:
            m = cold(n, args.cold_rounds, not args.no_stemmer)
            out.setdefault(n, {})["cold"] = m
            print(f"| {n} | {CORPORA[n]} | {m['oracle_cpu']:.2f} ({m['oracle_wall']:.2f}) | "
                  f"{m['ours_cpu']:.2f} ({m['ours_wall']:.2f}) | {m['x_cpu']:.1f} ({m['x_wall']:.1f}) |", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
