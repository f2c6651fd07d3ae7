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
    one, u = puzzle.solve_unique()
    assert u is uniqueness and (one is None) == (count == 0)
    assert one is None or puzzle.check(one) == []


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


VERBS = ("solutions", "solve", "count", "uniqueness", "solve_unique")
CLASSES = [Queens, TilingPuzzle, sudoku.Sudoku, akari.Akari]


@pytest.mark.parametrize("verb", VERBS)
def test_every_puzzle_class_has_the_same_verbs_and_arguments(verb: str) -> None:
    # The same positional limit and the same budgets on every puzzle (a
    # puzzle may add keywords of its own after them, as Sudoku's order).
    import inspect

    def budgets(cls: type) -> list[tuple[str, Any, Any]]:
        params = inspect.signature(getattr(cls, verb)).parameters.values()
        return [(p.name, p.kind, p.default) for p in params if p.name in ("limit", "seconds", "nodes", "budget")]

    shapes = {cls.__name__: budgets(cls) for cls in CLASSES}
    first = budgets(ExactCover)
    assert [n for n, _, _ in first] == (["limit"] if verb in ("solutions", "count") else []) + [
        "seconds", "nodes", "budget"]
    assert all(shape == first for shape in shapes.values()), shapes
    assert all(default is None for _, _, default in first)


def test_no_count_has_a_cap_of_its_own() -> None:
    # The old default cap of Sudoku.count was 1000.
    assert sudoku.Sudoku.parse("1" + "." * 80).count(1500) == 1500
    assert sudoku.Sudoku.parse("." * 16).count() == 288


LONG = [
    ("queens 20 count", lambda **b: Queens(20).count(**b)),
    ("queens 20 solutions", lambda **b: sum(1 for _ in Queens(20).solutions(**b))),
    ("sudoku 16 count", lambda **b: sudoku.Sudoku.parse("." * 256).count(**b)),
    ("sudoku 9 count", lambda **b: sudoku.Sudoku.parse("." * 81).count(**b)),
    ("akari 40x40 count", lambda **b: akari.random_puzzle(40, 40, black=0.05, seed=1).count(**b)),
    ("pentominoes 10x30 count", lambda **b: TilingPuzzle(PENTOMINOES, Board.rectangle(10, 30), uses="any").count(**b)),
]


@pytest.mark.parametrize(("name", "verb"), LONG, ids=[c[0] for c in LONG])
@pytest.mark.parametrize("how", ["seconds", "budget"])
def test_a_time_budget_stops_every_puzzle_verb(name: str, verb: Any, how: str) -> None:
    # A count that would take years stops soon after its budget, on each
    # class; the margin is wide (a loaded machine), the failure it catches
    # is a run that never stops (Queens(20).count once ran 11 minutes).
    import time

    from covering import LimitReached
    from covering.limits import Budget

    given = {"seconds": 0.3} if how == "seconds" else {"budget": Budget.of(seconds=0.3)}
    start = time.monotonic()
    with pytest.raises(LimitReached) as e:
        verb(**given)
    assert time.monotonic() - start < 5.0
    assert e.value.budget == "seconds"


#: A command and its API twin, on the same puzzle.
TWINS: list[tuple[list[str], Any]] = [
    (["queens", "VERB", "8"], Queens(8)),
    (["queens", "VERB", "3"], Queens(3)),
    (["tromino", "VERB", "7", "--hole", "9"], TilingPuzzle.l_tromino(7, 9)),
    (["polyomino", "VERB", "--board", "5x12"], TilingPuzzle(PENTOMINOES, Board.rectangle(5, 12))),
    (["polyomino", "VERB", "--board", "8x8"], TilingPuzzle(PENTOMINOES, Board.rectangle(8, 8))),
    (["polyomino", "VERB", "--board", "2x3", "--pieces", "trominoes", "--uses", "any"],
     TilingPuzzle(TROMINOES, Board.rectangle(2, 3), uses="any")),
]


