"""The engine's LP held to an independent solver: the simplex of
crates/lp against HiGHS (scipy's `linprog`), and the LP tree's K best
against the search on dancing links, through the binding's test-only
entries (`_core.lp_relaxation`, `_core.lp_tree_best`).

The relaxations are random and adversarial: set partitioning rows of a
random 0/1 matrix, degenerate ones (every cost alike), badly scaled ones
(costs from 1 to 2^50), with duplicate columns, with columns fixed by their
bounds, and infeasible ones. Each of ours is checked on its own too: its
values meet the rows within their bounds, its reduced costs have the signs
its values' bounds ask for, and its bound is under the optimum.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.sparse import csc_array

from covering import Problem, _core

Columns = list[list[int]]


def random_columns(rng: random.Random, m: int, n: int, *, most: int = 4, cover: bool = True) -> Columns:
    """`n` random columns of 1 to `most` of `m` rows; with `cover`, one
    column a row besides, so that the rows can be met."""
    cols = [sorted(rng.sample(range(m), rng.randint(1, min(most, m)))) for _ in range(n)]
    if cover:
        cols += [[r] for r in range(m)]
    rng.shuffle(cols)
    return cols


def highs(m: int, cols: Columns, cost: list[float], rhs: list[float],
          bounds: list[tuple[int, float, float]]) -> tuple[str, float | None]:
    """HiGHS's status and optimum of the same relaxation."""
    n = len(cols)
    data = np.ones(sum(len(c) for c in cols))
    indices = np.array([r for c in cols for r in c], dtype=np.int64)
    indptr = np.cumsum([0] + [len(c) for c in cols])
    a = csc_array((data, indices, indptr), shape=(m, n))
    box = [(0.0, 1.0)] * n
    for j, lo, up in bounds:
        box[j] = (lo, up)
    got = linprog(np.array(cost), A_eq=a, b_eq=np.array(rhs), bounds=box, method="highs")
    if got.status == 0:
        return "optimal", float(got.fun)
    assert got.status == 2, got.message  # infeasible, nothing else
    return "infeasible", None


def ours(m: int, cols: Columns, cost: list[float], rhs: list[float],
         bounds: list[tuple[int, float, float]]) -> tuple[str, float, float, list[float], list[float], list[float]]:
    start = [0]
    for c in cols:
        start.append(start[-1] + len(c))
    rows = [r for c in cols for r in c]
    return _core.lp_relaxation(m, start, rows, cost, rhs, bounds)


def check(m: int, cols: Columns, cost: list[float], rhs: list[float],
          bounds: list[tuple[int, float, float]] = []) -> str:
    """Ours against HiGHS on one relaxation; its status."""
    status, bound, objective, x, y, d = ours(m, cols, cost, rhs, bounds)
    theirs, optimum = highs(m, cols, cost, rhs, bounds)
    assert status == theirs, (status, theirs)
    if status != "optimal":
        return status
    assert optimum is not None
    # The same optimum, to the precision of the costs' scale.
    # (Measured: within 4e-15 of HiGHS's, relatively, with costs to 2^50.)
    scale = max(1.0, max(abs(c) for c in cost))
    near = 1e-9 * max(1.0, abs(optimum))
    assert abs(objective - optimum) <= near, (objective, optimum)
    assert bound <= optimum + near, (bound, optimum)
    # Primal feasibility: the rows met, every value within its bounds.
    lo = [0.0] * len(cols)
    up = [1.0] * len(cols)
    for j, a, b in bounds:
        lo[j], up[j] = a, b
    sums = [0.0] * m
    for j, c in enumerate(cols):
        assert lo[j] - 1e-9 <= x[j] <= up[j] + 1e-9, (j, x[j])
        for r in c:
            sums[r] += x[j]
    assert max(abs(s - b) for s, b in zip(sums, rhs)) <= 1e-7
    # Dual feasibility: each reduced cost is its cost less its rows'
    # multipliers, and has the sign its value's bound asks for.
    for j, c in enumerate(cols):
        assert abs(d[j] - (cost[j] - sum(y[r] for r in c))) <= 1e-9 * scale, j
        tol = 1e-9 * scale
        if x[j] < up[j] - 1e-9:
            assert d[j] >= -tol, (j, x[j], d[j])
        if x[j] > lo[j] + 1e-9:
            assert d[j] <= tol, (j, x[j], d[j])
    return status


def test_random_relaxations_agree_with_highs() -> None:
    rng = random.Random(81)
    seen = set()
    for _ in range(300):
        m = rng.randint(1, 30)
        cols = random_columns(rng, m, rng.randint(1, 80), cover=rng.random() < 0.8)
        cost = [float(rng.randint(1, 100) * len(c)) for c in cols]
        seen.add(check(m, cols, cost, [1.0] * m))
    assert seen == {"optimal", "infeasible"}


