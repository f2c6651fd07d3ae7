"""Sudokus on regions against CaDiCaL on a direct encoding: batches of jigsaw, killer and overlapping-grid puzzles,
each solved and proved unique, whole processes.

    python benchmarks/regions.py [--per 40] [--seed 1] [--runs 3] [--keep DIR] [--write]

The puzzles are made here, by generators that do not share the library's
layouts (`make_batches`): jigsaws on random regions from 4 x 4 to 9 x 9
(regions grown by random swaps of neighbouring cells that keep every region
connected), killers from 4 x 4 to 9 x 9 on random cages of 1 to 5 cells and
no givens (random ones drawn until one has a single solution),
and the overlapping layouts (samurai and the others) from the library's
generator, stopped at a third of the cells given, as published ones are.
A fifth of each batch is given again with clues taken away (givens, or a
killer's cages) until it has several solutions. Every puzzle is written in the JSON form of the design
(its regions listed), one batch a file of JSON Lines.

covering: ``covering sudoku unique --puzzle BATCH.jsonl --json``, CPU (user
+ system) of the whole process, start-up included. The reference: one
Python process that reads the same file and, for each puzzle, writes a
direct encoding (a variable per cell and symbol: a cell holds one symbol, a
region each symbol once, a cage's symbols distinct and one of its fillings
chosen, a variable a filling) for python-sat's CaDiCaL 1.5.3, solves,
blocks the solution and solves again. The two alternate; the best of
``--runs`` is kept. Every answer (unique, multiple, none) and every unique
solution is compared. ``--write`` puts the table in benchmarks/RESULTS.md
(``regions`` markers).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from itertools import combinations
from pathlib import Path
from typing import Any

from big import child_cpu
from engine import RESULTS, replace_section

Cell = tuple[int, int]


# -- the puzzles ---------------------------------------------------------


def _connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def jigsaw_regions(n: int, rng: random.Random) -> list[list[Cell]]:
    """n connected regions of n cells on the n x n grid: the rows, mixed by
    random swaps of two neighbouring cells of different regions that keep
    both connected."""
    label = {(r, c): r for r in range(n) for c in range(n)}
    members = [{(r, c) for c in range(n)} for r in range(n)]
    cells = list(label)
    for _ in range(60 * n * n):
        a = rng.choice(cells)
        r, c = a
        b = rng.choice([(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)])
        if b not in label or label[a] == label[b]:
            continue
        ra, rb = label[a], label[b]  # (a swap keeps both regions' sizes)
        new_a, new_b = (members[ra] - {a}) | {b}, (members[rb] - {b}) | {a}
        if _connected(new_a) and _connected(new_b):
            members[ra], members[rb] = new_a, new_b
            label[a], label[b] = rb, ra
    return [sorted(m) for m in members]


def _grid(n: int, rng: random.Random, regions: list[list[Cell]]) -> dict[Cell, int] | None:
    """A random filling of the n x n grid whose rows, columns and `regions`
    each hold every symbol once (None if there is none), by the library."""
    from covering.puzzles.regions import RegionSudoku

    cells = [(r, c) for r in range(n) for c in range(n)]
    lines = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    empty = RegionSudoku.make(n, cells, lines + regions)
    found = next(empty.random(1, seed=rng.randrange(2**63), nodes=10**6), None)
    return None if found is None else dict(found.givens)


def _record(n: int, cells: list[Cell], regions: list[list[Cell]], givens: dict[Cell, int],
            cages: list[tuple[list[Cell], int]] = (), layout: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"symbols": n, "cells": [list(c) for c in cells],
                           "regions": [[list(c) for c in reg] for reg in regions],
                           "givens": [[r, c, v] for (r, c), v in sorted(givens.items())]}
    if cages:
        out["cages"] = [{"cells": [list(c) for c in cs], "sum": s} for cs, s in cages]
    if layout:
        out["layout"] = layout  # (a key the reader ignores: for the table)
    return out


def _boxes(n: int) -> list[list[Cell]]:
    h = max(d for d in range(1, int(n**0.5) + 1) if n % d == 0)
    w = n // h
    if h == 1:
        return []
    return [[(br * h + i // w, bc * w + i % w) for i in range(n)] for br in range(n // h) for bc in range(n // w)]


def make_jigsaw(n: int, rng: random.Random) -> dict[str, Any]:
    """A jigsaw of side n with one solution: random regions until some grid
    fits them, then the library's generator (givens taken away while the
    solution stays unique, down to a minimal puzzle)."""
    from covering.puzzles.regions import RegionSudoku
    from covering.puzzles.regions.generate import generate

    lines = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    while True:
        regions = jigsaw_regions(n, rng)
        if _grid(n, rng, regions) is not None:
            break
    puzzle = RegionSudoku.make(n, [(r, c) for r in range(n) for c in range(n)], lines + regions)
    made = generate(puzzle, seed=rng.randrange(2**63)).puzzle
    return _record(n, list(made.cells), lines + regions, dict(made.givens))


def random_cages(n: int, grid: dict[Cell, int], rng: random.Random) -> list[list[Cell]]:
    """A partition of the grid into connected cages of 1 to 5 cells (mostly
    2 to 4), each of distinct symbols of `grid`."""
    free = set(grid)
    cages = []
    while free:
        start = min(free) if rng.random() < 0.5 else rng.choice(sorted(free))
        size = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5))
        cage, used = [start], {grid[start]}
        free.discard(start)
        while len(cage) < size:
            nbs = [(r + dr, c + dc) for r, c in cage for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            nbs = [x for x in nbs if x in free and grid[x] not in used]
            if not nbs:
                break
            x = rng.choice(nbs)
            cage.append(x)
            used.add(grid[x])
            free.discard(x)
        cages.append(sorted(cage))
    return cages


def make_killer(n: int, rng: random.Random) -> dict[str, Any]:
    """A killer without givens, as published ones are: random grids and
    cages until one has a single solution (after 50 tries, givens are added
    where two solutions differ)."""
    from covering.puzzles.regions import RegionSudoku

    cells = [(r, c) for r in range(n) for c in range(n)]
    lines = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    regions = lines + _boxes(n)
    for _ in range(50):
        grid = _grid(n, rng, _boxes(n))
        assert grid is not None
        cages = [(cs, sum(grid[c] for c in cs)) for cs in random_cages(n, grid, rng)]
        two = list(RegionSudoku.make(n, cells, regions, {}, cages).solutions(2))
        if len(two) == 1:
            return _record(n, cells, regions, {}, cages)
    givens: dict[Cell, int] = {}
    while len(two) > 1:
        differ = [c for c in cells if two[0].givens[c] != two[1].givens[c]]
        cell = rng.choice(differ)
        givens[cell] = grid[cell]
        two = list(RegionSudoku.make(n, cells, regions, givens, cages).solutions(2))
    return _record(n, cells, regions, givens, cages)


def make_layout(name: str, rng: random.Random) -> dict[str, Any]:
    from covering.puzzles.regions import layouts
    from covering.puzzles.regions.generate import generate

    empty = layouts.layout(name)
    g = generate(empty, seed=rng.randrange(2**63), min_givens=len(empty.cells) // 3)
    return _record(9, list(empty.cells), [list(r) for r in empty.regions], dict(g.puzzle.givens), layout=name)


def several(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """`record` with clues taken away until it has several solutions:
    givens, or for a killer without givens, whole cages."""
    from covering.problem import Uniqueness
    from covering.puzzles.regions.reading import from_json

    out = dict(record)
    key = "givens" if record["givens"] or not record.get("cages") else "cages"
    clues = list(record[key])
    rng.shuffle(clues)
    while clues:
        clues.pop()
        out[key] = sorted(clues) if key == "givens" else list(clues)
        if from_json(out).uniqueness() is Uniqueness.MULTIPLE:
            return out
    return out


def make_batches(per: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    """The batches, by kind: `per` puzzles each (the overlapping layouts
    share theirs), a fifth of them again with several solutions."""
    rng = random.Random(seed)
    batches: dict[str, list[dict[str, Any]]] = {"jigsaw": [], "killer": [], "overlapping": []}
    for k in range(per):
        batches["jigsaw"].append(make_jigsaw((4, 5, 6, 7, 8, 9, 9, 9)[k % 8], rng))
        batches["killer"].append(make_killer((4, 6, 8, 9, 9, 9)[k % 6], rng))
    names = ("samurai", "samurai", "butterfly", "sohei", "windmill", "twodoku", "gattai-8", "samurai", "shogun",
             "samurai", "sumo")
    for k in range(max(1, per // 4)):
        batches["overlapping"].append(make_layout(names[k % len(names)], rng))
    for batch in batches.values():
        batch += [several(r, rng) for r in batch[: max(1, len(batch) // 5)]]
    return batches


# -- the reference ---------------------------------------------------------


def direct_clauses(p: dict[str, Any]) -> tuple[list[list[int]], dict[tuple[int, int, int], int]]:
    """The direct encoding of puzzle `p` (see the module)."""
    n = p["symbols"]
    cells = [tuple(c) for c in p["cells"]]
    var = {(r, c, v): 1 + i * n + v - 1 for i, (r, c) in enumerate(cells) for v in range(1, n + 1)}
    top = len(var)
    clauses: list[list[int]] = []

    def exactly_one(xs: list[int]) -> None:
        clauses.append(xs)
        clauses.extend([-a, -b] for a, b in combinations(xs, 2))

    for r, c in cells:
        exactly_one([var[r, c, v] for v in range(1, n + 1)])
    for region in p["regions"]:
        for v in range(1, n + 1):
            exactly_one([var[r, c, v] for r, c in region])
    for r, c, v in p["givens"]:
        clauses.append([var[r, c, v]])
    for cage in p.get("cages", ()):
        cs = [tuple(c) for c in cage["cells"]]
        for v in range(1, n + 1):
            clauses.extend([-var[a + (v,)], -var[b + (v,)]] for a, b in combinations(cs, 2))
        ways = [f for f in combinations(range(1, n + 1), len(cs)) if sum(f) == cage["sum"]]
        fv = list(range(top + 1, top + 1 + len(ways)))
        top += len(ways)
        exactly_one(fv)
        for f, x in zip(ways, fv):
            for v in f:
                clauses.append([-x] + [var[c + (v,)] for c in cs])
        for v in range(1, n + 1):
            holding = [x for f, x in zip(ways, fv) if v in f]
            for c in cs:
                clauses.append([-var[c + (v,)]] + holding)
    return clauses, var


def run_sat(p: dict[str, Any]) -> tuple[int, list[list[int]] | None]:
    """1 unique, 2 several, 0 none; and the first solution."""
    from pysat.solvers import Solver

    clauses, var = direct_clauses(p)
    with Solver(name="cadical153", bootstrap_with=clauses) as s:
        if not s.solve():
            return 0, None
        model = set(x for x in s.get_model() if x > 0)
        chosen = [k for k, x in var.items() if x in model]
        s.add_clause([-var[k] for k in chosen])
        return (2 if s.solve() else 1), sorted([list(k) for k in chosen])


REFERENCE = """
import json, sys
sys.path.insert(0, sys.argv[2])
from regions import run_sat
out = []
for line in open(sys.argv[1]):
    if line.strip():
        n, sol = run_sat(json.loads(line))
        out.append({"n": n, "solution": sol})
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per", type=int, default=40, help="puzzles of each kind (before the several-solution ones)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="write the batches to this folder too")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    here = str(Path(__file__).resolve().parent)
    batches = make_batches(args.per, args.seed)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, batch in batches.items():
            path = Path(args.keep or tmp) / f"{kind}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(json.dumps(r) + "\n" for r in batch))
            ours = theirs = float("inf")
            for _ in range(args.runs):
                done, cpu, _, _ = child_cpu([sys.executable, "-m", "covering", "sudoku", "unique", "--puzzle",
                                             str(path), "--json"])
                assert done.returncode == 0, done.stderr.decode()[-500:]
                ours = min(ours, cpu)
                ref, cpu, _, _ = child_cpu([sys.executable, "-c", REFERENCE, str(path), here])
                assert ref.returncode == 0, ref.stderr.decode()[-500:]
                theirs = min(theirs, cpu)
            answers = [a for a in map(json.loads, done.stdout.decode().splitlines()) if "puzzle" in a]
            reference = json.loads(ref.stdout.decode())
            words = {"unique": 1, "multiple": 2, "none": 0}
            for a, b in zip(answers, reference, strict=True):
                assert words[a["uniqueness"]] == b["n"], (a, b)
                if b["n"] == 1:
                    assert sorted(a["solution"]) == b["solution"], a["puzzle"]
            unique = sum(1 for b in reference if b["n"] == 1)
            rows.append((kind, len(batch), unique, ours, theirs))
            print(f"{kind}: {len(batch)} puzzles ({unique} unique), covering {ours:.2f} s "
                  f"({1000 * ours / len(batch):.1f} ms a puzzle), CaDiCaL {theirs:.2f} s, "
                  f"ratio {ours / theirs:.2f}", flush=True)
    if args.write:
        lines = ["## Sudoku on regions: batches against CaDiCaL on a direct encoding", "",
                 f"`python benchmarks/regions.py --per {args.per} --seed {args.seed} --runs {args.runs}`: CPU of "
                 "whole processes, start-up included, best of the runs; answers and unique solutions compared.", "",
                 "| batch | puzzles | unique | covering s | ms a puzzle | CaDiCaL s | ratio |", "|---|---|---|---|---|---|---|"]
        lines += [f"| {k} | {n} | {u} | {a:.2f} | {1000 * a / n:.1f} | {b:.2f} | {a / b:.2f} |" for k, n, u, a, b in rows]
        replace_section(RESULTS, "regions", "\n".join(["<!-- regions:begin -->", *lines, "<!-- regions:end -->"]))


if __name__ == "__main__":
    main()
