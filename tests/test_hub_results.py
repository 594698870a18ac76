"""Model card model-index and .eval_results written by rouge_metric.hub_results, read back offline with
huggingface_hub's own parsers (ModelCard, metadata_load, parse_eval_result_entries)."""

import json

import pytest

import rouge_metric
from rouge_metric import harnesses, hub_results

hf = pytest.importorskip("huggingface_hub")

CARD = """---
language: en
license: apache-2.0
tags:
- summarization
model-index:
- name: my-model
  results:
  - task:
      type: summarization
      name: Summarization
    dataset:
      type: abisee/cnn_dailymail
      name: CNN / Daily Mail
      config: 3.0.0
      split: test
    metrics:
    - type: rouge
      value: 1.5
      name: rouge1
      config: rouge1
    - type: bertscore
      value: 0.9
      name: BERTScore
  - task:
      type: summarization
      name: Summarization
    dataset:
      type: EdinburghNLP/xsum
      name: XSum
      split: test
    metrics:
    - type: rouge
      value: 40.0
      name: rouge2
- name: other-model
  results: []
---

# My model

Body text that must survive.
"""

PREDS = ["the cat sat on the mat", "a dog barked at night"]
REFS = [["the cat was on the mat"], ["the dog barked all night", "a dog"]]


def _result():
    return rouge_metric.compute(predictions=PREDS, references=REFS, rouge_types=["rouge1", "rouge2", "rougeLsum"])


def test_merge_keeps_everything_else(tmp_path):
    path = tmp_path / "README.md"
    path.write_text(CARD, encoding="utf-8")
    result = _result()
    hub_results.write_model_card(path, result, dataset_id="abisee/cnn_dailymail", dataset_config="3.0.0",
                                 split="test", model_name="my-model")
    card = hf.ModelCard.load(path)
    assert "Body text that must survive." in card.text
    assert card.data.license == "apache-2.0" and card.data.tags == ["summarization"]
    meta = hf.metadata_load(path)
    names = [m["name"] for m in meta["model-index"]]
    assert names == ["my-model", "other-model"]
    results = meta["model-index"][0]["results"]
    assert len(results) == 2 and results[1]["dataset"]["type"] == "EdinburghNLP/xsum"  # other result kept
    metrics = {m["name"]: m for m in results[0]["metrics"]}
    assert metrics["BERTScore"]["value"] == 0.9  # other metric kept
    assert set(metrics) == {"BERTScore", "rouge1", "rouge2", "rougeLsum"}
    for t, sc in result.scores.items():
        assert metrics[t]["value"] == sc.fmeasure * 100  # rouge1 replaced (the card held 1.5), YAML round trip exact
        assert metrics[t]["args"]["signature"] == result.signature
        assert metrics[t]["args"]["stat"] == "fmeasure" and metrics[t]["args"]["scale"] == 100.0
    # huggingface_hub's own model-index parser accepts it: one EvalResult per metric
    evals = [e for e in card.data.eval_results if e.dataset_type == "abisee/cnn_dailymail"]
    assert {e.metric_name for e in evals} == {"BERTScore", "rouge1", "rouge2", "rougeLsum"}
    assert all(e.task_type == "summarization" and e.dataset_split == "test" and e.dataset_config == "3.0.0"
               for e in evals)


def test_new_card_and_new_dataset_entry(tmp_path):
    path = tmp_path / "model" / "README.md"
    path.parent.mkdir()
    r = harnesses.lm_eval_cnn_dailymail(PREDS, [r[0] for r in REFS])
    hub_results.write_model_card(path, r, dataset_id="abisee/cnn_dailymail", dataset_config="3.0.0", split="test",
                                 revision="96df5e686bee6baa90b8bee7c28b81fa3fa6223d")
    card = hf.ModelCard.load(path)
    assert card.data.model_name == "model"
    (e1,) = [e for e in card.data.eval_results if e.metric_name == "rouge1"]
    assert e1.metric_value == r.scores["rouge1"]  # a HarnessResult keeps the harness's scale
    assert e1.dataset_revision == "96df5e686bee6baa90b8bee7c28b81fa3fa6223d"
    assert e1.metric_args["recipe"] == "lm_eval.cnn_dailymail" and e1.metric_args["signature"] == r.signature
    # a second dataset: appended, the first result kept
    hub_results.write_model_card(path, _result(), dataset_id="EdinburghNLP/xsum", split="test")
    meta = hf.metadata_load(path)
    assert [x["dataset"]["type"] for x in meta["model-index"][0]["results"]] == [
        "abisee/cnn_dailymail", "EdinburghNLP/xsum"]


