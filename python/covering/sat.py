"""The learning solver: exact cover by CDCL (CaDiCaL), beside dancing links.

Dancing links never learns from a dead end, so a bad early choice in one
region is refuted again under every combination of choices elsewhere; a
uniqueness proof on a big puzzle can take minutes that a CDCL solver,
learning a clause from each conflict, does in milliseconds. `SatSolver` runs
the engine's clause encoding (see ``crates/sat/src/lib.rs``: one variable per
option, cardinality constraints per item, colors by one variable per color)
in CaDiCaL, in-process: solutions one by one (each found is blocked by a
clause), the first, uniqueness, and counts *up to a limit*. An unbounded
count is refused: blocking clauses enumerate, and the counting engines
(`covering.counting`) count far faster.

Budgets: ``conflicts`` (the solver's unit of work), ``nodes`` (its
decisions: the nodes of its search tree, as for dancing links) and
``seconds``; `cancel()` from another thread and Ctrl-C stop it
within milliseconds (through the solver's terminate callback).

>>> from covering.puzzles.queens import queens_problem
>>> p = queens_problem(8)
>>> SatSolver(p).uniqueness().name
'MULTIPLE'
>>> p.is_solution(next(SatSolver(p).solutions(1, ids=True)))
True
>>> SatSolver(queens_problem(6)).count(limit=10)
4
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import _core, limits, sizes
from .errors import Cancelled, Interrupted, LimitReached
from .model import ProblemData
from .uniqueness import Uniqueness

__all__ = ["SatSolver", "SatStats"]


#: The counters of a CDCL search: solutions, conflicts, decisions (its
#: nodes, also as ``nodes``), propagations, solves, variables, clauses.
SatStats = _core.SatStats


def _new_search(compiled: _core.CompiledProblem, memory: int | None) -> _core.SatSearch:
    """The CDCL search, refused before its clauses are made when they would
    not fit the run's `memory` (`covering.sizes`)."""
    sizes.check_engine("sat", compiled.footprint("sat"), memory)
    return _core.SatSearch(compiled)


