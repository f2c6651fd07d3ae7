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

from . import _core
from .errors import OptionIdError, ProblemError
from .records import Frozen
from .sizes import max_memory

__all__ = ["BudgetError", "Budget", "begin", "limit", "nodes", "conflicts", "seconds", "seed",
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


_time_budget = seconds  # (Budget.of takes a keyword of the same name)


class Budget(Frozen):
    """The budgets of one run, as one value made once (by the command line
    from its flags, or from an API call's keywords) and passed down:
    `nodes` for each search, `seconds` from `started` (`time.monotonic()`;
    None until a verb begins the run, `begin`), a `memory` limit in bytes,
    and the `stop` flag that the engines watch. The flag rises at the
    deadline by itself (`_core.StopFlag.arm`), on Ctrl-C, or when a caller
    rings it, and says why (`spent`).

    >>> b = Budget.of(seconds=10, nodes=500)
    >>> b.nodes, b.deadline is None, b.spent
    (500, True, None)
    >>> run = b.begin()
    >>> 9 < run.left() <= 10, run.stop.is_set()
    (True, False)
    >>> Budget.of(seconds=float("inf")).begin().left() is None
    True
    """

    # A `Frozen` value, not a dataclass (`covering.records`: a command's
    # start). `stop` is seen by the engines between their slices.
    _fields = ("nodes", "seconds", "memory", "started", "stop")
    nodes: int | None
    seconds: float | None
    memory: int | None
    started: float | None
    stop: _core.StopFlag

    def __init__(self, nodes: int | None = None, seconds: float | None = None, memory: int | None = None,
                 started: float | None = None, stop: _core.StopFlag | None = None) -> None:
        # Made directly or by `of`, the numbers are read by this module's
        # rules (the engines take 64-bit words: 2**64 and past are no limit).
        self._set(nodes=limit(nodes, "nodes"), seconds=_time_budget(seconds, "seconds"),
                  memory=limit(memory, "memory"), started=started,
                  stop=_core.StopFlag() if stop is None else stop)

    @classmethod
    def of(cls, *, seconds: object = None, nodes: object = None, memory: int | None = None,
           started: float | None = None) -> Budget:
        """From the user's numbers, read by this module's rules. The time
        counts from `started` (`time.monotonic()`) if given, else from
        when a verb begins the run (`begin`).

        >>> Budget.of(nodes=2**70, memory=2**64).nodes is None
        True
        >>> try:
        ...     Budget.of(memory=-1)
        ... except BudgetError as e:
        ...     print(e)
        memory: must be at least 0, not -1
        """
        b = cls(nodes, seconds, memory, started)  # type: ignore[arg-type]  # (read in __post_init__)
        if b.deadline is not None:
            b.stop.arm(max(0.0, b.deadline - time.monotonic()))
        return b

    @property
    def deadline(self) -> float | None:
        """When the time is up (`time.monotonic()`), once started."""
        return None if self.seconds is None or self.started is None else self.started + self.seconds

    def begin(self, *, nodes: int | None = None, seconds: float | None = None) -> Budget:
        """The budget of one call, from its start: this budget, its clock
        started now if it was not, with the call's own `nodes` and `seconds`
        (read already) where they are tighter. Where the call adds a
        deadline of its own, it gets a flag of its own (a child of this
        one's): its time running out stops the call, not the run.

        >>> b = Budget.of(nodes=100).begin(nodes=500, seconds=60.0)
        >>> b.nodes, 59 < b.left() <= 60
        (100, True)
        """
        now = time.monotonic()
        n = self.nodes if nodes is None else nodes if self.nodes is None else min(nodes, self.nodes)
        ends = [t for t in (self.deadline, None if seconds is None else now + seconds) if t is not None]
        if self.started is None and self.seconds is not None:
            ends.append(now + self.seconds)
        deadline = min(ends) if ends else None
        if n == self.nodes and self.started is not None and deadline == self.deadline:
            return self
        stop = self.stop
        if deadline is not None and deadline != self.deadline:
            stop = stop.child()
            stop.arm(max(0.0, deadline - now))
        # (A deadline already past leaves no time, not a negative amount.)
        return Budget(n, None if deadline is None else max(0.0, deadline - now), self.memory, now, stop)

    def capped(self, nodes: int | None) -> Budget:
        """This run with its node budget set to `nodes` (None: none), for
        one engine whose work is counted from its start (a turn of a race,
        a run of the restarts): the same clock and flag.

        >>> Budget.of(nodes=5).capped(100).nodes
        100
        """
        return self._replace(nodes=nodes)

    def memory_limit(self) -> int:
        """The bytes this run may hold: the memory given (the command line's
        ``--max-memory``), else the usual rule (`covering.sizes.max_memory`:
        ``COVERING_MAX_MEMORY``, else half of what the process may use).
        Every engine's memory check takes its limit from here.

        >>> Budget.of(memory=1 << 20).memory_limit()
        1048576
        """
        return max_memory() if self.memory is None else self.memory

    def with_memory(self) -> Budget:
        """This run with its memory limit said (`memory_limit`), for an
        engine that grows its tables as it goes (the frontier, the memo's
        diagram).

        >>> Budget.of(memory=1 << 20).with_memory().memory
        1048576
        """
        if self.memory is not None:
            return self
        return self._replace(memory=self.memory_limit())

    def left(self) -> float | None:
        """Seconds left (None: no time budget), never below 0."""
        end = self.deadline
        return None if end is None else max(0.0, end - time.monotonic())

    @property
    def spent(self) -> str | None:
        """What ran out (``"seconds"``, ``"nodes"``, ``"memory"``,
        ``"conflicts"``, ``"interrupt"``), once the stop flag is up."""
        return self.stop.reason

    def ring(self, what: str) -> None:
        """`what` ran out: the run is to stop."""
        self.stop.set(what)

    def stopped(self) -> str | None:
        """What ran out, once the stop flag is up (else None)."""
        return self.stop.reason

    def over(self) -> bool:
        """Is the stop flag up (the time up, Ctrl-C, a budget rung)?"""
        return self.stop.is_set()

    def ran_out(self) -> str:
        """What stopped a search that ended early: what raised the stop
        flag, else its node budget (nodes do not raise the flag)."""
        return self.stop.reason or "nodes"

    def flag(self) -> str:
        """What ran out, as the command line's flag (``--seconds 10``)."""
        spent = self.spent
        if spent == "seconds" and self.seconds is not None:
            return f"--seconds {self.seconds:g}"
        if spent == "nodes" and self.nodes is not None:
            return f"--nodes {self.nodes}"
        return f"--{spent}" if spent else "a budget"


def begin(budget: Budget | None, nodes: object = None, seconds: object = None) -> Budget:
    """The one budget of a call at the API's edge: the run's `budget` (or
    none), started, with the call's own `nodes` and `seconds` keywords
    (read here by this module's rules) where they are tighter.

    >>> b = begin(None, nodes=5)
    >>> b.nodes, b.left(), b.stop.is_set()
    (5, None, False)
    >>> begin(b) is b
    True
    """
    n, s = limit(nodes, "nodes"), _time_budget(seconds)
    if budget is None:
        budget = Budget(n, s)
        n = s = None
    return budget.begin(nodes=n, seconds=s)


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
