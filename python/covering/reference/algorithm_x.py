"""Knuth's Algorithm X on a dict of sets, without mutating anything.

This is the program of M. Hiroi's "Algorithm X" article (in Common Lisp):
the matrix is a mapping from each item to the set of options that contain
it; choosing an option builds a *new* mapping without its items and without
the options that clash with it, so backtracking is just returning. Branch on
the item with the fewest options: an empty one prunes the search at once.

Two extensions turn it into Knuth's Algorithms C and M:

* a secondary item may be shared by options that give it the same color;
* a primary item with bounds ``lo..hi`` is branched on by trying each of its
  options as the next one it takes (the ones tried before are then left
  out, so that each set of options is found once), and finally, when its
  lower bound is met, by taking none.

>>> from covering import Problem
>>> p = Problem.from_dlx("a b c d e f g\\nc e\\na d g\\nb c f\\na d f\\nb g\\nd e g\\n")
>>> list(solutions(p))
[(0, 3, 4)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping

from ..model import ProblemData

__all__ = ["solutions", "count"]

Option = dict[Hashable, Hashable | None]  # item -> color (None when uncolored)


def _clashes(a: Option, b: Option, secondary: frozenset[Hashable]) -> bool:
    """Do two options use a secondary item in incompatible ways?"""
    for item, color in a.items():
        if item in secondary and item in b:
            if color is None or b[item] is None or color != b[item]:
                return True
    return False


def _choose(
    need: Mapping[Hashable, tuple[int, int]],
    live: frozenset[int],
    o: int,
    options: list[Option],
    secondary: frozenset[Hashable],
) -> tuple[dict[Hashable, tuple[int, int]], frozenset[int]]:
    """The (need, live) left after option `o` joins the solution."""
    new_need = dict(need)
    closed = set()
    for item in options[o]:
        if item in need:
            lo, hi = need[item]
            if hi == 1:
                del new_need[item]
                closed.add(item)
            else:
                new_need[item] = (max(lo - 1, 0), hi - 1)
    new_live = frozenset(
        x
        for x in live
        if x != o and not any(i in closed for i in options[x]) and not _clashes(options[o], options[x], secondary)
    )
    return new_need, new_live


def _search(
    need: Mapping[Hashable, tuple[int, int]],
    live: frozenset[int],
    options: list[Option],
    secondary: frozenset[Hashable],
    chosen: tuple[int, ...],
) -> Iterator[tuple[int, ...]]:
    if not need:
        yield tuple(sorted(chosen))
        return
    columns = {item: frozenset(o for o in live if item in options[o]) for item in need}
    item = min(columns, key=lambda i: len(columns[i]))  # the first of the smallest
    lo, _ = need[item]
    left_out: frozenset[int] = frozenset()
    for o in sorted(columns[item]):
        yield from _search(*_choose(need, live - left_out, o, options, secondary), options, secondary, chosen + (o,))
        left_out |= {o}
    if lo == 0:  # the item may take no more options
        rest = {i: b for i, b in need.items() if i != item}
        yield from _search(rest, live - columns[item], options, secondary, chosen)


def solutions(problem: ProblemData) -> Iterator[tuple[int, ...]]:
    """The solutions of `problem`, each as a sorted tuple of option ids."""
    options = [dict(problem.option(i)) for i in range(problem.n_options)]
    need = {item: problem.bounds(item) for item in problem.primary}
    yield from _search(need, frozenset(range(len(options))), options, frozenset(problem.secondary), ())


def count(problem: ProblemData) -> int:
    """The number of solutions."""
    return sum(1 for _ in solutions(problem))
