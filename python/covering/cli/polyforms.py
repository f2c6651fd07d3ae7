"""``covering polyomino VERB --puzzle FILE.json`` and ``covering polyomino
VERB --lattice L``: tilings on every lattice (`covering.puzzles.polyforms`).

``--puzzle``: a JSON object in the form of the project's design
("Polyform puzzles as data"). ``--lattice L`` (square, triangle, hexagon,
cube, sticks) with ``--pieces SET`` (``soma``, ``tetrasticks``, or
LATTICE-SIZE: ``triangle-6`` the hexiamonds, ``hexagon-4``, ``cube-5``) and
``--board``: RxC (a square lattice's rectangle; a triangle lattice's rhombus
of R by C rhombi, two triangles each; a hexagon lattice's parallelogram of R
rows of C hexagons; sticks: the unit segments of a grid of R x C squares) or
AxBxC (a box of cubes), or ``--board-file`` and ``--pieces FILE`` as text
pictures of the lattice (`covering.puzzles.polyforms.drawings`). A tiling is printed as its picture (the cube's
layers side by side), as SVG with ``--svg``, or with ``--json`` as
``{"tiling": [{"piece": name, "cells": [cell, ...]}, ...]}``, cells as the
design writes them.
"""

from __future__ import annotations

import argparse
import itertools
import os
from collections.abc import Iterable, Iterator
from typing import Any

from .. import textio
from ..problem import Problem, Uniqueness
from ..puzzles.polyforms import LATTICES, PolyformError, PolyformPuzzle
from ..puzzles.polyforms.drawings import read_cells
from ..puzzles.polyforms.pictures import svg_of, text_of
from . import flags
from .common import UsageError, place, read_input, read_uses, warn
from .contract import Run
from .dispatch import Face, count_by_front_door

__all__ = ["PolyformFace", "board_cells"]


def board_cells(lattice: str, spec: str) -> list[tuple[int, ...]]:
    """The cells of ``--board`` on `lattice` (see the module), or a
    shape by name: ``triangle:N`` (a triangle of side N, on the triangle
    lattice) and ``hexagon:N`` (a hexagon of side N: on the hexagon
    lattice the cells within N - 1 steps of one; on the triangle lattice
    the six triangles of side N round a point).

    >>> len(board_cells("triangle", "6x6")), len(board_cells("cube", "3x3x3")), len(board_cells("sticks", "1x1"))
    (72, 27, 4)
    >>> [len(board_cells(lattice, shape)) for lattice, shape in
    ...  (("triangle", "triangle:4"), ("hexagon", "hexagon:3"), ("triangle", "hexagon:2"))]
    [16, 19, 24]
    """
    shape, colon, size = spec.partition(":")
    if colon:
        if shape not in ("triangle", "hexagon") or not size.strip().isdigit() or int(size) < 1:
            raise UsageError(f"--board {spec!r}: a named board is triangle:N or hexagon:N, N at least 1")
        n = int(size)
        if n > 2000:
            raise UsageError(f"--board {spec}: more than ten million cells")
        if lattice == "triangle" and shape == "triangle":
            return [(x, y, t) for x in range(n) for y in range(n) for t in (0, 1) if x + y + t < n]
        if lattice == "triangle":
            # Triangles round the point (0, 0): a hexagon of side n, as a
            # set of points within n of it in the hexagonal distance.
            return [(x, y, t) for x in range(-n, n) for y in range(-n, n) for t in (0, 1)
                    if all(abs(v) <= 3 * n for v in _hex_distances(3 * x + 1 + t, 3 * y + 1 + t))]
        if lattice == "hexagon" and shape == "hexagon":
            r = n - 1
            return [(x, y) for x in range(-r, r + 1) for y in range(-r, r + 1) if abs(x + y) <= r]
        raise UsageError(f"--board {spec}: not a shape of the {lattice} lattice")
    parts = spec.lower().split("x")
    if not all(p.strip().isdigit() for p in parts) or len(parts) != (3 if lattice == "cube" else 2):
        raise UsageError(f"--board on the {lattice} lattice must look like "
                         f"{'3x3x3' if lattice == 'cube' else '6x10'}, not {spec!r}")
    dims = [int(p) for p in parts]
    if min(dims) < 1:
        raise UsageError(f"--board {spec}: no cell")
    if dims[0] * dims[1] * (dims[2] if len(dims) > 2 else 2) > 10**7:
        raise UsageError(f"--board {spec}: more than ten million cells")
    r, c = dims[0], dims[1]
    cells: list[tuple[int, ...]]
    if lattice == "square":
        cells = [(i, j) for i in range(r) for j in range(c)]
    elif lattice == "hexagon":
        cells = [(x, y) for y in range(r) for x in range(c)]
    elif lattice == "triangle":
        cells = [(x, y, t) for y in range(r) for x in range(c) for t in (0, 1)]
    elif lattice == "sticks":
        cells = [(x, y, 0) for y in range(r + 1) for x in range(c)]
        cells += [(x, y, 1) for y in range(r) for x in range(c + 1)]
    else:
        cells = list(itertools.product(range(dims[0]), range(dims[1]), range(dims[2])))
    return cells


