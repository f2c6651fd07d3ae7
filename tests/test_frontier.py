"""Counting at the frontier (method="frontier"): the same counts as the
search, the memo and the definition on random problems with colors and
multiplicities; on boards, the same as counters written here independently
(a broken-profile counter for L-trominoes, Kasteleyn's formula for
dominoes); the default count takes it where the frontier is narrow; budgets
and Ctrl-C stop it without claiming a partial count."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from long import examples
from running import interrupt
from covering.puzzles.polyomino import DOMINOES, Board, l_tromino, tiling
from hypothesis import HealthCheck, given, settings
from test_reference import problems

from covering import LimitReached, Problem, counting
from covering.reference import definition


def frontier(p: Problem) -> int:
    return counting.count(p, method="frontier").count


@settings(max_examples=examples(800), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_random_problems_against_the_definition_and_the_search(p: Problem) -> None:
    n = frontier(p)
    assert n == len(definition.brute_force(p)) == p.count(method="search")


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(multiplicities=False, max_options=14))
def test_random_problems_against_the_memo(p: Problem) -> None:
    assert frontier(p) == p.count(method="memo")


def l_trominoes_by_profile(n: int, hole: int | None) -> int:
    """L-tromino tilings of an n x n board (less cell `hole`), cell by cell
    in row-major order; the state is the set of the next n + 2 cells
    already filled. An L-tromino whose first cell is the current one fills,
    relative to it, {0, 1, n}, {0, 1, n + 1}, {0, n, n + 1} or {0, n - 1, n}."""
    shapes = [((0, 0), (0, 1), (1, 0)), ((0, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1)), ((0, 0), (1, -1), (1, 0))]
    states = {0: 1}
    for cell in range(n * n):
        r, c = divmod(cell, n)
        nxt: dict[int, int] = {}
        for mask, ways in states.items():
            if mask & 1 or cell == hole:
                moves = [mask >> 1]
            else:
                moves = []
                for shape in shapes:
                    if all(0 <= r + dr < n and 0 <= c + dc < n for dr, dc in shape):
                        bits = sum(1 << (dr * n + dc) for dr, dc in shape)
                        if not mask & bits:
                            moves.append((mask | bits) >> 1)
            for m in moves:
                nxt[m] = nxt.get(m, 0) + ways
        states = nxt
    return states.get(0, 0)


def test_the_profile_counter_itself() -> None:
    # The seeds' table: 2 x 2 less a cell, 4 x 4 less a corner, 6 x 6, 9 x 9.
    assert l_trominoes_by_profile(2, 0) == 1
    assert l_trominoes_by_profile(4, 0) == 1
    assert l_trominoes_by_profile(6, None) == 162
    assert l_trominoes_by_profile(9, None) == 1193600


@pytest.mark.parametrize("n", range(2, 12))
def test_l_tromino_boards_against_the_profile_counter(n: int) -> None:
    hole = 0 if n % 3 else None
    assert frontier(l_tromino(n, hole)) == l_trominoes_by_profile(n, hole)
    if n % 3:
        # A hole elsewhere too: the middle cell.
        mid = (n // 2) * n + n // 2
        assert frontier(l_tromino(n, mid)) == l_trominoes_by_profile(n, mid)


def dominoes_by_kasteleyn(m: int, n: int) -> int:
    """Kasteleyn's formula for the domino tilings of an m x n board."""
    product = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            product *= 4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
    return round(product) if m * n % 2 == 0 else 0


@pytest.mark.parametrize(("m", "n"), [(2, 9), (3, 8), (4, 7), (5, 6), (6, 9), (7, 8), (8, 8), (9, 10), (5, 19)])
def test_domino_boards_against_kasteleyn(m: int, n: int) -> None:
    assert frontier(tiling(DOMINOES, Board.rectangle(m, n), uses="any")) == dominoes_by_kasteleyn(m, n)


def test_counts_past_128_bits_stay_exact() -> None:
    # Dominoes on 20 x 20: about 10^50 tilings, past 2^128 (3.4e38) on the
    # way; Kasteleyn's product in floating point agrees to its precision.
    board = tiling(DOMINOES, Board.rectangle(20, 20), uses="any")
    big = frontier(board)
    assert big > 2**128 and abs(big / dominoes_by_kasteleyn(20, 20) - 1) < 1e-9
    # and to the last digit against the engine's determinant (exact, by
    # primes); the binary step's tables turned at every step on the way.
    assert big == counting.count(board, method="kasteleyn").count
    # Exact to the last digit: the profile counter agrees at 13 x 13 (past 2^48).
    assert frontier(l_tromino(13, 0)) == l_trominoes_by_profile(13, 0)


def test_the_default_count_takes_a_narrow_frontier() -> None:
    c = counting.count(l_tromino(12))
    assert (c.method, c.count) == ("frontier", l_trominoes_by_profile(12, None))
    # Queens and pentominoes have wide frontiers: the probe decides as before.
    from covering.puzzles.queens import queens_problem

    assert counting.count(queens_problem(8)).method == "search"


def test_a_node_budget_stops_it_without_a_partial_count() -> None:
    with pytest.raises(LimitReached) as e:
        counting.count(l_tromino(30, 0), method="frontier", nodes=10_000)
    assert e.value.count is None and e.value.where is not None and "item" in e.value.where


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A board whose frontier count takes minutes."""
    f = tmp_path_factory.mktemp("frontier") / "tromino40.dlx"
    f.write_text(l_tromino(40, 0).to_dlx())
    return f


def test_seconds_stop_it_with_exit_3(wide: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "covering", "dlx", "count", "--method", "frontier", "--json", "--seconds", "2", str(wide)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 3, r.stderr
    summary = json.loads(r.stdout.splitlines()[-1])
    assert summary["count"] is None and summary["stopped"] == "budget"
    line, = r.stderr.splitlines()
    assert line.startswith("covering: budget: --seconds 2 spent: at item ") and "no partial count" in line


def test_ctrl_c_stops_it_within_a_second(wide: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "covering", "dlx", "count", "--method", "frontier", "--no-progress", str(wide)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, 1.0)
    assert proc.returncode == 130 and out == "", err
    assert "of the frontier count (no partial count)" in err and "Traceback" not in err
