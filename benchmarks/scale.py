"""Scale: the speed-up of the engine's threads on this machine's cores, and what Dask costs.

    python benchmarks/scale.py

For each problem: the count on 1 thread and on 2 (`Problem.count(threads=...)`,
wall seconds, median of 3), and the same count through `distributed_count`
on a Dask `LocalCluster` of 2 workers (in-process threads, then processes)
and on a local process pool, each task counting a piece on one core; the
cluster's start-up is not timed. Target (scale issue): at least 1.8x with 2
threads. Writes benchmarks/RESULTS.md (between the ``scale`` markers).
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
from covering.parallel import distributed_count
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
        "2 cores. Target: at least 1.8x with 2 threads. The distributed runs cut the tree into about 50",
        "pieces per worker and count each piece in a task on one core (start-up of the cluster not timed).",
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
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cl_threads, \
            Client(cl_threads) as c_threads, \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl_procs, \
            Client(cl_procs) as c_procs, \
            ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        for name, p, expected in problems:
            t1, t2 = threads[name]
            cells = [f"{t1:.3f} s", f"{t2:.3f} s", f"{t1 / t2:.2f}x"]
            for ex in (c_threads.get_executor(), c_procs.get_executor(), pool):
                nd, td = median_wall(lambda: distributed_count(p, ex, workers=2, threads_per_task=1))
                assert nd == expected
                cells.append(f"{td:.3f} s ({td / t2:.2f}x the threads)")
            lines.append(f"| {name} ({expected:,}) | " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    lines.append("<!-- scale:end -->")
    replace_section(RESULTS, "scale", "\n".join(lines))


if __name__ == "__main__":
    main()
