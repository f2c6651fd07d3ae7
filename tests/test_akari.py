"""Akari: solutions checked by the rules (not the encoding), counts against
brute force over every set of lights, the seed's boards, puzz.link URLs,
errors, and the command line."""

from __future__ import annotations

import itertools
import subprocess
import sys
from typing import Any

import pytest
from long import examples
from covering.puzzles.akari import SEED_7X7, SEED_18X10, Akari, AkariError, check, random_puzzle, read_puzzles
from hypothesis import given, settings
from hypothesis import strategies as st

from covering import Uniqueness

# The solution drawn in seed 002 under its 18x10 board.
SEED_18X10_SOLUTION = """\
┌──────────────────┐
│+○++■○+■+○■++++++○│
│○2+○1+++++++○1+■0+│
│+■+++0++++○+1++○++│
│++○+++++0++0++○++0│
│+++1○+++++1+○++0++│
│++0+++○1++○+++1+○+│
│0++○++1++0++++○+++│
│+○+++1+○++++1○++1○│
│+10+■○+++++++■++0+│
│○++++++■○+1○+0+○++│
└──────────────────┘
"""

# Wikipedia's 7x7 example (FORMAT.md's ysrken_7x7 is SEED_7X7).
WIKIPEDIA_8X8 = """\
.....1..
.3#.....
......0.
#...#...
...4...0
.2......
.....1#.
..#.....
"""


def brute_force(a: Akari) -> list[frozenset[tuple[int, int]]]:
    """Every set of lights that passes the rules, by trying them all."""
    whites = [(r, c) for r, row in enumerate(a.rows) for c, ch in enumerate(row) if ch == "."]
    found = []
    for k in range(len(whites) + 1):
        for lights in itertools.combinations(whites, k):
            if not check(a, lights):
                found.append(frozenset(lights))
    return found


@st.composite
def grids(draw: st.DrawFn, max_side: int = 5) -> Akari:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = draw(st.lists(st.sampled_from("......##01234"), min_size=rows * cols, max_size=rows * cols))
    return Akari(tuple("".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)))


def test_the_seed_boards() -> None:
    for text in (SEED_7X7, SEED_18X10, WIKIPEDIA_8X8):
        a = Akari.parse(text)
        lights = a.solve()
        assert lights is not None and check(a, lights) == []
        assert a.uniqueness() is Uniqueness.UNIQUE
    big = Akari.parse(SEED_18X10)
    assert big.draw(big.solve()) == SEED_18X10_SOLUTION


@settings(max_examples=examples(400), deadline=None)
@given(grids())
def test_counts_and_solutions_match_brute_force(a: Akari) -> None:
    if sum(row.count(".") for row in a.rows) > 12:
        return  # brute force would take too long
    expected = sorted(sorted(s) for s in brute_force(a))
    got = sorted(sorted(s) for s in a.solutions())
    assert got == expected
    assert a.count() == len(expected)
    assert a.count(3) == min(3, len(expected))  # by restarts, not one search
    assert a.uniqueness() is [Uniqueness.NONE, Uniqueness.UNIQUE, Uniqueness.MULTIPLE][min(len(expected), 2)]


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.floats(0.0, 0.6), st.integers(0, 2**32))
def test_random_puzzles_are_solvable(rows: int, cols: int, black: float, seed: int) -> None:
    a = random_puzzle(rows, cols, black=black, seed=seed)
    assert (a.height, a.width) == (rows, cols) and set("".join(a.rows)) <= set(".01234")
    if sum(row.count(".") for row in a.rows) <= 12:
        assert brute_force(a)
    lights = a.solve()
    assert lights is not None and a.check(lights) == []


def test_zero_one_and_several_solutions() -> None:
    assert Akari.parse(".3.").solve() is None and Akari.parse(".3.").uniqueness() is Uniqueness.NONE
    assert Akari.parse(".0.").count() == 0  # both cells dark: no light may go next to the 0
    assert Akari.parse(".2.").count() == 1
    # Each row needs its own light (one light cannot light a whole row from the
    # other), in different columns: 3 x 2.
    assert Akari.parse("...\n...").count() == 6
    assert Akari.parse("#0#").count() == 1 and Akari.parse("#1#").count() == 0  # no white cell at all
    assert Akari.parse("..\n..").uniqueness() is Uniqueness.MULTIPLE


def test_the_named_problem_is_the_same_encoding() -> None:
    a = Akari.parse(SEED_7X7)
    p = a.problem()
    assert p.count() == a.count() == 1
    (labels,) = list(p.solutions())
    assert frozenset(labels) == a.solve()


@settings(max_examples=examples(500), deadline=None)
@given(grids(max_side=9))
def test_url_round_trip(a: Akari) -> None:
    url = a.url()
    assert Akari.from_url(url) == a
    assert Akari.parse(url.replace("puzz.link/p?lightup", "pzv.jp/p.html?akari")) == a


def test_the_url_of_format_md() -> None:
    a = Akari.parse("https://puzz.link/p?lightup/7/7/n2.h.hb.n7.h.jeg.m")
    assert a == Akari.parse(SEED_7X7)
    assert a.url() == "https://puzz.link/p?lightup/7/7/n2.h.hb.n7.h.jeg.m"


