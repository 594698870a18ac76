"""``rouge-metric export-space DIR``: a Hugging Face Space folder for the evaluate metric.

The folder holds

* ``README.md``: the metric card (``hub_card.md`` of the repository, with the Space's YAML header);
* ``rouge_metric.py``: the ``evaluate.Metric`` script, and every package module it needs, found by
  following the relative imports (``from .x import y``, also inside functions) of the script and of
  :mod:`rouge_metric.explain` transitively (a subpackage is copied as its folder, ``explain/``).
  ``evaluate`` copies the siblings the script imports at module level, so ``evaluate.load(DIR)`` works where this package is not installed (the
  pure-Python kernels give the same numbers); where the installed package is this very code, the copy
  uses its native core (:func:`rouge_metric.core._installed_native`; the signature says ``backend:``);
* ``app.py``: a Gradio app: the scores of one example and its explanation rendered by
  :func:`rouge_metric.explain.explanation_html` (matches highlighted in both texts, legend, P/R/F
  table, counts, cross-check), with examples; its choices (rouge types, tokenizers, multi-reference
  modes, languages) and defaults are read from the copied settings (:data:`rouge_metric.config.ROUGE_TYPE_CHOICES`,
  ``TOKENIZERS``, ``MULTI_REF_MODES``, :class:`rouge_metric.config.RougeConfig`, the languages of
  :mod:`rouge_metric.xlsum`); a language picks the word segmenter (Chinese, Japanese, Thai, Burmese) and
  the stemmer, and the ``xlsum`` recipe scores as XL-Sum's scorer; errors shown as messages;
* ``requirements.txt``: the runtime dependencies (gradio comes from the card's ``sdk_version``; a local
  preview: ``pip install -r requirements.txt gradio==<sdk_version>``, then ``python app.py``).

``evaluate.load(DIR)`` (and ``evaluate.load("<user>/<space>")``) looks for the script named after the
folder, so the metric script is written as ``DIR/<folder name>.py`` (``rouge_metric.py`` for a folder
named ``rouge_metric``): any folder name works except one that is a copied module's name or is not a
plain file name. The card is ``hub_card.md`` of the source checkout, or the copy a wheel carries.

One file over 400 lines because the app is one template (``APP_TEMPLATE``, written out as ``app.py``)
that only makes sense beside the export that fills it in and the module list it imports from.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set

PACKAGE_DIR = Path(__file__).resolve().parent
SCRIPT = "rouge_metric.py"
#: The folder name evaluate.load(DIR) requires (the script name without .py).
SPACE_NAME = "rouge_metric"
#: Modules the Space needs besides their own imports: the metric script, and the explanation, the
#: settings and the recipes (app.py imports them).
ENTRY_MODULES = ("rouge_metric", "explain", "config", "xlsum", "recipes")
# The card lives at the repository root; a built wheel carries a copy inside the package (setup.py).
DEFAULT_CARD = next((p for p in (PACKAGE_DIR / "hub_card.md", PACKAGE_DIR.parent / "hub_card.md") if p.exists()),
                    PACKAGE_DIR.parent / "hub_card.md")
FALLBACK_REQUIREMENTS = ("numpy>=1.22", "nltk>=3.8", "evaluate>=0.4.0", "datasets>=2.14", "jieba>=0.42",
                         "fugashi>=1.3", "unidic-lite>=1.0.8", "pythainlp>=4",
                         "pyonmttok>=1.37; python_version < '3.13'", "TurkishStemmer>=1.3")
#: The extras whose dependencies the Space installs: the evaluate module, and the word segmenters and
#: stemmers of its language choice.
SPACE_EXTRAS = ("evaluate", "multilingual")


def module_file(name: str, package_dir: Path = PACKAGE_DIR) -> Optional[Path]:
    """The source file of the package module ``name`` (dotted, relative to the package: ``scoring``,
    ``explain``, ``explain.checks``): ``name.py``, or ``name/__init__.py`` for a subpackage; None when there
    is none (the compiled ``_native``, a name that is not a module)."""
    base = Path(package_dir).joinpath(*name.split("."))
    for path in (base.with_name(base.name + ".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def relative_imports(path: Path, package_dir: Path = PACKAGE_DIR) -> Set[str]:
    """Package modules imported relatively by the module file ``path`` (inside ``package_dir``), as
    dotted names relative to the package: ``from .x import y`` gives ``x``, ``from ..text import Span``
    in ``explain/evidence.py`` gives ``text``, ``from . import x`` gives ``x`` (or, when ``x`` is no
    module, the importing package itself). Imports at any depth of the code count (lazy imports inside
    functions too); absolute imports do not."""
    path = Path(path)
    here = list(path.resolve().parent.relative_to(Path(package_dir).resolve()).parts)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: Set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.level or node.level - 1 > len(here):
            continue
        module = here[:len(here) - (node.level - 1)] + (node.module.split(".") if node.module else [])
        subs = [".".join(module + [a.name]) for a in node.names]
        subs = [n for n in subs if module_file(n, package_dir) is not None]
        out.update(subs)
        if module and (node.module or len(subs) < len(node.names)):
            out.add(".".join(module))
    return out


def needed_modules(entries: Iterable[str] = ENTRY_MODULES, package_dir: Path = PACKAGE_DIR) -> List[str]:
    """The source files of the package modules reachable from ``entries`` through relative imports, as
    sorted paths relative to the package (``aggregate.py``, ``explain/__init__.py``, ...); a submodule
    brings its packages' ``__init__.py``. Names without a source file (the compiled ``_native``) are
    skipped: the copy uses the pure-Python kernels."""
    seen: Set[str] = set()
    files: Set[str] = set()
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = module_file(name, package_dir)
        if path is None:
            continue
        files.add(path.relative_to(package_dir).as_posix())
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        todo.extend(relative_imports(path, package_dir) - seen)
    return sorted(files)


def requirements() -> List[str]:
    """What the Space needs (from the installed package's metadata), gradio excluded: the core
    dependencies and those of the extras :data:`SPACE_EXTRAS` (the Space runs the evaluate module, and its
    language choice the segmenters and stemmers of ``[multilingual]``)."""
    try:
        from importlib.metadata import requires

        reqs = requires("rouge-metric-hf") or []
    except Exception:  # PackageNotFoundError, or no metadata at all
        reqs = []
    deps = []
    extras = {f'extra=="{e}"' for e in SPACE_EXTRAS}
    for r in reqs:
        req, _, marker = r.partition(";")
        if "extra" not in marker:
            line = r.strip()
        else:
            # 'pkg; python_version < "3.13" and extra == "multilingual"': a Space extra's requirement keeps
            # its other conditions; another extra's is dropped
            clauses = [c.strip() for c in marker.split(" and ")]
            if not any(c.replace(" ", "").replace("'", '"') in extras for c in clauses):
                continue
            rest = [c for c in clauses if "extra" not in c]
            line = req.strip() + (f"; {' and '.join(rest)}" if rest else "")
        if line not in deps:
            deps.append(line)
    return deps or list(FALLBACK_REQUIREMENTS)


APP_TEMPLATE = """\"\"\"Gradio app of the rouge_metric Space: the scores of one example, and why, highlighted.

Generated by `rouge-metric export-space`. The scores come from the evaluate module in this folder
(`__SCRIPT__`); the explanation (matched n-grams, the LCS, the rougeLsum union-LCS per sentence,
cross-checks) from the `explain/` package, which also renders it as HTML; the choices and defaults
from `config.py`. This file only wires the page.
\"\"\"

import html
import importlib
import os
import re
import sys
import types

import evaluate

HERE = os.path.dirname(os.path.abspath(__file__))


def _package_module(name):
    \"\"\"A module of this folder (config, text, explain) imported inside a private package, so that its
    relative imports (from .scoring import ...) work.\"\"\"
    package = "_rouge_metric_space"
    if package not in sys.modules:
        pkg = types.ModuleType(package)
        pkg.__path__ = [HERE]
        sys.modules[package] = pkg
    return importlib.import_module(package + "." + name)


# The choices and defaults are the settings of this folder's package (config.py, text.py, xlsum.py).
SETTINGS = _package_module("config")
TEXT = _package_module("text")
XLSUM = _package_module("xlsum")
RECIPES_MODULE = _package_module("recipes")
SEGMENT = _package_module("segment")
DEFAULTS = SETTINGS.RougeConfig()
ROUGE_TYPES = list(SETTINGS.ROUGE_TYPE_CHOICES)
DEFAULT_TYPES = list(DEFAULTS.rouge_types)
TOKENIZERS = list(SETTINGS.TOKENIZERS)  # "default" is the tokenizer of tokenizer=None
DEFAULT_TOKENIZER = DEFAULTS.tokenizer or "default"
MULTI_REF_MODES = list(SETTINGS.MULTI_REF_MODES)
# Languages: those XL-Sum's scorer knows (its aliases and the "porter" pseudo-language left out).
NO_LANGUAGE = "none"
LANGUAGES = [NO_LANGUAGE] + sorted((set(XLSUM.SEGMENTERS) | set(XLSUM.STEMMED_LANGUAGES)) - {"porter"})
# default: the tokenizer (or the language's segmenter) and stemmer of this package; xlsum: XL-Sum's
# scorer (multilingual_rouge_scoring), whose numbers XL-Sum papers report.
RECIPES = list(RECIPES_MODULE.RECIPES)
SEPARATOR = "---"
# prediction, references, rouge_types, language, recipe, tokenizer, use_stemmer, multi_ref, show the tokens
EXAMPLES = [
    ["The cat sat on the mat.\\nIt was happy.", "The cat lay on the mat.\\nThe cat was happy.\\n---\\nA cat sat.",
     DEFAULT_TYPES, NO_LANGUAGE, "default", "default", False, "max", False],
    ["The quick brown fox jumped over the lazy dogs", "the quick brown dog jumps on the log", DEFAULT_TYPES,
     NO_LANGUAGE, "default", "default", True, "max", False],
    ["北京是中国的首都", "北京是首都", ["rouge1", "rouge2", "rougeL"], NO_LANGUAGE, "default", "unicode", False,
     "max", False],
    ["北京是中国的首都，也是一座历史名城。", "北京是首都，历史很长。", ["rouge1", "rouge2", "rougeL"], "chinese",
     "default", "default", False, "max", False],
    ["ผมชอบกินข้าวผัดมาก", "ผมชอบกินข้าว", ["rouge1", "rouge2", "rougeL"], "thai", "xlsum",
     "default", False, "max", False],
    ["Police killed the gunman", "The gunman was shot by police.\\n---\\nPolice kill the gunman.",
     ["rouge1", "rougeL", "rougeW", "rougeSU4"], NO_LANGUAGE, "default", "default", True, "pool", True],
]
#: Shown scores: x100 with 2 decimals, the scale and rounding of the explanation's table.
SCALE, DECIMALS = 100.0, 2
# The Examples table fits the page: fixed layout, every cell wraps (long texts, lists of types).
CSS = \"\"\"
.gradio-container table:not(.rm-scores){table-layout:fixed;width:100%}
.gradio-container table:not(.rm-scores) :is(th,td){white-space:normal !important;overflow-wrap:anywhere}
\"\"\"

SCRIPT = "__SCRIPT__"  # the evaluate module of this folder (named after it)
metric = evaluate.load(os.path.join(HERE, SCRIPT))


def split_references(text):
    \"\"\"References are separated by a line holding only ---; newlines inside one are its sentences.\"\"\"
    refs = [r.strip("\\n") for r in re.split(r"(?m)^[ \\t]*" + re.escape(SEPARATOR) + r"[ \\t]*$", text)]
    return [r for r in refs if r.strip()]


def core_settings(language, tokenizer, use_stemmer):
    \"\"\"The tokenizer and stemmer of the default recipe: with a language, its word segmenter
    (chinese: jieba, japanese: fugashi, thai: newmm, burmese: syllables; any other language: the unicode
    tokenizer) and, with use_stemmer, its Snowball stemmer; with none, the tokenizer and Porter.\"\"\"
    tok = None if tokenizer in (None, DEFAULT_TOKENIZER) else tokenizer
    if language in (None, "", NO_LANGUAGE):
        return tok, bool(use_stemmer)
    if tok is not None:
        raise ValueError(f"tokenizer: language={language!r} picks the tokenizer; set tokenizer to "
                         f"{DEFAULT_TOKENIZER!r}, or language to {NO_LANGUAGE!r} to choose one")
    stem = False
    if use_stemmer:
        stem = "snowball:" + language
        if stem not in TEXT.STEMMERS:
            raise ValueError(f"use_stemmer: no stemmer for language={language!r} in the default recipe "
                             "(Snowball languages only); untick use_stemmer, or choose recipe 'xlsum', which "
                             "has XL-Sum's stemmers")
    return XLSUM.SEGMENTERS.get(language, "unicode"), stem


def score_and_explain(prediction, references, rouge_types, language, recipe, tokenizer, use_stemmer, multi_ref,
                      tokens=False):
    \"\"\"(explanation HTML, scores dict 0-1 with signature and cross_checked) for one prediction and its
    references: the scores of the evaluate module, with recipe default the tokenizer and stemmer of
    :func:`core_settings`, with recipe xlsum XL-Sum's scorer (``recipe="xlsum", lang=language``), and the
    explanation of the same scorer (``recipes.make_rouge``). ``tokens``: the HTML shows the
    normalized tokens instead of the texts. Bad input raises ValueError/TypeError with the package's
    message (the page shows it).\"\"\"
    refs = split_references(references or "")
    if not refs:
        raise ValueError("references: give at least one reference (separate several with a line holding only ---)")
    if not (prediction or "").strip():
        raise ValueError("prediction: empty; type the text to score")
    types_ = list(rouge_types or [])
    if not types_:
        raise ValueError("rouge_types: choose at least one rouge type")
    explain = _package_module("explain").explain
    if RECIPES_MODULE.check_recipe(recipe or None) == "xlsum":
        # the package checks what the recipe cannot honour (a tokenizer, a stemmer name)
        tok = None if tokenizer in (None, DEFAULT_TOKENIZER) else tokenizer
        lang = None if language in (None, "", NO_LANGUAGE) else language
        opts = dict(rouge_types=types_, recipe="xlsum", lang=lang, tokenizer=tok, use_stemmer=bool(use_stemmer),
                    multi_ref=multi_ref)
        scores = metric.compute(predictions=[prediction], references=[refs], return_precision_recall=True,
                                return_signature=True, **opts)
        ex = explain(prediction=prediction, references=refs, scorer=RECIPES_MODULE.make_rouge(**opts))
    else:
        tok, stem = core_settings(language, tokenizer, use_stemmer)
        opts = dict(rouge_types=types_, tokenizer=tok, use_stemmer=stem, multi_ref=multi_ref)
        scores = metric.compute(predictions=[prediction], references=[refs], return_precision_recall=True,
                                return_signature=True, **opts)
        ex = explain(prediction=prediction, references=refs, **opts)
    # one more cross-check: the evaluate module's numbers are the explanation's
    same = all(scores[t] == ex.combined[t].fmeasure and scores[t + "_precision"] == ex.combined[t].precision
               and scores[t + "_recall"] == ex.combined[t].recall for t in types_)
    scores["cross_checked"] = bool(ex.cross_checked and same)
    return ex.to_html(tokens=bool(tokens)), scores


def shown_scores(scores):
    \"\"\"The scores as the page shows them: x100, 2 decimals (the table's scale), signature apart.\"\"\"
    out = {k: round(v * SCALE, DECIMALS) for k, v in scores.items() if isinstance(v, float)}
    out["cross_checked"] = scores["cross_checked"]
    return out


def app_fn(prediction, references, rouge_types, language, recipe, tokenizer, use_stemmer, multi_ref, tokens=False):
    \"\"\"score_and_explain for the page: (HTML, scores x100, signature); errors (bad input, a segmenter or
    stemmer data that is not installed) become a message in the page (gr.Error).\"\"\"
    import gradio as gr

    try:
        page, scores = score_and_explain(prediction, references, rouge_types, language, recipe, tokenizer,
                                         use_stemmer, multi_ref, tokens)
    except (ValueError, TypeError, LookupError, SEGMENT.SegmenterMissing, SEGMENT.SegmenterError) as exc:
        raise gr.Error(str(exc)) from None
    return page, shown_scores(scores), scores["signature"]


