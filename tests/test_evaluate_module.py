"""The evaluate module loaded from its folder: offline, HF rouge's output shape, options, distributed."""

import json
import math
import os
import subprocess
import sys
import textwrap

import pytest

from rouge_metric import Rouge, compute

evaluate = pytest.importorskip("evaluate")

PREDS = ["the cat sat on the mat", "general kenobi\nhello there", "a completely different text", ""]
REFS = [["the cat was on the mat", "a cat sat"], ["hello there\ngeneral kenobi"], ["different text entirely"], [""]]


@pytest.fixture(scope="module")
def module(repo_dir):
    cwd = os.getcwd()
    os.chdir(repo_dir)
    try:
        yield evaluate.load("./rouge_metric", keep_in_memory=True)
    finally:
        os.chdir(cwd)


def test_default_output_shape_is_hf_rouge(module):
    out = module.compute(predictions=["hello there", "general kenobi"], references=["hello there", "general kenobi"])
    assert out == {"rouge1": 1.0, "rouge2": 1.0, "rougeL": 1.0, "rougeLsum": 1.0}
    assert all(type(v) is float for v in out.values())
    assert module.name == "rouge_metric"


def test_values_are_exact_means_of_the_core(module):
    out = module.compute(predictions=PREDS, references=REFS, use_stemmer=True)
    res = compute(predictions=PREDS, references=REFS, use_stemmer=True)
    assert out == res.to_dict()


def test_string_references_and_rouge_score_values(module):
    rs = pytest.importorskip("rouge_score.rouge_scorer")
    preds = [p for p in PREDS]
    refs = [r[0] for r in REFS]
    out = module.compute(predictions=preds, references=refs, use_aggregator=False)
    oracle = rs.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    for t in out:
        assert out[t] == [oracle.score(r, p)[t].fmeasure for p, r in zip(preds, refs)]


