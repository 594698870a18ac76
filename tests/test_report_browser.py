"""The HTML report in a real browser: headless Chromium (Debian's ``chromium`` + ``chromium-driver``)
driven by selenium opens the file from disk.

Checked as a person would see it: the page loads with no console error and requests nothing but itself
(Chromium's performance log), every chart is there with a non-zero size, sorting, filtering, paging and
opening an explanation work (the highlighted tokens are explain's; a row without an embedded explanation
says why), sorting and filtering stay fast, and
hostile predictions, references and system names run nothing (no alert, no injected element, no global
set by a payload). Screenshots at 1366×768 and 390×844 go to ``$ROUGE_METRIC_ARTIFACTS`` (default: the
test's tmp dir), never into the repository.

Skips, with the reason, without chromium/chromedriver, selenium or matplotlib.
"""

import json

import pytest

pytestmark = pytest.mark.integration  # a browser

from browser import chrome, require_chromium, wait_for  # noqa: E402

require_chromium()
pytest.importorskip("matplotlib", reason="the report's charts need matplotlib (the [report] extra)")
pytest.importorskip("selenium.webdriver", reason="selenium drives the browser (the [test] extra)")
from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from rouge_metric.explain import explain  # noqa: E402
from rouge_metric.report import page, report  # noqa: E402

PAYLOADS = ['<script>window.__pwned="script";alert(1)</script>', '"><img src=x onerror="window.__pwned=\'img\';alert(2)">',
            "</script><script>window.__pwned='close';alert(3)</script>", "javascript:window.__pwned='js';alert(4)",
            "<svg onload=\"window.__pwned='svg'\"></svg>", "\u2028\u2029<!-- & </b>"]
WORDS = ("the cat sat on the mat a dog barked at mailman birds sing in morning it rained all day long market fell "
         "sharply monday she won race easily river flooded town he painted fence white").split()
TYPES = ["rouge1", "rouge2", "rougeL"]
NAME_B = '<img src=x onerror="window.__pwned=\'name\'">B'


def _corpus(n=130):
    refs, base, other = [], [], []
    for i in range(n):
        ref = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(8 + i % 9)]
        refs.append(" ".join(ref))
        base.append(" ".join(ref[: 3 + i % 6]) + " extra words")
        other.append(" ".join(ref[: 5 + i % 7]))
    for k, p in enumerate(PAYLOADS):  # hostile text in predictions, references and a system name
        base[k] = p + " " + base[k]
        refs[k + 10] = refs[k + 10] + " " + p
        other[k + 20] = p
    return refs, base, other


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    refs, base, other = _corpus()
    rep = report(base, refs, systems={NAME_B: other}, name="<b>A</b>", rouge_types=TYPES, n_resamples=100,
                 test_resamples=100, title="<script>alert('title')</script>")
    path = tmp_path_factory.mktemp("report") / "report.html"
    rep.save(path)
    return rep, path, refs, base, other


@pytest.fixture(scope="module")
def browser():
    with chrome(capabilities={"goog:loggingPrefs": {"browser": "ALL", "performance": "ALL"}}) as driver:
        yield driver


def _wait(predicate, timeout=30):
    return wait_for(predicate, timeout, 0.1)


def _open(browser, path, width=1366, height=768):
    browser.set_window_size(width, height)
    browser.get(path.as_uri())
    _wait(lambda: browser.execute_script("return document.documentElement.getAttribute('data-ready')") == "true")


def _no_alert(browser):
    try:
        text = browser.switch_to.alert.text
    except NoAlertPresentException:
        return True
    raise AssertionError(f"an alert appeared: {text!r}")


def _rows(browser):
    return browser.find_elements(By.CSS_SELECTOR, "#rm-examples tbody tr.rm-row")


def _indices(browser):
    """The example indices of the visible rows, read in one script (no half-rendered table)."""
    return browser.execute_script("return Array.from(document.querySelectorAll('#rm-examples tbody tr.rm-row'))"
                                  ".map(function(r){return +r.getAttribute('data-index');});")


def _header(browser, label):
    return next(th for th in browser.find_elements(By.CSS_SELECTOR, "#rm-examples thead th") if th.text.startswith(label))


