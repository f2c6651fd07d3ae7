"""The `Problem` builder: items and options by name, compiled once for the engine.

An exact cover problem has *items* and *options* (sets of items). Primary
items must each be covered exactly once, or between ``lo`` and ``hi`` times
when they have bounds (Knuth's multiplicities); secondary items at most once,
unless every option that has one gives it the same *color*. A solution is a
set of options meeting all of that.

Names, labels and colors live here, in Python; `compile()` numbers the items
(primary first), the colors (from 1) and the options, and hands the engine
flat arrays. Every check by name happens here, so errors can say which
option and which item.

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

import enum
import warnings
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

from . import _core, limits
from .errors import (
    BoundsError,
    ColorError,
    DuplicateItemError,
    LimitReached,
    NoPrimaryItemError,
    OptionSkippedWarning,
    UnknownItemError,
)

if TYPE_CHECKING:
    from .counting import Counted
    from .sat import SatSolver
    from .solver import Solver
    from .zdd import Zdd

__all__ = ["Problem", "Uniqueness"]


class Uniqueness(enum.Enum):
    """How many solutions a problem has, as far as a search could tell."""

    NONE = "none"
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    #: A budget stopped the search before it could tell.
    UNKNOWN = "unknown"

    @classmethod
    def of(cls, found: int) -> Uniqueness:
        """NONE, UNIQUE or MULTIPLE, for a search that found `found`
        solutions and ended (or stopped at the second).

        >>> Uniqueness.of(0).value, Uniqueness.of(2).value
        ('none', 'multiple')
        """
        return (cls.NONE, cls.UNIQUE, cls.MULTIPLE)[min(found, 2)]


def _check_bounds(name: Hashable, bounds: tuple[int, int]) -> tuple[int, int]:
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise BoundsError(f"item {name!r}: bounds must be a pair (lo, hi), not {bounds!r}") from None
    if not (isinstance(lo, int) and isinstance(hi, int)) or isinstance(lo, bool) or isinstance(hi, bool):
        raise BoundsError(f"item {name!r}: bounds must be integers, not {bounds!r}")
    if lo < 0 or hi < 1 or lo > hi:
        if hi < 1:
            raise BoundsError(f"item {name!r}: upper bound is {hi}, it must be at least 1")
        if lo < 0:
            raise BoundsError(f"item {name!r}: lower bound {lo} is negative")
        raise BoundsError(f"item {name!r}: lower bound {lo} exceeds upper bound {hi}")
    return lo, hi


#: Nodes of dancing links before the portfolio (`first`, `uniqueness`)
#: turns to the CDCL solver: about a tenth of a second.
PORTFOLIO_NODES = 200_000

#: The engine keeps bounds in 32-bit words, with room to spare.
_BOUND_MAX = 2**31 - 1


def _clamped_bounds(lo: list[int], hi: list[int], entries: list[int]) -> tuple[list[int], list[int]]:
    """Bounds past what the engine holds, made small with the same solutions:
    an item in m options is covered at most m times, so an upper bound past
    m is m, and a lower bound past m cannot be met (m + 1 : m + 1 says so).

    >>> _clamped_bounds([1, 0], [2**40, 2**70], [0, 0, 0])
    ([1, 0], [3, 1])
    >>> _clamped_bounds([2**40], [2**41], [0])
    ([2], [2])
    """
    occurs = [0] * len(lo)
    for i in entries:
        if i < len(lo):
            occurs[i] += 1
    new_lo, new_hi = [], []
    for low, high, m in zip(lo, hi, occurs):
        if low > m:
            low = high = m + 1
        else:
            high = max(1, min(high, m))
        new_lo.append(low)
        new_hi.append(high)
    return new_lo, new_hi


class Problem:
    """An exact cover problem, built item by item and option by option.

    Items are any hashable names (strings are usual). An option is a list of
    entries, each an item name, or a secondary item with a color written
    ``"name:color"`` or ``(name, color)``.

    >>> p = Problem()
    >>> p.add_primary(["r0", "r1", "c0", "c1"])
    >>> for r in range(2):
    ...     for c in range(2):
    ...         _ = p.add_option([f"r{r}", f"c{c}"], label=(r, c))
    >>> p.solutions(ids=True).__next__()
    (1, 2)
    >>> [sorted(s) for s in p.solutions()]
    [[(0, 1), (1, 0)], [(0, 0), (1, 1)]]
    """

    def __init__(self) -> None:
        # name -> (lo, hi); insertion order is the order of the primary items.
        self._primary: dict[Hashable, tuple[int, int]] = {}
        self._secondary: dict[Hashable, None] = {}
        self._colors: dict[Hashable, int] = {}
        # Each option: its item names and the color id of each (0 = none).
        self._options: list[tuple[tuple[Hashable, ...], tuple[int, ...]]] = []
        self._labels: list[Any] = []
        self._compiled: _core.CompiledProblem | None = None
        self._last: Solver | None = None
        #: How the last `count()` was made (method, branching, nodes, why).
        self.last_count: Counted | None = None

    # ------------------------------------------------------------------ items

    def add_primary(self, names: Iterable[Hashable], bounds: tuple[int, int] | None = None) -> None:
        """Declares primary items: covered exactly once, or ``lo..hi`` times.

        >>> p = Problem()
        >>> p.add_primary(["A", "B"])
        >>> p.add_primary(["N"], bounds=(2, 3))
        >>> p.primary
        ['A', 'B', 'N']
        """
        if isinstance(names, str):
            raise TypeError("add_primary takes a list of names; wrap a single name in a list")
        for name in list(names):
            self._check_new(name)
            self._primary[name] = (1, 1) if bounds is None else _check_bounds(name, bounds)
        self._compiled = None

    def add_secondary(self, names: Iterable[Hashable]) -> None:
        """Declares secondary items: covered at most once, or by options that
        all give them the same color.

        >>> p = Problem()
        >>> p.add_secondary(["x", "y"])
        >>> p.secondary
        ['x', 'y']
        """
        if isinstance(names, str):
            raise TypeError("add_secondary takes a list of names; wrap a single name in a list")
        for name in list(names):
            self._check_new(name)
            self._secondary[name] = None
        self._compiled = None

    def _check_new(self, name: Hashable) -> None:
        if not isinstance(name, Hashable):
            raise TypeError(f"item names must be hashable, not {type(name).__name__}")
        if self.has_item(name):
            raise DuplicateItemError(f"item {name!r} is declared twice")
        if isinstance(name, str) and name == "":
            raise UnknownItemError("an item name cannot be empty")

    def has_item(self, name: Hashable) -> bool:
        """Is `name` a declared item (primary or secondary)?

        >>> p = Problem(); p.add_secondary(["x"]); p.has_item("x"), p.has_item("y")
        (True, False)
        """
        return name in self._primary or name in self._secondary

    @property
    def primary(self) -> list[Hashable]:
        """The primary items, in the order declared."""
        return list(self._primary)

    @property
    def secondary(self) -> list[Hashable]:
        """The secondary items, in the order declared."""
        return list(self._secondary)

    def bounds(self, item: Hashable) -> tuple[int, int]:
        """The bounds ``(lo, hi)`` of a primary item.

        >>> p = Problem(); p.add_primary(["N"], bounds=(0, 2)); p.bounds("N")
        (0, 2)
        """
        try:
            return self._primary[item]
        except KeyError:
            raise UnknownItemError(f"no primary item {item!r}") from None

    # ---------------------------------------------------------------- options

    def _entry(self, entry: Any, where: str) -> tuple[Hashable, Hashable | None]:
        """Splits one entry of an option into (item, color or None)."""
        if isinstance(entry, Hashable) and self.has_item(entry):
            return entry, None
        if isinstance(entry, tuple) and len(entry) == 2:
            name, color = entry
            if self.has_item(name):
                return name, color
        if isinstance(entry, str) and ":" in entry:
            name, _, color = entry.rpartition(":")
            if self.has_item(name):
                if color == "":
                    raise ColorError(f"{where}: empty color for item {name!r}")
                return name, color
            raise UnknownItemError(f"{where}: unknown item {name!r}")
        if not isinstance(entry, Hashable):
            raise TypeError(f"{where}: an item must be hashable, not {type(entry).__name__}")
        raise UnknownItemError(f"{where}: unknown item {entry!r}")

    def add_option(self, items: Iterable[Any], label: Any = None) -> int | None:
        """Adds an option; returns its id (0, 1, ... in the order added).

        ``label`` is what `solutions()` reports for it; by default the tuple
        of its entries as given. An option without a primary item could
        never be chosen: it is skipped with an `OptionSkippedWarning` (as
        Knuth's programs do) and the result is None.

        >>> p = Problem(); p.add_primary(["A"]); p.add_secondary(["x"])
        >>> p.add_option(["A", ("x", 1)], label="first")
        0
        >>> p.labels
        ['first']
        """
        if isinstance(items, str):
            raise TypeError("add_option takes a list of items; wrap a single item in a list")
        entries = list(items)
        where = f"option {len(self._options)}"
        names: list[Hashable] = []
        colors: list[int] = []
        seen: set[Hashable] = set()
        has_primary = False
        for entry in entries:
            name, color = self._entry(entry, where)
            if name in seen:
                raise DuplicateItemError(f"{where}: item {name!r} appears twice")
            seen.add(name)
            if name in self._primary:
                if color is not None:
                    raise ColorError(f"{where}: primary item {name!r} cannot have a color")
                has_primary = True
            names.append(name)
            colors.append(0 if color is None else self._colors.setdefault(color, len(self._colors) + 1))
        if not has_primary:
            warnings.warn(
                f"{where} has no primary item and is skipped: {entries!r}", OptionSkippedWarning, stacklevel=2
            )
            return None
        self._options.append((tuple(names), tuple(colors)))
        self._labels.append(tuple(entries) if label is None else label)
        self._compiled = None
        return len(self._options) - 1

    @property
    def labels(self) -> list[Any]:
        """The label of each option, by id."""
        return list(self._labels)

    @property
    def n_options(self) -> int:
        """The number of options."""
        return len(self._options)

    def option(self, i: int) -> list[tuple[Hashable, Hashable | None]]:
        """The entries of option ``i`` as (item, color or None) pairs.

        >>> p = Problem(); p.add_primary(["A"]); p.add_secondary(["x"])
        >>> _ = p.add_option(["A", "x:red"]); p.option(0)
        [('A', None), ('x', 'red')]
        """
        names, colors = self._options[i]
        color_names = {v: k for k, v in self._colors.items()}
        return [(n, color_names[c] if c else None) for n, c in zip(names, colors)]

    # -------------------------------------------------------------- compiling

    def compile(self) -> _core.CompiledProblem:
        """The problem as the engine's frozen arrays (cached until the next change).

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> p.compile()
        CompiledProblem(1 primary, 0 secondary items, 1 options)
        """
        if self._compiled is None:
            if not self._primary:
                raise NoPrimaryItemError("the problem has no primary item")
            ids = {name: k for k, name in enumerate(self._primary)}
            base = len(ids)
            ids.update((name, base + k) for k, name in enumerate(self._secondary))
            start = [0]
            item: list[int] = []
            color: list[int] = []
            for names, colors in self._options:
                item.extend(ids[n] for n in names)
                color.extend(colors)
                start.append(len(item))
            lo = [b[0] for b in self._primary.values()]
            hi = [b[1] for b in self._primary.values()]
            if max(hi) > _BOUND_MAX:
                lo, hi = _clamped_bounds(lo, hi, item)
            self._compiled = _core.CompiledProblem(len(self._primary), len(self._secondary), lo, hi, start, item, color)
        return self._compiled

    def is_solution(self, option_ids: Sequence[int]) -> bool:
        """Does this set of options meet every rule (checked by the definition)?

        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> _ = p.add_option(["A"]); _ = p.add_option(["B"]); _ = p.add_option(["A", "B"])
        >>> p.is_solution([0, 1]), p.is_solution([0, 2])
        (True, False)
        """
        return self.compile().is_solution(list(option_ids))

    # -------------------------------------------------------------- searching

    @overload
    def solver(  # type: ignore[overload-overlap]  # "sat" is also a str: the narrower one wins
        self, *, order: str = "input", seed: int | None = None, engine: Literal["sat"]
    ) -> SatSolver: ...

    @overload
    def solver(self, *, order: str = "input", seed: int | None = None, engine: str = "auto") -> Solver: ...

    def solver(self, *, order: str = "input", seed: int | None = None, engine: str = "auto") -> Solver | SatSolver:
        """A `Solver`: one search over this problem, with its stats and
        `cancel()`; with ``engine="sat"``, a `covering.sat.SatSolver` (the
        CDCL solver: solutions in no particular order, counts up to a limit).

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> s = p.solver(); s.count(), s.exhausted
        (1, True)
        >>> p.solver(engine="sat").uniqueness().name
        'UNIQUE'
        """
        from .solver import Solver

        if engine == "sat":
            from .sat import SatSolver

            if order != "input" or seed is not None:
                raise ValueError("engine='sat' takes no order or seed (the CDCL solver picks its own order)")
            sat = SatSolver(self)
            return sat

        solver = Solver(self, order=order, seed=seed, engine=engine)
        self._last = solver
        return solver

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
        ``nodes`` counting its decisions.

        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> for items in (["A"], ["B"], ["A", "B"]):
        ...     _ = p.add_option(items)
        >>> list(p.solutions(ids=True))
        [(0, 1), (2,)]
        >>> len(list(p.solutions(limit=1)))
        1
        """
        limit, threads = limits.limit(limit), limits.threads(threads)
        if engine == "sat":
            if threads > 1:
                raise ValueError("engine='sat' runs on one thread")
            return self.solver(engine="sat").solutions(limit, ids=ids, conflicts=conflicts, nodes=nodes,
                                                       seconds=seconds)
        if conflicts is not None:
            raise ValueError("conflicts= is the budget of engine='sat' (the dancing-links engines count nodes=)")
        if threads > 1:
            from .parallel import ParallelSearch

            if order != "input" or nodes is not None or seconds is not None:
                raise ValueError("a search on several threads takes no order, nodes or seconds")
            return ParallelSearch(self, threads, engine=engine).solutions(limit, ids=ids)
        return self.solver(order=order, seed=seed, engine=engine).solutions(
            limit, ids=ids, nodes=nodes, seconds=seconds
        )

    def first(self, **kwargs: Any) -> Any:
        """The first solution found, or None if there is none (same arguments
        as `solutions()` but ``limit``).

        With the default engine and no budget, order or threads given, a
        portfolio: dancing links for `PORTFOLIO_NODES` nodes (its first
        solution, the same every time), then the CDCL solver where the tree
        turned out heavy. The switch is by nodes, never by the clock, so the
        answer is reproducible.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"], label="a")
        >>> p.first()
        ['a']
        """
        if kwargs.get("engine", "auto") == "auto" and not set(kwargs) - {"engine", "ids"}:
            ids = bool(kwargs.get("ids", False))
            try:
                return next(iter(self.solutions(1, ids=ids, nodes=PORTFOLIO_NODES)), None)
            except LimitReached:
                return next(iter(self.solutions(1, ids=ids, engine="sat")), None)
        return next(iter(self.solutions(1, **kwargs)), None)

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
    ) -> int:
        """The number of solutions, counted without listing them.

        `method` is "auto" (the default), "search" or "memo" (see
        `covering.counting`): the search runs on ``threads`` threads
        (default: the ``COVERING_THREADS`` variable, else every core; see
        `covering.parallel`); the memo looks up sub-problems met before
        instead of searching them again (one thread, a memo of at most
        ``memo_bytes``, the ``branching`` rule "first" or "mrv"), far faster
        where solutions share sub-problems, as tilings of boards do; counts
        past 2**64 are exact. "auto" picks by a short probe, and an explicit
        ``engine`` or ``threads`` means a search. ``memo=True`` is
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
        from . import counting

        if memo:
            if method not in ("auto", "memo"):
                raise ValueError(f"memo=True and method={method!r} cannot go together")
            method = "memo"
        self.last_count = counting.count(self, limit, method=method, branching=branching, engine=engine,
                                         threads=threads, memo_bytes=memo_bytes, nodes=nodes, seconds=seconds)
        return self.last_count.count

    def to_zdd(
        self,
        *,
        memo_bytes: int | None = None,
        branching: str = "mrv",
        nodes: int | None = None,
        seconds: float | None = None,
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
        from .zdd import build_zdd

        return build_zdd(self, memo_bytes=memo_bytes, branching=branching, nodes=nodes, seconds=seconds)

    def uniqueness(self, *, nodes: int | None = None, seconds: float | None = None, engine: str = "auto",
                   conflicts: int | None = None) -> Uniqueness:
        """Whether the problem has no solution, exactly one, or several
        (`Uniqueness.UNKNOWN` if a budget ran out first); `solve_unique`
        without the solution.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> p.uniqueness(), p.uniqueness(engine="sat")
        (<Uniqueness.UNIQUE: 'unique'>, <Uniqueness.UNIQUE: 'unique'>)
        """
        return self.solve_unique(nodes=nodes, seconds=seconds, engine=engine, conflicts=conflicts)[1]

    def solve_unique(self, *, ids: bool = False, nodes: int | None = None, seconds: float | None = None,
                     engine: str = "auto", conflicts: int | None = None) -> tuple[Any, Uniqueness]:
        """A solution (labels, or option ids with ``ids=True``; None when
        there is none) and whether it is the only one, from one search.

        ``engine="auto"`` is a portfolio: dancing links for
        `PORTFOLIO_NODES` nodes (or ``nodes``, if fewer), then the CDCL
        solver (`covering.sat`), which learns from its dead ends and proves
        uniqueness on big puzzles where dancing links thrashes; the solution
        is dancing links' first whenever it found one (as `first`). "sat",
        "cells" or "bits" use that one engine. `Uniqueness.UNKNOWN` when
        ``nodes``, ``seconds`` or ``conflicts`` ran out first.

        >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"], label="a")
        >>> p.solve_unique()
        (['a'], <Uniqueness.UNIQUE: 'unique'>)
        """
        import time

        nodes, seconds, conflicts = limits.nodes(nodes), limits.seconds(seconds), limits.conflicts(conflicts)
        if engine not in ("auto", "sat") and conflicts is not None:
            raise ValueError("conflicts= is the budget of engine='sat' (the dancing-links engines count nodes=)")
        start = time.monotonic()
        found: list[tuple[int, ...]] = []

        def two(**budgets: Any) -> bool:
            """Looks for two solutions (kept in `found`) with `engine` and
            `budgets`; True if that settled it."""
            try:
                for sol in self.solutions(2, ids=True, **budgets):
                    found.append(sol)
            except LimitReached:
                return False
            return True

        if engine == "sat":
            settled = two(engine="sat", conflicts=conflicts, nodes=nodes, seconds=seconds)
        elif engine != "auto":
            settled = two(engine=engine, nodes=nodes, seconds=seconds)
        else:
            first = PORTFOLIO_NODES if nodes is None else min(nodes, PORTFOLIO_NODES)
            settled = two(nodes=first, seconds=seconds)
            if not settled and (nodes is None or nodes > PORTFOLIO_NODES):
                # Past the budget: the CDCL solver, from the start; dancing
                # links' first solution (if any) is the one shown.
                shown = found[:1]
                found.clear()
                left = None if seconds is None else max(0.0, seconds - (time.monotonic() - start))
                # The nodes left are the CDCL solver's decisions.
                settled = two(engine="sat", conflicts=conflicts, nodes=None if nodes is None else nodes - first,
                              seconds=left)
                if shown and found:
                    found[0] = shown[0]
        solution = None if not found else found[0] if ids else [self.labels[o] for o in found[0]]
        return solution, Uniqueness.of(len(found)) if settled else Uniqueness.UNKNOWN

    @property
    def stats(self) -> _core.Stats | None:
        """The cost counters of the last search started on this problem."""
        return None if self._last is None else self._last.stats

    # ------------------------------------------------------------- conversion

    @classmethod
    def from_dlx(cls, text: str | bytes) -> Problem:
        """Reads Knuth's ``.dlx`` format, from text or UTF-8 bytes (see
        `covering.dlxfile`).

        >>> p = Problem.from_dlx("A B | x\\nA x:1\\nB x:1\\n")
        >>> p.count()
        1
        """
        from .dlxfile import read_dlx

        return read_dlx(text)

    def to_dlx(self) -> str:
        """Writes Knuth's ``.dlx`` format (see `covering.dlxfile`).

        >>> p = Problem(); p.add_primary(["A"]); p.add_secondary(["x"])
        >>> _ = p.add_option(["A", "x:1"]); print(p.to_dlx(), end="")
        A | x
        A x:1
        """
        from .dlxfile import write_dlx

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
        from .matrix import from_matrix

        return from_matrix(matrix, secondary=secondary, names=names)

    @classmethod
    def from_compiled(cls, compiled: _core.CompiledProblem, names: Sequence[Hashable],
                      labels: Sequence[Any] | None = None) -> Problem:
        """The problem of an engine's compiled arrays (a puzzle encoded in
        Rust, such as Akari), with the items named by ``names`` (primary
        first) and the options labelled by ``labels``; colors are named by
        their numbers.

        >>> p = Problem(); p.add_primary(["A"], bounds=(1, 2)); p.add_secondary(["x"])
        >>> _ = p.add_option(["A", "x:red"]); _ = p.add_option(["A"])
        >>> q = Problem.from_compiled(p.compile(), ["A", "x"], labels=["first", "second"])
        >>> q.bounds("A"), q.option(0), q.count()
        ((1, 2), [('A', None), ('x', '1')], 3)
        """
        n_primary, n_secondary, lo, hi, start, item, color = compiled.arrays()
        if len(names) != n_primary + n_secondary:
            raise ValueError(f"{n_primary + n_secondary} items need as many names, not {len(names)}")
        p = cls()
        for i in range(n_primary):
            p.add_primary([names[i]], bounds=(lo[i], hi[i]))
        p.add_secondary(names[n_primary:])
        for o in range(len(start) - 1):
            # (option_color is empty when no option has a color.)
            entries = [f"{names[i]}:{color[k]}" if color and color[k] else names[i]
                       for k, i in zip(range(start[o], start[o + 1]), item[start[o]:start[o + 1]])]
            p.add_option(entries, label=None if labels is None else labels[o])
        return p

    # -------------------------------------------------------------- pickling

    def __getstate__(self) -> dict[str, Any]:
        # The last solver holds a search under way in the engine, which does
        # not pickle; the problem itself is names, options and arrays.
        state = self.__dict__.copy()
        state["_last"] = None
        return state

    def __eq__(self, other: object) -> bool:
        """Problems are equal when they have the same items (with bounds),
        the same options in the same order, and the same labels."""
        if not isinstance(other, Problem):
            return NotImplemented
        return (
            list(self._primary.items()) == list(other._primary.items())
            and list(self._secondary) == list(other._secondary)
            and [self.option(i) for i in range(self.n_options)] == [other.option(i) for i in range(other.n_options)]
            and self._labels == other._labels
        )

    __hash__ = None  # type: ignore[assignment]  # a problem changes as it is built

    def __repr__(self) -> str:
        return (
            f"<Problem: {len(self._primary)} primary items, {len(self._secondary)} secondary, "
            f"{len(self._options)} options>"
        )

    #: Rows and columns shown by `_repr_html_` at most.
    HTML_ROWS, HTML_COLUMNS = 30, 40

    def _repr_html_(self) -> str:
        """In a notebook: the matrix of options (rows) and items (columns), as
        Knuth draws it, 1 or the color where an option has an item; the first
        `HTML_ROWS` options and `HTML_COLUMNS` items of big problems.

        >>> p = Problem.from_dlx("A B | x\\nA x:red\\nB\\n")
        >>> html = p._repr_html_()
        >>> "<th>A</th>" in html and "<th>x</th>" in html and ">red<" in html
        True
        """
        from .render.html import matrix

        items = (self.primary + self.secondary)[: self.HTML_COLUMNS]
        bounds = {name: b for name, b in self._primary.items() if b != (1, 1)}
        names = [f"{i}" + (f" ({bounds[i][0]}..{bounds[i][1]})" if i in bounds else "") for i in items]
        rows = []
        for o in range(min(self.n_options, self.HTML_ROWS)):
            has = dict(self.option(o))
            rows.append((str(self._labels[o]),
                         ["" if i not in has else "1" if has[i] is None else str(has[i]) for i in items]))
        more = []
        if self.n_options > self.HTML_ROWS:
            more.append(f"the first {self.HTML_ROWS} of {self.n_options} options")
        if len(self.primary) + len(self.secondary) > self.HTML_COLUMNS:
            more.append(f"the first {self.HTML_COLUMNS} items")
        caption = f"{len(self._primary)} primary items, {len(self._secondary)} secondary, {self.n_options} options"
        return matrix(names, rows, caption + (f" ({', '.join(more)})" if more else ""))