@pytest.mark.parametrize("backend", ["native", "python"])
@pytest.mark.parametrize("options", [
    dict(),
    dict(rouge_types=["rougeW", "rougeSU4", "rouge3"], multi_ref="mean"),
    dict(rouge_types=["rouge1", "rougeLsum"], tokenizer="unicode", multi_ref="pool"),
])
def test_per_example_lists_are_each_examples_scores(module, monkeypatch, backend, options):
    """use_aggregator=False: per type and statistic, the list of every example's own score (float.hex),
    in input order, across the scorer's chunks of examples."""
    from rouge_metric import core
    from rouge_metric.result import output_key

    if backend == "native" and core.native_module() is None:
        pytest.skip("the native core is not built")
    monkeypatch.setenv("ROUGE_METRIC_BACKEND", backend)
    n = 8300 if backend == "native" else 40  # past the native scorer's chunk of 8,192 examples
    preds = [PREDS[i % len(PREDS)] + f" word{i % 7}" for i in range(n)]
    refs = [REFS[i % len(REFS)] for i in range(n)]
    kwargs = dict(return_precision_recall=True, use_aggregator=False, use_stemmer=True, **options)
    module.compute(predictions=preds[:2], references=refs[:2], **kwargs)  # a vocabulary: chunks of 8,192
    out = module.compute(predictions=preds, references=refs, **kwargs)
    types = options.get("rouge_types", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
    rouge = Rouge(types, use_stemmer=True, **{k: v for k, v in options.items() if k != "rouge_types"})
    examples = rouge.score_examples(predictions=preds, references=refs)
    assert f"|backend:{backend}|" in rouge.signature()
    assert sorted(out) == sorted(output_key(t, s) for t in types for s in ("precision", "recall", "fmeasure"))
    for t in types:
        for s in ("precision", "recall", "fmeasure"):
            got = out[output_key(t, s)]
            assert all(type(v) is float for v in got)
            assert [v.hex() for v in got] == [float(getattr(ex[t], s)).hex() for ex in examples]


def test_options(module):
    out = module.compute(predictions=PREDS, references=REFS, rouge_types=["rouge1", "rougeSU4", "rougeW"],
                         return_precision_recall=True, multi_ref="pool", confidence_interval=True, seed=5,
                         n_resamples=100, return_signature=True)
    res = Rouge(["rouge1", "rougeSU4", "rougeW"], multi_ref="pool", aggregation="bootstrap", seed=5,
                n_resamples=100).compute(predictions=PREDS, references=REFS)
    assert out["rougeSU4_recall"] == res.scores["rougeSU4"].recall
    assert out["rouge1_low"] == res.ci["rouge1"].low.fmeasure
    assert out["rouge1_precision_high"] == res.ci["rouge1"].high.precision
    assert out["signature"] == res.signature
    assert "multiref:pool" in out["signature"]


def test_add_and_add_batch(module):
    module.add(prediction=PREDS[0], reference=REFS[0])
    module.add_batch(predictions=PREDS[1:], references=REFS[1:])
    assert module.compute() == compute(predictions=PREDS, references=REFS).to_dict()


def test_errors_name_argument_and_index(module):
    with pytest.raises(TypeError, match=r"predictions\[1\]: expected str, got None"):
        module.compute(predictions=["a", None], references=["a", "b"])
    with pytest.raises(ValueError, match="predictions: empty list"):
        module.compute(predictions=[], references=[])
    with pytest.raises(ValueError, match="rouge_types: invalid rouge type 'rougeLSum'"):
        module.compute(predictions=["a"], references=["a"], rouge_types=["rougeLSum"])


@pytest.mark.integration
def test_loading_makes_no_network_attempt(repo_dir, tmp_path):
    code = textwrap.dedent(
        """
        import sys
        events = []
        def hook(event, args):
            if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname"):
                events.append((event, str(args)[:80]))
        sys.addaudithook(hook)
        import evaluate
        m = evaluate.load("./rouge_metric")
        out = m.compute(predictions=["a b"], references=["a b"])
        print(out["rouge1"], len(events), events[:3])
        """
    )
    env = dict(os.environ, HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], cwd=repo_dir, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[:2] == ["1.0", "0"], out


def test_load_prepares_the_native_core(repo_dir, tmp_path):
    # evaluate.load copies only the .py files; the copy finds and checks the installed package's native
    # core at load, so that its first compute costs only the scoring
    code = textwrap.dedent(
        """
        import sys
        import evaluate
        m = evaluate.load("./rouge_metric")
        loaded = "rouge_metric._native" in sys.modules
        out = m.compute(predictions=["a b"], references=["a b"], return_signature=True)
        print(loaded, "backend:native" in out["signature"])
        """
    )
    env = dict(os.environ, HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], cwd=repo_dir, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True"], out


WORKER = textwrap.dedent(
    """
    import json, sys
    import evaluate
    rank, world, cache, exp, preds, refs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], \
        json.loads(sys.argv[5]), json.loads(sys.argv[6])
    m = evaluate.load("./rouge_metric", num_process=world, process_id=rank, experiment_id=exp, cache_dir=cache)
    m.add_batch(predictions=preds, references=refs)
    out = m.compute(use_stemmer=True, return_precision_recall=True)
    print(json.dumps(out))
    """
)


@pytest.mark.integration
def test_distributed_two_processes_equal_one(repo_dir, tmp_path):
    preds = ["the cats are sitting %d" % i for i in range(12)] + PREDS
    refs = [["a cat sat %d" % (i % 5), "cats sit"] for i in range(12)] + REFS
    env = dict(os.environ, HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1")
    half = len(preds) // 2
    shards = [(preds[:half], refs[:half]), (preds[half:], refs[half:])]
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(rank), "2", str(tmp_path), "exp-dist",
                          json.dumps(p), json.dumps(r)], cwd=repo_dir, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for rank, (p, r) in enumerate(shards)
    ]
    outs = [proc.communicate(timeout=240) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), [o[1][-2000:] for o in outs]
    rank0 = json.loads(outs[0][0].strip().splitlines()[-1])
    assert outs[1][0].strip().splitlines()[-1] == "null"  # evaluate: ranks > 0 return None
    single = compute(predictions=preds, references=refs, use_stemmer=True).to_dict(
        ("precision", "recall", "fmeasure"))
    assert rank0 == single
    assert not math.isnan(rank0["rouge1"])


