"""Dask for `covering.cluster.distributed_count` (``pip install 'covering[dask]'``).

`DaskBackend` runs the pieces of a count on a Dask `Client`:

* the compiled problem goes to each worker once, by a worker plugin, and
  stays there for the run (workers that join later get it from the
  scheduler as they register); tasks name it by its fingerprint. (A scattered
  future would do the same until Dask's memory manager drops its extra
  copies: a worker that needs one back fetches it from a peer, and waits for
  ever if that peer froze.)
* pieces are submitted with unique keys (never Dask's hash of the
  arguments, which would give a resubmitted piece its failed twin's key) and
  Dask's own `retries=`; results are taken with `as_completed`; Dask places
  and rebalances the tasks;
* a worker that stops sending heartbeats gets no new task, and a result kept
  by one cannot hold the count: results are fetched in the background, and
  a piece whose result does not come is late and gets a duplicate; the
  scheduler lost for `scheduler_timeout` seconds ends the run
  with `SchedulerLost`.

`connect` reaches a running scheduler; `local_cluster` starts one here, with
worker processes that ignore Ctrl-C (the driver cancels their tasks and
closes them) and die with the driver. Both keep Dask's own log quiet, so
that a run prints its own few lines on stderr, not Dask's.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import distributed
from distributed.diagnostics.plugin import WorkerPlugin

from . import _core
from .pieces import Piece, PieceResult, quiet_child, run_piece
from .errors import SchedulerLost

__all__ = ["DaskBackend", "connect", "local_cluster", "QuietWorkers", "ProblemPlugin", "run_registered"]

_dist: Any = distributed  # untyped

#: The problems on this worker, by fingerprint (set by `ProblemPlugin`).
_PROBLEMS: dict[str, _core.CompiledProblem] = {}


class ProblemPlugin(WorkerPlugin):
    """Puts one compiled problem on every worker, new ones too."""

    def __init__(self, fp: str, compiled: _core.CompiledProblem) -> None:
        self.fp = fp
        self.compiled = compiled
        self.name = f"covering-problem-{fp[:16]}"

    def setup(self, worker: Any) -> None:
        _PROBLEMS[self.fp] = self.compiled

    def teardown(self, worker: Any) -> None:
        _PROBLEMS.pop(self.fp, None)


def run_registered(fp: str, piece: Piece, node_budget: int | None, threads: int) -> PieceResult:
    """A task on a worker: `run_piece` on the problem its plugin put there."""
    compiled = _PROBLEMS.get(fp)
    if compiled is None:
        raise LookupError(f"the problem {fp[:16]} is not on this worker (yet)")
    return run_piece(compiled, piece, node_budget, threads)


class DaskBackend:
    """Where `distributed_count` runs its tasks when given a Dask `Client`."""

    #: A worker whose last heartbeat is this much older than the newest one
    #: is taken for frozen: new tasks and duplicates go to the others.
    STALE = 10.0

    def __init__(self, client: Any, compiled: _core.CompiledProblem, fp: str, retries: int,
                 scheduler_timeout: float) -> None:
        self.client = client
        self.fp = fp
        self.retries = retries
        self.timeout = scheduler_timeout
        self.run = uuid.uuid4().hex[:12]
        self.n = 0
        self._threads = 1
        self._live: list[str] = []
        self._stale = False
        self._read = -1e9
        self._lost_since: float | None = None
        self.plugin = ProblemPlugin(fp, compiled)
        client.register_plugin(self.plugin)
        self._workers()
        # Finished futures with their results, fetched by Dask's
        # `as_completed` in the background (a result kept by a frozen worker
        # never comes, and its piece is late), and handed over by a thread
        # that waits on it: the driver wakes as soon as one is done.
        self.done = _dist.as_completed([], with_results=True, raise_errors=False)
        self._results: dict[Any, Any] = {}
        self._finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._added = threading.Event()
        self._closed = False
        threading.Thread(target=self._collect, daemon=True, name="covering-as-completed").start()

    def _collect(self) -> None:
        while not self._closed:
            if self.done.is_empty():
                self._added.wait(0.1)
                self._added.clear()
                continue
            with contextlib.suppress(StopIteration):
                self._finished.put(next(self.done))  # (future, result or exception)

    def _workers(self) -> None:
        """Reads the live workers and their threads (again every 2 s, so
        that workers joining later get work)."""
        now = time.monotonic()
        if now - self._read < 2.0:
            return
        self._read = now
        try:
            workers = self.client.scheduler_info()["workers"]
        except Exception:  # noqa: BLE001 - the scheduler is away: check() decides
            return
        newest = max((w.get("last_seen", 0.0) for w in workers.values()), default=0.0)
        self._live = [a for a, w in workers.items() if w.get("last_seen", 0.0) >= newest - self.STALE]
        self._stale = len(self._live) < len(workers)
        self._threads = max(1, sum(workers[a].get("nthreads", 1) for a in self._live))

    def threads(self) -> int:
        """Worker threads of the live workers."""
        self._workers()
        return self._threads

    def capacity(self) -> int:
        # Two tasks a worker thread, so none waits for the next; at least 16,
        # since tiny tasks are bound by the round trip through the scheduler
        # (about 20 ms), not by the workers.
        return max(2 * self.threads(), 16)

    def submit(self, piece: Piece, budget: int | None, avoid: Any = None) -> Any:
        self.n += 1
        where: dict[str, Any] = {}
        if avoid is not None:
            # A straggler's duplicate goes to another live worker, if there is one.
            with contextlib.suppress(Exception):  # only a preference
                busy = {w for w, keys in self.client.processing().items() if avoid.key in keys}
                others = [w for w in self._live if w not in busy]
                if others:
                    where = {"workers": others, "allow_other_workers": True}
        elif self._stale and self._live:
            # Dask sees a frozen worker as alive until its time-to-live runs
            # out: new tasks go to the workers that still send heartbeats.
            where = {"workers": list(self._live), "allow_other_workers": True}
        # One engine thread per task: a worker started with --nthreads T runs
        # T tasks at once, so T engine threads, never more.
        f = self.client.submit(run_registered, self.fp, piece, budget, 1, key=f"covering-{self.run}-{self.n}",
                               pure=False, retries=self.retries, **where)
        self.done.add(f)
        self._added.set()
        return f

    def wait(self, timeout: float) -> list[Any]:
        try:
            batch = [self._finished.get(timeout=timeout)]
        except queue.Empty:
            return []
        with contextlib.suppress(queue.Empty):
            while True:
                batch.append(self._finished.get_nowait())
        self._results.update(batch)
        return [f for f, _ in batch]

    def result(self, task: Any) -> PieceResult:
        r = self._results.pop(task)
        if isinstance(r, BaseException):
            raise r
        return r  # type: ignore[no-any-return]

    def cancel(self, tasks: Sequence[Any]) -> None:
        if tasks and self.client.status == "running":
            with contextlib.suppress(Exception):  # on the way out anyway
                self.client.cancel(list(tasks), force=True)

    def check(self) -> None:
        status = self.client.status
        if status == "running":
            self._lost_since = None
            return
        now = time.monotonic()
        if self._lost_since is None:
            self._lost_since = now
        if status in ("closed", "closing") or now - self._lost_since > self.timeout:
            raise SchedulerLost(f"lost the Dask scheduler: no answer for {now - self._lost_since:.0f} s")

    def close(self) -> None:
        """Takes the problem off the workers (without waiting long for a
        frozen one, or a lost scheduler)."""
        self._closed = True
        if self.client.status != "running":
            return

        def unregister() -> None:
            with contextlib.suppress(Exception):
                self.client.unregister_worker_plugin(self.plugin.name)

        t = threading.Thread(target=unregister, daemon=True)
        t.start()
        t.join(5.0)


class QuietWorkers(WorkerPlugin):
    """Installed on every worker of a local cluster, restarted ones too."""

    name = "covering-quiet-workers"

    def setup(self, worker: Any) -> None:
        quiet_child()


def _quiet_logs() -> None:
    # Dask's logging config sets levels on its modules' loggers one by one.
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado")]
    for name in ["distributed", "tornado", "asyncio", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def connect(address: str, timeout: float) -> tuple[Any, Callable[[], None]]:
    """A client of the scheduler at `address`; it gives up reconnecting
    after `timeout` seconds. Returns (client, close)."""
    _quiet_logs()
    client = _dist.Client(address, timeout=f"{timeout}s")
    return client, lambda: _close(client)


def local_cluster(workers: int) -> tuple[Any, Callable[[], None]]:
    """A cluster of `workers` processes of one thread here. Returns (client, close)."""
    _quiet_logs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "port 8787 is already in use"
        # No dashboard, and the scheduler's small HTTP server on a free port.
        cluster = _dist.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                     dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                                     silence_logs=logging.CRITICAL)
    client = _dist.Client(cluster)
    client.register_plugin(QuietWorkers())

    def close() -> None:
        _close(client)
        with contextlib.suppress(Exception):
            cluster.close(timeout=10)

    return client, close


def _close(client: Any) -> None:
    with contextlib.suppress(Exception):
        client.close(timeout=5)
