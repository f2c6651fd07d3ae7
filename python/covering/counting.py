"""One door for every count: the method picked by the problem's shape.

Three exact methods count solutions without listing them:

* **frontier**: the options decided in the order of their first primary
  item, each step keeping only the distinct frontiers with their numbers of
  ways (the transfer-matrix method; `xc::Frontier`): memory grows with the
  widest frontier, time with the frontiers met, and on a board numbered row
  by row the frontier is a band of about a row;

* **search**: Knuth's dancing links on every core (`covering.parallel`),
  whose time grows with the number of nodes of the search tree;
* **memo**: the search that looks up sub-problems met before
  (`covering.memo`), whose time grows with the number of *different*
  sub-problems: on boards, where the same frontier comes back under many
  ways of tiling what is behind it, that is a transfer matrix in disguise,
  and counts past 10^20 come out in moments.

Neither wins everywhere: the memo searches queens about as long as the plain
search and only costs memory there, and it cannot take multiplicities.
`method="auto"` counts at the frontier when its key is at most
`FRONTIER_BITS` bits (its steps are then bounded: boards, row by row);
otherwise it decides with a short probe: the memo with each branching
rule ("first", then "mrv") for a few thousand nodes. A probe that finishes
is the answer; a probe whose sub-problems came back often enough (hits over
nodes) goes on with that rule; otherwise the search counts, on threads. The
choice is made by node counts, never by the clock, so the same problem
always goes the same way; `Counted.method` says which. An explicit engine,
number of threads, backend, checkpoint or node budget means a search,
unless ``method="memo"`` is given.

>>> from covering.puzzles.polyomino import l_tromino
>>> from covering.puzzles.queens import queens_problem
>>> c = count(l_tromino(12))
>>> c.count, c.method, c.reason
(2033502499954, 'frontier', 'a frontier of 14 bits')
>>> c = count(queens_problem(8))
>>> c.count, c.method
(92, 'search')
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import _core, limits
from .errors import Interrupted, LimitReached, ProblemError
from .model import ProblemData
from .memo import memo_budget
from .progress import Status, every, solver_status
from .solver import Solver

__all__ = ["Counted", "count", "memo_rule", "METHODS", "BRANCHINGS"]

METHODS = ("auto", "search", "memo", "frontier")
BRANCHINGS = ("first", "mrv")

#: Nodes of each memo probe.
PROBE_NODES = 20_000
#: Sub-problems found again per node searched, past which the memo goes on.
HIT_RATIO = 0.3
#: Seconds between the progress reports of a memo count.
PROGRESS_SLICE = 0.5
#: Frontiers of at most this many bits of key (tables of 2^22 counts)
#: are counted at the frontier by default: the states of a step are then
#: bounded, and so are its time and memory.
FRONTIER_BITS = 22
#: Transitions of a frontier count between its progress reports and checks.
FRONTIER_SLICE = 1 << 22
#: Search trees estimated below this many nodes are searched at once.
SMALL_TREE = 100_000


@dataclass(frozen=True)
class Counted:
    """A count, and how it was made."""

    count: int
    #: "frontier", "memo", "search" or "sat" (the CDCL solver, up to a limit).
    method: str
    #: The memo's branching rule ("first" or "mrv"), None for a search.
    branching: str | None
    #: Nodes searched (by the method that counted; decisions for "sat").
    nodes: int
    #: Why this method: "asked", "small tree", "probe finished", "sub-problems
    #: repeat", "few repeats", "no memo (...)".
    reason: str


def check_method(method: str, branching: str | None) -> None:
    """`ValueError` for a method or branching rule that does not exist.

    >>> check_method("memo", "diagonal")
    Traceback (most recent call last):
    ...
    ValueError: branching must be one of 'first', 'mrv', not 'diagonal'
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, not {method!r}")
    if branching is not None and branching not in BRANCHINGS:
        raise ValueError(f"branching must be one of {', '.join(map(repr, BRANCHINGS))}, not {branching!r}")
    if branching is not None and method in ("search", "frontier"):
        raise ValueError(f"branching is a rule of the memo count: not with method={method!r}")


