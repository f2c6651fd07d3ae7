"""``covering sudoku VERB --puzzle FILE.json`` and ``covering sudoku VERB
--layout NAME FILE``: Sudokus on any regions (`covering.puzzles.regions`).

``--puzzle``: one JSON object, or JSON Lines (one puzzle a line), in the
form of the project's design; ``--layout NAME`` (samurai, butterfly, x,
windoku, ...): FILE holds the givens over the layout's canvas, puzzles
separated by a blank line; ``--layout jigsaw`` and ``--layout killer``: the
grid of givens, then the grid of region labels or of cages
(`covering.puzzles.regions.layouts.from_text`). Each puzzle is answered in order: its solution
as the grid of its cells (rows of their bounding box, ``.`` where there is
no cell), ``no solution``, and for ``unique`` a line ``unique``,
``multiple`` or ``none``; with ``--json``, ``{"puzzle": k, "solution":
[[row, col, v], ...]}`` (``"uniqueness"`` for unique). A puzzle that cannot
be read is an error line in its place, naming its line.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator
from typing import Any

from .. import textio
from ..problem import Problem
from ..puzzles.regions import RegionSudoku, RegionSudokuError, layouts
from ..puzzles.regions.reading import read_entries, solution_record
from . import flags
from .common import UsageError, place, read_input
from .contract import FOUND, Run
from .dispatch import Face

__all__ = ["RegionFace"]


class RegionFace(Face):
    """Sudokus on regions, each answered on its own (see the module)."""

    batch = True

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        super().__init__(args, run)
        if getattr(args, "puzzle_file", None) and args.layout:
            raise UsageError("--puzzle and --layout cannot go together (a JSON puzzle names its regions)")
        names = [*layouts.LAYOUTS, *layouts.TWO_GRIDS]
        if args.layout and args.layout not in names:
            raise UsageError(f"--layout {args.layout}: no such layout (the layouts: {', '.join(names)})")
        if getattr(args, "grid", False) or getattr(args, "symbols", None):
            raise UsageError("--grid and --symbols are for the classic grid, not --puzzle or --layout")
        if args.verb == "generate" and args.layout in layouts.TWO_GRIDS:
            raise UsageError(f"generate --layout {args.layout}: its regions or cages are the puzzle's own; "
                             "generate takes a layout of fixed regions")
        self.answered = 0
        if args.verb == "random":
            self.seed = flags.seed_for(args, "gives these again")

    def _entries(self) -> tuple[list[RegionSudoku | RegionSudokuError], str]:
        args = self.args
        if args.puzzle_file:
            text, name = read_input(args.puzzle_file)
            return list(read_entries(text)), name
        text, name = read_input(args.file)
        entries: list[RegionSudoku | RegionSudokuError] = []
        for first, lines in textio.blocks(text):
            try:
                entries.append(layouts.from_text(args.layout, lines))
            except RegionSudokuError as e:
                entries.append(RegionSudokuError(_shifted(str(e), first)))
        return entries, name

    def entries(self) -> Iterator[tuple[int, RegionSudoku]]:
        entries, name = self._entries()
        for k, entry in enumerate(entries):
            if isinstance(entry, RegionSudokuError):
                self.run.error_line(place(name, str(entry)), {"puzzle": k + 1})
                continue
            self.run.check()  # the budget spent: the batch stops between two puzzles
            yield k, entry

    def problem(self) -> Problem:
        entries, name = self._entries()
        if len(entries) != 1:
            raise UsageError(f"{name}: export takes one puzzle, not {len(entries)}")
        if isinstance(entries[0], RegionSudokuError):
            raise RegionSudokuError(place(name, str(entries[0])))
        return entries[0].problem()

    def solutions(self, puzzle: RegionSudoku, want: int | None) -> Iterable[RegionSudoku]:
        if self.args.verb == "random":
            return puzzle.random(want, seed=self.seed, budget=self.run.budget)
        return super().solutions(puzzle, want)

    def line(self, k: int, puzzle: RegionSudoku, found: list[Any], want: int | None,
             word: str | None = None) -> tuple[dict[str, Any], str]:
        """A puzzle's answer: its solutions as grids (a blank line between
        puzzles and between solutions; ``--svg -``: as SVG pictures, givens
        black and the rest blue), and for ``unique`` the word."""
        gap = "\n" if self.answered else ""
        self.answered += 1
        if word is not None:
            solution = found[0] if found else None
            record = {"puzzle": k + 1, "solution": solution_record(solution), "uniqueness": word,
                      "count": FOUND.get(word)}
            return record, gap + ("" if solution is None else self._shown(puzzle, solution)) + word + "\n"
        if want == 1:
            solution = found[0] if found else None
            return ({"puzzle": k + 1, "solution": solution_record(solution)},
                    gap + (self._shown(puzzle, solution) if solution is not None else "no solution\n"))
        text = "\n".join(self._shown(puzzle, s) for s in found) or "no solution\n"
        return {"puzzle": k + 1, "solutions": [solution_record(s) for s in found]}, gap + text

    def _shown(self, puzzle: RegionSudoku, solution: RegionSudoku) -> str:
        """A solution's grid, or its picture (``--svg``: the first answer's
        into FILE, every one on stdout for ``-``)."""
        svg = getattr(self.args, "svg", None)
        if svg is not None:
            self.run.picture_file(svg, lambda: puzzle.svg(solution=solution))
            if svg == "-":
                return puzzle.svg(solution=solution) + "\n"
        return solution.text() + "\n"

    def generate(self, k: int, seed: int) -> tuple[dict[str, Any], str, str]:
        """Puzzle `k` of the layout, from `seed` (`covering.puzzles.regions.generate`)."""
        from ..puzzles.regions.generate import generate

        args = self.args
        g = generate(layouts.layout(args.layout), seed=seed, min_givens=args.min_givens, budget=self.run.budget)
        givens = [list(t) for t in g.puzzle]
        return ({"puzzle": k + 1, "layout": args.layout, "givens": givens, "seed": seed},
                ("\n" if k else "") + g.puzzle.text() + "\n", f"{len(givens)} givens")


def _shifted(message: str, first: int) -> str:
    """A puzzle's error in the file's lines: its ``line L`` (counted in the
    puzzle's text) moved to the file's, else the puzzle's first line named.

    >>> _shifted("line 2, column 3: 'x' is not a symbol of 1..4", 10)
    "line 11, column 3: 'x' is not a symbol of 1..4"
    >>> _shifted("r1c2: 5 is already in r1c5, in the same region", 10)
    'line 10: r1c2: 5 is already in r1c5, in the same region'
    """
    m = re.match(r"line (\d+)", message)
    if m is None:
        return f"line {first}: {message}"
    return f"line {int(m[1]) + first - 1}{message[m.end():]}"
