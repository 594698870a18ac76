"""Reward throughput for a GRPO-shaped batch: rouge_metric's reward vs rewards written with rouge-score
and rouge-score-rs, text and token ids, 1 and 2 threads, in one run.

    pip install -e ".[bench]"
    python benchmarks/reward_bench.py                   # 64 prompts x 8 completions, 50-400 words, 1-3 refs
    python benchmarks/reward_bench.py --rounds 7 --rouge-type rouge1

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
    args = p.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
