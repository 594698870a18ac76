"""Language stemmers: nltk's Snowball stemmers and the TurkishStemmer package, as their C++ twins when the
native core has them, else the Python originals; and nltk's stopword lists, read without importing nltk.

A twin gives, for every ``str``, exactly what its original's ``stem()`` gives (``tests/test_stemmers.py``
checks each against the original on the test corpora's words, the stopword lists, words built from every
suffix of every rule and hypothesis strings). It is used only where that check holds: the native core is
the backend, it has the twin (``rouge_metric._native.language_stemmers()``), and the installed original
is a version the twin was checked against (:data:`NATIVE_SNOWBALL_NLTK`, :data:`NATIVE_TURKISHSTEMMER`);
otherwise the original runs. The stems are the same either way, so the signature does not say which ran.

>>> stem = snowball("english")
>>> stem("running"), stem.stem_many(["generously", "cats"])
('run', ['generous', 'cat'])
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, List, Optional, Sequence, Tuple

from . import core

#: nltk versions, ``[low, high)`` as (major, minor), whose Snowball stemmers (and stopword corpus reader)
#: the native twins were checked against; with another nltk, nltk's own stemmers run.
NATIVE_SNOWBALL_NLTK = core.NATIVE_PORTER_NLTK

#: TurkishStemmer versions whose stemmer the native twin was checked against.
NATIVE_TURKISHSTEMMER: Tuple[str, ...] = ("1.3",)

#: nltk's Snowball languages (``SnowballStemmer.languages``), ``porter`` included.
SNOWBALL_NAMES: Tuple[str, ...] = (
    "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian",
    "norwegian", "porter", "portuguese", "romanian", "russian", "spanish", "swedish",
)


class LanguageStemmer:
    """One language's stemmer: ``stemmer(word)`` (also ``stem``) and ``stem_many(words)``, the original's
    ``stem()`` of each word. ``native`` is True when the C++ twin runs.

    ``state``: what the original instance carries from one call to the next, which changes later stems. Only
    nltk's ``ArabicStemmer`` has any: its ``suffixes_verb_step1_success`` flag is never reset, so after the
    first word that passes that step, every later word of the instance takes the other branch. A stemmer made
    with ``history=False`` stems every word as a new instance does (the state is False before each word)."""

    def __init__(self, name: str, stem: Callable[[str], str],
                 stem_many: Optional[Callable[[Sequence[str]], List[str]]] = None, native: bool = False,
                 state: Optional[Any] = None, new: Optional[Callable[[], "LanguageStemmer"]] = None) -> None:
        self.name = name
        self.stem = stem
        self.native = native
        self._many = stem_many
        self._state = state  # an object with a read/write ``state`` attribute, or None (stateless)
        self._new = new

    @property
    def stateful(self) -> bool:
        """True when a stem can depend on the words this instance stemmed before (see :attr:`state`)."""
        return self._state is not None

    def new(self) -> "LanguageStemmer":
        """A new instance with the same settings (its state as a new original instance's)."""
        if self._new is None:
            raise TypeError(f"{self!r} cannot make a new instance of itself")
        return self._new()

    def __call__(self, word: str) -> str:
        return self.stem(word)

    def stem_many(self, words: Sequence[str]) -> List[str]:
        if self._many is not None:
            return self._many(words)
        stem = self.stem
        return [stem(w) for w in words]

    @property
    def state(self) -> bool:
        return bool(self._state.state) if self._state is not None else False

    @state.setter
    def state(self, value: bool) -> None:
        if self._state is not None:
            self._state.state = bool(value)

    def __repr__(self) -> str:
        return f"LanguageStemmer({self.name!r}, native={self.native})"


class _NltkArabicState:
    """The state of an nltk ``ArabicStemmer`` instance (its class-level default is False)."""

    def __init__(self, stemmer: Any) -> None:
        self._stemmer = stemmer

    @property
    def state(self) -> bool:
        return bool(self._stemmer.suffixes_verb_step1_success)

    @state.setter
    def state(self, value: bool) -> None:
        self._stemmer.suffixes_verb_step1_success = value


def _twin(name: str, stopwords: Optional[Sequence[str]], backend: Optional[str],
          history: bool = True) -> Optional[LanguageStemmer]:
    if core.get_backend(backend) != "native":
        return None
    mod = core.kernels("native")
    if name not in getattr(mod, "language_stemmers", lambda: ())():
        return None
    twin = mod.LanguageStemmer(name, stopwords, history)
    return LanguageStemmer(name, twin.stem, twin.stem_many, native=True,
                           state=twin if name == "arabic" and history else None,
                           new=lambda: _twin(name, stopwords, backend, history))


def snowball_checked() -> bool:
    """True when the installed nltk is one the Snowball twins were checked against."""
    v = core.nltk_version()
    low, high = NATIVE_SNOWBALL_NLTK
    return v is not None and low <= v[:2] < high


def snowball(language: str, stopwords: Optional[Sequence[str]] = None, backend: Optional[str] = None,
             history: bool = True) -> LanguageStemmer:
    """nltk's ``SnowballStemmer(language)``, whose stopwords (returned unstemmed, as with
    ``ignore_stopwords=True``) are ``stopwords`` (nltk's list: :func:`nltk_stopwords`).

    ``language``: one of :data:`SNOWBALL_NAMES`; ``backend``: ``"python"`` forces nltk's stemmer;
    ``history``: True, one instance's stems, whose state carries over from word to word (only Arabic has
    any: :class:`LanguageStemmer`); False, every word stemmed as by a new instance.
    """
    if language not in SNOWBALL_NAMES:
        raise ValueError(f"language: unknown Snowball language {language!r}; allowed: {', '.join(SNOWBALL_NAMES)}")
    if snowball_checked():
        twin = _twin(language, stopwords, backend, history)
        if twin is not None:
            return twin
    from nltk.stem.snowball import SnowballStemmer

    st = SnowballStemmer(language)
    inner = st.stemmer
    if stopwords is not None:
        inner.stopwords = set(stopwords)  # what ignore_stopwords=True loads, given by the caller

    def new() -> LanguageStemmer:
        return snowball(language, stopwords, backend, history)

    if language != "arabic":
        return LanguageStemmer(language, st.stem, new=new)
    if history:
        return LanguageStemmer(language, st.stem, state=_NltkArabicState(inner), new=new)
    stem = st.stem

    def fresh(word: str) -> str:
        inner.suffixes_verb_step1_success = False
        return stem(word)

    return LanguageStemmer(language, fresh, new=new)


def turkish(backend: Optional[str] = None) -> LanguageStemmer:
    """The TurkishStemmer package's ``TurkishStemmer().stem`` (XL-Sum's Turkish stemmer); ImportError when the
    package is not installed."""
    from . import segment

    version = segment.package_version("TurkishStemmer")
    if version in NATIVE_TURKISHSTEMMER:
        twin = _twin("TurkishStemmer", None, backend)
        if twin is not None:
            return twin
    from TurkishStemmer import TurkishStemmer

    return LanguageStemmer("TurkishStemmer", TurkishStemmer().stem, new=lambda: turkish(backend))


# ------------------------------------------------------------------------------- nltk's stopword lists
def _nltk_data_path() -> List[str]:
    """nltk's data search path (``nltk.data.path``): nltk's own list when nltk is imported (a program may have
    changed it), else the list nltk 3.10 builds at import on this platform (``$NLTK_DATA``, ``~/nltk_data``,
    the interpreter's prefix, the system folders)."""
    nltk_data = sys.modules.get("nltk.data")
    if nltk_data is not None:
        return list(getattr(nltk_data, "path", []))
    path = [os.path.expanduser(d) for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if os.path.expanduser("~/") != "~/":
        path.append(os.path.expanduser("~/nltk_data"))
    if sys.platform.startswith("win"):
        return path + [os.path.join(sys.prefix, "nltk_data"), os.path.join(sys.prefix, "share", "nltk_data"),
                       os.path.join(sys.prefix, "lib", "nltk_data"),
                       os.path.join(os.environ.get("APPDATA", "C:\\"), "nltk_data"),
                       r"C:\nltk_data", r"D:\nltk_data", r"E:\nltk_data"]
    return path + [os.path.join(sys.prefix, "nltk_data"), os.path.join(sys.prefix, "share", "nltk_data"),
                   os.path.join(sys.prefix, "lib", "nltk_data"), "/usr/share/nltk_data",
                   "/usr/local/share/nltk_data", "/usr/lib/nltk_data", "/usr/local/lib/nltk_data"]


def _read_stopwords(language: str) -> Optional[Tuple[str, str]]:
    """``(text, source)`` of the stopword file of ``language`` in the first folder of nltk's path that has the
    ``stopwords`` corpus (unzipped, else ``corpora/stopwords.zip``, as ``nltk.data.find`` looks); None when no
    folder has it."""
    import zipfile

    for folder in _nltk_data_path():
        corpus = os.path.join(folder, "corpora", "stopwords")
        if os.path.isdir(corpus):
            name = os.path.join(corpus, language)
            with open(name, "rb") as fh:  # a corpus without the language: OSError, as nltk's reader raises
                return fh.read().decode("utf-8"), name
    for folder in _nltk_data_path():
        archive = os.path.join(folder, "corpora", "stopwords.zip")
        if os.path.isfile(archive):
            with zipfile.ZipFile(archive) as zf:
                return zf.read(f"stopwords/{language}").decode("utf-8"), f"{archive}/stopwords/{language}"
    return None


def nltk_stopwords(language: str) -> Tuple[str, ...]:
    """nltk's ``stopwords.words(language)`` (the list ``SnowballStemmer(language, ignore_stopwords=True)``
    keeps unstemmed), read from the installed nltk data without importing nltk when the installed nltk is one
    whose reader this mirrors (:data:`NATIVE_SNOWBALL_NLTK`; nltk's own reader otherwise).

    LookupError when the ``stopwords`` corpus is not installed (nothing is downloaded).
    """
    if snowball_checked():
        try:
            found = _read_stopwords(language)
        except (OSError, KeyError):
            found = None
            # nltk's reader says what is wrong (no such language): fall through to it
        else:
            if found is not None:
                return tuple(line for line in found[0].splitlines() if line.rstrip())
            raise LookupError(f"nltk's 'stopwords' corpus is not installed (searched: {', '.join(_nltk_data_path())})")
    from nltk.corpus import stopwords as corpus

    return tuple(corpus.words(language))


__all__ = ["NATIVE_SNOWBALL_NLTK", "NATIVE_TURKISHSTEMMER", "SNOWBALL_NAMES", "LanguageStemmer", "nltk_stopwords",
           "snowball", "snowball_checked", "turkish"]
