"""The run's budgets on the command line: one `covering.limits.Budget`,
made from ``--seconds S``, ``--nodes N`` and ``--max-memory`` once, and
watched while the command runs (`Watch`; exit status 3 when one is spent).
Nothing is kept in the module: the command holds its `Watch` (on its
`Run`) and hands its budget to every verb it calls.

``--seconds`` is wall time from the start of the process, for the whole
run (reading, building, searching, writing). The engines watch the
budget's stop flag between slices (it rises by itself at the deadline), so
that a search stops on its own and says so (`LimitReached` with
``budget == "seconds"``). A stage that takes no budget (a reader waiting on
a stalled stdin, a generator, building a diagram) is ended by the
watchdog: if the run is still going `GRACE` seconds after the deadline, it
sends SIGINT to the main thread, which every stage answers as it answers
Ctrl-C. No timer signal, no change to the environment.

``--nodes`` is a node budget for each search of the run (the budget's
``nodes``); ``--max-memory`` its ``memory``.

Ctrl-C sets the stop flag with ``"interrupt"`` (exit status 130).

>>> watch = Watch.of(None, 5)
>>> with running(watch):
...     watch.budget.nodes, watch.spent()
(5, None)
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..limits import Budget

__all__ = ["Watch", "held", "running", "process_age", "GRACE"]

#: Seconds a stage may take to stop on its own at the deadline before the
#: watchdog interrupts the main thread.
GRACE = 0.1


class Watch:
    """The budget of one command while it runs, and what it spent after:
    the watchdog at the deadline, the Ctrl-C handler, and `disarm` once
    the work is over (what was found is then printed whole)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._done = threading.Event()

    @classmethod
    def of(cls, seconds: float | None, nodes: int | None, memory: int | None = None) -> Watch:
        """The command line's budget: ``--seconds`` counted from the start
        of the process."""
        started = time.monotonic() - process_age()
        return cls(Budget.of(seconds=seconds, nodes=nodes, memory=memory, started=started))

    def check(self) -> None:
        """Once the budget is spent (its stop flag up), raises
        KeyboardInterrupt, which the command reports as what was spent:
        between the puzzles of a batch, and after an answer an engine gave
        up on ("unknown")."""
        if self.budget.stopped() is not None:
            raise KeyboardInterrupt

    def spent(self) -> str | None:
        """The flag of the budget spent (``"--seconds 10"``), or None
        (nothing spent, or Ctrl-C)."""
        return None if self.budget.spent in (None, "interrupt") else self.budget.flag()

    def limit_reached(self, e: BaseException | None = None) -> None:
        """A search stopped on a budget: what `e` (a `LimitReached`) says ran
        out, else what raised the flag, else the node budget."""
        self.budget.ring(getattr(e, "budget", None) or self.budget.ran_out())

    def disarm(self) -> None:
        """The run's work is over: the watchdog stands down."""
        self._done.set()

    def _watch(self, main: int | None) -> None:
        """The watchdog: at the deadline, the stop flag (it rises by itself
        too); after `GRACE`, SIGINT to the main thread if the run has not
        stopped."""
        wait = self.budget.left()
        if wait is None or self._done.wait(wait):
            return
        self.budget.ring("seconds")
        if self._done.wait(GRACE) or main is None:
            return
        signal.pthread_kill(main, signal.SIGINT)

    def _on_interrupt(self, signum: int, frame: Any) -> None:
        """SIGINT: Ctrl-C (or the watchdog at the deadline) stops the run."""
        if self._done.is_set():
            return  # the work is over: the answer is being printed
        self.budget.ring("interrupt")  # (the deadline rang first when it was the watchdog)
        raise KeyboardInterrupt


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


@contextmanager
def running(watch: Watch) -> Iterator[Watch]:
    """The `watch`'s budget kept while the command runs; ``--seconds 0``
    is spent before anything starts (a `KeyboardInterrupt`, reported as
    the budget spent)."""
    budget = watch.budget
    main = threading.main_thread()
    on_main = threading.current_thread() is main
    old = signal.signal(signal.SIGINT, watch._on_interrupt) if on_main else None
    # Ctrl-C that lands in a finalizer (a Dask future's `__del__` run by the
    # collector) cannot leave it: Python prints it as "Exception ignored" and
    # goes on. The handler has rung the run's flag first, which every engine,
    # pool and cluster driver watches, so the run stops all the same: only
    # the traceback is left out, not what it says.
    old_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_interrupts(old_hook)
    watchdog = None
    try:
        if budget.deadline is not None:
            if budget.left() == 0:
                budget.ring("seconds")
                raise KeyboardInterrupt
            can_signal = on_main and hasattr(signal, "pthread_kill")
            watchdog = threading.Thread(target=watch._watch, args=(main.ident if can_signal else None,),
                                        name="covering-deadline", daemon=True)
            watchdog.start()
        yield watch
    finally:
        watch.disarm()
        if watchdog is not None:
            watchdog.join()
        if old is not None:
            signal.signal(signal.SIGINT, old)
        sys.unraisablehook = old_hook


def _quiet_interrupts(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """`hook`, but silent on a `KeyboardInterrupt` raised where it cannot
    be raised (a finalizer): the run's flag carries it (see `running`)."""
    def quiet(unraisable: Any) -> object:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            return None
        return hook(unraisable)

    return quiet
