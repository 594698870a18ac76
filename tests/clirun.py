"""Shared by the command-line tests: the repository's example data and an in-process ``main``."""

from pathlib import Path

from rouge_metric import cli

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "examples" / "data"


def run(argv, capsys):
    """(exit code, stdout, stderr) of ``rouge-metric <argv>`` run in this process."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def lines(name):
    return (DATA / name).read_text(encoding="utf-8").splitlines()