def test_script_imports_every_sibling_it_needs(repo_dir):
    """evaluate copies only siblings imported as ``from .x import y`` at column 0 of the script:
    every pure-Python module reachable from the script (even through lazy imports) must be listed."""
    import re

    pkg = repo_dir / "rouge_metric"
    rel = re.compile(r"^\s*from \.(\w*) import ([\w, ]+)", re.M)

    def deps(name):
        found = set()
        for mod, names in rel.findall((pkg / f"{name}.py").read_text(encoding="utf-8")):
            cands = [mod] if mod else [n.split(" as ")[0].strip() for n in names.split(",")]
            found.update(c for c in cands if (pkg / f"{c}.py").exists())
        return found

    script = (pkg / "rouge_metric.py").read_text(encoding="utf-8")
    top_level = set(re.findall(r"^from \.(\w+) import", script, re.M))
    closure, todo = set(), set(top_level)
    while todo:
        m = todo.pop()
        if m not in closure:
            closure.add(m)
            todo |= deps(m)
    assert closure <= top_level, f"add column-0 imports to rouge_metric.py for: {sorted(closure - top_level)}"


def test_mixed_string_and_list_references_are_not_split_into_characters(module):
    preds = ["the cat sat on the mat", "a dog barked at night"]
    refs = [["the cat was on the mat", "a cat sat on a mat"], "the dog barked all night"]
    module.add_batch(predictions=preds[:1], references=["the cat was on the mat"])  # str first...
    module.add_batch(predictions=preds[1:], references=[["the dog barked all night", "x"]])  # ...then a list
    added = [refs[0][0], ["the dog barked all night", "x"]]
    assert module.compute() == compute(predictions=preds, references=added).to_dict()
    out = module.compute(predictions=preds, references=refs, use_stemmer=True)
    assert out == compute(predictions=preds, references=refs, use_stemmer=True).to_dict()


def test_beyond_english_options_reach_the_core(module):
    preds = ["北京是中国的首都。", "Москва — столица России. Это большой город."]
    refs = ["北京是首都。", "Москва столица России."]
    out = module.compute(predictions=preds, references=refs, tokenizer="unicode", sentence_splitter="offline",
                         stopwords=["это"], use_stemmer="snowball:russian", return_signature=True)
    res = compute(predictions=preds, references=refs, tokenizer="unicode", sentence_splitter="offline",
                  stopwords=["это"], use_stemmer="snowball:russian")
    assert out.pop("signature") == res.signature
    assert out == res.to_dict() and out["rouge1"] > 0


# ---------------------------------------------------------------------------------- newcomer edges
@pytest.mark.parametrize("method,kwargs,match", [
    ("add", dict(prediction="a b", references="a b"),
     r"add: unexpected keyword argument\(s\) 'references'; add\(\) takes prediction= and reference= "
     r"\(did you mean references= -> reference=\?\); add_batch\(\) takes predictions= and references="),
    ("add", dict(predictions="a b", reference="a b"), r"did you mean predictions= -> prediction=\?"),
    ("add_batch", dict(predictions=["a"], reference=["a"]), r"did you mean reference= -> references=\?"),
    ("add", dict(prediction="a", reference="a", refs="a"),
     r"add: unexpected keyword argument\(s\) 'refs'; add\(\) takes prediction= and reference=; add_batch"),
])
def test_misspelt_input_keywords_are_named(module, method, kwargs, match):
    with pytest.raises(TypeError, match=match):
        getattr(module, method)(**kwargs)


def test_a_single_type_name_works_as_in_compute(module):
    out = module.compute(predictions=PREDS, references=REFS, rouge_types="rougeL")
    assert out == compute(predictions=PREDS, references=REFS, rouge_types="rougeL").to_dict() and list(out) == ["rougeL"]


