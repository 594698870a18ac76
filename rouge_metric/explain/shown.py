"""How the renderers show a text: the user's own words, each token on the characters it came from,
or the normalized tokens (``tokens=True``, and whenever the tokenizer gives no character spans).

Shared by :mod:`rouge_metric.explain.render_text` and :mod:`rouge_metric.explain.render_html`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from ..text import Span

if TYPE_CHECKING:  # annotations only: the records import their renderers, not the reverse
    from .evidence import Explanation, ReferenceExplanation


class Shown:
    """One text as the display shows it: its tokens, and (original mode) the text with the character
    span of every token and the range shown (a sentence's, or the whole text)."""

    def __init__(self, tokens: Sequence[str], text: Optional[str] = None,
                 spans: Optional[Sequence[Span]] = None, rng: Optional[Span] = None) -> None:
        self.tokens = tokens
        self.text = text if spans is not None else None
        self.spans = spans
        self.rng = rng if rng is not None else (0, len(text or ""))

    def pieces(self) -> List[Tuple[str, Optional[int]]]:
        """``(text, token position or None for the characters between tokens)`` in order."""
        if self.text is None:
            out: List[Tuple[str, Optional[int]]] = []
            for i, t in enumerate(self.tokens):
                if i:
                    out.append((" ", None))
                out.append((t, i))
            return out
        out, pos = [], self.rng[0]
        for i, (a, b) in enumerate(self.spans or ()):
            if a > pos:
                out.append((self.text[pos:a], None))
            out.append((self.text[a:b], i))
            pos = b
        if self.rng[1] > pos:
            out.append((self.text[pos:self.rng[1]], None))
        return out

    def words(self, positions: Sequence[int]) -> List[str]:
        """The shown form of the tokens at ``positions`` (the original words, or the tokens)."""
        if self.text is None:
            return [self.tokens[i] for i in positions]
        return [self.text[self.spans[i][0]:self.spans[i][1]] for i in positions]  # type: ignore[index]

    def unit(self, unit: Sequence[str], sep: str) -> str:
        """A matched unit in the shown form: each token as the first word of this text that gave it."""
        if self.text is None:
            return sep.join(unit)
        first: Dict[str, int] = {}
        for i, t in enumerate(self.tokens):
            first.setdefault(t, i)
        return sep.join(self.words([first[t]])[0] if t in first else t for t in unit)


def pred_shown(ex: "Explanation", original: bool) -> Shown:
    """The prediction, as its words (``original``, when it has spans) or as its tokens."""
    return Shown(ex.pred_tokens, ex.prediction, ex.pred_spans if original else None)


def ref_shown(ref: "ReferenceExplanation", original: bool) -> Shown:
    """One reference, as its words (``original``, when it has spans) or as its tokens."""
    return Shown(ref.tokens, ref.reference, ref.spans if original else None)


def sentence_shown(tokens: Sequence[str], text: str, ranges: Optional[Sequence[Span]],
                   spans: Optional[Sequence[Sequence[Span]]], k: int, original: bool) -> Shown:
    """Sentence ``k`` of ``text`` (``ranges``/``spans``: per sentence its range and token spans), as its
    words or, when not ``original`` or not located, as its ``tokens``."""
    if not original or ranges is None or spans is None:
        return Shown(tokens)
    return Shown(tokens, text, spans[k], ranges[k])


def number(x: float) -> str:
    """A count as shown: an integer without decimals, a weighted (rougeW) count with 4 digits."""
    return str(int(x)) if float(x).is_integer() else f"{x:.4g}"


def shown_note(ex: "Explanation", original: bool, how: str) -> str:
    """What the display shows; ``how`` names the switch to the normalized tokens."""
    if original:
        return f"shown: your texts, the words whose tokens match highlighted (the normalized tokens: {how})"
    why = f" ({ex.spans_note})" if ex.spans_note else ""
    return "shown: the tokens as the scorer sees them (tokenizer, lower-casing, stemming)" + why

