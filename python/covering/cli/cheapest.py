"""``covering dlx best [--limit K]``: the K cheapest solutions of a
``.dlx`` file with DLX5's costs (``|n`` entries), cheapest first.

Text: each solution's option lines, then a line ``cost N``, a blank line
between solutions. ``--json``: one line per solution, ``{"solution": [ids],
"cost": N}``, then the summary with ``"count"`` (solutions printed) and
``"optimal"``. A budget or Ctrl-C prints the best found so far, not proven.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import Interrupted
from ..mincost import Best, MinCostRun, best
from . import budget
from .common import show_progress
from .dlxtext import load, write_solution
from .grammar import UsageError
from .contract import Run

__all__ = ["run_best"]


def _improved(run: MinCostRun) -> None:
    """--progress: each time the search keeps a cheaper solution."""
    stats = run.stats
    cutoff = run.cutoff
    line = f"covering: min-cost: best {stats.optimum}"
    if cutoff is not None and run.k > 1:
        line += f", {run.k}th best {cutoff}"
    print(line + f" ({stats.improvements} kept, {stats.nodes:,} nodes)", file=sys.stderr, flush=True)


def run_best(args: argparse.Namespace, run: Run) -> None:
    k = 1 if args.limit is None else args.limit
    if k < 1:
        raise UsageError("--limit must be at least 1 (the K cheapest)")
    run.limit = k
    problem = load(args.file)
    interrupted = False
    try:
        found: Best = best(problem, k, budget=run.budget,
                           on_improve=_improved if show_progress(args) else None)
    except Interrupted as e:
        found = e.best  # type: ignore[attr-defined]
        interrupted = True
    if not interrupted and not found.optimal:
        run.limit_reached()  # a budget ended the search: the best so far, not proven
    run.disarm()  # the work is over: what it found is printed whole
    for solution in found:
        write_solution(run, problem, solution.ids, cost=solution.cost)
    if not found and found.optimal:
        run.no_solution()
    run.extra.update(optimal=found.optimal, nodes=found.stats.nodes)
    if interrupted or not found.optimal:
        run.noun = "solutions printed (not proven the cheapest)"
        raise KeyboardInterrupt
    run.done(limited=not found.all_there_are)
