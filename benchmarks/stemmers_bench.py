"""The native language stemmers (``rouge_metric._native.LanguageStemmer``, C++ twins) against their originals
(nltk's ``SnowballStemmer(lang).stem``, ``TurkishStemmer().stem``) on every distinct word of the corpora.

    python benchmarks/stemmers_bench.py [--corpora DIR] [--languages french,german] [--rounds 3]

The words: every whitespace-separated word of every prediction and reference of ``DIR/*.jsonl.gz`` as written,
and the same word lowercased and stripped of surrounding punctuation (what the test suite compares), once each.
First the twin's stems are checked equal to the original's on every word (exit 1 otherwise); then each round
times, in alternating order, the original's ``stem`` on every word, the twin's ``stem`` called from Python on
every word, and the twin's ``stem_many`` on the whole list. Figures: words per second of CPU time
(``time.process_time``), medians of ``--rounds`` rounds; the ratio to the original is the median of the per-round
ratios.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, List

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpora"
STRIP = ".,;:!?\"'()[]{}«»“”‘’—-"


def corpus_words(folder: Path) -> List[str]:
    words = set()
    for path in sorted(folder.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                refs = row["references"]
                for text in [row["prediction"]] + ([refs] if isinstance(refs, str) else list(refs)):
                    for w in text.split():
                        words.add(w)
                        words.add(w.lower().strip(STRIP))
    words.discard("")
    return sorted(words)


def original(name: str) -> Callable[[str], str]:
    if name == "TurkishStemmer":
        from TurkishStemmer import TurkishStemmer

        return TurkishStemmer().stem
    from nltk.stem.snowball import SnowballStemmer

    inner = SnowballStemmer(name).stemmer
    if name != "arabic":
        return inner.stem

    def fresh(word: str) -> str:  # nltk's Arabic stemmer carries a flag between words: each word as new
        inner.suffixes_verb_step1_success = False
        return inner.stem(word)

    return fresh


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", default=str(DEFAULT_DIR), help="folder of JSON-lines corpora (*.jsonl.gz)")
    ap.add_argument("--languages", default="", help="comma-separated stemmer names (default: every native twin)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from rouge_metric import _native

    names = args.languages.split(",") if args.languages else list(_native.language_stemmers())
    words = corpus_words(Path(args.corpora))
    if not words:
        print(f"no words: no *.jsonl.gz in {args.corpora}", file=sys.stderr)
        return 2
    print(f"# {len(words):,} distinct words of {args.corpora}; words per second of CPU, median of {args.rounds} "
          f"rounds; x = twin / original")
    print("| stemmer | original | twin, stem() per word | x | twin, stem_many | x |")
    print("|---|---:|---:|---:|---:|---:|")
    status = 0
    for name in names:
        ref = original(name)
        twin = _native.LanguageStemmer(name, None, False)
        want = [ref(w) for w in words]
        got = twin.stem_many(words)
        bad = [(w, a, b) for w, a, b in zip(words, want, got) if a != b]
        if bad:
            print(f"| {name} | stems differ on {len(bad)} words, e.g. {bad[:3]} | | | | |")
            status = 1
            continue
        times = {"original": [], "stem": [], "stem_many": []}
        for r in range(args.rounds):
            order = ["original", "stem", "stem_many"]
            for side in order if r % 2 == 0 else order[::-1]:
                t0 = time.process_time()
                if side == "original":
                    [ref(w) for w in words]
                elif side == "stem":
                    stem = twin.stem
                    [stem(w) for w in words]
                else:
                    twin.stem_many(words)
                times[side].append(time.process_time() - t0)
        rate = {k: len(words) / statistics.median(v) for k, v in times.items()}
        x = {k: statistics.median(o / t for o, t in zip(times["original"], times[k])) for k in ("stem", "stem_many")}
        print(f"| {name} | {rate['original']:,.0f} | {rate['stem']:,.0f} | {x['stem']:.0f} | {rate['stem_many']:,.0f} "
              f"| {x['stem_many']:.0f} |", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
