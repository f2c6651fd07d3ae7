"""One dispatcher for the verbs of every puzzle: the puzzle's face reads
the input into puzzles, the verb asks each one through the puzzle protocol
(`covering.puzzles.base`: solve, solutions, count, uniqueness, best), the
face draws what came back, and the run (`covering.cli.contract.Run`)
prints it and the summary.

A face (`Face`) is what differs by puzzle: how its input is read, how an
answer looks, and where an engine verb has a faster path of its own (the
Sudoku batch answers a whole file at once; a .dlx file takes
``--engine``). Two shapes of output: a single input (dlx, tilings, queens)
prints each solution as it comes; a batch (Sudoku, Akari) answers each
puzzle on one line (one JSON record).

>>> from covering.puzzles.queens import Queens
>>> class Toy(Face):
...     def entries(self): yield 0, Queens(4)
...     def show(self, k, puzzle, solution, j, cost=None): return {"rows": solution}, None
>>> import argparse
>>> from covering.cli.contract import Run
>>> run = Run("toy solve", json=True)
>>> run_solve(argparse.Namespace(face=Toy, all=True, limit=None), run)
{"rows": [2, 0, 3, 1]}
{"rows": [1, 3, 0, 2]}
>>> run.count, run.complete
(2, True)
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import Interrupted, LimitReached, ProblemError
from ..problem import Problem, Uniqueness
from . import flags
from .common import UsageError, report_count, show_progress, threads_from, write_dlx
from .contract import Run

__all__ = ["Face", "run_solve", "run_count", "run_unique", "run_best", "run_export", "run_generate"]


class Face:
    """A puzzle as the command line meets it; the engine verbs default to
    the puzzle protocol's, within the run's budget."""

    #: One answer (one JSON record) per puzzle, not per solution.
    batch = False

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        self.args, self.run = args, run

    # Parse.

    def entries(self) -> Iterator[tuple[int, Any]]:
        """(index, puzzle) of each puzzle of the input; one that cannot be
        read is an error line in its place (`Run.error_line`)."""
        raise NotImplementedError

    def single(self) -> tuple[int, Any]:
        """The one puzzle of a single input."""
        return next(iter(self.entries()))

    def problem(self) -> Problem:
        """The exact cover problem of the one puzzle (``export``)."""
        problem: Problem = self.single()[1].problem()
        return problem

    def key(self, k: int) -> dict[str, Any]:
        """The keys naming puzzle `k` in its JSON record."""
        return {"puzzle": k + 1}

    def where(self, k: int) -> str:
        """Puzzle `k` in messages."""
        return f"puzzle {k + 1}"

    # Print.

    def show(self, k: int, puzzle: Any, solution: Any, j: int, cost: int | None = None) -> tuple[dict[str, Any] | None, str | None]:
        """One solution (the `j`-th) of a single input: (JSON record, text)."""
        raise NotImplementedError

    def line(self, k: int, puzzle: Any, found: list[Any], want: int | None,
             word: str | None = None) -> tuple[dict[str, Any] | None, str]:
        """A batch's answer to puzzle `k`: what was `found` (up to `want`),
        and for ``unique`` the word."""
        raise NotImplementedError

    def priced(self, solution: Any) -> Any:
        """A `covering.mincost.PricedSolution` as `show` takes solutions."""
        return solution.labels

    # The engine verbs.

    def answer_all(self, verb: str, want: int | None) -> bool:
        """Answers the whole input at once, where the puzzle has a faster
        path for a batch; False: the dispatcher asks puzzle by puzzle."""
        return False

    def solutions(self, puzzle: Any, want: int | None) -> Iterable[Any]:
        """Up to `want` solutions: the first by the portfolio (dancing
        links, then the CDCL solver)."""
        budget = self.run.budget
        if want == 1:
            one = puzzle.solve(budget=budget)
            return [] if one is None else [one]
        solutions: Iterable[Any] = puzzle.solutions(want, budget=budget)
        return solutions

    def count(self, puzzle: Any, limit: int | None) -> Any:
        """The count (an int), or a count by the front door
        (`covering.counting.Counted`) with how it was made."""
        return count_by_front_door(self.args, self.run, puzzle.problem(), limit)

    def unique(self, puzzle: Any) -> tuple[Any, Uniqueness]:
        """(the first solution or None, NONE, UNIQUE or MULTIPLE): the
        puzzle protocol's `solve_unique`, the engine call of `uniqueness()`."""
        found: tuple[Any, Uniqueness] = puzzle.solve_unique(budget=self.run.budget)
        return found

    def best(self, puzzle: Any, k: int) -> Any:
        """The `k` cheapest (`covering.mincost.Best`): the puzzle
        protocol's `best`."""
        return puzzle.best(k, budget=self.run.budget)

    def generate(self, k: int, seed: int) -> tuple[dict[str, Any], str, str]:
        """Puzzle `k` made from `seed`: (JSON record, text, the note on stderr)."""
        raise NotImplementedError

    def report(self) -> None:
        """What the summary says beyond the count (engine, nodes), once the verb ran."""


