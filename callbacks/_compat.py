"""Optional dependencies of the training integration: lazy imports, install hint, supported range.

The supported transformers range is stated here and in ``pyproject.toml`` (the ``train`` extra);
``tests/test_callbacks.py`` checks that the two agree.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

#: From a clone of the repository (the distribution rouge-metric-hf is not on PyPI).
INSTALL_HINT = 'pip install -e ".[train]" (from a clone of rouge_metric)'

#: Supported transformers versions: ``>= MIN`` and ``< MAX`` (the ``train`` extra in pyproject.toml).
TRANSFORMERS_MIN = "4.46"
TRANSFORMERS_MAX = "6"


def _parse(version: str) -> Tuple[int, ...]:
    """Leading numeric release of a version string (``"5.23.0.dev0"`` -> ``(5, 23, 0)``)."""
    out = []
    for part in version.split("."):
        digits = ""
        for ch in part:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        out.append(int(digits))
        if digits != part:
            break
    return tuple(out)


def check_transformers_version(version: str) -> None:
    """Raise ImportError unless ``TRANSFORMERS_MIN <= version < TRANSFORMERS_MAX``.

    >>> check_transformers_version("5.23.0")
    >>> check_transformers_version("4.40.2")
    Traceback (most recent call last):
    ...
    ImportError: rouge_metric.callbacks supports transformers>=4.46,<6; found transformers 4.40.2. ...
    """
    v = _parse(version)
    if not (_parse(TRANSFORMERS_MIN) <= v < _parse(TRANSFORMERS_MAX)):
        raise ImportError(
            f"rouge_metric.callbacks supports transformers>={TRANSFORMERS_MIN},<{TRANSFORMERS_MAX}; "
            f"found transformers {version}. Install a supported version with {INSTALL_HINT}"
        )


def import_transformers() -> Any:
    """``transformers`` in the supported range, or an ImportError with the install hint."""
    try:
        import transformers
    except ImportError as exc:
        raise ImportError(
            f"rouge_metric.callbacks needs transformers (and torch); install them with {INSTALL_HINT}"
        ) from exc
    check_transformers_version(transformers.__version__)
    return transformers


def check_installed_transformers() -> None:
    """Check the version of transformers when it is installed (a plain callable needs none)."""
    try:
        import transformers
    except ImportError:
        return
    check_transformers_version(transformers.__version__)


def import_torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise ImportError(f"rouge_metric.callbacks needs torch for this; install it with {INSTALL_HINT}") from exc
    return torch


def loaded_torch() -> Optional[Any]:
    """torch if it is already imported (tensors can only come from an imported torch), else None."""
    import sys

    return sys.modules.get("torch")
