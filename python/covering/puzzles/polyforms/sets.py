"""Named piece sets on every lattice: the free polyforms of each size
(grown cell by cell and kept once per class of their motions), Soma's
seven pieces, and the tetrasticks.

>>> [len(polyforms("triangle", k)) for k in range(1, 7)]
[1, 1, 1, 3, 4, 12]
>>> [len(polyforms("hexagon", k)) for k in range(1, 6)]
[1, 1, 3, 7, 22]
>>> [len(polyforms("cube", k)) for k in range(1, 5)], len(polyforms("cube", 4, reflections=False))
([1, 1, 2, 7], 8)
>>> len(polyforms("sticks", 4)), sorted(SOMA)
(16, ['A', 'B', 'L', 'P', 'T', 'V', 'Z'])
"""

from __future__ import annotations

import functools

from .lattice import LATTICES, Lattice, Point

__all__ = ["polyforms", "named", "SOMA", "NAMED"]

Cells = tuple[tuple[int, ...], ...]

#: Most cells a named set is grown to (the hexagon's 82 hexahexes, the
#: cube's 166 one-sided hexacubes are still few enough to name).
MOST = 6


def _key(lattice: Lattice, points: tuple[Point, ...], reflections: bool) -> tuple[Point, ...]:
    """The class of a shape: its least normalized image under the motions."""
    return min(lattice.normalized(lattice.moved(m, points)) for m in lattice.motions(True, reflections))


@functools.lru_cache(maxsize=None)
def _grown(name: str, size: int, reflections: bool) -> tuple[tuple[Point, ...], ...]:
    lattice = LATTICES[name]
    if size == 1:
        first = lattice.point((0,) * lattice.width)
        return (_key(lattice, (first,), reflections),)
    found: dict[tuple[Point, ...], None] = {}
    for shape in _grown(name, size - 1, reflections):
        have = set(shape)
        for p in shape:
            for q in lattice.neighbours(p):
                if q not in have:
                    found.setdefault(_key(lattice, (*shape, q), reflections))
    return tuple(sorted(found))


def polyforms(lattice: str, size: int, reflections: bool = True) -> dict[str, Cells]:
    """The polyforms of `size` cells on `lattice`, one per class of its
    motions (with `reflections`: a shape and its mirror image are one, as
    pieces that may be turned over), as cells the design writes, named by
    the lattice's letter, the size and a number in a fixed order
    (``T6-01`` for the first hexiamond).

    >>> sorted(polyforms("hexagon", 2).items())
    [('H2-01', ((0, 0), (0, 1)))]
    """
    if not 1 <= size <= MOST:
        raise ValueError(f"the named sets go from 1 to {MOST} cells, not {size}")
    lat = LATTICES[lattice]
    letter = {"square": "Q", "triangle": "T", "hexagon": "H", "cube": "C", "sticks": "S"}[lattice]
    shapes = _grown(lattice, size, reflections)
    return {f"{letter}{size}-{k + 1:02d}": tuple(lat.cell(p) for p in s) for k, s in enumerate(shapes)}


#: Soma's seven pieces (Piet Hein): the non-convex polycubes of three and four cubes.
SOMA: dict[str, Cells] = {
    "V": ((0, 0, 0), (1, 0, 0), (0, 1, 0)),
    "L": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
    "T": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
    "Z": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
    "A": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)),
    "B": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)),
    "P": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def named(name: str) -> tuple[str, dict[str, Cells]]:
    """A named set: (its lattice, its pieces). ``soma``, ``tetrasticks``,
    or LATTICE-SIZE for the free polyforms (``triangle-6``: the twelve
    hexiamonds; ``cube-4``: the tetracubes as solids, mirror pairs apart),
    LATTICE-SIZE-one-sided for the one-sided ones (a piece and its mirror
    image apart: to be placed without turning them over).

    >>> lattice, pieces = named("triangle-6")
    >>> lattice, len(pieces), len(named("square-5-one-sided")[1])
    ('triangle', 12, 18)
    """
    if name in NAMED:
        return NAMED[name]
    if name == "tetrasticks":
        return "sticks", polyforms("sticks", 4)
    one_sided = name.endswith("-one-sided")
    lattice, _, size = name.removesuffix("-one-sided").rpartition("-")
    if lattice in LATTICES and size.isdigit():
        return lattice, polyforms(lattice, int(size), reflections=lattice != "cube" and not one_sided)
    raise ValueError(f"no piece set {name!r} (soma, tetrasticks, or LATTICE-SIZE such as triangle-6, hexagon-4, "
                     f"cube-5, sticks-4)")


#: The sets with a name of their own.
NAMED: dict[str, tuple[str, dict[str, Cells]]] = {"soma": ("cube", SOMA)}


def __getattr__(name: str) -> object:
    if name == "TETRASTICKS":
        return polyforms("sticks", 4)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
