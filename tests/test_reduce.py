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
        expected = p.count(method="search")
        assert c.count == expected
        # (Trees this small are counted by the first look, before step 0:
        # the step is checked on its own.)
        smaller = counting._reduced(p, p.compile())
        if smaller is not None:
            reduced += 1
            q, summary = smaller
            assert summary["options"] + summary["items"] > 0
            assert counting.count(q, method="search", threads=1).count == expected
    assert reduced > 10



def rectangle_dissections(m: int, n: int, rng: random.Random | None = None) -> Problem:
    """After Knuth's REDRECT-DLX: the dissections of an m x n rectangle into
    rectangles whose left and top sides use every inner coordinate (cells
    once each; "x a" and "y c" at least once); each rectangle also names its
    row and column spans by items that may be used any number of times up
    to n and m, which no dissection can exceed. Items and options in a
    random order when `rng` is given."""
    spans = [(a, b) for a in range(m) for b in range(a + 1, m + 1)]
    cols = [(c, d) for c in range(n) for d in range(c + 1, n + 1)]
    items: list[tuple[str, tuple[int, int] | None]] = [(f"{j},{k}", None) for j in range(m) for k in range(n)]
    items += [(f"x{a}", (1, n)) for a in range(1, m)] + [(f"y{c}", (1, m)) for c in range(1, n)]
    items += [(f"x{a}-{b}", (0, n)) for a, b in spans] + [(f"y{c}-{d}", (0, m)) for c, d in cols]
    options = []
    for a, b in spans:
        for c, d in cols:
            option = [f"{j},{k}" for j in range(a, b) for k in range(c, d)]
            option += [f"x{a}"] * (a > 0) + [f"y{c}"] * (c > 0) + [f"x{a}-{b}", f"y{c}-{d}"]
            options.append(option)
    if rng is not None:
        rng.shuffle(items)
        rng.shuffle(options)
        for option in options:
            rng.shuffle(option)
    p = Problem()
    for name, bounds in items:
        p.add_primary([name], bounds=bounds)
    for option in options:
        p.add_option(option)
    return p


def test_items_that_bind_nothing_leave_and_the_counts_stay() -> None:
    # The naming items of the dissections (bounds 0:n, at most one rectangle
    # of a span per row or column) leave; the cells and the inner
    # coordinates stay (options that block them go). Counts: brute force on the smallest, a search of the
    # problem as given on the others, in shuffled orders too; 4 x 5 is
    # Knuth's 1,286,759 from his SSMCC, here by the automatic count alone.
    rng = random.Random(5)
    for m, n in ((2, 2), (2, 3), (3, 3), (3, 4), (4, 4)):
        for order in (None, rng, rng):
            p = rectangle_dissections(m, n, order)
            r = p.reduce()
            naming = m * (m + 1) // 2 + n * (n + 1) // 2
            assert r.removed_items == naming
            assert not any("-" in str(name) for name in r.problem.primary)
            expected = len(definition.brute_force(p)) if m * n <= 4 else p.count(method="search")
            assert r.problem.count(method="search") == expected == p.count()
    assert rectangle_dissections(4, 5, random.Random(1)).count() == 1286759


def test_an_item_that_can_bind_stays() -> None:
    # "z" may be used at most once, and its options "A z" and "B z" can be
    # chosen together: it binds, and stays. With "A B z" in place of "B z"
    # no two of its options go together: it leaves.
    for third, leaves in ((["B", "z"], False), (["A", "B", "z"], True)):
        p = Problem()
        p.add_primary(["A", "B"])
        p.add_primary(["z"], bounds=(0, 1))
        for option in (["A", "z"], ["B"], third, ["A"]):
            p.add_option(option)
        r = p.reduce()
        assert ("z" not in r.problem.primary) == leaves
        assert sorted(r.original(s) for s in definition.brute_force(r.problem)) == sorted(definition.brute_force(p))


def test_random_problems_with_loose_items_keep_their_counts() -> None:
    # Past brute force: primary items of bounds 0:v (some of which bind,
    # some not), cells covered once, secondary items with and without
    # colors; the count of the reduced problem by a search against the
    # search of the problem as given, in both engines' order of options.
    rng = random.Random(13)
    left = 0
    for _ in range(200):
        p = Problem()
        n1, loose, n2 = rng.randint(3, 8), rng.randint(1, 4), rng.randint(0, 3)
        p.add_primary([f"c{i}" for i in range(n1)])
        for j in range(loose):
            p.add_primary([f"z{j}"], bounds=(0, rng.randint(1, 3)))
        p.add_secondary([f"s{i}" for i in range(n2)])
        for _ in range(rng.randint(8, 30)):
            entries = [f"c{i}" for i in rng.sample(range(n1), rng.randint(1, 2))]
            entries += [f"z{j}" for j in range(loose) if rng.random() < 0.6]
            for s in rng.sample(range(n2), rng.randint(min(1, n2), min(2, n2))):
                entries.append(f"s{s}" + (f":{rng.choice('ab')}" if rng.random() < 0.5 else ""))
            rng.shuffle(entries)
            p.add_option(entries)
        r = p.reduce()
        assert r.problem.count(method="search") == p.count(method="search")
        assert {r.original(s) for s in r.problem.solutions(ids=True)} == set(p.solutions(ids=True))
        left += sum(str(name).startswith("z") for name in r.problem.primary)
    assert left > 0  # not every loose item goes
