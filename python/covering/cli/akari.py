"""``covering akari``: solve and count Akari (Light Up) puzzles.

Input: grids (``.`` white, ``#`` black, ``0``-``4`` numbered) separated by
blank lines, or puzz.link URLs one a line, mixed. ``solve`` prints each
solution as the grid with ``*`` on the lights (a blank line between), or
``no solution``; ``count`` prints the number of solutions of each puzzle.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings

from ..errors import Interrupted, ProblemError
from ..problem import Uniqueness
from ..puzzles import akari
from . import budget
from .common import UsageError, interrupted, non_negative, note_capped, positive, read_input, warn, write_dlx

__all__ = ["add_parser"]


FILE_HELP = "the puzzles ('-' or nothing: stdin), or one puzz.link URL"


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("akari", help="solve Akari (Light Up) puzzles",
                       description="Akari / Light Up (美術館) as exact cover with multiplicities.")
    s = p.add_subparsers(dest="action", metavar="ACTION")
    s.required = True
    q = s.add_parser("solve", help="solve puzzles: grids separated by blank lines, or puzz.link URLs",
                     description="Prints each solution as the grid with '*' on the lights, a blank line "
                     "between puzzles; 'no solution' when there is none.")
    q.add_argument("file", nargs="?", default="-", help=FILE_HELP)
    q.add_argument("--unique", action="store_true",
                   help="also prove each solution unique; print 'multiple' after it when it is not")
    form = q.add_mutually_exclusive_group()
    form.add_argument("--draw", action="store_true", help="box-drawing pictures (as seed 002) instead of grids")
    form.add_argument("--svg", action="store_true", help="an SVG picture of each solution instead of grids")
    form.add_argument("--url", action="store_true", help="print each puzzle's puzz.link URL (no solving)")
    form.add_argument("--json", action="store_true",
                      help='one JSON object per puzzle: {"puzzle": k, "lights": [[row, col], ...] (0-based, as '
                      'in Python) or null} (and "uniqueness" with --unique)')
    q.set_defaults(run=run_solve)
    e = s.add_parser("export", help="write one puzzle's exact cover problem in Knuth's .dlx format",
                     description="The puzzle's exact cover problem with multiplicities (DLX3's format).")
    e.add_argument("file", nargs="?", default="-", help=FILE_HELP)
    e.set_defaults(run=run_export)
    g = s.add_parser("generate", help="generate puzzles with exactly one solution",
                     description="Puzzles with exactly one solution, proven by the deductions of the "
                     "difficulty asked; printed in the solve format, a blank line between, each one's "
                     "difficulty on stderr. The same seed gives the same puzzles.")
    g.add_argument("--rows", type=positive, required=True, help="rows of each puzzle")
    g.add_argument("--cols", type=positive, required=True, help="columns of each puzzle")
    g.add_argument("--count", type=positive, default=1, help="how many puzzles (default 1)")
    g.add_argument("--seed", type=non_negative, help="the random seed (default: a random one, said on stderr)")
    g.add_argument("--black", type=share, default=0.2, help="the share of black cells, 0 to 1 (default 0.2)")
    g.add_argument("--difficulty", choices=akari.DIFFICULTIES, default="medium",
                   help="easy: forced lights and lit cells; medium (default): also what a light would leave "
                   "a number or a cell; hard: also one trial")
    g.add_argument("--symmetry", choices=akari.SYMMETRIES, default="none",
                   help="the layout of the black cells: none (default), rotate (a half turn), mirror (left-right)")
    g.add_argument("--json", action="store_true",
                   help='one JSON object per puzzle: {"puzzle", "rows", "cols", "grid": [lines], "difficulty", '
                   '"seed"} instead of grids')
    g.set_defaults(run=run_generate)
    c = s.add_parser("count", help="count the solutions of each puzzle, one number a line")
    c.add_argument("file", nargs="?", default="-", help=FILE_HELP)
    c.add_argument("--cap", type=positive, help="count no further than this")
    c.add_argument("--json", action="store_true", help='one JSON object per puzzle: {"puzzle": k, "count": ...}')
    c.set_defaults(run=run_count)


def _puzzles(args: argparse.Namespace) -> list[akari.Akari]:
    if "://" in args.file:  # a URL given on the command line, not a file
        text, name = args.file, "the URL"
    else:
        text, name = read_input(args.file)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", akari.AkariWarning)
        try:
            puzzles = list(akari.read_puzzles(text))
        except ProblemError as e:
            raise type(e)(f"{name}: {e}") from None
    for w in caught:
        warn(f"{name}: {w.message}")
    return puzzles


def run_export(args: argparse.Namespace) -> int:
    puzzles = _puzzles(args)
    if len(puzzles) != 1:
        raise UsageError(f"export takes one puzzle, not {len(puzzles)}")
    return write_dlx(puzzles[0].problem())


def run_solve(args: argparse.Namespace) -> int:
    out = sys.stdout
    for k, puzzle in enumerate(_puzzles(args)):
        if args.url:
            out.write(puzzle.url() + "\n")
            continue
        # With --unique: dancing links, then the CDCL solver where the tree is heavy.
        lights, u = puzzle.solve_unique() if args.unique else (puzzle.solve(), None)
        if args.json:
            record: dict[str, object] = {"puzzle": k + 1, "lights": None if lights is None else
                                         [list(x) for x in sorted(lights)]}
            if u is not None:
                record["uniqueness"] = u.value
            out.write(json.dumps(record) + "\n")
            out.flush()
            continue
        if k and not args.svg:
            out.write("\n")
        if lights is None:
            out.write("no solution\n")
            continue
        if args.draw:
            out.write(puzzle.draw(lights))
        elif args.svg:
            out.write(puzzle.svg(lights) + "\n")
        else:
            out.write(puzzle.solution_text(lights))
        if u is Uniqueness.MULTIPLE:
            out.write("multiple\n")
        out.flush()
    return 0


def run_count(args: argparse.Namespace) -> int:
    for k, puzzle in enumerate(_puzzles(args)):
        try:
            n = puzzle.count(args.cap)
        except Interrupted as e:
            # The counts printed stand; the puzzle under way, as a partial count.
            if args.json:
                print(json.dumps({"puzzle": k + 1, "count": e.count, "interrupted": True,
                                  "stopped": budget.stopped(True)}), flush=True)
            return interrupted(e.count, f"solutions of puzzle {k + 1}", stdout=not args.json)
        print(json.dumps({"puzzle": k + 1, "count": n}) if args.json else n, flush=True)
        note_capped(n, args.cap, f"--cap {args.cap}", f"the count of puzzle {k + 1}")
    return 0


def share(text: str) -> float:
    """A share of the cells: a number from 0 to 1."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise argparse.ArgumentTypeError(f"must be a share from 0 to 1, not {text!r}")
    return value


