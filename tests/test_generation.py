"""rouge_metric.generation: generate with a callable over a dataset, cache and resume, then score.

The scores are checked equal to ``rouge_metric.compute`` on the same generations (and to rouge-score's
scorer for the default settings); the generations of the transformers wrappers are checked against the
model or pipeline called directly, one document at a time. Tiny models are built from a config and
their tokenizers trained locally (nothing is downloaded).
"""

from __future__ import annotations

import json
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge_metric
from rouge_metric import generate_and_score
from rouge_metric.generation import CACHE_FORMAT, load_examples

from strategies import texts  # noqa: E402  (tests/strategies.py)

DOCS = ["the cat sat on the mat near the old tree", "a dog ran over the hill today", "big red birds flew",
        "cats are running quickly under the blue sky", "the old river ran slowly", "fish swam in the pond",
        "the young dog sat on a log", "red birds sat near the farm"]
REFS = [["the cat sat on the mat", "a cat sat"], "a dog ran", ["birds flew", "red birds"], "cats run",
        "the river", ["fish swam", "fish"], "a dog sat", "birds near the farm"]


def first_words(documents):
    """A deterministic 'model': the first four words of each document."""
    return [" ".join(d.split()[:4]) for d in documents]


class Counting:
    """Records the documents of every call; raises at call ``fail_at`` (0-based) when given."""

    def __init__(self, fn=first_words, fail_at=None):
        self.fn, self.fail_at, self.calls = fn, fail_at, []
        self.__wrapped__ = fn  # the cache keys a wrapper by what it wraps

    def __call__(self, documents):
        if self.fail_at is not None and len(self.calls) == self.fail_at:
            self.calls.append(None)
            raise RuntimeError("the server went away")
        self.calls.append(list(documents))
        return self.fn(documents)

    @property
    def generation_settings(self):  # a wrapper passes on what keys the cache
        return getattr(self.fn, "generation_settings", None)

    @property
    def documents(self):
        return [d for c in self.calls if c for d in c]


def rows(docs=DOCS, refs=REFS):
    return [{"document": d, "summary": r} for d, r in zip(docs, refs)]


# ------------------------------------------------------------------------------- scores and data
@pytest.mark.parametrize("options", [
    {},
    {"rouge_types": ["rouge1", "rouge2", "rougeL", "rougeLsum"], "use_stemmer": True},
    {"rouge_types": ["rougeW", "rougeSU4", "rouge3"], "multi_ref": "pool", "beta": 2.0},
    {"rouge_types": ["rougeL"], "multi_ref": "best_recall", "tokenizer": "unicode", "backend": "python"},
    {"rouge_types": ["rouge1"], "aggregation": "bootstrap", "n_resamples": 200, "seed": 3},
])
def test_scores_equal_compute_on_the_same_generations(options):
    run = generate_and_score(first_words, documents=DOCS, references=REFS, batch_size=3, progress=False,
                             return_per_example=True, **options)
    assert run.predictions == first_words(DOCS)
    expected = rouge_metric.compute(predictions=first_words(DOCS), references=REFS, return_per_example=True,
                                    **options)
    assert run.result == expected
    assert (run.n, run.pred_len, run.ref_len, run.signature) == (8, expected.pred_len, expected.ref_len,
                                                                  expected.signature)
    assert run.generated == 8 and run.cached == 0 and run.cache is None


def test_default_scores_equal_rouge_score():
    from rouge_score import rouge_scorer, scoring

    run = generate_and_score(first_words, documents=DOCS, references=REFS, progress=False)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    per = [scorer.score_multi([r] if isinstance(r, str) else r, p) for p, r in zip(first_words(DOCS), REFS)]
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        f = [s[t].fmeasure for s in per]
        assert run.scores[t].fmeasure == pytest.approx(sum(f) / len(f), abs=1e-15)
    assert isinstance(per[0]["rouge1"], scoring.Score)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(texts(), st.lists(texts(), min_size=1, max_size=3)), min_size=1, max_size=12),
       st.integers(1, 5))
def test_random_inputs_equal_compute(pairs, batch_size):
    docs = [d for d, _ in pairs]
    refs = [r for _, r in pairs]
    gen = lambda ds: [d[::-1] for d in ds]  # noqa: E731
    run = generate_and_score(gen, documents=docs, references=refs, batch_size=batch_size, progress=False,
                             rouge_types=["rouge1", "rougeL"], use_stemmer=True)
    assert run.result == rouge_metric.compute(predictions=gen(docs), references=refs,
                                              rouge_types=["rouge1", "rougeL"], use_stemmer=True)


