"""The diagram of all the solutions (Nishino et al.'s ZDD), built by the memo search.

The memo count (`covering.memo`) adds up the counts of sub-problems; the
same search can instead give each sub-problem a node, and the memo then
makes the nodes of a sub-problem met again shared. The result holds every
solution in a space that grows with the number of distinct sub-problems,
not with the number of solutions, and answers in one pass over its nodes:
how many solutions, how many contain given options and avoid others, how
many contain each option, a uniformly random solution.

>>> from covering.puzzles.polyomino import l_tromino
>>> z = l_tromino(6).to_zdd()
>>> z.count(), len(z) < 1000
(162, True)
>>> z.count(include=[0]) + z.count(exclude=[0]) == z.count()
True

Each node stands for the solutions that take its option and go on with
those of its ``hi`` child, together with those of its ``lo`` child; the
two children always come earlier in the node list, so a pass in order
computes anything bottom-up. Node 0 is the empty family (no solution),
node 1 the empty solution, and the node at position k of the lists has id
k + 2. The diagram is shared as far as the memo saw sub-problems again,
but its options are not in one global order (it is not canonical): two
diagrams of the same problem may differ node by node.
"""

from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Collection, Iterator
from typing import Any

from . import _core, limits, sizes
from .errors import LimitReached
from .model import ProblemData
from .memo import memo_budget

__all__ = ["Zdd", "build_zdd"]