def card_article():
    \"\"\"The metric card without its YAML header.\"\"\"
    try:
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return ""
    return re.sub(r"^---[\\n\\r]+[\\s\\S]*?[\\n\\r]+---[\\n\\r]", "", text, count=1)


DESCRIPTION = html.escape(
    'The scores of one example, with the matches highlighted in both texts: n-grams, the longest common '
    'subsequence (LCS) and, for rougeLsum, the union-LCS per sentence. Every explanation is cross-checked '
    '(P/R/F re-derived from the counts; every LCS verified in both texts). In Python: '
    'evaluate.load("<namespace>/' + SCRIPT[:-3] + '"). Several references: separate them with a line ---; '
    'newlines separate sentences (rougeLsum). A language segments Chinese, Japanese, Thai and Burmese into '
    'words; recipe xlsum gives the numbers of XL-Sum\\'s scorer.')


def build_interface():
    import gradio as gr

    return gr.Interface(
        fn=app_fn,
        # short labels: they are the headers of the Examples table; the explanations go to info
        inputs=[
            gr.Textbox(lines=4, label="prediction", info="newlines separate sentences (rougeLsum)"),
            gr.Textbox(lines=6, label="references", info="several references: separate them with a line ---"),
            gr.CheckboxGroup(choices=ROUGE_TYPES, value=DEFAULT_TYPES, label="rouge_types"),
            gr.Dropdown(choices=LANGUAGES, value=NO_LANGUAGE, label="language",
                        info="picks the words: chinese jieba, japanese fugashi, thai newmm, burmese syllables, "
                             "others the unicode tokenizer; and the stemmer (Snowball; xlsum: XL-Sum's)"),
            gr.Radio(choices=RECIPES, value=RECIPES[0], label="recipe",
                     info="default: the tokenizer, or the language's words; xlsum: XL-Sum's scorer (lowercase, "
                          "its cleaner, segmenter and stemmer), the numbers of XL-Sum papers"),
            gr.Dropdown(choices=TOKENIZERS, value=DEFAULT_TOKENIZER, label="tokenizer",
                        info="language none only. unicode: every script, e.g. Chinese per character; perl: "
                             "ROUGE-1.5.5's"),
            gr.Checkbox(value=bool(DEFAULTS.use_stemmer), label="use_stemmer",
                        info="Porter as rouge-score; with a language, its stemmer"),
            gr.Dropdown(choices=MULTI_REF_MODES, value=DEFAULTS.multi_ref, label="multi_ref"),
            gr.Checkbox(value=False, label="tokens", info="show the normalized tokens instead of your texts"),
        ],
        outputs=[gr.HTML(label="Explanation", show_label=True, container=True),
                 gr.JSON(label=f"Scores x{SCALE:g}, {DECIMALS} decimals (evaluate module)"),
                 gr.Textbox(label="Signature (every setting behind the numbers)", lines=2, max_lines=6)],
        title="ROUGE (rouge_metric)",
        description=DESCRIPTION,
        article=card_article(),
        examples=EXAMPLES,
        flagging_mode="never",
    )


def launch(**kwargs):
    \"\"\"Start the app (the page's CSS is a launch setting in gradio 6). gradio is not in
    requirements.txt: the Hub installs the card's sdk_version; a local preview installs it itself.\"\"\"
    try:
        import gradio  # noqa: F401
    except ImportError:
        raise SystemExit("app.py needs gradio, which a Space gets from the card's sdk_version; to preview the "
                         "Space locally: pip install -r requirements.txt gradio==__GRADIO__ && python app.py") from None
    return build_interface().launch(css=CSS, **kwargs)


if __name__ == "__main__":
    launch()
"""


def sdk_version(card: str) -> str:
    """The gradio version a Space runs: ``sdk_version`` of the card's YAML header."""
    import re

    m = re.search(r"(?m)^sdk_version:\s*[\"']?([^\s\"']+)", card.split("\n---", 1)[0])
    if m is None:
        raise ValueError("the metric card's YAML header has no sdk_version (the gradio version of the Space)")
    return m.group(1)


def script_name(directory: Path) -> str:
    """The metric script's file name for a Space folder: ``<folder name>.py``, the file
    ``evaluate.load(DIR)`` opens. Raises ValueError when the name cannot be that script's."""
    name = Path(directory).resolve().name
    taken: Dict[str, str] = {"app": "app.py", "__init__": "__init__.py"}  # module name: what the Space holds
    for path in needed_modules():
        top = path.split("/")[0]
        taken[top[:-3] if top.endswith(".py") else top] = top if top.endswith(".py") else top + "/"
    if name in taken and name != SPACE_NAME:
        raise ValueError(
            f"directory: the folder name {name!r} is the name of a module the Space needs ({taken[name]}); "
            f"the metric script DIR/{name}.py would take that module's name, and evaluate.load(DIR) or the "
            f"app would load the wrong one. Choose another name, e.g. {SPACE_NAME} or my_rouge"
        )
    if "." in name:  # evaluate imports the script as a module named after the folder: a dot splits it
        raise ValueError(
            f"directory: the folder name {name!r} contains a dot; evaluate.load(DIR) imports {name}.py as a "
            f"module named {name!r}, which a dot breaks. Choose a name without dots, e.g. "
            f"{name.replace('.', '_')}"
        )
    return name + ".py"


def export_space(directory: str, overwrite: bool = False, card: Optional[str] = None) -> Dict[str, Path]:
    """Write the Space folder; returns ``{file name: path}`` (a subpackage's files as ``explain/x.py``).

    Raises ValueError when the folder name cannot name the metric script (:func:`script_name`), FileExistsError when a file exists
    and ``overwrite`` is false, FileNotFoundError when the metric card cannot be found.
    """
    out = Path(directory)
    script = script_name(out)
    card_path = Path(card) if card else DEFAULT_CARD
    if not card_path.is_file():
        raise FileNotFoundError(
            f"{card_path}: metric card not found; export-space runs from a source checkout of rouge_metric "
            "(the card is hub_card.md at the repository root)"
        )
    files: Dict[str, str] = {"README.md": card_path.read_text(encoding="utf-8")}
    for name in needed_modules():
        files[script if name == SCRIPT else name] = (PACKAGE_DIR / name).read_text(encoding="utf-8")
    files["app.py"] = APP_TEMPLATE.replace("__SCRIPT__", script).replace("__GRADIO__", sdk_version(files["README.md"]))
    files["requirements.txt"] = "\n".join(requirements()) + "\n"
    if not overwrite:
        existing = [n for n in files if (out / n).exists()]
        if existing:
            raise FileExistsError(f"{out}: {', '.join(existing)} already exist; pass --force to overwrite")
    out.mkdir(parents=True, exist_ok=True)
    written: Dict[str, Path] = {}
    for name, text in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)  # a subpackage (explain/)
        path.write_text(text, encoding="utf-8")
        written[name] = path
    return written
