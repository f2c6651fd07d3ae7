"""The counting front door (`covering.counting`): its automatic choice
against each method forced, in one run.

    python benchmarks/counting.py [--timeout SECONDS] [--repeat N]

For each problem (tilings, pentominoes, queens, a Sudoku with many
solutions), each way of counting runs in a fresh process that builds the
problem, then times only the count: ``auto`` (the default: a probe picks),
``search`` (dancing links on every core), ``memo (first)`` and ``memo (mrv)``
(the memo with each branching rule). Wall seconds, median of up to
``--repeat`` runs, and the CPU seconds beside them; the last column is auto's
wall time over the best forced method's (1.0x: auto picked the best, at no
cost). Every method must give the same count. Results go to
``benchmarks/RESULTS.md`` between the ``counting`` markers.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

from engine import RESULTS, fmt, measure_repeated, parse_or_run_child, replace_section

PROBLEMS = [
    "L-trominoes 9x9",
    "L-trominoes 12x12",
    "pentominoes 6x10",
    "dominoes 8x8",
    "dominoes 12x12",
    "queens 12",
    "queens 13",
    "sudoku, 18 givens",
]
METHODS = ["auto", "search", "memo (first)", "memo (mrv)"]


def build(problem: str) -> Any:
    from covering.puzzles import sudoku
    from covering.puzzles.polyomino import DOMINOES, PENTOMINOES, Board, l_tromino, tiling
    from covering.puzzles.queens import queens_problem

    if problem.startswith("L-trominoes"):
        return l_tromino(int(problem.split("x")[-1]))
    if problem == "pentominoes 6x10":
        return tiling(PENTOMINOES, Board.rectangle(6, 10))
    if problem.startswith("dominoes"):
        n = int(problem.split("x")[-1])
        return tiling(DOMINOES, Board.rectangle(n, n), uses="any")
    if problem.startswith("queens"):
        return queens_problem(int(problem.split()[-1]))
    # A grid with 18 of its cells kept (fixed seeds): millions of solutions.
    import random

    grid = sudoku.random_grid(9, seed=7)
    keep = set(random.Random(7).sample(range(81), 18))
    values = tuple(v if k in keep else 0 for k, v in enumerate(grid.values))
    return sudoku.Sudoku(9, values, grid.symbols).problem()


def one(method: str, problem: str) -> dict[str, Any]:
    from covering import counting

    p = build(problem)
    p.compile()
    kwargs: dict[str, Any] = {"method": method.split()[0]}
    if "(" in method:
        kwargs["branching"] = method.split("(")[1].rstrip(")")
    wall, cpu = time.perf_counter(), time.process_time()
    counted = counting.count(p, **kwargs)
    return {"count": counted.count, "seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
            "picked": f"{counted.method}" + (f" ({counted.branching})" if counted.branching else "")}


def main() -> None:
    args = parse_or_run_child(__doc__ or "", one, "METHOD", 60.0)
    if args is None:
        return
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for problem in PROBLEMS:
        table[problem] = {}
        for method in METHODS:
            runs = measure_repeated(method, problem, args.timeout, args.repeat, __file__)
            if "error" in runs[-1]:
                table[problem][method] = runs[-1]
            else:
                table[problem][method] = {
                    "count": runs[0]["count"],
                    "seconds": statistics.median(r["seconds"] for r in runs),
                    "cpu": statistics.median(r["cpu"] for r in runs),
                    "picked": runs[0]["picked"],
                }
            print(problem, method, table[problem][method], file=sys.stderr, flush=True)
        counts = {r["count"] for r in table[problem].values() if "count" in r}
        if len(counts) != 1:
            raise SystemExit(f"{problem}: the methods disagree: {sorted(counts)}")
    write(table)


def write(table: dict[str, dict[str, dict[str, Any]]]) -> None:
    lines = [
        "<!-- counting:begin -->",
        "## Counting: the front door's choice against each method forced",
        "",
        "`python benchmarks/counting.py` (one run on this kind of machine, 2 cores,",
        f"{time.strftime('%Y-%m-%d')}): wall seconds of the count alone (CPU seconds in brackets), median of up",
        "to 3 runs, each in a fresh process. `auto` is the default of `count()` and of every counting",
        "command; \"picked\" is what it chose; the last column is auto's wall time over the best forced",
        "method's.",
        "",
        "| problem (solutions) | " + " | ".join(METHODS) + " | picked | auto / best |",
        "|---|" + "---|" * (len(METHODS) + 2),
    ]
    for problem, row in table.items():
        count = next(r["count"] for r in row.values() if "count" in r)
        cells = [f"{fmt(r['seconds'])} s ({fmt(r['cpu'])})" if "seconds" in r else r["error"]
                 for r in (row[m] for m in METHODS)]
        forced = [row[m]["seconds"] for m in METHODS[1:] if "seconds" in row[m]]
        auto = row["auto"]
        ratio = f"{auto['seconds'] / min(forced):.2f}x" if "seconds" in auto and forced else "-"
        lines.append(f"| {problem} ({count:,}) | " + " | ".join(cells) + f" | {auto.get('picked', '-')} | {ratio} |")
    lines.append("<!-- counting:end -->")
    replace_section(RESULTS, "counting", "\n".join(lines))


if __name__ == "__main__":
    main()