def _hex_distances(u: int, v: int) -> tuple[int, int, int]:
    """A point's coordinates along the three axes of the triangle lattice
    (in thirds of a side): within 3n on each, a triangle lies in the
    hexagon of side n."""
    return u, v, u + v


def _pieces_file(lattice: str, path: str) -> dict[str, list[tuple[int, ...]]]:
    """A file of pieces on `lattice`: blocks separated by blank lines, each
    a name line, then the piece's picture (`read_cells`); on the cube a
    block of picture lines alone (``#`` and ``.``) is the next layer of the
    piece above it. Errors name the file's line and column."""
    text, name = read_input(path)
    pieces: dict[str, list[tuple[int, ...]]] = {}
    where: dict[str, int] = {}
    current: tuple[str, int, list[str]] | None = None
    found: list[tuple[str, int, list[str]]] = []
    for lineno, block in textio.blocks(text):
        layer = lattice == "cube" and current is not None and all(set(x) <= set("#.") | set(textio.BLANKS)
                                                                    for x in block)
        if layer and current is not None:
            current[2].extend(["", *block])
            continue
        current = (block[0].strip(textio.BLANKS), lineno, block[1:])
        found.append(current)
    for piece, lineno, picture in found:
        if not picture:
            raise UsageError(f"{name}:{lineno}: piece {piece!r} needs a name line and a picture")
        if piece in where:
            raise UsageError(f"{name}:{lineno}: piece {piece!r} is already named on line {where[piece]}")
        try:
            pieces[piece] = read_cells(lattice, "\n".join(picture), lineno + 1)
        except PolyformError as e:
            raise PolyformError(place(name, f"piece {piece!r}: {e}" if not str(e).startswith("line") else str(e)))
        where[piece] = lineno
    if not pieces:
        raise UsageError(f"{name}: no pieces")
    return pieces


