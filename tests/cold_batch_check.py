"""Run in a fresh process by tests/test_native_stress.py: native batches over a cold vocabulary,
every example compared with the pure-Python backend.

    python tests/cold_batch_check.py SOURCE N STEM THREADS REPEATS

SOURCE is a corpus name of ../shared/corpora or ``generated``; THREADS a comma-separated list. For each
thread count, REPEATS times each way of building the vocabulary below: a new native vocabulary (the
process-wide cache is emptied), then ``Rouge.score_examples`` and ``Rouge.compute`` on N examples. The
first batch of the process is the first call in a fresh process. Exit status 1 and a message on the
first difference.

The ways: the defaults (every example of a first batch on several threads scored from the docs kept while
its vocabulary was built); no docs kept (every example tokenized again); room for a few docs only,
with chunks so short that the first chunk (the cold one, larger) is followed by chunks that meet new
words with a vocabulary already built; and a few words first (a one-example call, on one thread, of
words the batch does not have): on several threads the batch starts the vocabulary again, which then
holds the batch's words only, as a fresh process's does.
"""

from __future__ import annotations

import math
import sys

from rouge_metric import Rouge, backends, core
from rouge_metric.text import get_stemmer

from corpora import generated_corpus, load_corpus


def main() -> int:
    source, n, stem, threads, repeats = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], int(sys.argv[5])
    preds, refs = generated_corpus(n, seed=7) if source == "generated" else load_corpus(source, n)
    expected = Rouge(backend="python", use_stemmer=stem).score_examples(predictions=preds, references=refs)
    native = core.native_module()
    defaults = native._set_limits(), backends.NATIVE_CHUNK, backends.NATIVE_COLD_CHUNK
    ways = {"defaults": defaults, "no docs kept": ((None, None, None, 0), None, None),
            "few docs kept, short chunks": ((None, None, None, 2048), 64, 160),
            "a few words first": (defaults[0], None, None)}
    vocab = lambda: core.native_vocab("default", "porter" if stem else None, get_stemmer("porter") if stem else None)  # noqa: E731
    fresh_size = {}
    for t in map(int, threads.split(",")):
        for rep in range(repeats * len(ways)):
            way = list(ways)[rep % len(ways)]
            limits, chunk, cold_chunk = ways[way]
            native._set_limits(*limits)
            backends.NATIVE_CHUNK = chunk or defaults[1]
            backends.NATIVE_COLD_CHUNK = cold_chunk or defaults[2]
            core._VOCABS.clear()  # a cold vocabulary: every word is new to the native core
            rouge = Rouge(backend="native", use_stemmer=stem, num_threads=t)
            if way == "a few words first":
                rouge.score_examples(predictions=["zqxjv qqzzk"], references=[["zqxjv vvqqk"]])
            got = rouge.score_examples(predictions=preds, references=refs)
            size = vocab().size
            if way == "defaults":
                fresh_size[t] = size
            elif way == "a few words first" and t > 1 and size != fresh_size[t]:
                print(f"{source}: threads={t} repeat={rep} ({way}): the vocabulary has {size} forms, "
                      f"a fresh one {fresh_size[t]}: it did not start again")
                return 1
            if stem and vocab().native_porter != core.native_porter_checked():
                print("the native Porter is not used with a checked nltk")
                return 1
            for i, (g, e) in enumerate(zip(got, expected)):
                if g != e:
                    print(f"{source}: threads={t} repeat={rep} ({way}): example {i} differs: native {g} python {e}")
                    return 1
            if len(got) != len(expected):
                print(f"{source}: threads={t}: {len(got)} results for {len(expected)} examples")
                return 1
            core._VOCABS.clear()
            rouge = Rouge(backend="native", use_stemmer=stem, num_threads=t)
            mean = rouge.compute(predictions=preds, references=refs).scores
            for typ, s in mean.items():
                want = [math.fsum(e[typ][k] for e in expected) / len(expected) for k in range(3)]
                if list(s) != want:
                    print(f"{source}: threads={t} ({way}): mean of {typ} differs: {s} vs {want}")
                    return 1
    native._set_limits(*defaults[0])
    print(f"ok {source} n={len(preds)} threads={threads} repeats={repeats}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
