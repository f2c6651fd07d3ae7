"""``covering dlx``: solve a problem in Knuth's ``.dlx`` format.

Solutions are printed as their option lines, as written in the input, one a
line, with a blank line between solutions; ``--count`` prints only the count
(on the last line); ``--json`` prints one JSON object a line instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings

from ..dlxfile import read_dlx
from ..errors import LimitReached, OptionSkippedWarning, ProblemError
from ..problem import Problem
from .common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    UsageError,
    add_progress_flags,
    non_negative,
    progress,
    read_input,
    warn,
)


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "dlx",
        help="solve a problem in Knuth's .dlx format",
        description="Solve an exact cover problem written in Knuth's DLX1/DLX2/DLX3 format.",
    )
    p.add_argument("file", nargs="?", default="-", help="the .dlx file ('-' or nothing: stdin)")
    p.add_argument("--count", action="store_true", help="print only the number of solutions")
    p.add_argument("--first", action="store_true", help="stop after the first solution (= --limit 1)")
    p.add_argument("--limit", type=non_negative, metavar="N", help="stop after N solutions")
    p.add_argument("--random", type=non_negative, metavar="SEED",
                   help="try options in a random order, fixed by SEED")
    p.add_argument("--json", action="store_true",
                   help='one JSON object a line: {"solution": [...]} each, then the count and stats')
    add_progress_flags(p)
    p.set_defaults(run=run)


def load(path: str) -> Problem:
    """Reads a .dlx file; errors and warnings name the file and line."""
    text, name = read_input(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OptionSkippedWarning)
        try:
            problem = read_dlx(text)
        except ProblemError as e:
            lineno = getattr(e, "lineno", None)
            message = str(e)
            if lineno is not None:
                message = f"{name}:{lineno}: " + message.split(": ", 1)[1]
            else:
                message = f"{name}: {message}"
            raise type(e)(message) from None
    for w in caught:
        warn(f"{name}:{str(w.message).removeprefix('line ')}")
    return problem


def run(args: argparse.Namespace) -> int:
    if args.first and args.limit is not None:
        raise UsageError("--first and --limit cannot go together")
    limit = 1 if args.first else args.limit
    problem = load(args.file)
    order = "random" if args.random is not None else "input"
    solver = problem.solver(order=order, seed=args.random)
    labels = problem.labels
    start = time.monotonic()
    interrupted = False
    found = 0
    out = sys.stdout
    try:
        with progress(args, solver):
            if args.count:
                found = solver.count(limit)
            else:
                for ids in solver.solutions(limit, ids=True):
                    if args.json:
                        out.write(json.dumps({"solution": list(ids)}) + "\n")
                    else:
                        if found:
                            out.write("\n")
                        out.write("".join(labels[o] + "\n" for o in ids))
                    found += 1
    except KeyboardInterrupt:
        interrupted = True
        if args.count:
            found = solver.stats.solutions
    except LimitReached:  # no budget is set here, but stay exact if one were
        interrupted = True
    seconds = time.monotonic() - start
    st = solver.stats
    if args.json:
        summary = {
            "count": found,
            "nodes": st.nodes,
            "updates": st.updates,
            "mems": st.mems,
            "seconds": round(seconds, 6),
            "interrupted": interrupted,
            "complete": solver.exhausted and not interrupted,
        }
        out.write(json.dumps(summary) + "\n")
    elif args.count:
        out.write(f"{found}\n")
    out.flush()
    if interrupted:
        print(f"covering: interrupted after {found} solutions", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK
