"""The originals of the native language stemmers (nltk's Snowball stemmers, the TurkishStemmer package), and
the comparison every stemmer test uses: the C++ twin against the original, word for word."""

from __future__ import annotations

import gzip
import json
import os
from typing import Iterable, List, Optional, Sequence, Set, Tuple

import pytest

from corpora import SHARED_CORPORA

NLTK_DATA = SHARED_CORPORA.parent / "nltk_data"


#: The originals that carry state from one stem() call to the next (nltk's ArabicStemmer).
STATEFUL = ("arabic",)


def native_names() -> Tuple[str, ...]:
    """The stemmers the built native core has a twin for (empty without the native core)."""
    try:
        from rouge_metric import _native
    except ImportError:
        return ()
    return tuple(_native.language_stemmers())


def require_twin(name: str):
    """The native twin of ``name`` (no stopwords), or skip saying why."""
    if name not in native_names():
        pytest.skip(f"this build has no native twin of {name!r}")
    if name == "TurkishStemmer":  # the twin reads its word lists from the package (the multilingual extra)
        pytest.importorskip("TurkishStemmer", reason="the TurkishStemmer package is not installed")
    from rouge_metric import _native

    return _native.LanguageStemmer(name)


def original_instance(name: str, stopwords: Optional[Sequence[str]] = None):
    """A new instance of the original: nltk's ``SnowballStemmer(name)`` (its stopwords replaced by
    ``stopwords`` when given, as ``ignore_stopwords=True`` would load them; its language stemmer, which holds
    the state) or ``TurkishStemmer()``."""
    if name == "TurkishStemmer":
        from TurkishStemmer import TurkishStemmer

        return TurkishStemmer()
    from nltk.stem.snowball import SnowballStemmer

    inner = SnowballStemmer(name).stemmer
    if stopwords is not None:
        inner.stopwords = set(stopwords)
    return inner


def original(name: str, stopwords: Optional[Sequence[str]] = None):
    """The original's stem function, each word stemmed as by a new instance (nltk's ArabicStemmer keeps a
    flag from one call to the next: reset before each word)."""
    inner = original_instance(name, stopwords)
    stem = inner.stem
    if name != "arabic":
        return stem

    def fresh(word: str) -> str:
        inner.suffixes_verb_step1_success = False
        return stem(word)

    return fresh


def assert_same(name: str, words: Iterable[str], stopwords: Optional[Sequence[str]] = None) -> int:
    """The twin equals the original on ``words`` (sorted): one instance of each over the whole list in order
    (``stem_many``, then ``stem`` word by word: the state the original carries from word to word, if any,
    must carry the same way), and every word stemmed as by a new instance (``history=False``). Returns how
    many distinct words were compared; the first differences are shown."""
    from rouge_metric import _native

    words = sorted(set(words))
    ref = original_instance(name, stopwords)
    twin = _native.LanguageStemmer(name, stopwords)
    want = [ref.stem(w) for w in words]
    got = twin.stem_many(words)
    got += [twin.stem(w) for w in words]
    fresh_twin = _native.LanguageStemmer(name, stopwords, False)
    got += fresh_twin.stem_many(words)
    if name in STATEFUL:
        fresh_ref = original(name, stopwords)
        want += [ref.stem(w) for w in words] + [fresh_ref(w) for w in words]
    else:  # the original keeps no state: its stems are the same in every pass
        want *= 3
    n = len(words)
    bad = [(words[k % n], ("instance", "instance again", "new instance")[k // n], w, g)
           for k, (w, g) in enumerate(zip(want, got)) if w != g]
    assert not bad, f"{name}: {len(bad)} of {3 * n} stems differ (word, how, original, twin): {bad[:20]}"
    if name == "arabic":
        assert twin.state == bool(ref.suffixes_verb_step1_success)
    return n


def corpus_words(limit: int = 0) -> Set[str]:
    """The words of every corpus present (``limit`` rows of each; 0: all): whitespace-split words as written
    (case and punctuation kept), and the same words lowercased and stripped of surrounding punctuation."""
    out: Set[str] = set()
    for path in sorted(SHARED_CORPORA.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for k, line in enumerate(fh):
                if limit and k >= limit:
                    break
                row = json.loads(line)
                refs = row["references"]
                for t in [row["prediction"]] + ([refs] if isinstance(refs, str) else list(refs)):
                    for w in t.split():
                        out.add(w)
                        out.add(w.lower().strip(".,;:!?\"'()[]{}«»“”‘’—-"))
    out.discard("")
    return out


def stopword_lists() -> dict:
    """Every list of nltk's stopwords corpus present in the test data: ``{language: words}``."""
    folder = NLTK_DATA / "corpora" / "stopwords"
    if not folder.is_dir():
        return {}
    out = {}
    for f in sorted(folder.iterdir()):
        if f.is_file() and f.name != "README":
            out[f.name] = [w for w in f.read_text(encoding="utf-8").splitlines() if w.rstrip()]
    return out


def env_with_nltk_data() -> dict:
    env = dict(os.environ)
    env["NLTK_DATA"] = str(NLTK_DATA)
    return env
