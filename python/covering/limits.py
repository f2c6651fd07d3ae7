"""Every number that crosses into the engine, read by one set of rules.

Limits, budgets, seeds, thread counts and option ids come from users (the
API and the command line alike) and go to Rust, which takes 64-bit words.
Each is read here, so that every path gives the same answer and the same
message:

* a **limit** or **node budget** is a non-negative integer, or None for
  none; one past what a 64-bit counter can reach (2**64 and up) can never
  stop a search, so it is the same as None: handled exactly, not refused;
* a **time budget** (``seconds``) is a non-negative real number; ``inf``
  (and anything longer than a century) means no limit; NaN and negative
  numbers are errors;
* a **seed** is an integer from 0 to 2**64 - 1;
* **threads** run from 1 to `MAX_THREADS`;
* an **option id** lies in ``range(n_options)``, else `OptionIdError` (an
  `IndexError` too) names it and the range.

Errors are `BudgetError` (a `ProblemError`, so a `ValueError`), naming the
argument, the value and the rule. The size guards are in `covering.sizes`.

>>> limit(2**70), seconds(float("inf")), seconds(1.5)
(None, None, 1.5)
>>> try:
...     seconds(float("nan"))
... except BudgetError as e:
...     print(e)
seconds: must be a non-negative number of seconds, not nan
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import _core
from .errors import OptionIdError, ProblemError

__all__ = ["BudgetError", "Budget", "within", "stopped_by", "over", "ran_out", "limit", "nodes", "conflicts", "seconds", "seed",
           "threads", "option_id", "option_ids", "MAX_THREADS"]

#: The engine's counters are 64-bit: a limit at or past this never stops it.
WORD = 2**64
#: A time budget longer than this (about a century) is no limit.
FOREVER = 3.2e9
#: More threads than this is a mistake, not a machine.
MAX_THREADS = 4096


class BudgetError(ProblemError):
    """A limit, budget, seed or count of threads that cannot be used."""


def _integer(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise BudgetError(f"{name}: must be an integer, not {value!r}")
    return int(value)


def limit(value: object, name: str = "limit") -> int | None:
    """A count limit: None, or an integer >= 0; 2**64 and past are None.

    >>> limit(None), limit(3), limit(2**64)
    (None, 3, None)
    """
    if value is None:
        return None
    n = _integer(name, value)
    if n < 0:
        raise BudgetError(f"{name}: must be at least 0, not {n}")
    return None if n >= WORD else n


def nodes(value: object, name: str = "nodes") -> int | None:
    """A node budget: the same rules as `limit`.

    >>> nodes(0), nodes(10**30), nodes(None)
    (0, None, None)
    """
    return limit(value, name)


def conflicts(value: object, name: str = "conflicts") -> int | None:
    """A conflict budget of the CDCL solver: as a node budget.

    >>> conflicts(1000), conflicts(2**64)
    (1000, None)
    """
    return limit(value, name)


def seconds(value: object, name: str = "seconds") -> float | None:
    """A time budget: None, or a real number >= 0; infinite (or longer than
    a century) is None.

    >>> seconds(0), seconds(1e20)
    (0.0, None)
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise BudgetError(f"{name}: must be a number of seconds, not {value!r}")
    s = float(value)
    if math.isnan(s) or s < 0:
        raise BudgetError(f"{name}: must be a non-negative number of seconds, not {value!r}")
    return None if s > FOREVER else s


def ran_out(deadline: float | None) -> str:
    """What stopped a search that stopped early under a node budget and a
    `deadline` (`time.monotonic()`): ``"seconds"`` if the time is up, else
    ``"nodes"`` (for `LimitReached.budget`).

    >>> ran_out(None), ran_out(0.0)
    ('nodes', 'seconds')
    """
    # The engine checks its deadline in slices: a stop within 2 ms of it is the time.
    return "seconds" if deadline is not None and time.monotonic() >= deadline - 2e-3 else "nodes"


_time_budget = seconds  # (Budget.of takes a keyword of the same name)


