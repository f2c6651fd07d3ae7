"""``covering tromino VERB N`` and ``covering polyomino VERB``: tilings,
pictured and counted.

Verbs: ``solve`` (the first tiling; ``--limit N``, ``--all``), ``count``,
``unique``, ``random`` (a tiling drawn uniformly at random from all of
them, from ``--seed S``), ``best`` (polyomino: the cheapest by ``--cost
PIECE=N``) and ``export``. A tiling is printed as a picture (a blank line
between tilings), as SVG with ``--svg``, or with ``--json`` as
``{"tiling": [{"piece": name, "cells": [[row, col], ...]}, ...]}``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import textio
from ..limits import Budget
from ..mincost import Best
from ..problem import Problem, Uniqueness
from ..puzzles import polyomino
from ..puzzles.polyomino import Board, Shape, Tiling, TilingPuzzle
from . import flags
from .common import UsageError, check_method_flags, place, progress, read_input, read_uses, warn
from .contract import Run
from .dispatch import Face, count_by_front_door, run_best, run_count, run_export, run_solve, run_unique
from .grammar import nearest
from .menu import PUZZLES
from .table import Command, Verb

__all__ = ["COMMANDS"]

#: The named sets, by the name of their attribute in `polyomino` (read when
#: used: the hexominoes are grown on first use).
NAMED = {name: name.upper() for name in ("dominoes", "trominoes", "tetrominoes", "pentominoes", "hexominoes")}

PAYLOAD = '{"tiling": [{"piece": ..., "cells": [[row, col], ...]}]} (0-based, as in Python)'

HELP = {
    "solve": "the first tiling (--limit N: up to N; --all: every one)",
    "count": "the number of tilings",
    "unique": "the first tiling, then a line 'unique', 'multiple' or 'none'",
    "random": "a tiling drawn uniformly at random from all of them (--limit N: N different ones), from --seed S",
    "best": "the cheapest tiling by --cost PIECE=N, then a line 'cost N' (--limit K: the K cheapest)",
    "export": "the exact cover problem in Knuth's .dlx format",
}


def _tromino_input(v: argparse.ArgumentParser) -> None:
    v.add_argument("n", type=flags.non_negative, metavar="N")
    v.add_argument("--hole", type=flags.non_negative, metavar="K", help="remove cell K = y*N+x")
    v.set_defaults(make=_tromino)


def _polyomino_input(v: argparse.ArgumentParser) -> None:
    v.add_argument("--puzzle", dest="puzzle_file", metavar="FILE.json",
                   help="a tiling on any lattice as a JSON object (lattice, board, pieces, uses, rotations, "
                   "reflections: the design's polyform puzzles as data)")
    v.add_argument("--lattice", help="square, triangle, hexagon, cube or sticks, with --pieces SET (soma, "
                   "tetrasticks, LATTICE-SIZE such as triangle-6) and --board RxC or AxBxC")
    v.add_argument("--pieces", default=None,
                   help=f"a named set ({', '.join(NAMED)}) or a file of pieces: blocks separated by "
                   "blank lines, a name on the first line, then the picture ('#' cells, '.' gaps)")
    board = v.add_mutually_exclusive_group()
    board.add_argument("--board", metavar="RxC", help="a rectangle of R rows and C columns (default 6x10)")
    board.add_argument("--board-file", metavar="FILE", help="a picture of the board ('.' or space: no cell)")
    v.add_argument("--uses", default=None, help="how often each piece is used: once (default), any, N or LO:HI")
    v.add_argument("--no-rotations", action="store_true", help="pieces may not be rotated")
    v.add_argument("--no-reflections", action="store_true", help="pieces may not be turned over")
    v.set_defaults(make=_polyomino)


def _cost(export: bool) -> Callable[[argparse.ArgumentParser], None]:
    def add(v: argparse.ArgumentParser) -> None:
        v.add_argument("--cost", action="append", metavar="PIECE=N", default=[],
                       help="each placement of PIECE costs N (repeat for more pieces; others cost 0)"
                       + ("; written as DLX5's '|N'" if export else ""))
    return add


def _symmetry(v: argparse.ArgumentParser) -> None:
    v.add_argument("--symmetry", action="store_true", help="tilings up to the board's symmetries")


def _verbs(polyomino: bool) -> tuple[Verb, ...]:
    """The verbs of ``tromino`` and ``polyomino`` (with costs: ``best``)."""
    svg = "tilings as SVG pictures"
    verbs = [
        Verb("solve", HELP["solve"], run_solve, PAYLOAD, svg, noun="tilings",
             flags=(_symmetry, lambda v: flags.add_limit(v, "up to N tilings", every="every tiling"),
                    flags.add_color)),
        Verb("count", HELP["count"], run_count, noun="tilings", counts=True,
             flags=(_symmetry, lambda v: flags.add_limit(v, "stop counting at N"), flags.add_method,
                    flags.add_threads)),
        Verb("unique", HELP["unique"], run_unique, PAYLOAD, svg, noun="tilings", flags=(_symmetry, flags.add_color)),
        Verb("random", HELP["random"], run_solve, PAYLOAD, svg, noun="tilings",
             flags=(lambda v: flags.add_limit(v, "up to N tilings"), flags.add_seed,
                    lambda v: flags.add_method(v, search=False), flags.add_color)),
    ]
    if polyomino:
        verbs.append(Verb("best", HELP["best"], run_best, PAYLOAD + ', "cost"', svg, noun="tilings",
                          flags=(_cost(False), lambda v: flags.add_limit(v, "the K cheapest (default 1)"),
                                 flags.add_color)))
    verbs.append(Verb("export", HELP["export"], run_export, '{"dlx": text}', noun="problems", searches=False,
                      flags=(_cost(True),) if polyomino else ()))
    return tuple(verbs)


COMMANDS = (
    Command("tromino", PUZZLES["tromino"][1], "Tile an N x N board, minus cell K (cells numbered y*N+x), with "
            "L-trominoes.", _tromino_input, lambda args, run: TilingFace(args, run), _verbs(False)),
    Command("polyomino", PUZZLES["polyomino"][1], "Tile a board with a set of polyominoes, or with polyforms on "
            "any lattice (--lattice, --puzzle FILE.json).", _polyomino_input, lambda args, run: _face(args, run),
            _verbs(True)),
)


@dataclass
class Instance:
    """The tiling asked: pieces, board (built when first needed), how the
    pieces may be used, their costs and whether tilings are counted up to
    the board's symmetries; its verbs are those of the puzzle
    (`covering.puzzles.polyomino.TilingPuzzle`), built when first needed."""

    pieces: dict[str, Shape]
    size: tuple[int, int] | None
    make_board: Callable[[], Board]
    options: dict[str, Any]
    costs: dict[str, int] = field(default_factory=dict)
    #: N and the hole, for the L-tromino board (its own fast problem).
    tromino: tuple[int, int | None] | None = None
    symmetry: bool = False
    _board: Board | None = None
    _puzzle: TilingPuzzle | None = None

    def board(self) -> Board:
        if self._board is None:
            self._board = self.make_board()
        return self._board

    def why_none(self) -> str | None:
        """Why no tiling can exist, from the areas alone (a huge board
        answered before it is built), or None."""
        if self.tromino is not None:
            n, hole = self.tromino
            cells = n * n - (hole is not None)
            return None if cells % 3 == 0 else f"{cells} cells are not a multiple of 3"
        area: Board | int = self.size[0] * self.size[1] if self.size else self.board()
        why = polyomino.area_mismatch(self.pieces, area, self.options["uses"])
        if why and self.options["uses"] == "once" and polyomino.area_mismatch(self.pieces, area, "any") is None:
            why += " (--uses any lets each piece be used any number of times)"
        return why

    def puzzle(self) -> TilingPuzzle:
        if self._puzzle is None:
            if self.tromino is not None:
                self._puzzle = dataclasses.replace(TilingPuzzle.l_tromino(*self.tromino), symmetry=self.symmetry)
            else:
                self._puzzle = TilingPuzzle(self.pieces, self.board(), costs=self.costs or None,
                                            symmetry=self.symmetry, **self.options)
        return self._puzzle

    def problem(self) -> Problem:
        return self.puzzle().problem()

    def decode(self, labels: Any) -> Tiling:
        if self.tromino is not None and not self.symmetry:
            # The seeds' naming: trominoes a, b, c, ... in the order found
            # (one tiling a class is named piece by piece, as any tiling).
            n = self.tromino[0]
            return Tiling.of_tromino(n, [[r * n + c for r, c in cells] for _, cells in labels])
        return Tiling.of(labels)


def _tromino(args: argparse.Namespace) -> Instance:
    n = args.n
    if n < 2:
        raise UsageError(f"N must be at least 2, not {n}")
    if args.hole is not None and args.hole >= n * n:
        raise UsageError(f"--hole {args.hole}: the cells of a {n} x {n} board are 0 to {n * n - 1}")
    holes = [] if args.hole is None else [divmod(args.hole, n)]
    return Instance({"L": polyomino.TROMINOES["L"]}, (n, n), lambda: Board.rectangle(n, n, holes=holes),
                    dict(uses="any", rotations=True, reflections=True), tromino=(n, args.hole),
                    symmetry=bool(getattr(args, "symmetry", False)))


def _face(args: argparse.Namespace, run: Run) -> Face:
    """The square lattice's face, or with ``--puzzle`` or ``--lattice`` the
    one of every lattice (imported only then)."""
    if getattr(args, "puzzle_file", None) or getattr(args, "lattice", None) not in (None, "square"):
        from .polyforms import PolyformFace

        return PolyformFace(args, run)
    return TilingFace(args, run)


def _polyomino(args: argparse.Namespace) -> Instance:
    pieces = _pieces(args.pieces or "pentominoes")
    options = dict(uses=read_uses(args.uses), rotations=not args.no_rotations, reflections=not args.no_reflections)
    costs = _costs(getattr(args, "cost", []), pieces)
    return Instance(pieces, _board_size(args), lambda: _board(args), options, costs,
                    symmetry=bool(getattr(args, "symmetry", False)))


class TilingFace(Face):
    """One tiling problem; a tiling printed as a picture (a blank line
    between tilings), as SVG (``--svg``), or as a JSON line. Every verb is
    the puzzle's (`TilingPuzzle`); a listing with ``--progress`` shows its
    search."""

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        super().__init__(args, run)
        verb = args.verb
        if verb == "count":
            if args.symmetry:
                for flag, value in (("--limit", args.limit is not None), ("--threads", args.threads is not None)):
                    if value:
                        raise UsageError(f"--symmetry and {flag} cannot go together")
            check_method_flags(args, not_with={"--symmetry": args.symmetry and args.method not in (None, "search")})
        if verb == "random":
            if args.method not in (None, "memo"):
                raise UsageError(f"random and --method {args.method} cannot go together (tilings are drawn from "
                                 "the memo's diagram)")
            self.seed = flags.seed_for(args, "draws these again")
        self.inst: Instance = args.make(args)
        self.color = bool(args.color) if getattr(args, "color", None) is not None else sys.stdout.isatty()
        #: Why no tiling can exist, from the areas alone (answered before any search).
        self.why = None if verb == "export" else self.inst.why_none()
        if self.why is not None:
            warn(f"no tiling: {self.why}")

    def entries(self) -> Iterator[tuple[int, Instance]]:
        yield 0, self.inst

    def problem(self) -> Problem:
        return self.inst.problem()

    def show(self, k: int, inst: Instance, labels: Any, j: int,
             cost: int | None = None) -> tuple[dict[str, Any], str]:
        t = inst.decode(labels)
        pieces: dict[str, list[list[int]]] = {}
        for (r, c), tag in sorted(t.cells.items()):
            pieces.setdefault(tag, []).append([r, c])
        record: dict[str, Any] = {"tiling": [{"piece": tag, "cells": cells} for tag, cells in pieces.items()]}
        svg = getattr(self.args, "svg", None)
        text = t.svg() if svg == "-" else t.text(color=self.color)
        text = ("\n" if j else "") + text + "\n"
        if cost is not None:
            record["cost"] = cost
            text += f"cost {cost}\n"
        self.run.picture_file(svg, t.svg)
        return record, text

    def solutions(self, inst: Instance, want: int | None) -> Iterable[Any]:
        args, budget = self.args, self.run.budget
        if self.why is not None:
            return []
        puzzle = inst.puzzle()
        if args.verb == "random":
            return puzzle.random(1 if want is None else want, seed=self.seed, budget=budget,
                                 branching=args.branching, memo_bytes=args.memo_bytes)
        if args.symmetry:
            return puzzle.solutions(want, budget=budget)
        if want == 1:
            first = puzzle.solve(budget=budget)
            return [] if first is None else [first]
        return self._listed(puzzle, want)

    def _listed(self, puzzle: TilingPuzzle, want: int | None) -> Iterator[Any]:
        """`solutions`, its search shown with ``--progress``."""
        solver = puzzle.problem().solver(memory=self.run.memory)
        with progress(self.args, solver):
            yield from solver.solutions(want, budget=self.run.budget)

    def count(self, inst: Instance, limit: int | None) -> Any:
        if self.why is not None:
            return 0
        if self.args.symmetry:
            return inst.puzzle().count(budget=self.run.budget)
        # (The puzzle's count is the front door's; the command line's flags go with it.)
        return count_by_front_door(self.args, self.run, inst.problem(), limit)

    def unique(self, inst: Instance) -> tuple[Any, Uniqueness]:
        if self.why is not None:
            return None, Uniqueness.NONE
        return inst.puzzle().solve_unique(budget=self.run.budget)

    def best(self, inst: Instance, k: int) -> Best:
        if self.why is not None:
            return Best.none(k)
        return inst.puzzle().best(k, budget=self.run.budget)


def _pieces(spec: str) -> dict[str, Shape]:
    """A named set, or a file of pieces: blocks separated by blank lines, each
    a name line, then the picture. Two pieces of one name are an error
    naming both lines (a name says which piece is which in every picture)."""
    if spec in NAMED:
        return dict(getattr(polyomino, NAMED[spec]))
    if spec != "-" and not os.path.exists(spec):
        raise UsageError(f"--pieces: unknown set or file {spec!r}{nearest(spec, NAMED, 'named set')}")
    text, name = read_input(spec)
    blocks = textio.blocks(text)  # (line of the name, its lines)
    pieces: dict[str, Shape] = {}
    where: dict[str, int] = {}
    for lineno, block in blocks:
        piece = block[0].strip(textio.BLANKS)
        if len(block) < 2:
            raise UsageError(f"{name}:{lineno}: piece {piece!r} needs a name line and a picture")
        if piece in where:
            raise UsageError(f"{name}:{lineno}: piece {piece!r} is already named on line {where[piece]}")
        try:
            pieces[piece] = Shape.from_picture("\n".join(block[1:]))
        except ValueError as e:
            raise UsageError(f"{name}:{lineno}: piece {piece!r}: {e}") from None
        where[piece] = lineno
    if not pieces:
        raise UsageError(f"{name}: no pieces")
    return pieces



def _board_size(args: argparse.Namespace) -> tuple[int, int] | None:
    """(rows, cols) of --board (or its default), None with --board-file."""
    if args.board_file:
        return None
    spec = args.board or "6x10"
    parts = spec.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UsageError(f"--board must look like 6x10, not {spec!r}")
    rows, cols = int(parts[0]), int(parts[1])
    if rows < 1 or cols < 1:
        raise UsageError(f"--board {spec}: no cell")
    return rows, cols



def _board(args: argparse.Namespace) -> Board:
    size = _board_size(args)
    if size is None:
        text, name = read_input(args.board_file)
        try:
            return Board.from_picture(text)
        except ValueError as e:
            raise UsageError(place(name, str(e))) from None
    return Board.rectangle(*size)




def _costs(specs: list[str], pieces: dict[str, Shape]) -> dict[str, int]:
    """--cost PIECE=N, each piece once, N a whole number."""
    costs: dict[str, int] = {}
    for spec in specs:
        name, eq, number = spec.rpartition("=")
        if not eq or not name:
            raise UsageError(f"--cost {spec!r}: write PIECE=N")
        if name not in pieces:
            raise UsageError(f"--cost {spec!r}: no piece {name!r} in the set ({', '.join(pieces)})")
        if name in costs:
            raise UsageError(f"--cost: piece {name!r} given twice")
        if not number.isdigit() or int(number) >= 2**64:
            raise UsageError(f"--cost {spec!r}: N must be a whole number from 0 to 2**64 - 1")
        costs[name] = int(number)
    return costs
