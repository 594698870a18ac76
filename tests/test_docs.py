"""Documentation examples are tests: module docstrings, README.md, hub_card.md and docs/*.md."""

import doctest
import importlib
import os
import pkgutil
import re

import pytest

import rouge_metric

SKIP_MODULES = {"rouge_metric.__main__"}
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules():
    names = [m.name for m in pkgutil.walk_packages(rouge_metric.__path__, "rouge_metric.")]
    return sorted(set(names) - SKIP_MODULES)


@pytest.mark.parametrize("name", _modules())
def test_module_doctests(name):
    try:
        mod = importlib.import_module(name)
    except ImportError as exc:  # optional extras (e.g. transformers for callbacks)
        pytest.skip(f"{name}: {exc}")
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in finder.find(mod, name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} doctest failure(s) in {name}"


_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _markdown_files(repo):
    files = [repo / "README.md", repo / "hub_card.md"] + sorted((repo / "docs").glob("*.md"))
    return [f for f in files if f.exists()]


def _doc_ids():
    from conftest import REPO

    return [str(p.relative_to(REPO)) for p in _markdown_files(REPO)]


@pytest.mark.parametrize("relpath", _doc_ids())
def test_markdown_examples(relpath, repo_dir, tmp_path, monkeypatch):
    text = (repo_dir / relpath).read_text(encoding="utf-8")
    blocks = [b for b in _BLOCK.findall(text) if ">>>" in b]
    if not blocks:
        pytest.skip(f"{relpath}: no >>> examples")
    monkeypatch.chdir(repo_dir)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"{relpath}[{i}]", relpath, 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)  # names carry over from block to block, as a reader expects
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {relpath}"
