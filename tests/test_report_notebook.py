"""The notebook views, executed as a notebook: nbclient runs a small notebook on an ipykernel of this
interpreter, offline (no network: the kernel talks to the client over local sockets), and the outputs of
the corpus result, the explanation, the comparison result and the report are ``text/html`` without any
extra call. nbformat, nbclient and ipykernel are in the [test] extra; the test skips, saying so, only
where they are not installed (the same ``_repr_html_`` are also checked directly in tests/test_report.py)."""

import os
import sys

import pytest

pytestmark = pytest.mark.integration  # starts a Jupyter kernel

nbformat = pytest.importorskip("nbformat", reason="executing a notebook needs nbformat (the [test] extra)")
nbclient = pytest.importorskip("nbclient", reason="executing a notebook needs nbclient (the [test] extra)")
pytest.importorskip("ipykernel", reason="executing a notebook needs ipykernel (the [test] extra)")
pytest.importorskip("matplotlib", reason="the report's charts need matplotlib (the [report] extra)")

CELLS = [
    "import sys\n"
    "from rouge_metric import compute, compare\n"
    "from rouge_metric.explain import explain\n"
    "from rouge_metric.report import report\n"
    "refs = ['the cat sat on the mat', 'a dog barked at the mailman', 'birds sing in the morning']\n"
    "base = ['the cat sat', 'a dog barked', 'birds sing']\n"
    "other = ['the cat sat on a mat', 'a dog barked at the man', '<script>alert(1)</script> birds']\n"
    "sys.executable",
    "compute(predictions=base, references=refs, rouge_types=['rouge1'], aggregation='bootstrap', n_resamples=50)",
    "explain(prediction=other[0], references=refs[0], rouge_types=['rouge1', 'rougeL'])",
    "compare(baseline=base, systems={'other': other}, references=refs, rouge_types=['rouge1'], n_resamples=50)",
    "report(base, refs, systems={'other': other}, rouge_types=['rouge1'], n_resamples=50, test_resamples=50)",
]


def test_results_explanations_and_the_report_render_as_html_in_a_notebook(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS]
    # the kernel runs this interpreter (jupyter_client starts a "python" kernelspec with sys.executable)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [[o for o in cell.outputs if o.get("output_type") == "execute_result"] for cell in nb.cells]
    assert all(len(o) == 1 for o in outputs), [cell.outputs for cell in nb.cells]
    assert os.path.realpath(outputs[0][0]["data"]["text/plain"].strip("'")) == os.path.realpath(sys.executable)
    html = {}
    for name, out in zip(("corpus", "explanation", "comparison", "report"), outputs[1:]):
        assert "text/html" in out[0]["data"], (name, sorted(out[0]["data"]))
        html[name] = out[0]["data"]["text/html"]
    assert '<table class="rm-result">' in html["corpus"] and "ROUGE ×100, 95% bootstrap intervals" in html["corpus"]
    assert '<div class="rm-explain">' in html["explanation"] and "<style>" in html["explanation"]
    assert 'rm-hit" data-side="pred"' in html["explanation"] and "cross-checked" in html["explanation"]
    assert "Paired comparison, F ×100" in html["comparison"] and "<td>other</td>" in html["comparison"]
    assert html["report"].startswith('<iframe class="rouge-metric-report" sandbox="allow-scripts"')
    assert "&amp;lt;script&amp;gt;alert(1)" in html["report"] and "<script>alert(1)" not in html["report"]  # escaped twice