@dataclass
class Budget:
    """The budgets of one run, as one value made once (by the command line
    from its flags, or from an API call's keywords) and passed down:
    `nodes` for each search, a `deadline` (`time.monotonic()`) for the
    whole run, a `memory` limit in bytes, and a `stop` flag that Ctrl-C or
    the deadline sets. `spent` names what ran out (``"seconds"``,
    ``"nodes"``, ``"memory"``, ``"conflicts"``, ``"interrupt"``), and `flag`
    how the user wrote it, for messages.

    >>> b = Budget.of(seconds=10, nodes=500)
    >>> b.nodes, 9 < b.left() <= 10, b.spent
    (500, True, None)
    >>> Budget.of(seconds=float("inf")).left() is None
    True
    """

    nodes: int | None = None
    deadline: float | None = None
    memory: int | None = None
    seconds_given: float | None = None
    #: Seen by the engines between their slices (`_core.StopFlag`).
    stop: _core.StopFlag = field(default_factory=_core.StopFlag)
    spent: str | None = None

    @classmethod
    def of(cls, *, seconds: object = None, nodes: object = None, memory: int | None = None,
           started: float | None = None) -> Budget:
        """From the user's numbers, read by this module's rules; the time
        counts from `started` (`time.monotonic()`; default now)."""
        s = _time_budget(seconds, "--seconds")
        start = time.monotonic() if started is None else started
        return cls(limit(nodes, "--nodes"), None if s is None else start + s, memory, s)

    def left(self) -> float | None:
        """Seconds left (None: no time budget), never below 0."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def ring(self, what: str) -> None:
        """`what` ran out: the run is to stop."""
        if self.spent is None:
            self.spent = what
        self.stop.set()

    def stopped(self) -> str | None:
        """What ran out, once the stop flag is up (else None)."""
        return (self.spent or "interrupt") if self.stop.is_set() else None

    def flag(self) -> str:
        """What ran out, as the command line's flag (``--seconds 10``)."""
        if self.spent == "seconds" and self.seconds_given is not None:
            return f"--seconds {self.seconds_given:g}"
        if self.spent == "nodes" and self.nodes is not None:
            return f"--nodes {self.nodes}"
        return f"--{self.spent}" if self.spent else "a budget"


def within(budget: Budget | None, nodes: int | None, seconds: float | None
           ) -> tuple[int | None, float | None, _core.StopFlag | None]:
    """A call's own budgets (`nodes`, `seconds`, read already) inside a
    run's `budget`: the tighter of each, and the run's stop flag for the
    engine, which it watches between slices.

    >>> b = Budget.of(nodes=100, seconds=50)
    >>> n, s, stop = within(b, 500, 60.0)
    >>> n, 49 < s <= 50, stop.is_set()
    (100, True, False)
    >>> within(None, 5, None)
    (5, None, None)
    """
    if budget is None:
        return nodes, seconds, None
    n = budget.nodes if nodes is None else nodes if budget.nodes is None else min(nodes, budget.nodes)
    left = budget.left()
    s = left if seconds is None else seconds if left is None else min(seconds, left)
    return n, s, budget.stop


def stopped_by(budget: Budget | None, deadline: float | None) -> str:
    """What stopped a search that ended early: the run's budget if it was
    spent (its stop flag up), else as `ran_out` says."""
    spent = None if budget is None else budget.stopped()
    return ran_out(deadline) if spent is None else spent


def over(budget: Budget | None, deadline: float | None) -> bool:
    """Is the time up (`deadline`, `time.monotonic()`), or the run's stop
    flag up? (Between two slices of a count driven from here.)

    >>> over(None, None), over(None, 0.0), over(Budget.of(seconds=10), None)
    (False, True, False)
    """
    return (deadline is not None and time.monotonic() >= deadline) or (
        budget is not None and budget.stop.is_set())


def seed(value: object, name: str = "seed") -> int | None:
    """A random seed: None, or an integer from 0 to 2**64 - 1.

    >>> seed(7)
    7
    """
    if value is None:
        return None
    n = _integer(name, value)
    if not 0 <= n < WORD:
        raise BudgetError(f"{name}: must be from 0 to {WORD - 1}, not {n}")
    return n


def threads(value: object, name: str = "threads") -> int:
    """A number of threads, 1 to `MAX_THREADS`.

    >>> threads(2)
    2
    """
    n = _integer(name, value)
    if not 1 <= n <= MAX_THREADS:
        raise BudgetError(f"{name}: must be from 1 to {MAX_THREADS}, not {n}")
    return n


def option_id(value: object, n_options: int, name: str = "option") -> int:
    """An option id in ``range(n_options)``.

    >>> try:
    ...     option_id(99, 4)
    ... except IndexError as e:
    ...     print(e)
    option 99: no such option; the ids are 0 to 3
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise OptionIdError(f"{name} {value!r}: an option id is an integer")
    o = int(value)
    if not 0 <= o < n_options:
        ids = f"the ids are 0 to {n_options - 1}" if n_options else "there are no options"
        raise OptionIdError(f"{name} {o}: no such option; {ids}")
    return o


def option_ids(values: Iterable[object], n_options: int, name: str = "option") -> list[int]:
    """Each of `values` checked by `option_id`.

    >>> option_ids([0, 2], 3)
    [0, 2]
    """
    return [option_id(v, n_options, name) for v in values]
