"""Counts on several threads, processes and Dask workers equal the count of
one search, on problems with every feature; a killed worker, an interrupted
count resumed from its checkpoint: still the exact count."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest
from long import examples
from running import wait_working
from hypothesis import given, settings
from test_reference import problems

from covering import Problem, _core
from covering.cluster import RayExecutor, distributed_count, run_piece
from covering.parallel import ParallelSearch
from covering.progress import Status
from covering.puzzles.polyomino import PENTOMINOES, Board, l_tromino, tiling
from covering.puzzles.queens import queens_problem
from covering.reference import definition


@settings(max_examples=examples(300), deadline=None)
@given(problems(max_options=12))
def test_pools_on_random_problems_with_every_feature(p: Problem) -> None:
    expected = len(definition.brute_force(p))
    compiled = p.compile()
    for threads in (1, 2, 4):
        pieces = [piece for piece, _ in _core.split_pieces(compiled, [[]], 3 * threads, 4, threads)]
        count, _, leftover, interrupted, complete = _core.Pool(compiled, threads, "cells").count(pieces)
        assert (count, leftover, interrupted, complete) == (expected, [], False, True)
    # Tasks with a tiny node budget, their leftovers counted in turn.
    with ThreadPoolExecutor(2) as ex:
        assert distributed_count(p, ex, workers=2, task_nodes=3, pieces_per_worker=2) == expected


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_known_counts_with_threads(threads: int) -> None:
    assert l_tromino(8, 0).count(threads=threads) == 30355
    assert tiling(PENTOMINOES, Board.rectangle(5, 12)).count(threads=threads) == 4040
    assert queens_problem(10).count(threads=threads) == 724
    # Multiplicities: each of the two trominoes 0 to 4 times on 3 x 6.
    p = tiling({"I": PENTOMINOES["I"], "L": PENTOMINOES["L"]}, Board.rectangle(5, 6), uses=(0, 6))
    assert p.count(threads=threads) == p.count(threads=1)


def test_parallel_solutions_are_the_same_set() -> None:
    p = l_tromino(7, 9)
    expected = sorted(p.solutions(ids=True))
    for threads in (2, 3):
        got = list(ParallelSearch(p, threads).solutions(ids=True))
        assert sorted(got) == expected and len(got) == len(set(got))
    assert len(list(p.solutions(10, threads=2))) == 10


def test_budgets_and_progress() -> None:
    p = l_tromino(9)
    seen: list[Status] = []
    assert ParallelSearch(p, 2).count(progress=seen.append, interval=0.05) == 1193600
    assert len(seen) >= 3 and seen[-1].solutions == 1193600 and seen[-1].fraction == 1.0
    # Knuth's fraction, summed over pieces finished and running: it grows
    # from the first report on (not stuck at 0 until the end), never goes
    # back, and the pieces are known from the start (never "n/0").
    fractions = [s.fraction or 0.0 for s in seen]  # a search always has its fraction
    assert fractions == sorted(fractions) and 0 < fractions[len(fractions) // 2] < 1
    assert all(s.pieces > 0 for s in seen) and seen[-1].pieces_done == seen[-1].pieces
    r = run_piece(p.compile(), [], 5000, 2)
    assert r.leftover and r.nodes >= 5000 and r.solutions < 1193600
    assert len(r.shares) == len(r.leftover) and 0 < sum(r.shares) < 1
    rest = sum(run_piece(p.compile(), piece, None, 2).solutions for piece in r.leftover)
    assert r.solutions + rest == 1193600


def test_processes() -> None:
    p = l_tromino(8, 0)
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as ex:
        assert distributed_count(p, ex, workers=2, threads_per_task=1, task_nodes=20_000) == 30355


def test_dask_local_cluster_of_threads() -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            # The client itself: the problem scattered once, Dask's keys and retries.
            seen: list[Status] = []
            assert distributed_count(l_tromino(8, 0), client, task_nodes=20_000, progress=seen.append,
                                     interval=0) == 30355
            fractions = [s.fraction or 0.0 for s in seen]  # a search always has its fraction
            assert fractions == sorted(fractions) and fractions[-1] == 1.0
            p = tiling(PENTOMINOES, Board.rectangle(4, 15))
            assert distributed_count(p, client) == 1472  # adaptive task size
            # Any executor too: Dask's, through concurrent.futures.
            assert distributed_count(p, client.get_executor(), workers=2, task_nodes=50_000,
                                     threads_per_task=1) == 1472


def test_ray_adapter() -> None:
    # Ray is an optional extra that CI does not install: this runs where it is.
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ex = RayExecutor()
        assert distributed_count(l_tromino(8, 0), ex, workers=2, task_nodes=20_000, threads_per_task=1) == 30355
        p = tiling(PENTOMINOES, Board.rectangle(4, 15))
        assert distributed_count(p, ex, workers=2, task_nodes=50_000, threads_per_task=1) == 1472
    finally:
        ray.shutdown()


def test_dask_worker_killed_mid_run() -> None:
    distributed = pytest.importorskip("dask.distributed")
    p = tiling(PENTOMINOES, Board.rectangle(5, 12))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            pids = list(client.run(os.getpid).values())
            killed: list[int] = []

            def progress(s: Status) -> None:
                if s.pieces_done >= 5 and not killed:
                    killed.append(pids[0])
                    os.kill(pids[0], signal.SIGKILL)

            n = distributed_count(p, client, task_nodes=20_000, progress=progress, interval=0)
            assert killed and n == 4040


def test_cli_threads_backends_and_ctrl_c_with_checkpoint(tmp_path: Path) -> None:
    f = tmp_path / "t.dlx"
    f.write_text(l_tromino(8, 0).to_dlx())
    run = [sys.executable, "-m", "covering", "dlx", "count", "--no-progress", str(f)]
    for extra in (["--threads", "2"], ["--backend", "processes", "--threads", "2"], ["--threads", "1"]):
        r = subprocess.run(run + extra, capture_output=True, text=True)
        assert (r.returncode, r.stdout) == (0, "30355\n"), (extra, r.stderr)
    env = dict(os.environ, COVERING_THREADS="2")
    r = subprocess.run(run + ["--backend", "dask"], capture_output=True, text=True, env=env)
    assert (r.returncode, r.stdout.splitlines()[-1]) == (0, "30355"), r.stderr
    bad = subprocess.run(run[:-1] + ["--backend", "dask", str(f), "--limit", "1"], capture_output=True, text=True)
    assert bad.returncode == 2 and "cannot go together" in bad.stderr
    # Ctrl-C on a checkpointed count, then the same command again finishes it.
    big = tmp_path / "big.dlx"
    big.write_text(l_tromino(9).to_dlx())
    book = tmp_path / "ck.jsonl"
    cmd = [sys.executable, "-m", "covering", "dlx", "count", "--no-progress", "--checkpoint", str(book), str(big)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_working(proc, 1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    if proc.returncode == 130:  # (on a very fast machine it may have finished)
        assert int(out) < 1193600 and "interrupted" in err
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "1193600\n"), r.stderr


def test_ctrl_c_stops_the_threads() -> None:
    import _thread

    p = l_tromino(10, 0)  # hours of work
    ps = ParallelSearch(p, 2)
    threading.Timer(0.5, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        ps.count()
    assert ps.nodes > 0
