"""Counting on a cluster, as an operator would run it: a scheduler and
workers started as separate processes, a worker and its nanny killed, the
scheduler killed (the driver stops with exit 1, and a rerun resumes from the
checkpoint on a new cluster), a frozen task, a broken process pool, Ctrl-C.
Every count that completes is the exact one."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest
from running import wait_working

from covering.cluster import distributed_count, quiet_child
from covering.progress import Status
from covering.puzzles.polyomino import l_tromino
from covering.puzzles.queens import queens_problem

PY = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Cluster:
    """A scheduler and `n` workers (each with its nanny), as separate processes."""

    def __init__(self, n: int) -> None:
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.scheduler = subprocess.Popen([PY, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                           "--port", str(self.port), "--no-dashboard"], **quiet)  # type: ignore[call-overload]
        self.workers = [
            subprocess.Popen([PY, "-m", "distributed.cli.dask_worker", self.address, "--nthreads", "1",
                              "--no-dashboard", "--host", "127.0.0.1"], **quiet)  # type: ignore[call-overload]
            for _ in range(n)
        ]

    def client(self, n: int) -> Any:
        distributed: Any = pytest.importorskip("dask.distributed")
        client = distributed.Client(self.address, timeout="30s")
        wait_for(lambda: len(client.nthreads()) >= n, 60, f"{n} workers")
        return client

    def kill_worker_and_nanny(self, i: int) -> None:
        nanny = self.workers[i]
        children = subprocess.run(["pgrep", "-P", str(nanny.pid)], capture_output=True, text=True).stdout.split()
        nanny.kill()
        for pid in children:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        nanny.wait()

    def close(self) -> None:
        for p in [*self.workers, self.scheduler]:
            if p.poll() is None:
                p.kill()
                p.wait()


@pytest.fixture
def cluster() -> Iterator[Callable[[int], Cluster]]:
    made: list[Cluster] = []

    def make(n: int) -> Cluster:
        made.append(Cluster(n))
        return made[-1]

    yield make
    for c in made:
        c.close()


def test_a_worker_and_its_nanny_killed_mid_run(cluster: Callable[[int], Cluster]) -> None:
    pytest.importorskip("dask.distributed")
    c = cluster(2)
    client = c.client(2)
    killed: list[bool] = []

    def kill_one(s: Status) -> None:
        if s.pieces_done >= 5 and not killed:
            killed.append(True)
            c.kill_worker_and_nanny(0)

    try:
        n = distributed_count(queens_problem(13), client, task_nodes=100_000, progress=kill_one, interval=0)
    finally:
        client.close()
    assert killed and n == 73712


def test_a_frozen_worker_does_not_hold_the_count(cluster: Callable[[int], Cluster]) -> None:
    pytest.importorskip("dask.distributed")
    c = cluster(2)
    client = c.client(2)
    worker = subprocess.run(["pgrep", "-P", str(c.workers[0].pid)], capture_output=True, text=True).stdout.split()
    frozen: list[bool] = []

    def freeze(s: Status) -> None:  # the worker stops answering, but its connections stay open
        if s.pieces_done >= 5 and not frozen:
            frozen.append(True)
            for pid in worker:
                os.kill(int(pid), signal.SIGSTOP)

    try:
        n = distributed_count(queens_problem(14), client, straggler_seconds=3, progress=freeze, interval=0)
    finally:
        for pid in worker:
            os.kill(int(pid), signal.SIGCONT)
        client.close()
    assert frozen and n == 365596


def test_scheduler_killed_then_resumed_on_a_new_cluster(cluster: Callable[[int], Cluster], tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    dlx = tmp_path / "q15.dlx"
    dlx.write_text(queens_problem(15).to_dlx())
    book = tmp_path / "q15.jsonl"
    c = cluster(2)
    c.client(2).close()
    cmd = [PY, "-m", "covering", "dlx", "count", str(dlx), "--backend", "dask", "--checkpoint", str(book), "--scheduler-timeout", "5", "--progress"]
    run = subprocess.Popen(cmd + ["--address", c.address], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    wait_for(lambda: book.exists() and len(book.read_text().splitlines()) > 5, 60, "pieces in the checkpoint")
    c.scheduler.kill()
    out, err = run.communicate(timeout=120)  # (--scheduler-timeout 5: it gives up long before)
    lines = [line for line in err.splitlines() if line.startswith("covering:")]
    assert run.returncode == 1 and out == "", err
    assert len(lines) == 1 and "scheduler" in lines[0] and str(book) in lines[0], err
    c.close()
    # A new cluster, the same checkpoint: the exact count.
    c2 = cluster(2)
    c2.client(2).close()
    done_before = len(book.read_text().splitlines()) - 1
    r = subprocess.run(cmd[:-1] + ["--no-progress", "--address", c2.address], capture_output=True, text=True,
                       timeout=300)
    assert (r.returncode, r.stdout) == (0, "2279184\n"), r.stderr
    assert done_before > 0 and len(book.read_text().splitlines()) > done_before + 1


class FrozenOnce(ThreadPoolExecutor):
    """A pool whose second task never comes back (a frozen worker)."""

    def __init__(self) -> None:
        super().__init__(2)
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        if self.submitted == 2:
            return Future()
        return super().submit(fn, *args, **kwargs)


def test_a_straggler_gets_a_duplicate_and_nothing_is_counted_twice() -> None:
    with FrozenOnce() as ex:
        n = distributed_count(l_tromino(8, 0), ex, workers=2, task_nodes=5000, threads_per_task=1,
                              straggler_seconds=0.3, straggler_factor=2)
        assert n == 30355 and ex.submitted > 2


def test_a_broken_process_pool_is_restarted() -> None:
    pools: list[ProcessPoolExecutor] = []

    def new_pool() -> ProcessPoolExecutor:
        pools.append(ProcessPoolExecutor(2, mp_context=get_context("spawn"), initializer=quiet_child))
        return pools[-1]

    killed: list[bool] = []

    def kill_a_child(s: Status) -> None:
        if s.pieces_done >= 3 and not killed:
            killed.append(True)
            os.kill(next(iter(pools[0]._processes)), signal.SIGKILL)

    try:
        n = distributed_count(l_tromino(9), new_pool(), workers=2, task_nodes=200_000, threads_per_task=1,
                              progress=kill_a_child, interval=0, restart=new_pool)
    finally:
        for p in pools:
            p.shutdown(cancel_futures=True)
    assert killed and len(pools) == 2 and n == 1193600


def test_ctrl_c_on_a_local_cluster_and_progress_in_a_pipe(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    # Queens 18: about 40 times the work of 16, so that no machine ends the count before the sixth line
    # (CI once counted queens 16 on two workers before it, and the Ctrl-C found the process gone).
    dlx = tmp_path / "q18.dlx"
    dlx.write_text(queens_problem(18).to_dlx())
    env = dict(os.environ, COVERING_THREADS="2")
    proc = subprocess.Popen([PY, "-m", "covering", "dlx", "count", str(dlx), "--backend", "dask", "--progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    # Progress goes to a pipe too: a line every half second; Ctrl-C after six.
    assert proc.stderr is not None
    seen: list[str] = []
    while sum("% done" in line for line in seen) < 6 and proc.poll() is None:
        seen.append(proc.stderr.readline())
    assert proc.poll() is None, seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    done = [float(line.split("% done")[0].rsplit(" ", 1)[1]) for line in seen if "% done" in line]
    assert len(done) >= 5 and done == sorted(done), seen
    # After Ctrl-C: the partial count where the count goes, and at most 3 lines.
    last = [line for line in err.splitlines() if "% done" not in line]
    assert int(out) >= 0 and 1 <= len(last) <= 3 and "partial count" in last[-1], err


@pytest.mark.parametrize("backend", ["processes", "dask"])
def test_a_killed_driver_leaves_no_orphans(tmp_path: Path, backend: str) -> None:
    if backend == "dask":
        pytest.importorskip("dask.distributed")
    dlx = tmp_path / "q16.dlx"
    dlx.write_text(queens_problem(16).to_dlx())
    env = dict(os.environ, COVERING_THREADS="2")
    proc = subprocess.Popen([PY, "-m", "covering", "dlx", "count", str(dlx), "--backend", backend, "--no-progress"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

    def children() -> list[str]:
        return subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()

    wait_for(lambda: len(children()) >= 2, 60, "the workers")
    wait_working(proc, 1.0)
    kids = children()
    proc.kill()
    proc.wait()
    wait_for(lambda: not any(os.path.exists(f"/proc/{k}") and "Z" not in _state(k) for k in kids), 15,
             "the workers to go")


def _state(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "Z"


def test_scheduler_flags_and_an_unreachable_scheduler(tmp_path: Path) -> None:
    dlx = tmp_path / "q8.dlx"
    dlx.write_text(queens_problem(8).to_dlx())
    run = [PY, "-m", "covering", "dlx", "count", str(dlx), "--no-progress"]
    for extra in (["--scheduler-timeout", "5"], ["--backend", "dask", "--scheduler-timeout", "nan"],
                  ["--backend", "dask", "--scheduler-timeout", "0"]):
        r = subprocess.run(run + extra, capture_output=True, text=True)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "--scheduler-timeout" in r.stderr
    pytest.importorskip("dask.distributed")
    r = subprocess.run(run + ["--backend", "dask", "--address", f"tcp://127.0.0.1:{free_port()}",
                              "--scheduler-timeout", "2"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and "cannot reach the Dask scheduler" in r.stderr
