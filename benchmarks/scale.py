"""Scale: the speed-up of the engine's threads on this machine's cores, and what Dask costs.

    python benchmarks/scale.py

For each problem: the count on 1 thread and on 2 (`Problem.count(threads=...)`,
wall seconds, median of 3), and the same count through `distributed_count`
given a Dask client of a `LocalCluster` of 2 workers (in-process threads,
then processes) and a local process pool, each task counting a piece on one
core; the cluster's start-up is not timed. Then how many tasks a second the
driver can feed: tiny pieces (about 2,000 of them, a few microseconds of
work each) through the Dask client of 2 worker processes.
Last, queens 16 from the command line: on 1 and 2 threads, and through a
scheduler and 2 one-thread workers started as separate processes
(`dask scheduler`, `dask worker`), as an operator would run them.
Targets: at least 1.6x with 2 threads (goal 1.9x) on the L-trominoes.
Writes benchmarks/RESULTS.md (between the ``scale`` markers).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from engine import replace_section

from covering import Problem
from covering.cluster import distributed_count
from covering.puzzles.polyomino import PENTOMINOES, Board, l_tromino, tiling
from covering.puzzles.queens import queens_problem

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def median_wall(f: Callable[[], int], runs: int = 3) -> tuple[int, float]:
    times = []
    n = 0
    for _ in range(runs):
        start = time.perf_counter()
        n = f()
        times.append(time.perf_counter() - start)
    return n, statistics.median(times)


def main() -> None:
    from dask.distributed import Client, LocalCluster

    problems: list[tuple[str, Problem, int]] = [
        ("L-trominoes 9x9", l_tromino(9), 1193600),
        ("pentominoes 6x10", tiling(PENTOMINOES, Board.rectangle(6, 10)), 9356),
        ("queens 14", queens_problem(14), 365596),
    ]
    lines = [
        "<!-- scale:begin -->",
        "## Scale: threads, processes, Dask",
        "",
        f"`python benchmarks/scale.py` ({time.strftime('%Y-%m-%d')}), wall seconds, median of 3, on this machine's",
        "2 cores. Target: at least 1.6x with 2 threads (goal 1.9x) on the L-trominoes. The distributed",
        "runs cut the tree into about 50 pieces per worker and count each piece in a task on one core, with",
        "the node budget adapted to about 2 s a task (start-up of the cluster not timed).",
        "",
        "| problem | 1 thread | 2 threads | speed-up | Dask, 2 threads in-process | Dask, 2 processes "
        "| process pool, 2 processes |",
        "|---|---|---|---|---|---|---|",
    ]
    # The threads first, alone on the machine (a cluster's idle workers would steal time).
    threads = {}
    for name, p, expected in problems:
        n1, t1 = median_wall(lambda: p.count(threads=1))
        n2, t2 = median_wall(lambda: p.count(threads=2))
        assert n1 == n2 == expected
        threads[name] = (t1, t2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None,
                          scheduler_kwargs={"dashboard_address": ":0"}) as cl_threads, \
            Client(cl_threads) as c_threads, \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          scheduler_kwargs={"dashboard_address": ":0"}) as cl_procs, \
            Client(cl_procs) as c_procs, \
            ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        for name, p, expected in problems:
            t1, t2 = threads[name]
            cells = [f"{t1:.3f} s", f"{t2:.3f} s", f"{t1 / t2:.2f}x"]
            for ex in (c_threads, c_procs, pool):
                nd, td = median_wall(lambda: distributed_count(p, ex, workers=2, threads_per_task=1))
                assert nd == expected
                cells.append(f"{td:.3f} s ({td / t2:.2f}x the threads)")
            lines.append(f"| {name} ({expected:,}) | " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
        # The driver's feed: tiny tasks, so that the time is the driver's and Dask's.
        tiny = queens_problem(11)
        tally: dict[str, int] = {}
        start = time.perf_counter()
        n = distributed_count(tiny, c_procs, pieces_per_worker=1000, task_nodes=10**9, tally=tally,
                              progress=lambda s: tally.update(pieces=s.pieces_done), interval=0)
        wall = time.perf_counter() - start
        assert n == 2680
        lines += ["", f"Driver feed: {tally['pieces']:,} tasks of queens 11 (a few microseconds each) through the "
                  f"Dask client of 2 worker processes in {wall:.2f} s: {tally['pieces'] / wall:,.0f} tasks/s."]
        print(lines[-1], flush=True)
    lines += ["", *separate_processes()]
    print("\n".join(lines[-4:]), flush=True)
    lines.append("<!-- scale:end -->")
    replace_section(RESULTS, "scale", "\n".join(lines))


def separate_processes() -> list[str]:
    """Queens 16 by the command line: threads, then a scheduler and workers of their own."""
    import socket
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        dlx = Path(tmp) / "q16.dlx"
        dlx.write_text(queens_problem(16).to_dlx())
        count = [sys.executable, "-m", "covering", "dlx", str(dlx), "--count", "--no-progress"]

        def timed(extra: list[str]) -> float:
            start = time.perf_counter()
            out = subprocess.run(count + extra, capture_output=True, text=True, check=True).stdout
            assert out == "14772512\n", out
            return time.perf_counter() - start

        t1, t2 = timed(["--threads", "1"]), timed(["--threads", "2"])
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        address = f"tcp://127.0.0.1:{port}"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", str(port), "--no-dashboard"], **quiet)]  # type: ignore[call-overload]
        try:
            time.sleep(3)
            procs += [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads",
                                        "1", "--no-dashboard", "--host", "127.0.0.1"], **quiet)  # type: ignore[call-overload]
                      for _ in range(2)]
            time.sleep(6)
            td = timed(["--backend", "dask", "--address", address])
        finally:
            for p in procs:
                p.kill()
    return [f"Queens 16 (14,772,512) by `covering dlx --count`, wall seconds: 1 thread {t1:.1f} s, 2 threads "
            f"{t2:.1f} s ({t1 / t2:.2f}x), a scheduler and 2 one-thread workers as separate processes on the "
            f"same 2 cores {td:.1f} s ({t1 / td:.2f}x; the scheduler and the driver share those cores)."]


if __name__ == "__main__":
    main()
