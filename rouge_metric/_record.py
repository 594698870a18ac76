"""The base of the package's frozen value types (settings and results).

What ``dataclasses.dataclass(frozen=True)`` gave them (field order, ``==`` and ``hash`` over the
fields, a ``repr`` naming them, no assignment after construction, pickling and copying), without
importing ``dataclasses``: that import pulls in ``inspect`` (``ast``, ``dis``, ``tokenize``) and each
decorated class compiles its methods at import time, which together were 11 of the 17 ms of
``import rouge_metric``, paid by every fresh process (the CLI, a first evaluation, a job).

Used by the types every scoring process loads (:class:`~rouge_metric.config.RougeConfig`,
``TypeSpec`` and the results); modules loaded on demand (``explain``) keep plain dataclasses.

A subclass names its fields in ``_fields`` (in order) and writes its own ``__init__`` with an
explicit signature, setting each field through :meth:`Record._init`; ``_no_repr`` lists fields left
out of ``repr``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Tuple


class Record:
    _fields: ClassVar[Tuple[str, ...]] = ()
    _no_repr: ClassVar[Tuple[str, ...]] = ()

    def _init(self, **values: Any) -> None:
        """Set the fields at construction (or in validation, before the object is handed out)."""
        self.__dict__.update(values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def _values(self) -> Tuple[Any, ...]:
        d = self.__dict__
        return tuple(d[f] for f in self._fields)

    def _asdict(self) -> Dict[str, Any]:
        """The fields as a dict, in order (not recursive)."""
        d = self.__dict__
        return {f: d[f] for f in self._fields}

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        d = self.__dict__
        inner = ", ".join(f"{f}={d[f]!r}" for f in self._fields if f not in self._no_repr)
        return f"{type(self).__qualname__}({inner})"

    @classmethod
    def defaults(cls) -> Dict[str, Any]:
        """Field -> default of ``__init__`` (the fields without one are left out)."""
        code = cls.__init__.__code__
        names = code.co_varnames[1:code.co_argcount]
        defaults = cls.__init__.__defaults__ or ()
        return dict(zip(names[len(names) - len(defaults):], defaults))

    _defaults = defaults
