"""RougeMapper (datasets.map) and aggregate_dataset: same numbers as the core, stable fingerprints."""

import os
import pickle
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

datasets = pytest.importorskip("datasets")
from datasets.fingerprint import Hasher  # noqa: E402

import rouge_metric  # noqa: E402
from rouge_metric import Rouge, RougeConfig, output_key  # noqa: E402
from rouge_metric import batch as batch_mod  # noqa: E402
from rouge_metric.batch import PRED_LEN_COLUMN, REF_LEN_COLUMN, RougeMapper, aggregate_dataset  # noqa: E402

VOCAB = "the a cat cats dog dogs sat sitting on mat mats running runs ran fast slowly big small red".split()


def rand_text(rng, max_sents=3):
    sents = [" ".join(rng.choice(VOCAB) for _ in range(rng.randint(0, 9))) for _ in range(rng.randint(1, max_sents))]
    return "\n".join(sents)


def rand_rows(seed, n, multi=True):
    rng = random.Random(seed)
    preds, refs = [], []
    for _ in range(n):
        preds.append(rand_text(rng))
        refs.append([rand_text(rng) for _ in range(rng.randint(1, 3))] if multi else rand_text(rng))
    return preds, refs


CONFIGS = [
    dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"]),
    dict(rouge_types=["rouge1", "rougeL", "rougeLsum"], use_stemmer=True, multi_ref="mean"),
    dict(rouge_types=["rouge3", "rougeW", "rougeSU4", "rougeS"], multi_ref="pool", alpha=0.5),
    dict(rouge_types=["rouge2", "rougeLsum"], multi_ref="best_recall", tokenizer="whitespace", beta=2.0),
]


@pytest.mark.parametrize("opts", CONFIGS)
@pytest.mark.parametrize("multi", [True, False])
def test_columns_equal_core_scores(opts, multi):
    preds, refs = rand_rows(hash(str(opts)) % 1000 + multi, 60, multi=multi)
    ds = datasets.Dataset.from_dict({"prediction": preds, "references": refs})
    mapper = RougeMapper(**opts)
    scored = ds.map(mapper, batched=True, batch_size=16)
    rouge = Rouge(config=RougeConfig(**{**opts, "rouge_types": tuple(opts["rouge_types"])}))
    expected = list(rouge.iter_scores(preds, refs))
    assert scored.column_names == ["prediction", "references"] + mapper.output_columns()
    for i, (scores, pl, rl) in enumerate(expected):
        row = scored[i]
        for t, sc in scores.items():
            assert row[output_key(t, "fmeasure")] == sc.fmeasure
            assert row[output_key(t, "precision")] == sc.precision
            assert row[output_key(t, "recall")] == sc.recall
        assert row[PRED_LEN_COLUMN] == pl and row[REF_LEN_COLUMN] == rl
    # corpus: the same CorpusResult as the core's compute (exact means, lengths, signature)
    got = mapper.aggregate(scored)
    want = rouge.compute(predictions=preds, references=refs)
    assert got == want


def test_aggregate_bootstrap_equals_core():
    preds, refs = rand_rows(7, 40)
    opts = dict(rouge_types=("rouge1", "rougeL"), aggregation="bootstrap", n_resamples=200, seed=3)
    mapper = RougeMapper(**opts)
    scored = datasets.Dataset.from_dict({"prediction": preds, "references": refs}).map(mapper, batched=True)
    got = aggregate_dataset(scored, mapper)
    want = Rouge(**opts).compute(predictions=preds, references=refs)
    assert got.ci is not None and got == want
    assert "seed=3" in got.signature


def test_aggregate_respects_selection_and_format():
    preds, refs = rand_rows(11, 30)
    mapper = RougeMapper(rouge_types=["rouge1"])
    scored = datasets.Dataset.from_dict({"prediction": preds, "references": refs}).map(mapper, batched=True)
    sub = scored.select([3, 1, 4, 15]).with_format("numpy")
    want = mapper.rouge.compute(predictions=[preds[i] for i in (3, 1, 4, 15)],
                                references=[refs[i] for i in (3, 1, 4, 15)])
    assert mapper.aggregate(sub, batch_size=3) == want


