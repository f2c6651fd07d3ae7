"""Queens: n-queens as exact cover, a fast counter, and the
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

from collections.abc import Iterator, Sequence

from .. import _core, limits, sizes
from ..errors import Interrupted, LimitReached, ProblemError
from ..limits import Budget
from ..problem import Problem
from ..records import Frozen
from .base import ExactCover

__all__ = ["Queens", "queens_problem", "solutions", "count", "infinite", "board_text", "QueensError"]

class QueensError(ProblemError):
    """A board size or a number of terms that cannot be used."""


def check_terms(terms: int) -> int:
    """`terms` of the infinite sequence, if the engine's state for that many
    fits in memory (`covering.sizes`).

    >>> check_terms(10**7)
    10000000
    """
    if isinstance(terms, bool) or not isinstance(terms, int) or terms < 0:
        raise QueensError(f"the number of terms must be an integer >= 0, not {terms!r}")
    sizes.check(f"the first {terms} terms of the infinite queens sequence", _core.queens_sequence_bytes(terms))
    return terms


def queens_problem(n: int) -> Problem:
    """Knuth's encoding: rows ``r0..`` and columns ``c0..`` primary (one
    queen each), diagonals ``a0..`` (i+j) and ``b0..`` (n-1+i-j) secondary (at
    most one each); the option of the square in row i, column j is labelled
    ``(i, j)``.

    >>> sorted(queens_problem(4).first())
    [(0, 1), (1, 3), (2, 0), (3, 2)]
    """
    n = _board_size(n, 2**16)
    sizes.check(f"the {n}-queens problem", _core.queens_bytes(n))
    # The primary items from the middle out, a row then its column (r7 c7 r6
    # c6 r8 c8 ... for 14), as Knuth's QUEENS-DLX lists them: the search
    # breaks ties between items by this order, and the central lines, which
    # constrain most, come first.
    m = n // 2
    middle = sorted(range(n), key=lambda i: 2 * abs(i - m) - (i < m))
    rank = [0] * n
    for t, i in enumerate(middle):
        rank[i] = t
    primary = [f"{kind}{i}" for i in middle for kind in "rc"]
    secondary = [f"a{s}" for s in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    # Numbers: row i is 2 rank(i), column j 2 rank(j) + 1, then the two diagonal families.
    item = [x for i in range(n) for j in range(n)
            for x in (2 * rank[i], 2 * rank[j] + 1, 2 * n + i + j, 4 * n - 1 + n - 1 + i - j)]
    labels = [(i, j) for i in range(n) for j in range(n)]
    return Problem.from_arrays(primary, range(0, 4 * n * n + 1, 4), item, secondary=secondary, labels=labels)


def solutions(n: int) -> list[tuple[int, ...]]:
    """All solutions, each as the row of the queen in each column (0-based),
    in lexicographic order.

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


def count(n: int, threads: int | None = None, *, seconds: float | None = None,
          budget: Budget | None = None) -> int:
    """The number of solutions (OEIS A000170), by the bitboard counter of the
    engine, on `threads` threads (default: ``COVERING_THREADS``, else all
    cores), for 1 <= n <= 32. Ctrl-C stops it within milliseconds and raises
    `Interrupted` (a KeyboardInterrupt) with the solutions counted so far;
    the time (`seconds`, or the run's `budget`) running out raises
    `LimitReached`, with them too.

    >>> [count(n, threads=1) for n in range(1, 9)]
    [1, 0, 0, 2, 10, 4, 40, 92]
    """
    from ..parallel import default_threads

    n = _board_size(n, 32)
    threads = default_threads() if threads is None else limits.threads(threads)
    run = limits.begin(budget, None, seconds)
    total, complete = _core.count_queens(n, threads, run)
    if not complete:
        # The count so far: the solutions found, and the mirror image of each
        # (the counter takes half the first column's rows and doubles them):
        # each a solution, none twice, as the command line prints it.
        if run.over():
            raise LimitReached("budget reached before the count was done", count=total, stats=None,
                               budget=run.ran_out())
        raise Interrupted(total)
    return total