def test_fast_write_stores_what_evaluates_own_add_batch_stores(module, monkeypatch):
    """add_batch writes validated batches straight to evaluate's Arrow writer (its per-element encoding
    is an identity on validated str); the stored rows, their order and every result are those of
    evaluate's own add_batch, which runs when the writer API is not the expected one."""
    import random

    rnd = random.Random(3)
    words = ["the", "cat", "sat", "über", "naïve", "日本", "", "a\nb", "mat"]

    def text():
        return " ".join(rnd.choice(words) for _ in range(rnd.randint(0, 8)))

    batches = [([text() for _ in range(n)], [[text() for _ in range(rnd.randint(1, 3))] if rnd.random() < 0.7
                                             else text() for _ in range(n)]) for n in (1, 5, 17)]

    def run():
        module.add(prediction="a single one", reference=["a single", "one"])
        for preds, refs in batches:
            module.add_batch(predictions=preds, references=refs)
        module._finalize()
        stored = {k: module.data[k][:] for k in ("predictions", "references")}
        for preds, refs in batches:
            module.add_batch(predictions=preds, references=refs)
        return stored, module.compute(use_aggregator=False, rouge_types=["rouge1", "rougeLsum"],
                                      return_precision_recall=True)

    fast = run()
    monkeypatch.setattr(type(module), "_init_writer", None)  # an evaluate without the writer API it expects
    assert module._write_validated({"predictions": ["a"], "references": [["a"]]}) is False
    monkeypatch.undo()
    monkeypatch.setattr(type(module), "_write_validated", lambda self, batch: False)
    slow = run()
    assert fast == slow
    assert fast[0]["references"][0] == ["a single", "one"]
    assert all(isinstance(r, list) for r in fast[0]["references"])


# ------------------------------------------------------------------ option combinations: none is dropped
def test_confidence_interval_as_a_level_is_that_level(module):
    """confidence_interval=0.9 (rouge-score's BootstrapAggregator spelling: the value is the level) gives the
    90% interval of the core's bootstrap, not 95%; True keeps 95% or confidence_level."""
    kw = dict(predictions=PREDS, references=REFS, rouge_types=["rouge1", "rougeL"], n_resamples=200, seed=3)
    core = lambda level: Rouge(["rouge1", "rougeL"], aggregation="bootstrap", n_resamples=200, seed=3,  # noqa: E731
                               confidence_level=level).compute(predictions=PREDS, references=REFS)
    at90, at95 = core(0.9), core(0.95)
    assert at90.ci["rouge1"].low.fmeasure != at95.ci["rouge1"].low.fmeasure  # the test can tell them apart
    for out, want in [(module.compute(confidence_interval=0.9, **kw), at90),
                      (module.compute(confidence_interval=0.9, confidence_level=0.9, **kw), at90),
                      (module.compute(confidence_interval=True, confidence_level=0.9, **kw), at90),
                      (module.compute(confidence_interval=True, **kw), at95)]:
        for t in ("rouge1", "rougeL"):
            assert (out[f"{t}_low"], out[f"{t}_high"]) == (want.ci[t].low.fmeasure, want.ci[t].high.fmeasure)
    sig = module.compute(confidence_interval=0.9, return_signature=True, **kw)["signature"]
    assert "agg:bootstrap(n=200,ci=0.9,seed=3)" in sig


