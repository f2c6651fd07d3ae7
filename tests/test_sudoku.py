"""Sudoku: every solution checked against the rules and the givens, by a checker
that knows nothing of the exact cover encoding."""

from __future__ import annotations

import itertools
import math
import random
import string
from pathlib import Path

import pytest

from covering import Uniqueness
from covering.cli import main
from covering.puzzles.sudoku import KANJI, Sudoku, SudokuError, generate, random_grid, solve_text


def obeys_the_rules(grid: Sudoku, puzzle: Sudoku | None = None) -> bool:
    """Each row, column and box holds each digit once; the givens are kept."""
    n, b = grid.n, math.isqrt(grid.n)
    v = grid.values
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(br + r) * n + bc + c for r in range(b) for c in range(b)] for br in range(0, n, b) for bc in range(0, n, b)
    ]
    if any(sorted(v[k] for k in unit) != list(range(1, n + 1)) for unit in units):
        return False
    return puzzle is None or all(p == 0 or p == g for p, g in zip(puzzle.values, v))


def test_the_288_grids_of_4x4() -> None:
    empty = Sudoku.parse("." * 16)
    grids = list(empty.solutions())
    assert len(grids) == 288 == empty.count()
    assert len({g.values for g in grids}) == 288
    assert all(obeys_the_rules(g) for g in grids)
    # ... and brute force agrees: every 4x4 array of permutations obeying the rules.
    rows = list(itertools.permutations(range(1, 5)))
    brute = 0
    for a, bb, c, d in itertools.product(rows, repeat=4):
        g = Sudoku(4, tuple(a + bb + c + d), "1234")
        brute += obeys_the_rules(g)
    assert brute == 288


@pytest.mark.parametrize("seed", range(8))
def test_generated_puzzles_are_unique_and_solved_right(seed: int) -> None:
    g = generate(9, seed=seed)
    assert g.puzzle.uniqueness() is Uniqueness.UNIQUE
    assert g.puzzle.givens < 40 and g.difficulty > 0
    solved = g.puzzle.solve()
    assert solved is not None and obeys_the_rules(solved, g.puzzle)
    assert solved.values == g.solution.values
    # Removing any one more given makes the solution ambiguous (minimal puzzles).
    k = next(i for i, v in enumerate(g.puzzle.values) if v)
    fewer = list(g.puzzle.values)
    fewer[k] = 0
    assert Sudoku(9, tuple(fewer), g.puzzle.symbols).uniqueness() is Uniqueness.MULTIPLE


def test_none_unique_multiple() -> None:
    grid = random_grid(9, seed=11)
    assert grid.uniqueness() is Uniqueness.UNIQUE
    line = grid.line()
    # Two cells blanked that can swap: several solutions.
    assert Sudoku.parse("." * 81).uniqueness() is Uniqueness.MULTIPLE
    assert Sudoku.parse("." * 81).count(50) == 50
    # No duplicate among the givens, yet no solution: r1c9 must be 9, but r2c9 is 9.
    no = "12345678." + "........9" + "." * 63
    p = Sudoku.parse(no)
    assert p.uniqueness() is Uniqueness.NONE and p.solve() is None and p.count() == 0
    assert solve_text(no + "\n" + line + "\n")[0] == ["no solution", line]


