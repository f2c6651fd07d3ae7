"""The search's branching rules (`covering.solver.BRANCHINGS`: the fewest
options, Knuth's learning rules "wtd" and "frb", binary branching) change
the tree, never the answer: every rule against brute force on random XC, XCC and MCC
problems (counts, solution sets, uniqueness, option ids after the
reduction), on threads, and through the command line."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from long import examples

from covering import Problem
from covering.cli import main
from covering.puzzles.polyomino import PENTOMINOES, Board, tiling
from covering.puzzles.queens import queens_problem
from covering.reference import definition
from covering.solver import BRANCHINGS, search_engine
from covering.uniqueness import Uniqueness

from test_reduce import random_xc
from test_reference import problems

RULES = ("wtd", "frb", "binary")


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10), st.sampled_from(BRANCHINGS))
def test_every_rule_finds_exactly_the_solutions(p: Problem, branching: str) -> None:
    expected = sorted(definition.brute_force(p))
    assert sorted(p.solutions(ids=True, branching=branching)) == expected
    assert p.count(method="search", branching=branching, threads=1) == len(expected)
    assert p.uniqueness(branching=branching) == Uniqueness.of(min(len(expected), 2))
    first = p.first(ids=True, branching=branching)
    assert (first is None) == (not expected) and (first is None or first in expected)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10), st.sampled_from(RULES), st.integers(0, 2**32))
def test_every_rule_in_a_random_order(p: Problem, branching: str, seed: int) -> None:
    expected = sorted(definition.brute_force(p))
    got = sorted(p.solver(order="random", seed=seed, branching=branching).solutions(ids=True))
    assert got == expected


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10), st.sampled_from(RULES))
def test_every_rule_on_the_reduced_problem_maps_back(p: Problem, branching: str) -> None:
    r = p.reduce()
    got = sorted(r.original(s) for s in r.problem.solutions(ids=True, branching=branching))
    assert got == sorted(definition.brute_force(p))


def test_moderate_problems_agree_across_rules_and_threads() -> None:
    # Past brute force: the rules against each other and against the count
    # by the default; the learning rules learn on these (many failed tries).
    rng = random.Random(41)
    for _ in range(30):
        p = random_xc(rng, rng.randint(8, 16), rng.randint(0, 4), rng.randint(20, 60))
        counts = {b: p.count(method="search", branching=b, threads=1) for b in BRANCHINGS}
        assert len(set(counts.values())) == 1, counts
        assert p.count(method="search", branching="wtd", threads=2) == counts["mrv"]
        sets = {b: sorted(p.solutions(ids=True, branching=b)) for b in BRANCHINGS}
        assert sets["wtd"] == sets["mrv"] == sets["frb"] == sets["binary"]


def add_slack_items(rng: random.Random, p: Problem, n: int) -> None:
    """Primary items i0 .. i(n-1) of random bounds lo:hi, lo 0 to 2, hi up to lo + 2."""
    for i in range(n):
        lo = rng.randint(0, 2)
        p.add_primary([f"i{i}"], bounds=(lo, max(1, lo + rng.randint(0, 2))))


def test_multiplicities_with_slack_agree_across_rules() -> None:
    # Algorithm M, items taken between lo and hi times: the learning rules
    # make every try check its bounds (as SSMCC does).
    rng = random.Random(5)
    for _ in range(40):
        p = Problem()
        n = rng.randint(3, 7)
        add_slack_items(rng, p, n)
        for _ in range(rng.randint(4, 14)):
            p.add_option([f"i{j}" for j in rng.sample(range(n), rng.randint(1, 3))])
        expected = sorted(definition.brute_force(p))
        for b in BRANCHINGS:
            assert sorted(p.solutions(ids=True, branching=b)) == expected, b


def queen_domination(n: int, k: int) -> Problem:
    """After Knuth's QUEENDOM-DLX: k queens on an n x n board that attack
    (or stand on) every square; each square 1:k, and "Q", in every option,
    exactly k."""
    p = Problem()
    p.add_primary([f"{r},{c}" for r in range(n) for c in range(n)], bounds=(1, k))
    p.add_primary(["Q"], bounds=(k, k))
    for r in range(n):
        for c in range(n):
            seen = [f"{y},{x}" for y in range(n) for x in range(n)
                    if y == r or x == c or abs(y - r) == abs(x - c)]
            p.add_option(["Q"] + seen)
    return p


def dominating(n: int, k: int) -> int:
    """Sets of k squares of an n x n board whose queens see every square, by brute force."""
    squares = [(r, c) for r in range(n) for c in range(n)]
    def sees(q: tuple[int, int], s: tuple[int, int]) -> bool:
        return q[0] == s[0] or q[1] == s[1] or abs(q[0] - s[0]) == abs(q[1] - s[1])
    return sum(all(any(sees(q, s) for q in qs) for s in squares) for qs in itertools.combinations(squares, k))


def test_an_item_in_every_option_ends_the_search_when_full() -> None:
    # When "Q" is full no option is left: the search reads the answer from
    # the bounds. Queen dominations against brute force (5 x 5 and 6 x 6,
    # 3 queens), and 8 x 8 with 5 queens, 4,860 (Knuth's QUEENDOM-DLX with
    # his SSMCC), by every rule; then random problems with such an item,
    # its bounds and the others' with slack, against brute force.
    for n, k in ((5, 3), (6, 3), (4, 2)):
        known = dominating(n, k)
        for b in BRANCHINGS:
            assert queen_domination(n, k).count(method="search", branching=b, threads=1) == known, (n, k, b)
    assert queen_domination(8, 5).count(method="search", threads=1) == 4860
    rng = random.Random(17)
    for _ in range(60):
        p = Problem()
        n = rng.randint(3, 6)
        add_slack_items(rng, p, n)
        lo = rng.randint(0, 3)
        p.add_primary(["K"], bounds=(lo, max(1, lo + rng.randint(0, 1))))
        for _ in range(rng.randint(4, 12)):
            p.add_option(["K"] + [f"i{j}" for j in rng.sample(range(n), rng.randint(0, 3))])
        expected = sorted(definition.brute_force(p))
        for b in BRANCHINGS:
            assert sorted(p.solutions(ids=True, branching=b)) == expected, b
            assert p.count(method="search", branching=b, threads=1) == len(expected), b


def test_known_counts_by_every_rule() -> None:
    # Known: 92 solutions of 8 queens, 2339 pentomino tilings of 6 x 10 (x 4).
    pento = tiling(PENTOMINOES, Board.rectangle(6, 10))
    for b in BRANCHINGS:
        assert queens_problem(8).count(method="search", branching=b, threads=1) == 92
        assert pento.count(method="search", branching=b, threads=1) == 4 * 2339
        assert pento.count(branching=b, threads=1) == 4 * 2339


def test_the_solver_says_its_rule_and_engine() -> None:
    p = queens_problem(6)
    s = p.solver(branching="frb")
    assert (s.branching, s.engine, s.count()) == ("frb", "cells-frb", 4)
    assert p.solver().branching == "mrv"
    assert p.count(branching="wtd") == 4 and p.last_count.branching == "wtd"  # type: ignore[union-attr]


def test_rules_that_do_not_go_together_are_refused() -> None:
    p = queens_problem(5)
    with pytest.raises(ValueError, match="branching must be one of"):
        p.solver(branching="dom")
    with pytest.raises(ValueError, match="dancing cells"):
        p.solver(engine="bits", branching="wtd")
    with pytest.raises(ValueError, match="rule of the search"):
        p.count(method="memo", branching="wtd")
    with pytest.raises(ValueError, match="memo count"):
        p.count(method="search", branching="first")
    with pytest.raises(ValueError, match="frontier"):
        p.count(method="frontier", branching="frb")
    with pytest.raises(ValueError, match="sat"):
        p.solve_unique(engine="sat", branching="wtd")
    assert search_engine("cells", "mrv") == "cells"


def test_the_command_line_takes_every_rule(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "q.dlx"
    p = queens_problem(7)
    f.write_text(p.to_dlx())
    for b in RULES:
        assert main(["dlx", "count", str(f), "--branching", b, "--threads", "1", "--json", "--no-progress"]) == 0
        summary = json.loads(capsys.readouterr().out.splitlines()[-1])
        assert (summary["count"], summary["branching"], summary["method"]) == (40, b, "search")
        assert main(["dlx", "unique", str(f), "--branching", b, "--json"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert json.loads(lines[-1])["uniqueness"] == "multiple"
        assert definition.is_solution(p, json.loads(lines[0])["solution"])
        assert main(["dlx", "solve", str(f), "--all", "--branching", b, "--json"]) == 0
        assert json.loads(capsys.readouterr().out.splitlines()[-1])["count"] == 40
    for flags in (["count", "--branching", "wtd", "--method", "memo"], ["count", "--branching", "frb", "--engine",
                                                                         "bits"],
                  ["solve", "--branching", "wtd", "--engine", "sat"], ["count", "--branching", "first", "--method",
                                                                        "search"]):
        assert main(["dlx", flags[0], str(f), *flags[1:]]) == 2
        assert "cannot go together" in capsys.readouterr().err


@pytest.mark.parametrize("branching", BRANCHINGS)
def test_a_paused_search_leaves_exactly_the_rest_in_its_frontier(branching: str) -> None:
    # Stopped at node budgets along the way, each rule's frontier (the
    # branches not yet taken, as moves) holds exactly the solutions not yet
    # found; and its progress path is a path of "k of d".
    from covering.cluster import run_piece
    from covering.errors import LimitReached

    p = queens_problem(7)
    total = p.count(method="search", threads=1)
    for budget in (3, 10, 40, 100):
        s = p.solver(branching=branching)
        try:
            s.count(nodes=budget)
        except LimitReached as e:
            assert e.count is not None
            done = e.count
        else:
            continue
        assert all(1 <= k <= d for k, d in s.progress())
        rest = sum(run_piece(p.compile(), piece, None, 1)[0] for piece in s.frontier())
        assert done + rest == total, (budget, done, rest)
