"""The first few solutions of a problem, by randomized restarts.

A depth-first search can make a wrong choice early whose failure only shows
many levels later, after choices elsewhere that had nothing to do with it;
it then backtracks through all their combinations before it undoes the one
that mattered ("thrashing"). On big boards with independent regions, such as
sparse Akari puzzles, a few runs in a hundred take a thousand times longer
than the rest. Gomes, Selman and Kautz ("Boosting combinatorial search
through randomization", 1998) showed the cure for such heavy tails: run the
search in a random order with a node budget, and when the budget runs out,
start again with another order and twice the budget.

Every run here is a complete search, so nothing is guessed: solutions are
collected (distinct ones only) until ``limit`` are known, and a run that
reaches the end of its tree has seen every solution, so the answer is
exact. The budgets double, so the total work is at most about twice that of
the run which finishes, plus the first budget.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from . import _core, limits
from .errors import LimitReached

__all__ = ["KEEP", "first_budget", "solutions"]

#: Solutions remembered across runs; past this many the current run goes on
#: without a budget (the memory of what was seen stays bounded).
KEEP = 1000


def first_budget(problem: _core.CompiledProblem) -> int:
    """The node budget of the first run: the depth of the deepest search
    there can be (a level per option, plus Algorithm M's null branches, a
    level per primary item), so that a run which hardly backtracks, as most
    do, finishes within it.

    >>> p = _core.CompiledProblem(1, 0, [1], [1], [0, 1], [0], [0])
    >>> first_budget(p)
    1024
    """
    return max(1024, problem.n_options + problem.n_primary)


def solutions(
    problem: _core.CompiledProblem,
    limit: int | None = None,
    *,
    seconds: float | None = None,
    first_nodes: int | None = None,
    plain_first: bool = False,
    total: int | None = None,
    budget: limits.Budget | None = None,
) -> Iterator[tuple[int, ...]]:
    """Distinct solutions (increasing option ids), at most ``limit``, found by
    randomized runs with doubling node budgets (the first one ``first_nodes``;
    with ``plain_first``, the first run in the input order, for problems
    where a random order wanders, such as Akari boards with long segments).
    Raises `LimitReached` (after the solutions found) if ``seconds`` run out,
    or once the runs have searched ``total`` nodes (a budget in nodes, so
    that what it decides is the same on every machine), or the run's
    `budget` is spent.

    >>> # Items A, B; options {A}, {B}, {A, B}: two solutions.
    >>> p = _core.CompiledProblem(2, 0, [1, 1], [1, 1], [0, 1, 2, 4], [0, 1, 0, 1], [0, 0, 0, 0])
    >>> sorted(solutions(p))
    [(0, 1), (2,)]
    >>> len(list(solutions(p, 1)))
    1
    """
    limit = limits.limit(limit)
    total, seconds, stop = limits.within(budget, total, limits.seconds(seconds))
    deadline = None if seconds is None else time.monotonic() + seconds
    nodes = first_nodes if first_nodes is not None else first_budget(problem)
    seen: set[tuple[int, ...]] = set()
    found = 0
    run = 0
    spent = 0  # nodes of the runs before this one
    while True:
        if total is not None:
            if spent >= total:
                raise LimitReached(f"{total} nodes searched, {found} solutions", count=found, stats=None,
                                   budget="nodes")
            nodes = min(nodes, total - spent)
        seed = None if plain_first and run == 0 else run
        search = _core.Search(problem, seed, "auto")
        limited = True  # does this run have a node budget?
        while limit is None or found < limit:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ids = search.next_solution(nodes if limited else None, left, stop)
            if ids is None:
                if search.exhausted:
                    return  # this run saw the whole tree: nothing is missing
                if limited and search.stats.nodes >= nodes:
                    break  # the budget ran out: restart
                raise LimitReached(f"time ran out after {found} solutions", count=found, stats=search.stats,
                                   budget=limits.stopped_by(budget, deadline))
            key = tuple(ids)
            if key in seen:
                continue
            found += 1
            if limited:
                seen.add(key)
                if len(seen) >= KEEP:
                    limited = False  # finish this run, remembering nothing more
            yield key
        else:
            return
        run += 1
        spent += search.stats.nodes
        nodes *= 2
