"""tokenizer="unicode", Snowball stemmers and stopword lists (rouge_metric.multilingual)."""

import gzip
import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, RougeConfig
from rouge_metric.config import STEMMERS
from rouge_metric.multilingual import (
    SNOWBALL_LANGUAGES,
    load_stopwords,
    normalize_unicode,
    stopwords_digest,
    unicode_tokenize,
)

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

MULTILINGUAL = {
    "zh": ("今天北京的天气很好，我们去公园散步。", "今天北京天气不错，我们去公园。"),
    "ru": ("Кошка сидела на ковре и смотрела в окно.", "Кошка сидела на ковре."),
    "ar": ("ذهب الولد إلى المدرسة في الصباح الباكر", "ذهب الولد إلى المدرسة"),
    "hi": ("बिल्ली चटाई पर बैठी थी और खिड़की से देख रही थी", "बिल्ली चटाई पर बैठी थी"),
    "ja": ("猫はマットの上に座っていました。", "猫はマットに座った。"),
    "th": ("แมวนั่งอยู่บนเสื่อ", "แมวนั่งบนเสื่อ"),
}


# ------------------------------------------------------------------------------- the tokenizer
@pytest.mark.parametrize("lang", sorted(MULTILINGUAL))
def test_non_latin_text_scores_above_zero_with_the_unicode_tokenizer(lang):
    pred, ref = MULTILINGUAL[lang]
    oracle = rouge_scorer.RougeScorer(["rouge1"]).score(ref, pred)["rouge1"]
    assert oracle.fmeasure == 0.0  # rouge-score's ASCII tokenizer sees no tokens
    ours = Rouge(["rouge1", "rougeL"], tokenizer="unicode").score(prediction=pred, references=ref)
    assert 0.0 < ours["rouge1"].fmeasure < 1.0
    same = Rouge(["rouge1", "rouge2", "rougeL"], tokenizer="unicode").score(prediction=pred, references=pred)
    assert all(s.fmeasure == 1.0 for s in same.values())


def test_unicode_rouge1_equals_rouge_score_on_the_same_tokens():
    # The kernels are the same; only the tokenizer changes: feed rouge-score our tokens as a custom tokenizer.
    class Tok:
        def tokenize(self, text):
            return unicode_tokenize(text)

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=Tok())
    ours = Rouge(["rouge1", "rouge2", "rougeL"], tokenizer="unicode")
    for pred, ref in MULTILINGUAL.values():
        want = scorer.score(ref, pred)
        got = ours.score(prediction=pred, references=ref)
        for t in want:
            assert tuple(got[t]) == pytest.approx(tuple(want[t]), abs=0, rel=0) or tuple(got[t]) == tuple(want[t])


def test_combining_marks_stay_in_their_token():
    # Devanagari vowel signs (Mc/Mn) and virama (Mn) are not \w in Python's re: they must not split words.
    toks = unicode_tokenize("नमस्ते दुनिया किताबें")
    assert toks == ["नमस्ते", "दुनिया", "किताबें"]
    for t in toks:
        assert any(unicodedata.category(c).startswith("M") for c in t)
    # decomposed accents are composed by NFKC, so both spellings give one identical token
    assert unicode_tokenize("cafe\u0301") == unicode_tokenize("café") == ["café"]
    # a mark with no base letter is kept as its own token rather than silently dropped
    assert unicode_tokenize("a \u0301 b") == ["a", "\u0301", "b"]


def test_scripts_without_spaces_are_per_character_with_marks():
    assert unicode_tokenize("我爱北京") == ["我", "爱", "北", "京"]
    assert unicode_tokenize("ひらがなカタカナ") == list("ひらがなカタカナ")
    assert unicode_tokenize("ｶﾀｶﾅ") == list("カタカナ")  # half-width katakana -> NFKC full width
    # Thai: SARA I (U+0E34, Mn) stays with its consonant
    assert unicode_tokenize("กิน") == ["กิ", "น"]
    # Korean is written with spaces: words, not syllables
    assert unicode_tokenize("한국어 텍스트") == ["한국어", "텍스트"]
    # Latin next to Han: separate tokens
    assert unicode_tokenize("GPT模型") == ["gpt", "模", "型"]