def count(
    problem: ProblemData,
    limit: int | None = None,
    *,
    method: str = "auto",
    branching: str | None = None,
    engine: str = "auto",
    threads: int | None = None,
    memo_bytes: int | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    progress: Callable[[Status], None] | None = None,
) -> Counted:
    """Counts the solutions of `problem` by `method` ("auto", "search" or
    "memo"); see the module's text. With `limit`, a search on one thread
    stops once that many are found (and returns at most `limit`). `branching` fixes the memo's rule;
    `engine` and `threads` are the search's (given, they mean a search under
    "auto"); `memo_bytes` bounds the memo; `nodes` and `seconds` are budgets
    (`LimitReached` with the count so far); `progress` gets a `Status`
    every half second, from the memo or the search on threads.

    >>> from covering.puzzles.polyomino import DOMINOES, Board, tiling
    >>> count(tiling(DOMINOES, Board.rectangle(8, 8), uses="any"), method="memo").count
    12988816
    """
    check_method(method, branching)
    limit, nodes, seconds = limits.limit(limit), limits.nodes(nodes), limits.seconds(seconds)
    if engine == "sat":
        # The CDCL solver blocks each solution it finds: a count up to a limit.
        from .sat import SatSolver

        if limit is None:
            raise ValueError("engine='sat' counts only up to a limit (it blocks each solution found); "
                             "count all the solutions with the counting engines (engine='auto')")
        if method == "memo":
            raise ValueError("engine='sat' is a search (nodes= counts its decisions): not method='memo'")
        sat = SatSolver(problem)
        n = sat.count(limit, nodes=nodes, seconds=seconds)
        return Counted(n, "sat", None, sat.stats.decisions, "limit")
    if method == "memo":
        if limit is not None:
            raise ValueError("a memo count cannot stop at a limit: it does not meet solutions one by one")
        if engine != "auto":
            raise ValueError("a memo count has its own engine (bitsets); leave engine='auto'")
    if memo_bytes is not None and (method == "search" or limit is not None):
        raise ValueError("memo_bytes is for memo counts: pass method='memo'")
    if limit is not None:
        # Stopping at a limit meets solutions one by one: a search, on one thread.
        solver = Solver(problem, engine=engine)
        problem.remember(solver)
        with _reporting(solver, progress):
            n = solver.count(limit, nodes=nodes, seconds=seconds)
        return Counted(n, "search", None, solver.stats.nodes, "limit")
    if method == "auto" and (engine != "auto" or threads is not None):
        method, why = "search", "asked"
    elif method == "auto" and nodes is not None:
        # A node budget is counted in the search's nodes (a memo node is
        # another thing): it means a search.
        method, why = "search", "node budget"
    elif method != "auto":
        why = "asked"
    if method == "search":
        return _search(problem, engine, threads, nodes, seconds, progress, why)
    compiled = problem.compile()
    if method == "frontier":
        return _frontier(_core.FrontierCount(compiled), nodes, seconds, progress, "asked")
    if method == "auto" and branching is None and memo_bytes is None:
        # A narrow frontier (a board counted row by row) is counted there:
        # its steps hold at most 2^FRONTIER_BITS states.
        try:
            frontier: _core.FrontierCount | None = _core.FrontierCount(compiled)
        except ProblemError:
            frontier = None
        if frontier is not None and frontier.key_bits <= FRONTIER_BITS:
            return _frontier(frontier, nodes, seconds, progress, f"a frontier of {frontier.key_bits} bits")
    budget = memo_budget(memo_bytes)
    if method == "memo":
        return _memo(_core.MemoCount(compiled, budget, branching or "mrv"), branching or "mrv", nodes, seconds,
                     "asked", progress)
    # auto: a small tree is searched at once; else the memo is probed. (A
    # problem too big for the memo is searched in any case: no estimate.)
    if compiled.n_options > _core.MEMO_MAX_OPTIONS:
        return _search(problem, engine, threads, nodes, seconds, progress, "no memo (too many options)")
    if _core.estimate_nodes(compiled, 16, 0) < SMALL_TREE:
        return _search(problem, engine, threads, nodes, seconds, progress, "small tree")
    best: tuple[float, str, _core.MemoCount] | None = None
    for rule in (branching,) if branching else BRANCHINGS:
        try:
            counter = _core.MemoCount(compiled, budget, rule)
        except ProblemError as e:
            return _search(problem, engine, threads, nodes, seconds, progress, f"no memo ({e})")
        try:
            total = counter.run(PROBE_NODES)
        except KeyboardInterrupt:
            raise Interrupted(int(counter.partial), counter.stats) from None
        searched, hits = counter.stats[:2]
        if total is not None:
            return Counted(int(total), "memo", rule, searched, "probe finished")
        ratio = hits / max(1, searched)
        if best is None or ratio > best[0]:
            best = (ratio, rule, counter)
    assert best is not None
    ratio, rule, counter = best
    if ratio >= HIT_RATIO:
        return _memo(counter, rule, nodes, seconds, "sub-problems repeat", progress)
    return _search(problem, engine, threads, nodes, seconds, progress, "few repeats")


def _search(problem: ProblemData, engine: str, threads: int | None, nodes: int | None, seconds: float | None,
            progress: Callable[[Status], None] | None, why: str) -> Counted:
    if threads is not None:
        threads = limits.threads(threads)
    if threads == 1:
        solver = Solver(problem, engine=engine)
        problem.remember(solver)
        with _reporting(solver, progress):
            n = solver.count(nodes=nodes, seconds=seconds)
        return Counted(n, "search", None, solver.stats.nodes, why)
    from .parallel import ParallelSearch

    ps = ParallelSearch(problem, threads, engine=engine)
    n = ps.count(nodes=nodes, seconds=seconds, progress=progress)
    return Counted(n, "search", None, ps.nodes, why)


