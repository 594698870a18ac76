"""The explicit switch: ``import rouge_score`` resolves to :mod:`rouge_metric.rouge_score`.

:func:`install` puts the drop-in's modules in ``sys.modules`` under rouge-score's names
(``rouge_score``, ``rouge_score.rouge_scorer``, ``rouge_score.scoring``, ``rouge_score.tokenize``,
``rouge_score.tokenizers``: the very same module objects) and adds an import hook that refuses, with an
ImportError naming the drop-in, every other ``rouge_score.*`` module (``rouge_score.io``,
``rouge_score.rouge``, ``rouge_score.create_pyrouge_files``, the test modules). Nothing happens until it
is called; it refuses to run when the real rouge-score modules are already imported (objects taken from
them would keep computing with rouge-score, so the switch would be partial without anyone seeing it).

In a program (before anything imports ``rouge_score``)::

    import rouge_metric.rouge_score
    rouge_metric.rouge_score.install()
    import rouge_score.rouge_scorer   # rouge_metric.rouge_score.rouge_scorer

(Not a doctest: in a process that already imported the real rouge-score, ``install()`` refuses.)
"""

from __future__ import annotations

import importlib.abc
import sys
from typing import Any, List, Optional

__all__ = ["install", "is_installed", "uninstall"]

#: rouge-score's module names and the drop-in modules they resolve to.
COVERED = {
    "rouge_score": "rouge_metric.rouge_score",
    "rouge_score.rouge_scorer": "rouge_metric.rouge_score.rouge_scorer",
    "rouge_score.scoring": "rouge_metric.rouge_score.scoring",
    "rouge_score.tokenize": "rouge_metric.rouge_score.tokenize",
    "rouge_score.tokenizers": "rouge_metric.rouge_score.tokenizers",
}


def _is_rouge_score_name(name: str) -> bool:
    return name == "rouge_score" or name.startswith("rouge_score.")


class _RefuseUncovered(importlib.abc.MetaPathFinder):
    """Import hook: a ``rouge_score.*`` module the drop-in does not provide is an ImportError."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if _is_rouge_score_name(fullname) and fullname not in COVERED:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: `import rouge_score` resolves to rouge_metric's drop-in "
                f"(rouge_metric.rouge_score.install()), which provides only {', '.join(sorted(COVERED))}. "
                f"Run without the switch to use rouge-score's {fullname}.", name=fullname)
        return None


_FINDER: Optional[_RefuseUncovered] = None


def _ours(module: Any) -> bool:
    return getattr(module, "__name__", "") in COVERED.values()


def is_installed() -> bool:
    """True when ``import rouge_score`` gives the drop-in (:func:`install` was called)."""
    return _FINDER is not None


def install() -> None:
    """Make ``import rouge_score`` (and its four public modules) resolve to the drop-in, in this process.

    Call it before anything imports ``rouge_score``. Raises RuntimeError, naming the modules and where
    they come from, when the real rouge-score is already imported. Calling it again does nothing.
    """
    global _FINDER
    real: List[str] = sorted(n for n, m in list(sys.modules.items()) if _is_rouge_score_name(n) and not _ours(m))
    if real:
        where = getattr(sys.modules[real[0]], "__file__", None) or "?"
        raise RuntimeError(
            f"rouge_metric.rouge_score.install(): the real rouge_score is already imported ({', '.join(real)}; "
            f"from {where}); objects taken from it would keep using it. Call install() before anything imports "
            f"rouge_score, or run the program with `python -m rouge_metric.rouge_score program.py`.")
    if _FINDER is not None:
        return
    import importlib

    for alias, name in COVERED.items():
        sys.modules[alias] = importlib.import_module(name)
    _FINDER = _RefuseUncovered()
    sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Undo :func:`install`: ``import rouge_score`` finds the real package again (objects already
    imported through the switch stay the drop-in's). Does nothing when the switch is off."""
    global _FINDER
    if _FINDER is None:
        return
    for alias in COVERED:
        if _ours(sys.modules.get(alias)):
            del sys.modules[alias]
    try:
        sys.meta_path.remove(_FINDER)
    except ValueError:  # pragma: no cover - removed by someone else
        pass
    _FINDER = None