def test_normalization_and_case_folding():
    assert unicode_tokenize("ＡＢＣ １２３") == ["abc", "123"]
    assert unicode_tokenize("Straße STRASSE") == ["strasse", "strasse"]
    assert unicode_tokenize("ΣΊΣΥΦΟΣ σίσυφος") == unicode_tokenize("σίσυφοσ σίσυφοσ")
    assert unicode_tokenize("snake_case, x-y; 3.14") == ["snake", "case", "x", "y", "3", "14"]
    assert normalize_unicode("ﬁ") == "fi"


_ALPHABET = (
    "abcXYZ019 .,;!?-_'\"\t\n" "éüßİ" "\u0301\u0308" "абвГД" "αβΓ" "مرحبا" "שלום" "नमस्तेदुनिया०१"
    "我爱北京天。" "ひらがなカタカナー" "กินข้าว" "ລາວ" "ខ្មែរ" "မြန်မာ" "한국어" "ＡＢ１２"
)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=40))
def test_tokenizer_matches_an_independent_script_property_oracle(text):
    regex = pytest.importorskip("regex")
    nospace = "".join(rf"\p{{scx={x}}}" for x in
                      ("Han", "Hiragana", "Katakana", "Bopomofo", "Thai", "Lao", "Khmer", "Myanmar", "Yi"))
    # letters of no-space scripts one by one (with their marks); other letters/numbers/marks in runs
    oracle = regex.compile(rf"(?:(?=[{nospace}])\p{{L}})\p{{M}}*|(?:(?![{nospace}])[\p{{L}}\p{{N}}]|\p{{M}})+")
    norm = normalize_unicode(text)
    assert unicode_tokenize(text) == oracle.findall(norm)


def test_signature_names_the_unicode_version():
    sig = Rouge(["rouge1"], tokenizer="unicode").signature()
    assert f"tok:unicode(ucd={unicodedata.unidata_version})" in sig


# ------------------------------------------------------------------------------------ stemming
def test_snowball_names_are_validated_against_nltk():
    from nltk.stem.snowball import SnowballStemmer

    assert set(SNOWBALL_LANGUAGES) == set(SnowballStemmer.languages) - {"porter"}
    assert {s for s in STEMMERS if s.startswith("snowball:")} == {"snowball:" + x for x in SNOWBALL_LANGUAGES}
    with pytest.raises(ValueError, match=r"use_stemmer: unknown stemmer 'snowball:klingon'.*'snowball:spanish'"):
        RougeConfig(use_stemmer="snowball:klingon")


@pytest.mark.parametrize("lang,pred,ref", [
    ("spanish", "Los gatos corrían rápidamente", "el gato corre rápido"),
    ("russian", "Кошки сидели на коврах", "кошка сидит на ковре"),
    ("german", "Die Häuser wurden gebaut", "das Haus baut"),
])
def test_snowball_stemming_matches_nltk(lang, pred, ref):
    from nltk.stem.snowball import SnowballStemmer

    stem = SnowballStemmer(lang).stem
    r = Rouge(["rouge1"], tokenizer="unicode", use_stemmer="snowball:" + lang)
    pt, _ = r.process(pred)
    assert pt == [stem(t) for t in unicode_tokenize(pred)]
    # the stemmed score is the rouge1 of the stemmed token lists, computed by rouge-score's arithmetic
    class Tok:
        def tokenize(self, text):
            return [stem(t) for t in unicode_tokenize(text)]

    want = rouge_scorer.RougeScorer(["rouge1"], tokenizer=Tok()).score(ref, pred)["rouge1"]
    assert tuple(r.score(prediction=pred, references=ref)["rouge1"]) == tuple(want)
    plain = Rouge(["rouge1"], tokenizer="unicode").score(prediction=pred, references=ref)["rouge1"]
    assert want.fmeasure > plain.fmeasure
    assert f"stem:snowball:{lang}" in r.signature()


def test_porter_keeps_non_ascii_tokens_of_the_unicode_tokenizer():
    r = Rouge(["rouge1"], tokenizer="unicode", use_stemmer=True)
    toks, _ = r.process("running привет")
    assert toks == ["run", "привет"]