def run_generate(args: argparse.Namespace) -> int:
    import random

    seed = random.randrange(2**63) if args.seed is None else args.seed
    rng = random.Random(seed)
    for k in range(args.count):
        g = akari.generate(args.rows, args.cols, seed=rng.randrange(2**63), black=args.black,
                           difficulty=args.difficulty, symmetry=args.symmetry)
        if k == 0 and args.seed is None:
            # Said once a puzzle is made (a bad request says only why it is bad).
            print(f"covering: seed {seed} (--seed {seed} makes these again)", file=sys.stderr)
        grid = list(g.puzzle.rows)
        if args.json:
            print(json.dumps({"puzzle": k + 1, "rows": args.rows, "cols": args.cols, "grid": grid,
                              "difficulty": g.difficulty, "seed": g.seed}), flush=True)
        else:
            print(("\n" if k else "") + "\n".join(grid), flush=True)
        cells = args.rows * args.cols
        blacks = sum(ch != "." for row in grid for ch in row)
        numbers = sum(ch.isdigit() for row in grid for ch in row)
        print(f"puzzle {k + 1}: {args.rows} x {args.cols}, {100 * blacks / cells:.1f}% black, {numbers} numbers, "
              f"difficulty {g.difficulty}", file=sys.stderr, flush=True)
    return 0
