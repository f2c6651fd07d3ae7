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

and, for the perfect matchings of a planar graph (every option two primary
items), **kasteleyn**: a determinant, in polynomial time (`xc::kasteleyn`).

No method wins everywhere, so `method="auto"` measures, in work (nodes,
transitions, mems), never in time, so that the same problem always goes the
same way. Every step, rule and price of that choice is the engine's plan
(`_core.CountPlan`: the `xc` crate's `counting::plan` module, whose text
is the one account of the steps); this module runs what the plan asks and
tells it what came back.

The candidates weighed, with their costs, come back in `Counted.plan`.
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
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from . import _core, limits, reduction
from .errors import Interrupted, LimitReached, MemoryLimitError, ProblemError
from .model import ProblemData
from .memo import memo_budget
from .progress import Status, every, solver_status
from .records import Frozen
from .runs import Runs, remember
from .solver import BRANCHINGS as SEARCH_BRANCHINGS
from .solver import Solver, search_engine

__all__ = ["Counted", "count", "memo_rule", "METHODS", "BRANCHINGS", "ITEM_ORDERS"]

METHODS = ("auto", "search", "memo", "frontier", "kasteleyn")
BRANCHINGS = ("first", "mrv")
ITEM_ORDERS = ("auto", "input")

#: Seconds between the progress reports of a memo count.
PROGRESS_SLICE = 0.5
#: Transitions of a frontier count between its progress reports and checks.
FRONTIER_SLICE = 1 << 22

class Counted(Frozen):
    """A count, and how it was made. (`Frozen` values and named tuples
    here, not dataclasses: a dataclass is made by compiling its methods,
    and the module `dataclasses` imports `inspect`: 20 ms of every
    command's start; see `covering.records`.)"""

    _fields = ("count", "method", "branching", "nodes", "reason", "item_order", "width", "reduced", "plan")

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
    item_order: str | None
    width: int | None
    #: What the reduction before an automatic count took out
    #: (`Reduction.summary`), when the count used the problem it left.
    reduced: dict[str, Any] | None
    #: The plan of an automatic count (`_core.CountPlan`): the method
    #: "taken", the search's "machine", and the "candidates" weighed, each
    #: {"method", "cost", "measured"}: its cost in the plan's unit (about a
    #: nanosecond of a core), measured by its own counters or predicted.
    plan: dict[str, Any] | None

    def __init__(self, count: int, method: str, branching: str | None, nodes: int, reason: str,
                 item_order: str | None = None, width: int | None = None, reduced: dict[str, Any] | None = None,
                 plan: dict[str, Any] | None = None) -> None:
        self._set(count=count, method=method, branching=branching, nodes=nodes, reason=reason,
                  item_order=item_order, width=width, reduced=reduced, plan=plan)


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


