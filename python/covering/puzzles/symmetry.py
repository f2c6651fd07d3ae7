"""Symmetries of a board, and breaking them inside an exact cover problem.

The eight symmetries of the square (the dihedral group D4) act on cells. A
board's symmetries are those that map its cells onto themselves (after
moving back to row 0 and column 0). Two tilings that differ by one of them
are "the same up to symmetry"; to count each class once, the problem itself
is restricted, as Knuth does for the pentominoes (TAOCP 7.2.2.1):

1. a piece P used exactly once, whose placements are never left in place by
   a symmetry, keeps only one placement of each orbit (the smallest): each
   class of tilings then keeps exactly one member;
2. if some kept placement r of P is left in place by a subgroup H, a second
   piece Q, never left in place by H, breaks what remains: a secondary item
   shared by P's option r and by every Q placement that is not the smallest
   of its H-orbit forbids the two together.

No count is divided afterwards: the solutions of the restricted problem are
the classes themselves.

>>> board = [(r, c) for r in range(6) for c in range(10)]
>>> len(board_symmetries(board))
4
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..errors import ProblemError

__all__ = ["D4", "board_symmetries", "break_symmetry", "SymmetryError", "Transform"]

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


def break_symmetry(
    placements: dict[str, list[Placement]], group: Sequence[Transform], once: Sequence[str]
) -> tuple[set[Placement], dict[Placement, list[str]]]:
    """Which placements to drop, and which secondary items to add, so that the
    tilings left are one per class under `group` (see the module's text).

    `placements` maps each piece to its placements; `once` lists the pieces
    used exactly once (only they can break symmetry). Returns the dropped
    placements and, for some kept ones, the names of new secondary items.
    """
    if len(group) == 1:
        return set(), {}
    g_rest = group[1:]

    def stabilizer(x: Placement, among: Sequence[Transform]) -> list[Transform]:
        return [g for g in among if _moved(g, x) == x]

    def smallest(x: Placement, among: Sequence[Transform]) -> bool:
        return all(_key(x) <= _key(_moved(g, x)) for g in among)

    candidates = []
    for name in once:
        kept = [x for x in placements[name] if smallest(x, g_rest)]
        fixed = any(stabilizer(x, g_rest) for x in kept)
        candidates.append((fixed, len(kept), name))
    if not candidates:
        raise SymmetryError("counting up to symmetry needs a piece that is used exactly once")
    p = min(candidates)[2]
    dropped = {x for x in placements[p] if not smallest(x, g_rest)}
    extra: dict[Placement, list[str]] = {}
    for k, r in enumerate(x for x in placements[p] if x not in dropped):
        h = stabilizer(r, g_rest)
        if not h:
            continue
        # Break the symmetries H that leave r in place with a second piece.
        for q in once:
            if q != p and all(not stabilizer(y, h) for y in placements[q]):
                break
        else:
            raise SymmetryError(
                f"placement {sorted(r[1])} of {p!r} is symmetric, and no other piece used once can break it"
            )
        item = f"sym#{k}"
        extra.setdefault(r, []).append(item)
        for y in placements[q]:
            if not smallest(y, h):
                extra.setdefault(y, []).append(item)
    return dropped, extra
