"""Memory: streaming 10 million solutions must not grow memory.

    python benchmarks/memory.py [--solutions N]

Streams N solutions (default 10,000,000) of a problem that has 2^24 of them
(24 independent items, two options each), reading the process's resident
memory (Linux /proc) after the first million and at the end; also compares
the memory of a large compiled problem with the size of its arrays. Writes
the figures to benchmarks/RESULTS.md (between the ``memory`` markers).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine import replace_section

from covering import Problem

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * 4096 / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solutions", type=int, default=10_000_000)
    args = parser.parse_args()

    p = Problem()
    p.add_primary(range(24))
    for i in range(24):
        p.add_option([i])
        p.add_option([i])
    start = time.monotonic()
    rss = {}
    for k, _ in enumerate(p.solutions(args.solutions, ids=True), 1):
        if k in (1, 1_000_000):
            rss[k] = rss_mib()
    rss[args.solutions] = rss_mib()
    seconds = time.monotonic() - start

    # A large problem: the arrays handed to the engine against the memory it takes.
    before = rss_mib()
    big = Problem()
    n = 200_000
    big.add_primary(range(n))
    for i in range(n):
        for j in (1, 2, 3, 5, 8):
            big.add_option([i, (i + j) % n])
    compiled = big.compile()
    after_compile = rss_mib()
    solver = big.solver()
    after_solver = rss_mib()
    entries = compiled.n_entries
    array_mib = (entries * 2 + compiled.n_options + 2 * n) * 4 / 2**20
    lines = [
        "<!-- memory:begin -->",
        "## Memory",
        "",
        f"`python benchmarks/memory.py` ({time.strftime('%Y-%m-%d')}): resident memory of the process while",
        f"streaming {args.solutions:,} solutions (`solutions(ids=True)`) in {seconds:.1f} s:",
        "",
        "| after | resident memory |",
        "|---|---|",
    ]
    lines += [f"| {k:,} solutions | {v:.1f} MiB |" for k, v in rss.items()]
    lines += [
        "",
        f"A problem of {compiled.n_options:,} options and {entries:,} entries (its arrays: {array_mib:.1f} MiB):",
        f"the builder and compiled arrays took {after_compile - before:.1f} MiB (Python objects included), and a",
        f"search over it (dancing cells, its own copy of the links) {after_solver - after_compile:.1f} MiB more.",
        "<!-- memory:end -->",
    ]
    replace_section(RESULTS, "memory", "\n".join(lines))
    print("\n".join(lines))
    del solver


if __name__ == "__main__":
    main()
