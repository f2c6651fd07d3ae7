"""One door for every count: the method picked by measuring the problem.

Three exact methods count solutions without listing them:

* **frontier**: the primary items settled one by one in an order chosen to
  keep the frontier narrow (`_core.choose_item_order`: the input order,
  Cuthill-McKee and its reverse, greedy narrowest-frontier orders; with
  multiplicities also the spectral order, weighed by trial runs), each
  step deciding the options whose first item it is and keeping only the
  distinct frontiers with their numbers of ways (the transfer-matrix
  method; `xc::Frontier`): memory grows with the widest frontier, time with
  the frontiers met, whatever the numbering of the items;
* **search**: Knuth's dancing links on every core (`covering.parallel`),
  whose time grows with the number of nodes of the search tree;
* **memo**: the search that looks up sub-problems met before
  (`covering.memo`), whose time grows with the number of *different*
  sub-problems (its "first" rule takes the items in the same chosen order).

Neither wins everywhere, so `method="auto"` measures, in work (transitions,
nodes), never in time, so that the same problem always goes the same way:

0. primary items of bounds 0:1 are made secondary, which they are
   (`reduction.optional_as_secondary`); then on a problem small enough
   that `REDUCE_WORK` units an entry stay within `REDUCE_WORK_MOST`, the
   options and items that cannot matter are
   taken out first, as Knuth's DLX-PRE does (`covering.reduction`), and the
   problem left is counted when that took out at least `REDUCE_SHARE` of the
   options: the count is the same, and the problem smaller (a 12x12
   slitherlink loses half its options, and its memo count takes a third of
   the time; the pentominoes 6x10 lose 7%);
1. a tree that Knuth's estimate puts under `SMALL_TREE` nodes is searched
   (given up past `SMALL_TREE_CHECK` times that many: the estimate was
   wrong; with multiplicities past `SMALL_TREE`), and one it puts under
   `SMALL_TREE_MAYBE` times that is searched for `SMALL_TREE` nodes, in
   case it overrates it;
2. the order's predicted transitions (`2^cost`) under `2^FRONTIER_SURE`,
   or its frontier at most `FRONTIER_BITS` wide: the frontier counts;
3. else the memo is probed with each branching rule for `probe_nodes`
   nodes (a probe that finishes is the answer);
4. the methods still in the running (the frontier unless its prediction
   is past `2^FRONTIER_HOPELESS` and its order was not weighed by a trial
   run; the memo if its sub-problems came back, `HIT_RATIO` of its
   lookups or `SHRINK` times fewer nodes, more against a search on
   bitsets, `memo_in_running`; else the search) run in turns of doubling
   work until one finishes, and a method
   that runs out of memory drops out. Against the memo each turn is worth
   about the same time to each (`MEMO_NODES_PER_TRANSITION`). Against the
   search, both are priced in one unit from their own counters
   (`search_cost`, `frontier_cost`: mems, updates and nodes, never a
   clock); the frontier first spends `FRONTIER_FREE` of what Knuth's
   estimate says the whole search costs, then `FRONTIER_SHARE` of the
   search's turns: a search that wins loses about a quarter, and a frontier
   many times faster wins (REDRECT-DLX 3 8: the search, 3.8 s where it
   takes 3.0 s alone; copies of polyiamonds on a 5x5 rhombus: the
   frontier, 0.7 s where the search takes 23 s);
5. nothing in the running, or Knuth's estimate of the search tree far
   below the frontier's prediction (`FRONTIER_SLACK` bits; the prediction
   is a bound that runs high where options rule each other out, as in
   queens) on a problem without multiplicities (with them the prediction
   says nothing: their counts widen every key): the search, on every core.

`threads` and `engine` set how a search runs, and no longer choose it; a
node budget (counted in the search's nodes) means a search. `Counted`
says which method counted, the item order and its width, and why.

>>> from covering.puzzles.polyomino import l_tromino
>>> from covering.puzzles.queens import queens_problem
>>> c = count(l_tromino(12))
>>> c.count, c.method, c.width
(2033502499954, 'frontier', 14)
>>> c = count(queens_problem(8))
>>> c.count, c.method
(92, 'search')
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from . import _core, limits, reduction
from .errors import Interrupted, LimitReached, MemoryLimitError, ProblemError
from .model import ProblemData
from .memo import memo_budget
from .progress import Status, every, solver_status
from .solver import BRANCHINGS as SEARCH_BRANCHINGS
from .solver import Solver, search_engine

__all__ = ["Counted", "count", "memo_rule", "memo_in_running", "METHODS", "BRANCHINGS", "ITEM_ORDERS"]

METHODS = ("auto", "search", "memo", "frontier", "kasteleyn")
BRANCHINGS = ("first", "mrv")
ITEM_ORDERS = ("auto", "input")

#: Nodes of each memo probe, for a problem of at most `PROBE_WORDS` * 64
#: options; fewer for wider ones (no fewer than `PROBE_LEAST`), whose memo
#: nodes cost more each (`probe_nodes`).
PROBE_NODES = 20_000
PROBE_WORDS = 32
PROBE_LEAST = 2_000
#: Sub-problems found again per node searched, past which the memo is in
#: the running (below it, the search takes its place).
HIT_RATIO = 0.3
#: Or: the nodes searched and the nodes the sub-problems found again took
#: to count, against the nodes searched ("shrink"), past which the memo is
#: in the running however few its hits: a probe whose few hits saved most
#: of what it searched is finding sub-problems high in the tree, and their
#: savings multiply as it goes on. Knuth's indicator problem for monotone
#: functions of 6 variables shrinks 2.3x in the probe (1% of its lookups
#: hit) and 60x in the end: the memo counts it in 5.4 s where the search
#: takes 11.6 s; with the relation 00 01 10 instead (912,818,962,432
#: solutions), 5.5x and a second or two, where the search meets its
#: solutions one by one. Below it (`benchmarks/memo_probe.py`, each
#: instance as made and shuffled five ways): 1.0-1.62x on queens, windmill
#: dominoes, pentominoes and word rectangles, where the search wins, and
#: 2.05-3.78x on the indicator problem. (MacMahon triangles, by hand:
#: 1.0-1.55x; a memo count of them takes more than twice the search.)
SHRINK = 1.8
#: Where the search runs on bitsets with masks (`CompiledProblem.first_engine`
#: is "bits": thousands of options, 64 or more to a primary item, as in word
#: rectangles), a node of the memo costs some ten of the search's (its key is
#: the live set, one word for 64 options, hashed and kept: 7.6 us a node
#: against 0.7 on word rectangles 3x4), so hits alone do not put the memo in
#: the running: its nodes must shrink this much. Word rectangles 3x4 with
#: their lines shuffled: 46% hits and 1.9x in the probe, 2.6x fewer nodes
#: in the end, and the memo took 4.3 s where the search takes 1.0-1.5 s.
MASKED_SHRINK = 8.0
#: Where the search runs on bitsets of the square table (a few thousand
#: options), a node of the memo costs some ten of the search's too, so
#: shrinking alone puts the memo in the running only past this (hits still
#: do). Knuth's Sudoku with the first 14 givens of a 17-clue puzzle
#: (14,040,934 solutions): 14% hits and 3.0x in the probe, 8.3x fewer nodes
#: in the end, and the memo took 13.4 s where the search on bitsets takes
#: 9.0 s (65 ns a node, against 0.8 us a node of the memo).
BITS_SHRINK = 8.0
#: Seconds between the progress reports of a memo count.
PROGRESS_SLICE = 0.5
#: An order whose predicted transitions are at most 2^this (a second or so),
#: or whose frontier is at most FRONTIER_BITS wide (a step then holds at
#: most 2^22 states: boards row by row), is counted at the frontier at once.
FRONTIER_SURE = 26.0
FRONTIER_BITS = 22
#: Past 2^this predicted transitions the frontier is not tried, unless its
#: order was weighed by a trial (`_Order.tried`: with multiplicities the
#: prediction runs high by many bits; REDRECT-DLX 5 5: 2^50 predicted, 5.8M
#: transitions, 0.4 s, where the search takes 16 s).
FRONTIER_HOPELESS = 48.0
#: Transitions of a frontier count between its progress reports and checks.
FRONTIER_SLICE = 1 << 22
#: Work of the reduction before an automatic count, in units (entries
#: looked at) an entry of the problem: Knuth's pentominoes 6x10 take 1,911
#: units an entry to reduce in full (23.6M, 40 ms), his slitherlinks about
#: 160; his word rectangles 3x4 took 17,000 (0.9 s, to take out 1% of the
#: options), which this stops well short of.
REDUCE_WORK = 2000
#: Problems whose reduction would take more units than this (about 0.1 s)
#: are not reduced (25,000 entries): the reduction's setup and the problem
#: it builds cost more than its budget (a random file of a million options
#: took 3.6 s, 1.5 s of it in the engine, for 50M units of work).
REDUCE_WORK_MOST = 50_000_000
#: The share of the options the reduction must take out for the count to
#: use the problem it leaves (which is built anew).
REDUCE_SHARE = 0.02
#: Search trees estimated below this many nodes are searched at once (up
#: to `SMALL_TREE_CHECK` times as many: past that the estimate was wrong).
SMALL_TREE = 100_000
SMALL_TREE_CHECK = 4
#: Trees estimated below this many times `SMALL_TREE` are searched for
#: `SMALL_TREE` nodes first (about the work of the memo's probes).
SMALL_TREE_MAYBE = 10
#: What a node of the memo and of the search costs, in frontier transitions
#: (measured in benchmarks/orders.py): the memo's turns in step 4, and the
#: search's estimate against the frontier's prediction (`FRONTIER_SLACK`).
MEMO_NODES_PER_TRANSITION = 0.01
SEARCH_NODES_PER_TRANSITION = 0.1
#: The race's unit, in which step 4 prices the search's turns and the
#: frontier's against it (`search_cost`, `frontier_cost`), is about a
#: nanosecond of a core, worked out from each method's own counters, never
#: from a clock (`benchmarks/race_prices.py`; the benchmark notebook, "Morning
#: (2026-11-27)"): a frontier's mem took 2-7 ns on REDRECT-, MOTLEY-, QUEENDOM-,
#: SUDOKU- and SLITHERLINK-DLX files, polyiamonds and tromino boards, a
#: transition anything from 4 ns (a board's dense step) to 730 ns (long
#: options, tables of a gigabyte); a node of dancing cells 15 ns (50 ns in
#: Algorithm M) and 0.45 ns a mem; a node of bitsets 10 ns, a nanosecond an
#: update and an eighth of one a word copied or scanned. Algorithm M on
#: bitsets scans every open item's words at each node, as `count_ones` of
#: a few words each and a branch per item: 100 ns a node and 0.6 a word
#: (MOTLEY-, QUEENDOM-, REDRECT-DLX, tetrominoes 1-3 times on 5x8 and
#: pentominoes 0-1 times on 6x7: 131-210 ns a node, 87-195 words).
FRONTIER_MEM_COST = 4.0
CELLS_NODE_COST = 15.0
MCC_NODE_COST = 50.0
CELLS_MEM_COST = 0.45
BITS_NODE_COST = 10.0
MBITS_NODE_COST = 100.0
MBITS_MEM_COST = 0.6
#: The first turn of step 4 against the search, in that unit (a tenth of a
#: second or so), and each method's first slice before its price is known:
#: transitions, nodes.
FIRST_COST = 100_000_000
FIRST_FRONTIER_WORK = 1 << 16
FIRST_SEARCH_NODES = 10_000
#: The frontier's turns against the search (`_race`): as long as the
#: search's, until the frontier has spent this share of what the whole
#: search is estimated to cost, then this share of the search's. The
#: frontier's prediction (`order.cost`) cannot say which is faster where
#: options take items several times (REDRECT-DLX 3 8: the search 8x faster,
#: the prediction 6 bits above the estimate; 0-2 copies of each polyiamond
#: of 4 and 5 triangles on a 5x5 rhombus: the frontier 14x faster, 14
#: bits above), so the frontier always runs, and a search that wins loses
#: about a quarter to it.
FRONTIER_FREE = 0.25
FRONTIER_SHARE = 0.25
#: Probes of Knuth's estimate that sets the frontier's free part.
RACE_PROBES = 256
#: Bits by which the search's estimate must fall below the frontier's
#: prediction for the search to run without a race.
FRONTIER_SLACK = 10.0
#: The first turn of step 4 against the memo, in frontier transitions.
FIRST_TURN = 1 << 22


@dataclass(frozen=True)
class Counted:
    """A count, and how it was made."""

    count: int
    #: "frontier", "memo", "search" or "sat" (the CDCL solver, up to a limit).
    method: str
    #: The memo's branching rule ("first" or "mrv"), or the search's when
    #: one was asked ("wtd", "frb", "binary"); None otherwise.
    branching: str | None
    #: Nodes searched (by the method that counted; decisions for "sat";
    #: transitions for "frontier").
    nodes: int
    #: Why this method, in a few words.
    reason: str
    #: How the primary items were ordered for the frontier or the memo
    #: ("input", "greedy", "cuthill-mckee", "reverse cuthill-mckee"), and
    #: the bits of the widest frontier in that order; None when no order
    #: was made.
    item_order: str | None = None
    width: int | None = None
    #: What the reduction before an automatic count took out
    #: (`Reduction.summary`), when the count used the problem it left.
    reduced: dict[str, Any] | None = None


def check_method(method: str, branching: str | None, item_order: str = "auto") -> None:
    """`ValueError` for a method, branching rule or item order that does
    not exist, or a rule the method does not have: the memo's are
    `BRANCHINGS`, the search's `covering.solver.BRANCHINGS` ("mrv" is both).

    >>> check_method("memo", "diagonal")
    Traceback (most recent call last):
    ...
    ValueError: branching must be one of 'first', 'mrv', 'wtd', 'frb', 'binary', not 'diagonal'
    >>> check_method("memo", "wtd")
    Traceback (most recent call last):
    ...
    ValueError: branching='wtd' is a rule of the search: not with method='memo'
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, not {method!r}")
    rules = BRANCHINGS + tuple(r for r in SEARCH_BRANCHINGS if r not in BRANCHINGS)
    if branching is not None and branching not in rules:
        raise ValueError(f"branching must be one of {', '.join(map(repr, rules))}, not {branching!r}")
    if branching is not None and method in ("frontier", "kasteleyn"):
        raise ValueError(f"the {method} count does not branch: no branching with method={method!r}")
    if branching is not None and method == "search" and branching not in SEARCH_BRANCHINGS:
        raise ValueError(f"branching={branching!r} is a rule of the memo count: not with method='search'")
    if branching is not None and method == "memo" and branching not in BRANCHINGS:
        raise ValueError(f"branching={branching!r} is a rule of the search: not with method='memo'")
    if item_order not in ITEM_ORDERS:
        raise ValueError(f"item_order must be one of {', '.join(map(repr, ITEM_ORDERS))}, not {item_order!r}")


