"""The verbs of solving: a search, the stream of solutions, the first one,
uniqueness; one engine by name, or the portfolio of dancing links and CDCL.

These take a problem as data (`covering.model.ProblemData`); `Problem`'s
methods of the same names call them.

>>> from covering.model import ProblemData
>>> p = ProblemData.from_arrays(["A", "B"], [0, 1, 2, 4], [0, 1, 0, 1], labels=["a", "b", "ab"])
>>> list(solutions(p)), first(p), solve_unique(p)[1].name
([['a', 'b'], ['ab']], ['a', 'b'], 'MULTIPLE')
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

from . import _core, limits, sizes
from .errors import LimitReached
from .model import ProblemData
from .runs import Runs, remember
from .parallel import ParallelSearch
from .sat import SatSolver
from .solver import Solver
from .uniqueness import Uniqueness

__all__ = ["PORTFOLIO_NODES", "CELLS_WEIGHT", "RACE_SLICE", "WEIGHTED_PROBE_NODES", "CDCL_FIRST_DECISIONS", "CDCL_PROBE_DECISIONS", "NODES_PER_DECISION", "DANCING_SHARE", "PROPAGATIONS_PER_DECISION", "make_solver", "solutions", "first", "portfolio", "search_stage", "CdclStage", "cdcl_stage", "unsettled", "solve_unique",
           "sat_estimate"]

#: Nodes of dancing links before the portfolio (`first`, `uniqueness`)
#: turns to the CDCL solver: about a tenth of a second.
PORTFOLIO_NODES = 200_000
#: In the race of the searches in the input order on cells and on bitsets
#: for a first solution (`_Dancing._race`), an update of the cells counts
#: as this many of the bitsets': the bitsets take about four fifths of the
#: time. Where both search the same tree to its end they win, and the race
#: costs a quarter more than they alone (Knuth's windmill dominoes 3 x 6,
#: no solution: 0.04 s on bitsets, 0.06 s raced, 0.16 s on cells alone);
#: the cells win where their spread finds a first solution early (the
#: first of 100 queens: 101 nodes, in the race's first slice; bitsets pass
#: 3 million; his de Bruijn cycle of 8 bits: 1,556 nodes, where bitsets
#: take 94,776). Weights 1 to 4 measured on his windmill dominoes and de
#: Bruijn cycles (and on motley dissections and queendoms, which since
#: race no more): 4 was the fastest or within the noise.
CELLS_WEIGHT = 4
#: The least slice of nodes of a turn in that race: a few milliseconds of
#: cells at most, large against a call's overhead.
RACE_SLICE = 1024
#: The nodes of a probe by the weighted branching (Knuth's SSMCC-WTD: an
#: item's weight grows where it wipes out) after the first slice of the
#: search in the input order where multiplicities go on bitsets (most small
#: problems end in that `RACE_SLICE`): his MOTLEY-DLX dissections
#: with solutions, which the bitsets in the input order take 10,000 to
#: 2.7 million nodes to solve, take it 58-1,732 (5 x 12 to 9 x 9; 1,024
#: left 6 x 11 to the randomized runs, on the 0.3 s bar). Where it ends
#: nothing, it costs 10-30 ms.
WEIGHTED_PROBE_NODES = 2048
#: Past the first stage, the CDCL solver's first turn, in decisions (about
#: its first tenth of a second; each turn doubles), and the nodes a
#: decision is priced at (a CDCL decision took 15-40 us on Knuth's
#: problems, a node of dancing links 0.2-1 us), of which dancing links get
#: `DANCING_SHARE` in the turn after each: twice the CDCL solver's work, so
#: that a tree dancing links finish costs them half as much again, and a
#: proof only the CDCL solver finds costs it three times its own.
CDCL_FIRST_DECISIONS = 4096
NODES_PER_DECISION = 64
DANCING_SHARE = 2.0
#: The propagations a decision is priced for: those decisions propagated
#: 16-245 literals each on Knuth's problems and the portfolio's. A turn
#: whose decisions propagated more is priced by its propagations: his
#: QUEENDOM-DLX 10 5 propagates about 1,000 a decision (100-150 us each,
#: where its nodes on bitsets cost 0.4 us); priced as the others, the
#: CDCL solver took four fifths of a first solution's 9 s, where dancing
#: links alone find one in 1.3 s.
PROPAGATIONS_PER_DECISION = 256
#: The first decisions of the CDCL solver's first turn, which go alone to
#: price it: where they propagated more than `PROPAGATIONS_PER_DECISION`
#: each, the turn ends there, and its rest is the next turn (else the
#: whole turn follows in the same turn). His
#: QUEENDOM-DLX 9 4 (no solution): a first turn of 4,096 decisions took
#: 0.4 s, where the bitsets end the tree in 0.11 s.
CDCL_PROBE_DECISIONS = 512
#: The CDCL encoding's build time an entry (or option), measured on a
#: million random options over 2,000 primary and 200 colored secondary
#: items: 13.7 s for 6 million entries and options (rounded up). Its memory
#: is the engine's estimate (``CompiledProblem.footprint("sat")``).
SAT_SECONDS_PER_ENTRY = 2.5e-6


def make_solver(problem: ProblemData, *, order: str = "input", seed: int | None = None,
                engine: str = "auto", branching: str = "mrv", runs: Runs | None = None,
                memory: int | None = None) -> Solver | SatSolver:
    """One search over `problem` (see `Problem.solver`) within `memory`
    bytes, remembered in `runs` as the last started (its `stats`).

    >>> p = ProblemData.from_arrays(["A"], [0, 1], [0])
    >>> make_solver(p).count(), make_solver(p, engine="sat").uniqueness().name
    (1, 'UNIQUE')
    """
    if engine == "sat":
        if order != "input" or seed is not None or branching != "mrv":
            raise ValueError("engine='sat' takes no order, seed or branching (the CDCL solver picks its own order)")
        return SatSolver(problem, memory)
    solver = Solver(problem, order=order, seed=seed, engine=engine, branching=branching, memory=memory)
    remember(runs, solver)
    return solver


def _sat_takes_no_branching(branching: str) -> None:
    """Refuses a branching rule for the CDCL solver, which has none."""
    if branching != "mrv":
        raise ValueError("engine='sat' takes no branching (the CDCL solver picks its own order)")


def solutions(
    problem: ProblemData,
    limit: int | None = None,
    *,
    ids: bool = False,
    order: str = "input",
    seed: int | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    engine: str = "auto",
    threads: int = 1,
    conflicts: int | None = None,
    budget: limits.Budget | None = None,
    branching: str = "mrv",
    runs: Runs | None = None,
) -> Iterator[Any]:
    """The solutions of `problem`, found as they are asked for (see
    `Problem.solutions`), the search remembered in `runs`."""
    limit, threads = limits.limit(limit), limits.threads(threads)
    memory = None if budget is None else budget.memory
    if engine == "sat":
        if threads > 1:
            raise ValueError("engine='sat' runs on one thread")
        _sat_takes_no_branching(branching)
        return SatSolver(problem, memory).solutions(limit, ids=ids, conflicts=conflicts, nodes=nodes,
                                                    seconds=seconds, budget=budget)
    if conflicts is not None:
        raise ValueError("conflicts= is the budget of engine='sat' (the dancing-links engines count nodes=)")
    if threads > 1:
        if order != "input" or nodes is not None:
            raise ValueError("a search on several threads takes no order or nodes")
        return ParallelSearch(problem, threads, engine=engine, branching=branching, runs=runs).solutions(
            limit, ids=ids, budget=limits.begin(budget, None, seconds))
    solver = make_solver(problem, order=order, seed=seed, engine=engine, branching=branching, runs=runs,
                         memory=memory)
    return solver.solutions(limit, ids=ids, nodes=nodes, seconds=seconds, budget=budget)


def first(problem: ProblemData, **kwargs: Any) -> Any:
    """The first solution found, or None (see `Problem.first`): with the
    default engine and no order or threads, the portfolio, dancing links
    for `PORTFOLIO_NODES` nodes, then turns of the CDCL solver and dancing
    links (see `portfolio`). A budget is shared out, not a reason to leave
    the portfolio: dancing links may take half of ``seconds`` in their
    first stage, the turns what is left, and ``nodes`` counts both (the
    CDCL solver's decisions as nodes).

    >>> p = ProblemData.from_arrays(["A", "B"], [0, 1, 2, 4], [0, 1, 0, 1])
    >>> first(p, ids=True), first(p, ids=True, seconds=1.0)
    ((0, 1), (0, 1))
    """
    # (A branching rule other than the default is a search by that rule.)
    if kwargs.get("engine", "auto") == "auto" and kwargs.get("branching", "mrv") == "mrv" \
            and not set(kwargs) - {"engine", "branching", "ids", "nodes", "seconds", "budget", "runs"}:
        return _portfolio_first(problem, bool(kwargs.get("ids", False)), limits.nodes(kwargs.get("nodes")),
                                limits.seconds(kwargs.get("seconds")), kwargs.get("budget"), kwargs.get("runs"))
    return next(iter(solutions(problem, 1, **kwargs)), None)


def sat_estimate(problem: ProblemData) -> tuple[int, float]:
    """(bytes, seconds) the CDCL encoding of `problem` is expected to hold
    and to take to build.

    >>> sat_estimate(ProblemData.from_arrays(["A"], [0, 1], [0]))[0] > 0
    True
    """
    compiled = problem.compile()
    entries = compiled.n_entries + compiled.n_options
    return compiled.footprint("sat"), entries * SAT_SECONDS_PER_ENTRY


def _sat_skipped(problem: ProblemData, left: float | None, runs: Runs | None, run: limits.Budget) -> bool:
    """Should the portfolio skip the CDCL stage? Yes when its encoding would
    not fit the `run`'s memory or half the time `left`; then why is noted
    in `runs` (its `skipped`)."""
    estimate, build = sat_estimate(problem)
    most = run.memory_limit()
    if estimate > most:
        why = f"its encoding needs about {sizes.human(estimate)}, past the limit of {sizes.human(most)}"
    elif left is not None and build * 2 > left:
        why = f"its encoding takes about {build:.1f} s to build, and {left:.1f} s are left"
    else:
        return False
    if runs is not None:
        runs.note_skipped("sat", estimate, why)
    return True


#: A stage of the portfolio: (how many solutions, the turn's budget: its
#: nodes and its time) -> the solutions' option ids, as found;
#: `LimitReached` when the budget ran out.
Stage = Callable[[int, limits.Budget], Iterable[tuple[int, ...]]]


def search_stage(solver: Solver) -> Stage:
    """Dancing links as a stage: one search, taken up where it stopped at
    each turn.

    >>> from covering import Problem
    >>> stage = search_stage(Problem.from_dlx("a\\na\\n").solver())
    >>> list(stage(2, limits.Budget.of()))
    [(0,)]
    """
    def dancing(k: int, turn: limits.Budget) -> Iterator[tuple[int, ...]]:
        return solver.solutions(k, ids=True, budget=turn)

    return dancing


class CdclStage:
    """The CDCL solver as a stage (see `cdcl_stage`), which also says the
    work it has done: its propagations, which the portfolio prices its
    turns by where its decisions propagate more than most."""

    def __init__(self, make: Callable[[], SatSolver], conflicts: int | None,
                 back: Callable[[tuple[int, ...]], tuple[int, ...]] | None) -> None:
        self.make, self.conflicts, self.back = make, conflicts, back
        self.sat: SatSolver | None = None

    def __call__(self, k: int, turn: limits.Budget) -> Iterable[tuple[int, ...]]:
        if self.sat is None:
            self.sat = self.make()
        found = self.sat.solutions(k, ids=True, conflicts=self.conflicts, budget=turn)
        back = self.back
        return found if back is None else (back(ids) for ids in found)

    @property
    def propagations(self) -> int:
        """Literals propagated so far (0 before the first turn)."""
        return 0 if self.sat is None else self.sat.stats.propagations


def cdcl_stage(make: Callable[[], SatSolver], *, conflicts: int | None = None,
               back: Callable[[tuple[int, ...]], tuple[int, ...]] | None = None) -> CdclStage:
    """The CDCL solver as a stage: made by `make` at its first turn (its
    encoding takes time that the dancing stage may settle the question
    without), then taken up where it stopped at each; within `conflicts`
    too, and its solutions mapped by `back` (to the option ids of the
    problem the dancing stage searches).

    >>> from covering import Problem
    >>> p = Problem.from_dlx("a b\\na\\nb\\n")
    >>> stage = cdcl_stage(lambda: SatSolver(p))
    >>> list(stage(2, limits.Budget.of())), stage.propagations > 0
    ([(0, 1)], True)
    """
    return CdclStage(make, conflicts, back)


def portfolio(want: int, dancing: Stage, cdcl: Stage, *, skip: Callable[[float | None], bool] | None = None,
              budget: limits.Budget | None = None, first_nodes: int | None = None,
              share: float = 1.0, lead: bool = True,
              per_decision: float = NODES_PER_DECISION) -> tuple[list[tuple[int, ...]], bool]:
    """The one portfolio: up to `want` solutions (1: a solution; 2: is it
    the only one?) and whether that settled it, for `first`, `uniqueness`
    and every puzzle's `solve()`.

    Dancing links run first (`dancing`: a search that goes on from where
    it stopped, its node budget counted from its start, or a puzzle's own,
    such as Akari's restarts), for `first_nodes` nodes (default
    `PORTFOLIO_NODES`) and `share` of the `budget`'s time: most problems are settled
    there in a moment. Where the tree is heavier, dancing links go on for
    as much again, then the two take turns, the
    CDCL solver (`cdcl`, whose node budget is its decisions in that call)
    for `CDCL_FIRST_DECISIONS`, doubling each turn (the first turn's first
    `CDCL_PROBE_DECISIONS` alone: where they propagated more than
    `PROPAGATIONS_PER_DECISION` each, its rest a turn of its own, else the
    whole turn at once after them), then dancing links for
    `DANCING_SHARE` times the same work (a decision priced at
    `NODES_PER_DECISION` nodes, or more where the turn's decisions
    propagated more than `PROPAGATIONS_PER_DECISION` each: a `CdclStage`
    says its propagations), until one settles it: a tree dancing links
    finish past their first stage is not handed to a solver that takes
    seconds to refute it (his windmill dominoes 3 x 6: no solution;
    236,000 nodes, 0.05 s, where the CDCL solver took 7.4 s).
    The turns are counted in nodes and decisions, never in time, and the
    first solution dancing links showed is the one kept, so the answer is
    the same on every machine. The `budget`'s nodes count both (decisions
    as nodes); each stage is handed its turn as a `Budget` of its own (its
    nodes, its share of the time, the run's flag).
    When `skip(left)` says the CDCL encoding would not fit the memory or the
    time left, dancing links go on alone with the whole budget. With
    ``lead=False`` the CDCL solver takes the first turn after the first
    stage, for a caller whose encoding is known to be small (Akari: its
    first turn at most 40 ms on a 100 x 100 board, where a dancing-links
    node costs 5 microseconds). `per_decision` prices a decision in nodes
    for a caller whose nodes cost more than most (Akari's scan every item:
    on a sparse 150 x 150 board a node costs 50 microseconds, a decision
    under 2 once the encoding is built; at 64 nodes a decision, its dancing
    turn after the CDCL solver's first took 16 s, where the CDCL solver's
    later turns settled it in 0.1 s).

    >>> from covering.model import ProblemData
    >>> p = ProblemData.from_arrays(["A", "B"], [0, 1, 2, 4], [0, 1, 0, 1])
    >>> solver, sat = make_solver(p), SatSolver(p)
    >>> dancing = lambda k, turn: solver.solutions(k, ids=True, budget=turn)
    >>> portfolio(2, dancing, lambda k, turn: sat.solutions(k, ids=True, budget=turn))
    ([(0, 1), (2,)], True)
    """
    run = limits.begin(budget)
    nodes = run.nodes
    first_nodes = PORTFOLIO_NODES if first_nodes is None else first_nodes
    first = first_nodes if nodes is None else min(nodes, first_nodes)
    found: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()

    def take(stream: Iterable[tuple[int, ...]]) -> bool:
        """Takes the solutions of one turn not found before; True if that
        settled it (`want` found, or the stream ended: none is left)."""
        try:
            for ids in stream:
                key = tuple(sorted(ids))
                if key not in seen:
                    seen.add(key)
                    found.append(ids)
                    if len(found) >= want:
                        return True
        except LimitReached:
            return False
        return True

    def turn_of(n: int | None, part: float = 1.0) -> limits.Budget:
        """A turn of `n` nodes (its stage's unit; None: no cap) and the
        time left (`part` of it), the run's flag watching over it."""
        left = run.left()
        return run.begin(seconds=None if left is None or part == 1.0 else left * part).capped(n)

    if take(dancing(want, turn_of(first, share))):
        return found, True
    if nodes is not None and nodes <= first:
        return found, False  # the node budget is spent
    if run.left() == 0 or run.over():
        return found, False
    if skip is not None and skip(run.left()):
        # No room or time for the CDCL encoding: dancing links go on with
        # the whole budget (its nodes count from the start).
        return found, take(dancing(want, turn_of(nodes)))
    danced, decided, turn = first, 0, CDCL_FIRST_DECISIONS
    # Dancing links' own turn first, as long as their first stage: the
    # CDCL solver's first turn can take seconds on a big problem (his de
    # Bruijn cycle of 391,879 options: 9.6 s for its first 4,096
    # decisions, the encoding built; a randomized run of dancing links
    # found a solution in 632 nodes).
    if lead:
        goal = first + (first if nodes is None else min(first, nodes - first))
        if take(dancing(want, turn_of(goal))):
            return found, True
        danced = goal
    while True:
        spent = danced + decided
        if nodes is not None and spent >= nodes or run.left() == 0 or run.over():
            return found, False
        slice_ = turn if nodes is None else min(turn, nodes - spent)
        before, after = _propagations(cdcl), 2 * turn
        if decided == 0 and isinstance(cdcl, CdclStage) and slice_ > CDCL_PROBE_DECISIONS:
            # The first turn's price is known only after it: its first
            # `CDCL_PROBE_DECISIONS` go alone, and the rest of the turn only
            # where they were priced as most are.
            settled = take(cdcl(want, turn_of(CDCL_PROBE_DECISIONS)))
            if settled or cdcl.propagations - before > PROPAGATIONS_PER_DECISION * CDCL_PROBE_DECISIONS:
                # (The rest of the first turn is the next.)
                slice_, after = CDCL_PROBE_DECISIONS, turn - CDCL_PROBE_DECISIONS
            else:
                # (The whole turn again: a call's end restarts CaDiCaL's
                # search, so the rest alone fell short of what one call
                # settles: a holed board of L-trominoes, proven without a
                # tiling in 3,642 decisions, needed 4,272 in two calls.)
                rest = slice_ if nodes is None else min(slice_, nodes - spent - CDCL_PROBE_DECISIONS)
                settled = take(cdcl(want, turn_of(rest)))
                slice_ = CDCL_PROBE_DECISIONS + rest
        else:
            settled = take(cdcl(want, turn_of(slice_)))
        decided += slice_
        # The turn's work, in decisions: more where they propagated more
        # than `PROPAGATIONS_PER_DECISION` each.
        worked = max(slice_, (_propagations(cdcl) - before) / PROPAGATIONS_PER_DECISION)
        if settled:
            break
        spent = danced + decided
        if nodes is not None and spent >= nodes or run.left() == 0 or run.over():
            return found, False
        more = int(DANCING_SHARE * per_decision * worked)
        goal = danced + (more if nodes is None else min(more, nodes - spent))
        settled = take(dancing(want, turn_of(goal)))
        danced = goal
        if settled:
            break
        turn = after
    return found, True


def _propagations(stage: Stage) -> int:
    """What a CDCL stage propagated so far (0 for a stage that does not say)."""
    return stage.propagations if isinstance(stage, CdclStage) else 0


def unsettled(run: limits.Budget, stats: Any = None, what: str = "a solution") -> LimitReached:
    """What a portfolio that the `run`'s budget stopped before it settled
    raises: `LimitReached` naming what ran out (`Budget.ran_out`).

    >>> unsettled(limits.begin(None, nodes=10)).budget
    'nodes'
    """
    return LimitReached(f"budget reached before {what}", count=0, stats=stats, budget=run.ran_out())


class _Dancing:
    """The portfolio's dancing links for a problem, as a `Stage` (its node
    budget a total over everything it ran): the search in the input order,
    which goes on from where it stopped; and past the first stage, beside
    it, randomized runs with doubling node budgets (Gomes, Selman and
    Kautz; see `covering.restart`), each turn's nodes shared half and half
    between the two. A first search can lose itself where a few early
    choices lead nowhere: his de Bruijn cycle through the 10-bit words of
    weights 2 to 5 (391,879 options) took the search in the input order
    past 29 million nodes and two minutes without a solution, where SSXCC
    took 477,877 and the first randomized run found one in 632 nodes.
    Every run is a complete search, so a run that ends has seen every
    solution: the answer stays exact. Seeds 1, 2, ... and budgets in
    nodes: the same answer on every machine.

    The runs dance on cells: their options change places as they are
    hidden and restored, as in Knuth's programs, which spreads a first
    search over the problem, where bitsets try each item's options in one
    fixed order (the first solution of 52, 58 and 64 queens: at most 166
    nodes on cells, over 4.5 million on bitsets); but on bitsets with masks
    where a node of cells hides thousands of options one by one (word
    rectangles), and on the bitsets for multiplicities where their node
    costs a fraction of the cells' (Knuth's MOTLEY-DLX, whose options the
    cells too try in much the same order; `CompiledProblem.first_engine`).
    Where the cells go first and a count would take bitsets
    (`CompiledProblem.first_beside`), the search in the input order is two
    searches, one on each, racing (`_race`). Where multiplicities go on
    bitsets, a probe of the weighted branching follows their first slice
    (as his SSMCC-WTD, which finds his motley dissections in a few hundred
    nodes).
    """

    def __init__(self, problem: ProblemData, runs: Runs | None = None, memory: int | None = None) -> None:
        self.problem = problem
        self.memory = memory
        compiled = problem.compile()
        self.engine = problem.first_engine or compiled.first_engine
        # (A puzzle that chose its engine chose it alone.)
        beside = None if problem.first_engine is not None else compiled.first_beside
        self.plain = Solver(problem, engine=self.engine, memory=memory)
        self.searches = [self.plain]
        # Multiplicities on bitsets: after their first slice, a probe of
        # the weighted branching (`WEIGHTED_PROBE_NODES`), counted with the
        # searches in the input order, never resumed.
        self.weighted: Solver | None = None
        self.probing = problem.first_engine is None and self.engine == "bits" and compiled.has_multiplicities
        remember(runs, self)  # (its `stats`: the searches' in the input order)
        # The racing search, built after the first slice (most first
        # solutions are found in it, and a square table takes a while).
        self.beside = beside
        self.started = False
        self.seed = 0  # of the randomized run under way (0: none yet)
        self.run: Solver | None = None
        self.run_budget = 0
        self.spent = 0  # nodes of the randomized runs that ran out

    @property
    def stats(self) -> _core.Stats:
        """The counters of the search in the input order; on two engines
        racing, their work added up (nodes, updates, mems, cleansings),
        the solutions of the one that found more, and the deeper level."""
        if len(self.searches) == 1:
            return self.plain.stats
        each = [s.stats for s in self.searches]
        return _core.Stats(sum(x.nodes for x in each), sum(x.updates for x in each), sum(x.mems for x in each),
                           sum(x.cleansings for x in each), max(x.solutions for x in each),
                           max(x.max_level for x in each))

    def raced(self) -> int:
        """Nodes of the search in the input order, on every engine racing
        (and the weighted branching's probe)."""
        return sum(s.stats.nodes for s in self.searches)

    def nodes(self) -> int:
        """Nodes searched so far, every run together."""
        return self.raced() + self.spent + (0 if self.run is None else self.run.stats.nodes)

    def _race(self, k: int, until: int, clock: limits.Budget) -> Iterator[tuple[int, ...]]:
        """Up to `k` solutions of the search in the input order, until it
        has taken `until` nodes (`raced`; then `LimitReached` on nodes).
        Its searches on cells and on bitsets take turns: the next slice of
        nodes goes to the one that has done the less work, counted in
        updates (a hidden or killed option: 4-10 ns on either engine on
        Knuth's problems, where their nodes differ tenfold), a cell's
        counted `CELLS_WEIGHT` times; each slice is half the search's nodes
        so far (at least `RACE_SLICE`). The first to end, or to give `k`
        solutions, settles it; what both find, the portfolio keeps once.
        By counts of work, never the clock: the same answer on every
        machine. Where multiplicities go on bitsets, the weighted branching
        has a slice of `WEIGHTED_PROBE_NODES` after their first, its only
        one."""
        weighted = self.weighted
        while True:
            left = until - self.raced()
            if left <= 0:
                raise LimitReached("node budget spent", count=0, stats=None, budget="nodes")
            if self.probing and self.plain.stats.nodes > 0:
                self.probing = False
                weighted = self.weighted = Solver(self.problem, engine="cells", branching="wtd",
                                                  memory=self.memory)
                self.searches.append(weighted)
                search, slice_ = weighted, min(left, WEIGHTED_PROBE_NODES)
            elif self.beside is None and len(self.searches) == 1 + (weighted is not None):
                # (Alone, or a first slice before the probe.)
                search, slice_ = self.plain, min(left, RACE_SLICE) if self.probing else left
            else:
                if self.beside is not None and self.plain.stats.nodes > 0:
                    self.searches.append(Solver(self.problem, engine=self.beside, memory=self.memory))
                    self.beside = None
                search = min((s for s in self.searches if s is not weighted),
                             key=lambda s: s.stats.updates * (CELLS_WEIGHT if s.engine == "cells" else 1))
                slice_ = min(left, max(RACE_SLICE, search.stats.nodes // 2))
            try:
                yield from search.solutions(k, ids=True, nodes=search.stats.nodes + slice_, budget=clock)
            except LimitReached as e:
                _runs_out(e)
                continue
            return  # it ended, or gave k

    def __call__(self, k: int, turn: limits.Budget) -> Iterator[tuple[int, ...]]:
        # The turn's nodes are a total over everything this stage ran; each
        # search below counts its own, within the turn's time and flag.
        n, clock = turn.nodes, turn.capped(None)

        if not self.started:
            # The first stage: the search in the input order alone.
            self.started = True
            try:
                yield from self._race(k, PORTFOLIO_NODES if n is None else n, clock)
                return
            except LimitReached as e:
                _runs_out(e)
                if n is not None:
                    raise
        # The cells alone in the input order (no bitsets racing to end the
        # tree) give the randomized runs their half of each turn first:
        # past the first stage, a first solution is more likely theirs (his
        # de Bruijn cycle of 391,879 options: the first run finds one in 632
        # nodes, after the input order's 100,000 of the lead, 1 s).
        runs_first = self.engine == "cells" and self.beside is None and len(self.searches) == 1
        while True:
            # A turn of `extra` nodes, half of them to the search in the
            # input order (no node budget: turns of doubling size).
            extra = max(PORTFOLIO_NODES, self.nodes()) if n is None else n - self.nodes()
            if extra <= 0:
                raise LimitReached("node budget spent", count=0, stats=None, budget="nodes")
            goal, share = self.raced() + extra // 2, extra - extra // 2
            if runs_first and (yield from self._runs(k, share, clock)):
                return
            try:
                yield from self._race(k, goal, clock)
                return
            except LimitReached as e:
                _runs_out(e)
            if not runs_first and (yield from self._runs(k, share, clock)):
                return
            if n is not None:
                raise LimitReached("node budget spent", count=0, stats=None, budget="nodes")

    def _runs(self, k: int, share: int, clock: limits.Budget) -> Generator[tuple[int, ...], None, bool]:
        """Up to `k` solutions of the randomized runs, for `share` nodes,
        each run with twice the budget of the last; True where they settled
        it (`k` found, or a run saw its whole tree)."""
        while share > 0:
            if self.run is None:
                self.seed += 1
                self.run_budget = max(PORTFOLIO_NODES, 2 * self.run_budget)
                self.run = Solver(self.problem, order="random", seed=self.seed, engine=self.engine,
                                  memory=self.memory)
            run, before = self.run, self.run.stats.nodes
            try:
                yield from run.solutions(k, ids=True, nodes=min(self.run_budget, before + share), budget=clock)
                return True
            except LimitReached as e:
                _runs_out(e)
            if run.stats.nodes == before:
                break  # (no progress: nothing more to give this turn)
            share -= run.stats.nodes - before
            if run.stats.nodes >= self.run_budget:
                self.spent += run.stats.nodes
                self.run = None  # its budget ran out: the next run has twice as much
        return False


def _runs_out(e: LimitReached) -> None:
    """A search's own node budget ran out: the stage goes on (else the
    run's budget ran out: raised)."""
    if e.budget != "nodes":
        raise e


def _problem_stages(problem: ProblemData, run: limits.Budget, conflicts: int | None = None,
                    runs: Runs | None = None) -> tuple[Stage, Stage]:
    """The portfolio's stages for a problem: dancing links (`_Dancing`,
    its search remembered in `runs`) and the CDCL solver (within
    `conflicts` too), each within the budget of its turn and the `run`'s
    memory."""
    return (_Dancing(problem, runs, run.memory),
            cdcl_stage(lambda: SatSolver(problem, run.memory), conflicts=conflicts))


def _portfolio_first(problem: ProblemData, ids: bool, nodes: int | None, seconds: float | None,
                     budget: limits.Budget | None = None, runs: Runs | None = None) -> Any:
    """`first`'s portfolio: dancing links may take half of `seconds`, the
    CDCL solver what is left (what was left out is in `runs.skipped`);
    `LimitReached` when the budget ran out first."""
    runs = Runs() if runs is None else runs
    runs.begin()
    run = limits.begin(budget, nodes, seconds)
    dancing, cdcl = _problem_stages(problem, run, runs=runs)
    found, settled = portfolio(1, dancing, cdcl, skip=lambda left: _sat_skipped(problem, left, runs, run),
                               budget=run, share=0.5)
    if not settled:
        raise unsettled(run, runs.stats)
    if not found:
        return None
    return found[0] if ids else [problem.label(o) for o in found[0]]


def solve_unique(problem: ProblemData, *, ids: bool = False, nodes: int | None = None,
                 seconds: float | None = None, engine: str = "auto",
                 conflicts: int | None = None, budget: limits.Budget | None = None,
                 branching: str = "mrv", runs: Runs | None = None) -> tuple[Any, Uniqueness]:
    """A solution and whether it is the only one, from one search (see
    `Problem.solve_unique`), within the run's `budget`; with a `branching`
    rule other than "mrv", dancing links by that rule alone. What ran is
    remembered in `runs`."""
    run = limits.begin(budget, nodes, seconds)
    conflicts = limits.conflicts(conflicts)
    if engine not in ("auto", "sat") and conflicts is not None:
        raise ValueError("conflicts= is the budget of engine='sat' (the dancing-links engines count nodes=)")
    if runs is not None:
        runs.begin()
    found: list[tuple[int, ...]] = []

    def two(**budgets: Any) -> bool:
        """Looks for two solutions (kept in `found`) with `budgets`; True if
        that settled it."""
        try:
            for sol in solutions(problem, 2, ids=True, budget=run, runs=runs, **budgets):
                found.append(sol)
        except LimitReached:
            return False
        return True

    if engine == "sat":
        _sat_takes_no_branching(branching)
        settled = two(engine="sat", conflicts=conflicts)
    elif engine != "auto" or branching != "mrv":
        settled = two(engine=engine, branching=branching)
    else:
        dancing, cdcl = _problem_stages(problem, run, conflicts, runs)
        found, settled = portfolio(2, dancing, cdcl, skip=lambda left: _sat_skipped(problem, left, runs, run),
                                   budget=run)
    solution = None if not found else found[0] if ids else [problem.label(o) for o in found[0]]
    return solution, Uniqueness.of(len(found)) if settled else Uniqueness.UNKNOWN
