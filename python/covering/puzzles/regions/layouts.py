"""Named layouts of Sudokus on regions: the classic grid, X (both
diagonals), windoku (four extra boxes), jigsaw (irregular regions from a
grid of labels), and the overlapping grids of 9 x 9 Sudokus: samurai (five),
butterfly (four in 12 x 12), sohei (four around a hole), windmill (five,
turned like sails), twodoku (two sharing a box).

Each takes the givens as text over the layout's canvas, row by row (rows
of the canvas's bounding box, a symbol or ``.``, ``-`` or ``0`` for a blank;
blanks and the characters ``|+`` between are ignored; where the canvas has
no cell, any of ``.`` or a space).

>>> s = samurai()
>>> len(s.cells), len(s.regions)
(369, 131)
>>> x().count(1)
1
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from ... import textio
from .model import Cage, Cell, RegionSudoku, RegionSudokuError

__all__ = ["LAYOUTS", "TWO_GRIDS", "classic", "x", "windoku", "jigsaw", "killer", "overlapping", "samurai",
           "butterfly", "sohei", "windmill", "twodoku", "layout", "from_text"]


def _grid_regions(n: int, top: int = 0, left: int = 0) -> list[list[Cell]]:
    """The rows, columns and boxes of an n x n grid whose top left cell is (top, left)."""
    b = math.isqrt(n)
    rows = [[(top + r, left + c) for c in range(n)] for r in range(n)]
    cols = [[(top + r, left + c) for r in range(n)] for c in range(n)]
    boxes = [[(top + br * b + i // b, left + bc * b + i % b) for i in range(n)] for br in range(b) for bc in range(b)]
    return rows + cols + boxes


def _givens(text: str, cells: Sequence[Cell], n: int) -> dict[Cell, int]:
    """The givens of `text` over the bounding box of `cells` (see the module)."""
    if not text:
        return {}
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    r1, c1 = max(r for r, _ in cells), max(c for _, c in cells)
    width, height = c1 - c0 + 1, r1 - r0 + 1
    on = set(cells)
    lines = [ln for ln in textio.lines(text) if ln.strip(" \t|+")]
    flat = len(lines) == 1 and len(lines[0].strip()) == len(cells) and height > 1
    if flat:
        # One line: the cells' symbols in the order of `cells` (row by row).
        chars = list(lines[0].strip())
        return {c: v for c, ch in zip(cells, chars) if (v := _value(ch, n, c)) is not None}
    if len(lines) != height:
        raise RegionSudokuError(f"the givens have {len(lines)} rows, the layout {height}")
    found: dict[Cell, int] = {}
    for r, line in enumerate(lines):
        chars = [ch for ch in line if ch not in " \t|+"]
        if len(chars) != width:
            raise RegionSudokuError(f"line {r + 1}: {len(chars)} cells, the layout has {width} columns")
        for c, ch in enumerate(chars):
            cell = (r0 + r, c0 + c)
            v = _value(ch, n, cell) if cell in on else None
            if cell not in on and ch not in ".-0":
                raise RegionSudokuError(f"line {r + 1}, column {c + 1}: {ch!r} where the layout has no cell")
            if v is not None:
                found[cell] = v
    return found


def _value(ch: str, n: int, cell: Cell) -> int | None:
    """A given's symbol (digits, then letters A.. past 9), or None for a blank."""
    if ch in ".-0":
        return None
    v = int(ch) if ch.isdigit() else ord(ch.upper()) - ord("A") + 10 if ch.isascii() and ch.isalpha() else 0
    if not 1 <= v <= n:
        raise RegionSudokuError(f"r{cell[0] + 1}c{cell[1] + 1}: {ch!r} is not a symbol of 1..{n}")
    return v


def classic(n: int = 9, givens: str = "") -> RegionSudoku:
    """The n x n grid (n a square) of rows, columns and boxes.

    >>> classic(4).count()
    288
    """
    if math.isqrt(n) ** 2 != n or n < 1:
        raise RegionSudokuError(f"a classic grid's side is a square (4, 9, 16, ...), not {n}")
    cells = [(r, c) for r in range(n) for c in range(n)]
    return RegionSudoku.make(n, cells, _grid_regions(n), _givens(givens, cells, n))


