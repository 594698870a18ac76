"""explain(): its evidence must add up to the scorer's own statistics, on random inputs."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_metric import Rouge, cli, core
from rouge_metric.explain import explain

WORDS = ["the", "cat", "cats", "sat", "on", "mat", "a", "dog", "running", "runs", "ran", "big", "Big", "x"]
TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU", "rougeSU2"]


@st.composite
def texts(draw):
    words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=30))
    seps = draw(st.lists(st.sampled_from([" ", " ", " ", "\n", ", "]), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps))


BACKENDS = ["python"] + (["native"] if core.native_available() else [])


@settings(max_examples=60, deadline=None)
@given(pred=texts(), refs=st.lists(texts(), min_size=1, max_size=3), stem=st.booleans(),
       mode=st.sampled_from(["max", "mean", "pool", "best_recall"]), backend=st.sampled_from(BACKENDS))
def test_evidence_adds_up_to_the_scorers_hits(pred, refs, stem, mode, backend):
    ex = explain(prediction=pred, references=refs, rouge_types=TYPES, use_stemmer=stem, multi_ref=mode,
                 backend=backend)
    rouge = Rouge(TYPES, use_stemmer=stem, multi_ref=mode, backend=backend)
    assert ex.combined == rouge.score(prediction=pred, references=refs)
    assert ex.signature == rouge.signature()
    oracle = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=stem)
    p_sents = [oracle._tokenizer.tokenize(s) for s in pred.split("\n") if s]
    for ref_text, rex in zip(refs, ex.references):
        single = rouge.score(prediction=pred, references=[ref_text])
        for t, te in rex.types.items():
            assert te.score == single[t]  # the per-reference score is the scorer's
            if te.kind in ("ngram", "skip"):
                assert sum(m.clipped for m in te.matches) == te.hit
                assert all(m.pred_count > 0 and m.ref_count > 0 for m in te.matches)
            if te.kind == "ngram":
                n = int(t[len("rouge"):])
                assert len(te.pred_positions) <= n * te.hit and len(te.ref_positions) <= n * te.hit
            elif te.kind == "lcs":
                assert len(te.lcs) == te.hit
                for pos, toks in ((te.pred_positions, ex.pred_tokens), (te.ref_positions, rex.tokens)):
                    assert list(pos) == sorted(set(pos))
                    assert tuple(toks[i] for i in pos) == te.lcs
            elif te.kind == "lcsum":
                assert sum(len(s.hits) for s in te.sentences) == te.hit
                # union-LCS tokens per reference sentence: rouge-score's own _union_lcs is the oracle
                r_sents = [oracle._tokenizer.tokenize(s) for s in ref_text.split("\n") if s]
                for s, r in zip(te.sentences, r_sents):
                    assert list(s.tokens) == r
                    want = rouge_scorer._union_lcs(r, p_sents) if r and p_sents else []
                    assert [r[i] for i in s.marked] == want
                    assert set(s.hits) <= set(s.marked)
            elif te.kind == "wlcs":
                assert all(set(s.hits) <= set(s.marked) for s in te.sentences)
                assert (te.hit == 0) == (sum(len(s.hits) for s in te.sentences) == 0)


def test_fixed_example_and_json():
    ex = explain(prediction="the cat sat on the mat\nthe end", references="the cat lay on the mat",
                 rouge_types=["rouge1", "rougeL", "rougeLsum"])
    r1 = ex.references[0].types["rouge1"]
    # "the" occurs 3 times in the prediction and twice in the reference: clipped to 2
    the = next(m for m in r1.matches if m.unit == ("the",))
    assert (the.pred_count, the.ref_count, the.clipped) == (3, 2, 2)
    assert r1.hit == 5 and r1.pred_total == 8 and r1.ref_total == 6
    lsum = ex.references[0].types["rougeLsum"]
    assert lsum.sentences[0].marked == (0, 1, 3, 4, 5) and lsum.sentences[0].hits == (0, 1, 3, 4, 5)
    d = json.loads(json.dumps(ex.to_dict()))
    assert d["references"][0]["types"]["rouge1"]["hit"] == 5
    assert d["combined"]["rouge1"] == ex.combined["rouge1"]._asdict()


def test_format_plain_and_colour():
    ex = explain(prediction="a cat", references=["the cat", "a dog"], rouge_types=["rouge1", "rougeL"])
    plain = ex.format(color=False)
    assert "\x1b[" not in plain and "a [cat]" in plain and "combined over references (multi_ref=max)" in plain
    assert "\x1b[1;32mcat\x1b[0m" in ex.format(color=True)


def test_bad_input():
    with pytest.raises(TypeError, match=r"prediction\[0\]: expected str, got None"):
        explain(prediction=None, references="a")
    with pytest.raises(ValueError, match=r"references\[0\]: empty list"):
        explain(prediction="a", references=[])
    with pytest.raises(ValueError, match="rouge_types: invalid rouge type"):
        explain(prediction="a", references="a", rouge_types=["rougeQ"])


def test_cli_explain(tmp_path, capsys):
    code = cli.main(["explain", "--prediction", "the cat sat", "--reference", "the cat", "--rouge-types",
                     "rouge1", "rougeL", "--color", "never"])
    out = capsys.readouterr().out
    assert code == 0 and "[the] [cat] sat" in out and "\x1b[" not in out
    assert out.strip() == explain(prediction="the cat sat", references=["the cat"],
                                  rouge_types=["rouge1", "rougeL"]).format(color=False)
    code = cli.main(["explain", "--prediction", "the cat sat", "--reference", "the cat", "--color", "always"])
    assert code == 0 and "\x1b[1;32m" in capsys.readouterr().out
    (tmp_path / "p.txt").write_text("x y\nthe cat sat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("x\nthe cat\n", encoding="utf-8")
    code = cli.main(["explain", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"),
                     "--index", "1", "--json", "--use-stemmer"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["prediction"] == "the cat sat" and d["references"][0]["reference"] == "the cat"
    assert "stem:porter" in d["signature"]
    code = cli.main(["explain", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt"),
                     "--index", "2"])
    assert code == cli.EXIT_USAGE and "--index: 2 is out of range" in capsys.readouterr().err
    code = cli.main(["explain", "--prediction", "a"])
    assert code == cli.EXIT_USAGE and "--reference: required" in capsys.readouterr().err
