"""Boards and pieces from text pictures a person can type, on every
lattice: the pictures `pictures.text_of` draws, read back. Blanks and ``.``
are gaps; any other character is a cell (a stick, for sticks).

- square: rows of cells, as `covering.puzzles.shapes` reads them;
- hexagon: rows of hexagons, each cell a character with a blank between,
  each row shifted half a cell from the next (the first cell of the
  picture fixes which columns hold cells in each row); the lattice's
  second axis goes up the rows;
- triangle: rows of triangles, up and down in turn (a row starts with the
  triangle whose column is even, counted from the bottom row as for
  hexagons); each row is shifted by one triangle from the next;
- cube: layers separated by blank lines (the first the lowest, ``z = 0``),
  each a square picture (rows ``y``, columns ``x``);
- sticks: the grid's points as ``+`` (or any character), every fourth
  column of every other line; a stick across as the three characters
  between two points, a stick down as the character between two lines of
  points.

Errors name the line and column of the picture.

>>> read_cells("hexagon", " # #\\n# #")
[(0, 1), (1, 1), (0, 0), (1, 0)]
>>> read_cells("cube", "##\\n\\n#.")
[(0, 0, 0), (1, 0, 0), (0, 0, 1)]
>>> read_cells("sticks", "+---+\\n|\\n+")
[(0, 0, 0), (0, 0, 1)]
"""

from __future__ import annotations

from ... import textio
from .model import PolyformError

__all__ = ["read_cells"]

_GAPS = "." + textio.BLANKS


def read_cells(lattice: str, text: str, first: int = 1) -> list[tuple[int, ...]]:
    """The cells of a picture on `lattice` (see the module); errors count
    its lines from `first`.

    >>> read_cells("triangle", "##")
    [(0, 0, 0), (0, 0, 1)]
    """
    lines = textio.lines(text)
    while lines and textio.is_blank(lines[-1]):
        lines.pop()
    start = 0
    while start < len(lines) and textio.is_blank(lines[start]):
        start += 1
    rows = [(first + k, line) for k, line in enumerate(lines) if k >= start]
    if not any(ch not in _GAPS for _, line in rows for ch in line):
        raise PolyformError(f"line {first}: the picture has no cell")
    if lattice == "cube":
        cells: list[tuple[int, ...]] = []
        z = 0
        layer: list[tuple[int, str]] = []
        for lineno, line in rows + [(0, "")]:
            if textio.is_blank(line):
                if layer:
                    cells += [(x, y, z) for y, (_, row) in enumerate(layer) for x, ch in enumerate(row)
                              if ch not in _GAPS]
                    z += 1
                layer = []
            else:
                layer.append((lineno, line))
        return cells
    if lattice == "square":
        return [(r, c) for r, (_, line) in enumerate(rows) for c, ch in enumerate(line) if ch not in _GAPS]
    if lattice == "sticks":
        return _sticks(rows)
    out: list[tuple[int, ...]] = []
    bottom = len(rows) - 1
    ref: int | None = None  # (the parity of a hexagon's column less its row)
    for r, (lineno, line) in enumerate(rows):
        y = bottom - r
        for col, ch in enumerate(line):
            if ch in _GAPS:
                continue
            if lattice == "hexagon":
                ref = (col - y) % 2 if ref is None else ref
                if (col - y - ref) % 2:
                    raise PolyformError(f"line {lineno}, column {col + 1}: {ch!r} is between two hexagons (a row's "
                                        f"cells are every other column, each row shifted by one from the next)")
                out.append(((col - y - ref) // 2, y))
            elif lattice == "triangle":
                out.append(((col - y) // 2, y, (col - y) % 2))
            else:
                raise PolyformError(f"no lattice {lattice!r}")
    return out


def _sticks(rows: list[tuple[int, str]]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for r, (lineno, line) in enumerate(rows):
        for col, ch in enumerate(line):
            if ch in _GAPS:
                continue
            if r % 2 == 0:
                if col % 4 == 0:
                    continue  # a point
                if col % 4 == 1:
                    span = line[col:col + 3]
                    if len(span) < 3 or any(x in _GAPS for x in span):
                        raise PolyformError(f"line {lineno}, column {col + 1}: a stick across is three characters "
                                            f"between two points, not {span!r}")
                    out.append((col // 4, r // 2, 0))
            elif col % 4:
                raise PolyformError(f"line {lineno}, column {col + 1}: a stick down is one character in a point's "
                                    f"column (every fourth)")
            else:
                out.append((col // 4, r // 2, 1))
    return out
