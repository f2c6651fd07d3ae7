"""The rules of exact cover, checked directly, and a brute-force solver.

>>> from covering import Problem
>>> p = Problem(); p.add_primary(["A"], bounds=(0, 2)); p.add_secondary(["x"])
>>> for items in (["A", "x:1"], ["A", "x:1"], ["A", "x"]):
...     _ = p.add_option(items)
>>> brute_force(p)
[(), (0,), (0, 1), (1,), (2,)]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..model import ProblemData

__all__ = ["is_solution", "brute_force"]

_UNCOLORED = object()  # an uncolored use of a secondary item: compatible with nothing


def is_solution(problem: ProblemData, option_ids: Sequence[int]) -> bool:
    """Every primary item covered within its bounds; every secondary item
    unused, or used by options that all give it one same color.

    >>> from covering import Problem
    >>> p = Problem(); p.add_primary(["A", "B"])
    >>> _ = p.add_option(["A"]); _ = p.add_option(["A", "B"])
    >>> is_solution(p, [1]), is_solution(p, [0]), is_solution(p, [0, 1])
    (True, False, False)
    """
    if len(set(option_ids)) != len(option_ids):
        return False
    times = dict.fromkeys(problem.primary, 0)
    color: dict[object, object] = {}
    for o in option_ids:
        if not 0 <= o < problem.n_options:
            return False
        for item, c in problem.option(o):
            if item in times:
                times[item] += 1
                continue
            c = _UNCOLORED if c is None else c
            if item not in color:
                color[item] = c
            elif c is _UNCOLORED or color[item] is _UNCOLORED or color[item] != c:
                return False
    return all(lo <= times[i] <= hi for i in problem.primary for lo, hi in [problem.bounds(i)])


def brute_force(problem: ProblemData) -> list[tuple[int, ...]]:
    """All solutions, by trying every subset of options (2^n of them).

    >>> from covering import Problem
    >>> p = Problem.from_dlx("A B\\nA\\nB\\nA B\\n")
    >>> brute_force(p)
    [(0, 1), (2,)]
    """
    if problem.n_options > 20:
        raise ValueError(f"brute force over {problem.n_options} options would take too long")
    ids = range(problem.n_options)
    return sorted(s for k in range(problem.n_options + 1) for s in combinations(ids, k) if is_solution(problem, s))
