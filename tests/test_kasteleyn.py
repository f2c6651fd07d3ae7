"""Kasteleyn's method: the perfect matchings of planar graphs counted by a
determinant, exact, checked against closed forms, the frontier and the
search; refused, with the reason, where it does not apply."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from long import examples

from covering import Problem, ProblemError
from covering.counting import count

Edge = tuple[Any, Any]


def matching_problem(vertices: Sequence[Any], edges: Sequence[Edge], *, shuffle: int | None = None) -> Problem:
    """The exact cover problem of the perfect matchings of the graph; with
    `shuffle`, its items, its options and the items in each shuffled."""
    items, pairs = list(vertices), [list(e) for e in edges]
    if shuffle is not None:
        rng = random.Random(shuffle)
        rng.shuffle(items)
        rng.shuffle(pairs)
        for e in pairs:
            rng.shuffle(e)
    p = Problem()
    p.add_primary(items)
    for e in pairs:
        p.add_option(e)
    return p


def aztec(n: int) -> tuple[list[Any], list[Edge]]:
    """The Aztec diamond of order n: its cells, and the dominoes on them."""
    cells = [(x, y) for x in range(-n, n) for y in range(-n, n) if abs(x + 0.5) + abs(y + 0.5) <= n]
    return cells, dominoes(cells)


def dominoes(cells: Sequence[tuple[int, int]]) -> list[Edge]:
    on = set(cells)
    return [((x, y), (x + dx, y + dy)) for (x, y) in cells for dx, dy in ((1, 0), (0, 1)) if (x + dx, y + dy) in on]


def hexagon(a: int, b: int, c: int) -> tuple[list[Any], list[Edge]]:
    """The triangles of the hexagon of sides a, b, c, a, b, c on the
    triangular lattice, and the lozenges (pairs of triangles sharing a
    side): its lozenge tilings are MacMahon's boxed plane partitions."""
    # Triangle (i, j, up) with lattice corners; the hexagon is the points
    # x, y with 0 <= x <= a + b... built as the set of unit triangles whose
    # corners lie in the hexagon {0 <= x <= a + c, 0 <= y <= b + c, -a <= x - y <= b}.
    def inside(x: int, y: int) -> bool:
        return 0 <= x <= a + c and 0 <= y <= b + c and -b <= x - y <= a

    tris = []
    for x in range(-1, a + c + 2):
        for y in range(-1, b + c + 2):
            up = [(x, y), (x + 1, y), (x + 1, y + 1)]
            down = [(x, y), (x, y + 1), (x + 1, y + 1)]
            for t, corners in (("u", up), ("d", down)):
                if all(inside(*q) for q in corners):
                    tris.append((x, y, t))
    on = set(tris)
    edges = []
    for (x, y, t) in tris:
        if t == "u":
            for other in ((x, y, "d"), (x + 1, y, "d"), (x, y - 1, "d")):
                if other in on:
                    edges.append(((x, y, t), other))
    return tris, edges


