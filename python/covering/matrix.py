"""`Problem.from_matrix`: a problem from a 0/1 matrix (rows are options).

numpy and scipy are optional: a list of lists works too, and neither is
imported unless the matrix is one of theirs.

>>> from covering.matrix import from_matrix
>>> p = from_matrix([[1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]])
>>> sorted(p.solutions())
[[0, 1], [2, 3]]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .errors import ProblemError

if TYPE_CHECKING:
    from .problem import Problem

__all__ = ["from_matrix"]


def _rows(matrix: Any) -> tuple[int, Iterator[list[int]]]:
    """(number of columns, the column indices of the ones of each row)."""
    if hasattr(matrix, "tocsr"):  # scipy.sparse
        csr = matrix.tocsr()
        csr.sum_duplicates()
        n_cols = csr.shape[1]

        def sparse_rows() -> Iterator[list[int]]:
            for r in range(csr.shape[0]):
                a, b = csr.indptr[r], csr.indptr[r + 1]
                cols, vals = csr.indices[a:b], csr.data[a:b]
                for c, v in zip(cols, vals):
                    if v not in (0, 1):
                        raise ProblemError(f"row {r}, column {c}: {v!r} is not 0 or 1")
                yield sorted(int(c) for c, v in zip(cols, vals) if v)

        return n_cols, sparse_rows()
    if hasattr(matrix, "shape") and hasattr(matrix, "tolist"):  # numpy
        if len(matrix.shape) != 2:
            raise ProblemError(f"the matrix must have two dimensions, not {len(matrix.shape)}")
        matrix = matrix.tolist()
    rows = [list(row) for row in matrix]
    n_cols = len(rows[0]) if rows else 0

    def dense_rows() -> Iterator[list[int]]:
        for r, row in enumerate(rows):
            if len(row) != n_cols:
                raise ProblemError(f"row {r} has {len(row)} columns, row 0 has {n_cols}")
            for c, v in enumerate(row):
                if v not in (0, 1):
                    raise ProblemError(f"row {r}, column {c}: {v!r} is not 0 or 1")
            yield [c for c, v in enumerate(row) if v]

    return n_cols, dense_rows()


def from_matrix(matrix: Any, *, secondary: Iterable[int] = (), names: Sequence[Hashable] | None = None) -> Problem:
    """See `Problem.from_matrix`."""
    import warnings

    from .errors import OptionSkippedWarning
    from .problem import Problem

    n_cols, rows = _rows(matrix)
    second = set(secondary)
    bad = [c for c in second if not (isinstance(c, int) and 0 <= c < n_cols)]
    if bad:
        raise ProblemError(f"secondary column {bad[0]!r} is not a column of a matrix with {n_cols} columns")
    if names is None:
        names = list(range(n_cols))
    elif len(names) != n_cols:
        raise ProblemError(f"{len(names)} names for {n_cols} columns")
    p = Problem()
    p.add_primary([names[c] for c in range(n_cols) if c not in second])
    p.add_secondary([names[c] for c in range(n_cols) if c in second])
    for r, cols in enumerate(rows):
        if not any(c not in second for c in cols):
            warnings.warn(f"row {r} has no primary item and is skipped", OptionSkippedWarning, stacklevel=3)
            continue
        p.add_option([names[c] for c in cols], label=r)
    return p
