"""The lattices a polyform lives on, as one model: each cell is a vector of
integers (its *point*), the lattice's motions (rotations, then
reflections) are integer matrices acting on points, and translations are
the multiples of the lattice's *step* in every coordinate. The tiling code,
the symmetry code and the pictures share it.

- ``square``: a cell ``(row, col)`` is its own point; the 8 motions of the
  square (4 rotations).
- ``hexagon``: a cell ``(x, y)`` in axial coordinates is its own point; a
  sixth of a turn is ``(x, y) -> (-y, x + y)``; 12 motions.
- ``triangle``: a cell ``(x, y, t)`` (the design's convention) has as point
  three times its centre in the basis (1, 0), (1/2, sqrt 3/2): ``(3x + 1 +
  t, 3y + 1 + t)``; the hexagon's motions act on it; the step is 3.
- ``cube``: a cell ``(x, y, z)`` is its own point; the 48 signed
  permutation matrices (24 rotations, those of determinant 1).
- ``sticks``: the unit segment ``(x, y, d)`` has as point twice its middle,
  ``(2x + 1, 2y)`` (d = 0) or ``(2x, 2y + 1)`` (d = 1); the square's
  motions; the step is 2.

>>> LATTICES["triangle"].cell(LATTICES["triangle"].point((2, 3, 1)))
(2, 3, 1)
>>> [len(LATTICES[n].motions(True, True)) for n in ("square", "hexagon", "triangle", "cube", "sticks")]
[8, 12, 12, 48, 8]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Lattice", "LATTICES", "Point", "Matrix"]

Point = tuple[int, ...]
Matrix = tuple[tuple[int, ...], ...]


def _apply(m: Matrix, p: Point) -> Point:
    return tuple(sum(a * b for a, b in zip(row, p)) for row in m)


def _times(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0])))
                 for i in range(len(a)))


def _closure(generators: Sequence[Matrix]) -> list[Matrix]:
    """The group the matrices generate, identity first, in a fixed order."""
    d = len(generators[0])
    identity = tuple(tuple(int(i == j) for j in range(d)) for i in range(d))
    found, todo = [identity], [identity]
    seen = {identity}
    while todo:
        m = todo.pop(0)
        for g in generators:
            x = _times(g, m)
            if x not in seen:
                seen.add(x)
                found.append(x)
                todo.append(x)
    return found


def _det(m: Matrix) -> int:
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return sum((-1) ** j * m[0][j] * _det(tuple(tuple(r[k] for k in range(len(m)) if k != j) for r in m[1:]))
               for j in range(len(m)))


@dataclass(frozen=True)
class Lattice:
    """A lattice of cells (see the module)."""

    name: str
    #: Coordinates of a cell as the design writes it.
    width: int
    #: Translations are the multiples of `step` in every coordinate of a point.
    step: int
    #: Every motion, rotations first.
    all_motions: tuple[Matrix, ...]
    #: How many of `all_motions` are rotations (the rest are reflections).
    n_rotations: int

    def point(self, cell: Sequence[int]) -> Point:
        """The point of a cell written as the design writes it.

        >>> LATTICES["sticks"].point((1, 2, 1)), LATTICES["hexagon"].point((1, 2))
        ((2, 5), (1, 2))
        """
        if self.name == "triangle":
            x, y, t = cell
            return (3 * x + 1 + t, 3 * y + 1 + t)
        if self.name == "sticks":
            x, y, d = cell
            return (2 * x + 1, 2 * y) if d == 0 else (2 * x, 2 * y + 1)
        return tuple(cell)

    def cell(self, p: Point) -> tuple[int, ...]:
        """The cell of a point, as the design writes it.

        >>> LATTICES["triangle"].cell((5, 2))
        (1, 0, 1)
        """
        if self.name == "triangle":
            t = p[0] % 3 - 1
            return ((p[0] - 1 - t) // 3, (p[1] - 1 - t) // 3, t)
        if self.name == "sticks":
            return (p[0] // 2, p[1] // 2, 0 if p[0] % 2 else 1)
        return p

    def is_cell(self, cell: Sequence[int]) -> bool:
        """Is `cell` written as a cell of this lattice (integers, and for
        triangles and sticks a last coordinate of 0 or 1)?

        >>> cube = LATTICES["cube"]
        >>> LATTICES["triangle"].is_cell((0, 0, 2)), cube.is_cell((0, 0, True)), cube.is_cell((0, 0, 1))
        (False, False, True)
        """
        if len(cell) != self.width or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell):
            return False
        return self.name not in ("triangle", "sticks") or cell[-1] in (0, 1)

    def motions(self, rotations: bool = True, reflections: bool = False) -> list[Matrix]:
        """The motions a piece may make: the identity, the rotations, and
        with `reflections` their mirror images.

        >>> cube = LATTICES["cube"]
        >>> len(cube.motions()), len(cube.motions(False)), len(LATTICES["hexagon"].motions(True, True))
        (24, 1, 12)
        """
        ms = list(self.all_motions[: self.n_rotations] if rotations else self.all_motions[:1])
        if reflections:
            mirror = self.all_motions[self.n_rotations]
            ms += [_times(m, mirror) for m in ms]
        return ms

    def moved(self, m: Matrix, points: Iterable[Point]) -> list[Point]:
        """`points` under the motion `m`.

        >>> sq = LATTICES["square"]
        >>> sq.moved(sq.motions()[1], [(0, 1), (2, 0)])
        [(1, 0), (0, -2)]
        """
        return [_apply(m, p) for p in points]

    def normalized(self, points: Iterable[Point]) -> tuple[Point, ...]:
        """`points` translated so that each coordinate's least is in 0..step-1: two
        sets are translates of each other when these are equal.

        >>> sq = LATTICES["square"]
        >>> sq.normalized([(5, 7), (5, 8)]) == sq.normalized([(-1, 0), (-1, 1)])
        True
        """
        pts = list(points)
        s = self.step
        low = [min(p[i] for p in pts) // s * s for i in range(len(pts[0]))]
        return tuple(sorted(tuple(v - lo for v, lo in zip(p, low)) for p in pts))

    def neighbours(self, p: Point) -> list[Point]:
        """The cells next to `p` (sharing an edge; a face for cubes; an end
        for sticks).

        >>> len(LATTICES["hexagon"].neighbours((0, 0))), len(LATTICES["triangle"].neighbours((1, 1)))
        (6, 3)
        """
        if self.name == "square":
            return [(p[0] + a, p[1] + b) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        if self.name == "hexagon":
            return [(p[0] + a, p[1] + b) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))]
        if self.name == "cube":
            return [tuple(v + (i == k) * e for i, v in enumerate(p)) for k in range(3) for e in (1, -1)]
        if self.name == "triangle":
            # Three times the centres: an up triangle (1, 1 mod 3) meets the
            # down triangles across its three edges.
            sign = 1 if p[0] % 3 == 1 else -1
            return [(p[0] + sign * a, p[1] + sign * b) for a, b in ((1, 1), (-2, 1), (1, -2))]
        # sticks: segments sharing an end point.
        ends = self.ends(p)
        return [q for e in ends for q in ((e[0] + 1, e[1]), (e[0] - 1, e[1]), (e[0], e[1] + 1), (e[0], e[1] - 1))
                if q != p]

    @staticmethod
    def ends(p: Point) -> tuple[Point, Point]:
        """The two grid points (doubled) of a stick.

        >>> Lattice.ends((1, 0))
        ((0, 0), (2, 0))
        """
        if p[0] % 2:
            return (p[0] - 1, p[1]), (p[0] + 1, p[1])
        return (p[0], p[1] - 1), (p[0], p[1] + 1)


def _lattices() -> dict[str, Lattice]:
    def group(rotation: Sequence[Matrix], mirror: Matrix) -> tuple[tuple[Matrix, ...], int]:
        rot = _closure(list(rotation))
        return tuple(rot + [_times(m, mirror) for m in rot]), len(rot)

    square, sq_n = group([((0, 1), (-1, 0))], ((1, 0), (0, -1)))
    hexagon, hex_n = group([((0, -1), (1, 1))], ((0, 1), (1, 0)))
    signed = [tuple(tuple(s[i] * (perm[i] == j) for j in range(3)) for i in range(3))
              for perm in itertools.permutations(range(3)) for s in itertools.product((1, -1), repeat=3)]
    rotations = sorted((m for m in signed if _det(m) == 1), key=lambda m: (m != ((1, 0, 0), (0, 1, 0), (0, 0, 1)), m))
    mirror = ((-1, 0, 0), (0, 1, 0), (0, 0, 1))
    cube = tuple(rotations + [_times(m, mirror) for m in rotations])
    return {
        "square": Lattice("square", 2, 1, square, sq_n),
        "hexagon": Lattice("hexagon", 2, 1, hexagon, hex_n),
        "triangle": Lattice("triangle", 3, 3, hexagon, hex_n),
        "cube": Lattice("cube", 3, 1, cube, len(rotations)),
        "sticks": Lattice("sticks", 3, 2, square, sq_n),
    }


#: The lattices by name.
LATTICES: dict[str, Lattice] = _lattices()
