"""The Akari generator: every puzzle has exactly one solution (checked by
the CDCL solver, which knows nothing of the generator's deductions), is
solved at the difficulty asked, keeps only numbers those deductions need,
has the symmetry asked, and comes out the same for the same seed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from covering import Uniqueness
from covering.puzzles import akari
from covering.puzzles.akari import DIFFICULTIES, Akari, difficulty, generate

LEVEL = {name: k for k, name in enumerate(DIFFICULTIES)}


@pytest.mark.parametrize("asked", DIFFICULTIES)
def test_generated_puzzles_are_unique_and_solved_at_their_level(asked: str) -> None:
    sizes = [(10, 10), (12, 20), (25, 25)] if asked != "hard" else [(10, 10), (12, 14)]
    for k, (rows, cols) in enumerate(sizes):
        for seed in range(3):
            g = generate(rows, cols, seed=100 * k + seed, difficulty=asked)
            p = g.puzzle
            assert (p.height, p.width) == (rows, cols)
            # The independent check: the clause encoding of the rules, by CaDiCaL.
            assert p.problem().uniqueness(engine="sat") is Uniqueness.UNIQUE
            assert LEVEL[g.difficulty] <= LEVEL[asked] and difficulty(p) == g.difficulty
            lights, u = p.solve_unique()
            assert u is Uniqueness.UNIQUE and lights is not None and akari.check(p, lights) == []


@pytest.mark.parametrize("rows, cols, seed, asked", [(12, 12, 0, "medium"), (12, 12, 1, "medium"),
                                                   (12, 12, 2, "medium"), (40, 40, 3, "medium"),
                                                   (36, 30, 4, "easy"), (30, 30, 5, "hard")])
def test_every_number_kept_is_needed(rows: int, cols: int, seed: int, asked: str) -> None:
    # On the bigger boards the generator judges most numbers by a window
    # around them (and a regrade of a batch); here each is judged alone, on
    # the whole grid.
    g = generate(rows, cols, seed=seed, difficulty=asked)
    grid = [list(r) for r in g.puzzle.rows]
    numbers = 0
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch.isdigit():
                numbers += 1
                row[c] = "#"
                hidden = difficulty(Akari(tuple("".join(x) for x in grid)))
                assert hidden is None or LEVEL[hidden] > LEVEL[asked], (seed, r, c)
                row[c] = ch
    assert numbers > 0


def test_same_seed_same_puzzle_and_symmetry() -> None:
    assert generate(15, 15, seed=7) == generate(15, 15, seed=7)
    assert generate(15, 15, seed=7).puzzle != generate(15, 15, seed=8).puzzle
    for symmetry in ("rotate", "mirror"):
        p = generate(14, 17, seed=3, symmetry=symmetry).puzzle
        black = [[ch != "." for ch in row] for row in p.rows]
        for r in range(14):
            for c in range(17):
                mate = (13 - r, 16 - c) if symmetry == "rotate" else (r, 16 - c)
                assert black[r][c] == black[mate[0]][mate[1]]


def test_black_share_is_nikoli_like() -> None:
    shares = []
    for seed in range(8):
        p = generate(20, 20, seed=seed).puzzle
        shares.append(sum(ch != "." for row in p.rows for ch in row) / 400)
    assert sum(shares) / len(shares) <= 0.30


def test_bad_requests_are_clear_errors() -> None:
    for kwargs in ({"rows": 0, "cols": 5}, {"rows": 5, "cols": 5, "black": 1.5},
                   {"rows": 5, "cols": 5, "black": float("nan")}, {"rows": 5, "cols": 5, "difficulty": "fiendish"},
                   {"rows": 5, "cols": 5, "symmetry": "diagonal"}, {"rows": 10**9, "cols": 10**9}):
        with pytest.raises(ValueError):
            generate(**kwargs)


def covering(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "covering", *args], input=stdin, capture_output=True, text=True)


def test_the_command_line_pipes_into_solve() -> None:
    made = covering("akari", "generate", "--rows", "12", "--cols", "15", "--limit", "4", "--seed", "9")
    assert made.returncode == 0 and made.stderr.count("difficulty") == 4
    again = covering("akari", "generate", "--rows", "12", "--cols", "15", "--limit", "4", "--seed", "9")
    assert again.stdout == made.stdout
    solved = covering("akari", "unique", stdin=made.stdout)
    assert solved.returncode == 0 and "multiple" not in solved.stdout and "no solution" not in solved.stdout
    assert solved.stdout.count("*") > 0 and len(solved.stdout.split("\n\n")) == 4
    assert solved.stdout.count("unique\n") == 4
    made = covering("akari", "generate", "--rows", "8", "--cols", "9", "--limit", "2", "--seed", "1", "--json", "--difficulty", "easy", "--layout", "rotate")
    *records, summary = [json.loads(line) for line in made.stdout.splitlines()]
    assert (summary["command"], summary["count"], summary["complete"]) == ("akari generate", 2, True)
    assert [r["puzzle"] for r in records] == [1, 2] and all(r["difficulty"] == "easy" for r in records)
    assert generate(8, 9, seed=records[0]["seed"], difficulty="easy", symmetry="rotate").puzzle.rows == \
        tuple(records[0]["grid"])
    for bad in (["--rows", "0", "--cols", "5"], ["--rows", "5", "--cols", "5", "--black", "1.5"],
                ["--rows", "5", "--cols", "5", "--black", "nan"], ["--rows", "99999", "--cols", "99999"]):
        r = covering("akari", "generate", *bad)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