class _Order(NamedTuple):
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
    problem: ProblemData | _core.CompiledProblem,
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
    runs: Runs | None = None,
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
    memo or the search on threads; a search started is remembered in
    `runs` (its `stats`).

    >>> from covering.puzzles.polyomino import DOMINOES, Board, tiling
    >>> count(tiling(DOMINOES, Board.rectangle(8, 8), uses="any"), method="memo").count
    12988816
    """
    counted = _count(problem, limit, method=method, branching=branching, engine=engine, threads=threads,
                     memo_bytes=memo_bytes, nodes=nodes, seconds=seconds, progress=progress,
                     item_order=item_order, budget=budget, runs=runs)
    if counted.plan is None:
        # A method asked, or a limit: nothing was weighed.
        counted = counted._replace(plan={"taken": counted.method, "machine": None, "candidates": []})
    return counted


def _count(problem: ProblemData | _core.CompiledProblem, limit: int | None, *, method: str, branching: str | None,
           engine: str, threads: int | None, memo_bytes: int | None, nodes: int | None, seconds: float | None,
           progress: Callable[[Status], None] | None, item_order: str, budget: limits.Budget | None,
           runs: Runs | None) -> Counted:
    """`count` (its arguments, all given), without the plan of what was not weighed."""
    check_method(method, branching, item_order)
    if branching is not None and branching not in BRANCHINGS:
        # Knuth's other rules ("wtd", "frb", "binary") are a search's, on dancing
        # cells; the engine's name carries it (`search_engine`, which
        # refuses the other engines).
        engine = search_engine(engine, branching)
        if method == "auto" and limit is None:
            method = "search"
        counted = _count(problem, limit, method=method, branching=None, engine=engine, threads=threads,
                         memo_bytes=memo_bytes, nodes=nodes, seconds=seconds, progress=progress,
                         item_order=item_order, budget=budget, runs=runs)
        return counted._replace(branching=branching)
    if branching == "mrv" and method == "search":
        branching = None  # the search's own rule
    limit = limits.limit(limit)
    # The one budget of the call, from here down (its flag rises at its deadline).
    budget = limits.begin(budget, nodes, seconds)
    if threads is not None:
        threads = limits.threads(threads)
    looked = False  # (the first look taken: not taken again)
    if isinstance(problem, _core.CompiledProblem):
        # Arrays without names (a puzzle encoded by the engine): a puzzle's
        # tree is counted before anything is named; else the items are
        # named by their numbers.
        if method == "auto" and limit is None and budget.nodes is None and engine != "sat":
            first = _first_look(problem, engine, budget, runs=runs)
            if first is not None:
                return first
            looked = True
        problem = ProblemData.from_compiled(problem, range(problem.n_primary + problem.n_secondary))
    if engine == "sat":
        # The CDCL solver blocks each solution it finds: a count up to a limit.
        from .sat import SatSolver

        if limit is None:
            raise ValueError("engine='sat' counts only up to a limit (it blocks each solution found); "
                             "count all the solutions with the counting engines (engine='auto')")
        if method == "memo":
            raise ValueError("engine='sat' is a search (nodes= counts its decisions): not method='memo'")
        sat = SatSolver(problem, budget.memory)
        n = sat.count(limit, budget=budget)
        return Counted(n, "sat", None, sat.stats.decisions, "limit")
    if method == "kasteleyn":
        if engine != "auto":
            raise ValueError("a Kasteleyn count has its own engine (a determinant); leave engine='auto'")
        made = _kasteleyn(problem, problem.compile(), budget, asked=True)
        if isinstance(made, str):
            raise ProblemError(f"Kasteleyn's method does not apply: {made}")
        # (It meets no solution one by one: a limit caps the count made.)
        return made if limit is None else made._replace(count=min(made.count, limit))
    if method == "memo":
        if limit is not None:
            raise ValueError("a memo count cannot stop at a limit: it does not meet solutions one by one")
        if engine != "auto":
            raise ValueError("a memo count has its own engine (bitsets); leave engine='auto'")
    if memo_bytes is not None and (method == "search" or limit is not None):
        raise ValueError("memo_bytes is for memo counts: pass method='memo'")
    if limit is not None:
        # Stopping at a limit meets solutions one by one: a search, on one thread.
        solver = Solver(problem, engine=engine, memory=budget.memory)
        remember(runs, solver)
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
        return _search(problem, engine, threads, progress, why, budget, runs=runs)
    compiled = problem.compile()
    if method == "frontier":
        # (A ProblemError here names the item whose field is too wide.)
        order = _Order(*_core.choose_item_order(compiled, item_order))
        return _frontier(_frontier_count(compiled, order, threads, budget), progress, "asked", order, budget)
    memo_bytes_left = memo_budget(memo_bytes, budget.memory)
    if method == "auto" and branching is None:
        # A planar matching problem is counted in polynomial time; past the
        # plan's size (its embedding's work grows with the square of the
        # items) a frontier the plan is sure of goes first (a board 4 x
        # 10,000: 0.1 s there, 12 s by the determinant).
        if _core.CountPlan(compiled).frontier_before_kasteleyn() and _core.kasteleyn_check(compiled) is None:
            narrow = _sure_frontier(compiled, item_order, threads, progress, budget)
            if narrow is not None:
                return narrow
        planar = _kasteleyn(problem, compiled, budget)
        if not isinstance(planar, str):
            return planar
        if engine == "auto":
            sudoku = _sudoku(compiled, threads, budget)
            if sudoku is not None:
                return sudoku
        first = None if looked else _first_look(compiled, engine, budget, problem, runs)
        if first is not None:
            return first
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
    counted = _auto(target, compiled, branching, engine, threads, memo_bytes_left, progress, item_order, budget,
                    runs, memo_bytes)
    return counted if summary is None else counted._replace(reduced=summary)


def _kasteleyn(problem: ProblemData, compiled: _core.CompiledProblem, budget: limits.Budget,
               asked: bool = False) -> Counted | str:
    """The count of `problem` by Kasteleyn's method (`xc::kasteleyn`: the
    perfect matchings of a planar graph, by a determinant), or why the
    method does not apply, naming the option or item; `LimitReached` if
    the budget's flag rose first (no partial count: it knows none). Unless
    `asked`, a problem that is no matching one is turned away at a look,
    and a determinant past the memory limit is a reason, not an error.

    >>> from covering.puzzles.polyomino import DOMINOES, Board, tiling
    >>> p = tiling(DOMINOES, Board.rectangle(8, 8), uses="any")
    >>> _kasteleyn(p, p.compile(), limits.begin(None), asked=True).count
    12988816
    >>> p.add_primary(["x", "y", "z"]); _ = p.add_option(["x", "y", "z"])
    >>> _kasteleyn(p, p.compile(), limits.begin(None), asked=True)
    "option 'x y z' does not hold exactly two primary items"
    """
    if not asked and _core.kasteleyn_check(compiled) is not None:
        return "not a matching problem"  # (the auto count's quick look)
    from .sizes import human

    limit = budget.memory_limit()
    try:
        total, refused = _core.kasteleyn_count(compiled, limit, budget=budget)
    except KeyboardInterrupt:
        raise Interrupted(None, None, where="the Kasteleyn count") from None
    if refused is not None:
        what, k = refused
        if what == "memory":
            if asked:
                raise MemoryLimitError(f"the Kasteleyn count's determinant would hold about {human(k)}, past the "
                                       f"limit of {human(limit)}; give it more memory (--max-memory)")
            return "too large a determinant"
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
    return Counted(total, "kasteleyn", None, 0, "asked" if asked else "planar matchings: a determinant")


def _sudoku(compiled: _core.CompiledProblem, threads: int | None, budget: limits.Budget) -> Counted | None:
    """The count of a 9 x 9 Sudoku's matrix (read whatever its names and
    orders: `puzzles::bands::matrix`) by the band solver that answers
    `covering sudoku`, on `threads` (None: every core); None for any other
    matrix. `LimitReached` or `Interrupted` with the solutions found so far.

    >>> from covering.puzzles.sudoku import Sudoku
    >>> grid = Sudoku.parse(".................1....23.4......452...6.......178........1....72......3.94.......")
    >>> _sudoku(grid.problem().compile(), 1, limits.begin(None)).count
    1
    >>> from covering.puzzles.queens import queens_problem
    >>> _sudoku(queens_problem(8).compile(), 1, limits.begin(None)) is None
    True
    """
    from .parallel import default_threads

    made = _core.sudoku_matrix_count(compiled, threads=threads or default_threads(), budget=budget)
    if made is None:
        return None
    total, complete, guesses = made
    if not complete:
        if budget.over() and budget.spent != "interrupt":
            raise LimitReached(f"budget reached after {total} solutions (the Sudoku count)", count=total,
                               stats=None, where="the Sudoku count", budget=budget.ran_out())
        raise Interrupted(total, None)
    return Counted(total, "search", None, guesses, "a 9 x 9 Sudoku's matrix: the band solver",
                   plan={"taken": "search", "machine": "bands", "candidates": []})


def _reduced(problem: ProblemData, compiled: _core.CompiledProblem) -> tuple[ProblemData, dict[str, Any]] | None:
    """Step 0 of the plan: `problem` with the options and items that cannot
    matter taken out, and what went; None when too little went or the
    problem is too big to reduce.

    >>> from covering.model import ProblemData
    >>> p = ProblemData.from_arrays(["A", "B"], [0, 2, 3, 5], [0, 2, 1, 1, 2], secondary=["x"])
    >>> _reduced(p, p.compile())[1]  # "B x" would leave "A x" out: it goes
    {'options': 1, 'items': 1, 'rounds': 2, 'complete': True}
    """
    plan = _core.CountPlan(compiled)
    work = plan.reduce_work()
    if work is None:
        return None
    r = reduction.reduce(problem, work=work)
    if not plan.keeps_reduction(r.removed_options, r.removed_items):
        return None
    return r.problem, r.summary()


def _frontier_count(compiled: _core.CompiledProblem, order: _Order, threads: int | None,
                    budget: limits.Budget) -> _core.FrontierCount:
    """A frontier count of `compiled` in `order`, its steps on `threads`
    threads (default: every core), dense tables only where they fit the
    engine's share of the `budget`'s memory (the states of a sparse one are
    checked as they grow)."""
    from .parallel import default_threads

    n = default_threads() if threads is None else limits.threads(threads)
    return _core.FrontierCount(compiled, order.items, n, budget.memory_limit())


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
    """Nodes of a memo probe of `compiled` (the plan's: fewer for problems
    of many words of options, whose memo nodes cost more each).

    >>> from covering.puzzles.queens import queens_problem
    >>> probe_nodes(queens_problem(8).compile())
    20000
    """
    return _core.CountPlan(compiled).probe_nodes()


def _reordered(compiled: _core.CompiledProblem, order: _Order | None) -> _core.CompiledProblem:
    """`compiled` with its primary items in `order` (for the memo's "first" rule)."""
    return compiled if order is None or order.name == "input" else compiled.with_primary_order(order.items)


def _auto(problem: ProblemData, compiled: _core.CompiledProblem, branching: str | None, engine: str,
          threads: int | None, memo_bytes: int, progress: Callable[[Status], None] | None,
          item_order: str, budget: limits.Budget, runs: Runs | None,
          memo_bytes_asked: int | None = None) -> Counted:
    """`method="auto"`: steps 1 to 5 of the engine's plan. The plan
    (`_core.CountPlan`, every rule and price of the choice) and its steps
    (`_core.CountSteps`, their order) say what to do next; this runs it and
    reports what it measured, until a step makes the count."""
    plan = _core.CountPlan(compiled, engine)
    rules = (branching,) if branching else BRANCHINGS
    steps = _core.CountSteps(len(rules), branching is not None, memo_bytes_asked is not None)
    # A search started on a tree thought small goes on, if a search is what
    # is chosen in the end: its nodes are not spent twice.
    started: Solver | None = None
    order: _Order | None = None
    probes: list[tuple[str, _core.MemoCount, _Order | None, float, float]] = []
    why = "no memo (too many options)" if plan.too_many else "no memo (multiplicities)"
    while True:
        step, arg = steps.next(plan)
        n = arg or 0  # (the step's number: its probes, nodes or rule)
        if step == "estimate":
            plan.set_estimate(_core.estimate_nodes(compiled, n, 0))
        elif step == "small_tree":
            counted, started = _small_tree(problem, budget, n, engine, runs)
            if counted is not None:
                return _planned(counted, plan, started.stats)
        elif step == "order":
            order = _order(compiled, item_order)
            if order is not None:
                plan.set_order(order.width, order.cost, order.tried)
            steps.ordered(order is not None)
        elif step == "frontier":
            assert order is not None
            try:
                return _planned(_frontier(_frontier_count(compiled, order, threads, budget), progress,
                                          f"a frontier of {order.width} bits", order, budget), plan)
            except MemoryLimitError:
                steps.frontier_refused()  # the other methods are measured instead
        elif step == "probe":
            # The "first" rule sweeps the items in the order found; "mrv"
            # takes them in the input's order, as `method="memo"` does: the
            # order only breaks its ties, and problem makers order their
            # items for that (on a reduced 10x10 slitherlink, 2,431 nodes in
            # the input's order, past the probe's 20,000 in the order found).
            rule = rules[n]
            sweep = order if rule == "first" else None
            counter, total = memo_probe(compiled, rule, sweep, memo_bytes, threads, budget, plan.probe_nodes())
            if total is not None:
                return _planned(_counted(int(total), "memo", rule, counter.stats.nodes, "probe finished", sweep),
                                plan)
            ratio, shrink = probe_measures(counter)
            probes.append((rule, counter, sweep, ratio, shrink))
            steps.probed(plan, n, ratio, shrink)
            kind, high = plan.memo_why()
            why = {"repeats": "sub-problems repeat", "few": "few repeats"}.get(
                kind, f"sub-problems repeat high in the tree ({high or 0:.1f}x fewer nodes)")
        elif step in ("rules_race", "memo", "race_memo", "memo_stint"):
            assert steps.memo_rule is not None
            rule, counter, sweep, _, _ = memo = probes[steps.memo_rule]
            if step == "rules_race":
                # (Each rule's memo within the default budget: the two within the limit.)
                assert steps.other_rule is not None
                return _planned(_rules_race(plan, memo, probes[steps.other_rule], why, progress, budget), plan)
            if step == "memo":
                return _planned(_memo(counter, rule, why, progress, sweep, budget), plan)
            if step == "race_memo":
                assert order is not None
                return _race(plan, _frontier_count(compiled, order, threads, budget), order, counter, rule, None,
                             progress, budget)
            # Step 5: the memo's stint, a share of what the others are predicted to cost.
            try:
                total = counter.run(budget.capped(counter.stats.nodes + n))
            except KeyboardInterrupt:
                raise Interrupted(int(counter.partial), counter.stats) from None
            steps.stint_ran(plan, counter.stats.nodes)
            if total is not None:
                return _planned(_counted(int(total), "memo", rule, counter.stats.nodes,
                                         "sub-problems repeat: finished in its stint", sweep), plan)
            if budget.over():
                raise LimitReached(f"budget reached after {counter.partial} solutions (the memo's stint)",
                                   count=int(counter.partial), stats=counter.stats, budget=budget.ran_out())
        elif step == "race_search":
            assert order is not None
            # The frontier's free part rests on the estimate (of more paths than step 1's).
            race_probes = plan.race_probes()
            race_estimate = None if race_probes is None else _core.estimate_nodes(compiled, race_probes, 1)
            racer = started or Solver(problem, engine=engine, memory=budget.memory)
            remember(runs, racer)
            return _race(plan, _frontier_count(compiled, order, threads, budget), order, None, None, racer,
                         progress, budget, race_estimate)
        else:
            counted = _search(problem, engine, threads, progress,
                              why + ("" if order is None else f", a frontier of {order.width} bits"), budget,
                              started, runs)
            return _planned(counted, plan)


def _rules_race(plan: _core.CountPlan, memo: tuple[str, _core.MemoCount, _Order | None, float, float],
                other: tuple[str, _core.MemoCount, _Order | None, float, float], why: str,
                progress: Callable[[Status], None] | None, budget: limits.Budget) -> Counted:
    """The memo's two rules against each other, the frontier out of it (the
    plan's `rules_race`): turns of growing work sized by the plan's `Race`,
    the rule the probes preferred first in each, until one finishes. A
    budget or Ctrl-C ends it with the larger count so far (both are counts
    of solutions found)."""
    import time

    start = time.monotonic()
    race = plan.race(True)
    racers = (memo, other)

    def so_far() -> int:
        return max(int(m[1].partial) for m in racers)

    try:
        while True:
            for rule, counter, sweep, _, _ in racers:
                total = counter.run(budget.capped(race.memo_until(plan, counter.stats.nodes)))
                if total is not None:
                    plan.weigh("memo", plan.memo_cost(sum(m[1].stats.nodes for m in racers)), True)
                    return _counted(int(total), "memo", rule, counter.stats.nodes,
                                    f"{why}: the {rule} rule finished first", sweep)
            if progress is not None:
                progress(Status(sum(m[1].stats.nodes for m in racers), so_far(), 0, 0, None, 0.0,
                                time.monotonic() - start))
            if budget.over():
                found = so_far()
                raise LimitReached(f"budget reached after {found} solutions (the memo's, its two rules racing)",
                                   count=found, stats=memo[1].stats, budget=budget.ran_out())
            race.next_turn()
    except KeyboardInterrupt:
        raise Interrupted(so_far(), memo[1].stats) from None


def _planned(counted: Counted, plan: _core.CountPlan, stats: _core.Stats | None = None) -> Counted:
    """`counted` with the plan that chose it: the candidates weighed, each
    with its cost (in the plan's unit, about a nanosecond of a core),
    predicted or measured, and the method taken (a search's measured cost
    from its `stats`)."""
    if stats is not None:
        plan.weigh("search", plan.search_cost(stats), True)
    if counted.method == "memo":
        plan.weigh("memo", plan.memo_cost(counted.nodes), True)
    weighed = [{"method": m, "cost": round(cost), "measured": measured} for m, cost, measured in plan.candidates]
    return counted._replace(plan={"taken": counted.method, "machine": plan.machine, "candidates": weighed})


def memo_probe(compiled: _core.CompiledProblem, rule: str, sweep: _Order | None, memo_bytes: int,
               threads: int | None = None, budget: limits.Budget | None = None,
               nodes: int | None = None) -> tuple[_core.MemoCount, int | None]:
    """Step 3 for one rule: a memo count of `compiled` (its items in
    `sweep`, for the "first" rule) run for `nodes` nodes (`probe_nodes`),
    and its count if it finished.

    >>> from covering.puzzles.queens import queens_problem
    >>> counter, total = memo_probe(queens_problem(6).compile(), "mrv", None, 1 << 20)
    >>> total
    4
    """
    counter = _core.MemoCount(_reordered(compiled, sweep), memo_bytes, rule, threads=_memo_threads(threads))
    try:
        return counter, counter.run(limits.begin(budget).capped(probe_nodes(compiled) if nodes is None else nodes))
    except KeyboardInterrupt:
        raise Interrupted(int(counter.partial), counter.stats) from None


def probe_measures(counter: _core.MemoCount) -> tuple[float, float]:
    """(hit ratio, shrink) of a memo probe: sub-problems found again per
    node searched, and the nodes searched and saved against those searched
    (the plan's `probed`)."""
    stats = counter.stats
    searched, hits, saved = stats.nodes, stats.hits, stats.saved
    return hits / max(1, searched), (searched + saved) / max(1, searched)


def _sure_frontier(compiled: _core.CompiledProblem, item_order: str, threads: int | None,
                   progress: Callable[[Status], None] | None, budget: limits.Budget) -> Counted | None:
    """The frontier's count of `compiled` if the plan is sure of its order
    (narrow, or predicted cheap), else None."""
    order = _order(compiled, item_order)
    if order is None:
        return None
    plan = _core.CountPlan(compiled)
    plan.set_order(order.width, order.cost, order.tried)
    if not plan.frontier_now():
        return None
    try:
        return _planned(_frontier(_frontier_count(compiled, order, threads, budget), progress,
                                  f"a frontier of {order.width} bits", order, budget), plan)
    except MemoryLimitError:
        return None


def _first_look(compiled: _core.CompiledProblem, engine: str, budget: limits.Budget,
                problem: ProblemData | None = None, runs: Runs | None = None) -> Counted | None:
    """The count of a problem small enough for the plan's first look
    whose search ends within its nodes, before any estimate, reduction or
    name is made (a puzzle's: an Akari board of 25 x 25, a few hundred
    nodes); None for a bigger problem or tree.

    >>> from covering.puzzles.queens import queens_problem
    >>> _first_look(queens_problem(6).compile(), "auto", limits.begin(None)).count
    4
    """
    plan = _core.CountPlan(compiled, engine)
    most = plan.first_look()
    if most is None:
        return None
    memory = budget.memory
    solver = Solver.of_compiled(compiled, engine, memory) if problem is None else Solver(problem, engine=engine,
                                                                                         memory=memory)
    remember(runs, solver)
    counted, _ = _small_tree(solver, budget, most)
    return None if counted is None else _planned(counted, plan, solver.stats)


def _small_tree(searched: ProblemData | Solver, budget: limits.Budget, most: int,
                engine: str = "auto", runs: Runs | None = None) -> tuple[Counted | None, Solver]:
    """The count of a tree Knuth's estimate calls small, by a search (of
    `searched`, or by `searched` itself) of at most `most` nodes, and that
    search; no count when the tree is bigger than that (the estimate
    follows a few random paths, and on a slitherlink it said 38,585 for a
    tree of 67.5 million nodes): the other methods are then measured as for
    any tree, and the search may go on."""
    if isinstance(searched, Solver):
        solver = searched
    else:
        solver = Solver(searched, engine=engine, memory=budget.memory)
        remember(runs, solver)
    try:
        n = solver.count(nodes=most, budget=budget)
    except LimitReached as e:
        if e.budget != "nodes" or budget.stopped() is not None:
            raise  # the caller's budget, not this check's
        return None, solver
    return Counted(n, "search", None, solver.stats.nodes, "small tree"), solver


def _race(plan: _core.CountPlan, frontier: _core.FrontierCount, order: _Order, memo: _core.MemoCount | None,
          rule: str | None, solver: Solver | None, progress: Callable[[Status], None] | None,
          budget: limits.Budget | None = None, estimate: float | None = None) -> Counted:
    """The frontier against the memo (or the search, on one thread, of
    whose tree Knuth's estimate is `estimate` nodes) until one finishes:
    step 4 of the plan, whose `Race` sizes every turn from the counters
    this reports. A method out of memory drops out; a budget or Ctrl-C
    ends the race with the other's count so far, if any."""
    import time

    start = time.monotonic()
    budget = limits.begin(budget)
    memory = budget.with_memory()  # (the frontier's tables grow as it goes)
    other = "memo" if memo is not None else "search"
    width = f"a frontier of {order.width} bits"
    race = plan.race(memo is not None, estimate)
    live_frontier = True

    def so_far() -> int:
        """The solutions the memo or the search has counted so far."""
        if memo is not None:
            return int(memo.partial)
        assert solver is not None
        return int(solver.stats.solutions)

    def finished(counted: Counted) -> Counted:
        """`counted`, with what each racer measured weighed in the plan."""
        plan.weigh("frontier", plan.frontier_cost(frontier.progress.mems), True)
        if memo is not None:
            plan.weigh("memo", plan.memo_cost(memo.stats.nodes), True)
        return _planned(counted, plan, None if solver is None else solver.stats)

    def frontier_turn() -> Counted | None:
        """The frontier's turn, in the slices the race sizes; its count, if it finished."""
        nonlocal live_frontier
        while live_frontier:
            done = frontier.progress.work
            work = race.frontier_slice(frontier.progress.mems, done)
            if work <= 0:
                break
            try:
                total = frontier.run(memory.capped(done + work))
            except MemoryError:
                live_frontier = False
                break
            if total is not None:
                return finished(_counted(int(total), "frontier", None, frontier.progress.work,
                                         f"{width}: finished before the {other}", order))
            if budget.over():
                break
        return None

    def other_turn() -> Counted | None:
        """The memo's or the search's turn; its count, if it finished."""
        if memo is not None:
            result = memo.run(budget.capped(race.memo_until(plan, memo.stats.nodes)))
            if result is not None:
                return finished(_counted(int(result), "memo", rule, memo.stats.nodes,
                                         "sub-problems repeat: finished before the frontier", order))
            return None
        assert solver is not None
        nodes = race.search_nodes(plan, solver.stats)
        if nodes > 0:
            try:
                solver.count(nodes=nodes, budget=budget)
            except LimitReached:
                pass  # (the turn's nodes, or the budget: the race looks at it)
            else:
                return finished(Counted(int(solver.stats.solutions), "search", None, solver.stats.nodes,
                                        "finished before the frontier", order.name, order.width))
            race.search_ran(plan, solver.stats)
        return None

    try:
        while True:
            # The rival first: the memo's price is known, the search's sets the frontier's free part.
            for take_turn in (other_turn, frontier_turn):
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
            race.next_turn()
    except KeyboardInterrupt:
        # The count so far is the memo's or the search's: the frontier knows none.
        raise Interrupted(so_far(), frontier.progress) from None


def _search(problem: ProblemData, engine: str, threads: int | None, progress: Callable[[Status], None] | None,
            why: str, budget: limits.Budget, started: Solver | None = None, runs: Runs | None = None) -> Counted:
    """The count by a search: on one thread, going on with `started` (a
    search already under way) if there is one; else on `threads` (checked
    by `count`). A search on one thread is remembered in `runs`."""
    if threads == 1:
        solver = started or Solver(problem, engine=engine, memory=budget.memory)
        remember(runs, solver)
        before = solver.stats.solutions
        with _reporting(solver, progress):
            n = before + solver.count(budget=budget)
        return Counted(n, "search", None, solver.stats.nodes, why)
    from .parallel import ParallelSearch

    ps = ParallelSearch(problem, threads, engine=engine, runs=runs)
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


def memo_rule(problem: ProblemData, memo_bytes: int | None = None, memory: int | None = None) -> str:
    """The memo's better branching rule for `problem`, by the same probe as
    `count` (for `Problem.to_zdd`; its memo within `memo_bytes` and the
    run's `memory`): the rule whose probe finished, else the one whose
    sub-problems came back most often.

    >>> from covering.puzzles.polyomino import l_tromino
    >>> memo_rule(l_tromino(12))
    'first'
    """
    compiled = problem.compile()
    best = (-1.0, "mrv")
    for rule in BRANCHINGS:
        counter = _core.MemoCount(compiled, memo_budget(memo_bytes, memory), rule)
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
