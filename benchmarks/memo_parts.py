"""The memo's parts and threads, each against the memo without them, in one process.

    python benchmarks/memo_parts.py [--limit SECONDS] [--no-write]

Parts: each problem counted by the memo (MRV rule: under "first" it does
not look for parts) with its parts counted apart (`MemoCount(split=True)`,
the default) and without, CPU seconds of each
(blocks side by side are graphs' covers by connected parts, the kind of
instance DXD's benchmark holds, several in one problem with their options
shuffled; the others seldom split, and show what the looking for parts costs).
Threads: the same memo count on one thread and on two (`threads=2`), wall
seconds. Counts must agree. Writes benchmarks/RESULTS.md (``memo-parts``).
"""

from __future__ import annotations

import argparse
import random
import time

from engine import RESULTS, replace_section
from orders import bell, connected_parts, dominoes, matchings, near_planar

from covering import _core, limits
from covering.problem import Problem


def compiled(items: list[str], options: list[list[str]]) -> _core.CompiledProblem:
    p = Problem()
    p.add_primary(items)
    for o in options:
        p.add_option(o)
    return p.compile()


def side_by_side(parts: list[tuple[list[str], list[list[str]]]], rng: random.Random) -> tuple[list[str], list[list[str]]]:
    items: list[str] = []
    options: list[list[str]] = []
    for k, (its, opts) in enumerate(parts):
        items += [f"{k}.{i}" for i in its]
        options += [[f"{k}.{i}" for i in o] for o in opts]
    rng.shuffle(options)
    return items, options


def run(c: _core.CompiledProblem, rule: str, split: bool, threads: int, limit: float) -> tuple[int | None, float, float]:
    """(count or None past the limit, CPU seconds, wall seconds)."""
    wall, cpu = time.monotonic(), time.process_time()
    m = _core.MemoCount(c, 1 << 31, rule, split, threads)
    total = m.run(limits.begin(None, seconds=limit))
    return total, time.process_time() - cpu, time.monotonic() - wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    rng = random.Random(1)
    cell = lambda r: f"{r[1]:.2f} s" if r[0] is not None else f"> {args.limit:.0f} s"  # noqa: E731
    parts_rows = ["| problem | rule | count | parts | no parts | parts / no parts |", "|---|---|---:|---:|---:|---:|"]
    cases = []
    for copies in (2, 3):
        blocks = [connected_parts(near_planar(5, 7, rng), 35, 3) for _ in range(copies)]
        cases.append((f"{copies} blocks of covers 5x7, parts <= 3", compiled(*side_by_side(blocks, rng))))
    cases.append(("covers 7x9, parts <= 4", compiled(*connected_parts(near_planar(7, 9, rng), 63, 4))))
    cases.append(("matchings of a cubic graph, 100 vertices", compiled(*matchings(100, rng))))
    cases.append(("dominoes 14x14", compiled(*dominoes(14, 14))))
    for name, c in cases:
        for rule in ("mrv",):  # (under "first" the memo does not look for parts)
            on, off = run(c, rule, True, 1, args.limit), run(c, rule, False, 1, args.limit)
            assert on[0] is None or off[0] is None or on[0] == off[0], name
            ratio = f"{on[1] / off[1]:.2f}" if on[0] is not None and off[0] is not None else "-"
            row = f"| {name} | {rule} | {on[0] if on[0] is not None else off[0]} | {cell(on)} | {cell(off)} | {ratio} |"
            print(row, flush=True)
            parts_rows.append(row)
    thread_rows = ["| problem | rule | one thread | two threads | speed-up |", "|---|---|---:|---:|---:|"]
    for name, c, rule in [("set partitions of 13", compiled(*bell(13)), "mrv"),
                          ("covers 7x9, parts <= 4", cases[2][1], "first"),
                          ("matchings of a cubic graph, 100 vertices", cases[3][1], "mrv"),
                          ("dominoes 14x14", cases[4][1], "first")]:
        one, two = run(c, rule, True, 1, args.limit), run(c, rule, True, 2, args.limit)
        assert one[0] is None or two[0] is None or one[0] == two[0], name
        wall = lambda r: f"{r[2]:.2f} s" if r[0] is not None else f"> {args.limit:.0f} s"  # noqa: E731
        speed = f"{one[2] / two[2]:.2f}" if one[0] is not None and two[0] is not None else "-"
        row = f"| {name} | {rule} | {wall(one)} | {wall(two)} | {speed} |"
        print(row, flush=True)
        thread_rows.append(row)
    if not args.no_write:
        replace_section(RESULTS, "memo-parts", "\n".join([
            "<!-- memo-parts:begin -->",
            "## The memo's parts and threads",
            "",
            f"`python benchmarks/memo_parts.py --limit {args.limit:.0f}` ({time.strftime('%Y-%m-%d')}). Parts: CPU "
            "seconds of the memo count (MRV rule) with parts no live option joins counted apart (the default) "
            "and without, in one process.",
            "",
            *parts_rows,
            "",
            "Threads: wall seconds of the same memo count on one thread and on two (sub-problems from the top "
            "of the tree, one memo shared in locked shards).",
            "",
            *thread_rows,
            "<!-- memo-parts:end -->",
        ]))


if __name__ == "__main__":
    main()
