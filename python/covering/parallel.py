"""Counting on every core, and on a cluster: the same answer whatever the workers.

The search tree is cut into *pieces*: lists of option ids, ``o`` to put
option ``o`` into every solution, ``-o - 1`` to leave it out. The children
of a node partition its solutions, so the counts of the pieces add up to
the count of the problem, however it is cut and whoever counts each piece.

* `ParallelSearch`: the engine's threads in this process (the default of
  `Problem.count()`); idle threads take the unexplored part of busy ones.
* `distributed_count`: a driver loop over any `concurrent.futures.Executor`
  (Dask's, Ray's through `RayExecutor`, a local process pool): each task
  counts one piece with a node budget on all the cores of its machine and
  returns its count and the pieces it did not reach; those become new tasks.
  A task that fails is run again, so no piece is lost or counted twice, and
  a `checkpoint` file lets an interrupted count resume where it stopped.

>>> from covering.puzzles.polyomino import l_tromino
>>> ParallelSearch(l_tromino(7, 0), threads=2).count()
1440
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as ex:
...     distributed_count(l_tromino(7, 0), ex, workers=2, task_nodes=200)
1440
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _core, limits
from .errors import Interrupted, LimitReached, ProblemError

if TYPE_CHECKING:
    from .problem import Problem

__all__ = [
    "ParallelSearch",
    "distributed_count",
    "run_piece",
    "default_threads",
    "fingerprint",
    "InlineExecutor",
    "RayExecutor",
    "CheckpointError",
    "Status",
]

Piece = list[int]

#: A search that ends within this many seconds is not worth splitting (and
#: the part done in that time is not done again: its frontier is split).
SMALL = 0.01


class CheckpointError(ProblemError):
    """A checkpoint file that belongs to another problem, or is damaged."""


def default_threads() -> int:
    """``COVERING_THREADS`` if set, else the number of cores.

    >>> default_threads() >= 1
    True
    """
    env = os.environ.get("COVERING_THREADS", "").strip()
    if env:
        if not env.isdigit():
            raise limits.BudgetError(f"COVERING_THREADS: must be a positive integer, not {env!r}")
        return limits.threads(int(env), "COVERING_THREADS")
    return os.cpu_count() or 1


def fingerprint(compiled: _core.CompiledProblem) -> str:
    """A SHA-256 of the compiled arrays: equal for equal problems only.

    >>> from covering import Problem
    >>> a = Problem.from_dlx("A B\\nA\\nB\\n"); b = Problem.from_dlx("A B\\nA B\\n")
    >>> fingerprint(a.compile()) == fingerprint(b.compile())
    False
    """
    h = hashlib.sha256()
    for part in compiled.__getnewargs__():
        h.update(json.dumps(part).encode())
        h.update(b"|")
    return h.hexdigest()


@dataclass
class Status:
    """What a progress report says about a count under way."""

    nodes: int
    solutions: int
    #: Pieces finished, and pieces known so far.
    pieces_done: int
    pieces: int
    #: Estimated fraction of the work done (0 to 1), from the pieces' estimates.
    fraction: float
    #: Knuth's random-probe estimate of the total number of nodes.
    estimate: float
    seconds: float

    def eta(self) -> float | None:
        """Seconds left at the present rate, if the fraction says anything."""
        if 0 < self.fraction < 1 and self.seconds > 0.5:
            return self.seconds * (1 - self.fraction) / self.fraction
        return None


class ParallelSearch:
    """Counts, or lists, the solutions of `problem` on `threads` of the
    engine's threads (default: `default_threads()`).

    >>> from covering.puzzles.queens import queens_problem
    >>> s = ParallelSearch(queens_problem(8), threads=2)
    >>> sorted(s.solutions(ids=True)) == sorted(queens_problem(8).solutions(ids=True))
    True
    """

    def __init__(self, problem: Problem, threads: int | None = None, *, engine: str = "auto", seed: int = 0):
        self.problem = problem
        self.threads = default_threads() if threads is None else limits.threads(threads)
        self.engine = engine
        self.seed = seed
        self._compiled = problem.compile()
        self._pool = _core.Pool(self._compiled, self.threads, engine)
        self._estimates: list[float] = []
        #: (solutions, nodes) of the single-thread start, before the split.
        self._base = (0, 0)
        self.nodes = 0
        self.solutions_found = 0

    def pieces(self, per_thread: int = 50, roots: list[Piece] | None = None) -> list[Piece]:
        """Pieces for the threads: the tree (or `roots`) cut by estimate into
        about `per_thread` per thread."""
        roots = [[]] if roots is None else roots
        split = _core.split_pieces(self._compiled, roots, per_thread * self.threads, 16, self.seed, self.engine)
        self._estimates = [e for _, e in split]
        return [p for p, _ in split]

    def cancel(self) -> None:
        """Stops the threads (from another thread) within milliseconds."""
        self._pool.cancel()

    def progress(self, start: float) -> Status:
        """Where the count stands: the fraction done is the share of pieces
        finished (pieces given away by busy threads included)."""
        nodes, solutions, done, made = self._pool.progress
        nodes += self._base[1]
        solutions += self._base[0]
        estimate = sum(self._estimates)
        fraction = min(1.0, done / made) if made else 0.0
        return Status(nodes, solutions, done, made, fraction, estimate, time.monotonic() - start)

    def count(
        self,
        *,
        nodes: int | None = None,
        seconds: float | None = None,
        progress: Callable[[Status], None] | None = None,
        interval: float = 0.5,
    ) -> int:
        """The number of solutions. `nodes` and `seconds` are budgets (then
        `LimitReached`, with the count so far); `progress` is called every
        `interval` seconds with a `Status`; Ctrl-C stops the threads and
        raises KeyboardInterrupt (the partial count is in `solutions_found`)."""
        nodes, seconds = limits.nodes(nodes), limits.seconds(seconds)
        start = time.monotonic()
        # A small search is done before a split would pay: try one thread first.
        solver = self.problem.solver(engine=self.engine)
        quick = SMALL if seconds is None else min(SMALL, seconds)
        try:
            n = solver.count(nodes=nodes, seconds=quick)
            self.nodes, self.solutions_found = solver.stats.nodes, n
            return n
        except Interrupted:
            self.nodes, self.solutions_found = solver.stats.nodes, solver.stats.solutions
            raise
        except LimitReached:
            if (nodes is not None and solver.stats.nodes >= nodes) or (seconds is not None and seconds <= SMALL):
                self.nodes, self.solutions_found = solver.stats.nodes, solver.stats.solutions
                raise
        if seconds is not None:
            seconds -= time.monotonic() - start
        # The rest of that search, cut for the threads: no work is done twice.
        done_count, done_nodes = solver.stats.solutions, solver.stats.nodes
        self._base = (done_count, done_nodes)
        pieces = self.pieces(roots=solver.frontier())
        stop = threading.Event()
        timer = threading.Timer(seconds, self.cancel) if seconds is not None else None

        def report() -> None:
            while not stop.wait(interval):
                assert progress is not None
                progress(self.progress(start))

        watcher = threading.Thread(target=report, daemon=True) if progress else None
        for t in (timer, watcher):
            if t is not None:
                t.start()
        try:
            count, used, leftover, interrupted = self._pool.count(pieces, nodes)
        finally:
            stop.set()
            if timer is not None:
                timer.cancel()
            if watcher is not None:
                watcher.join()
        count += done_count
        self.nodes, self.solutions_found = used + done_nodes, count
        if progress is not None:
            progress(self.progress(start))
        if interrupted:
            raise Interrupted(count, self.progress(start))
        if leftover:
            raise LimitReached(f"budget reached after {count} solutions", count=count, stats=self.progress(start))
        return count

    def solutions(self, limit: int | None = None, *, ids: bool = False) -> Iterator[Any]:
        """The solutions, found by all the threads (in no particular order)."""
        self._pool.start_solutions(self.pieces(8))
        labels = self.problem.labels
        found = 0
        try:
            while limit is None or found < limit:
                sol = self._pool.next_solution()
                if sol is None:
                    return
                found += 1
                yield tuple(sol) if ids else [labels[o] for o in sol]
        finally:
            self._pool.cancel()


def run_piece(
    compiled: _core.CompiledProblem, piece: Piece, node_budget: int | None, threads: int | None = None
) -> tuple[int, int, list[Piece]]:
    """One task: counts `piece` on all the cores here (or `threads`), within
    `node_budget` nodes; returns (count, nodes, the pieces not reached).

    >>> from covering import Problem
    >>> c = Problem.from_dlx("A B\\nA\\nB\\nA B\\n").compile()
    >>> run_piece(c, [], None)
    (2, 2, [])
    """
    pool = _core.Pool(compiled, threads or default_threads())
    count, nodes, leftover, interrupted = pool.count([piece], node_budget)
    if interrupted:
        raise KeyboardInterrupt
    return count, nodes, leftover


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


def _key(piece: Sequence[int]) -> str:
    return ",".join(map(str, piece))


class _Checkpoint:
    """JSON lines: a header (fingerprint, seed, the initial pieces), then one
    line per finished piece (its count, and the pieces it left)."""

    def __init__(self, path: str | os.PathLike[str], fp: str, seed: int) -> None:
        self.path = Path(path)
        self.fp = fp
        self.seed = seed

    def load(self) -> tuple[dict[str, Piece], int, int] | None:
        """(pending pieces, count so far, nodes so far), or None for a new file."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return None
        lines = self.path.read_text().splitlines()
        try:
            head = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError) as e:
            raise CheckpointError(f"{self.path}: not a checkpoint of covering ({e})") from None
        if head.get("covering_checkpoint") != 1:
            raise CheckpointError(f"{self.path}: not a checkpoint of covering")
        if head.get("fingerprint") != self.fp:
            raise CheckpointError(f"{self.path}: the checkpoint is for another problem")
        pending = {_key(p): p for p in head["pieces"]}
        count = nodes = 0
        for n, line in enumerate(lines[1:], 2):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                if n == len(lines):
                    break  # a last line cut short by the interruption: ignored, the piece is redone
                raise CheckpointError(f"{self.path}:{n}: damaged line") from None
            key = _key(rec["piece"])
            if key not in pending:
                raise CheckpointError(f"{self.path}:{n}: a piece that was not pending")
            del pending[key]
            count += rec["count"]
            nodes += rec["nodes"]
            pending.update((_key(p), p) for p in rec["leftover"])
        return pending, count, nodes

    def start(self, pieces: list[Piece]) -> None:
        head = {"covering_checkpoint": 1, "fingerprint": self.fp, "seed": self.seed, "pieces": pieces}
        self.path.write_text(json.dumps(head) + "\n")

    def record(self, piece: Piece, count: int, nodes: int, leftover: list[Piece]) -> None:
        line = json.dumps({"piece": piece, "count": count, "nodes": nodes, "leftover": leftover})
        with self.path.open("a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())


def distributed_count(
    problem: Problem,
    executor: Executor,
    *,
    workers: int,
    pieces_per_worker: int = 50,
    task_nodes: int | None = 5_000_000,
    threads_per_task: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    seed: int = 0,
    retries: int = 3,
    progress: Callable[[Status], None] | None = None,
    tally: dict[str, int] | None = None,
) -> int:
    """Counts the solutions of `problem` with tasks on `executor`: the tree is
    cut into about `pieces_per_worker` pieces per worker (Knuth's estimates,
    seeded by `seed`, so the same cut every time); each task counts a piece
    within `task_nodes` nodes and the pieces it leaves are submitted in turn.
    A failed task is submitted again (up to `retries` times). With a
    `checkpoint` file, finished pieces are recorded as they come, and a count
    started again with the same file goes on from there.
    """
    compiled = problem.compile()
    fp = fingerprint(compiled)
    start = time.monotonic()
    book = _Checkpoint(checkpoint, fp, seed) if checkpoint is not None else None
    resumed = book.load() if book is not None else None
    total_count = total_nodes = 0
    estimate = 0.0
    if resumed is not None:
        pending, total_count, total_nodes = resumed
        queue = list(pending.values())
    else:
        split = _core.split_pieces(compiled, [[]], max(1, workers * pieces_per_worker), 16, seed)
        queue = [p for p, _ in split]
        estimate = sum(e for _, e in split)
        if book is not None:
            book.start(queue)
    tally = {} if tally is None else tally
    tally.update(count=total_count, nodes=total_nodes)
    failures: dict[str, int] = {}
    running: dict[Future[tuple[int, int, list[Piece]]], Piece] = {}
    done_pieces = 0
    try:
        while queue or running:
            while queue and len(running) < 2 * workers:
                piece = queue.pop()
                running[executor.submit(run_piece, compiled, piece, task_nodes, threads_per_task)] = piece
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for f in finished:
                piece = running.pop(f)
                try:
                    count, nodes, leftover = f.result()
                except KeyboardInterrupt:
                    raise
                except Exception as e:  # a task that raised, or a worker that died
                    key = _key(piece)
                    failures[key] = failures.get(key, 0) + 1
                    if failures[key] > retries:
                        raise RuntimeError(f"a piece failed {failures[key]} times: {e!r}") from e
                    queue.append(piece)
                    continue
                total_count += count
                total_nodes += nodes
                tally.update(count=total_count, nodes=total_nodes)
                done_pieces += 1
                queue.extend(leftover)
                if book is not None:
                    book.record(piece, count, nodes, leftover)
                if progress is not None:
                    known = done_pieces + len(queue) + len(running)
                    progress(Status(total_nodes, total_count, done_pieces, known,
                                      done_pieces / known if known else 1.0, estimate, time.monotonic() - start))
    finally:
        for f in running:
            f.cancel()
    return total_count
