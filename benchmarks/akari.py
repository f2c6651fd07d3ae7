"""Akari (Light Up): solve and prove unique, by size class, in one run against
a SAT encoding on python-sat (CaDiCaL), PyPI ``puzzlekit`` (OR-Tools CP-SAT;
it solves, it does not prove uniqueness) and PyPI ``akari-sat`` (when it can
be imported: it needs Python >= 3.13).

    python benchmarks/akari.py [--repeat N]

Puzzles: ``benchmarks/data/akari.txt``, game IDs made by Simon Tatham's
generator (``sgt-lightup --generate N 'WxHbPsSdD#SEED'``, Debian's
sgt-puzzles; each has one solution), and *sparse* boards made with
``akari.random_puzzle`` and fixed seeds (8% black cells, like human-made
puzzles, every black cell numbered); those may have several solutions.

Every program's time is CPU seconds from the grid text to the answer
(encoding included), per puzzle, in this process; the table shows the median
over each size class and the ratio to covering. covering and the SAT
encoding answer "unique" (two searches' worth: a solution, then proof there
is no other); the answers and the lights are checked against each other.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine import fmt, replace_section, RESULTS

from covering.puzzles.akari import Akari, check, generate, random_puzzle

DATA = Path(__file__).resolve().parent / "data" / "akari.txt"


def puzzles() -> dict[str, list[Akari]]:
    classes: dict[str, list[Akari]] = {}
    group = "?"
    for line in DATA.read_text().splitlines():
        if line.startswith("; ") and "(N=" in line:
            group = "sgt " + line.split()[1].split("#")[0]  # the parameters, e.g. 36x20b20s0d2
        elif line.strip() and not line.startswith(";"):
            classes.setdefault(group, []).append(Akari.from_game_id(line))
    for cols, rows in ((36, 20), (100, 100), (150, 150)):
        classes[f"{cols}x{rows} sparse"] = [random_puzzle(rows, cols, black=0.08, seed=seed) for seed in range(8)]
    # Nikoli-like density, random (often several solutions), and generated (exactly one).
    classes["100x100 random, 20% black"] = [random_puzzle(100, 100, black=0.2, seed=seed) for seed in range(5)]
    for size, level, n in ((50, "easy", 5), (50, "medium", 5), (50, "hard", 5), (100, "medium", 3)):
        classes[f"generated {size}x{size} {level}"] = [
            generate(size, size, seed=seed, difficulty=level).puzzle for seed in range(n)]
    return classes


def generator_table(repeat: int) -> str:
    """CPU seconds of `akari.generate` per puzzle, by size and difficulty."""
    lines = ["| size | difficulty asked | puzzles | median | worst | black (mean) | numbers (mean) | difficulty made |",
             "|---|---|---|---|---|---|---|---|"]
    for size in (10, 50, 100):
        for level in ("easy", "medium", "hard"):
            n = 5 if size < 100 else 2
            times, blacks, numbers, made = [], [], [], []
            for seed in range(n):
                start = time.process_time()
                g = generate(size, size, seed=seed, difficulty=level)
                times.append(time.process_time() - start)
                cells = "".join(g.puzzle.rows)
                blacks.append(sum(ch != "." for ch in cells) / len(cells))
                numbers.append(sum(ch.isdigit() for ch in cells))
                made.append(g.difficulty)
            print("generate", size, level, times, file=sys.stderr, flush=True)
            kinds = ", ".join(f"{made.count(d)} {d}" for d in ("easy", "medium", "hard") if made.count(d))
            lines.append(f"| {size}x{size} | {level} | {n} | {statistics.median(times):.3f} s | {max(times):.3f} s "
                         f"| {100 * statistics.mean(blacks):.1f}% | {statistics.mean(numbers):.0f} | {kinds} |")
    return "\n".join(lines)


# -- the programs: each returns (number of solutions, capped at 2, or -1 for "solved, not proved"; lights) --


def run_covering(a: Akari) -> tuple[int, Any]:
    # A fresh object (no cached encoding); the default: dancing links, then CDCL where the tree is heavy.
    lights, u = Akari(a.rows).solve_unique()
    return {"none": 0, "unique": 1, "multiple": 2}[u.value], lights


def run_covering_links(a: Akari) -> tuple[int, Any]:
    found = list(Akari(a.rows).solutions(2))  # dancing links alone (with restarts), as before the portfolio
    return len(found), found[0] if found else None


def numbers(a: Akari, var: dict[tuple[int, int], int]) -> Iterator[tuple[list[int], int]]:
    """Each numbered cell's white neighbours (their variables) and its number."""
    for r, row in enumerate(a.rows):
        for c, ch in enumerate(row):
            if ch in "01234":
                yield [var[x] for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if x in var], int(ch)


