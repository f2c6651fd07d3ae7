"""``covering tromino`` and ``covering polyomino``: tilings, pictured and counted."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Iterable
from typing import Any

from ..puzzles import polyomino
from ..problem import Problem, Uniqueness
from ..progress import Display
from ..puzzles.polyomino import Board, Shape, Tiling
from .. import textio
from ..counting import Counted
from ..errors import Interrupted, ProblemError
from . import budget
from .common import (
    add_method_flags,
    add_threads_flag,
    check_method_flags,
    threads_from,
    show_progress,
    EXIT_BUDGET,
    EXIT_INTERRUPTED,
    UsageError,
    add_progress_flags,
    non_negative,
    note_fewer,
    progress,
    read_input,
    warn,
    write_dlx,
)

__all__ = ["add_parser", "run_tromino", "run_polyomino"]

#: The named sets, by the name of their attribute in `polyomino` (read when
#: used: the hexominoes are grown on first use).
NAMED = {name: name.upper() for name in ("dominoes", "trominoes", "tetrominoes", "pentominoes", "hexominoes")}


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    t = sub.add_parser("tromino", help="L-tromino tilings of an n x n board (seeds 000 and 004)",
                       description="Tile an N x N board, minus cell K (cells numbered y*N+x), with L-trominoes.")
    t.add_argument("n", type=non_negative, metavar="N")
    t.add_argument("export", nargs="?", choices=["export"],
                   help="write the board's exact cover problem in Knuth's .dlx format instead")
    t.add_argument("--hole", type=non_negative, metavar="K", help="remove cell K = y*N+x")
    t.add_argument("--count", action="store_true", help="print only the number of tilings")
    t.add_argument("--symmetry", action="store_true", help="count tilings up to the board's symmetries")
    add_output_flags(t, "also write the first tiling as SVG to FILE ('-': stdout)")
    add_random_flag(t)
    add_method_flags(t)
    add_threads_flag(t)
    add_color_flag(t)
    add_progress_flags(t)
    t.set_defaults(run=run_tromino)

    p = sub.add_parser("polyomino", help="tile a board with polyominoes",
                       description="Tile a board with a set of polyominoes; print the first tiling and "
                       "the count.")
    p.add_argument("export", nargs="?", choices=["export"],
                   help="write the exact cover problem in Knuth's .dlx format instead of tiling")
    p.add_argument("--pieces", default="pentominoes",
                   help=f"a named set ({', '.join(NAMED)}) or a file of pieces: blocks separated by "
                   "blank lines, a name on the first line, then the picture ('#' cells, '.' gaps)")
    board = p.add_mutually_exclusive_group()
    board.add_argument("--board", metavar="RxC", help="a rectangle of R rows and C columns (default 6x10)")
    board.add_argument("--board-file", metavar="FILE", help="a picture of the board ('.' or space: no cell)")
    p.add_argument("--uses", default="once", help="how often each piece is used: once, any, N or LO:HI")
    p.add_argument("--no-rotations", action="store_true", help="pieces may not be rotated")
    p.add_argument("--no-reflections", action="store_true", help="pieces may not be turned over")
    p.add_argument("--symmetry", action="store_true", help="count tilings up to the board's symmetries")
    p.add_argument("--count", action="store_true", help="print only the number of tilings")
    p.add_argument("--limit", type=non_negative, metavar="N", help="print the first N tilings (and no count)")
    p.add_argument("--cost", action="append", metavar="PIECE=N", default=[],
                   help="each placement of PIECE costs N (repeat for more pieces; others cost 0): for --min-cost, "
                   "and written by export as DLX5's '|N'")
    p.add_argument("--min-cost", action="store_true",
                   help="the cheapest tiling by --cost, then a line 'cost N' (with --limit K: the K cheapest)")
    add_output_flags(p, "also write the first tiling as SVG to FILE ('-': stdout)")
    add_random_flag(p)
    add_method_flags(p)
    add_threads_flag(p)
    add_color_flag(p)
    add_progress_flags(p)
    p.set_defaults(run=run_polyomino)


def _no_export_flags(args: argparse.Namespace) -> None:
    for flag in ("count", "symmetry", "random", "limit", "svg", "json", "unique", "method", "branching", "memo_bytes",
                 "threads"):
        if getattr(args, flag, None) not in (None, False):
            raise UsageError(f"export and --{flag.replace('_', '-')} cannot go together (export writes the problem)")


def _check_count_flags(args: argparse.Namespace) -> None:
    """The flags of the count (--method, --branching, --memo-bytes, --threads)
    against the others; --random draws from the memo's diagram, so it takes
    --branching and --memo-bytes but not --method or --threads."""
    if args.random is not None:
        for flag, value in (("--method", args.method), ("--threads", args.threads)):
            if value is not None:
                raise UsageError(f"--random and {flag} cannot go together (--random draws from the memo's diagram)")
    check_method_flags(args, not_with={"--symmetry": args.symmetry and args.method != "search",
                                        "--limit": getattr(args, "limit", None) is not None})


def add_random_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--random", type=non_negative, metavar="SEED",
                        help="show a tiling drawn uniformly at random from all of them (the same for the same "
                        "SEED), then the count")


def _random_tiling(args: argparse.Namespace, problem: Problem) -> tuple[list[Any] | None, int]:
    """A tiling drawn uniformly at random (None if there is none) and the
    number of tilings, both from the diagram of all of them (`covering.zdd`)."""
    for flag, value in (("--symmetry", args.symmetry), ("--count", args.count),
                        ("--limit", getattr(args, "limit", None) is not None)):
        if value:
            raise UsageError(f"--random and {flag} cannot go together (--random draws one tiling of them all)")
    from ..counting import memo_rule

    zdd = problem.to_zdd(branching=args.branching or memo_rule(problem, args.memo_bytes),
                         memo_bytes=args.memo_bytes)
    return zdd.random_solution(args.random), zdd.count()


def add_color_flag(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--color", dest="color", action="store_true", default=None,
                       help="colour the pictures (default: when stdout is a terminal)")
    group.add_argument("--no-color", dest="color", action="store_false", help="plain text pictures")


def _color(args: argparse.Namespace) -> bool:
    return bool(args.color) if args.color is not None else sys.stdout.isatty()


def run_tromino(args: argparse.Namespace) -> int:
    n = args.n
    if n < 2:
        raise UsageError(f"N must be at least 2, not {n}")
    _check_flags(args)
    if args.hole is not None and args.hole >= n * n:
        raise UsageError(f"--hole {args.hole}: the cells of a {n} x {n} board are 0 to {n * n - 1}")
    if args.export:
        _no_export_flags(args)
        return write_dlx(polyomino.l_tromino(n, args.hole))
    cells = n * n - (args.hole is not None)
    if cells % 3:
        # Answered from the area, before anything is built (N = 100000 too).
        return _no_tiling(args, f"{cells} cells are not a multiple of 3")
    out = _Output(args)
    if args.symmetry:
        holes = [] if args.hole is None else [divmod(args.hole, n)]
        board = Board.rectangle(n, n, holes=holes)
        pieces = {"L": polyomino.TROMINOES["L"]}
        if not args.count:
            classes = list(polyomino.tilings(pieces, board, uses="any", symmetry=True, limit=2 if args.unique else 1))
            out.tilings([Tiling.of(t) for t in classes[:1]])
            if args.unique:
                return out.uniqueness(len(classes))
        return out.count(polyomino.count_tilings(pieces, board, uses="any", symmetry=True))
    problem = polyomino.l_tromino(n, args.hole)
    if args.random is not None:
        drawn, count = _random_tiling(args, problem)
        out.tilings([] if drawn is None else [Tiling.of_tromino(n, drawn)])
        return out.count(count)
    if not args.count:
        # The first tiling by the portfolio (as `dlx --first`); two for --unique.
        first = None if args.unique else problem.first()
        found = list(problem.solutions(2)) if args.unique else [] if first is None else [first]
        out.tilings([Tiling.of_tromino(n, t) for t in found[:1]])
        if args.unique:
            return out.uniqueness(len(found))
    return out.count(*count_by_front_door(args, problem))


class _Output:
    """What the tiling commands print: tilings (pictures, or JSON lines with
    --json; the first also as SVG with --svg FILE), then the count or the
    uniqueness on the last line (with --json, an object with "count" or
    "uniqueness", and how the count was made)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.shown = 0
        self.start = time.monotonic()

    def tilings(self, found: list[Tiling]) -> None:
        for t in found:
            self.tiling(t)
        if not found and not self.args.json:
            print("no tiling")

    def tiling(self, t: Tiling, cost: int | None = None) -> None:
        if self.args.json:
            pieces: dict[str, list[list[int]]] = {}
            for (r, c), tag in sorted(t.cells.items()):
                pieces.setdefault(tag, []).append([r, c])
            line: dict[str, object] = {"tiling": [{"piece": tag, "cells": cells} for tag, cells in pieces.items()]}
            if cost is not None:
                line["cost"] = cost
            print(json.dumps(line))
        else:
            if self.shown:
                print()
            print(t.text(color=_color(self.args)))
            if cost is not None:
                print(f"cost {cost}")
        if self.shown == 0 and self.args.svg:
            _write_svg(self.args.svg, t.svg())
        self.shown += 1

    def count(self, n: int, counted: Counted | None = None) -> int:
        if self.args.json:
            summary: dict[str, object] = {"count": n, "seconds": round(time.monotonic() - self.start, 6)}
            if counted is not None:
                summary["method"] = counted.method
                if counted.branching is not None:
                    summary["branching"] = counted.branching
                summary.update(item_order=counted.item_order, width=counted.width, reason=counted.reason)
            print(json.dumps(summary))
        else:
            print(n)
        return 0

    def uniqueness(self, found: int) -> int:
        word = Uniqueness.of(found).value
        print(json.dumps({"uniqueness": word, "seconds": round(time.monotonic() - self.start, 6)})
              if self.args.json else word)
        return 0


