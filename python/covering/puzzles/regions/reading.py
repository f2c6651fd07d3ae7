"""Sudokus on regions as data: the JSON form of the project's design
(``{"symbols": N, "cells": [[row, col], ...], "regions": [[[row, col], ...],
...], "givens": [[row, col, v], ...], "cages": [{"cells": [...], "sum": S},
...]}``, keys not known ignored), one object or a file of JSON Lines (a
batch); and the answer's record (``"solution"`` as ``[[row, col, v], ...]``
in the order of ``cells``).

>>> text = '{"symbols": 2, "cells": [[0, 0], [0, 1]], "regions": [[[0, 0], [0, 1]]], "givens": [[0, 0, 2]]}'
>>> [p.solve().values for p in read_puzzles(text)]
[{(0, 0): 2, (0, 1): 1}]
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ... import textio
from .model import Cage, RegionSudoku, RegionSudokuError

__all__ = ["from_json", "read_puzzles", "read_entries", "solution_record"]


def from_json(data: Any) -> RegionSudoku:
    """A puzzle from the decoded JSON object (see the module).

    >>> from_json({"symbols": 1, "cells": [[0, 0]], "regions": []}).count()
    1
    """
    if not isinstance(data, dict):
        raise RegionSudokuError("a Sudoku on regions is a JSON object with symbols, cells and regions")
    for key in ("symbols", "cells"):
        if key not in data:
            raise RegionSudokuError(f"the key {key!r} is missing")
    cells, regions = data["cells"], data.get("regions", [])
    givens, cages = data.get("givens", []), data.get("cages", [])
    for key, value in (("cells", cells), ("regions", regions), ("givens", givens), ("cages", cages)):
        if not isinstance(value, list):
            raise RegionSudokuError(f"{key!r} must be a list, not {type(value).__name__}")
    for g in givens:
        if not isinstance(g, list) or len(g) != 3:
            raise RegionSudokuError(f"a given is [row, col, v], not {g!r}")
    made: list[Cage | tuple[Any, Any]] = []
    for j, cage in enumerate(cages, 1):
        if not isinstance(cage, dict) or "cells" not in cage or "sum" not in cage:
            raise RegionSudokuError(f"cage {j}: a cage is {{\"cells\": [...], \"sum\": S}}")
        if not isinstance(cage["cells"], list):
            raise RegionSudokuError(f"cage {j}: its cells must be a list")
        made.append((cage["cells"], cage["sum"]))
    return RegionSudoku.make(data["symbols"], cells, regions, [tuple(g) for g in givens], made)


def read_entries(text: str | bytes) -> Iterator[RegionSudoku | RegionSudokuError]:
    """Each puzzle of a JSON object or a file of JSON Lines, in order; one
    that cannot be read is its error (naming its line), in its place.

    >>> [type(e).__name__ for e in read_entries('{"symbols": 1, "cells": [[0, 0]]}\\n[1]\\n')]
    ['RegionSudoku', 'RegionSudokuError']
    """
    body = textio.decode(text)
    stripped = body.strip()
    try:
        # One object laid out over lines.
        whole = json.loads(stripped) if stripped.startswith("{") and "\n" in stripped else None
    except json.JSONDecodeError:
        whole = None
    if whole is not None:
        yield _entry(whole, 1)
        return
    for lineno, line in enumerate(body.split("\n"), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            yield RegionSudokuError(f"line {lineno}, column {e.colno}: not JSON ({e.msg})")
            continue
        yield _entry(data, lineno)


def _entry(data: Any, lineno: int) -> RegionSudoku | RegionSudokuError:
    try:
        return from_json(data)
    except RegionSudokuError as e:
        return RegionSudokuError(f"line {lineno}: {e}")


def read_puzzles(text: str | bytes) -> list[RegionSudoku]:
    """Every puzzle of `text` (`read_entries`), the first error raised."""
    found = []
    for entry in read_entries(text):
        if isinstance(entry, RegionSudokuError):
            raise entry
        found.append(entry)
    return found


def solution_record(solution: RegionSudoku | None) -> list[list[int]] | None:
    """A solution as ``[[row, col, v], ...]`` in the order of its cells.

    >>> solution_record(from_json({"symbols": 1, "cells": [[0, 0]]}).solve())
    [[0, 0, 1]]
    """
    return None if solution is None else [[r, c, v] for r, c, v in solution]
