"""explain(): its evidence must add up to the scorer's own statistics, on random inputs; its cross-checks
catch wrong evidence; its renderings (terminal, HTML) show the explained positions in the user's words,
with every user text escaped in the HTML.

One file for the explain package: its sections (evidence, cross-checks, HTML, the user's words) share
the random-text strategies and the HTML parsers, and each test goes through explain() end to end.
"""

import json
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from rouge_metric import Rouge, cli, core
from rouge_metric.explain import combined_checks, cross_check, explain
from rouge_metric import Score

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
    assert ex.cross_checked, ex.failed_checks()
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
                # the prediction side: rouge-score's _union_lcs with the roles swapped is the oracle
                r_all = [oracle._tokenizer.tokenize(s) for s in ref_text.split("\n") if s]
                assert len(te.pred_sentence_marks) == len(p_sents)
                for c, marks in zip(p_sents, te.pred_sentence_marks):
                    assert [c[i] for i in marks] == (rouge_scorer._union_lcs(c, r_all) if c and r_all else [])
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


# ------------------------------------------------------------------------------------------- cross-checks
@settings(max_examples=40, deadline=None)
@given(pred=texts(), refs=st.lists(texts(), min_size=1, max_size=3),
       f=st.one_of(st.builds(dict, beta=st.floats(0.1, 10)), st.builds(dict, alpha=st.floats(0, 1))),
       mode=st.sampled_from(["max", "mean", "pool", "best_recall"]))
def test_cross_checks_hold_for_every_f_setting(pred, refs, f, mode):
    ex = explain(prediction=pred, references=refs, rouge_types=TYPES, multi_ref=mode, **f)
    assert ex.cross_checked, ex.failed_checks()
    assert all(te.checks for ref in ex.references for te in ref.types.values())


def _tampered(ex, t, **changes):
    import dataclasses

    ref = ex.references[0]
    return dataclasses.replace(ref.types[t], **changes)


def test_cross_checks_catch_wrong_explanations():
    """The checks can fail: each tampered explanation is reported, with what differed."""
    ex = explain(prediction="the cat sat on the mat", references="the cat lay on the mat",
                 rouge_types=["rouge1", "rougeL", "rougeLsum"])
    ref = ex.references[0]
    args = (ex.pred_tokens, [list(ex.pred_tokens)], ref.tokens, [list(ref.tokens)], 0.5)

    def failed(te):
        return [c.name for c in cross_check(te, *args) if not c.ok]

    assert failed(ref.types["rouge1"]) == []
    assert failed(_tampered(ex, "rouge1", hit=4)) == ["P/R/F re-derived from the counts",
                                                      "clipped matches add up to the hit"]
    from rouge_metric.explain import UnitMatch

    # "the" occurs twice in each text: a count of 3 (clipped to 2, so the sum still holds) is caught by the recount
    wrong_count = (UnitMatch(("the",), 3, 2),) + ref.types["rouge1"].matches[1:]
    assert failed(_tampered(ex, "rouge1", matches=wrong_count)) == ["n-gram counts recounted in both texts"]
    assert failed(_tampered(ex, "rougeL", pred_positions=(0, 1, 2, 4, 5))) == ["LCS is a subsequence of the prediction"]
    assert failed(_tampered(ex, "rougeL", ref_positions=(1, 0, 3, 4, 5))) == ["LCS is a subsequence of the reference"]
    s0 = ref.types["rougeLsum"].sentences[0]
    import dataclasses

    bad_s = (dataclasses.replace(s0, marked=(0, 1, 2, 3, 4, 5)),)
    assert failed(_tampered(ex, "rougeLsum", sentences=bad_s)) == ["union-LCS: every LCS a common subsequence, hits add up"]
    # a wrong combined score is caught too, and the report says so
    bad = dataclasses.replace(ex, combined={**ex.combined, "rouge1": Score(1.0, 1.0, 1.0)},
                              combined_checks=combined_checks({"rouge1": Score(1.0, 1.0, 1.0)}, ex.references,
                                                               "max", 0.5, {"rouge1": 1.0}))
    assert not bad.cross_checked and "NOT cross-checked: combined: rouge1" in bad.format()
    assert "✗ not cross-checked" in bad.to_html() and 'data-cross-checked="false"' in bad.to_html()
    assert ex.cross_checked and "\ncross-checked: P/R/F re-derived" in ex.format()