def macmahon(a: int, b: int, c: int) -> int:
    """MacMahon's count of plane partitions in an a x b x c box."""
    num = den = 1
    for i in range(1, a + 1):
        for j in range(1, b + 1):
            for k in range(1, c + 1):
                num *= i + j + k - 1
                den *= i + j + k - 2
    assert num % den == 0
    return num // den


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 16])
def test_aztec_diamonds_are_two_to_the_n_n_plus_1_over_2(n: int) -> None:
    cells, edges = aztec(n)
    for shuffle in (None, n):
        c = count(matching_problem(cells, edges, shuffle=shuffle))
        assert (c.count, c.method) == (2 ** (n * (n + 1) // 2), "kasteleyn")


@pytest.mark.parametrize("abc", [(1, 1, 1), (2, 2, 2), (2, 3, 4), (3, 3, 3), (6, 6, 6)])
def test_lozenge_hexagons_are_macmahons_boxes(abc: tuple[int, int, int]) -> None:
    tris, edges = hexagon(*abc)
    c = count(matching_problem(tris, edges, shuffle=sum(abc)), method="kasteleyn")
    assert c.count == macmahon(*abc)
    if len(tris) <= 60:
        assert count(matching_problem(tris, edges), method="frontier").count == c.count


@pytest.mark.parametrize("w, h", [(2, 2), (3, 4), (6, 7), (8, 8), (5, 12)])
def test_domino_boards_agree_with_the_frontier_and_the_search(w: int, h: int) -> None:
    cells = [(x, y) for x in range(w) for y in range(h)]
    p = matching_problem(cells, dominoes(cells), shuffle=w * h)
    k = count(p, method="kasteleyn").count
    assert k == count(p, method="frontier").count == count(p, method="search", threads=1).count


def random_planar(rng: random.Random, w: int, h: int) -> list[Edge]:
    """A random subgraph of a w x h grid with one diagonal in each square,
    either way: planar, seldom bipartite, with cut vertices and bridges as
    they come."""
    cells = [(x, y) for x in range(w) for y in range(h)]
    edges = dominoes(cells)
    for x in range(w - 1):
        for y in range(h - 1):
            edges.append(((x, y), (x + 1, y + 1)) if rng.random() < 0.5 else ((x + 1, y), (x, y + 1)))
    keep = rng.uniform(0.5, 1.0)
    return [e for e in edges if rng.random() < keep]


def test_random_planar_graphs_agree_with_the_frontier_and_the_search() -> None:
    rng = random.Random(5)
    for _ in range(examples(60)):
        w, h = rng.randint(2, 5), rng.randint(2, 4)
        cells = [(x, y) for x in range(w) for y in range(h)]
        p = matching_problem(cells, random_planar(rng, w, h), shuffle=rng.randrange(1000))
        k = count(p, method="kasteleyn").count
        assert k == count(p, method="frontier").count == count(p, method="search", threads=1).count


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(2, 10).flatmap(lambda n: st.tuples(st.just(n), st.sets(
    st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] < e[1]), max_size=3 * n))))
def test_any_graph_is_counted_right_or_refused_as_not_planar(graph: tuple[int, set[tuple[int, int]]]) -> None:
    n, edges = graph
    p = matching_problem(list(range(n)), sorted(edges))
    try:
        k = count(p, method="kasteleyn").count
    except ProblemError as e:
        assert "not planar" in str(e)
        return
    assert k == count(p, method="frontier").count


def test_parallel_options_count_twice() -> None:
    # A 4-cycle with one side doubled: 2 + 1 matchings.
    p = matching_problem("abcd", [("a", "b"), ("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")])
    assert count(p, method="kasteleyn").count == 3 == count(p, method="search", threads=1).count


def k33() -> list[Edge]:
    return [(a, b) for a in "abc" for b in "xyz"]


def hypercube(d: int) -> tuple[list[Any], list[Edge]]:
    vs = list(range(2 ** d))
    return vs, [(v, v ^ (1 << k)) for v in vs for k in range(d) if v < v ^ (1 << k)]


def petersen() -> list[Edge]:
    outer = [(k, (k + 1) % 5) for k in range(5)]
    spokes = [(k, k + 5) for k in range(5)]
    inner = [(5 + k, 5 + (k + 2) % 5) for k in range(5)]
    return outer + spokes + inner


@pytest.mark.parametrize("vertices, edges", [
    ("abcxyz", k33()),
    # K3,3 with its edges subdivided twice (sparse: Euler's bound does not see it).
    (list("abcxyz") + [f"{a}{b}{k}" for a in "abc" for b in "xyz" for k in (1, 2)],
     [e for a in "abc" for b in "xyz" for e in ((a, f"{a}{b}1"), (f"{a}{b}1", f"{a}{b}2"), (f"{a}{b}2", b))]),
    (list(range(10)), petersen()),
    hypercube(4),
])
def test_graphs_that_are_not_planar_are_never_counted_by_it(vertices: list[Any], edges: list[Edge]) -> None:
    p = matching_problem(vertices, edges, shuffle=1)
    with pytest.raises(ProblemError, match="not planar"):
        count(p, method="kasteleyn")
    # The default counts them another way, and exactly.
    c = count(p)
    assert c.method != "kasteleyn"
    assert c.count == count(p, method="search", threads=1).count