def count_by_front_door(args: argparse.Namespace, run: Run, problem: Problem, limit: int | None) -> Any:
    """A count by `covering.counting.count`, with the verb's ``--method``,
    ``--branching``, ``--engine``, ``--memo-bytes``, ``--item-order``,
    ``--threads`` and ``--progress``."""
    from .. import counting
    from ..progress import Display

    method = getattr(args, "method", None) or "auto"
    if method != "auto":
        run.extra["method"] = method
    threads = threads_from(args) if getattr(args, "threads", None) else None
    with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
        try:
            return counting.count(problem, limit, method=method, branching=getattr(args, "branching", None),
                                  engine=getattr(args, "engine", "auto"), memo_bytes=getattr(args, "memo_bytes", None),
                                  threads=threads, progress=draw, item_order=getattr(args, "item_order", "auto"),
                                  budget=run.budget)
        except (Interrupted, LimitReached) as e:
            nodes = getattr(e.stats, "nodes", 0)
            run.extra["nodes"] = int(nodes or 0) if e.count is not None else 0
            raise
        except ProblemError as e:
            raise UsageError(f"--method {method}: {e}") from None
        except ValueError as e:  # flags the front door refuses together (--engine with --method memo)
            raise UsageError(str(e)) from None


def run_solve(args: argparse.Namespace, run: Run) -> None:
    """``solve`` (and ``random`` and ``list``, which differ only in the
    order the face's engine gives): up to ``--limit N`` solutions (one;
    ``--all``: every one) of each puzzle. No solution is one line,
    ``no solution``, on every puzzle."""
    want = flags.wanted(args)
    face: Face = args.face(args, run)
    if not face.batch:  # (a batch's limit is each puzzle's)
        run.limit = want
    try:
        if face.answer_all(args.verb if "verb" in args else "solve", want):
            return
        if face.batch:
            for k, puzzle in face.entries():
                _answer_batch(run, face, k, puzzle, face.solutions(puzzle, want), want)
            run.done(limited=run.stopped == "limit")
            return
        for k, puzzle in face.entries():
            for j, solution in enumerate(face.solutions(puzzle, want)):
                run.answer(*face.show(k, puzzle, solution, j))
    finally:
        face.report()
    if not run.count:
        run.no_solution()
    run.done()


def _answer_batch(run: Run, face: Face, k: int, puzzle: Any, solutions: Iterable[Any], want: int | None) -> None:
    """One puzzle of a batch answered on one line, with ``"count"`` and,
    when `want` cut it, ``"stopped": "limit"``. Cut short by Ctrl-C or the
    budget, it shows what it found, if anything (never "no solution"),
    before the cut goes on up."""
    found: list[Any] = []
    complete = False
    try:
        for solution in solutions:
            found.append(solution)
        complete = True
    finally:
        if complete or found:
            record, text = face.line(k, puzzle, found, want)
            if record is not None:
                record["count"] = len(found)
                if want is not None and want > 1 and len(found) >= want:
                    record["stopped"] = "limit"
            # (The run stopped at the limit where a puzzle did, as a single
            # puzzle's solve does at its first solution.)
            if want is not None and len(found) >= want:
                run.stopped = "limit"
            run.answer(record, text)


