"""``covering sudoku VERB [FILE]``: solve, count and generate puzzles, one a line.

Verbs: ``solve`` (each puzzle's solution on its line; ``--limit N``/``--all``:
up to N solutions of each, a blank line between puzzles), ``count``
(``--limit N`` stops each count at N), ``unique`` (the solution, then
``unique``, ``multiple`` or ``none``), ``export`` (one puzzle as Knuth's
.dlx) and ``generate``. With ``--json``, one object per puzzle,
``{"puzzle": k, "line": k, ...}`` with its answer (a bad line: ``"error"``), then the
summary, whose ``"count"`` is the number of puzzles answered.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from .. import textio
from ..errors import Interrupted, ProblemError
from ..limits import Budget
from ..problem import Problem
from ..puzzles import sudoku
from . import flags
from .common import STDIN, UsageError, place, read_input, threads_from
from .contract import FOUND, Run
from .dispatch import Face, run_count, run_export, run_generate, run_solve, run_unique
from .menu import PUZZLES
from .table import Command, Verb

__all__ = ["COMMANDS"]

INPUT = ("One puzzle a line: n^4 characters, '.' (or '0') for a blank; one answer per input line "
         "(--grid: one puzzle laid out over lines).")
SVG = "an SVG picture per puzzle (givens black, the rest blue)"


def _input(q: argparse.ArgumentParser) -> None:
    q.add_argument("file", nargs="?", default=STDIN, help="the puzzles ('-' or nothing: stdin)")
    q.add_argument("--symbols", help="the n symbols (default 1-9 for 9x9, 1-9A-G for 16x16, ...)")
    q.add_argument("--grid", action="store_true", help="the input is one puzzle laid out over lines")
    q.add_argument("--puzzle", dest="puzzle_file", metavar="FILE.json",
                   help="Sudokus on any regions: a JSON object (symbols, cells, regions, givens, cages), or JSON "
                   "Lines, one puzzle a line")
    q.add_argument("--layout", metavar="NAME",
                   help="a named layout of regions (samurai, butterfly, sohei, windmill, gattai-8, shogun, sumo, "
                   "twodoku, x, windoku, classic): FILE holds the givens over its canvas, puzzles separated by a "
                   "blank line; jigsaw and killer: the grid of givens, then the grid of region labels or of cages "
                   "(a label per cell, its sum after it in one cell)")


def _size(text: str, grid: bool) -> int:
    """The size n of the puzzles: from the first line (n^4 cells), or the whole grid."""
    if grid:
        cells = sum(1 for ch in text if ch not in sudoku.LAYOUT + textio.BLANKS + "\n")
    else:
        first = _first_line(text)
        cells = len(first)
        row = sum(1 for ch in first if ch not in sudoku.LAYOUT + textio.BLANKS)
        if _is_row(row) and text.count("\n") >= row - 1:
            # A puzzle laid over lines, given without --grid: one error that
            # says so, not one per line.
            raise UsageError(f"the first line holds {row} cells, a row of a {row} x {row} puzzle, not a "
                             f"puzzle of {row * row} cells: for a puzzle laid over lines, give --grid")
    n = math.isqrt(math.isqrt(cells))
    if n < 2 or n**4 != cells:
        return 9  # wrong lengths are then reported line by line
    return n * n


def _is_row(cells: int) -> bool:
    """Could a line of `cells` cells be one row of a puzzle (n^2 cells for
    a box of n x n), but not a whole puzzle (n^4 cells)?

    >>> _is_row(9), _is_row(16), _is_row(81), _is_row(10)
    (True, False, False, False)
    """
    box = math.isqrt(cells)
    whole = math.isqrt(box)
    return box >= 3 and box * box == cells and not (whole * whole == box and whole >= 2)


def _first_line(text: str) -> str:
    """The first line that is not blank, without its blanks (found without
    splitting the whole text, which is read by the engine).

    >>> _first_line("\\n  \\n 1.3 \\n2")
    '1.3'
    """
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].strip(textio.BLANKS)
        if line:
            return line
        start = end + 1
    return ""


def _check_symbols(symbols: str, n: int) -> None:
    try:
        sudoku.check_symbols(symbols, n)
    except ProblemError as e:
        raise UsageError(f"--symbols: {e}") from None


class _Batch:
    """The puzzles of the input: their text (one a line), size and symbols."""

    def __init__(self, args: argparse.Namespace) -> None:
        text, self.name = read_input(args.file)
        self.grid = args.grid
        try:
            self.n = _size(text, args.grid)
        except UsageError as e:
            raise UsageError(place(self.name, str(e))) from None
        symbols = args.symbols or sudoku.SYMBOLS.get(self.n)
        if symbols is None:
            raise UsageError(f"no usual symbols for {self.n} x {self.n}: give them with --symbols")
        _check_symbols(symbols, self.n)
        self.symbols = symbols
        if args.grid:
            try:
                text = sudoku.Sudoku.parse(text, symbols, grid=True).line()
            except ProblemError as e:
                raise UsageError(place(self.name, str(e))) from None
        self.text = text

    @functools.cached_property
    def lines(self) -> list[str]:
        """The input's lines, split when a puzzle is looked at again (the
        engine reads the text whole: 0.04 s of a 147,474-line batch)."""
        return self.text.split("\n")

    def where(self, lineno: int) -> str:
        return self.name if self.grid else f"{self.name}:{lineno}"

    def puzzle(self, k: int) -> sudoku.Sudoku:
        return sudoku.Sudoku.parse(self.lines[k], self.symbols)

    def answer(self, args: argparse.Namespace, mode: str, budget: Budget | None, cap: int | None = None,
               lines: str | None = None, joined: bool = False) -> tuple[list[str] | str, dict[int, str]]:
        """The engine's answers: a list of lines, or (`joined`) one text of
        them, each ended by a newline."""
        outputs, errors = sudoku.solve_text(self.text if lines is None else lines, n=self.n, symbols=self.symbols,
                                            mode=mode, cap=cap, threads=threads_from(args), budget=budget,
                                            joined=joined)
        return outputs, dict(errors)


def _picture(args: argparse.Namespace, run: Run, batch: _Batch, k: int, answer: str | None) -> str:
    """The text of one puzzle's answer: its line, a grid (--grid), or SVG."""
    svg = getattr(args, "svg", None)
    if answer is None:
        if svg == "-":
            return ("\n" if run.count else "") + f"<!-- line {k + 1}: no solution -->\n{batch.puzzle(k).svg()}\n"
        return "no solution\n"
    if svg is None and not batch.grid:
        return answer + "\n"
    given = tuple(v != 0 for v in batch.puzzle(k).values)
    solved = sudoku.Sudoku(batch.n, sudoku.Sudoku.parse(answer, batch.symbols).values, batch.symbols, given)
    run.picture_file(svg, solved.svg)
    if svg == "-":
        return ("\n" if run.count else "") + solved.svg() + "\n"
    return (solved.text() if batch.grid else answer) + "\n"