def test_every_data_form_gives_the_same_examples(tmp_path):
    from datasets import Dataset

    jsonl = tmp_path / "data.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n\n" for r in rows()), encoding="utf-8")
    ds = Dataset.from_list([{"document": d, "summary": [r] if isinstance(r, str) else r} for d, r in zip(DOCS, REFS)])
    ds.save_to_disk(str(tmp_path / "saved"))
    expected = (DOCS, [[r] if isinstance(r, str) else list(r) for r in REFS])
    import pandas as pd

    forms = [rows(), {"document": DOCS, "summary": REFS}, str(jsonl), jsonl, ds, str(tmp_path / "saved"),
             ds.to_iterable_dataset(), pd.DataFrame(rows())]
    for data in forms:
        assert load_examples(data, references_column="summary") == expected, type(data)
    assert load_examples(documents=DOCS, references=REFS) == expected


def test_several_reference_columns_are_concatenated():
    data = {"doc": ["a b", "c d"], "r1": ["a", ["c", "x"]], "r2": ["b", "d"]}
    docs, refs = load_examples(data, document_column="doc", references_column=["r1", "r2"])
    assert docs == ["a b", "c d"] and refs == [["a", "b"], ["c", "x", "d"]]
    run = generate_and_score(lambda ds: ds, data, document_column="doc", references_column=["r1", "r2"],
                             multi_ref="mean", rouge_types=["rouge1"], progress=False)
    assert run.result == rouge_metric.compute(predictions=docs, references=refs, multi_ref="mean",
                                              rouge_types=["rouge1"])


def test_rows_and_json():
    run = generate_and_score(first_words, rows(), references_column="summary", rouge_types=["rouge1", "rougeL"],
                             return_per_example=True, progress=False)
    out = run.rows()
    assert [r["index"] for r in out] == list(range(8)) and out[1]["prediction"] == "a dog ran over"
    assert out[1]["references"] == ["a dog ran"]
    single = rouge_metric.Rouge(["rouge1", "rougeL"]).score(prediction="a dog ran over", references="a dog ran")
    assert (out[1]["rouge1"], out[1]["rouge1_precision"], out[1]["rougeL_recall"]) == (
        single["rouge1"].fmeasure, single["rouge1"].precision, single["rougeL"].recall)
    js = json.loads(json.dumps(run.as_json()))
    assert js["n"] == 8 and js["generated"] == 8 and js["cached"] == 0 and len(js["per_example"]) == 8
    assert "generated 8, from the cache 0" in run.format_table()
    no_rows = generate_and_score(first_words, rows(), references_column="summary", progress=False)
    with pytest.raises(ValueError, match="return_per_example=True"):
        no_rows.rows()


