"""Set partitioning in OR-Library's format: covering against HiGHS and CP-SAT.

    python benchmarks/setpartition.py [--seconds 60] [--seed 1] [--only NAME] [--no-write]

Instances written here in OR-Library's set partitioning layout (`rows
columns`, then each column's `cost k rows`), of two kinds:

* crew-like (after Hoffman and Padberg's airline instances): rows are
  flights in time order, each column a duty of 5-12 flights of a stretch
  of the timeline, costing 100 a flight plus up to 60: rounds of duties,
  each a partition of the timeline cut at other places, so that covers mix
  the duties of many rounds;
* pairings (after the nw instances: tens of rows, tens of thousands of
  columns): each column 2-7 flights drawn from a window of the timeline,
  costing 50-150 a flight plus up to 400, and a dear one-flight column per
  row so that a cover exists; their linear relaxation is far from integral;
* puzzles in disguise: a tiling problem whose placements all cost the same
  (every cover costs as much: the proof of optimality is the whole search);
* with `--mps FILE ...`, real ones: set partitioning instances in MPS form
  (each row `E` with right-hand side 1, each column 0/1 with whole cost),
  such as the airline crew instances air03, air04, air05 and nw04 of
  MIPLIB 3 (COIN-OR's Data-miplib3 repository), read here into OR-Library's
  layout. They are not in this repository;
* with `--orlib FILE ...`, real ones in OR-Library's own layout (its
  `sppnw*`, `sppaa*`, `sppkl*`, `sppus*` files, and the tilings `delta`,
  `heart` and `meteor` that circulate with them). Not in this repository
  either.

covering: `covering dlx best FILE --format orlib --json --seconds S`, whole
process CPU (user + system), its cost and whether it proved it optimal; the
time to a first cover within 1% of the optimum is the least budget of 0.1,
0.2, 0.5, 1, 2, 5, 10, 20, 50 s whose best is within it. HiGHS and CP-SAT:
the same model (a binary per column, each row once), one thread, CPU of the
solve alone, with the same time limit (`benchmarks/mincost.py`'s script).
The costs of every method that proves an optimum must agree. Writes the
table between the `setpartition` markers of RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from big import child
from engine import RESULTS, replace_section
from mincost import MIP

BUDGETS = (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50)


def crew(rows: int, columns: int, rng: random.Random) -> list[tuple[int, list[int]]]:
    """A crew-like instance: (cost, rows from 1) of each column, shuffled.
    Each round cuts the timeline at random places into segments of 10-24
    flights and splits each segment into two interleaved duties: a round
    is a partition, and rounds cut at other places overlap, so that covers
    mix duties of many rounds, as crew schedules do."""
    seen: set[tuple[int, ...]] = set()
    cols: list[tuple[int, list[int]]] = []
    while len(cols) < columns:
        at = 1
        while at <= rows and len(cols) < columns:
            size = min(rng.randint(10, 24), rows - at + 1)
            segment = list(range(at, at + size))
            rng.shuffle(segment)
            half = size // 2 if size >= 10 else size
            for part in (segment[:half], segment[half:]):
                duty = tuple(sorted(part))
                if duty and duty not in seen:
                    seen.add(duty)
                    cols.append((100 * len(duty) + rng.randint(0, 60), list(duty)))
            at += size
    rng.shuffle(cols)
    return cols


def pairings(rows: int, columns: int, rng: random.Random) -> list[tuple[int, list[int]]]:
    """An nw-like instance: (cost, rows from 1) of each column, shuffled
    (see the module's documentation)."""
    seen: set[tuple[int, ...]] = set()
    cols: list[tuple[int, list[int]]] = []
    while len(cols) < columns:
        k, start = rng.randint(2, 7), rng.randint(1, rows)
        window = range(start, min(rows, start + rng.randint(k, 3 * k)) + 1)
        if len(window) < k:
            continue
        duty = tuple(sorted(rng.sample(window, k)))
        if duty not in seen:
            seen.add(duty)
            cols.append((rng.randint(50, 150) * k + rng.randint(0, 400), list(duty)))
    cols += [(2000 + rng.randint(0, 500), [r]) for r in range(1, rows + 1)]
    rng.shuffle(cols)
    return cols


def puzzle(export: list[str]) -> tuple[int, list[tuple[int, list[int]]]]:
    """A tiling problem (`covering ... export`) as set partitioning, every
    placement costing 1: rows its items, columns its placements."""
    text = subprocess.run([sys.executable, "-m", "covering", *export], check=True, capture_output=True,
                          text=True).stdout
    lines = [line for line in text.splitlines() if line.strip() and not line.strip().startswith("|")]
    names = {n: k + 1 for k, n in enumerate(lines[0].replace("|", " ").split())}
    return len(names), [(1, sorted(names[w] for w in line.split())) for line in lines[1:]]


def from_mps(path: Path) -> tuple[int, list[tuple[int, list[int]]]]:
    """A set partitioning instance in MPS form (names without spaces): rows
    from 1 and (cost, rows) of each column. Refused: a row that is not an
    equation or whose right-hand side is not 1, an entry other than 1, a
    cost that is not whole, a bound other than 0/1."""
    rows: dict[str, int] = {}
    objective = None
    cols: dict[str, tuple[int, list[int]]] = {}
    ones: set[str] = set()
    section = ""
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("*"):
            continue
        fields = line.split()
        if not line[0].isspace():
            section = fields[0]
            continue
        if section == "ROWS":
            kind, name = fields
            if kind == "N":
                objective = name
            elif kind == "E":
                rows[name] = len(rows) + 1
            else:
                raise ValueError(f"{path}: row {name} is not an equation")
        elif section == "COLUMNS" and "'MARKER'" not in fields:
            _, its = cols.setdefault(fields[0], (0, []))
            for row, value in zip(fields[1::2], fields[2::2]):
                if row == objective:
                    if float(value) != int(float(value)):
                        raise ValueError(f"{path}: column {fields[0]} has a cost that is not whole")
                    cols[fields[0]] = (int(float(value)), its)
                elif float(value) == 1:
                    its.append(rows[row])
                else:
                    raise ValueError(f"{path}: column {fields[0]} has {value} in row {row}")
        elif section == "RHS":
            for row, value in zip(fields[1::2], fields[2::2]):
                if float(value) != 1:
                    raise ValueError(f"{path}: row {row} has right-hand side {value}, not 1")
                ones.add(row)
        elif section == "BOUNDS":
            if not (fields[0] == "BV" or (fields[0] == "UP" and float(fields[-1]) == 1)):
                raise ValueError(f"{path}: column {fields[2]} has a bound other than 0/1")
    if missing := [r for r in rows if r not in ones]:
        raise ValueError(f"{path}: row {missing[0]} has right-hand side 0, not 1")
    return len(rows), list(cols.values())


def from_orlib(path: Path) -> tuple[int, list[tuple[int, list[int]]]]:
    """An instance in OR-Library's set partitioning layout (the numbers
    wrapped over lines as they come): rows and (cost, rows) of each column.
    The benchmark's own reading, for the MIP solvers' model; covering is
    given the file itself, as it comes (line ends, spacing)."""
    words = path.read_text().split()
    rows, n = int(words[0]), int(words[1])
    at, cols = 2, []
    for _ in range(n):
        cost, k = int(words[at]), int(words[at + 1])
        cols.append((cost, [int(w) for w in words[at + 2:at + 2 + k]]))
        at += 2 + k
    if at != len(words):
        raise ValueError(f"{path}: {len(words) - at} numbers past the last column")
    return rows, cols


def files(rows: int, cols: list[tuple[int, list[int]]], folder: Path, name: str) -> tuple[Path, Path]:
    """The instance written in OR-Library's layout, and as .dlx with DLX5's
    costs (for the MIP script)."""
    orlib = folder / f"{name}.txt"
    orlib.write_text(f"{rows} {len(cols)}\n" + "".join(f"{c} {len(r)} {' '.join(map(str, r))}\n" for c, r in cols))
    dlx = folder / f"{name}.dlx"
    dlx.write_text(" ".join(f"r{k}" for k in range(1, rows + 1)) + "\n"
                   + "".join(" ".join(f"r{k}" for k in r) + f" |{c}\n" for c, r in cols))
    return orlib, dlx


def ours(path: Path, seconds: float, python: str = sys.executable) -> tuple[int | None, bool, float]:
    """(cost, proved optimal, CPU s) of `covering dlx best` within `seconds`
    (run by `python`: this build's, or an older one's)."""
    r, cpu, _, _ = child([python, "-m", "covering", "dlx", "best", str(path), "--format", "orlib",
                          "--json", "--no-progress", "--seconds", str(seconds)], seconds * 2 + 30)
    if r is None:
        return None, False, cpu
    lines = [json.loads(x) for x in r[1].splitlines() if x.startswith("{")]
    costs = [x["cost"] for x in lines if "cost" in x]
    summary = lines[-1] if lines else {}
    return (min(costs) if costs else None), bool(summary.get("optimal")), cpu


def mip(kind: str, path: Path, seconds: float) -> tuple[int | None, bool, float]:
    r, cpu, _, _ = child([sys.executable, "-c", MIP, kind, str(path), str(seconds)], seconds * 2 + 60)
    if r is None or r[0] != 0:
        return None, False, cpu
    got = json.loads(r[1].strip().splitlines()[-1])
    return got["value"], got["optimal"], got["cpu"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--mps", nargs="*", default=[], type=Path,
                    help="set partitioning instances in MPS form, timed too")
    ap.add_argument("--orlib", nargs="*", default=[], type=Path,
                    help="set partitioning instances in OR-Library's layout, timed too")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    instances = [(f"crew {r} x {c}", r, crew(r, c, rng)) for r, c in ((200, 3000), (400, 6000), (646, 7292))]
    instances += [(f"pairings {r} x {c}", r, pairings(r, c, rng)) for r, c in ((40, 20000), (80, 30000))]
    for name, export in (("pentominoes 6x10, all covers alike", ["polyomino", "--pieces", "pentominoes",
                                                                 "--board", "6x10", "export"]),
                         ("pentominoes 5x12, all covers alike", ["polyomino", "--pieces", "pentominoes",
                                                                 "--board", "5x12", "export"])):
        rows, cols = puzzle(export)
        instances.append((name, rows, cols))
    for path in args.mps:
        rows, cols = from_mps(path)
        instances.append((path.name.split(".")[0], rows, cols))
    given = {}
    for path in args.orlib:
        rows, cols = from_orlib(path)
        instances.append((path.name.split(".")[0], rows, cols))
        given[instances[-1][0]] = path
    table = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, rows, cols in instances:
            if args.only and args.only not in name:
                continue
            orlib, dlx = files(rows, cols, Path(tmp), name.split(",")[0].replace(" ", "_"))
            orlib = given.get(name, orlib)
            got = {"covering": ours(orlib, args.seconds), "highs": mip("highs", dlx, args.seconds),
                   "cpsat": mip("cpsat", dlx, args.seconds)}
            proved = {v for v, opt, _ in got.values() if opt and v is not None}
            assert len(proved) <= 1, f"{name}: the optima disagree: {got}"
            optimum = next(iter(proved), None)
            first = "-"
            if optimum is not None:
                for b in BUDGETS:
                    if b > args.seconds:
                        break
                    v, _, _ = ours(orlib, b)
                    if v is not None and v <= 1.01 * optimum:
                        first = f"{b:g} s"
                        break

            def cell(kind: str) -> str:
                v, opt, cpu = got[kind]
                if v is None:
                    return f"> {args.seconds:g} s, none"
                return f"{cpu:.2f} s" if opt else f"> {args.seconds:g} s, {v} ({100 * (v / optimum - 1):+.2f}%)" \
                    if optimum else f"> {args.seconds:g} s, {v}"

            row = (f"| {name} | {rows} x {len(cols)} | {optimum if optimum is not None else '-'} | "
                   f"{cell('covering')} | {first} | {cell('highs')} | {cell('cpsat')} |")
            print(row, flush=True)
            table.append(row)
    if args.no_write or args.only:
        return
    body = "\n".join([
        "<!-- setpartition:begin -->",
        "## Set partitioning in OR-Library's format: covering against HiGHS and CP-SAT",
        "",
        f"`python benchmarks/setpartition.py --seconds {args.seconds:g} --seed {args.seed}` "
        f"({time.strftime('%Y-%m-%d')}): crew-like instances (duties of 5-12 flights of a stretch of the "
        "timeline, 100 a flight plus up to 60, in rounds that each partition the timeline cut at other places), "
        "pairings (2-7 flights of a window, 50-150 a flight plus up to 400, and a dear one-flight column a row) "
        "and tilings whose placements all cost 1, "
        + (f"and the set partitioning instances {', '.join(p.name.split('.')[0] for p in args.mps)} of "
           "MIPLIB 3 (airline crew scheduling; `--mps`), " if args.mps else "")
        + (f"the instances {', '.join(p.name.split('.')[0] for p in args.orlib)} as OR-Library gives them "
           "(`--orlib`), " if args.orlib else "")
        + "in OR-Library's layout. covering: `covering dlx best FILE --format orlib --json --seconds S`, whole "
        "process CPU to its proof of optimality, and the least budget whose best is within 1% of the "
        "optimum; HiGHS and CP-SAT: one thread, CPU of the solve. Past the limit: the best found and its "
        "gap to the optimum.",
        "",
        "| instance | rows x columns | optimum | covering, proved | covering, first within 1% | HiGHS | CP-SAT |",
        "|---|---|---:|---:|---:|---:|---:|",
        *table,
        "<!-- setpartition:end -->",
    ])
    replace_section(RESULTS, "setpartition", body)


if __name__ == "__main__":
    main()
