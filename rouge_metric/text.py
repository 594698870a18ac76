"""Text pipeline: tokenizers, stemming (cached) and sentence splitting.

Everything that turns a string into tokens lives here, once. The default tokenizer reproduces
``rouge_score.tokenize.tokenize`` exactly (Python's full Unicode ``str.lower()`` first, then maximal
runs of ``[a-z0-9]``; with a stemmer, tokens longer than 3 characters are stemmed and the result must
still match ``^[a-z0-9]+$``).

One file because tokenizing, stemming, splitting and locating tokens in the user's text are one
pipeline with one set of names: each tokenizer's span finder and each stemmer's cache sit beside it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from .multilingual import normalize_stopwords, unicode_tokenize
from .sentence_split import split_sentences

if TYPE_CHECKING:  # annotations only: the settings import this layer, not the reverse
    from .config import RougeConfig

#: Named tokenizers (a callable ``str -> list[str]`` or an object with ``.tokenize`` also works):
#: ``unicode`` (every script; :mod:`rouge_metric.multilingual`), ``perl`` (ROUGE-1.5.5.pl's own
#: tokenization of raw text; :func:`perl_tokens`, used by :mod:`rouge_metric.rouge155`), and the word
#: segmenters of :mod:`rouge_metric.segment` (``jieba``, ``fugashi``, ``thai_newmm``,
#: ``burmese_syllables``; extra ``multilingual``). Modules register more with :func:`register_tokenizer`
#: (accepted by name and listed by :func:`tokenizer_names`; this tuple stays fixed).
TOKENIZERS: Tuple[str, ...] = ("default", "whitespace", "unicode", "perl", "jieba", "fugashi", "thai_newmm",
                               "burmese_syllables")

#: Named tokenizers loaded from :mod:`rouge_metric.segment` at first use (their packages are optional).
SEGMENTER_TOKENIZERS: Tuple[str, ...] = ("jieba", "fugashi", "thai_newmm", "burmese_syllables")

#: Stemmers: ``porter`` is nltk's PorterStemmer as rouge-score uses it; ``perl_porter`` is the Porter
#: variant of ROUGE-1.5.5.pl (:mod:`rouge_metric.perl_porter`); ``snowball:<language>`` are nltk's
#: Snowball stemmers (languages: ``rouge_metric.multilingual.SNOWBALL_LANGUAGES``).
STEMMERS: Tuple[str, ...] = ("porter", "perl_porter") + tuple(
    "snowball:" + _lang for _lang in (
        "arabic", "danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian",
        "norwegian", "portuguese", "romanian", "russian", "spanish", "swedish",
    )
)

#: Sentence splitters for rougeLsum / rougeW: ``newline`` (rouge-score's default), ``nltk`` (punkt data),
#: ``offline`` (rules + embedded abbreviations, no data; :mod:`rouge_metric.sentence_split`).
SENTENCE_SPLITTERS: Tuple[str, ...] = ("newline", "nltk", "offline")


_TOKEN_RE = re.compile(r"[a-z0-9]+")
_VALID_TOKEN_RE = re.compile(r"^[a-z0-9]+$")


def tokenizer_names() -> Tuple[str, ...]:
    """Every tokenizer name a configuration accepts: :data:`TOKENIZERS` (the public, fixed set) and the
    names modules added with :func:`register_tokenizer`."""
    return TOKENIZERS + tuple(n for n in _NAMED_TOKENIZERS if n not in TOKENIZERS)


def check_tokenizer_name(name: str) -> None:
    if name not in TOKENIZERS and name not in _NAMED_TOKENIZERS:
        raise ValueError(
            f"tokenizer: unknown tokenizer {name!r}; allowed: {', '.join(map(repr, tokenizer_names()))}, "
            "a callable str -> list[str], or an object with .tokenize"
        )


def check_stemmer_name(name: str) -> None:
    if name not in STEMMERS:
        raise ValueError(f"use_stemmer: unknown stemmer {name!r}; allowed: False, True, {', '.join(map(repr, STEMMERS))}")


def check_splitter_name(name: str) -> None:
    if name not in SENTENCE_SPLITTERS:
        raise ValueError(
            f"sentence_splitter: unknown splitter {name!r}; allowed: {', '.join(map(repr, SENTENCE_SPLITTERS))} "
            "or a callable str -> list[str]"
        )


# --------------------------------------------------------------------------------------------- stemming
class CachedStemmer:
    """A stemmer with a per-word cache (nltk's Porter costs microseconds per word).

    ``stem(token)`` returns the stemmed token, or ``None`` when the stem is not a valid
    ``[a-z0-9]+`` token (rouge-score drops those). Tokens of length <= 3 are never stemmed.
    The cache is shared by every scorer using the same stemmer in this process.

    ``porter`` and ``perl_porter`` stem tokens longer than 3 characters (rouge-score's and
    ROUGE-1.5.5's rule); a ``[a-z0-9]+`` token whose stem is not ``[a-z0-9]+`` is dropped (rouge-score),
    any other token (non-ASCII, from the ``unicode`` or ``whitespace`` tokenizers) keeps its stem.
    ``snowball:<language>`` stems every token (Snowball has its own length rules).
    """

    def __init__(self, name: str) -> None:
        check_stemmer_name(name)
        self.name = name
        self.min_len = 0 if name.startswith("snowball:") else 3
        # nltk's Porter is loaded at the first word it stems: importing nltk takes about a second, and the
        # native backend stems ASCII words itself (core.native_vocab). The others load now (and check
        # the language).
        self._fn: Optional[Callable[[str], str]] = None
        if name != "porter":
            self._fn = self._stem
        self.cache: Dict[str, Optional[str]] = {}

    @property
    def _stem(self) -> Callable[[str], str]:
        fn = self._fn
        if fn is None:
            if self.name == "porter":
                from nltk.stem import porter  # nltk's Porter needs no nltk data

                fn = porter.PorterStemmer().stem
            elif self.name == "perl_porter":
                from .perl_porter import stem as fn
            else:
                from .multilingual import snowball_language, snowball_stem_function

                fn = snowball_stem_function(snowball_language(self.name) or self.name)
            self._fn = fn
        return fn

    def stem_token(self, token: str) -> Optional[str]:
        out = self._stem(token)
        if _VALID_TOKEN_RE.match(out):
            return out
        return None if _VALID_TOKEN_RE.match(token) else (out or None)

    def stem_all(self, tokens: List[str]) -> List[str]:
        cache = self.cache
        out = []
        append = out.append
        min_len = self.min_len
        for t in tokens:
            if len(t) <= min_len:
                append(t)
                continue
            s = cache.get(t, 0)
            if s == 0:
                s = cache[t] = self.stem_token(t)
            if s is not None:
                append(s)
        return out

    def __getstate__(self) -> Dict[str, Any]:  # picklable (datasets.map with num_proc)
        return {"name": self.name}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(state["name"])  # type: ignore[misc]


_STEMMERS: Dict[str, CachedStemmer] = {}


def get_stemmer(name: str) -> CachedStemmer:
    """The process-wide cached stemmer for ``name``."""
    st = _STEMMERS.get(name)
    if st is None:
        st = _STEMMERS[name] = CachedStemmer(name)
    return st


# -------------------------------------------------------------------------------------------- tokenizers
def default_tokenize(text: str, stemmer: Optional[CachedStemmer] = None) -> List[str]:
    """rouge-score's tokenizer, exactly: lower(), ``[a-z0-9]+`` runs, optional stemming (len > 3).

    >>> default_tokenize("The İstanbul café, 3.14!")
    ['the', 'i', 'stanbul', 'caf', '3', '14']
    """
    tokens = _TOKEN_RE.findall(text.lower())
    return stemmer.stem_all(tokens) if stemmer is not None else tokens


def whitespace_tokenize(text: str, stemmer: Optional[CachedStemmer] = None) -> List[str]:
    """Split on Unicode whitespace, keep tokens as they are (no case folding), optional stemming."""
    tokens = text.split()
    return stemmer.stem_all(tokens) if stemmer is not None else tokens


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_PERL_TOKEN_RE = re.compile(r"[a-z0-9]+")


def perl_tokens(text: str) -> List[str]:
    """ROUGE-1.5.5's tokens of a text: ``tr/A-Z/a-z/``, ``s/-/ - /g; s/[^A-Za-z0-9\\-]/ /g``, split,
    keep tokens starting with ``[a-z0-9$]``. Net effect: maximal runs of ``[a-z0-9]`` after ASCII-only
    lowercasing; the bytes of a non-ASCII character are separators. O(len(text)).

    >>> perl_tokens("Hyphen-ated e-mail U.S.A. 3.14 café naïve İstanbul $5")
    ['hyphen', 'ated', 'e', 'mail', 'u', 's', 'a', '3', '14', 'caf', 'na', 've', 'stanbul', '5']
    """
    return _PERL_TOKEN_RE.findall(text.translate(_ASCII_LOWER))


def perl_tokenize(text: str, stemmer: Optional[CachedStemmer] = None) -> List[str]:
    """ROUGE-1.5.5.pl's tokenization of raw text (:func:`perl_tokens`), optionally stemmed."""
    tokens = perl_tokens(text)
    return stemmer.stem_all(tokens) if stemmer is not None else tokens


_NAMED_TOKENIZERS: Dict[str, Callable[[str, Optional[CachedStemmer]], List[str]]] = {
    "default": default_tokenize,
    "whitespace": whitespace_tokenize,
    "unicode": unicode_tokenize,
    "perl": perl_tokenize,
}


# ------------------------------------------------------------------------------- character spans
#: A character span ``(start, end)`` in a text: ``text[start:end]`` is where a token came from (the
#: spans of :meth:`TextPipeline.token_spans`, and of the explanations that highlight them).
Span = Tuple[int, int]
#: What a span finder returns per token: ``(token, start, end)``; ``start`` and ``end`` are None for a
#: token that cannot be mapped back to characters of the text exactly (it is then shown unhighlighted).
Located = Tuple[str, Optional[int], Optional[int]]


def _mapped_tokens(text: str, pattern: "re.Pattern[str]", normalize: Callable[[str], str],
                   units: "re.Pattern[str]") -> List[Tuple[str, int, int]]:
    """Tokens of ``pattern`` in ``normalize(text)`` with their spans in ``text``: ``text`` is normalized
    one unit (a match of ``units``) at a time, so each normalized character knows the unit it came from;
    a token covers the units from its first to its last character. O(len(text))."""
    parts: List[str] = []
    starts: List[int] = []  # per normalized character: start and end of its unit in text
    ends: List[int] = []
    for m in units.finditer(text):
        piece = normalize(m.group())
        parts.append(piece)
        starts.extend([m.start()] * len(piece))
        ends.extend([m.end()] * len(piece))
    norm = "".join(parts)
    return [(m.group(), starts[m.start()], ends[m.end() - 1]) for m in pattern.finditer(norm)]


_CHAR = re.compile(r".", re.DOTALL)
# a character with the combining marks after it (NFKC composes within such a run)
_CHAR_WITH_MARKS = re.compile(r".[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u0610-\u061a\u064b-\u065f"
                              r"\u0900-\u0903\u093a-\u094f\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u1ab0-\u1aff"
                              r"\u1dc0-\u1dff\u20d0-\u20ff\u3099\u309a\ufe20-\ufe2f]*", re.DOTALL)
_NON_SPACE = re.compile(r"\S+")


def _default_spans(text: str) -> List[Tuple[str, int, int]]:
    return _mapped_tokens(text, _TOKEN_RE, str.lower, _CHAR)


def _whitespace_spans(text: str) -> List[Tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _NON_SPACE.finditer(text)]


def _perl_spans(text: str) -> List[Tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _PERL_TOKEN_RE.finditer(text.translate(_ASCII_LOWER))]


def _unicode_spans(text: str) -> List[Tuple[str, int, int]]:
    if text.isascii():
        return _mapped_tokens(text, _TOKEN_RE, str.lower, _CHAR)
    from .multilingual import _token_re, normalize_unicode

    return _mapped_tokens(text, _token_re(), normalize_unicode, _CHAR_WITH_MARKS)


#: Per named tokenizer: its tokens of a text before stemming, with their character spans.
_SPAN_FINDERS: Dict[str, Callable[[str], List[Located]]] = {
    "default": _default_spans,
    "whitespace": _whitespace_spans,
    "unicode": _unicode_spans,
    "perl": _perl_spans,
}


def register_tokenizer(name: str, func: Callable[[str, Optional[CachedStemmer]], List[str]],
                       line_separable: bool = True, *,
                       sentence_func: Optional[Callable[[str, Optional[CachedStemmer]], List[str]]] = None,
                       describe: Optional[Callable[[], str]] = None,
                       spans: Optional[Callable[[str], List[Located]]] = None,
                       sentence_spans: Optional[Callable[[str], List[Located]]] = None,
                       session: Optional[Callable[[RougeConfig], Any]] = None) -> None:
    """Register a named tokenizer ``func(text, stemmer) -> tokens`` (used by optional modules).

    ``sentence_func``: tokenizes each sentence of rougeLsum/rougeW instead of ``func`` (a recipe whose
    sentences go through another pipeline). ``describe()``: the tokenizer's name in signatures (its
    version, dictionary, settings); default: ``name``. ``spans(text)`` (and ``sentence_spans(sentence)``
    for ``sentence_func``): the tokens of ``func(text, None)`` with their character spans in ``text``
    (:data:`Located`), so that explanations highlight the user's words; without it they show tokens.
    ``session(config)``: for a tokenizer whose first tokens depend on the order in which one scorer meets
    its texts (a stemmer that changes after a word, as XL-Sum's Arabic one does), the state of one scorer
    (:attr:`TextPipeline.session`): an object whose ``settled`` is True once the cached ``func`` gives this
    scorer's tokens, and whose ``views(prediction, references)`` gives, until then, the ``(prediction view,
    reference view)`` of each reference in the order the original meets them; None when it needs none.
    """
    _NAMED_TOKENIZERS[name] = func  # accepted by check_tokenizer_name; TOKENIZERS stays the public set
    if session is not None:
        _SESSIONS[name] = session
    else:
        _SESSIONS.pop(name, None)
    if line_separable and sentence_func is None:
        _LINE_SEPARABLE.add(name)
    else:
        _LINE_SEPARABLE.discard(name)
    if sentence_func is not None:
        _SENTENCE_TOKENIZERS[name] = sentence_func
    if describe is not None:
        _DESCRIPTIONS[name] = describe
    if spans is not None:
        _SPAN_FINDERS[name] = spans
    if sentence_spans is not None:
        _SENTENCE_SPAN_FINDERS[name] = sentence_spans


#: Registered tokenizers' per-scorer state factories (``session`` of :func:`register_tokenizer`).
_SESSIONS: Dict[str, Callable[[RougeConfig], Any]] = {}
#: Registered tokenizers' span finders for their ``sentence_func``.
_SENTENCE_SPAN_FINDERS: Dict[str, Callable[[str], List[Located]]] = {}
#: Registered tokenizers whose sentences are tokenized by another function.
_SENTENCE_TOKENIZERS: Dict[str, Callable[[str, Optional[CachedStemmer]], List[str]]] = {}
#: Registered tokenizers' signature names.
_DESCRIPTIONS: Dict[str, Callable[[], str]] = {}


def named_tokenizer(name: str) -> Callable[[str, Optional[CachedStemmer]], List[str]]:
    """The function ``func(text, stemmer)`` of a named tokenizer (a segmenter is loaded here, and a
    missing package raises an ImportError naming the extra)."""
    func = _NAMED_TOKENIZERS.get(name)
    if func is None and name in SEGMENTER_TOKENIZERS:
        from . import segment

        func = segment.tokenizer_function(name)
        register_tokenizer(name, func, line_separable=False, describe=lambda: segment.describe(name),
                           spans=lambda text: segment.token_spans(name, text))
        segment.describe(name)  # loads it: a missing package or dictionary fails at configuration
    if func is None:
        check_tokenizer_name(name)
        raise ValueError(f"tokenizer: {name!r} is not registered in this process")
    return func


def tokenizer_description(name: str) -> str:
    """A named tokenizer as the signature names it (``fugashi(1.5.2,dict=unidic-lite-1.0.8)``)."""
    if name in SEGMENTER_TOKENIZERS:
        named_tokenizer(name)
    describe = _DESCRIPTIONS.get(name)
    return describe() if describe is not None else name


#: Named tokenizers whose tokens of a text are the concatenation of the tokens of its lines, so the
#: text is tokenized once per line and the whole-text tokens are derived (no second pass).
_LINE_SEPARABLE = {"default", "whitespace", "unicode", "perl"}


# --------------------------------------------------------------------------------- sentence splitting
_PUNKT_HELP = (
    "sentence_splitter='nltk' (split_summaries=True) needs nltk's punkt_tab data, which is not installed. "
    "Install it with `python -m nltk.downloader punkt_tab` (or put it under $NLTK_DATA), or choose "
    "sentence_splitter='newline' (one sentence per line, rouge-score's default) and put newlines between "
    "sentences yourself. rouge_metric never downloads data."
)


def _nltk_split(text: str) -> List[str]:
    import nltk

    try:
        return nltk.sent_tokenize(text)
    except LookupError as exc:
        raise LookupError(_PUNKT_HELP) from exc


def check_nltk_punkt() -> None:
    """Raise a clear LookupError now (at scorer build time) when punkt data is missing."""
    try:
        from nltk.tokenize import punkt_model_available  # nltk >= 3.10

        ok = punkt_model_available("english")
    except ImportError:  # pragma: no cover - older nltk
        import nltk

        try:
            nltk.data.find("tokenizers/punkt_tab/english/")
            ok = True
        except LookupError:
            ok = False
    if not ok:
        raise LookupError(_PUNKT_HELP)


def newline_split(text: str) -> List[str]:
    """rouge-score's rougeLsum sentences: ``text.split("\\n")``, exactly-empty lines dropped."""
    return [s for s in text.split("\n") if s]


_NAMED_SPLITTERS: Dict[str, Callable[[str], List[str]]] = {
    "newline": newline_split,
    "nltk": _nltk_split,
    "offline": split_sentences,
}


def register_splitter(name: str, func: Callable[[str], List[str]]) -> None:
    """Register a named sentence splitter (used by optional modules)."""
    _NAMED_SPLITTERS[name] = func


# ------------------------------------------------------------------------------------------ pipeline
class TextPipeline:
    """Turns one text into the token views the kernels need, for one :class:`RougeConfig`.

    ``process(text)`` returns ``(tokens, sentences)``: the whole-text token list (rougeN, rougeL,
    rougeS/SU) and the list of per-sentence token lists (rougeLsum, rougeW; ``None`` when no
    requested type needs sentences). ``session``: this pipeline's state for a tokenizer registered with
    one (:func:`register_tokenizer`), else None.
    """

    def __init__(self, config: RougeConfig) -> None:
        self.config = config
        tok = config.tokenizer
        self.stemmer: Optional[CachedStemmer] = None
        session = _SESSIONS.get(tok) if isinstance(tok, str) else None
        self.session: Any = session(config) if session is not None else None
        self.tokenize_sentence: Optional[Callable[[str], List[str]]] = None  # None: self.tokenize
        if isinstance(tok, str):
            if config.use_stemmer:
                self.stemmer = get_stemmer(config.use_stemmer)
            func = named_tokenizer(tok)
            stemmer = self.stemmer
            self.tokenize: Callable[[str], List[str]] = lambda text: func(text, stemmer)
            self.line_separable = tok in _LINE_SEPARABLE
            sentence_func = _SENTENCE_TOKENIZERS.get(tok)
            if sentence_func is not None:
                self.tokenize_sentence = lambda text: sentence_func(text, stemmer)
            if config.stopwords:
                self.tokenize = _stopword_filtered(func, stemmer, config.stopwords)
            self._spans = _SPAN_FINDERS.get(tok)
            self._sentence_spans = _SENTENCE_SPAN_FINDERS.get(tok) if sentence_func is not None else self._spans
            self._stop = normalize_stopwords(config.stopwords, lambda w: func(w, None)) if config.stopwords else None
        else:
            if config.use_stemmer:
                import logging  # here: the only log call of the scoring path

                logging.getLogger("rouge_metric").warning(
                    "use_stemmer has no effect with a custom tokenizer (as in rouge-score): the %s stemmer is "
                    "not applied, the tokenizer replaces the whole pipeline; stem inside it if needed "
                    "(signature: stem:none)", config.use_stemmer)
            self._spans = None  # a custom tokenizer says nothing about where its tokens are
            self._sentence_spans = None
            user = tok.tokenize if callable(getattr(tok, "tokenize", None)) else tok
            self.tokenize = _checked_user_tokenizer(user)
            self.line_separable = False
            if config.stopwords:
                stop = frozenset(config.stopwords)
                user_tokenize = self.tokenize
                self.tokenize = lambda text: [t for t in user_tokenize(text) if t not in stop]
        if self.tokenize_sentence is None:
            self.tokenize_sentence = self.tokenize
        split = config.sentence_splitter
        if isinstance(split, str):
            if split == "nltk" and config.needs_sentences:
                check_nltk_punkt()
            self.split: Callable[[str], List[str]] = _NAMED_SPLITTERS[split]
        else:
            self.split = _checked_user_splitter(split)
        self.needs_sentences = config.needs_sentences
        self.needs_tokens = any(not s.uses_sentences for s in config.type_specs)
        self.newline_fast = self.line_separable and self.split is newline_split

    def process(self, text: str):
        if not self.needs_sentences:
            return self.tokenize(text), None
        if self.newline_fast:
            sents = [self.tokenize(s) for s in text.split("\n") if s]
            if not self.needs_tokens:
                return None, sents
            if len(sents) == 1:
                return sents[0], sents
            tokens: List[str] = []
            for s in sents:
                tokens.extend(s)
            return tokens, sents
        sents = [self.tokenize_sentence(s) for s in self.split(text)]
        return (self.tokenize(text) if self.needs_tokens else None), sents


    # ---- where the tokens are in the text (explanations highlight the user's words)
    def token_spans(self, text: str) -> Optional[List[Optional[Span]]]:
        """The ``(start, end)`` character span in ``text`` of every token of ``tokenize(text)``, or None
        when the tokenizer gives no spans (a custom callable, a tokenizer registered without a span
        finder) or they would not spell exactly these tokens. A token that cannot be mapped back to the
        text exactly (a segmenter that reorders characters) has None for its span. O(len(text))."""
        return self._located(text, self._spans, self.tokenize)

    def _located(self, text: str, finder: Optional[Callable[[str], List[Located]]],
                 tokenize: Callable[[str], List[str]]) -> Optional[List[Optional[Span]]]:
        if finder is None:
            return None
        raw = finder(text)
        if self._stop is not None:
            raw = [x for x in raw if x[0] not in self._stop]
        if self.stemmer is not None:
            stem = self.stemmer.stem_all
            raw = [(out[0], a, b) for t, a, b in raw for out in (stem([t]),) if out]
        if [t for t, _, _ in raw] != tokenize(text):
            return None  # never show spans that disagree with the scored tokens
        placed = [(a, b) for _, a, b in raw if a is not None and b is not None]
        if any(b > a2 for (_, b), (a2, _) in zip(placed, placed[1:])):
            return None  # two tokens from one character (NFKC's "½" -> "1⁄2"): no span of its own each
        return [(a, b) if a is not None and b is not None else None for _, a, b in raw]

    def sentence_spans(self, text: str) -> Optional[List[Tuple[Span, List[Optional[Span]]]]]:
        """Per sentence of :meth:`process` (rougeLsum, rougeW): its character range in ``text`` and the
        spans of its tokens (in ``text``), or None when a sentence cannot be located in the text or its
        tokens have no spans."""
        if self.newline_fast or self.split is newline_split:
            ranges, pos = [], 0
            for line in text.split("\n"):
                if line:
                    ranges.append((pos, pos + len(line)))
                pos += len(line) + 1
        else:
            ranges, pos = [], 0
            for sent in self.split(text):
                at = text.find(sent, pos)
                if at < 0:
                    return None
                ranges.append((at, at + len(sent)))
                pos = at + len(sent)
        out = []
        for a, b in ranges:
            spans = self._located(text[a:b], self._sentence_spans, self.tokenize_sentence)
            if spans is None:
                return None
            out.append(((a, b), [(a + sp[0], a + sp[1]) if sp is not None else None for sp in spans]))
        return out


def _stopword_filtered(func: Callable[[str, Optional[CachedStemmer]], List[str]], stemmer: Optional[CachedStemmer],
                       stopwords: Sequence[str]) -> Callable[[str], List[str]]:
    """Tokenize, drop stopwords (entries normalized by the same tokenizer), then stem."""
    stop = normalize_stopwords(stopwords, lambda w: func(w, None))

    def tokenize(text: str) -> List[str]:
        toks = [t for t in func(text, None) if t not in stop]
        return stemmer.stem_all(toks) if stemmer is not None else toks

    return tokenize


def _checked_user_tokenizer(func: Callable[[str], Sequence[str]]) -> Callable[[str], List[str]]:
    def tokenize(text: str) -> List[str]:
        out = func(text)
        if isinstance(out, str) or not isinstance(out, (list, tuple)):
            raise TypeError(
                f"tokenizer: a custom tokenizer must return a list of str, got {type(out).__name__} "
                f"for input {text[:40]!r}"
            )
        for i, t in enumerate(out):  # O(tokens): a non-str token would be compared by identity/hash
            if not isinstance(t, str):
                raise TypeError(
                    f"tokenizer: a custom tokenizer must return a list of str, got {type(t).__name__} {t!r} "
                    f"at position {i} for input {text[:40]!r}"
                )
        return list(out)

    return tokenize


def _checked_user_splitter(func: Callable[[str], Sequence[str]]) -> Callable[[str], List[str]]:
    def split(text: str) -> List[str]:
        out = func(text)
        if isinstance(out, str) or not isinstance(out, (list, tuple)):
            raise TypeError(
                f"sentence_splitter: a custom splitter must return a list of str, got {type(out).__name__}"
            )
        return [s for s in out if s]

    return split