# ------------------------------------------------------------------------------------- errors
def test_missing_column_names_it_and_the_available_ones(tmp_path):
    with pytest.raises(ValueError, match=r"no column 'document'; the columns are \['text', 'summary'\]"):
        generate_and_score(first_words, {"text": DOCS, "summary": REFS}, references_column="summary")
    from datasets import Dataset

    with pytest.raises(ValueError, match=r"no column 'highlights'; the columns are \['document', 'summary'\]"):
        generate_and_score(first_words, Dataset.from_list(rows(refs=["a"] * 8)), references_column="highlights")
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"document": "a"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"d.jsonl: row 0 has no column 'references'; its columns are \['document'\]"):
        generate_and_score(first_words, str(path))
    path.write_text('{"document": "a", "references": "b"}\n{"document": \n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"d.jsonl:2: invalid JSON"):
        generate_and_score(first_words, str(path))
    with pytest.raises(FileNotFoundError, match="no such file"):
        generate_and_score(first_words, str(tmp_path / "missing.jsonl"))


def test_bad_cells_name_the_column_and_row():
    with pytest.raises(TypeError, match=r"document\[1\]: expected str, got None"):
        generate_and_score(first_words, {"document": ["a", None], "references": ["a", "b"]})
    with pytest.raises(TypeError, match=r"summary\[1\]\[0\]: expected str, got int"):
        generate_and_score(first_words, {"document": ["a", "b"], "summary": ["a", [3]]}, references_column="summary")
    with pytest.raises(ValueError, match="2 documents and 1 references"):
        generate_and_score(first_words, documents=["a", "b"], references=["a"])
    with pytest.raises(ValueError, match="no examples"):
        generate_and_score(first_words, documents=[], references=[])
    with pytest.raises(TypeError, match="not both"):
        generate_and_score(first_words, rows(), documents=DOCS, references=REFS)


def test_a_dataset_dict_asks_for_a_split():
    from datasets import Dataset, DatasetDict

    ds = Dataset.from_list(rows(refs=["a"] * 8))
    dd = DatasetDict({"train": ds, "test": ds})
    with pytest.raises(TypeError, match=r"splits \['train', 'test'\]; pass one split, e.g. data\['train'\]"):
        generate_and_score(first_words, dd, references_column="summary")


def test_wrong_output_count_names_the_batch():
    gen = lambda ds: first_words(ds)[:-1] if "fish swam in the pond" in ds else first_words(ds)  # noqa: E731
    with pytest.raises(ValueError, match=r"batch 1 \(examples 3-5\): returned 2 outputs for 3 documents"):
        generate_and_score(gen, documents=DOCS, references=REFS, batch_size=3, progress=False)


@pytest.mark.parametrize("gen, match", [
    (lambda ds: [None] * len(ds), r"batch 0, output 0 \(example 0\): expected str, got None"),
    (lambda ds: [[{"generated_text": d}] for d in ds], r"got list \(a transformers pipeline's output: wrap"),
    (lambda ds: "one string", r"batch 0 \(examples 0-7\): returned a str; expected a list of 8 str"),
    (lambda ds: {d: d for d in ds}, r"returned a dict"),
    (lambda ds: (d for d in ds), r"returned a generator"),
])
def test_non_str_outputs_are_refused(gen, match):
    with pytest.raises((TypeError, ValueError), match=match):
        generate_and_score(gen, documents=DOCS, references=REFS, progress=False)


def test_bad_arguments_fail_before_any_generation(tmp_path):
    gen = Counting()
    for kwargs, exc, match in [
        ({"batch_size": 0}, ValueError, "batch_size: expected an integer >= 1"),
        ({"rouge_types": ["rouge0"]}, ValueError, "rouge0"),
        ({"on_cache_mismatch": "ignore"}, ValueError, "on_cache_mismatch: expected one of error, regenerate"),
        ({"settings": {"model": object()}}, TypeError, "settings: must be JSON values"),
        ({"cache": str(tmp_path)}, IsADirectoryError, "is a directory"),
    ]:
        with pytest.raises(exc, match=match):
            generate_and_score(gen, documents=DOCS, references=REFS, **kwargs)
    with pytest.raises(TypeError, match="expected a callable"):
        generate_and_score("gpt", documents=DOCS, references=REFS)
    assert gen.calls == []


# ----------------------------------------------------------------------------------- the cache
def read_cache(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def test_interrupted_run_resumes_from_the_cache(tmp_path):
    cache = tmp_path / "gens.jsonl"
    broken = Counting(fail_at=2)
    with pytest.raises(RuntimeError, match="went away"):
        generate_and_score(broken, documents=DOCS, references=REFS, batch_size=3, cache=cache, progress=False)
    lines = read_cache(cache)
    assert lines[0]["format"] == CACHE_FORMAT
    assert [ln["index"] for ln in lines[1:]] == [0, 1, 2, 3, 4, 5]  # batches 0 and 1, flushed
    assert [ln["prediction"] for ln in lines[1:]] == first_words(DOCS[:6])
    rerun = Counting()
    run = generate_and_score(rerun, documents=DOCS, references=REFS, batch_size=3, cache=cache, progress=False)
    assert rerun.calls == [DOCS[6:]]  # only the missing examples
    assert (run.generated, run.cached) == (2, 6)
    fresh = generate_and_score(first_words, documents=DOCS, references=REFS, progress=False)
    assert run.predictions == fresh.predictions and run.result == fresh.result
    again = Counting()
    done = generate_and_score(again, documents=DOCS, references=REFS, cache=cache, progress=False)
    assert again.calls == [] and done.cached == 8 and done.result == fresh.result
    assert len(read_cache(cache)) == 1 + 8


def test_a_cut_last_line_is_dropped_and_regenerated(tmp_path):
    cache = tmp_path / "gens.jsonl"
    generate_and_score(first_words, documents=DOCS[:4], references=REFS[:4], batch_size=2, cache=cache,
                       progress=False)
    data = cache.read_bytes()
    cache.write_bytes(data[:-20])  # the process died while writing the last line
    gen = Counting()
    run = generate_and_score(gen, documents=DOCS, references=REFS, batch_size=8, cache=cache, progress=False)
    assert gen.calls == [DOCS[3:]]
    assert run.predictions == first_words(DOCS)
    assert [ln.get("index") for ln in read_cache(cache)] == [None, 0, 1, 2, 3, 4, 5, 6, 7]


def test_a_changed_document_is_refused_or_regenerated(tmp_path):
    cache = tmp_path / "gens.jsonl"
    generate_and_score(first_words, documents=DOCS, references=REFS, cache=cache, progress=False)
    changed = list(DOCS)
    changed[5] = "a different document here"
    gen = Counting()
    with pytest.raises(ValueError, match=r"gens.jsonl holds generations made for other inputs: example 5: the "
                                         r"document differs .*on_cache_mismatch='regenerate'"):
        generate_and_score(gen, documents=changed, references=REFS, cache=cache, progress=False)
    assert gen.calls == []
    run = generate_and_score(gen, documents=changed, references=REFS, cache=cache, on_cache_mismatch="regenerate",
                             progress=False)
    assert gen.calls == [[changed[5]]] and run.predictions == first_words(changed)
    # The file now holds a valid line for every example: no complaint any more, nothing generated.
    later = Counting()
    generate_and_score(later, documents=changed, references=REFS, cache=cache, progress=False)
    assert later.calls == []
    # Reordered data: every moved example is named.
    with pytest.raises(ValueError, match=r"examples 0-7: the document differs"):
        generate_and_score(later, documents=DOCS[::-1], references=REFS, cache=cache, progress=False)


def test_changed_settings_are_refused_with_the_difference(tmp_path):
    cache = tmp_path / "gens.jsonl"
    generate_and_score(first_words, documents=DOCS, references=REFS, cache=cache,
                       settings={"model": "m1", "max_new_tokens": 32}, progress=False)
    gen = Counting()
    with pytest.raises(ValueError, match=r"examples 0-7: generated with other settings \(max_new_tokens: 32 -> 64\)"):
        generate_and_score(gen, documents=DOCS, references=REFS, cache=cache,
                           settings={"model": "m1", "max_new_tokens": 64}, progress=False)
    run = generate_and_score(gen, documents=DOCS, references=REFS, cache=cache, on_cache_mismatch="regenerate",
                             settings={"max_new_tokens": 64, "model": "m1"}, progress=False)
    assert gen.documents == DOCS and run.generated == 8
    # Both settings now live in the file; each run finds its own generations.
    for s in ({"model": "m1", "max_new_tokens": 32}, {"max_new_tokens": 64, "model": "m1"}):
        again = Counting()
        assert generate_and_score(again, documents=DOCS, references=REFS, cache=cache, settings=s,
                                  progress=False).cached == 8
        assert again.calls == []


def last_words(documents):
    """Another deterministic 'model' with the same (absent) settings as first_words."""
    return [" ".join(d.split()[-4:]) for d in documents]


def test_another_generator_never_reuses_the_cached_rows(tmp_path):
    """The cache key names the generator (module:qualname): same documents, same settings (none), other
    function -> refused, naming both; regenerate generates them; each then finds its own rows."""
    cache = tmp_path / "gens.jsonl"
    generate_and_score(first_words, documents=DOCS, references=REFS, cache=cache, progress=False)
    mod = re.escape(__name__)
    with pytest.raises(ValueError, match=r"examples 0-7: generated with other settings \(generator_callable: "
                                         rf'"{mod}:first_words" -> "{mod}:last_words"\)'):
        generate_and_score(last_words, documents=DOCS, references=REFS, cache=cache, progress=False)
    run = generate_and_score(last_words, documents=DOCS, references=REFS, cache=cache, progress=False,
                             on_cache_mismatch="regenerate")
    assert run.generated == 8 and run.predictions == last_words(DOCS)
    assert run.result == rouge_metric.compute(predictions=last_words(DOCS), references=REFS)
    for fn in (first_words, last_words):
        again = generate_and_score(fn, documents=DOCS, references=REFS, cache=cache, progress=False)
        assert again.cached == 8 and again.predictions == fn(DOCS)
    # callable objects are named by their class, wrappers (functools.wraps, partial) by what they wrap
    import functools

    from rouge_metric.generation import generator_name

    class Client:
        def __call__(self, documents):
            return first_words(documents)

    assert generator_name(Client()).endswith("test_another_generator_never_reuses_the_cached_rows.<locals>.Client")
    assert generator_name(functools.partial(last_words)) == f"{__name__}:last_words"
    assert generator_name(functools.wraps(last_words)(lambda d: d)) == f"{__name__}:last_words"
    assert generator_name(Counting(last_words)) == f"{__name__}:last_words"
    with pytest.raises(ValueError, match="settings: 'generator_callable' is reserved"):
        generate_and_score(first_words, documents=DOCS, references=REFS, settings={"generator_callable": "x"})


def test_a_cache_without_the_generator_name_is_refused_explicitly(tmp_path):
    """A cache written before the generator was recorded (settings {}): its rows are not reused."""
    cache = tmp_path / "old.jsonl"
    generate_and_score(first_words, documents=DOCS, references=REFS, cache=cache, progress=False)
    lines = read_cache(cache)
    old = {"format": CACHE_FORMAT, "settings_sha256": "0" * 16, "settings": {}}
    rows_ = [dict(ln, settings_sha256="0" * 16) for ln in lines[1:]]
    cache.write_text("".join(json.dumps(x) + "\n" for x in [old] + rows_), encoding="utf-8")
    gen = Counting()
    with pytest.raises(ValueError, match=rf"generator_callable: \(unset\) -> \"{re.escape(__name__)}:first_words\"\); a "
                                         r"cache written before 'generator_callable' was recorded cannot tell"):
        generate_and_score(gen, documents=DOCS, references=REFS, cache=cache, progress=False)
    assert gen.calls == []


def test_a_subset_of_the_data_reuses_the_cache(tmp_path):
    cache = tmp_path / "gens.jsonl"
    generate_and_score(first_words, documents=DOCS, references=REFS, cache=cache, progress=False)
    gen = Counting()
    run = generate_and_score(gen, documents=DOCS[:3], references=REFS[:3], cache=cache, progress=False)
    assert gen.calls == [] and run.n == 3


def test_a_foreign_file_is_not_taken_for_a_cache(tmp_path):
    cache = tmp_path / "notes.jsonl"
    cache.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"notes.jsonl:1: not a line of a rouge_metric generation cache"):
        generate_and_score(first_words, documents=DOCS, references=REFS, cache=cache, progress=False)


# ---------------------------------------------------------------------------- transformers models
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def seq2seq():
    """The tiny T5 of rouge_metric.callbacks.testing after 30 training steps (it then writes words)."""
    from rouge_metric.callbacks.testing import tiny_setup

    setup = tiny_setup()
    model = setup.model
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for step in range(30):
        start = step * 8 % len(setup.train_dataset)
        loss = model(**setup.data_collator(setup.train_dataset[start:start + 8])).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
    return model, setup.tokenizer, setup.eval_pairs


def test_seq2seq_model_generate(seq2seq, tmp_path):
    model, tok, pairs = seq2seq
    gen = rouge_metric.ModelGenerator(model, tok, max_new_tokens=8, do_sample=False)
    docs, refs = [d for d, _ in pairs], [s for _, s in pairs]
    run = generate_and_score(gen, documents=docs, references=refs, batch_size=5, cache=tmp_path / "c.jsonl",
                             progress=False, use_stemmer=True)
    # Oracle: the model on one document at a time (no padding), decoded without special tokens.
    assert model.training  # generated in eval mode (no dropout), then put back in training mode
    model.eval()
    expected = []
    for d in docs:
        enc = tok([d], return_tensors="pt")
        out = model.generate(**enc, max_new_tokens=8, do_sample=False)
        expected.append(tok.decode(out[0], skip_special_tokens=True))
    model.train()
    assert run.predictions == expected
    assert all("story" in p for p in expected)  # words, so the scores below are not all zero
    assert run.result == rouge_metric.compute(predictions=expected, references=refs, use_stemmer=True)
    assert run.settings["generate_kwargs"] == {"do_sample": False, "max_new_tokens": 8}
    assert run.settings["prompt"] == "{document}" and run.scores["rouge1"].fmeasure > 0.5


def test_model_generator_sets_one_length_and_warns_nothing(seq2seq):
    """The model's generation_config carries max_length (12) and the wrapper gets max_new_tokens: generate
    warns "Both max_new_tokens and max_length" unless the wrapper sets the config's max_length aside; the
    generations are those of plain generate (where max_new_tokens takes precedence), and the config is
    restored."""
    import logging

    model, tok, pairs = seq2seq
    assert model.generation_config.max_length == 12
    docs = [d for d, _ in pairs[:4]]
    messages = []

    class Collect(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

    handler = Collect(logging.WARNING)
    logging.getLogger("transformers").addHandler(handler)  # that logger does not propagate to the root
    try:
        got = rouge_metric.ModelGenerator(model, tok, max_new_tokens=6)(docs)
    finally:
        logging.getLogger("transformers").removeHandler(handler)
    assert not [m for m in messages if "max_new_tokens" in m], messages
    assert model.generation_config.max_length == 12
    was = model.training
    model.eval()
    enc = tok(docs, return_tensors="pt", padding=True)
    out = model.generate(**enc, max_new_tokens=6, do_sample=False)
    model.train(was)
    assert got == tok.batch_decode(out, skip_special_tokens=True)


@pytest.fixture(scope="module")
def chat_pipeline():
    import sys

    from transformers import pipeline

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
    try:
        from grpo_rouge_reward import tiny_model, tiny_tokenizer
    finally:
        sys.path.pop(0)
    torch.set_num_threads(1)
    docs = [" ".join(d.split()[:6]) for d in DOCS]
    tok = tiny_tokenizer(docs + ["summarize : user assistant system be brief"])
    tok.chat_template = ("{% for m in messages %}{{ m['role'] }} : {{ m['content'] }} ; {% endfor %}"
                         "{% if add_generation_prompt %}assistant : {% endif %}")
    pipe = pipeline("text-generation", model=tiny_model(len(tok), seed=2), tokenizer=tok, device="cpu")
    return pipe, docs


def test_causal_chat_model_through_the_text_generation_pipeline(chat_pipeline, tmp_path):
    pipe, docs = chat_pipeline
    gen = rouge_metric.PipelineGenerator(pipe, "summarize : {document}", system="be brief", max_new_tokens=6,
                                         do_sample=False)
    assert gen.chat
    cache = tmp_path / "c.jsonl"
    broken = Counting(gen, fail_at=1)
    with pytest.raises(RuntimeError):
        generate_and_score(broken, documents=docs, references=REFS, batch_size=4, cache=cache, progress=False)
    resumed = Counting(gen)
    run = generate_and_score(resumed, documents=docs, references=REFS, batch_size=4, cache=cache, progress=False,
                             rouge_types=["rouge1", "rougeL"])
    assert resumed.documents == docs[4:]
    # Oracle: the pipeline called directly on each conversation, one at a time.
    expected = []
    for d in docs:
        msgs = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "summarize : " + d}]
        expected.append(pipe(msgs, max_new_tokens=6, do_sample=False, return_full_text=False)[0]["generated_text"])
    assert run.predictions == expected and any(p.strip() for p in expected)
    assert run.result == rouge_metric.compute(predictions=expected, references=REFS, rouge_types=["rouge1", "rougeL"])
    assert run.settings["chat"] is True and run.settings["system"] == "be brief"


