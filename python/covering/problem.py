"""`Problem`: the exact cover problem with its verbs, the class users hold.

An exact cover problem has *items* and *options* (sets of items). Primary
items must each be covered exactly once, or between ``lo`` and ``hi`` times
when they have bounds (Knuth's multiplicities); secondary items at most once,
unless every option that has one gives it the same *color*. A solution is a
set of options meeting all of that.

The data (items, bounds, colors, options as arrays, labels, `compile()`)
is `covering.model.ProblemData`, at the bottom of the package; `Problem`
adds the verbs as methods, each a call into the module that does it:
solving (`covering.solving`), counting (`covering.counting`), diagrams
(`covering.zdd`), reading and writing (`covering.dlxfile`,
`covering.matrix`).

>>> from covering import Problem
>>> p = Problem()
>>> p.add_primary(["A", "B", "C"])
>>> p.add_secondary(["x"])
>>> for items in (["A", "B"], ["C", "x:red"], ["A"], ["B", "C"], ["B", "x:red"]):
...     _ = p.add_option(items)
>>> for solution in p.solutions():
...     print(solution)
[('A', 'B'), ('C', 'x:red')]
[('C', 'x:red'), ('A',), ('B', 'x:red')]
[('A',), ('B', 'C')]
>>> p.count()
3
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any, Literal, overload

from . import counting, limits, mincost, reduction, solving
from .counting import Counted
from .mincost import Best
from .reduction import Reduction
from .dlxfile import read_dlx, write_dlx
from .matrix import from_matrix
from .model import ProblemData
from .orlib import read_orlib
from .sat import SatSolver
from .solver import Solver
from .runs import Runs
from .solving import PORTFOLIO_NODES
from .uniqueness import Uniqueness
from .zdd import Zdd, build_zdd

__all__ = ["Problem", "Uniqueness", "PORTFOLIO_NODES"]


class Problem(ProblemData):
    """An exact cover problem, built item by item and option by option (or
    in bulk: `from_arrays`), with the verbs that solve and count it.

    Items are any hashable names (strings are usual). An option is a list of
    entries, each an item name, or a secondary item with a color written
    ``"name:color"`` or ``(name, color)``.

    >>> p = Problem()
    >>> p.add_primary(["r0", "r1", "c0", "c1"])
    >>> for r in range(2):
    ...     for c in range(2):
    ...         _ = p.add_option([f"r{r}", f"c{c}"], label=(r, c))
    >>> p.solutions(ids=True).__next__()
    (0, 3)
    >>> [sorted(s) for s in p.solutions()]
    [[(0, 0), (1, 1)], [(0, 1), (1, 0)]]
    """

    def __init__(self) -> None:
        super().__init__()
        #: How the last `count()` was made (method, branching, nodes, why).
        self.last_count: Counted | None = None
        # What this problem's verbs ran (`stats`, `skipped`): beside the
        # data, never in it (`ProblemData` knows nothing of searches).
        self._runs = Runs()

    @property
    def stats(self) -> Any:
        """The cost counters of the last search a verb of this problem
        started (live while it runs), None before any.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> p.count(limit=5), p.stats.solutions
        (1, 1)
        """
        return self._runs.stats

    @property
    def skipped(self) -> list[dict[str, Any]]:
        """What the automatic choice of this problem's last portfolio run
        left out, and why (`covering.runs.Runs.skipped`); not pickled.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> p.first(), p.skipped
        ([('A',)], [])
        """
        return self._runs.skipped

    def __getstate__(self) -> dict[str, Any]:
        # What one run did is that run's, not the problem's: a copy starts afresh.
        state = super().__getstate__()
        state["_runs"] = Runs()
        return state

    # -------------------------------------------------------------- searching

    @overload
    def solver(  # type: ignore[overload-overlap]  # "sat" is also a str: the narrower one wins
        self, *, order: str = "input", seed: int | None = None, engine: Literal["sat"], memory: int | None = None
    ) -> SatSolver: ...

    @overload
    def solver(self, *, order: str = "input", seed: int | None = None, engine: str = "auto",
               branching: str = "mrv", memory: int | None = None) -> Solver: ...

    def solver(self, *, order: str = "input", seed: int | None = None, engine: str = "auto",
               branching: str = "mrv", memory: int | None = None) -> Solver | SatSolver:
        """A `Solver`: one search over this problem, with its stats and
        `cancel()`, branching by ``branching`` (`covering.solver.BRANCHINGS`:
        "mrv", each option of the item with the fewest options, or Knuth's
        learning rules "wtd" and "frb", or binary branching, "binary"); with
        ``engine="sat"``, a `covering.sat.SatSolver` (the CDCL solver:
        solutions in no particular order, counts up to a limit); refused
        before it is built if it would not fit ``memory`` bytes (a run's
        `covering.limits.Budget.memory`; None: `covering.sizes.max_memory`).

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> s = p.solver(); s.count(), s.exhausted
        (1, True)
        >>> p.solver(engine="sat").uniqueness().name
        'UNIQUE'
        """
        return solving.make_solver(self, order=order, seed=seed, engine=engine, branching=branching,
                                   runs=self._runs, memory=memory)

    def solutions(
        self,
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
        budget: limits.Budget | None = None,
        branching: str = "mrv",
    ) -> Iterator[Any]:
        """The solutions, one at a time, found as they are asked for.

        Each is a list of labels (or, with ``ids=True``, a tuple of option
        ids), in the order the options were added. ``limit`` stops after
        that many; ``order="random"`` (with a ``seed``, for repeatability)
        tries options and items in a random order; ``nodes`` and
        ``seconds`` are budgets: if one ends the stream early,
        `LimitReached` is raised after the last solution. With ``threads``
        above 1 the engine's threads find them, in no particular order.
        ``engine="sat"`` finds them by the CDCL solver (`covering.sat`), in
        no particular order, with ``conflicts`` as a further budget and
        ``nodes`` counting its decisions. Every verb also takes the run's
        ``budget`` (`covering.limits.Budget`: nodes, a deadline, a stop flag
        the engines watch), of which its own ``nodes`` and ``seconds`` take
        the tighter. ``branching`` is the search's rule for the item to
        branch on (see `solver`).

        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> for items in (["A"], ["B"], ["A", "B"]):
        ...     _ = p.add_option(items)
        >>> list(p.solutions(ids=True)), list(p.solutions(ids=True, branching="wtd"))
        ([(0, 1), (2,)], [(0, 1), (2,)])
        >>> len(list(p.solutions(limit=1)))
        1
        """
        return solving.solutions(self, limit, ids=ids, order=order, seed=seed, nodes=nodes, seconds=seconds,
                                 engine=engine, threads=threads, conflicts=conflicts, budget=budget,
                                 branching=branching, runs=self._runs)

    def first(self, **kwargs: Any) -> Any:
        """The first solution found, or None if there is none (same arguments
        as `solutions()` but ``limit``).

        With the default engine and no budget, order or threads given, a
        portfolio: dancing links for `covering.solving.PORTFOLIO_NODES` nodes (its first
        solution, the same every time), then, where the tree turned out
        heavy, the CDCL solver and dancing links in turns
        (`covering.solving.portfolio`). The turns are counted in nodes and
        decisions, never by the clock, so the answer is reproducible.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"], label="a")
        >>> p.first()
        ['a']
        """
        return solving.first(self, runs=self._runs, **kwargs)

    def count(
        self,
        limit: int | None = None,
        *,
        nodes: int | None = None,
        seconds: float | None = None,
        engine: str = "auto",
        threads: int | None = None,
        method: str = "auto",
        branching: str | None = None,
        memo: bool = False,
        memo_bytes: int | None = None,
        item_order: str = "auto",
        budget: limits.Budget | None = None,
    ) -> int:
        """The number of solutions, counted without listing them.

        `method` is "auto" (the default), "frontier", "search" or "memo" (see
        `covering.counting`): the frontier settles the primary items in an
        order chosen to keep it narrow (``item_order="input"``: as they were
        added); the search runs on ``threads`` threads
        (default: the ``COVERING_THREADS`` variable, else every core; see
        `covering.parallel`); the memo looks up sub-problems met before
        instead of searching them again (one thread unless ``threads`` is
        given, a memo of at most ``memo_bytes``, the ``branching`` rule
        "first" or "mrv"), far faster
        where solutions share sub-problems, as tilings of boards do; counts
        past 2**64 are exact. ``branching="wtd"``, ``"frb"`` or ``"binary"``
        (Knuth's other rules, `covering.solver.BRANCHINGS`) counts by a search
        that branches so. "auto" measures the problem and picks (``engine``
        and ``threads`` say how a search runs, if it picks one). ``memo=True`` is
        ``method="memo"``. `last_count` says which method counted.

        With ``limit``, a search stops once that many are found and returns
        at most ``limit``. If the ``nodes`` or ``seconds`` budget runs out
        first, `LimitReached` is raised, carrying the count so far.

        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> for items in (["A"], ["B"], ["A", "B"]):
        ...     _ = p.add_option(items)
        >>> p.count(), p.count(limit=1), p.count(memo=True), p.last_count.method
        (2, 1, 2, 'memo')
        """
        if memo:
            if method not in ("auto", "memo"):
                raise ValueError(f"memo=True and method={method!r} cannot go together")
            method = "memo"
        self.last_count = counting.count(self, limit, method=method, branching=branching, engine=engine,
                                         threads=threads, memo_bytes=memo_bytes, nodes=nodes, seconds=seconds,
                                         item_order=item_order, budget=budget, runs=self._runs)
        return self.last_count.count

    def to_zdd(
        self,
        *,
        memo_bytes: int | None = None,
        branching: str = "mrv",
        nodes: int | None = None,
        seconds: float | None = None,
        budget: limits.Budget | None = None,
    ) -> Zdd:
        """The diagram of all the solutions (`covering.zdd`), built by the
        search of ``count(memo=True)``: count them, count those with or
        without given options, draw one uniformly at random, list them.
        Same limits as the memo count (no multiplicities: `ProblemError`);
        ``nodes`` and ``seconds`` are budgets (`LimitReached`).

        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> for items in (["A"], ["B"], ["A", "B"]):
        ...     _ = p.add_option(items, label="".join(items))
        >>> z = p.to_zdd()
        >>> z.count(), z.count(include=[2]), sorted(z.solutions())
        (2, 1, [['A', 'B'], ['AB']])
        """
        return build_zdd(self, memo_bytes=memo_bytes, branching=branching, nodes=nodes, seconds=seconds,
                         budget=budget)

    def uniqueness(self, *, nodes: int | None = None, seconds: float | None = None, engine: str = "auto",
                   conflicts: int | None = None, budget: limits.Budget | None = None,
                   branching: str = "mrv") -> Uniqueness:
        """Whether the problem has no solution, exactly one, or several
        (`Uniqueness.UNKNOWN` if a budget ran out first); `solve_unique`
        without the solution.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> p.uniqueness(), p.uniqueness(engine="sat")
        (<Uniqueness.UNIQUE: 'unique'>, <Uniqueness.UNIQUE: 'unique'>)
        """
        return self.solve_unique(nodes=nodes, seconds=seconds, engine=engine, conflicts=conflicts, budget=budget,
                                 branching=branching)[1]

    def solve_unique(self, *, ids: bool = False, nodes: int | None = None, seconds: float | None = None,
                     engine: str = "auto", conflicts: int | None = None,
                     budget: limits.Budget | None = None, branching: str = "mrv") -> tuple[Any, Uniqueness]:
        """A solution (labels, or option ids with ``ids=True``; None when
        there is none) and whether it is the only one, from one search.

        ``engine="auto"`` is a portfolio: dancing links for
        `covering.solving.PORTFOLIO_NODES` nodes (or ``nodes``, if fewer), then the CDCL
        solver (`covering.sat`), which learns from its dead ends and proves
        uniqueness on big puzzles where dancing links thrashes; the solution
        is dancing links' first whenever it found one (as `first`). "sat",
        "cells" or "bits" use that one engine, as does a ``branching`` rule
        other than "mrv" (dancing cells, see `solver`). `Uniqueness.UNKNOWN`
        when ``nodes``, ``seconds`` or ``conflicts`` ran out first.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"], label="a")
        >>> p.solve_unique()
        (['a'], <Uniqueness.UNIQUE: 'unique'>)
        """
        return solving.solve_unique(self, ids=ids, nodes=nodes, seconds=seconds, engine=engine, conflicts=conflicts,
                                    budget=budget, branching=branching, runs=self._runs)

    def reduce(self, *, work: int | None = None) -> Reduction[Problem]:
        """The problem with the options and items that cannot matter taken
        out, as Knuth's DLX-PRE does (`covering.reduction`): a `Reduction`,
        whose ``problem`` has the same solutions, option for option
        (``original(ids)`` maps its option ids back), within ``work`` units
        (None: until nothing changes).

        >>> p = Problem(); p.add_primary(["A", "B"]); p.add_secondary(["x"])
        >>> for items in (["A", "x"], ["B"], ["B", "x"]):
        ...     _ = p.add_option(items)
        >>> r = p.reduce()  # "B x" would leave A no option: it goes
        >>> r.removed_options, [r.original(s) for s in r.problem.solutions(ids=True)]
        (1, [(0, 1)])
        """
        return reduction.reduce(self, work=work)

    # --------------------------------------------------------------- costs

    def best(self, k: int = 1, *, nodes: int | None = None, seconds: float | None = None,
             budget: limits.Budget | None = None) -> Best:
        """The ``k`` cheapest solutions, cheapest first (`covering.mincost`):
        each a `PricedSolution` (cost, option ids, labels); ``optimal`` on
        the result says whether they are proven the ``k`` cheapest (False
        when ``nodes`` or ``seconds`` ended the search first).

        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> _ = p.add_option(["A", "B"], cost=4, label="both")
        >>> _ = p.add_option(["A"], cost=1, label="a"); _ = p.add_option(["B"], cost=1, label="b")
        >>> found = p.best(2)
        >>> [(s.cost, s.labels) for s in found], found.optimal
        ([(2, ['a', 'b']), (4, ['both'])], True)
        """
        return mincost.best(self, k, nodes=nodes, seconds=seconds, budget=budget, runs=self._runs)

    def cost(self, ids: Iterable[int]) -> int:
        """The cost of a set of options, by id: the sum of their costs.

        >>> p = Problem(); p.add_primary(["A"])
        >>> _ = p.add_option(["A"], cost=3); _ = p.add_option(["A"], cost=4)
        >>> p.cost([0, 1])
        7
        """
        chosen = limits.option_ids(ids, self.n_options)
        # (Read in place: `costs` and `has_costs` would go over every option.)
        return 0 if self._cost is None else sum(self._cost[o] for o in chosen)

    # ------------------------------------------------------------- conversion

    @classmethod
    def from_dlx(cls, text: str | bytes) -> Problem:
        """Reads Knuth's ``.dlx`` format, from text or UTF-8 bytes (see
        `covering.dlxfile`).

        >>> p = Problem.from_dlx("A B | x\\nA x:1\\nB x:1\\n")
        >>> p.count()
        1
        """
        return read_dlx(text, cls)

    @classmethod
    def from_orlib(cls, text: str | bytes) -> Problem:
        """Reads an OR-Library set partitioning file (``rows columns``, then
        for each column ``cost k row1 ... rowk``; see `covering.orlib`): the
        rows are the primary items, the columns the options, with their
        costs. `covering.orlib.OrLibError` names the line of a malformed one.

        >>> p = Problem.from_orlib("3 3\\n4 2 1 2\\n2 1 3\\n5 1 3\\n")
        >>> b = p.best(); b[0].cost, b.optimal
        (6, True)
        """
        return read_orlib(text, cls)

    def to_dlx(self) -> str:
        """Writes Knuth's ``.dlx`` format (see `covering.dlxfile`).

        >>> p = Problem(); p.add_primary(["A"]); p.add_secondary(["x"])
        >>> _ = p.add_option(["A", "x:1"]); print(p.to_dlx(), end="")
        A | x
        A x:1
        """
        return write_dlx(self)

    @classmethod
    def from_matrix(cls, matrix: Any, *, secondary: Iterable[int] = (), names: Sequence[Hashable] | None = None) -> Problem:
        """A problem from a 0/1 matrix: one row per option, one column per item.

        ``matrix`` may be a numpy array, a scipy sparse matrix, or a list of
        lists. Columns listed in ``secondary`` are secondary items; items are
        named by column number unless ``names`` are given; each option's
        label is its row number. Rows without a primary item are skipped with
        a warning.

        >>> p = Problem.from_matrix([[1, 0, 1], [0, 1, 0], [1, 1, 0]], secondary=[2])
        >>> list(p.solutions())
        [[0, 1], [2]]
        """
        return from_matrix(matrix, secondary=secondary, names=names, cls=cls)
