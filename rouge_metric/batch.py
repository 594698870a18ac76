"""``datasets.map`` scoring: per-example ROUGE columns, and their corpus aggregate.

:class:`RougeMapper` is a callable for ``Dataset.map(batched=True, num_proc=N)``. It adds, per rouge
type, the columns named by :func:`rouge_metric.result.output_key` (``rougeL`` = F, ``rougeL_precision``,
``rougeL_recall``) plus the token lengths, and :func:`aggregate_dataset` turns a scored dataset into
the same :class:`CorpusResult` as :meth:`Rouge.compute` (exact mean through the core's
:class:`CorpusAccumulator`; bootstrap intervals when configured). No arithmetic lives here.

Fingerprinting (``datasets`` hashes the mapper with dill to name its cache files): the mapper
pickles as its *settings* (the :class:`RougeConfig`, the column names) plus the package version,
never as the live scorer. So the fingerprint is the same in every process (the live scorer holds
nltk's ``PorterStemmer``, whose ``frozenset`` hashes differently per process), and it changes when a
setting or the package version changes (the class itself is pickled by reference, so a code change
without a version change would otherwise reuse a stale cache).

>>> from datasets import Dataset
>>> ds = Dataset.from_dict({"prediction": ["the cat sat", "a dog"],
...                         "references": [["the cat sat down"], ["a dog barked", "dogs"]]})
>>> mapper = RougeMapper(rouge_types=["rouge1", "rougeL"])
>>> scored = ds.map(mapper, batched=True)
>>> scored.column_names
['prediction', 'references', 'rouge1', 'rouge1_precision', 'rouge1_recall', 'rougeL', 'rougeL_precision', 'rougeL_recall', 'pred_len', 'ref_len']
>>> [round(x, 4) for x in scored["rouge1"]]
[0.8571, 0.8]
>>> result = mapper.aggregate(scored)
>>> round(result.scores["rouge1"].fmeasure, 4), result.n
(0.8286, 2)
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence

from ._version import __version__
from .config import DEFAULT_ROUGE_TYPES, RougeConfig
from .result import STATS, CorpusResult, Score, output_key
from .scoring import Rouge, check_prediction, normalize_references

#: Columns holding the prediction length and the mean reference length (in tokens) of each example.
PRED_LEN_COLUMN = "pred_len"
REF_LEN_COLUMN = "ref_len"


def _is_row(prediction_cell: Any, indices: Any) -> bool:
    """Whether ``datasets.map`` called without ``batched=True``: then the index is an int and a
    prediction cell is a value (a str, or a bad non-list value the row check will name), while a
    batched call gives a list (or, with a numpy/pandas format, an array) per column."""
    if isinstance(indices, int) or isinstance(prediction_cell, str):
        return True
    return not isinstance(prediction_cell, (list, tuple)) and not hasattr(prediction_cell, "tolist")


class RougeMapper:
    """A picklable, fingerprint-stable ``Dataset.map(batched=True)`` function adding ROUGE columns.

    Args:
        rouge_types: the rouge types (see :class:`RougeConfig`).
        prediction_column: the column holding the prediction text.
        references_column: the column holding the reference(s): a string or a list of strings per row.
        lengths: also add :data:`PRED_LEN_COLUMN` / :data:`REF_LEN_COLUMN` (token counts; used by
            :func:`aggregate_dataset` for the mean lengths of the result).
        config: a :class:`RougeConfig` instead of ``rouge_types`` and ``options``.
        backend: the kernel backend (``auto``/``python``/``native``; the numbers are the same).
        **options: other :class:`RougeConfig` fields (``use_stemmer``, ``tokenizer``, ``multi_ref``, ...).

    Call it with ``with_indices=True`` to have errors name the dataset row instead of the row
    within the batch. ``map(mapper)`` without ``batched=True`` also works (one row per call, the same
    values; batched is faster: the whole batch goes through the batch scorer).
    """

    def __init__(self, rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES, *,
                 prediction_column: str = "prediction", references_column: str = "references",
                 lengths: bool = True, config: Optional[RougeConfig] = None, backend: Optional[str] = None,
                 **options: Any) -> None:
        if config is None:
            types = (rouge_types,) if isinstance(rouge_types, str) else tuple(rouge_types)
            config = RougeConfig(rouge_types=types, **options)
        elif options:
            config = config.replace(**options)
        for arg, val in (("prediction_column", prediction_column), ("references_column", references_column)):
            if not isinstance(val, str) or not val:
                raise TypeError(f"{arg}: expected a column name (non-empty str), got {val!r}")
        self.config = config
        self.prediction_column = prediction_column
        self.references_column = references_column
        self.lengths = bool(lengths)
        self.backend = backend
        self._rouge: Optional[Rouge] = None
        self._rouge = self.rouge  # build now: bad settings fail here, not inside a map worker

    # ----------------------------------------------------------------------- the scorer
    @property
    def rouge(self) -> Rouge:
        """The live scorer (built lazily after unpickling, once per process)."""
        if self._rouge is None:
            self._rouge = Rouge(config=self.config, backend=self.backend)
        return self._rouge

    def output_columns(self) -> List[str]:
        """The names of the columns this mapper adds, in order."""
        cols = [output_key(t, s) for t in self.config.rouge_types for s in ("fmeasure", "precision", "recall")]
        if self.lengths:
            cols += [PRED_LEN_COLUMN, REF_LEN_COLUMN]
        return cols

    # ------------------------------------------------------------------------ pickling
    def __getstate__(self) -> Dict[str, Any]:
        # The settings and the version, never the live scorer: this is what datasets hashes.
        return {
            "config": self.config,
            "prediction_column": self.prediction_column,
            "references_column": self.references_column,
            "lengths": self.lengths,
            "backend": self.backend,
            "version": __version__,
        }

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.config = state["config"]
        self.prediction_column = state["prediction_column"]
        self.references_column = state["references_column"]
        self.lengths = state["lengths"]
        self.backend = state["backend"]
        self._rouge = None

    def __repr__(self) -> str:
        return (f"RougeMapper({self.config.signature(self.rouge.backend)!r}, "
                f"prediction_column={self.prediction_column!r}, references_column={self.references_column!r})")

    # ------------------------------------------------------------------------- mapping
    def _column(self, batch: Dict[str, Any], name: str, arg: str) -> Any:
        try:
            return batch[name]
        except KeyError:
            raise KeyError(
                f"{arg}: column {name!r} not found; the dataset has columns {sorted(batch)}"
            ) from None

    def __call__(self, batch: Dict[str, Any], indices: Any = None) -> Dict[str, Any]:
        """Score a batch (``map(batched=True)``: columns are lists, the result columns are lists) or
        one row (``map()`` without ``batched``: cells are values, the result holds one value per
        column; the same numbers)."""
        preds = self._column(batch, self.prediction_column, "prediction_column")
        refs = self._column(batch, self.references_column, "references_column")
        if _is_row(preds, indices):
            # map() without batched=True hands one row: its prediction cell is a str (iterating it
            # would score its characters as examples). Score it as a batch of one.
            # Without with_indices the row number is unknown: errors say "[?]" and how to get it.
            row: Sequence[Any] = [indices] if isinstance(indices, int) else ["?"]
            try:
                out = self._score([preds], [refs], row)
            except (TypeError, ValueError) as exc:
                if isinstance(indices, int):
                    raise
                raise type(exc)(f"{exc} (map with with_indices=True to have the row number)") from None
            return {k: v[0] for k, v in out.items()}
        return self._score(preds, refs, indices)

    def _score(self, preds: Sequence[Any], refs: Sequence[Any], indices: Optional[Sequence[int]]
               ) -> Dict[str, List[Any]]:
        if len(preds) != len(refs):  # pragma: no cover - columns of one batch have one length
            raise ValueError(f"{self.prediction_column} and {self.references_column}: {len(preds)} and "
                             f"{len(refs)} values in one batch")
        if indices is None:
            indices = range(len(preds))
        # Validate at the boundary (errors name the column and the row), then score the whole batch
        # through the scorer's batch path (the native batch scorer when available).
        p_list = [check_prediction(p, idx, self.prediction_column) for idx, p in zip(indices, preds)]
        r_list = [normalize_references(r, idx, self.references_column) for idx, r in zip(indices, refs)]
        # The columns from the batches' flat values (P, R, F of each type; the two lengths), one column
        # at a time: the same floats as each example's Score, without a Score object per example.
        out: Dict[str, List[Any]] = {k: [] for k in self.output_columns()}
        for batch in self.rouge.score_batches(predictions=p_list, references=r_list, values=True, scores=False):
            for key, values in batch.columns():
                out[key].extend(values)
            if self.lengths:
                out[PRED_LEN_COLUMN].extend(batch.lengths[0::2])
                out[REF_LEN_COLUMN].extend(batch.lengths[1::2])
        return out

    # ------------------------------------------------------------------------ corpus
    def aggregate(self, dataset: Any, batch_size: int = 1000) -> CorpusResult:
        """The corpus result of a dataset scored by this mapper (see :func:`aggregate_dataset`)."""
        return aggregate_dataset(dataset, self, batch_size=batch_size)


def aggregate_dataset(dataset: Any, mapper: RougeMapper, batch_size: int = 1000) -> CorpusResult:
    """Aggregate the columns written by ``mapper`` into a :class:`CorpusResult` with the signature.

    The per-example P/R/F go through the core's :class:`CorpusAccumulator` (exact mean; values kept
    for the bootstrap when ``aggregation="bootstrap"``), so the result equals
    ``Rouge(config=mapper.config).compute(...)`` on the same texts. Streams the dataset in batches
    (``Dataset`` or ``IterableDataset``); row selections and shuffles are respected. Mean lengths are
    NaN when the lengths columns are absent.
    """
    rouge = mapper.rouge
    types = mapper.config.rouge_types
    keys = {t: [output_key(t, s) for s in STATS] for t in types}
    columns = getattr(dataset, "column_names", None)
    if columns is not None:
        missing = [k for t in types for k in keys[t] if k not in columns]
        if missing:
            raise ValueError(
                f"dataset: missing score column(s) {missing}; map the dataset with this mapper first "
                f"(dataset.map(mapper, batched=True)); the dataset has columns {list(columns)}"
            )
        has_lengths = PRED_LEN_COLUMN in columns and REF_LEN_COLUMN in columns
        wanted = [k for t in types for k in keys[t]] + ([PRED_LEN_COLUMN, REF_LEN_COLUMN] if has_lengths else [])
        if hasattr(dataset, "select_columns"):
            dataset = dataset.select_columns(wanted)
    if hasattr(dataset, "with_format"):
        dataset = dataset.with_format(None)  # plain Python lists, whatever format the user set
    acc = rouge.accumulator()
    nan = math.nan
    for batch in dataset.iter(batch_size=batch_size):
        cols = {t: [batch[k] for k in keys[t]] for t in types}
        pl = batch.get(PRED_LEN_COLUMN)
        rl = batch.get(REF_LEN_COLUMN)
        n = len(cols[types[0]][0])
        for i in range(n):
            scores = {t: Score(c[0][i], c[1][i], c[2][i]) for t, c in cols.items()}
            acc.add(scores, pl[i] if pl is not None else nan, rl[i] if rl is not None else nan)
    return rouge.result(acc)