def _write_svg(path: str, svg: str) -> None:
    """SVG to FILE, or to stdout for '-'."""
    if path == "-":
        sys.stdout.write(svg + "\n")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)


def add_output_flags(parser: argparse.ArgumentParser, svg_help: str) -> None:
    """--unique, --json and --svg FILE, the output flags every puzzle command shares."""
    parser.add_argument("--unique", action="store_true",
                        help="the first tiling, then a line 'unique', 'multiple' or 'none' (no count)")
    parser.add_argument("--json", action="store_true",
                        help='one JSON object a line: {"tiling": [{"piece": ..., "cells": [[row, col], ...]}]} '
                        'each (0-based, as in Python), then {"count": ...} or {"uniqueness": ...}')
    parser.add_argument("--svg", metavar="FILE", help=svg_help)


def _check_flags(args: argparse.Namespace) -> None:
    """Flags that cannot go together, named both."""
    if args.unique:
        for flag, value in (("--count", args.count), ("--random", args.random is not None),
                            ("--limit", getattr(args, "limit", None) is not None),
                            ("--method", args.method is not None), ("--branching", args.branching is not None),
                            ("--threads", args.threads is not None), ("--memo-bytes", args.memo_bytes is not None)):
            if value:
                raise UsageError(f"--unique and {flag} cannot go together (--unique searches for two tilings)")
    if args.count and args.svg:
        raise UsageError("--count and --svg cannot go together (--count draws no tiling)")
    if args.json and args.svg == "-":
        raise UsageError("--json and --svg - cannot go together (both would write to stdout)")
    _check_count_flags(args)


