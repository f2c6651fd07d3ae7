"""``covering queens VERB N``: n-queens and the infinite queens sequence.

Verbs: ``count`` (bitboards, OEIS A000170), ``solve`` (the first solution;
``--limit N``, ``--all``), ``unique``, ``random`` (``--seed S``), ``list``
(every solution in lexicographic order),
``infinite`` (OEIS A065188), ``plot`` and ``export``. A solution is the row
of the queen in each column, 0-based, one solution a line (``--board``: as
a board; ``--svg``: as a picture; ``--json``: ``{"rows": [...]}``).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable

from ..limits import Budget
from .. import _core
from ..problem import Uniqueness
from ..puzzles import queens
from ..render.plot import scatter, scatter_png
from . import budget, flags
from .common import UsageError, threads_from, write_dlx
from .contract import Run
from .menu import PUZZLES

__all__ = ["add_parser"]

PAYLOAD = '{"rows": [row of the queen in each column, 0-based]}'


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("queens", help=PUZZLES["queens"][1],
                       description="n-queens: count (bitboards), solve and list (exact cover), and the infinite "
                       "queens sequence of TAOCP 7.2.2.1 (OEIS A065188).")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=type(p))
    verbs.required = True
    c = _verb(verbs, "count", "count the solutions of n-queens (OEIS A000170)", run_count, counts=True)
    flags.add_limit(c, "stop counting at N")
    flags.add_threads(c)
    s = _verb(verbs, "solve", "the first solution (--limit N: up to N; --all: every one)", run_solve)
    flags.add_limit(s, "up to N solutions", every="every solution")
    _forms(s)
    u = _verb(verbs, "unique", "the first solution, then a line 'unique', 'multiple' or 'none'", run_unique)
    _forms(u)
    r = _verb(verbs, "random", "solutions in a random order from --seed S (one unless --limit N)", run_random)
    flags.add_seed(r)
    flags.add_limit(r, "up to N solutions", every="every solution")
    _forms(r)
    li = _verb(verbs, "list", "every solution, one a line, in lexicographic order", run_list)
    _forms(li)
    inf = _verb(verbs, "infinite", "the first N terms of the infinite queens sequence", run_infinite,
                payload='{"terms": [...]}', noun="terms")
    inf.add_argument("--zero-based", action="store_true", help="rows from 0")
    pl = _verb(verbs, "plot", "plot q_n against n, with the lines of slope phi and 1/phi", run_plot,
               payload='{"plot": FILE}', noun="plots")
    pl.add_argument("--output", "-o", required=True, help="the file to write: .svg or .png")
    _verb(verbs, "export", "the exact cover problem of n-queens in Knuth's .dlx format", run_export,
          payload='{"dlx": text}', noun="problems")


def _verb(verbs: argparse._SubParsersAction, name: str, helptext: str, runner,  # type: ignore[no-untyped-def,type-arg]
          *, counts: bool = False, payload: str = PAYLOAD, noun: str = "solutions") -> argparse.ArgumentParser:
    v: argparse.ArgumentParser = verbs.add_parser(name, help=helptext,
                                                  description=f"covering queens {name}: {helptext}.")
    v.add_argument("n", type=flags.non_negative, metavar="N")
    svg = "each solution as an SVG board" if name in ("solve", "unique", "random", "list") else None
    flags.add_output(v, flags.SUMMARY_ONLY if counts else payload, svg)
    flags.add_budgets(v)
    v.set_defaults(run=runner, counts=counts, noun=noun)
    return v


def _forms(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--board", action="store_true", help="draw each solution as a board")


def _n(n: int, most: int) -> int:
    if not 1 <= n <= most:
        raise UsageError(f"N must be between 1 and {most}, not {n}")
    return n


def _show(args: argparse.Namespace, run: Run, rows: tuple[int, ...]) -> None:
    if run.json and getattr(args, "board", False):
        raise UsageError("--json and --board cannot go together (--json's lines are the output)")
    svg = getattr(args, "svg", None)
    run.picture_file(svg, lambda: queens.Queens(len(rows)).svg(rows))
    if svg == "-":
        text = ("\n" if run.count else "") + queens.Queens(len(rows)).svg(rows) + "\n"
    elif getattr(args, "board", False) and svg is None:
        text = ("\n" if run.count else "") + queens.board_text(rows) + "\n"
    else:
        text = " ".join(map(str, rows)) + "\n"
    run.answer({"rows": list(rows)}, text)


def run_count(args: argparse.Namespace, run: Run) -> None:
    n = _n(args.n, 32)
    run.limit = args.limit
    run.extra["method"] = "bitboards" if args.limit is None else "search"
    b = run.budget
    if args.limit is None and (b is None or b.nodes is None):
        # The bitboard counter, on --threads (`Queens.count` is it on one).
        run.counted(queens.count(n, threads=threads_from(args)))
        run.done(limited=False)
        return
    run.extra["method"] = "search"
    run.counted(queens.Queens(_n(n, 10**4)).count(args.limit, budget=b))
    run.done()


def _solutions(n: int, limit: int | None, budget: Budget | None, order: str = "input",
               seed: int | None = None) -> Iterable[tuple[int, ...]]:
    puzzle = queens.Queens(n)
    if order == "input":
        yield from puzzle.solutions(limit, budget=budget)
        return
    for ids in puzzle.problem().solver(order=order, seed=seed).solutions(limit, ids=True, budget=budget):
        yield puzzle.decode(ids)


def run_solve(args: argparse.Namespace, run: Run) -> None:
    run.limit = want = flags.wanted(args)
    n = _n(args.n, 10**4)
    if want == 1:  # the portfolio's first solution (dancing links, then the CDCL solver)
        rows = queens.Queens(n).solve(budget=run.budget)
        found: Iterable[tuple[int, ...]] = [] if rows is None else [rows]
    else:
        found = _solutions(n, want, run.budget)
    for rows in found:
        _show(args, run, rows)
    run.done()


def run_random(args: argparse.Namespace, run: Run) -> None:
    run.limit = want = flags.wanted(args)
    seed = flags.seed_for(args, "gives these again")
    for rows in _solutions(_n(args.n, 10**4), want, run.budget, "random", seed):
        _show(args, run, rows)
    run.done()


def run_unique(args: argparse.Namespace, run: Run) -> None:
    two = list(_solutions(_n(args.n, 10**4), 2, run.budget))
    for rows in two[:1]:
        _show(args, run, rows)
    run.uniqueness(Uniqueness.of(len(two)).value)
    run.done(limited=False)


def run_list(args: argparse.Namespace, run: Run) -> None:
    """Every solution in lexicographic order: found a first-column row at a
    time (the queen of column 0 forced), each part sorted, so that a run
    cut short has printed what it found, in order."""
    n = _n(args.n, 14)
    puzzle = queens.Queens(n)
    problem = puzzle.problem()
    for r in range(n):
        solver = problem.solver()
        solver.force(r * n)  # option i * n + j is the square (i, j)
        part: list[tuple[int, ...]] = []
        try:
            for ids in solver.solutions(ids=True, budget=run.budget):
                part.append(puzzle.decode(ids))
        finally:
            for rows in sorted(part):
                _show(args, run, rows)
    run.done(limited=False)


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


def run_export(args: argparse.Namespace, run: Run) -> None:
    write_dlx(queens.queens_problem(_n(args.n, 10**4)), run)


def run_plot(args: argparse.Namespace, run: Run) -> None:
    n = _n(args.n, 10**6)
    if not args.output.endswith((".png", ".svg")):
        raise UsageError(f"--output must end in .svg or .png, not {args.output!r}")
    terms = list(queens.infinite(n))
    points = [(float(k), float(q)) for k, q in enumerate(terms, 1)]
    phi = (1 + math.sqrt(5)) / 2
    # The two lines the seed's plot shows the points gather on.
    lines = [(phi, f"slope phi = {phi:.3f}"), (1 / phi, f"slope 1/phi = {1 / phi:.3f}")]
    title = f"Infinite queens (OEIS A065188): q_n for n = 1..{n}"
    if args.output.endswith(".png"):
        with open(args.output, "wb") as f:
            f.write(scatter_png(points, lines=lines, title=title, ylabel="q_n"))
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(scatter(points, lines=lines, title=title, ylabel="q_n"))
    print(f"covering: wrote {args.output}", file=sys.stderr)
    if run.json:
        run.emit({"plot": args.output})
    run.count = 1
    run.done(limited=False)
