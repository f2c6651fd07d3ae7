"""Where the bitset engine stops paying: its option ceiling and its first solutions.

    python benchmarks/ceiling.py [--nodes N]

``engine="auto"`` takes bitsets for problems without multiplicities of at
most ``MAX_OPTIONS`` options (4096) and 1024 primary items, dancing cells
for the rest. Two measures of that rule, each engine run in this process on
the same problem, one after the other:

* **per node**: tetromino tilings (the five free tetrominoes, any number of
  each) of square boards of growing size, counted for the same number of
  nodes by each engine (their trees differ only in ties, and they find about
  as many solutions in those nodes). Past the ceiling ``engine="bits"``
  runs dancing cells (the table says which ran); how bitsets would do there
  was measured once on a build with the ceiling raised (RESULTS says so);
* **first solutions**: n-queens for n up to 64 (4096 options): nodes and
  time to the first solution, each engine. Tie-breaking decides these
  trees, and the bitsets once took their first item of least count, which
  on n = 58 to 70 ran millions of nodes where cells took a hundred.

The table goes to ``benchmarks/RESULTS.md`` (``ceiling`` markers).
"""

from __future__ import annotations

import argparse
import time

from engine import RESULTS, replace_section

from covering.puzzles.polyomino import TETROMINOES, Board, tiling
from covering.puzzles.queens import queens_problem
from covering.solver import LimitReached, Solver


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    lines = [
        "<!-- ceiling:begin -->",
        "## Where bitsets stop paying",
        "",
        f"`python benchmarks/ceiling.py --nodes {args.nodes}` (one process, each engine in turn; CPU seconds).",
        "",
        "Tetromino tilings of a square board (five free tetrominoes, any number of each), "
        f"{args.nodes:,} nodes counted by each engine; `engine=\"bits\"` on a problem past the "
        "ceiling runs dancing cells, which the engine column shows.",
        "",
        "| board | options | cells s | bits s (engine) | bits / cells |",
        "|---|---|---|---|---|",
    ]
    for side in (10, 14, 16, 18):
        p = tiling(TETROMINOES, Board.rectangle(side, side), uses="any")
        n_options = p.n_options
        got = {}
        for engine in ("cells", "bits"):
            s = Solver(p, engine=engine)
            t = time.process_time()
            try:
                s.count(nodes=args.nodes)
            except LimitReached:
                pass
            got[engine] = (time.process_time() - t, s.engine)
        (tc, _), (tb, used) = got["cells"], got["bits"]
        lines.append(f"| {side}x{side} | {n_options:,} | {tc:.3f} | {tb:.3f} ({used}) | {tb / tc:.2f} |")
        print(lines[-1], flush=True)
    lines += [
        "",
        "The first solution of n-queens (options n^2), each engine: nodes and CPU seconds.",
        "",
        "| n | options | cells nodes | cells s | bits nodes | bits s |",
        "|---|---|---|---|---|---|",
    ]
    for n in (20, 32, 44, 52, 58, 62, 64):
        p = queens_problem(n)
        row = [str(n), f"{n * n:,}"]
        for engine in ("cells", "bits"):
            s = Solver(p, engine=engine)
            t = time.process_time()
            next(iter(s.solutions(1, ids=True)))
            row += [f"{s.stats.nodes:,}", f"{time.process_time() - t:.4f}"]
        lines.append("| " + " | ".join(row) + " |")
        print(lines[-1], flush=True)
    lines.append("<!-- ceiling:end -->")
    if not args.no_write:
        replace_section(RESULTS, "ceiling", "\n".join(lines))


if __name__ == "__main__":
    main()
