"""The counting front door: every method gives the same count; "auto"
takes the memo where tilings share sub-problems and the search elsewhere,
and says so; the command line follows it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from long import examples
from hypothesis import given, settings
from test_reference import problems

from covering import Problem
from covering import counting, limits
from covering.counting import count, memo_rule
from covering.puzzles.polyomino import DOMINOES, PENTOMINOES, TETROMINOES, Board, Uses, l_tromino, tiling
from covering.puzzles.queens import queens_problem
from covering.reference import definition


@settings(max_examples=examples(200), deadline=None)
@given(problems(max_options=12))
def test_every_method_gives_the_count_of_the_definition(p: Problem) -> None:
    expected = len(definition.brute_force(p))
    assert count(p).count == expected
    assert count(p, method="search", threads=1).count == expected
    for order in ("auto", "input"):
        assert count(p, method="frontier", item_order=order).count == expected
    if not p.compile().has_multiplicities:
        for rule in ("first", "mrv"):
            assert count(p, method="memo", branching=rule).count == expected
            assert count(p, method="memo", branching=rule, threads=2).count == expected


def test_the_memo_on_threads_and_in_parts_gives_the_same_count() -> None:
    from covering import _core

    # Two boards side by side (parts no option joins) and one board alone.
    twice = tiling(DOMINOES, Board.rectangle(4, 9), uses="any")
    problem = Problem()
    problem.add_primary([(k, i) for k in range(2) for i in twice.primary])
    for k in range(2):
        for o in range(twice.n_options):
            problem.add_option([(k, i) for i, _ in twice.option(o)])
    one = count(twice, method="search", threads=1).count
    for threads in (1, 2, 3):
        for split in (True, False):
            counter = _core.MemoCount(problem.compile(), 1 << 24, "mrv", split, threads)
            assert counter.run() == one * one
            assert (counter.splits > 0) == split
            assert (counter.tasks > 1) == (threads > 1)


def test_auto_picks_the_frontier_for_boards_and_the_search_for_queens() -> None:
    c = count(l_tromino(12))
    assert (c.count, c.method) == (2033502499954, "frontier")  # Knuth, TAOCP 7.2.2.1
    # Dominoes are the perfect matchings of a planar graph: a determinant.
    c = count(tiling(DOMINOES, Board.rectangle(12, 12), uses="any"))
    assert (c.count, c.method) == (53060477521960000, "kasteleyn")  # OEIS A004003
    c = count(tiling(DOMINOES, Board.rectangle(12, 12), uses="any"), method="frontier")
    assert (c.count, c.method) == (53060477521960000, "frontier")
    # The memo's probe still picks its rule when the memo is asked for.
    c = count(l_tromino(12), method="memo", branching="first")
    assert (c.count, c.method, c.branching) == (2033502499954, "memo", "first")
    c = count(queens_problem(12))
    assert (c.count, c.method) == (14200, "search")  # OEIS A000170
    c = count(tiling(PENTOMINOES, Board.rectangle(6, 10)))
    assert (c.count, c.method) == (9356, "search") and c.reason.startswith("few repeats")
    # A number of threads or an engine says how a search runs: the frontier still counts a board.
    assert count(l_tromino(8, 0), threads=2).method == "frontier"
    assert count(l_tromino(8, 0), engine="cells").method == "frontier"
    assert memo_rule(tiling(PENTOMINOES, Board.rectangle(6, 10))) == "mrv"
    p = l_tromino(8, 0)
    assert p.count() == 30355 and p.last_count is not None and p.last_count.method == "frontier"
    with pytest.raises(ValueError, match="method must be one of"):
        p.count(method="fast")
    with pytest.raises(ValueError, match="not with method='search'"):
        p.count(method="search", branching="first")


def scrambled(p: Problem, seed: int) -> Problem:
    """`p` with its primary items and its options listed in a random order."""
    rng = random.Random(seed)
    lines = p.to_dlx().splitlines()
    # (A lone "|" parts the secondary items; "0:3|A" is one with bounds.)
    header = lines[0].split()
    cut = header.index("|") if "|" in header else len(header)
    primary = header[:cut]
    rng.shuffle(primary)
    options = lines[1:]
    rng.shuffle(options)
    return Problem.from_dlx(" ".join(primary + header[cut:]) + "\n" + "\n".join(options) + "\n")


def test_a_board_in_any_order_is_counted_at_the_frontier() -> None:
    """The order is chosen from the problem: numbering the cells at random
    changes neither the count nor the method, and the width stays a band."""
    for seed in range(3):
        board = scrambled(tiling(DOMINOES, Board.rectangle(12, 12), uses="any"), seed)
        assert count(board).method == "kasteleyn"  # (planar matchings: the default's first look)
        c = count(board, method="frontier")
        assert (c.count, c.method) == (53060477521960000, "frontier")
        assert c.width is not None and c.width <= 16 and c.item_order != "input"
        c = count(scrambled(l_tromino(12), seed), method="frontier")
        assert c.count == 2033502499954 and c.width is not None and c.width <= 20
    # The input's order, as asked: the scrambled board is far wider there.
    p = scrambled(tiling(DOMINOES, Board.rectangle(6, 6), uses="any"), 7)
    asked = count(p, method="frontier", item_order="input")
    chosen = count(p, method="frontier")
    assert asked.count == chosen.count == 6728  # OEIS A004003
    assert asked.item_order == "input" and asked.width is not None and chosen.width is not None
    assert asked.width > chosen.width
    with pytest.raises(ValueError, match="item_order must be one of"):
        count(p, item_order="random")


def test_pieces_with_multiplicities_are_swept_in_an_order_the_trials_chose() -> None:
    """With counted items (each tetromino 0-3 times) the order is weighed by
    running the frontier of the board's cells alone: in any numbering the
    count is the search's, the order was tried, and each piece's item comes
    after the cells that decide its placements."""
    from covering import _core

    p = tiling(TETROMINOES, Board.rectangle(5, 8), uses=(0, 3))
    expected = count(p, method="search").count
    for seed in range(3):
        q = scrambled(p, seed)
        c = count(q, method="frontier")
        assert c.count == expected
        compiled = q.compile()
        order, width, _, name, tried = _core.choose_item_order(compiled)
        assert tried and name == c.item_order and width == c.width
        # A band of the board (at most two rows of 8 live cells, and one
        # 2-bit field for each of the five pieces), in any numbering.
        assert width <= 16 + 1 + 10, (seed, width)
        # Every piece item is settled after some cell of each of its options.
        rank = {item: k for k, item in enumerate(order)}
        starts, items, _ = q.option_arrays()
        n_cells = sum(1 for name in q.primary if q.bounds(name) == (1, 1))
        pieces = {i for i, name in enumerate(q.primary) if q.bounds(name) != (1, 1)}
        assert len(pieces) == len(q.primary) - n_cells == 5
        for o in range(q.n_options):
            option = items[starts[o]:starts[o + 1]]
            first_cell = min(rank[i] for i in option if i < len(q.primary) and i not in pieces)
            assert all(first_cell < rank[i] for i in option if i in pieces)


def test_items_taken_at_most_once_are_counted_as_secondary_ones() -> None:
    """Pieces of bounds 0:1 are secondary items: the default count (which
    makes them so) agrees with Algorithm M's search on the problem as
    given, and on pieces 0:1 beside pieces 0:2 too."""
    from covering.reduction import optional_as_secondary

    mixed: dict[str, Uses] = {"I": (0, 2), "O": (0, 1), "T": (0, 1), "L": (0, 2), "S": (0, 1)}
    every: list[Uses | dict[str, Uses]] = [(0, 1), mixed]
    for uses in every:
        p = tiling(TETROMINOES, Board.rectangle(4, 6), uses=uses)
        q = optional_as_secondary(p)
        assert q is not None and q.n_options == p.n_options
        assert all(q.bounds(name) != (0, 1) for name in q.primary)
        assert count(p).count == count(p, method="search").count == count(q, method="search").count


def cube_functions(n: int, allowed: tuple[str, ...]) -> Problem:
    """The 0/1 functions on the points of the n-cube whose values at the
    ends of each edge (lower point first) are a pair in `allowed`, as an
    XCC problem after Knuth's INDICATOR-DLX: a color for each point, a
    primary item for each point (its value) and each edge (its pair)."""
    points = range(2**n)
    edges = [(x, x | 1 << i) for x in points for i in range(n) if not x >> i & 1]
    head = [f"p{x}" for x in points] + [f"e{x}_{y}" for x, y in edges]
    lines = [" ".join(head) + " | " + " ".join(f"x{x}" for x in points)]
    lines += [f"p{x} x{x}:{a}" for x in points for a in "01"]
    lines += [f"e{x}_{y} x{x}:{pair[0]} x{y}:{pair[1]}" for x, y in edges for pair in allowed]
    return Problem.from_dlx("\n".join(lines) + "\n")


def test_the_memo_is_chosen_where_its_few_hits_save_much() -> None:
    """Few of the memo's lookups hit on these functions, but high in the
    tree: the probe sees the nodes they saved, and the memo counts."""
    independent = cube_functions(5, ("00", "01", "10"))  # independent sets of the 5-cube
    c = count(independent)
    assert c.count == 254475  # OEIS A027624
    assert c.method == "memo" and c.reason.startswith("sub-problems repeat high in the tree")
    assert count(independent, method="search", threads=1).count == 254475
    for seed in range(3):
        c = count(scrambled(independent, seed))
        assert (c.count, c.method) == (254475, "memo")
    monotone = cube_functions(5, ("00", "01", "11"))
    assert count(monotone).count == count(monotone, method="search", threads=1).count == 7581  # OEIS A000372


def graph_paths(n: int, extra: int, longest: int, seed: int) -> Problem:
    """benchmarks/orders.py's paths of a random sparse graph (the kind of
    the Rome graph covers of the DXD artifact), items and options shuffled."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        import orders  # type: ignore[import-not-found]  # benchmarks/orders.py
    finally:
        sys.path.pop(0)
    rng = random.Random(seed)
    return Problem.from_dlx(orders.scrambled(*orders.graph_paths(n, extra, longest, rng), rng))


