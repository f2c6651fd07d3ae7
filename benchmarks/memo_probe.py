"""What the count's memo probe sees on Knuth's workloads, as generated and shuffled: the share of
lookups that hit and the "shrink" (nodes searched plus the nodes the sub-problems found again took
to count, against the nodes searched), each rule, beside the CPU of the default count and of a
plain search. The evidence for the plan's `SHRINK` (`_core.CountPlan.SHRINK`).

    python benchmarks/memo_probe.py --knuth DIR [--words FILE] [--shuffles N] [--only NAME ...]

DIR as for benchmarks/knuth_workloads.py (his generators in DIR/gen). Each XCC count instance of
that benchmark, plus two more from his INDICATOR-DLX, is probed as generated and after
`--shuffles` shuffles of its items, its options and the items within each option (seeds 1, 2,
...): the probe is the one `count` runs (`counting.probe_nodes` nodes, each rule, the "first" rule
in the order the count chooses, on the problem the count's reduction leaves). The CPU columns are
the whole process of ``covering dlx count FILE --threads 1`` and of the same with
``--method search``. The table goes to ``benchmarks/RESULTS.md`` between the ``memo-probe``
markers, unless ``--only`` or ``--no-write``.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

from covering import _core
from covering import counting as C
from covering.problem import Problem
from engine import RESULTS, replace_section
from knuth_workloads import Instance, generated, instances, timed, workload_arguments, workload_folder

EXTRA = [
    Instance("indicator: 5 variables, relation 00 01 10", ["indicator-dlx", "2", "5", "00", "01", "10"]),
    Instance("indicator: 3 values, 3 variables, 00 01 02 11 12 22",
             ["indicator-dlx", "3", "3", "00", "01", "02", "11", "12", "22"]),
]


def shuffled(text: str, seed: int) -> str:
    """`text` (a .dlx file) with its items, options and each option's items in a random order."""
    rng = random.Random(seed)
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("|")]
    head = lines[0].split("|")
    parts = [h.split() for h in head]
    for p in parts:
        rng.shuffle(p)
    options = [o.split() for o in lines[1:]]
    rng.shuffle(options)
    for o in options:
        rng.shuffle(o)
    return " | ".join(" ".join(p) for p in parts) + "\n" + "".join(" ".join(o) + "\n" for o in options)


def probe(text: str) -> list[tuple[str, float, float]] | None:
    """(rule, hit ratio, shrink) of each rule of the count's memo probe, or None where the count
    probes no memo (multiplicities, too many options)."""
    problem = Problem.from_dlx(text)
    compiled = problem.compile()
    smaller = C._reduced(problem, compiled)
    if smaller is not None:
        problem = smaller[0]
        compiled = problem.compile()
    if compiled.has_multiplicities or compiled.n_options > _core.MEMO_MAX_OPTIONS:
        return None
    order = C._order(compiled, "auto")
    out = []
    for rule in C.BRANCHINGS:
        counter, _ = C.memo_probe(compiled, rule, order if rule == "first" else None, 1 << 30)
        out.append((rule, *C.probe_measures(counter)))
    return out


def covering_cpu(path: Path, search: bool) -> tuple[float, str]:
    """CPU of ``covering dlx count`` on `path` (one thread), and the method it says it used."""
    extra = ["--method", "search"] if search else []
    cpu, out, _ = timed([sys.executable, "-m", "covering", "dlx", "count", "-", "--threads", "1", "--json",
                         *extra], path)
    m = re.search(r'"method": "(\w+)"', out)
    return cpu, m[1] if m else "failed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    workload_arguments(parser)
    parser.add_argument("--shuffles", type=int, default=5)
    args = parser.parse_args()
    folder, subs = workload_folder(args, "memo-probe-")
    rows = []
    for inst in instances(args.words) + EXTRA:
        if inst.kind != "XCC" or inst.first or (args.only and not any(o in inst.name for o in args.only)):
            continue
        text = generated(inst, args.knuth, subs)
        for seed in range(args.shuffles + 1):
            version = text if seed == 0 else shuffled(text, seed)
            got = probe(version)
            if got is None:
                continue
            path = folder / "instance.dlx"
            path.write_text(version)
            default, method = covering_cpu(path, search=False)
            search, _ = covering_cpu(path, search=True)
            shrink = max(s for _, _, s in got)
            cells = " | ".join(f"{h:.3f} / {s:.2f}" for _, h, s in got)
            row = (f"| {inst.name} | {'as made' if seed == 0 else f'shuffle {seed}'} | {cells} | {shrink:.2f} | "
                   f"{default:.2f} ({method}) | {search:.2f} |")
            print(row, flush=True)
            rows.append(row)
    rules = " | ".join(f"{r}: hits / shrink" for r in C.BRANCHINGS)
    table = "\n".join([
        "<!-- memo-probe:begin -->",
        "## What the count's memo probe sees (hits, shrink)",
        "",
        f"`python benchmarks/memo_probe.py --knuth DIR --words WORDS --shuffles {args.shuffles}`: "
        "each rule's share of lookups that hit and its shrink (nodes searched and the nodes the "
        "sub-problems found again took, against the nodes searched) in the probe `count` runs; the memo "
        f"is in the running at a hit share of {_core.CountPlan.HIT_RATIO} or a shrink of {_core.CountPlan.SHRINK}. "
        "CPU seconds of the "
        "whole process: the default `covering dlx count FILE --threads 1` (the method it took) and "
        "the same with `--method search`.",
        "",
        f"| instance | version | {rules} | largest shrink | default (method) | search |",
        "|---|---|" + "---|" * len(C.BRANCHINGS) + "---|---|---|",
        *rows,
        "<!-- memo-probe:end -->",
    ])
    print(table)
    if not args.no_write and not args.only:
        replace_section(RESULTS, "memo-probe", table)


if __name__ == "__main__":
    main()