class SatSolver:
    """One CDCL search over `problem` (see the module's text), refused
    before its clauses are made if they would not fit ``memory`` bytes (the
    run's limit; None: `covering.sizes.max_memory`).

    >>> from covering import Problem
    >>> p = Problem(); p.add_primary(["A", "B"])
    >>> for items in (["A"], ["B"], ["A", "B"]):
    ...     _ = p.add_option(items)
    >>> sorted(SatSolver(p).solutions(ids=True))
    [(0, 1), (2,)]
    """

    engine = "sat"

    def __init__(self, problem: ProblemData, memory: int | None = None) -> None:
        self.problem: ProblemData | None = problem
        self._search = _new_search(problem.compile(), memory)
        self._cancelled = False

    @classmethod
    def of_compiled(cls, compiled: _core.CompiledProblem, memory: int | None = None) -> SatSolver:
        """A solver of an engine's compiled arrays (a puzzle encoded in Rust,
        without names): its solutions are option ids only.

        >>> from covering.puzzles.queens import queens_problem
        >>> len(list(SatSolver.of_compiled(queens_problem(6).compile()).solutions(ids=True)))
        4
        """
        solver = cls.__new__(cls)
        solver.problem = None
        solver._search = _new_search(compiled, memory)
        solver._cancelled = False
        return solver

    def __reduce__(self) -> Any:
        raise TypeError("a SatSolver holds a search under way in CaDiCaL and cannot be pickled; "
                        "pickle its problem and start a new solver")

    @property
    def stats(self) -> SatStats:
        return self._search.stats

    @property
    def exhausted(self) -> bool:
        """Has every solution been found?"""
        return self._search.exhausted

    def cancel(self) -> None:
        """Stops the search from another thread (within milliseconds)."""
        self._cancelled = True
        self._search.cancel()

    def _next(self, conflicts: int | None, found: int, run: limits.Budget) -> tuple[int, ...] | None:
        """The next solution's option ids; None at the end; `LimitReached`
        (or `Cancelled`) when the `run`'s budget or `cancel()` stopped it
        first. `conflicts` and the run's nodes (decisions) are totals over
        the solver's life."""
        kind, ids = self._search.next(conflicts, run)
        if kind == "solution":
            return tuple(ids)
        if kind == "exhausted":
            return None
        if self._cancelled:
            self._cancelled = False
            raise Cancelled(f"cancelled after {found} solutions", count=found, stats=self.stats)
        after = self.stats
        spent = ("conflicts" if conflicts is not None and after.conflicts >= conflicts and not run.over()
                 else run.ran_out())
        raise LimitReached(f"budget reached after {found} solutions", count=found, stats=self.stats, budget=spent)

    def solutions(self, limit: int | None = None, *, ids: bool = False, conflicts: int | None = None,
                  nodes: int | None = None, seconds: float | None = None,
                  budget: limits.Budget | None = None) -> Iterator[Any]:
        """The solutions not yet seen, in no particular order, at most
        `limit`: lists of labels (tuples of option ids with ``ids=True``).
        `conflicts`, `nodes` (decisions) and `seconds` are budgets for the
        whole stream, inside the run's `budget`.

        >>> from covering.puzzles.queens import queens_problem
        >>> s = SatSolver(queens_problem(8))
        >>> len(list(s.solutions(ids=True)))
        92
        >>> s.stats.decisions > 0 and s.stats.propagations > s.stats.decisions
        True
        """
        limit, conflicts = limits.limit(limit), limits.conflicts(conflicts)
        run = limits.begin(budget, nodes, seconds)
        if not ids and self.problem is None:
            raise ValueError("a solver of compiled arrays has no labels: ask for ids=True")
        base = self.stats
        problem = self.problem
        found = 0
        while limit is None or found < limit:
            if run.over():
                # The time is up even while solutions keep coming.
                raise LimitReached(f"budget reached after {found} solutions", count=found, stats=self.stats,
                                   budget=run.ran_out())
            try:
                sol = self._next(None if conflicts is None else base.conflicts + conflicts, found,
                                 run.capped(None if run.nodes is None else base.decisions + run.nodes))
            except KeyboardInterrupt:
                raise Interrupted(found, self.stats) from None
            if sol is None:
                return
            found += 1
            yield sol if ids or problem is None else [problem.label(o) for o in sol]

    def first(self, *, conflicts: int | None = None, nodes: int | None = None,
              seconds: float | None = None, budget: limits.Budget | None = None) -> Any:
        """A solution (labels), or None when there is none."""
        return next(self.solutions(1, conflicts=conflicts, nodes=nodes, seconds=seconds, budget=budget), None)

    def count(self, limit: int | None = None, *, conflicts: int | None = None, nodes: int | None = None,
              seconds: float | None = None, budget: limits.Budget | None = None) -> int:
        """How many solutions, up to `limit` (required: see the module's text)."""
        if limits.limit(limit) is None:
            raise ValueError("engine='sat' counts only up to a limit (it blocks each solution found); "
                             "count all the solutions with the counting engines: count(method='auto')")
        return sum(1 for _ in self.solutions(limit, ids=True, conflicts=conflicts, nodes=nodes, seconds=seconds,
                                             budget=budget))

    def uniqueness(self, *, conflicts: int | None = None, nodes: int | None = None,
                   seconds: float | None = None, budget: limits.Budget | None = None) -> Uniqueness:
        """NONE, UNIQUE or MULTIPLE (among the solutions not yet seen);
        UNKNOWN when a budget ran out first."""
        try:
            n = self.count(2, conflicts=conflicts, nodes=nodes, seconds=seconds, budget=budget)
        except LimitReached as e:
            if isinstance(e, Cancelled):
                raise
            return Uniqueness.MULTIPLE if (e.count or 0) >= 2 else Uniqueness.UNKNOWN
        return Uniqueness.of(n)