def count_by_front_door(args: argparse.Namespace, problem: Problem) -> tuple[int, Counted]:
    """The count by `covering.counting` (the memo where tilings share
    sub-problems, else the search on every core, with its progress line);
    Ctrl-C gives the partial count (`Interrupted`, handled by the CLI)."""
    from ..counting import count

    with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
        try:
            counted = count(problem, method=args.method or "auto", branching=args.branching,
                            memo_bytes=args.memo_bytes, threads=threads_from(args) if args.threads else None,
                            progress=draw, item_order=args.item_order)
            return counted.count, counted
        except ProblemError as e:
            raise UsageError(f"--method memo: {e}") from None


def _no_tiling(args: argparse.Namespace, why: str) -> int:
    """The answer when the areas alone rule out every tiling: what the
    command prints for no tiling, and why on stderr."""
    warn(f"no tiling: {why}")
    out = _Output(args)
    if not args.count:
        out.tilings([])
    return out.uniqueness(0) if args.unique else out.count(0)


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
            raise UsageError(f"{name}: {e}") from None
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


def run_polyomino(args: argparse.Namespace) -> int:
    _check_flags(args)
    pieces = _pieces(args.pieces)
    uses = _uses(args.uses)
    size = _board_size(args)
    options = dict(uses=uses, rotations=not args.no_rotations, reflections=not args.no_reflections)
    costs = _costs(args.cost, pieces)
    if args.export:
        _no_export_flags(args)
        return write_dlx(polyomino.tiling(pieces, _board(args), costs=costs, **options))  # type: ignore[arg-type]
    if args.min_cost:
        return _cheapest(args, pieces, costs, options)
    if costs:
        raise UsageError("--cost needs --min-cost or export")
    # Said from the areas before anything is built (a huge board included).
    board_or_area: Board | int = size[0] * size[1] if size else _board(args)
    why = polyomino.area_mismatch(pieces, board_or_area, uses)
    if why is not None:
        return _no_tiling(args, why)
    board = board_or_area if isinstance(board_or_area, Board) else _board(args)
    out = _Output(args)
    if args.random is not None:
        drawn, count = _random_tiling(args, polyomino.tiling(pieces, board, **options))  # type: ignore[arg-type]
        out.tilings([] if drawn is None else [Tiling.of(drawn)])
        return out.count(count)
    want = 2 if args.unique else 1 if args.limit is None else args.limit
    try:
        if args.symmetry:
            # One tiling per class: the problem breaks what it can, the rest is filtered.
            if not args.count:
                found = polyomino.tilings(pieces, board, symmetry=True, limit=want, **options)  # type: ignore[arg-type]
                if _show(args, out, found):
                    return 0
            return out.count(polyomino.count_tilings(pieces, board, symmetry=True, **options))  # type: ignore[arg-type]
        if not args.count and want == 1:
            # The first tiling by the portfolio (as `dlx --first`), band by band on a tall board.
            first = polyomino.first_tiling(pieces, board, **options)  # type: ignore[arg-type]
            if _show(args, out, [] if first is None else [first]):
                return 0
        problem = polyomino.tiling(pieces, board, **options)  # type: ignore[arg-type]
        if not args.count and want != 1:
            solver = problem.solver()
            with progress(args, solver):
                if _show(args, out, solver.solutions(want)):
                    return 0
        return out.count(*count_by_front_door(args, problem))
    except Interrupted:
        raise  # a count cut short: the partial count (printed by the command line)
    except KeyboardInterrupt:
        budget.disarm()
        if budget.spent() is not None:
            print(f"covering: budget: {budget.spent()} spent after {out.shown} tilings shown", file=sys.stderr)
            return EXIT_BUDGET
        print(f"covering: interrupted after {out.shown} tilings shown", file=sys.stderr)
        return EXIT_INTERRUPTED


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