def x(givens: str = "", n: int = 9) -> RegionSudoku:
    """The classic grid and both diagonals (X Sudoku)."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    diagonals = [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    return RegionSudoku.make(n, cells, _grid_regions(n) + diagonals, _givens(givens, cells, n))


def windoku(givens: str = "") -> RegionSudoku:
    """The classic 9 x 9 grid and four extra boxes, at rows and columns 2-4 and 6-8 (1-based)."""
    cells = [(r, c) for r in range(9) for c in range(9)]
    extra = [[(top + i // 3, left + i % 3) for i in range(9)] for top in (1, 5) for left in (1, 5)]
    return RegionSudoku.make(9, cells, _grid_regions(9) + extra, _givens(givens, cells, 9))


def jigsaw(labels: str | Sequence[str], givens: str = "") -> RegionSudoku:
    """Rows, columns and irregular regions: `labels` is a square grid of
    region labels (any character; blanks between ignored), one line a row.

    >>> jigsaw(["aabb", "aabb", "ccdd", "ccdd"]).count()
    288
    """
    rows = [ln.replace(" ", "").replace("\t", "") for ln in (textio.lines(labels) if isinstance(labels, str)
                                                            else labels) if ln.strip()]
    n = len(rows)
    for r, row in enumerate(rows):
        if len(row) != n:
            raise RegionSudokuError(f"labels line {r + 1}: {len(row)} labels, the grid is {n} x {n}")
    cells = [(r, c) for r in range(n) for c in range(n)]
    by_label: dict[str, list[Cell]] = {}
    for r, c in cells:
        by_label.setdefault(rows[r][c], []).append((r, c))
    for label, members in by_label.items():
        if len(members) != n:
            raise RegionSudokuError(f"region {label!r} has {len(members)} cells, not {n}")
    lines = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    return RegionSudoku.make(n, cells, lines + list(by_label.values()), _givens(givens, cells, n))


def killer(cages: str | Sequence[str], givens: str = "", n: int = 9) -> RegionSudoku:
    """The classic n x n grid with killer cages: `cages` is a grid of
    tokens separated by blanks, one a cell, one line a row: a cage's label
    (letters), in one of its cells followed by the cage's sum, or ``.`` for
    a cell in no cage.

    >>> cages = ["a3 a b7 b", "c7 c d3 d", "e3 e f7 f", "g7 g h3 h"]
    >>> k = killer(cages, n=4)
    >>> k.count(), k.check(k.solve()), killer(cages, "1" + "." * 15, 4).count()
    (16, [], 8)
    """
    rows = [ln.split() for ln in (textio.lines(cages) if isinstance(cages, str) else cages) if ln.strip()]
    if len(rows) != n:
        raise RegionSudokuError(f"the cages have {len(rows)} rows, the grid {n}")
    members: dict[str, list[Cell]] = {}
    sums: dict[str, int] = {}
    for r, row in enumerate(rows):
        if len(row) != n:
            raise RegionSudokuError(f"cages line {r + 1}: {len(row)} cells, the grid has {n} columns")
        for c, token in enumerate(row):
            if token == ".":
                continue
            label, digits = token.rstrip("0123456789"), token[len(token.rstrip("0123456789")):]
            if not label or not label.isalpha():
                raise RegionSudokuError(f"cages line {r + 1}, column {c + 1}: {token!r} is not a label "
                                        f"(letters), a label and its sum, or '.'")
            members.setdefault(label, []).append((r, c))
            if digits:
                if label in sums:
                    raise RegionSudokuError(f"cages line {r + 1}, column {c + 1}: cage {label!r} has its sum "
                                            f"written twice")
                sums[label] = int(digits)
    for label in members:
        if label not in sums:
            raise RegionSudokuError(f"cage {label!r} has no sum (write it after the label in one of its cells)")
    base = classic(n, givens)
    return RegionSudoku.make(n, base.cells, base.regions, base.givens,
                             [Cage(tuple(cells), sums[label]) for label, cells in members.items()])


def overlapping(corners: Iterable[tuple[int, int]], givens: str = "", n: int = 9) -> RegionSudoku:
    """n x n grids with their top left cells at `corners`, sharing the
    cells where they overlap (a shared box is one region).

    >>> overlapping([(0, 0), (6, 6)]).count(2)
    2
    """
    regions: list[list[Cell]] = []
    cells: dict[Cell, None] = {}
    for top, left in corners:
        for r in range(n):
            for c in range(n):
                cells[(top + r, left + c)] = None
        regions += _grid_regions(n, top, left)
    ordered = sorted(cells)
    return RegionSudoku.make(n, ordered, regions, _givens(givens, ordered, n))


def samurai(givens: str = "") -> RegionSudoku:
    """Five 9 x 9 grids on a 21 x 21 canvas: four corners and the centre,
    which shares a corner box with each."""
    return overlapping([(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)], givens)


def butterfly(givens: str = "") -> RegionSudoku:
    """Four 9 x 9 grids on a 12 x 12 canvas, each offset by three rows or columns."""
    return overlapping([(0, 0), (0, 3), (3, 0), (3, 3)], givens)


def sohei(givens: str = "") -> RegionSudoku:
    """Four 9 x 9 grids round a hole on a 21 x 21 canvas: top, left, right,
    bottom, each sharing a corner box with two others."""
    return overlapping([(0, 6), (6, 0), (6, 12), (12, 6)], givens)


def windmill(givens: str = "") -> RegionSudoku:
    """Five 9 x 9 grids on a 21 x 21 canvas: the centre, and four sails
    each sharing two boxes with it."""
    return overlapping([(0, 3), (3, 12), (6, 6), (9, 0), (12, 9)], givens)


def twodoku(givens: str = "") -> RegionSudoku:
    """Two 9 x 9 grids sharing a corner box, on a 15 x 15 canvas."""
    return overlapping([(0, 0), (6, 6)], givens)


#: The named layouts (`layout`), each from givens text.
LAYOUTS: dict[str, Callable[[str], RegionSudoku]] = {
    "classic": lambda g: classic(9, g),
    "x": x,
    "windoku": windoku,
    "samurai": samurai,
    "butterfly": butterfly,
    "sohei": sohei,
    "windmill": windmill,
    "twodoku": twodoku,
}


#: The layouts written as two grids one after the other (their givens, then
#: their regions' or cages' labels: `from_text`).
TWO_GRIDS = ("jigsaw", "killer")


def from_text(name: str, lines: Sequence[str]) -> RegionSudoku:
    """A puzzle of layout `name` from the lines of its text: for a jigsaw
    and a killer, the grid of givens (n lines) then the grid of region
    labels or of cages (n lines); for the others the givens over the
    layout's canvas.

    >>> from_text("jigsaw", ["1...", "..1.", "....", "...2", "aabb", "aabb", "ccdd", "ccdd"]).count()
    6
    """
    if name not in TWO_GRIDS:
        return layout(name, "\n".join(lines))
    if len(lines) % 2:
        raise RegionSudokuError(f"a {name} is two grids of n lines (its givens, then its "
                                f"{'regions' if name == 'jigsaw' else 'cages'}), not {len(lines)} lines")
    n = len(lines) // 2
    givens = "\n".join(lines[:n])
    return jigsaw(lines[n:], givens) if name == "jigsaw" else killer(lines[n:], givens, n)


def layout(name: str, givens: str = "") -> RegionSudoku:
    """The named layout (`LAYOUTS`) with `givens` over its canvas.

    >>> layout("windoku").count(1)
    1
    """
    try:
        make = LAYOUTS[name]
    except KeyError:
        raise RegionSudokuError(f"no layout {name!r} (the layouts: {', '.join(LAYOUTS)})") from None
    return make(givens)
