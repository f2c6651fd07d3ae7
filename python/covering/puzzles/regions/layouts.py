"""Named layouts of Sudokus on regions: the classic grid, X (both
diagonals), windoku (four extra boxes), jigsaw (irregular regions from a
grid of labels), and the overlapping grids of 9 x 9 Sudokus: samurai (five),
butterfly (four in 12 x 12), sohei (four around a hole), windmill (five,
turned like sails), twodoku (two sharing a box), and the samurais joined at
their corner grids: gattai-8 (two side by side), shogun (three in a row),
sumo (four in a square).

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
import re
from collections.abc import Callable, Iterable, Sequence

from ... import textio
from .model import Cage, Cell, RegionSudoku, RegionSudokuError

__all__ = ["LAYOUTS", "TWO_GRIDS", "classic", "x", "windoku", "jigsaw", "killer", "overlapping", "samurai",
           "butterfly", "sohei", "windmill", "twodoku", "gattai8", "shogun", "sumo", "box_shape", "layout",
           "from_text"]


def box_shape(n: int) -> tuple[int, int]:
    """The boxes' height and width of an n x n grid, as puzzle sites draw
    them: the largest divisor of n at most its square root, by n over it
    (9: 3 x 3, 6: 2 x 3, 8: 2 x 4, 12: 3 x 4). A prime n has no boxes (1 x n:
    its rows).

    >>> box_shape(9), box_shape(6), box_shape(8), box_shape(7)
    ((3, 3), (2, 3), (2, 4), (1, 7))
    """
    h = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return h, n // h


def _grid_regions(n: int, top: int = 0, left: int = 0) -> list[list[Cell]]:
    """The rows, columns and boxes (`box_shape`) of an n x n grid whose
    top left cell is (top, left)."""
    h, w = box_shape(n)
    rows = [[(top + r, left + c) for c in range(n)] for r in range(n)]
    cols = [[(top + r, left + c) for r in range(n)] for c in range(n)]
    boxes = [[(top + br * h + i // w, left + bc * w + i % w) for i in range(n)]
             for br in range(n // h) for bc in range(n // w)] if h > 1 else []
    return rows + cols + boxes


def _rows(text: str | Sequence[str], first: int = 1) -> list[tuple[int, str]]:
    """The rows of a grid's text as (line number, line), counted from
    `first`: blank lines and rulers (``------+------``) left out."""
    lines = textio.lines(text) if isinstance(text, str) else list(text)
    return [(k, ln) for k, ln in enumerate(lines, first)
            if ln.strip(" \t|+") and not ("+" in ln and set(ln) <= set("-+| \t"))]


def _givens(text: str, cells: Sequence[Cell], n: int) -> dict[Cell, int]:
    """The givens of `text` over the bounding box of `cells` (see the
    module); errors name the line and column of the text."""
    if not text:
        return {}
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    r1, c1 = max(r for r, _ in cells), max(c for _, c in cells)
    width, height = c1 - c0 + 1, r1 - r0 + 1
    on = set(cells)
    rows = _rows(text)
    if len(rows) == 1 and len(rows[0][1].strip()) == len(cells) and height > 1:
        # One line: the cells' symbols in the order of `cells` (row by row).
        lineno, line = rows[0]
        chars = [(col, ch) for col, ch in enumerate(line, 1) if not ch.isspace()]
        return {cell: v for cell, (col, ch) in zip(cells, chars)
                if (v := _value(ch, n, f"line {lineno}, column {col}")) is not None}
    if len(rows) != height:
        raise RegionSudokuError(f"line {rows[-1][0] if rows else 1}: the givens have {len(rows)} rows, "
                                f"the layout {height}")
    found: dict[Cell, int] = {}
    for r, (lineno, line) in enumerate(rows):
        chars = [(col, ch) for col, ch in enumerate(line, 1) if ch not in " \t|+"]
        if len(chars) != width:
            raise RegionSudokuError(f"line {lineno}: {len(chars)} cells, the layout has {width} columns")
        for c, (col, ch) in enumerate(chars):
            cell = (r0 + r, c0 + c)
            if cell not in on:
                if ch not in ".-0":
                    raise RegionSudokuError(f"line {lineno}, column {col}: {ch!r} where the layout has no cell")
            elif (v := _value(ch, n, f"line {lineno}, column {col}")) is not None:
                found[cell] = v
    return found


def _value(ch: str, n: int, where: str) -> int | None:
    """A given's symbol (digits, then letters A.. past 9), or None for a blank."""
    if ch in ".-0":
        return None
    v = int(ch) if ch.isdigit() else ord(ch.upper()) - ord("A") + 10 if ch.isascii() and ch.isalpha() else 0
    if not 1 <= v <= n:
        raise RegionSudokuError(f"{where}: {ch!r} is not a symbol of 1..{n}")
    return v


