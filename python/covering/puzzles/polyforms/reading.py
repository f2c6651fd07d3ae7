"""Polyform puzzles as data: the JSON form of the project's design
("Polyform puzzles as data"), read into a `PolyformPuzzle`; errors name the
key, the piece or the cell (and, for text that is not JSON, its line and
column).

>>> p = from_json({"lattice": "cube", "board": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
...                "pieces": {"v": [[0, 0, 0], [1, 0, 0]]}, "uses": "any"})
>>> p.count(), p.reflections
(2, False)
"""

from __future__ import annotations

import json
import re
from typing import Any

from .model import PolyformError, PolyformPuzzle, Uses

__all__ = ["from_json", "read_puzzle"]


def _uses(value: Any, where: str) -> Uses:
    if value in ("once", "any"):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise PolyformError(f"{where}: a number of uses is 0 or more, not {value}")
        return value
    if isinstance(value, str) and (m := re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", value)):
        lo, hi = int(m[1]), int(m[2])
        if lo > hi:
            raise PolyformError(f"{where}: {value!r}: the least uses is more than the most")
        return (lo, hi)
    raise PolyformError(f"{where}: uses are 'once', 'any', a number or 'LO:HI', not {value!r}")


def from_json(data: Any) -> PolyformPuzzle:
    """The puzzle of a JSON object (already parsed).

    >>> from_json({"lattice": "hexagon", "board": [[0, 0], [1, 0]], "pieces": {"d": [[0, 0], [0, 1]]}}).count()
    1
    """
    if not isinstance(data, dict):
        raise PolyformError("a polyform puzzle is a JSON object")
    for key in ("lattice", "board", "pieces"):
        if key not in data:
            raise PolyformError(f"the key {key!r} is missing")
    board, pieces = data["board"], data["pieces"]
    if not isinstance(board, list):
        raise PolyformError("'board' is a list of cells")
    if not isinstance(pieces, dict):
        raise PolyformError("'pieces' is an object from names to lists of cells")
    for name, cells in pieces.items():
        if not isinstance(cells, list):
            raise PolyformError(f"piece {name!r}: its cells are a list")
    for cell in board:
        if not isinstance(cell, list):
            raise PolyformError(f"the board: {cell!r} is not a cell (a list of integers)")
    raw = data.get("uses", "once")
    if isinstance(raw, dict):
        unknown = [k for k in raw if k not in pieces]
        if unknown:
            raise PolyformError(f"uses: {unknown[0]!r} is not a piece")
        uses: Uses | dict[str, Uses] = {k: _uses(v, f"uses of {k!r}") for k, v in raw.items()}
    else:
        uses = _uses(raw, "uses")
    rotations = data.get("rotations", True)
    reflections = data.get("reflections", None)
    for key, value in (("rotations", rotations), ("reflections", reflections)):
        if value is not None and not isinstance(value, bool):
            raise PolyformError(f"{key!r} is true or false, not {value!r}")
    if not isinstance(data["lattice"], str):
        raise PolyformError(f"'lattice' is a name, not {data['lattice']!r}")
    return PolyformPuzzle.make(data["lattice"], board, pieces, uses, rotations, reflections)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each written once (a piece named twice
    would otherwise be read as its last picture, silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise PolyformError(f"the key {key!r} is written twice in one object")
        out[key] = value
    return out


def read_puzzle(text: str | bytes) -> PolyformPuzzle:
    """The puzzle of a JSON text.

    >>> read_puzzle('{"lattice": "square", "board": [[0, 0]], "pieces": {"x": [[0, 0]]}}').count()
    1
    >>> read_puzzle('{"lattice": "square",\\n "board": [}')
    Traceback (most recent call last):
    ...
    covering.puzzles.polyforms.model.PolyformError: line 2, column 12: not JSON (Expecting value)
    >>> read_puzzle('{"lattice": "square", "board": [[0, 0]], "pieces": {"x": [[0, 0]], "x": [[0, 0]]}}')
    Traceback (most recent call last):
    ...
    covering.puzzles.polyforms.model.PolyformError: the key 'x' is written twice in one object
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise PolyformError(f"byte {e.start}: not UTF-8 text") from None
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise PolyformError(f"line {e.lineno}, column {e.colno}: not JSON ({e.msg})") from None
    except RecursionError:
        raise PolyformError("the JSON is nested too deeply") from None
    return from_json(data)
