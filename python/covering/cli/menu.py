"""The puzzles of the command line, in the order ``covering --help`` lists
them: for each, the module that builds its parser and runs it, and the line
the help gives it.

A command imports only its own puzzle's module and builds only its parser
(`covering.cli.build_parser`): the other puzzles' modules and parsers took
about 20 ms of a command's 75 (Knuth's smaller instances take 0.1-0.4 s in
all).

>>> PUZZLES["tromino"][0]
'tiling'
"""

from __future__ import annotations

__all__ = ["PUZZLES"]

#: Puzzle -> (module of `covering.cli`, its line in the help).
PUZZLES: dict[str, tuple[str, str]] = {
    "dlx": ("dlx", "exact cover problems in Knuth's .dlx format"),
    "tromino": ("tiling", "L-tromino tilings of an N x N board, less a cell"),
    "polyomino": ("tiling", "tile a board with polyominoes"),
    "queens": ("queens", "n-queens and the infinite queens sequence"),
    "sudoku": ("sudoku", "solve, count and generate sudokus"),
    "akari": ("akari", "Akari (Light Up) puzzles: solve, count, prove unique, generate"),
    "demo": ("demo", "run the examples (quick)"),
}