def test_loads_offline_without_errors_and_every_chart_has_a_size(built, browser, artifacts):
    rep, path, *_ = built
    browser.get_log("performance")  # drop what earlier pages logged
    _open(browser, path)
    severe = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert severe == []
    events = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
    urls = [m["params"]["request"]["url"] for m in events if m["method"] == "Network.requestWillBeSent"]
    assert urls and set(urls) == {path.as_uri()}, urls  # the page itself, nothing else
    charts = browser.find_elements(By.CSS_SELECTOR, "figure[data-chart] > svg")
    names = [c.find_element(By.XPATH, "..").get_attribute("data-chart") for c in charts]
    assert names == ["distributions", "lengths", "score-vs-length", "deltas"]
    for c in charts:
        assert c.size["width"] > 100 and c.size["height"] > 100, c.size
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    browser.save_screenshot(str(artifacts / "report_1366_top.png"))
    for section in ("length", "systems", "examples"):
        browser.execute_script("document.getElementById(arguments[0]).scrollIntoView()", section)
        browser.save_screenshot(str(artifacts / f"report_1366_{section}.png"))


def test_sorting_filtering_paging(built, browser):
    rep, path, refs, base, other = built
    _open(browser, path)
    assert len(_rows(browser)) == 25
    info = browser.find_element(By.ID, "rm-pageinfo")
    assert info.text.startswith("rows 1–25 of 130")
    browser.find_element(By.ID, "rm-next").click()
    assert info.text.startswith("rows 26–50 of 130") and _indices(browser)[0] == 25
    # sort by the baseline's rouge1 F: descending first, then ascending
    f = rep.data.systems[rep.data.names[0]].f("rouge1")
    ms = browser.execute_script("var t=performance.now();arguments[0].click();return performance.now()-t;",
                                _header(browser, "<b>A</b> · rouge1 F"))
    assert ms < 1000, f"sorting took {ms:.0f} ms"
    shown = _indices(browser)
    want = sorted(range(len(f)), key=lambda i: (-f[i], i))[:25]
    assert shown == want
    _header(browser, "<b>A</b> · rouge1 F").click()
    assert _indices(browser) == sorted(range(len(f)), key=lambda i: (f[i], i))[:25]
    # filter by text (case-insensitive, predictions and references)
    box = browser.find_element(By.ID, "rm-filter")
    box.send_keys("Fence")
    _wait(lambda: "filtered from" in info.text)
    hits = [i for i in range(len(refs)) if "fence" in (base[i] + refs[i] + other[i]).lower()]
    assert set(_indices(browser)) <= set(hits) and len(_indices(browser)) == min(25, len(hits))
    assert info.text.startswith(f"rows 1–{min(25, len(hits))} of {len(hits)} (filtered from 130)")
    box.clear()
    box.send_keys("#7")
    _wait(lambda: _indices(browser) == [7])


def test_filter_is_fast(built, browser):
    _, path, *_ = built
    _open(browser, path)
    ms = browser.execute_async_script("""
        var done=arguments[arguments.length-1],q=document.getElementById('rm-filter'),
            info=document.getElementById('rm-pageinfo'),t0=performance.now();
        new MutationObserver(function(){done(performance.now()-t0);}).observe(info,{childList:true,characterData:true,subtree:true});
        q.value='the';q.dispatchEvent(new Event('input'));""")
    assert ms < 1500, f"filtering took {ms:.0f} ms (with the 120 ms debounce)"


def _explained(rep):
    """The examples whose explanations the page embeds (130 rows: more than the default explain_examples)."""
    return page.explained_examples(rep.data, rep.kept, page.EXPLAIN_EXAMPLES, rep.data.rouge.config.seed)


