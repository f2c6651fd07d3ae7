"""Pictures of polyform boards and tilings on every lattice: text (a
letter a piece; the cube's layers side by side) and SVG (triangles and
hexagons as they are, the cube's layers side by side, sticks as
segments).

>>> from covering.puzzles.polyforms.model import PolyformPuzzle as Puzzle
>>> p = Puzzle.make("hexagon", [(0, 0), (1, 0), (0, 1)], {"a": [(0, 0)], "b": [(0, 0), (1, 0)]})
>>> print(text_of(p, p.solve()))
 b
a b
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from .lattice import Lattice, Point

Label = tuple[str, tuple[tuple[int, ...], ...]]


class Drawn(Protocol):
    """What a picture reads of a puzzle: its lattice and its board."""

    @property
    def lattice(self) -> Lattice: ...

    @property
    def board(self) -> tuple[Point, ...]: ...

__all__ = ["text_of", "svg_of", "letters"]

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_COLORS = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c",
           "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000", "#aaffc3", "#808000", "#ffd8b1")


def letters(solution: Sequence[Label]) -> list[str]:
    """A character for each placed piece: its name when it is one
    character and not taken, else the next free letter.

    >>> letters([("V", ()), ("V", ()), ("long", ())])
    ['V', 'A', 'B']
    """
    taken: set[str] = set()
    out = []
    spare = iter(ch for ch in _LETTERS)
    for name, _ in solution:
        ch = name if len(name) == 1 and name not in taken else ""
        while not ch or ch in taken:
            ch = next(spare, "?")
            if ch == "?":
                break
        taken.add(ch)
        out.append(ch)
    return out


def _marks(p: Drawn, solution: Sequence[Label] | None) -> dict[tuple[int, ...], str]:
    """The character of each cell of the board ('#' without a tiling)."""
    marks = {p.lattice.cell(q): "#" for q in p.board}
    if solution:
        for ch, (_, cells) in zip(letters(solution), solution):
            for c in cells:
                marks[tuple(c)] = ch
    return marks


def text_of(p: Drawn, solution: Sequence[Label] | None) -> str:
    """The board, or a tiling of it, as text (see the module).

    >>> from covering.puzzles.polyforms.model import PolyformPuzzle as Puzzle
    >>> print(text_of(Puzzle.make("cube", [(0, 0, 0), (0, 0, 1)], {"c": [(0, 0, 0)]}, uses="any"), None))
    #  #
    """
    marks = _marks(p, solution)
    name = p.lattice.name
    if name == "cube":
        span = [sorted({c[i] for c in marks}) for i in range(3)]
        layers = []
        for y in range(span[1][0], span[1][-1] + 1):
            layers.append("  ".join("".join(marks.get((x, y, z), ".") for x in range(span[0][0], span[0][-1] + 1))
                                    for z in range(span[2][0], span[2][-1] + 1)))
        return "\n".join(layers)
    if name == "sticks":
        return _sticks_text(marks)
    place: dict[tuple[int, int], str] = {}
    for cell, ch in marks.items():
        if name == "square":
            place[(cell[0], cell[1])] = ch
        elif name == "hexagon":
            place[(-cell[1], 2 * cell[0] + cell[1])] = ch  # (y up: rows from the top)
        else:  # triangle
            place[(-cell[1], 2 * cell[0] + cell[1] + cell[2])] = ch
    r0 = min(r for r, _ in place)
    c0 = min(c for _, c in place)
    rows = max(r for r, _ in place) - r0 + 1
    width = max(c for _, c in place) - c0 + 1
    gap = " " if name in ("hexagon",) else "."
    grid = [[" " if name == "hexagon" else gap] * width for _ in range(rows)]
    for (r, c), ch in place.items():
        grid[r - r0][c - c0] = ch
    return "\n".join("".join(row).rstrip() for row in grid)


def _sticks_text(marks: dict[tuple[int, ...], str]) -> str:
    """Sticks: grid points as '+', a segment as its piece's character
    (three across, one down), y growing downwards."""
    pts = {(x + dx, y + dy) for (x, y, d) in marks for dx, dy in ((0, 0), (1 - d, d))}
    x0, y0 = min(x for x, _ in pts), min(y for _, y in pts)
    w, h = max(x for x, _ in pts) - x0, max(y for _, y in pts) - y0
    grid = [[" "] * (4 * w + 1) for _ in range(2 * h + 1)]
    for x, y in pts:
        grid[2 * (y - y0)][4 * (x - x0)] = "+"
    for (x, y, d), ch in marks.items():
        r, c = 2 * (y - y0), 4 * (x - x0)
        if d == 0:
            grid[r][c + 1:c + 4] = [ch] * 3
        else:
            grid[r + 1][c] = ch
    return "\n".join("".join(row).rstrip() for row in grid)


def svg_of(p: Drawn, solution: Sequence[Label] | None, unit: int = 24) -> str:
    """The board, or a tiling, as SVG: each cell a polygon filled with its
    piece's colour (board cells without a tiling white), outlined.

    >>> from covering.puzzles.polyforms.model import PolyformPuzzle as Puzzle
    >>> p = Puzzle.make("hexagon", [(0, 0), (1, 0)], {"d": [(0, 0), (1, 0)]})
    >>> svg_of(p, p.solve()).count("<polygon")
    2
    """
    colour: dict[tuple[int, ...], str] = {p.lattice.cell(q): "white" for q in p.board}
    if solution:
        for k, (_, cells) in enumerate(solution):
            for c in cells:
                colour[tuple(c)] = _COLORS[k % len(_COLORS)]
    name = p.lattice.name
    shapes: list[tuple[list[tuple[float, float]], str]] = []
    if name == "sticks":
        return _sticks_svg(colour, unit)
    if name == "cube":
        xs = sorted({c[0] for c in colour})
        zs = sorted({c[2] for c in colour})
        span = xs[-1] - xs[0] + 2
        for (x, y, z), fill in colour.items():
            left = (x - xs[0] + (z - zs[0]) * span) * unit
            shapes.append(([(left, y * unit), (left + unit, y * unit), (left + unit, (y + 1) * unit),
                            (left, (y + 1) * unit)], fill))
    for c, fill in colour.items():
        if name == "square":
            r, col = c
            shapes.append(([(col * unit, r * unit), ((col + 1) * unit, r * unit), ((col + 1) * unit, (r + 1) * unit),
                            (col * unit, (r + 1) * unit)], fill))
        elif name == "hexagon":
            cx, cy = unit * math.sqrt(3) * (c[0] + c[1] / 2), -unit * 1.5 * c[1]
            shapes.append(([(cx + unit * math.cos(math.pi / 6 + k * math.pi / 3),
                             cy + unit * math.sin(math.pi / 6 + k * math.pi / 3)) for k in range(6)], fill))
        elif name == "triangle":
            x, y, t = c
            corners = [(x, y), (x + 1, y), (x, y + 1)] if t == 0 else [(x + 1, y), (x + 1, y + 1), (x, y + 1)]
            shapes.append(([(unit * (a + b / 2), -unit * b * math.sqrt(3) / 2) for a, b in corners], fill))
    xs_ = [x for pts, _ in shapes for x, _ in pts]
    ys_ = [y for pts, _ in shapes for _, y in pts]
    x0, y0 = min(xs_), min(ys_)
    w, h = max(xs_) - x0, max(ys_) - y0
    body = "".join('<polygon points="' + " ".join(f"{x - x0 + 2:.1f},{y - y0 + 2:.1f}" for x, y in pts)
                   + f'" fill="{fill}" stroke="black" stroke-width="1"/>' for pts, fill in shapes)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 4:.0f}" height="{h + 4:.0f}" '
            f'viewBox="0 0 {w + 4:.1f} {h + 4:.1f}">{body}</svg>')


def _sticks_svg(colour: dict[tuple[int, ...], str], unit: int) -> str:
    lines = []
    for (x, y, d), fill in colour.items():
        stroke = "#ccc" if fill == "white" else fill
        x2, y2 = x + (1 - d), y + d
        lines.append(f'<line x1="{x * unit + 4}" y1="{y * unit + 4}" x2="{x2 * unit + 4}" y2="{y2 * unit + 4}" '
                     f'stroke="{stroke}" stroke-width="5" stroke-linecap="round"/>')
    w = (max(x for x, _, _ in colour) + 2) * unit + 8
    h = (max(y for _, y, _ in colour) + 2) * unit + 8
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">{"".join(lines)}</svg>'