def test_rouge_score_bootstrap_level_matches(module):
    """rouge-score's BootstrapAggregator(confidence_interval=0.9) and this module's confidence_interval=0.9
    name the same level: both intervals are 5th..95th percentiles, so ours must sit inside the range of
    per-example scores and widen from 0.5 to 0.9 (their resampling RNG differs, so not the same floats)."""
    scoring = pytest.importorskip("rouge_score.scoring")
    rs = pytest.importorskip("rouge_score.rouge_scorer")
    import random

    rng = random.Random(7)
    vocab = "the a cat dog sat ran on under mat log red blue big small".split()
    preds = [" ".join(rng.choices(vocab, k=rng.randint(3, 9))) for _ in range(60)]
    refs = [" ".join(rng.choices(vocab, k=rng.randint(3, 9))) for _ in range(60)]
    import numpy as np

    agg = scoring.BootstrapAggregator(confidence_interval=0.9, n_samples=2000)
    scorer = rs.RougeScorer(["rouge1"])
    for p, r in zip(preds, refs):
        agg.add_scores(scorer.score(r, p))
    state = np.random.get_state()
    np.random.seed(0)  # rouge-score resamples with numpy's global generator
    try:
        theirs = agg.aggregate()["rouge1"]
    finally:
        np.random.set_state(state)
    ours = module.compute(predictions=preds, references=refs, rouge_types=["rouge1"], confidence_interval=0.9,
                          n_resamples=2000)
    half = module.compute(predictions=preds, references=refs, rouge_types=["rouge1"], confidence_interval=0.5,
                          n_resamples=2000)
    assert ours["rouge1_low"] < half["rouge1_low"] <= half["rouge1_high"] < ours["rouge1_high"]
    wide = module.compute(predictions=preds, references=refs, rouge_types=["rouge1"], confidence_interval=True,
                          n_resamples=2000)
    their_width = theirs.high.fmeasure - theirs.low.fmeasure
    ratio = lambda out: (out["rouge1_high"] - out["rouge1_low"]) / their_width  # noqa: E731
    # the same level up to resampling noise (a few %); the 95% interval is about 1.2x wider, and is told apart
    assert 0.9 < ratio(ours) < 1.1 and ratio(wide) > 1.15


@pytest.mark.parametrize("kwargs, match", [
    (dict(confidence_interval=True, use_aggregator=False), "confidence_interval: an interval is one of the corpus "
                                                           "mean, and use_aggregator=False returns per-example"),
    (dict(confidence_interval=0.9, use_aggregator=False), "use_aggregator=False"),
    (dict(confidence_interval=0.9, confidence_level=0.95), r"confidence_interval=0.9 is a confidence level, and "
                                                           r"confidence_level=0.95 another: give one of them"),
    (dict(confidence_interval=1.5), r"confidence_interval: expected True/False or a confidence level in \(0, 1\)"),
    (dict(confidence_interval=95), r"confidence_interval: expected True/False or a confidence level"),
    (dict(confidence_interval="yes"), r"confidence_interval: expected True/False"),
    (dict(n_resamples=500), r"n_resamples: bootstrap settings, used only with confidence_interval=True"),
    (dict(confidence_level=0.9, seed=1), r"confidence_level, seed: bootstrap settings"),
    (dict(confidence_interval=False, seed=0), r"seed: bootstrap settings"),
    (dict(alpha=0.5, beta=2.0), r"alpha=0.5 and beta=2.0: both set the F-measure"),
])
def test_combinations_that_would_drop_a_setting_are_refused(module, kwargs, match):
    with pytest.raises(ValueError, match=match):
        module.compute(predictions=PREDS, references=REFS, **kwargs)


def test_defaults_unchanged_by_the_checks(module):
    """beta, n_resamples, confidence_level and seed default as before: the core's defaults."""
    out = module.compute(predictions=PREDS, references=REFS, return_signature=True)
    assert out["signature"] == Rouge().compute(predictions=PREDS, references=REFS).signature
    ci = module.compute(predictions=PREDS, references=REFS, confidence_interval=True, return_signature=True)
    want = Rouge(aggregation="bootstrap").compute(predictions=PREDS, references=REFS)
    assert ci["signature"] == want.signature and ci["rouge1_low"] == want.ci["rouge1"].low.fmeasure
    assert module.compute(predictions=PREDS, references=REFS, alpha=0.5) == \
        compute(predictions=PREDS, references=REFS, alpha=0.5).to_dict()


# ------------------------------------------------------------ compute with the whole input: no Arrow round trip
def _both_paths(module, monkeypatch, call):
    """``call()`` on the direct path and on evaluate's own path (the direct one switched off)."""
    def outcome():
        try:
            return "ok", call()
        except Exception as exc:  # noqa: BLE001 - the exception is part of the behaviour compared
            return type(exc).__name__, str(exc)

    assert module._direct_compute_possible()
    direct = outcome()
    with monkeypatch.context() as m:
        m.setattr(type(module), "_direct_compute_possible", lambda self: False)
        own = outcome()
    return direct, own


