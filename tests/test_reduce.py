"""The reduction (Knuth's DLX-PRE) keeps every solution, option for option:
checked against brute force on random XC, XCC and MCC problems, with and
without a work budget, and on problems where it must take things out."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from long import examples

from covering import Problem
from covering.reference import definition

from test_reference import problems


def mapped(p: Problem, work: int | None = None) -> tuple[list[tuple[int, ...]], object]:
    r = p.reduce(work=work)
    return sorted(r.original(s) for s in definition.brute_force(r.problem)), r


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10), st.one_of(st.none(), st.integers(0, 200)))
def test_the_reduced_problem_has_the_same_solutions(p: Problem, work: int | None) -> None:
    expected = sorted(definition.brute_force(p))
    got, r = mapped(p, work)
    assert got == expected
    # And the engine's count of the reduced problem is the count.
    assert r.problem.count() == len(expected)  # type: ignore[attr-defined]
    if r.infeasible is not None:  # type: ignore[attr-defined]
        assert expected == []


def random_xc(rng: random.Random, n1: int, n2: int, m: int) -> Problem:
    p = Problem()
    p.add_primary([f"p{i}" for i in range(n1)])
    p.add_secondary([f"s{i}" for i in range(n2)])
    colors = ["red", "blue"]
    for _ in range(m):
        items = rng.sample(range(n1), rng.randint(1, 3))
        entries = [f"p{i}" for i in items]
        for j in rng.sample(range(n2), rng.randint(0, min(2, n2))):
            entries.append(f"s{j}" + (f":{rng.choice(colors)}" if rng.random() < 0.5 else ""))
        rng.shuffle(entries)
        p.add_option(entries)
    return p


def test_random_problems_of_moderate_size_keep_their_counts_and_shrink() -> None:
    # Larger than brute force reaches: the count by the search, before and
    # after; and the reduction takes something out of most of them.
    rng = random.Random(11)
    shrank = 0
    for _ in range(60):
        p = random_xc(rng, rng.randint(6, 14), rng.randint(0, 4), rng.randint(10, 40))
        r = p.reduce()
        assert r.problem.count(method="search") == p.count(method="search")
        firsts = {r.original(s) for s in r.problem.solutions(ids=True)}
        assert firsts == set(p.solutions(ids=True))
        shrank += r.removed_options > 0
    assert shrank > 20


def test_a_forced_option_takes_its_items_with_it() -> None:
    # B has one option, "A B x": A and x are covered with B; "A C" and
    # "C x" go, and with them nothing is left for C: no solution.
    p = Problem()
    p.add_primary(["A", "B", "C"])
    p.add_secondary(["x"])
    for items in (["A", "B", "x"], ["A", "C"], ["C", "x"]):
        p.add_option(items)
    r = p.reduce()
    assert r.infeasible == "C" and r.problem.count() == 0 and p.count() == 0


def test_costs_and_labels_follow_the_options() -> None:
    p = Problem()
    p.add_primary(["A", "B"])
    p.add_secondary(["x", "y"])
    p.add_option(["A", "x"], cost=3, label="ax")
    p.add_option(["B"], cost=1, label="b")
    p.add_option(["B", "x", "y"], cost=0, label="bxy")  # rules out both options of A: goes
    p.add_option(["A", "y"], cost=5, label="ay")
    r = p.reduce()
    assert r.removed_options == 1
    assert r.problem.labels == ["ax", "b", "ay"]
    assert r.problem.costs == [3, 1, 5]
    best = r.problem.best(1)[0]
    assert (best.cost, r.original(best.ids)) == (4, (0, 1))


def test_the_command_line_reduces_on_request_and_prints_the_options_read() -> None:
    import json
    import subprocess
    import sys

    from covering.puzzles.polyomino import PENTOMINOES, Board, tiling

    # Pentominoes on 3x20: DLX-PRE takes out the placements that wall off a
    # cell; the two tilings stay, printed as the lines read.
    text = tiling(PENTOMINOES, Board.rectangle(3, 20)).to_dlx()

    def run(*args: str) -> list[str]:
        r = subprocess.run([sys.executable, "-m", "covering", "dlx", *args, "-"], input=text, capture_output=True,
                           text=True, check=True)
        return r.stdout.splitlines()

    plain, reduced = run("solve", "--all"), run("solve", "--all", "--reduce")
    assert sorted(plain) == sorted(reduced) and plain
    summary = json.loads(run("count", "--reduce", "--json")[-1])
    assert summary["count"] == 8 and summary["reduced"]["options"] > 0 and summary["reduced"]["complete"]
    # Unasked, the automatic count reduces too, and says what went.
    auto = json.loads(run("count", "--json")[-1])
    assert auto["count"] == 8 and auto["reduced"]["options"] > 0
    assert run("unique", "--reduce")[-1] == "multiple"


def test_the_automatic_count_reduces_first_and_counts_the_same() -> None:
    # Step 0 of the automatic count: the problem reduced when that takes out
    # enough; the count is the search's of the problem as given, and what
    # went is reported.
    from covering import counting

    rng = random.Random(12)
    reduced = 0
    for _ in range(60):
        p = random_xc(rng, rng.randint(6, 14), rng.randint(0, 4), rng.randint(10, 40))
        c = counting.count(p, threads=1)
        assert c.count == p.count(method="search")
        if c.reduced is not None:
            reduced += 1
            assert c.reduced["options"] + c.reduced["items"] > 0
    assert reduced > 10

