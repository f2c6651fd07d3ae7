"""``covering demo``: small and quick examples: Knuth's introductory
examples, L-tromino and pentomino tilings, queens, Sudoku in kanji digits,
and a 7 x 7 Akari board."""

from __future__ import annotations

import argparse
import sys
import warnings

from ..errors import OptionSkippedWarning
from ..problem import Problem
from .menu import PUZZLES

__all__ = ["add_parser", "run"]

#: Knuth's introductory examples for DLX1, DLX2 and DLX3.
KNUTH = {
    "DLX1 (TAOCP 7.2.2.1-(5))": "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n",
    "DLX2 (colors)": "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n",
    "DLX3 (multiplicities)": "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n",
}


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help=PUZZLES["demo"][1],
                       description="Solve Knuth's introductory examples and one of each puzzle.")
    p.set_defaults(run=run)


def section(title: str) -> None:
    print(f"\n== {title}")


def run(args: argparse.Namespace, run: object) -> int:
    from ..puzzles import polyomino, queens

    color = sys.stdout.isatty()
    section("Knuth's introductory examples")
    for title, text in KNUTH.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OptionSkippedWarning)
            problem = Problem.from_dlx(text)
        for ids in problem.solutions(ids=True):
            print(f"{title}: " + " / ".join(problem.label_text(o) for o in ids))

    section("L-trominoes: tilings of n x n minus cell A")
    print("board  A  tilings")
    print(f"6x6    -  {polyomino.l_tromino(6).count():7}")
    for hole in (0, 1, 2, 3, 8, 9, 10, 16, 17, 24):
        print(f"7x7   {hole:2}  {polyomino.l_tromino(7, hole).count():7}")
    print(f"8x8    0  {polyomino.l_tromino(8, 0).count():7}")
    print("the first tiling of 8x8 minus cell 0:")
    print(polyomino.Tiling.of_tromino(8, polyomino.l_tromino(8, 0).first()).text(color=color))

    section("Pentominoes on 6x10, up to symmetry")
    p = polyomino.tiling(polyomino.PENTOMINOES, polyomino.Board.rectangle(6, 10), symmetry=True)
    print(polyomino.Tiling.of(p.first()).text(color=color))
    print(f"{p.count()} tilings up to symmetry (9356 in all)")

    section("Queens")
    sols = queens.solutions(8)
    print(f"8 queens: {len(sols)} solutions; the first: {' '.join(map(str, sols[0]))}")
    print(queens.board_text(sols[0]))
    print("counts for n = 1..12:", " ".join(str(queens.count(n)) for n in range(1, 13)))
    print("infinite queens (OEIS A065188, rows from 1):", " ".join(map(str, queens.infinite(30))))

    from ..puzzles import sudoku

    section("Sudoku, in kanji digits")
    g = sudoku.generate(9, seed=2024, symbols=sudoku.KANJI)
    print(f"a puzzle with {g.puzzle.givens} givens (unique solution, difficulty {g.difficulty} nodes):")
    print(g.puzzle.text())
    print("its solution:")
    print(g.solution.text())
    print(f"4 x 4 grids: {sudoku.Sudoku.parse('.' * 16).count()}")

    from ..puzzles import akari

    section("Akari, Light Up, 美術館: a 7x7 board")
    puzzle = akari.Akari.parse(akari.SEED_7X7)
    lights = puzzle.solve()
    print(puzzle.draw(lights))
    print(f"{len(lights or [])} lights; the solution is {puzzle.uniqueness().name.lower()}; "
          f"rules broken: {len(akari.check(puzzle, lights or []))}")
    return 0
