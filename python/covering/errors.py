"""Exceptions and warnings of `covering`.

Every error about bad input is a `ProblemError`, itself a `ValueError`, so an
existing ``except ValueError`` keeps working. The message says where: the
line of a file, the option, the item or the cell.

>>> from covering import Problem, UnknownItemError
>>> p = Problem()
>>> p.add_primary(["A"])
>>> try:
...     p.add_option(["A", "B"])
... except UnknownItemError as e:
...     print(e)
option 0: unknown item 'B'
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

from ._core import ProblemError

__all__ = [
    "ProblemError",
    "UnknownItemError",
    "DuplicateItemError",
    "BoundsError",
    "ColorError",
    "CostError",
    "NoPrimaryItemError",
    "DlxSyntaxError",
    "InputError",
    "MemoryLimitError",
    "OptionIdError",
    "LimitReached",
    "Cancelled",
    "Interrupted",
    "RunIncomplete",
    "SchedulerLost",
    "OptionSkippedWarning",
    "warn",
    "NameWarning",
]


class UnknownItemError(ProblemError):
    """An option names an item that was never declared."""


class DuplicateItemError(ProblemError):
    """An item declared twice, or named twice in one option."""


class BoundsError(ProblemError):
    """Bounds of a primary item that are not ``0 <= lo <= hi``, ``hi >= 1``."""


class ColorError(ProblemError):
    """A color given to a primary item, or an empty color."""


class CostError(ProblemError):
    """An option's cost that is not a whole number from 0 to 2**64 - 1, or
    costs that add up past what the engine holds."""


class NoPrimaryItemError(ProblemError):
    """A problem (or an item line) without any primary item."""


class InputError(ProblemError):
    """Text that cannot be read at all: bytes that are not UTF-8, a control
    character. ``lineno`` is the line (1-based), ``reason`` what is wrong
    there (with the byte or column), so that a caller can name the file."""

    def __init__(self, reason: str, *, lineno: int | None = None) -> None:
        super().__init__(reason if lineno is None else f"line {lineno}, {reason}")
        self.lineno = lineno
        self.reason = reason


class DlxSyntaxError(ProblemError):
    """A line of a ``.dlx`` file that cannot be read."""


class OptionIdError(ProblemError, IndexError):
    """An option id out of range (in `Zdd.count`, `Solver.force`, ...): both
    a `ProblemError` (a `ValueError`) and an `IndexError`."""


class LimitReached(Exception):
    """A node or time budget stopped a count before the end.

    The count so far is a lower bound, not an answer, so it is carried here
    rather than returned: ``e.count`` (None where no partial count is known,
    as in a frontier count) and ``e.stats``; ``e.budget`` names what ran
    out: ``"nodes"``, ``"seconds"``, ``"memory"``, ``"conflicts"`` or
    ``"interrupt"`` (`cancel()`).
    """

    def __init__(self, message: str, count: int | None, stats: Any, where: str | None = None,
                 budget: str = "nodes") -> None:
        super().__init__(message)
        self.count = count
        self.stats = stats
        #: How far the work got, where no partial count is known.
        self.where = where
        #: What ran out.
        self.budget = budget

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.count, self.stats, self.where, self.budget))


class Cancelled(LimitReached):
    """`cancel()` stopped a search before the end (``e.count`` solutions
    were found by then); a `LimitReached`, since the count is as partial."""

    def __init__(self, message: str, count: int | None, stats: Any, where: str | None = None,
                 budget: str = "interrupt") -> None:
        super().__init__(message, count, stats, where, budget)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a count: still a `KeyboardInterrupt`, carrying what was
    found by then, ``e.count`` (a lower bound: a partial count), or None
    where no partial count is known (a frontier count), ``e.where`` then
    saying how far it got."""

    def __init__(self, count: int | None, stats: Any = None, where: str | None = None) -> None:
        super().__init__(f"interrupted: {count} found so far (a partial count)" if count is not None
                         else f"interrupted at {where or 'the count'} (no partial count)")
        self.count = count
        self.stats = stats
        self.where = where

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.count, self.stats, self.where))


class RunIncomplete(RuntimeError):
    """The run could not complete for a reason outside the input: a lost
    cluster scheduler, a checkpoint held by another run. What was finished
    stays in the checkpoint (CLI exit status 1)."""


class MemoryLimitError(RunIncomplete):
    """An engine that would hold more memory than this process may use
    (`covering.sizes.max_memory`), refused before it is built; the message
    names the estimate and the limit (CLI exit status 1)."""


class SchedulerLost(RunIncomplete):
    """The Dask scheduler stopped answering for longer than allowed."""


class OptionSkippedWarning(UserWarning):
    """An option without primary item was skipped (as Knuth's programs do)."""


class NameWarning(UserWarning):
    """A ``.dlx`` file written with names or colors Knuth's programs cannot read."""


#: The package's folder: frames from files under it are the library's own.
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message: str, category: type[Warning]) -> None:
    """Warns `message`, pointed at the caller's line: the first frame of
    the stack outside this package (never one of the library's own lines,
    however deep the call that warns).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("here", NameWarning)
    >>> caught[0].filename.startswith(_PACKAGE)
    False
    """
    frame = sys._getframe(1)
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    warnings.warn(message, category, stacklevel=level)
