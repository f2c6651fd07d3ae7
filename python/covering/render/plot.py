"""Scatter plots with reference lines, as SVG or PNG, with no plotting library.

PNG is written by hand: an RGB pixel buffer, Bresenham lines, and the file
format's chunks compressed with zlib.

>>> svg = scatter([(1, 1), (2, 3), (3, 5)], lines=[(1.0, "y = x")], title="t")
>>> svg.startswith("<svg") and svg.count("<circle") == 3 + 1  # the points, and the legend's marker
True
>>> png = scatter_png([(1, 1), (2, 3)], lines=[(1.0, "y = x")], title="t")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from html import escape

from .font import glyph, text_width

__all__ = ["scatter", "scatter_png"]

Point = tuple[float, float]
LINE_COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"]


def _bounds(points: Sequence[Point], lines: Sequence[tuple[float, str]]) -> tuple[float, float]:
    xmax = max(x for x, _ in points)
    ymax = max([y for _, y in points] + [s * xmax for s, _ in lines])
    return xmax, ymax


def scatter(
    points: Sequence[Point],
    *,
    lines: Sequence[tuple[float, str]] = (),
    title: str = "",
    xlabel: str = "n",
    ylabel: str = "",
    width: int = 640,
    height: int = 480,
) -> str:
    """An SVG scatter plot of `points`, with lines y = slope * x through the
    origin (``(slope, label)``)."""
    margin = 50
    xmax, ymax = _bounds(points, lines)
    sx = (width - 2 * margin) / xmax
    sy = (height - 2 * margin) / ymax

    def px(x: float, y: float) -> tuple[float, float]:
        return margin + x * sx, height - margin - y * sy

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<path d="M{margin} {margin}V{height - margin}H{width - margin}" stroke="black" fill="none"/>',
        f'<text x="{width / 2}" y="{margin / 2}" text-anchor="middle" font-size="14">{escape(title)}</text>',
        f'<text x="{width / 2}" y="{height - 12}" text-anchor="middle">{escape(xlabel)}</text>',
        f'<text x="14" y="{height / 2}" transform="rotate(-90 14 {height / 2})" text-anchor="middle">'
        f"{escape(ylabel)}</text>",
        f'<text x="{margin}" y="{height - margin + 16}" text-anchor="middle">0</text>',
        f'<text x="{width - margin}" y="{height - margin + 16}" text-anchor="middle">{xmax:g}</text>',
        f'<text x="{margin - 6}" y="{margin + 4}" text-anchor="end">{ymax:.0f}</text>',
    ]
    r = 2.0 if len(points) < 2000 else 1.0
    for x, y in points:
        cx, cy = px(x, y)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="black"/>')
    for k, (slope, label) in enumerate(lines):
        color = LINE_COLORS[k % len(LINE_COLORS)]
        x_end = min(xmax, ymax / slope)
        (x0, y0), (x1, y1) = px(0, 0), px(x_end, slope * x_end)
        out.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{color}" '
            'stroke-width="1.5" stroke-dasharray="6 4"/>'
        )
        out.append(
            f'<text x="{x1 - 4:.1f}" y="{y1 + 14:.1f}" fill="{color}" text-anchor="end">{escape(label)}</text>'
        )
    # The legend, top left inside the axes: the points, then each line.
    lx, ly = margin + 12, margin + 14
    out.append(f'<circle cx="{lx + 10}" cy="{ly - 4}" r="2.5" fill="black"/>'
               f'<text x="{lx + 26}" y="{ly}">{escape(ylabel or "points")}</text>')
    for k, (_, label) in enumerate(lines):
        color = LINE_COLORS[k % len(LINE_COLORS)]
        y = ly + 18 * (k + 1)
        out.append(f'<line x1="{lx}" y1="{y - 4}" x2="{lx + 20}" y2="{y - 4}" stroke="{color}" stroke-width="1.5" '
                   f'stroke-dasharray="6 4"/><text x="{lx + 26}" y="{y}" fill="{color}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _png(width: int, height: int, pixels: bytearray) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(pixels[y * width * 3 : (y + 1) * width * 3]) for y in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def scatter_png(
    points: Sequence[Point],
    *,
    lines: Sequence[tuple[float, str]] = (),
    title: str = "",
    xlabel: str = "n",
    ylabel: str = "",
    width: int = 640,
    height: int = 480,
) -> bytes:
    """The same plot as `scatter`, as PNG bytes: title, axis labels, the
    axes' ends, and a legend, in a 5 x 7 pixel font (`covering.render.font`)."""
    margin = 50
    xmax, ymax = _bounds(points, lines)
    sx = (width - 2 * margin) / xmax
    sy = (height - 2 * margin) / ymax
    pixels = bytearray(b"\xff" * (width * height * 3))

    def put(x: int, y: int, rgb: tuple[int, int, int]) -> None:
        if 0 <= x < width and 0 <= y < height:
            i = 3 * (y * width + x)
            pixels[i : i + 3] = bytes(rgb)

    def line(x0: int, y0: int, x1: int, y1: int, rgb: tuple[int, int, int], dash: int = 0) -> None:
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx_, sy_ = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err = dx + dy
        step = 0
        while True:
            if not dash or step % (2 * dash) < dash:
                put(x0, y0, rgb)
                put(x0, y0 + 1, rgb)
            step += 1
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx_
            if e2 <= dx:
                err += dx
                y0 += sy_

    def text(x: int, y: int, words: str, rgb: tuple[int, int, int], scale: int = 1, anchor: str = "start") -> None:
        """`words` with its top left corner at (x, y) (anchor "middle" or "end": x is there)."""
        if anchor != "start":
            x -= text_width(words, scale) // (2 if anchor == "middle" else 1)
        for k, c in enumerate(words):
            for row, bits in enumerate(glyph(c)):
                for col, bit in enumerate(bits):
                    if bit:
                        for a in range(scale):
                            for b in range(scale):
                                put(x + (k * 6 + col) * scale + a, y + row * scale + b, rgb)

    def px(x: float, y: float) -> tuple[int, int]:
        return round(margin + x * sx), round(height - margin - y * sy)

    black = (0, 0, 0)
    line(*px(0, 0), *px(xmax, 0), black)
    line(*px(0, 0), *px(0, ymax), black)
    for x, y in points:
        cx, cy = px(x, y)
        for ddx in (0, 1):
            for ddy in (0, 1):
                put(cx + ddx, cy + ddy, black)
    # The lines go over the points, dashed, so that both show where they meet.
    colors = []
    for k, (slope, _) in enumerate(lines):
        c = LINE_COLORS[k % len(LINE_COLORS)]
        rgb = (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16))
        colors.append(rgb)
        x_end = min(xmax, ymax / slope)
        line(*px(0, 0), *px(x_end, slope * x_end), rgb, dash=6)
    # Title, axes, the ends of the axes, and the legend.
    text(width // 2, 14, title, black, scale=2, anchor="middle")
    text(width // 2, height - 18, xlabel, black, anchor="middle")
    text(margin - 8, margin - 20, ylabel, black, anchor="end")
    text(margin, height - margin + 8, "0", black, anchor="middle")
    text(width - margin, height - margin + 8, f"{xmax:g}", black, anchor="middle")
    text(margin - 6, margin - 3, f"{ymax:.0f}", black, anchor="end")
    lx, ly = margin + 12, margin + 10
    for ddx in range(3):
        for ddy in range(3):
            put(lx + 9 + ddx, ly + 2 + ddy, black)
    text(lx + 26, ly, ylabel or "points", black)
    for k, ((_, label), rgb) in enumerate(zip(lines, colors)):
        y = ly + 16 * (k + 1)
        line(lx, y + 3, lx + 20, y + 3, rgb, dash=4)
        text(lx + 26, y, label, rgb)
    return _png(width, height, pixels)
