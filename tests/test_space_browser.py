"""The exported Space in a real browser: headless Chromium (Debian's ``chromium`` + ``chromium-driver``)
driven by selenium against the app started on 127.0.0.1 by an interpreter that cannot import this
package (``python -I -S`` with the site-packages directories appended as plain paths, and a meta-path
blocker for ``rouge_metric*``; the app runs on the folder's copies).

The test types texts, clicks Submit, reads the score table and the highlighted spans from the page and
compares them with the installed package's explanation; it submits bad input and reads the error
message in the page; it checks that the description shows ``evaluate.load("<namespace>/rouge_metric")``
in full. Screenshots are saved to ``$ROUGE_METRIC_ARTIFACTS`` (default: the test's tmp dir).

Skips, with the reason, when chromium/chromedriver (system packages: ``apt-get install chromium
chromium-driver``), selenium or gradio are missing. The structure of the same HTML is checked without
a browser in tests/test_explain.py.
"""

import json
import os
import site
import socket
import subprocess
import sys
import sysconfig
import textwrap
import time
import urllib.request

import pytest

from rouge_metric import space
from rouge_metric.explain import explain

pytestmark = pytest.mark.integration  # a browser and a gradio server

from browser import chrome, require_chromium, wait_for  # noqa: E402

require_chromium()
pytest.importorskip("gradio", reason="the Space runs on gradio (the [test] extra, Python >= 3.10)")
pytest.importorskip("selenium.webdriver", reason="selenium drives the browser (the [test] extra)")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

LAUNCH = textwrap.dedent("""
    import json, sys
    DIR, SITES, PORT = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
    sys.path.extend(SITES)

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name == "rouge_metric" or name.startswith("rouge_metric."):
                raise ImportError("blocked: the Space must run without the rouge_metric package")

    sys.meta_path.insert(0, Blocker())
    sys.path.insert(0, DIR)
    import app
    app.launch(server_name="127.0.0.1", server_port=PORT, prevent_thread_lock=False)
""")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("space_browser")
    out = root / "rouge_metric"
    space.export_space(str(out))
    sites = list(dict.fromkeys([sysconfig.get_paths()["purelib"]] + site.getsitepackages()))
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(HF_HOME=str(root / "hf"), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               GRADIO_ANALYTICS_ENABLED="False")
    log = open(root / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", LAUNCH, str(out), json.dumps(sites), str(port)],
                            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + 180
        while True:
            if proc.poll() is not None:
                raise AssertionError("the Space exited:\n" + (root / "server.log").read_text()[-3000:])
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                if time.time() > deadline:
                    raise AssertionError("the Space did not start:\n" + (root / "server.log").read_text()[-3000:])
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser():
    with chrome(("--window-size=1200,2200",)) as driver:
        yield driver


def _wait(predicate, timeout=90):
    return wait_for(predicate, timeout, 0.3)


def _choose(browser, label, value):
    """Pick ``value`` in the dropdown labelled ``label`` (scrolled into view: the list of languages is long)."""
    dropdown = next(i for i in browser.find_elements(By.CSS_SELECTOR, "input[role='listbox'], input")
                    if (i.get_attribute("aria-label") or "").startswith(label))
    dropdown.click()

    def option():
        try:  # the list of another dropdown may be going away meanwhile
            found = [o for o in browser.find_elements(By.CSS_SELECTOR, "li[role='option']")
                     if (o.get_attribute("textContent") or "").replace("✓", "").strip() == value]
            if found:
                browser.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", found[0])
                found[0].click()
                return True
        except StaleElementReferenceException:
            return False
        return False

    _wait(option)


def _submit(browser, url, prediction, references, tokenizer=None, language=None, recipe=None, use_stemmer=False):
    browser.get(url)
    boxes = _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "textarea"))
    boxes[0].send_keys(prediction)
    boxes[1].send_keys(references)
    if tokenizer is not None:
        _choose(browser, "tokenizer", tokenizer)
    if language is not None:
        _choose(browser, "language", language)
    if recipe is not None:
        next(r for r in browser.find_elements(By.CSS_SELECTOR, "label") if r.text.strip() == recipe).click()
    if use_stemmer:
        next(c for c in browser.find_elements(By.CSS_SELECTOR, "label") if c.text.strip() == "use_stemmer").click()
    next(b for b in browser.find_elements(By.CSS_SELECTOR, "button") if b.text.strip() == "Submit").click()


