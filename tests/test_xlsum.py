"""The XL-Sum recipe against XL-Sum's own scorer (PyPI ``multilingual-rouge`` 0.0.1), float for float.

The oracle and the segmenters come from the ``multilingual-tests`` extra (tools/xlsum_oracle_env.sh builds
it). Japanese is segmented with unidic-lite on both sides. Snowball stemming with ``ignore_stopwords`` needs
nltk's stopwords corpus (``../shared/nltk_data`` here). The Bengali stemmer needs ``common.rules``
(``$ROUGE_METRIC_BENGALI_RULES``); the oracle's wheel lacks the file, so its stemmer is given the same one.

One file over 400 lines: every test here shares the oracle, its cached scorers and the per-script text
strategies, and compares the same recipe.
"""

from __future__ import annotations

import os
import pickle
import warnings
from pathlib import Path
from typing import Any, Dict, List, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpora import SHARED_CORPORA, corpus_available, load_corpus

NLTK_DATA = Path(__file__).resolve().parents[2] / "shared" / "nltk_data"

pytest.importorskip("pyonmttok", reason="the XL-Sum recipe needs pyonmttok (extra 'multilingual')")
oracle_scorer = pytest.importorskip(
    "multilingual_rouge.rouge_scorer", reason="XL-Sum's scorer (pip install multilingual-rouge==0.0.1) is not installed")
import multilingual_rouge.stemmers as oracle_stemmers  # noqa: E402
import multilingual_rouge.tokenizers as oracle_tokenizers  # noqa: E402

from rouge_metric import segment, xlsum  # noqa: E402
from rouge_metric.xlsum import XLSumRouge  # noqa: E402

if NLTK_DATA.is_dir():
    import nltk

    if str(NLTK_DATA) not in nltk.data.path:
        nltk.data.path.insert(0, str(NLTK_DATA))


def _has_stopwords() -> bool:
    try:
        from nltk.corpus import stopwords

        stopwords.words("english")
        return True
    except LookupError:
        return False


HAS_STOPWORDS = _has_stopwords()
BENGALI_RULES = os.environ.get(xlsum.BENGALI_RULES_ENV)
HAS_RULES = bool(BENGALI_RULES) and os.path.isfile(BENGALI_RULES or "")
TYPES = ["rouge1", "rouge2", "rouge3", "rouge9", "rougeL", "rougeLsum"]

needs_stopwords = pytest.mark.skipif(not HAS_STOPWORDS, reason="nltk's stopwords corpus is not installed "
                                     "(Snowball with ignore_stopwords=True needs it; ../shared/nltk_data has a copy)")
needs_rules = pytest.mark.skipif(not HAS_RULES, reason="no common.rules: set $ROUGE_METRIC_BENGALI_RULES to "
                                 "bengali-stemmer's rules file")


