"""``covering sudoku``: solve, count and generate puzzles, one a line."""

from __future__ import annotations

import argparse
import json
import math
import sys

from .. import textio
from ..errors import Interrupted, ProblemError
from ..puzzles import sudoku
from .common import (
    UsageError,
    add_threads_flag,
    interrupted,
    non_negative,
    note_capped,
    positive,
    read_input,
    threads_from,
    write_dlx,
)

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("sudoku", help="solve, count and generate sudokus",
                       description="Sudoku on the exact cover engine, any size n^2 x n^2, any symbols.")
    s = p.add_subparsers(dest="action", metavar="ACTION")
    s.required = True
    for name, helptext in (("solve", "solve puzzles, one a line"), ("count", "count the solutions of each puzzle")):
        q = s.add_parser(name, help=helptext,
                         description="One puzzle a line: n^4 characters, '.' (or '0') for a blank; "
                         "prints one line per input line.")
        q.add_argument("file", nargs="?", default="-", help="the puzzles ('-' or nothing: stdin)")
        q.add_argument("--symbols", help="the n symbols (default 1-9 for 9x9, 1-9A-G for 16x16, ...)")
        q.add_argument("--grid", action="store_true", help="the input is one puzzle laid out over lines")
        add_threads_flag(q)
        if name == "solve":
            q.add_argument("--unique", action="store_true",
                           help="prove each solution unique; print 'multiple' when it is not")
            form = q.add_mutually_exclusive_group()
            form.add_argument("--json", action="store_true",
                              help='one JSON object per puzzle: {"line": ..., "solution": ... or null} (and '
                              '"uniqueness" with --unique, "error" for a bad line)')
            form.add_argument("--svg", action="store_true",
                              help="an SVG picture per puzzle instead of lines (givens black, the rest blue), "
                              "a blank line between")
            q.set_defaults(run=run_solve)
        else:
            q.add_argument("--cap", type=positive, default=1000, help="count no further than this (default 1000)")
            q.add_argument("--json", action="store_true",
                           help='one JSON object per puzzle: {"line": ..., "count": ..., "capped": ...}')
            q.set_defaults(run=run_count)
    e = s.add_parser("export", help="write one puzzle's exact cover problem in Knuth's .dlx format",
                     description="The puzzle's exact cover problem (cells, rows, columns and boxes; at a "
                     "given cell only its given), for Knuth's DLX programs or `covering dlx`.")
    e.add_argument("file", nargs="?", default="-", help="one puzzle ('-' or nothing: stdin)")
    e.add_argument("--symbols", help="the n symbols (default 1-9 for 9x9, 1-9A-G for 16x16, ...)")
    e.add_argument("--grid", action="store_true", help="the puzzle is laid out over lines")
    e.set_defaults(run=run_export)
    g = s.add_parser("generate", help="generate puzzles with a unique solution",
                     description="Random grids, then givens removed while the solution stays unique; "
                     "prints one puzzle a line, its givens and difficulty (search nodes) on stderr.")
    g.add_argument("--size", type=positive, default=9, help="cells on a side: 4, 9, 16 or 25 (default 9)")
    g.add_argument("--count", type=positive, default=1, help="how many puzzles (default 1)")
    g.add_argument("--seed", type=non_negative, help="the random seed (default: a random one)")
    g.add_argument("--min-givens", type=non_negative, default=0, help="stop removing givens at this many")
    g.add_argument("--symbols", help="the symbols to write the puzzles with")
    g.set_defaults(run=run_generate)


def _size(text: str, grid: bool) -> int:
    """The size n of the puzzles: from the first line (n^4 cells), or the whole grid."""
    if grid:
        cells = sum(1 for ch in text if ch not in sudoku.LAYOUT + textio.BLANKS + "\n")
    else:
        first = next((line.strip(textio.BLANKS) for line in text.split("\n") if line.strip(textio.BLANKS)), "")
        cells = len(first)
    n = math.isqrt(math.isqrt(cells))
    if n < 2 or n**4 != cells:
        return 9  # wrong lengths are then reported line by line
    return n * n


def _check_symbols(symbols: str, n: int) -> None:
    """--symbols, checked by `sudoku.check_symbols`; a usage error if bad."""
    try:
        sudoku.check_symbols(symbols, n)
    except ProblemError as e:
        raise UsageError(f"--symbols: {e}") from None


