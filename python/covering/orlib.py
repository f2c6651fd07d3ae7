"""OR-Library's set partitioning files, read as exact cover problems with
costs: the rows are the primary items (named by their numbers, ``"1"``,
``"2"``, ...), the columns the options (labelled by their option ids, from
0, as every option id is printed: docs/command-line.md), each with its
cost. The layout (Beasley's files, Hoffman and Padberg's airline crew
instances): ``rows columns``, then for each column ``cost k
row1 ... rowk``, numbers separated by any blanks and line breaks. The file is
read by the engine (``crates/dlx``), every error naming its line; a file in
OR-Library's set covering layout (the costs first, then the columns of each
row) is named as such, at the line where it departs from this one.

>>> from covering import Problem
>>> p = read_orlib("3 3\\n4 2 1 2\\n2 1 3\\n5 1 3\\n", Problem)
>>> p.primary, p.costs, p.best(1)[0].cost
(['1', '2', '3'], [4, 2, 5], 6)
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from . import _core, sizes
from .errors import ProblemError

if TYPE_CHECKING:
    from .model import P

__all__ = ["OrLibError", "read_orlib"]


class OrLibError(ProblemError):
    """A line of an OR-Library file that cannot be read (`line`: 1-based,
    0 at the end of the file)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


def _message(kind: str, fields: list[str]) -> str:
    """The words of an error of the engine's reader."""
    if kind == "covering_layout":
        return ("this is OR-Library's set covering layout (the costs first, then the columns of each row), "
                "not its set partitioning one (for each column: cost, count, rows)")
    if kind == "not_a_number":
        what, word = fields
        extra = " (costs are whole numbers, at least 0)" if what == "cost" else ""
        return f"the {what} should be a whole number, not {word!r}{extra}"
    if kind == "too_large_number":
        what, word = fields
        return f"the {what} {word} is too large (at most 4,294,967,294; costs at most 2^64 - 1)"
    if kind == "truncated":
        column, expected = fields
        return f"the file ends inside column {column}, which said it covers {expected} rows"
    if kind == "too_few_columns":
        columns, found = fields
        return f"the file ends after {found} of its {columns} columns"
    if kind == "trailing":
        return f"a number after the last column: {fields[0]!r} (the first line's count of columns is too small?)"
    if kind == "row_out_of_range":
        column, row, rows = fields
        return f"column {column} names row {row}, outside 1..{rows}"
    if kind == "row_twice":
        column, row = fields
        return f"column {column} names row {row} twice"
    if kind == "empty_column":
        return f"column {fields[0]} covers no row"
    if kind == "empty":
        return "no numbers: the first line should be 'rows columns'"
    if kind == "not_utf8":
        return f"byte {int(fields[1]):#04x} at column {fields[0]} is not UTF-8"
    if kind == "control":
        return f"control character U+{int(fields[1]):04X} at column {fields[0]}"
    return kind.replace("_", " ")


def read_orlib(text: str | bytes, cls: type[P]) -> P:
    """The problem of an OR-Library set partitioning file (see the module's
    text); `OrLibError` naming the line for a malformed one.

    >>> from covering import Problem
    >>> read_orlib("2 1\\n4 2 1 3\\n", Problem)
    Traceback (most recent call last):
    ...
    covering.orlib.OrLibError: line 2: column 1 names row 3, outside 1..2
    """
    data = text.encode() if isinstance(text, str) else bytes(text)
    got = _core.read_orlib(data)
    if isinstance(got[0], str):
        kind, line, fields = got
        assert isinstance(kind, str) and isinstance(line, int) and isinstance(fields, list)
        where = f"line {line}: " if line else "at the end of the file: "
        raise OrLibError(where + _message(kind, fields), line)
    rows, costs_bytes, start_bytes, item_bytes = got
    assert isinstance(rows, int) and isinstance(costs_bytes, bytes)
    assert isinstance(start_bytes, bytes) and isinstance(item_bytes, bytes)
    # (A name a row, and the arrays: what the problem will hold, before it is built.)
    sizes.check(f"the problem of an OR-Library file of {rows} rows",
                _core.orlib_held_bytes(rows, len(item_bytes) // 4))
    start, item, costs = array("I"), array("I"), array("Q")
    start.frombytes(start_bytes)
    item.frombytes(item_bytes)
    costs.frombytes(costs_bytes)
    labels = range(len(costs))
    return cls.from_arrays([str(r) for r in range(1, rows + 1)], start, item, labels=labels, costs=costs)
