"""The engines against Knuth's own programs, counting all solutions, in one run.

    python benchmarks/knuth.py --knuth DIR [--repeat N] [--only PROBLEM ...]

DIR holds Knuth's programs built from his CWEB sources (``ssxcc``, ``dlx3``,
``ssmcc``; any build of them with ``-O3`` will do). Each problem is written
once as a ``.dlx`` file by covering's own writer, and every program reads that
same file; the runs alternate (Knuth, covering, Knuth, ...) so that both see
the same machine. Times are CPU seconds of the search alone: for Knuth's
programs, the CPU of the whole run less that of a run that stops before the
first node (his ``T0`` option: read the input, then time out); for covering,
``time.process_time()`` around ``Solver(p, engine=...).count()`` in a fresh
process (one search, one thread, the problem already read). The best of
``--repeat`` runs; the counts must agree with each other and with the
literature. The table goes to ``benchmarks/RESULTS.md`` (``knuth`` markers).

The XC and XCC problems are measured against SSXCC, the MCC ones against the
better of DLX3 and SSMCC: the yardsticks of the engine issue, which asks the
dancing-cells engine (``engine="cells"``) to be at or under them, and the
default engine (``engine="auto"``) never above them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from engine import RESULTS, replace_section

# name -> (expected count, kind, Knuth's programs to measure)
PROBLEMS: dict[str, tuple[int, str, tuple[str, ...]]] = {
    "tromino 9x9": (1193600, "XC", ("ssxcc",)),
    "pentominoes 6x10": (9356, "XC", ("ssxcc",)),
    "pentominoes 8x8 minus centre": (520, "XC", ("ssxcc",)),
    "queens 14": (365596, "XC with secondary items", ("ssxcc",)),
    "dominoes 7x8, every cell twice": (13049563, "MCC", ("dlx3", "ssmcc")),
    "pentominoes 0-2 times each, 5x8": (695086, "MCC", ("dlx3", "ssmcc")),
}


def build(name: str) -> str:
    """The problem, in Knuth's ``.dlx`` format."""
    from covering import Problem
    from covering.puzzles.polyomino import PENTOMINOES, Board, l_tromino, tiling
    from covering.puzzles.queens import queens_problem

    if name == "tromino 9x9":
        return l_tromino(9).to_dlx()
    if name == "pentominoes 6x10":
        return tiling(PENTOMINOES, Board.rectangle(6, 10)).to_dlx()
    if name == "pentominoes 8x8 minus centre":
        return tiling(PENTOMINOES, Board.rectangle(8, 8, holes=[(3, 3), (3, 4), (4, 3), (4, 4)])).to_dlx()
    if name == "queens 14":
        return queens_problem(14).to_dlx()
    if name == "dominoes 7x8, every cell twice":
        # Every cell is covered exactly twice, each placement used at most once.
        p = Problem()
        rows, cols = 7, 8
        p.add_primary([f"{r}_{c}" for r in range(rows) for c in range(cols)], bounds=(2, 2))
        for r in range(rows):
            for c in range(cols):
                if c + 1 < cols:
                    p.add_option([f"{r}_{c}", f"{r}_{c + 1}"])
                if r + 1 < rows:
                    p.add_option([f"{r}_{c}", f"{r + 1}_{c}"])
        return p.to_dlx()
    if name == "pentominoes 0-2 times each, 5x8":
        # The twelve shapes' items get multiplicity 0:2; the cells stay exactly once.
        p = tiling(PENTOMINOES, Board.rectangle(5, 8))
        head, rest = p.to_dlx().split("\n", 1)
        shapes = {str(name) for name in PENTOMINOES}
        items = [f"0:2|{x}" if x in shapes else x for x in head.split()]
        return " ".join(items) + "\n" + rest
    raise SystemExit(f"unknown problem {name!r}")


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_knuth(program: Path, path: Path, extra: list[str]) -> tuple[int | None, float, dict[str, int]]:
    """(count, CPU seconds, its nodes and mems of the search) of one run of a
    Knuth program on `path`."""
    before = child_cpu()
    with path.open("rb") as f:
        r = subprocess.run([str(program), *extra], stdin=f, capture_output=True, text=True)
    cpu = child_cpu() - before
    count = None
    work = {}
    for line in r.stderr.splitlines():
        if line.startswith("Altogether "):
            count = int(line.split()[1])
            # "Altogether N solutions, A+B mems, U updates, ..., M nodes, ...": B are the search's mems.
            found = re.search(r"\d+\+(\d+) mems.* (\d+) nodes", line)
            if found:
                work = {"mems": int(found.group(1)), "nodes": int(found.group(2))}
    return count, cpu, work


