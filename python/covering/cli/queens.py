"""``covering queens``: count, list, the infinite sequence, and its plot."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from .. import _core
from ..puzzles import queens
from ..render.plot import scatter, scatter_png
from ..errors import Interrupted
from . import budget
from .common import UsageError, add_threads_flag, interrupted, non_negative, threads_from, write_dlx

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("queens", help="n-queens and the infinite queens sequence",
                       description="n-queens: count (bitboards), list (exact cover), and the infinite "
                       "queens sequence of TAOCP 7.2.2.1 (OEIS A065188).")
    q = p.add_subparsers(dest="action", metavar="ACTION")
    q.required = True
    c = q.add_parser("count", help="count the solutions of n-queens (OEIS A000170)")
    c.add_argument("n", type=non_negative)
    c.add_argument("--json", action="store_true", help='print {"n": ..., "count": ..., "seconds": ...}')
    add_threads_flag(c)
    c.set_defaults(run=run_count)
    li = q.add_parser("list", help="list the solutions, one a line, in lexicographic order")
    li.add_argument("n", type=non_negative)
    form = li.add_mutually_exclusive_group()
    form.add_argument("--board", action="store_true", help="draw each solution as a board")
    form.add_argument("--json", action="store_true", help='one JSON object a line: {"rows": [...]} (0-based)')
    form.add_argument("--svg", action="store_true", help="an SVG picture per solution, a blank line between")
    li.set_defaults(run=run_list)
    inf = q.add_parser("infinite", help="the first N terms of the infinite queens sequence")
    inf.add_argument("n", type=non_negative, metavar="N")
    inf.add_argument("--zero-based", action="store_true", help="rows from 0, as seed 003 writes them")
    inf.set_defaults(run=run_infinite)
    ex = q.add_parser("export", help="write the exact cover problem of n-queens in Knuth's .dlx format")
    ex.add_argument("n", type=non_negative, metavar="N")
    ex.set_defaults(run=run_export)
    pl = q.add_parser("plot", help="plot q_n against n, with the lines of slope phi and 1/phi")
    pl.add_argument("n", type=non_negative, metavar="N")
    pl.add_argument("--output", "-o", required=True, help="the file to write: .svg or .png")
    pl.set_defaults(run=run_plot)


def _n(n: int, most: int) -> int:
    if not 1 <= n <= most:
        raise UsageError(f"n must be between 1 and {most}, not {n}")
    return n


def run_count(args: argparse.Namespace) -> int:
    n = _n(args.n, 32)
    start = time.monotonic()
    try:
        count = queens.count(n, threads=threads_from(args))
    except Interrupted as e:
        seconds = time.monotonic() - start
        if args.json:
            print(json.dumps({"n": n, "count": e.count, "seconds": round(seconds, 6), "interrupted": True,
                              "stopped": budget.stopped(True), "complete": False}))
        return interrupted(e.count, stdout=not args.json)
    seconds = time.monotonic() - start
    if args.json:
        print(json.dumps({"n": n, "count": count, "seconds": round(seconds, 6), "interrupted": False, "stopped": None,
                          "complete": True}))
    else:
        print(count)
    return 0


def run_list(args: argparse.Namespace) -> int:
    n = _n(args.n, 14)
    puzzle = queens.Queens(n)
    for k, rows in enumerate(queens.solutions(n)):
        if args.board or args.svg:
            if k:
                print()
            print(puzzle.svg(rows) if args.svg else queens.board_text(rows))
        elif args.json:
            print(json.dumps({"rows": list(rows)}))
        else:
            print(" ".join(map(str, rows)))
    return 0


def run_infinite(args: argparse.Namespace) -> int:
    queens.check_terms(args.n)
    source = _core.InfiniteQueens()
    offset = 1 if args.zero_based else 0
    left = args.n
    first = True
    while left > 0:
        k = min(left, 1 << 20)
        chunk = source.take_text(k, offset)
        sys.stdout.write(chunk if first else " " + chunk)
        first = False
        left -= k
    sys.stdout.write("\n")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from ..puzzles.queens import queens_problem

    return write_dlx(queens_problem(_n(args.n, 10**4)))


def run_plot(args: argparse.Namespace) -> int:
    n = _n(args.n, 10**6)
    terms = list(queens.infinite(n))
    points = [(float(k), float(q)) for k, q in enumerate(terms, 1)]
    phi = (1 + math.sqrt(5)) / 2
    # The two lines the seed's plot shows the points gather on.
    lines = [(phi, f"slope phi = {phi:.3f}"), (1 / phi, f"slope 1/phi = {1 / phi:.3f}")]
    title = f"Infinite queens (OEIS A065188): q_n for n = 1..{n}"
    if args.output.endswith(".png"):
        with open(args.output, "wb") as f:
            f.write(scatter_png(points, lines=lines, title=title, ylabel="q_n"))
    elif args.output.endswith(".svg"):
        svg = scatter(points, lines=lines, title=title, ylabel="q_n")
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(svg)
    else:
        raise UsageError(f"--output must end in .svg or .png, not {args.output!r}")
    print(f"wrote {args.output}", file=sys.stderr)
    return 0
