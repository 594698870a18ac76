"""The house rules that keep one concept in one home, checked on the source.

- No module reads another module's private attributes: an ``obj._name`` access is allowed only when
  ``obj`` is ``self``/``cls``/``super()``, or ``_name`` is defined in the same module (its own objects),
  or ``_name`` is one of the documented names that Python's namedtuple spells with an underscore.
- No import circle between the package's modules (tests/test_import.py builds the graph).
- A module over about 400 lines says at its top why it is one file.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator, Set, Tuple

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(REPO / "rouge_metric").rglob("*.py"), *(REPO / "callbacks").glob("*.py")])

#: Public by design although spelled with an underscore (namedtuple's API, avoiding field-name clashes).
NAMEDTUPLE_API = {"_asdict", "_fields", "_replace", "_make", "_field_defaults"}
#: The standard library's own documented escape hatches we rely on, each with its reason.
STDLIB_ALLOWED = {
    "_exit",  # os._exit: leave a forked/child process without running the parent's atexit handlers
    "_getframe",  # sys._getframe: the caller's module for the rouge_score switch's error message
}


def _defined_private_names(tree: ast.AST) -> Set[str]:
    names: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name.startswith("_"):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr.startswith("_"):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id.startswith("_"):
            names.add(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                if isinstance(elt, ast.Constant) and isinstance(elt.value, str) and elt.value.startswith("_"):
                    names.add(elt.value)  # __slots__ entries
    return names


def _foreign_private_reads(path: Path) -> Iterator[Tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    own = _defined_private_names(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        attr = node.attr
        if not attr.startswith("_") or (attr.startswith("__") and attr.endswith("__")):
            continue
        if attr in own or attr in NAMEDTUPLE_API or attr in STDLIB_ALLOWED:
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            continue
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
            continue
        yield node.lineno, f"{ast.unparse(base)}.{attr}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_module_reads_another_modules_private_attributes(path):
    found = list(_foreign_private_reads(path))
    assert not found, f"{path.relative_to(REPO)} reads private attributes of other modules: " + ", ".join(
        f"line {line}: {what}" for line, what in found)


def test_the_checker_finds_a_private_read(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from rouge_metric import scoring\n\ndef f(r):\n    return r._backend, self_like._x\n")
    assert [what for _, what in _foreign_private_reads(bad)] == ["r._backend", "self_like._x"]
    good = tmp_path / "good.py"
    good.write_text("class A:\n    def __init__(self):\n        self._x = 1\n\ndef f(a):\n    return a._x, a._asdict()\n")
    assert list(_foreign_private_reads(good)) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_a_long_module_says_why_it_is_one_file(path):
    lines = path.read_text(encoding="utf-8").count("\n")
    if lines <= 450:
        return
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "one file" in doc.lower() or "one module" in doc.lower(), (
        f"{path.relative_to(REPO)} has {lines} lines: its docstring must say why it is one file")