# --------------------------------------------------------------------------------------------------- HTML
class _Marks(HTMLParser):
    """Collects, per rouge type block, the highlighted tokens: (side, position, css class, text)."""

    def __init__(self):
        super().__init__()
        self.type, self.marks, self.cur, self.rows, self.row, self.cell = None, {}, None, {}, None, None
        self.status, self.legend, self.depth = None, [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag == "div" and "rm-type" in cls.split():
            self.type = a["data-type"]
            self.marks.setdefault(self.type, [])
        if tag == "mark":
            self.cur = [a["data-side"], int(a["data-pos"]), cls.split()[-1], ""]
        if tag == "tr" and "data-type" in a:
            self.row = self.rows.setdefault(a["data-type"], [])
        if tag == "td" and self.row is not None:
            self.cell = ""
        if "data-cross-checked" in a:
            self.status = a["data-cross-checked"]

    def handle_data(self, data):
        if self.cur is not None:
            self.cur[3] += data
        if self.cell is not None:
            self.cell += data

    def handle_endtag(self, tag):
        if tag == "mark" and self.cur is not None:
            self.marks[self.type].append(tuple(self.cur))
            self.cur = None
        if tag == "td" and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        if tag == "tr":
            self.row = None


def test_html_highlights_the_explained_positions_in_both_texts():
    """Structural check of the HTML the Space and `explain --html` show: every highlighted token is
    at the position the explanation names, on the right side, with the right text; the table holds
    the scores; user text is escaped."""
    pred = "the cat sat on the mat <b>x</b>\nthe end"
    refs = ["the cat lay on the mat", "a cat sat <script>"]
    types_ = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]
    ex = explain(prediction=pred, references=refs, rouge_types=types_, tokenizer="whitespace")
    page = ex.to_html()
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;b&gt;x&lt;/b&gt;" in page
    p = _Marks()
    p.feed(page)
    assert p.status == "true"
    for t, sc in ex.combined.items():
        assert p.rows[t][:4] == [t] + [f"{x * 100:.2f}" for x in sc]
    # blocks appear per reference in order: split the collected marks of each type by reference
    per_type = {t: [] for t in types_}
    for ref in ex.references:
        for t, te in ref.types.items():
            per_type[t].append((ref, te))
    seen = {t: list(p.marks[t]) for t in types_}
    for t, items in per_type.items():
        want = []
        for ref, te in items:
            if te.kind in ("ngram", "lcs"):
                want += [("pred", i, "rm-hit", ex.pred_tokens[i]) for i in te.pred_positions]
                want += [("ref", i, "rm-hit", ref.tokens[i]) for i in te.ref_positions]
            elif te.kind in ("lcsum", "wlcs"):
                if te.kind == "lcsum":
                    for toks, marks in zip(ex.pred_sentences, te.pred_sentence_marks):
                        want += [("pred", i, "rm-hit", toks[i]) for i in marks]
                for s in te.sentences:
                    want += [("ref", i, "rm-hit" if i in s.hits else "rm-clipped", s.tokens[i]) for i in s.marked]
        assert seen[t] == want, t
    lcs = ex.references[0].types["rougeL"]
    assert [m[3] for m in p.marks["rougeL"] if m[0] == "pred"][:len(lcs.lcs)] == list(lcs.lcs)
    for t in types_:  # legend: one swatch per type
        assert f'</span>{t}</span>' in page


