"""Akari grids as text codes: puzz.link URLs and Simon Tatham's Light Up
game IDs, read into rows and written from them (the rows of
`covering.puzzles.akari.Akari`); and the errors of reading a grid.

>>> rows_from_url("https://puzz.link/p?akari/4/2/bg.i")
('1...', '#...')
>>> url_of(('1...', '#...'))
'https://puzz.link/p?lightup/4/2/bg.i'
>>> rows_from_game_id("3x2:aBa1b")
('.#.', '1..')
"""

from __future__ import annotations

import re

from .. import _core, sizes
from ..errors import ProblemError, warn

__all__ = ["AkariError", "AkariWarning", "WHITE", "BLACK", "CELLS", "check_cells", "rows_from_url", "url_of", "rows_from_game_id"]

WHITE, BLACK = ".", "#"
#: The cells of a grid: white, black, and black numbered 0 to 4.
CELLS = ".#01234"


class AkariError(ProblemError):
    """A grid or URL that cannot be read; the message names the row and
    column where it can, counted from 1 as people count them (the
    attributes ``row`` and ``col`` are 0-based, as coordinates are here)."""

    def __init__(self, reason: str, row: int | None = None, col: int | None = None, *, line: int | None = None):
        where = f"line {line}" if line is not None else f"row {row + 1}" if row is not None else ""
        if where and col is not None:
            where += f", column {col + 1}"
        super().__init__(f"{where}: {reason}" if where else reason)
        self.reason, self.row, self.col = reason, row, col


class AkariWarning(UserWarning):
    """Input read, but not as written: a puzz.link URL whose body ends before
    the last cell (read as puzz.link reads it: the missing cells white)."""


def check_cells(rows: int, cols: int) -> None:
    """Refuses a grid of `rows` x `cols` that memory cannot hold (the
    engine's estimate of a grid read as text, `covering.sizes`).

    >>> check_cells(10, 10)
    """
    sizes.check(f"a {rows} x {cols} Akari grid", _core.akari_grid_bytes(rows * cols))


def _base36(n: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n]



def rows_from_url(url: str) -> tuple[str, ...]:
    """The rows of a puzz.link URL (``https://puzz.link/p?lightup/COLS/ROWS/BODY``,
    also with ``akari``, and old ``http://pzv.jp/p.html?akari/...``)."""
    m = re.fullmatch(r"\w+://[^?]+\?(?:lightup|akari)/(\d+)/(\d+)/([0-9a-z.]*)/?", url.strip())
    if m is None:
        raise AkariError(f"not a puzz.link Akari URL (…?lightup/COLS/ROWS/BODY): {url!r}")
    cols, rows, body = int(m[1]), int(m[2]), m[3]
    if cols == 0 or rows == 0:
        raise AkariError(f"a {cols} x {rows} board in {url!r}")
    check_cells(rows, cols)
    cells = [WHITE] * (rows * cols)
    z = 0
    for k, ch in enumerate(body):
        if z >= len(cells):
            raise AkariError(f"the URL body goes on after the last cell, at {body[k:]!r}")
        if ch in "01234":
            cells[z] = ch
        elif ch in "56789":
            cells[z] = str(int(ch) - 5)
            z += 1
        elif ch in "abcde":
            cells[z] = str(int(ch, 16) - 10)
            z += 2
        elif ch == ".":
            cells[z] = BLACK
        elif "g" <= ch <= "z":
            z += int(ch, 36) - 16
        else:
            raise AkariError(f"{ch!r} at position {k} of the URL body {body!r}")
        z += 1
    if z < len(cells):
        warn(f"the URL body ends at cell {z} of {len(cells)} ({cols} x {rows}): truncated? "
             "the missing cells are read as white, as puzz.link reads them", AkariWarning)
    return tuple("".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))


def rows_from_game_id(game_id: str) -> tuple[str, ...]:
    """The rows of a Light Up game ID (``7x7:b0Bp2Bb0b1Bp2Bb``)."""
    m = re.fullmatch(r"(\d+)x(\d+)[^:]*:([0-4Ba-z]*)", game_id.strip())
    if m is None:
        raise AkariError(f"not a Light Up game ID (WxH:DESC): {game_id!r}")
    cols, rows = int(m[1]), int(m[2])
    check_cells(rows, cols)
    cells = "".join(
        "." * (ord(ch) - ord("a") + 1) if ch.islower() else BLACK if ch == "B" else ch for ch in m[3]
    )
    if len(cells) != rows * cols:
        raise AkariError(f"the game ID has {len(cells)} cells, not {cols} x {rows}")
    return tuple(cells[r * cols : (r + 1) * cols] for r in range(rows))


def url_of(rows: tuple[str, ...]) -> str:
    """The puzz.link URL of `rows` (pzprjs's ``encode4Cell``)."""
    width, height = len(rows[0]), len(rows)
    cells = "".join(rows)
    out, run, z = [], 0, 0
    while z < len(cells):
        ch, code = cells[z], ""
        if ch in "01234":
            n = int(ch)
            if z + 1 < len(cells) and cells[z + 1] != WHITE:
                code = str(n)
            elif z + 2 < len(cells) and cells[z + 2] != WHITE:
                code, z = str(5 + n), z + 1
            else:
                code, z = "abcde"[n], z + 2
        elif ch == BLACK:
            code = "."
        else:
            run += 1
        if run and (code or run == 20):
            out.append(_base36(15 + run))
            run = 0
        out.append(code)
        z += 1
    if run:
        out.append(_base36(15 + run))
    return f"https://puzz.link/p?lightup/{width}/{height}/{''.join(out)}"
