"""Hypothesis strategies shared by the test modules: texts that stress tokenizers and kernels."""

from hypothesis import strategies as st

WORDS = [
    "the", "cat", "sat", "on", "mat", "a", "dog", "running", "runs", "ran", "jumped", "jumping",
    "generalization", "general", "kenobi", "hello", "there", "x", "y", "z", "123", "3.14", "U.S.",
    "state-of-the-art", "don't", "İstanbul", "\u212aelvin", "café", "naïve", "Straße", "日本語", "中文",
    "Москва", "مرحبا", "नमस्ते", "ÉCOLE", "ﬁne", "①", "Ⅻ", "résumé", "THE", "Cat",
]
SEPARATORS = [" ", " ", " ", "  ", "\n", "\r\n", "\t", ", ", ". ", "! ", "? ", " - ", "\n\n", " \n ", "\u00a0", "\u3000"]

word_lists = st.lists(st.sampled_from(WORDS), min_size=0, max_size=60)


@st.composite
def texts(draw, max_words: int = 60):
    """Random texts from a small vocabulary (collisions) with Unicode, punctuation and whitespace."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=max_words))
    out = []
    for w in words:
        out.append(w)
        out.append(draw(st.sampled_from(SEPARATORS)))
    if draw(st.booleans()):
        out.append(draw(st.text(max_size=20)))
    return "".join(out)


@st.composite
def token_lists(draw, alphabet_size: int = 4, max_size: int = 150):
    """Token lists over a tiny alphabet: many ties and repeats; sizes beyond one 64-bit word."""
    alphabet = [chr(ord("a") + i) for i in range(alphabet_size)]
    return draw(st.lists(st.sampled_from(alphabet), min_size=0, max_size=max_size))


@st.composite
def one_line_texts(draw, max_words: int = 150):
    """Texts of one sentence for rougeLsum: one line of words from a tiny vocabulary (repeats, many
    tied LCS, lengths past one 64-bit word), at times between lines that hold no token."""
    words = draw(st.lists(st.sampled_from(["a", "b", "c", "the", "cats", "ran"]), min_size=0, max_size=max_words))
    pad = st.sampled_from(["", "", "\n", "\n \n", " ,\n", "\n...\n"])
    return draw(pad) + " ".join(words) + draw(pad)


references_lists = st.lists(texts(), min_size=1, max_size=4)
