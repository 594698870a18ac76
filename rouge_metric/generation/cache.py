"""The generation cache: a JSONL file of finished generations, keyed by example index, document hash and
settings hash, so a rerun generates only what is missing (format: :data:`CACHE_FORMAT`)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from typing import Any, Dict, List, Mapping, Sequence, Tuple, Union

logger = logging.getLogger("rouge_metric")

#: Marker of the cache file format (first key of its settings lines).
CACHE_FORMAT = "rouge_metric.generation_cache/1"

#: The settings key naming what generated the rows (``module:qualname``, :func:`generator_name`): two
#: generators never share cached rows, whatever else their settings say.
GENERATOR_KEY = "generator_callable"

_HASH_CHARS = 16  # 64 bits of sha256: ample to tell documents and settings apart

def sha(text: str) -> str:
    """The first :data:`_HASH_CHARS` hex digits of the sha256 of ``text``."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_CHARS]


def document_sha(document: Any) -> str:
    """The hash of a document: its text, or the ``input_ids`` of a tokenized row."""
    if isinstance(document, str):
        return sha(document)
    ids = document["input_ids"]
    ids = ids.tolist() if hasattr(ids, "tolist") else list(ids)
    return sha("input_ids:" + json.dumps(ids))


def canonical_settings(settings: Mapping[str, Any]) -> str:
    """The settings as canonical JSON (sorted keys): what the settings hash is taken of."""
    try:
        return json.dumps(settings, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"settings: must be JSON values (str, numbers, bools, None, lists, dicts): {exc}") from None


def describe_examples(indices: Sequence[int]) -> str:
    if len(indices) == 1:
        return f"example {indices[0]}"
    if list(indices) == list(range(indices[0], indices[-1] + 1)):
        return f"examples {indices[0]}-{indices[-1]}"
    shown = ", ".join(map(str, indices[:6]))
    return f"examples {shown}" + (f", ... ({len(indices)} in all)" if len(indices) > 6 else "")


def settings_diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """``key: old -> new`` for every setting that differs (``(unset)`` where a side lacks the key)."""
    show = lambda d, k: json.dumps(d[k]) if k in d else "(unset)"  # noqa: E731
    parts = [f"{k}: {show(old, k)} -> {show(new, k)}" for k in sorted(set(old) | set(new))
             if (k in old) != (k in new) or old.get(k) != new.get(k)]
    return "; ".join(parts) if parts else "(the same keys and values)"


class GenerationCache:
    """The JSONL cache of finished generations, one file per run (or per series of resumed runs).

    Lines: ``{"format": ..., "settings_sha256": h, "settings": {...}}`` once per settings used, then one
    ``{"index": i, "document_sha256": d, "settings_sha256": h, "prediction": "..."}`` per generation.
    A later line for the same index and settings replaces an earlier one. A last line cut short by an
    interruption is dropped (and cut off the file before the next append).
    """

    def __init__(self, path: Union[str, "os.PathLike[str]"], settings: Mapping[str, Any]) -> None:
        self.path = os.fspath(path)
        self.settings = dict(settings)
        self.settings_json = canonical_settings(self.settings)
        self.settings_hash = sha(self.settings_json)
        self._valid_size = 0
        self._known_settings: Dict[str, Dict[str, Any]] = {}
        self._entries: List[Tuple[int, str, str, str]] = []
        self._fh: Any = None
        if os.path.isdir(self.path):
            raise IsADirectoryError(f"cache: {self.path} is a directory; give a file path (e.g. generations.jsonl)")
        if os.path.exists(self.path):
            self._read()

    def _read(self) -> None:
        with open(self.path, "rb") as fh:
            data = fh.read()
        end = data.rfind(b"\n") + 1  # lines after the last newline were cut by an interruption
        if end < len(data):
            logger.warning("cache %s: dropping an unfinished last line (%d bytes) left by an interrupted run",
                           self.path, len(data) - end)
        self._valid_size = end
        for lineno, raw in enumerate(data[:end].split(b"\n")[:-1], 1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw.decode("utf-8"))
                if "format" in obj:
                    if obj["format"] != CACHE_FORMAT:
                        raise ValueError(f"unknown format {obj['format']!r}")
                    self._known_settings[obj["settings_sha256"]] = obj["settings"]
                else:
                    entry = (obj["index"], obj["document_sha256"], obj["settings_sha256"], obj["prediction"])
                    if not (isinstance(entry[0], int) and isinstance(entry[3], str)):
                        raise ValueError("bad index or prediction")
                    self._entries.append(entry)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise ValueError(f"cache: {self.path}:{lineno}: not a line of a rouge_metric generation cache "
                                 f"({exc}); give another cache path") from None

    def lookup(self, documents: Sequence[Any]
               ) -> Tuple[Dict[int, str], List[int], List[int], Dict[str, Dict[str, Any]]]:
        """``(found, changed_documents, other_settings, their settings)`` for the current documents:
        ``found[i]`` is the cached generation of example i; the two lists name the examples that have no
        valid entry but an entry made for another document, or only entries made with other settings."""
        doc_hashes = [document_sha(d) for d in documents]
        found: Dict[int, str] = {}
        stale_doc, stale_settings = set(), set()
        other: Dict[str, Dict[str, Any]] = {}
        for i, dh, sh, pred in self._entries:
            if not 0 <= i < len(documents):
                continue  # an example beyond the data (a subset of a larger run): unused
            if sh != self.settings_hash:
                stale_settings.add(i)
                other[sh] = self._known_settings.get(sh, {})
            elif dh != doc_hashes[i]:
                stale_doc.add(i)
            else:
                found[i] = pred
        return (found, sorted(stale_doc - set(found)), sorted(stale_settings - set(found) - stale_doc), other)

    def append(self, items: Sequence[Tuple[int, Any, Any]]) -> None:
        """Append ``(index, document, prediction)`` lines, then flush them to the disk."""
        if self._fh is None:
            if os.path.exists(self.path) and os.path.getsize(self.path) > self._valid_size:
                with open(self.path, "r+b") as fh:
                    fh.truncate(self._valid_size)
            parent = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(parent, exist_ok=True)
            self._fh = open(self.path, "a", encoding="utf-8", newline="\n")
            if self.settings_hash not in self._known_settings:
                self._write({"format": CACHE_FORMAT, "settings_sha256": self.settings_hash,
                             "settings": json.loads(self.settings_json)})
                self._known_settings[self.settings_hash] = self.settings
        for i, doc, pred in items:
            self._write({"index": i, "document_sha256": document_sha(doc), "settings_sha256": self.settings_hash,
                         "prediction": pred})
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def _write(self, obj: Mapping[str, Any]) -> None:
        self._fh.write(json.dumps(obj, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
