"""Counting with tasks: a process pool, Ray, or a Dask cluster.

The search tree is cut into *pieces* (see `covering.parallel`); each task
counts one piece within a node budget and returns its count and the pieces
it did not reach, which become tasks in turn. The counts of the pieces add
up to the count of the problem, whoever counts each, so the answer is exact
whatever the number of workers and whatever fails, as long as every piece is
counted once: a piece is counted when its first result comes back, and a
result that comes later (a duplicate, a retry) is dropped.

`distributed_count` is the driver. It takes any `concurrent.futures.Executor`
(a process pool, `InlineExecutor`, `RayExecutor`), or a Dask `Client`, for
which it leans on Dask's own machinery: the compiled problem is scattered
to the workers once, pieces are submitted with unique keys and Dask's
`retries=`, results are taken with `as_completed`, and Dask's scheduler
places and rebalances the tasks. What Dask does not give is here: the
splitting of the tree, the exact sum, a node budget per task adapted so
that a task takes about `task_seconds`, duplicates of stragglers, a bounded
wait for a lost scheduler (`SchedulerLost`), and the checkpoint
(`covering.checkpoint`).

>>> from concurrent.futures import ThreadPoolExecutor
>>> from covering.puzzles.polyomino import l_tromino
>>> with ThreadPoolExecutor(2) as ex:
...     distributed_count(l_tromino(7, 0), ex, workers=2, task_nodes=200)
1440
"""

from __future__ import annotations

import contextlib
import logging
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, CancelledError, Executor, Future, wait
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from . import _core, limits
from .checkpoint import Checkpoint, CheckpointError, piece_key
from .errors import LimitReached, RunIncomplete
from .model import ProblemData
from .parallel import default_threads, fingerprint
from .pieces import Piece, PieceResult, quiet_child, run_piece
from .progress import Status

__all__ = [
    "distributed_count",
    "run_piece",
    "PieceResult",
    "InlineExecutor",
    "RayExecutor",
    "quiet_child",
    "CheckpointError",
]

log = logging.getLogger(__name__)


