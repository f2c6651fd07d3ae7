"""Counting all solutions, in one run: covering, its references, and the PyPI peers.

    python benchmarks/engine.py [--timeout SECONDS] [--repeat N] [--only PROBLEM ...]

Each (program, problem) pair runs in a fresh process that builds the problem
in the program's own input form, then times only the count, in CPU seconds
(``time.process_time``). The table of medians, the ratios to covering, and the
target figures of the C programs named in the engine issue are written to
``benchmarks/RESULTS.md`` (between the ``engine`` markers).

Peers: ``miniexact`` (C, Knuth's Algorithms X/C/M), ``xcover`` (numba, dancing
cells), ``exact-cover`` (C, plain exact cover: secondary items become primary
ones with a one-item "slack" option each, which keeps the count), ``dlx``
(pure Python). A program that has not finished after ``--timeout`` seconds is
reported as such.
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
from typing import Any

HERE = Path(__file__).resolve().parent
from results import RESULTS, replace_section  # noqa: E402,F401  (the scripts import them from here)

# problem -> (expected count, fastest known program and its CPU seconds, Knuth's DLX1, seed's Python DLX)
TARGETS: dict[str, tuple[int, str, float, float | None, float | None]] = {
    "tromino 9x9": (1193600, "exactcover (C DLX)", 0.91, 1.19, 28.0),
    "pentominoes 6x10": (9356, "Knuth's SSXCC", 3.93, 6.30, 180.0),
    "pentominoes 8x8 minus centre": (520, "Knuth's SSXCC", 0.32, 0.50, None),
    "queens 14": (365596, "miniexact", 1.24, 1.38, None),
}

PROGRAMS = ["covering", "covering (cells)", "miniexact", "xcover", "exact-cover", "dlx (PyPI)",
            "reference dlx", "reference algorithm_x"]


def build(problem: str) -> tuple[list[str], list[str], list[list[str]]]:
    """(primary, secondary, options as item-name lists) of a benchmark problem."""
    from covering.puzzles.polyomino import PENTOMINOES, Board, l_tromino, tiling
    from covering.puzzles.queens import queens_problem

    if problem == "tromino 9x9":
        p = l_tromino(9)
    elif problem == "pentominoes 6x10":
        p = tiling(PENTOMINOES, Board.rectangle(6, 10))
    elif problem == "pentominoes 8x8 minus centre":
        p = tiling(PENTOMINOES, Board.rectangle(8, 8, holes=[(3, 3), (3, 4), (4, 3), (4, 4)]))
    elif problem == "queens 14":
        p = queens_problem(14)
    else:
        raise SystemExit(f"unknown problem {problem!r}")
    options = [[str(item) for item, _ in p.option(i)] for i in range(p.n_options)]
    return [str(x) for x in p.primary], [str(x) for x in p.secondary], options


def timed(f: Callable[[], int]) -> tuple[int, float]:
    start = time.process_time()
    n = f()
    return n, time.process_time() - start


def run_covering(primary: list[str], secondary: list[str], options: list[list[str]], engine: str) -> tuple[int, float]:
    from covering import Problem

    p = Problem()
    p.add_primary(primary)
    p.add_secondary(secondary)
    for o in options:
        p.add_option(o)
    p.compile()
    return timed(lambda: p.count(engine=engine))


def run_reference(primary: list[str], secondary: list[str], options: list[list[str]], which: str) -> tuple[int, float]:
    from covering import Problem
    from covering.reference import algorithm_x, dlx

    p = Problem()
    p.add_primary(primary)
    p.add_secondary(secondary)
    for o in options:
        p.add_option(o)
    module = dlx if which == "dlx" else algorithm_x
    return timed(lambda: module.count(p))


def run_miniexact(primary: list[str], secondary: list[str], options: list[list[str]]) -> tuple[int, float]:
    import miniexact

    s = miniexact.miniexacts_x()
    ids = {name: s.primary(name) for name in primary}
    ids.update({name: s.secondary(name) for name in secondary})
    for o in options:
        s.add([ids[i] for i in o])

    def count() -> int:
        n = 0
        while s.solve() == 10:
            n += 1
        return n

    return timed(count)


def run_xcover(primary: list[str], secondary: list[str], options: list[list[str]]) -> tuple[int, float]:
    from xcover import covers

    # Compile the numba code on a tiny problem first, outside the timing.
    sum(1 for _ in covers([["a"], ["b"]], primary=["a", "b"], secondary=[]))
    return timed(lambda: sum(1 for _ in covers(options, primary=primary, secondary=secondary)))


def run_exact_cover(primary: list[str], secondary: list[str], options: list[list[str]]) -> tuple[int, float]:
    import numpy as np
    from exact_cover import get_solution_count

    columns = {name: k for k, name in enumerate(primary + secondary)}
    rows = options + [[s] for s in secondary]  # a slack row per secondary item
    m = np.zeros((len(rows), len(columns)), dtype=bool)
    for r, o in enumerate(rows):
        for i in o:
            m[r, columns[i]] = True
    return timed(lambda: int(get_solution_count(m)))


def run_dlx_pypi(primary: list[str], secondary: list[str], options: list[list[str]]) -> tuple[int, float]:
    from dlx import DLX

    columns = [(name, DLX.PRIMARY) for name in primary] + [(name, DLX.SECONDARY) for name in secondary]
    index = {name: k for k, (name, _) in enumerate(columns)}
    d = DLX(columns)
    d.appendRows([sorted(index[i] for i in o) for o in options])
    return timed(lambda: sum(1 for _ in d.solve()))


def one(program: str, problem: str) -> dict[str, Any]:
    """Runs one pair in this process (the child side)."""
    spec = build(problem)
    runners: dict[str, Callable[[], tuple[int, float]]] = {
        "covering": lambda: run_covering(*spec, engine="auto"),
        "covering (cells)": lambda: run_covering(*spec, engine="cells"),
        "miniexact": lambda: run_miniexact(*spec),
        "xcover": lambda: run_xcover(*spec),
        "exact-cover": lambda: run_exact_cover(*spec),
        "dlx (PyPI)": lambda: run_dlx_pypi(*spec),
        "reference dlx": lambda: run_reference(*spec, which="dlx"),
        "reference algorithm_x": lambda: run_reference(*spec, which="algorithm_x"),
    }
    try:
        count, seconds = runners[program]()
    except ImportError as e:
        return {"error": f"not installed ({e.name})"}
    return {"count": count, "seconds": seconds}


def measure(program: str, problem: str, timeout: float, script: str = __file__) -> dict[str, Any]:
    """Runs one pair in a child process (`script` with ``--child``), with a time limit."""
    cmd = [sys.executable, script, "--child", program, problem]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=dict(os.environ))
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}
    if run.returncode != 0:
        return {"error": "failed: " + (run.stderr.strip().splitlines() or ["?"])[-1]}
    result: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def parse_or_run_child(doc: str, one: Callable[[str, str], dict[str, Any]], what: str, timeout: float,
                       repeat: bool = True) -> argparse.Namespace | None:
    """The command line of a benchmark that runs each (what, problem) pair in
    a fresh process: in that child (``--child WHAT PROBLEM``) runs `one` and
    prints its result as JSON (then None); in the parent, the arguments."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=(what, "PROBLEM"), help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=timeout, help=f"seconds allowed per run (default {timeout:g})")
    if repeat:
        parser.add_argument("--repeat", type=int, default=3, help="runs of each pair taking under 10 s (median kept)")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(*args.child)))
        return None
    return args


