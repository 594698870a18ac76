"""Reward throughput for a GRPO-shaped batch: rouge_metric's reward vs rewards written with rouge-score
and rouge-score-rs, text and token ids, 1 and 2 threads, in one run.

    pip install -e ".[bench]"
    python benchmarks/reward_bench.py                   # 64 prompts x 8 completions, 50-400 words, 1-3 refs
    python benchmarks/reward_bench.py --rounds 7 --rouge-type rouge1
    python benchmarks/reward_bench.py --glue --words 20  # the reward's own time beside the native batch

The batch: ``--prompts`` prompts x ``--generations`` completions of 50-400 words (a 5,000-word synthetic
vocabulary, a line break every ~12 words), each prompt with 1-3 references of 50-150 words drawn from its
completions' words. The id variant is the same batch with each word replaced by its vocabulary index
(``completion_ids`` and tokenized references as TRL would pass them; lines end with id 1, ignored id 0 pads).

Rewards timed (one call scores the whole group; figure = completions per second):

- ``rouge-score loop``: ``RougeScorer.score_multi(refs, completion)[type].fmeasure`` per completion, the
  reward users write by hand (timed on the first ``--slow-prompts`` prompts' completions: it is slow);
- ``rouge-score-rs loop``: the same loop on the Rust port's per-pair API;
- ``rouge-score-rs score_batch``: its batch API on every (completion, reference) pair, max F per completion,
  on ``RAYON_NUM_THREADS`` threads (set from ``--rs-threads`` before import);
- ``rouge_metric text``: ``rouge_reward(type)`` on the texts, with ``num_threads`` 1 and 2;
- ``rouge_metric ids``: ``rouge_reward(type, tokenizer="ids")`` on the ids, with ``num_threads`` 1 and 2
  (the native id batch: ids read and interned once per call, scored on the threads without the GIL).

``--glue``: how much of a reward call is not the native batch scorer. On the same batch (``--words N``
truncates every text to its first N words), in alternating rounds: the reward call, ``Rouge.compute`` and
the native batch alone (``Rouge._native_batches``, the call both make), 1 and 2 threads; and, inside
each reward call, the time spent in the native batch (the scorer's batch function wrapped with a timer).
Glue = 1 - native time / reward time, the median over rounds (in-call: immune to load changes between
calls). Cold = the first call of a fresh process each (import excluded), ``--cold-runs`` processes.

Cold = the first call of each reward in this process (vocabulary, stem caches empty); warm = the median of
``--rounds`` rounds in which the rewards run in turn (rotating order), so each sees the same machine load;
ratios against the rouge-score loop are medians of per-round ratios. Checks (exit code 1 on failure): every
text reward equals rouge-score's exactly on the slow subset; the native text reward equals rouge-score-rs
on the whole batch; the id reward equals rouge-score-rs on ``w<id>`` texts on the whole batch.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple


def make_batch(prompts: int, generations: int, seed: int = 0):
    """(completion texts, references per completion, completion ids, reference ids per completion)."""
    rnd = random.Random(seed)
    vocab = ["".join(rnd.choice("abcdefghijklmnoprstuw") for _ in range(rnd.randint(2, 9))) + rnd.choice(["", "s", "ed"])
             for _ in range(5000)]
    index: Dict[str, int] = {}
    for w in vocab:
        index.setdefault(w, len(index) + 2)  # 0 = pad, 1 = line end
    words = list(index)

    def lines(ws: List[str]) -> Tuple[str, List[int]]:
        text, ids, cur = [], [], []
        for w in ws:
            cur.append(w)
            ids.append(index[w])
            if len(cur) >= 12 and rnd.random() < 0.2:
                text.append(" ".join(cur))
                ids.append(1)
                cur = []
        if cur:
            text.append(" ".join(cur))
        return "\n".join(text), ids

    comps, refs, comp_ids, ref_ids = [], [], [], []
    for _ in range(prompts):
        topic = rnd.sample(words, 300)
        r = [lines([rnd.choice(topic) for _ in range(rnd.randint(50, 150))]) for _ in range(rnd.randint(1, 3))]
        for _ in range(generations):
            t, i = lines([rnd.choice(topic) if rnd.random() < 0.7 else rnd.choice(words)
                          for _ in range(rnd.randint(50, 400))])
            comps.append(t)
            comp_ids.append(i + [0] * rnd.randint(0, 5))  # padded, as a generation batch is
            refs.append([x[0] for x in r])
            ref_ids.append([x[1] for x in r])
    return comps, refs, comp_ids, ref_ids


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prompts", type=int, default=64)
    p.add_argument("--generations", type=int, default=8)
    p.add_argument("--slow-prompts", type=int, default=16, help="prompts whose completions the rouge-score loop scores")
    p.add_argument("--rouge-type", default="rougeL")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--rs-threads", type=int, default=2, help="RAYON_NUM_THREADS for rouge-score-rs score_batch")
    p.add_argument("--glue", action="store_true", help="time the reward against the native batch it calls")
    p.add_argument("--words", type=int, default=0, help="--glue: truncate every text to its first N words")
    p.add_argument("--cold-runs", type=int, default=5, help="--glue: fresh processes for the cold figures")
    p.add_argument("--cold-one", choices=["reward", "compute"], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.glue or args.cold_one:
        return glue(args)
    os.environ["RAYON_NUM_THREADS"] = str(args.rs_threads)  # before rouge_score_rs starts its pool

    import rouge_score_rs.rouge_scorer as rs_rust
    from rouge_score import rouge_scorer as rs_py

    from rouge_metric import __version__, active_backend, rouge_reward

    t = args.rouge_type
    comps, refs, comp_ids, ref_ids = make_batch(args.prompts, args.generations)
    n, n_slow = len(comps), args.slow_prompts * args.generations
    words = sum(len(c.split()) for c in comps) / n
    print(f"rouge_metric {__version__} ({active_backend()}), python {platform.python_version()}, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, load {os.getloadavg()[0]:.2f}")
    print(f"batch: {args.prompts} prompts x {args.generations} = {n} completions, {words:.0f} words on average, "
          f"{sum(map(len, refs)) / n:.2f} references each; reward {t} F1; {args.rounds} rounds\n")

    py_scorer = rs_py.RougeScorer([t])
    rust_scorer = rs_rust.RougeScorer([t])

    def loop(scorer, k):
        return lambda: [scorer.score_multi(r, c)[t].fmeasure for c, r in zip(comps[:k], refs[:k])]

    def rust_batch():
        targets, preds, owner = [], [], []
        for i, (c, rr) in enumerate(zip(comps, refs)):
            for r in rr:
                targets.append(r)
                preds.append(c)
                owner.append(i)
        out = [-1.0] * n
        for i, s in zip(owner, rust_scorer.score_batch(targets, preds)):
            if s[t].fmeasure > out[i]:  # rouge-score's score_multi: max F, first on ties
                out[i] = s[t].fmeasure
        return out

    ignore = [0]
    rewards: Dict[str, Tuple[Callable[[], Any], int]] = {
        "rouge-score loop": (loop(py_scorer, n_slow), n_slow),
        "rouge-score-rs loop": (loop(rust_scorer, n), n),
        f"rouge-score-rs score_batch ({args.rs_threads} thr)": (rust_batch, n),
    }
    for threads in (1, 2):
        text = rouge_reward(t, num_threads=threads)
        ids = rouge_reward(t, tokenizer="ids", ignore_ids=ignore, sentence_ids=[1], num_threads=threads)
        rewards[f"rouge_metric text, {threads} thread{'s' * (threads > 1)}"] = (
            (lambda f=text: f(completions=comps, reference=refs)), n)
        rewards[f"rouge_metric ids, {threads} thread{'s' * (threads > 1)}"] = (
            (lambda f=ids: f(completion_ids=comp_ids, reference=ref_ids)), n)

    names = list(rewards)
    cold: Dict[str, float] = {}
    outputs: Dict[str, Any] = {}
    for name in names:  # first call of each in this process
        fn, k = rewards[name]
        t0 = time.perf_counter()
        outputs[name] = fn()
        cold[name] = k / (time.perf_counter() - t0)
    warm: Dict[str, List[float]] = {name: [] for name in names}
    for rnd in range(args.rounds):
        order = names[rnd % len(names):] + names[: rnd % len(names)]
        for name in order:
            fn, k = rewards[name]
            t0 = time.perf_counter()
            fn()
            warm[name].append(k / (time.perf_counter() - t0))
    base = warm["rouge-score loop"]
    print(f"| reward ({n} completions) | cold (completions/s) | warm (completions/s, median) | x rouge-score loop |")
    print("|---|---:|---:|---:|")
    for name in names:
        ratio = statistics.median(w / b for w, b in zip(warm[name], base))
        print(f"| {name} | {cold[name]:,.0f} | {statistics.median(warm[name]):,.0f} | {ratio:,.1f} |")
    for threads in ("1 thread", "2 threads"):  # ids against text on the same words, same rounds
        ids_w, text_w = warm[f"rouge_metric ids, {threads}"], warm[f"rouge_metric text, {threads}"]
        print(f"\nids / text, {threads}: warm {statistics.median(i / x for i, x in zip(ids_w, text_w)):.2f} "
              f"(median of per-round ratios)", end="")
    print()

    # ---- checks
    ok = True
    want_slow = outputs["rouge-score loop"]
    want_all = outputs["rouge-score-rs loop"]
    for name in names:
        got = outputs[name]
        if "ids" in name:
            continue
        if list(got[:n_slow]) != list(want_slow):
            ok = False
            print(f"MISMATCH: {name} differs from rouge-score")
        if name != "rouge-score loop" and list(got) != list(want_all):
            ok = False
            print(f"MISMATCH: {name} differs from rouge-score-rs on the whole batch")
    # ids: rouge-score-rs on texts made from the ids ("w<id>" words, line ends as newlines, pads dropped)
    def wtext(ids: List[int]) -> str:
        lines, cur = [], []
        for i in ids:
            if i == 1:
                lines.append(cur)
                cur = []
            elif i != 0:
                cur.append(f"w{i}")
        return "\n".join(" ".join(line) for line in lines + [cur] if line)

    want_ids = [rust_scorer.score_multi([wtext(r) for r in rr], wtext(c))[t].fmeasure for c, rr in zip(comp_ids, ref_ids)]
    for name in names:
        if "ids" in name and list(outputs[name]) != want_ids:
            ok = False
            print(f"MISMATCH: {name} differs from rouge-score-rs on w<id> texts")
    print("\nchecks: " + ("all rewards equal their oracle exactly" if ok else "FAILED"))
    return 0 if ok else 1


def glue_batch(args: argparse.Namespace) -> Tuple[List[str], List[List[str]]]:
    comps, refs, _, _ = make_batch(args.prompts, args.generations)
    if args.words:
        comps = [" ".join(c.split()[: args.words]) for c in comps]
        refs = [[" ".join(r.split()[: args.words]) for r in rr] for rr in refs]
    return comps, refs


def glue(args: argparse.Namespace) -> int:
    """The reward's time outside the native batch scorer (see the module docstring, ``--glue``)."""
    import subprocess

    from rouge_metric import Rouge, __version__, active_backend, rouge_reward

    t = args.rouge_type
    comps, refs = glue_batch(args)
    if args.cold_one:  # one cold call in this fresh process: print its seconds
        if args.cold_one == "reward":
            fn = rouge_reward(t, num_threads=1)
            t0 = time.perf_counter()
            fn(completions=comps, reference=refs)
        else:
            rouge = Rouge([t], num_threads=1)
            t0 = time.perf_counter()
            rouge.compute(predictions=comps, references=refs)
        print(time.perf_counter() - t0)
        return 0
    n = len(comps)
    words = sum(len(c.split()) for c in comps) / n
    print(f"rouge_metric {__version__} ({active_backend()}), python {platform.python_version()}, "
          f"{os.cpu_count()} logical CPUs, load {os.getloadavg()[0]:.2f}")
    print(f"batch: {n} completions, {words:.0f} words on average, {sum(map(len, refs)) / n:.2f} references each; "
          f"reward {t} F1; {args.rounds} rounds\n")
    if active_backend() != "native":
        print("the native core is not built: nothing to compare")
        return 1
    print("| threads | reward (ms) | Rouge.compute (ms) | native batch (ms) | glue vs native batch | glue in-call |")
    print("|---:|---:|---:|---:|---:|---:|")
    ok = True
    for threads in (1, 2):
        reward = rouge_reward(t, num_threads=threads)
        rouge = reward.rouge
        inner = rouge._native_batch
        spent = [0.0]

        def timed(*a: Any, _inner: Any = inner) -> Any:
            t0 = time.perf_counter()
            try:
                return _inner(*a)
            finally:
                spent[0] += time.perf_counter() - t0

        def native(rouge: Any = rouge) -> None:
            for _ in rouge._native_batches(comps, refs, want_values=True, want_dicts=False):
                pass

        calls = {"reward": lambda: reward(completions=comps, reference=refs),
                 "compute": lambda: rouge.compute(predictions=comps, references=refs), "native": native}
        got = calls["reward"]()
        scores = [s[t].fmeasure for s in rouge.score_examples(predictions=comps, references=refs)]
        if [g.hex() for g in got] != [s.hex() for s in scores]:  # type: ignore[union-attr]
            ok = False
            print(f"MISMATCH: the reward differs from Rouge.score_examples ({threads} threads)")
        for fn in calls.values():
            fn()  # warm
        times: Dict[str, List[float]] = {k: [] for k in calls}
        in_call: List[float] = []
        names = list(calls)
        for rnd in range(args.rounds):
            for name in names[rnd % 3:] + names[: rnd % 3]:
                spent[0] = 0.0
                rouge._native_batch = timed if name == "reward" else inner
                t0 = time.perf_counter()
                calls[name]()
                times[name].append(time.perf_counter() - t0)
                if name == "reward":
                    in_call.append(1 - spent[0] / times[name][-1])
        rouge._native_batch = inner
        med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
        vs_native = statistics.median(1 - b / a for a, b in zip(times["reward"], times["native"]))
        print(f"| {threads} | {med['reward']:.3f} | {med['compute']:.3f} | {med['native']:.3f} | "
              f"{100 * vs_native:.1f}% | {100 * statistics.median(in_call):.1f}% |")
    cold: Dict[str, List[float]] = {"reward": [], "compute": []}
    here = os.path.abspath(__file__)
    base = [sys.executable, here, "--prompts", str(args.prompts), "--generations", str(args.generations),
            "--words", str(args.words), "--rouge-type", t]
    for _ in range(args.cold_runs):  # alternating fresh processes, bytecode already compiled by this one
        for name in cold:
            out = subprocess.run(base + ["--cold-one", name], capture_output=True, text=True, check=True)
            cold[name].append(float(out.stdout.strip()))
    print(f"\ncold (first call of a fresh process, 1 thread, median of {args.cold_runs}): reward "
          f"{statistics.median(cold['reward']) * 1e3:.2f} ms, Rouge.compute {statistics.median(cold['compute']) * 1e3:.2f} ms")
    print("\nchecks: " + ("every reward equals Rouge.score_examples exactly" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
