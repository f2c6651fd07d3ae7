"""Symmetries of a board, and breaking them inside an exact cover problem.

The eight symmetries of the square (the dihedral group D4) act on cells. A
board's symmetries are those that map its cells onto themselves (after
moving back into place). Two tilings that differ by one of them are "the
same up to symmetry"; to count or list each class once, the problem itself
is restricted, as Knuth does for the pentominoes (TAOCP 7.2.2.1). A *breaker*
is a set of placements of which every tiling has exactly one, mapped onto
itself by the symmetries: the placements of a piece used exactly once, or
the placements covering a cell that every symmetry leaves in place (the
centre of an odd square).

1. The breaker keeps one placement of each orbit (the smallest): every class
   of tilings keeps the members that use it.
2. If a kept placement r is left in place by a subgroup H, a piece Q used once
   and never left in place by H breaks what remains: a secondary item shared
   by r and by every placement of Q that is not the smallest of its H-orbit
   forbids the two together.
3. What neither can break is *filtered*: the tilings with r are listed and
   only those that are smallest under H (as sorted lists of placements) are
   kept. With no breaker at all, every tiling is filtered under the whole
   group.

No count is ever divided: each class is one solution.

>>> board = [(r, c) for r in range(6) for c in range(10)]
>>> len(board_symmetries(board))
4
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import ProblemError

__all__ = ["D4", "board_symmetries", "plan", "canonical", "Plan", "SymmetryError", "Transform"]

Cell = tuple[int, int]
Transform = Callable[[Cell], Cell]

#: The eight symmetries of the square, as maps of (row, col), identity first.
D4: list[Transform] = [
    lambda p: (p[0], p[1]),
    lambda p: (p[1], -p[0]),
    lambda p: (-p[0], -p[1]),
    lambda p: (-p[1], p[0]),
    lambda p: (p[0], -p[1]),
    lambda p: (-p[0], p[1]),
    lambda p: (p[1], p[0]),
    lambda p: (-p[1], -p[0]),
]


class SymmetryError(ProblemError):
    """The symmetry of the board cannot be broken with the pieces given."""


def _normalized(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def board_symmetries(board: Sequence[Cell]) -> list[Transform]:
    """The symmetries of `board` as maps from its cells to its cells (identity first)."""
    target = _normalized(board)
    br = min(r for r, _ in board)
    bc = min(c for _, c in board)
    out = []
    for g in D4:
        moved = [g(x) for x in board]
        r0 = min(r for r, _ in moved)
        c0 = min(c for _, c in moved)
        if tuple(sorted((r - r0, c - c0) for r, c in moved)) == target:
            out.append(_shifted(g, r0 - br, c0 - bc))
    return out


def _shifted(g: Transform, dr: int, dc: int) -> Transform:
    def h(p: Cell) -> Cell:
        q = g(p)
        return (q[0] - dr, q[1] - dc)

    return h


Placement = tuple[str, frozenset[Cell]]


def _moved(g: Transform, x: Placement) -> Placement:
    return (x[0], frozenset(g(c) for c in x[1]))


def _key(x: Placement) -> tuple[str, tuple[Cell, ...]]:
    return (x[0], tuple(sorted(x[1])))


@dataclass
class Plan:
    """How to list each class of tilings once (see the module's text)."""

    #: Placements removed from the problem (not the smallest of their orbit).
    dropped: set[Placement] = field(default_factory=set)
    #: Secondary items to add to some placements (step 2).
    extra: dict[Placement, list[str]] = field(default_factory=dict)
    #: Placements whose tilings are filtered, each with its residual group;
    #: `None` stands for "every tiling" (no breaker was found).
    filtered: list[tuple[Placement | None, list[Transform]]] = field(default_factory=list)


def canonical(tiling: Iterable[Placement], group: Sequence[Transform]) -> bool:
    """Is `tiling` the smallest of its images under `group`, as a sorted list?"""
    me = sorted(_key(x) for x in tiling)
    return all(me <= sorted(_key(_moved(g, x)) for x in tiling) for g in group)


def plan(
    placements: dict[str, list[Placement]], group: Sequence[Transform], once: Sequence[str]
) -> Plan:
    """The plan for tilings from `placements` (by piece) under `group`;
    `once` lists the pieces used exactly once."""
    result = Plan()
    if len(group) <= 1:
        return result
    rest = list(group[1:])

    def stabilizer(x: Placement, among: Sequence[Transform]) -> list[Transform]:
        return [g for g in among if _moved(g, x) == x]

    def smallest(x: Placement, among: Sequence[Transform]) -> bool:
        return all(_key(x) <= _key(_moved(g, x)) for g in among)

    # The breakers: pieces used once, and cells that every symmetry fixes.
    breakers: list[list[Placement]] = [placements[name] for name in once]
    everything = [x for xs in placements.values() for x in xs]
    cells = {c for x in everything for c in x[1]}
    for c in sorted(cells):
        if all(g(c) == c for g in rest):
            breakers.append([x for x in everything if c in x[1]])
    if not breakers:
        result.filtered.append((None, list(group)))
        return result

    def score(b: list[Placement]) -> tuple[bool, int]:
        kept = [x for x in b if smallest(x, rest)]
        return (any(stabilizer(x, rest) for x in kept), len(kept))

    breaker = min(breakers, key=score)
    result.dropped = {x for x in breaker if not smallest(x, rest)}
    for k, r in enumerate(x for x in breaker if x not in result.dropped):
        h = stabilizer(r, rest)
        if not h:
            continue
        second = next(
            (q for q in once if placements[q] is not breaker and all(not stabilizer(y, h) for y in placements[q])),
            None,
        )
        if second is None:
            result.filtered.append((r, [group[0]] + h))
            continue
        item = f"sym#{k}"
        result.extra.setdefault(r, []).append(item)
        for y in placements[second]:
            if not smallest(y, h):
                result.extra.setdefault(y, []).append(item)
    return result
