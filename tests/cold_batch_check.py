"""Run in a fresh process by tests/test_native_stress.py: native batches over a cold vocabulary,
every example compared with the pure-Python backend.

    python tests/cold_batch_check.py SOURCE N STEM THREADS REPEATS

SOURCE is a corpus name of ../shared/corpora or ``generated``; THREADS a comma-separated list. For each
thread count, REPEATS times: a new native vocabulary (the process-wide cache is emptied), then
``Rouge.score_examples`` and ``Rouge.compute`` on N examples. The first batch of the process is the
first call in a fresh process. Exit status 1 and a message on the first difference.
"""

from __future__ import annotations

import math
import sys

from rouge_metric import Rouge, core
from rouge_metric.text import get_stemmer

from corpora import generated_corpus, load_corpus


def main() -> int:
    source, n, stem, threads, repeats = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], int(sys.argv[5])
    preds, refs = generated_corpus(n, seed=7) if source == "generated" else load_corpus(source, n)
    expected = Rouge(backend="python", use_stemmer=stem).score_examples(predictions=preds, references=refs)
    for t in map(int, threads.split(",")):
        for rep in range(repeats):
            core._VOCABS.clear()  # a cold vocabulary: every word is new to the native core
            rouge = Rouge(backend="native", use_stemmer=stem, num_threads=t)
            got = rouge.score_examples(predictions=preds, references=refs)
            if stem and core.native_vocab("default", "porter", get_stemmer("porter")).native_porter != core.native_porter_checked():
                print("the native Porter is not used with a checked nltk")
                return 1
            for i, (g, e) in enumerate(zip(got, expected)):
                if g != e:
                    print(f"{source}: threads={t} repeat={rep}: example {i} differs: native {g} python {e}")
                    return 1
            if len(got) != len(expected):
                print(f"{source}: threads={t}: {len(got)} results for {len(expected)} examples")
                return 1
            mean = rouge.compute(predictions=preds, references=refs).scores
            for typ, s in mean.items():
                want = [math.fsum(e[typ][k] for e in expected) / len(expected) for k in range(3)]
                if list(s) != want:
                    print(f"{source}: threads={t}: mean of {typ} differs: {s} vs {want}")
                    return 1
    print(f"ok {source} n={len(preds)} threads={threads} repeats={repeats}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