def measure_repeated(program: str, problem: str, timeout: float, repeat: int, script: str) -> list[dict[str, Any]]:
    """Up to `repeat` runs of one pair, each in a fresh process; a run that
    fails or takes 10 s or more ends them (a long run is measured once)."""
    runs = []
    while True:
        r = measure(program, problem, timeout, script=script)
        runs.append(r)
        if "error" in r or r["seconds"] >= 10 or len(runs) >= repeat:
            return runs


def fmt(x: float) -> str:
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("PROGRAM", "PROBLEM"), help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds allowed per run (default 120)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each pair taking under 10 s (median kept)")
    parser.add_argument("--only", nargs="*", default=None, help="problems to run (default: all)")
    parser.add_argument("--programs", nargs="*", default=None, help="programs to run (default: all)")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(*args.child)))
        return
    problems = args.only or list(TARGETS)
    programs = args.programs or PROGRAMS
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for problem in problems:
        expected = TARGETS[problem][0]
        table[problem] = {}
        for program in programs:
            runs = []
            while True:
                r = measure(program, problem, args.timeout)
                runs.append(r)
                if "error" in r or r["seconds"] >= 10 or len(runs) >= args.repeat:
                    break
            if "error" in runs[-1]:
                table[problem][program] = runs[-1]
            else:
                counts = {r["count"] for r in runs}
                if counts != {expected}:
                    table[problem][program] = {"error": f"wrong count {sorted(counts)}"}
                else:
                    table[problem][program] = {"seconds": statistics.median(r["seconds"] for r in runs), "runs": len(runs)}
            print(problem, program, table[problem][program], file=sys.stderr, flush=True)
    write(table, programs)


def write(table: dict[str, dict[str, dict[str, Any]]], programs: list[str]) -> None:
    lines = [
        "<!-- engine:begin -->",
        "## The engine: counting all solutions",
        "",
        "`python benchmarks/engine.py` (the numbers below are from one run of it on this kind of",
        f"machine, {time.strftime('%Y-%m-%d')}): CPU seconds of the count alone, median of up to 3 runs, each",
        "in a fresh process; the ratio is the program's time over covering's (higher: covering faster).",
        "",
        "| problem (solutions) | " + " | ".join(programs) + " |",
        "|---|" + "---|" * len(programs),
    ]
    for problem, row in table.items():
        base = row.get("covering", {}).get("seconds")
        cells = []
        for program in programs:
            r = row.get(program, {"error": "not run"})
            if "error" in r:
                cells.append(r["error"])
            elif base and program != "covering":
                cells.append(f"{fmt(r['seconds'])} s ({r['seconds'] / base:.1f}x)")
            else:
                cells.append(f"{fmt(r['seconds'])} s")
        lines.append(f"| {problem} ({TARGETS[problem][0]:,}) | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Against the targets of the engine issue (figures measured there for C programs that are",
        "not on PyPI; a ratio below 1 means covering is faster than the target):",
        "",
        "| problem | fastest known | its time | covering | covering / target | Knuth's DLX1 | seed's Python DLX |",
        "|---|---|---|---|---|---|---|",
    ]
    for problem, row in table.items():
        _, who, t, dlx1, seed = TARGETS[problem]
        c = row.get("covering", {}).get("seconds")
        mine = f"{fmt(c)} s" if c else "-"
        ratio = f"{c / t:.2f}" if c else "-"
        lines.append(
            f"| {problem} | {who} | {t} s | {mine} | {ratio} | {dlx1} s | {'-' if seed is None else f'{seed} s'} |"
        )
    lines.append("<!-- engine:end -->")
    replace_section(RESULTS, "engine", "\n".join(lines))


if __name__ == "__main__":
    main()
