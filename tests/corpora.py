"""Inputs for the stress and cold-start tests: the real corpora of ../shared/corpora (when present)
and generated text with a large vocabulary (always available)."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import List, Tuple

SHARED_CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"

#: English news (short and long), long reports, German, Spanish and Chinese.
STRESS_CORPORA = ("cnndm_simcls_nl", "xsum_halluc", "longbench_govreport", "de_cnndm_t5", "mlsum_es",
                  "longbench_vcsum_zh")

Pairs = Tuple[List[str], List[List[str]]]


def corpus_available(name: str) -> bool:
    return (SHARED_CORPORA / f"{name}.jsonl.gz").is_file()


def load_corpus(name: str, limit: int = 0) -> Pairs:
    """(predictions, references) of ``../shared/corpora/<name>.jsonl.gz`` (the first ``limit`` rows)."""
    preds: List[str] = []
    refs: List[List[str]] = []
    with gzip.open(SHARED_CORPORA / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            preds.append(row["prediction"])
            r = row["references"]
            refs.append([r] if isinstance(r, str) else list(r))
            if limit and len(preds) >= limit:
                break
    return preds, refs


def corpus_tokens() -> Tuple[set, set]:
    """Every distinct token of every corpus of ../shared/corpora present: the default tokenizer's, and the
    ASCII ones of the whitespace tokenizer (case and punctuation kept). For the stemmer oracle tests."""
    from rouge_metric import text

    toks, ws = set(), set()
    for path in sorted(SHARED_CORPORA.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                refs = row["references"]
                for t in [row["prediction"]] + ([refs] if isinstance(refs, str) else list(refs)):
                    toks.update(text.default_tokenize(t))
                    ws.update(w for w in text.whitespace_tokenize(t) if w.isascii())
    return toks, ws


_EXTRA = ["İstanbul", "\u212aelvin", "café", "naïve", "Straße", "日本語", "Москва", "—", "“quoted”", "3.14",
          "U.S.", "state-of-the-art", "don't", "ﬁne"]


def generated_corpus(n: int, seed: int = 0, vocab: int = 20000, max_words: int = 120) -> Pairs:
    """News-like pairs over a vocabulary of ``vocab`` made-up words (a cold vocabulary meets thousands
    of new words per batch, spread over every thread), with a few lines per text, some Unicode and
    punctuation, and one to three references per example."""
    rnd = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rnd.choice(letters) for _ in range(rnd.randint(2, 12))) + rnd.choice(["", "s", "ing", "ed", "ation"])
             for _ in range(vocab)]

    def text() -> str:
        out = []
        for k in range(rnd.randint(0, max_words)):
            w = rnd.choice(words) if rnd.random() < 0.97 else rnd.choice(_EXTRA)
            out.append(w.capitalize() if rnd.random() < 0.1 else w)
            out.append(rnd.choice([" "] * 12 + ["\n", ", ", ". ", "\t"]))
        return "".join(out)

    preds = [text() for _ in range(n)]
    refs = [[text() for _ in range(rnd.choice([1, 1, 1, 2, 3]))] for _ in range(n)]
    return preds, refs
