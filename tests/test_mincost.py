"""Minimum-cost exact cover: `Problem.best`, costs through every path, and
`covering dlx --min-cost`, checked against brute force and against every
solution's cost listed by the ordinary search."""

from __future__ import annotations

import itertools
import json
import os
import pickle
import random
import subprocess
import sys
from array import array
from pathlib import Path

import numpy as np
import pytest
from long import examples
from running import interrupt
from hypothesis import given, settings
from hypothesis import strategies as st

from covering import CostError, DlxSyntaxError, Interrupted, Problem


def covering(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "covering", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def random_problem(rng: random.Random, *, multiplicities: bool, colors: bool) -> Problem:
    """A small random XCC or MCC problem with costs 0..9."""
    p = Problem()
    n_primary = rng.randint(1, 5)
    for i in range(n_primary):
        lo = rng.randint(0, 2) if multiplicities else 1
        hi = max(lo, 1) + (rng.randint(0, 1) if multiplicities else 0)
        p.add_primary([f"p{i}"], bounds=(lo, hi))
    n_secondary = rng.randint(0, 2) if colors else 0
    p.add_secondary([f"s{i}" for i in range(n_secondary)])
    for _ in range(rng.randint(1, 11)):
        items = [f"p{i}" for i in range(n_primary) if rng.random() < 0.4] or [f"p{rng.randrange(n_primary)}"]
        for i in range(n_secondary):
            if rng.random() < 0.4:
                c = rng.randrange(3)
                items.append(f"s{i}" if c == 0 else f"s{i}:{'ab'[c - 1]}")
        p.add_option(items, cost=rng.randrange(10))
    return p


def all_costs(p: Problem) -> list[int]:
    """Every solution's cost, from the ordinary search (another engine)."""
    return sorted(p.cost(ids) for ids in p.solutions(ids=True))


def brute_costs(p: Problem) -> list[int]:
    """Every solution's cost, by the definition, over every subset."""
    out = []
    for r in range(p.n_options + 1):
        for ids in itertools.combinations(range(p.n_options), r):
            if p.is_solution(ids):
                out.append(p.cost(ids))
    return sorted(out)


@pytest.mark.parametrize("multiplicities,colors", [(False, False), (False, True), (True, False), (True, True)])
def test_the_k_best_agree_with_every_solution(multiplicities: bool, colors: bool) -> None:
    rng = random.Random(hash((multiplicities, colors)) & 0xFFFF)
    for _ in range(150):
        p = random_problem(rng, multiplicities=multiplicities, colors=colors)
        want = all_costs(p)
        assert want == brute_costs(p)
        for k in (1, 3, 7):
            found = p.best(k)
            assert found.optimal and found.stats.optimal
            assert [s.cost for s in found] == want[:k]
            assert len({s.ids for s in found}) == len(found), "a solution twice"
            for s in found:
                assert p.is_solution(s.ids) and s.cost == p.cost(s.ids)
                assert s.labels == [p.label(o) for o in s.ids] and list(s.ids) == sorted(s.ids)
            assert found.stats.optimum == (want[0] if want else None)


@settings(max_examples=examples(150), deadline=None)
@given(st.data())
def test_best_against_brute_force_property(data: st.DataObject) -> None:
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    p = random_problem(rng, multiplicities=data.draw(st.booleans()), colors=data.draw(st.booleans()))
    k = data.draw(st.integers(1, 6))
    assert [s.cost for s in p.best(k)] == brute_costs(p)[:k]


def test_ties_give_the_same_cost_list_whatever_the_order() -> None:
    rng = random.Random(5)
    for _ in range(60):
        p = random_problem(rng, multiplicities=False, colors=True)
        want = [s.cost for s in p.best(4)]
        # The same problem with the options in another order.
        order = list(range(p.n_options))
        rng.shuffle(order)
        q = Problem()
        q.add_primary(p.primary)
        q.add_secondary(p.secondary)
        for o in order:
            q.add_option([f"{n}" if c is None else f"{n}:{c}" for n, c in p.option(o)], cost=p.costs[o])
        assert [s.cost for s in q.best(4)] == want


def test_dominoes_with_costs_against_brute_force_on_boards() -> None:
    # A real tiling problem: dominoes on 4x4 (36 tilings), costs by position.
    rng = random.Random(3)
    p = Problem()
    cells = [f"{r},{c}" for r in range(4) for c in range(4)]
    p.add_primary(cells)
    for r in range(4):
        for c in range(4):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 4 and c + dc < 4:
                    p.add_option([f"{r},{c}", f"{r + dr},{c + dc}"], cost=rng.randrange(100))
    want = all_costs(p)
    assert len(want) == 36
    assert [s.cost for s in p.best(36)] == want
    assert [s.cost for s in p.best(100)] == want  # fewer than K solutions: all of them


def test_no_solution_gives_none() -> None:
    p = Problem()
    p.add_primary(["A", "B"])
    p.add_option(["A"], cost=1)
    found = p.best(3)
    assert list(found) == [] and found.optimal and found.stats.optimum is None


def test_costs_through_every_path() -> None:
    p = Problem()
    p.add_primary(["A", "B"])
    p.add_secondary(["x"])
    p.add_option(["A", "x:1"])
    p.add_option(["B"], cost=7)
    p.add_options([0, 1, 3], [0, 1, 2], [0, 0, 1], costs=np.array([3, 2**64 - 1], dtype=np.uint64))
    assert p.costs == [0, 7, 3, 2**64 - 1]
    assert p.cost([1, 2]) == 10
    # Pickling keeps them; so does equality.
    q = pickle.loads(pickle.dumps(p))
    assert q == p and q.costs == p.costs
    r = pickle.loads(pickle.dumps(p))
    r.add_option(["A"], cost=1)
    s = pickle.loads(pickle.dumps(p))
    s.add_option(["A"], cost=2)
    assert r != s
    # Written as DLX5 writes them, at the end of the line, only when not 0;
    # read back the same.
    text = p.to_dlx()
    assert text.splitlines()[1:] == ["A x:1", "B |7", "A |3", "B x:1 |18446744073709551615"]
    back = Problem.from_dlx(text)
    assert back.costs == p.costs
    # Bulk building: from_arrays, and options skipped keep the costs in step.
    b = Problem.from_arrays(["A", "B"], [0, 1, 2, 4], [0, 1, 0, 1], costs=[5, 6, 7])
    assert b.costs == [5, 6, 7]
    with pytest.warns(UserWarning):
        c = Problem.from_arrays(["A"], [0, 1, 2, 3], [0, 1, 0], secondary=["x"], costs=[1, 2, 3])
    assert c.costs == [1, 3]
    # A problem without costs writes as before, and costs nothing.
    plain = Problem.from_arrays(["A"], [0, 1], [0])
    assert not plain.has_costs and plain.to_dlx() == "A\nA\n" and plain.cost([0]) == 0


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, True, "3", None])
def test_bad_costs_are_refused_naming_the_option(bad: object) -> None:
    p = Problem()
    p.add_primary(["A"])
    p.add_option(["A"])
    with pytest.raises(CostError, match="option 1"):
        p.add_option(["A"], cost=bad)  # type: ignore[arg-type]
    with pytest.raises(CostError, match=r"costs\[1\]"):
        p.add_options([0, 1, 2], [0, 0], costs=[0, bad])
    with pytest.raises(CostError, match="2 costs for 1 options"):
        p.add_options([0, 1], [0], costs=[0, 1])


