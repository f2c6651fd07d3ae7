"""How long the property tests run: a short run by default (``make
test``), the full one under ``make test-long`` (``COVERING_LONG=1``), where
each property gets the examples its test names.

>>> examples(2000) <= 2000
True
"""

from __future__ import annotations

import os

__all__ = ["LONG", "examples"]

LONG = os.environ.get("COVERING_LONG", "") == "1"


def examples(n: int) -> int:
    """`n` examples in a long run, a fifth of them (at least 30) otherwise."""
    return n if LONG else max(30, n // 5)
