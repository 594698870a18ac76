"""``python -m rouge_metric.rouge_score program.py args...`` (or ``-m module args...``): run an
unmodified program with ``import rouge_score`` resolved to the drop-in (:func:`rouge_metric.rouge_score.install`)."""

from __future__ import annotations

import os
import runpy
import sys
from typing import List, Optional

USAGE = """usage: python -m rouge_metric.rouge_score program.py [args ...]
       python -m rouge_metric.rouge_score -m module [args ...]

Runs the program (as `python program.py` / `python -m module` would) with `import rouge_score` resolved to
rouge_metric's drop-in (rouge_metric.rouge_score): the same API and numbers as rouge-score 0.1.2."""


def main(argv: Optional[List[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    from . import install

    if args[0] == "-m":
        if len(args) < 2:
            print("error: -m needs a module name\n" + USAGE, file=sys.stderr)
            return 2
        install()
        sys.argv = args[1:]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return 0
    script = args[0]
    if not os.path.exists(script):
        print(f"error: no such file: {script}", file=sys.stderr)
        return 2
    install()
    sys.argv = args
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
