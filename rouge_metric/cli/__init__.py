"""Command line: ``rouge-metric score | compare | explain | export-space | generate-and-score``.

``score`` reads line-aligned text files, JSONL files (``--prediction-field`` / ``--references-field``)
or datasets saved with ``Dataset.save_to_disk``, and prints a table with confidence intervals (when
bootstrapping) and the signature, or ``--json``; ``--per-example FILE`` writes per-example scores as
JSONL. ``compare`` tests whether systems differ from a baseline (paired bootstrap or approximate
randomization, :func:`rouge_metric.compare`). ``explain`` shows why one example scores what it does.
``export-space`` writes a Hub Space folder. ``generate-and-score`` generates, then scores.
``print`` is used here only. Exit codes: see :data:`EXIT_CODES` (and ``docs/cli.md``).

Modules: :mod:`.app` (parser, ``main``, exit codes of errors), :mod:`.options` (the options of
:class:`~rouge_metric.RougeConfig`'s fields, from their metadata), :mod:`.inputs` (predictions and
references of the command line, through :mod:`rouge_metric.readers`), :mod:`.errors` (exit codes), and
one module per subcommand (:mod:`.score`, :mod:`.explain`, :mod:`.compare`, :mod:`.export_space`,
:mod:`.generate`).
"""

from ..readers import FORMATS, STDIN, detect_format, read_lines, select_split
from .errors import (EXIT_CODES, EXIT_EMPTY, EXIT_FILE, EXIT_FORMAT, EXIT_INTERRUPTED, EXIT_MISALIGNED, EXIT_OK,
                     EXIT_RESOURCE, EXIT_USAGE, InputError)
from .inputs import load_inputs, read_dataset, read_jsonl
from .app import build_parser, console_main, main
from .options import AGGREGATION_FIELDS, IDS_FIELDS, add_config_arguments, config_from_args
from .score import SCORE_CHUNK

__all__ = ["AGGREGATION_FIELDS", "EXIT_CODES", "EXIT_EMPTY", "EXIT_FILE", "EXIT_FORMAT", "EXIT_INTERRUPTED",
           "EXIT_MISALIGNED", "EXIT_OK", "EXIT_RESOURCE", "EXIT_USAGE", "FORMATS", "IDS_FIELDS", "InputError",
           "SCORE_CHUNK", "STDIN", "add_config_arguments", "build_parser", "config_from_args", "console_main",
           "detect_format", "load_inputs", "main", "read_dataset", "read_jsonl", "read_lines", "select_split"]
