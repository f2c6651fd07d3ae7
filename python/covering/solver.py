"""`Solver`: one search over a problem, driven from Python.

The engine works in slices with the GIL released; between slices it checks
for Ctrl-C (raised as KeyboardInterrupt), for `cancel()` from another thread
and for the budgets. A solver keeps its place: after a `LimitReached` or an
interrupt, its `stats` say how far it got, and calling it again continues.

>>> from covering import Problem
>>> p = Problem(); p.add_primary(["A", "B"])
>>> for items in (["A"], ["B"], ["A", "B"]):
...     _ = p.add_option(items)
>>> s = p.solver()
>>> next(s.solutions(ids=True))
(0, 1)
>>> s.count()        # the rest, after the one already seen
1
>>> s.exhausted, s.stats.solutions
(True, 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from . import _core, limits, sizes
from .errors import Cancelled, Interrupted, LimitReached
from .model import ProblemData
from .uniqueness import Uniqueness

__all__ = ["Solver", "BRANCHINGS", "search_engine"]

#: How a search branches: "mrv", on each option of the item with the
#: fewest options (Knuth's MRV; ties to the item declared first), the
#: default; on dancing cells, "wtd" and "frb", his rules that learn from the
#: tries that fail (SSXCC-WTD, weights raised on the items left with too few
#: options, after Boussemart et al.'s dom/wdeg; SSXCC-FRB, each item's
#: failure rate, after Li, Yin and Li), and "binary" (SSXCC-BINARY: the
#: first option of the item with the fewest options, taken or left out, a
#: new choice after each; Algorithm M's tweaks branch so already, and runs
#: with multiplicities are as with "mrv"). Every rule takes a forced move
#: first.
BRANCHINGS = ("mrv", "wtd", "frb", "binary")


def search_engine(engine: str, branching: str) -> str:
    """The engine's name for a search on `engine` that branches by
    `branching` (one of `BRANCHINGS`): the rules other than "mrv" run on
    dancing cells, as "cells-wtd", "cells-frb" and "cells-binary".

    >>> search_engine("auto", "mrv"), search_engine("auto", "wtd")
    ('auto', 'cells-wtd')
    >>> search_engine("bits", "frb")
    Traceback (most recent call last):
    ...
    ValueError: branching='frb' runs on dancing cells: not engine='bits'
    """
    if branching not in BRANCHINGS:
        raise ValueError(f"branching must be one of {', '.join(map(repr, BRANCHINGS))}, not {branching!r}")
    if branching == "mrv":
        return engine
    if engine not in ("auto", "cells"):
        raise ValueError(f"branching={branching!r} runs on dancing cells: not engine={engine!r}")
    return f"cells-{branching}"



def _new_search(compiled: _core.CompiledProblem, seed: int | None, engine: str,
                memory: int | None) -> _core.Search:
    """The engine's search of `compiled`, refused before it is built when it
    would not fit the run's `memory` (`covering.sizes`)."""
    sizes.check_engine(engine, compiled.footprint(engine), memory)
    return _core.Search(compiled, seed, engine)

