"""The verbs of solving: a search, the stream of solutions, the first one,
uniqueness; one engine by name, or the portfolio of dancing links and CDCL.

These take a problem as data (`covering.model.ProblemData`); `Problem`'s
methods of the same names call them.

>>> from covering.model import ProblemData
>>> p = ProblemData.from_arrays(["A", "B"], [0, 1, 2, 4], [0, 1, 0, 1], labels=["a", "b", "ab"])
>>> list(solutions(p)), first(p), solve_unique(p)[1].name
([['a', 'b'], ['ab']], ['a', 'b'], 'MULTIPLE')
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from . import limits
from .errors import LimitReached
from .model import ProblemData
from .parallel import ParallelSearch
from .sat import SatSolver
from .solver import Solver
from .uniqueness import Uniqueness

__all__ = ["PORTFOLIO_NODES", "make_solver", "solutions", "first", "solve_unique"]

#: Nodes of dancing links before the portfolio (`first`, `uniqueness`)
#: turns to the CDCL solver: about a tenth of a second.
PORTFOLIO_NODES = 200_000


def make_solver(problem: ProblemData, *, order: str = "input", seed: int | None = None,
                engine: str = "auto") -> Solver | SatSolver:
    """One search over `problem` (see `Problem.solver`), remembered as the
    problem's last (its `stats`).

    >>> p = ProblemData.from_arrays(["A"], [0, 1], [0])
    >>> make_solver(p).count(), make_solver(p, engine="sat").uniqueness().name
    (1, 'UNIQUE')
    """
    if engine == "sat":
        if order != "input" or seed is not None:
            raise ValueError("engine='sat' takes no order or seed (the CDCL solver picks its own order)")
        return SatSolver(problem)
    solver = Solver(problem, order=order, seed=seed, engine=engine)
    problem.remember(solver)
    return solver


def solutions(
    problem: ProblemData,
    limit: int | None = None,
    *,
    ids: bool = False,
    order: str = "input",
    seed: int | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    engine: str = "auto",
    threads: int = 1,
    conflicts: int | None = None,
) -> Iterator[Any]:
    """The solutions of `problem`, found as they are asked for (see
    `Problem.solutions`)."""
    limit, threads = limits.limit(limit), limits.threads(threads)
    if engine == "sat":
        if threads > 1:
            raise ValueError("engine='sat' runs on one thread")
        return SatSolver(problem).solutions(limit, ids=ids, conflicts=conflicts, nodes=nodes, seconds=seconds)
    if conflicts is not None:
        raise ValueError("conflicts= is the budget of engine='sat' (the dancing-links engines count nodes=)")
    if threads > 1:
        if order != "input" or nodes is not None or seconds is not None:
            raise ValueError("a search on several threads takes no order, nodes or seconds")
        return ParallelSearch(problem, threads, engine=engine).solutions(limit, ids=ids)
    solver = make_solver(problem, order=order, seed=seed, engine=engine)
    return solver.solutions(limit, ids=ids, nodes=nodes, seconds=seconds)


def first(problem: ProblemData, **kwargs: Any) -> Any:
    """The first solution found, or None (see `Problem.first`): with the
    default engine and no budget, order or threads, the portfolio, dancing
    links for `PORTFOLIO_NODES` nodes, then the CDCL solver."""
    if kwargs.get("engine", "auto") == "auto" and not set(kwargs) - {"engine", "ids"}:
        ids = bool(kwargs.get("ids", False))
        try:
            return next(iter(solutions(problem, 1, ids=ids, nodes=PORTFOLIO_NODES)), None)
        except LimitReached:
            return next(iter(solutions(problem, 1, ids=ids, engine="sat")), None)
    return next(iter(solutions(problem, 1, **kwargs)), None)


def solve_unique(problem: ProblemData, *, ids: bool = False, nodes: int | None = None,
                 seconds: float | None = None, engine: str = "auto",
                 conflicts: int | None = None) -> tuple[Any, Uniqueness]:
    """A solution and whether it is the only one, from one search (see
    `Problem.solve_unique`)."""
    nodes, seconds, conflicts = limits.nodes(nodes), limits.seconds(seconds), limits.conflicts(conflicts)
    if engine not in ("auto", "sat") and conflicts is not None:
        raise ValueError("conflicts= is the budget of engine='sat' (the dancing-links engines count nodes=)")
    start = time.monotonic()
    found: list[tuple[int, ...]] = []

    def two(**budgets: Any) -> bool:
        """Looks for two solutions (kept in `found`) with `budgets`; True if
        that settled it."""
        try:
            for sol in solutions(problem, 2, ids=True, **budgets):
                found.append(sol)
        except LimitReached:
            return False
        return True

    if engine == "sat":
        settled = two(engine="sat", conflicts=conflicts, nodes=nodes, seconds=seconds)
    elif engine != "auto":
        settled = two(engine=engine, nodes=nodes, seconds=seconds)
    else:
        budget = PORTFOLIO_NODES if nodes is None else min(nodes, PORTFOLIO_NODES)
        settled = two(nodes=budget, seconds=seconds)
        if not settled and (nodes is None or nodes > PORTFOLIO_NODES):
            # Past the budget: the CDCL solver, from the start; dancing
            # links' first solution (if any) is the one shown.
            shown = found[:1]
            found.clear()
            left = None if seconds is None else max(0.0, seconds - (time.monotonic() - start))
            # The nodes left are the CDCL solver's decisions.
            settled = two(engine="sat", conflicts=conflicts, nodes=None if nodes is None else nodes - budget,
                          seconds=left)
            if shown and found:
                found[0] = shown[0]
    solution = None if not found else found[0] if ids else [problem.label(o) for o in found[0]]
    return solution, Uniqueness.of(len(found)) if settled else Uniqueness.UNKNOWN