@contextlib.contextmanager
def _reporting(solver: Solver, progress: Callable[[Status], None] | None) -> Iterator[None]:
    """While the block runs, a `Status` of `solver` to `progress` every
    half second (and once at the end)."""
    if progress is None:
        yield
        return
    import time

    start = time.monotonic()

    def report() -> None:
        assert progress is not None
        progress(solver_status(solver, start))

    with every(PROGRESS_SLICE, report):
        try:
            yield
        finally:
            report()


def memo_rule(problem: ProblemData, memo_bytes: int | None = None) -> str:
    """The memo's better branching rule for `problem`, by the same probe as
    `count` (for `Problem.to_zdd`): the rule whose probe finished, else the
    one whose sub-problems came back most often.

    >>> from covering.puzzles.polyomino import l_tromino
    >>> memo_rule(l_tromino(12))
    'first'
    """
    compiled = problem.compile()
    best = (-1.0, "mrv")
    for rule in BRANCHINGS:
        counter = _core.MemoCount(compiled, memo_budget(memo_bytes), rule)
        if counter.run(PROBE_NODES) is not None:
            return rule
        searched, hits = counter.stats[:2]
        best = max(best, (hits / max(1, searched), rule), key=lambda b: b[0])
    return best[1]


def _frontier(counter: _core.FrontierCount, nodes: int | None, seconds: float | None,
              progress: Callable[[Status], None] | None, why: str) -> Counted:
    """Runs a frontier count to its end or its budget (`nodes` counts its
    transitions). Stopped early, it knows no partial count: `LimitReached`
    and `Interrupted` carry none, and the progress says how far the scan
    got (item k of n, the states held)."""
    import time

    from .sizes import max_memory

    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    stop = None if nodes is None else nodes

    def report(total: int | None = None) -> None:
        if progress is not None:
            item, items, states, peak, held, work = counter.progress
            # The fraction of the scan: steps cost about the same on a board.
            fraction = 1.0 if total is not None else item / max(1, items)
            progress(Status(work, total or 0, 0, 0, fraction, 0.0, time.monotonic() - start,
                            frontier=(items if total is not None else item, items, states)))

    try:
        while True:
            done = counter.progress[5]
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            work = FRONTIER_SLICE if stop is None else min(FRONTIER_SLICE, max(0, stop - done))
            total = counter.run(work, left, max_memory())
            if total is not None:
                report(total)
                return Counted(int(total), "frontier", None, counter.progress[5], why)
            report()
            if (stop is not None and counter.progress[5] >= stop) or (
                    deadline is not None and time.monotonic() >= deadline):
                item, items = counter.progress[:2]
                where = f"item {item} of {items} of the frontier count"
                raise LimitReached(f"budget reached at {where} (no partial count: the frontier knows none)",
                                   count=None, stats=counter.progress, where=where)
    except KeyboardInterrupt:
        item, items = counter.progress[:2]
        raise Interrupted(None, counter.progress, where=f"item {item} of {items} of the frontier count") from None


def _memo(counter: _core.MemoCount, rule: str, nodes: int | None, seconds: float | None, why: str,
          progress: Callable[[Status], None] | None = None) -> Counted:
    """Runs the memo count to its end or its budget. With `progress`, the
    run goes in slices of half a second (the count is the same: a slice
    stops and resumes the one search), each followed by a `Status` with
    the solutions counted so far and the sub-problems remembered, but no
    fraction: Knuth's estimate from the path (choice k of d at each level)
    assumes every choice costs the same, and in a memo search the first
    choices cost nearly all (the later ones are looked up). Measured on the
    L-tromino 18 x 18 board: 0.0% after 19 s, "about 10^12 days left"."""
    import time

    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    stop = None if nodes is None else counter.stats[0] + nodes
    try:
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            node_left = None if stop is None else max(0, stop - counter.stats[0])
            if progress is None:
                total = counter.run(node_left, left)
            else:
                total = counter.run(node_left, PROGRESS_SLICE if left is None else min(left, PROGRESS_SLICE))
                nodes_done, _, entries = counter.stats[:3]
                progress(Status(nodes_done, int(counter.partial), 0, 0, None, 0.0, time.monotonic() - start,
                                remembered=entries))
            if total is not None:
                if progress is not None:
                    progress(Status(counter.stats[0], int(total), 0, 0, 1.0, 0.0, time.monotonic() - start,
                                    remembered=counter.stats[2]))
                break
            if progress is None or node_left == 0 or (deadline is not None and time.monotonic() >= deadline):
                raise LimitReached(f"budget reached after {counter.partial} solutions",
                                   count=int(counter.partial), stats=counter.stats)
    except KeyboardInterrupt:
        raise Interrupted(int(counter.partial), counter.stats) from None
    return Counted(int(total), "memo", rule, counter.stats[0], why)