class Solver:
    """A search over `problem`, in the input order or (``order="random"``) a
    random one fixed by ``seed``; ``engine`` picks the data structure
    ("auto", "cells" for dancing cells, "bits" for bitsets) and
    ``branching`` the rule for the item to branch on (`BRANCHINGS`); it is
    refused (`MemoryLimitError`) before it is built if it would not fit
    ``memory`` bytes (the run's limit, `covering.limits.Budget.memory`;
    None: `covering.sizes.max_memory`).

    >>> from covering import Problem
    >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
    >>> Solver(p).count()
    1

    A solver is iterable: its solutions, as `solutions()` gives them.

    >>> p = Problem(); p.add_primary(["A", "B"])
    >>> for items in (["A"], ["B"], ["A", "B"]):
    ...     _ = p.add_option(items, label="".join(items))
    >>> [s for s in p.solver()]
    [['A', 'B'], ['AB']]
    """

    def __init__(self, problem: ProblemData, *, order: str = "input", seed: int | None = None, engine: str = "auto",
                 branching: str = "mrv", memory: int | None = None):
        if order not in ("input", "random"):
            raise ValueError(f"order must be 'input' or 'random', not {order!r}")
        if order == "input" and seed is not None:
            raise ValueError("a seed needs order='random'")
        seed = limits.seed(seed)
        if order == "random" and seed is None:
            seed = random.randrange(2**63)
        engine = search_engine(engine, branching)
        self.problem = problem
        self.seed = seed
        self._search = _new_search(problem.compile(), seed, engine, memory)

    @classmethod
    def of_compiled(cls, compiled: _core.CompiledProblem, engine: str = "auto", memory: int | None = None) -> Solver:
        """A solver of an engine's compiled arrays (a puzzle encoded in Rust,
        without names): its solutions are option ids only.

        >>> from covering.puzzles.queens import queens_problem
        >>> Solver.of_compiled(queens_problem(6).compile()).count()
        4
        """
        solver = cls.__new__(cls)
        solver.problem = None  # type: ignore[assignment]
        solver.seed = None
        solver._search = _new_search(compiled, None, search_engine(engine, "mrv"), memory)
        return solver

    def __iter__(self) -> Iterator[Any]:
        """The solutions not yet seen (labels), as `solutions()` gives them."""
        return self.solutions()

    def __reduce__(self) -> Any:
        raise TypeError(
            "a Solver holds a search under way in the engine and cannot be pickled; "
            "pickle its problem (and its stats) and start a new solver"
        )

    @property
    def stats(self) -> _core.Stats:
        """Nodes, updates, mems, cleansings, solutions and max level so far."""
        return self._search.stats

    @property
    def exhausted(self) -> bool:
        """Has the whole search tree been explored?"""
        return self._search.exhausted

    @property
    def engine(self) -> str:
        """The data structure in use: "cells" or "bits" (or "cells-wtd",
        "cells-frb", "cells-binary": dancing cells with that branching rule)."""
        return self._search.engine

    @property
    def branching(self) -> str:
        """The rule for the item to branch on (one of `BRANCHINGS`).

        >>> from covering.puzzles.queens import queens_problem
        >>> s = Solver(queens_problem(8), branching="frb"); s.branching, s.count()
        ('frb', 92)
        """
        engine = self.engine
        return engine[len("cells-"):] if engine.startswith("cells-") else "mrv"

    def cancel(self) -> None:
        """Stops the search from another thread (within a few milliseconds)."""
        self._search.cancel()

    def force(self, option: int) -> bool:
        """Puts option ``option`` (an id) into every solution, before the
        search starts; False if it conflicts with the options already forced.

        >>> from covering import Problem
        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> for items in (["A"], ["B"], ["A", "B"]):
        ...     _ = p.add_option(items)
        >>> s = p.solver(); s.force(2), s.count()
        (True, 1)
        """
        return self._search.force(limits.option_id(option, self.problem.n_options))

    def frontier(self) -> list[list[int]]:
        """What this search has not yet explored, after a budget stopped it:
        pieces of the tree (``o``: option o in every solution, ``-o - 1``:
        left out), whose solutions are exactly the ones not yet found.

        >>> from covering.cluster import run_piece
        >>> from covering.puzzles.polyomino import l_tromino
        >>> p = l_tromino(6); s = p.solver()
        >>> try:
        ...     s.count(nodes=5)
        ... except LimitReached as e:
        ...     done = e.count
        >>> done + sum(run_piece(p.compile(), piece, None, 1)[0] for piece in s.frontier())
        162
        """
        return self._search.frontier()

    def frontier_shares(self, most: int | None = None) -> list[tuple[list[int], float]] | None:
        """`frontier()` with each piece's share of the tree, by Knuth's
        uniform-tree estimate (a branch of a node of degree d weighs 1/d of
        the node): the shares add up to the part not yet explored. None
        where it would have more than `most` pieces (each is a copy of the
        path above it: a search thousands of levels deep has a frontier of
        gigabytes).

        >>> from covering.puzzles.polyomino import l_tromino
        >>> s = l_tromino(6).solver()
        >>> try:
        ...     s.count(nodes=5)
        ... except LimitReached:
        ...     pass
        >>> shares = s.frontier_shares()
        >>> 0 < sum(w for _, w in shares) <= 1
        True
        >>> s.frontier_shares(most=len(shares)) == shares, s.frontier_shares(most=len(shares) - 1)
        (True, None)
        >>> s.frontier_shares(most=-1)
        Traceback (most recent call last):
        covering.limits.BudgetError: most: must be at least 0, not -1
        """
        return self._search.frontier_shares(limits.limit(most, "most"))

    def progress(self) -> list[tuple[int, int]]:
        """Knuth's progress path: ``(k, d)`` per level, "choice k of d"."""
        return self._search.progress()

    def _repr_html_(self) -> str:
        """In a notebook: the engine, the counters and Knuth's fraction done.

        >>> from covering.puzzles.queens import queens_problem
        >>> s = queens_problem(6).solver(); _ = s.count()
        >>> ">4<" in s._repr_html_()  # solutions
        True
        """
        from .render.html import table

        st = self.stats
        rows: list[tuple[str, object]] = [("engine", self.engine), ("solutions", st.solutions),
                                          ("nodes", f"{st.nodes:,}"), ("updates", f"{st.updates:,}"),
                                          ("exhausted", self.exhausted),
                                          ("fraction done", f"{100 * self.fraction_done():.1f}%")]
        return table(rows, caption="Solver")

    def fraction_done(self) -> float:
        """Knuth's estimate of the fraction of the tree explored so far."""
        return self._search.fraction_done()

    def solutions(
        self,
        limit: int | None = None,
        *,
        ids: bool = False,
        nodes: int | None = None,
        seconds: float | None = None,
        budget: limits.Budget | None = None,
    ) -> Iterator[Any]:
        """The next solutions (see `Problem.solutions`); ``nodes`` bounds the
        total nodes of this solver, ``seconds`` the time of this iteration,
        `budget` is the run's (`covering.limits.Budget`)."""
        limit = limits.limit(limit)
        run = limits.begin(budget, nodes, seconds)
        found = 0
        while limit is None or found < limit:
            if run.over():
                # The time is up even while solutions keep coming.
                raise LimitReached(f"budget reached after {found} solutions", count=found,
                                   stats=self._search.stats, budget=run.ran_out())
            sol = self._search.next_solution(run)
            if sol is None:
                if not self._search.exhausted:
                    raise self._stopped(found, run)
                return
            found += 1
            yield tuple(sol) if ids else [self.problem.label(o) for o in sol]

    def count(self, limit: int | None = None, *, nodes: int | None = None, seconds: float | None = None,
              budget: limits.Budget | None = None) -> int:
        """Counts the solutions not yet seen (see `Problem.count`)."""
        limit = limits.limit(limit)
        run = limits.begin(budget, nodes, seconds)
        before = self._search.stats.solutions
        target = None if limit is None else min(before + limit, limits.WORD - 1)
        try:
            total = self._search.count(target, run)
        except KeyboardInterrupt:
            raise Interrupted(self._search.stats.solutions - before, self._search.stats) from None
        n = total - before
        if limit is not None and n >= limit:
            return limit
        if not self._search.exhausted:
            raise self._stopped(n, run)
        return n

    def _stopped(self, found: int, run: limits.Budget, what: str = "solutions") -> LimitReached:
        """The exception for a search that stopped before its end: `Cancelled`
        after `cancel()`, else `LimitReached` naming what of the `run`'s
        budget ran out."""
        stats = self._search.stats
        if self._search.cancelled:
            return Cancelled(f"cancelled after {found} {what}", count=found, stats=stats)
        return LimitReached(f"budget reached after {found} {what}", count=found, stats=stats, budget=run.ran_out())

    def count_canonical(
        self, perms: Sequence[Sequence[int]], *, nodes: int | None = None, seconds: float | None = None,
        budget: limits.Budget | None = None,
    ) -> int:
        """Counts the solutions not yet seen that are *canonical*: as sorted
        lists of option ids, no larger than their images under the option
        permutations `perms` (symmetries of the problem: with the identity,
        a group). Each class of solutions then counts once; `LimitReached`
        if a budget runs out.

        >>> from covering import Problem
        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> for items in (["A"], ["B"], ["A", "B"]):
        ...     _ = p.add_option(items)
        >>> p.solver().count_canonical([[0, 1, 2]])  # the identity: nothing merges
        2
        """
        run = limits.begin(budget, nodes, seconds)
        kept, interrupted = self._search.count_canonical([list(p) for p in perms], run)
        if interrupted:
            raise Interrupted(kept, self._search.stats)
        if not self._search.exhausted:
            raise self._stopped(kept, run, "canonical solutions")
        return kept

    def uniqueness(self, *, nodes: int | None = None, seconds: float | None = None,
                   budget: limits.Budget | None = None) -> Uniqueness:
        """NONE, UNIQUE or MULTIPLE (among the solutions not yet seen);
        UNKNOWN when a budget ran out first."""
        run = limits.begin(budget, nodes, seconds)
        before = self._search.stats.solutions
        n = self._search.count(before + 2, run) - before
        if n >= 2:
            return Uniqueness.MULTIPLE
        if not self._search.exhausted:
            return Uniqueness.UNKNOWN
        return Uniqueness.UNIQUE if n == 1 else Uniqueness.NONE