def test_costs_too_big_for_the_engine() -> None:
    p = Problem()
    p.add_primary(["A", "B"])
    p.add_option(["A"], cost=2**63)
    p.add_option(["B"], cost=2**63)
    with pytest.raises(CostError, match="2\\^64"):
        p.best()
    # A copy of an option past the K cheapest is dropped before the engine
    # sums the costs (see `copies.rs`): one of them is enough.
    q = Problem()
    q.add_primary(["A"])
    q.add_option(["A"], cost=2**63)
    q.add_option(["A"], cost=2**63 - 1)
    found = q.best()
    assert [(s.cost, s.ids) for s in found] == [(2**63 - 1, (1,))] and found.optimal


def test_options_that_go_together_are_reported_whole() -> None:
    # Crew-like set partitions (segments of a line of items, each split in
    # two, at other places each round): options that always go together
    # are merged before the search and reported as the options given.
    rng = random.Random(29)
    for _ in range(40):
        rows = rng.randint(6, 14)
        p = Problem()
        p.add_primary([f"r{i}" for i in range(rows)])
        seen: set[tuple[int, ...]] = set()
        for _ in range(rng.randint(2, 4)):
            at = 0
            while at < rows:
                size = min(rng.randint(2, 5), rows - at)
                segment = list(range(at, at + size))
                rng.shuffle(segment)
                for part in (segment[: size // 2], segment[size // 2:]):
                    duty = tuple(sorted(part))
                    if duty and duty not in seen:
                        seen.add(duty)
                        p.add_option([f"r{i}" for i in duty], cost=10 * len(duty) + rng.randrange(7))
                at += size
        want = all_costs(p)
        for k in (1, 4):
            found = p.best(k)
            assert [s.cost for s in found] == want[:k] and found.optimal
            assert len({s.ids for s in found}) == len(found)
            for s in found:
                assert p.is_solution(s.ids) and s.cost == p.cost(s.ids) and list(s.ids) == sorted(s.ids)


def test_copies_of_options_keep_the_k_best() -> None:
    # Copies (the same items and colors, in any order) past the K cheapest
    # are dropped, but never those that may go together (multiplicities).
    rng = random.Random(23)
    for _ in range(150):
        multiplicities, colors = rng.random() < 0.5, rng.random() < 0.5
        p = random_problem(rng, multiplicities=multiplicities, colors=colors)
        for _ in range(rng.randint(1, 5)):
            o = rng.randrange(p.n_options)
            items = [n if c is None else f"{n}:{c}" for n, c in p.option(o)]
            rng.shuffle(items)
            p.add_option(items, cost=rng.randrange(10))
        want = brute_costs(p)
        for k in (1, 2, 4):
            found = p.best(k)
            assert [s.cost for s in found] == want[:k] and found.optimal
            for s in found:
                assert p.is_solution(s.ids) and s.cost == p.cost(s.ids)


def test_dlx5_syntax() -> None:
    text = "| costs\nA B | x\nA |3 B |4\nA |0 x:1\nB x:1 |12 |1\nA\nB\n"
    p = Problem.from_dlx(text)
    assert p.costs == [7, 0, 13, 0, 0]
    assert [(s.cost, s.ids) for s in p.best(4)] == [(0, (1, 4)), (0, (3, 4)), (7, (0,)), (13, (1, 2))]
    # The other modes ignore costs: the same count as without them.
    assert p.count() == Problem.from_dlx("A B | x\nA B\nA x:1\nB x:1\nA\nB\n").count() == 5
    for bad, word in (("A\nA |\n", "'|'"), ("A\nA |1x\n", "'|1x'"), ("A\nA |-2\n", "'|-2'")):
        with pytest.raises(DlxSyntaxError, match=f"line 2: option cost should be a decimal number, not {word}"):
            Problem.from_dlx(bad)
    with pytest.raises(CostError, match="line 2"):
        Problem.from_dlx(f"A\nA |{2**64 - 1} |1\n")


def test_budgets_give_the_best_so_far_not_proven() -> None:
    p = Problem()
    cells = [f"{r},{c}" for r in range(6) for c in range(6)]
    p.add_primary(cells)
    rng = random.Random(9)
    for r in range(6):
        for c in range(6):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 6 and c + dc < 6:
                    p.add_option([f"{r},{c}", f"{r + dr},{c + dc}"], cost=rng.randrange(100))
    full = p.best(50)
    assert full.optimal and len(full) == 50
    cut = p.best(50, nodes=30)
    assert not cut.optimal and not cut.stats.optimal
    for s in cut:
        assert p.is_solution(s.ids) and s.cost == p.cost(s.ids)
    assert [s.cost for s in cut] == sorted(s.cost for s in cut)
    if cut:
        assert cut[0].cost >= full[0].cost
    # The mutilated chessboard: no tiling, and a search that takes ages to see it.
    big = Problem.from_dlx(mutilated(10))
    timed = big.best(1, seconds=0.3)
    assert not timed.optimal and len(timed) == 0
    assert p.stats is not None and p.stats.nodes > 0  # the cut run above searched


def mutilated(n: int) -> str:
    """Dominoes with costs on an n x n board less two opposite corners (no tiling)."""
    rng = random.Random(2)
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in ((0, 0), (n - 1, n - 1))]
    lines = [" ".join(f"{r},{c}" for r, c in cells)]
    for r, c in cells:
        for dr, dc in ((0, 1), (1, 0)):
            if (r + dr, c + dc) in cells:
                lines.append(f"{r},{c} {r + dr},{c + dc} |{rng.randrange(100)}")
    return "\n".join(lines) + "\n"


def test_ctrl_c_carries_the_best_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    from covering import mincost

    p = Problem()
    p.add_primary(["A"])
    for c in range(5):
        p.add_option(["A"], cost=c)

    def interrupt(self: object, nodes: object = None, seconds: object = None, stop: object = None) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(mincost.MinCostRun, "run", interrupt)
    with pytest.raises(Interrupted) as e:
        p.best(2)
    assert isinstance(e.value, KeyboardInterrupt)
    assert not e.value.best.optimal  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the CLI

@pytest.fixture(scope="module")
def pent_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Pentominoes on 5x12 with seeded costs 0..99 per placement."""
    text = covering("polyomino", "export", "--pieces", "pentominoes", "--board", "5x12").stdout
    rng = random.Random(1)
    lines = text.splitlines()
    out = [lines[0]] + [f"{line} |{rng.randint(0, 99)}" for line in lines[1:]]
    path = tmp_path_factory.mktemp("mc") / "p5x12.dlx"
    path.write_text("\n".join(out) + "\n")
    return str(path)


def test_cli_json_lines_are_valid_cheapest_first(pent_file: str) -> None:
    r = covering("dlx", "best", "--limit", "5", "--json", pent_file)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    *solutions, summary = lines
    p = Problem.from_dlx(open(pent_file).read())
    costs = [s["cost"] for s in solutions]
    assert costs == sorted(costs) and len(solutions) == 5
    assert len({tuple(s["solution"]) for s in solutions}) == 5
    for s in solutions:
        assert p.is_solution(s["solution"]) and p.cost(s["solution"]) == s["cost"]
    assert summary["count"] == 5 and summary["optimal"] is True
    assert costs == [s.cost for s in p.best(5)]


def test_cli_text(pent_file: str) -> None:
    r = covering("dlx", "best", "--limit", "2", pent_file)
    assert r.returncode == 0, r.stderr
    blocks = r.stdout.split("\n\n")
    assert len(blocks) == 2
    p = Problem.from_dlx(open(pent_file).read())
    lines = [p.label_text(o) for o in range(p.n_options)]
    for block in blocks:
        *options, last = block.strip().splitlines()
        ids = [lines.index(o) for o in options]
        assert last == f"cost {p.cost(ids)}" and p.is_solution(ids)


def test_cli_budget_exit_3_not_proven(pent_file: str) -> None:
    r = covering("dlx", "best", "--limit", "3", "--nodes", "50", "--json", pent_file)
    assert r.returncode == 3, r.stderr
    summary = json.loads(r.stdout.splitlines()[-1])
    assert summary["optimal"] is False and summary["stopped"] == "budget"
    assert "not proven" in r.stderr and "budget" in r.stderr


def test_cli_flags() -> None:
    for flags in (["best", "--engine", "sat"], ["best", "--limit", "0"], ["count", "--limit", "-1"]):
        r = covering("dlx", *flags, stdin="A\nA |1\n")
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, (flags, r.stderr)
    r = covering("dlx", "best", stdin="A B\nA |2\nB |1\nA B |5\n")
    assert r.returncode == 0 and r.stdout == "A |2\nB |1\ncost 3\n", r.stderr
    r = covering("dlx", "best", stdin="A B\nA\n")
    assert r.returncode == 0 and r.stdout == "no solution\n", r.stderr


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_cli_ctrl_c(tmp_path: Path) -> None:
    path = tmp_path / "mutilated.dlx"
    path.write_text(mutilated(10))
    proc = subprocess.Popen([sys.executable, "-m", "covering", "dlx", "best", "--limit", "3", "--json", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, 1.0)
    assert proc.returncode == 130, err
    summary = json.loads(out.splitlines()[-1])
    assert summary["optimal"] is False and summary["stopped"] == "interrupt" and "Traceback" not in err
    assert summary["command"] == "dlx best" and summary["count"] == len(out.splitlines()) - 1


def test_costs_array_type_is_u64() -> None:
    p = Problem.from_arrays(["A"], [0, 1], [0], costs=array("Q", [9]))
    assert p.costs == [9] and p.cost_bytes() == array("Q", [9]).tobytes()


def test_polyomino_costs_per_piece() -> None:
    from covering.puzzles import polyomino
    from covering.puzzles.shapes import PENTOMINOES, Board

    costs = {"X": 7, "I": 3, "L": 1}
    board = Board.rectangle(5, 6)
    p = polyomino.tiling(PENTOMINOES, board, uses=(0, 1), costs=costs)
    want = sorted(sum(costs.get(name, 0) for name, _ in labels) for labels in p.solutions())
    found = polyomino.cheapest_tilings(PENTOMINOES, board, costs, 20, uses=(0, 1))
    assert [s.cost for s in found] == want[:20] and found.optimal
    for s in found:
        assert s.cost == sum(costs.get(name, 0) for name, _ in s.labels)
    # The command line: the same cheapest costs, and export writes them as DLX5 does.
    r = covering("polyomino", "best", "--board", "5x6", "--uses", "0:1", "--cost", "X=7", "--cost", "I=3", "--cost", "L=1", "--limit", "3", "--json")
    assert r.returncode == 0, r.stderr
    *lines, summary = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["cost"] for x in lines] == want[:3] and summary["optimal"] is True
    r = covering("polyomino", "export", "--board", "5x6", "--uses", "0:1", "--cost", "X=7")
    assert r.returncode == 0 and any(line.startswith("X ") and line.endswith(" |7") for line in r.stdout.splitlines())
    assert Problem.from_dlx(r.stdout).best(1)[0].cost == 0
    for bad in (["best", "--cost", "Q=1"], ["best", "--cost", "X=-1"], ["solve", "--cost", "X=1"],
                ["best", "--cost", "X=1", "--cost", "X=2"], ["count", "--cost", "X=1"]):
        r = covering("polyomino", *bad, "--board", "5x6")
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, (bad, r.stderr)


def test_cli_hostile_costs() -> None:
    # A cost past 2**64 - 1, a glued cost, costs that add up past what the engine holds: one line, exit 2.
    for text, words in (("A B\nA |99999999999999999999\nB\n", "<stdin>:2: the option's costs add up past 2**64 - 1"),
                        ("A B\nA |1|2\nB\n", "<stdin>:2: option cost should be a decimal number, not '|1|2'"),
                        (f"A B\nA |{2**64 - 1}\nB |{2**64 - 1}\nA B\n", "the costs of all options add up past")):
        r = covering("dlx", "best", stdin=text)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and words in r.stderr, (text, r.stderr)
    # The other modes read such costs and ignore them.
    r = covering("dlx", "count", stdin=f"A B\nA |{2**64 - 1}\nB |1\n")
    assert r.returncode == 0 and r.stdout == "1\n"
