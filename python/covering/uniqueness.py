"""`Uniqueness`: how many solutions a problem has, as far as a search could tell.

>>> Uniqueness.of(1)
<Uniqueness.UNIQUE: 'unique'>
"""

from __future__ import annotations

import enum

__all__ = ["Uniqueness"]


class Uniqueness(enum.Enum):
    """How many solutions a problem has, as far as a search could tell."""

    NONE = "none"
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    #: A budget stopped the search before it could tell.
    UNKNOWN = "unknown"

    @classmethod
    def of(cls, found: int) -> Uniqueness:
        """NONE, UNIQUE or MULTIPLE, for a search that found `found`
        solutions and ended (or stopped at the second).

        >>> Uniqueness.of(0).value, Uniqueness.of(2).value
        ('none', 'multiple')
        """
        return (cls.NONE, cls.UNIQUE, cls.MULTIPLE)[min(found, 2)]