def white_cells(a: Akari) -> dict[tuple[int, int], int]:
    """A variable for each white cell, from 1 in reading order."""
    return {(r, c): k + 1 for k, (r, c) in enumerate((r, c) for r, row in enumerate(a.rows)
                                                     for c, ch in enumerate(row) if ch == ".")}


def segments(a: Akari, var: dict[tuple[int, int], int]) -> Iterator[tuple[bool, list[int]]]:
    """Each row's runs of white cells, then each column's: (horizontal, their
    variables)."""
    for horizontal in (True, False):
        outer, inner = (a.height, a.width) if horizontal else (a.width, a.height)
        for i in range(outer):
            run: list[int] = []
            for j in range(inner + 1):
                v = var.get((i, j) if horizontal else (j, i)) if j < inner else None
                if v is not None:
                    run.append(v)
                elif run:
                    yield horizontal, run
                    run = []


def sat_clauses(a: Akari) -> tuple[list[list[int]], dict[tuple[int, int], int]]:
    """Variables: a light on each white cell. Every white cell sees a light;
    at most one light per segment; each number exactly k lights around."""
    from pysat.card import CardEnc, EncType

    var = white_cells(a)
    top = len(var)
    clauses: list[list[int]] = []
    segs = [run for _, run in segments(a, var)]
    seen: dict[int, list[int]] = {v: [] for v in var.values()}
    for seg in segs:
        for v in seg:
            seen[v].extend(seg)
        if len(seg) > 1:
            enc = CardEnc.atmost(seg, 1, top_id=top, encoding=EncType.seqcounter if len(seg) > 6 else EncType.pairwise)
            top = max(top, enc.nv)
            clauses += enc.clauses
    for v, sees in seen.items():
        clauses.append(sorted(set(sees)))
    for around, k in numbers(a, var):
        if k > len(around):
            clauses.append([])
        elif around:
            enc = CardEnc.equals(around, k, top_id=top, encoding=EncType.totalizer)
            top = max(top, enc.nv)
            clauses += enc.clauses
    return clauses, var


def tight_clauses(a: Akari) -> tuple[list[list[int]], dict[tuple[int, int], int]]:
    """A tight encoding: a variable a white cell (a light there), and one a
    segment (some light in it; a segment is a row's or a column's run of
    white cells). Every white cell sees a light: its row segment's or its
    column segment's variable (a clause of two), each segment's variable
    implying a light in it (one clause a segment, not one a cell); at most
    one light a
    segment (pairs, or Sinz's sequential counter past six cells, written
    here); a number k with n white neighbours: no k + 1 of them lit and no
    n - k + 1 of them dark (a clause for each subset: at most six of four
    cells), no totalizer."""
    from itertools import combinations

    var = white_cells(a)
    top = len(var)
    clauses: list[list[int]] = []
    row_of: dict[int, int] = {}
    col_of: dict[int, int] = {}
    for horizontal, run in segments(a, var):
        top += 1
        clauses.append([-top, *run])
        home = row_of if horizontal else col_of
        for x in run:
            home[x] = top
        if len(run) <= 6:
            clauses += [[-x, -y] for x, y in combinations(run, 2)]
        else:
            # s_j: one of the first j + 1 cells is lit.
            s = list(range(top + 1, top + len(run)))
            top += len(run) - 1
            clauses.append([-run[0], s[0]])
            for j in range(1, len(run) - 1):
                clauses += [[-run[j], s[j]], [-s[j - 1], s[j]], [-run[j], -s[j - 1]]]
            clauses.append([-run[-1], -s[-1]])
    clauses += [[row_of[v], col_of[v]] for v in var.values()]
    for around, k in numbers(a, var):
        if k > len(around):
            clauses.append([])
            continue
        clauses += [[-x for x in sub] for sub in combinations(around, k + 1)]
        clauses += [list(sub) for sub in combinations(around, len(around) - k + 1)]
    return clauses, var


def solve_twice(clauses: list[list[int]], var: dict[tuple[int, int], int]) -> tuple[int, Any]:
    """CaDiCaL on `clauses`: solve, block the solution (the clause of the
    cells' other values), solve again: 0 none, 1 unique, 2 several, and
    the lights of the first."""
    from pysat.solvers import Solver

    if any(not c for c in clauses):
        return 0, None
    with Solver(name="cadical153", bootstrap_with=clauses) as s:
        if not s.solve():
            return 0, None
        model = s.get_model()
        lights = frozenset(cell for cell, v in var.items() if model[v - 1] > 0)
        s.add_clause([-v if model[v - 1] > 0 else v for v in var.values()])
        return (2 if s.solve() else 1), lights


def run_sat_tight(a: Akari) -> tuple[int, Any]:
    return solve_twice(*tight_clauses(a))


def run_sat(a: Akari) -> tuple[int, Any]:
    return solve_twice(*sat_clauses(a))


