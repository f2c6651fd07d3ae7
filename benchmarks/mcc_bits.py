"""Algorithm M on bitsets against dancing cells, by the shape the automatic choice reads
(`MBits::pays` in crates/xc/src/mbits.rs): the evidence for its threshold.

    python benchmarks/mcc_bits.py [--knuth DIR] [--repeat N]

For each problem: the words a node of bitsets scans (a set of w words per primary item) over
what a try of the cells hides (the lengths of an average option's items), and the CPU of a
search on each engine (`_core.Search(compiled, None, engine)`, to two solutions, as a
uniqueness check does, or to the end), the best of `--repeat`, in this process. Problems:
random Akari boards (`akari.random_puzzle`, six seeds a size: many items, each in a few
options), tilings with multiplicities, and with `--knuth` his MOTLEY-, QUEENDOM- and
REDRECT-DLX instances (generators in DIR/gen, as benchmarks/knuth_workloads.py builds them).
Printed only.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import time
from pathlib import Path

from covering import _core
from covering.problem import Problem
from covering.puzzles.akari import random_puzzle
from covering.puzzles.polyomino import PENTOMINOES, TETROMINOES, Board, tiling


def scan_over_hide(compiled: _core.CompiledProblem) -> float:
    """The words a node of bitsets scans over the options a try of the cells hides."""
    n1, _, _, _, start, item, _ = compiled.arrays()
    m = len(start) - 1
    length = collections.Counter(item)
    hidden = sum(length[i] for i in item) / m
    return n1 * ((m + 63) // 64) / hidden


def search_ms(compiled: _core.CompiledProblem, engine: str, target: int | None, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        _core.Search(compiled, None, engine).count(target=target)
        best = min(best, time.process_time() - start)
    return 1000 * best


def problems(knuth: Path | None) -> list[tuple[str, list[_core.CompiledProblem], int | None]]:
    out: list[tuple[str, list[_core.CompiledProblem], int | None]] = []
    for rows, cols, black in ((10, 10, 0.2), (12, 12, 0.2), (15, 15, 0.2), (20, 20, 0.2), (25, 25, 0.2),
                              (14, 14, 0.08), (20, 20, 0.08)):
        boards = [random_puzzle(rows, cols, black=black, seed=seed) for seed in range(6)]
        encodings = [b._encoding for b in boards]
        out.append((f"Akari {rows}x{cols}, {black:.0%} black (6 boards)", [e[0] for e in encodings if e], 2))
    out.append(("tetrominoes 1-3 times each, 5x8", [tiling(TETROMINOES, Board.rectangle(5, 8), uses=(1, 3)).compile()],
                None))
    out.append(("pentominoes 0-1 times each, 6x7", [tiling(PENTOMINOES, Board.rectangle(6, 7), uses=(0, 1)).compile()],
                None))
    if knuth is not None:
        for args in (["motley-dlx", "6", "7"], ["queendom-dlx", "8", "5"], ["redrect-dlx", "4", "5"]):
            text = subprocess.run([str(knuth / "gen" / args[0]), *args[1:]], capture_output=True, text=True,
                                  check=True).stdout
            out.append((" ".join(args).upper(), [Problem.from_dlx(text).compile()], None))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--knuth", type=Path, help="his programs (generators in DIR/gen)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| problem | scan / hide | cells | bitsets | cells / bitsets | automatic |")
    print("|---|---|---|---|---|---|")
    for name, compiled, target in problems(args.knuth):
        ratio = sum(scan_over_hide(c) for c in compiled) / len(compiled)
        cells = sum(search_ms(c, "cells", target, args.repeat) for c in compiled) / len(compiled)
        bits = sum(search_ms(c, "bits", target, args.repeat) for c in compiled) / len(compiled)
        auto = _core.Search(compiled[0], None, "auto").engine
        print(f"| {name} | {ratio:.2f} | {cells:.3f} ms | {bits:.3f} ms | {cells / bits:.2f} | {auto} |", flush=True)


if __name__ == "__main__":
    main()
