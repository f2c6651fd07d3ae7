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
import sys
import warnings
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import ProblemError
from ..problem import Problem, Uniqueness
from ..puzzles import akari
from . import flags
from .common import STDIN, UsageError, place, read_input, warn
from .contract import FOUND, Run
from .dispatch import Face, run_count, run_export, run_generate, run_solve, run_unique
from .menu import PUZZLES
from .table import Command, Verb

__all__ = ["COMMANDS"]

FILE_HELP = "the puzzles ('-' or nothing: stdin), or one puzz.link URL"
LIGHTS = '"lights": [[row, col], ...] (0-based, as in Python) or null'
SVG = "an SVG picture of each solution"


def _file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default=STDIN, help=FILE_HELP)


def _draw(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--draw", action="store_true", help="box-drawing pictures instead of grids")


def _solve_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", action="store_true", help="print each puzzle's puzz.link URL (no solving)")
    flags.add_limit(parser, "up to N solutions of each puzzle", every="every solution of each puzzle")


def _generate_flags(g: argparse.ArgumentParser) -> None:
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


#: Puzzles answered by one call into the engine (`Akari.batch`); their
#: answers are printed when the chunk is done.
CHUNK = 256


class AkariFace(Face):
    """Grids separated by blank lines, or puzz.link URLs one a line, mixed:
    each solution printed as the grid with ``*`` on the lights (``--draw``:
    box-drawing), a blank line between puzzles, or ``no solution``."""

    batch = True

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        super().__init__(args, run)
        if args.json and getattr(args, "draw", False):
            raise UsageError("--json and --draw cannot go together (--json's lines are the output)")
        self._puzzles: list[akari.Akari] = []
        self._answers: Iterator[tuple[akari.Akari, tuple[list[Any], Uniqueness]]] | None = None

    def entries(self) -> Iterator[tuple[int, akari.Akari]]:
        """One that cannot be read is an error line in its place, and the
        others are answered."""
        entries, name = _entries(self.args)
        self._puzzles = [e for e in entries if not isinstance(e, akari.AkariError)]
        for k, entry in enumerate(entries):
            if isinstance(entry, akari.AkariError):
                gap = "\n" if k and not self.run.json and self.args.verb != "count" else ""
                sys.stdout.write(gap)
                self.run.error_line(place(name, str(entry)), {"puzzle": k + 1})
                continue
            self.run.check()  # the budget spent: the batch stops between two puzzles
            yield k, entry

    def problem(self) -> Problem:
        entries, name = _entries(self.args)
        if len(entries) != 1:
            raise UsageError(f"{name}: export takes one puzzle, not {len(entries)}")
        if isinstance(entries[0], akari.AkariError):
            raise akari.AkariError(place(name, str(entries[0])))
        return entries[0].problem()

    def answer_all(self, verb: str, want: int | None) -> bool:
        """``solve --url``: each puzzle's puzz.link URL, no solving."""
        if verb != "solve" or not self.args.url:
            return False
        for k, puzzle in self.entries():
            self.run.answer({"puzzle": k + 1, "url": puzzle.url()}, puzzle.url() + "\n")
        self.run.done(limited=False)
        return True

    def _batched(self, puzzle: akari.Akari, want: int) -> tuple[list[Any], Uniqueness]:
        """The answer to `puzzle` from the protocol's batch verb
        (`Akari.batch`), called on `CHUNK` puzzles at a time in the input's
        order, so that answers are printed as each chunk is done."""
        if self._answers is None:
            self._answers = self._chunks(want)
        got, answer = next(self._answers)
        assert got is puzzle, "the puzzles are answered in the input's order"
        return answer

    def _chunks(self, want: int) -> Iterator[tuple[akari.Akari, tuple[list[Any], Uniqueness]]]:
        for i in range(0, len(self._puzzles), CHUNK):
            chunk = self._puzzles[i:i + CHUNK]
            yield from zip(chunk, akari.Akari.batch(chunk, want, budget=self.run.budget))

    def solutions(self, puzzle: akari.Akari, want: int | None) -> Iterable[Any]:
        """The first solution from the batch (`Akari.batch`); more, one puzzle at a time."""
        if want != 1:
            return super().solutions(puzzle, want)
        return self._batched(puzzle, 1)[0]

    def unique(self, puzzle: akari.Akari) -> tuple[Any, Uniqueness]:
        """The portfolio (dancing links, then the CDCL solver where the tree
        is heavy), its first stage run for the batch in the engine."""
        found, u = self._batched(puzzle, 2)
        return (found[0] if found else None), u

    def line(self, k: int, puzzle: akari.Akari, found: list[Any], want: int | None,
             word: str | None = None) -> tuple[dict[str, Any] | None, str]:
        if word is not None:
            lights = found[0] if found else None
            record = None
            if self.run.json:  # (the sorted lights cost more than the output line)
                record = {**_record(k, lights), "uniqueness": word, "count": FOUND.get(word)}
            # (No solution: `unique` says "none" alone.)
            shown = self._picture(puzzle, lights, k == 0) if lights is not None else "" if k == 0 else "\n"
            return record, shown + word + "\n"
        if want == 1:
            lights = found[0] if found else None
            return _record(k, lights), self._picture(puzzle, lights, k == 0)
        text = "".join(self._picture(puzzle, s, k == 0 and j == 0) for j, s in enumerate(found))
        return ({"puzzle": k + 1, "solutions": [_record(k, s)["lights"] for s in found]},
                text or self._picture(puzzle, None, k == 0))

    def _picture(self, puzzle: akari.Akari, lights: Iterable[tuple[int, int]] | None, first: bool) -> str:
        """One solution as the command prints it (a blank line before all but
        the first, text pictures only)."""
        svg = getattr(self.args, "svg", None)
        gap = "" if first or svg == "-" else "\n"
        if lights is None:
            return gap + "no solution\n"
        self.run.picture_file(svg, lambda: puzzle.svg(lights))
        if svg == "-":
            return puzzle.svg(lights) + "\n"
        if getattr(self.args, "draw", False):
            return gap + puzzle.draw(lights)
        return gap + puzzle.solution_text(lights)

    def generate(self, k: int, seed: int) -> tuple[dict[str, Any], str, str]:
        args = self.args
        g = akari.generate(args.rows, args.cols, seed=seed, black=args.black, difficulty=args.difficulty,
                           symmetry=args.layout)
        grid = list(g.puzzle.rows)
        cells = args.rows * args.cols
        blacks = sum(ch != "." for row in grid for ch in row)
        numbers = sum(ch.isdigit() for row in grid for ch in row)
        return ({"puzzle": k + 1, "rows": args.rows, "cols": args.cols, "grid": grid, "difficulty": g.difficulty,
                 "seed": g.seed}, ("\n" if k else "") + "\n".join(grid) + "\n",
                f"{args.rows} x {args.cols}, {100 * blacks / cells:.1f}% black, {numbers} numbers, "
                f"difficulty {g.difficulty}")


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


def _record(k: int, lights: Iterable[tuple[int, int]] | None) -> dict[str, Any]:
    return {"puzzle": k + 1, "lights": None if lights is None else [list(x) for x in sorted(lights)]}


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


COMMANDS = (Command(
    "akari", PUZZLES["akari"][1], "Akari / Light Up (美術館) as exact cover with multiplicities.", _file,
    lambda args, run: AkariFace(args, run), (
        Verb("solve", "solve puzzles: grids separated by blank lines, or puzz.link URLs", run_solve,
             '{"puzzle": k, ' + LIGHTS + "}", SVG, noun="puzzles answered", flags=(_draw, _solve_flags)),
        Verb("count", "count the solutions of each puzzle, one number a line", run_count,
             '{"puzzle": k, "count": N, "complete": bool}', noun="puzzles answered",
             flags=(lambda v: flags.add_limit(v, "stop each count at N"),)),
        Verb("unique", "each puzzle's solution, then 'unique', 'multiple' or 'none'", run_unique,
             '{"puzzle": k, ' + LIGHTS + ', "uniqueness": word}', SVG, noun="puzzles answered", flags=(_draw,)),
        Verb("export", "one puzzle's exact cover problem in Knuth's .dlx format (DLX3's, with multiplicities)",
             run_export, '{"dlx": text}', noun="problems", searches=False),
        Verb("generate", "generate puzzles with exactly one solution (proven by the deductions of the difficulty "
             "asked), printed in the solve format, a blank line between, each one's difficulty on stderr, and "
             "the seed (the same seed gives the same puzzles)", run_generate,
             '{"puzzle", "rows", "cols", "grid": [lines], "difficulty", "seed"}', noun="puzzles made",
             flags=(_generate_flags,), reads=False),
    )),)
