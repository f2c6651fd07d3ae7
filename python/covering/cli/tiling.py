"""``covering tromino`` and ``covering polyomino``: tilings, pictured and counted."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from ..puzzles import polyomino
from ..problem import Problem
from ..progress import Display
from ..puzzles.polyomino import Board, Shape, Tiling
from .. import textio
from .common import (
    show_progress,
    EXIT_INTERRUPTED,
    UsageError,
    add_progress_flags,
    non_negative,
    progress,
    read_input,
    warn,
    write_dlx,
)

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
    add_random_flag(t)
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
    p.add_argument("--limit", type=non_negative, metavar="N", help="print the first N tilings, then the count of those")
    p.add_argument("--svg", metavar="FILE", help="also write the first tiling as SVG")
    add_random_flag(p)
    add_color_flag(p)
    add_progress_flags(p)
    p.set_defaults(run=run_polyomino)


def _no_export_flags(args: argparse.Namespace) -> None:
    for flag in ("count", "symmetry", "random", "limit", "svg"):
        if getattr(args, flag, None) not in (None, False):
            raise UsageError(f"export writes the problem: not with --{flag}")


def add_random_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--random", type=non_negative, metavar="SEED",
                        help="show a tiling drawn uniformly at random from all of them (the same for the same "
                        "SEED), then the count")


def _random_tiling(args: argparse.Namespace, problem: Problem) -> tuple[list[Any] | None, int]:
    """A tiling drawn uniformly at random (None if there is none) and the
    number of tilings, both from the diagram of all of them (`covering.zdd`)."""
    if args.symmetry or args.count or getattr(args, "limit", None) is not None:
        raise UsageError("--random draws one tiling of them all: not with --symmetry, --count or --limit")
    from ..counting import memo_rule

    zdd = problem.to_zdd(branching=memo_rule(problem))
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
    if args.hole is not None and args.hole >= n * n:
        raise UsageError(f"--hole {args.hole}: the cells of a {n} x {n} board are 0 to {n * n - 1}")
    cells = n * n - (args.hole is not None)
    if cells % 3:
        # Answered from the area, before anything is built (N = 100000 too).
        return _no_tiling(args, f"{cells} cells are not a multiple of 3")
    if args.export:
        _no_export_flags(args)
        return write_dlx(polyomino.l_tromino(n, args.hole))
    if args.symmetry:
        holes = [] if args.hole is None else [divmod(args.hole, n)]
        board = Board.rectangle(n, n, holes=holes)
        pieces = {"L": polyomino.TROMINOES["L"]}
        if not args.count:
            first = next(polyomino.tilings(pieces, board, uses="any", symmetry=True, limit=1), None)
            print("no tiling" if first is None else Tiling.of(first).text(color=_color(args)))
        print(polyomino.count_tilings(pieces, board, uses="any", symmetry=True))
        return 0
    problem = polyomino.l_tromino(n, args.hole)
    if args.random is not None:
        drawn, count = _random_tiling(args, problem)
        print("no tiling" if drawn is None else Tiling.of_tromino(n, drawn).text(color=_color(args)))
        print(count)
        return 0
    if not args.count:
        first = problem.first()
        print("no tiling" if first is None else Tiling.of_tromino(n, first).text(color=_color(args)))
    print(count_by_front_door(args, problem))
    return 0


def count_by_front_door(args: argparse.Namespace, problem: Problem) -> int:
    """The count by `covering.counting` (the memo where tilings share
    sub-problems, else the search on every core, with its progress line);
    Ctrl-C gives the partial count (`Interrupted`, handled by the CLI)."""
    from ..counting import count

    with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
        return count(problem, progress=draw).count


def _no_tiling(args: argparse.Namespace, why: str) -> int:
    """The answer when the areas alone rule out every tiling: what the
    command prints for no tiling, and why on stderr."""
    warn(f"no tiling: {why}")
    if not args.count:
        print("no tiling")
    print(0)
    return 0


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
    if args.count and args.svg:
        raise UsageError("--count and --svg cannot go together (--count draws no tiling)")
    pieces = _pieces(args.pieces)
    uses = _uses(args.uses)
    size = _board_size(args)
    # Said from the areas before anything is built (a huge board included).
    board_or_area: Board | int = size[0] * size[1] if size else _board(args)
    why = polyomino.area_mismatch(pieces, board_or_area, uses)
    if why is not None:
        return _no_tiling(args, why)
    board = board_or_area if isinstance(board_or_area, Board) else _board(args)
    options = dict(uses=uses, rotations=not args.no_rotations, reflections=not args.no_reflections)
    if args.export:
        _no_export_flags(args)
        return write_dlx(polyomino.tiling(pieces, board, **options))  # type: ignore[arg-type]
    shown = 0
    if args.random is not None:
        drawn, count = _random_tiling(args, polyomino.tiling(pieces, board, **options))  # type: ignore[arg-type]
        if drawn is None:
            print("no tiling")
        else:
            _show(args, drawn, 0)
        print(count)
        return 0
    try:
        if args.symmetry:
            # One tiling per class: the problem breaks what it can, the rest is filtered.
            if args.count:
                print(polyomino.count_tilings(pieces, board, symmetry=True, **options))  # type: ignore[arg-type]
                return 0
            want = 1 if args.limit is None else args.limit
            for labels in polyomino.tilings(pieces, board, symmetry=True, limit=want, **options):  # type: ignore[arg-type]
                shown = _show(args, labels, shown)
            if shown == 0:
                print("no tiling")
            if args.limit is None:
                print(polyomino.count_tilings(pieces, board, symmetry=True, **options))  # type: ignore[arg-type]
            return 0
        problem = polyomino.tiling(pieces, board, **options)  # type: ignore[arg-type]
        if args.count:
            print(count_by_front_door(args, problem))
            return 0
        solver = problem.solver()
        with progress(args, solver):
            want = 1 if args.limit is None else args.limit
            for labels in solver.solutions(want):
                shown = _show(args, labels, shown)
            if shown == 0:
                print("no tiling")
        if args.limit is None:
            print(count_by_front_door(args, problem))
    except KeyboardInterrupt:
        print(f"covering: interrupted after {shown} tilings shown", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _show(args: argparse.Namespace, labels: list[polyomino.Label], shown: int) -> int:
    t = Tiling.of(labels)
    if shown:
        print()
    print(t.text(color=_color(args)))
    if shown == 0 and args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(t.svg())
    return shown + 1