def _cheapest(args: argparse.Namespace, pieces: dict[str, Shape], costs: dict[str, int],
              options: dict[str, Any]) -> int:
    """--min-cost: the --limit K (default 1) cheapest tilings, each with a
    line 'cost N' (--json: "cost" in its object), cheapest first."""
    for flag, value in (("--count", args.count), ("--unique", args.unique), ("--symmetry", args.symmetry),
                        ("--random", args.random is not None), ("--method", args.method is not None),
                        ("--branching", args.branching is not None), ("--threads", args.threads is not None),
                        ("--memo-bytes", args.memo_bytes is not None)):
        if value:
            raise UsageError(f"--min-cost and {flag} cannot go together")
    k = 1 if args.limit is None else args.limit
    if k < 1:
        raise UsageError("--min-cost: --limit must be at least 1")
    board = _board(args)
    why = polyomino.area_mismatch(pieces, board, options["uses"])
    if why is not None:
        return _no_tiling(args, why)
    out = _Output(args)
    try:
        found = polyomino.cheapest_tilings(pieces, board, costs, k, seconds=budget.left(),
                                           **options)
        interrupted = False
    except Interrupted as e:
        found, interrupted = e.best, True  # type: ignore[attr-defined]
    budget.disarm()
    if not interrupted and not found.optimal:
        budget.limit_reached()
        interrupted = True
    for solution in found:
        out.tiling(Tiling.of(solution.labels), cost=solution.cost)
    if not found and not args.json:
        print("no tiling")
    if args.json:
        print(json.dumps({"count": len(found), "optimal": found.optimal,
                          "seconds": round(time.monotonic() - out.start, 6)}))
    if found.all_there_are:
        note_fewer(len(found), k, f"--limit {k}", "tilings")
    if interrupted:
        spent = budget.spent()
        word = "interrupted" if spent is None else f"budget: {spent} spent"
        print(f"covering: {word}: {len(found)} tilings shown, not proven the cheapest", file=sys.stderr)
        return EXIT_INTERRUPTED if spent is None else EXIT_BUDGET
    return 0


def _show(args: argparse.Namespace, out: _Output, found: Iterable[list[polyomino.Label]]) -> bool:
    """Shows the tilings found (the first, --limit N of them, or two with
    --unique, then the word); True when that is all the command prints."""
    tilings = [Tiling.of(labels) for labels in found]
    out.tilings(tilings[:1] if args.unique else tilings)
    if args.unique:
        out.uniqueness(len(tilings))
    return args.unique or args.limit is not None
