"""The frontier's item order on problems with multiplicities: the order the prediction alone picks
against the one the count now chooses (`xc::choose_order_until`: the exact items ordered on the
problem without the counted ones, weighed by trial runs of its frontier, the counted items at their
natural places), on Knuth's MCC workloads as made and with their lines shuffled.

    python benchmarks/mcc_orders.py --knuth DIR [--seconds S] [--shuffles K] [--only NAME ...]

DIR as for benchmarks/knuth_workloads.py (his generators in DIR/gen). Each MCC count instance of
that benchmark is reduced as the count reduces it, then counted at the frontier on one thread in
each order, for at most `--seconds` of CPU (`+`: stopped there); `--shuffles K` adds K copies of
each with its primary items, its options and the items of each option in a random order (seeds
1..K). The table gives each order's name and width, the transitions and CPU seconds of the count,
and for the chosen order the CPU its choice took. Printed only: RESULTS.md quotes it by hand.
"""

from __future__ import annotations

import argparse
import random
import re
import time

from covering import _core, limits
from covering import reduction
from covering.problem import Problem
from knuth_workloads import generated, instances, workload_arguments, workload_folder


def shuffled(text: str, seed: int) -> str:
    """The .dlx `text` with its primary and secondary items, its options
    and the items of each option in a random order."""
    rng = random.Random(seed)
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("|")]
    head = lines[0].split()
    cut = head.index("|") if "|" in head else len(head)
    primary, secondary = head[:cut], head[cut + 1:]
    rng.shuffle(primary)
    rng.shuffle(secondary)
    options = [line.split() for line in lines[1:]]
    rng.shuffle(options)
    for option in options:
        rng.shuffle(option)
    first = " ".join(primary) + (" | " + " ".join(secondary) if secondary else "")
    return "\n".join([first] + [" ".join(o) for o in options]) + "\n"


def frontier(compiled: _core.CompiledProblem, order: list[int], seconds: float) -> str:
    """Transitions and CPU seconds of a frontier count in `order` (`+`: stopped)."""
    f = _core.FrontierCount(compiled, order, 1)
    start, work, done = time.process_time(), 1 << 16, None
    while done is None and time.process_time() - start < seconds:
        done = f.run(limits.begin(None, f.progress.work + work))
        work *= 2
    mark = "" if done is not None else "+"
    return f"{f.progress.work:,}{mark} | {time.process_time() - start:.2f}{mark}"


def row(name: str, text: str, seconds: float) -> str:
    compiled = reduction.reduce(Problem.from_dlx(text.encode())).problem.compile()
    items, width, _, rule, _ = _core.choose_item_order(compiled, "prediction")
    before = f"{rule} | {width} | {frontier(compiled, items, seconds)}"
    start = time.process_time()
    items, width, _, rule, tried = _core.choose_item_order(compiled, "auto")
    chose = time.process_time() - start
    now = f"{rule}{' (tried)' if tried else ''} | {width} | {chose:.3f} | {frontier(compiled, items, seconds)}"
    return f"| {name} | {before} | {now} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    workload_arguments(parser)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--shuffles", type=int, default=0)
    args = parser.parse_args()
    folder, subs = workload_folder(args, "mcc-orders-")
    print("| instance | by the prediction | width | transitions | s | chosen | width | choice s | transitions | s |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for inst in instances(args.words):
        if inst.kind != "MCC" or inst.first or (args.only and not any(o in inst.name for o in args.only)):
            continue
        path = folder / (re.sub(r"\W+", "-", inst.name) + ".dlx")
        text = generated(inst, args.knuth, subs)
        path.write_text(text)
        print(row(inst.name, text, args.seconds), flush=True)
        for seed in range(1, args.shuffles + 1):
            print(row(f"{inst.name}, shuffled ({seed})", shuffled(text, seed), args.seconds), flush=True)


if __name__ == "__main__":
    main()
