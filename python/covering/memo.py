"""Counting with a memo of sub-problems (the idea of Nishino et al.'s DXZ).

After some options are chosen, what is left to solve depends only on the
items still untouched (with colors: on the options still available), so a
sub-problem met again is not searched again: its count is looked up. On
tilings of boards this turns the search into something like a transfer
matrix, and counts far past what enumeration can reach come out in
moments:

>>> from covering.puzzles.polyomino import DOMINOES, Board, count_tilings
>>> count_tilings(DOMINOES, Board.rectangle(12, 12), uses="any", memo=True)
53060477521960000

Keys are compared whole (a hash only finds the slot), counts are exact
Python ints, and when the memo reaches ``memo_bytes`` it evicts the entries
that were cheapest to count: the count stays exact, only slower.
Multiplicities are not supported (`ProblemError`): Algorithm M takes options
away for a while as it branches, so the items left are not a sound key.
"""

from __future__ import annotations



from . import _core, limits, sizes
from .errors import Interrupted, LimitReached
from .model import ProblemData

__all__ = ["MEMO_BYTES", "memo_budget", "count_memo"]

#: The default memory budget of the memo, in bytes.
MEMO_BYTES = 1 << 30


def memo_budget(memo_bytes: int | None) -> int:
    """The memo's budget in bytes: ``memo_bytes``, or `MEMO_BYTES` for None,
    at most what `covering.sizes` allows (half of it by default).

    >>> memo_budget(None) <= MEMO_BYTES, memo_budget(0)
    (True, 0)
    """
    # Past the memory this process may use (`covering.sizes`) the memo
    # evicts instead: the count stays exact, only slower.
    most = sizes.max_memory()
    if memo_bytes is None:
        return min(MEMO_BYTES, most // 2)
    n = limits.limit(memo_bytes, "memo_bytes")
    return most if n is None else min(n, most)


def count_memo(
    problem: ProblemData,
    *,
    memo_bytes: int | None = None,
    branching: str = "mrv",
    nodes: int | None = None,
    seconds: float | None = None,
) -> int:
    """The number of solutions of `problem`, counted with a memo.

    ``branching`` is ``"mrv"`` (Knuth's rule: the item with the fewest
    options; robust) or ``"first"`` (the first uncovered item in the
    problem's order, unless a move is forced: on boards listed row by row
    this sweeps a frontier and meets the same sub-problems most often). A
    ``nodes`` or ``seconds`` budget that runs out raises `LimitReached`
    with the solutions counted so far.

    >>> from covering.puzzles.polyomino import l_tromino
    >>> count_memo(l_tromino(9)), count_memo(l_tromino(9), branching="first", memo_bytes=4096)
    (1193600, 1193600)
    """
    counter = _core.MemoCount(problem.compile(), memo_budget(memo_bytes), branching)
    run = limits.begin(None, nodes, seconds)
    try:
        total = counter.run(run)
    except KeyboardInterrupt:
        raise Interrupted(int(counter.partial), counter.stats) from None
    if total is None:
        raise LimitReached(
            f"budget reached after {counter.partial} solutions", count=counter.partial, stats=counter.stats,
            budget=run.ran_out(),
        )
    return int(total)
