"""Boundary checks: plain_batch is true exactly for batches that validate_batch accepts and that every
entry point scores as they are."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge_metric import Rouge, core
from rouge_metric.inputs import plain_batch, validate_batch

IMPLEMENTATIONS = ["native", "python"] if core.native_available() else ["python"]


@pytest.fixture(params=IMPLEMENTATIONS)
def implementation(request, monkeypatch):
    """plain_batch's native loop (_native.plain_texts), or its Python twin (no native core)."""
    if request.param == "python":
        monkeypatch.setattr(core, "native_module", lambda: None)
    return request.param


class Text(str):
    pass


@pytest.mark.parametrize("predictions, references, plain", [
    (["a b", "c"], ["a", "c d"], True),
    (["a b", "c"], [["a", "b c"], "c d"], True),
    (["a"], [["a"]], True),
    ([], [], False),  # validate_batch accepts it; the entry points refuse an empty batch themselves
    (["a"], ["a", "b"], False),
    (("a",), ["a"], False),
    (["a"], ("a",), False),
    (["a"], [("a",)], False),
    (["a"], [[]], False),
    (["a"], [["a", None]], False),
    ([Text("a")], ["a"], False),
    (["a"], [[Text("a")]], False),
    (["a", 1], ["a", "b"], False),
    ("a", ["a"], False),
])
def test_plain_batch(implementation, predictions, references, plain):
    assert plain_batch(predictions, references) is plain
    if plain:
        preds, refs = validate_batch(predictions, references)
        assert preds == predictions and all(r == ([o] if isinstance(o, str) else o) for r, o in zip(refs, references))
        rouge = Rouge(["rouge1", "rougeLsum"])
        assert rouge.compute(predictions=predictions, references=references).scores == \
            rouge.compute(predictions=preds, references=refs).scores


_text = st.sampled_from(["a", "b c", "", "\u00e9t\u00e9", "x\ny"])
_item = st.one_of(_text, _text, _text, st.sampled_from([Text("a"), None, 1, b"a"]))  # mostly str
_ref = st.one_of(_item, st.lists(_item, max_size=3), st.lists(_text, min_size=1, max_size=3), st.tuples(_text))


@st.composite
def _batches(draw):
    """Batches that are plain about half the time, and every way of not being one."""
    n = draw(st.integers(0, 4))
    preds = draw(st.lists(_item, min_size=n, max_size=n))
    refs = draw(st.lists(_ref, min_size=n, max_size=n) | st.lists(_ref, max_size=5))
    wrap = draw(st.sampled_from([list, list, list, tuple]))
    return (wrap(preds) if draw(st.booleans()) else preds), (wrap(refs) if draw(st.booleans()) else refs)


@pytest.mark.skipif("native" not in IMPLEMENTATIONS, reason="native extension not built")
@settings(max_examples=400, deadline=None)
@given(batch=_batches())
def test_native_and_python_plain_batch_agree(batch):
    predictions, references = batch
    native = plain_batch(predictions, references)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(core, "native_module", lambda: None)
        assert plain_batch(predictions, references) is native
