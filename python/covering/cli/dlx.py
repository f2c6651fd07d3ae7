"""``covering dlx VERB [FILE]``: a problem in Knuth's ``.dlx`` format.

Verbs: ``solve`` (the first solution; ``--limit N``, ``--all``), ``count``,
``unique``, ``best`` (DLX5's costs, `covering.cli.cheapest`), ``random``
(``--seed S``) and ``export``. A solution is printed as its option lines,
as written in the input, a blank line between solutions; with ``--json``
as ``{"solution": [option ids]}``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from ..limits import Budget
from ..errors import Interrupted, LimitReached, ProblemError, RunIncomplete
from ..problem import Problem
from ..progress import Display
from . import budget, cheapest, flags
from .common import SEARCH_ONLY, UsageError, check_method_flags, report_count, show_progress, threads_from, write_dlx
from .dlxtext import load, write_solution
from .contract import Run
from .menu import PUZZLES

__all__ = ["add_parser"]

PAYLOAD = '{"solution": [option ids]}'


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("dlx", help=PUZZLES["dlx"][1],
                       description="An exact cover problem written in Knuth's DLX1/DLX2/DLX3/DLX5 format.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=type(p))
    verbs.required = True
    s = _verb(verbs, "solve", "the first solution (--limit N: up to N; --all: every one)", run_solve)
    flags.add_limit(s, "up to N solutions", every="every solution")
    _reduce(s)
    flags.add_engine(s)
    flags.add_search_branching(s)
    _conflicts(s)
    flags.add_threads(s)
    c = _verb(verbs, "count", "the number of solutions", run_count, counts=True)
    flags.add_limit(c, "stop counting at N")
    _reduce(c)
    flags.add_engine(c)
    _conflicts(c)
    flags.add_method(c)
    c.add_argument("--memo", action="store_true", help="= --method memo")
    flags.add_threads(c)
    _cluster(c)
    u = _verb(verbs, "unique", "the first solution, then a line 'unique', 'multiple' or 'none' ('unknown' when "
              "--conflicts ran out)", run_unique)
    _reduce(u)
    flags.add_engine(u)
    flags.add_search_branching(u)
    _conflicts(u)
    b = _verb(verbs, "best", "the K cheapest solutions by the options' costs (DLX5's '|n' entries), each "
              "followed by a line 'cost N'", cheapest.run_best, payload='{"solution": [option ids], "cost": N}')
    flags.add_limit(b, "the K cheapest (default 1)")
    r = _verb(verbs, "random", "solutions in a random order fixed by --seed (one unless --limit N or --all)",
              run_random)
    flags.add_seed(r)
    flags.add_limit(r, "up to N solutions", every="every solution")
    _reduce(r)
    flags.add_engine(r, sat=False)
    flags.add_search_branching(r)
    e = _verb(verbs, "export", "the problem again, in Knuth's format as read", run_export, payload='{"dlx": text}',
              budgets=False)
    del e


def _verb(verbs: argparse._SubParsersAction, name: str, helptext: str,  # type: ignore[type-arg]
          runner: Callable[[argparse.Namespace, Run], Any], *, counts: bool = False, payload: str = PAYLOAD,
          budgets: bool = True) -> argparse.ArgumentParser:
    v: argparse.ArgumentParser = verbs.add_parser(name, help=helptext, description=f"covering dlx {name}: {helptext}.")
    v.add_argument("file", nargs="?", default="-", help="the .dlx file ('-' or nothing: stdin)")
    flags.add_output(v, payload if name != "count" else flags.SUMMARY_ONLY)
    flags.add_budgets(v, searches=budgets)
    v.set_defaults(run=runner, counts=counts)
    return v


def _reduce(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reduce", action="store_true",
                        help="first take out the options and items that cannot matter, as Knuth's DLX-PRE does "
                        "(the same solutions, printed as the options read; --json says what went)")


def _load(args: argparse.Namespace, run: Run) -> tuple[Problem, Problem, Callable[[tuple[int, ...]], tuple[int, ...]]]:
    """(the problem read, the problem to search, the map from the option
    ids of the second to those of the first): with --reduce, the reduced
    problem (`Problem.reduce`), what it took out in the summary."""
    problem = load(args.file)
    if not getattr(args, "reduce", False):
        return problem, problem, tuple
    r = problem.reduce()
    run.extra["reduced"] = r.summary()
    return problem, r.problem, r.original


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
        found = problem.solver(engine=args.engine, branching=args.branching).solutions(limit, ids=True, budget=b)
    return found


def _listing(args: argparse.Namespace, run: Run, problem: Problem, solutions: Iterator[tuple[int, ...]],
             shown: Problem | None = None) -> None:
    """Writes `solutions` (of `problem`; as options of `shown`, the problem
    read, when they are mapped to it)."""
    try:
        for ids in solutions:
            write_solution(run, shown or problem, ids)
    except LimitReached as e:  # a --nodes, --seconds or --conflicts budget ran out
        run.limit_reached(e)
        raise
    finally:
        st = problem.stats
        run.extra.update(engine=args.engine, nodes=st.nodes if st is not None else 0)
        if problem.skipped:
            run.extra["skipped"] = [{"engine": s["engine"], "estimate": s["estimate"]} for s in problem.skipped]
    if not run.count:
        run.no_solution()
    run.done()


def run_solve(args: argparse.Namespace, run: Run) -> None:
    _engine_flags(args, run=run, portfolio=True)
    run.limit = limit = flags.wanted(args)
    read, problem, back = _load(args, run)
    _listing(args, run, problem, (back(ids) for ids in _stream(args, problem, limit, run.budget)), read)


def run_random(args: argparse.Namespace, run: Run) -> None:
    run.limit = limit = flags.wanted(args)
    read, problem, back = _load(args, run)
    seed = flags.seed_for(args, "gives these again")
    _engine_flags(args, run=run, portfolio=False)
    solver = problem.solver(order="random", seed=seed, engine=args.engine, branching=args.branching)
    found = solver.solutions(limit, ids=True, budget=run.budget)
    _listing(args, run, problem, (back(ids) for ids in found), read)


def run_unique(args: argparse.Namespace, run: Run) -> None:
    """The first solution, then "none", "unique", "multiple" or "unknown",
    by `Problem.solve_unique` (with the default engine, the portfolio:
    dancing links, then the CDCL solver)."""
    _engine_flags(args, run=run, portfolio=True)
    read, problem, back = _load(args, run)
    run.extra["engine"] = args.engine
    try:
        first, u = problem.solve_unique(ids=True, engine=args.engine, conflicts=args.conflicts,
                                        budget=run.budget, branching=args.branching)
    except LimitReached as e:
        run.limit_reached(e)
        raise
    if problem.skipped:
        run.extra["skipped"] = [{"engine": s["engine"], "estimate": s["estimate"]} for s in problem.skipped]
    word = u.value
    left = None if run.budget is None else run.budget.left()
    run_budget = run.budget
    if word == "unknown" and left is not None and left < 0.05:
        # The portfolio kept to the time it was given: that is the budget spent.
        run.limit_reached()
    elif word == "unknown" and args.conflicts is None and run_budget is not None and run_budget.nodes is not None:
        # Without --conflicts, only --nodes leaves the portfolio undecided
        # with time left: that budget is spent ("unknown" stays the answer
        # for --conflicts, as the verb's help says).
        run.limit_reached()
    if first is not None:
        write_solution(run, read, back(first))
    if word == "unknown" and run.spent() is not None:
        raise KeyboardInterrupt  # reported as the budget spent, with the solution printed
    run.uniqueness(word)
    run.done(limited=False)


def run_export(args: argparse.Namespace, run: Run) -> None:
    write_dlx(load(args.file), run)


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
    if args.method is None:
        args.method = "auto"


def executor_for(args: argparse.Namespace, threads: int) -> tuple[Any, int, int | None, Any, Callable[[], None]]:
    """(executor or Dask client, workers, threads per task, how to restart
    a broken pool, how to close) for --backend."""
    from ..cluster import InlineExecutor, RayExecutor

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


def run_count(args: argparse.Namespace, run: Run) -> None:
    """The count: by the counting front door (`covering.counting`), or on
    --backend / with --checkpoint by `covering.cluster`."""
    from .. import counting

    _check_count(args)
    run.limit = args.limit
    _, problem, _ = _load(args, run)
    run.extra["engine"] = args.engine
    if args.method != "auto":
        run.extra["method"] = args.method
    if args.backend != "threads" or args.checkpoint is not None:
        run.extra["method"] = "search"
        return _count_distributed(args, run, problem)
    threads = threads_from(args) if args.threads is not None else None
    with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
        try:
            counted = counting.count(problem, args.limit, method=args.method, branching=args.branching,
                                     engine=args.engine, memo_bytes=args.memo_bytes, threads=threads, progress=draw,
                                     item_order=args.item_order, budget=run.budget)
        except (Interrupted, LimitReached) as e:
            nodes = getattr(e.stats, "nodes", 0)
            run.extra["nodes"] = int(nodes or 0) if e.count is not None else 0
            raise
        except ProblemError as e:
            raise UsageError(f"--method {args.method}: {e}") from None
        except ValueError as e:  # flags the front door refuses together (--engine with --method memo)
            raise UsageError(str(e)) from None
    report_count(run, counted, args.limit)


def _count_distributed(args: argparse.Namespace, run: Run, problem: Problem) -> None:
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
    run.counted(n)
    run.extra["nodes"] = tally.get("nodes", 0)
    run.done(limited=False)
