"""The run's budgets on the command line: one `covering.limits.Budget`,
made from ``--seconds S``, ``--nodes N`` and ``--max-memory`` and kept for
the run (exit status 3 when one is spent).

``--seconds`` is wall time from the start of the process, for the whole
run (reading, building, searching, writing). The commands pass the budget
(`current`) down to every verb they call (``budget=``), and the engines
watch its stop flag between slices, so that a search stops on its own and
says so (`LimitReached` with ``budget == "seconds"``). At the deadline a
watchdog thread sets the stop flag; a stage that takes no budget (a reader
waiting on a stalled stdin, a generator, building a diagram) is ended by
the watchdog too: if the run is still going `GRACE` seconds later, it
sends SIGINT to the main thread, which every stage answers as it answers
Ctrl-C. No timer signal, no change to the environment.

``--nodes`` is a node budget for each search of the run (the budget's
``nodes``).

Ctrl-C sets the stop flag with ``"interrupt"`` (exit status 130).

>>> spent() is None
True
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import limits
from ..limits import Budget

__all__ = ["current", "check", "held", "left", "spent", "limit_reached", "running", "disarm", "process_age", "GRACE"]

#: Seconds a stage may take to stop on its own at the deadline before the
#: watchdog interrupts the main thread.
GRACE = 0.1

#: The budget of the last command (what it spent is reported after it
#: ends), and of the command running.
_budget: Budget | None = None
_running: Budget | None = None
_done = threading.Event()


def current() -> Budget | None:
    """The budget of the command running (None outside `running`), for
    the verbs it calls.

    >>> current() is None
    True
    """
    return _running


def check() -> None:
    """Once the run's budget is spent (its stop flag up), raises
    KeyboardInterrupt, which the command reports as what was spent: between
    the puzzles of a batch, and after an answer an engine gave up on
    ("unknown").

    >>> check()
    """
    if _running is not None and _running.stopped() is not None:
        raise KeyboardInterrupt


def spent() -> str | None:
    """The flag of the budget spent (``"--seconds 10"``), or None (nothing
    spent, or Ctrl-C)."""
    if _budget is None or _budget.spent in (None, "interrupt"):
        return None
    return _budget.flag()


def limit_reached(e: BaseException | None = None) -> None:
    """A search stopped on a budget: what `e` (a `LimitReached`) says ran
    out, else the time if it is up, else the node budget."""
    if _budget is None:
        return
    what = getattr(e, "budget", None) or _budget.ran_out()
    _budget.ring(what)


def left() -> float | None:
    """Seconds left of ``--seconds`` (None without it): for a search that
    plans by the time it has, as the portfolio does before its CDCL stage.

    >>> left() is None
    True
    """
    return None if _budget is None else _budget.left()


def process_age() -> float:
    """Seconds since this process started (Linux: from /proc; elsewhere 0,
    the budget then counting from the command line's start)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            after_name = f.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        # Field 22 of stat (the 20th after the command name): start in clock ticks since boot.
        return max(0.0, uptime - int(after_name[19]) / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


_HELD = {signal.SIGINT} if hasattr(signal, "pthread_sigmask") else None


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C (and the watchdog's interrupt) waits while the block runs (a
    solution written and counted: never one without the other in what is
    reported)."""
    if _HELD is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def disarm() -> None:
    """The run's work is over: the watchdog stands down, so that what was
    found is printed whole."""
    _done.set()


def _watch(budget: Budget, main: int | None) -> None:
    """The watchdog: at the deadline, the stop flag; after `GRACE`, SIGINT
    to the main thread if the run has not stopped."""
    wait = budget.left()
    if wait is None or _done.wait(wait):
        return
    budget.ring("seconds")
    if _done.wait(GRACE) or main is None:
        return
    signal.pthread_kill(main, signal.SIGINT)


def _on_interrupt(signum: int, frame: Any) -> None:
    """SIGINT: Ctrl-C (or the watchdog at the deadline) stops the run."""
    if _done.is_set():
        return  # the work is over: the answer is being printed
    if _budget is not None:
        _budget.ring("interrupt")  # (the deadline rang first when it was the watchdog)
    raise KeyboardInterrupt


@contextmanager
def running(seconds: float | None, nodes: int | None, memory: int | None = None) -> Iterator[Budget]:
    """The budgets kept while the command runs: `--seconds` counted from
    the start of the process; ``--seconds 0`` is spent before anything
    starts (a `KeyboardInterrupt`, reported as the budget spent)."""
    global _budget, _running
    import time

    started = time.monotonic() - process_age()
    budget = Budget.of(seconds=seconds, nodes=nodes, memory=memory, started=started)
    _budget = _running = budget
    _done.clear()
    main = threading.main_thread()
    on_main = threading.current_thread() is main
    old = signal.signal(signal.SIGINT, _on_interrupt) if on_main else None
    watchdog = None
    try:
        if budget.deadline is not None:
            if budget.left() == 0:
                budget.ring("seconds")
                raise KeyboardInterrupt
            can_signal = on_main and hasattr(signal, "pthread_kill")
            watchdog = threading.Thread(target=_watch, args=(budget, main.ident if can_signal else None),
                                        name="covering-deadline", daemon=True)
            watchdog.start()
        yield budget
    finally:
        _running = None
        _done.set()
        if watchdog is not None:
            watchdog.join()
        if old is not None:
            signal.signal(signal.SIGINT, old)
