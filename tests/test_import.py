"""What ``import rouge_metric`` costs: only the scoring path is imported; the rest loads on first use."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import textwrap
from typing import Dict, Iterator, List, Set, Tuple

import rouge_metric

# Heavy or rarely needed: none of them is imported by `import rouge_metric` (nltk: only when a word
# needs it; numpy: only for kept per-example values and bootstrap).
NOT_AT_IMPORT = ["rouge_metric.generation", "rouge_metric.rewards", "rouge_metric.rouge155",
                 "rouge_metric.significance", "rouge_metric.batch", "rouge_metric.explain", "rouge_metric.space",
                 "rouge_metric.cli", "rouge_metric.perl_porter", "rouge_metric.distributed",
                 "rouge_metric.callbacks", "nltk", "numpy", "datasets", "evaluate",
                 "transformers", "torch", "hashlib", "logging",
                 "dataclasses", "inspect"]  # 11 ms of a cold start: the settings and results are plain records


def run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_import_loads_only_the_scoring_path():
    out = run(f"""
        import sys
        before = set(sys.modules)  # what the interpreter's start-up (site, .pth files) loaded itself
        import rouge_metric
        print(sorted(m for m in {NOT_AT_IMPORT!r} if m in sys.modules and m not in before))
        r = rouge_metric.compute(predictions=["the cats sat"], references=["a cat sat"], use_stemmer=True)
        print(sorted(m for m in {NOT_AT_IMPORT!r} if m in sys.modules and m not in before))
    """).splitlines()
    assert out[0] == "[]"
    assert out[1] == "[]"  # scoring ASCII text with the native Porter needs none of them either


def test_every_public_name_resolves_and_star_import_works():
    for name in rouge_metric.__all__:
        assert getattr(rouge_metric, name) is not None, name
    assert set(rouge_metric.__all__) <= set(dir(rouge_metric))
    out = run("""
        from rouge_metric import *
        print(compare.__module__, Rouge155.__module__, RougeMapper.__module__, rouge_reward.__module__,
              generate_and_score.__module__)
    """)
    assert out.split() == ["rouge_metric.significance", "rouge_metric.rouge155", "rouge_metric.batch",
                           "rouge_metric.rewards", "rouge_metric.generation"]


def test_unknown_attribute_is_an_attribute_error():
    try:
        rouge_metric.no_such_name
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("no AttributeError")


# ------------------------------------------------------------------------------------ the import graph
PACKAGES = {"rouge_metric": "rouge_metric", "rouge_metric.callbacks": "callbacks"}  # installed name: folder
EXTENSIONS = {"rouge_metric._native"}  # compiled leaves (absent from a pure-Python install): import nothing


def _modules(root: "pathlib.Path") -> Dict[str, Tuple["pathlib.Path", str]]:
    """Every module of the package, its subpackages and rouge_metric.callbacks: ``{dotted name: (file, its
    package)}``."""
    out = {}
    for top, folder in PACKAGES.items():
        for f in sorted((root / folder).rglob("*.py")):
            rel = f.relative_to(root / folder).parent.parts
            if top == "rouge_metric" and rel[:1] == ("callbacks",):
                continue  # not there in a checkout; listed for completeness
            pkg = ".".join((top, *rel))
            out[pkg if f.stem == "__init__" else f"{pkg}.{f.stem}"] = (f, pkg)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[ast.stmt]:
    """Every import statement, at any depth (a function-level import is a dependency too), except the
    annotation-only ones under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from (n for child in node.orelse for n in _imports_in(child))
        else:
            yield from _imports(node)


def _imports_in(node: ast.AST) -> Iterator[ast.stmt]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from _imports(node)


def import_graph(root: "pathlib.Path") -> Dict[str, Set[str]]:
    """``{module: modules of the package it imports}`` (``from . import x`` is an edge to ``x``, not to the
    package; a module never depends on its own package's ``__init__`` merely by being inside it)."""
    sources = _modules(root)
    graph: Dict[str, Set[str]] = {m: set() for m in list(sources) + sorted(EXTENSIONS)}
    for name, (path, pkg) in sources.items():
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    parts = pkg.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1])
                    module = f"{base}.{node.module}" if node.module else base
                else:
                    module = node.module or ""
                subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in graph]
                # names that are not submodules come from `module` itself
                targets = subs + ([module] if len(subs) < len(node.names) else [])
            graph[name].update(t for t in targets if t in graph and t != name)
    return graph


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


REPO = pathlib.Path(__file__).resolve().parents[1]


def test_cycle_finder_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_import_graph_reads_relative_lazy_and_type_checking_imports(tmp_path):
    (tmp_path / "rouge_metric").mkdir()
    (tmp_path / "callbacks").mkdir()
    files = {
        "rouge_metric/__init__.py": "from .a import f\n",
        "rouge_metric/a.py": "from . import b\nif TYPE_CHECKING:\n    from .c import C\n",
        "rouge_metric/b.py": "def g():\n    from rouge_metric.a import f\n",
        "rouge_metric/c.py": "from .a import f\n",
        "callbacks/__init__.py": "",
        "callbacks/x.py": "from rouge_metric.c import C\nfrom ._y import z\n",
        "callbacks/_y.py": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    graph = import_graph(tmp_path)
    assert graph["rouge_metric.a"] == {"rouge_metric.b"}  # the TYPE_CHECKING import is not an edge
    assert graph["rouge_metric.b"] == {"rouge_metric.a"}  # the function-level import is
    assert graph["rouge_metric.callbacks.x"] == {"rouge_metric.c", "rouge_metric.callbacks._y"}
    assert cycles(graph) == [["rouge_metric.a", "rouge_metric.b"]]


def test_package_imports_form_no_cycle():
    """Imports point down the data path (settings, text, kernels, scoring, adapters): no circle, not even
    through a function-level import."""
    graph = import_graph(REPO)
    assert "rouge_metric.scoring" in graph and "rouge_metric.callbacks.trainer_callback" in graph
    assert cycles(graph) == []
