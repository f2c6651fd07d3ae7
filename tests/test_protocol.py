"""The puzzle protocol: Sudoku, Akari, queens and tilings answer the same
methods, solutions pass each puzzle's own check of its rules (and spoiled
ones do not), counts agree with known values and with the exact cover
problem each exports."""

from __future__ import annotations

import xml.dom.minidom
from typing import Any

import pytest

from covering import Uniqueness
from covering.puzzles import akari, sudoku
from covering.puzzles.base import ExactCover, Puzzle
from covering.puzzles.polyomino import PENTOMINOES, TROMINOES, Board, TilingPuzzle
from covering.puzzles.queens import Queens

CASES: list[tuple[str, Any, int, Uniqueness]] = [
    ("queens 8", Queens(8), 92, Uniqueness.MULTIPLE),  # OEIS A000170
    ("queens 3", Queens(3), 0, Uniqueness.NONE),
    ("pentominoes 5x12", TilingPuzzle(PENTOMINOES, Board.rectangle(5, 12)), 4040, Uniqueness.MULTIPLE),
    ("L-trominoes 2x3", TilingPuzzle({"L": TROMINOES["L"]}, Board.rectangle(2, 3), uses="any"), 2,
     Uniqueness.MULTIPLE),
    ("sudoku 4x4", sudoku.Sudoku.parse("1..." "..1." "...." "...2"), 6, Uniqueness.MULTIPLE),
    ("sudoku 9x9", sudoku.Sudoku.parse(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"), 1,
     Uniqueness.UNIQUE),
    ("akari seed 7x7", akari.Akari.parse(akari.SEED_7X7), 1, Uniqueness.UNIQUE),
]


@pytest.mark.parametrize(("name", "puzzle", "count", "uniqueness"), CASES, ids=[c[0] for c in CASES])
def test_every_puzzle_is_an_exact_cover_whose_solutions_decode(name: str, puzzle: Any, count: int,
                                                               uniqueness: Uniqueness) -> None:
    # Each puzzle class stands on ExactCover: the solutions of its problem(),
    # decoded, are solutions by the puzzle's own rules, as many as it counts.
    assert isinstance(puzzle, ExactCover) and isinstance(puzzle, Puzzle)
    cover: ExactCover[Any] = puzzle
    decoded = [cover.decode(ids) for ids in cover.problem().solutions(8, ids=True)]
    assert len(decoded) == min(count, 8)
    assert all(puzzle.check(s) == [] for s in decoded)


@pytest.mark.parametrize(("name", "puzzle", "count", "uniqueness"), CASES, ids=[c[0] for c in CASES])
def test_every_puzzle_answers_the_protocol(name: str, puzzle: Any, count: int, uniqueness: Uniqueness) -> None:
    assert isinstance(puzzle, Puzzle)
    assert puzzle.count() == count == puzzle.problem().count()
    assert puzzle.uniqueness() is uniqueness
    for picture in (puzzle.svg(), puzzle._repr_svg_()):
        xml.dom.minidom.parseString(picture)
    assert puzzle.text()
    solutions = list(puzzle.solutions(3))
    assert len(solutions) == min(3, count)
    for s in solutions:
        assert puzzle.check(s) == [], name
        assert puzzle.draw(s)
    first = puzzle.solve()
    assert (first is None) == (count == 0)


def test_spoiled_solutions_are_caught() -> None:
    q = Queens(8)
    s = q.solve()
    assert s is not None and q.check((s[1], s[0]) + s[2:])  # two columns swapped: a diagonal or more
    t = TilingPuzzle(PENTOMINOES, Board.rectangle(5, 12))
    tiles = t.solve()
    assert tiles is not None and t.check(tiles[1:]) and t.check(tiles + tiles[:1])
    puzzle = akari.Akari.parse(akari.SEED_7X7)
    lights = puzzle.solve()
    assert lights is not None and puzzle.check(set(lights) - {next(iter(lights))})
    grid = sudoku.Sudoku.parse("1..." "..1." "...." "...2")
    assert grid.check(grid) and grid.check(Queens(4))