def test_pipeline_generator_sets_one_length_and_warns_nothing(chat_pipeline):
    """A pipeline whose model (and pipeline) generation_config carry max_length, and max_new_tokens in the
    wrapper: no "Both max_new_tokens and max_length" warning, the pipeline's own generations, configs restored."""
    import logging

    pipe, docs = chat_pipeline
    configs = [c for c in (pipe.model.generation_config, getattr(pipe, "generation_config", None)) if c is not None]
    saved = [c.max_length for c in configs]
    messages = []

    class Collect(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())

    handler = Collect(logging.WARNING)
    try:
        for c in configs:
            c.max_length = 40
        expected = [pipe([{"role": "user", "content": d}], max_new_tokens=4, do_sample=False,
                         return_full_text=False)[0]["generated_text"] for d in docs[:3]]
        assert [m for m in messages if "max_new_tokens" in m] == []  # (nothing collected yet)
        logging.getLogger("transformers").addHandler(handler)
        got = rouge_metric.PipelineGenerator(pipe, max_new_tokens=4)(docs[:3])
        logging.getLogger("transformers").removeHandler(handler)
        assert not [m for m in messages if "max_new_tokens" in m], messages
        assert got == expected and [c.max_length for c in configs] == [40] * len(configs)
    finally:
        logging.getLogger("transformers").removeHandler(handler)
        for c, v in zip(configs, saved):
            c.max_length = v


