"""Sudoku on any regions: jigsaw, X, windoku, the overlapping grids
(samurai, butterfly, ...) and killer cages, on the puzzle protocol.

`model` holds the puzzle (`RegionSudoku`) and its exact cover problem,
`layouts` the named region sets, `reading` the JSON form.

>>> from covering.puzzles.regions import layouts
>>> layouts.x("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......").count(2)
0
"""

from .model import Cage, RegionSudoku, RegionSudokuError, cell_name

__all__ = ["Cage", "RegionSudoku", "RegionSudokuError", "cell_name"]
