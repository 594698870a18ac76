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


@pytest.mark.parametrize("relpath", _doc_ids())
def test_markdown_examples_parse_as_plain_doctest(relpath, repo_dir):
    """`python -m doctest page.md` reads the whole page: an example's expected output runs to the next blank
    line, so a session block needs a blank line before its closing fence (else the fence is expected
    output). Same parser as plain doctest, on the whole page: no expected output may hold a fence."""
    text = (repo_dir / relpath).read_text(encoding="utf-8")
    examples = doctest.DocTestParser().get_examples(text, relpath)
    if not examples:
        pytest.skip(f"{relpath}: no >>> examples")
    bad = [f"{relpath}:{ex.lineno + 1}: {ex.source.strip()[:60]}" for ex in examples if "```" in ex.want]
    assert not bad, "no blank line before the closing fence after: " + "; ".join(bad)
    # and the blocks test_markdown_examples runs hold the same examples as the whole page
    in_blocks = [ex.source for b in _BLOCK.findall(text) if ">>>" in b
                 for ex in doctest.DocTestParser().get_examples(b)]
    assert in_blocks == [ex.source for ex in examples], f"{relpath}: a >>> example outside a ```python block"


def test_docs_say_what_ci_does_with_the_browser_test(repo_dir):
    """docs/cli.md and .ci/run agree: CI installs chromium with apt-get when it can and then runs
    tests/test_space_browser.py (it skips where it cannot)."""
    assert "apt-get install -y -qq chromium chromium-driver" in _chromium_block(repo_dir)
    doc = " ".join((repo_dir / "docs" / "cli.md").read_text(encoding="utf-8").split())
    assert "CI (`.ci/run`) installs them with apt-get when it can" in doc and "runs the test" in doc
    assert "CI runs only project files" not in doc


# ------------------------------------------------------------------------- set-up commands and links
_BASH = re.compile(r"```bash\n(.*?)```", re.S)
TORCH_CPU_INDEX = "--index-url https://download.pytorch.org/whl/cpu"


def _commands(text):
    """Command lines of a shell text: no comments, no blank lines."""
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def test_ci_runs_the_readme_setup_commands(repo_dir):
    """.ci/run runs the README's torch line, character for character, then its test command's two parts in
    order (the install, then the fast tier: `a && b` as two lines under `set -e`, so that the background
    lanes start in between), then the integration tier; the torch line takes the CPU build from PyTorch's
    CPU index (a plain `pip install torch` from PyPI is the CUDA build on Linux)."""
    readme = (repo_dir / "README.md").read_text(encoding="utf-8")
    readme_cmds = [c for block in _BASH.findall(readme) for c in _commands(block)]
    ci_cmds = _commands((repo_dir / ".ci" / "run").read_text(encoding="utf-8"))
    torch_readme = [c for c in readme_cmds if c.startswith("pip install torch")]
    torch_ci = [c for c in ci_cmds if "install torch" in c]
    assert len(torch_readme) == 1, "the README gives one torch install command in a ```bash block"
    assert torch_ci == torch_readme
    assert torch_readme[0].endswith(TORCH_CPU_INDEX)
    test_cmd = 'pip install -e ".[test]" && pytest'
    assert test_cmd in readme_cmds and "pytest -m integration" in readme_cmds
    install, fast = test_cmd.split(" && ")
    assert ci_cmds[0] == "set -euo pipefail"  # a failed install stops the run, as `&&` does
    assert ci_cmds.count(install) == 1 and ci_cmds.count(fast) == 1
    # torch first, then the install, the fast tier and the integration tier
    order = [ci_cmds.index(c) for c in (torch_ci[0], install, fast, "pytest -m integration")]
    assert order == sorted(order)


def _chromium_block(repo):
    """The optional chromium step of .ci/run (from its comment to the README test command)."""
    text = (repo / ".ci" / "run").read_text(encoding="utf-8")
    start = text.index("# --- optional: Debian's chromium")
    return text[start:text.index("# --- the README's test command", start)]


@pytest.mark.parametrize("apt_ok", [True, False])
def test_ci_installs_chromium_with_apt_and_tolerates_failure(repo_dir, tmp_path, apt_ok):
    """The chromium step runs apt-get (as root, when chromium is absent) and never fails the CI run:
    with fake `apt-get`, `id` and no chromium on PATH, it calls the install, and when apt-get fails it
    says the browser test will skip and goes on (under `set -euo pipefail`, as in .ci/run)."""
    import subprocess

    block = _chromium_block(repo_dir)
    assert block.index("chromium-driver") > 0 and "the README's test command" not in block
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> {log}\nexit {0 if apt_ok else 100}\n')
    (bin_dir / "id").write_text("#!/bin/sh\necho 0\n")
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    script = "set -euo pipefail\n" + block + "echo after-the-step\n"
    proc = subprocess.run(["/bin/bash", "-c", script], capture_output=True, text=True,
                          env={"PATH": f"{bin_dir}:/usr/bin/env-does-not-exist", "HOME": str(tmp_path)},
                          executable="/bin/bash")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("after-the-step")
    calls = log.read_text().splitlines()
    assert calls[0] == "update -qq"
    if apt_ok:
        assert calls[1] == "install -y -qq chromium chromium-driver" and proc.stderr == ""
    else:
        assert len(calls) == 1 and "tests/test_space_browser.py will skip" in proc.stderr


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


def test_docs_do_not_cite_the_development_data_folder(repo_dir):
    """The user-facing docs (README, hub card, docs/, benchmarks/README.md) describe the product on its own:
    they name corpora and golden files by what they are, never by the development machine's folder."""
    files = [repo_dir / "README.md", repo_dir / "hub_card.md", repo_dir / "benchmarks" / "README.md"]
    files += sorted((repo_dir / "docs").glob("*.md"))
    for f in files:
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            assert "../shared" not in line and "shared/corpora" not in line, f"{f.relative_to(repo_dir)}:{n}: {line}"
