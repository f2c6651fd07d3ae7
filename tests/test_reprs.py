"""Notebook pictures: puzzles draw themselves as SVG, the engine's objects
as HTML tables that say what they hold."""

from __future__ import annotations

import xml.dom.minidom

from covering.puzzles import akari, sudoku
from covering.puzzles.polyomino import Tiling, l_tromino


def test_puzzles_draw_as_svg() -> None:
    grid = akari.Akari.parse(akari.SEED_7X7)
    pictures = [grid._repr_svg_(), sudoku.Sudoku.parse("." * 81)._repr_svg_(),
                Tiling.of_tromino(4, l_tromino(4, 0).first())._repr_svg_()]
    for svg in pictures:
        root = xml.dom.minidom.parseString(svg).documentElement
        assert root is not None and root.tagName == "svg"


def test_problem_solver_and_diagram_as_html() -> None:
    p = l_tromino(4, 0)
    html = p._repr_html_()
    xml.dom.minidom.parseString(html)  # well formed
    assert f"{p.n_options} options" in html and html.count("<tr>") == 1 + min(p.n_options, p.HTML_ROWS)
    s = p.solver()
    n = s.count()
    assert f"<td>{n}</td>" in s._repr_html_() and "<td>True</td>" in s._repr_html_()
    z = l_tromino(6).to_zdd()
    assert "<td>162</td>" in z._repr_html_()
    big = l_tromino(9)
    assert f"the first {big.HTML_ROWS} of {big.n_options} options" in big._repr_html_()