def _module_available(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


SEGMENTER_PACKAGES = {"chinese": "jieba", "japanese": "fugashi", "thai": "pythainlp"}


def _skip_without(lang: str, stem: bool) -> None:
    package = SEGMENTER_PACKAGES.get(xlsum.canonical_language(lang) or "")
    if package and not _module_available(package):
        pytest.skip(f"lang={lang!r} needs {package} (extra 'multilingual')")
    canon = xlsum.canonical_language(lang)
    if stem and (canon is None or canon in xlsum.SNOWBALL_LANGUAGES) and canon != "porter" and canon is not None \
            and not HAS_STOPWORDS:
        pytest.skip("nltk's stopwords corpus is not installed")
    if stem and canon == "bengali" and not HAS_RULES:
        pytest.skip("no common.rules ($ROUGE_METRIC_BENGALI_RULES)")
    if stem and canon == "turkish" and not _module_available("TurkishStemmer"):
        pytest.skip("TurkishStemmer is not installed")


@pytest.fixture(autouse=True, scope="module")
def _oracle_bengali_rules():
    """The oracle's wheel lacks common.rules: its Bengali stemmer reads the same file as ours."""
    if not HAS_RULES:
        yield
        return
    from multilingual_rouge.bengali_stemmer import RafiStemmer

    original = oracle_stemmers.BengaliStemmer.__init__

    def init(self):
        with open(BENGALI_RULES, encoding="utf-8") as f:
            self.stemmer = RafiStemmer(f)

    oracle_stemmers.BengaliStemmer.__init__ = init
    yield
    oracle_stemmers.BengaliStemmer.__init__ = original


_ORACLES: Dict[Any, Any] = {}
_OURS: Dict[Any, Any] = {}


def _history(stem: bool, lang: Any) -> bool:
    """nltk's Arabic stemmer depends on the words it met before: each comparison needs new scorers."""
    return stem and xlsum.canonical_language(lang) == "arabic"


def oracle(types: Sequence[str], stem: bool, lang: Any, **kw: Any):
    key = (tuple(types), stem, lang, tuple(sorted(kw.items())))
    if key not in _ORACLES or _history(stem, lang):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _ORACLES[key] = oracle_scorer.RougeScorer(list(types), use_stemmer=stem, lang=lang, **kw)
    return _ORACLES[key]


def ours(types: Sequence[str], stem: bool, lang: Any, **kw: Any) -> XLSumRouge:
    key = (tuple(types), stem, lang, tuple(sorted(kw.items())))
    if key not in _OURS or _history(stem, lang):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _OURS[key] = XLSumRouge(list(types), use_stemmer=stem, lang=lang, **kw)
    return _OURS[key]


def hexes(score: Any) -> List[str]:
    return [float(x).hex() for x in score]


def oracle_multi(scorer: Any, targets: Sequence[str], prediction: str) -> Dict[str, Any]:
    """Per type, the target with the highest F (first on ties): rouge-score's ``score_multi``, which XL-Sum's
    scorer does not have, applied to its per-target scores."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per = [scorer.score(t, prediction) for t in targets]
    out = {}
    for t in per[0]:
        best = 0
        for i, s in enumerate(per):
            if s[t].fmeasure > per[best][t].fmeasure:
                best = i
        out[t] = per[best][t]
    return out


def oracle_function(scorer: Any, types: Sequence[str], stem: bool, lang: Any, kw: Dict[str, Any]) -> Any:
    """What the oracle's ``score`` computes, read from the scorer it built: the rouge types, its segmenter's
    class (None: no segmenter for the language) and its stemmer (None when it stems nothing: no
    ``use_stemmer``, or a language without a stemmer, whose ``MultiStemmer`` returns every token as it is;
    otherwise the language it resolved, the stemmer's class and the minimum length). Scorers with the same
    key give the same scores for the same texts (the whole corpus with ``lang="mundo"`` and with no language,
    unstemmed, say), so their scores are computed once. None (never shared): an Arabic stemmer, whose stems
    depend on the words it met before, or a callable or option of the caller."""
    if kw or _history(stem, lang):
        return None
    segmenter = scorer._tokenizer.tokenizer
    stemmer = scorer._stemmer
    stems = None if stemmer is None or stemmer.stemmer is None else (
        scorer._tokenizer.lang, type(stemmer.stemmer), stemmer.min_char_length)
    return tuple(types), None if segmenter is None else type(segmenter), stems


_ORACLE_SCORES: Dict[Any, Dict[str, Any]] = {}


def assert_same(types, stem, lang, predictions, references, **kw) -> int:
    """Every example's P/R/F equal to the oracle's (float.hex); returns the number of examples."""
    orc = oracle(types, stem, lang, **kw)
    function = oracle_function(orc, types, stem, lang, kw)
    mine = ours(types, stem, lang, **kw)
    got = mine.score_examples(predictions=predictions, references=references)
    for i, (p, refs) in enumerate(zip(predictions, references)):
        refs = [refs] if isinstance(refs, str) else list(refs)
        if function is None:
            want = oracle_multi(orc, refs, p)
        else:
            key = (function, p, tuple(refs))
            if key not in _ORACLE_SCORES:
                _ORACLE_SCORES[key] = oracle_multi(orc, refs, p)
            want = _ORACLE_SCORES[key]
        for t in types:
            assert hexes(got[i][t]) == hexes(want[t]), (i, t, lang, stem, p[:80], refs[0][:80], got[i][t], want[t])
    return len(predictions)


# ------------------------------------------------------------------------------------------ corpora
CORPORA = {
    "multisummeval_indonesian": "indonesian",  # not an XL-Sum stemmer language: unknown, not stemmed
    "multisummeval_french": "french",
    "multisummeval_turkish": "turkish",
    "multisummeval_russian": "russian",
    "multisummeval_german": "german",
    "multisummeval_spanish": "spanish",
    "multisummeval_chinese": "chinese",
    "lcsts_mocobart_chinese": "chinese_simplified",
    "basse_spanish": "mundo",
    "basse_basque": "basque",
    "wikillm_japanese": "japanese",
    "mlsum_es": "spanish",
    "de_cnndm_t5": "german",
    "longbench_vcsum_zh": "chinese",
}
FAST_ROWS = 8


def _corpus_case(name: str, stem: bool, limit: int) -> None:
    if not corpus_available(name):
        pytest.skip(f"{SHARED_CORPORA}/{name}.jsonl.gz is not present")
    lang = CORPORA[name]
    _skip_without(lang, stem)
    preds, refs = load_corpus(name, limit)
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    n = assert_same(types, stem, lang, preds, refs)
    assert n == len(preds) > 0


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("name", sorted(CORPORA))
def test_corpus_head_matches_xlsum(name, stem):
    _corpus_case(name, stem, FAST_ROWS)


@pytest.mark.integration
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("name", sorted(CORPORA))
def test_whole_corpus_matches_xlsum(name, stem):
    _corpus_case(name, stem, 0)


@pytest.mark.integration
@pytest.mark.parametrize("name", ["multisummeval_french", "basse_spanish", "multisummeval_chinese"])
def test_whole_corpus_without_language_matches_xlsum(name):
    if not corpus_available(name):
        pytest.skip(f"{name} is not present")
    preds, refs = load_corpus(name)
    for stem in (False, True):
        assert_same(["rouge1", "rouge2", "rougeL", "rougeLsum"], stem, None, preds, refs)


# --------------------------------------------------------------------------------- generated text
# Per script: sample words (with the suffixes each stemmer strips) and the script's characters.
BENGALI = ["আমি", "তুমি", "বাংলা", "রহিমদের", "করিমের", "এগুলো", "করেছিলেন", "হয়েছে", "খাচ্ছি", "দেখবেন", "একটি",
           "বলার", "হাসতে", "রহিমরা", "এটাই", "করলেন", "গেয়েছিল", "ছেলেটা", "বইগুলোর", "২০২১", "ঢাকায়"]
HINDI = ["लड़कियों", "खाना", "जाएंगे", "करूंगा", "भारत", "दुनिया", "नमस्ते", "किताबें", "पढ़ाई", "लड़का", "लड़के",
         "बोलकर", "गईं", "जाओगे", "सुनाइए", "२०२१", "मुंबई"]
ARABIC = ["مرحبا", "العالم", "الكتاب", "كتابات", "المدرسة", "يكتبون", "والطلاب", "فارسی", "کتاب‌ها", "اردو",
          "پاکستان", "١٢٣", "۴۵۶", "ہے"]
CYRILLIC = ["привет", "Москва", "книги", "читали", "красивая", "россии", "україна", "їжак", "говорить",
            "прекрасными", "Ёлка", "2021"]
THAI = ["ภาษาไทย", "ง่าย", "นิดเดียว", "ประเทศไทย", "กรุงเทพมหานคร", "สวัสดีครับ", "๑๒๓", "การศึกษา"]
MYANMAR = ["မြန်မာ", "နိုင်ငံ", "ရန်ကုန်", "စာ", "ကျောင်း", "သတင်း", "၁၂၃", "ဗုဒ္ဓ", "သင်္ချိုင်း", "ပြည်ထောင်စု"]
HAN = ["今天", "北京", "天气", "很好", "中华人民共和国", "經濟", "发展", "我们", "２０２１年", "研究生命", "𠀀"]
KANA = ["東京", "タワー", "に", "行きました", "ひらがな", "カタカナ", "日本語", "ｶﾀｶﾅ", "勉強しています", "ー"]
HANGUL = ["안녕하세요", "세계", "한국어", "서울에서", "뉴스를", "읽었습니다", "2021년"]
GEEZ = ["ሰላም", "ዓለም", "ኢትዮጵያ", "አዲስ", "አበባ", "ዜና", "፲፪"]
LATIN = ["café", "naïve", "résumé", "años", "corrían", "rápidamente", "niños", "İstanbul", "kitapları",
         "gözlükçüler", "straße", "Übermäßig", "ação", "informações", "evlerimizden", "running", "generalization",
         "the", "and", "Ærø", "ǅ", "ﬁne", "Kelvin", "3.14", "U.S.", "state-of-the-art", "don't"]

SCRIPTS = {
    "bengali": (BENGALI, (0x0980, 0x09FF)),
    "bangla": (BENGALI, (0x0980, 0x09FF)),
    "hindi": (HINDI, (0x0900, 0x097F)),
    "arabic": (ARABIC, (0x0600, 0x06FF)),
    "persian": (ARABIC, (0x0600, 0x06FF)),
    "urdu": (ARABIC, (0x0600, 0x06FF)),
    "russian": (CYRILLIC, (0x0400, 0x04FF)),
    "ukrainian": (CYRILLIC, (0x0400, 0x04FF)),
    "thai": (THAI, (0x0E00, 0x0E7F)),
    "burmese": (MYANMAR, (0x1000, 0x109F)),
    "chinese": (HAN, (0x4E00, 0x9FFF)),
    "chinese_traditional": (HAN, (0x4E00, 0x9FFF)),
    "japanese": (KANA, (0x3040, 0x30FF)),
    "korean": (HANGUL, (0xAC00, 0xD7A3)),
    "amharic": (GEEZ, (0x1200, 0x137F)),
    "french": (LATIN, (0x00C0, 0x024F)),
    "spanish": (LATIN, (0x00C0, 0x024F)),
    "portuguese": (LATIN, (0x00C0, 0x024F)),
    "turkish": (LATIN, (0x00C0, 0x024F)),
    "turkce": (LATIN, (0x00C0, 0x024F)),
    "english": (LATIN, (0x00C0, 0x024F)),
    "porter": (LATIN, (0x00C0, 0x024F)),
    "vietnamese": (LATIN, (0x1EA0, 0x1EFF)),
    None: (LATIN + HAN + CYRILLIC, (0x0000, 0x024F)),
}
SEPARATORS = [" ", " ", " ", "\n", "\n\n", ", ", "。", "、", "! ", " - ", "\t", "\u00a0", "\u3000", "\u200b", "\u200c",
              "\x00", "\ufffd", "«", "»", "“", "”", "(", ")", "...", "٫", "।", "॥", "\r\n", "\u2028", "$", "^", "`"]


_SCRIPT_DRAWS: Dict[Any, Any] = {}


def _script_draws(lang):
    """The strategies script_texts draws from for ``lang``, built once per language: the same draws as
    building them anew for every word (hypothesis draws depend on a strategy's definition, not on the
    object), without re-creating and re-validating them thousands of times per test."""
    if lang not in _SCRIPT_DRAWS:
        words, (lo, hi) = SCRIPTS[lang]
        _SCRIPT_DRAWS[lang] = (st.integers(0, 25), st.integers(0, 6),
                               st.text(st.characters(min_codepoint=lo, max_codepoint=hi), min_size=1, max_size=6),
                               st.sampled_from(words), st.sampled_from(SEPARATORS), st.integers(0, 9),
                               st.text(max_size=8))
    return _SCRIPT_DRAWS[lang]


@st.composite
def script_texts(draw, lang):
    n_words, pick, own_chars, word, separator, tail, any_text = _script_draws(lang)
    out = []
    for _ in range(draw(n_words)):
        if draw(pick) == 0:
            out.append(draw(own_chars))
        else:
            out.append(draw(word))
        out.append(draw(separator))
    if draw(tail) == 0:
        out.append(draw(any_text))
    return "".join(out)


@st.composite
def examples(draw, lang):
    pred = draw(script_texts(lang))
    refs = draw(st.lists(script_texts(lang), min_size=1, max_size=3))
    return pred, refs


def _generated_case(lang: Any, stem: bool, n: int) -> None:
    _skip_without(lang, stem)

    @settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.lists(examples(lang), min_size=1, max_size=4))
    def check(batch):
        preds = [p for p, _ in batch]
        refs = [r for _, r in batch]
        assert_same(TYPES, stem, lang, preds, refs)
        assert_same(TYPES, stem, lang, [r[0] for r in refs], [[p] for p in preds])  # roles swapped

    check()


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("lang", list(SCRIPTS), ids=lambda x: str(x))
def test_generated_text_matches_xlsum(lang, stem):
    _generated_case(lang, stem, 6)


@pytest.mark.integration
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("lang", list(SCRIPTS), ids=lambda x: str(x))
def test_more_generated_text_matches_xlsum(lang, stem):
    _generated_case(lang, stem, 150)


# --------------------------------------------------------------------------------- pipeline pieces
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_cleaner_is_xlsums_basic_tokenizer(text):
    assert xlsum.clean_words(text) == oracle_tokenizers.BasicTokenizer()(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_unsegmented_tokens_are_xlsums(text):
    tok = oracle_scorer.MultiTokenizer(None)
    from multilingual_rouge import tokenization_wrapper

    assert ours(["rouge1"], False, None).tokenizer.tokens(text) == tokenization_wrapper.tokenize(text, None, tok)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(HINDI + ["ाएंगी", "ियों", "ो", "कर"]), min_size=1, max_size=3).map("".join))
def test_hindi_stemmer_is_xlsums(word):
    assert xlsum.hindi_stem(word) == oracle_stemmers.HindiStemmer()(word)


_PAIR: List[Any] = []


def _bengali_pair():
    if not _PAIR:
        from multilingual_rouge.bengali_stemmer import RafiStemmer

        with open(BENGALI_RULES, encoding="utf-8") as f:
            _PAIR.append(RafiStemmer(f))
        _PAIR.append(xlsum.BengaliRules(Path(BENGALI_RULES).read_text(encoding="utf-8")))
    return _PAIR


@needs_rules
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(BENGALI + ["দের", "গুলো", "েছিলেন", "টা", "কে", "ে", "া", "েয়েছিল", "রছ", "রব"]),
                min_size=1, max_size=3).map("".join))
def test_bengali_stemmer_is_rafis(word):
    theirs, rules = _bengali_pair()
    assert rules(word) == theirs.stem_word(word)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.characters(min_codepoint=0x1000, max_codepoint=0x109F) | st.sampled_from(" \u200c\n")
                | st.sampled_from(MYANMAR), max_size=30).map("".join))
def test_burmese_syllables_are_xlsums(text):
    assert segment.burmese_syllables(text) == oracle_tokenizers.BurmeseTokenizer()(text)


def test_bengali_rules_with_replacements_and_comments():
    rules = xlsum.BengaliRules("# c\n{\n ের  # x\n রছ -> র\n a->b->c\n}\n{\n টা\n}\n")
    assert rules.groups == [["ের", "রছ"], ["টা"]]
    assert rules("করিমের") == "করিম"
    assert rules("করছ") == "কর"
    assert rules("ের") == "ের"  # the stem would keep no letter


# -------------------------------------------------------------------------- languages and settings
@pytest.mark.parametrize("alias,lang", sorted(xlsum.LANGUAGE_ALIASES.items()))
def test_aliases_are_their_language(alias, lang):
    assert xlsum.canonical_language(alias) == lang
    assert alias in xlsum.LANGUAGES


def test_snowball_languages_are_nltks():
    from nltk.stem import SnowballStemmer

    assert xlsum.SNOWBALL_LANGUAGES == tuple(SnowballStemmer.languages)


def test_language_table_is_xlsums():
    assert set(xlsum.SEGMENTERS) == set(oracle_tokenizers.LANG2TOKENIZER)
    assert set(xlsum.STEMMED_LANGUAGES) == set(oracle_stemmers.LANG2STEMMER)
    assert {k: v for k, v in oracle_scorer.SPECIAL_LANGID_CONVERSION_MAP.items()} == xlsum.LANGUAGE_ALIASES


@pytest.mark.parametrize("text", ["", " ", "\n", "\n\n", " \t ", "!!!", "...", "—", "«»", "\u200b", "\x00",
                                  "123", "3.14", "$5", "😀", "①", "\ufffd", "a", "中", "ก", "မ"])
@pytest.mark.parametrize("lang", [None, "english", "chinese", "japanese", "thai", "burmese", "hindi", "klingon"])
def test_empty_and_letterless_texts_match_xlsum(text, lang):
    _skip_without(lang, True)
    for stem in (False, True):
        assert_same(TYPES, stem, lang, [text, "some words 中文"], [[text], [text]])
        assert_same(TYPES, stem, lang, ["some words 中文", text], [[text], ["x", text]])


def test_unknown_language_warns_once_and_gives_xlsums_numbers():
    lang = "klingon-test-once"
    with pytest.warns(UserWarning, match="no stemmer for this language"):
        XLSumRouge(["rouge1"], use_stemmer=True, lang=lang)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        XLSumRouge(["rouge1", "rouge2"], use_stemmer=True, lang=lang)
    assert_same(["rouge1", "rougeL"], True, lang, ["running dogs were running"], [["the dog runs"]])


def test_min_char_length_and_callables_are_honoured():
    def stem(tok):
        return tok[:4]

    def seg(text):
        return text.split()[::-1] if "skip" not in text else []

    kw = dict(callable_stemmer=stem, callable_tokenizer=seg, min_char_length=5)
    preds = ["generalization of running dogs", "skip this one please", "中文 文本"]
    refs = [["general running dog"], ["skip please"], ["中文"]]
    assert_same(TYPES, True, "english", preds, refs, **kw)
    assert_same(TYPES, True, None, preds, refs, min_char_length=0)
    assert "custom(" in ours(TYPES, True, "english", **kw).signature()


@pytest.mark.parametrize("arg", ["callable_stemmer", "min_char_length"])
def test_stemmer_settings_without_stemming_are_refused(arg):
    value = (lambda t: t) if arg == "callable_stemmer" else 2
    with pytest.raises(ValueError, match=f"{arg}: only used with use_stemmer=True"):
        XLSumRouge(["rouge1"], lang="english", **{arg: value})


@pytest.mark.parametrize("bad", ["rouge0", "rouge10", "rougeW", "rougeSU4", "ROUGE1"])
def test_rouge_types_outside_xlsums_are_refused(bad):
    with pytest.raises(ValueError, match=r"rouge_types\[1\].*allowed: rouge1 \.\.\. rouge9, rougeL, rougeLsum"):
        XLSumRouge(["rouge1", bad])


@pytest.mark.parametrize("arg", ["tokenizer", "use_stemmer_name", "stopwords", "sentence_splitter"])
def test_pipeline_settings_are_refused(arg):
    if arg == "use_stemmer_name":
        with pytest.raises(TypeError, match="use_stemmer: expected True or False"):
            XLSumRouge(["rouge1"], use_stemmer="porter")
        return
    with pytest.raises(ValueError, match=f"{arg}: set by the XL-Sum recipe"):
        XLSumRouge(["rouge1"], **{arg: "whitespace"})


def test_signature_names_language_segmenter_fallback_and_stemmer():
    if not _module_available("jieba"):
        pytest.skip("jieba is not installed")
    sig = ours(["rouge1"], False, "chinese").signature()
    assert "tok:xlsum(lang=chinese,seg=jieba(" in sig and "fallback=pyonmttok-aggressive(" in sig
    if HAS_STOPWORDS:
        sig = ours(["rouge1"], True, "spanish").signature()
        assert "stem=snowball-spanish(nltk-" in sig and ",stop=nltk:" in sig and ",min=3)" in sig
    assert "stem=snowball-porter(" in ours(["rouge1"], True, None).signature()


def test_missing_stopwords_corpus_is_a_clear_error(monkeypatch, tmp_path):
    """No stopwords corpus on nltk's data path: neither rouge_metric's reader (used with a checked nltk) nor
    nltk's finds one."""
    import nltk.corpus
    import nltk.data
    import nltk.stem.snowball

    class Missing:
        def words(self, *args):
            raise LookupError("Resource stopwords not found.")

    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    monkeypatch.setattr(nltk.corpus, "stopwords", Missing())
    monkeypatch.setattr(nltk.stem.snowball, "stopwords", Missing(), raising=False)
    with pytest.raises(LookupError, match="needs nltk's 'stopwords' corpus.*never downloads"):
        xlsum.language_stemmer("dutch")


def test_missing_bengali_rules_is_a_clear_error(monkeypatch):
    monkeypatch.delenv(xlsum.BENGALI_RULES_ENV, raising=False)
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("bengali_stemmer", "multilingual_rouge") else real(name, *a))
    with pytest.raises(LookupError, match="common.rules.*bengali_rules=.*ROUGE_METRIC_BENGALI_RULES"):
        XLSumRouge(["rouge1"], use_stemmer=True, lang="bengali")
    with pytest.raises(FileNotFoundError, match="bengali_rules: no file"):
        XLSumRouge(["rouge1"], use_stemmer=True, lang="bangla", bengali_rules="/nonexistent/common.rules")
    XLSumRouge(["rouge1"], lang="bengali")  # no stemming: no rules needed


def test_segmenter_failure_names_the_index():
    def seg(text):
        if "boom" in text:
            raise RuntimeError("cannot segment")
        return text.split()

    scorer = XLSumRouge(["rouge1"], lang="x-test", callable_tokenizer=seg)
    with pytest.raises(segment.SegmenterError, match=r"references\[1\]\[1\]: callable_tokenizer failed .*boom"):
        scorer.compute(predictions=["a b", "c d"], references=[["a"], ["c", "x boom"]])
    with pytest.raises(segment.SegmenterError, match=r"predictions\[0\]"):
        scorer.score("a", "boom")


def test_segmentation_is_cached_per_unique_text():
    calls: List[str] = []

    def seg(text):
        calls.append(text)
        return text.split()

    scorer = XLSumRouge(["rouge1", "rouge2", "rougeL"], lang="x-cache", callable_tokenizer=seg)
    ref = "the one reference shared by all"
    scorer.compute(predictions=[f"prediction {i % 3}" for i in range(30)], references=[[ref]] * 30)
    assert sorted(set(calls)) == sorted(calls)
    assert len(calls) == 4


def test_both_backends_give_the_same_floats():
    preds = ["the cats were running fast\nand far", "नमस्ते दुनिया", ""]
    refs = [["a cat runs fast", "cats ran\nfar"], ["नमस्ते भारत"], ["x"]]
    got = [XLSumRouge(TYPES, use_stemmer=False, lang=None, backend=b).compute(
        predictions=preds, references=refs, return_per_example=True) for b in ("python", "native")]
    assert [hexes(s) for s in got[0].scores.values()] == [hexes(s) for s in got[1].scores.values()]
    for a, b in zip(got[0].per_example, got[1].per_example):
        assert {k: hexes(v) for k, v in a.items()} == {k: hexes(v) for k, v in b.items()}


_FRENCH_CHILD = """
import json, sys
from rouge_metric import stemmers
from rouge_metric.xlsum import XLSumRouge
scorer = XLSumRouge(["rouge1", "rouge2", "rougeL", "rougeLsum"], lang="french", use_stemmer=True)
got = scorer.score(sys.argv[1], sys.argv[2])
native = stemmers.snowball("french").native
print(json.dumps([{k: [float(x).hex() for x in v] for k, v in got.items()}, native, "nltk" in sys.modules]))
"""


@pytest.mark.integration
@needs_stopwords
def test_french_with_stemming_never_imports_nltk():
    """With the native twin of nltk's French stemmer and the stopword list read from nltk's data, a fresh process
    scores French with stemming without importing nltk, and gets XL-Sum's numbers."""
    import json
    import subprocess
    import sys

    from rouge_metric import stemmers

    pytest.importorskip("rouge_metric._native")
    if not stemmers.snowball("french").native:
        pytest.skip("no native twin of nltk's French stemmer here (native backend, twin, checked nltk)")
    target = "Les chats mangeaient rapidement les souris du grenier.\nIls dormaient ensuite."
    prediction = "Le chat mange rapidement des souris.\nIl dort."
    env = dict(os.environ)
    if NLTK_DATA.is_dir():
        env["NLTK_DATA"] = str(NLTK_DATA)
    out = subprocess.run([sys.executable, "-c", _FRENCH_CHILD, target, prediction], env=env, capture_output=True,
                         text=True, check=True)
    got, native, imported = json.loads(out.stdout)
    assert native and not imported
    want = oracle(["rouge1", "rouge2", "rougeL", "rougeLsum"], True, "french").score(target, prediction)
    assert got == {k: hexes(v) for k, v in want.items()}


def test_pickle_round_trip():
    scorer = XLSumRouge(["rouge1", "rougeLsum"], use_stemmer=False, lang="hindi", multi_ref="mean")
    clone = pickle.loads(pickle.dumps(scorer))
    assert clone.signature() == scorer.signature()
    assert clone.score("नमस्ते दुनिया", "नमस्ते भारत") == scorer.score("नमस्ते दुनिया", "नमस्ते भारत")


_UNPICKLE_CHILD = """
import pickle, sys
rouge = pickle.loads(sys.stdin.buffer.read())
print(repr(rouge.score(prediction="les chats noirs\\nmangent", references=["le chat noir mange"])))
print(rouge.signature())
"""


@needs_stopwords
def test_recipe_rouge_unpickles_in_a_fresh_process():
    """A Rouge of the recipe (what the evaluate module, datasets.map and the Trainer callback hold) is pickled as
    the recipe's call: a fresh process, where its tokenizer was never registered, unpickles and scores it."""
    import subprocess
    import sys

    from rouge_metric.recipes import make_rouge

    rouge = make_rouge(["rouge1", "rougeLsum"], recipe="xlsum", lang="french", use_stemmer=True, multi_ref="mean")
    want = rouge.score(prediction="les chats noirs\nmangent", references=["le chat noir mange"])
    env = dict(os.environ, NLTK_DATA=str(NLTK_DATA))
    out = subprocess.run([sys.executable, "-c", _UNPICKLE_CHILD], input=pickle.dumps(rouge), capture_output=True,
                         env=env, check=True)
    score, signature = out.stdout.decode().splitlines()
    assert (score, signature) == (repr(want), rouge.signature())


@needs_stopwords
def test_arabic_stemmer_history_as_in_one_xlsum_scorer():
    """nltk's Arabic stemmer stems "جشزو" as itself until the instance has met a word like "كتبنا" (whose verb
    suffix it strips), and as "جشز" after: XL-Sum's scorer's first pair depends on the order in which it meets
    its words. One XLSumRouge, or one Rouge of the recipe, is one XL-Sum scorer: the same numbers, pair by pair,
    from its first pair on, on every entry point."""
    from rouge_metric.recipes import make_rouge

    pairs = [("جشزو كتبنا جشزو\nجشزو الكتاب", "جشزو جشزو\nالكتاب جشزو"), ("جشزو الكتاب", "جشزو كتبنا")]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        orc = oracle_scorer.RougeScorer(types, use_stemmer=True, lang="arabic")
        want = [orc.score(t, p) for t, p in pairs]
        stale = oracle_scorer.RougeScorer(types, use_stemmer=True, lang="arabic")
        stale.score("كتبنا", "كتبنا")  # a scorer past the word: different first-pair numbers
        assert stale.score(*pairs[0]) != want[0]
    per_pair = XLSumRouge(types, use_stemmer=True, lang="arabic")
    assert [per_pair.score(t, p) for t, p in pairs] == want
    batch = XLSumRouge(types, use_stemmer=True, lang="arabic").score_examples(
        predictions=[p for _, p in pairs], references=[t for t, _ in pairs])
    assert batch == want
    rouge = make_rouge(types, recipe="xlsum", lang="arabic", use_stemmer=True)
    result = rouge.compute(predictions=[p for _, p in pairs], references=[[t] for t, _ in pairs],
                           return_per_example=True)
    assert result.per_example == want
    for t in types:
        assert result.scores[t].fmeasure == (want[0][t].fmeasure + want[1][t].fmeasure) / 2
    again = rouge.score_examples(predictions=[pairs[0][1]], references=[pairs[0][0]])  # the same scorer, later
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert again == [orc.score(*pairs[0])] != [want[0]]


# ------------------------------------------------------------------------------- the native cleaner
def _native_clean():
    native = pytest.importorskip("rouge_metric._native")
    if not hasattr(native, "xlsum_clean"):
        pytest.skip("this build has no native XL-Sum cleaner")
    return native.xlsum_clean


def test_native_cleaner_equals_the_python_cleaner_on_every_code_point():
    """Each code point between two letters, in blocks of 4,096: deleted, a break, or kept, as clean_words says
    (surrogates and unassigned code points included)."""
    clean = _native_clean()
    for start in range(0, 0x110000, 4096):
        text = " ".join(f"q{chr(cp)}q" for cp in range(start, min(start + 4096, 0x110000)))
        assert clean(text)[0] == " ".join(xlsum.clean_words(text.lower())), hex(start)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200) | st.text(alphabet=st.sampled_from(list("aZ 09\t\n\r,.-'\u00a0\u2028\u0130\u03a3\u00df"
                                                                     "\u0301\u200b\x00\x1c\ufffd\u4e2d")), max_size=60))
