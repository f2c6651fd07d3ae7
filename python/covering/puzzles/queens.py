"""Queens (seed 003): n-queens as exact cover, a fast counter, and the
infinite queens sequence of TAOCP 7.2.2.1 (exercises 38 and 42).

>>> queens_problem(8).count()
92
>>> solutions(8)[:2]
[(0, 4, 7, 5, 2, 6, 1, 3), (0, 5, 7, 2, 6, 3, 1, 4)]
>>> count(10)
724
>>> list(infinite(12))
[1, 3, 5, 2, 4, 9, 11, 13, 15, 6, 8, 19]
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from .. import _core
from ..problem import Problem

__all__ = ["queens_problem", "solutions", "count", "infinite", "board_text"]


def queens_problem(n: int) -> Problem:
    """Knuth's encoding: rows ``r0..`` and columns ``c0..`` primary (one
    queen each), diagonals ``a0..`` (i+j) and ``b0..`` (n-1+i-j) secondary (at
    most one each); the option of the square in row i, column j is labelled
    ``(i, j)``.

    >>> sorted(queens_problem(4).first())
    [(0, 1), (1, 3), (2, 0), (3, 2)]
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    p = Problem()
    p.add_primary([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)])
    p.add_secondary([f"a{s}" for s in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)])
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 + i - j}"], label=(i, j))
    return p


def solutions(n: int) -> list[tuple[int, ...]]:
    """All solutions, each as the row of the queen in each column (0-based),
    in lexicographic order, as seed 003 lists them.

    >>> len(solutions(8)), solutions(8)[-1]
    (92, (7, 3, 0, 2, 5, 1, 6, 4))
    """
    out = []
    for s in queens_problem(n).solutions():
        rows = [0] * n
        for i, j in s:
            rows[j] = i
        out.append(tuple(rows))
    return sorted(out)


def count(n: int, threads: int | None = None) -> int:
    """The number of solutions (OEIS A000170), by the bitboard counter of the
    engine, on `threads` threads (default: all cores). Ctrl-C stops it.

    >>> [count(n, threads=1) for n in range(1, 9)]
    [1, 0, 0, 2, 10, 4, 40, 92]
    """
    if threads is None:
        threads = os.cpu_count() or 1
    return _core.count_queens(n, threads)


def infinite(terms: int | None = None, *, zero_based: bool = False, batch: int = 1 << 16) -> Iterator[int]:
    """The infinite queens sequence (OEIS A065188): for columns 1, 2, ..., the
    lowest row not attacked by the queens already placed (Knuth's Algorithm G,
    in the engine). 1-based as in TAOCP and OEIS (q_1 = 1); with
    ``zero_based``, as seed 003 writes it (0 2 4 1 3 ...). Without `terms`,
    it never ends.

    >>> list(infinite(10, zero_based=True))
    [0, 2, 4, 1, 3, 8, 10, 12, 14, 5]
    """
    source = _core.InfiniteQueens()
    shift = 1 if zero_based else 0
    left = terms
    while left is None or left > 0:
        k = batch if left is None else min(batch, left)
        for q in source.take(k):
            yield q - shift
        if left is not None:
            left -= k


def board_text(rows: tuple[int, ...]) -> str:
    """A solution drawn as a board, ``Q`` for a queen (row 0 at the top).

    >>> print(board_text((1, 3, 0, 2)))
    . . Q .
    Q . . .
    . . . Q
    . Q . .
    """
    n = len(rows)
    return "\n".join(" ".join("Q" if rows[c] == r else "." for c in range(n)) for r in range(n))
