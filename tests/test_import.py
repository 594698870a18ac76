"""What ``import rouge_metric`` costs: only the scoring path is imported; the rest loads on first use."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import rouge_metric

# Heavy or rarely needed: none of them is imported by `import rouge_metric` (nltk: only when a word
# needs it; numpy: only for kept per-example values and bootstrap).
NOT_AT_IMPORT = ["rouge_metric.generation", "rouge_metric.rewards", "rouge_metric.rouge155",
                 "rouge_metric.significance", "rouge_metric.batch", "nltk", "numpy", "datasets", "evaluate",
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
