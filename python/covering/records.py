"""Values that do not change once made, without `dataclasses`.

A frozen dataclass is made by compiling its methods (about a millisecond
each on a slow core), and the module `dataclasses` imports `inspect` (with
`ast`, `dis` and `tokenize`): together a fifth of a command's start. The
classes every command makes at import (`covering.limits.Budget`,
`covering.reduction.Reduction`, `covering.counting.Counted`, the Sudoku,
Akari and queens puzzles) take their behaviour from `Frozen` instead:
fields named in `_fields`, set once by the class's own ``__init__``,
equality, hash and repr by value, and `_replace`. (docs/notes/start-up.md
has the figures.)

>>> class Point(Frozen):
...     _fields = ("x", "y")
...     def __init__(self, x: int, y: int = 0) -> None:
...         self._set(x=x, y=y)
>>> p = Point(1, 2)
>>> p, p == Point(1, 2), p._replace(y=5)
(Point(x=1, y=2), True, Point(x=1, y=5))
>>> try:
...     p.x = 3
... except AttributeError as e:
...     print(e)
a Point is not changed once made (its x): make another
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["Frozen"]

if TYPE_CHECKING:
    # (For the checker only: a bound named by a string is compiled when the
    # TypeVar is made, 1.5 ms of every command's start.)
    F = TypeVar("F", bound="Frozen")


class Frozen:
    """A value of the fields `_fields`, as a frozen dataclass's (see the
    module). Subclasses set their fields with `_set` in ``__init__``; other
    attributes (caches) go in by ``object.__setattr__``."""

    _fields: tuple[str, ...] = ()

    def _set(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def _replace(self: F, **changes: Any) -> F:
        """This value with some fields changed, made again by ``__init__``
        (so its checks run)."""
        fields = dict(zip(self._fields, self._values()))
        fields.update(changes)
        return type(self)(**fields)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is not changed once made (its {name}): make another")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is not changed once made (its {name}): make another")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"