def test_page_shows_highlighted_matches_and_the_scores(server, browser, artifacts):
    pred, ref = "the cat sat on the mat\nthe end", "the cat lay on the mat"
    _submit(browser, server, pred, ref)
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rm-explain .rm-scores"))
    browser.save_screenshot(str(artifacts / "space_explain.png"))
    want = explain(prediction=pred, references=[ref], rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    assert browser.find_element(By.CSS_SELECTOR, "[data-cross-checked]").get_attribute("data-cross-checked") == "true"
    for t, sc in want.combined.items():
        cells = browser.find_element(By.CSS_SELECTOR, f'.rm-scores tr[data-type="{t}"]').find_elements(By.TAG_NAME, "td")
        assert [c.text for c in cells[1:4]] == [f"{x * 100:.2f}" for x in sc]
    te = want.references[0].types
    for t in ("rouge1", "rouge2", "rougeL"):
        for side, positions in (("pred", te[t].pred_positions), ("ref", te[t].ref_positions)):
            marks = browser.find_elements(By.CSS_SELECTOR, f'.rm-type[data-type="{t}"] mark.rm-hit[data-side="{side}"]')
            assert [int(m.get_attribute("data-pos")) for m in marks] == list(positions), (t, side)
    lcs = browser.find_elements(By.CSS_SELECTOR, '.rm-type[data-type="rougeL"] mark.rm-hit[data-side="pred"]')
    assert [m.text for m in lcs] == list(te["rougeL"].lcs)
    page = browser.find_element(By.TAG_NAME, "body").text
    assert 'evaluate.load("<namespace>/rouge_metric")' in page  # the description is not cut off


def test_chinese_with_the_unicode_tokenizer(server, browser, artifacts):
    _submit(browser, server, "北京是中国的首都", "北京是首都", tokenizer="unicode")
    row = _wait(lambda: browser.find_elements(By.CSS_SELECTOR, '.rm-scores tr[data-type="rouge1"]'))[0]
    browser.save_screenshot(str(artifacts / "space_unicode.png"))
    want = explain(prediction="北京是中国的首都", references=["北京是首都"], tokenizer="unicode",
                   rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"]).combined["rouge1"]
    assert [c.text for c in row.find_elements(By.TAG_NAME, "td")[1:4]] == [f"{x * 100:.2f}" for x in want]
    assert want.fmeasure > 0


def test_bad_input_shows_the_message(server, browser, artifacts):
    _submit(browser, server, "the cat", "   ")
    _wait(lambda: "references: give at least one reference" in browser.find_element(By.TAG_NAME, "body").text)
    browser.save_screenshot(str(artifacts / "space_error.png"))
    assert "verbose error reporting" not in browser.find_element(By.TAG_NAME, "body").text


def test_layout_fits_the_page(server, browser, artifacts):
    """The Examples table is not wider than the page and every header is readable in
    full; the HTML output has a visible label; the scores panel is on the table's x100 scale and says
    so; the signature is shown in full (it wraps)."""
    pred, ref = "The cat sat on the mat.\nThe end.", "The cat lay on the mat."
    _submit(browser, server, pred, ref)
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rm-explain .rm-scores"))
    body = browser.find_element(By.TAG_NAME, "body")
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    time.sleep(0.5)
    browser.save_screenshot(str(artifacts / "space_layout.png"))
    page_width = browser.execute_script("return document.documentElement.clientWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= page_width
    tables = [t for t in browser.find_elements(By.CSS_SELECTOR, "table") if "prediction" in t.text.split("\n")[0]]
    assert tables, "no Examples table"
    examples = tables[0]
    browser.execute_script("arguments[0].scrollIntoView()", examples)
    time.sleep(0.5)
    browser.save_screenshot(str(artifacts / "space_examples.png"))
    box = browser.execute_script("var r = arguments[0].getBoundingClientRect(); var p = arguments[0].parentElement"
                                 ".getBoundingClientRect(); return [r.left, r.right, p.left, p.right, "
                                 "arguments[0].scrollWidth, arguments[0].clientWidth]", examples)
    assert box[1] <= page_width and box[0] >= 0
    headers = examples.find_elements(By.TAG_NAME, "th")
    assert [h.text.strip() for h in headers] == ["prediction", "references", "rouge_types", "language", "recipe",
                                                 "tokenizer", "use_stemmer", "multi_ref", "tokens"]
    for h in headers:  # every header inside the table's visible box and the page
        r = browser.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.left, r.right]", h)
        assert box[0] - 1 <= r[0] and r[1] <= min(box[1], page_width) + 1, (h.text, r, box)
    # every output has a visible label
    text = body.text
    for label in ("Explanation", "Scores x100, 2 decimals (evaluate module)", "Signature"):
        assert label in text, label
    # the scores panel: the table's numbers (x100, 2 decimals), no 17-digit floats
    want = explain(prediction=pred, references=[ref], rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    for t, sc in want.combined.items():
        cells = browser.find_element(By.CSS_SELECTOR, f'.rm-scores tr[data-type="{t}"]').find_elements(By.TAG_NAME, "td")
        assert f'"{t}": {float(cells[3].text):g}' in text.replace(".0,", ",") or f"{float(cells[3].text)}" in text
    import re as _re
    assert not _re.search(r"\d\.\d{5,}", text.split("Signature")[0]), "long floats on the page"
    # the signature in full, in a box that wraps it
    sig = [t for t in browser.find_elements(By.CSS_SELECTOR, "textarea") if "types:" in (t.get_attribute("value") or "")]
    assert len(sig) == 1  # the Space runs its own pure-Python copy here (the package is blocked)
    assert sig[0].get_attribute("value") == want.signature.replace("backend:native", "backend:python")
    dims = browser.execute_script("var e = arguments[0]; return [e.scrollWidth, e.clientWidth, e.scrollHeight, "
                                  "e.clientHeight]", sig[0])
    assert dims[0] <= dims[1] and dims[2] <= dims[3] + 2, dims  # no horizontal scroll; all lines in view
    # the explanation's own score table keeps its words whole (no "precisi-on")
    for th in browser.find_elements(By.CSS_SELECTOR, ".rm-scores th"):
        assert th.text.strip() in ("type", "precision", "recall", "F") or th.text.startswith("hits"), th.text
        assert "\n" not in th.text.strip() or th.text.startswith("hits")
    # the user's words are highlighted; the tokens checkbox shows the normalized tokens
    marks = browser.find_elements(By.CSS_SELECTOR, '.rm-type[data-type="rouge1"] mark.rm-hit[data-side="pred"]')
    assert [m.text for m in marks][:2] == ["The", "cat"]


# ------------------------------------------------------------------------------- languages
LANGUAGE_CASES = {  # Bengali without stemming: its stemmer's rules file is not shipped
    "thai": ("ผมชอบกินข้าวผัดมาก วันนี้", "ผมชอบกินข้าว วันนี้"),
    "chinese": ("北京是中国的首都，也是一座历史名城。", "北京是首都，历史很长。"),
    "japanese": ("東京は日本の首都です。タワーに行きました。", "東京タワーに行きました。"),
    "bengali": ("বাংলাদেশের রাজধানী ঢাকা। আমি বাংলায় গান গাই।", "ঢাকা বাংলাদেশের রাজধানী, আমি গান গাই।"),
}
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}


def _screenshots(browser, artifacts, name):
    """The explanation at 1366x768 and 390x844 (the viewport, as a phone shows it): its top (the scores)
    and the first reference's matches."""
    for size, (w, h) in SIZES.items():
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": size == "phone"})
        time.sleep(0.5)
        for part, selector in (("scores", ".rm-explain"), ("matches", ".rm-explain .rm-ref")):
            browser.execute_script("arguments[0].scrollIntoView()", browser.find_element(By.CSS_SELECTOR, selector))
            time.sleep(0.3)
            browser.save_screenshot(str(artifacts / f"space_{name}_{size}_{part}.png"))
        assert browser.execute_script("return document.documentElement.scrollWidth") <= \
            browser.execute_script("return document.documentElement.clientWidth") + 1, (name, size)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _scorer(lang, recipe):
    from rouge_metric import Rouge, xlsum

    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    if recipe == "xlsum":
        return xlsum.XLSumRouge(types, lang=lang)
    return Rouge(types, tokenizer=xlsum.SEGMENTERS.get(lang, "unicode"))


@pytest.mark.parametrize("lang", sorted(LANGUAGE_CASES))
@pytest.mark.parametrize("recipe", ["default", "xlsum"])
def test_languages_highlight_the_users_words(server, browser, artifacts, lang, recipe):
    """Thai, Chinese, Japanese and Bengali: the language (and the XL-Sum recipe) segments the texts; the
    highlighted elements are the user's own words at the explained positions, and the scores are the
    scorer's (Rouge with the segmenter; XLSumRouge)."""
    pytest.importorskip("jieba"), pytest.importorskip("pythainlp"), pytest.importorskip("fugashi")
    pytest.importorskip("pyonmttok")
    pred, ref = LANGUAGE_CASES[lang]
    _submit(browser, server, pred, ref, language=lang, recipe=recipe)
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rm-explain .rm-scores"))
    scorer = _scorer(lang, recipe)
    want = scorer.score_multi([ref], pred) if recipe == "xlsum" else scorer.score(prediction=pred, references=[ref])
    ex = explain(prediction=pred, references=[ref], scorer=scorer)
    assert ex.combined == want and ex.has_spans and not ex.unlocated_note
    for t, sc in want.items():
        cells = browser.find_element(By.CSS_SELECTOR, f'.rm-scores tr[data-type="{t}"]').find_elements(By.TAG_NAME, "td")
        assert [c.text for c in cells[1:4]] == [f"{x * 100:.2f}" for x in sc], t
    te = ex.references[0].types
    for t in ("rouge1", "rouge2", "rougeL"):
        for side, positions, text, spans in (("pred", te[t].pred_positions, pred, ex.pred_spans),
                                             ("ref", te[t].ref_positions, ref, ex.references[0].spans)):
            marks = browser.find_elements(By.CSS_SELECTOR, f'.rm-type[data-type="{t}"] mark.rm-hit[data-side="{side}"]')
            assert [(int(m.get_attribute("data-pos")), m.get_attribute("textContent")) for m in marks] == [
                (i, text[spans[i][0]:spans[i][1]]) for i in positions], (t, side)
            assert marks, (t, side)
    shown = browser.find_element(By.CSS_SELECTOR, ".rm-shown")
    assert shown.get_attribute("data-shown") == "text" and not browser.find_elements(By.CSS_SELECTOR, ".rm-unlocated")
    sig = [a for a in browser.find_elements(By.CSS_SELECTOR, "textarea") if "types:" in (a.get_attribute("value") or "")]
    assert sig[0].get_attribute("value") == ex.signature.replace("backend:native", "backend:python")
    _screenshots(browser, artifacts, f"{lang}_{recipe}")


@pytest.mark.skipif(not os.path.isfile(os.environ.get("ROUGE_METRIC_BENGALI_RULES") or ""),
                    reason="Bengali stemming needs common.rules ($ROUGE_METRIC_BENGALI_RULES); not shipped")
def test_bengali_stemmed_highlights_whole_words(server, browser, artifacts):
    from rouge_metric.xlsum import XLSumRouge

    pred, ref = LANGUAGE_CASES["bengali"]
    _submit(browser, server, pred, ref, language="bengali", recipe="xlsum", use_stemmer=True)
    _wait(lambda: "stem=rafi" in browser.find_element(By.CSS_SELECTOR, ".rm-sig").text
          if browser.find_elements(By.CSS_SELECTOR, ".rm-sig") else False)
    scorer = XLSumRouge(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True, lang="bengali")
    ex = explain(prediction=pred, references=[ref], scorer=scorer)
    assert ex.combined == scorer.score_multi([ref], pred)
    for t, sc in ex.combined.items():
        cells = browser.find_element(By.CSS_SELECTOR, f'.rm-scores tr[data-type="{t}"]').find_elements(By.TAG_NAME, "td")
        assert [c.text for c in cells[1:4]] == [f"{x * 100:.2f}" for x in sc], t
    marks = browser.find_elements(By.CSS_SELECTOR, '.rm-type[data-type="rouge1"] mark.rm-hit[data-side="pred"]')
    te = ex.references[0].types["rouge1"]
    assert [m.get_attribute("textContent") for m in marks] == [pred[slice(*ex.pred_spans[i])] for i in te.pred_positions]
    assert any(ex.pred_tokens[i] != pred[slice(*ex.pred_spans[i])] for i in te.pred_positions)  # a stem, whole word shown
    _screenshots(browser, artifacts, "bengali_stemmed")


def test_unmapped_token_is_shown_unhighlighted_and_the_page_says_so(server, browser, artifacts):
    """A Burmese syllable the segmenter reorders has no span: the page shows the text as typed, does not
    highlight that syllable, and says which tokens it could not map back."""
    pred, ref = "မြန်မာ စာ ကို\u1037\u103a", "မြန်မာ ကို\u1037\u103a စာ"
    _submit(browser, server, pred, ref, language="burmese", recipe="xlsum")
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rm-explain .rm-scores"))
    note = browser.find_element(By.CSS_SELECTOR, ".rm-unlocated").text  # above the texts
    assert "could not be mapped back to your text exactly are not highlighted" in note and "prediction: 1" in note
    marks = browser.find_elements(By.CSS_SELECTOR, '.rm-type[data-type="rouge1"] mark.rm-hit[data-side="pred"]')
    assert [m.get_attribute("textContent") for m in marks] == ["မြန်", "မာ", "စာ"]
    row = browser.find_element(By.CSS_SELECTOR, '.rm-scores tr[data-type="rouge1"]').find_elements(By.TAG_NAME, "td")
    assert row[3].text == "100.00"  # the unmapped syllable still counts
    _screenshots(browser, artifacts, "burmese_unmapped")


def test_hostile_text_in_every_language_stays_text(server, browser, artifacts):
    hostile = '<img src=x onerror="document.title=1"><script>document.title=2</script>'
    for lang, (pred, ref) in sorted(LANGUAGE_CASES.items()):
        _submit(browser, server, hostile + pred, ref + hostile, language=lang, recipe="xlsum")
        _wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".rm-explain .rm-scores"))
        assert browser.execute_script("return document.querySelectorAll('.rm-explain img, .rm-explain script')"
                                      ".length") == 0, lang
        assert browser.title not in ("1", "2"), lang
        texts = browser.find_element(By.CSS_SELECTOR, ".rm-explain").get_attribute("textContent")
        assert hostile + pred in texts and ref + hostile in texts, lang
    browser.save_screenshot(str(artifacts / "space_hostile.png"))


def test_language_errors_show_the_message(server, browser, artifacts):
    """A language that picks the tokenizer refuses another tokenizer; a stemmer the recipe lacks is named."""
    _submit(browser, server, "北京", "北京", tokenizer="unicode", language="chinese")
    _wait(lambda: "tokenizer: language='chinese' picks the tokenizer" in browser.find_element(By.TAG_NAME, "body").text)
    browser.save_screenshot(str(artifacts / "space_language_error.png"))
