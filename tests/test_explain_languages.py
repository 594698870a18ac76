"""Explanations of Thai, Chinese, Japanese, Bengali and Burmese text: every highlighted span is the user's
own characters that gave its token, through the word segmenters (``tokenizer="jieba"`` ...) and through
XL-Sum's pipeline (lowercase, cleaner, segmenter, stemmer); tokens that cannot be mapped back exactly are
shown unhighlighted and the display says so; the scores are the scorer's, exactly; user text is escaped.

Oracle of the spans: the pipeline's own steps applied to the span alone (lowercase for the segmenters;
XL-Sum's cleaner, then its stemmer, for the recipe). Needs the ``multilingual`` extra (skips without).
"""

import html
import os
import re
import unicodedata
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeConfig
from rouge_metric.explain import explain
from rouge_metric.text import TextPipeline

for _package in ("jieba", "pythainlp", "fugashi", "pyonmttok"):
    pytest.importorskip(_package, reason="the segmenters are in the 'multilingual' extra")

from rouge_metric import segment, xlsum  # noqa: E402
from rouge_metric.xlsum import XLSumRouge, clean_piece, clean_words  # noqa: E402

WORDS = {
    "thai": ["ภาษาไทย", "ง่าย", "นิดเดียว", "ประเทศไทย", "กรุงเทพมหานคร", "สวัสดีครับ", "๑๒๓", "การศึกษา", "ผม",
             "ชอบ", "กินข้าว"],
    "chinese": ["今天", "北京", "天气", "很好", "中华人民共和国", "經濟", "发展", "我们", "２０２１年", "研究生命", "𠀀"],
    "japanese": ["東京", "タワー", "に", "行きました", "ひらがな", "カタカナ", "日本語", "ｶﾀｶﾅ", "勉強しています", "ー"],
    "bengali": ["বাংলাদেশের", "রাজধানী", "ঢাকা", "আমি", "বাংলায়", "গান", "গাই", "সরকার", "২০২১", "মানুষেরা"],
    "burmese": ["မြန်မာ", "နိုင်ငံ", "ရန်ကုန်", "စာ", "ကျောင်း", "သတင်း", "၁၂၃", "ဗုဒ္ဓ", "ကို့်"],
    "hindi": ["लड़कियों", "खाना", "भारत", "नमस्ते", "दुनिया", "जाएंगे"],
}
LATIN = ["Hello", "WORLD", "İstanbul", "ΟΔΟΣ", "naïve", "ﬁne", "3.14", "e-mail", "Straße", "<b>", "&amp;"]
SEPARATORS = [" ", " ", "", "\n", ", ", "。", "、", "! ", " - ", "\t", "\u00a0", "\u3000", "\u200b", "\u200c", "\x00",
              "\ufffd", "«", "»", "(", ")", "...", "।", "\r\n", "$", "`"]
SEGMENTER_OF = {"thai": "thai_newmm", "chinese": "jieba", "japanese": "fugashi", "burmese": "burmese_syllables"}


@st.composite
def script_texts(draw, lang, max_words=20):
    out = []
    for _ in range(draw(st.integers(0, max_words))):
        out.append(draw(st.sampled_from(WORDS[lang] + LATIN if draw(st.integers(0, 5)) == 0 else WORDS[lang])))
        out.append(draw(st.sampled_from(SEPARATORS)))
    if draw(st.integers(0, 9)) == 0:
        out.append(draw(st.text(max_size=8)))
    return "".join(out)


def _increasing(spans):
    placed = [sp for sp in spans if sp is not None]
    return all(0 <= a < b for a, b in placed) and all(b <= a2 for (_, b), (a2, _) in zip(placed, placed[1:]))