@dataclass(frozen=True)
class _Order:
    """An order of the primary items (`_core.choose_item_order`)."""

    items: list[int]
    width: int
    cost: float
    name: str
    #: Weighed by running a frontier of the problem's exact items (problems
    #: with multiplicities), not by the prediction `cost` alone.
    tried: bool = False


def _order(compiled: _core.CompiledProblem, item_order: str) -> _Order | None:
    """The order for a frontier count of `compiled`, None when its fields
    are too wide for one."""
    try:
        return _Order(*_core.choose_item_order(compiled, item_order))
    except ProblemError:
        return None


def _counted(total: int, method: str, rule: str | None, nodes: int, why: str, order: _Order | None) -> Counted:
    """A `Counted`, with the item order where one was made."""
    return Counted(total, method, rule, nodes, why, None if order is None else order.name,
                   None if order is None else order.width)


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
    item_order: str = "auto",
    budget: limits.Budget | None = None,
) -> Counted:
    """Counts the solutions of `problem` by `method` ("auto", "search",
    "memo" or "frontier"); see the module's text. With `limit`, a search on
    one thread stops once that many are found (and returns at most `limit`).
    `branching` fixes the memo's rule; `item_order` ("auto" or "input") how
    the frontier and the memo's "first" rule take the items; `engine` and
    `threads` are the search's; `memo_bytes` bounds the memo; `nodes` and
    `seconds` are budgets (`LimitReached` with the count so far), inside
    the run's `budget` (`covering.limits.Budget`, its stop flag seen by
    every engine); `progress` gets a `Status` every half second, from the
    memo or the search on threads.

    >>> from covering.puzzles.polyomino import DOMINOES, Board, tiling
    >>> count(tiling(DOMINOES, Board.rectangle(8, 8), uses="any"), method="memo").count
    12988816
    """
    check_method(method, branching, item_order)
    if branching is not None and branching not in BRANCHINGS:
        # Knuth's other rules ("wtd", "frb", "binary") are a search's, on dancing
        # cells; the engine's name carries it (`search_engine`, which
        # refuses the other engines).
        engine = search_engine(engine, branching)
        if method == "auto" and limit is None:
            method = "search"
        counted = count(problem, limit, method=method, engine=engine, threads=threads, memo_bytes=memo_bytes,
                        nodes=nodes, seconds=seconds, progress=progress, item_order=item_order, budget=budget)
        return dataclasses.replace(counted, branching=branching)
    if branching == "mrv" and method == "search":
        branching = None  # the search's own rule
    limit = limits.limit(limit)
    # The one budget of the call, from here down (its flag rises at its deadline).
    budget = limits.begin(budget, nodes, seconds)
    if threads is not None:
        threads = limits.threads(threads)
    if engine == "sat":
        # The CDCL solver blocks each solution it finds: a count up to a limit.
        from .sat import SatSolver

        if limit is None:
            raise ValueError("engine='sat' counts only up to a limit (it blocks each solution found); "
                             "count all the solutions with the counting engines (engine='auto')")
        if method == "memo":
            raise ValueError("engine='sat' is a search (nodes= counts its decisions): not method='memo'")
        sat = SatSolver(problem)
        n = sat.count(limit, budget=budget)
        return Counted(n, "sat", None, sat.stats.decisions, "limit")
    if method == "kasteleyn":
        if engine != "auto":
            raise ValueError("a Kasteleyn count has its own engine (a determinant); leave engine='auto'")
        made = _kasteleyn(problem, problem.compile(), "asked", budget)
        if isinstance(made, str):
            raise ProblemError(f"Kasteleyn's method does not apply: {made}")
        # (It meets no solution one by one: a limit caps the count made.)
        return made if limit is None else dataclasses.replace(made, count=min(made.count, limit))
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
            n = solver.count(limit, budget=budget)
        return Counted(n, "search", None, solver.stats.nodes, "limit")
    if method == "auto" and budget.nodes is not None:
        # A node budget is counted in the search's nodes (a memo node is
        # another thing): it means a search.
        method, why = "search", "node budget"
    elif method != "auto":
        why = "asked"
    if method == "search":
        return _search(problem, engine, threads, progress, why, budget)
    compiled = problem.compile()
    if method == "frontier":
        # (A ProblemError here names the item whose field is too wide.)
        order = _Order(*_core.choose_item_order(compiled, item_order))
        return _frontier(_frontier_count(compiled, order, threads), progress, "asked", order, budget)
    memo_bytes_left = memo_budget(memo_bytes)
    if method == "auto" and branching is None:
        # A planar matching problem is counted in polynomial time.
        planar = _kasteleyn(problem, compiled, "planar matchings: a determinant", budget)
        if not isinstance(planar, str):
            return planar
    if method == "memo":
        rule = branching or "mrv"
        sweep = _order(compiled, item_order) if rule == "first" and item_order == "auto" else None
        memo = _core.MemoCount(_reordered(compiled, sweep), memo_bytes_left, rule, threads=_memo_threads(threads))
        return _memo(memo, rule, "asked", progress, sweep, budget)
    # Primary items of bounds 0:1 are secondary ones (the same solutions).
    target = reduction.optional_as_secondary(problem) or problem
    if target is not problem:
        compiled = target.compile()
    smaller = _reduced(target, compiled)
    summary = None
    if smaller is not None:
        target, summary = smaller
        compiled = target.compile()
    try:
        counted = _auto(target, compiled, branching, engine, threads, memo_bytes_left, progress, item_order, budget)
    finally:
        if target is not problem and target.last_search is not None:
            problem.remember(target.last_search)
    return counted if summary is None else dataclasses.replace(counted, reduced=summary)