class InlineExecutor(Executor):
    """An executor that runs each task at once, in the caller's thread (for a
    checkpointed count without any pool: each task still uses every core)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - handed to the driver, which retries
            f.set_exception(e)
        return f


class RayExecutor(Executor):
    """Ray behind the `concurrent.futures.Executor` protocol: each task runs as
    a Ray remote function (``pip install ray``; ``ray.init()`` first)."""

    def __init__(self, **remote_options: Any) -> None:
        import ray  # an optional extra

        self._ray = ray
        self._options = remote_options

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        remote = self._ray.remote(**self._options)(fn) if self._options else self._ray.remote(fn)
        f: Future[Any] = remote.remote(*args, **kwargs).future()
        return f


# -- where the tasks run --------------------------------------------------------


class _Backend(Protocol):
    def threads(self) -> int:
        """Worker threads (what the first cut of the tree is sized for)."""
        ...

    def capacity(self) -> int:
        """Tasks to keep in flight (about two per worker thread)."""
        ...

    def submit(self, piece: Piece, budget: int | None, avoid: Any = None) -> Any:
        """Starts a task; `avoid` is a task whose worker should not get it."""
        ...

    def wait(self, timeout: float) -> list[Any]:
        """Tasks finished within `timeout` seconds (possibly none)."""
        ...

    def result(self, task: Any) -> PieceResult:
        ...

    def cancel(self, tasks: Sequence[Any]) -> None:
        ...

    def check(self) -> None:
        """Raises `RunIncomplete` when the tasks can no longer complete."""
        ...

    def close(self) -> None:
        """Releases what the run put on the workers."""
        ...


class _ExecutorBackend:
    """Any `concurrent.futures.Executor`; `restart` makes a new one when a
    process pool breaks (a child killed), so the count goes on."""

    def __init__(self, executor: Executor, compiled: _core.CompiledProblem, workers: int,
                 threads_per_task: int | None, restart: Callable[[], Executor] | None = None) -> None:
        self.executor = executor
        self.compiled = compiled
        self.workers = workers
        self.per_task = threads_per_task
        self.restart = restart
        self.restarts = 0
        self.pending: set[Future[PieceResult]] = set()

    def threads(self) -> int:
        return self.workers

    def capacity(self) -> int:
        return 2 * self.workers

    def submit(self, piece: Piece, budget: int | None, avoid: Any = None) -> Future[PieceResult]:
        try:
            f = self.executor.submit(run_piece, self.compiled, piece, budget, self.per_task)
        except BrokenExecutor:
            if self.restart is None or self.restarts >= 10:
                raise RunIncomplete("the process pool broke (a worker process died)") from None
            self.restarts += 1
            log.warning("the process pool broke; starting a new one")
            self.executor = self.restart()
            f = self.executor.submit(run_piece, self.compiled, piece, budget, self.per_task)
        self.pending.add(f)
        return f

    def wait(self, timeout: float) -> list[Future[PieceResult]]:
        done, self.pending = wait(self.pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, task: Future[PieceResult]) -> PieceResult:
        return task.result()

    def cancel(self, tasks: Sequence[Future[PieceResult]]) -> None:
        for f in tasks:
            f.cancel()
            self.pending.discard(f)

    def check(self) -> None:
        pass

    def close(self) -> None:
        pass


# -- the driver -----------------------------------------------------------------


@dataclass
class _Task:
    id: int
    piece: Piece
    weight: float
    started: float


@dataclass
class _Driver:
    """The state of a count: pieces waiting, tasks running, what is done."""

    #: Copies of one piece running at most (the first and its duplicates).
    COPIES = 3

    backend: _Backend
    budget: int | None
    adaptive: bool
    task_seconds: float
    retries: int
    straggler_factor: float
    straggler_seconds: float
    book: Checkpoint | None
    count: int = 0
    nodes: int = 0
    done: int = 0
    fraction: float = 0.0
    queue: list[tuple[Piece, float]] = field(default_factory=list)
    running: dict[Any, _Task] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)
    failures: dict[str, int] = field(default_factory=dict)
    durations: list[float] = field(default_factory=list)
    next_id: int = 0

    def submit(self, piece: Piece, weight: float) -> None:
        self.next_id += 1
        t = _Task(self.next_id, piece, weight, time.monotonic())
        self.running[self.backend.submit(piece, self.budget)] = t

    def top_up(self) -> None:
        while self.queue and self.live() < self.backend.capacity():
            self.submit(*self.queue.pop())

    def live(self) -> int:
        """Pieces running (a piece and its duplicate count once)."""
        return len({t.id for t in self.running.values()})

    def finish(self, handle: Any) -> None:
        t = self.running.pop(handle)
        if t.id in self.finished:
            return  # a duplicate's late result: already counted
        try:
            r: PieceResult = self.backend.result(handle)
        except KeyboardInterrupt:
            raise
        except Exception as e:  # noqa: BLE001 - a task that raised, or a worker lost for good
            if any(o.id == t.id for o in self.running.values()):
                return  # its duplicate is still running
            self.backend.check()  # a lost scheduler is not the piece's fault
            key = piece_key(t.piece)
            cancelled = isinstance(e, CancelledError) or type(e).__name__ == "CancelledError"
            self.failures[key] = self.failures.get(key, 0) + (0 if cancelled else 1)
            if self.failures[key] > self.retries:
                raise RunIncomplete(f"a piece failed {self.failures[key]} times: {e!r}") from e
            self.queue.append((t.piece, t.weight))
            return
        self.finished.add(t.id)
        twins = [h for h, o in self.running.items() if o.id == t.id]
        for h in twins:
            del self.running[h]
        self.backend.cancel(twins)
        self.count += r.solutions
        self.nodes += r.nodes
        self.done += 1
        left = [t.weight * s for s in r.shares]
        self.fraction = min(1.0, self.fraction + max(0.0, t.weight - sum(left)))
        self.queue.extend(zip(r.leftover, left))
        self.durations.append(time.monotonic() - t.started)
        if self.book is not None:
            self.book.record(t.piece, r.solutions, r.nodes, r.leftover, list(r.shares))
        if self.adaptive and r.leftover and r.seconds > 0:
            # Node budgets that make a task last about task_seconds.
            rate = r.nodes / r.seconds
            assert self.budget is not None
            self.budget = int(min(max(rate * self.task_seconds, 10_000), 1 << 40, 4 * self.budget))

    def duplicate_stragglers(self) -> None:
        """A task running far longer than its finished siblings (a frozen
        worker, a slow machine) gets a duplicate, and so does a duplicate
        that is late in turn, up to `COPIES` in all; the first result wins."""
        median = statistics.median(self.durations[-200:]) if self.durations else 0.0
        late = self.straggler_seconds + self.straggler_factor * median
        now = time.monotonic()
        copies = Counter(t.id for t in self.running.values())
        newest: dict[int, float] = {}
        for t in self.running.values():
            newest[t.id] = max(newest.get(t.id, 0.0), t.started)
        for handle, t in list(self.running.items()):
            if t.started == newest[t.id] and copies[t.id] < self.COPIES and now - t.started > late:
                self.running[self.backend.submit(t.piece, self.budget, avoid=handle)] = _Task(
                    t.id, t.piece, t.weight, now)
                copies[t.id] += 1
                newest[t.id] = now
                log.info("piece %s is late (%.0f s); a duplicate was started", t.id, now - t.started)

    def pieces_known(self) -> int:
        return self.done + len(self.queue) + self.live()


def distributed_count(
    problem: ProblemData,
    executor: Any,
    *,
    workers: int | None = None,
    pieces_per_worker: int = 50,
    task_nodes: int | None = None,
    task_seconds: float = 2.0,
    threads_per_task: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    seed: int = 0,
    retries: int = 3,
    scheduler_timeout: float = 60.0,
    straggler_factor: float = 4.0,
    straggler_seconds: float = 10.0,
    progress: Callable[[Status], None] | None = None,
    interval: float = 0.5,
    tally: dict[str, int] | None = None,
    restart: Callable[[], Executor] | None = None,
    seconds: float | None = None,
    nodes: int | None = None,
    budget: limits.Budget | None = None,
) -> int:
    """Counts the solutions of `problem` with tasks on `executor` (any
    `concurrent.futures.Executor`, or a Dask `Client`).

    The tree is cut into about `pieces_per_worker` pieces per worker by
    Knuth's estimates, seeded by `seed` (the same cut every time). Each task
    counts a piece within a node budget: `task_nodes`, or by default one
    adapted so that a task takes about `task_seconds`; what it did not reach
    is submitted in turn. A task that fails is submitted again, up to
    `retries` times (on Dask, through its own `retries=`); a task running
    more than `straggler_seconds` + `straggler_factor` times the median of
    its finished siblings gets a duplicate, and the first result wins. With
    a `checkpoint` file, finished pieces are recorded as they come and a
    count started again with the same file goes on from there. `progress`
    gets a `Status` at least every `interval` seconds. On Dask, a scheduler
    that does not answer for `scheduler_timeout` seconds stops the count
    with `SchedulerLost` (the checkpoint keeps what was finished). `restart`
    makes a new executor when a process pool breaks. `seconds`, `nodes`
    (all tasks together) and the run's `budget` stop the count between two
    looks at the tasks: `LimitReached`, with the count of the pieces
    finished (the checkpoint keeps them).
    """
    run = limits.begin(budget, nodes, seconds)
    compiled = problem.compile()
    fp = fingerprint(compiled)
    start = time.monotonic()
    backend: _Backend
    if hasattr(executor, "scatter") and hasattr(executor, "nthreads"):  # a Dask client
        from .dask_support import DaskBackend

        backend = DaskBackend(executor, compiled, fp, retries, scheduler_timeout)
        if workers is None:
            workers = backend.threads()
    else:
        workers = workers or 1
        backend = _ExecutorBackend(executor, compiled, workers, threads_per_task, restart)
    tally = {} if tally is None else tally
    book = Checkpoint(checkpoint, fp, seed) if checkpoint is not None else None
    with book if book is not None else contextlib.nullcontext():
        resumed = book.load() if book is not None else None
        adaptive = task_nodes is None
        driver = _Driver(backend, 1_000_000 if adaptive else task_nodes, adaptive, task_seconds, retries,
                         straggler_factor, straggler_seconds, book)
        estimate = 0.0
        if resumed is not None:
            driver.queue = list(resumed.pending.values())
            driver.count, driver.nodes, driver.done = resumed.count, resumed.nodes, resumed.done
            driver.fraction = max(0.0, 1.0 - sum(w for _, w in driver.queue))
        else:
            split = _core.split_pieces(compiled, [[]], max(1, workers * pieces_per_worker), 16, seed)
            total = sum(e for _, e in split) or 1.0
            driver.queue = [(p, e / total) for p, e in split]
            estimate = sum(e for _, e in split)
            if book is not None:
                book.start([p for p, _ in driver.queue], [w for _, w in driver.queue])
        driver.queue.reverse()  # largest first
        first_fraction = driver.fraction
        tally.update(count=driver.count, nodes=driver.nodes)

        def status() -> Status:
            return Status(driver.nodes, driver.count, driver.done, driver.pieces_known(), driver.fraction,
                          estimate, time.monotonic() - start, first_fraction)

        shown = 0.0
        try:
            while driver.queue or driver.running:
                backend.check()
                driver.top_up()
                for handle in backend.wait(0.1):
                    if handle in driver.running:
                        driver.finish(handle)
                tally.update(count=driver.count, nodes=driver.nodes)
                driver.duplicate_stragglers()
                if progress is not None and time.monotonic() - shown >= interval:
                    shown = time.monotonic()
                    progress(status())
                if run.over() or (run.nodes is not None and driver.nodes >= run.nodes):
                    raise LimitReached(f"budget reached after {driver.count} solutions (the pieces finished)",
                                       count=driver.count, stats=status(), budget=run.ran_out())
        finally:
            backend.cancel(list(driver.running))
            backend.close()
        driver.fraction = 1.0  # every piece is counted (the weights only estimate)
        if progress is not None:
            progress(status())
        return driver.count
