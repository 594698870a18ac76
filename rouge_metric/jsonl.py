"""JSON Lines input, read the same way by the command line and :func:`rouge_metric.generate_and_score`:
one JSON object per non-blank line, errors naming the file and the line."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, Tuple


def parse_jsonl(text: str, path: str) -> Iterator[Tuple[int, Dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of ``text`` (the content of ``path``).

    Raises ValueError ``"<path>:<line>: ..."`` on invalid JSON or a line that is not a JSON object.
    O(len(text)).
    """
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{lineno}: invalid JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise ValueError(f"{path}:{lineno}: expected a JSON object per line, got {type(obj).__name__}")
        yield lineno, obj