def test_refusals(tmp_path):
    with pytest.raises(ValueError, match="dataset_id"):
        hub_results.model_index_result(_result(), dataset_id="")
    with pytest.raises(TypeError, match="expected a CorpusResult"):
        hub_results.model_index_result({"rouge1": 0.5}, dataset_id="x/y")
    with pytest.raises(ValueError, match="model_name: the card has no model-index"):
        hub_results.merge_model_index({}, hub_results.model_index_result(_result(), dataset_id="x/y"))
    with pytest.raises(ValueError, match="key: 'rougeL' is not in the result"):
        hub_results.write_eval_results(tmp_path, _result(), key="rougeL", dataset_id="x/y", task_id="t")


def test_eval_results_round_trip(tmp_path):
    result = _result()
    path = hub_results.write_eval_results(tmp_path, result, key="rougeLsum", dataset_id="abisee/cnn_dailymail",
                                          task_id="summarization", revision="abc", date="2026-11-26T14:00:00Z")
    hub_results.write_eval_results(tmp_path, result, key="rouge1", dataset_id="other/bench", task_id="t",
                                   filename=path.stem)
    import yaml

    entries = hf.parse_eval_result_entries(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert [(e.dataset_id, e.task_id) for e in entries] == [("abisee/cnn_dailymail", "summarization"),
                                                            ("other/bench", "t")]
    assert entries[0].value == result.scores["rougeLsum"].fmeasure * 100
    assert entries[0].dataset_revision == "abc" and result.signature in entries[0].notes
    # the same (dataset, task) again: replaced, not duplicated
    hub_results.write_eval_results(tmp_path, result, key="rouge2", dataset_id="abisee/cnn_dailymail",
                                   task_id="summarization", filename=path.stem)
    entries = hf.parse_eval_result_entries(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert len(entries) == 2 and entries[1].value == result.scores["rouge2"].fmeasure * 100


def test_cli_model_card(tmp_path, capsys):
    from rouge_metric.cli import main

    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"prediction": p, "references": r}) + "\n" for p, r in zip(PREDS, REFS)),
                    encoding="utf-8")
    card = tmp_path / "README.md"
    card.write_text(CARD, encoding="utf-8")
    code = main(["score", "--predictions", str(data), "--json", "-q", "--model-card", str(card),
                 "--dataset-id", "EdinburghNLP/xsum", "--dataset-split", "test", "--model-name", "my-model"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    meta = hf.metadata_load(card)
    xsum = meta["model-index"][0]["results"][1]
    got = {m["name"]: m["value"] for m in xsum["metrics"]}
    assert got == {"rouge2": out["scores"]["rouge2"]["fmeasure"] * 100,
                   **{t: out["scores"][t]["fmeasure"] * 100 for t in ("rouge1", "rougeL", "rougeLsum")}}
    assert "Body text that must survive." in card.read_text(encoding="utf-8")
    # the ROUGE-1.5.5 preset writes too (not silently ignored)
    assert main(["score", "--predictions", str(data), "--json", "-q", "--rouge155", "-n 2", "--model-card", str(card),
                 "--dataset-id", "x/perl", "--model-name", "my-model"]) == 0
    out155 = json.loads(capsys.readouterr().out)
    perl = hf.metadata_load(card)["model-index"][0]["results"][-1]
    assert perl["dataset"]["type"] == "x/perl"
    assert {m["name"]: m["value"] for m in perl["metrics"]} == {
        t: s["fmeasure"] * 100 for t, s in out155["scores"].items()}
    assert main(["score", "--predictions", str(data), "-q", "--model-card", str(card)]) != 0
    assert "--model-card: needs --dataset-id" in capsys.readouterr().err
    assert main(["score", "--predictions", str(data), "-q", "--dataset-id", "x/y"]) != 0
    assert "--dataset-id: only used with --model-card" in capsys.readouterr().err