class Zdd:
    """The diagram of the solutions of a problem; see the module.

    ``option[k]``, ``lo[k]`` and ``hi[k]`` describe the node of id k + 2;
    ``root`` is the id of the whole family. Counts are exact Python ints.

    >>> from covering import Problem
    >>> p = Problem(); p.add_primary(["A", "B"])
    >>> for items in (["A"], ["B"], ["A", "B"]):
    ...     _ = p.add_option(items)
    >>> z = p.to_zdd()
    >>> z.count(), sorted(z.solutions(ids=True))
    (2, [(0, 1), (2,)])
    """

    def __init__(self, problem: ProblemData, root: int, option: array[int], lo: array[int], hi: array[int]) -> None:
        if not len(option) == len(lo) == len(hi):
            raise ValueError("option, lo and hi must have one entry per node")
        self.problem = problem
        self.root = root
        self.option = option
        self.lo = lo
        self.hi = hi
        self._counts: list[int] | None = None

    def __eq__(self, other: object) -> bool:
        """The same nodes, in the same order, for an equal problem."""
        if not isinstance(other, Zdd):
            return NotImplemented
        return (self.root, self.option, self.lo, self.hi) == (other.root, other.option, other.lo, other.hi) and (
            self.problem == other.problem
        )

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_counts"] = None  # recomputed on demand
        return state

    def __len__(self) -> int:
        """The number of nodes (the two terminals not included)."""
        return len(self.option)

    def __repr__(self) -> str:
        return f"Zdd({len(self)} nodes, {self.count()} solutions)"

    def _repr_html_(self) -> str:
        """In a notebook: its size and its count.

        >>> from covering.puzzles.polyomino import l_tromino
        >>> "1193600" in l_tromino(9).to_zdd(branching="first")._repr_html_()
        True
        """
        from .render.html import table

        return table([("nodes", f"{len(self):,}"), ("solutions", self.count())], caption="Zdd")

    def counts(self) -> list[int]:
        """The number of solutions below each node id (computed once)."""
        if self._counts is None:
            counts = [0, 1]
            for lo, hi in zip(self.lo, self.hi):
                counts.append(counts[lo] + counts[hi])
            self._counts = counts
        return self._counts

    def count(self, *, include: Collection[int] = (), exclude: Collection[int] = ()) -> int:
        """The number of solutions that contain every option of ``include``
        and none of ``exclude`` (option ids), in one pass over the nodes.

        >>> from covering.puzzles.polyomino import l_tromino
        >>> z = l_tromino(7, 0).to_zdd()
        >>> z.count(), z.count(include=[0]), z.count(exclude=[0])
        (1440, 704, 736)
        """
        n = self.problem.n_options
        must = frozenset(limits.option_ids(include, n, "include: option"))
        banned = frozenset(limits.option_ids(exclude, n, "exclude: option"))
        if not must and not banned:
            return self.counts()[self.root]
        if must & banned:
            return 0
        # below[v][j]: solutions below node v with exactly j options of
        # `must` (a solution meets an option at most once on its path).
        width = len(must) + 1
        zero = [0] * width
        below = [zero, [1] + [0] * (width - 1)]
        for o, lo, hi in zip(self.option, self.lo, self.hi):
            if o in banned:
                below.append(below[lo])
                continue
            take = below[hi]
            if o in must:
                take = [0] + take[:-1]
            below.append([a + b for a, b in zip(below[lo], take)])
        return below[self.root][-1]

    def option_counts(self) -> list[int]:
        """For each option id, the number of solutions that contain it.

        The number of paths from the root to each node (top-down) times the
        solutions below its ``hi`` child, summed over the nodes of an option.

        >>> from covering import Problem
        >>> p = Problem(); p.add_primary(["A", "B"])
        >>> for items in (["A"], ["B"], ["A", "B"]):
        ...     _ = p.add_option(items)
        >>> p.to_zdd().option_counts()
        [1, 1, 1]
        """
        counts = self.counts()
        paths = [0] * (len(self) + 2)
        paths[self.root] = 1
        out = [0] * self.problem.n_options
        for k in range(len(self) - 1, -1, -1):
            p = paths[k + 2]
            if p:
                lo, hi = self.lo[k], self.hi[k]
                out[self.option[k]] += p * counts[hi]
                paths[lo] += p
                paths[hi] += p
        return out

    def random_solution(self, seed: int | random.Random | None = None, *, ids: bool = False) -> Any:
        """A solution drawn uniformly at random (each one equally likely),
        or None if there is none: labels, or with ``ids=True`` a sorted tuple
        of option ids. ``seed`` is a number (repeatable) or a `random.Random`.

        >>> from covering.puzzles.polyomino import l_tromino
        >>> z = l_tromino(6).to_zdd()
        >>> s = z.random_solution(7, ids=True)
        >>> z.problem.is_solution(s), s == z.random_solution(7, ids=True)
        (True, True)
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        counts = self.counts()
        if counts[self.root] == 0:
            return None
        # The solutions below a node are those of its hi branch, then those
        # of its lo branch: walk down to the r-th one.
        r = rng.randrange(counts[self.root])
        chosen: list[int] = []
        v = self.root
        while v > 1:
            k = v - 2
            hi = self.hi[k]
            if r < counts[hi]:
                chosen.append(self.option[k])
                v = hi
            else:
                r -= counts[hi]
                v = self.lo[k]
        return self._as(chosen, ids)

    def solutions(self, *, ids: bool = False) -> Iterator[Any]:
        """Every solution, once each, read off the diagram (labels, or with
        ``ids=True`` sorted tuples of option ids).

        >>> from covering.puzzles.polyomino import l_tromino
        >>> z = l_tromino(6).to_zdd()
        >>> sum(1 for _ in z.solutions()) == z.count()
        True
        """
        path: list[int] = []
        pending = [(self.root, 0)]  # (node id, length of the path above it)
        while pending:
            v, depth = pending.pop()
            del path[depth:]
            while v > 1:
                k = v - 2
                if self.lo[k]:
                    pending.append((self.lo[k], len(path)))
                path.append(self.option[k])
                v = self.hi[k]
            if v == 1:
                yield self._as(path, ids)

    def _as(self, chosen: list[int], ids: bool) -> Any:
        ordered = sorted(chosen)
        if ids:
            return tuple(ordered)
        return [self.problem.label(o) for o in ordered]


def build_zdd(
    problem: ProblemData,
    *,
    memo_bytes: int | None = None,
    branching: str = "mrv",
    nodes: int | None = None,
    seconds: float | None = None,
    budget: limits.Budget | None = None,
) -> Zdd:
    """The diagram of all the solutions of `problem` (see `Problem.to_zdd`),
    within `nodes`, `seconds` and the run's `budget`.

    >>> from covering.puzzles.polyomino import l_tromino
    >>> build_zdd(l_tromino(9), branching="first").count()
    1193600
    """
    run = limits.begin(budget, nodes, seconds)
    builder = _core.MemoZdd(problem.compile(), memo_budget(memo_bytes, run.memory), branching)
    try:
        root = builder.run(run.with_memory())
    except MemoryError:
        raise sizes.SizeError(
            f"the diagram of all the solutions grew past the limit of {sizes.human(run.memory_limit())} before it was done "
            f"(raise it with {sizes.ENV} or --max-memory; a count alone needs no diagram: count(memo=True))"
        ) from None
    if root is None:
        raise LimitReached("budget reached before the diagram was built", count=0, stats=builder.stats,
                           budget=run.ran_out())
    # The engine sends little-endian 32-bit words ('I' is 32 bits wherever CPython runs).
    triples = array("I", builder.nodes())
    if sys.byteorder == "big":  # pragma: no cover
        triples.byteswap()
    return Zdd(problem, root, triples[0::3], triples[1::3], triples[2::3])