# ------------------------------------------------------------------------------------ the segmenters
@settings(max_examples=60, deadline=None)
@given(data=st.data(), lang=st.sampled_from(sorted(SEGMENTER_OF)))
def test_segmenter_spans_are_the_users_characters(data, lang):
    """tokenizer="jieba" / "fugashi" / "thai_newmm" / "burmese_syllables": one span per scored token, in
    order; each span's text, lowercased, is its token. jieba, newmm and MeCab return pieces of the text,
    so each of their tokens has its span."""
    text = data.draw(script_texts(lang))
    pipe = TextPipeline(RougeConfig(rouge_types=["rouge1"], tokenizer=SEGMENTER_OF[lang]))
    tokens = pipe.tokenize(text)
    spans = pipe.token_spans(text)
    assert spans is not None and len(spans) == len(tokens) and _increasing(spans)
    for sp, tok in zip(spans, tokens):
        if sp is not None:
            assert text[sp[0]:sp[1]].lower() == tok, (text[sp[0]:sp[1]], tok)
    if lang != "burmese":
        assert None not in spans, [t for t, sp in zip(tokens, spans) if sp is None]


def test_burmese_reordered_syllable_has_no_span():
    """The syllable segmenter writes dot below + asat as asat + dot below: that syllable is not in the
    text as written, so it has no span; its neighbours keep theirs."""
    text = "မြန်မာ စာ ကို\u1037\u103a"
    syllable = segment.burmese_syllables(text)[-1]
    assert syllable == "ကို\u103a\u1037" and syllable not in text
    assert segment.token_spans("burmese_syllables", text) == [("မြန်", 0, 4), ("မာ", 4, 6), ("စာ", 7, 9),
                                                              (syllable, None, None)]


def test_align_places_tokens_in_order_and_skips_what_is_not_there():
    assert segment.align(["a", "b", "a"], "a b a") == [(0, 1), (2, 3), (4, 5)]
    assert segment.align(["xy", "b"], "ab b") == [None, (1, 2)]  # b after one pending character
    assert segment.align(["x", "b"], "aaab") == [None, None]  # too far: not guessed
    assert segment.align(["", "a"], "a") == [None, (0, 1)]


# --------------------------------------------------------------------------------- the XL-Sum pipeline
def _xlsum_oracle(tok, piece):
    """XL-Sum's steps on a span alone: cleaner (one space for separators), then the stemmer."""
    cleaned = clean_piece(piece)
    if tok.stem is not None and len(cleaned) > tok.min_char_length:
        return tok.stem(cleaned)
    return cleaned


@settings(max_examples=80, deadline=None)
@given(data=st.data(), lang=st.sampled_from(["thai", "chinese", "japanese", "bengali", "burmese", "hindi"]),
       stem=st.booleans())
def test_xlsum_spans_processed_are_their_tokens(data, lang, stem):
    """Through lowercase, the cleaner, the segmenter (or pyonmttok) and the stemmer (Hindi's, which needs
    no data): one span per token, in order, and every span's text processed alone is its token; the
    rougeLsum lines likewise. Where every character lowercases to one, and the same alone as in the text
    (Greek final sigma does not), every token has its span (Burmese aside: its segmenter reorders)."""
    text = data.draw(script_texts(lang))
    scorer = XLSumRouge(["rouge1", "rougeLsum"], use_stemmer=stem and lang == "hindi", lang=lang)
    tok = scorer.tokenizer
    pipe = scorer.rouge.pipeline
    tokens, sents = pipe.process(text)
    spans = pipe.token_spans(text)
    assert spans is not None and len(spans) == len(tokens) and _increasing(spans)
    for sp, t in zip(spans, tokens):
        if sp is not None:
            assert _xlsum_oracle(tok, text[sp[0]:sp[1]]) == t, (text[sp[0]:sp[1]], t)
    # Greek capital sigma lowercases by its neighbours: a span that ends at it can lowercase alone to another
    # token than in its text (final "ς" against "σ"), and is then left without a span
    context_free = "\u03a3" not in text
    if (lang != "burmese" and context_free and "".join(c.lower() for c in text) == text.lower()
            and all(len(c.lower()) == 1 for c in text)):
        assert None not in spans, [t for t, sp in zip(tokens, spans) if sp is None]
    located = pipe.sentence_spans(text)
    assert located is not None and [len(x) for _, x in located] == [len(s) for s in sents]
    for ((a, b), line_spans), sent in zip(located, sents):
        for sp, t in zip(line_spans, sent):
            assert sp is not None or not context_free
            if sp is not None:
                assert a <= sp[0] < sp[1] <= b
                assert _xlsum_oracle(tok, text[sp[0]:sp[1]]) == t


