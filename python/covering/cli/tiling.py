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
import contextlib
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..limits import Budget
from .. import textio
from ..errors import ProblemError
from ..problem import Problem, Uniqueness
from ..progress import Display
from ..puzzles import polyomino
from ..puzzles.polyomino import Board, Shape, Tiling
from . import budget, flags
from .common import (
    UsageError,
    check_method_flags,
    place,
    progress,
    read_input,
    report_count,
    show_progress,
    threads_from,
    warn,
    write_dlx,
)
from .contract import Run
from .menu import PUZZLES

__all__ = ["add_parser"]

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


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    t = sub.add_parser("tromino", help=PUZZLES["tromino"][1],
                       description="Tile an N x N board, minus cell K (cells numbered y*N+x), with L-trominoes.")
    verbs = t.add_subparsers(dest="verb", metavar="VERB", parser_class=type(t))
    verbs.required = True
    for verb in ("solve", "count", "unique", "random", "export"):
        v = verbs.add_parser(verb, help=HELP[verb], description=f"covering tromino {verb}: {HELP[verb]}.")
        v.add_argument("n", type=flags.non_negative, metavar="N")
        v.add_argument("--hole", type=flags.non_negative, metavar="K", help="remove cell K = y*N+x")
        _verb_flags(v, verb)
        v.set_defaults(make=_tromino)
    p = sub.add_parser("polyomino", help=PUZZLES["polyomino"][1],
                       description="Tile a board with a set of polyominoes.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=type(p))
    verbs.required = True
    for verb in ("solve", "count", "unique", "best", "random", "export"):
        v = verbs.add_parser(verb, help=HELP[verb], description=f"covering polyomino {verb}: {HELP[verb]}.")
        v.add_argument("--pieces", default="pentominoes",
                       help=f"a named set ({', '.join(NAMED)}) or a file of pieces: blocks separated by "
                       "blank lines, a name on the first line, then the picture ('#' cells, '.' gaps)")
        board = v.add_mutually_exclusive_group()
        board.add_argument("--board", metavar="RxC", help="a rectangle of R rows and C columns (default 6x10)")
        board.add_argument("--board-file", metavar="FILE", help="a picture of the board ('.' or space: no cell)")
        v.add_argument("--uses", default="once", help="how often each piece is used: once, any, N or LO:HI")
        v.add_argument("--no-rotations", action="store_true", help="pieces may not be rotated")
        v.add_argument("--no-reflections", action="store_true", help="pieces may not be turned over")
        if verb in ("best", "export"):
            v.add_argument("--cost", action="append", metavar="PIECE=N", default=[],
                           help="each placement of PIECE costs N (repeat for more pieces; others cost 0)"
                           + ("; written as DLX5's '|N'" if verb == "export" else ""))
        _verb_flags(v, verb)
        v.set_defaults(make=_polyomino)


def _verb_flags(v: argparse.ArgumentParser, verb: str) -> None:
    """The flags of `verb`, the same for both commands."""
    if verb in ("solve", "count", "unique"):
        v.add_argument("--symmetry", action="store_true", help="tilings up to the board's symmetries")
    if verb == "export":
        flags.add_output(v, '{"dlx": text}')
        flags.add_budgets(v, searches=False)
        v.set_defaults(run=run_export, counts=False, noun="problems")
        return
    flags.add_output(v, flags.SUMMARY_ONLY if verb == "count" else PAYLOAD + (', "cost"' if verb == "best" else ""),
                     None if verb == "count" else "tilings as SVG pictures")
    if verb in ("solve", "random"):
        flags.add_limit(v, "up to N tilings", every="every tiling" if verb == "solve" else None)
    elif verb == "count":
        flags.add_limit(v, "stop counting at N")
    elif verb == "best":
        flags.add_limit(v, "the K cheapest (default 1)")
    if verb == "random":
        flags.add_seed(v)
    if verb in ("count", "random"):
        flags.add_method(v, search=verb == "count")
    if verb == "count":
        flags.add_threads(v)
    if verb != "count":
        flags.add_color(v)
    flags.add_budgets(v)
    v.set_defaults(run=RUNNERS[verb], counts=verb == "count", noun="tilings")


@dataclass
class Instance:
    """The tiling asked: pieces, board (built when first needed), how the
    pieces may be used, and how its solutions are pictured."""

    pieces: dict[str, Shape]
    size: tuple[int, int] | None
    make_board: Callable[[], Board]
    options: dict[str, Any]
    costs: dict[str, int] = field(default_factory=dict)
    #: N and the hole, for the L-tromino board (its own fast problem).
    tromino: tuple[int, int | None] | None = None
    _board: Board | None = None
    _problem: Problem | None = None

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
        return polyomino.area_mismatch(self.pieces, area, self.options["uses"])

    def problem(self) -> Problem:
        if self._problem is None:
            if self.tromino is not None:
                self._problem = polyomino.l_tromino(*self.tromino)
            else:
                self._problem = polyomino.tiling(self.pieces, self.board(), costs=self.costs or None,
                                                 **self.options)
        return self._problem

    def decode(self, labels: Any) -> Tiling:
        if self.tromino is not None and labels and not isinstance(labels[0][0], str):
            return Tiling.of_tromino(self.tromino[0], labels)
        return Tiling.of(labels)

    def first(self, budget: Budget | None) -> Any:
        """The first tiling by the portfolio (band by band on a tall board)."""
        if self.tromino is not None:
            return self.problem().first(budget=budget)
        return polyomino.first_tiling(self.pieces, self.board(), budget=budget, **self.options)

    def classes(self, limit: int | None, budget: Budget | None) -> Iterator[Any]:
        """One tiling per class of the board's symmetries."""
        return polyomino.tilings(self.pieces, self.board(), symmetry=True, limit=limit, budget=budget,
                                 **self.options)

    def count_classes(self, budget: Budget | None) -> int:
        return polyomino.count_tilings(self.pieces, self.board(), symmetry=True, budget=budget,
                                       **self.options)


def _tromino(args: argparse.Namespace) -> Instance:
    n = args.n
    if n < 2:
        raise UsageError(f"N must be at least 2, not {n}")
    if args.hole is not None and args.hole >= n * n:
        raise UsageError(f"--hole {args.hole}: the cells of a {n} x {n} board are 0 to {n * n - 1}")
    holes = [] if args.hole is None else [divmod(args.hole, n)]
    return Instance({"L": polyomino.TROMINOES["L"]}, (n, n), lambda: Board.rectangle(n, n, holes=holes),
                    dict(uses="any", rotations=True, reflections=True), tromino=(n, args.hole))


def _polyomino(args: argparse.Namespace) -> Instance:
    pieces = _pieces(args.pieces)
    options = dict(uses=_uses(args.uses), rotations=not args.no_rotations, reflections=not args.no_reflections)
    costs = _costs(getattr(args, "cost", []), pieces)
    return Instance(pieces, _board_size(args), lambda: _board(args), options, costs)


class _Pictures:
    """Tilings as the commands print them: text pictures a blank line
    apart, SVG pictures (``--svg`` or ``--svg -``), or JSON lines; with
    ``--svg FILE`` the first one also into FILE."""

    def __init__(self, args: argparse.Namespace, run: Run, inst: Instance) -> None:
        self.args, self.run, self.inst = args, run, inst
        self.color = bool(args.color) if getattr(args, "color", None) is not None else sys.stdout.isatty()

    def show(self, labels: Any, cost: int | None = None) -> None:
        t = self.inst.decode(labels)
        pieces: dict[str, list[list[int]]] = {}
        for (r, c), tag in sorted(t.cells.items()):
            pieces.setdefault(tag, []).append([r, c])
        record: dict[str, Any] = {"tiling": [{"piece": tag, "cells": cells} for tag, cells in pieces.items()]}
        svg = getattr(self.args, "svg", None)
        text = t.svg() if svg == "-" else t.text(color=self.color)
        text = ("\n" if self.run.count else "") + text + "\n"
        if cost is not None:
            record["cost"] = cost
            text += f"cost {cost}\n"
        self.run.picture_file(svg, t.svg)
        self.run.answer(record, text)

    def none(self) -> None:
        """Says there is no tiling (`Run.no_solution`)."""
        if not self.run.count:
            self.run.no_solution()


def _no_tiling(run: Run, pictures: _Pictures, why: str, verb: str) -> None:
    """The answer when the areas alone rule out every tiling."""
    warn(f"no tiling: {why}")
    if verb == "count":
        run.counted(0)
    elif verb == "unique":
        run.uniqueness(Uniqueness.NONE.value)  # (`unique` says "none" alone)
    else:
        pictures.none()
    run.done(limited=False)


def _start(args: argparse.Namespace, run: Run, verb: str) -> tuple[Instance, _Pictures, bool]:
    """The instance and its printer; False when the areas answered already."""
    inst = args.make(args)
    pictures = _Pictures(args, run, inst)
    why = inst.why_none()
    if why is not None:
        _no_tiling(run, pictures, why, verb)
        return inst, pictures, False
    return inst, pictures, True


def run_solve(args: argparse.Namespace, run: Run) -> None:
    run.limit = want = flags.wanted(args)
    inst, pictures, go = _start(args, run, "solve")
    if not go:
        return
    if args.symmetry:
        found: Iterable[Any] = inst.classes(want, run.budget)
    elif want == 1:
        first = inst.first(run.budget)
        found = [] if first is None else [first]
    else:
        solver = inst.problem().solver()
        with progress(args, solver):
            for labels in solver.solutions(want, budget=run.budget):
                pictures.show(labels)
        found = []
    for labels in found:
        pictures.show(labels)
    if run.count == 0:
        pictures.none()
    run.done()


def run_unique(args: argparse.Namespace, run: Run) -> None:
    inst, pictures, go = _start(args, run, "unique")
    if not go:
        return
    two = list(inst.classes(2, run.budget)) if args.symmetry else list(inst.problem().solutions(2, budget=run.budget))
    for labels in two[:1]:
        pictures.show(labels)
    run.uniqueness(Uniqueness.of(len(two)).value)
    run.done(limited=False)


def run_count(args: argparse.Namespace, run: Run) -> None:
    run.limit = args.limit
    if args.symmetry:
        for flag, value in (("--limit", args.limit is not None), ("--threads", args.threads is not None)):
            if value:
                raise UsageError(f"--symmetry and {flag} cannot go together")
    check_method_flags(args, not_with={"--symmetry": args.symmetry and args.method not in (None, "search")})
    inst, _, go = _start(args, run, "count")
    if not go:
        return
    if args.symmetry:
        run.counted(inst.count_classes(run.budget))
        run.done(limited=False)
        return
    from ..counting import count

    if args.method not in (None, "auto"):
        run.extra["method"] = args.method
    with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
        try:
            counted = count(inst.problem(), args.limit, method=args.method or "auto", branching=args.branching,
                            memo_bytes=args.memo_bytes, threads=threads_from(args) if args.threads else None,
                            progress=draw, item_order=args.item_order, budget=run.budget)
        except ProblemError as e:
            raise UsageError(f"--method {args.method}: {e}") from None
    report_count(run, counted, args.limit)


def run_random(args: argparse.Namespace, run: Run) -> None:
    """Tilings drawn uniformly at random from the diagram of all of them
    (`covering.zdd`): --limit N gives N different ones (all, in a random
    order, when there are no more than N)."""
    if args.method not in (None, "memo"):
        raise UsageError(f"random and --method {args.method} cannot go together (tilings are drawn from the "
                         "memo's diagram)")
    run.limit = want = flags.asked(args)
    seed = flags.seed_for(args, "draws these again")
    inst, pictures, go = _start(args, run, "random")
    if not go:
        return
    from ..counting import memo_rule

    problem = inst.problem()
    zdd = problem.to_zdd(branching=args.branching or memo_rule(problem, args.memo_bytes), memo_bytes=args.memo_bytes,
                         budget=run.budget)
    total = zdd.count()
    rng = random.Random(seed)
    if want == 1:
        one = zdd.random_solution(seed)
        drawn: Iterable[Any] = [] if one is None else [one]
    elif total <= max(2 * want, 64):
        every = list(zdd.solutions())
        rng.shuffle(every)
        drawn = every[:want]
    else:
        drawn = _distinct(lambda: zdd.random_solution(rng.randrange(2**63)), want)
    for labels in drawn:
        pictures.show(labels)
    if run.count == 0:
        pictures.none()
    run.done()


def _distinct(draw: Callable[[], Any], want: int) -> Iterator[Any]:
    """`want` different draws (the pool holds more than twice as many)."""
    seen: set[Any] = set()
    while len(seen) < want:
        labels = draw()
        key = tuple(sorted(map(repr, labels)))
        if key not in seen:
            seen.add(key)
            yield labels


def run_best(args: argparse.Namespace, run: Run) -> None:
    """The --limit K (default 1) cheapest tilings, each with a line 'cost N'."""
    k = 1 if args.limit is None else args.limit
    if k < 1:
        raise UsageError("--limit must be at least 1 (the K cheapest)")
    run.limit = k
    inst, pictures, go = _start(args, run, "best")
    if not go:
        return
    from ..errors import Interrupted

    interrupted = False
    try:
        found = polyomino.cheapest_tilings(inst.pieces, inst.board(), inst.costs, k, budget=run.budget,
                                           **inst.options)
    except Interrupted as e:
        found, interrupted = e.best, True  # type: ignore[attr-defined]
    if not interrupted and not found.optimal:
        run.limit_reached()
    run.disarm()
    for solution in found:
        pictures.show(solution.labels, cost=solution.cost)
    if not found:
        pictures.none()
    run.extra.update(optimal=found.optimal, nodes=found.stats.nodes)
    if interrupted or not found.optimal:
        run.noun = "tilings shown (not proven the cheapest)"
        raise KeyboardInterrupt
    run.done(limited=not found.all_there_are)


def run_export(args: argparse.Namespace, run: Run) -> None:
    write_dlx(args.make(args).problem(), run)


RUNNERS: dict[str, Callable[[argparse.Namespace, Run], None]] = {
    "solve": run_solve, "count": run_count, "unique": run_unique, "random": run_random, "best": run_best,
}


def _pieces(spec: str) -> dict[str, Shape]:
    """A named set, or a file of pieces: blocks separated by blank lines, each
    a name line, then the picture. Two pieces of one name are an error
    naming both lines (a name says which piece is which in every picture)."""
    if spec in NAMED:
        return dict(getattr(polyomino, NAMED[spec]))
    text, name = read_input(spec)
    lines = textio.lines(text)
    blocks: list[tuple[int, list[str]]] = []  # (line of the name, its lines)
    after_blank = True
    for lineno, line in enumerate(lines, 1):
        if textio.is_blank(line):
            after_blank = True
            continue
        if after_blank:
            blocks.append((lineno, []))
            after_blank = False
        blocks[-1][1].append(line)
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



def _uses(spec: str) -> polyomino.Uses:
    if spec in ("once", "any"):
        return spec  # type: ignore[return-value]
    try:
        if ":" in spec:
            lo, hi = (int(x) for x in spec.split(":"))
            return (lo, hi)
        return int(spec)
    except ValueError:
        raise UsageError(f"--uses must be once, any, N or LO:HI, not {spec!r}") from None



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