# ----------------------------------------------------------------------------------- stopwords
def test_stopwords_from_list_and_file(tmp_path):
    path = tmp_path / "stop.txt"
    path.write_text("the\n a \n\nof\n", encoding="utf-8")
    assert load_stopwords(str(path)) == ("a", "of", "the")
    assert load_stopwords(["the", "of", "the"]) == ("of", "the")
    c1 = RougeConfig(stopwords=str(path))
    c2 = RougeConfig(stopwords=["a", "of", "the"])
    assert c1.stopwords == c2.stopwords == ("a", "of", "the")
    assert c1.signature() == c2.signature()
    assert "stop:" + stopwords_digest(("a", "of", "the")) in c1.signature()
    assert "|stop:" not in RougeConfig().signature()
    assert RougeConfig(stopwords=["of"]).signature() != c1.signature()


def test_stopword_errors_name_the_argument(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"stopwords: cannot read the stopword file"):
        RougeConfig(stopwords=str(tmp_path / "missing.txt"))
    with pytest.raises(TypeError, match=r"stopwords\[1\]: expected str, got int"):
        RougeConfig(stopwords=["a", 3])
    with pytest.raises(ValueError, match=r"stopwords\[0\]: expected a non-empty word"):
        RougeConfig(stopwords=[" a"])
    with pytest.raises(TypeError, match=r"stopwords: expected a file path or an iterable of words, got int"):
        RougeConfig(stopwords=5)


def test_stopwords_are_removed_before_ngrams_are_built():
    # Oracle: rouge-score on the texts with the stopwords deleted by hand (so bigrams bridge them).
    stop = ["the", "of", "a"]
    pred = "The cat of the house sat on a mat"
    ref = "A cat house sat on the mat"
    strip = lambda s: " ".join(w for w in s.split() if w.lower() not in stop)  # noqa: E731
    want = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"]).score(strip(ref), strip(pred))
    got = Rouge(["rouge1", "rouge2", "rougeL"], stopwords=stop).score(prediction=pred, references=ref)
    for t in want:
        assert tuple(got[t]) == tuple(want[t])
    # entries are matched as the tokenizer sees them: "The" removes the token "the"
    got2 = Rouge(["rouge1"], stopwords=["The", "OF", "A"]).score(prediction=pred, references=ref)
    assert tuple(got2["rouge1"]) == tuple(want["rouge1"])


def test_stopwords_with_the_unicode_tokenizer_and_stemmer():
    r = Rouge(["rouge1"], tokenizer="unicode", use_stemmer="snowball:spanish", stopwords=["los", "el", "Las"])
    toks, _ = r.process("Los gatos y las casas")
    from nltk.stem.snowball import SnowballStemmer

    stem = SnowballStemmer("spanish").stem
    assert toks == [stem("gatos"), stem("y"), stem("casas")]


# ------------------------------------------------------------------------------ real corpora
@pytest.mark.parametrize("corpus,min_tokens", [
    ("longbench_vcsum_zh", 50), ("mlsum_es", 5), ("de_cnndm_t5", 5),
])
def test_identical_texts_score_one_on_real_corpora(shared_dir, corpus, min_tokens):
    path = shared_dir / "corpora" / f"{corpus}.jsonl.gz"
    if not path.exists():
        pytest.skip(f"{path} missing")
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i >= 40:
                break
            rows.append(json.loads(line))
    refs = [r["references"][0] for r in rows]
    rouge = Rouge(["rouge1", "rouge2", "rougeL", "rougeLsum"], tokenizer="unicode")
    res = rouge.compute(predictions=refs, references=refs)
    assert all(s.fmeasure == 1.0 for s in res.scores.values())
    assert res.ref_len >= min_tokens
    # the real pairs score above 0 (rouge-score's tokenizer gives ~0 on the Chinese references)
    if corpus == "longbench_vcsum_zh":
        # rouge-score's tokenizer sees no token at all in most Chinese references: identical texts score 0
        oracle = rouge_scorer.RougeScorer(["rouge1"])
        zeros = sum(oracle.score(r, r)["rouge1"].fmeasure == 0.0 for r in refs)
        assert zeros >= len(refs) // 2
    else:
        preds = [r["prediction"] for r in rows]
        real = rouge.compute(predictions=preds, references=refs).scores["rouge1"].fmeasure
        assert 0.05 < real < 1.0
