"""`Problem.from_matrix`: a problem from a 0/1 matrix (rows are options).

numpy and scipy are optional: a list of lists works too, and neither is
imported unless the matrix is one of theirs. numpy and scipy matrices are
read with their own vector operations and handed to the bulk builder
(`ProblemData.add_options`): no Python call per row.

>>> from covering.matrix import from_matrix
>>> p = from_matrix([[1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]])
>>> p.option(3), p.labels
([(1, None), (2, None)], [0, 1, 2, 3])
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, TypeVar

from .errors import OptionSkippedWarning, ProblemError, warn
from .model import ProblemData

__all__ = ["from_matrix"]

P = TypeVar("P", bound=ProblemData)

#: Rows without primary item named in the warning at most.
_NAMED = 5


def _csr(matrix: Any) -> tuple[int, int, Any, Any]:
    """(rows, columns, row starts, column of each one) of a 0/1 matrix."""
    if hasattr(matrix, "tocsr"):  # scipy.sparse
        csr = matrix.tocsr()
        csr.sum_duplicates()
        bad = (csr.data != 0) & (csr.data != 1)
        if bad.any():
            k = int(bad.nonzero()[0][0])
            r = int((csr.indptr <= k).sum()) - 1
            raise ProblemError(f"row {r}, column {int(csr.indices[k])}: {csr.data[k]!r} is not 0 or 1")
        csr.eliminate_zeros()
        csr.sort_indices()
        return csr.shape[0], csr.shape[1], csr.indptr, csr.indices
    if hasattr(matrix, "shape") and hasattr(matrix, "nonzero"):  # numpy
        if len(matrix.shape) != 2:
            raise ProblemError(f"the matrix must have two dimensions, not {len(matrix.shape)}")
        import numpy as np

        bad = (matrix != 0) & (matrix != 1)
        if bad.any():
            r, c = (int(x[0]) for x in bad.nonzero())
            raise ProblemError(f"row {r}, column {c}: {matrix[r, c]!r} is not 0 or 1")
        rows, cols = matrix.nonzero()
        start = np.zeros(matrix.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=matrix.shape[0]), out=start[1:])
        return matrix.shape[0], matrix.shape[1], start, cols
    rows = [list(row) for row in matrix]
    n_cols = len(rows[0]) if rows else 0
    starts: list[int] = [0]
    items: list[int] = []
    for r, row in enumerate(rows):
        if len(row) != n_cols:
            raise ProblemError(f"row {r} has {len(row)} columns, row 0 has {n_cols}")
        for c, v in enumerate(row):
            if v not in (0, 1):
                raise ProblemError(f"row {r}, column {c}: {v!r} is not 0 or 1")
        items.extend(c for c, v in enumerate(row) if v)
        starts.append(len(items))
    return len(rows), n_cols, starts, items


def from_matrix(matrix: Any, *, secondary: Iterable[int] = (), names: Sequence[Hashable] | None = None,
                cls: type[P] = ProblemData) -> P:  # type: ignore[assignment]
    """See `Problem.from_matrix`; the problem is of class `cls`."""
    n_rows, n_cols, start, cols = _csr(matrix)
    second = set(secondary)
    bad = [c for c in second if not (isinstance(c, int) and 0 <= c < n_cols)]
    if bad:
        raise ProblemError(f"secondary column {bad[0]!r} is not a column of a matrix with {n_cols} columns")
    if names is None:
        names = list(range(n_cols))
    elif len(names) != n_cols:
        raise ProblemError(f"{len(names)} names for {n_cols} columns")
    # Columns to the engine's numbers: primary columns first, in order.
    order = [c for c in range(n_cols) if c not in second] + sorted(second)
    number = [0] * n_cols
    for k, c in enumerate(order):
        number[c] = k
    if hasattr(cols, "dtype"):
        import numpy as np

        item: Any = np.asarray(number, dtype=np.uint32)[cols] if n_cols else cols
    else:
        item = [number[c] for c in cols]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OptionSkippedWarning)
        p = cls.from_arrays([names[c] for c in order[: n_cols - len(second)]], start, item,
                            secondary=[names[c] for c in order[n_cols - len(second):]], labels=range(n_rows))
    if caught:
        # The builder names options by row already; say "row" as a matrix does.
        message = str(caught[0].message).replace("option ", "row ")
        warn(message, OptionSkippedWarning)
    return p