def test_an_unwrapped_pipeline_is_refused_with_the_fix(chat_pipeline):
    pipe, docs = chat_pipeline
    with pytest.raises(TypeError, match="wrap it: rouge_metric.PipelineGenerator"):
        generate_and_score(pipe, documents=docs, references=REFS)


def test_wrappers_check_their_arguments(chat_pipeline, seq2seq):
    pipe, _ = chat_pipeline
    with pytest.raises(ValueError, match=r"prompt: expected a str containing \{document\}"):
        rouge_metric.PipelineGenerator(pipe, "summarize this")
    with pytest.raises(TypeError, match="generation_config: generation keyword arguments must be JSON values"):
        rouge_metric.PipelineGenerator(pipe, generation_config=object())
    model, tok, _ = seq2seq
    with pytest.raises(ValueError, match="max_input_length"):
        rouge_metric.ModelGenerator(model, tok, max_input_length=0)
    with pytest.raises(TypeError, match="model: expected a transformers model"):
        rouge_metric.ModelGenerator(object(), tok)


# ----------------------------------------------------------------------------- command line
GEN_FILE = '''
import os

def first_words(documents):
    with open(os.environ["GEN_LOG"], "a") as fh:
        fh.write("%d\\n" % len(documents))
    return [" ".join(d.split()[:4]) for d in documents]
'''


