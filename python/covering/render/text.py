"""Boards as text, optionally coloured for a terminal (ANSI 24-bit colors).

>>> print(regions({(0, 0): "A", (0, 1): "A", (1, 1): "B"}, color=False))
AA
.B
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Mapping

from .colors import palette

__all__ = ["regions", "display_width", "pad"]


def display_width(text: str) -> int:
    """Columns `text` takes in a terminal: wide and full-width characters
    (kanji, full-width digits) take two, combining marks none.

    >>> display_width("九"), display_width("12"), display_width("e\u0301")
    (2, 2, 1)
    """
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def pad(text: str, width: int) -> str:
    """`text` padded with spaces on the right to `width` columns.

    >>> pad(".", 2) + "|", pad("九", 2) + "|"
    ('. |', '九|')
    """
    return text + " " * max(0, width - display_width(text))

Cell = tuple[int, int]


def regions(
    cells: Mapping[Cell, Hashable],
    *,
    color: bool = True,
    empty: str = ".",
    width: int = 1,
    show: Mapping[Cell, str] | None = None,
) -> str:
    """A grid where each cell shows its region's name (its first `width`
    characters), or what `show` gives for it; with `color`, each region gets
    its own background color. Cells not in `cells` show `empty`."""
    if not cells:
        return ""
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    names = list(dict.fromkeys(cells.values()))
    colors = dict(zip(names, palette(len(names))))
    lines = []
    for r in range(rows):
        parts = []
        for c in range(cols):
            if (r, c) not in cells:
                parts.append(empty * width if not color else " " * width)
                continue
            name = cells[(r, c)]
            text = (str(name) if show is None else show[(r, c)])[:width].ljust(width)
            if color:
                red, green, blue = colors[name]
                fg = "30" if red * 299 + green * 587 + blue * 114 > 128000 else "97"
                parts.append(f"\x1b[{fg};48;2;{red};{green};{blue}m{text}\x1b[0m")
            else:
                parts.append(text)
        lines.append("".join(parts).rstrip() if not color else "".join(parts))
    return "\n".join(lines)
