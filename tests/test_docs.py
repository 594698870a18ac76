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


# ------------------------------------------------------------------------- set-up commands and links
_BASH = re.compile(r"```bash\n(.*?)```", re.S)
TORCH_CPU_INDEX = "--index-url https://download.pytorch.org/whl/cpu"


def _commands(text):
    """Command lines of a shell text: no comments, no blank lines."""
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def test_ci_runs_the_readme_setup_commands(repo_dir):
    """.ci/run runs the README's torch line and its test command, character for character, and the
    torch line takes the CPU build from PyTorch's CPU index (a plain `pip install torch` from PyPI is
    the CUDA build on Linux)."""
    readme = (repo_dir / "README.md").read_text(encoding="utf-8")
    readme_cmds = [c for block in _BASH.findall(readme) for c in _commands(block)]
    ci_cmds = _commands((repo_dir / ".ci" / "run").read_text(encoding="utf-8"))
    torch_readme = [c for c in readme_cmds if c.startswith("pip install torch")]
    torch_ci = [c for c in ci_cmds if "install torch" in c]
    assert len(torch_readme) == 1, "the README gives one torch install command in a ```bash block"
    assert torch_ci == torch_readme
    assert torch_readme[0].endswith(TORCH_CPU_INDEX)
    test_cmd = 'pip install -e ".[test]" && pytest'
    assert test_cmd in readme_cmds and test_cmd in ci_cmds
    assert ci_cmds.index(torch_ci[0]) < ci_cmds.index(test_cmd)  # torch first, then the test command


_SHIPPED_TEXT = ("README.md", "hub_card.md", "docs", "rouge_metric", "callbacks")


def _shipped_texts(repo):
    for name in _SHIPPED_TEXT:
        path = repo / name
        for f in ([path] if path.is_file() else sorted(path.rglob("*.md")) + sorted(path.rglob("*.py"))):
            if "_native_src" not in f.parts:
                yield f, f.read_text(encoding="utf-8")


def test_docs_stand_on_their_own(repo_dir):
    """Every .md file the docs and docstrings name exists in the repository, and no install command
    asks PyPI for this distribution (it is not published there: from a clone it is `pip install -e`)."""
    names = {p.name for p in repo_dir.rglob("*.md") if ".git" not in p.parts}
    for f, text in _shipped_texts(repo_dir):
        for md in set(re.findall(r"[\w./-]*?([\w-]+\.md)\b", text)):
            assert md in names, f"{f.relative_to(repo_dir)} cites {md}, which is not in the repository"
        assert not re.search(r"pip install [\"']?rouge-metric-hf", text), f"{f.relative_to(repo_dir)}"
