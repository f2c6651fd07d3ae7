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

from ._core import CompiledProblem, Stats
from .errors import (
    BoundsError,
    Cancelled,
    ColorError,
    CostError,
    DlxSyntaxError,
    DuplicateItemError,
    InputError,
    Interrupted,
    LimitReached,
    MemoryLimitError,
    NameWarning,
    NoPrimaryItemError,
    OptionIdError,
    OptionSkippedWarning,
    ProblemError,
    UnknownItemError,
)
from .limits import BudgetError
from .problem import Problem, Uniqueness
from .sizes import SizeError
from .solver import Solver

#: The version, as in pyproject.toml (a test checks that they agree; reading
#: the installed metadata instead would cost a third of the start-up time).
__version__ = "0.1.0"

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
    "CostError",
    "NoPrimaryItemError",
    "DlxSyntaxError",
    "InputError",
    "Interrupted",
    "OptionIdError",
    "LimitReached",
    "Cancelled",
    "BudgetError",
    "SizeError",
    "MemoryLimitError",
    "OptionSkippedWarning",
    "NameWarning",
    "__version__",
]
