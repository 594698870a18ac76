"""examples/grpo_rouge_reward.py --tiny: a real TRL GRPOTrainer run calls the reward with TRL's own
arguments (completions, completion_ids, dataset columns, trainer_state, log_metric) and the reward rises."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO

pytest.importorskip("trl", reason="TRL is the [rl] extra (also in [test] on Python 3.11+: TRL 1.16 needs 3.11)")


@pytest.mark.integration
@pytest.mark.parametrize("reward_on, steps", [("text", 20), ("ids", 10)])
def test_tiny_grpo_run_reward_rises(tmp_path, reward_on, steps):
    env = dict(os.environ, OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "grpo_rouge_reward.py"), "--tiny",
                           "--reward-on", reward_on, "--max-steps", str(steps), "--output-dir", str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads((tmp_path / "reward_curve.json").read_text())
    curve = [v for _, v in out["curve"]]
    assert len(curve) == steps // 5 and all(0.0 <= v <= 1.0 for v in curve)
    assert ("tok:ids" in out["signature"]) == (reward_on == "ids")
    assert curve[-1] > curve[0] + 0.03, curve  # GRPO on the ROUGE reward raises it within a few steps
    assert "rouge/rougeL_precision" in proc.stdout  # the reward's log_metric reached TRL's logs


def test_example_rejects_stemming_with_ids(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "grpo_rouge_reward.py"), "--tiny", "--reward-on",
                           "ids", "--stemmer", "--output-dir", str(tmp_path)], capture_output=True, text=True,
                          timeout=120, cwd=REPO)
    assert proc.returncode == 2 and "--stemmer needs words" in proc.stderr