@pytest.mark.parametrize("seed", range(3))
def test_the_9x9_batch_agrees_with_the_general_engine(seed: int) -> None:
    """9 x 9 lines go to the band solver; the puzzle's exact cover problem
    goes to the general engine: same counts, and the same verdicts."""
    rng = random.Random(seed)
    lines = []
    for k in range(40):
        values = list(random_grid(9, seed=1000 * seed + k).values)
        keep = rng.uniform(0.2, 0.6)
        values = [v if rng.random() < keep else 0 for v in values]
        if k % 4 == 0:
            # A given that clashes with no given in its units, perhaps with the solution.
            blank = [i for i, v in enumerate(values) if v == 0]
            i = rng.choice(blank)
            r, c = divmod(i, 9)
            seen = {values[j] for j in range(81) if j // 9 == r or j % 9 == c or (j // 27, j % 9 // 3) == (r // 3, c // 3)}
            values[i] = rng.choice([d for d in range(1, 10) if d not in seen])
        lines.append("".join(str(v) if v else "." for v in values))
    text = "\n".join(lines) + "\n"
    counts, errors = solve_text(text, mode="count", cap=30)
    verdicts, _ = solve_text(text, mode="unique")
    firsts, _ = solve_text(text, mode="solve")
    assert errors == []
    seen_kinds = set()
    for line, count, verdict, first in zip(lines, counts, verdicts, firsts):
        puzzle = Sudoku.parse(line)
        expected = puzzle.solver().count(30)  # the exact cover engine
        assert puzzle.count(30) == expected  # the band solver, one puzzle
        assert int(count) == expected, line
        if expected == 0:
            assert verdict == first == "no solution"
        else:
            assert obeys_the_rules(Sudoku.parse(first), puzzle)
            assert verdict == ("multiple" if expected > 1 else first)
        seen_kinds.add(min(expected, 2))
    assert seen_kinds == {0, 1, 2}


def test_larger_sizes_and_other_symbols() -> None:
    for n, seed in ((16, 1), (25, 2)):
        grid = random_grid(n, seed=seed)
        assert obeys_the_rules(grid)
        puzzle = Sudoku(n, tuple(v if k % 3 else 0 for k, v in enumerate(grid.values)), grid.symbols)
        (out,), errors = solve_text(puzzle.line(), n=n)
        assert not errors and obeys_the_rules(Sudoku.parse(out), puzzle)
    kanji = random_grid(9, seed=5, symbols=KANJI)
    assert set(kanji.line()) == set(KANJI)
    puzzle = Sudoku(9, tuple(v if k % 2 else 0 for k, v in enumerate(kanji.values)), KANJI)
    assert Sudoku.parse(puzzle.line(), KANJI).solve() == Sudoku(9, kanji.values, KANJI, puzzle_given(puzzle))
    letters = "ABCDEFGHI"
    assert Sudoku.parse(random_grid(9, seed=3, symbols=letters).line(), letters).givens == 81


def puzzle_given(p: Sudoku) -> tuple[bool, ...]:
    return tuple(v != 0 for v in p.values)


def test_random_grids_are_reproducible() -> None:
    assert random_grid(9, seed=7) == random_grid(9, seed=7) != random_grid(9, seed=8)
    assert len({random_grid(4, seed=s).values for s in range(40)}) > 20


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1" * 80, "wrong length: 80 cells"),
        ("x" + "." * 80, "r1c1: bad character 'x'"),
        ("." * 10 + "?" + "." * 70, "r2c2: bad character '?'"),
        ("55" + "." * 79, "r1c2: 5 is already in r1c1, in the same row"),
        ("5" + "." * 8 + "5" + "." * 71, "r2c1: 5 is already in r1c1, in the same column"),
        ("5" + "." * 9 + "5" + "." * 70, "r2c2: 5 is already in r1c1, in the same box"),
    ],
)
def test_errors_name_the_cell(text: str, message: str) -> None:
    with pytest.raises(SudokuError, match=message.replace("?", r"\?")):
        Sudoku.parse(text)
    (out,), errors = solve_text(text + "\n")
    assert out == "error" and errors == [(1, message if "length" not in message else errors[0][1])]
    assert isinstance(SudokuError("x"), ValueError)


