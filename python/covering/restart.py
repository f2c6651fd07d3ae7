"""The first few solutions of a problem, by randomized restarts.

A depth-first search can make a wrong choice early whose failure only shows
many levels later, after choices elsewhere that had nothing to do with it;
it then backtracks through all their combinations before it undoes the one
that mattered ("thrashing"). On big boards with independent regions, such as
sparse Akari puzzles, a few runs in a hundred take a thousand times longer
than the rest. Gomes, Selman and Kautz ("Boosting combinatorial search
through randomization", 1998) showed the cure for such heavy tails: run the
search in a random order with a node budget, and when the budget runs out,
start again with another order and twice the budget.

Every run here is a complete search, so nothing is guessed: solutions are
collected (distinct ones only) until ``limit`` are known, and a run that
reaches the end of its tree has seen every solution, so the answer is
exact. The budgets double, so the total work is at most about twice that of
the run which finishes, plus the first budget.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import _core, limits, sizes
from .errors import LimitReached

__all__ = ["KEEP", "Restarts", "Stage", "first_budget", "solutions"]

#: Where the engine's Akari batch left a puzzle's runs (``_core.akari_batch``;
#: ``puzzles::akari_batch::Stage``): its problem, the run under way (or
#: None), the run's number and node budget, the nodes of the runs before it,
#: and the solutions found (option ids).
Stage = tuple["_core.CompiledProblem", "_core.Search | None", int, int, int, list[list[int]]]

#: Solutions remembered across runs; past this many the current run goes on
#: without a budget (the memory of what was seen stays bounded).
KEEP = 1000


def first_budget(problem: _core.CompiledProblem) -> int:
    """The node budget of the first run: the depth of the deepest search
    there can be (a level per option, plus Algorithm M's null branches, a
    level per primary item), so that a run which hardly backtracks, as most
    do, finishes within it. The engine's figure
    (``puzzles::akari_batch::first_budget``), which Akari's batch runs too.

    >>> p = _core.CompiledProblem(1, 0, [1], [1], [0, 1], [0], [0])
    >>> first_budget(p)
    1024
    """
    return _core.restart_first_budget(problem)


class Restarts:
    """The randomized runs of `solutions` as a search that goes on where it
    stopped: each call (a turn of the portfolio, `covering.solving`) takes
    up the run under way, with the solutions and the nodes of the turns
    before it, so that a second turn of 40,000 nodes searches 20,000 more,
    not the first 20,000 again. A call's `budget` is its turn's: its nodes
    a total over every call, its time and flag the turn's.

    A call yields the distinct solutions not yet yielded, until ``limit``
    are known in all (those of earlier calls included), a run reaches the
    end of its tree (every solution has then been seen: the stream ends),
    or the budget's nodes are spent (`LimitReached` with ``budget="nodes"``).

    >>> p = _core.CompiledProblem(2, 0, [1, 1], [1, 1], [0, 1, 2, 4], [0, 1, 0, 1], [0, 0, 0, 0])
    >>> stage = Restarts(p)
    >>> len(list(stage(1))), len(list(stage(2))), list(stage(2))
    (1, 1, [])
    """

    def __init__(self, problem: _core.CompiledProblem, *, first_nodes: int | None = None,
                 plain_first: bool = False, seed: int = 0, stay: bool = False) -> None:
        # seed: the first run's order (run k's is seed + k); stay: the run
        # that finds the first solution goes on to the end, without budget.
        self.problem, self.plain_first, self.seed, self.stay = problem, plain_first, seed, stay
        self.run_budget = first_nodes if first_nodes is not None else first_budget(problem)
        self.run = 0  # the run under way (its seed, but for a plain first run)
        self.search: _core.Search | None = None
        self.spent = 0  # nodes of the runs that ran out
        self.seen: set[tuple[int, ...]] = set()
        self.found = 0
        self.limited = True  # does the run under way have a node budget?
        self.finished = False  # a run saw its whole tree
        self.pending: list[tuple[int, ...]] = []  # found, not yet yielded (see `resumed`)

    @classmethod
    def resumed(cls, stage: Stage, *, plain_first: bool = False) -> Restarts:
        """The runs where the engine's Akari batch left them (the stage of a
        puzzle it did not settle, ``puzzles::akari_batch::Stage``): the state
        of this class after the same calls, the solutions they found still
        to be yielded, so that a portfolio goes on from there without
        searching those nodes again.

        Three white cells in a row, two nodes searched: one solution found.

        >>> (kind, _, stage), = _core.akari_batch([(1, 3, b"...")], 2, 2)[0]
        >>> kind, stage[2:]
        ('heavy', (0, 1024, 0, [[2]]))
        >>> list(Restarts.resumed(stage)(2)), list(Restarts(stage[0])(2))
        ([(2,), (0,)], [(2,), (0,)])
        """
        problem, search, run, run_budget, spent, found = stage
        r = cls(problem, plain_first=plain_first)
        r.search, r.run, r.run_budget, r.spent = search, run, run_budget, spent
        r.pending = [tuple(ids) for ids in found]
        return r

    def nodes(self) -> int:
        """Nodes searched so far, every run together."""
        return self.spent + (0 if self.search is None else self.search.stats.nodes)

    def __call__(self, limit: int | None = None, budget: limits.Budget | None = None) -> Iterator[tuple[int, ...]]:
        limit = limits.limit(limit)
        run = limits.begin(budget)
        total = run.nodes
        while self.pending and (limit is None or self.found < limit):
            key = self.pending.pop(0)
            self.found += 1
            self.seen.add(key)
            yield key
        while not self.finished and (limit is None or self.found < limit):
            if self.search is None:
                seed = None if self.plain_first and self.run == 0 else (self.seed + self.run) % 2**64
                # (Refused before it is built if it would not fit the run's memory.)
                sizes.check_engine("auto", self.problem.footprint("auto"), run.memory)
                self.search = _core.Search(self.problem, seed, "auto")
            search = self.search
            # Where this call stops the run: its own budget, the call's nodes.
            cap = self.run_budget if self.limited else None
            if total is not None:
                cap = total - self.spent if cap is None else min(cap, total - self.spent)
            if cap is not None and search.stats.nodes >= cap:
                if self.limited and search.stats.nodes >= self.run_budget:
                    # The run's budget ran out: the next run, twice as much.
                    self.spent += search.stats.nodes
                    self.search = None
                    self.run += 1
                    self.run_budget *= 2
                    continue
                raise LimitReached(f"{total} nodes searched, {self.found} solutions", count=self.found,
                                   stats=None, budget="nodes")
            ids = search.next_solution(run.capped(cap))
            if ids is None:
                if search.exhausted:
                    self.finished = True  # this run saw the whole tree: nothing is missing
                    return
                if cap is not None and search.stats.nodes >= cap:
                    continue  # a run's budget or the call's nodes: decided above
                raise LimitReached(f"time ran out after {self.found} solutions", count=self.found,
                                   stats=search.stats, budget=run.ran_out())
            key = tuple(ids)
            if key in self.seen:
                continue
            self.found += 1
            if self.stay:
                self.limited = False
            if self.limited:
                self.seen.add(key)
                if len(self.seen) >= KEEP:
                    self.limited = False  # finish this run, remembering nothing more
            yield key


def solutions(
    problem: _core.CompiledProblem,
    limit: int | None = None,
    *,
    seconds: float | None = None,
    first_nodes: int | None = None,
    plain_first: bool = False,
    seed: int = 0,
    stay: bool = False,
    total: int | None = None,
    budget: limits.Budget | None = None,
) -> Iterator[tuple[int, ...]]:
    """Distinct solutions (increasing option ids), at most ``limit``, found by
    randomized runs with doubling node budgets (the first one ``first_nodes``;
    with ``plain_first``, the first run in the input order, for problems
    where a random order wanders, such as Akari boards with long segments;
    run k in the order of ``seed + k``; with ``stay``, the run that finds
    the first solution goes on to the end of its tree).
    Raises `LimitReached` (after the solutions found) if ``seconds`` run out,
    or once the runs have searched ``total`` nodes (a budget in nodes, so
    that what it decides is the same on every machine), or the run's
    `budget` is spent. (One call of a `Restarts`.)

    >>> # Items A, B; options {A}, {B}, {A, B}: two solutions.
    >>> p = _core.CompiledProblem(2, 0, [1, 1], [1, 1], [0, 1, 2, 4], [0, 1, 0, 1], [0, 0, 0, 0])
    >>> sorted(solutions(p))
    [(0, 1), (2,)]
    >>> len(list(solutions(p, 1)))
    1
    """
    return Restarts(problem, first_nodes=first_nodes, plain_first=plain_first, seed=seed, stay=stay)(limit,
                                                                                limits.begin(budget, total, seconds))
