"""Backend dispatch: the compiled kernels when they are there, the pure-Python ones otherwise.

``ROUGE_METRIC_BACKEND=python`` forces the pure-Python kernels; ``ROUGE_METRIC_BACKEND=native`` forces
the compiled ones and fails loudly when they are missing; unset (or ``auto``) picks native when it
imports. :func:`active_backend` names the backend in use (it is also in every signature).

When ``auto`` falls back to Python on a platform that has prebuilt wheels with the native core (an
install built without a C++ compiler), a :class:`NativeBackendMissingWarning` says so once per
process, with how to get the native core; forcing ``python`` never warns.

The native backend provides the kernels of :mod:`rouge_metric.core_py` under the same names and, through
:func:`native_scorer`, a whole-pipeline scorer (tokenize, stem cache, intern, kernels, multi-reference
combine, P/R/F) for the named tokenizers ``default``/``whitespace`` with newline sentences, and through
:func:`native_id_scorer` the same for token ids (``tokenizer="ids"``); every other configuration runs
the Python pipeline on the native kernels.
"""

from __future__ import annotations

import os
import sys
import warnings
from types import ModuleType
from typing import Any, Dict, Optional, Tuple

from . import core_py

BACKENDS = ("auto", "python", "native")
ENV_VAR = "ROUGE_METRIC_BACKEND"

_native: Optional[ModuleType] = None
_native_error: Optional[BaseException] = None
_fallback_warned = False


class NativeBackendMissingWarning(RuntimeWarning):
    """The compiled core is missing where a wheel with it exists: the (slower) pure-Python backend runs."""


#: ``(sys.platform, machine)`` pairs with published wheels carrying the native core (CPython only).
NATIVE_PLATFORMS = frozenset({
    ("linux", "x86_64"), ("linux", "aarch64"), ("darwin", "x86_64"), ("darwin", "arm64"), ("win32", "amd64"),
})


def native_capable_platform() -> bool:
    """True on a CPython and platform for which wheels with the native core are built."""
    import platform  # here: only a fallback asks

    return (platform.python_implementation() == "CPython"
            and (sys.platform, platform.machine().lower()) in NATIVE_PLATFORMS)


def _warn_fallback() -> None:
    global _fallback_warned
    if _fallback_warned or not native_capable_platform():
        return
    _fallback_warned = True
    warnings.warn(
        f"rouge_metric: the native core (rouge_metric._native) is not installed ({_native_error!r}); "
        "the pure-Python backend runs instead: the same numbers, much more slowly. Get the native core "
        "with a prebuilt wheel (pip install --force-reinstall --only-binary rouge-metric-hf rouge-metric-hf) "
        f"or by reinstalling with a C++17 compiler available; set {ENV_VAR}=python to choose the pure-Python "
        "backend without this warning.",
        NativeBackendMissingWarning,
        stacklevel=3,
    )


def _load_native() -> Optional[ModuleType]:
    global _native, _native_error
    if _native is not None or _native_error is not None:
        return _native
    try:
        from . import _native as mod  # type: ignore[attr-defined]
    except ImportError as exc:
        if __package__ == "rouge_metric":
            _native_error = exc
            return None
        try:  # a copy of these modules (evaluate.load's, a Space's): the installed package's extension
            mod = _installed_native()
        except ImportError as why:
            _native_error = why
            return None
    _native = mod
    return mod


def _installed_native() -> ModuleType:
    """The extension of the installed ``rouge_metric``, for a copy of these modules that has none
    (``evaluate.load`` copies only ``.py`` files into its modules cache; an exported Space does too).

    Only when the installed package is this very code: every module of the copy that the installed package
    also has (``_version.py`` and ``core.py`` at least) is byte-identical to it, so a copy never mixes its
    Python with the kernels of another version. Otherwise ImportError saying why (the copy then runs its
    own pure-Python kernels, which give this copy's numbers; the signature says ``backend:python``).
    O(size of the copied modules), once per process.
    """
    import importlib
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    try:
        spec = importlib.util.find_spec("rouge_metric")
    except (ImportError, ValueError) as exc:
        raise ImportError(f"no installed rouge_metric package to take the native core from ({exc})") from None
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("no installed rouge_metric package to take the native core from")
    installed = list(spec.submodule_search_locations)[0]

    def read(path: str) -> bytes:
        with open(path, "rb") as fh:
            return fh.read()

    compared, differ = set(), []
    for name in sorted(os.listdir(here)):
        theirs = os.path.join(installed, name)
        if not name.endswith(".py") or name == "__init__.py" or not os.path.isfile(theirs):
            continue  # evaluate's empty __init__.py, the script under its folder's name, app.py
        compared.add(name)
        if read(os.path.join(here, name)) != read(theirs):
            differ.append(name)
    if not {"_version.py", "core.py"} <= compared:
        raise ImportError(f"cannot check the installed rouge_metric at {installed} against this copy")
    if differ:
        def version(folder: str) -> str:
            text = read(os.path.join(folder, "_version.py")).decode("utf-8", "replace")
            return text.split("=", 1)[-1].strip().strip("\"'")

        raise ImportError(
            f"the installed rouge_metric {version(installed)} at {installed} is not the code of this copy "
            f"({version(here)}): {', '.join(differ)} differ; install the same version to use its native core")
    return importlib.import_module("rouge_metric._native")


