"""rouge_metric.lightning.RougeMetric: a torchmetrics Metric with exact, constant-size states.

Oracles: one-process ``Rouge.compute`` (bit-equal), torchmetrics' ``ROUGEScore`` (same definitions, float32
result), and a run under ``torchrun --nproc_per_node 2`` (gloo, CPU) for the all-reduce.

This file is also the torchrun worker (``python tests/test_lightning.py OUT_DIR``): each rank updates the
metric with its share of the examples (uneven: 13 and 401 examples over 2 ranks), computes (which syncs),
records the bytes torchmetrics gathered, and writes ``OUT_DIR/rank<r>.json``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
SIZES = (13, 401)


def corpus(n: int):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from corpora import generated_corpus

    return generated_corpus(n, seed=n)


def as_hex(out: Dict[str, Any]) -> Dict[str, str]:
    return {k: float(v).hex() for k, v in out.items()}


def worker(out_dir: str) -> None:
    import torch
    import torch.distributed as dist
    from torchmetrics.utilities.distributed import gather_all_tensors

    from rouge_metric.lightning import RougeMetric

    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.set_num_threads(1)
    seen: Dict[str, Any] = {"rank": rank, "world": world}
    for n in SIZES:
        gathered: List[int] = []

        def sync_fn(tensor, group=None):  # torchmetrics' own gather, counting what it moves
            out = gather_all_tensors(tensor, group)
            gathered.append(sum(t.numel() * t.element_size() for t in out))
            return out

        metric = RougeMetric(TYPES, use_stemmer=True, num_threads=1, metric_kwargs={"dist_sync_fn": sync_fn})
        preds, refs = corpus(n)
        mine = list(range(rank, n, world))
        for i in range(0, len(mine), 5):  # batches of 5
            idx = mine[i:i + 5]
            metric.update([preds[j] for j in idx], [refs[j] for j in idx])
        seen[f"n{n}"] = as_hex(metric.compute())
        seen[f"n{n}_count"] = metric.last_result.n
        seen[f"n{n}_bytes"] = sum(gathered)
    dist.destroy_process_group()
    Path(out_dir, f"rank{rank}.json").write_text(json.dumps(seen))


if __name__ == "__main__":
    worker(sys.argv[1])
else:
    import pytest

    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics", reason="RougeMetric is the [torchmetrics] extra")
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rouge_metric import Rouge
    from rouge_metric.lightning import RougeMetric
    from strategies import references_lists, texts

    def one_process(n: int) -> Dict[str, str]:
        preds, refs = corpus(n)
        res = Rouge(TYPES, use_stemmer=True).compute(predictions=preds, references=refs)
        return {k: v.hex() for k, v in res.to_dict(("fmeasure", "precision", "recall")).items()}

    @pytest.mark.integration
    def test_torchrun_two_processes_equal_one_process_with_constant_state(tmp_path):
        with socket.socket() as sock:  # a free port
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        env = dict(os.environ, OMP_NUM_THREADS="1")
        # torchrun of this interpreter (python -m torch.distributed.run is the torchrun entry point)
        cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_port", str(port), "--master_addr", "127.0.0.1",
               str(Path(__file__).resolve()), str(tmp_path)]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
        ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
        assert [r["world"] for r in ranks] == [2, 2]
        for n in SIZES:
            expected = one_process(n)
            for r in ranks:
                assert r[f"n{n}"] == expected, (n, r["rank"])
                assert r[f"n{n}_count"] == n
        # what the sync moved: the same bytes for 13 and 401 examples, one state per rank
        limbs_bytes = (3 * len(TYPES) + 2) * 36 * 8
        for r in ranks:
            assert r["n13_bytes"] == r["n401_bytes"] == 2 * (limbs_bytes + 8)

    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.tuples(texts(), references_lists), min_size=1, max_size=20), st.data())
    def test_any_batching_equals_one_process(rows, data):
        preds = [p for p, _ in rows]
        refs = [r for _, r in rows]
        metric = RougeMetric(TYPES, multi_ref="pool")
        i = 0
        while i < len(rows):
            k = data.draw(st.integers(1, len(rows) - i))
            if data.draw(st.booleans()):
                metric(preds[i:i + k], refs[i:i + k])  # forward: batch value + accumulation
            else:
                metric.update(preds[i:i + k], refs[i:i + k])
            i += k
        one = Rouge(TYPES, multi_ref="pool").compute(predictions=preds, references=refs)
        assert {k: v.item() for k, v in metric.compute().items()} == one.to_dict(("fmeasure", "precision", "recall"))
        res = metric.last_result
        assert res.scores == one.scores and (res.n, res.pred_len, res.ref_len) == (one.n, one.pred_len, one.ref_len)

    def test_merge_state_and_reset():
        preds, refs = corpus(60)
        a, b = RougeMetric(["rouge1"]), RougeMetric(["rouge1"])
        a.update(preds[:25], refs[:25])
        b.update(preds[25:], refs[25:])
        a.merge_state(b)
        one = Rouge(["rouge1"]).compute(predictions=preds, references=refs)
        a.compute()
        assert a.last_result.scores == one.scores and a.last_result.n == 60
        a.reset()
        assert int(a.n) == 0 and int(a.limbs.abs().sum()) == 0

    def test_token_ids_as_tensors():
        ids_preds = torch.tensor([[5, 6, 7, 0, 0], [9, 9, 3, 4, 0]])
        ids_refs = torch.tensor([[5, 6, 7, 8], [3, 4, 9, 0]])
        metric = RougeMetric(["rouge1", "rougeL"], tokenizer="ids", ignore_ids=(-100, 0))
        metric.update(ids_preds, ids_refs)
        metric.compute()
        lists = ([[5, 6, 7], [9, 9, 3, 4]], [[5, 6, 7, 8], [3, 4, 9]])
        one = Rouge(["rouge1", "rougeL"], tokenizer="ids").compute(predictions=lists[0], references=lists[1])
        assert metric.last_result.scores == one.scores

    def test_state_size_does_not_grow():
        metric = RougeMetric(TYPES)
        preds, refs = corpus(200)
        sizes = []
        for i in range(0, 200, 50):
            metric.update(preds[i:i + 50], refs[i:i + 50])
            sizes.append(sum(v.numel() * v.element_size() for v in metric.metric_state.values()))
        assert sizes == [sizes[0]] * 4 == [((3 * len(TYPES) + 2) * 36 + 1) * 8] * 4

    def test_errors():
        with pytest.raises(ValueError, match="aggregation: 'bootstrap'"):
            RougeMetric(["rouge1"], aggregation="bootstrap")
        metric = RougeMetric(["rouge1"])
        with pytest.raises(TypeError, match=r"references\[1\]: expected str or list of str, got int"):
            metric.update(["a", "b"], ["a", 3])
        with pytest.raises(ValueError, match="same length"):
            metric.update(["a", "b"], ["a"])
        with pytest.raises(ValueError, match="no example was scored"):
            metric.compute()

    def test_agrees_with_torchmetrics_rougescore_to_float32():
        """Same definitions as torchmetrics' ROUGEScore for rouge1/rouge2/rougeL (best = max, avg = mean);
        ROUGEScore averages float32 values, so agreement is to float32 precision, not bits."""
        from torchmetrics.text.rouge import ROUGEScore

        preds, refs = corpus(120)
        for accumulate, mode in (("best", "max"), ("avg", "mean")):
            theirs = ROUGEScore(rouge_keys=("rouge1", "rouge2", "rougeL"), accumulate=accumulate, use_stemmer=True)
            theirs.update(preds, refs)
            t_out = theirs.compute()
            ours = RougeMetric(["rouge1", "rouge2", "rougeL"], multi_ref=mode, use_stemmer=True)
            ours.update(preds, refs)
            o_out = ours.compute()
            for t in ("rouge1", "rouge2", "rougeL"):
                for s, key in (("fmeasure", t), ("precision", f"{t}_precision"), ("recall", f"{t}_recall")):
                    assert t_out[f"{t}_{s}"].dtype == torch.float32
                    assert abs(float(t_out[f"{t}_{s}"]) - float(o_out[key])) <= 2e-7 * max(float(o_out[key]), 1e-3)
