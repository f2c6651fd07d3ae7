"""``covering akari VERB [FILE]``: Akari (Light Up) puzzles.

Input: grids (``.`` white, ``#`` black, ``0``-``4`` numbered) separated by
blank lines, or puzz.link URLs one a line, mixed. Verbs: ``solve`` (each
solution as the grid with ``*`` on the lights, a blank line between
puzzles, or ``no solution``; ``--limit N``/``--all``: up to N solutions of
each), ``count``, ``unique`` (the solution, then ``unique``, ``multiple``
or ``none``), ``export`` and ``generate``. With ``--json``, one object per
puzzle, ``{"puzzle": k, ...}``, then the summary, whose ``"count"`` is the
number of puzzles answered.
"""

from __future__ import annotations

import argparse
import random
import sys
import warnings
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import ProblemError
from ..puzzles import akari
from . import budget, flags, verbs
from .common import UsageError, place, read_input, warn, write_dlx
from .contract import FOUND, Run
from .menu import PUZZLES

__all__ = ["add_parser"]

FILE_HELP = "the puzzles ('-' or nothing: stdin), or one puzz.link URL"
LIGHTS = '"lights": [[row, col], ...] (0-based, as in Python) or null'


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("akari", help=PUZZLES["akari"][1],
                       description="Akari / Light Up (美術館) as exact cover with multiplicities.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=type(p))
    verbs.required = True
    for name, helptext, payload in (
        ("solve", "solve puzzles: grids separated by blank lines, or puzz.link URLs",
         '{"puzzle": k, ' + LIGHTS + "}"),
        ("count", "count the solutions of each puzzle, one number a line",
         '{"puzzle": k, "count": N, "complete": bool}'),
        ("unique", "each puzzle's solution, then 'unique', 'multiple' or 'none'",
         '{"puzzle": k, ' + LIGHTS + ', "uniqueness": word}'),
    ):
        q = verbs.add_parser(name, help=helptext, description=f"covering akari {name}: {helptext}.")
        q.add_argument("file", nargs="?", default="-", help=FILE_HELP)
        flags.add_output(q, payload, "an SVG picture of each solution" if name != "count" else None)
        if name != "count":
            q.add_argument("--draw", action="store_true", help="box-drawing pictures instead of grids")
        if name == "solve":
            q.add_argument("--url", action="store_true", help="print each puzzle's puzz.link URL (no solving)")
            flags.add_limit(q, "up to N solutions of each puzzle", every="every solution of each puzzle")
        if name == "count":
            flags.add_limit(q, "stop each count at N")
        flags.add_budgets(q)
        q.set_defaults(run={"solve": run_solve, "count": run_count, "unique": run_unique}[name],
                       noun="puzzles answered")
    e = flags.add_export(verbs, "The puzzle's exact cover problem with multiplicities (DLX3's format).")
    e.add_argument("file", nargs="?", default="-", help=FILE_HELP)
    e.set_defaults(run=run_export)
    g = verbs.add_parser("generate", help="generate puzzles with exactly one solution",
                         description="Puzzles with exactly one solution, proven by the deductions of the "
                         "difficulty asked; printed in the solve format, a blank line between, each one's "
                         "difficulty on stderr, and the seed (the same seed gives the same puzzles).")
    g.add_argument("--rows", type=flags.positive, required=True, help="rows of each puzzle")
    g.add_argument("--cols", type=flags.positive, required=True, help="columns of each puzzle")
    flags.add_limit(g, "how many puzzles (default 1)")
    flags.add_seed(g)
    g.add_argument("--black", type=share, default=0.2, help="the share of black cells, 0 to 1 (default 0.2)")
    g.add_argument("--difficulty", choices=akari.DIFFICULTIES, default="medium",
                   help="easy: forced lights and lit cells; medium (default): also what a light would leave "
                   "a number or a cell; hard: also one trial")
    g.add_argument("--layout", choices=akari.SYMMETRIES, default="none",
                   help="the layout of the black cells: none (default), rotate (a half turn), mirror (left-right)")
    flags.add_output(g, '{"puzzle", "rows", "cols", "grid": [lines], "difficulty", "seed"}')
    flags.add_budgets(g)
    g.set_defaults(run=run_generate, noun="puzzles made")


def _puzzles(args: argparse.Namespace, run: Run) -> Iterator[tuple[int, akari.Akari]]:
    """(index, puzzle) of each puzzle of the input; one that cannot be read
    is an error line in its place, and the others are answered."""
    entries, name = _entries(args)
    for k, entry in enumerate(entries):
        if isinstance(entry, akari.AkariError):
            gap = "\n" if k and not run.json and getattr(args, "verb", "") != "count" else ""
            sys.stdout.write(gap)
            run.error_line(place(name, str(entry)), {"puzzle": k + 1})
            continue
        run.check()  # the budget spent: the batch stops between two puzzles
        yield k, entry


def _entries(args: argparse.Namespace) -> tuple[list[akari.Akari | akari.AkariError], str]:
    if "://" in args.file:  # a URL given on the command line, not a file
        text, name = args.file, "the URL"
    else:
        text, name = read_input(args.file)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", akari.AkariWarning)
        try:
            entries = list(akari.read_entries(text))
        except ProblemError as e:
            raise type(e)(place(name, str(e))) from None
    for w in caught:
        warn(place(name, str(w.message)))
    return entries, name


def _picture(args: argparse.Namespace, run: Run, puzzle: akari.Akari, lights: Iterable[tuple[int, int]] | None,
             first: bool) -> str:
    """One solution as the command prints it (a blank line before all but
    the first, text pictures only)."""
    svg = getattr(args, "svg", None)
    gap = "" if first or svg == "-" else "\n"
    if lights is None:
        return gap + "no solution\n"
    run.picture_file(svg, lambda: puzzle.svg(lights))
    if svg == "-":
        return puzzle.svg(lights) + "\n"
    if getattr(args, "draw", False):
        return gap + puzzle.draw(lights)
    return gap + puzzle.solution_text(lights)


def _record(k: int, lights: Iterable[tuple[int, int]] | None) -> dict[str, Any]:
    return {"puzzle": k + 1, "lights": None if lights is None else [list(x) for x in sorted(lights)]}


def _forms(args: argparse.Namespace) -> None:
    if args.json and getattr(args, "draw", False):
        raise UsageError("--json and --draw cannot go together (--json's lines are the output)")


def run_solve(args: argparse.Namespace, run: Run) -> None:
    _forms(args)
    want = flags.wanted(args)
    if args.url:
        for k, puzzle in _puzzles(args, run):
            run.answer({"puzzle": k + 1, "url": puzzle.url()}, puzzle.url() + "\n")
    elif want == 1:
        for k, puzzle in _puzzles(args, run):
            lights = puzzle.solve(budget=run.budget)
            run.answer({**_record(k, lights), "count": int(lights is not None)},
                       _picture(args, run, puzzle, lights, k == 0))
    else:
        def show(k: int, puzzle: akari.Akari, found: list[Any]) -> tuple[dict[str, Any], str]:
            text = "".join(_picture(args, run, puzzle, s, k == 0 and j == 0) for j, s in enumerate(found))
            record = {"puzzle": k + 1, "solutions": [_record(k, s)["lights"] for s in found]}
            return record, text or _picture(args, run, puzzle, None, k == 0)

        verbs.solve_each(run, _puzzles(args, run), want, show)
    run.done(limited=run.stopped == "limit")


def run_unique(args: argparse.Namespace, run: Run) -> None:
    """With the portfolio: dancing links, then the CDCL solver where the tree is heavy."""
    _forms(args)
    for k, puzzle in _puzzles(args, run):
        lights, u = puzzle.solve_unique(budget=run.budget)
        run.check()  # "unknown" because the budget ran out: the run stops here
        record = None
        if run.json:  # (the sorted lights cost more than the output line)
            record = {**_record(k, lights), "uniqueness": u.value, "count": FOUND.get(u.value)}
        # (No solution: `unique` says "none" alone.)
        shown = _picture(args, run, puzzle, lights, k == 0) if lights is not None else "" if k == 0 else "\n"
        run.answer(record, shown + u.value + "\n")
    run.done(limited=False)


def run_count(args: argparse.Namespace, run: Run) -> None:
    verbs.count_each(run, _puzzles(args, run), args.limit, lambda k: {"puzzle": k + 1}, lambda k: f"puzzle {k + 1}")
    run.done(limited=run.stopped == "limit")


def run_export(args: argparse.Namespace, run: Run) -> None:
    entries, name = _entries(args)
    if len(entries) != 1:
        raise UsageError(f"{name}: export takes one puzzle, not {len(entries)}")
    if isinstance(entries[0], akari.AkariError):
        raise akari.AkariError(place(name, str(entries[0])))
    write_dlx(entries[0].problem(), run)


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


def run_generate(args: argparse.Namespace, run: Run) -> None:
    run.limit = want = flags.asked(args)
    seed = flags.pick_seed(args.seed)
    rng = random.Random(seed)
    # The seed is said once a puzzle is made, or when the run is cut (a bad
    # request says only why it is bad).
    said = False
    for k in range(want):
        try:
            g = akari.generate(args.rows, args.cols, seed=rng.randrange(2**63), black=args.black,
                               difficulty=args.difficulty, symmetry=args.layout)
        except KeyboardInterrupt:
            if not said:
                flags.say_seed(seed, "makes these again")
            raise
        if not said:
            flags.say_seed(seed, "makes these again")
            said = True
        grid = list(g.puzzle.rows)
        run.answer({"puzzle": k + 1, "rows": args.rows, "cols": args.cols, "grid": grid, "difficulty": g.difficulty,
                    "seed": g.seed}, ("\n" if k else "") + "\n".join(grid) + "\n")
        cells = args.rows * args.cols
        blacks = sum(ch != "." for row in grid for ch in row)
        numbers = sum(ch.isdigit() for row in grid for ch in row)
        print(f"covering: puzzle {k + 1}: {args.rows} x {args.cols}, {100 * blacks / cells:.1f}% black, "
              f"{numbers} numbers, difficulty {g.difficulty}", file=sys.stderr, flush=True)
    run.done(limited=False)
