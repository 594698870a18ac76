"""The offline sentence splitter (rouge_metric.sentence_split, sentence_splitter="offline")."""

import pytest

from rouge_metric import Rouge, RougeConfig
from rouge_metric.sentence_split import ABBREVIATIONS, add_newlines, split_sentences

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

# The cases of notes/hf-integration.md section 6, with the split that nltk's Punkt gives once it knows the
# abbreviations (checked there); two cases where that Punkt is wrong are in NOT_LIKE_PUNKT below.
PUNKT_WITH_ABBREVIATIONS = [
    ("Mr. Smith went to Washington. He met Dr. Jones at 3 p.m. on Monday.",
     ["Mr. Smith went to Washington.", "He met Dr. Jones at 3 p.m. on Monday."]),
    ("The U.S. economy grew 3.5% last year. Analysts expected 2.9 percent.",
     ["The U.S. economy grew 3.5% last year.", "Analysts expected 2.9 percent."]),
    ('He said, "We will win." Then he left.', ['He said, "We will win."', "Then he left."]),
    ("Shares of Apple Inc. rose 1.2 percent. The S&P 500 fell.",
     ["Shares of Apple Inc. rose 1.2 percent.", "The S&P 500 fell."]),
    ("The U.S. Senate voted on Jan. 5. The bill passed.", ["The U.S. Senate voted on Jan. 5.", "The bill passed."]),
    ("It cost $3.50. That was cheap.", ["It cost $3.50.", "That was cheap."]),
    ("Prices rose (about 5%). Then they fell.", ["Prices rose (about 5%).", "Then they fell."]),
    ("First line\nSecond line without period", ["First line", "Second line without period"]),
    ("e.g. this is an example. i.e. another one.", ["e.g. this is an example.", "i.e. another one."]),
]

NOT_LIKE_PUNKT = [
    # Punkt splits before "she asked": a quoted question followed by a lowercase word continues
    ('"Is this it?" she asked. Nobody answered!', ['"Is this it?" she asked.', "Nobody answered!"]),
    # Punkt (untrained) treats "b." as an initial; so do we, and a capital initial too
    ("J. R. R. Tolkien wrote it. It sold well.", ["J. R. R. Tolkien wrote it.", "It sold well."]),
]

MORE = [
    # lowercased, tokenized corpora (CNN/DM style): a lone "." ends a sentence before lowercase
    ("the cat sat . it was happy .", ["the cat sat .", "it was happy ."]),
    # number-only abbreviations
    ("See No. 5 and Fig. 3 here. I said no. Then he left.",
     ["See No. 5 and Fig. 3 here.", "I said no.", "Then he left."]),
    # ellipsis before lowercase continues, before uppercase ends
    ("He paused... then left. Wait... What?", ["He paused... then left.", "Wait...", "What?"]),
    # CJK full stops need no space; closing brackets stay with their sentence
    ("今天天气很好。我们去公园吧！「你好。」他说。", ["今天天气很好。", "我们去公园吧！", "「你好。」", "他说。"]),
    ("これはペンです。それは本です", ["これはペンです。", "それは本です"]),
    # Devanagari danda, Arabic question mark
    ("यह एक वाक्य है। यह दूसरा है।", ["यह एक वाक्य है।", "यह दूसरा है।"]),
    ("هل أنت بخير؟ نعم.", ["هل أنت بخير؟", "نعم."]),
    # German and Spanish abbreviations, letter groups with periods
    ("Das ist z.B. gut. Dr. Müller kommt.", ["Das ist z.B. gut.", "Dr. Müller kommt."]),
    ("Vive en EE.UU. desde 2010. Sr. Pérez llegó.", ["Vive en EE.UU. desde 2010.", "Sr. Pérez llegó."]),
    # no space after the period: not a boundary (decimals, domains, abbreviations)
    ("Visit example.com today. Pi is 3.14159.", ["Visit example.com today.", "Pi is 3.14159."]),
    ("", []),
    ("  \n \n", []),
    ("No terminal punctuation", ["No terminal punctuation"]),
]


@pytest.mark.parametrize("text,want", PUNKT_WITH_ABBREVIATIONS + NOT_LIKE_PUNKT + MORE)
def test_split(text, want):
    assert split_sentences(text) == want


def test_abbreviations_are_lowercase_without_final_period():
    assert all(a == a.lower() and not a.endswith(".") for a in ABBREVIATIONS)


def test_offline_splitter_needs_no_nltk_data(monkeypatch):
    import nltk

    def boom(*args, **kwargs):
        raise AssertionError("nltk must not be called")

    monkeypatch.setattr(nltk, "sent_tokenize", boom)
    r = Rouge(["rougeLsum"], sentence_splitter="offline")
    assert "split:offline" in r.signature()
    r.score(prediction="Mr. Smith left. He ran.", references="Smith left. He ran fast.")


def test_rougelsum_with_offline_splitter_equals_rouge_score_on_newlines():
    # Oracle: rouge-score's rougeLsum on the same text with the offline sentences joined by "\n".
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    ours = Rouge(["rougeLsum"], sentence_splitter="offline")
    for text, _ in PUNKT_WITH_ABBREVIATIONS + MORE:
        pred = text
        ref = "Mr. Smith went to Washington on Monday. The bill passed. It was cheap."
        want = scorer.score(add_newlines(ref), add_newlines(pred))["rougeLsum"]
        got = ours.score(prediction=pred, references=ref)["rougeLsum"]
        assert tuple(got) == tuple(want)


def test_unknown_splitter_names_the_allowed_set():
    with pytest.raises(ValueError, match=r"sentence_splitter: unknown splitter 'punkt'.*'offline'"):
        RougeConfig(sentence_splitter="punkt")
