"""Counting with a memo of sub-problems, in one run: covering's memo count
(both branching rules), covering's diagram of all the solutions (built, then
counted), covering's plain count, and the PyPI package ``dxz`` (Nishino et
al.'s DXZ: DLX with a ZDD memo, in C++).

    python benchmarks/memo.py [--timeout SECONDS] [--repeat N]

Each (program, problem) pair runs in a fresh process that builds the problem
in the program's own input form (dxz takes a dense 0/1 matrix), then times
only the count, in CPU seconds, median of up to ``--repeat`` runs. Results go
to ``benchmarks/RESULTS.md`` between the ``memo`` markers. A count that
differs from the known one is reported as wrong.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

from engine import fmt, measure_repeated, parse_or_run_child, replace_section, timed, RESULTS

# problem -> known count (Kasteleyn's formula for the domino boards)
PROBLEMS: dict[str, int] = {
    "tromino 9x9": 1_193_600,
    "tromino 8x8 minus a corner": 30_355,
    "pentominoes 6x10": 9356,
    "dominoes 8x8": 12_988_816,
    "dominoes 12x12": 53_060_477_521_960_000,
    "dominoes 14x14": 112_202_208_776_036_178_000_000,
}
PROGRAMS = ["covering memo", "covering memo (first)", "covering to_zdd + count", "dxz", "covering plain"]
# Plain enumeration of the larger domino boards would take years.
PLAIN = {"tromino 9x9", "tromino 8x8 minus a corner", "pentominoes 6x10", "dominoes 8x8"}


def build(problem: str) -> Any:
    from covering.puzzles.polyomino import DOMINOES, PENTOMINOES, Board, l_tromino, tiling

    if problem == "tromino 9x9":
        return l_tromino(9)
    if problem == "tromino 8x8 minus a corner":
        return l_tromino(8, 0)
    if problem == "pentominoes 6x10":
        return tiling(PENTOMINOES, Board.rectangle(6, 10))
    n = int(problem.split("x")[-1])
    return tiling(DOMINOES, Board.rectangle(n, n), uses="any")


def run_dxz(p: Any) -> tuple[int, float]:
    import dxz

    items = p.primary + p.secondary
    index = {x: k for k, x in enumerate(items)}
    matrix = [0] * (p.n_options * len(items))
    for o in range(p.n_options):
        for item, _ in p.option(o):
            matrix[o * len(items) + index[item]] = 1
    return timed(lambda: int(dxz.dxz_count(p.n_options, len(items), matrix)))


def one(program: str, problem: str) -> dict[str, Any]:
    from covering.memo import count_memo

    p = build(problem)
    p.compile()
    try:
        if program == "dxz":
            count, seconds = run_dxz(p)
        elif program == "covering to_zdd + count":
            count, seconds = timed(lambda: p.to_zdd().count())
        elif program == "covering plain":
            count, seconds = timed(lambda: p.count(threads=1))
        else:
            branching = "first" if "first" in program else "mrv"
            count, seconds = timed(lambda: count_memo(p, branching=branching))
    except ImportError as e:
        return {"error": f"not installed ({e.name})"}
    return {"count": count, "seconds": seconds}


def main() -> None:
    args = parse_or_run_child(__doc__ or "", one, "PROGRAM", 120.0)
    if args is None:
        return
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for problem, expected in PROBLEMS.items():
        table[problem] = {}
        for program in PROGRAMS:
            if program == "covering plain" and problem not in PLAIN:
                table[problem][program] = {"error": "not run"}
                continue
            runs = measure_repeated(program, problem, args.timeout, args.repeat, __file__)
            counts = {r.get("count") for r in runs}
            if "error" in runs[-1]:
                table[problem][program] = runs[-1]
            elif counts != {expected}:
                table[problem][program] = {"error": f"wrong count {sorted(counts)}"}
            else:
                table[problem][program] = {"seconds": statistics.median(r["seconds"] for r in runs)}
            print(problem, program, table[problem][program], file=sys.stderr, flush=True)
    write(table)


def write(table: dict[str, dict[str, dict[str, Any]]]) -> None:
    lines = [
        "<!-- memo:begin -->",
        "## Counting with a memo of sub-problems",
        "",
        "`python benchmarks/memo.py` (one run on this kind of machine,",
        f"{time.strftime('%Y-%m-%d')}): CPU seconds of the count alone, median of up to 3 runs, each in a",
        "fresh process; in brackets, the time over covering's memo count (higher: covering faster).",
        "",
        "| problem (solutions) | " + " | ".join(PROGRAMS) + " |",
        "|---|" + "---|" * len(PROGRAMS),
    ]
    for problem, row in table.items():
        base = row["covering memo"].get("seconds")
        cells = []
        for program in PROGRAMS:
            r = row[program]
            if "error" in r:
                cells.append(r["error"])
            elif base and program != "covering memo":
                cells.append(f"{fmt(r['seconds'])} s ({r['seconds'] / base:.1f}x)")
            else:
                cells.append(f"{fmt(r['seconds'])} s")
        lines.append(f"| {problem} ({PROBLEMS[problem]:,}) | " + " | ".join(cells) + " |")
    lines.append("<!-- memo:end -->")
    replace_section(RESULTS, "memo", "\n".join(lines))


if __name__ == "__main__":
    main()
