"""The diagram of all the solutions (covering.zdd): the same solutions as the
definition on random problems with secondary items and colors, the known
counts, counts under constraints against filtered enumeration, and random
solutions that are uniform by a chi-square test."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from itertools import combinations

import pytest
from long import examples
from running import interrupt
from covering.puzzles.polyomino import DOMINOES, PENTOMINOES, Board, l_tromino, tiling
from covering.reference import definition
from covering.zdd import build_zdd
from hypothesis import given, settings
from hypothesis import strategies as st
from known import TROMINO_7X7
from test_memo import KASTELEYN
from test_reference import problems

from covering import LimitReached, Problem, ProblemError


@settings(max_examples=examples(600), deadline=None)
@given(problems(multiplicities=False, max_options=14), st.sampled_from(["mrv", "first"]), st.randoms())
def test_random_problems_against_the_definition(p: Problem, branching: str, rng: random.Random) -> None:
    expected = definition.brute_force(p)
    # A memo of no bytes builds evicted sub-problems again: more nodes, same solutions.
    for memo_bytes in (None, 0):
        z = p.to_zdd(branching=branching, memo_bytes=memo_bytes)
        got = list(z.solutions(ids=True))
        assert sorted(got) == expected and len(set(got)) == len(got)
        assert z.count() == len(expected)
        assert z.option_counts() == [sum(o in s for s in expected) for o in range(p.n_options)]
        include = rng.sample(range(p.n_options), min(2, p.n_options))[: rng.randint(0, 2)]
        exclude = rng.sample(range(p.n_options), rng.randint(0, min(2, p.n_options)))
        wanted = [s for s in expected if set(include) <= set(s) and not set(exclude) & set(s)]
        assert z.count(include=include, exclude=exclude) == len(wanted)
        drawn = z.random_solution(rng, ids=True)
        assert (drawn is None) == (not expected) and (drawn is None or drawn in expected)


def test_known_counts() -> None:
    for hole, expected in TROMINO_7X7.items():
        assert l_tromino(7, hole).to_zdd().count() == expected
    assert l_tromino(9).to_zdd(branching="first").count() == 1_193_600
    assert l_tromino(5, 1).to_zdd().count() == 0
    pentominoes = tiling(PENTOMINOES, Board.rectangle(6, 10)).to_zdd()
    assert pentominoes.count() == 9356
    # Each of the 12 pieces is in every tiling: its placements add up to all of them.
    counts = pentominoes.option_counts()
    labels = pentominoes.problem.labels
    for piece in PENTOMINOES:
        assert sum(c for c, (name, _) in zip(counts, labels) if name == piece) == 9356


@pytest.mark.parametrize("n", [8, 12])
def test_domino_boards_match_kasteleyn(n: int) -> None:
    z = tiling(DOMINOES, Board.rectangle(n, n), uses="any").to_zdd(branching="first")
    assert z.count() == KASTELEYN[n]
    assert len(z) < 200_000  # the point: far fewer nodes than solutions


def test_counts_under_constraints_match_filtered_enumeration() -> None:
    p = l_tromino(7, 0)
    z = p.to_zdd()
    every = list(p.solutions(ids=True))
    assert z.count() == len(every) == TROMINO_7X7[0]
    for a, b in combinations(range(0, p.n_options, 7), 2):
        both = sum(a in s and b in s for s in every)
        neither = sum(a not in s and b not in s for s in every)
        assert z.count(include=[a, b]) == both
        assert z.count(exclude=[a, b]) == neither
        assert z.count(include=[a], exclude=[a]) == 0


def test_random_solutions_are_uniform() -> None:
    p = l_tromino(6)
    z = p.to_zdd()
    n = z.count()
    assert n == 162
    rng = random.Random(2026)
    draws = 100 * n
    seen = Counter(z.random_solution(rng, ids=True) for _ in range(draws))
    assert set(seen) == set(p.solutions(ids=True))  # every tiling drawn, and only tilings
    # Pearson's chi-square with 161 degrees of freedom: its 0.999 quantile is about 222.
    chi2 = sum((k - 100) ** 2 / 100 for k in seen.values())
    assert chi2 < 222, chi2


def test_an_empty_family_and_the_labels() -> None:
    z = l_tromino(5, 1).to_zdd()
    assert (z.root, z.count(), list(z.solutions()), z.random_solution(1)) == (0, 0, [], None)
    p = Problem()
    p.add_primary(["A", "B"])
    p.add_option(["A"], label="a")
    p.add_option(["B"], label="b")
    z = p.to_zdd()
    assert list(z.solutions()) == [["a", "b"]] and z.random_solution() == ["a", "b"]
    assert repr(z) == "Zdd(2 nodes, 1 solutions)"


def test_limits_and_refusals() -> None:
    with pytest.raises(LimitReached):
        build_zdd(l_tromino(8, 0), memo_bytes=0, nodes=100)
    m = Problem()
    m.add_primary(["A"], bounds=(1, 2))
    m.add_option(["A"])
    with pytest.raises(ProblemError, match="multiplicities"):
        m.to_zdd()
    with pytest.raises(ValueError, match="branching"):
        l_tromino(4, 0).to_zdd(branching="best")


def test_cli_draws_a_random_tiling() -> None:
    run = [sys.executable, "-m", "covering", "tromino", "random", "9", "--no-color", "--seed"]
    outs = [subprocess.run(run + [seed], capture_output=True, text=True) for seed in ("7", "7", "8")]
    assert all(r.returncode == 0 for r in outs), outs
    assert outs[0].stdout == outs[1].stdout != outs[2].stdout
    for r in (outs[0], outs[2]):
        grid = r.stdout.splitlines()
        assert len(grid) == 9 and all(len(row) == 9 for row in grid)
        cells: dict[str, list[tuple[int, int]]] = {}
        for y, row in enumerate(grid):
            for x, tag in enumerate(row):
                cells.setdefault(tag, []).append((y, x))
        # 27 pieces, each three cells of a 2 x 2 square: an L-tromino.
        assert len(cells) == 27
        for where in cells.values():
            ys, xs = {y for y, _ in where}, {x for _, x in where}
            assert len(where) == 3 and max(ys) - min(ys) == 1 and max(xs) - min(xs) == 1
    r = subprocess.run(run + ["1", "--method", "search"], capture_output=True, text=True)
    assert r.returncode == 2 and "random and --method search" in r.stderr


def test_ctrl_c_while_the_diagram_is_built() -> None:
    # 42 x 42 takes far longer than a second: Ctrl-C lands mid-build.
    run = [sys.executable, "-m", "covering", "tromino", "random", "42", "--no-color", "--seed", "1"]
    proc = subprocess.Popen(run, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, 0.8)
    assert (proc.returncode, out, err) == (130, "", "covering: interrupted: 0 tilings so far\n")
