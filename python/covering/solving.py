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

from . import limits, sizes
from .errors import LimitReached
from .model import ProblemData
from .parallel import ParallelSearch
from .sat import SatSolver
from .solver import Solver
from .uniqueness import Uniqueness

__all__ = ["PORTFOLIO_NODES", "make_solver", "solutions", "first", "solve_unique", "sat_estimate"]

#: Nodes of dancing links before the portfolio (`first`, `uniqueness`)
#: turns to the CDCL solver: about a tenth of a second.
PORTFOLIO_NODES = 200_000
#: The CDCL encoding's build time an entry (or option), measured on a
#: million random options over 2,000 primary and 200 colored secondary
#: items: 13.7 s for 6 million entries and options (rounded up). Its memory
#: is the engine's estimate (``CompiledProblem.footprint("sat")``).
SAT_SECONDS_PER_ENTRY = 2.5e-6


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
    default engine and no order or threads, the portfolio, dancing links
    for `PORTFOLIO_NODES` nodes, then the CDCL solver. A budget is shared
    out, not a reason to leave the portfolio: dancing links may take half
    of ``seconds``, the CDCL solver what is left, and ``nodes`` counts both
    (the CDCL solver's decisions as nodes).

    >>> p = ProblemData.from_arrays(["A", "B"], [0, 1, 2, 4], [0, 1, 0, 1])
    >>> first(p, ids=True), first(p, ids=True, seconds=1.0)
    ((0, 1), (0, 1))
    """
    if kwargs.get("engine", "auto") == "auto" and not set(kwargs) - {"engine", "ids", "nodes", "seconds"}:
        return _portfolio_first(problem, bool(kwargs.get("ids", False)), limits.nodes(kwargs.get("nodes")),
                                limits.seconds(kwargs.get("seconds")))
    return next(iter(solutions(problem, 1, **kwargs)), None)


def sat_estimate(problem: ProblemData) -> tuple[int, float]:
    """(bytes, seconds) the CDCL encoding of `problem` is expected to hold
    and to take to build.

    >>> sat_estimate(ProblemData.from_arrays(["A"], [0, 1], [0]))[0] > 0
    True
    """
    compiled = problem.compile()
    entries = compiled.n_entries + compiled.n_options
    return compiled.footprint("sat"), entries * SAT_SECONDS_PER_ENTRY


def _sat_skipped(problem: ProblemData, left: float | None) -> bool:
    """Should the portfolio skip the CDCL stage? Yes when its encoding would
    not fit the memory (`sizes.max_memory`) or half the time `left`; then
    why is noted on `problem.skipped`."""
    estimate, build = sat_estimate(problem)
    most = sizes.max_memory()
    if estimate > most:
        why = f"its encoding needs about {sizes.human(estimate)}, past the limit of {sizes.human(most)}"
    elif left is not None and build * 2 > left:
        why = f"its encoding takes about {build:.1f} s to build, and {left:.1f} s are left"
    else:
        return False
    problem.note_skipped("sat", estimate, why)
    return True


def _portfolio_first(problem: ProblemData, ids: bool, nodes: int | None, seconds: float | None) -> Any:
    """`first`'s portfolio: dancing links for `PORTFOLIO_NODES` nodes (and
    at most half of `seconds`), then the CDCL solver, unless its encoding
    would not fit the memory (`sizes.max_memory`) or the time left: then
    dancing links go on, from where they were, with the whole budget left
    (what was left out is in `problem.skipped`)."""
    start = time.monotonic()
    problem.begin_run()
    budget = PORTFOLIO_NODES if nodes is None else min(nodes, PORTFOLIO_NODES)
    solver = make_solver(problem)
    try:
        return next(iter(solver.solutions(1, ids=ids, nodes=budget,
                                          seconds=None if seconds is None else seconds / 2)), None)
    except LimitReached:
        if nodes is not None and nodes <= budget:
            raise
    left = None if seconds is None else max(0.0, seconds - (time.monotonic() - start))
    if _sat_skipped(problem, left):
        return next(iter(solver.solutions(1, ids=ids, nodes=nodes, seconds=left)), None)
    return next(iter(solutions(problem, 1, ids=ids, engine="sat", seconds=left,
                               nodes=None if nodes is None else nodes - budget)), None)


def solve_unique(problem: ProblemData, *, ids: bool = False, nodes: int | None = None,
                 seconds: float | None = None, engine: str = "auto",
                 conflicts: int | None = None) -> tuple[Any, Uniqueness]:
    """A solution and whether it is the only one, from one search (see
    `Problem.solve_unique`)."""
    nodes, seconds, conflicts = limits.nodes(nodes), limits.seconds(seconds), limits.conflicts(conflicts)
    if engine not in ("auto", "sat") and conflicts is not None:
        raise ValueError("conflicts= is the budget of engine='sat' (the dancing-links engines count nodes=)")
    start = time.monotonic()
    problem.begin_run()
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
        solver = make_solver(problem)

        def dancing(**budgets: Any) -> bool:
            """`two` on dancing links, going on from where they stopped."""
            try:
                for sol in solver.solutions(2 - len(found), ids=True, **budgets):
                    found.append(sol)
            except LimitReached:
                return False
            return True

        settled = dancing(nodes=budget, seconds=seconds)
        if not settled and (nodes is None or nodes > PORTFOLIO_NODES):
            left = None if seconds is None else max(0.0, seconds - (time.monotonic() - start))
            if _sat_skipped(problem, left):
                # No room or time for the CDCL encoding: dancing links go on
                # with the whole budget (its nodes count from the start).
                settled = dancing(nodes=nodes, seconds=left)
            else:
                # Past the budget: the CDCL solver, from the start; dancing
                # links' first solution (if any) is the one shown.
                shown = found[:1]
                found.clear()
                # The nodes left are the CDCL solver's decisions.
                settled = two(engine="sat", conflicts=conflicts, nodes=None if nodes is None else nodes - budget,
                              seconds=left)
                if shown and found:
                    found[0] = shown[0]
    solution = None if not found else found[0] if ids else [problem.label(o) for o in found[0]]
    return solution, Uniqueness.of(len(found)) if settled else Uniqueness.UNKNOWN