class PolyformFace(Face):
    """One tiling on any lattice (see the module); every verb is the
    puzzle's (`PolyformPuzzle`)."""

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        super().__init__(args, run)
        given = [flag for flag, value in (("--board-file", args.board_file), ("--no-rotations", args.no_rotations),
                                          ("--no-reflections", args.no_reflections),
                                          ("--cost", getattr(args, "cost", None))) if value]
        if args.puzzle_file and (given or args.board or args.pieces or args.uses or args.lattice):
            raise UsageError("--puzzle names its lattice, board, pieces and uses: it takes none of --lattice, "
                             "--board, --pieces, --uses, " + ", ".join(["--board-file", "--cost", "--no-rotations",
                                                                        "--no-reflections"]))
        if args.verb == "count" and args.symmetry and args.limit is not None:
            raise UsageError("--symmetry and --limit cannot go together")
        if args.verb == "random":
            self.seed = flags.seed_for(args, "draws these again")
        self.puzzle = self._read()
        if getattr(args, "symmetry", False):
            self.puzzle = self.puzzle.with_symmetry()
        self.why = None if args.verb == "export" else self.puzzle.why_none()
        if self.why is not None:
            warn(f"no tiling: {self.why}")

    def _read(self) -> PolyformPuzzle:
        args = self.args
        if args.puzzle_file:
            from ..puzzles.polyforms.reading import read_puzzle

            text, name = read_input(args.puzzle_file)
            try:
                return read_puzzle(text)
            except PolyformError as e:
                raise PolyformError(place(name, str(e))) from None
        from ..puzzles.polyforms.sets import named

        lattice = args.lattice
        if lattice not in LATTICES:
            raise UsageError(f"--lattice {lattice}: no such lattice (the lattices: {', '.join(LATTICES)})")
        spec = args.pieces or f"{lattice}-{5 if lattice == 'square' else 6}"
        pieces: dict[str, Any]
        if spec != "-" and os.path.exists(spec):
            pieces = _pieces_file(lattice, spec)
        else:
            try:
                on, pieces = named(spec)
            except ValueError as e:
                raise UsageError(f"--pieces: {e}") from None
            if on != lattice:
                raise UsageError(f"--pieces {spec} are pieces of the {on} lattice, not of the {lattice} lattice")
        if args.board_file:
            text, name = read_input(args.board_file)
            try:
                board = read_cells(lattice, text)
            except PolyformError as e:
                raise PolyformError(place(name, str(e))) from None
        else:
            board = board_cells(lattice, args.board or {"cube": "3x3x3", "sticks": "4x4"}.get(lattice, "6x6"))
        uses = read_uses(args.uses)
        # (A one-sided set holds both mirror images: its pieces are not turned over.)
        flat = args.no_reflections or spec.endswith("-one-sided")
        return PolyformPuzzle.make(lattice, board, pieces, uses, not args.no_rotations, False if flat else None)

    def entries(self) -> Iterator[tuple[int, PolyformPuzzle]]:
        yield 0, self.puzzle

    def problem(self) -> Problem:
        return self.puzzle.problem()

    def show(self, k: int, puzzle: PolyformPuzzle, labels: Any, j: int,
             cost: int | None = None) -> tuple[dict[str, Any], str]:
        record: dict[str, Any] = {"tiling": [{"piece": name, "cells": [list(c) for c in cells]}
                                             for name, cells in labels]}
        svg = getattr(self.args, "svg", None)
        text = svg_of(puzzle, labels) if svg == "-" else text_of(puzzle, labels)
        text = ("\n" if j else "") + text + "\n"
        if cost is not None:
            record["cost"] = cost
            text += f"cost {cost}\n"
        self.run.picture_file(svg, lambda: svg_of(puzzle, labels))
        return record, text

    def solutions(self, puzzle: PolyformPuzzle, want: int | None) -> Iterable[Any]:
        if self.why is not None:
            return []
        if self.args.verb == "random":
            return puzzle.random(1 if want is None else want, seed=self.seed, budget=self.run.budget)
        return puzzle.solutions(want, budget=self.run.budget)

    def count(self, puzzle: PolyformPuzzle, limit: int | None) -> Any:
        if self.why is not None:
            return 0
        if limit is not None:  # (never with --symmetry: refused above)
            return count_by_front_door(self.args, self.run, puzzle.problem(), limit)
        # Each problem's count by the front door with the verb's flags: all
        # tilings from the classes where the board allows
        # (PolyformPuzzle.count_every), classes with the ones filtered.
        made: list[Any] = []

        def one(problem: Problem) -> int:
            made.append(count_by_front_door(self.args, self.run, problem, None))
            return int(made[-1].count)

        n = puzzle.count_with(one, budget=self.run.budget)
        if not made or (len(made) == 1 and made[0].count == n):
            return made[0] if made else n
        why = made[0].reason
        classes = puzzle.orbits()  # (found by count_with, kept)
        if classes is not None:
            why = f"from its classes under the board's {len(classes.group())} symmetries; {why}"
        else:
            why = f"{why}; the classes the symmetries leave in place listed"
        return made[0]._replace(count=n, nodes=sum(c.nodes for c in made), reason=why)

    def unique(self, puzzle: PolyformPuzzle) -> tuple[Any, Uniqueness]:
        if self.why is not None:
            return None, Uniqueness.NONE
        if puzzle.symmetry:
            found = list(puzzle.solutions(2, budget=self.run.budget))
            return (found[0] if found else None), Uniqueness.of(len(found))
        return puzzle.solve_unique(budget=self.run.budget)
