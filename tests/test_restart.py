"""Randomized restarts: whatever the budgets, the solutions found are real,
distinct, and all of them when no limit stops the stream."""

from __future__ import annotations

import pytest
from long import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_reference import problems

from covering import LimitReached, Problem, limits, restart
from covering.puzzles.akari import check, random_puzzle
from covering.puzzles.polyomino import PENTOMINOES, Board, tiling
from covering.reference import definition


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=12), st.integers(1, 40), st.one_of(st.none(), st.integers(0, 4)))
def test_restarts_find_every_solution_once(p: Problem, budget: int, limit: int | None) -> None:
    expected = set(definition.brute_force(p))
    got = list(restart.solutions(p.compile(), limit, first_nodes=budget))
    assert len(got) == len(set(got))
    assert set(got) <= expected
    assert len(got) == (len(expected) if limit is None else min(limit, len(expected)))


def test_the_last_run_forgets_nothing_past_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # Five items taken 0 or 1 times, an option each: every subset is a solution.
    p = Problem()
    for i in range(5):
        p.add_primary([f"x{i}"], bounds=(0, 1))
        p.add_option([f"x{i}"])
    monkeypatch.setattr(restart, "KEEP", 3)
    got = list(restart.solutions(p.compile(), first_nodes=2))
    assert len(got) == len(set(got)) == 2**5


def test_time_running_out_says_how_many_were_found() -> None:
    p = tiling(PENTOMINOES, Board.rectangle(6, 10))
    found = 0
    with pytest.raises(LimitReached) as e:
        for _ in restart.solutions(p.compile(), seconds=0.05):
            found += 1
    assert e.value.count == found < 9356


@pytest.mark.parametrize("seed", range(3))
def test_big_sparse_akari_boards_get_two_checked_solutions(seed: int) -> None:
    board = random_puzzle(60, 60, seed=seed)
    found = list(board.solutions(2))
    assert len(found) == 2 and found[0] != found[1]
    assert all(not check(board, lights) for lights in found)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=12), st.integers(1, 40), st.lists(st.integers(1, 60), min_size=1, max_size=5))
def test_restarts_taken_up_in_turns_find_each_solution_once(p: Problem, first: int, turns: list[int]) -> None:
    # The portfolio's turns: each call goes on where the last stopped, its
    # node budget a total over every call, and never yields a solution twice.
    expected = set(definition.brute_force(p))
    stage = restart.Restarts(p.compile(), first_nodes=first)
    got: list[tuple[int, ...]] = []
    total = 0
    ended = False
    for more in turns:
        total += more
        try:
            got += stage(None, limits.begin(None, total))
            ended = True
            break
        except LimitReached:
            assert stage.nodes() <= total + 1  # (a run may pass its budget by the node it stops on)
    assert len(got) == len(set(got)) and set(got) <= expected
    if ended:
        assert set(got) == expected


def test_a_second_turn_searches_only_its_own_nodes() -> None:
    # Pentominoes on 6 x 10 (9,356 tilings, each four times over), in one run
    # with room for both turns: the second call takes up that run, so it
    # spends only the nodes it adds, and yields none of the first's again.
    stage = restart.Restarts(tiling(PENTOMINOES, Board.rectangle(6, 10)).compile(), first_nodes=10**6)
    got: list[tuple[int, ...]] = []
    for total in (3000, 6000):
        with pytest.raises(LimitReached):
            for ids in stage(None, limits.begin(None, total)):
                got.append(ids)
        assert total <= stage.nodes() <= total + 1 and stage.run == 0
    assert got and len(got) == len(set(got))
