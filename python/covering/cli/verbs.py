"""The verbs written once over the puzzle protocol (`covering.puzzles.base`):
a command reads its puzzles and says how an answer looks; these call the
protocol's methods with the run's budget and report through `Run`.

>>> from covering.puzzles.queens import Queens
>>> run = Run("queens solve", json=True)
>>> solve_each(run, [(0, Queens(4))], None, lambda k, p, found: ({"found": len(found)}, None))
{"found": 2, "count": 2}
>>> run.count
1
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from ..errors import Interrupted, LimitReached
from ..limits import Budget
from . import budget
from .contract import Run

__all__ = ["solve_each", "count_each"]


class Puzzle(Protocol):
    """What these verbs ask of a puzzle: the protocol's `solutions` and
    `count` (`covering.puzzles.base.Puzzle`), with the run's budget."""

    def solutions(self, limit: int | None = None, /, *, budget: Budget | None = None) -> Iterator[Any]: ...

    def count(self, limit: int | None = None, /, *, budget: Budget | None = None) -> int: ...

#: How one puzzle's answer looks: (index, puzzle, what was found) to the
#: JSON record and the text (either may be None).
Show = Callable[[int, Any, list[Any]], "tuple[dict[str, Any] | None, str | None]"]


def solve_each(run: Run, puzzles: Iterable[tuple[int, Puzzle]], want: int | None, show: Show) -> None:
    """Up to `want` solutions of each puzzle (`Puzzle.solutions`), each
    puzzle answered once (`show`), its record given ``"count"`` and, when
    `want` cut it, ``"stopped": "limit"``. A puzzle cut short by Ctrl-C or
    the budget shows what it found, if anything (never "no solution"),
    before the cut goes on up."""
    for k, puzzle in puzzles:
        found: list[Any] = []
        complete = False
        try:
            for solution in puzzle.solutions(want, budget=run.budget):
                found.append(solution)
            complete = True
        finally:
            if complete or found:
                record, text = show(k, puzzle, found)
                if record is not None:
                    record["count"] = len(found)
                    if want is not None and len(found) >= want:
                        record["stopped"] = run.stopped = "limit"
                run.answer(record, text)


def count_each(run: Run, puzzles: Iterable[tuple[int, Puzzle]], limit: int | None,
               name: Callable[[int], dict[str, Any]], where: Callable[[int], str]) -> None:
    """The count of each puzzle (`Puzzle.count`, at most `limit`), one line
    each (`name(k)` the keys that name puzzle k in its record, `where(k)`
    the words for messages). A count cut short by Ctrl-C or the budget is
    printed as partial before the cut goes on up."""
    for k, puzzle in puzzles:
        try:
            n = puzzle.count(limit, budget=run.budget)
        except (Interrupted, LimitReached) as e:
            # The counts printed stand; the puzzle under way, as a partial count.
            if run.json:
                run.emit({**name(k), "count": e.count, "complete": False})
            elif e.count is not None:
                print(e.count, flush=True)
            run.partial = f"{where(k)}: {e.count} solutions so far"
            raise
        capped = limit is not None and n >= limit
        run.answer({**name(k), "count": n, "complete": True, **({"stopped": "limit"} if capped else {})}, f"{n}\n")
        if capped:
            run.stopped = "limit"
            print(f"covering: the count of {where(k)} stopped at {n} (--limit {limit}): there may be more",
                  file=sys.stderr)