def test_cli_generator_cache_and_json(tmp_path, monkeypatch, capsys):
    from rouge_metric.cli import main

    (tmp_path / "mygen.py").write_text(GEN_FILE, encoding="utf-8")
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows()), encoding="utf-8")
    log = tmp_path / "calls.log"
    monkeypatch.setenv("GEN_LOG", str(log))
    monkeypatch.chdir(tmp_path)
    argv = ["generate-and-score", "--data", str(data), "--references-field", "summary", "--generator",
            "mygen:first_words", "--cache", "gens.jsonl", "--batch-size", "3", "--json", "-q", "--use-stemmer",
            "--rouge-types", "rouge1", "rougeLsum", "--per-example", "rows.jsonl"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    api = generate_and_score(first_words, rows(), references_column="summary", use_stemmer=True,
                             rouge_types=["rouge1", "rougeLsum"], progress=False)
    assert out["scores"] == api.as_json()["scores"] and out["n"] == 8 and out["generated"] == 8
    assert log.read_text().split() == ["3", "3", "2"]
    written = [json.loads(ln) for ln in open(tmp_path / "rows.jsonl", encoding="utf-8")]
    assert [r["prediction"] for r in written] == api.predictions and written[0]["rouge1"] == pytest.approx(
        rouge_metric.Rouge(["rouge1"], use_stemmer=True).score(prediction=api.predictions[0],
                                                                 references=REFS[0])["rouge1"].fmeasure, abs=0)
    # The rerun (file form of --generator) takes everything from the cache.
    argv[argv.index("mygen:first_words")] = "mygen.py:first_words"
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["cached"] == 8 and again["generated"] == 0 and again["scores"] == out["scores"]
    assert log.read_text().split() == ["3", "3", "2"]


def test_cli_another_generator_is_refused_with_one_line(tmp_path, monkeypatch, capsys):
    """generate-and-score --generator twogens:a --cache c.jsonl, then twogens:b on the same cache: exit 2 and one
    line naming both generators (never b scored on a's generations)."""
    from rouge_metric.cli import main

    (tmp_path / "twogens.py").write_text(GEN_FILE + "\n\ndef last_words(documents):\n"
                                       "    return [' '.join(d.split()[-4:]) for d in documents]\n", encoding="utf-8")
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows()), encoding="utf-8")
    monkeypatch.setenv("GEN_LOG", str(tmp_path / "calls.log"))
    monkeypatch.chdir(tmp_path)
    base = ["generate-and-score", "--data", str(data), "--references-field", "summary", "--cache", "c.jsonl", "-q",
            "--json"]
    assert main(base + ["--generator", "twogens:first_words"]) == 0
    capsys.readouterr()
    assert main(base + ["--generator", "twogens:last_words"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and 'generator_callable: "twogens:first_words" -> "twogens:last_words"' in err[0]
    assert main(base + ["--generator", "twogens:last_words", "--on-cache-mismatch", "regenerate"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["generated"] == 8 and out["scores"] == generate_and_score(
        last_words, rows(), references_column="summary", progress=False).as_json()["scores"]


def test_cli_errors(tmp_path, monkeypatch, capsys):
    from rouge_metric.cli import main

    (tmp_path / "mygen.py").write_text(GEN_FILE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows()), encoding="utf-8")
    base = ["generate-and-score", "--data", str(data), "-q"]
    assert main(base + ["--generator", "mygen:first_words"]) == 4
    err = capsys.readouterr().err
    assert "row 0 has no column 'references'; its columns are ['document', 'summary']" in err
    assert main(base + ["--references-field", "summary", "--generator", "mygen:nope"]) == 2
    assert "mygen has no attribute 'nope'" in capsys.readouterr().err
    assert main(base + ["--references-field", "summary", "--generator", "nomodule:f"]) == 2
    assert "cannot import 'nomodule'" in capsys.readouterr().err
    assert main(["generate-and-score", "--data", str(tmp_path / "none.jsonl"), "--generator", "mygen:f"]) == 3
    with pytest.raises(SystemExit):  # a generator source is required
        main(base)


def test_cli_model_folders(tmp_path, capsys, seq2seq, chat_pipeline):
    """--model with a saved seq2seq model (model.generate) and a saved chat causal LM (pipeline)."""
    from transformers import pipeline

    from rouge_metric.cli import main

    model, tok, pairs = seq2seq
    s2s_dir, lm_dir = tmp_path / "t5", tmp_path / "lm"
    model.save_pretrained(s2s_dir)
    tok.save_pretrained(s2s_dir)
    pipe, docs = chat_pipeline
    pipe.model.save_pretrained(lm_dir)
    pipe.tokenizer.save_pretrained(lm_dir)
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"document": d, "references": r}) + "\n" for d, r in zip(docs, REFS)),
                    encoding="utf-8")
    for folder, make in [
        (s2s_dir, lambda: rouge_metric.ModelGenerator(model, tok, "summarize: {document}", max_new_tokens=5)),
        (lm_dir, lambda: rouge_metric.PipelineGenerator(pipeline("text-generation", model=str(lm_dir)),
                                                        "summarize: {document}", max_new_tokens=5)),
    ]:
        assert main(["generate-and-score", "--data", str(data), "--model", str(folder), "--prompt",
                     "summarize: {document}", "--max-new-tokens", "5", "--json", "-q", "--per-example",
                     str(tmp_path / "rows.jsonl")]) == 0
        out = json.loads(capsys.readouterr().out)
        expected = generate_and_score(make(), documents=docs, references=REFS, progress=False)
        written = [json.loads(ln)["prediction"] for ln in open(tmp_path / "rows.jsonl", encoding="utf-8")]
        assert written == expected.predictions, folder.name
        assert out["scores"] == expected.as_json()["scores"]
        assert out["settings"]["model"] == str(folder) and out["settings"]["prompt"] == "summarize: {document}"


