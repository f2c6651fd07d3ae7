"""Puzzles with one solution for a layout of regions: a random solution of
the empty layout, then its givens taken away in a random order while the
solution stays unique (each removal proven by the portfolio of
`RegionSudoku.uniqueness`), down to ``min_givens``. Every step is fixed by
the seed: the same seed makes the same puzzle.

>>> from covering.puzzles.regions import layouts
>>> g = generate(layouts.classic(4), seed=3)
>>> g.puzzle.uniqueness().name, g.puzzle.check(g.solution), len(g.puzzle.givens) < 16
('UNIQUE', [], True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ... import limits
from ...problem import Uniqueness
from .model import RegionSudoku, RegionSudokuError

__all__ = ["Generated", "generate"]


@dataclass(frozen=True)
class Generated:
    """A generated puzzle, its solution, and the seed that made it."""

    puzzle: RegionSudoku
    solution: RegionSudoku
    seed: int


def generate(layout: RegionSudoku, seed: int | None = None, min_givens: int = 0,
             budget: limits.Budget | None = None) -> Generated:
    """A puzzle of `layout`'s cells, regions and cages (its givens kept as
    givens) with exactly one solution, from `seed` (None: a fresh one);
    givens are taken away until none can go, or `min_givens` remain.

    >>> from covering.puzzles.regions import layouts
    >>> generate(layouts.x(n=4), seed=1).puzzle.text() == generate(layouts.x(n=4), seed=1).puzzle.text()
    True
    """
    seed = random.randrange(2**63) if seed is None else limits.seed(seed)
    assert seed is not None
    run = limits.begin(budget)
    rng = random.Random(seed)
    solution = next(layout.random(1, seed=rng.randrange(2**63), budget=run), None)
    if solution is None:
        raise RegionSudokuError("the layout has no solution: no puzzle can be made of it")
    values = dict(solution.givens)
    order = [c for c in layout.cells if c not in layout.givens]
    rng.shuffle(order)
    for cell in order:
        if len(values) <= min_givens:
            break
        kept = values.pop(cell)
        trial = RegionSudoku(layout.symbols, layout.cells, layout.regions, values, layout.cages)
        if trial.uniqueness(budget=run) is not Uniqueness.UNIQUE:
            values[cell] = kept
    puzzle = RegionSudoku(layout.symbols, layout.cells, layout.regions, dict(values), layout.cages)
    return Generated(puzzle, solution, seed)
