"""Write the committed subset of the synthetic ROUGE-1.5.5 golden vectors (tests/data/).

    python tools/golden_subset.py                       # ../shared/golden/rouge155-synthetic.jsonl -> tests/data/
    python tools/golden_subset.py --check               # the committed file is what this script writes

The subset keeps every hand-made edge case (``edge-*``: empty candidates, ties, repeated tokens, ...)
and adds random cases until the file reaches ``--max-bytes``. Random cases are taken in turn from each
number of references (1 to 4), each group in the order of the SHA-256 of the case id, so the choice
depends on the source file alone. A case keeps both of its lines (``-f A`` and ``-f B``). Lines are
copied byte for byte and keep the source's order; every ROUGE type and both formulas are in every line,
so the subset covers all the types, options and reference counts of the full file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO.parent / "shared" / "golden" / "rouge155-synthetic.jsonl"
TARGET = REPO / "tests" / "data" / "rouge155-synthetic-subset.jsonl"
MAX_BYTES = 290_000


def select(lines: list[str], max_bytes: int) -> list[str]:
    """The lines of the subset, in the source's order."""
    by_id: dict[str, list[int]] = defaultdict(list)
    rows = [json.loads(line) for line in lines]
    for i, row in enumerate(rows):
        by_id[row["id"]].append(i)
    size = lambda case: sum(len(lines[i].encode("utf-8")) for i in by_id[case])  # noqa: E731
    chosen = [case for case in by_id if rows[by_id[case][0]]["group"] == "edge"]
    total = sum(size(case) for case in chosen)
    if total > max_bytes:
        raise SystemExit(f"--max-bytes {max_bytes}: the edge cases alone take {total} bytes")
    groups: dict[int, list[str]] = defaultdict(list)
    for case in by_id:
        if rows[by_id[case][0]]["group"] != "edge":
            groups[len(rows[by_id[case][0]]["references"])].append(case)
    queues = [sorted(groups[k], key=lambda c: hashlib.sha256(c.encode()).hexdigest()) for k in sorted(groups)]
    while any(queues):
        for queue in queues:
            if queue:
                case = queue.pop(0)
                if total + size(case) <= max_bytes:
                    chosen.append(case)
                    total += size(case)
                else:
                    queue.clear()
    keep = sorted(i for case in chosen for i in by_id[case])
    return [lines[i] for i in keep]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=SOURCE)
    ap.add_argument("--out", type=Path, default=TARGET)
    ap.add_argument("--max-bytes", type=int, default=MAX_BYTES)
    ap.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = ap.parse_args(argv)
    lines = args.source.read_text(encoding="utf-8").splitlines(keepends=True)
    subset = select(lines, args.max_bytes)
    text = "".join(subset)
    rows = [json.loads(line) for line in subset]
    cases = {r["id"] for r in rows}
    refs = sorted({len(r["references"]) for r in rows})
    summary = (f"{len(subset)} lines ({len(cases)} cases x formulas {sorted({r['formula'] for r in rows})}; "
               f"{sum(r['group'] == 'edge' for r in rows)} edge lines; references per case {refs}), "
               f"{len(text.encode('utf-8'))} bytes")
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"golden_subset: {args.out} {'is' if same else 'is NOT'} the selection: {summary}")
        return 0 if same else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"golden_subset: wrote {args.out}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