def test_cli_explain_writes_html_and_reports_the_cross_check(tmp_path, capsys):
    out = tmp_path / "ex.html"
    code = cli.main(["explain", "--prediction", "the cat sat", "--reference", "the cat", "--rouge-types", "rouge1",
                     "rougeL", "--html", str(out), "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["cross_checked"] is True
    assert d["references"][0]["types"]["rougeL"]["cross_checked"] is True
    assert d["references"][0]["types"]["rougeL"]["checks"][0] == {"name": "P/R/F re-derived from the counts",
                                                                  "ok": True, "detail": ""}
    page = out.read_text(encoding="utf-8")
    want = explain(prediction="the cat sat", references=["the cat"], rouge_types=["rouge1", "rougeL"]).to_html()
    assert page.startswith("<!DOCTYPE html>") and want in page


HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</script>", "javascript:alert(1)",
           "' onmouseover='alert(1)", "&lt;b&gt; &amp;"]
#: The only markup the renderer writes: these tags, these attributes, styles from its own palette.
ALLOWED_TAGS = {"style", "div", "table", "caption", "tr", "th", "td", "span", "mark"}
ALLOWED_ATTRS = {"class", "style", "title", "data-type", "data-side", "data-pos", "data-ref", "data-shown",
                 "data-cross-checked"}
OWN_STYLE = re.compile(r"^(--c|background):#[0-9a-f]{6}$|^outline:2px dashed #[0-9a-f]{6}$")


class _Markup(HTMLParser):
    """Every tag with its attributes, the text of the page and the content of <style>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.style, self._in_style = [], [], [], False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        (self.style if self._in_style else self.text).append(data)


def _hostile_tokenizer(text):
    return text.split()


_hostile_tokenizer.__qualname__ = '<script>alert("q")</script>'  # the signature names a custom tokenizer by it


@pytest.mark.parametrize("tokenizer", ["whitespace", "default", "unicode", _hostile_tokenizer])
@pytest.mark.parametrize("hostile", HOSTILE)
def test_html_escapes_every_user_text(hostile, tokenizer):
    """User text (texts, tokens, the signature's custom tokenizer name) in the HTML is text, never markup:
    the page parses to the renderer's own tags and attributes only, its style is the renderer's CSS, and the
    hostile string reads back verbatim as text where the tokens keep it."""
    from rouge_metric.explain import CSS, explanation_html

    pred = f"the cat {hostile} sat\n{hostile}"
    refs = [f"a cat {hostile}", "the cat sat"]
    ex = explain(prediction=pred, references=refs, rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4"],
                 tokenizer=tokenizer)
    for page in (ex.to_html(), ex.to_html(tokens=True), explanation_html(ex, css=False)):
        low = page.lower()
        assert "<script" not in low and "</script" not in low and "<img" not in low
        m = _Markup()
        m.feed(page)
        m.close()
        for tag, attrs in m.tags:
            assert tag in ALLOWED_TAGS, tag
            for name, value in attrs:
                assert name in ALLOWED_ATTRS, (tag, name, value)
                if name == "style":
                    assert OWN_STYLE.match(value), value
                if name.startswith("data-") and name != "data-type":
                    assert re.fullmatch(r"[a-z0-9]+", value), (name, value)
        assert "".join(m.style) in ("", CSS)
        text = "".join(m.text)
        if tokenizer in ("whitespace", _hostile_tokenizer):  # the tokens keep the string whole
            assert hostile in text
        if tokenizer is _hostile_tokenizer:
            assert '<script>alert("q")</script>' in text  # the signature, as text
    assert explanation_html(ex) == ex.to_html() and explanation_html(ex, css=False) == ex.to_html().split("</style>", 1)[1]


def test_cli_html_page_escapes_user_text(tmp_path, capsys):
    out = tmp_path / "ex.html"
    assert cli.main(["explain", "--prediction", HOSTILE[0] + " " + HOSTILE[1], "--reference", HOSTILE[2] + " x",
                     "--tokenizer", "whitespace", "--html", str(out)]) == 0
    capsys.readouterr()
    page = out.read_text(encoding="utf-8").lower()
    assert "<script" not in page and "</script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;/script&gt;" in page  # one token each
    assert "&quot;&gt;&lt;img</span>" in page and "onerror=alert(1)&gt;</span>" in page  # three tokens


# ------------------------------------------------------------------------------------------ the user's words
from strategies import texts as unicode_texts  # noqa: E402  (Unicode, punctuation, odd whitespace)

from rouge_metric import RougeConfig  # noqa: E402
from rouge_metric.text import TextPipeline  # noqa: E402

SPAN_CONFIGS = [dict(tokenizer=t, use_stemmer=s, stopwords=w)
                for t in ("default", "whitespace", "unicode", "perl")
                for s in ((False,) if t == "whitespace" else (False, "porter"))
                for w in (None, ["the", "a", "Cat"])]


@settings(max_examples=150, deadline=None)
@given(text=unicode_texts(), k=st.integers(0, len(SPAN_CONFIGS) - 1))
def test_token_spans_spell_the_scored_tokens(text, k):
    """Oracle: the pipeline itself. Each span, tokenized on its own, is exactly its token; the spans
    increase and do not overlap; the text between them holds no token (without stopwords, which drop
    words there). default, whitespace and perl always give spans."""
    opts = SPAN_CONFIGS[k]
    pipe = TextPipeline(RougeConfig(rouge_types=["rouge1"], **opts))
    tokens = pipe.tokenize(text)
    spans = pipe.token_spans(text)
    if opts["tokenizer"] != "unicode":
        assert spans is not None
    if spans is None:
        return
    assert len(spans) == len(tokens)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b <= a2 for (_, b), (a2, _) in zip(spans, spans[1:]))
    for (a, b), tok in zip(spans, tokens):
        assert pipe.tokenize(text[a:b]) == [tok], (text[a:b], tok)
    if not opts["stopwords"]:
        edges = [0] + [x for sp in spans for x in sp] + [len(text)]
        for a, b in zip(edges[::2], edges[1::2]):
            assert pipe.tokenize(text[a:b]) == [], text[a:b]


def test_unicode_spans_on_every_script():
    pipe = TextPipeline(RougeConfig(rouge_types=["rouge1"], tokenizer="unicode"))
    text = "İstanbul'da ＡＢＣ Straße ﬁne naïve e\u0301te 北京是首都 नमस्ते दुनिया Привет"
    spans = pipe.token_spans(text)
    assert spans is not None
    assert [text[a:b] for a, b in spans] == ["İstanbul", "da", "ＡＢＣ", "Straße", "ﬁne", "naïve", "e\u0301te", "北",
                                             "京", "是", "首", "都", "नमस्ते", "दुनिया", "Привет"]


def test_sentence_spans_locate_every_sentence():
    for split in ("newline", "offline"):
        pipe = TextPipeline(RougeConfig(rouge_types=["rougeLsum"], sentence_splitter=split, use_stemmer=True))
        text = "The cats sat. Dr. Smith ran home!\nRunning dogs, happily."
        located = pipe.sentence_spans(text)
        toks, sents = pipe.process(text)
        assert [len(sp) for _, sp in located] == [len(s) for s in sents]
        for ((a, b), sp), sent in zip(located, sents):
            assert all(a <= x < y <= b for x, y in sp)
            assert [pipe.tokenize(text[x:y])[0] for x, y in sp] == sent


@settings(max_examples=40, deadline=None)
@given(pred=unicode_texts(max_words=25), refs=st.lists(unicode_texts(max_words=25), min_size=1, max_size=2),
       tok=st.sampled_from(["default", "unicode", "perl"]), stem=st.booleans())
def test_html_highlights_the_users_words_at_the_explained_positions(pred, refs, tok, stem):
    """The same structural check as above, on the original texts: every mark sits at a position the
    explanation names and shows the characters that token came from; tokens=True shows the tokens."""
    ex = explain(prediction=pred, references=refs, rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"],
                 tokenizer=tok, use_stemmer=stem)
    assert ex.cross_checked, ex.failed_checks()
    for original in (True, False):
        page = ex.to_html(tokens=not original)
        p = _Marks()
        p.feed(page)
        show = original and ex.has_spans
        assert f'data-shown="{"text" if show else "tokens"}"' in page
        for t in ("rouge1", "rouge2", "rougeL"):
            want = []
            for ref in ex.references:
                te = ref.types[t]
                for side, positions, text, spans, toks in (
                        ("pred", te.pred_positions, ex.prediction, ex.pred_spans, ex.pred_tokens),
                        ("ref", te.ref_positions, ref.reference, ref.spans, ref.tokens)):
                    want += [(side, i, "rm-hit", text[spans[i][0]:spans[i][1]] if show else toks[i])
                             for i in positions]
            assert p.marks[t] == want, t
        marks = p.marks["rougeLsum"]
        want = []
        for ref in ex.references:
            te = ref.types["rougeLsum"]
            for k, pm in enumerate(te.pred_sentence_marks):
                want += [("pred", i, "rm-hit", pred[slice(*ex.pred_sentence_spans[k][i])] if show
                          else ex.pred_sentences[k][i]) for i in pm]
            for s in te.sentences:
                want += [("ref", i, "rm-hit" if i in s.hits else "rm-clipped",
                          ref.reference[slice(*ref.sentence_spans[s.index][i])] if show else s.tokens[i])
                         for i in s.marked]
        assert marks == want


def test_terminal_shows_the_original_text_and_tokens_on_demand():
    ex = explain(prediction="The company reported\nhundreds of new engines.",
                 references=["The companies report hundreds of engines."], rouge_types=["rouge1", "rougeL"],
                 use_stemmer=True)
    text = ex.format(color=False)
    assert "prediction: The company reported ⏎ hundreds of new engines." in text
    assert "pred: [The] [company] [reported] ⏎ [hundreds] [of] new [engines]." in text
    assert "LCS (6): The companies report hundreds of engines" in text and "hundr " not in text
    assert "(the normalized tokens: --tokens)" in text
    toks = ex.format(color=False, tokens=True)
    assert "prediction: the compani report hundr of new engin" in toks and "⏎" not in toks
    assert toks.splitlines()[2] == text.splitlines()[2]  # the same scores and counts
    d = json.loads(json.dumps(ex.to_dict()))
    assert d["pred_spans"][1] == [4, 11] and d["references"][0]["spans"][1] == [4, 13]


def test_custom_tokenizer_falls_back_to_tokens_and_says_so():
    ex = explain(prediction="A b", references=["a c"], rouge_types=["rouge1"], tokenizer=str.split)
    assert not ex.has_spans and ex.pred_spans is None and "custom tokenizer gives no character spans" in ex.spans_note
    text = ex.format(color=False)
    assert "pred: A b" in text and "shown: the tokens as the scorer sees them" in text
    assert "custom tokenizer gives no character spans" in text
    page = ex.to_html()
    assert 'data-shown="tokens"' in page and "custom tokenizer gives no character spans" in page
    assert ex.cross_checked


def test_cli_explain_tokens_flag(capsys):
    argv = ["explain", "--prediction", "The Cats sat", "--reference", "the cat", "--use-stemmer", "--rouge-types",
            "rouge1", "--color", "never"]
    assert cli.main(argv) == 0
    assert "pred: [The] [Cats] sat" in capsys.readouterr().out
    assert cli.main(argv + ["--tokens"]) == 0
    assert "pred: [the] [cat] sat" in capsys.readouterr().out


# -------------------------------------------------------------------------------------------- the package
def test_public_names_and_one_span_type():
    """Every public name of the explain package is importable from ``rouge_metric.explain``; the span type
    is the text layer's; the records render through the package's two renderers."""
    import rouge_metric.explain as pkg
    from rouge_metric import text
    from rouge_metric.explain import render_html, render_text

    for name in ("Check", "Explanation", "ReferenceExplanation", "SentenceHits", "Span", "TYPE_COLORS",
                 "TypeExplanation", "UnitMatch", "cross_check", "combined_checks", "explain", "type_color",
                 "explanation_html", "format_text", "CSS"):
        assert name in pkg.__all__ and getattr(pkg, name) is not None, name
    assert pkg.Span is text.Span
    ex = explain(prediction="the cat sat", references="the cat", rouge_types=["rouge1"])
    assert ex.to_html(tokens=True) == render_html.explanation_html(ex, tokens=True)
    assert ex.format(color=True) == render_text.format_text(ex, color=True) and str(ex) == render_text.format_text(ex)
