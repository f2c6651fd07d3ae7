"""Puzzles built on the engine: polyomino tilings, queens, Sudoku, Akari.

Each module turns a puzzle into a `Problem` (short structured item names, so
that ``to_dlx()`` is readable), decodes solutions back into the puzzle's
terms, and draws them as text.
"""

__all__ = ["akari", "base", "polyomino", "queens", "sudoku", "symmetry"]
