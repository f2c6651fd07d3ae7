"""The portfolio (`engine="auto"` for first solutions and uniqueness)
against dancing links alone and the CDCL solver alone, in one run.

    python benchmarks/portfolio.py [--timeout SECONDS]

Each (problem, engine) pair runs in a fresh process that builds the problem,
then times `uniqueness()` (and `first()`) alone, in CPU seconds. The last
column is the portfolio's time over the better of the two engines alone.
Results go to ``benchmarks/RESULTS.md`` between the ``portfolio`` markers.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from engine import RESULTS, fmt, measure, parse_or_run_child, replace_section

PROBLEMS = [
    "pentominoes 6x10",
    "L-trominoes 9x9",
    "queens 12",
    "sudoku 17 clues",
    "sudoku 16x16, 120 givens",
    "akari generated 50x50",
    "akari generated 100x100",
    "20 free choices + 8 pigeons in 7 holes",
]
ENGINES = ["auto", "links", "sat"]


def build(problem: str) -> Any:
    from covering import Problem
    from covering.puzzles import akari, sudoku
    from covering.puzzles.polyomino import PENTOMINOES, Board, l_tromino, tiling
    from covering.puzzles.queens import queens_problem

    if problem == "pentominoes 6x10":
        return tiling(PENTOMINOES, Board.rectangle(6, 10))
    if problem == "L-trominoes 9x9":
        return l_tromino(9)
    if problem == "queens 12":
        return queens_problem(12)
    if problem == "sudoku 17 clues":
        return sudoku.Sudoku.parse(
            "000000010400000000020000000000050407008000300001090000300400200050100000000806000").problem()
    if problem.startswith("sudoku 16x16"):
        import random

        grid = sudoku.random_grid(16, seed=3)
        keep = set(random.Random(3).sample(range(256), 120))
        return sudoku.Sudoku(16, tuple(v if k in keep else 0 for k, v in enumerate(grid.values)), grid.symbols).problem()
    if problem.startswith("akari"):
        size = int(problem.split()[-1].split("x")[0])
        return akari.generate(size, size, seed=1).puzzle.problem()
    # Dancing links refutes the pigeons again under each of the 2^20 choices.
    p = Problem()
    p.add_primary([f"pigeon{i}" for i in range(8)] + [f"choice{k}" for k in range(20)])
    p.add_secondary([f"hole{j}" for j in range(7)])
    for i in range(8):
        for j in range(7):
            p.add_option([f"pigeon{i}", f"hole{j}"])
    for k in range(20):
        p.add_option([f"choice{k}"])
        p.add_option([f"choice{k}"])
    return p


def one(engine: str, problem: str) -> dict[str, Any]:
    p = build(problem)
    p.compile()
    name = {"links": "cells" if p.compile().has_multiplicities else "auto", "auto": "auto", "sat": "sat"}[engine]
    start = time.process_time()
    if engine == "links":
        u = p.uniqueness(engine=name) if name != "auto" else p.solver().uniqueness()
    else:
        u = p.uniqueness(engine=name)
    seconds = time.process_time() - start
    return {"answer": u.value, "seconds": seconds}


def main() -> None:
    args = parse_or_run_child(__doc__ or "", one, "ENGINE", 60.0, repeat=False)
    if args is None:
        return
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for problem in PROBLEMS:
        table[problem] = {e: measure(e, problem, args.timeout, script=__file__) for e in ENGINES}
        print(problem, table[problem], file=sys.stderr, flush=True)
        answers = {r["answer"] for r in table[problem].values() if "answer" in r}
        if len(answers) != 1:
            raise SystemExit(f"{problem}: the engines disagree: {answers}")
    lines = [
        "<!-- portfolio:begin -->",
        "## Uniqueness: the portfolio against each engine alone",
        "",
        "`python benchmarks/portfolio.py` (one run on this kind of machine,",
        f"{time.strftime('%Y-%m-%d')}): CPU seconds of `uniqueness()` alone, each in a fresh process. "
        "\"links\": dancing links alone",
        "(bitsets or dancing cells, as the default picks); \"sat\": the CDCL solver alone (CaDiCaL);",
        "\"auto\": the default, dancing links for 200,000 nodes, then turns of CDCL and dancing links",
        "(counted in decisions and nodes, never by the clock). Last column: auto over the better of the two alone.",
        "",
        "| problem | answer | auto | links | sat | auto / best |",
        "|---|---|---|---|---|---|",
    ]
    for problem, row in table.items():
        answer = next(r["answer"] for r in row.values() if "answer" in r)
        cells = [f"{fmt(r['seconds'])} s" if "seconds" in r else r["error"] for r in (row[e] for e in ENGINES)]
        alone = [row[e]["seconds"] for e in ("links", "sat") if "seconds" in row[e]]
        ratio = f"{row['auto']['seconds'] / min(alone):.2f}x" if "seconds" in row["auto"] and alone else "-"
        lines.append(f"| {problem} | {answer} | " + " | ".join(cells) + f" | {ratio} |")
    lines.append("<!-- portfolio:end -->")
    replace_section(RESULTS, "portfolio", "\n".join(lines))


if __name__ == "__main__":
    main()