def test_xlsum_maps_spans_back_through_lowercase_and_the_cleaner():
    tok = XLSumRouge(["rouge1"], lang="chinese").tokenizer
    text = "北京是中国的首都, Hel\x00lo WORLD!"
    got = [(t, text[a:b]) for t, a, b in tok.token_spans(text)]
    assert got == [("北京", "北京"), ("是", "是"), ("中国", "中国"), ("的", "的"), ("首都", "首都"), (" ", ", "),
                   ("hello", "Hel\x00lo"), (" ", " "), ("world", "WORLD")]
    assert xlsum.cleaned_sources("İ Σ") == ("i̇ σ", [0, 0, None, 2])
    # one character lowercased to two, split by the segmenter: neither half has a span of its own
    cleaned, sources = xlsum.cleaned_sources("İx")
    assert xlsum.source_span("İx", "i", (0, 1), cleaned, sources) == (None, None)
    assert xlsum.source_span("İx", "i̇x", (0, 3), cleaned, sources) == (0, 2)


# ----------------------------------------------------------------------------------- the explanations
class _Marks(HTMLParser):
    """(type, side, position, text) of every highlighted token of the fragment."""

    def __init__(self):
        super().__init__()
        self.type, self.open, self.marks = None, None, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "data-type" in a and "rm-type" in (a.get("class") or ""):
            self.type = a["data-type"]
        if tag == "mark" and "rm-hit" in a.get("class", ""):
            self.open = [self.type, a["data-side"], int(a["data-pos"]), ""]

    def handle_data(self, data):
        if self.open is not None:
            self.open[3] += data

    def handle_endtag(self, tag):
        if tag == "mark" and self.open is not None:
            self.marks.append(tuple(self.open))
            self.open = None


CASES = {  # language: (prediction, reference); Bengali needs no stemming here (the rules file is not shipped)
    "thai": ("ผมชอบกินข้าวผัดมาก วันนี้", "ผมชอบกินข้าว วันนี้"),
    "chinese": ("北京是中国的首都，也是一座历史名城。", "北京是首都，历史很长。"),
    "japanese": ("東京は日本の首都です。タワーに行きました。", "東京タワーに行きました。"),
    "bengali": ("বাংলাদেশের রাজধানী ঢাকা। আমি বাংলায় গান গাই।", "ঢাকা বাংলাদেশের রাজধানী, আমি গান গাই।"),
}
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _scorers(lang):
    """The two ways to score a language: its segmenter (Bengali: the unicode tokenizer) in the core
    recipe, and XL-Sum's recipe."""
    tokenizer = xlsum.SEGMENTERS.get(lang, "unicode")
    return {"words": Rouge(TYPES, tokenizer=tokenizer), "xlsum": XLSumRouge(TYPES, lang=lang)}


