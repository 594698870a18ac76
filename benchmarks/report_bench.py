"""Time the HTML report on a large corpus and check the file-size rule.

    python benchmarks/report_bench.py                          # 100,000 examples, two systems
    python benchmarks/report_bench.py --pairs 100000 --systems 1
    python benchmarks/report_bench.py --pairs 10000 --out /tmp/report.html
    python benchmarks/report_bench.py --browser     # then open the file in headless Chromium and time the page

Input: the CNN/DM test outputs of two systems (../shared/corpora/cnndm_pgn_cov and cnndm_simcls_nl:
pointer-generator with coverage, SimCLS), aligned on the reference text (11,349 articles are in both files;
the files list them in different orders), repeated up to
``--pairs`` examples; generated news-like text (tests/corpora.py) when they are absent. Default rouge
types (rouge1, rouge2, rougeL, rougeLsum), stemming off, 1,000 bootstrap resamples, 1,000 resamples of
each paired test.

Prints the machine, the wall and CPU time per stage (``Report.timings`` and ``Report.cpu_timings``:
scoring with the corpus bootstrap, the paired tests and the length statistics; charts; explanations; page)
and in total, the size of the file, and the wall and CPU time of ``report(...)`` including the import of
matplotlib (the first report of a process pays it). CPU time is the process's (``time.process_time``, every
thread): on a shared machine it moves less than the wall time, which waits for the other jobs.

``--stages``: the same work one step after the other on one thread, each step's wall and CPU time
(validation and scoring, the corpus intervals, the paired tests, the length statistics, the charts, the
explanations), to see where the CPU goes; ``report`` runs the resampling on background threads instead.

``--browser`` (selenium and Debian's chromium + chromedriver): the page's load until its script is ready,
three column sorts and one text filter (times measured in the page with ``performance.now()``; the filter
includes its 120 ms debounce), and the first opened explanation (of a row that has one: opening it
inflates them all).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent.parent / "shared" / "corpora"
SYSTEMS = {"pgn_cov": "cnndm_pgn_cov.jsonl.gz", "simcls": "cnndm_simcls_nl.jsonl.gz"}


def load(pairs: int, systems: int):
    paths = [CORPORA / f for f in SYSTEMS.values()]
    if all(p.exists() for p in paths):
        runs = []
        for p in paths[:systems]:
            with gzip.open(p, "rt", encoding="utf-8") as fh:
                runs.append([json.loads(line) for line in fh])
        # the two files list the articles in different orders: align them on the reference text (letters and
        # digits of the first reference), keeping the articles found in both
        key = lambda row: re.sub(r"[^a-z0-9]", "", row["references"][0].lower())[:200]  # noqa: E731
        where = [{key(r): i for i, r in enumerate(run)} for run in runs]
        common = [k for k in (key(r) for r in runs[0]) if all(k in w for w in where)]
        refs = [runs[0][where[0][k]]["references"] for k in common]
        preds = {name: [run[w[k]]["prediction"] for k in common] for name, run, w in zip(SYSTEMS, runs, where)}
        source = (f"CNN/DM test outputs ({', '.join(list(SYSTEMS)[:systems])}; {len(common):,} articles"
                  + (" in both files" if systems > 1 else "") + ")")
    else:
        sys.path.insert(0, str(HERE.parent / "tests"))
        from corpora import generated_corpus

        base = generated_corpus(20000, seed=0)
        other = generated_corpus(20000, seed=1)
        refs = [r for _, r in base]
        preds = {"a": [p for p, _ in base], "b": [p for p, _ in other]}
        preds = dict(list(preds.items())[:systems])
        source = "generated news-like text (tests/corpora.py)"
    reps = -(-pairs // len(refs))
    refs = (refs * reps)[:pairs]
    preds = {k: (v * reps)[:pairs] for k, v in preds.items()}
    return refs, preds, source


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--systems", type=int, choices=(1, 2), default=2)
    ap.add_argument("--explain-examples", type=int, default=None,
                    help="examples with an embedded explanation (default: the report's, 100)")
    ap.add_argument("--out", default="/tmp/report_bench.html")
    ap.add_argument("--browser", action="store_true", help="time the page in headless Chromium")
    ap.add_argument("--stages", action="store_true", help="also time each step alone, one after the other")
    args = ap.parse_args()
    refs, preds, source = load(args.pairs, args.systems)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
          f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print(f"input: {len(refs):,} examples, {len(preds)} system(s), {source}")
    names = list(preds)
    extra = {} if args.explain_examples is None else {"explain_examples": args.explain_examples}
    t, c = time.perf_counter(), time.process_time()
    from rouge_metric.report import report

    rep = report(preds[names[0]], refs, name=names[0], systems={k: preds[k] for k in names[1:]} or None, **extra)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    rep.save(args.out)
    size = os.path.getsize(args.out)
    print("stages, wall (s): " + ", ".join(f"{k} {v:.2f}" for k, v in rep.timings.items()))
    print("stages, CPU (s):  " + ", ".join(f"{k} {v:.2f}" for k, v in rep.cpu_timings.items()))
    print(f"with imports: wall {wall:.2f} s, CPU {cpu:.2f} s")
    print(f"file: {args.out}, {size / 1e6:.2f} MB; table keeps {len(rep.kept):,} examples, "
          f"{rep.explained:,} explanations embedded")
    if args.stages:
        stages(refs, preds, args.explain_examples)
    if args.browser:
        browser(os.path.abspath(args.out))
    return 0


def stages(refs, preds, explain_examples) -> None:
    """Each step of a report alone, in order, on this thread: wall and CPU seconds."""
    from rouge_metric.report import data as rd, page, stats

    names = list(preds)
    rows = []

    def step(label, fn):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        rows.append((label, time.perf_counter() - t, time.process_time() - c))
        return out

    rouge = rd.make_rouge(rd.DEFAULT_ROUGE_TYPES, None, None, None, {})
    def score():
        runs, refs_ok = rd.validate(preds[names[0]], refs, {k: preds[k] for k in names[1:]} or None, names[0])
        return [rd.score_system(rouge, p, refs_ok) for _, p in runs]

    scored = step("validate + score", score)
    accs = [acc for acc, _ in scored]
    step("corpus intervals", lambda: rd.corpus_results(rouge, accs))
    if len(names) > 1:
        step("paired tests", lambda: rd.paired_tests(rouge, names, [dict(a.values) for a in accs], len(refs),
                                                     rd.DEFAULT_TEST_RESAMPLES))
    data = rd.collect(preds[names[0]], refs, name=names[0], systems={k: preds[k] for k in names[1:]} or None,
                      n_resamples=1, test_resamples=1)  # the per-example arrays (and no resampling worth timing)
    step("length statistics", lambda: {nm: stats.correlations({t: s.f(t) for t in data.types}, s.pred_len,
                                                                data.ratio[nm]) for nm, s in data.systems.items()})
    step("charts", lambda: (page.distributions_section(data), page.length_section(data, 0),
                            page.deltas_chart(data) if len(names) > 1 else None))
    keep = page.sample(data, 500, 0)
    kw = {} if explain_examples is None else {"explain_examples": explain_examples}
    step("explanations", lambda: page.examples_data(data, keep, **kw))
    for label, wall, cpu in rows:
        print(f"step {label}: wall {wall:.2f} s, CPU {cpu:.2f} s")


def browser(path: str) -> None:
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    opts = Options()
    opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(arg)
    driver = shutil.which("chromedriver")
    if driver is None:  # never let selenium look for (download) a driver
        raise SystemExit("--browser needs chromedriver on PATH (Debian: apt-get install chromium chromium-driver)")
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        d.set_window_size(1366, 768)
        t = time.perf_counter()
        d.get("file://" + path)
        while d.execute_script("return document.documentElement.getAttribute('data-ready')") != "true":
            time.sleep(0.02)
        print(f"page: ready after {time.perf_counter() - t:.2f} s")
        for k in (3, 4, -1):
            th = d.find_elements(By.CSS_SELECTOR, "#rm-examples thead th[data-col]")[k]
            label = th.text
            ms = d.execute_script("var t=performance.now();arguments[0].click();return performance.now()-t;", th)
            print(f"page: sort by {label!r}: {ms:.1f} ms")
        ms = d.execute_async_script(
            "var done=arguments[arguments.length-1],q=document.getElementById('rm-filter'),"
            "info=document.getElementById('rm-pageinfo'),t0=performance.now();"
            "new MutationObserver(function(){done(performance.now()-t0);}).observe(info,"
            "{childList:true,characterData:true,subtree:true});q.value='police';q.dispatchEvent(new Event('input'));")
        print(f"page: filter 'police': {ms:.1f} ms with the 120 ms debounce ({d.find_element(By.ID, 'rm-pageinfo').text})")
        t = time.perf_counter()
        d.find_elements(By.CSS_SELECTOR, "#rm-examples tbody tr.rm-row.rm-has")[0].click()  # a row with one
        while not d.find_elements(By.CSS_SELECTOR, "#rm-detail .rm-explain"):
            if time.perf_counter() - t > 60:
                raise RuntimeError("no explanation shown after 60 s")
            time.sleep(0.02)
        print(f"page: first explanation shown after {time.perf_counter() - t:.2f} s")
    finally:
        d.quit()


if __name__ == "__main__":
    sys.exit(main())
