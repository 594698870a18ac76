"""Backend dispatch: the compiled kernels when they are there, the pure-Python ones otherwise.

``ROUGE_METRIC_BACKEND=python`` forces the pure-Python kernels; ``ROUGE_METRIC_BACKEND=native`` forces
the compiled ones and fails loudly when they are missing; unset (or ``auto``) picks native when it
imports. :func:`active_backend` names the backend in use (it is also in every signature).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Optional

from . import core_py

BACKENDS = ("auto", "python", "native")
ENV_VAR = "ROUGE_METRIC_BACKEND"

_native: Optional[ModuleType] = None
_native_error: Optional[BaseException] = None


def _load_native() -> Optional[ModuleType]:
    global _native, _native_error
    if _native is not None or _native_error is not None:
        return _native
    try:
        from . import _native as mod  # type: ignore[attr-defined]
    except ImportError as exc:
        # A copy of this package made by evaluate.load (only .py files) can still use the
        # extension of the installed package.
        try:
            import importlib

            mod = importlib.import_module("rouge_metric._native")
        except ImportError:
            _native_error = exc
            return None
    _native = mod
    return mod


def requested_backend() -> str:
    value = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if value not in BACKENDS:
        raise ValueError(f"{ENV_VAR}: invalid value {value!r}; allowed: {', '.join(BACKENDS)}")
    return value


def native_available() -> bool:
    return _load_native() is not None


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
            f"extension rouge_metric._native is not available: {_native_error!r}. Reinstall the package "
            "with a C++ compiler available (pip install --force-reinstall --no-binary rouge-metric-hf .)."
        )
    return "native" if mod is not None else "python"


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
