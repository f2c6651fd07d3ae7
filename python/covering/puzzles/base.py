"""The puzzle protocol: what Sudoku, Akari, queens and tilings all answer.

A puzzle is an exact cover problem with a face: `problem()` gives the
problem (options labelled in the puzzle's terms), `decode(ids)` turns a
solution of it (option ids) into the puzzle's own kind of solution, and
`check(solution)` tests a solution against every rule of the puzzle, by
the rules themselves, not by the encoding (so it can catch an encoding's
mistake). Pictures: `text()` and `svg()` of the puzzle, `draw(solution)` of
a solution as text, and `_repr_svg_` for notebooks.

`ExactCover` writes the rest once on top of `Problem`: `solutions()`,
`solve()`, `count()` (by the counting front door, `covering.counting`),
`uniqueness()` and `solve_unique()`, `random()` (solutions in an order a
seed fixes) and `best()` (the cheapest, by the costs of the puzzle's
options). A batch of puzzles has its own verbs, `solve_each()` and
`solve_unique_each()` (class methods): one call for the batch, which a
puzzle with a batch in the engine (Akari) answers without a call per
puzzle. Each takes the same budgets on every puzzle: ``seconds``,
``nodes`` and the run's ``budget`` (`covering.limits.Budget`), made one
budget when the verb is called (`covering.limits.begin`) and passed down
to the engines, which watch its stop flag; a budget that runs out raises
`LimitReached` (`uniqueness` answers UNKNOWN). No count has a cap of its
own: ``limit`` is the only one. A puzzle with a faster path of its own (the Sudoku batch,
Akari's restarts, the queens' bitboards) overrides those, behind the same
names.

>>> from covering.puzzles.queens import Queens
>>> q = Queens(6)
>>> isinstance(q, Puzzle), q.count(), q.uniqueness().name
(True, 4, 'MULTIPLE')
>>> q.check(q.solve())
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, runtime_checkable

from .. import limits, restart
from ..limits import Budget, begin
from ..mincost import Best
from ..uniqueness import Uniqueness

if TYPE_CHECKING:
    from typing_extensions import Self

    from ..problem import Problem

__all__ = ["Puzzle", "ExactCover"]

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)
T = TypeVar("T")  # (what `ExactCover._once` keeps)


@runtime_checkable
class Puzzle(Protocol):
    """What every puzzle of `covering.puzzles` answers."""

    def problem(self) -> Problem: ...

    def solutions(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
                  budget: Budget | None = None) -> Iterator[object]: ...

    def solve(self, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> object | None: ...

    def count(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> int: ...

    def uniqueness(self, *, seconds: float | None = None, nodes: int | None = None,
                   budget: Budget | None = None) -> Uniqueness: ...

    def solve_unique(self, *, seconds: float | None = None, nodes: int | None = None,
                     budget: Budget | None = None) -> tuple[object | None, Uniqueness]: ...

    def random(self, limit: int | None = 1, /, *, seed: int | None = None, seconds: float | None = None,
               nodes: int | None = None, budget: Budget | None = None) -> Iterator[object]: ...

    def best(self, k: int = 1, /, *, seconds: float | None = None, nodes: int | None = None,
             budget: Budget | None = None) -> Best: ...

    def check(self, solution: object, /) -> list[str]: ...

    def text(self) -> str: ...

    def svg(self) -> str: ...

    def draw(self, solution: object, /) -> str: ...

    def _repr_svg_(self) -> str: ...


class ExactCover(Generic[S]):
    """Solutions, counts and uniqueness, once, from `problem()` and `decode()`."""

    def problem(self) -> Problem:
        raise NotImplementedError

    def decode(self, ids: Sequence[int]) -> S:
        """The puzzle's solution from option ids of `problem()`."""
        raise NotImplementedError

    def _once(self, build: Callable[[], T], key: str = "_problem") -> T:
        """What `build()` makes, made on the first call and kept on the
        puzzle under `key` (a frozen dataclass's too: a cache, not a field;
        `dataclasses.replace` starts a new one empty): by default the
        `problem()` that every verb and `decode` ask for."""
        if key not in self.__dict__:
            object.__setattr__(self, key, build())
        made: T = self.__dict__[key]
        return made

    def svg(self) -> str:
        raise NotImplementedError

    def why_none(self) -> str | None:
        """Why the puzzle can have no solution, said from its own rules
        before any problem is built (a tiling's areas), or None: every
        verb then answers at once (no solution, a count of 0, NONE)."""
        return None

    def solutions(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
                  budget: Budget | None = None) -> Iterator[S]:
        """The solutions, lazily, at most `limit`.

        >>> from covering.puzzles.queens import Queens
        >>> sorted(Queens(4).solutions()), len(list(Queens(6).solutions(3, seconds=10)))
        ([(1, 3, 0, 2), (2, 0, 3, 1)], 3)
        """
        run = begin(budget, nodes, seconds)  # (now: the clock starts at the call)
        if self.why_none() is not None:
            return iter(())
        return (self.decode(ids) for ids in self.problem().solutions(limit, ids=True, budget=run))

    def solve(self, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> S | None:
        """A solution, or None when there is none: the first found by the
        portfolio of `Problem.first` (dancing links, then the CDCL solver).

        >>> from covering.puzzles.queens import Queens
        >>> q = Queens(5)
        >>> q.check(q.solve()), Queens(3).solve(seconds=10)
        ([], None)
        """
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return None
        ids = self.problem().first(ids=True, budget=run)
        return None if ids is None else self.decode(ids)

    def count(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> int:
        """The number of solutions (at most `limit`), by the fastest exact
        method (`covering.counting`).

        >>> from covering.puzzles.polyomino import PENTOMINOES, Board, TilingPuzzle
        >>> t = TilingPuzzle(PENTOMINOES, Board.rectangle(6, 10))
        >>> t.count(), t.count(100), t.count(nodes=10**9)
        (9356, 100, 9356)
        """
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return 0
        return self.problem().count(limit, budget=run)

    def uniqueness(self, *, seconds: float | None = None, nodes: int | None = None,
                   budget: Budget | None = None) -> Uniqueness:
        """NONE, UNIQUE or MULTIPLE (UNKNOWN if a budget ran out).

        >>> from covering.puzzles.polyomino import TROMINOES, Board, TilingPuzzle
        >>> TilingPuzzle({"L": TROMINOES["L"]}, Board.rectangle(2, 3), uses="any").uniqueness().name
        'MULTIPLE'
        """
        return self.solve_unique(seconds=seconds, nodes=nodes, budget=budget)[1]

    def solve_unique(self, *, seconds: float | None = None, nodes: int | None = None,
                     budget: Budget | None = None) -> tuple[S | None, Uniqueness]:
        """A solution (None when there is none) and NONE, UNIQUE or MULTIPLE
        (UNKNOWN if a budget ran out), from one run of the portfolio of
        `Problem.solve_unique` (dancing links, then the CDCL solver): the
        engine call `uniqueness()` and ``covering PUZZLE unique`` make.

        >>> from covering.puzzles.queens import Queens
        >>> first, u = Queens(6).solve_unique()
        >>> Queens(6).check(first), u.name
        ([], 'MULTIPLE')
        """
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return None, Uniqueness.NONE
        ids, u = self.problem().solve_unique(ids=True, budget=run)
        return (None if ids is None else self.decode(ids)), u

    def random(self, limit: int | None = 1, /, *, seed: int | None = None, seconds: float | None = None,
               nodes: int | None = None, budget: Budget | None = None) -> Iterator[S]:
        """Up to `limit` different solutions (one by default; None: every
        one) in a random order that `seed` fixes (None: a fresh one), by a
        search that tries the options in that order: the same seed gives the
        same solutions.

        >>> from covering.puzzles.queens import Queens
        >>> q = Queens(8)
        >>> list(q.random(2, seed=5)) == list(q.random(2, seed=5)), len(list(q.random(None, seed=1)))
        (True, 92)
        """
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return iter(())
        # A random order can wander (an early wrong choice whose failure
        # shows deep down): runs with doubling node budgets, each in the
        # order of the next seed, until one finds a solution; that run goes
        # on for the rest (`covering.restart`).
        import random  # (here: the start of every command does not pay for it)

        first = random.randrange(2**63) if seed is None else limits.seed(seed)
        assert first is not None
        found = restart.solutions(self.problem().compile(), limits.limit(limit), seed=first, stay=True, budget=run)
        return (self.decode(ids) for ids in found)

    def best(self, k: int = 1, /, *, seconds: float | None = None, nodes: int | None = None,
             budget: Budget | None = None) -> Best:
        """The `k` cheapest solutions by the costs of `problem()`'s options
        (a puzzle without costs: every solution costs 0), cheapest first
        (`covering.mincost.Best`: each a cost, option ids and labels;
        ``puzzle.decode(s.ids)`` is the puzzle's own solution), within the
        budgets.

        >>> from covering.puzzles.queens import Queens
        >>> found = Queens(6).best(2)
        >>> [s.cost for s in found], found.optimal, Queens(6).check(Queens(6).decode(found[0].ids))
        ([0, 0], True, [])
        """
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return Best.none(k)
        return self.problem().best(k, budget=run)

    @classmethod
    def solve_each(cls, puzzles: Sequence[Self], /, *, budget: Budget | None = None) -> list[S | None]:
        """`solve()` of each puzzle of a batch, in order, within the run's
        `budget` (shared by the batch).

        >>> from covering.puzzles.queens import Queens
        >>> [q is not None for q in Queens.solve_each([Queens(4), Queens(3)])]
        [True, False]
        """
        run = begin(budget)
        return [p.solve(budget=run) for p in puzzles]

    @classmethod
    def solve_unique_each(cls, puzzles: Sequence[Self], /, *,
                          budget: Budget | None = None) -> list[tuple[S | None, Uniqueness]]:
        """`solve_unique()` of each puzzle of a batch, in order, within the
        run's `budget` (shared by the batch).

        >>> from covering.puzzles.queens import Queens
        >>> [u.name for _, u in Queens.solve_unique_each([Queens(4), Queens(3)])]
        ['MULTIPLE', 'NONE']
        """
        run = begin(budget)
        return [p.solve_unique(budget=run) for p in puzzles]

    def _repr_svg_(self) -> str:
        return self.svg()