def _kasteleyn(problem: ProblemData, compiled: _core.CompiledProblem, why: str,
               budget: limits.Budget) -> Counted | str:
    """The count of `problem` by Kasteleyn's method (`xc::kasteleyn`: the
    perfect matchings of a planar graph, by a determinant), or why the
    method does not apply, naming the option or item; `LimitReached` if
    the budget's flag rose first (no partial count: it knows none).

    >>> from covering.puzzles.polyomino import DOMINOES, Board, tiling
    >>> p = tiling(DOMINOES, Board.rectangle(8, 8), uses="any")
    >>> _kasteleyn(p, p.compile(), "asked", limits.begin(None)).count
    12988816
    >>> p.add_primary(["x", "y", "z"]); _ = p.add_option(["x", "y", "z"])
    >>> _kasteleyn(p, p.compile(), "asked", limits.begin(None))
    "option 'x y z' does not hold exactly two primary items"
    """
    if _core.kasteleyn_check(compiled) is not None and why != "asked":
        return "not a matching problem"  # (the auto count's quick look)
    try:
        total, refused = _core.kasteleyn_count(compiled, budget=budget)
    except KeyboardInterrupt:
        raise Interrupted(None, None, where="the Kasteleyn count") from None
    if refused is not None:
        what, k = refused
        if what == "pair":
            return f"option {problem.label_text(k)!r} does not hold exactly two primary items"
        if what == "secondary":
            return f"option {problem.label_text(k)!r} holds a secondary item"
        if what == "multiplicity":
            name = problem.primary[k]
            lo, hi = problem.bounds(name)
            return f"item {name!r} is to be covered {lo} to {hi} times, not once"
        return f"the graph of the options is not planar (the part holding item {problem.primary[k]!r})"
    if total is None:
        raise LimitReached("budget reached in the Kasteleyn count (no partial count: it knows none)",
                           count=None, stats=None, where="the Kasteleyn count", budget=budget.ran_out())
    return Counted(total, "kasteleyn", None, 0, why)


