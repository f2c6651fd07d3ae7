"""The pieces and boards of tilings: shapes and boards as cells, read from
ASCII pictures (any character other than a space or ``.`` is a cell, so a
board may have holes), their rotations and reflections, and the named
piece sets (`covering.puzzles.polyomino` tiles with them).

>>> len(PENTOMINOES), len(PENTOMINOES["F"].orientations())
(12, 8)
>>> sorted(Board.from_picture("##\\n#.").cells)
[(0, 0), (0, 1), (1, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .. import _core, sizes, textio

__all__ = ["Cell", "Shape", "Board", "polyominoes", "hexominoes", "DOMINOES", "TROMINOES", "TETROMINOES",
           "PENTOMINOES", "HEXOMINOES"]

Cell = tuple[int, int]  # (row, column)

def _cells_of(picture: str) -> list[Cell]:
    """The cells of a picture, read by the one text reader (`covering.textio`):
    blanks and ``.`` are gaps, any other character a cell."""
    lines = textio.lines(picture)
    while lines and textio.is_blank(lines[0]):
        lines.pop(0)
    gaps = "." + textio.BLANKS
    return [(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch not in gaps]


@dataclass(frozen=True, order=True)
class Shape:
    """A set of cells, moved so that its top row and left column are 0.

    >>> Shape.from_picture("##\\n#.").cells
    ((0, 0), (0, 1), (1, 0))
    >>> len(PENTOMINOES["F"].orientations())
    8
    """

    cells: tuple[Cell, ...]

    @staticmethod
    def of(cells: Iterable[Cell]) -> Shape:
        cells = list(cells)
        if not cells:
            raise ValueError("a shape needs at least one cell")
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        return Shape(tuple(sorted((r - r0, c - c0) for r, c in cells)))

    @staticmethod
    def from_picture(picture: str) -> Shape:
        return Shape.of(_cells_of(picture))

    def rotated(self) -> Shape:
        """A quarter turn clockwise."""
        return Shape.of((c, -r) for r, c in self.cells)

    def reflected(self) -> Shape:
        """Mirrored left to right."""
        return Shape.of((r, -c) for r, c in self.cells)

    def orientations(self, rotations: bool = True, reflections: bool = True) -> list[Shape]:
        """The distinct shapes reached by the allowed moves, sorted."""
        found = {self}
        frontier = [self]
        while frontier:
            s = frontier.pop()
            moves = ([s.rotated()] if rotations else []) + ([s.reflected()] if reflections else [])
            for t in moves:
                if t not in found:
                    found.add(t)
                    frontier.append(t)
        return sorted(found)

    def picture(self) -> str:
        """The shape drawn with ``#`` and ``.``."""
        rows = 1 + max(r for r, _ in self.cells)
        cols = 1 + max(c for _, c in self.cells)
        cells = set(self.cells)
        return "\n".join("".join("#" if (r, c) in cells else "." for c in range(cols)) for r in range(rows))

    def __len__(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Board:
    """The cells to tile.

    >>> Board.rectangle(2, 3).cells[:4]
    ((0, 0), (0, 1), (0, 2), (1, 0))
    """

    cells: tuple[Cell, ...]

    @staticmethod
    def from_picture(picture: str) -> Board:
        cells = _cells_of(picture)
        if not cells:
            raise ValueError("the board has no cell")
        return Board(tuple(sorted(cells)))

    @staticmethod
    def rectangle(rows: int, cols: int, holes: Iterable[Cell] = ()) -> Board:
        if rows < 1 or cols < 1:
            raise ValueError(f"a {rows} x {cols} board has no cell")
        sizes.check(f"a {rows} x {cols} board", _core.board_bytes(rows * cols))
        holes = set(holes)
        return Board(tuple((r, c) for r in range(rows) for c in range(cols) if (r, c) not in holes))

    @property
    def rows(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def cols(self) -> int:
        return 1 + max(c for _, c in self.cells)


def polyominoes(size: int) -> dict[str, Shape]:
    """All free polyominoes of `size` cells (up to rotation and reflection),
    grown cell by cell from the smaller ones; named by size and number.

    >>> [len(polyominoes(k)) for k in range(1, 7)]
    [1, 1, 2, 5, 12, 35]
    """
    if size < 1:
        raise ValueError("a polyomino has at least one cell")
    level = {Shape(((0, 0),))}
    for _ in range(size - 1):
        grown = set()
        for s in level:
            cells = set(s.cells)
            for r, c in s.cells:
                for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    x = (r + d[0], c + d[1])
                    if x not in cells:
                        grown.add(min(Shape.of(cells | {x}).orientations()))
        level = grown
    return {f"{size}.{k + 1}": s for k, s in enumerate(sorted(level))}


def _named(pictures: Mapping[str, str]) -> dict[str, Shape]:
    return {name: Shape.from_picture(p) for name, p in pictures.items()}


DOMINOES = _named({"D": "##"})
TROMINOES = _named({"I": "###", "L": "##\n#."})
TETROMINOES = _named({"I": "####", "O": "##\n##", "T": "###\n.#.", "S": ".##\n##.", "L": "###\n#.."})
#: Conway's names.
PENTOMINOES = _named(
    {
        "F": ".##\n##.\n.#.", "I": "#####", "L": "####\n#...", "N": "##..\n.###",
        "P": "##\n##\n#.", "T": "###\n.#.\n.#.", "U": "#.#\n###", "V": "#..\n#..\n###",
        "W": "#..\n##.\n.##", "X": ".#.\n###\n.#.", "Y": "####\n.#..", "Z": "##.\n.#.\n.##",
    }
)  # fmt: skip


_HEXOMINOES: dict[str, Shape] = {}


def hexominoes() -> dict[str, Shape]:
    """The 35 free hexominoes, numbered H01..H35, grown on first use rather
    than at import (the command line starts faster).

    >>> len(hexominoes()), sorted(hexominoes())[0]
    (35, 'H01')
    """
    if not _HEXOMINOES:
        _HEXOMINOES.update({f"H{k + 1:02d}": s for k, s in enumerate(polyominoes(6).values())})
    return _HEXOMINOES


def __getattr__(name: str) -> dict[str, Shape]:
    if name == "HEXOMINOES":
        return hexominoes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
