"""Tilings on every lattice against Knuth's SSXCC, on the matrix covering
builds, whole processes.

    python benchmarks/polyforms.py --knuth DIR [--runs 3] [--write]

The puzzles: pentominoes as flat pentacubes in the 2 x 5 x 6 and 3 x 4 x 5
boxes, fifteen tetrasticks (all but the straight one) in the 5 x 5 grid,
the twelve hexiamonds in the 4 x 9 and 6 x 6 parallelograms, Soma's cube,
and two boards without symmetry (pentominoes, hexiamonds), where every
tiling is searched for rather than counted from the classes, written as
JSON puzzles (the design's form). For each: ``covering
polyomino export --puzzle`` writes the matrix once; Knuth's ``ssxcc m0``
counts it (CPU of the whole run, reading included); covering counts the
puzzle with ``covering polyomino count --puzzle FILE --threads 1`` (CPU of
the whole process: start-up, reading, building the matrix, the count) and
the classes with ``--symmetry``. The runs alternate; the best of ``--runs``
is kept; the counts must agree. DIR holds Knuth's programs built from his
CWEB sources. ``--write`` puts the table in benchmarks/RESULTS.md
(``polyforms`` markers).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from big import child_cpu
from engine import RESULTS, replace_section


def puzzles() -> dict[str, dict[str, Any]]:
    from covering.puzzles.polyforms.sets import SOMA, polyforms
    from covering.puzzles.shapes import PENTOMINOES

    flat = {k: [[0, r, c] for r, c in v.cells] for k, v in PENTOMINOES.items()}
    sticks = polyforms("sticks", 4)
    straight = min(sticks)  # S4-01, the straight tetrastick
    hexi = {k: [list(c) for c in v] for k, v in polyforms("triangle", 6).items()}
    grid = [[x, y, 0] for y in range(6) for x in range(5)] + [[x, y, 1] for y in range(5) for x in range(6)]
    return {
        "pentacubes 2x5x6": {"lattice": "cube", "pieces": flat,
                             "board": [[x, y, z] for x in range(2) for y in range(5) for z in range(6)]},
        "pentacubes 3x4x5": {"lattice": "cube", "pieces": flat,
                             "board": [[x, y, z] for x in range(3) for y in range(4) for z in range(5)]},
        "tetrasticks 5x5": {"lattice": "sticks", "board": grid,
                            "pieces": {k: [list(c) for c in v] for k, v in sticks.items() if k != straight}},
        "hexiamonds 4x9": {"lattice": "triangle", "pieces": hexi,
                           "board": [[x, y, t] for x in range(9) for y in range(4) for t in (0, 1)]},
        "hexiamonds 6x6": {"lattice": "triangle", "pieces": hexi,
                           "board": [[x, y, t] for x in range(6) for y in range(6) for t in (0, 1)]},
        "soma 3x3x3": {"lattice": "cube", "pieces": {k: [list(c) for c in v] for k, v in SOMA.items()},
                       "board": [[x, y, z] for x in range(3) for y in range(3) for z in range(3)]},
        # Boards without symmetry (every tiling counted by the search, not from classes): the 6 x 10 with
        # its corner moved below it, the hexiamonds' rhombus with an up triangle moved to its side.
        "pentominoes, 60 cells, no symmetry": {
            "lattice": "square", "pieces": {k: [list(c) for c in v.cells] for k, v in PENTOMINOES.items()},
            "board": [[r, c] for r in range(6) for c in range(10) if (r, c) != (0, 0)] + [[6, 0]]},
        "hexiamonds, 72 triangles, no symmetry": {
            "lattice": "triangle", "pieces": hexi,
            "board": [[x, y, t] for x in range(6) for y in range(6) for t in (0, 1) if (x, y, t) != (0, 5, 0)]
            + [[6, 0, 0]]},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--knuth", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in puzzles().items():
            if args.only and name not in args.only:
                continue
            f = Path(tmp) / "p.json"
            f.write_text(json.dumps(data))
            done, _, _, _ = child_cpu([sys.executable, "-m", "covering", "polyomino", "export", "--puzzle", str(f)])
            matrix = Path(tmp) / "p.dlx"
            matrix.write_bytes(done.stdout)
            knuth = ours = classes_cpu = float("inf")
            for _ in range(args.runs):
                with matrix.open("rb") as stdin:
                    k, cpu, _, _ = child_cpu([str(args.knuth / "ssxcc"), "m0"], stdin=stdin)
                knuth = min(knuth, cpu)
                o, cpu, _, _ = child_cpu([sys.executable, "-m", "covering", "polyomino", "count", "--puzzle", str(f),
                                          "--threads", "1"])
                ours = min(ours, cpu)
                s, cpu, _, _ = child_cpu([sys.executable, "-m", "covering", "polyomino", "count", "--puzzle", str(f),
                                          "--symmetry"])
                classes_cpu = min(classes_cpu, cpu)
            found = re.search(rb"Altogether (\d+) solution", k.stderr)
            count, classes = int(o.stdout.split()[-1]), int(s.stdout.split()[-1])
            assert found is not None and int(found[1]) == count, (name, k.stderr[-300:], o.stdout)
            rows.append((name, count, classes, knuth, ours, classes_cpu))
            print(f"{name}: {count} tilings, {classes} up to symmetry; SSXCC {knuth:.2f} s, covering {ours:.2f} s "
                  f"({ours / knuth:.2f}x), classes {classes_cpu:.2f} s", flush=True)
    if args.write:
        lines = ["## Polyforms: counts against SSXCC on the matrix covering builds", "",
                 f"`python benchmarks/polyforms.py --knuth DIR --runs {args.runs}`: CPU of whole processes (covering: "
                 "start-up, reading, building, the count on one thread; SSXCC: reading the exported matrix and "
                 "counting), best of the runs, alternated. Where the board has symmetries, covering counts every "
                 "tiling from the problem of the classes (`PolyformPuzzle.count_every`: the group's order times "
                 "its count, plus the filtered placements' share), SSXCC searches them all.", "",
                 "| puzzle | tilings | classes | SSXCC s | covering s | ratio | classes s |",
                 "|---|---|---|---|---|---|---|"]
        lines += [f"| {n} | {c:,} | {k:,} | {a:.2f} | {b:.2f} | {b / a:.2f} | {s:.2f} |"
                  for n, c, k, a, b, s in rows]
        replace_section(RESULTS, "polyforms", "\n".join(["<!-- polyforms:begin -->", *lines, "<!-- polyforms:end -->"]))


if __name__ == "__main__":
    main()