def test_paths_of_a_graph_are_counted_alike_by_the_plan_and_by_each_method() -> None:
    """Where the memo's rules are both in the running and the frontier is
    not, the two rules race (the plan's `rules_race`); whatever the plan
    takes, its count is the frontier's and each memo rule's."""
    for seed in range(4):
        p = graph_paths(26, 6, 4, seed)
        c = count(p)
        want = count(p, method="frontier").count
        assert c.count == want == count(p, method="memo", branching="first").count
        assert want == count(p, method="memo", branching="mrv").count
    # Paths of up to 5 vertices: both probes run, the frontier's prediction
    # is past hope, and the rules race.
    p = graph_paths(30, 7, 5, 1)
    c = count(p)
    assert c.method == "memo" and c.reason.endswith("rule finished first")
    assert c.count == count(p, method="frontier").count == count(p, method="memo", branching="mrv").count


def test_the_command_line_counts_by_the_front_door(tmp_path: Path) -> None:
    f = tmp_path / "d12.dlx"
    f.write_text(tiling(DOMINOES, Board.rectangle(12, 12), uses="any").to_dlx())
    run = [sys.executable, "-m", "covering"]
    r = subprocess.run(run + ["dlx", "count", str(f), "--json"], capture_output=True, text=True)
    summary = json.loads(r.stdout.splitlines()[-1])
    assert (summary["count"], summary["method"]) == (53060477521960000, "kasteleyn")
    r = subprocess.run(run + ["dlx", "count", str(f), "--json", "--method", "frontier"], capture_output=True, text=True)
    summary = json.loads(r.stdout.splitlines()[-1])
    assert (summary["count"], summary["method"]) == (53060477521960000, "frontier")
    for extra in (["--method", "memo", "--branching", "mrv"], ["--memo"]):
        r = subprocess.run(run + ["dlx", "count", str(f), *extra], capture_output=True, text=True)
        assert r.stdout == "53060477521960000\n", r.stderr
    r = subprocess.run(run + ["dlx", "count", str(f), "--method", "search", "--branching", "first"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--branching" in r.stderr
    for args, expected in ((["tromino", "count", "12"], "2033502499954"),
                           (["polyomino", "count", "--pieces", "dominoes", "--board", "12x12", "--uses", "any"],
                            "53060477521960000")):
        r = subprocess.run(run + args, capture_output=True, text=True, timeout=60)
        assert (r.returncode, r.stdout.strip()) == (0, expected), r.stderr
    r = subprocess.run(run + ["tromino", "random", "12", "--seed", "1", "--no-color", "--limit", "3"],
                       capture_output=True, text=True, timeout=60)
    tilings = r.stdout.split("\n\n")
    assert r.returncode == 0 and len(tilings) == len(set(tilings)) == 3
    assert all(len(t.split()) == 12 for t in tilings)


def test_the_race_of_the_frontier_ends_with_the_count_of_either() -> None:
    # Step 4 on its own: the frontier against the search, and against the
    # memo, in turns of doubling work; whichever finishes gives the count
    # (queens 8: 92; 7: 40), and a budget ends it.
    from covering import _core
    from covering.errors import LimitReached
    from covering.solver import Solver

    for n, known in ((7, 40), (8, 92)):
        p = queens_problem(n)
        compiled = p.compile()
        order = counting._order(compiled, "auto")
        assert order is not None
        frontier = counting._frontier_count(compiled, order, 1, limits.begin(None))
        got = counting._race(_core.CountPlan(compiled), frontier, order, None, None, Solver(p), None)
        assert got.count == known and got.method in ("frontier", "search")
        # The plan says what each racer measured.
        assert got.plan is not None and {c["method"] for c in got.plan["candidates"] if c["measured"]} == {
            "frontier", "search"}
        memo = _core.MemoCount(compiled, 1 << 24, "mrv", threads=1)
        frontier = counting._frontier_count(compiled, order, 1, limits.begin(None))
        got = counting._race(_core.CountPlan(compiled), frontier, order, memo, "mrv", None, None)
        assert got.count == known and got.method in ("frontier", "memo")
    p = queens_problem(16)
    compiled = p.compile()
    order = counting._order(compiled, "auto")
    assert order is not None
    with pytest.raises(LimitReached) as e:
        counting._race(_core.CountPlan(compiled), counting._frontier_count(compiled, order, 1, limits.begin(None)), order, None, None,
                       Solver(p), None, limits.Budget.of(seconds=0.3))
    assert e.value.count is not None and e.value.count >= 0


def test_the_race_prices_each_method_by_its_own_counters() -> None:
    # Tetrominoes 1-3 times each on a 4x10 board: the frontier finishes in
    # a fraction of the search's work (0.016 s against 0.087), and the race
    # sees it in the counters of both, never in a clock, so the same
    # problem goes the same way each time. The count is the search's and
    # the frontier's alike. (On a 5x8 board the frontier takes a third of
    # the search on bitsets, and the race lets the search finish.)
    p = tiling(TETROMINOES, Board.rectangle(4, 10), uses=(1, 3))
    by_search = count(p, method="search", threads=1)
    by_frontier = count(p, method="frontier")
    runs = [count(p, threads=1) for _ in range(2)]
    assert {c.count for c in runs} == {by_search.count} == {by_frontier.count} == {57320}
    assert runs[0].method == "frontier" and (runs[0].nodes, runs[0].reason) == (runs[1].nodes, runs[1].reason)
    # The prices: each method's work so far, from its counters alone.
    from covering import _core
    from covering.errors import LimitReached
    from covering.solver import Solver

    s = Solver(p)
    with pytest.raises(LimitReached):
        s.count(nodes=1000)
    compiled = p.compile()
    # Algorithm M's nodes cost more than Algorithm X's (the plan's machine).
    plain = tiling(TETROMINOES, Board.rectangle(4, 10), uses="any").compile()
    assert _core.CountPlan(compiled).search_cost(s.stats) > _core.CountPlan(plain).search_cost(s.stats) > 0
    order = counting._order(compiled, "auto")
    assert order is not None
    f = _core.FrontierCount(compiled, order.items, 1)
    f.run(limits.begin(None, 10_000))  # (its nodes: transitions)
    assert _core.CountPlan.frontier_cost(f.progress.mems) > f.progress.work > 0