def test_degenerate_relaxations_agree_with_highs() -> None:
    # Every cost alike, or one a row: ties everywhere in the ratio tests.
    rng = random.Random(82)
    for _ in range(200):
        m = rng.randint(2, 25)
        cols = random_columns(rng, m, rng.randint(5, 60), most=rng.randint(1, 6))
        cost = [1.0] * len(cols) if rng.random() < 0.5 else [float(len(c)) for c in cols]
        check(m, cols, cost, [1.0] * m)


def test_badly_scaled_relaxations_agree_with_highs() -> None:
    # Costs from 1 to 2^50, spread on a log scale.
    rng = random.Random(83)
    for _ in range(150):
        m = rng.randint(2, 25)
        cols = random_columns(rng, m, rng.randint(5, 60))
        cost = [float(round(2 ** rng.uniform(0, 50))) for _ in cols]
        check(m, cols, cost, [1.0] * m)


def test_duplicate_columns_agree_with_highs() -> None:
    rng = random.Random(84)
    for _ in range(150):
        m = rng.randint(2, 20)
        cols = random_columns(rng, m, rng.randint(3, 30))
        cost = [float(rng.randint(1, 50)) for _ in cols]
        for _ in range(rng.randint(1, 20)):
            j = rng.randrange(len(cols))
            cols.append(list(cols[j]))
            cost.append(cost[j] if rng.random() < 0.5 else cost[j] + rng.randint(-3, 3))
        check(m, cols, cost, [1.0] * m)


def test_fixed_columns_and_infeasible_rows_agree_with_highs() -> None:
    # Columns fixed at 0 or 1 (a node of the tree), rows no column meets,
    # and right-hand sides of 0 or 2: infeasible and feasible alike.
    rng = random.Random(85)
    seen = set()
    for _ in range(300):
        m = rng.randint(2, 20)
        cols = random_columns(rng, m, rng.randint(3, 40), cover=rng.random() < 0.7)
        cost = [float(rng.randint(1, 60)) for _ in cols]
        bounds = [(j, v, v) for j in rng.sample(range(len(cols)), rng.randint(0, min(4, len(cols))))
                  for v in [float(rng.randint(0, 1))]]
        rhs = [float(rng.choice([1, 1, 1, 0, 2])) if rng.random() < 0.2 else 1.0 for _ in range(m)]
        seen.add(check(m, cols, cost, rhs, bounds))
    assert seen == {"optimal", "infeasible"}


def test_bad_arrays_are_refused() -> None:
    with pytest.raises(ValueError, match="row past the last or twice"):
        _core.lp_relaxation(2, [0, 2], [1, 1], [1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="starts"):
        _core.lp_relaxation(2, [0, 3], [1, 0], [1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="finite"):
        _core.lp_relaxation(1, [0, 1], [0], [float("nan")], [1.0])
    with pytest.raises(ValueError, match="bounds of column 0"):
        _core.lp_relaxation(1, [0, 1], [0], [1.0], [1.0], [(0, 1.0, 0.0)])


def crew_like(rng: random.Random, m: int, n: int, wide: bool = False) -> tuple[Problem, list[int]]:
    """A set partition of `m` rows: duties of consecutive rows (a partition
    planted, so that one exists) and random ones, with costs that grow with
    their length (or, `wide`, from 1 up on a log scale, their sum under
    2^50: the tree takes no more, see `Partition::suits`)."""
    cols: Columns = []
    r = 0
    while r < m:
        k = rng.randint(1, 4)
        cols.append(list(range(r, min(m, r + k))))
        r += k
    while len(cols) < n:
        a = rng.randrange(m)
        cols.append(sorted({(a + rng.randint(0, 6)) % m for _ in range(rng.randint(1, 4))}))
    rng.shuffle(cols)
    p = Problem()
    p.add_primary([f"r{i}" for i in range(m)])
    costs = []
    for c in cols:
        cost = round(2 ** rng.uniform(0, 49 - n.bit_length())) if wide else 10 * len(c) + rng.randint(0, 9)
        p.add_option([f"r{i}" for i in c], cost=cost)
        costs.append(cost)
    return p, costs


@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("wide", [False, True])
def test_the_lp_trees_k_best_are_the_searchs(k: int, wide: bool) -> None:
    # The tree prunes a node by its bound in floating point: with costs
    # from 1 to 2^40 and more too, it keeps every node that may hold one of
    # the K.
    rng = random.Random(86 + k + 10 * wide)
    for _ in range(40):
        p, costs = crew_like(rng, rng.randint(5, 40), rng.randint(20, 200), wide)
        tree = _core.lp_tree_best(p.compile(), costs, k)
        assert tree is not None
        search = [s.cost for s in p.best(k)]
        assert [c for c, _ in tree] == search
        for cost, ids in tree:
            assert p.cost(ids) == cost and p.is_solution(ids)