def _each(batch: _Batch, outputs: list[str], errors: dict[int, str], run: Run):  # type: ignore[no-untyped-def]
    """(index, line number, answer) of each puzzle answered; errors reported
    in their place, blank lines kept blank in text."""
    for k, answer in enumerate(outputs):
        lineno = 1 if batch.grid else k + 1
        if lineno in errors:
            run.error_line(f"{batch.where(lineno)}: {errors[lineno]}", {"puzzle": lineno, "line": lineno})
            continue
        if not answer:
            if not run.json and not batch.grid:
                sys.stdout.write("\n")
            continue
        yield k, lineno, answer


def _run(batch: _Batch, args: argparse.Namespace, run: Run, mode: str,
         cap: int | None = None, joined: bool = False) -> tuple[list[str] | str, dict[int, str]]:
    """`batch` answered by the engine (`joined`: as one text); cut short,
    the lines done are printed (by `show`) before the cut is reported."""
    try:
        outputs, errors = batch.answer(args, mode, run.budget, cap, joined=joined)
    except Interrupted as e:
        run.disarm()  # the engine has stopped: what it answered is printed whole
        done: list[str] = e.outputs[:-1]  # type: ignore[attr-defined]
        partial = e.outputs[-1] if e.outputs else ""  # type: ignore[attr-defined]
        _SHOW[mode](args, run, batch, done, dict(e.errors))  # type: ignore[attr-defined]
        if mode == "count" and partial.isdigit():
            lineno = len(e.outputs)  # type: ignore[attr-defined]
            if run.json:
                run.emit({"puzzle": lineno, "line": lineno, "count": int(partial), "complete": False})
            else:
                sys.stdout.write(partial + "\n")
            run.partial = f"{batch.where(lineno)}: {partial} solutions so far"
        raise
    return outputs, errors


# The batch's answers are all known when they are shown: they are written
# together (`Run.gathered`), not a write and a flush per line.


