"""Names a package imports on first use (PEP 562): the one home of the lazy imports of
``rouge_metric`` and ``rouge_metric.callbacks``."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Callable, Dict, List, Tuple


def lazy_attributes(package: str, homes: Dict[str, str], namespace: Dict[str, Any]
                    ) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``name`` is imported from ``package.<homes[name]>`` the
    first time it is used and kept in ``namespace`` (the package's globals); other names are an
    AttributeError as usual."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace) | set(homes))

    return __getattr__, __dir__


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``module`` imported, or an ImportError naming the extra of this package that installs it (the core
    install has numpy and nltk only; pyproject.toml lists the extras)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise ImportError(f"{feature} needs {top}, which the [{extra}] extra installs: "
                          f'pip install -e ".[{extra}]" (in a clone of rouge_metric), or pip install {top}') from exc
