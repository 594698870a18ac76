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
    span of every token and the range shown (a sentence's, or the whole text). A token whose span is None
    (not mapped back to the text exactly) has no piece of its own: its characters are shown as plain
    text, never highlighted."""

    def __init__(self, tokens: Sequence[str], text: Optional[str] = None,
                 spans: Optional[Sequence[Optional[Span]]] = None, rng: Optional[Span] = None) -> None:
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
        for i, span in enumerate(self.spans or ()):
            if span is None:
                continue
            a, b = span
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
        spans = self.spans or ()
        return [self.tokens[i] if spans[i] is None else self.text[spans[i][0]:spans[i][1]]  # type: ignore[index]
                for i in positions]

    def unit(self, unit: Sequence[str], sep: str) -> str:
        """A matched unit in the shown form: each token as the first word of this text that gave it (a
        whitespace token as :data:`SPACE_MARK`)."""
        unit = [SPACE_MARK if t.isspace() else t for t in unit]
        if self.text is None:
            return sep.join(unit)
        first: Dict[str, int] = {}
        for i, t in enumerate(self.tokens):
            if (self.spans or ())[i] is not None:
                first.setdefault(t, i)
        return sep.join(self.words([first[t]])[0] if t in first else t for t in unit)


#: How a matched unit shows a token made of whitespace (the XL-Sum recipe scores the space between two
#: segmented words as a token).
SPACE_MARK = "␣"


def pred_shown(ex: "Explanation", original: bool) -> Shown:
    """The prediction, as its words (``original``, when it has spans) or as its tokens."""
    return Shown(ex.pred_tokens, ex.prediction, ex.pred_spans if original else None)


def ref_shown(ref: "ReferenceExplanation", original: bool) -> Shown:
    """One reference, as its words (``original``, when it has spans) or as its tokens."""
    return Shown(ref.tokens, ref.reference, ref.spans if original else None)


def sentence_shown(tokens: Sequence[str], text: str, ranges: Optional[Sequence[Span]],
                   spans: Optional[Sequence[Sequence[Optional[Span]]]], k: int, original: bool) -> Shown:
    """Sentence ``k`` of ``text`` (``ranges``/``spans``: per sentence its range and token spans), as its
    words or, when not ``original`` or not located, as its ``tokens``."""
    if not original or ranges is None or spans is None:
        return Shown(tokens)
    return Shown(tokens, text, spans[k], ranges[k])


def number(x: float) -> str:
    """A count as shown: an integer without decimals, a weighted (rougeW) count with 4 digits."""
    return str(int(x)) if float(x).is_integer() else f"{x:.4g}"


def shown_note(ex: "Explanation", original: bool, how: str, unlocated: bool = True) -> str:
    """What the display shows; ``how`` names the switch to the normalized tokens; ``unlocated``: also
    which tokens are not highlighted for want of a span (a display that says it elsewhere passes False)."""
    if original:
        out = f"shown: your texts, the words whose tokens match highlighted (the normalized tokens: {how})"
        return out + (f"; {ex.unlocated_note}" if ex.unlocated_note and unlocated else "")
    why = f" ({ex.spans_note})" if ex.spans_note else ""
    return "shown: the tokens as the scorer sees them (tokenizer, lower-casing, stemming)" + why

