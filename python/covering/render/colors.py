"""Distinct colors for regions (pieces), as RGB triples.

>>> palette(3)
[(230, 25, 75), (60, 180, 75), (255, 225, 25)]
>>> len(set(palette(40)))
40
"""

from __future__ import annotations

import colorsys

__all__ = ["palette", "hex_color"]

# Sasha Trubetskoy's 20 distinct colors, then golden-ratio hues.
_BASE = [
    (230, 25, 75), (60, 180, 75), (255, 225, 25), (67, 99, 216), (245, 130, 49), (145, 30, 180),
    (66, 212, 244), (240, 50, 230), (191, 239, 69), (250, 190, 212), (70, 153, 144), (220, 190, 255),
    (154, 99, 36), (255, 250, 200), (128, 0, 0), (170, 255, 195), (128, 128, 0), (255, 216, 177),
    (0, 0, 117), (169, 169, 169),
]  # fmt: skip


def palette(n: int) -> list[tuple[int, int, int]]:
    """`n` colors, as distinct as can be: a fixed list of 20, then evenly spread hues."""
    out = _BASE[:n]
    k = 0
    while len(out) < n:
        h = (k * 0.618033988749895) % 1.0
        r, g, b = colorsys.hls_to_rgb(h, 0.55 + 0.15 * (k % 3 - 1), 0.65)
        c = (round(255 * r), round(255 * g), round(255 * b))
        if c not in out:
            out.append(c)
        k += 1
    return out


def hex_color(rgb: tuple[int, int, int]) -> str:
    """``#rrggbb``.

    >>> hex_color((255, 0, 16))
    '#ff0010'
    """
    return "#{:02x}{:02x}{:02x}".format(*rgb)
