"""Boundary checks: plain_batch is true exactly for batches that validate_batch accepts and that every
entry point scores as they are."""

import pytest

from rouge_metric import Rouge
from rouge_metric.inputs import plain_batch, validate_batch


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
def test_plain_batch(predictions, references, plain):
    assert plain_batch(predictions, references) is plain
    if plain:
        preds, refs = validate_batch(predictions, references)
        assert preds == predictions and all(r == ([o] if isinstance(o, str) else o) for r, o in zip(refs, references))
        rouge = Rouge(["rouge1", "rougeLsum"])
        assert rouge.compute(predictions=predictions, references=references).scores == \
            rouge.compute(predictions=preds, references=refs).scores