def _answer(args: argparse.Namespace, mode: str) -> int:
    text, name = read_input(args.file)
    n = _size(text, args.grid)
    symbols = args.symbols or sudoku.SYMBOLS.get(n)
    if symbols is None:
        raise UsageError(f"no usual symbols for {n} x {n}: give them with --symbols")
    _check_symbols(symbols, n)
    if args.grid:
        try:
            puzzle = sudoku.Sudoku.parse(text, symbols, grid=True)
        except ProblemError as e:
            raise UsageError(f"{name}: {e}") from None
        text = puzzle.line()
    cap = getattr(args, "cap", 1000)
    try:
        outputs, errors = sudoku.solve_text(text, n=n, symbols=symbols, mode=mode, cap=cap, threads=threads_from(args))
    except Interrupted as e:
        # The answers so far; the puzzle under way only as a partial count.
        done: list[str] = e.outputs  # type: ignore[attr-defined]
        sys.stdout.write("".join(line + "\n" for line in done[:-1]))
        _report(name, args.grid, e.errors)  # type: ignore[attr-defined]
        if mode == "count":
            return interrupted(e.count)
        return interrupted(len(done) - 1, "puzzles answered", stdout=False)
    if getattr(args, "json", False) or getattr(args, "svg", False):
        _write_rich(args, mode, cap, text, symbols, outputs, dict(errors))
    elif args.grid and mode != "count" and outputs[0] not in ("no solution", "multiple", "error"):
        given = tuple(v != 0 for v in sudoku.Sudoku.parse(text, symbols).values)
        solved = sudoku.Sudoku.parse(outputs[0], symbols)
        sys.stdout.write(sudoku.Sudoku(n, solved.values, symbols, given).text() + "\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in outputs))
    if mode == "count":
        for k, answer in enumerate(outputs):
            if answer.isdigit():
                note_capped(int(answer), cap, f"--cap {cap}", f"the count of line {1 if args.grid else k + 1}")
    _report(name, args.grid, errors)
    return 2 if errors else 0


def _write_rich(args: argparse.Namespace, mode: str, cap: int, text: str, symbols: str, outputs: list[str],
                errors: dict[int, str]) -> None:
    """--json (an object per puzzle) or --svg (a picture per puzzle) from
    the answers of the batch; blank input lines have none."""
    lines = text.split("\n")
    first = True
    for k, answer in enumerate(outputs):
        if not answer:
            continue
        lineno = 1 if args.grid else k + 1
        if args.json:
            record: dict[str, object] = {"line": lineno}
            if lineno in errors:
                record["error"] = errors[lineno]
            elif mode == "count":
                record["count"] = int(answer)
                record["capped"] = int(answer) >= cap
            else:
                solved = answer not in ("no solution", "multiple")
                record["solution"] = answer if solved else None
                if mode == "unique":
                    record["uniqueness"] = "unique" if solved else "none" if answer == "no solution" else "multiple"
            print(json.dumps(record, ensure_ascii=False))
            continue
        if not first:
            print()
        first = False
        if lineno in errors:
            print(f"<!-- line {lineno}: error -->")
            continue
        puzzle = sudoku.Sudoku.parse(lines[k] if not args.grid else text, symbols, grid=args.grid)
        if answer in ("no solution", "multiple"):
            print(f"<!-- line {lineno}: {answer} -->")
            print(puzzle.svg())
            continue
        given = tuple(v != 0 for v in puzzle.values)
        print(sudoku.Sudoku(puzzle.n, sudoku.Sudoku.parse(answer, symbols).values, symbols, given).svg())


def _report(name: str, grid: bool, errors: list[tuple[int, str]]) -> None:
    for lineno, message in errors:
        where = name if grid else f"{name}:{lineno}"
        print(f"covering: error: {where}: {message}", file=sys.stderr)


def run_export(args: argparse.Namespace) -> int:
    text, name = read_input(args.file)
    lines = [line for line in text.split("\n") if line.strip(textio.BLANKS)]
    if not args.grid and len(lines) != 1:
        raise UsageError(f"{name}: export takes one puzzle, not {len(lines)} lines (--grid: one over lines)")
    n = _size(text, args.grid)
    symbols = args.symbols or sudoku.SYMBOLS.get(n)
    if symbols is None:
        raise UsageError(f"no usual symbols for {n} x {n}: give them with --symbols")
    _check_symbols(symbols, n)
    try:
        puzzle = sudoku.Sudoku.parse(text if args.grid else lines[0], symbols, grid=args.grid)
    except ProblemError as e:
        raise UsageError(f"{name}: {e}") from None
    return write_dlx(puzzle.problem())


def run_solve(args: argparse.Namespace) -> int:
    return _answer(args, "unique" if args.unique else "solve")


def run_count(args: argparse.Namespace) -> int:
    return _answer(args, "count")


def run_generate(args: argparse.Namespace) -> int:
    n = args.size
    if math.isqrt(n) ** 2 != n or n < 4:
        raise UsageError(f"--size must be 4, 9, 16, 25, ... not {n}")
    if args.symbols is not None:
        _check_symbols(args.symbols, n)
    import random

    rng = random.Random(args.seed)
    for k in range(args.count):
        g = sudoku.generate(n, seed=rng.randrange(2**63), min_givens=args.min_givens, symbols=args.symbols)
        print(g.puzzle.line(), flush=True)
        print(f"puzzle {k + 1}: {g.puzzle.givens} givens, difficulty {g.difficulty} nodes", file=sys.stderr)
    return 0