def test_the_six_cube_is_counted_by_the_default() -> None:
    vs, edges = hypercube(6)
    c = count(matching_problem(vs, edges, shuffle=6))
    assert c.count == 16_332_454_526_976 and c.method != "kasteleyn"


def test_where_it_does_not_apply_the_reason_names_the_option_or_item() -> None:
    p = Problem()
    p.add_primary(["a", "b", "c"])
    p.add_secondary(["s"])
    p.add_option(["a", "b"])
    p.add_option(["c", "s"])
    with pytest.raises(ProblemError, match="option 'c s' holds a secondary item"):
        count(p, method="kasteleyn")
    q = Problem()
    q.add_primary(["a", "b", "c"])
    q.add_option(["a", "b", "c"])
    with pytest.raises(ProblemError, match="option 'a b c' does not hold exactly two primary items"):
        count(q, method="kasteleyn")
    r = Problem()
    r.add_primary(["a", "b"], bounds=(2, 2))
    r.add_option(["a", "b"])
    r.add_option(["a", "b"])
    with pytest.raises(ProblemError, match="item 'a' is to be covered 2 to 2 times, not once"):
        count(r, method="kasteleyn")
    # The default takes another method, with the same count.
    assert count(r).count == 1


def test_odd_parts_and_uncovered_items_count_zero() -> None:
    p = matching_problem("abcde", [("a", "b"), ("b", "c"), ("d", "e")])
    assert count(p, method="kasteleyn").count == 0
    p.add_primary(["lonely"])
    assert count(p, method="kasteleyn").count == 0


def test_a_limit_caps_the_count() -> None:
    cells, edges = aztec(3)
    assert count(matching_problem(cells, edges), 10, method="kasteleyn").count == 10


def test_the_command_line_takes_it_and_says_why_not(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cells, edges = aztec(16)
    name = {c: f"c{c[0] + 16}_{c[1] + 16}" for c in cells}  # (cells are (x, y))
    good = tmp_path / "aztec.dlx"
    good.write_text(" ".join(name[c] for c in cells) + "\n" + "".join(f"{name[a]} {name[b]}\n" for a, b in edges))
    cli = [sys.executable, "-m", "covering"]
    out = subprocess.run(cli + ["dlx", "count", str(good), "--json"], capture_output=True, text=True, check=True)
    summary = json.loads(out.stdout.splitlines()[-1])
    assert (summary["count"], summary["method"]) == (2 ** 136, "kasteleyn")
    bad = tmp_path / "k33.dlx"
    bad.write_text("a b c x y z\n" + "".join(f"{a} {b}\n" for a, b in k33()))
    out = subprocess.run(cli + ["dlx", "count", str(bad), "--method", "kasteleyn"], capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "not planar" in out.stderr
    out = subprocess.run(cli + ["dlx", "count", str(bad)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "6"


def test_a_long_strip_goes_to_a_sure_frontier_and_both_agree_with_the_recurrence() -> None:
    # 4 x n domino tilings: a(n) = a(n-1) + 5 a(n-2) + a(n-3) - a(n-4)
    # (OEIS A005178). On a strip this long the embedding's square work
    # would cost seconds; the plan asks for a frontier first, and is sure of it.
    from covering import _core

    n = 1300
    a = [1, 1, 5, 11]
    while len(a) <= n:
        a.append(a[-1] + 5 * a[-2] + a[-3] - a[-4])
    cells = [(x, y) for x in range(n) for y in range(4)]
    p = matching_problem(cells, dominoes(cells), shuffle=4)
    assert _core.CountPlan(p.compile()).frontier_before_kasteleyn()
    c = count(p)
    assert (c.count, c.method) == (a[n], "frontier")
    assert count(p, method="kasteleyn").count == a[n]


def test_a_determinant_past_the_memory_limit_is_refused_before_it_is_built() -> None:
    from covering import MemoryLimitError, limits

    cells, edges = aztec(16)
    p = matching_problem(cells, edges)
    with pytest.raises(MemoryLimitError, match="determinant would hold about"):
        count(p, method="kasteleyn", budget=limits.Budget.of(memory=20_000))
