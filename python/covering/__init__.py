"""covering: exact cover problems and the puzzles built on them.

Knuth's Algorithm X with dancing links (and its descendants: secondary
items, colors, multiplicities) in a Rust engine, driven from Python.

>>> from covering import Problem
>>> p = Problem()
>>> p.add_primary(["A", "B", "C"])
>>> for items in (["A", "B"], ["C"], ["A"], ["B", "C"]):
...     _ = p.add_option(items)
>>> p.count()
2
"""

from importlib.metadata import PackageNotFoundError, version

from ._core import CompiledProblem, Stats
from .errors import (
    BoundsError,
    ColorError,
    DlxSyntaxError,
    DuplicateItemError,
    LimitReached,
    NameWarning,
    NoPrimaryItemError,
    OptionSkippedWarning,
    ProblemError,
    UnknownItemError,
)
from .problem import Problem, Uniqueness
from .solver import Solver

try:
    __version__ = version("covering")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "Problem",
    "Solver",
    "Uniqueness",
    "CompiledProblem",
    "Stats",
    "ProblemError",
    "UnknownItemError",
    "DuplicateItemError",
    "BoundsError",
    "ColorError",
    "NoPrimaryItemError",
    "DlxSyntaxError",
    "LimitReached",
    "OptionSkippedWarning",
    "NameWarning",
    "__version__",
]