@pytest.mark.parametrize("lang", sorted(CASES))
@pytest.mark.parametrize("recipe", ["words", "xlsum"])
def test_explanation_highlights_the_users_words_with_the_scorers_numbers(lang, recipe):
    pred, ref = CASES[lang]
    scorer = _scorers(lang)[recipe]
    ex = explain(prediction=pred, references=[ref], scorer=scorer)
    assert ex.cross_checked, ex.failed_checks()
    want = scorer.score_multi([ref], pred) if recipe == "xlsum" else scorer.score(prediction=pred, references=[ref])
    assert ex.combined == want  # the same floats
    assert ex.signature == scorer.signature()
    assert ex.has_spans and not ex.unlocated_note and None not in ex.pred_spans
    page = ex.to_html()
    assert 'data-shown="text"' in page
    p = _Marks()
    p.feed(page)
    te = ex.references[0].types
    for t in ("rouge1", "rouge2", "rougeL"):
        got = [m for m in p.marks if m[0] == t]
        want_marks = [(t, "pred", i, pred[slice(*ex.pred_spans[i])]) for i in te[t].pred_positions] + \
                     [(t, "ref", i, ref[slice(*ex.references[0].spans[i])]) for i in te[t].ref_positions]
        assert got == want_marks, t
        assert te[t].hit > 0
    # every highlighted word is the user's text: its characters appear in the original as they are
    for _, side, _, word in p.marks:
        assert word and word in (pred if side == "pred" else ref)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), lang=st.sampled_from(["thai", "chinese", "japanese", "bengali", "burmese"]),
       recipe=st.sampled_from(["words", "xlsum"]))
def test_every_highlight_processed_is_its_token(data, lang, recipe):
    """On the page: every highlighted element's text, processed alone (lowercase for the segmenters, the
    unicode tokenizer's case folding for Bengali, XL-Sum's cleaner for the recipe), is the token at the position it names; and every hit whose token
    has a span is highlighted."""
    pred = data.draw(script_texts(lang, 12))
    ref = data.draw(script_texts(lang, 12))
    scorer = _scorers(lang)[recipe]
    ex = explain(prediction=pred, references=[ref], scorer=scorer)
    assert ex.cross_checked, ex.failed_checks()
    if recipe == "xlsum":
        process = clean_piece
    elif xlsum.SEGMENTERS.get(lang) is None:  # the unicode tokenizer: NFKC(casefold(NFKC(text)))
        process = lambda piece: unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", piece).casefold())
    else:
        process = str.lower
    p = _Marks()
    p.feed(ex.to_html())
    te = ex.references[0].types
    for t in ("rouge1", "rouge2", "rougeL"):
        got = [m for m in p.marks if m[0] == t]
        for _, side, i, word in got:
            toks = ex.pred_tokens if side == "pred" else ex.references[0].tokens
            assert process(word) == toks[i], (word, toks[i])
        want = [("pred", i) for i in te[t].pred_positions if ex.pred_spans[i] is not None] + \
               [("ref", i) for i in te[t].ref_positions if ex.references[0].spans[i] is not None]
        assert [m[1:3] for m in got] == want, t


def test_xlsum_space_tokens_are_the_separators_between_words():
    """XL-Sum scores the space jieba returns between two words; its highlight is the separators of the
    user's text there, and the matched unit is shown as ␣."""
    pred, ref = "北京, 上海", "北京 上海"
    ex = explain(prediction=pred, references=[ref], scorer=XLSumRouge(["rouge1"], lang="chinese"))
    te = ex.references[0].types["rouge1"]
    assert [m.unit for m in te.matches] == [("北京",), (" ",), ("上海",)]
    assert [pred[slice(*ex.pred_spans[i])] for i in te.pred_positions] == ["北京", ", ", "上海"]
    assert "matched (clipped counts): 北京 x1, ␣ x1, 上海 x1" in ex.format()


