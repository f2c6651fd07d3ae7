"""A 9 x 9 Sudoku's exact cover matrix given to the count (a .dlx file, any
names, any order) is counted by the band solver: the same count as the
general engines and as the puzzle's own; any other matrix goes on as before."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from covering import LimitReached, Problem
from covering.counting import count
from covering.puzzles.sudoku import Sudoku

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku" / "sample1000_17_clue.txt"

#: Names of the four kinds of items: Knuth's SUDOKU-DLX's, and another's.
KNUTH = ("p{r}{c}", "r{r}{v}", "c{c}{v}", "b{b}{v}")
OTHER = ("R{r}C{c}", "R{r}#{v}", "C{c}#{v}", "B{b}#{v}")


def puzzles(drop: int, most: int = 6) -> list[str]:
    """Puzzles of the shared 17-clue sample with their last `drop` givens blanked."""
    out = []
    for line in SAMPLE.read_text().split()[:most]:
        cells = list(line)
        for k in [k for k, ch in enumerate(cells) if ch not in ".0"][-drop:]:
            cells[k] = "."
        out.append("".join(cells))
    return out


def sudoku_dlx(puzzle: str, names: tuple[str, ...] = KNUTH, *, seed: int | None = None,
               givens_kept: bool = False) -> str:
    """The puzzle's exact cover problem in Knuth's format, written here from
    the rules alone: as SUDOKU-DLX writes it (the givens' items and the
    candidates they rule out left out), or with `givens_kept` every item and
    every candidate but a given's cell holding its given alone; `seed`
    shuffles items, options and the items in each."""
    rng = random.Random(seed)
    values = [0 if ch in ".0" else int(ch) for ch in puzzle]
    cell, row, col, box = names

    def four(r: int, c: int, v: int) -> list[str]:
        return [cell.format(r=r, c=c), row.format(r=r, v=v), col.format(c=c, v=v),
                box.format(b=r // 3 * 3 + c // 3, v=v)]

    covered = set()
    if not givens_kept:
        for k, v in enumerate(values):
            if v:
                covered.update(four(k // 9, k % 9, v))
    items = [x for r in range(9) for c in range(9) for v in range(1, 10) for x in four(r, c, v)[1:]]
    items = [cell.format(r=r, c=c) for r in range(9) for c in range(9)] + list(dict.fromkeys(items))
    items = [x for x in items if x not in covered]
    options = []
    for k, given in enumerate(values):
        r, c = divmod(k, 9)
        if givens_kept:
            options += [four(r, c, v) for v in range(1, 10) if given in (0, v)]
        elif not given:
            options += [four(r, c, v) for v in range(1, 10) if not covered & set(four(r, c, v))]
    if seed is not None:
        rng.shuffle(items)
        rng.shuffle(options)
        for o in options:
            rng.shuffle(o)
    return " ".join(items) + "\n" + "".join(" ".join(o) + "\n" for o in options)


@pytest.mark.parametrize("names", [KNUTH, OTHER])
def test_the_count_is_the_puzzles_and_the_engines(names: tuple[str, ...]) -> None:
    for k, puzzle in enumerate(puzzles(2, 3)[:1] + puzzles(1, 3)):
        problem = Problem.from_dlx(sudoku_dlx(puzzle, names, seed=k))
        counted = count(problem, threads=1)
        assert "band solver" in counted.reason and counted.plan is not None and counted.plan["machine"] == "bands"
        assert counted.count == Sudoku.parse(puzzle).count()
        # The general engines, asked for, count the same matrix alike.
        assert count(problem, method="search", engine="cells", threads=1).count == counted.count


def test_the_17_clue_puzzles_are_read_however_thin() -> None:
    # 17 givens and many cells forced: a thin matrix, in two spellings,
    # shuffled; each read, and its one solution found.
    for k, puzzle in enumerate(SAMPLE.read_text().split()[:100]):
        problem = Problem.from_dlx(sudoku_dlx(puzzle, (KNUTH, OTHER)[k % 2], seed=k))
        counted = count(problem, threads=1)
        assert "band solver" in counted.reason and counted.count == 1


def test_givens_kept_as_items_of_one_option() -> None:
    # Every item and candidate, a given's cell holding its given alone: the
    # givens are forced, and what they leave is the same Sudoku's.
    for k, puzzle in enumerate(puzzles(1, 3)):
        problem = Problem.from_dlx(sudoku_dlx(puzzle, seed=k, givens_kept=True))
        counted = count(problem, threads=1)
        assert "band solver" in counted.reason
        assert counted.count == Sudoku.parse(puzzle).count()


def test_another_matrix_goes_on_as_before() -> None:
    text = sudoku_dlx(puzzles(2, 1)[0], seed=3)
    head, *options = text.splitlines()
    # One candidate fewer than any puzzle's matrix has.
    problem = Problem.from_dlx("\n".join([head, *options[1:]]) + "\n")
    counted = count(problem, threads=1)
    assert "band solver" not in counted.reason
    assert counted.count == count(problem, method="search", engine="cells", threads=1).count
    # An engine asked for is the engine that counts.
    problem = Problem.from_dlx(text)
    assert "band solver" not in count(problem, engine="cells", threads=1).reason


def test_a_budget_stops_it_with_the_count_so_far(tmp_path: Path) -> None:
    # Ten givens: more solutions than any run counts.
    puzzle = puzzles(7, 1)[0]
    problem = Problem.from_dlx(sudoku_dlx(puzzle, seed=1))
    with pytest.raises(LimitReached) as e:
        count(problem, seconds=0.2, threads=1)
    assert e.value.count is not None and e.value.count > 0
    # By the command (its budget counts from the process's start).
    path = tmp_path / "sudoku.dlx"
    path.write_text(sudoku_dlx(puzzle, OTHER, seed=2))
    run = subprocess.run([sys.executable, "-m", "covering", "dlx", "count", str(path), "--seconds", "1", "--json"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 3
    summary = json.loads(run.stdout.splitlines()[-1])
    assert summary["complete"] is False and summary["stopped"] == "budget" and summary["count"] > 0
