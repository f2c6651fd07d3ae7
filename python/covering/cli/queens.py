"""``covering queens VERB N``: n-queens and the infinite queens sequence.

Verbs: ``count`` (bitboards, OEIS A000170), ``solve`` (the first solution;
``--limit N``, ``--all``), ``unique``, ``random`` (``--seed S``), ``list``
(every solution in lexicographic order), ``infinite`` (OEIS A065188),
``plot`` and ``export``. A solution is the row of the queen in each column,
0-based, one solution a line (``--draw``: as a board in text; ``--svg``: as
a picture; ``--json``: ``{"rows": [...]}``).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable

from collections.abc import Iterator
from typing import Any

from .. import _core
from ..puzzles import queens
from . import flags
from .common import UsageError, threads_from
from .contract import Run
from .dispatch import Face, run_count, run_export, run_solve, run_unique
from .menu import PUZZLES
from .table import Command, Verb

__all__ = ["COMMANDS"]

PAYLOAD = '{"rows": [row of the queen in each column, 0-based]}'
SVG = "each solution as an SVG board"

#: The largest N of each verb: the bitboard counter's, the lexicographic
#: list's, the exact cover problem's, the plot's.
MOST = {"count": 32, "list": 14, "plot": 10**6}


def _n(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("n", type=flags.non_negative, metavar="N")


def _draw(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--draw", action="store_true", help="draw each solution as a board, in text")


def _every(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(all=True, limit=None)


def _limit_all(parser: argparse.ArgumentParser) -> None:
    flags.add_limit(parser, "up to N solutions", every="every solution")


def _zero_based(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--zero-based", action="store_true", help="rows from 0")


def _png(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--png", metavar="FILE", help="the plot as a PNG picture into FILE")


def _checked(n: int, most: int) -> int:
    if not 1 <= n <= most:
        raise UsageError(f"N must be between 1 and {most}, not {n}")
    return n


class QueensFace(Face):
    """n-queens: a solution is the row of the queen in each column, 0-based,
    one solution a line (``--draw``: as a board; ``--svg``: as a picture)."""

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        super().__init__(args, run)
        if run.json and getattr(args, "draw", False):
            raise UsageError("--json and --draw cannot go together (--json's lines are the output)")
        n = _checked(args.n, MOST.get(args.verb, 10**4))
        self.queens = queens.Queens(n)
        if args.verb == "random":
            self.seed = flags.seed_for(args, "gives these again")

    def entries(self) -> Iterator[tuple[int, queens.Queens]]:
        yield 0, self.queens

    def show(self, k: int, q: queens.Queens, rows: tuple[int, ...], j: int,
             cost: int | None = None) -> tuple[dict[str, Any], str]:
        svg = getattr(self.args, "svg", None)
        self.run.picture_file(svg, lambda: q.svg(rows))
        if svg == "-":
            text = ("\n" if j else "") + q.svg(rows) + "\n"
        elif getattr(self.args, "draw", False) and svg is None:
            text = ("\n" if j else "") + queens.board_text(rows) + "\n"
        else:
            text = " ".join(map(str, rows)) + "\n"
        return {"rows": list(rows)}, text

    def solutions(self, q: queens.Queens, want: int | None) -> Iterable[tuple[int, ...]]:
        if self.args.verb == "list":
            return self._listed(q)
        if self.args.verb == "random":
            return q.random(want, seed=self.seed, budget=self.run.budget)
        return super().solutions(q, want)

    def _listed(self, q: queens.Queens) -> Iterator[tuple[int, ...]]:
        """Every solution in lexicographic order: found a first-column row at a
        time (the queen of column 0 forced), each part sorted, so that a run
        cut short has printed what it found, in order."""
        n = q.n
        problem = q.problem()
        for r in range(n):
            solver = problem.solver(memory=self.run.memory)
            solver.force(r * n)  # option i * n + j is the square (i, j)
            part: list[tuple[int, ...]] = []
            try:
                for ids in solver.solutions(ids=True, budget=self.run.budget):
                    part.append(q.decode(ids))
            except BaseException:
                yield from sorted(part)
                raise
            yield from sorted(part)

    def count(self, q: queens.Queens, limit: int | None) -> int:
        b = self.run.budget
        self.run.extra["method"] = q.counter(limit, b)
        return q.count(limit, budget=b, threads=threads_from(self.args))


def run_infinite(args: argparse.Namespace, run: Run) -> None:
    queens.check_terms(args.n)
    if run.json:
        run.emit({"terms": list(queens.infinite(args.n))})
        run.count = args.n
        run.done(limited=False)
        return
    source = _core.InfiniteQueens()
    offset = 1 if args.zero_based else 0
    left, first = args.n, True
    while left > 0:
        k = min(left, 1 << 20)
        chunk = source.take_text(k, offset)
        sys.stdout.write(chunk if first else " " + chunk)
        first = False
        left -= k
    sys.stdout.write("\n")
    run.count = args.n
    run.done(limited=False)


def run_plot(args: argparse.Namespace, run: Run) -> None:
    """The plot of the seed: q_n against n, and the two lines of slope phi
    and 1/phi the points gather on, as SVG (``--svg FILE``, or ``--svg``
    alone: on stdout) or PNG (``--png FILE``)."""
    # (Imported here: the pictures bring `html`, which the other verbs'
    # start does without.)
    from ..render.plot import scatter, scatter_png

    n = _checked(args.n, MOST["plot"])
    if (args.svg is None) == (args.png is None):
        raise UsageError("give one of --svg FILE (or --svg alone: on stdout) and --png FILE")
    for flag, path, end in (("--svg", args.svg, ".svg"), ("--png", args.png, ".png")):
        if path not in (None, "-") and not path.lower().endswith(end):
            raise UsageError(f"{flag} {path}: the file must end in {end}")
    terms = list(queens.infinite(n))
    points = [(float(k), float(q)) for k, q in enumerate(terms, 1)]
    phi = (1 + math.sqrt(5)) / 2
    lines = [(phi, f"slope phi = {phi:.3f}"), (1 / phi, f"slope 1/phi = {1 / phi:.3f}")]
    title = f"Infinite queens (OEIS A065188): q_n for n = 1..{n}"
    if args.png is not None:
        with open(args.png, "wb") as f:
            f.write(scatter_png(points, lines=lines, title=title, ylabel="q_n"))
        where = args.png
    elif args.svg == "-":
        sys.stdout.write(scatter(points, lines=lines, title=title, ylabel="q_n") + "\n")
        where = "-"
    else:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(scatter(points, lines=lines, title=title, ylabel="q_n"))
        where = args.svg
    if where != "-":
        print(f"covering: wrote {where}", file=sys.stderr)
    if run.json:
        run.emit({"plot": where})
    run.count = 1
    run.done(limited=False)


COMMANDS = (Command(
    "queens", PUZZLES["queens"][1], "n-queens: count (bitboards), solve and list (exact cover), and the infinite "
    "queens sequence of TAOCP 7.2.2.1 (OEIS A065188).", _n, lambda args, run: QueensFace(args, run), (
        Verb("count", "count the solutions of n-queens (OEIS A000170)", run_count, counts=True,
             flags=(lambda v: flags.add_limit(v, "stop counting at N"), flags.add_threads)),
        Verb("solve", "the first solution (--limit N: up to N; --all: every one)", run_solve, PAYLOAD, SVG,
             flags=(_limit_all, _draw)),
        Verb("unique", "the first solution, then a line 'unique', 'multiple' or 'none'", run_unique, PAYLOAD, SVG,
             flags=(_draw,)),
        Verb("random", "solutions in a random order from --seed S (one unless --limit N)", run_solve, PAYLOAD, SVG,
             flags=(flags.add_seed, _limit_all, _draw)),
        Verb("list", "every solution, one a line, in lexicographic order", run_solve, PAYLOAD, SVG,
             flags=(_every, _draw)),
        Verb("infinite", "the first N terms of the infinite queens sequence", run_infinite, '{"terms": [...]}',
             noun="terms", flags=(_zero_based,)),
        Verb("plot", "plot q_n against n, with the lines of slope phi and 1/phi (--svg FILE or --png FILE)",
             run_plot, '{"plot": FILE}', "the plot as an SVG picture", noun="plots", flags=(_png,)),
        Verb("export", "the exact cover problem of n-queens in Knuth's .dlx format", run_export, '{"dlx": text}',
             noun="problems", searches=False),
    )),)