@pytest.mark.parametrize("recipe", ["words", "xlsum"])
def test_a_token_without_a_span_is_not_highlighted_and_the_page_says_so(recipe):
    pred, ref = "မြန်မာ စာ ကို\u1037\u103a", "မြန်မာ ကို\u1037\u103a စာ"
    syllable = "ကို\u103a\u1037"  # the segmenter's order
    scorer = {"words": Rouge(TYPES, tokenizer="burmese_syllables"), "xlsum": XLSumRouge(TYPES, lang="burmese")}[recipe]
    ex = explain(prediction=pred, references=[ref], scorer=scorer)
    assert ex.has_spans and ex.pred_spans[3] is None and ex.references[0].spans[2] is None
    assert ex.unlocated_note == ("tokens that could not be mapped back to your text exactly are not highlighted: "
                                 f"prediction: 1 ('{syllable}'); reference 1: 1 ('{syllable}')")
    te = ex.references[0].types["rouge1"]
    assert 3 in te.pred_positions  # it is a hit ...
    page = ex.to_html()
    p = _Marks()
    p.feed(page)
    assert ("rouge1", "pred", 3) not in [m[:3] for m in p.marks]  # ... shown unhighlighted
    assert [m[3] for m in p.marks if m[:2] == ("rouge1", "pred")] == ["မြန်", "မာ", "စာ"]
    assert page.count("could not be mapped back to your text exactly are not highlighted") == 1  # said once
    assert page.index('class="rm-status rm-warn rm-unlocated"') < page.index('class="rm-ref"')  # before the texts
    assert pred in re.sub(r"<[^>]+>", "", page)  # the user's text is still there in full
    text = ex.format(color=False)
    assert "pred: [မြန်][မာ] [စာ] ကို\u1037\u103a\n" in text and "not highlighted: prediction: 1" in text
    assert ex.combined == scorer.score(prediction=pred, references=[ref]) if recipe == "words" else \
        ex.combined == scorer.score_multi([ref], pred)


HOSTILE = '<script>alert(1)</script> "><img src=x onerror=alert(1)> &amp; '


@pytest.mark.parametrize("lang", sorted(CASES))
@pytest.mark.parametrize("recipe", ["words", "xlsum"])
def test_hostile_text_stays_escaped_in_every_language(lang, recipe):
    pred, ref = CASES[lang]
    ex = explain(prediction=HOSTILE + pred, references=[ref + HOSTILE], scorer=_scorers(lang)[recipe])
    for tokens in (False, True):
        page = ex.to_html(tokens=tokens)
        low = page.lower()
        assert "<script" not in low and "</script" not in low and "<img" not in low, page
        shown = html.unescape(re.sub(r"<[^>]+>", "", page))  # what a browser shows
        if not tokens:  # the user's texts, as typed ("&amp;" too)
            assert HOSTILE + pred in shown and ref + HOSTILE in shown


def test_explain_scorer_refuses_other_settings():
    scorer = XLSumRouge(["rouge1"], lang="thai")
    with pytest.raises(ValueError, match="scorer: explain\\(scorer=...\\) uses the scorer's own settings; leave out "
                                         "tokenizer"):
        explain(prediction="a", references=["a"], scorer=scorer, tokenizer="jieba")
    with pytest.raises(TypeError, match="scorer: expected a Rouge or a recipe"):
        explain(prediction="a", references=["a"], scorer=object())


@pytest.mark.skipif(not os.path.isfile(os.environ.get(xlsum.BENGALI_RULES_ENV) or ""),
                    reason="Bengali stemming needs common.rules ($ROUGE_METRIC_BENGALI_RULES); not shipped")
def test_bengali_stemmed_tokens_highlight_whole_words():
    """With XL-Sum's Bengali stemmer each stemmed token's span is the whole word it came from."""
    pred, ref = CASES["bengali"]
    scorer = XLSumRouge(TYPES, use_stemmer=True, lang="bengali")
    ex = explain(prediction=pred, references=[ref], scorer=scorer)
    assert ex.combined == scorer.score_multi([ref], pred) and ex.cross_checked and not ex.unlocated_note
    tok = scorer.tokenizer
    stemmed = 0
    for t, sp in zip(ex.pred_tokens, ex.pred_spans):
        word = pred[slice(*sp)]
        assert _xlsum_oracle(tok, word) == t and clean_words(word.lower()) == [word.lower()]
        stemmed += t != word.lower()
    assert stemmed > 0  # some word was stemmed and still highlights whole