def test_game_ids() -> None:
    # Simon Tatham's format: runs of white cells as letters, B black.
    assert Akari.from_game_id("7x7:b0Bp2Bb0b1Bp2Bb").rows[0] == "..0#..."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("..\n.x", "row 2, column 2: 'x' is not a cell"),
        ("..\n...", "row 2: 3 cells where row 1 has 2"),
        ("", "empty"),
        ("https://puzz.link/p?lightup/2/2/zz", "goes on after the last cell"),
        ("https://puzz.link/p?lightup/2/2/G", "not a puzz.link Akari URL"),
        ("https://puzz.link/p?sudoku/2/2/g", "not a puzz.link Akari URL"),
    ],
)
def test_errors_name_the_place(text: str, message: str) -> None:
    with pytest.raises(AkariError, match=message) as e:
        Akari.parse(text)
    assert isinstance(e.value, ValueError)


def test_files_name_the_line() -> None:
    text = ".1\n..\n\n; a comment\n..\n.5\n"
    with pytest.raises(AkariError, match="line 6, column 2: '5'"):
        list(read_puzzles(text))


def test_pictures() -> None:
    a = Akari.parse(SEED_7X7)
    lights = a.solve()
    assert lights is not None and a.check(lights) == []
    svg = a.svg(lights)
    assert svg.startswith("<svg") and svg.count("<circle") == len(lights)
    assert a.solution_text(lights).count("*") == len(lights)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "covering", "akari", *args], input=stdin, capture_output=True, text=True)


def test_cli() -> None:
    url = Akari.parse(SEED_7X7).url()
    r = run("unique", stdin=SEED_7X7 + "\n" + url + "\n\n..\n..\n\n.3.\n")
    assert r.returncode == 0, r.stderr
    blocks = r.stdout.split("\n\n")
    solved = Akari.parse(SEED_7X7).solution_text(Akari.parse(SEED_7X7).solve() or ())
    assert blocks[0] == blocks[1] == solved + "unique"
    assert blocks[2].endswith("multiple") and blocks[3] == "none\n"  # (`unique` says "none" alone)
    assert run("count", stdin=SEED_18X10 + "\n..\n..\n").stdout == "1\n2\n"
    assert run("solve", "--url", stdin=SEED_7X7).stdout == url + "\n"
    assert run("solve", "--draw", stdin=SEED_18X10).stdout == SEED_18X10_SOLUTION
    bad = run("solve", stdin="..\n.x\n")
    assert bad.returncode == 2 and "<stdin>:2:2: " in bad.stderr and bad.stderr.count("\n") == 1


def test_the_batch_verbs_answer_as_the_single_ones() -> None:
    # One call into the engine for the batch (its first stage), heavy
    # puzzles through their own portfolio: the same answers, the same
    # solution shown, on any number of threads. Random grids (mostly none),
    # random puzzles (unique and several), and a big sparse board.
    import random

    from covering.puzzles import akari as akari_module

    rng = random.Random(11)
    puzzles = []
    for k in range(160):
        r, c = rng.randint(1, 10), rng.randint(1, 10)
        puzzles.append(Akari.parse("\n".join("".join(rng.choice(".......#01234") for _ in range(c))
                                             for _ in range(r))))
    for k in range(60):
        puzzles.append(akari_module.random_puzzle(rng.randint(2, 25), rng.randint(2, 25),
                                                  black=rng.choice([0.0, 0.08, 0.3]), seed=k))
    puzzles.append(akari_module.random_puzzle(100, 100, black=0.08, seed=1))  # past the first stage
    single = [p.solve_unique() for p in puzzles]
    kinds = {u for _, u in single}
    assert kinds == {Uniqueness.NONE, Uniqueness.UNIQUE, Uniqueness.MULTIPLE}
    for threads in (1, 2):
        assert Akari.solve_unique_each(puzzles, threads=threads) == single
    assert Akari.solve_each(puzzles) == [p.solve() for p in puzzles]
    for (lights, u), p in zip(single, puzzles):
        assert lights is None or p.check(lights) == []


def test_heavy_puzzles_go_on_from_where_the_batch_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # With a first stage of 40 nodes most puzzles leave the batch heavy,
    # some with a solution found: their portfolios go on from the batch's
    # runs (none searched twice) and answer as the single calls, which
    # search the same 40 nodes themselves.
    import random

    from covering import restart
    from covering.puzzles import akari as akari_module

    monkeypatch.setattr(akari_module, "PORTFOLIO_NODES", 40)
    rng = random.Random(12)
    puzzles = [akari_module.random_puzzle(rng.randint(4, 30), rng.randint(4, 30),
                                          black=rng.choice([0.0, 0.08, 0.3]), seed=k) for k in range(60)]
    single = [p.solve_unique() for p in puzzles]
    resumed: list[int] = []
    original = restart.Restarts.resumed

    def counted(stage: Any, *, plain_first: bool = False) -> restart.Restarts:
        r = original(stage, plain_first=plain_first)
        resumed.append(len(r.pending))
        return r

    monkeypatch.setattr(restart.Restarts, "resumed", staticmethod(counted))
    assert Akari.solve_unique_each(puzzles) == single
    assert len(resumed) >= 10 and any(resumed), resumed
    assert {u for _, u in single} >= {Uniqueness.UNIQUE, Uniqueness.MULTIPLE}