@pytest.mark.parametrize("options", [
    {}, {"use_stemmer": True, "return_precision_recall": True}, {"use_aggregator": False},
    {"confidence_interval": True, "rouge_types": ["rouge1", "rougeW"]}, {"multi_ref": "pool", "tokenizer": "unicode"},
    {"rouge_typ": ["rouge1"]},  # a misspelt option: the same TypeError from _compute on both paths
])
def test_direct_compute_equals_evaluates_own_path(module, monkeypatch, options):
    import numpy as np

    def call():
        np.random.seed(11)
        out = module.compute(predictions=PREDS, references=REFS, **options)
        return out, np.random.get_state()[1].tolist(), [module.writer, module.data, module.cache_file_name,
                                                        module.filelock, module.selected_feature_format]

    direct, own = _both_paths(module, monkeypatch, call)
    assert direct == own
    # and the module is reusable afterwards, on either path
    module.add_batch(predictions=PREDS[:2], references=REFS[:2])
    assert not module._direct_compute_possible()
    assert module.compute() == compute(predictions=PREDS[:2], references=REFS[:2]).to_dict()
    assert module._direct_compute_possible()


@pytest.mark.parametrize("predictions, references", [
    ([], []), (["a", 3], ["a", "b"]), (["a"], ["a", "b"]), ("a b", ["a b"]), (["a"], [[]]), (["a"], [None]),
])
def test_direct_compute_refuses_what_evaluates_path_refuses(module, monkeypatch, predictions, references):
    direct, own = _both_paths(module, monkeypatch, lambda: module.compute(predictions=predictions,
                                                                          references=references))
    assert direct == own and direct[0] != "ok"


def _kinds_of_input():
    """The same examples in every container and mixture the module accepts, and some it refuses."""
    np = pytest.importorskip("numpy")

    preds, refs = PREDS[:3], [["the cat was on the mat", "a cat sat"], "hello there\ngeneral kenobi", ["text"]]
    return [
        (preds, refs), (tuple(preds), tuple(refs)), (np.array(preds), [np.array(r) if isinstance(r, list) else r
                                                                       for r in refs]),
        (preds, [tuple(r) if isinstance(r, list) else r for r in refs]), (iter(preds), iter(refs)),
        (preds, [r if isinstance(r, str) else r[0] for r in refs]), (preds[:1], [["one"] * 9]),
        (preds, [r if isinstance(r, list) else [r] for r in refs]),
        ({"a": 1}, refs), (preds, refs[:2]), (preds, [1, "a", "b"]), (preds, [["a", 2], "a", "b"]),
        (preds, [[], "a", "b"]), ([b"bytes"] + preds[1:], refs), (preds, [None, "a", "b"]),
    ]


@pytest.mark.parametrize("case", range(15))
def test_direct_compute_takes_and_refuses_what_evaluates_path_does(module, monkeypatch, case):
    """Every kind of container (lists, tuples, numpy arrays, iterators, mixed str and lists), scored or
    refused, on the direct path and on evaluate's own (add_batch, the Arrow cache, compute): the same
    result or the same error, and the module reusable afterwards."""
    def call():
        predictions, references = _kinds_of_input()[case]  # fresh iterators for each path
        return module.compute(predictions=predictions, references=references, return_precision_recall=True)

    direct, own = _both_paths(module, monkeypatch, call)
    assert direct == own
    assert module._direct_compute_possible() and module.compute(predictions=PREDS, references=REFS) == \
        compute(predictions=PREDS, references=REFS).to_dict()


def test_direct_compute_only_when_nothing_was_added(module, monkeypatch):
    """Data added before compute(predictions=...) is scored with it, on evaluate's own path."""
    module.add(prediction=PREDS[0], reference=REFS[0])
    assert not module._direct_compute_possible()
    out = module.compute(predictions=PREDS[1:], references=REFS[1:])
    assert out == compute(predictions=PREDS, references=REFS).to_dict()