def requested_backend() -> str:
    value = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if value not in BACKENDS:
        raise ValueError(f"{ENV_VAR}: invalid value {value!r}; allowed: {', '.join(BACKENDS)}")
    return value


def native_available() -> bool:
    return _load_native() is not None


def native_module() -> Optional[ModuleType]:
    """The compiled extension, or None when it is not built (whatever :data:`ENV_VAR` asks for; no warning)."""
    return _load_native()


def get_backend(name: Optional[str] = None) -> str:
    """Resolve a backend request (``auto``/``python``/``native``; default: the environment variable)."""
    want = (name or requested_backend()).lower()
    if want not in BACKENDS:
        raise ValueError(f"backend: invalid value {want!r}; allowed: {', '.join(BACKENDS)}")
    if want == "python":
        return "python"
    mod = _load_native()
    if want == "native" and mod is None:
        raise ImportError(
            f"the native backend was requested ({ENV_VAR}=native or backend='native') but the compiled "
            f"extension rouge_metric._native is not available: {_native_error!r}. Install a wheel with it "
            "(pip install --force-reinstall --only-binary rouge-metric-hf rouge-metric-hf) or reinstall with a "
            "C++17 compiler available (ROUGE_METRIC_REQUIRE_NATIVE=1 makes a failed compile an error)."
        )
    if mod is None:
        _warn_fallback()
        return "python"
    return "native"


def active_backend() -> str:
    """The backend used by default in this process: ``native`` or ``python``."""
    return get_backend()


def kernels(name: str) -> ModuleType:
    """The kernel module of a resolved backend name."""
    if name == "native":
        mod = _load_native()
        assert mod is not None
        return mod
    return core_py


# ----------------------------------------------------------------------- whole-pipeline native scorer
#: Tokenizers the compiled pipeline implements: the member names of ``_native.Tokenizer``. Rouge kinds,
#: multi-reference modes and F-measures cross as the extension's enums too (``_native.Kind``, ``Mode``,
#: ``FMeasure``), looked up by the name the settings use (``getattr(_native.Kind, spec.kind)``).
NATIVE_TOKENIZERS = ("default", "whitespace")
_VOCABS: Dict[Tuple[str, Any], Any] = {}


#: The nltk versions, ``[low, high)`` as (major, minor), whose ``PorterStemmer()`` the native Porter
#: (``_native.porter_stem``, rouge_metric/_native_src/porter.hpp) was checked against word for word.
#: With any other nltk installed, nltk's own stemmer runs: the stems cannot silently differ.
NATIVE_PORTER_NLTK = ((3, 10), (3, 11))


def nltk_version() -> Optional[Tuple[int, ...]]:
    """The installed nltk's version as integers (read from its ``VERSION`` file, the source of
    ``nltk.__version__``, without importing nltk), or None when it cannot be read."""
    import importlib.util

    text = None
    try:
        spec = importlib.util.find_spec("nltk")
        if spec is not None and spec.origin:
            with open(os.path.join(os.path.dirname(spec.origin), "VERSION"), encoding="utf-8") as fh:
                text = fh.read().strip()
    except (OSError, ImportError, ValueError):
        text = None
    if text is None:
        try:
            from importlib.metadata import version

            text = version("nltk")
        except Exception:  # noqa: BLE001 - not installed or no metadata: nltk's stemmer decides
            return None
    parts = []
    for p in text.split(".")[:2]:
        if not p.isdigit():
            return None
        parts.append(int(p))
    return tuple(parts)


def native_porter_checked() -> bool:
    """True when the installed nltk is in :data:`NATIVE_PORTER_NLTK`, so the native Porter gives its stems."""
    v = nltk_version()
    low, high = NATIVE_PORTER_NLTK
    return v is not None and low <= v[:2] < high


