"""Counting on every core: the engine's threads in this process.

The search tree is cut into *pieces*: lists of option ids, ``o`` to put
option ``o`` into every solution, ``-o - 1`` to leave it out. The children
of a node partition its solutions, so the counts of the pieces add up to
the count of the problem, however it is cut and whoever counts each piece.
Each piece also carries a *weight*, its estimated share of the tree, so that
the fraction of the work done can be summed over pieces finished and running.

`ParallelSearch` runs the engine's threads (the default of
`Problem.count()`); idle threads take the unexplored part of busy ones.
Tasks on a process pool or a cluster are in `covering.cluster`
(`distributed_count`, `run_piece`, also importable from here).

>>> from covering.puzzles.polyomino import l_tromino
>>> ParallelSearch(l_tromino(7, 0), threads=2).count()
1440
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from . import _core, limits
from .errors import Interrupted, LimitReached
from .model import ProblemData
from .progress import Status, every
from .solver import Solver, search_engine
from .runs import Runs, remember

__all__ = ["ParallelSearch", "default_threads", "fingerprint", "Status"]

#: Moved to `covering.cluster` and `covering.checkpoint`; still importable from here.
Piece = list[int]

#: A search that ends within this many seconds is not worth splitting (and
#: the part done in that time is not done again: its frontier is split).
SMALL = 0.01
#: Pieces per thread left by that search past which the split starts over.
FRONTIER_MOST = 200


def default_threads() -> int:
    """``COVERING_THREADS`` if set, else the number of cores.

    >>> default_threads() >= 1
    True
    """
    env = os.environ.get("COVERING_THREADS", "").strip()
    if env:
        if not env.isdigit():
            raise limits.BudgetError(f"COVERING_THREADS: must be a positive integer, not {env!r}")
        return limits.threads(int(env), "COVERING_THREADS")
    return os.cpu_count() or 1


def fingerprint(compiled: _core.CompiledProblem) -> str:
    """A SHA-256 of the compiled arrays: equal for equal problems only.

    >>> from covering import Problem
    >>> a = Problem.from_dlx("A B\\nA\\nB\\n"); b = Problem.from_dlx("A B\\nA B\\n")
    >>> fingerprint(a.compile()) == fingerprint(b.compile())
    False
    """
    # Imported here: only checkpoints and clusters take fingerprints, and
    # hashlib with json cost every command about 4 ms of its start.
    import hashlib
    import json

    h = hashlib.sha256()
    for part in compiled.arrays():
        h.update(json.dumps(part).encode())
        h.update(b"|")
    return h.hexdigest()


class ParallelSearch:
    """Counts, or lists, the solutions of `problem` on `threads` of the
    engine's threads (default: `default_threads()`).

    >>> from covering.puzzles.queens import queens_problem
    >>> s = ParallelSearch(queens_problem(8), threads=2)
    >>> sorted(s.solutions(ids=True)) == sorted(queens_problem(8).solutions(ids=True))
    True
    """

    def __init__(self, problem: ProblemData, threads: int | None = None, *, engine: str = "auto", seed: int = 0,
                 branching: str = "mrv", runs: Runs | None = None):
        self.problem = problem
        self.runs = runs  # (where its one-thread start is remembered)
        self.threads = default_threads() if threads is None else limits.threads(threads)
        # The engine's name says the branching rule too (`search_engine`).
        self.engine = search_engine(engine, branching)
        self.seed = seed
        self._compiled = problem.compile()
        self._pool = _core.Pool(self._compiled, self.threads, self.engine)
        self._estimates: list[float] = []
        #: (solutions, nodes) of the single-thread start, before the split,
        #: and the part of the tree it explored.
        self._base = (0, 0)
        self._explored = 0.0
        self._complete = False
        self.nodes = 0
        self.solutions_found = 0

    def pieces(self, per_thread: int = 50, roots: list[Piece] | None = None,
               weight: float = 1.0) -> tuple[list[Piece], list[float]]:
        """Pieces for the threads, with their weights: the tree (or `roots`,
        together weighing `weight`) cut by estimate into about `per_thread`
        per thread; a piece weighs its share of the estimated nodes."""
        roots = [[]] if roots is None else roots
        split = _core.split_pieces(self._compiled, roots, per_thread * self.threads, 16, self.seed, self.engine)
        self._estimates = [e for _, e in split]
        total = sum(self._estimates) or 1.0
        return [p for p, _ in split], [weight * e / total for e in self._estimates]

    def cancel(self) -> None:
        """Stops the threads (from another thread) within milliseconds."""
        self._pool.cancel()

    def progress(self, start: float) -> Status:
        """Where the count stands: the fraction done is Knuth's, summed over
        the pieces finished and running (each by its weight)."""
        at = self._pool.progress
        estimate = sum(self._estimates)
        fraction = 1.0 if self._complete else min(1.0, at.fraction + self._explored)
        return Status(at.nodes + self._base[1], at.solutions + self._base[0], at.pieces_done, at.pieces_made,
                      fraction, estimate, time.monotonic() - start)

    def count(
        self,
        *,
        nodes: int | None = None,
        seconds: float | None = None,
        progress: Callable[[Status], None] | None = None,
        interval: float = 0.5,
        budget: limits.Budget | None = None,
    ) -> int:
        """The number of solutions. `nodes` and `seconds` are budgets within
        the run's `budget` (then `LimitReached`, with the count so far);
        `progress` is called every `interval` seconds with a `Status`;
        Ctrl-C stops the threads and raises KeyboardInterrupt (the partial
        count is in `solutions_found`)."""
        run = limits.begin(budget, nodes, seconds)
        nodes = run.nodes
        start = time.monotonic()
        # A small search is done before a split would pay: try one thread first.
        solver = Solver(self.problem, engine=self.engine, memory=run.memory)
        remember(self.runs, solver)
        try:
            n = solver.count(seconds=SMALL, budget=run)
            self.nodes, self.solutions_found = solver.stats.nodes, n
            return n
        except Interrupted:
            self.nodes, self.solutions_found = solver.stats.nodes, solver.stats.solutions
            raise
        except LimitReached:
            if run.over() or (nodes is not None and solver.stats.nodes >= nodes):
                self.nodes, self.solutions_found = solver.stats.nodes, solver.stats.solutions
                raise
        # The rest of that search, cut for the threads: no work is done twice.
        done_count, done_nodes = solver.stats.solutions, solver.stats.nodes
        # A deep, bushy start leaves thousands of siblings on its path, each
        # to be measured and set up on its own: starting over from the root
        # costs less (measured: 2,263 roots of hexominoes on 10 x 21 took 5.7
        # s to measure, after 0.01 s of search). They are not even made: each
        # is a copy of the path above it, and the 30,000 levels of an
        # L-tromino board of 300 x 300 took 96 s to make them, deaf to Ctrl-C.
        roots = solver.frontier_shares(most=FRONTIER_MOST * self.threads)
        if roots is None:
            done_count = done_nodes = 0
            roots = [([], 1.0)]
        self._base = (done_count, done_nodes)
        rest = sum(w for _, w in roots)
        self._explored = max(0.0, 1.0 - rest)
        try:
            pieces, weights = self.pieces(roots=[p for p, _ in roots], weight=rest)
        except KeyboardInterrupt:
            # Ctrl-C while the tree is being cut: what the start counted.
            self.nodes, self.solutions_found = done_nodes, done_count
            raise Interrupted(done_count, self.progress(start)) from None
        with every(interval, None if progress is None else lambda: progress(self.progress(start))):
            count, used, _, interrupted, complete = self._pool.count(pieces, weights, run)
        count += done_count
        self.nodes, self.solutions_found = used + done_nodes, count
        self._complete = complete
        if progress is not None:
            progress(self.progress(start))
        if interrupted:
            raise Interrupted(count, self.progress(start))
        if not complete:
            raise LimitReached(f"budget reached after {count} solutions", count=count, stats=self.progress(start),
                               budget=run.ran_out())
        return count

    def solutions(self, limit: int | None = None, *, ids: bool = False,
                  budget: limits.Budget | None = None) -> Iterator[Any]:
        """The solutions, found by all the threads (in no particular order),
        until the run's `budget` runs out (then `LimitReached`)."""
        run = limits.begin(budget)
        self._pool.start_solutions(self.pieces(8)[0])
        found = 0
        try:
            while limit is None or found < limit:
                sol = self._pool.next_solution(run)
                if sol is None:
                    if run.over():
                        raise LimitReached(f"budget reached after {found} solutions", count=found,
                                           stats=self.progress(time.monotonic()), budget=run.ran_out())
                    return
                found += 1
                yield tuple(sol) if ids else [self.problem.label(o) for o in sol]
        finally:
            self._pool.cancel()