def _plain(args: argparse.Namespace, run: Run, batch: _Batch, errors: dict[int, str]) -> bool:
    """Whether the answers are the engine's lines as they are (text, no
    pictures, no bad line): then they are joined without a call per line."""
    return not (run.json or batch.grid or errors or getattr(args, "svg", None) is not None)


def _show_solve(args: argparse.Namespace, run: Run, batch: _Batch, outputs: list[str], errors: dict[int, str]) -> None:
    if _plain(args, run, batch, errors):
        # Joined in C, not a line at a time: a blank answer stays a blank line.
        run.answers(_answered(outputs), "\n".join(outputs) + "\n" if outputs else "")
        return
    with run.gathered():
        for k, lineno, answer in _each(batch, outputs, errors, run):
            solved = answer if answer != "no solution" else None
            run.answer({"puzzle": lineno, "line": lineno, "solution": solved, "count": int(solved is not None)} if run.json else None,
                       _picture(args, run, batch, k, solved))


def _show_count(args: argparse.Namespace, run: Run, batch: _Batch, outputs: list[str], errors: dict[int, str]) -> None:
    cap = getattr(args, "limit", None)
    with run.gathered():
        for _, lineno, answer in _each(batch, outputs, errors, run):
            n = int(answer)
            capped = cap is not None and n >= cap
            run.answer({"puzzle": lineno, "line": lineno, "count": n, "complete": True, **({"stopped": "limit"} if capped else {})},
                       f"{n}\n")
            if capped:
                run.stopped = "limit"
                print(f"covering: the count of {batch.where(lineno)} stopped at {n} (--limit {cap}): there may be "
                      "more", file=sys.stderr)


def _show_unique(args: argparse.Namespace, run: Run, batch: _Batch, outputs: list[str],
                 errors: dict[int, str]) -> None:
    # A puzzle with several solutions is answered "multiple": its first one is found again.
    several = [k for k, answer in enumerate(outputs) if answer == "multiple"]
    firsts: dict[int, str] = {}
    if several:
        lines = "\n".join(batch.lines[k] for k in several)
        again, _ = batch.answer(args, "solve", run.budget, lines=lines)
        firsts = dict(zip(several, again))
    if _plain(args, run, batch, errors):
        run.answers(_answered(outputs), "".join(_unique_text(a, firsts.get(k)) for k, a in enumerate(outputs)))
        return
    with run.gathered():
        for k, lineno, answer in _each(batch, outputs, errors, run):
            word = "none" if answer == "no solution" else "multiple" if answer == "multiple" else "unique"
            solved = None if word == "none" else firsts.get(k) if word == "multiple" else answer
            text = _picture(args, run, batch, k, solved) + word + "\n"
            run.answer({"puzzle": lineno, "line": lineno, "solution": solved, "uniqueness": word, "count": FOUND[word]}
                       if run.json else None, text)


def _all_solved(text: str, n: int, lines: int) -> bool:
    """Whether every one of the `lines` lines of the engine's joined answers
    (each ended by a newline) is a solution: n * n symbols. Every other
    answer ("", "error", "multiple", "no solution") is shorter once n * n
    passes 11, so the length alone tells.

    >>> _all_solved("1234\\n" * 2, 2, 2), _all_solved("1234\\n" * 4 + "\\n", 4, 5)
    (False, False)
    >>> _all_solved(("1" * 16 + "\\n") * 3, 4, 3)
    True
    """
    return n * n > 11 and len(text) == lines * (n * n + 1)


def _answered(outputs: list[str]) -> int:
    """How many of the engine's lines answer a puzzle (blank lines do not).

    >>> _answered(["12", "", "no solution"])
    2
    """
    return len(outputs) - outputs.count("")


def _unique_text(answer: str, first: str | None) -> str:
    """A puzzle's lines for `unique` in plain text, from the engine's
    answer (`first`: the solution found again for "multiple"); a blank
    input line stays blank.

    >>> _unique_text("no solution", None), _unique_text("multiple", "12"), _unique_text("", None)
    ('none\\n', '12\\nmultiple\\n', '\\n')
    """
    if not answer:
        return "\n"
    if answer == "no solution":
        return "none\n"  # (`unique` says "none" alone)
    if answer == "multiple":
        return f"{first}\nmultiple\n"
    return answer + "\nunique\n"


_SHOW = {"solve": _show_solve, "count": _show_count, "unique": _show_unique}


