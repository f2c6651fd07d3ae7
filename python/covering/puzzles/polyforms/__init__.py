"""Polyforms on every lattice: tilings of a board with pieces on the
square, triangle, hexagon and cube lattices and with polysticks, counted
all and up to the board's symmetries (`model`), the lattices themselves
(`lattice`), named piece sets (`sets`), JSON puzzles (`reading`) and
pictures (`pictures`).
"""

from .lattice import LATTICES, Lattice
from .model import PolyformError, PolyformPuzzle

__all__ = ["LATTICES", "Lattice", "PolyformError", "PolyformPuzzle"]
