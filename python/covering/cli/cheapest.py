"""``covering dlx --min-cost [--best K]``: the K cheapest solutions of a
``.dlx`` file with DLX5's costs (``|n`` entries), cheapest first.

Text: each solution's option lines, then a line ``cost N``, a blank line
between solutions. ``--json``: one line per solution, ``{"solution": [ids],
"cost": N}``, then the summary with ``"count"`` (solutions printed) and
``"optimal"``. A budget or Ctrl-C prints the best found so far, not proven.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..errors import Interrupted
from ..mincost import Best, MinCostRun, best
from ..problem import Problem
from . import budget
from .common import EXIT_OK, UsageError, note_fewer, show_progress
from .common import interrupted as report_interrupted

__all__ = ["check_flags", "run"]


def check_flags(args: argparse.Namespace) -> None:
    """--best needs --min-cost; --min-cost goes with no other mode or engine."""
    if not args.min_cost:
        if args.best is not None:
            raise UsageError("--best needs --min-cost")
        return
    for flag, value in (("--count", args.count), ("--first", args.first), ("--limit", args.limit is not None),
                        ("--unique", args.unique), ("--engine", args.engine != "auto"),
                        ("--conflicts", args.conflicts is not None), ("--random", args.random is not None),
                        ("--threads", args.threads is not None), ("--backend", args.backend != "threads"),
                        ("--checkpoint", args.checkpoint is not None), ("--memo", args.memo),
                        ("--method", args.method is not None), ("--branching", args.branching is not None),
                        ("--memo-bytes", args.memo_bytes is not None)):
        if value:
            raise UsageError(f"--min-cost and {flag} cannot go together")
    if args.best is None:
        args.best = 1


def _improved(run: MinCostRun) -> None:
    """--progress: each time the search keeps a cheaper solution."""
    stats = run.stats
    cutoff = run.cutoff
    line = f"covering: min-cost: best {stats.optimum}"
    if cutoff is not None and run.k > 1:
        line += f", {run.k}th best {cutoff}"
    print(line + f" ({stats.improvements} kept, {stats.nodes:,} nodes)", file=sys.stderr, flush=True)


def run(args: argparse.Namespace, problem: Problem) -> int:
    start = time.monotonic()
    interrupted = False
    try:
        found: Best = best(problem, args.best, seconds=budget.left(),
                           on_improve=_improved if show_progress(args) else None)
    except Interrupted as e:
        found = e.best  # type: ignore[attr-defined]
        interrupted = True
    if not interrupted and not found.optimal:
        budget.limit_reached()
        interrupted = True
    budget.disarm()  # the work is over: what it found is printed whole
    out = sys.stdout
    for k, solution in enumerate(found):
        if args.json:
            out.write(json.dumps({"solution": list(solution.ids), "cost": solution.cost}) + "\n")
        else:
            if k:
                out.write("\n")
            out.write("".join(problem.label_text(o) + "\n" for o in solution.ids) + f"cost {solution.cost}\n")
    if args.json:
        stats = found.stats
        out.write(json.dumps({
            "count": len(found),
            "optimal": found.optimal,
            "nodes": stats.nodes,
            "seconds": round(time.monotonic() - start, 6),
            "interrupted": interrupted,
            "stopped": budget.stopped(interrupted),
            "complete": found.optimal,
        }) + "\n")
    out.flush()
    if found.all_there_are:
        note_fewer(len(found), args.best, f"--best {args.best}")
    if interrupted:
        return report_interrupted(len(found), "solutions printed (not proven the cheapest)", stdout=False)
    return EXIT_OK
