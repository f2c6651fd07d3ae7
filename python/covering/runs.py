"""What the runs of one owner did: the last search started and the
engines its automatic choice left out. The problem's data knows nothing
of searches; a `Problem` keeps a `Runs` beside its data (its `stats` and
`skipped`) and hands it to each verb it runs.

>>> from covering.model import ProblemData
>>> from covering.solver import Solver
>>> runs = Runs()
>>> solver = Solver(ProblemData.from_arrays(["A"], [0, 1], [0]))
>>> runs.remember(solver); solver.count(), runs.stats.solutions
(1, 1)
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["Runs", "Search", "remember"]


class Search(Protocol):
    """What a record of runs knows of a search: its cost counters."""

    @property
    def stats(self) -> Any: ...


class Runs:
    """The last search started by a verb (its counters are `stats`, live
    while it runs) and what the last automatic choice left out."""

    def __init__(self) -> None:
        self.last: Search | None = None
        self._skipped: list[dict[str, Any]] = []

    @property
    def stats(self) -> Any:
        """The cost counters of the last search started, None before any."""
        return None if self.last is None else self.last.stats

    @property
    def skipped(self) -> list[dict[str, Any]]:
        """The engines the last automatic choice (of the last portfolio
        run) left out, and why: ``{"engine": "sat", "estimate": bytes,
        "why": ...}`` (its memory or its time would not fit)."""
        return list(self._skipped)

    def remember(self, search: Search) -> None:
        """`search` is the last one started (its counters are `stats`)."""
        self.last = search

    def begin(self) -> None:
        """A portfolio run starts: what the last one left out is forgotten."""
        self._skipped.clear()

    def note_skipped(self, engine: str, estimate: int, why: str) -> None:
        """The automatic choice left `engine` out (see `skipped`)."""
        self._skipped.append({"engine": engine, "estimate": estimate, "why": why})


def remember(runs: Runs | None, search: Search) -> None:
    """`runs.remember(search)`, where a caller keeps a record of its runs."""
    if runs is not None:
        runs.remember(search)
