"""The K cheapest solutions: minimum-cost exact cover (Knuth's DLX5).

Each option may carry a cost (`ProblemData.add_option`'s ``cost``, the
``costs`` of the bulk builders, DLX5's ``|n`` entries in a ``.dlx`` file); a
solution costs the sum of its options. `best` returns the ``k`` cheapest
solutions, cheapest first, by the engine's minimum-cost search (the `xc`
crate's ``mincost`` module: DLX5's taxes, thresholds and cutoff, with prices
from the linear relaxation), on exact cover, colors and multiplicities.
Ties are broken by the options' ids, so the list of costs is the same
whatever the search order; which of several solutions of equal cost at the
end of the list is kept is the search's choice.

A budget (``nodes``, ``seconds``) that ends the search early gives the best
found so far, with ``optimal`` False; Ctrl-C raises `Interrupted` carrying
them as ``e.best``.

>>> from covering import Problem
>>> p = Problem()
>>> p.add_primary(["A", "B"])
>>> _ = p.add_option(["A", "B"], cost=5)
>>> _ = p.add_option(["A"], cost=1)
>>> _ = p.add_option(["B"], cost=2)
>>> found = p.best(2)
>>> [(s.cost, s.ids) for s in found], found.optimal
([(3, (1, 2)), (5, (0,))], True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from . import _core, limits, sizes
from .errors import CostError, Interrupted
from .model import ProblemData
from .runs import Runs, remember

__all__ = ["PricedSolution", "Best", "MinCostStats", "MinCostRun", "best"]

class PricedSolution(NamedTuple):
    """A solution with its cost: the option ids (increasing) and their labels."""

    cost: int
    ids: tuple[int, ...]
    labels: list[Any]


class MinCostStats(NamedTuple):
    """The counters of a minimum-cost search: nodes entered, options hidden,
    solutions kept when found (each cheaper than the K-th best of its time),
    the deepest level; the cheapest cost found (None if none) and whether
    the search ended (so that what it found is proven the K best)."""

    nodes: int
    updates: int
    improvements: int
    max_level: int
    optimum: int | None
    optimal: bool


class Best(list[PricedSolution]):
    """The cheapest solutions found, cheapest first; ``optimal`` says
    whether the search ended (they are then the K cheapest of all),
    ``asked`` is K, ``all_there_are`` says that the problem has fewer
    solutions than asked and every one is here, and ``stats`` holds the
    search's counters.

    >>> from covering import Problem
    >>> found = Problem.from_dlx("A B\\nA |2\\nB\\nA B |5\\n").best(10)
    >>> len(found), found.asked, found.all_there_are
    (2, 10, True)
    """

    def __init__(self, found: list[PricedSolution], optimal: bool, stats: MinCostStats, asked: int = 1) -> None:
        super().__init__(found)
        self.optimal = optimal
        self.stats = stats
        self.asked = asked

    @classmethod
    def none(cls, asked: int = 1) -> Best:
        """No solution, proven without a search (a puzzle whose own rules
        say there is none).

        >>> Best.none(3).optimal, Best.none(3).all_there_are
        (True, True)
        """
        return cls([], True, MinCostStats(0, 0, 0, 0, None, True), asked)

    @property
    def all_there_are(self) -> bool:
        return self.optimal and len(self) < self.asked

    def __repr__(self) -> str:
        return f"Best({list.__repr__(self)}, optimal={self.optimal})"


class MinCostRun:
    """One minimum-cost search of a problem, resumable (`run` again after a
    budget); the engine's `_core.MinCostSearch` with labels and checks,
    refused (`covering.sizes.SizeError`) before it is built if it would not
    fit ``memory`` bytes (the run's limit; None: `covering.sizes.max_memory`)."""

    def __init__(self, problem: ProblemData, k: int = 1, memory: int | None = None) -> None:
        k = _k(k)
        compiled = problem.compile()
        sizes.check("the min-cost search", compiled.footprint("mincost", k), limit=memory)
        try:
            self._search = _core.MinCostSearch(compiled, problem.cost_bytes(), k)
        except ValueError as e:
            raise CostError(str(e)) from None
        self._problem = problem
        self.k = k

    def run(self, budget: limits.Budget | None = None) -> bool:
        """Searches until the end (True) or the run's `budget` (its nodes
        counted from the search's start) ran out (False)."""
        return bool(self._search.run(budget))

    def cancel(self) -> None:
        """Stops a running search from another thread."""
        self._search.cancel()

    @property
    def cutoff(self) -> int | None:
        """The cost to beat: the K-th best so far, once K are known."""
        return self._search.cutoff

    def found(self) -> list[PricedSolution]:
        """The solutions kept so far, cheapest first."""
        label = self._problem.label
        return [PricedSolution(cost, tuple(ids), [label(o) for o in ids]) for cost, ids in self._search.best()]

    @property
    def stats(self) -> MinCostStats:
        c = self._search.counters
        return MinCostStats(c.nodes, c.updates, c.improvements, c.max_level, self._search.optimum,
                            bool(self._search.done))

    def result(self) -> Best:
        """What was found, as `best` returns it."""
        stats = self.stats
        return Best(self.found(), stats.optimal, stats, self.k)


def _k(k: object) -> int:
    value = limits.limit(k, "k")
    if value is None or not 1 <= value < 2**32:
        raise limits.BudgetError(f"k: must be an integer from 1 to 2**32 - 1, not {k!r}")
    return value


#: Seconds between two looks at the search for `best`'s ``on_improve``.
LOOK = 0.1


def best(problem: ProblemData, k: int = 1, *, nodes: int | None = None, seconds: float | None = None,
         on_improve: Callable[[MinCostRun], None] | None = None, budget: limits.Budget | None = None,
         runs: Runs | None = None) -> Best:
    """The ``k`` cheapest solutions of `problem` (see the module's
    documentation), within `nodes`, `seconds` and the run's `budget`;
    ``on_improve(run)`` is called, every `LOOK` seconds at most, when the
    search has kept a new solution; the search is remembered in `runs`.

    >>> from covering import Problem
    >>> p = Problem(); p.add_primary(["A"])
    >>> _ = p.add_option(["A"], cost=2); _ = p.add_option(["A"], cost=1)
    >>> best(p)[0]
    PricedSolution(cost=1, ids=(1,), labels=[('A',)])
    """
    budget = limits.begin(budget, nodes, seconds)
    run = MinCostRun(problem, k, budget.memory)
    remember(runs, run)
    try:
        if on_improve is None:
            run.run(budget)
        else:
            seen = 0
            while True:
                # A look every LOOK seconds: a slice of the run's time (its nodes count from the start).
                done = run.run(budget.begin(seconds=LOOK))
                improvements = run.stats.improvements
                if improvements != seen:
                    seen = improvements
                    on_improve(run)
                if done or budget.over() or (budget.nodes is not None and run.stats.nodes >= budget.nodes):
                    break
    except KeyboardInterrupt:
        e = Interrupted(None, run.stats, "the min-cost search")
        e.best = run.result()  # type: ignore[attr-defined]
        raise e from None
    return run.result()