def test_native_cleaner_equals_the_python_cleaner(text):
    clean = _native_clean()
    assert clean(text)[0] == " ".join(xlsum.clean_words(text.lower()))


def test_plain_text_is_what_pyonmttok_returns_unchanged():
    """The cleaner calls a text plain (so the recipe skips pyonmttok) only when pyonmttok would return its words
    as they are: every letter and mark the class admits, checked against the installed pyonmttok."""
    import pyonmttok

    clean = _native_clean()
    onmt = pyonmttok.Tokenizer("aggressive").tokenize
    plain = 0
    for cp in range(0x20, 0x3000):
        for text in (f"x{chr(cp)}y", chr(cp), f"{chr(cp)}y", f"y{chr(cp)}"):
            cleaned, is_plain = clean(text)
            if is_plain and cleaned:
                plain += 1
                assert onmt(cleaned)[0] == cleaned.split(" "), (hex(cp), text)
    assert plain > 10000
    for text, want in (("abc 123 élève", True), ("covid19", False), ("a\u0301 \u0301a", False), ("x² ½", False),
                       ("中文", False), ("", True)):
        assert clean(text)[1] is want, text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list("abcxyzéèçßøœабвгдαβγابتअआकखกขअ्ा0123456789 \u0301\u0308\u093e")),
               max_size=80))
def test_plain_fast_path_gives_pyonmttoks_tokens(text):
    clean = _native_clean()
    cleaned, is_plain = clean(text)
    if is_plain and cleaned:
        import pyonmttok

        assert pyonmttok.Tokenizer("aggressive").tokenize(cleaned)[0] == cleaned.split(" ")