def _reduced(problem: ProblemData, compiled: _core.CompiledProblem) -> tuple[ProblemData, dict[str, Any]] | None:
    """Step 0 of the module's text: `problem` with the options and items
    that cannot matter taken out, and what went; None when too little went.

    >>> from covering.model import ProblemData
    >>> p = ProblemData.from_arrays(["A", "B"], [0, 2, 3, 5], [0, 2, 1, 1, 2], secondary=["x"])
    >>> _reduced(p, p.compile())[1]  # "B x" would leave "A x" out: it goes
    {'options': 1, 'items': 1, 'rounds': 2, 'complete': True}
    """
    work = REDUCE_WORK * compiled.n_entries
    if work > REDUCE_WORK_MOST:
        return None
    r = reduction.reduce(problem, work=work)
    if r.removed_options < REDUCE_SHARE * compiled.n_options and r.removed_items == 0:
        return None
    return r.problem, r.summary()


def _frontier_count(compiled: _core.CompiledProblem, order: _Order, threads: int | None) -> _core.FrontierCount:
    """A frontier count of `compiled` in `order`, its steps on `threads`
    threads (default: every core), dense tables only where they fit half of
    the memory limit (the states of a sparse one are checked as they grow)."""
    from .parallel import default_threads
    from .sizes import max_memory

    n = default_threads() if threads is None else limits.threads(threads)
    return _core.FrontierCount(compiled, order.items, n, max_memory() // 2)


def _memo_threads(threads: int | None) -> int:
    """Threads of a memo count: those asked, else one. Split by sub-problem
    over one shared memo, two threads measured 1.26-1.32x on set partitions
    of 13 and matchings of a cubic graph, but slower where the memo grows to
    gigabytes (graph covers by connected parts: past 40 s where one thread
    takes 35 s, the threads waiting on memory and counting some sub-problems
    twice) or the count is short (0.75x on dominoes 14x14; see
    benchmarks/memo_parts.py): so more threads only when asked."""
    return 1 if threads is None else limits.threads(threads)


def probe_nodes(compiled: _core.CompiledProblem) -> int:
    """Nodes of a memo probe of `compiled`: `PROBE_NODES`, scaled down for
    problems of more than `PROBE_WORDS` words of options, since each memo
    node works on words of options (Knuth's 3x4 word rectangles, 9,986
    options: 17 us a node, 0.34 s for a probe of 20,000; their share of
    sub-problems found again is the same after 4,000).

    >>> from covering.puzzles.queens import queens_problem
    >>> probe_nodes(queens_problem(8).compile())
    20000
    """
    words = max(1, (compiled.n_options + 63) // 64)
    return max(PROBE_LEAST, min(PROBE_NODES, PROBE_NODES * PROBE_WORDS // words))


def _reordered(compiled: _core.CompiledProblem, order: _Order | None) -> _core.CompiledProblem:
    """`compiled` with its primary items in `order` (for the memo's "first" rule)."""
    return compiled if order is None or order.name == "input" else compiled.with_primary_order(order.items)


def _auto(problem: ProblemData, compiled: _core.CompiledProblem, branching: str | None, engine: str,
          threads: int | None, memo_bytes: int, progress: Callable[[Status], None] | None,
          item_order: str, budget: limits.Budget) -> Counted:
    """`method="auto"`: steps 1 to 5 of the module's text."""
    big = compiled.n_options > _core.MEMO_MAX_OPTIONS
    estimate = None if big else _core.estimate_nodes(compiled, 16, 0)
    # A search started on a tree thought small goes on, if a search is what
    # is chosen in the end: its nodes are not spent twice.
    started: Solver | None = None
    if estimate is not None and estimate < SMALL_TREE_MAYBE * SMALL_TREE:
        # Near the bound the estimate may overrate the tree (pi-day: 214,783
        # for 7,049 nodes): a search as long as the memo's probes tries first.
        # With multiplicities, where the frontier is always raced, no more
        # than that: Algorithm M's estimate runs low on heavy tails (each
        # tetromino 0-3 times on a 5x8 board: 90,607 for 565,053 nodes, and
        # a check of 400,000 took 0.3 s where the frontier takes 0.06 s).
        sure = estimate < SMALL_TREE and not compiled.has_multiplicities
        most = SMALL_TREE_CHECK * SMALL_TREE if sure else SMALL_TREE
        small, started = _small_tree(problem, engine, budget, most)
        if small is not None:
            return small
    order = _order(compiled, item_order)
    # The frontier is a candidate with the order found and no memo rule asked.
    frontier_fits = order is not None and branching is None
    if order is not None and frontier_fits and (order.cost <= FRONTIER_SURE or order.width <= FRONTIER_BITS):
        try:
            return _frontier(_frontier_count(compiled, order, threads), progress, f"a frontier of {order.width} bits",
                             order, budget)
        except MemoryLimitError:
            frontier_fits = False  # the other methods are measured instead
    memo: tuple[float, str, _core.MemoCount, _Order | None, float] | None = None
    repeats = False
    why = "no memo (too many options)" if big else "no memo (multiplicities)"
    if not big and not compiled.has_multiplicities:
        for rule in (branching,) if branching else BRANCHINGS:
            # The "first" rule sweeps the items in the order found; "mrv"
            # takes them in the input's order, as `method="memo"` does: the
            # order only breaks its ties, and problem makers order their
            # items for that (on a reduced 10x10 slitherlink, 2,431 nodes in
            # the input's order, past the probe's 20,000 in the order found).
            sweep = order if rule == "first" else None
            counter, total = memo_probe(compiled, rule, sweep, memo_bytes, threads, budget)
            if total is not None:
                return _counted(int(total), "memo", rule, counter.stats.nodes, "probe finished", sweep)
            ratio, shrink = probe_measures(counter)
            if memo is None or _probe_better((ratio, shrink), (memo[0], memo[4])):
                memo = (ratio, rule, counter, sweep, shrink)
        assert memo is not None
        # (Without multiplicities, a first solution goes to bitsets only
        # past the square table: to the masks.)
        masked = engine == "auto" and compiled.first_engine == "bits"
        # (Masks are bitsets too: their test, a sort of every entry, once.)
        on_bits = not masked and engine in ("auto", "bits") and compiled.search_engine(engine) == "bits"
        hits = memo[0] >= HIT_RATIO and not masked
        repeats = memo_in_running(memo[0], memo[4], "masks" if masked else "bits" if on_bits else "cells")
        why = ("sub-problems repeat" if hits else
               f"sub-problems repeat high in the tree ({memo[4]:.1f}x fewer nodes)" if repeats else "few repeats")
    frontier: tuple[_core.FrontierCount, _Order] | None = None
    if order is not None and frontier_fits and (order.cost <= FRONTIER_HOPELESS or order.tried):
        # Knuth's estimate of the search tree, in transitions, far below
        # what the frontier is predicted to take (its prediction runs high
        # by a few bits on boards and by far more on problems whose
        # options rule each other out, as queens and pentominoes do).
        # Where options take items several times the prediction says
        # nothing (see `FRONTIER_FREE`): the frontier runs, on a short rein.
        search_bits = None if estimate is None else math.log2(max(1.0, estimate / SEARCH_NODES_PER_TRANSITION))
        if search_bits is None or compiled.has_multiplicities or search_bits >= order.cost - FRONTIER_SLACK:
            frontier = (_frontier_count(compiled, order, threads), order)
    if memo is not None and repeats:
        ratio, rule, counter, sweep, _ = memo
        if frontier is None:
            return _memo(counter, rule, why, progress, sweep, budget)
        return _race(*frontier, counter, rule, None, progress, budget)
    if frontier is not None:
        # The frontier's free part rests on the estimate: sixteen probes
        # of a heavy-tailed tree run low (tetrominoes 1-3 times each on a 6x8
        # board: 0.5M for 5M nodes; 256 probes, 2 ms: 3.4-6M).
        race_estimate = None if estimate is None else _core.estimate_nodes(compiled, RACE_PROBES, 1)
        return _race(*frontier, None, None, started or Solver(problem, engine=engine), progress, budget,
                     race_estimate, compiled.has_multiplicities)
    return _search(problem, engine, threads, progress,
                   why + ("" if order is None else f", a frontier of {order.width} bits"), budget, started)


def memo_probe(compiled: _core.CompiledProblem, rule: str, sweep: _Order | None, memo_bytes: int,
               threads: int | None = None,
               budget: limits.Budget | None = None) -> tuple[_core.MemoCount, int | None]:
    """Step 3 for one rule: a memo count of `compiled` (its items in
    `sweep`, for the "first" rule) run for `probe_nodes` nodes, and its
    count if it finished.

    >>> from covering.puzzles.queens import queens_problem
    >>> counter, total = memo_probe(queens_problem(6).compile(), "mrv", None, 1 << 20)
    >>> total
    4
    """
    counter = _core.MemoCount(_reordered(compiled, sweep), memo_bytes, rule, threads=_memo_threads(threads))
    try:
        return counter, counter.run(limits.begin(budget).capped(probe_nodes(compiled)))
    except KeyboardInterrupt:
        raise Interrupted(int(counter.partial), counter.stats) from None


def probe_measures(counter: _core.MemoCount) -> tuple[float, float]:
    """(hit ratio, shrink) of a memo probe: sub-problems found again per
    node searched, and the nodes searched and saved against those searched
    (`HIT_RATIO`, `SHRINK`)."""
    stats = counter.stats
    searched, hits, saved = stats.nodes, stats.hits, stats.saved
    return hits / max(1, searched), (searched + saved) / max(1, searched)


def memo_in_running(ratio: float, shrink: float, search: str) -> bool:
    """Is the memo in the running after a probe of hit ratio `ratio` and
    `shrink` (`probe_measures`), against a search on `search` ("cells",
    "bits" for the square table's bitsets, "masks" for bitsets with masks)?
    Its hits (`HIT_RATIO`) or its shrink (`SHRINK`) against dancing cells;
    against bitsets a node of the memo costs some ten of the search's: on
    the square table's its hits or `BITS_SHRINK`, on masks `MASKED_SHRINK`
    alone.

    >>> memo_in_running(0.14, 2.97, "cells"), memo_in_running(0.14, 2.97, "bits")
    (True, False)
    >>> memo_in_running(0.32, 2.2, "bits"), memo_in_running(0.46, 1.9, "masks")
    (True, False)
    """
    if search == "masks":
        return shrink >= MASKED_SHRINK
    return ratio >= HIT_RATIO or shrink >= (BITS_SHRINK if search == "bits" else SHRINK)


def _probe_better(new: tuple[float, float], old: tuple[float, float]) -> bool:
    """Is a memo probe of (hit ratio, shrink) `new` better than `old`: the
    higher hit ratio where either hits often (`HIT_RATIO`), else the
    higher shrink (nodes saved and searched, against nodes searched).

    >>> _probe_better((0.5, 1.2), (0.1, 3.0)), _probe_better((0.02, 2.1), (0.03, 1.9))
    (True, True)
    """
    if max(new[0], old[0]) >= HIT_RATIO:
        return new[0] > old[0]
    return new[1] > old[1]


def _small_tree(problem: ProblemData, engine: str, budget: limits.Budget, most: int) -> tuple[Counted | None, Solver]:
    """The count of a tree Knuth's estimate calls small, by a search of at
    most `most` nodes, and that search; no count when the tree is bigger
    than that (the estimate follows a few random paths, and on a slitherlink
    it said 38,585 for a tree of 67.5 million nodes): the other methods are
    then measured as for any tree, and the search may go on."""
    solver = Solver(problem, engine=engine)
    problem.remember(solver)
    try:
        n = solver.count(nodes=most, budget=budget)
    except LimitReached as e:
        if e.budget != "nodes" or budget.stopped() is not None:
            raise  # the caller's budget, not this check's
        return None, solver
    return Counted(n, "search", None, solver.stats.nodes, "small tree"), solver


def search_cost(stats: _core.Stats, engine: str, multiplicities: bool = False) -> float:
    """The work of a search so far, in the race's unit (see
    `FRONTIER_MEM_COST`), from its own counters: a node's fixed price (higher in Algorithm M, on a
    problem with `multiplicities`), and per memory access. Dancing cells
    count Knuth's mems; bitsets count the options a commit removes
    (`updates`, each a scattered write) and the words they copy and scan
    (`mems`, in vector loops: an eighth each); Algorithm M on bitsets
    (`multiplicities`) the words it copies and scans.

    >>> from covering.puzzles.queens import queens_problem
    >>> s = Solver(queens_problem(6))
    >>> s.count(), search_cost(s.stats, s.engine) > 0
    (4, True)
    """
    if engine == "bits" and multiplicities:
        return MBITS_NODE_COST * stats.nodes + MBITS_MEM_COST * stats.mems
    if engine == "bits":
        return BITS_NODE_COST * stats.nodes + stats.updates + stats.mems / 8
    return (MCC_NODE_COST if multiplicities else CELLS_NODE_COST) * stats.nodes + CELLS_MEM_COST * stats.mems


def frontier_cost(counter: _core.FrontierCount) -> float:
    """The work of a frontier count so far, in the race's unit (see
    `FRONTIER_MEM_COST`): its mems (entries put in keys, words hashed and
    compared, probes, trips to memory past the caches)."""
    return FRONTIER_MEM_COST * counter.progress.mems


def _race(frontier: _core.FrontierCount, order: _Order, memo: _core.MemoCount | None, rule: str | None,
          solver: Solver | None, progress: Callable[[Status], None] | None,
          budget: limits.Budget | None = None, estimate: float | None = None,
          multiplicities: bool = False) -> Counted:
    """The frontier against the memo (or the search, on one thread), in
    turns of doubling work, until one finishes (step 4 of the module's
    text). Against the memo the turns are worth the same time to each.
    Against the search, of whose tree Knuth's estimate is `estimate` nodes,
    the frontier's turns match the search's until it has spent
    `FRONTIER_FREE` of what the estimate says the whole search costs; past
    that they are `FRONTIER_SHARE` of the search's (priced by
    `search_cost`, with `multiplicities` as the problem has them). A
    method out of memory drops out; a budget or Ctrl-C ends the race with
    the other's count so far, if any."""
    import time

    start = time.monotonic()
    budget = limits.begin(budget)
    memory = budget.with_memory()  # (the frontier's tables grow as it goes)
    other = "memo" if memo is not None else "search"
    width = f"a frontier of {order.width} bits"
    live_frontier = True
    # The memo's turns are in its nodes, MEMO_NODES_PER_TRANSITION a
    # transition; the search's in the unit of `search_cost`, each method's
    # turn ending where its work reaches the turn's (`target`), its next
    # slice sized by its price so far.
    turn = FIRST_TURN
    target = FIRST_COST
    search_price = frontier_price = None

    def so_far() -> int:
        """The solutions the memo or the search has counted so far."""
        if memo is not None:
            return int(memo.partial)
        assert solver is not None
        return int(solver.stats.solutions)

    def frontier_turn() -> Counted | None:
        """The frontier's turn: up to its share of `target` (the memo's race:
        `turn` transitions); its count, if it finished."""
        nonlocal live_frontier, frontier_price
        while live_frontier:
            if memo is not None:
                work = turn
            elif frontier_price is None:
                work = FIRST_FRONTIER_WORK  # to learn its price
            else:
                mine = target
                if estimate is not None and search_price is not None:
                    # Its free part at once: the search, if the estimate
                    # holds, costs that much anyway.
                    mine = max(FRONTIER_SHARE * target, FRONTIER_FREE * estimate * search_price)
                # At most as many transitions as so far in one go: a
                # transition costs more as the tables grow (REDRECT-DLX 5 5:
                # from 200 units to 600; a turn priced at its start ran three
                # times long).
                work = min(int((mine - frontier_cost(frontier)) / frontier_price),
                           max(FIRST_FRONTIER_WORK, frontier.progress.work))
            if work <= 0:
                break
            try:
                total = frontier.run(memory.capped(frontier.progress.work + work))
            except MemoryError:
                live_frontier = False
                break
            if total is not None:
                return _counted(int(total), "frontier", None, frontier.progress.work,
                                f"{width}: finished before the {other}", order)
            frontier_price = frontier_cost(frontier) / max(1, frontier.progress.work)
            if memo is not None or budget.over():
                break
        return None

    def other_turn() -> Counted | None:
        """The memo's or the search's turn; its count, if it finished."""
        nonlocal search_price
        if memo is not None:
            result = memo.run(budget.capped(memo.stats.nodes + max(1, int(turn * MEMO_NODES_PER_TRANSITION))))
            if result is not None:
                return _counted(int(result), "memo", rule, memo.stats.nodes,
                                "sub-problems repeat: finished before the frontier", order)
            return None
        assert solver is not None
        spent = search_cost(solver.stats, solver.engine, multiplicities)
        nodes = FIRST_SEARCH_NODES if search_price is None else int((target - spent) / search_price)
        if nodes > 0:
            # (The search counts its nodes from its start: `nodes` is a total
            # here, though it was priced as this turn's share; kept as measured.)
            n = solver._search.count(None, budget.capped(nodes))
            if solver._search.exhausted:
                return _counted(n, "search", None, solver.stats.nodes, "finished before the frontier", order)
            search_price = search_cost(solver.stats, solver.engine, multiplicities) / max(1, solver.stats.nodes)
        return None

    # Against the search, the search first: its price sets the frontier's free part.
    turns = (frontier_turn, other_turn) if memo is not None else (other_turn, frontier_turn)
    try:
        while True:
            for take_turn in turns:
                got = take_turn()
                if got is not None:
                    return got
            if progress is not None:
                at = frontier.progress
                item, items, states = at.item, at.items, at.states
                progress(Status(at.work, 0, 0, 0, item / max(1, items), 0.0,
                                time.monotonic() - start, frontier=(item, items, states)))
            if budget.over():
                found = so_far()
                raise LimitReached(f"budget reached after {found} solutions (the {other}'s, in its race with "
                                   "the frontier)", count=found, stats=frontier.progress,
                                   budget=budget.ran_out())
            turn *= 2
            target *= 2
    except KeyboardInterrupt:
        # The count so far is the memo's or the search's: the frontier knows none.
        raise Interrupted(so_far(), frontier.progress) from None


def _search(problem: ProblemData, engine: str, threads: int | None, progress: Callable[[Status], None] | None,
            why: str, budget: limits.Budget, started: Solver | None = None) -> Counted:
    """The count by a search: on one thread, going on with `started` (a
    search already under way) if there is one; else on `threads` (checked
    by `count`)."""
    if threads == 1:
        solver = started or Solver(problem, engine=engine)
        problem.remember(solver)
        before = solver.stats.solutions
        with _reporting(solver, progress):
            n = before + solver.count(budget=budget)
        return Counted(n, "search", None, solver.stats.nodes, why)
    from .parallel import ParallelSearch

    ps = ParallelSearch(problem, threads, engine=engine)
    n = ps.count(progress=progress, budget=budget)
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
        if counter.run(limits.begin(None, probe_nodes(compiled))) is not None:
            return rule
        searched, hits = counter.stats.nodes, counter.stats.hits
        best = max(best, (hits / max(1, searched), rule), key=lambda b: b[0])
    return best[1]


def _frontier(counter: _core.FrontierCount, progress: Callable[[Status], None] | None, why: str, order: _Order,
              budget: limits.Budget) -> Counted:
    """Runs a frontier count to its end or its `budget` (whose nodes count
    its transitions). Stopped early, it knows no partial count: `LimitReached`
    and `Interrupted` carry none, and the progress says how far the scan
    got (item k of n, the states held)."""
    import time

    start = time.monotonic()
    nodes = budget.nodes  # (the frontier's: transitions)
    memory = budget.with_memory()  # (its tables grow as it goes)

    def report(total: int | None = None) -> None:
        if progress is not None:
            at = counter.progress
            item, items, states, work = at.item, at.items, at.states, at.work
            # The fraction of the scan: steps cost about the same on a board.
            fraction = 1.0 if total is not None else item / max(1, items)
            progress(Status(work, total or 0, 0, 0, fraction, 0.0, time.monotonic() - start,
                            frontier=(items if total is not None else item, items, states)))

    try:
        while True:
            done = counter.progress.work
            work = FRONTIER_SLICE if nodes is None else min(FRONTIER_SLICE, max(0, nodes - done))
            total = counter.run(memory.capped(done + work))
            if total is not None:
                report(total)
                return _counted(int(total), "frontier", None, counter.progress.work, why, order)
            report()
            if (nodes is not None and counter.progress.work >= nodes) or budget.over():
                item, items = counter.progress.item, counter.progress.items
                where = f"item {item} of {items} of the frontier count"
                raise LimitReached(f"budget reached at {where} (no partial count: the frontier knows none)",
                                   count=None, stats=counter.progress, where=where,
                                   budget=budget.ran_out())
    except KeyboardInterrupt:
        item, items = counter.progress.item, counter.progress.items
        raise Interrupted(None, counter.progress, where=f"item {item} of {items} of the frontier count") from None
    except MemoryError as e:
        item, items = counter.progress.item, counter.progress.items
        raise MemoryLimitError(f"the frontier count, at item {item} of {items} (a frontier of {order.width} "
                               f"bits): {e}; give it more memory (--max-memory) or count by another method"
                               ) from None


def _memo(counter: _core.MemoCount, rule: str, why: str, progress: Callable[[Status], None] | None,
          order: _Order | None, budget: limits.Budget) -> Counted:
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
    nodes = budget.nodes
    until = None if nodes is None else counter.stats.nodes + nodes
    # With a progress, slices of nodes sized to take about PROGRESS_SLICE
    # (not of time: the run's stop flag, and only it, may cut short a table
    # doubling, which drops entries).
    step = 1 << 12
    try:
        while True:
            # Its nodes count from the memo's start.
            if progress is None:
                total = counter.run(budget.capped(until))
            else:
                cap = counter.stats.nodes + step if until is None else min(until, counter.stats.nodes + step)
                began = time.monotonic()
                total = counter.run(budget.capped(cap))
                took = time.monotonic() - began
                step = 2 * step if took < PROGRESS_SLICE / 2 else max(1, step // 2) if took > PROGRESS_SLICE else step
            if progress is not None:
                nodes_done, entries = counter.stats.nodes, counter.stats.entries
                progress(Status(nodes_done, int(counter.partial), 0, 0, None, 0.0, time.monotonic() - start,
                                remembered=entries))
            if total is not None:
                if progress is not None:
                    progress(Status(counter.stats.nodes, int(total), 0, 0, 1.0, 0.0, time.monotonic() - start,
                                    remembered=counter.stats.entries))
                break
            if progress is None or (until is not None and counter.stats.nodes >= until) or budget.over():
                raise LimitReached(f"budget reached after {counter.partial} solutions",
                                   count=int(counter.partial), stats=counter.stats,
                                   budget=budget.ran_out())
    except KeyboardInterrupt:
        raise Interrupted(int(counter.partial), counter.stats) from None
    return _counted(int(total), "memo", rule, counter.stats.nodes, why, order)
