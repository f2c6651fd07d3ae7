"""Memo counting (covering.memo): the same counts as plain counting, on
random problems with secondary items and colors, on the known problems, and
on domino boards against an independent transfer-matrix count."""

from __future__ import annotations

import _thread
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from long import examples
from covering.puzzles.polyomino import DOMINOES, PENTOMINOES, Board, count_tilings, l_tromino, tiling
from covering.puzzles.queens import queens_problem
from hypothesis import given, settings
from known import TROMINO_7X7
from test_reference import problems

from covering import LimitReached, Problem, ProblemError
from covering.reference import dlx


def dominoes_by_transfer_matrix(rows: int, cols: int) -> int:
    """Domino tilings of a rows x cols board, cell by cell in row-major
    order: the state is the set of the next `cols` cells already filled
    (by vertical dominoes from above, or a horizontal one from the left)."""
    states = {0: 1}
    for cell in range(rows * cols):
        col = cell % cols
        nxt: dict[int, int] = {}
        for mask, ways in states.items():
            if mask & 1:  # filled from above or the left: move on
                options = [mask >> 1]
            else:
                options = []
                if cell + cols < rows * cols:  # a vertical domino down
                    options.append((mask >> 1) | (1 << (cols - 1)))
                if col + 1 < cols and not mask & 2:  # a horizontal one right
                    options.append((mask >> 1) | 1)
            for m in options:
                nxt[m] = nxt.get(m, 0) + ways
        states = nxt
    return states.get(0, 0)


def test_the_transfer_matrix_itself() -> None:
    # Small boards by hand: 2 x n dominoes are Fibonacci numbers; 8 x 8 is famous.
    assert [dominoes_by_transfer_matrix(2, n) for n in range(1, 8)] == [1, 2, 3, 5, 8, 13, 21]
    assert dominoes_by_transfer_matrix(3, 3) == 0
    assert dominoes_by_transfer_matrix(8, 8) == 12_988_816


@pytest.mark.parametrize(("rows", "cols"), [(2, 9), (3, 8), (4, 7), (5, 6), (6, 9), (7, 8), (9, 10), (11, 12)])
def test_domino_boards_match_the_transfer_matrix(rows: int, cols: int) -> None:
    assert count_tilings(DOMINOES, Board.rectangle(rows, cols), uses="any", memo=True) == (
        dominoes_by_transfer_matrix(rows, cols)
    )


# Kasteleyn's formula (1961), as quoted with the issue; 14 x 14 is past 2**64.
KASTELEYN = {8: 12_988_816, 10: 258_584_046_368, 12: 53_060_477_521_960_000, 14: 112_202_208_776_036_178_000_000}


@pytest.mark.parametrize("n", sorted(KASTELEYN))
def test_square_domino_boards_match_kasteleyn(n: int) -> None:
    board = Board.rectangle(n, n)
    assert count_tilings(DOMINOES, board, uses="any", memo=True) == KASTELEYN[n]
    # The other branching rule and a memo far too small give the same count.
    p = tiling(DOMINOES, board, uses="any")
    assert p.count(method="memo", branching="first") == KASTELEYN[n]
    if n <= 8:
        assert p.count(method="memo", memo_bytes=64 << 10) == KASTELEYN[n]


def test_known_problems() -> None:
    for hole, expected in TROMINO_7X7.items():
        assert l_tromino(7, hole).count(memo=True) == expected
    assert l_tromino(6).count(memo=True) == 162
    assert l_tromino(9).count(memo=True) == 1_193_600
    assert l_tromino(5, 1).count(memo=True) == 0
    assert queens_problem(10).count(memo=True) == 724
    assert tiling(PENTOMINOES, Board.rectangle(6, 10)).count(memo=True) == 9356
    assert tiling(PENTOMINOES, Board.rectangle(5, 12)).count(memo=True, memo_bytes=1 << 20) == 4040
    # Symmetry filtering puts secondary items in; the memo counts them as well.
    assert count_tilings(PENTOMINOES, Board.rectangle(6, 10), symmetry=True, memo=True) == 2339


@settings(max_examples=examples(1500), deadline=None)
@given(problems(multiplicities=False, max_options=14))
def test_random_problems_with_secondary_items_and_colors(p: Problem) -> None:
    expected = dlx.count(p)
    assert p.count(memo=True) == expected
    assert p.count(method="memo", memo_bytes=0, branching="first") == expected


def test_multiplicities_are_refused_clearly() -> None:
    p = Problem()
    p.add_primary(["A"], bounds=(1, 2))
    p.add_option(["A"])
    with pytest.raises(ProblemError, match="multiplicities"):
        p.count(memo=True)


def test_bad_arguments() -> None:
    p = l_tromino(4, 0)
    with pytest.raises(ValueError, match="limit"):
        p.count(1, memo=True)
    with pytest.raises(ValueError, match="memo_bytes is for memo counts"):
        p.count(memo_bytes=100, method="search")
    with pytest.raises(ValueError, match="branching"):
        p.count(method="memo", branching="best")
    with pytest.raises(ValueError, match="memo_bytes"):
        p.count(method="memo", memo_bytes=-1)


def test_a_budget_raises_with_the_solutions_so_far() -> None:
    p = l_tromino(8, 0)
    with pytest.raises(LimitReached) as e:
        p.count(method="memo", memo_bytes=0, nodes=500)
    assert e.value.count is not None and 0 <= e.value.count < 30355


def test_ctrl_c_stops_a_memo_count() -> None:
    p = queens_problem(20)  # queens share few sub-problems: a long count
    threading.Timer(0.5, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        p.count(method="memo", memo_bytes=1 << 20)


def test_cli(tmp_path: Path) -> None:
    f = tmp_path / "d.dlx"
    f.write_text(tiling(DOMINOES, Board.rectangle(12, 12), uses="any").to_dlx())
    count = [sys.executable, "-m", "covering", "dlx", "count", "--no-progress"]
    solve = [sys.executable, "-m", "covering", "dlx", "solve", "--no-progress", "--all"]
    r = subprocess.run(count + ["--memo", "--memo-bytes", "64M", str(f)], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, f"{KASTELEYN[12]}\n"), r.stderr
    r = subprocess.run(count + ["--method", "memo", "--threads", "2", str(f)], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, f"{KASTELEYN[12]}\n"), r.stderr
    for bad, message in ((solve + ["--memo"], "dlx solve: --memo is not a flag of this verb"),
                         (solve + ["--method", "memo"], "dlx solve: --method is not a flag of this verb"),
                         (count + ["--method", "search", "--memo-bytes", "1G"],
                          "--memo-bytes and --method search cannot go together")):
        r = subprocess.run(bad + [str(f)], capture_output=True, text=True)
        assert r.returncode == 2 and message in r.stderr, r.stderr
    m = tmp_path / "m.dlx"
    m.write_text("2:3|A\nA\nA\n")
    r = subprocess.run(count + ["--memo", str(m)], capture_output=True, text=True)
    assert r.returncode == 2 and "multiplicities" in r.stderr and r.stderr.count("\n") == 1, r.stderr