def native_vocab(tokenizer: str, stemmer: Any, stem: Any = None) -> Any:
    """The process-wide token interner and stem cache of (tokenizer, stemmer name or False); ``stem`` is that
    stemmer's Python twin (:func:`rouge_metric.text.get_stemmer` of the name), which the caller provides
    with a stemmer name (this module sits below the text pipeline and does not import it).

    New tokens enter it without Python when it can: with ``use_stemmer="porter"`` and an nltk in
    :data:`NATIVE_PORTER_NLTK`, the C++ twin of nltk's Porter stems every ASCII token (on the batch's
    threads), with ``use_stemmer="perl_porter"`` the C++ twin of :func:`rouge_metric.perl_porter.stem`
    every ``[a-z0-9]`` token; any other token, and every token of the other stemmers, goes through the Python stemmer
    (:meth:`rouge_metric.text.CachedStemmer.stem_token`). Either way the stems are exactly those of the
    Python pipeline. It grows with the vocabulary seen.
    """
    key = (tokenizer, stemmer or None)
    vocab = _VOCABS.get(key)
    if vocab is None:
        mod = _load_native()
        assert mod is not None
        stem_fn, min_len, native_porter, native_perl = None, 3, False, False
        if stemmer:
            if stem is None:
                raise ValueError(f"native_vocab: stemmer {stemmer!r} needs its Python stemmer (stem=)")
            stem_fn, min_len = stem.stem_token, getattr(stem, "min_len", 3)
            native_porter = stemmer == "porter" and native_porter_checked()
            native_perl = stemmer == "perl_porter"  # our own rouge_metric.perl_porter: no version to check
        vocab = _VOCABS[key] = mod.Vocab(getattr(mod.Tokenizer, tokenizer), stem_fn, min_len, native_porter,
                                         native_perl)
    return vocab


def _scorer_args(config: Any) -> Tuple[Any, ...]:
    """``(specs, mode, fmeasure, fparam)`` of ``_native.Scorer`` for ``config``: each spec
    ``(name, Kind, n, skip, unigrams, weight)``, the ``Mode`` and ``FMeasure`` members named as the
    settings name them, and the F-measure's parameter (alpha, or beta squared)."""
    mod = _load_native()
    assert mod is not None
    specs = [(s.name, getattr(mod.Kind, s.kind), s.n, s.skip, s.unigrams, s.weight) for s in config.type_specs]
    if config.alpha is not None:
        fmeasure, fparam = mod.FMeasure.alpha, config.alpha
    elif config.beta == 1.0:
        fmeasure, fparam = mod.FMeasure.f1, 0.0
    else:
        fmeasure, fparam = mod.FMeasure.beta, config.beta * config.beta
    return specs, getattr(mod.Mode, config.multi_ref), fmeasure, fparam


def native_scorer(config: Any, stem: Any = None) -> Optional[Any]:
    """A ``_native.Scorer`` running the whole pipeline of ``config`` in C++, or None when the native
    backend is missing or the configuration needs the Python pipeline (custom tokenizer or splitter,
    stopwords, a tokenizer not in :data:`NATIVE_TOKENIZERS`). ``stem``: the Python twin of the configured
    stemmer (:func:`native_vocab`).

    The scorer's P/R/F arithmetic and multi-reference modes replicate ``scoring._TypeScorer`` double
    for double (tests/test_backends.py checks equality).
    """
    mod = _load_native()
    if mod is None:
        return None
    tok = config.tokenizer
    if not isinstance(tok, str) or tok not in NATIVE_TOKENIZERS or getattr(config, "stopwords", None):
        return None
    if config.needs_sentences and config.sentence_splitter != "newline":
        return None
    from .result import Score

    return mod.Scorer(native_vocab(tok, config.use_stemmer, stem), *_scorer_args(config), Score)


def native_id_scorer(config: Any) -> Optional[Any]:
    """A ``_native.Scorer`` for ``tokenizer="ids"`` (its ``batch_ids``: ids read and interned once per
    call, then scored on N threads without the GIL), or None when the native backend is missing.

    Same kernels, P/R/F arithmetic and multi-reference modes as :func:`native_scorer`; the ids need
    no vocabulary, so the scorer gets an empty one of its own that it never reads.
    """
    mod = _load_native()
    if mod is None or not getattr(config, "uses_ids", False):
        return None
    if not hasattr(mod.Scorer, "batch_ids"):  # pragma: no cover - an extension built before this method
        return None
    from .result import Score

    return mod.Scorer(mod.Vocab(mod.Tokenizer.default, None), *_scorer_args(config), Score)


def default_num_threads() -> int:
    """All cores available to this process."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