def _board_size(n: object, most: int) -> int:
    """n, checked: an integer from 1 to `most`."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
        raise QueensError(f"n must be an integer from 1 to {most}, not {n!r}")
    return n


def infinite(terms: int | None = None, *, zero_based: bool = False, batch: int = 1 << 16) -> Iterator[int]:
    """The infinite queens sequence (OEIS A065188): for columns 1, 2, ..., the
    lowest row not attacked by the queens already placed (Knuth's Algorithm G,
    in the engine). 1-based as in TAOCP and OEIS (q_1 = 1); with
    ``zero_based``, rows from 0 (0 2 4 1 3 ...). Without `terms`,
    it never ends.

    >>> list(infinite(10, zero_based=True))
    [0, 2, 4, 1, 3, 8, 10, 12, 14, 5]
    """
    left = None if terms is None else check_terms(terms)
    source = _core.InfiniteQueens()
    shift = 1 if zero_based else 0
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


class Queens(Frozen, ExactCover[tuple[int, ...]]):
    """n-queens on the puzzle protocol (`covering.puzzles.base`): a solution
    is the row of the queen in each column, as `solutions` gives them.

    >>> q = Queens(4)
    >>> sorted(q.solutions()), q.count()
    ([(1, 3, 0, 2), (2, 0, 3, 1)], 2)
    >>> q.check((1, 3, 0, 1))  # doctest: +NORMALIZE_WHITESPACE
    ['two queens in row 2', 'the queens of columns 2 and 4 share a diagonal',
     'the queens of columns 3 and 4 share a diagonal']
    """

    # (A `Frozen` value, not a dataclass: `covering.records`.)
    _fields = ("n",)
    n: int

    def __init__(self, n: int) -> None:
        _board_size(n, 2**16)
        self._set(n=n)

    def problem(self) -> Problem:
        return queens_problem(self.n)

    def decode(self, ids: Sequence[int]) -> tuple[int, ...]:
        rows = [0] * self.n
        for o in ids:
            i, j = divmod(o, self.n)  # option i * n + j is the square (i, j)
            rows[j] = i
        return tuple(rows)

    def count(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None, threads: int | None = None) -> int:
        """The number of solutions, by the method `counter` names: the
        bitboard counter (`count`, on `threads` threads; None: every core)
        or the engine.

        >>> Queens(8).count(), Queens(8).count(10), Queens(8).count(nodes=10**6)
        (92, 10, 92)
        """
        run = limits.begin(budget, nodes, seconds)
        if self.counter(limit, run) == "bitboards":
            return count(self.n, threads, budget=run)
        return super().count(limit, budget=run)

    def counter(self, limit: int | None = None, budget: Budget | None = None) -> str:
        """The method `count` takes: "bitboards" (the engine's counter, for
        n up to 32: it answers Ctrl-C and the time, but counts no nodes)
        without a limit or a node budget, else "search" (the engine).

        >>> Queens(8).counter(), Queens(8).counter(10), Queens(40).counter()
        ('bitboards', 'search', 'search')
        """
        bits = limit is None and (budget is None or budget.nodes is None) and self.n <= 32
        return "bitboards" if bits else "search"

    def check(self, solution: object, /) -> list[str]:
        """The rules broken: a queen in each column, one in each row, none
        sharing a diagonal."""
        rows = list(solution) if isinstance(solution, (tuple, list)) else []
        if len(rows) != self.n or not all(isinstance(r, int) and 0 <= r < self.n for r in rows):
            return [f"a solution is the row (0 to {self.n - 1}) of the queen in each of the {self.n} columns"]
        broken = [f"two queens in row {r + 1}" for r in sorted(set(rows)) if rows.count(r) > 1]
        for a in range(self.n):
            for b in range(a + 1, self.n):
                if abs(rows[a] - rows[b]) == b - a:
                    broken.append(f"the queens of columns {a + 1} and {b + 1} share a diagonal")
        return broken

    def text(self) -> str:
        """The empty board."""
        return "\n".join(" ".join("." * self.n) for _ in range(self.n))

    def draw(self, solution: object, /) -> str:
        """A solution as a board (`board_text`)."""
        return board_text(tuple(solution))  # type: ignore[arg-type]

    def svg(self, solution: Sequence[int] | None = None, cell: int = 24) -> str:
        """The board as SVG, checkered, with the queens of `solution` if given."""
        n, size = self.n, self.n * cell
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
               f'viewBox="0 0 {size} {size}">']
        for r in range(n):
            for c in range(n):
                fill = "#eeeed2" if (r + c) % 2 == 0 else "#769656"
                out.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="{fill}"/>')
        for c, r in enumerate(solution or ()):
            out.append(f'<circle cx="{c * cell + cell / 2}" cy="{r * cell + cell / 2}" r="{cell / 3}" fill="black"/>')
        out.append("</svg>")
        return "\n".join(out)
