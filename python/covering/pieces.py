"""The pieces of a count, and what a worker does with one.

A *piece* is a list of options put into (``o``) or left out of (``-o - 1``)
the solutions: a part of the search tree. A task counts one piece within a
node budget and returns a `PieceResult`: its count and the pieces it did not
reach. This is all a worker needs, so the backends (`covering.cluster`'s
executors, `covering.dask_support`'s Dask workers) import it from here, and
nothing here imports them.

>>> from covering import Problem
>>> c = Problem.from_dlx("A B\\nA\\nB\\nA B\\n").compile()
>>> run_piece(c, [], None)[:4]
(2, 2, [], [])
"""

from __future__ import annotations

import signal
import time
from typing import NamedTuple

from . import _core, limits
from .parallel import Piece, default_threads

__all__ = ["Piece", "PieceResult", "run_piece", "quiet_child"]


class PieceResult(NamedTuple):
    """What a task returns: the count of its piece, the nodes it took, the
    pieces it did not reach with their `shares` of it, and its seconds."""

    solutions: int
    nodes: int
    leftover: list[Piece]
    shares: list[float]
    seconds: float


def run_piece(
    compiled: _core.CompiledProblem, piece: Piece, node_budget: int | None, threads: int | None = None
) -> PieceResult:
    """One task: counts `piece` on `threads` engine threads (default: every
    core here) within `node_budget` nodes."""
    start = time.monotonic()
    pool = _core.Pool(compiled, threads or default_threads())
    count, nodes, leftover, interrupted, _ = pool.count([piece], None, limits.begin(None, node_budget))
    if interrupted:
        raise KeyboardInterrupt
    return PieceResult(count, nodes, [p for p, _ in leftover], [w for _, w in leftover],
                       time.monotonic() - start)


def quiet_child() -> None:
    """Run in each worker process of a local pool or cluster: Ctrl-C is for
    the driver (which cancels the tasks), not for every child to print a
    traceback; and on Linux the child dies with the driver, so that a killed
    driver leaves no orphans."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown must do
        pass
