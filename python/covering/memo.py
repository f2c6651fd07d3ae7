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

from . import limits, sizes

__all__ = ["MEMO_BYTES", "memo_budget"]

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