def run_count(args: argparse.Namespace, run: Run) -> None:
    """``count``: the number of solutions of each puzzle (``--limit N``:
    stop at N); a count cut short is printed as partial."""
    face: Face = args.face(args, run)
    limit = getattr(args, "limit", None)
    if not face.batch:  # (a batch's limit is each puzzle's)
        run.limit = limit
    if face.answer_all("count", limit):
        return
    if not face.batch:
        _, puzzle = face.single()
        counted = face.count(puzzle, limit)
        if isinstance(counted, int):
            run.counted(counted)
            run.done(limited=limit is not None and counted >= limit)
        else:
            report_count(run, counted, limit)
        return
    for k, puzzle in face.entries():
        try:
            n = puzzle.count(limit, budget=run.budget)
        except (Interrupted, LimitReached) as e:
            # The counts printed stand; the puzzle under way, as a partial count.
            if run.json:
                run.emit({**face.key(k), "count": e.count, "complete": False})
            elif e.count is not None:
                print(e.count, flush=True)
            run.partial = f"{face.where(k)}: {e.count} solutions so far"
            raise
        capped = limit is not None and n >= limit
        run.answer({**face.key(k), "count": n, "complete": True, **({"stopped": "limit"} if capped else {})},
                   f"{n}\n")
        if capped:
            run.stopped = "limit"
            print(f"covering: the count of {face.where(k)} stopped at {n} (--limit {limit}): there may be more",
                  file=sys.stderr)
    run.done(limited=run.stopped == "limit")


def run_unique(args: argparse.Namespace, run: Run) -> None:
    """``unique``: the first solution, then ``unique``, ``multiple`` or
    ``none`` (``unknown`` when a budget left it undecided, then the run
    stops as spent)."""
    face: Face = args.face(args, run)
    if face.answer_all("unique", None):
        return
    try:
        for k, puzzle in face.entries():
            solution, u = face.unique(puzzle)
            if face.batch:
                run.check()  # "unknown" because the budget ran out: the run stops here
                run.answer(*face.line(k, puzzle, [] if solution is None else [solution], 1, word=u.value))
                continue
            if solution is not None:
                run.answer(*face.show(k, puzzle, solution, 0))
            if u is Uniqueness.UNKNOWN and run.spent() is not None:
                raise KeyboardInterrupt  # reported as the budget spent, with the solution printed
            run.uniqueness(u.value)
    finally:
        face.report()
    run.done(limited=False)


def run_best(args: argparse.Namespace, run: Run) -> None:
    """``best``: the ``--limit K`` (default 1) cheapest solutions, each
    with a line ``cost N``. A budget or Ctrl-C prints the best found so
    far, not proven."""
    k = 1 if args.limit is None else args.limit
    if k < 1:
        raise UsageError("--limit must be at least 1 (the K cheapest)")
    face: Face = args.face(args, run)
    run.limit = k
    index, puzzle = face.single()
    interrupted = False
    try:
        found = face.best(puzzle, k)
    except Interrupted as e:
        found, interrupted = e.best, True  # type: ignore[attr-defined]
    if not interrupted and not found.optimal:
        run.limit_reached()  # a budget ended the search: the best so far, not proven
    run.disarm()  # the work is over: what it found is printed whole
    for j, solution in enumerate(found):
        run.answer(*face.show(index, puzzle, face.priced(solution), j, cost=solution.cost))
    if not found and found.optimal:
        run.no_solution()
    run.extra.update(optimal=found.optimal, nodes=found.stats.nodes)
    if interrupted or not found.optimal:
        run.noun = f"{run.noun} printed (not proven the cheapest)"
        raise KeyboardInterrupt
    run.done(limited=not found.all_there_are)


def run_export(args: argparse.Namespace, run: Run) -> None:
    """``export``: the puzzle's exact cover problem in Knuth's .dlx format."""
    write_dlx(args.face(args, run).problem(), run)


def run_generate(args: argparse.Namespace, run: Run) -> None:
    """``generate``: ``--limit N`` puzzles (default 1) from ``--seed S``.
    The seed is said on stderr once a puzzle is made, or when the run is
    cut (a bad request says only why it is bad)."""
    face: Face = args.face(args, run)
    run.limit = want = flags.asked(args)
    seed = flags.pick_seed(args.seed)
    rng = random.Random(seed)
    said = False
    for k in range(want):
        try:
            record, text, note = face.generate(k, rng.randrange(2**63))
        except KeyboardInterrupt:
            if not said:
                flags.say_seed(seed, "makes these again")
            raise
        if not said:
            flags.say_seed(seed, "makes these again")
            said = True
        run.answer(record, text)
        print(f"covering: puzzle {k + 1}: {note}", file=sys.stderr, flush=True)
    run.done(limited=False)