def run_covering(path: Path, engine: str) -> tuple[int, float, str, dict[str, int]]:
    """(count, CPU seconds of the count, engine used, nodes and mems), in a
    fresh process."""
    code = (
        "import json, sys, time\n"
        "from covering import Problem\n"
        "from covering.solver import Solver\n"
        "p = Problem.from_dlx(open(sys.argv[1]).read())\n"
        "s = Solver(p, engine=sys.argv[2])\n"
        "t = time.process_time(); n = s.count(); t = time.process_time() - t\n"
        "print(json.dumps([n, t, s.engine, {'mems': s.stats.mems, 'nodes': s.stats.nodes}]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path), engine], capture_output=True, text=True, check=True)
    n, t, used, work = json.loads(out.stdout)
    return n, t, used, work


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--knuth", type=Path, required=True, help="folder of Knuth's programs")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--no-write", action="store_true", help="print the table only")
    args = ap.parse_args()
    names = args.only or list(PROBLEMS)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            expected, kind, programs = PROBLEMS[name]
            path = Path(tmp) / "problem.dlx"
            path.write_text(build(name))
            knuth: dict[str, list[float]] = {prog: [] for prog in programs}
            ours: dict[str, list[float]] = {"cells": [], "auto": []}
            auto_engine = ""
            work: dict[str, dict[str, int]] = {}
            for _ in range(args.repeat):
                for prog in programs:
                    exe = args.knuth / prog
                    n, total, work[prog] = run_knuth(exe, path, [])
                    _, reading, _ = run_knuth(exe, path, ["T0"])
                    if n != expected:
                        raise SystemExit(f"{prog} counted {n} on {name}, not {expected}")
                    knuth[prog].append(max(0.0, total - reading))
                for engine in ours:
                    n, t, used, work[engine] = run_covering(path, engine)
                    if n != expected:
                        raise SystemExit(f"covering ({engine}) counted {n} on {name}, not {expected}")
                    ours[engine].append(t)
                    if engine == "auto":
                        auto_engine = used
            # The best of the runs: what a program takes when the machine leaves it alone (this one's
            # speed drifts by a third from minute to minute; the issues' checks take the best of 3).
            med = {k: min(v) for k, v in {**knuth, **ours}.items()}
            target = min(med[p] for p in programs)
            rows.append((name, expected, kind, programs, med, target, auto_engine, work))
            print(name, {k: round(v, 3) for k, v in med.items()}, "auto:", auto_engine, work, flush=True)
    lines = [
        "<!-- knuth:begin -->",
        "## The engines against Knuth's programs",
        "",
        f"`python benchmarks/knuth.py --knuth DIR --repeat {args.repeat}` (Knuth's SSXCC, DLX3 and SSMCC built with",
        "`gcc -O3 -march=native` from his CWEB sources; one run, the programs alternating; CPU seconds of the",
        "search alone, the best of the runs; the yardstick is SSXCC for XC and XCC, the better of DLX3 and SSMCC for MCC;",
        "a ratio below 1 means covering took less CPU).",
        "",
        "| problem (solutions) | kind | Knuth | cells (`engine=\"cells\"`) | cells / Knuth | default (engine chosen) | default / Knuth |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, expected, kind, programs, med, target, auto_engine, _ in rows:
        knuth_text = ", ".join(f"{p.upper()} {med[p]:.3f} s" for p in programs)
        lines.append(
            f"| {name} ({expected:,}) | {kind} | {knuth_text} | {med['cells']:.3f} s | {med['cells'] / target:.2f} "
            f"| {med['auto']:.3f} s ({auto_engine}) | {med['auto'] / target:.2f} |"
        )
    lines += [
        "",
        "The work beside the time, the same runs: nodes of the search tree and mems (memory accesses of the",
        "search alone). covering counts its mems by rules of its own (per node and per update, fewer places than",
        "Knuth counts): compare mems within a program, from one change to the next, not across programs.",
        "",
        "| problem | program | nodes | mems | mems per node |",
        "|---|---|---|---|---|",
    ]
    for name, _, _, programs, _, _, _, work in rows:
        for prog in [*programs, "cells"]:
            w = work.get(prog, {})
            if w:
                label = prog.upper() if prog in programs else "covering cells"
                lines.append(f"| {name} | {label} | {w['nodes']:,} | {w['mems']:,} | {w['mems'] / max(1, w['nodes']):.0f} |")
    lines.append("<!-- knuth:end -->")
    table = "\n".join(lines)
    print(table)
    if not args.no_write:
        replace_section(RESULTS, "knuth", table)


if __name__ == "__main__":
    os.environ.setdefault("COVERING_THREADS", "1")
    main()
