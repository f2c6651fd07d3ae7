"""Known counts (DESIGN.md): the seeds' L-tromino boards, pentominoes, queens."""

from __future__ import annotations

import pytest
from covering.puzzles.polyomino import PENTOMINOES, Board, l_tromino, tiling
from covering.puzzles.queens import queens_problem as queens

from covering import Problem
from covering.reference import algorithm_x, dlx

ENGINES = ["cells", "bits"]

from known import L_TROMINO, QUEENS, TROMINO_7X7


@pytest.mark.parametrize("engine", ENGINES)
def test_tromino_table_of_the_seeds(engine: str) -> None:
    assert l_tromino(6).count(engine=engine) == L_TROMINO[6, None]
    assert len(TROMINO_7X7) == 10
    for hole, expected in TROMINO_7X7.items():
        assert l_tromino(7, hole).count(engine=engine) == expected, hole
    assert l_tromino(8, 0).count(engine=engine) == L_TROMINO[8, 0]


def test_tromino_9x9() -> None:
    assert l_tromino(9).count() == L_TROMINO[9, None]


def test_tromino_small_boards_match_the_references() -> None:
    # 4x4 minus any cell has a tiling; 5x5 minus cell 1 has none (seed 000).
    for hole in range(16):
        p = l_tromino(4, hole)
        assert p.count() == algorithm_x.count(p) == dlx.count(p) >= 1
    for hole in (0, 1, 12):
        assert l_tromino(5, hole).count() == L_TROMINO[5, hole]


@pytest.mark.parametrize(
    ("rows", "cols", "expected"), [(6, 10, 9356), (5, 12, 4040), (4, 15, 1472), (3, 20, 8)]
)
def test_pentominoes(rows: int, cols: int, expected: int) -> None:
    assert tiling(PENTOMINOES, Board.rectangle(rows, cols)).count() == expected


@pytest.mark.parametrize("engine", ENGINES)
def test_pentominoes_8x8_minus_centre(engine: str) -> None:
    p = tiling(PENTOMINOES, Board.rectangle(8, 8, holes=[(3, 3), (3, 4), (4, 3), (4, 4)]))
    assert p.count(engine=engine) == 520
    # Every tiling uses each piece once and each cell once.
    for labels in p.solutions(limit=20, engine=engine):
        cells = [cell for _, placed in labels for cell in placed]
        assert sorted(name for name, _ in labels) == sorted("FILNPTUVWXYZ")
        assert len(cells) == len(set(cells)) == 60


@pytest.mark.parametrize("engine", ENGINES)
def test_queens_by_secondary_diagonals(engine: str) -> None:
    assert sorted(QUEENS) == list(range(1, 13))
    for n, expected in QUEENS.items():
        assert queens(n).count(engine=engine) == expected, n


def test_eight_queens_solutions_are_valid() -> None:
    solutions = list(queens(8).solutions())
    assert len(solutions) == 92
    for s in solutions:
        assert len({i for i, _ in s}) == len({j for _, j in s}) == 8
        assert len({i + j for i, j in s}) == len({i - j for i, j in s}) == 8


def test_knuth_intro_examples() -> None:
    dlx1 = Problem.from_dlx("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    assert list(dlx1.solutions()) == [[("c", "e"), ("a", "d", "f"), ("b", "g")]]
    dlx3 = Problem.from_dlx("A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n")
    assert list(dlx3.solutions()) == [[("A", "C", "X:1", "Y:1"), ("B", "X:1"), ("C", "Y:1")]]
