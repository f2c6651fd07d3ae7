"""Small HTML tables for notebooks (`_repr_html_` of `Problem`, `Solver`, `Zdd`).

>>> table([("nodes", 12)], caption="Solver")
'<table><caption>Solver</caption><tr><th style="text-align:left">nodes</th><td>12</td></tr></table>'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

__all__ = ["table", "matrix"]


def table(rows: Iterable[tuple[str, object]], caption: str = "") -> str:
    """A two-column table of names and values (escaped)."""
    body = "".join(f'<tr><th style="text-align:left">{escape(k)}</th><td>{escape(str(v))}</td></tr>'
                   for k, v in rows)
    return f"<table><caption>{escape(caption)}</caption>{body}</table>" if caption else f"<table>{body}</table>"


def matrix(columns: Sequence[str], rows: Iterable[tuple[str, Sequence[str]]], caption: str = "") -> str:
    """A table with a header of `columns` and one row per (label, cells)."""
    head = "<tr><th></th>" + "".join(f"<th>{escape(c)}</th>" for c in columns) + "</tr>"
    body = "".join("<tr><th style=\"text-align:left\">" + escape(label) + "</th>"
                   + "".join(f'<td style="text-align:center">{escape(c)}</td>' for c in cells) + "</tr>"
                   for label, cells in rows)
    return f"<table><caption>{escape(caption)}</caption>{head}{body}</table>"
