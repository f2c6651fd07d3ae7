"""``covering dlx``: solve a problem in Knuth's ``.dlx`` format.

Solutions are printed as their option lines, as written in the input, one a
line, with a blank line between solutions; ``--count`` prints only the count
(on the last line); ``--json`` prints one JSON object a line instead.
``--min-cost [--best K]`` prints the K cheapest solutions (DLX5's costs,
`covering.cli.cheapest`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import Interrupted, LimitReached, OptionSkippedWarning, ProblemError, RunIncomplete
from ..problem import Problem
from ..progress import Display
from . import budget, cheapest
from .common import interrupted as report_interrupted
from .common import (
    EXIT_OK,
    UsageError,
    add_method_flags,
    add_progress_flags,
    add_threads_flag,
    check_method_flags,
    non_negative,
    positive,
    positive_seconds,
    read_input,
    show_progress,
    threads_from,
    note_capped,
    note_fewer,
    warn,
)

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "dlx",
        help="solve a problem in Knuth's .dlx format",
        description="Solve an exact cover problem written in Knuth's DLX1/DLX2/DLX3 format.",
    )
    p.add_argument("file", nargs="?", default="-", help="the .dlx file ('-' or nothing: stdin)")
    p.add_argument("--count", action="store_true", help="print only the number of solutions")
    p.add_argument("--first", action="store_true", help="stop after the first solution (= --limit 1)")
    p.add_argument("--limit", type=non_negative, metavar="N", help="stop after N solutions")
    p.add_argument("--unique", action="store_true",
                   help="the first solution, then a line 'unique', 'multiple' or 'none' ('unknown' when "
                   "--conflicts ran out)")
    p.add_argument("--engine", choices=["auto", "bits", "cells", "sat"], default="auto",
                   help="auto (default: bitsets or dancing cells by the problem's size; for --first and "
                   "--unique, dancing links then the CDCL solver where the tree is heavy), bits, cells, or "
                   "sat (the CDCL solver: solutions in no order, counts only with --limit)")
    p.add_argument("--conflicts", type=non_negative, metavar="N",
                   help="the CDCL solver's budget, in conflicts (with --engine sat, or --unique)")
    p.add_argument("--random", type=non_negative, metavar="SEED",
                   help="try options in a random order, fixed by SEED")
    p.add_argument("--json", action="store_true",
                   help='one JSON object a line: {"solution": [...]} each, then the count and stats')
    p.add_argument("--min-cost", action="store_true",
                   help="the cheapest solution by the options' costs (DLX5's '|n' entries; a solution costs "
                   "the sum of its options), with a line 'cost N' after it")
    p.add_argument("--best", type=positive, metavar="K",
                   help="with --min-cost: the K cheapest solutions, cheapest first (default 1)")
    add_method_flags(p)
    p.add_argument("--memo", action="store_true", help="= --method memo")
    add_threads_flag(p)
    p.add_argument("--backend", choices=["threads", "processes", "dask", "ray"], default="threads",
                   help="where --count runs: the engine's threads (default), a local process pool, "
                   "a Dask cluster, or Ray")
    p.add_argument("--address", metavar="URL",
                   help="the Dask scheduler (tcp://host:8786) or Ray cluster; without it, a local one")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="record finished pieces of a --count in FILE, and resume from it")
    p.add_argument("--scheduler-timeout", type=positive_seconds, metavar="S",
                   help="with --backend dask: stop (exit 1) when the scheduler does not answer for S seconds "
                   "(default 60); the checkpoint keeps the pieces finished")
    add_progress_flags(p)
    p.set_defaults(run=run)


def load(path: str) -> Problem:
    """Reads a .dlx file; errors and warnings name the file and line."""
    text, name = read_input(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OptionSkippedWarning)
        try:
            problem = Problem.from_dlx(text)
        except ProblemError as e:
            lineno = getattr(e, "lineno", None)
            message = str(e)
            if lineno is not None:
                message = f"{name}:{lineno}: " + message.split(": ", 1)[1]
            else:
                message = f"{name}: {message}"
            raise type(e)(message) from None
    for w in caught:
        warn(f"{name}:{str(w.message).removeprefix('line ')}")
    return problem


def check_flags(args: argparse.Namespace) -> None:
    cheapest.check_flags(args)
    if args.min_cost:
        return
    if args.first and args.limit is not None:
        raise UsageError("--first and --limit cannot go together")
    if args.conflicts is not None and not (args.engine == "sat" or (args.engine == "auto" and args.unique)):
        raise UsageError(f"--conflicts and --engine {args.engine} cannot go together (conflicts are the CDCL "
                         "solver's budget: --engine sat, or --unique)")
    if args.engine != "auto" and (args.memo or args.method == "memo"):
        raise UsageError(f"--engine {args.engine} and {'--memo' if args.memo else '--method memo'} cannot go "
                         "together (the memo has its own engine)")
    if args.engine == "sat":
        for flag, value in (("--random", args.random is not None), ("--threads", args.threads is not None),
                            ("--backend", args.backend != "threads"), ("--checkpoint", args.checkpoint is not None),
                            ("--method", args.method not in (None, "auto", "search"))):
            if value:
                raise UsageError(f"--engine sat and {flag} cannot go together")
        if args.count and args.limit is None and not args.first:
            raise UsageError("--engine sat counts only up to --limit N (it blocks each solution it finds); "
                             "leave out --engine to count all")
    if args.unique:
        for flag, value in (("--count", args.count), ("--first", args.first), ("--limit", args.limit is not None),
                            ("--threads", args.threads is not None), ("--backend", args.backend != "threads"),
                            ("--checkpoint", args.checkpoint is not None)):
            if value:
                raise UsageError(f"--unique and {flag} cannot go together (--unique searches for two solutions)")
    distributed = args.backend != "threads" or args.checkpoint is not None
    if distributed and not args.count:
        raise UsageError("--backend and --checkpoint need --count")
    if args.address is not None and args.backend not in ("dask", "ray"):
        raise UsageError("--address needs --backend dask or ray")
    if args.scheduler_timeout is not None and args.backend != "dask":
        raise UsageError("--scheduler-timeout needs --backend dask")
    if args.scheduler_timeout is None:
        args.scheduler_timeout = 60.0
    if args.count and (args.limit is not None or args.first) and distributed:
        raise UsageError("--limit and --first cannot go together with --backend or --checkpoint")
    if args.memo:
        if args.method not in (None, "memo"):
            raise UsageError(f"--memo and --method {args.method} cannot go together")
        args.method = "memo"
    method_flag = "--memo" if args.memo else f"--method {args.method}"
    for flag, value in ((method_flag, args.method), ("--branching", args.branching),
                        ("--memo-bytes", args.memo_bytes)):
        if value is not None and not args.count:
            raise UsageError(f"{flag} needs --count")
    check_method_flags(args, not_with={
        "--backend": args.method == "memo" and args.backend != "threads",
        "--checkpoint": args.method == "memo" and args.checkpoint is not None,
        "--limit": args.method == "memo" and args.limit is not None,
        "--first": args.method == "memo" and args.first,
    })
    if args.method is None:
        args.method = "auto"
    if args.random is not None and args.threads is not None and args.threads > 1:
        raise UsageError("--random and --threads cannot go together (threads find solutions in no order)")


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


def count(args: argparse.Namespace, problem: Problem) -> tuple[int | None, int, bool, bool]:
    """(count, nodes, interrupted, complete) of the --count run: by the
    counting front door (`covering.counting`), or on --backend / with
    --checkpoint by `covering.cluster`."""
    from .. import counting

    if args.backend != "threads" or args.checkpoint is not None:
        return count_distributed(args, problem)
    threads = threads_from(args) if args.threads is not None else None
    with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
        try:
            counted = counting.count(problem, args.limit, method=args.method, branching=args.branching,
                                     engine=args.engine, memo_bytes=args.memo_bytes, threads=threads, progress=draw,
                                     item_order=args.item_order)
        except (Interrupted, LimitReached) as e:
            if isinstance(e, LimitReached):
                budget.limit_reached()
            nodes = e.stats[0] if isinstance(e.stats, tuple) else getattr(e.stats, "nodes", 0)
            if e.count is None:  # a frontier count knows no partial count
                args.where = e.where
                return None, int(e.stats[5]) if isinstance(e.stats, tuple) else 0, True, False
            return int(e.count), int(nodes or 0), True, False
        except ProblemError as e:
            raise UsageError(f"--method memo: {e}") from None
        except ValueError as e:  # flags the front door refuses together (--engine with --method memo)
            raise UsageError(str(e)) from None
    args.counted = counted
    return counted.count, counted.nodes, False, counted.reason != "limit" or counted.count < args.limit


def count_distributed(args: argparse.Namespace, problem: Problem) -> tuple[int, int, bool, bool]:
    """(count, nodes, interrupted, complete) of a count on --backend or with --checkpoint."""
    from ..cluster import distributed_count

    threads = threads_from(args)
    executor, workers, per_task, restart, close = executor_for(args, threads)
    tally: dict[str, int] = {}
    try:
        with Display(sys.stderr) if show_progress(args) else contextlib.nullcontext() as draw:
            n = distributed_count(problem, executor, workers=workers or None, threads_per_task=per_task,
                                  checkpoint=args.checkpoint, progress=draw, tally=tally, restart=restart,
                                  scheduler_timeout=args.scheduler_timeout)
    except KeyboardInterrupt:
        return tally.get("count", 0), tally.get("nodes", 0), True, False
    except RunIncomplete as e:
        where = f"; the pieces finished are in {args.checkpoint}" if args.checkpoint else ""
        raise RunIncomplete(f"{e} ({tally.get('count', 0)} solutions in the pieces finished{where})") from None
    finally:
        close()
    return n, tally.get("nodes", 0), False, True


def write_solution(args: argparse.Namespace, problem: Problem, ids: tuple[int, ...], shown: int) -> None:
    """One solution: its option lines (a blank line before all but the
    first), or a JSON line."""
    out = sys.stdout
    if args.json:
        out.write(json.dumps({"solution": list(ids)}) + "\n")
        return
    if shown:
        out.write("\n")
    out.write("".join(problem.label_text(o) + "\n" for o in ids))


def stream(args: argparse.Namespace, problem: Problem, limit: int | None) -> Iterator[tuple[int, ...]]:
    """The solutions to print: by --engine, on --threads, in --random order;
    --first with the default engine is the portfolio's first (dancing links
    within its node budget, else the CDCL solver)."""
    threads = args.threads or 1
    solutions: Iterator[tuple[int, ...]]
    if args.engine == "sat":
        solutions = problem.solutions(limit, ids=True, engine="sat", conflicts=args.conflicts)
    elif limit == 1 and args.engine == "auto" and threads == 1 and args.random is None:
        first = problem.first(ids=True, seconds=budget.left())
        solutions = iter([] if first is None else [first])
    elif threads > 1:
        solutions = problem.solutions(limit, ids=True, threads=threads, engine=args.engine)
    else:
        order = "random" if args.random is not None else "input"
        solutions = problem.solver(order=order, seed=args.random, engine=args.engine).solutions(limit, ids=True)
    return solutions


def unique(args: argparse.Namespace, problem: Problem) -> tuple[tuple[int, ...] | None, str, bool]:
    """(the first solution, "none" / "unique" / "multiple" / "unknown", interrupted)
    for --unique, by `Problem.solve_unique` (with the default engine, the
    portfolio: dancing links, then the CDCL solver)."""
    try:
        first, u = problem.solve_unique(ids=True, engine=args.engine, conflicts=args.conflicts,
                                        seconds=budget.left())
    except KeyboardInterrupt:
        return None, "unknown", True
    except LimitReached:
        budget.limit_reached()
        return None, "unknown", True
    left = budget.left()
    if u.value == "unknown" and left is not None and left < 0.05:
        # The portfolio kept to the time it was given: that is the budget spent.
        budget.limit_reached()
        return first, u.value, True
    return first, u.value, False


def run(args: argparse.Namespace) -> int:
    check_flags(args)
    limit = 1 if args.first else args.limit
    problem = load(args.file)
    if args.min_cost:
        return cheapest.run(args, problem)
    start = time.monotonic()
    interrupted = False
    complete = False
    found: int | None = 0
    nodes = 0
    out = sys.stdout
    if args.count:
        args.limit = limit
        found, nodes, interrupted, complete = count(args, problem)
    elif args.unique:
        first, word, interrupted = unique(args, problem)
        if first is not None:
            write_solution(args, problem, first, 0)
        found = {"none": 0, "unique": 1, "multiple": 2}.get(word, int(first is not None))
        complete = not interrupted and word != "unknown"
    else:
        shown = 0
        try:
            for ids in stream(args, problem, limit):
                with budget.held():
                    write_solution(args, problem, ids, shown)
                    shown += 1
            complete = True
        except KeyboardInterrupt:
            interrupted = True
        except LimitReached:  # a --nodes or --conflicts budget ran out
            budget.limit_reached()
            interrupted = True
        found = shown
        st = problem.stats
        nodes = st.nodes if st is not None else 0
    budget.disarm()  # the work is over: what it found is printed whole
    seconds = time.monotonic() - start
    if args.json:
        summary: dict[str, object] = {
            "count": found,
            "nodes": nodes,
            "seconds": round(seconds, 6),
            "interrupted": interrupted,
            "stopped": budget.stopped(interrupted),
            "complete": complete and not interrupted,
        }
        counted = getattr(args, "counted", None)
        if args.unique and not interrupted:
            summary["uniqueness"] = word
        summary["engine"] = args.engine
        if problem.skipped:
            summary["skipped"] = [{"engine": s["engine"], "estimate": s["estimate"]} for s in problem.skipped]
        if args.count:
            summary["method"] = counted.method if counted is not None else "search"
            if counted is not None:
                if counted.branching is not None:
                    summary["branching"] = counted.branching
                summary["item_order"] = counted.item_order
                summary["width"] = counted.width
                summary["reason"] = counted.reason
        out.write(json.dumps(summary) + "\n")
    elif args.count and found is not None:
        out.write(f"{found}\n")
    elif args.unique and not interrupted:
        out.write(word + "\n")
    out.flush()
    if not interrupted and found is not None and limit is not None and not args.unique:
        if args.count:
            note_capped(found, limit, "--first" if args.first else f"--limit {limit}")
        elif limit > 1:
            note_fewer(found, limit, f"--limit {limit}")
    if interrupted:
        return report_interrupted(found, "solutions" if args.count else "solutions printed", stdout=False,
                                  where=getattr(args, "where", None))
    return EXIT_OK