def classic(n: int = 9, givens: str = "") -> RegionSudoku:
    """The n x n grid of rows, columns and boxes (`box_shape`: 3 x 3 for
    9, 2 x 3 for 6, ...).

    >>> classic(4).count(), classic(6).count(1)
    (288, 1)
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 1024:
        raise RegionSudokuError(f"a grid's side is an integer from 1 to 1024, not {n!r}")
    cells = [(r, c) for r in range(n) for c in range(n)]
    return RegionSudoku.make(n, cells, _grid_regions(n), _givens(givens, cells, n))


def x(givens: str = "", n: int = 9) -> RegionSudoku:
    """The classic grid and both diagonals (X Sudoku).

    >>> x(n=4).count()
    48
    """
    cells = [(r, c) for r in range(n) for c in range(n)]
    diagonals = [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    return RegionSudoku.make(n, cells, _grid_regions(n) + diagonals, _givens(givens, cells, n))


def windoku(givens: str = "") -> RegionSudoku:
    """The classic 9 x 9 grid and four extra boxes, at rows and columns 2-4 and 6-8 (1-based).

    >>> len(windoku().regions)
    31
    """
    cells = [(r, c) for r in range(9) for c in range(9)]
    extra = [[(top + i // 3, left + i % 3) for i in range(9)] for top in (1, 5) for left in (1, 5)]
    return RegionSudoku.make(9, cells, _grid_regions(9) + extra, _givens(givens, cells, 9))


def jigsaw(labels: str | Sequence[str], givens: str = "", *, line: int = 1) -> RegionSudoku:
    """Rows, columns and irregular regions: `labels` is a square grid of
    region labels (any character; blanks between ignored), one line a row;
    errors name its lines counted from `line`.

    >>> jigsaw(["aabb", "aabb", "ccdd", "ccdd"]).count()
    288
    >>> jigsaw(["aabb", "aabc", "ccdd", "ccdd"])
    Traceback (most recent call last):
    ...
    covering.puzzles.regions.model.RegionSudokuError: line 1, column 3: region 'b' has 3 cells, not 4
    """
    rows = _rows(labels, line)
    n = len(rows)
    where: dict[Cell, str] = {}
    by_label: dict[str, list[Cell]] = {}
    for r, (lineno, text) in enumerate(rows):
        marks = [(col, ch) for col, ch in enumerate(text, 1) if not ch.isspace()]
        if len(marks) != n:
            raise RegionSudokuError(f"line {lineno}: {len(marks)} labels, the grid is {n} x {n}")
        for c, (col, ch) in enumerate(marks):
            where[(r, c)] = f"line {lineno}, column {col}"
            by_label.setdefault(ch, []).append((r, c))
    cells = [(r, c) for r in range(n) for c in range(n)]
    for label, members in by_label.items():
        if len(members) != n:
            raise RegionSudokuError(f"{where[members[0]]}: region {label!r} has {len(members)} cells, not {n}")
    lines = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    return RegionSudoku.make(n, cells, lines + list(by_label.values()), _givens(givens, cells, n))


def killer(cages: str | Sequence[str], givens: str = "", n: int = 9, *, line: int = 1) -> RegionSudoku:
    """The grid of side n (`classic`) with killer cages: `cages` is a grid
    of tokens separated by blanks, one a cell, one line a row: a cage's
    label (letters), in one of its cells followed by the cage's sum, or
    ``.`` for a cell in no cage; errors name its lines counted from `line`.

    >>> cages = ["a3 a b7 b", "c7 c d3 d", "e3 e f7 f", "g7 g h3 h"]
    >>> k = killer(cages, n=4)
    >>> k.count(), k.check(k.solve()), killer(cages, "1" + "." * 15, 4).count()
    (16, [], 8)
    >>> killer(["a3 a b7 b", "c7 c d3 d", "e3 e f7 f", "g7 g h3 hh"], n=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    covering.puzzles.regions.model.RegionSudokuError: line 4, column 9: cage 'hh' has no sum (write it after ...)
    """
    rows = _rows(cages, line)
    if len(rows) != n:
        raise RegionSudokuError(f"line {rows[-1][0] if rows else line}: the cages have {len(rows)} rows, "
                                f"the grid {n}")
    members: dict[str, list[Cell]] = {}
    first: dict[str, str] = {}
    sums: dict[str, int] = {}
    for r, (lineno, text) in enumerate(rows):
        tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]
        if len(tokens) != n:
            raise RegionSudokuError(f"line {lineno}: {len(tokens)} cells, the grid has {n} columns")
        for c, (col, token) in enumerate(tokens):
            if token == ".":
                continue
            where = f"line {lineno}, column {col}"
            label, digits = token.rstrip("0123456789"), token[len(token.rstrip("0123456789")):]
            if not label or not label.isalpha():
                raise RegionSudokuError(f"{where}: {token!r} is not a label (letters), a label and its sum, or '.'")
            members.setdefault(label, []).append((r, c))
            first.setdefault(label, where)
            if digits:
                if label in sums:
                    raise RegionSudokuError(f"{where}: cage {label!r} has its sum written twice")
                sums[label] = int(digits)
    for label in members:
        if label not in sums:
            raise RegionSudokuError(f"{first[label]}: cage {label!r} has no sum (write it after the label in one "
                                    f"of its cells)")
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
    which shares a corner box with each.

    >>> len(samurai().cells)
    369
    """
    return overlapping([(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)], givens)


def butterfly(givens: str = "") -> RegionSudoku:
    """Four 9 x 9 grids on a 12 x 12 canvas, each offset by three rows or columns.

    >>> len(butterfly().cells)
    144
    """
    return overlapping([(0, 0), (0, 3), (3, 0), (3, 3)], givens)


def sohei(givens: str = "") -> RegionSudoku:
    """Four 9 x 9 grids round a hole on a 21 x 21 canvas: top, left, right,
    bottom, each sharing a corner box with two others.

    >>> len(sohei().cells)
    288
    """
    return overlapping([(0, 6), (6, 0), (6, 12), (12, 6)], givens)


def windmill(givens: str = "") -> RegionSudoku:
    """Five 9 x 9 grids on a 21 x 21 canvas: the centre, and four sails
    each sharing two boxes with it.

    >>> len(windmill().cells)
    333
    """
    return overlapping([(0, 3), (3, 12), (6, 6), (9, 0), (12, 9)], givens)


def twodoku(givens: str = "") -> RegionSudoku:
    """Two 9 x 9 grids sharing a corner box, on a 15 x 15 canvas.

    >>> len(twodoku().cells)
    153
    """
    return overlapping([(0, 0), (6, 6)], givens)


def _samurais(across: int, down: int) -> list[tuple[int, int]]:
    """The corners of `across` x `down` samurais joined at their corner
    grids: 9 x 9 grids at every multiple of 12 of a (12 down + 9) x (12
    across + 9) canvas, and a centre grid in each square of four."""
    return sorted({(12 * r, 12 * c) for r in range(down + 1) for c in range(across + 1)}
                  | {(12 * r + 6, 12 * c + 6) for r in range(down) for c in range(across)})


def gattai8(givens: str = "") -> RegionSudoku:
    """Eight 9 x 9 grids on a 21 x 33 canvas: two samurais side by side,
    sharing their two middle grids.

    >>> len(gattai8().cells)
    576
    """
    return overlapping(_samurais(2, 1), givens)


def shogun(givens: str = "") -> RegionSudoku:
    """Eleven 9 x 9 grids on a 21 x 45 canvas: three samurais in a row,
    each sharing two grids with the next.

    >>> len(shogun().cells)
    783
    """
    return overlapping(_samurais(3, 1), givens)


def sumo(givens: str = "") -> RegionSudoku:
    """Thirteen 9 x 9 grids on a 33 x 33 canvas: four samurais in a
    square, nine grids at its corners and edges and four centres.

    >>> len(sumo().cells), len(shogun().cells), len(gattai8().cells)
    (909, 783, 576)
    """
    return overlapping(_samurais(2, 2), givens)


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
    "gattai-8": gattai8,
    "shogun": shogun,
    "sumo": sumo,
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
    return jigsaw(lines[n:], givens, line=n + 1) if name == "jigsaw" else killer(lines[n:], givens, n, line=n + 1)


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