def _lineno(batch: _Batch, k: int) -> int:
    return 1 if batch.grid else k + 1


def _generate_flags(g: argparse.ArgumentParser) -> None:
    g.add_argument("--size", type=flags.positive, default=9, help="cells on a side: 4, 9, 16 or 25 (default 9)")
    flags.add_limit(g, "how many puzzles (default 1)")
    flags.add_seed(g)
    g.add_argument("--min-givens", type=flags.non_negative, default=0, help="stop removing givens at this many")
    g.add_argument("--symbols", help="the symbols to write the puzzles with")
    g.add_argument("--layout", metavar="NAME",
                   help="puzzles of a named layout of regions (samurai, butterfly, sohei, windmill, twodoku, gattai-8, "
                   "shogun, sumo, x, windoku, classic), written over its canvas")


class SudokuFace(Face):
    """Puzzles one a line (or one over lines, ``--grid``), each answered on
    its line. ``solve``, ``count`` and ``unique`` answer the whole file at
    once by the engine's batch (`covering.puzzles.sudoku.solve_text`): a
    Python call per puzzle would cost more than its solving."""

    batch = True

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        super().__init__(args, run)
        self.answered = 0
        if args.verb == "random":
            self.seed = flags.seed_for(args, "gives these again")
        if args.verb == "generate":
            n = args.size
            if math.isqrt(n) ** 2 != n or n < 4:
                raise UsageError(f"--size must be 4, 9, 16, 25, ... not {n}")
            if args.symbols is not None:
                _check_symbols(args.symbols, n)

    @functools.cached_property
    def puzzles(self) -> _Batch:
        return _Batch(self.args)

    def key(self, k: int) -> dict[str, Any]:
        lineno = _lineno(self.puzzles, k)
        return {"puzzle": lineno, "line": lineno}

    def where(self, k: int) -> str:
        return self.puzzles.where(_lineno(self.puzzles, k))

    def answer_all(self, verb: str, want: int | None) -> bool:
        """The engine's batch: every verb but ``solve`` with ``--limit N``
        above 1 (or ``--all``), and ``random``, answered puzzle by puzzle."""
        if verb == "random" or (verb == "solve" and want != 1):
            return False
        args, run = self.args, self.run
        batch = self.puzzles
        plain = verb in ("solve", "unique") and _plain(args, run, batch, {})
        outputs, errors = _run(batch, args, run, verb, cap=args.limit if verb == "count" else None, joined=plain)
        if isinstance(outputs, str):
            lines = outputs.count("\n")
            if not errors and _all_solved(outputs, batch.n, lines):
                # The usual file: every line solved (and unique), printed as
                # the engine wrote it, with no string per line.
                run.answers(lines, outputs if verb == "solve" else outputs.replace("\n", "\nunique\n"))
                run.done(limited=verb == "solve" and bool(outputs))
                return True
            outputs = outputs.split("\n")[:-1]
        _SHOW[verb](args, run, batch, outputs, errors)
        # (solve stops each puzzle at its first solution: at the limit, as
        # every puzzle's solve does where it finds one.)
        solved = verb == "solve" and any(a and a != "no solution" for a in outputs)
        run.done(limited=(verb == "count" and run.stopped == "limit") or solved)
        return True

    def entries(self) -> Iterator[tuple[int, sudoku.Sudoku]]:
        batch = self.puzzles
        for k, line in enumerate(batch.lines):
            if not line.strip(textio.BLANKS):
                continue
            try:
                puzzle = sudoku.Sudoku.parse(line, batch.symbols)
            except ProblemError as e:
                self.run.error_line(f"{self.where(k)}: {e}", self.key(k))
                continue
            self.run.check()  # the budget spent: the batch stops between two puzzles
            yield k, puzzle

    def solutions(self, puzzle: sudoku.Sudoku, want: int | None) -> Iterable[sudoku.Sudoku]:
        if self.args.verb == "random":
            return puzzle.random(want, seed=self.seed, budget=self.run.budget)
        return super().solutions(puzzle, want)

    def line(self, k: int, puzzle: sudoku.Sudoku, found: list[sudoku.Sudoku], want: int | None,
             word: str | None = None) -> tuple[dict[str, Any], str]:
        """Up to `want` solutions of a puzzle, one a line, a blank line
        between puzzles (``--json``: ``"solutions"``)."""
        lines = [s.line() for s in found]
        shown = [s + "\n" for s in lines]
        svg = getattr(self.args, "svg", None)
        if svg is not None and found:
            # (--svg: pictures, the puzzle's givens black, the rest blue.)
            given = tuple(v != 0 for v in puzzle.values)
            solved = [sudoku.Sudoku(puzzle.n, s.values, puzzle.symbols, given) for s in found]
            self.run.picture_file(svg, solved[0].svg)
            if svg == "-":
                shown = [s.svg() + "\n" for s in solved]
        text = ("\n" if self.answered else "") + ("".join(shown) or "no solution\n")
        self.answered += 1
        return {**self.key(k), "solutions": lines}, text

    def problem(self) -> Problem:
        args = self.args
        text, name = read_input(args.file)
        lines = [line for line in text.split("\n") if line.strip(textio.BLANKS)]
        if not args.grid and len(lines) != 1:
            raise UsageError(f"{name}: export takes one puzzle, not {len(lines)} lines (--grid: one over lines)")
        try:
            n = _size(text, args.grid)
        except UsageError as e:
            raise UsageError(place(name, str(e))) from None
        symbols = args.symbols or sudoku.SYMBOLS.get(n)
        if symbols is None:
            raise UsageError(f"no usual symbols for {n} x {n}: give them with --symbols")
        _check_symbols(symbols, n)
        try:
            puzzle = sudoku.Sudoku.parse(text if args.grid else lines[0], symbols, grid=args.grid)
        except ProblemError as e:
            raise UsageError(place(name, str(e))) from None
        return puzzle.problem()

    def generate(self, k: int, seed: int) -> tuple[dict[str, Any], str, str]:
        args = self.args
        g = sudoku.generate(args.size, seed=seed, min_givens=args.min_givens, symbols=args.symbols)
        return ({"puzzle": k + 1, "grid": g.puzzle.line(), "givens": g.puzzle.givens, "difficulty": g.difficulty,
                 "seed": seed}, g.puzzle.line() + "\n", f"{g.puzzle.givens} givens, difficulty {g.difficulty} nodes")