def test_opening_an_explanation_shows_explains_highlights(built, browser, artifacts):
    rep, path, refs, base, other = built
    _open(browser, path)
    explained = _explained(rep)
    assert len(explained) == page.EXPLAIN_EXAMPLES < len(refs)
    i = next(k for k in explained if k >= 40)
    browser.find_element(By.ID, "rm-filter").send_keys(f"#{i}")
    _wait(lambda: _indices(browser) == [i])
    _rows(browser)[0].click()
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-explain"))
    boxes = browser.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-sys")
    assert len(boxes) == 2
    for box, pred in zip(boxes, (base[i], other[i])):
        want = explain(prediction=pred, references=[refs[i]], rouge_types=TYPES).references[0].types["rouge1"]
        marks = box.find_elements(By.CSS_SELECTOR, '.rm-type[data-type="rouge1"] mark.rm-hit[data-side="pred"]')
        assert [int(m.get_attribute("data-pos")) for m in marks] == list(want.pred_positions)
    browser.save_screenshot(str(artifacts / "report_1366_explanation.png"))


def test_a_row_without_an_embedded_explanation_says_why(built, browser):
    rep, path, refs, base, other = built
    _open(browser, path)
    marked = browser.execute_script("return Array.from(document.querySelectorAll('#rm-examples tbody tr.rm-row'))"
                                    ".filter(function(r){return r.classList.contains('rm-has');})"
                                    ".map(function(r){return +r.getAttribute('data-index');});")
    assert marked == [i for i in _indices(browser) if i in set(_explained(rep))]
    i = next(i for i in range(len(refs)) if i not in set(_explained(rep)))
    browser.find_element(By.ID, "rm-filter").send_keys(f"#{i}")
    _wait(lambda: _indices(browser) == [i])
    _rows(browser)[0].click()
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-sys .rm-plain"))
    text = browser.find_element(By.ID, "rm-detail").text
    assert "explanation not embedded: Explanations are embedded for 100 examples of the table" in text
    assert "prediction: " + base[i] in text and not browser.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-explain")


def test_largest_gains_open_their_example(built, browser):
    rep, path, *_ = built
    _open(browser, path)
    button = browser.find_element(By.CSS_SELECTOR, "table.rm-gains button.rm-open")
    i = button.get_attribute("data-example")
    browser.execute_script("arguments[0].click()", button)
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-explain"))
    assert browser.find_element(By.CSS_SELECTOR, "#rm-detail h3").text.startswith(f"example #{i}")
    assert _indices(browser) == [int(i)]


def test_hostile_text_runs_nothing(built, browser):
    rep, path, *_ = built
    _open(browser, path)
    hostile = list(range(len(PAYLOADS))) + [k + 10 for k in range(len(PAYLOADS))] + [k + 20 for k in range(len(PAYLOADS))]
    box = browser.find_element(By.ID, "rm-filter")
    for i in hostile:  # render every hostile row and open its explanation
        box.clear()
        box.send_keys(f"#{i}")
        _wait(lambda: _indices(browser) == [i])
        _rows(browser)[0].click()
        _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-sys"))
        _no_alert(browser)
    state = browser.execute_script("""return {pwned: window.__pwned === undefined ? null : String(window.__pwned),
        imgs: document.querySelectorAll('img').length, scripts: document.querySelectorAll('script').length,
        onload: document.querySelectorAll('[onload],[onerror]').length,
        svgs: document.querySelectorAll('svg:not(.rm-chart)').length,
        bold: Array.from(document.querySelectorAll('b')).map(function(b){return b.textContent;}),
        title: document.title}""")
    assert state == {"pwned": None, "imgs": 0, "scripts": 3, "onload": 0, "svgs": 0, "bold": ["<b>A</b>"],
                     "title": "<script>alert('title')</script>"}
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "<script>window.__pwned" in body  # shown as text
    assert '<img src=x onerror="window.__pwned=\'name\'">B' in body
    _no_alert(browser)


def test_phone_width(built, browser, artifacts):
    _, path, *_ = built
    _open(browser, path, 390, 844)
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    browser.save_screenshot(str(artifacts / "report_390_top.png"))
    for section in ("length", "systems", "examples"):
        browser.execute_script("document.getElementById(arguments[0]).scrollIntoView()", section)
        browser.save_screenshot(str(artifacts / f"report_390_{section}.png"))
    browser.find_elements(By.CSS_SELECTOR, "#rm-examples tbody tr.rm-row.rm-has")[3].click()
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-explain"))
    assert browser.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    browser.save_screenshot(str(artifacts / "report_390_explanation.png"))
