"""Ray Data on a local Ray instance (2 CPUs, started once for the module): corpus ROUGE merged by Ray's
aggregation equals one process (``Rouge.compute``) to the last bit, from Hugging Face datasets, Parquet
and JSONL files; the Ray examples of docs/scale.md run here."""

import json
import os
import re
import time

import pytest

pytestmark = pytest.mark.integration

ray = pytest.importorskip("ray", reason="Ray Data is the [ray] extra")
pytest.importorskip("ray.data")

from corpora import generated_corpus  # noqa: E402
from rouge_metric import Rouge  # noqa: E402
from rouge_metric.distributed import PartialScorer  # noqa: E402
from rouge_metric.ray_data import AGG_NAME, RougeAggregate, score_dataset, state_result  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report over the network
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    # the aggregation of a few state rows: the sort-based shuffle starts no aggregator actors (seconds saved)
    ctx.shuffle_strategy = ray.data.context.ShuffleStrategy.SORT_SHUFFLE_PULL_BASED
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def corpus():
    return generated_corpus(700, seed=11)


def _same(got, one):
    assert got.scores == one.scores
    assert (got.n, got.pred_len, got.ref_len, got.signature) == (one.n, one.pred_len, one.ref_len, one.signature)


def test_huggingface_parquet_and_jsonl_equal_one_process(corpus, tmp_path):
    """One Ray run over the union of a Hugging Face Dataset, Parquet files and JSONL files."""
    import datasets
    import pyarrow as pa
    import pyarrow.parquet as pq

    preds, refs = corpus
    (tmp_path / "pq").mkdir()
    (tmp_path / "jsonl").mkdir()
    hf = datasets.Dataset.from_dict({"summary": preds[:300], "refs": refs[:300]})
    for k, (a, b) in enumerate([(300, 420), (420, 500)]):
        pq.write_table(pa.table({"summary": preds[a:b], "refs": refs[a:b]}), tmp_path / "pq" / f"part{k}.parquet")
    for k, (a, b) in enumerate([(500, 610), (610, 700)]):
        with open(tmp_path / "jsonl" / f"part{k}.jsonl", "w", encoding="utf-8") as fh:
            for p, r in zip(preds[a:b], refs[a:b]):
                fh.write(json.dumps({"summary": p, "refs": r}) + "\n")
    ds = ray.data.from_huggingface(hf).union(ray.data.read_parquet(str(tmp_path / "pq")),
                                             ray.data.read_json(str(tmp_path / "jsonl")))
    got = score_dataset(ds, TYPES, prediction_column="summary", references_column="refs", use_stemmer=True,
                        multi_ref="mean", batch_size=96)
    _same(got, Rouge(TYPES, use_stemmer=True, multi_ref="mean").compute(predictions=preds, references=refs))


def test_only_states_reach_the_aggregation(corpus):
    """map_batches writes one state row per batch (not one row per example); Ray's aggregation adds them."""
    from ray.data.aggregate import Count

    preds, refs = corpus
    ds = ray.data.from_items([{"prediction": p, "references": r} for p, r in zip(preds, refs)])
    scorer = PartialScorer(["rouge1"])
    states = ds.map_batches(scorer, batch_size=100, batch_format="numpy")
    out = states.aggregate(RougeAggregate(scorer.rouge.rouge_types), Count())
    assert out["count()"] <= ds.num_blocks() + len(preds) // 100  # one row per batch
    _same(state_result(scorer, out[AGG_NAME]), Rouge(["rouge1"]).compute(predictions=preds, references=refs))


_RAY_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


_PICKLE_FALLBACK = "Failed to convert column"


def _ray_log_text():
    """Everything this Ray instance's workers and Ray Data logged so far (its session's log folder; other
    Ray instances on the machine have their own)."""
    from ray._private import worker

    logs = worker._global_node.get_logs_dir_path()
    out = []
    for root, _, files in os.walk(logs):
        for name in files:
            if name.endswith((".log", ".err", ".out")):
                with open(os.path.join(root, name), encoding="utf-8", errors="replace") as fh:
                    out.append(fh.read())
    return "\n".join(out)


def test_docs_scale_ray_examples_run(repo_dir, tmp_path, monkeypatch):
    """The ```python blocks of docs/scale.md that use Ray (plain scripts, not >>> sessions) run as written,
    each on its own (ray.init and the sort-based shuffle in every one); the state rows and the aggregation's
    accumulator have Arrow types, so no worker logs Ray's fallback to pickled Python objects."""
    text = (repo_dir / "docs" / "scale.md").read_text(encoding="utf-8")
    blocks = [b for b in _RAY_BLOCK.findall(text) if ">>>" not in b and "import ray" in b]
    assert len(blocks) == 2, "docs/scale.md: expected the two Ray examples"
    for block in blocks:
        assert "ray.init(" in block and "ShuffleStrategy.SORT_SHUFFLE_PULL_BASED" in block, block
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "docs/scale.md", "exec"), {"__name__": "__main__"})
    time.sleep(1)  # worker stderr reaches its log file asynchronously
    assert _PICKLE_FALLBACK not in _ray_log_text()