def _face(args: argparse.Namespace, run: Run) -> Face:
    """The classic batch's face, or with ``--puzzle``/``--layout`` the one of
    Sudokus on any regions (imported only then: the classic grid's start-up
    does not pay for it)."""
    if getattr(args, "puzzle_file", None) or getattr(args, "layout", None):
        from .regions import RegionFace

        return RegionFace(args, run)
    return SudokuFace(args, run)


def _solve_flags(parser: argparse.ArgumentParser) -> None:
    flags.add_limit(parser, "up to N solutions of each puzzle", every="every solution of each puzzle")


COMMANDS = (Command(
    "sudoku", PUZZLES["sudoku"][1], f"Sudoku on the exact cover engine, any size n^2 x n^2, any symbols. {INPUT}",
    _input, lambda args, run: _face(args, run), (
        Verb("solve", "solve puzzles, one a line", run_solve,
             '{"puzzle": k, "line": k, "solution": grid or null}', SVG, noun="puzzles answered",
             flags=(_solve_flags, flags.add_threads)),
        Verb("count", "count the solutions of each puzzle", run_count,
             '{"puzzle": k, "line": k, "count": N, "complete": bool}', noun="puzzles answered",
             flags=(lambda v: flags.add_limit(v, "stop each count at N"), flags.add_threads)),
        Verb("random", "solutions of each puzzle in a random order fixed by --seed (one unless --limit N or --all)",
             run_solve, '{"puzzle": k, "line": k, "solutions": [grid, ...]}', SVG, noun="puzzles answered",
             flags=(_solve_flags, flags.add_seed)),
        Verb("unique", "each puzzle's solution, then 'unique', 'multiple' or 'none'", run_unique,
             '{"puzzle": k, "line": k, "solution": grid or null, "uniqueness": word}', SVG,
             noun="puzzles answered", flags=(flags.add_threads,)),
        Verb("export", "one puzzle's exact cover problem (cells, rows, columns and boxes; at a given cell only "
             "its given), for Knuth's DLX programs or `covering dlx`", run_export, '{"dlx": text}',
             noun="problems", searches=False),
        Verb("generate", "generate puzzles with a unique solution: random grids, then givens removed while the "
             "solution stays unique; one puzzle a line, its givens and difficulty (search nodes) on stderr, "
             "and the seed (the same seed makes the same puzzles)", run_generate,
             '{"puzzle": k, "grid": line, "givens": N, "difficulty": nodes, "seed": S}', noun="puzzles made",
             flags=(_generate_flags,), reads=False),
    )),)