def test_direct_compute_leaves_no_cached_data(repo_dir, tmp_path, monkeypatch):
    cwd = os.getcwd()
    os.chdir(repo_dir)
    try:
        mod = evaluate.load("./rouge_metric", cache_dir=str(tmp_path / "cache"))
    finally:
        os.chdir(cwd)

    def call():
        out = mod.compute(predictions=PREDS, references=REFS)
        files = sorted(p.name for p in (tmp_path / "cache").rglob("*") if p.is_file())
        return out, files

    direct, own = _both_paths(mod, monkeypatch, call)
    # the same result and no cached data left on either path; evaluate's path also leaves its lock file
    assert direct[1][0] == own[1][0] and direct[1][1] == []
    assert [f for f in own[1][1] if not f.endswith(".lock")] == []


DIRECT_WORKER = textwrap.dedent(
    """
    import json, sys
    import evaluate
    rank, world, cache, exp, preds, refs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], \
        json.loads(sys.argv[5]), json.loads(sys.argv[6])
    m = evaluate.load("./rouge_metric", num_process=world, process_id=rank, experiment_id=exp, cache_dir=cache)
    print(json.dumps([m._direct_compute_possible(), m.compute(predictions=preds, references=refs, use_stemmer=True)]))
    """
)


@pytest.mark.integration
def test_compute_with_the_input_in_several_processes_gathers_as_evaluate_does(repo_dir, tmp_path):
    """num_process=2, each process giving its shard to compute(predictions=...): evaluate's own path
    (no direct scoring), which gathers every shard on rank 0 and returns None elsewhere."""
    preds = ["the cats are sitting %d" % i for i in range(9)] + PREDS
    refs = [["a cat sat %d" % (i % 4), "cats sit"] for i in range(9)] + REFS
    env = dict(os.environ, HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1")
    half = len(preds) // 2
    procs = [
        subprocess.Popen([sys.executable, "-c", DIRECT_WORKER, str(rank), "2", str(tmp_path), "exp-direct",
                          json.dumps(p), json.dumps(r)], cwd=repo_dir, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for rank, (p, r) in enumerate([(preds[:half], refs[:half]), (preds[half:], refs[half:])])
    ]
    outs = [proc.communicate(timeout=240) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), [o[1][-2000:] for o in outs]
    (direct0, rank0), (direct1, rank1) = (json.loads(o[0].strip().splitlines()[-1]) for o in outs)
    assert direct0 is direct1 is False and rank1 is None
    assert rank0 == compute(predictions=preds, references=refs, use_stemmer=True).to_dict()


def test_direct_compute_is_off_with_several_processes(repo_dir, tmp_path):
    cwd = os.getcwd()
    os.chdir(repo_dir)
    try:
        mod = evaluate.load("./rouge_metric", num_process=2, process_id=1, cache_dir=str(tmp_path),
                            experiment_id="direct-off")
    finally:
        os.chdir(cwd)
    assert not mod._direct_compute_possible()


# ------------------------------------------------------------------- multilingual: recipe, lang, segmenters
@pytest.mark.parametrize("name", ["zh", "ja", "th", "fr"])
def test_xlsum_recipe_gives_xlsums_numbers(module, name):
    import warnings

    from multilingual_cases import case, mean_f, xlsum_oracle

    lang, _, preds, refs = case(name, recipe=True)
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    oracle = xlsum_oracle(types, False, lang, preds, refs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per = module.compute(predictions=preds, references=refs, recipe="xlsum", lang=lang, use_aggregator=False,
                             return_precision_recall=True)
        out = module.compute(predictions=preds, references=refs, recipe="xlsum", lang=lang, return_signature=True)
    for t in types:
        assert per[t] == [s[t].fmeasure for s in oracle]
        assert per[t + "_recall"] == [s[t].recall for s in oracle]
        assert out[t] == mean_f(oracle, t)
    assert f"tok:xlsum(lang={lang}" in out["signature"] or lang == "chinese_simplified"


def test_xlsum_recipe_through_add_batch_is_the_direct_path(module):
    from multilingual_cases import case

    lang, _, preds, refs = case("zh", recipe=True)
    module.add_batch(predictions=preds, references=refs)
    added = module.compute(recipe="xlsum", lang=lang)
    assert added == module.compute(predictions=preds, references=refs, recipe="xlsum", lang=lang)


@pytest.mark.parametrize("name", ["zh", "ja", "th"])
def test_segmenting_tokenizers_reach_the_core(module, name):
    from multilingual_cases import case, segmenter_oracle

    _, seg, preds, refs = case(name, recipe=False)
    types = ["rouge1", "rouge2", "rougeL"]
    per = module.compute(predictions=preds, references=refs, rouge_types=types, tokenizer=seg, use_aggregator=False)
    oracle = segmenter_oracle(types, seg, preds, refs)
    assert per == {t: [s[t].fmeasure for s in oracle] for t in types}


@pytest.mark.parametrize("kwargs,match", [
    (dict(lang="chinese"), r"lang='chinese': a language of recipe='xlsum'"),
    (dict(recipe="xl-sum"), r"recipe: invalid value 'xl-sum'; allowed: 'default', 'xlsum'"),
    (dict(recipe="xlsum", tokenizer="jieba"), r"tokenizer='jieba': not a setting of recipe='xlsum'"),
    (dict(recipe="xlsum", stopwords=["a"]), r"stopwords=\['a'\]: not a setting of recipe='xlsum'"),
    (dict(recipe="xlsum", sentence_splitter="offline"), r"sentence_splitter='offline': not a setting"),
    (dict(recipe="xlsum", use_stemmer="snowball:french"), r"use_stemmer='snowball:french': recipe='xlsum'"),
])
def test_recipe_combinations_that_cannot_be_honoured_are_refused(module, kwargs, match):
    with pytest.raises(ValueError, match=match):
        module.compute(predictions=["a b"], references=["a"], **kwargs)


def test_xlsum_recipe_refuses_a_type_it_does_not_have(module):
    pytest.importorskip("pyonmttok")
    with pytest.raises(ValueError, match=r"rouge_types\[0\]: 'rougeSU4' is not a rouge type of XL-Sum's scorer"):
        module.compute(predictions=["a b"], references=["a"], recipe="xlsum", rouge_types=["rougeSU4"])


def test_unknown_language_warns_once_with_the_known_ones(module):
    pytest.importorskip("pyonmttok")
    import warnings

    with pytest.warns(UserWarning, match=r"lang='klingon-evaluate': not a language of XL-Sum's scorer.*thai"):
        out = module.compute(predictions=["a b"], references=["a"], recipe="xlsum", lang="klingon-evaluate")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert module.compute(predictions=["a b"], references=["a"], recipe="xlsum", lang="klingon-evaluate") == out


def _sibling(module, name):
    """The module script's own copy of a package module (evaluate imports the folder it copied)."""
    import importlib

    return importlib.import_module(type(module).__module__.rsplit(".", 1)[0] + "." + name)


def test_segmenter_failure_names_the_index(module, monkeypatch):
    seg = _sibling(module, "segment").raw_segmenter("burmese_syllables")
    real = seg.fn
    monkeypatch.setattr(seg, "_fn", lambda t: (_ for _ in ()).throw(RuntimeError("bad")) if "boom" in t else real(t))
    seg.clear_cache()
    with pytest.raises(RuntimeError, match=r"^references\[1\]\[0\]: tokenizer='burmese_syllables'") as info:
        module.compute(predictions=["a", "b"], references=["a", "boom"], tokenizer="burmese_syllables")
    assert type(info.value).__name__ == "SegmenterError"
    seg.clear_cache()


def test_missing_segmenter_names_the_package_and_the_extra(module, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pythainlp", None)
    monkeypatch.setitem(sys.modules, "pythainlp.tokenize", None)
    monkeypatch.setattr(_sibling(module, "segment").raw_segmenter("thai_newmm"), "_fn", None)
    with pytest.raises(ImportError, match=r"tokenizer='thai_newmm' needs the package 'pythainlp'.*'multilingual' "
                                          r"extra") as info:
        module.compute(predictions=["a"], references=["a"], tokenizer="thai_newmm")
    assert type(info.value).__name__ == "SegmenterMissing"