def test_wrappers_decode_greedily_unless_told(chat_pipeline):
    """transformers' text-generation pipeline samples when do_sample is unset; the wrapper does not."""
    pipe, docs = chat_pipeline
    gen = rouge_metric.PipelineGenerator(pipe, max_new_tokens=4)
    greedy = [pipe([{"role": "user", "content": d}], max_new_tokens=4, do_sample=False,
                   return_full_text=False)[0]["generated_text"] for d in docs[:3]]
    assert gen(docs[:3]) == greedy and gen(docs[:3]) == greedy
    assert rouge_metric.PipelineGenerator(pipe, do_sample=True).generate_kwargs["do_sample"] is True


def test_progress_bar_on_a_terminal_counts_cached_examples(tmp_path, monkeypatch):
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self):
            return True

    cache = tmp_path / "c.jsonl"
    generate_and_score(first_words, documents=DOCS[:5], references=REFS[:5], cache=cache, progress=False)
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    generate_and_score(first_words, documents=DOCS, references=REFS, batch_size=2, cache=cache)
    text = err.getvalue()
    assert "generating" in text and "5/8" in text and "8/8" in text
    quiet = Tty()
    monkeypatch.setattr(sys, "stderr", quiet)
    generate_and_score(first_words, documents=DOCS, references=REFS, progress=False)
    assert quiet.getvalue() == ""


