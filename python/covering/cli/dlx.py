"""``covering dlx VERB [FILE]``: a problem in Knuth's ``.dlx`` format.

Verbs: ``solve`` (the first solution; ``--limit N``, ``--all``), ``count``,
``unique``, ``best`` (DLX5's costs), ``random``
(``--seed S``) and ``export``. A solution is printed as its option lines,
as written in the input, a blank line between solutions; with ``--json``
as ``{"solution": [option ids]}``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from ..limits import Budget
from ..errors import OptionSkippedWarning, ProblemError, RunIncomplete
from ..problem import Problem, Uniqueness
from ..progress import Display
from ..mincost import Best, MinCostRun, best
from . import flags
from .common import (SEARCH_ONLY, STDIN, UsageError, check_method_flags, log_warnings_as_lines, place, read_input,
                     show_progress, threads_from, warn)
from .contract import Run
from .dispatch import Face, count_by_front_door, run_best, run_count, run_export, run_solve, run_unique
from .table import Command, Verb
from .menu import PUZZLES

__all__ = ["COMMANDS"]

PAYLOAD = '{"solution": [option ids]}'


def _file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default=STDIN, help="the .dlx file ('-' or nothing: stdin)")
    parser.add_argument("--format", choices=["dlx", "orlib"], default="dlx",
                        help="how FILE is written: dlx (Knuth's format, the default) or orlib (OR-Library's set "
                        "partitioning files: 'rows columns', then each column's cost, count and rows)")


def _limit_all(parser: argparse.ArgumentParser) -> None:
    flags.add_limit(parser, "up to N solutions", every="every solution")


def _memo(parser: argparse.ArgumentParser) -> None:
    flags.add_method(parser)
    parser.add_argument("--memo", action="store_true", help="= --method memo")


COMMANDS = (Command(
    "dlx", PUZZLES["dlx"][1], "An exact cover problem written in Knuth's DLX1/DLX2/DLX3/DLX5 format.", _file,
    lambda args, run: DlxFace(args, run), (
        Verb("solve", "the first solution (--limit N: up to N; --all: every one)", run_solve, PAYLOAD,
             flags=(_limit_all, lambda v: _reduce(v), flags.add_engine, flags.add_search_branching,
                    lambda v: _conflicts(v), flags.add_threads)),
        Verb("count", "the number of solutions", run_count, counts=True,
             flags=(lambda v: flags.add_limit(v, "stop counting at N"), lambda v: _reduce(v), flags.add_engine,
                    lambda v: _conflicts(v), _memo, flags.add_threads, lambda v: _cluster(v))),
        Verb("unique", "the first solution, then a line 'unique', 'multiple' or 'none' ('unknown' when "
             "--conflicts ran out)", run_unique, PAYLOAD,
             flags=(lambda v: _reduce(v), flags.add_engine, flags.add_search_branching, lambda v: _conflicts(v))),
        Verb("best", "the K cheapest solutions by the options' costs (DLX5's '|n' entries), each followed by a "
             "line 'cost N'", run_best, '{"solution": [option ids], "cost": N}',
             flags=(lambda v: flags.add_limit(v, "the K cheapest (default 1)"),)),
        Verb("random", "solutions in a random order fixed by --seed (one unless --limit N or --all)", run_solve,
             PAYLOAD, flags=(flags.add_seed, _limit_all, lambda v: _reduce(v),
                             lambda v: flags.add_engine(v, sat=False), flags.add_search_branching)),
        Verb("export", "the problem again, in Knuth's format as read", run_export, '{"dlx": text}',
             noun="problems", searches=False),
    )),)


def load(path: str, form: str = "dlx") -> Problem:
    """Reads a .dlx file (or, `form` "orlib", an OR-Library set
    partitioning file); errors and warnings name the file and line."""
    text, name = read_input(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OptionSkippedWarning)
        try:
            problem = Problem.from_orlib(text) if form == "orlib" else Problem.from_dlx(text)
        except ProblemError as e:
            hint = " (its first line is two numbers, as in OR-Library's files: --format orlib reads those)" \
                if form == "dlx" and _orlib_like(text) else ""
            raise type(e)(place(name, str(e)) + hint) from None
    for w in caught:
        warn(place(name, str(w.message)))
    return problem


def _orlib_like(text: str) -> bool:
    """Whether the first line that holds anything is two whole numbers, as
    OR-Library's set partitioning files begin.

    >>> _orlib_like("3 3\\n4 2 1 2\\n"), _orlib_like("A B\\nA\\n")
    (True, False)
    """
    for line in text.splitlines():
        words = line.split()
        if words:
            return len(words) == 2 and all(w.isdigit() for w in words)
    return False


def _reduce(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reduce", action="store_true",
                        help="first take out the options and items that cannot matter, as Knuth's DLX-PRE does "
                        "(the same solutions, printed as the options read; --json says what went)")


def _conflicts(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--conflicts", type=flags.limit, metavar="N",
                        help="the CDCL solver's budget, in conflicts (--engine sat, or the portfolio's second stage)")


def _cluster(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=["threads", "processes", "dask", "ray"], default="threads",
                        help="where the count runs: the engine's threads (default), a local process pool, "
                        "a Dask cluster, or Ray")
    parser.add_argument("--address", metavar="URL",
                        help="the Dask scheduler (tcp://host:8786) or Ray cluster; without it, a local one")
    parser.add_argument("--checkpoint", metavar="FILE", help="record finished pieces of the count in FILE, and "
                        "resume from it")
    parser.add_argument("--scheduler-timeout", type=flags.positive_seconds, metavar="S",
                        help="with --backend dask: give up after S seconds without the scheduler (default 60)")


def _engine_flags(args: argparse.Namespace, portfolio: bool, run: Run | None = None) -> None:
    """--conflicts is the CDCL solver's budget: with --engine sat, or with
    the portfolio (a first solution, uniqueness); --branching wtd, frb or
    binary is a search on dancing cells (and said in the summary)."""
    conflicts = getattr(args, "conflicts", None)
    if conflicts is not None and not (args.engine == "sat" or (args.engine == "auto" and portfolio)):
        raise UsageError(f"--conflicts and --engine {args.engine} cannot go together (conflicts are the CDCL "
                         "solver's budget: --engine sat, or the portfolio of a first solution)")
    if args.engine == "sat" and getattr(args, "threads", None) is not None:
        raise UsageError("--engine sat and --threads cannot go together")
    branching = getattr(args, "branching", "mrv")
    if branching in SEARCH_ONLY:
        if run is not None:
            run.extra["branching"] = branching
        if args.engine in ("bits", "sat"):
            raise UsageError(f"--branching {branching} and --engine {args.engine} cannot go together "
                             f"({branching} runs on dancing cells)")
        if conflicts is not None:
            raise UsageError(f"--branching {branching} and --conflicts cannot go together (--branching other than "
                             "mrv is a search by that rule alone, without the CDCL solver)")


def _stream(args: argparse.Namespace, problem: Problem, limit: int | None,
            b: Budget | None) -> Iterator[tuple[int, ...]]:
    """The solutions to print: by --engine, on --threads, within the run's
    budget `b`; a first solution with the default engine is the
    portfolio's (dancing links within its node budget, else the CDCL
    solver)."""
    threads = getattr(args, "threads", None) or 1
    found: Iterator[tuple[int, ...]]
    if args.engine == "sat":
        found = problem.solutions(limit, ids=True, engine="sat", conflicts=args.conflicts, budget=b)
    elif limit == 1 and args.engine == "auto" and args.branching == "mrv" and threads == 1:
        first = problem.first(ids=True, budget=b)
        found = iter([] if first is None else [first])
    elif threads > 1:
        found = problem.solutions(limit, ids=True, threads=threads, engine=args.engine, branching=args.branching,
                                  budget=b)
    else:
        found = problem.solver(engine=args.engine, branching=args.branching,
                               memory=None if b is None else b.memory).solutions(limit, ids=True, budget=b)
    return found


def _check_count(args: argparse.Namespace) -> None:
    if args.engine == "sat":
        for flag, value in (("--threads", args.threads is not None), ("--backend", args.backend != "threads"),
                            ("--checkpoint", args.checkpoint is not None),
                            ("--method", args.method not in (None, "auto", "search") or args.memo)):
            if value:
                raise UsageError(f"--engine sat and {flag} cannot go together")
        if args.limit is None:
            raise UsageError("--engine sat counts only up to --limit N (it blocks each solution it finds); "
                             "leave out --engine to count all")
    _engine_flags(args, portfolio=False)
    if args.engine != "auto" and (args.memo or args.method == "memo"):
        raise UsageError(f"--engine {args.engine} and {'--memo' if args.memo else '--method memo'} cannot go "
                         "together (the memo has its own engine)")
    distributed = args.backend != "threads" or args.checkpoint is not None
    if args.address is not None and args.backend not in ("dask", "ray"):
        raise UsageError("--address needs --backend dask or ray")
    if args.scheduler_timeout is not None and args.backend != "dask":
        raise UsageError("--scheduler-timeout needs --backend dask")
    if args.scheduler_timeout is None:
        args.scheduler_timeout = 60.0
    if args.limit is not None and distributed:
        raise UsageError("--limit cannot go together with --backend or --checkpoint")
    if args.memo:
        if args.method not in (None, "memo"):
            raise UsageError(f"--memo and --method {args.method} cannot go together")
        args.method = "memo"
    learning = args.branching in SEARCH_ONLY
    check_method_flags(args, not_with={
        "--backend": (args.method == "memo" or learning) and args.backend != "threads",
        "--checkpoint": (args.method == "memo" or learning) and args.checkpoint is not None,
        "--limit": args.method == "memo" and args.limit is not None,
    })


def executor_for(args: argparse.Namespace, threads: int) -> tuple[Any, int, int | None, Any, Callable[[], None]]:
    """(executor or Dask client, workers, threads per task, how to restart
    a broken pool, how to close) for --backend."""
    from ..cluster import InlineExecutor, RayExecutor

    log_warnings_as_lines()
    if args.backend == "threads":
        return InlineExecutor(), 1, threads, None, lambda: None
    if args.backend == "processes":
        from concurrent.futures import ProcessPoolExecutor
        from multiprocessing import get_context

        from ..cluster import quiet_child

        pools: list[ProcessPoolExecutor] = []

        def new_pool() -> ProcessPoolExecutor:
            pools.append(ProcessPoolExecutor(max_workers=threads, mp_context=get_context("spawn"),
                                             initializer=quiet_child))
            return pools[-1]

        def close_pools() -> None:
            for pool in pools:
                pool.shutdown(wait=True, cancel_futures=True)

        return new_pool(), threads, 1, new_pool, close_pools
    if args.backend == "dask":
        try:
            from .. import dask_support
        except ImportError:
            raise UsageError("--backend dask needs Dask: pip install 'dask[distributed]'") from None
        if args.address:
            try:
                client, close = dask_support.connect(args.address, args.scheduler_timeout)
            except (OSError, TimeoutError) as e:
                raise RunIncomplete(f"cannot reach the Dask scheduler at {args.address}: {e}") from None
        else:
            client, close = dask_support.local_cluster(threads)
        return client, 0, 1, None, close
    try:
        import ray
    except ImportError:
        raise UsageError("--backend ray needs Ray: pip install ray") from None
    ray.init(address=args.address, ignore_reinit_error=True, log_to_driver=False)
    workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
    return RayExecutor(), workers, 1, None, ray.shutdown


def _count_distributed(args: argparse.Namespace, run: Run, problem: Problem) -> int:
    """A count on --backend or with --checkpoint."""
    from ..cluster import distributed_count

    threads = threads_from(args)
    executor, workers, per_task, restart, close = executor_for(args, threads)
    tally: dict[str, int] = {}
    try:
        with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
            n = distributed_count(problem, executor, workers=workers or None, threads_per_task=per_task,
                                  checkpoint=args.checkpoint, progress=draw, tally=tally, restart=restart,
                                  scheduler_timeout=args.scheduler_timeout, budget=run.budget)
    except KeyboardInterrupt:
        run.counted(tally.get("count", 0))
        run.extra["nodes"] = tally.get("nodes", 0)
        raise
    except RunIncomplete as e:
        where = f"; the pieces finished are in {args.checkpoint}" if args.checkpoint else ""
        raise RunIncomplete(f"{e} ({tally.get('count', 0)} solutions in the pieces finished{where})") from None
    finally:
        close()
    run.extra["nodes"] = tally.get("nodes", 0)
    return n


class DlxFace(Face):
    """A .dlx file: one problem (with ``--reduce``, searched reduced and
    its solutions printed as the options read); a solution printed as its
    option lines, as written in the input."""

    def __init__(self, args: argparse.Namespace, run: Run) -> None:
        super().__init__(args, run)
        verb = args.verb
        if verb == "count":
            _check_count(args)
        elif verb in ("solve", "unique"):
            _engine_flags(args, run=run, portfolio=True)
        self.read = load(args.file, getattr(args, "format", "dlx"))
        self.searched = self.read
        self.back: Callable[[tuple[int, ...]], tuple[int, ...]] = tuple
        if getattr(args, "reduce", False):
            r = self.read.reduce()
            run.extra["reduced"] = r.summary()
            self.searched, self.back = r.problem, r.original
        if verb == "random":
            self.seed = flags.seed_for(args, "gives these again")
            _engine_flags(args, run=run, portfolio=False)

    def entries(self) -> Iterator[tuple[int, Problem]]:
        yield 0, self.searched

    def problem(self) -> Problem:
        return self.read

    def show(self, k: int, puzzle: Any, ids: tuple[int, ...], j: int,
             cost: int | None = None) -> tuple[dict[str, Any], str]:
        """Its option lines (a blank line before all but the first; ``cost
        N`` after it for `best`), or a JSON line."""
        record: dict[str, Any] = {"solution": list(ids)}
        text = "".join(self.read.label_text(o) + "\n" for o in ids)
        if cost is not None:
            record["cost"] = cost
            text += f"cost {cost}\n"
        return record, ("\n" if j else "") + text

    def priced(self, solution: Any) -> Any:
        return solution.ids

    def solutions(self, problem: Problem, want: int | None) -> Iterator[tuple[int, ...]]:
        args, budget = self.args, self.run.budget
        if args.verb == "random":
            found = problem.solver(order="random", seed=self.seed, engine=args.engine, branching=args.branching,
                                   memory=self.run.memory).solutions(want, ids=True, budget=budget)
        else:
            found = _stream(args, problem, want, budget)
        return (self.back(ids) for ids in found)

    def report(self) -> None:
        st = self.searched.stats
        if self.args.verb != "unique":
            self.run.extra.update(engine=self.args.engine, nodes=st.nodes if st is not None else 0)
        if self.searched.skipped:
            self.run.extra["skipped"] = [{"engine": s["engine"], "estimate": s["estimate"]}
                                         for s in self.searched.skipped]

    def unique(self, problem: Problem) -> tuple[tuple[int, ...] | None, Uniqueness]:
        """By `Problem.solve_unique` (with the default engine, the
        portfolio: dancing links, then the CDCL solver)."""
        args, run = self.args, self.run
        run.extra["engine"] = args.engine
        first, u = problem.solve_unique(ids=True, engine=args.engine, conflicts=args.conflicts,
                                        budget=run.budget, branching=args.branching)
        b = run.budget
        if u is Uniqueness.UNKNOWN and b is not None:
            left = b.left()
            if left is not None and left < 0.05:
                # The portfolio kept to the time it was given: that is the budget spent.
                run.limit_reached()
            elif args.conflicts is None and b.nodes is not None:
                # Without --conflicts, only --nodes leaves the portfolio undecided
                # with time left: that budget is spent ("unknown" stays the answer
                # for --conflicts, as the verb's help says).
                run.limit_reached()
        return (None if first is None else self.back(first)), u

    def count(self, problem: Problem, limit: int | None) -> Any:
        """By the counting front door (`covering.counting`), or on
        --backend / with --checkpoint by `covering.cluster`."""
        args, run = self.args, self.run
        run.extra["engine"] = args.engine
        if args.backend != "threads" or args.checkpoint is not None:
            run.extra["method"] = "search"
            return _count_distributed(args, run, problem)
        return count_by_front_door(args, run, problem, limit)

    def best(self, problem: Problem, k: int) -> Best:
        return best(problem, k, budget=self.run.budget, on_improve=_improved if show_progress(self.args) else None)


def _improved(run: MinCostRun) -> None:
    """--progress: each time the search keeps a cheaper solution."""
    stats = run.stats
    cutoff = run.cutoff
    line = f"covering: min-cost: best {stats.optimum}"
    if cutoff is not None and run.k > 1:
        line += f", {run.k}th best {cutoff}"
    print(line + f" ({stats.improvements} kept, {stats.nodes:,} nodes)", file=sys.stderr, flush=True)
