"""Boards as SVG: cells filled by region, borders only between regions.

>>> s = regions({(0, 0): "A", (0, 1): "A", (1, 0): "B", (1, 1): "B"}, cell=10)
>>> s.startswith("<svg") and s.count("<rect") == 4
True
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from html import escape

from .colors import hex_color, palette

__all__ = ["regions"]

Cell = tuple[int, int]


def regions(
    cells: Mapping[Cell, Hashable],
    *,
    cell: int = 24,
    labels: bool = False,
    thick: float = 3.0,
) -> str:
    """An SVG picture: each region (pieces of a tiling) in its own color, a
    line where two regions (or a region and the outside) meet and nowhere
    else; ``labels`` writes the region names."""
    if not cells:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>'
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    names = list(dict.fromkeys(cells.values()))
    fill = {n: hex_color(rgb) for n, rgb in zip(names, palette(len(names)))}
    pad = thick
    w, h = cols * cell + 2 * pad, rows * cell + 2 * pad
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" viewBox="0 0 {w:g} {h:g}">',
        f'<g transform="translate({pad:g},{pad:g})">',
    ]
    for (r, c), name in sorted(cells.items()):
        # A hair wider than the cell, so that no seam shows between cells of one region.
        out.append(
            f'<rect x="{c * cell}" y="{r * cell}" width="{cell + 0.5}" height="{cell + 0.5}" fill="{fill[name]}">'
            f"<title>{escape(str(name))}</title></rect>"
        )
    # A cell edge is drawn where two regions meet, or at the border.
    thick_lines = []
    for (r, c), name in cells.items():
        for (dr, dc), (x1, y1, x2, y2) in (
            ((-1, 0), (c, r, c + 1, r)),
            ((1, 0), (c, r + 1, c + 1, r + 1)),
            ((0, -1), (c, r, c, r + 1)),
            ((0, 1), (c + 1, r, c + 1, r + 1)),
        ):
            other = cells.get((r + dr, c + dc))
            seg = f"M{x1 * cell} {y1 * cell}L{x2 * cell} {y2 * cell}"
            if other != name or (r + dr, c + dc) not in cells:
                thick_lines.append(seg)
    out.append(
        f'<path d="{"".join(thick_lines)}" stroke="#000" stroke-width="{thick:g}" '
        'stroke-linecap="round" fill="none"/>'
    )
    if labels:
        for (r, c), name in sorted(cells.items()):
            out.append(
                f'<text x="{(c + 0.5) * cell:g}" y="{(r + 0.5) * cell:g}" font-size="{cell * 0.5:g}" '
                f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif">'
                f"{escape(str(name))}</text>"
            )
    out.append("</g></svg>")
    return "\n".join(out)