@pytest.mark.parametrize(("args", "puzzle"), TWINS, ids=[" ".join(a) for a, _ in TWINS])
def test_each_command_answers_as_its_api_twin(args: list[str], puzzle: Any) -> None:
    # The command line only parses and prints: count, unique and solve give
    # what the puzzle protocol gives (an area that cannot be covered
    # answered at once by both: 0, none, no solution).
    import json
    import subprocess
    import sys

    def run(verb: str) -> list[dict[str, Any]]:
        argv = [w for a in args for w in (verb.split() if a == "VERB" else [a])]
        r = subprocess.run([sys.executable, "-m", "covering", *argv, "--json"], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        return [json.loads(x) for x in r.stdout.splitlines()]

    assert run("count")[-1]["count"] == puzzle.count()
    first, u = puzzle.solve_unique()
    assert run("unique")[-1]["uniqueness"] == u.value == puzzle.uniqueness().value
    solved = run("solve")
    assert (solved[-1]["count"] == 0) == (first is None) == (puzzle.solve() is None)
    # random: the same seed draws the same solutions by both doors.
    drawn = [_cells(r) for r in run("random --seed 5 --limit 3")[:-1]]
    assert drawn == [_cells(x) for x in puzzle.random(3, seed=5)]
    assert len(set(drawn)) == len(drawn) and all(puzzle.check(x) == [] for x in puzzle.random(3, seed=5))


def _cells(solution: Any) -> Any:
    """A solution as both doors can say it: the rows of the queens, or the
    set of the cells of each placed piece."""
    if isinstance(solution, dict):
        if "rows" in solution:
            return tuple(solution["rows"])
        return frozenset(frozenset(map(tuple, p["cells"])) for p in solution["tiling"])
    if isinstance(solution, tuple):
        return solution
    return frozenset(frozenset(map(tuple, cells)) for _, cells in solution)


def test_best_and_symmetry_answer_alike_by_both_doors() -> None:
    import json
    import subprocess
    import sys

    def run(*argv: str) -> list[dict[str, Any]]:
        r = subprocess.run([sys.executable, "-m", "covering", *argv, "--json"], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        return [json.loads(x) for x in r.stdout.splitlines()]

    priced = TilingPuzzle(TROMINOES, Board.rectangle(3, 3), uses="any", costs={"I": 1, "L": 3})
    best = priced.best(2)
    cli = run("polyomino", "best", "--board", "3x3", "--pieces", "trominoes", "--uses", "any", "--cost", "I=1",
              "--cost", "L=3", "--limit", "2")
    assert [r["cost"] for r in cli[:-1]] == [s.cost for s in best] == [3, 3] and best.optimal
    assert all(priced.check(priced.decode(s.ids)) == [] for s in best)
    # Every puzzle has best: without costs, every solution costs 0.
    assert [s.cost for s in Queens(6).best(3)] == [0, 0, 0]
    # Up to the board's symmetries (pentominoes on 6 x 10: 2339 classes, Knuth).
    classes = TilingPuzzle(PENTOMINOES, Board.rectangle(6, 10), symmetry=True)
    assert run("polyomino", "count", "--board", "6x10", "--symmetry")[-1]["count"] == classes.count() == 2339
    assert (classes.count(0), classes.count(5)) == (0, 5)  # a limit caps the classes as it caps the tilings
    ell = TilingPuzzle({"L": TROMINOES["L"]}, Board.rectangle(2, 3), uses="any", symmetry=True)
    assert ell.uniqueness() is Uniqueness.UNIQUE and ell.count() == 1
    assert run("polyomino", "unique", "--board", "2x3", "--pieces", "trominoes", "--uses", "any",
               "--symmetry")[-1]["uniqueness"] in ("multiple",)  # (both trominoes: I and L tilings differ)
    with pytest.raises(ValueError, match="random draws tilings"):
        next(iter(classes.random(1, seed=1)))


def test_a_budget_carries_what_was_found_on_every_class() -> None:
    from covering import LimitReached

    with pytest.raises(LimitReached) as e:
        Queens(18).count(seconds=0.5)
    assert e.value.count is not None and 0 < e.value.count < 666_090_624  # (OEIS A000170, n = 18)