# ------------------------------------------------------------------- the Trainer helper is generate_and_score
@pytest.mark.parametrize("score_ids", [False, True])
def test_trainer_subset_runs_through_generate_and_score(seq2seq, score_ids):
    """RougeCallback's generate mode (callbacks.generate_mode.score_subset) is rouge_metric.generate_and_score
    with TokenizedGenerator; the deprecated callbacks.generate_and_score warns and gives the same numbers as
    generating batch by batch and scoring with RougeComputeMetrics."""
    from rouge_metric.callbacks import RougeComputeMetrics, TokenizedGenerator, decode_eval_pred
    from rouge_metric.callbacks import generate_and_score as deprecated

    model, tok, pairs = seq2seq
    rows = [{"input_ids": tok(d)["input_ids"], "labels": tok(s)["input_ids"]} for d, s in pairs[:7]]
    kwargs = {"max_new_tokens": 6}
    # independent: model.generate per batch, decoded and scored by compute_metrics
    want_metric = RougeComputeMetrics(tok, score_ids=score_ids)
    model.eval()
    for start in range(0, len(rows), 3):
        batch = rows[start:start + 3]
        enc = tok.pad([{"input_ids": r["input_ids"]} for r in batch], return_tensors="pt")
        with torch.no_grad():
            out = model.generate(**enc, **kwargs)
        width = max(len(r["labels"]) for r in batch)
        labels = [r["labels"] + [-100] * (width - len(r["labels"])) for r in batch]
        want_metric.add_batch(decode_eval_pred(tok, out, labels, as_ids=score_ids))
    want = want_metric.finish()
    model.train()
    metric = RougeComputeMetrics(tok, score_ids=score_ids, num_samples=2)
    with pytest.warns(DeprecationWarning, match="rouge_metric.generate_and_score"):
        got = deprecated(model, tok, rows, metric, batch_size=3, generation_kwargs=kwargs)
    assert got == want and model.training
    assert metric.last_metrics == want and metric.last_result.n == 7 and len(metric.last_samples) == 2
    gen = TokenizedGenerator(model, tok, kwargs, as_ids=score_ids)
    model.eval()  # TokenizedGenerator generates with the model as it is (score_subset sets eval mode)
    refs = [r["labels"] for r in rows] if score_ids else [tok.decode(r["labels"], skip_special_tokens=True).strip()
                                                          for r in rows]
    run = generate_and_score(gen, documents=rows, references=refs, batch_size=3, progress=False,
                             config=metric.rouge.config)
    assert run.result.to_dict(metric.stats, metric.scale) == {k: v for k, v in want.items() if k != "gen_len"}
    assert sum(gen.gen_lens) / run.n == want["gen_len"]
    model.train()