def run_puzzlekit(a: Akari) -> tuple[int, Any]:
    import puzzlekit

    text = f"{a.height} {a.width}\n" + "\n".join(
        " ".join("-" if ch == "." else "x" if ch == "#" else ch for ch in row) for row in a.rows
    )
    res = puzzlekit.solve(text, "akari")
    if res.solution_data.get("status") not in ("Optimal", "Feasible"):
        return 0, None
    grid = res.solution_data["solution_grid"].matrix
    return -1, frozenset((r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x == "o")


def run_akari_sat(a: Akari) -> tuple[int, Any]:
    from akari_sat import solve_akari  # type: ignore[import-not-found]

    sol = solve_akari(a.height, a.width, list(a.rows))
    if sol is None:
        return 0, None
    return -1, frozenset((r, c) for r, row in enumerate(sol) for c, x in enumerate(row) if x)


PROGRAMS: dict[str, Callable[[Akari], tuple[int, Any]]] = {
    "covering": run_covering,
    "covering, dancing links only": run_covering_links,
    "SAT (python-sat, CaDiCaL)": run_sat,
    "SAT, tight encoding": run_sat_tight,
    "puzzlekit (solve only)": run_puzzlekit,
    "akari-sat (solve only)": run_akari_sat,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each puzzle (median kept)")
    args = parser.parse_args()
    classes = puzzles()
    table: dict[str, dict[str, Any]] = {}
    for name, group in classes.items():
        table[name] = {"n": len(group)}
        answers: dict[str, list[int]] = {}
        for program, run in PROGRAMS.items():
            times = []
            try:
                for a in group:
                    per = []
                    for _ in range(args.repeat):
                        start = time.process_time()
                        n, lights = run(a)
                        per.append(time.process_time() - start)
                    if lights is not None and check(a, lights):
                        raise SystemExit(f"{program} gave a wrong solution on {a.url()}")
                    answers.setdefault(program, []).append(n)
                    times.append(statistics.median(per))
            except ImportError as e:
                table[name][program] = f"not installed ({e.name})"
                continue
            table[name][program] = statistics.median(times)
            table[name][program + " worst"] = max(times)
            print(name, program, f"{1000 * table[name][program]:.2f} ms, worst {1000 * max(times):.2f} ms",
                  file=sys.stderr, flush=True)
        if "SAT (python-sat, CaDiCaL)" in answers and answers["covering"] != answers["SAT (python-sat, CaDiCaL)"]:
            raise SystemExit(f"covering and SAT disagree on {name}: {answers}")
        table[name]["answers"] = answers["covering"]
    write(table, generator_table(args.repeat))


def write(table: dict[str, dict[str, Any]], generator: str) -> None:
    programs = list(PROGRAMS)
    lines = [
        "<!-- akari:begin -->",
        "## Akari: solve and prove unique",
        "",
        "`python benchmarks/akari.py` (one run on this kind of machine,",
        f"{time.strftime('%Y-%m-%d')}): CPU milliseconds per puzzle from the grid text to the answer, median over",
        "the class (each puzzle the median of 3 runs), then the worst puzzle of the class; in brackets the",
        "median over covering's (higher: covering faster). covering and the SAT encoding find a solution and",
        "prove it unique (or find a second); puzzlekit and akari-sat only solve. `covering` is the default,",
        "`Akari.solve_unique`: dancing links (restarted in another random order with twice the node budget",
        "when a run loses itself, `python/covering/restart.py`) for 200,000 nodes, then the CDCL solver",
        "(CaDiCaL in the engine, `covering.sat`); \"dancing links only\" is the search alone, as before.",
        "The generated classes come from `akari.generate` (exactly one solution each).",
        "",
        "| class (puzzles; solutions) | " + " | ".join(programs) + " |",
        "|---|" + "---|" * len(programs),
    ]
    for name, row in table.items():
        base = row["covering"]
        cells = []
        for program in programs:
            v = row.get(program, "not run")
            if isinstance(v, str):
                cells.append(v)
                continue
            worst = f"{fmt(1000 * row[program + ' worst'])} ms"
            if program == "covering":
                cells.append(f"{fmt(1000 * v)} ms; worst {worst}")
            else:
                cells.append(f"{fmt(1000 * v)} ms ({v / base:.1f}x); worst {worst}")
        kinds = sorted(set(row["answers"]))
        lines.append(f"| {name} ({row['n']}; {'/'.join(map(str, kinds))}) | " + " | ".join(cells) + " |")
    lines += ["", "Solutions column: 1 = unique, 2 = several (the search stops at the second).", "",
              "### The generator", "",
              "CPU seconds of `akari.generate(size, size, seed=k, difficulty=...)` per puzzle (one core; the",
              "default black share 0.2), the mean black share and number of numbers kept, and the",
              "difficulty the grader gives the result (the easiest level whose deductions solve it).", "",
              generator, "<!-- akari:end -->"]
    replace_section(RESULTS, "akari", "\n".join(lines))


if __name__ == "__main__":
    main()