def _first_twice(cells: list[int], n: int, symbols: str) -> str | None:
    """The message for the first given (in reading order) that repeats
    one before it in its row, column or box (checked in that order)."""
    b = math.isqrt(n)

    def units(j: int) -> tuple[int, int, int]:
        r, c = divmod(j, n)
        return r, c, (r // b) * b + c // b

    for k, v in enumerate(cells):
        if v == 0:
            continue
        r, c = divmod(k, n)
        for i, kind in enumerate(("row", "column", "box")):
            other = next((j for j in range(k) if cells[j] == v and units(j)[i] == units(k)[i]), None)
            if other is not None:
                return f"r{r + 1}c{c + 1}: {symbols[v - 1]} is already in r{other // n + 1}c{other % n + 1}, in the same {kind}"
    return None


@pytest.mark.parametrize("n", [4, 9, 16])
def test_the_given_twice_is_the_first_in_reading_order(n: int) -> None:
    # Random lines, many with a symbol twice somewhere (past the 64th cell
    # too): the batch names the pair an independent scan names, on every
    # size (the givens found by masks of 64 cells, a word of symbols a unit).
    rng = random.Random(n)
    symbols = "123456789ABCDEFG"[:n]
    lines, expected = [], []
    for _ in range(300):
        cells = [0] * (n * n)
        for _ in range(rng.randint(1, 3 * n)):
            cells[rng.randrange(n * n)] = rng.randint(1, n)
        lines.append("".join("." if v == 0 else symbols[v - 1] for v in cells))
        expected.append(_first_twice(cells, n, symbols))
    outputs, errors = solve_text("\n".join(lines) + "\n", n=n, symbols=symbols, mode="solve")
    named = dict(errors)
    for k, (line, message) in enumerate(zip(lines, expected)):
        if message is None:
            assert outputs[k] != "error", line
        else:
            assert named.get(k + 1) == message, line
    assert sum(m is not None for m in expected) > 100


@pytest.mark.parametrize("n", [25, 36, 64])
def test_the_given_twice_on_big_grids(n: int) -> None:
    # Past 16 x 16 (several masks of 64 cells a line, up to 64 symbols in a
    # unit's word): the one reading of a line names the pair an
    # independent scan names, or reads the line as given.
    rng = random.Random(n)
    symbols = ("123456789" + string.ascii_uppercase + string.ascii_lowercase + "@#$%")[:n]
    for _ in range(100):
        cells = [0] * (n * n)
        for _ in range(rng.randint(1, 3 * n)):
            cells[rng.randrange(n * n)] = rng.randint(1, n)
        line = "".join("." if v == 0 else symbols[v - 1] for v in cells)
        message = _first_twice(cells, n, symbols)
        if message is None:
            assert Sudoku.parse(line, symbols).values == tuple(cells)
        else:
            with pytest.raises(SudokuError) as e:
                Sudoku.parse(line, symbols)
            assert str(e.value) == message


def test_grid_layout() -> None:
    text = """
    . 1 | . 4
    . . | . 3
    ----+----
    4 . | . .
    . . | . .
    """
    p = Sudoku.parse(text, grid=True)
    assert p.line() == ".1.4...34......."
    solution = p.solve()
    assert solution is not None and p.check(solution) == []
    assert p.text().splitlines()[2] == "----+----"


def test_pictures() -> None:
    g = generate(4, seed=2)
    svg = g.solution.svg()
    assert svg.count('font-weight="bold"') == g.puzzle.givens
    assert svg.count("<text") == 16
    assert g.solution._repr_svg_() == svg


@pytest.mark.parametrize("size", [4, 9])
def test_the_plain_answers_are_each_puzzles_own(size: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A file whose every line is solved and unique (printed as the engine
    # joined it), and the same with a blank line and one of no solution
    # (printed line by line): each answer is the puzzle's own.
    puzzles = [generate(size, seed=s).puzzle.line() for s in range(6)]
    no_solution = "12345678." + "." * 8 + "9" + "." * 63 if size == 9 else "12.." + "...3" + "." * 8
    for lines in (puzzles, puzzles[:3] + [""] + [no_solution] + puzzles[3:]):
        f = tmp_path / "p.txt"
        f.write_text("".join(line + "\n" for line in lines))
        for verb in ("solve", "unique"):
            assert main(["sudoku", verb, "--threads", "1", str(f)]) == 0
            expected = []
            for line in lines:
                if not line:
                    expected.append("")
                    continue
                p = Sudoku.parse(line)
                solution = p.solve()
                if verb == "solve":
                    expected.append(solution.line() if solution else "no solution")
                elif solution is None:
                    expected.append("none")
                else:
                    expected += [solution.line(), p.uniqueness().name.lower()]
            assert capsys.readouterr().out.splitlines() == expected, (verb, lines)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = random_grid(9, seed=21).line()
    puzzle = generate(9, seed=4).puzzle.line()
    f = tmp_path / "puzzles.txt"
    f.write_text(f"{puzzle}\n{'.' * 81}\nnot a sudoku\n{grid[:-1]}.\n")
    assert main(["sudoku", "unique", str(f)]) == 2
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 7 and [lines[1], lines[3], lines[4], lines[6]] == ["unique", "multiple", "error", "unique"]
    assert lines[5] == grid and obeys_the_rules(Sudoku.parse(lines[0]), Sudoku.parse(puzzle))
    assert obeys_the_rules(Sudoku.parse(lines[2]), Sudoku.parse("." * 81))
    assert err.splitlines() == [f"covering: error: {f}:3: r1c1: bad character 'n'"]
    assert main(["sudoku", "count", "--limit", "7", str(f)]) == 2
    assert capsys.readouterr().out.splitlines() == ["1", "7", "error", "1"]
    g = tmp_path / "grid.txt"
    g.write_text(". 1 | . 4\n. . | . 3\n----+----\n4 . | . .\n. . | . .\n")
    assert main(["sudoku", "solve", "--grid", str(g)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "3 1 | 2 4"
    k = tmp_path / "kanji.txt"
    k.write_text(Sudoku.parse(puzzle).line().translate(str.maketrans("123456789", KANJI)) + "\n")
    assert main(["sudoku", "solve", "--symbols", KANJI, str(k)]) == 0
    assert set(capsys.readouterr().out.strip()) == set(KANJI)
    assert main(["sudoku", "generate", "--limit", "2", "--seed", "5", "--size", "4"]) == 0
    out, err = capsys.readouterr()
    assert len(out.split()) == 2 and "givens" in err and "difficulty" in err
    assert all(Sudoku.parse(x).uniqueness() is Uniqueness.UNIQUE for x in out.split())
    assert main(["sudoku", "generate", "--size", "5"]) == 2
