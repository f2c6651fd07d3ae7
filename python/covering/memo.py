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
A memo count goes through the front door like every count:
``Problem.count(method="memo", branching=..., memo_bytes=...)``.
"""

from __future__ import annotations

from . import _core, limits, sizes

__all__ = ["memo_budget"]


def memo_budget(memo_bytes: int | None, memory: int | None = None) -> int:
    """The memo's budget in bytes: ``memo_bytes``, or the engine's default
    for None (``xc::memo_budget``), within the run's `memory` limit (None:
    `covering.sizes.max_memory`).

    >>> memo_budget(None, 1 << 20), memo_budget(0), memo_budget(10**30, 1 << 20)
    (524288, 0, 1048576)
    """
    # Past the run's memory the memo evicts instead: the count stays exact,
    # only slower.
    n = limits.limit(memo_bytes, "memo_bytes")
    asked = None if memo_bytes is None else limits.WORD if n is None else n  # (2**64 and past: all there is)
    return _core.memo_budget(asked, sizes.max_memory() if memory is None else memory)
