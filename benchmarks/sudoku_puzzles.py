"""Sudoku: puzzles per second, covering against the Python solvers one would pick instead.

    python benchmarks/sudoku_puzzles.py [--data DIR] [--timeout SECONDS]

(Not named sudoku.py: that would hide the PyPI package `sudoku` of py-sudoku.)

* covering: the whole file through the command line (`covering sudoku solve
  --unique`, one thread, then two), wall time of the whole process (start-up,
  reading and writing included), median of 3 runs;
* the peers, each in a fresh process on the 1,000-puzzle samples of the same
  sets (see ../shared/data/sudoku/README.md): a Norvig-style solver
  (constraint propagation and search, written here after Norvig's essay),
  `py-sudoku`, `exact-cover`, `xcover`, OR-Tools CP-SAT. Each solves every
  puzzle and proves the solution unique where the package allows it (the
  table says which), and every answer is checked against the rules.

Writes benchmarks/RESULTS.md (between the ``sudoku`` markers).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from results import RESULTS, replace_section

HERE = Path(__file__).resolve().parent
SETS = {
    "17-clue": ("puzzles2_17_clue.txt", "sample1000_17_clue.txt"),
    "forum-hardest-11+": ("puzzles5_forum_hardest_1905_11plus.txt", "sample1000_forum_hardest_1905_11plus.txt"),
}
PEERS = ["norvig", "py-sudoku", "exact-cover", "xcover", "ortools"]
UNIQUE = {"norvig": True, "py-sudoku": False, "exact-cover": True, "xcover": True, "ortools": True}


def valid(puzzle: str, solution: str) -> bool:
    if len(solution) != 81 or any(p not in ".0" and p != s for p, s in zip(puzzle, solution)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
    return all(sorted(solution[k] for k in u) == list("123456789") for u in units)


# ---------------------------------------------------------------- the peers


def norvig(puzzle: str) -> tuple[str, int]:
    """Norvig-style: candidates per cell, elimination, single places, and
    search on the cell with fewest candidates; counts up to 2 solutions."""
    digits = "123456789"
    cells = range(81)
    units = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
    unitlist = [[u for u in units if k in u] for k in cells]
    peers = [set(sum(unitlist[k], [])) - {k} for k in cells]

    def assign(values: list[str], k: int, d: str) -> list[str] | None:
        for other in values[k].replace(d, ""):
            if eliminate(values, k, other) is None:
                return None
        return values

    def eliminate(values: list[str], k: int, d: str) -> list[str] | None:
        if d not in values[k]:
            return values
        values[k] = values[k].replace(d, "")
        if not values[k]:
            return None
        if len(values[k]) == 1:
            d2 = values[k]
            if not all(eliminate(values, p, d2) is not None for p in peers[k]):
                return None
        for u in unitlist[k]:
            places = [j for j in u if d in values[j]]
            if not places:
                return None
            if len(places) == 1 and assign(values, places[0], d) is None:
                return None
        return values

    found: list[str] = []

    def search(values: list[str] | None) -> None:
        if values is None or len(found) >= 2:
            return
        if all(len(v) == 1 for v in values):
            found.append("".join(values))
            return
        k = min((len(values[j]), j) for j in cells if len(values[j]) > 1)[1]
        for d in values[k]:
            search(assign(values.copy(), k, d))

    values: list[str] | None = [digits] * 81
    for k, ch in enumerate(puzzle):
        if ch in digits and values is not None:
            values = assign(values, k, ch)
    search(values)
    return (found[0] if found else ""), len(found)


def py_sudoku(puzzle: str) -> tuple[str, int]:
    from sudoku import Sudoku

    board = [[int(puzzle[r * 9 + c]) if puzzle[r * 9 + c] in "123456789" else 0 for c in range(9)] for r in range(9)]
    s = Sudoku(3, 3, board=board).solve()
    return "".join(str(v) for row in s.board for v in row), 1


def _exact_cover_rows(puzzle: str) -> list[tuple[int, int, int]]:
    rows = []
    for r in range(9):
        for c in range(9):
            ch = puzzle[r * 9 + c]
            ds = [int(ch)] if ch in "123456789" else range(1, 10)
            rows += [(r, c, d) for d in ds]
    return rows


def _items(r: int, c: int, d: int) -> list[int]:
    return [r * 9 + c, 81 + r * 9 + d - 1, 162 + c * 9 + d - 1, 243 + (r // 3 * 3 + c // 3) * 9 + d - 1]


def exact_cover_pkg(puzzle: str) -> tuple[str, int]:
    import numpy as np
    from exact_cover import get_all_solutions

    rows = _exact_cover_rows(puzzle)
    m = np.zeros((len(rows), 324), dtype=bool)
    for k, rcd in enumerate(rows):
        m[k, _items(*rcd)] = True
    sols = get_all_solutions(m, max_count=2)
    out = ["0"] * 81
    for k in next(iter(sols)):
        r, c, d = rows[k]
        out[r * 9 + c] = str(d)
    return "".join(out), len(sols)


def xcover_pkg(puzzle: str) -> tuple[str, int]:
    from xcover import covers

    rows = _exact_cover_rows(puzzle)
    found = []
    for sol in covers([_items(*rcd) for rcd in rows], primary=list(range(324)), secondary=[]):
        found.append(sol)
        if len(found) == 2:
            break
    out = ["0"] * 81
    for k in found[0]:
        r, c, d = rows[k]
        out[r * 9 + c] = str(d)
    return "".join(out), len(found)


def ortools_pkg(puzzle: str) -> tuple[str, int]:
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = [[m.new_int_var(1, 9, f"x{r}{c}") for c in range(9)] for r in range(9)]
    for r in range(9):
        m.add_all_different(x[r])
    for c in range(9):
        m.add_all_different([x[r][c] for r in range(9)])
    for br in (0, 3, 6):
        for bc in (0, 3, 6):
            m.add_all_different([x[br + r][bc + c] for r in range(3) for c in range(3)])
    for k, ch in enumerate(puzzle):
        if ch in "123456789":
            m.add(x[k // 9][k % 9] == int(ch))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "", 0
    first = "".join(str(solver.value(x[r][c])) for r in range(9) for c in range(9))
    # Uniqueness: forbid this solution and solve again.
    diff = [m.new_bool_var("") for _ in range(81)]
    for k in range(81):
        m.add(x[k // 9][k % 9] != int(first[k])).only_enforce_if(diff[k])
    m.add_bool_or(diff)
    again = solver.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return first, 2 if again else 1


RUNNERS: dict[str, Callable[[str], tuple[str, int]]] = {
    "norvig": norvig,
    "py-sudoku": py_sudoku,
    "exact-cover": exact_cover_pkg,
    "xcover": xcover_pkg,
    "ortools": ortools_pkg,
}


def child(peer: str, path: str) -> dict[str, object]:
    puzzles = Path(path).read_text().split()
    f = RUNNERS[peer]
    try:
        f(puzzles[0])  # imports and compilation outside the timing
    except ImportError as e:
        return {"error": f"not installed ({e.name})"}
    start = time.perf_counter()
    answers = [f(p) for p in puzzles]
    seconds = time.perf_counter() - start
    bad = sum(1 for p, (s, n) in zip(puzzles, answers) if not valid(p, s) or (UNIQUE[peer] and n != 1))
    return {"seconds": seconds, "puzzles": len(puzzles), "bad": bad}


def measure_peer(peer: str, path: Path, timeout: float) -> dict[str, object]:
    try:
        run = subprocess.run([sys.executable, __file__, "--child", peer, str(path)], capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s for 1,000"}
    if run.returncode:
        return {"error": "failed: " + (run.stderr.strip().splitlines() or ["?"])[-1][:80]}
    result: dict[str, object] = json.loads(run.stdout.splitlines()[-1])
    return result


def measure_cli(path: Path, threads: int, runs: int = 3) -> tuple[float, int]:
    """Median wall seconds of the whole `covering sudoku unique` process, and its bad answers."""
    covering = Path(sys.executable).with_name("covering")
    times = []
    out = ""
    for _ in range(runs):
        start = time.perf_counter()
        run = subprocess.run([str(covering), "sudoku", "unique", "--threads", str(threads), str(path)],
                             capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        out = run.stdout
    puzzles = path.read_text().split()
    answers = out.splitlines()[::2]  # (each answer, then its word: unique, multiple or none)
    bad = sum(1 for p, s in zip(puzzles, answers) if not valid(p, s)) + abs(len(puzzles) - len(answers))
    return statistics.median(times), bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--data", default=str(HERE.parent.parent / "shared" / "data" / "sudoku"))
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    data = Path(args.data)
    lines = [
        "<!-- sudoku:begin -->",
        "## Sudoku",
        "",
        f"`python benchmarks/sudoku_puzzles.py` ({time.strftime('%Y-%m-%d')}): puzzles per second, every answer checked.",
        "covering: the whole file through `covering sudoku unique` (solve and prove unique), the",
        "whole process timed (start-up, reading, writing), median of 3. The peers: the 1,000-puzzle samples,",
        "each in a fresh process, timing the solving loop only.",
        "",
        "Targets (engine issue), one thread with `--unique`: 45,000/s on 17-clue, 2,500/s on",
        "forum-hardest-11+ (kudoku, fast_solv_9r2: about 41,000/s and 2,300/s; tdoku: 280,000/s and 18,000/s).",
        "",
        "| set | covering, 1 thread | covering, 2 threads | " + " | ".join(PEERS) + " |",
        "|---|---|---|" + "---|" * len(PEERS),
    ]
    notes = ", ".join(f"{p}: {'solve + uniqueness' if UNIQUE[p] else 'solve only'}" for p in PEERS)
    for name, (full, sample) in SETS.items():
        n = len((data / full).read_text().split())
        t1, bad1 = measure_cli(data / full, 1)
        t2, bad2 = measure_cli(data / full, 2)
        assert bad1 == bad2 == 0, (bad1, bad2)
        base = n / t1
        cells = [f"{base:,.0f}/s ({n:,} in {t1:.2f} s)", f"{n / t2:,.0f}/s"]
        for peer in PEERS:
            r = measure_peer(peer, data / sample, args.timeout)
            print(name, peer, r, file=sys.stderr, flush=True)
            if "error" in r:
                cells.append(str(r["error"]))
            else:
                rate = float(r["puzzles"]) / float(r["seconds"])  # type: ignore[arg-type]
                flag = "" if r["bad"] == 0 else f", {r['bad']} wrong"
                cells.append(f"{rate:,.0f}/s ({base / rate:,.0f}x slower{flag})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    lines += ["", f"What the peers do: {notes}.", "<!-- sudoku:end -->"]
    replace_section(RESULTS, "sudoku", "\n".join(lines))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
