"""The notebook views, executed as a notebook: nbclient runs a small notebook on an ipykernel of this
interpreter (offline) and the outputs of the corpus result, the comparison result and the report are
``text/html`` without any extra call. Skips without nbclient, nbformat or ipykernel (not in the [test]
extra: ipykernel brings a large tree; the same ``_repr_html_`` are checked directly in
tests/test_report.py)."""

import pytest

pytestmark = pytest.mark.integration  # starts a Jupyter kernel

nbformat = pytest.importorskip("nbformat", reason="executing a notebook needs nbformat")
nbclient = pytest.importorskip("nbclient", reason="executing a notebook needs nbclient")
pytest.importorskip("ipykernel", reason="executing a notebook needs ipykernel")
pytest.importorskip("matplotlib", reason="the report's charts need matplotlib (the [report] extra)")

CELLS = [
    "from rouge_metric import compute, compare\n"
    "from rouge_metric.report import report\n"
    "refs = ['the cat sat on the mat', 'a dog barked at the mailman', 'birds sing in the morning']\n"
    "base = ['the cat sat', 'a dog barked', 'birds sing']\n"
    "other = ['the cat sat on a mat', 'a dog barked at the man', '<script>alert(1)</script> birds']",
    "compute(predictions=base, references=refs, rouge_types=['rouge1'], aggregation='bootstrap', n_resamples=50)",
    "compare(baseline=base, systems={'other': other}, references=refs, rouge_types=['rouge1'], n_resamples=50)",
    "report(base, refs, systems={'other': other}, rouge_types=['rouge1'], n_resamples=50, test_resamples=50)",
]


def test_results_and_the_report_render_as_html_in_a_notebook(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS]
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    html = [next(o["data"]["text/html"] for o in cell.outputs if o.get("output_type") == "execute_result")
            for cell in nb.cells[1:]]
    assert '<table class="rm-result">' in html[0] and "ROUGE ×100, 95% bootstrap intervals" in html[0]
    assert "Paired comparison, F ×100" in html[1] and "<td>other</td>" in html[1]
    assert html[2].startswith('<iframe class="rouge-metric-report" sandbox="allow-scripts"')
    assert "&amp;lt;script&amp;gt;alert(1)" in html[2] and "<script>alert(1)" not in html[2]  # escaped twice: text, attribute
