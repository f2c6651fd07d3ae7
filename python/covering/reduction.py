"""Preprocessing, after Knuth's DLX-PRE: a problem with the options and
items that cannot matter taken out, before a search.

Three rules, repeated until nothing changes (in the engine, `xc::reduce`):
an item every option of some primary item holds (without a color) is
covered with it, so it leaves, with the options that hold it but not that
primary item; an option that would leave some primary item without a
compatible option is in no solution, so it leaves; and (not in DLX-PRE) a
primary item of bounds 0:v that no choice of options can give more than v
binds nothing, so it leaves, its options kept (Knuth's REDRECT-DLX names
each rectangle so: the count's search tree was four times as big with
them). Colors and multiplicities are respected: only items covered at most
once rule options out, and only where both options do not give them the
same color.

The reduced problem has the same solutions, option for option: each of its
options is an original one (some without the items that left), and
`Reduction.original` maps its option ids back. Counts are equal.

>>> from covering.model import ProblemData
>>> # Knuth's example: A..E primary, F G secondary; one solution.
>>> p = ProblemData.from_arrays(["A", "B", "C", "D", "E"], [0, 3, 6, 9, 11, 13, 16],
...     [2, 4, 5, 0, 3, 6, 1, 2, 5, 0, 3, 1, 6, 3, 4, 6], secondary=["F", "G"])
>>> r = reduce(p)
>>> r.problem.n_options, r.removed_options, r.removed_items
(3, 3, 4)
>>> r.original([0, 1, 2])
(0, 3, 4)
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable
from typing import Any, Generic, TypeVar

from . import limits
from .errors import ProblemError
from .labels import Labels
from .model import ProblemData
from .records import Frozen

__all__ = ["Reduction", "reduce", "optional_as_secondary"]

P = TypeVar("P", bound=ProblemData)

#: Entries renumbered at a time by `optional_as_secondary` (some tens of
#: milliseconds), between which Ctrl-C is seen.
RENUMBER_SLICE = 1 << 20


class Reduction(Frozen, Generic[P]):
    """A problem reduced (`reduce`): the problem left and how it maps back.
    (A `Frozen` value, not a dataclass: `covering.records`.)"""

    _fields = ("problem", "option_ids", "removed_options", "removed_items", "rounds", "complete", "infeasible",
               "work")
    #: The reduced problem, of the original's class.
    problem: P
    #: The original id of each option of `problem`.
    option_ids: tuple[int, ...]
    #: Options and items taken out.
    removed_options: int
    removed_items: int
    #: Rounds over the problem; whether they ran until nothing changed (a
    #: ``work`` budget may end them early: what was done is sound).
    rounds: int
    complete: bool
    #: A primary item no option can cover (the problem has no solution), or None.
    infeasible: Hashable | None
    #: Units of work the engine spent (entries looked at).
    work: int

    def __init__(self, problem: P, option_ids: tuple[int, ...], removed_options: int, removed_items: int,
                 rounds: int, complete: bool, infeasible: Hashable | None, work: int) -> None:
        self._set(problem=problem, option_ids=option_ids, removed_options=removed_options,
                  removed_items=removed_items, rounds=rounds, complete=complete, infeasible=infeasible, work=work)

    def original(self, ids: Iterable[int]) -> tuple[int, ...]:
        """The original option ids of a solution of `problem` (option ids),
        in increasing order."""
        return tuple(sorted(self.option_ids[o] for o in ids))

    def summary(self) -> dict[str, Any]:
        """What was taken out, for reports (the command line's ``--json``)."""
        return {"options": self.removed_options, "items": self.removed_items, "rounds": self.rounds,
                "complete": self.complete}


def reduce(problem: P, *, work: int | None = None) -> Reduction[P]:
    """`problem` reduced (see the module's text), within `work` units (None:
    until nothing changes); Ctrl-C raises KeyboardInterrupt.

    >>> from covering.model import ProblemData
    >>> p = ProblemData.from_arrays(["A", "B"], [0, 1, 2, 4], [0, 1, 0, 1])
    >>> reduce(p).removed_options  # both ways cover A and B: nothing goes
    0
    """
    budget = limits.limit(work, "work")
    compiled = problem.compile()
    reduced, options, items, rounds, complete, infeasible, spent = compiled.reduce(budget)
    names = problem.primary + problem.secondary
    kept_names = [names[i] for i in items]
    n_primary = reduced.n_primary
    lo = [problem.bounds(names[i])[0] for i in items[:n_primary]]
    hi = [problem.bounds(names[i])[1] for i in items[:n_primary]]
    start_b, item_b, color_b = reduced.option_bytes()
    start, item, color = array("I"), array("I"), array("I")
    start.frombytes(start_b)
    item.frombytes(item_b)
    color.frombytes(color_b)
    labels = problem._labels.take_lines(options)
    if labels is None:
        labels = Labels()
        labels.extend([problem.label(o) for o in options])
    costs = None
    if problem.has_costs:
        all_costs = problem.costs
        costs = array("Q", [all_costs[o] for o in options])
    smaller = type(problem).from_read(kept_names, n_primary, lo, hi, problem.color_names, (start, item, color),
                                      labels, compiled=reduced, costs=costs)
    return Reduction(smaller, tuple(options), problem.n_options - len(options), problem.n_items - len(items),
                     rounds, complete, None if infeasible is None else names[infeasible], spent)


def optional_as_secondary(problem: P) -> P | None:
    """`problem` with each primary item of bounds 0:1 (taken at most once,
    perhaps not at all: what a secondary item is) made secondary, the
    same options, ids and solutions; None if it has none such, or none
    other, or an option would be left without a primary item. Algorithm M
    then has fewer items to weigh, and with no other multiplicities the
    problem is one for the XCC engines: each pentomino and tetromino 0-1
    times on a 6x6 board, 854,528 tilings, counted in 3.6 s where Algorithm
    M took 19 s (his SSMCC-WTD 14.3 s).

    >>> from covering import Problem
    >>> p = Problem.from_dlx("0:1|A B\\nA B\\nB\\n")
    >>> q = optional_as_secondary(p)
    >>> q.primary, q.secondary, q.count() == p.count() == 2
    (['B'], ['A'], True)
    >>> optional_as_secondary(Problem.from_dlx("0:1|A B\\nA\\nB\\n")) is None  # "A" alone
    True
    """
    n1 = problem._n_primary
    optional = [problem._lo[k] == 0 and problem._hi[k] == 1 for k in range(n1)]
    loose = [k for k in range(n1) if optional[k]]
    keep = [k for k in range(n1) if not optional[k]]
    if not loose or not keep:
        return None
    order = keep + loose + list(range(n1, len(problem._names)))
    items = problem._item[:]  # (copies: the new problem may be changed)
    if max(keep) > min(loose):
        # Renumbered in slices, so that Ctrl-C is seen between them.
        new = array("I", bytes(4 * len(order)))
        for k, old in enumerate(order):
            new[old] = k
        items = array("I")
        for at in range(0, len(problem._item), RENUMBER_SLICE):
            items.extend(map(new.__getitem__, problem._item[at:at + RENUMBER_SLICE]))
    names = [problem._names[k] for k in order]
    lo = [problem._lo[k] for k in keep]
    hi = [problem._hi[k] for k in keep]
    made = type(problem).from_read(names, len(keep), lo, hi, problem._color_names,
                                   (problem._start[:], items, problem._color[:]), problem._labels,
                                   costs=problem._cost)
    try:
        made.compile()
    except ProblemError:
        return None  # an option had no primary item but optional ones
    return made