def test_aggregate_without_lengths_and_missing_columns():
    preds, refs = rand_rows(2, 10)
    mapper = RougeMapper(rouge_types=["rouge1"], lengths=False)
    ds = datasets.Dataset.from_dict({"prediction": preds, "references": refs})
    scored = ds.map(mapper, batched=True)
    assert PRED_LEN_COLUMN not in scored.column_names
    res = mapper.aggregate(scored)
    want = mapper.rouge.compute(predictions=preds, references=refs)
    assert res.scores == want.scores and res.pred_len != res.pred_len  # NaN lengths
    with pytest.raises(ValueError, match=r"missing score column.*rouge1_precision"):
        RougeMapper(rouge_types=["rouge1", "rouge2"]).aggregate(scored)


def test_pickle_roundtrip_drops_live_scorer():
    mapper = RougeMapper(rouge_types=["rouge1", "rougeLsum"], use_stemmer=True)
    state = mapper.__getstate__()
    assert "_rouge" not in state and state["version"] == rouge_metric.__version__
    clone = pickle.loads(pickle.dumps(mapper))
    assert clone._rouge is None
    batch = {"prediction": ["cats running\nfast"], "references": [["the cat runs fast"]]}
    assert clone(batch) == mapper(batch)


def test_fingerprint_changes_with_settings_and_version(monkeypatch):
    base = RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True)
    h = Hasher.hash(base)
    assert Hasher.hash(RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True)) == h
    base.rouge.score(prediction="running cats", references="cats ran")  # warm caches: no effect
    assert Hasher.hash(base) == h
    variants = [
        RougeMapper(rouge_types=["rouge1", "rougeL"]),
        RougeMapper(rouge_types=["rouge1", "rougeLsum"], use_stemmer=True),
        RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True, multi_ref="mean"),
        RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True, tokenizer="whitespace"),
        RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True, beta=2.0),
        RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True, prediction_column="pred"),
        RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True, references_column="refs"),
        RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True, lengths=False),
    ]
    hashes = {Hasher.hash(v) for v in variants}
    assert h not in hashes and len(hashes) == len(variants)
    monkeypatch.setattr(batch_mod, "__version__", "99.0.0")
    assert Hasher.hash(RougeMapper(rouge_types=["rouge1", "rougeL"], use_stemmer=True)) != h


def test_bad_input_names_column_and_row():
    mapper = RougeMapper(rouge_types=["rouge1"])
    ds = datasets.Dataset.from_dict({"prediction": ["a", "b", None], "references": ["a", "b", "c"]})
    with pytest.raises(TypeError, match=r"prediction\[2\]: expected str, got None"):
        ds.map(mapper, batched=True, with_indices=True, batch_size=2)
    ds = datasets.Dataset.from_dict({"prediction": ["a", "b", "c"], "references": [["a"], ["b"], []]})
    with pytest.raises(ValueError, match=r"references\[2\]: empty list"):
        ds.map(mapper, batched=True, with_indices=True, batch_size=2)
    with pytest.raises(KeyError, match=r"references_column: column 'refs' not found.*'prediction'"):
        RougeMapper(rouge_types=["rouge1"], references_column="refs")({"prediction": ["a"], "references": ["a"]})
    with pytest.raises(ValueError, match="rouge_types: invalid rouge type 'rougeX'"):
        RougeMapper(rouge_types=["rougeX"])
    with pytest.raises(TypeError, match="prediction_column"):
        RougeMapper(prediction_column="")


SCRIPT = textwrap.dedent("""
    import json, os, sys
    import datasets
    from rouge_metric import RougeMapper
    ds = datasets.load_from_disk(sys.argv[1])
    mapper = RougeMapper(rouge_types=["rouge1", "rougeL", "rougeLsum"], use_stemmer=True)
    scored = ds.map(mapper, batched=True, batch_size=50, num_proc=int(sys.argv[2]))
    files = sorted(f["filename"] for f in scored.cache_files)
    print(json.dumps({"fp": scored._fingerprint, "files": files,
                      "mtimes": [os.stat(f).st_mtime_ns for f in files],
                      "rougeL": scored["rougeL"][:], "corpus": mapper.aggregate(scored).as_json()}))
""")


def _run(script, *args, hashseed):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed), HF_DATASETS_OFFLINE="1")
    out = subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.integration
def test_map_cache_reused_across_processes_and_num_proc_agrees(tmp_path: Path):
    preds, refs = rand_rows(5, 200)
    ds = datasets.Dataset.from_dict({"prediction": preds, "references": refs})
    path = tmp_path / "ds"
    ds.save_to_disk(str(path))
    # Different hash seeds: the nltk PorterStemmer frozenset would change a naive fingerprint.
    first = _run(SCRIPT, path, 2, hashseed=1)
    second = _run(SCRIPT, path, 2, hashseed=2)
    assert first["fp"] == second["fp"]
    assert len(first["files"]) == 2 and first["files"] == second["files"]
    assert first["mtimes"] == second["mtimes"]  # the second run loaded the cache, wrote nothing
    # num_proc=1 in this process: same values as the two-process map, and as the core
    mapper = RougeMapper(rouge_types=["rouge1", "rougeL", "rougeLsum"], use_stemmer=True)
    single = datasets.load_from_disk(str(path)).map(mapper, batched=True, batch_size=50, num_proc=1,
                                                   load_from_cache_file=False)
    assert single["rougeL"][:] == first["rougeL"]
    want = mapper.rouge.compute(predictions=preds, references=refs)
    assert first["corpus"] == want.as_json()


def test_iterable_dataset_map_and_aggregate():
    preds, refs = rand_rows(13, 25)
    mapper = RougeMapper(rouge_types=["rouge1", "rougeLsum"], multi_ref="pool")
    ids = datasets.Dataset.from_dict({"prediction": preds, "references": refs}).to_iterable_dataset()
    scored = ids.map(mapper, batched=True, batch_size=7)
    assert mapper.aggregate(scored, batch_size=4) == mapper.rouge.compute(predictions=preds, references=refs)


# ---------------------------------------------------------------------- map() without batched=True
@pytest.mark.parametrize("multi", [True, False])
def test_unbatched_map_gives_the_batched_columns(multi):
    """map(mapper) without batched=True hands one row per call (cells are values, not lists): the
    mapper scores that row, never the characters of its strings."""
    preds, refs = rand_rows(16 + multi, 25, multi=multi)
    preds[:2] = ["the cat sat", "a dog"]
    refs[:2] = (["the cat sat down"], ["a dog ran"]) if multi else ("the cat sat down", "a dog ran")
    ds = datasets.Dataset.from_dict({"prediction": preds, "references": refs})
    mapper = RougeMapper(rouge_types=["rouge1", "rougeL", "rougeSU4"])
    one = ds.map(mapper, load_from_cache_file=False)
    both = ds.map(mapper, batched=True, batch_size=7, load_from_cache_file=False)
    assert one.column_names == both.column_names
    for col in mapper.output_columns():
        assert one[col] == both[col], col
    want = Rouge(["rouge1", "rougeL", "rougeSU4"]).score_examples(predictions=preds, references=refs)
    assert one["rouge1"] == [w["rouge1"].fmeasure for w in want]
    assert one["rouge1"][:2] == [6 / 7, 0.8] and one["pred_len"][:2] == [3, 2]


def test_unbatched_map_errors_name_the_row():
    ds = datasets.Dataset.from_dict({"prediction": ["a", None, "c"], "references": ["a", "b", "c"]})
    mapper = RougeMapper(rouge_types=["rouge1"])
    with pytest.raises(TypeError, match=r"prediction\[1\]: expected str, got None$"):
        ds.map(mapper, with_indices=True, load_from_cache_file=False)
    with pytest.raises(TypeError, match=r"prediction\[\?\]: expected str, got None \(map with with_indices=True"):
        ds.map(mapper, load_from_cache_file=False)
