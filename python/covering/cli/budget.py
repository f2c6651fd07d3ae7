"""The run's budgets, ``--seconds S`` and ``--nodes N`` (exit status 3).

``--seconds`` is wall time from the start of the process, for the whole run
(reading, building, searching, writing). It is kept by an alarm whose
handler raises `BudgetSpent`, a `KeyboardInterrupt`: every stage that
answers Ctrl-C (the Rust loops check for signals every few milliseconds, a
read of a stalled stdin is interrupted) therefore stops on the budget the
same way, printing what it found so far, and the command line then says
``covering: budget: ...`` and exits 3 instead of 130.

``--nodes`` is a node budget for each search of the run (the searches of a
command take it as their default, `covering.limits.run_nodes`); a search
that spends it raises `LimitReached`, which the commands report the same way.

>>> spent() is None, stopped(False), stopped(True)
(True, None, 'interrupt')
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from .. import limits

__all__ = ["BudgetSpent", "held", "left", "spent", "stopped", "limit_reached", "running", "disarm", "process_age"]


class BudgetSpent(KeyboardInterrupt):
    """The run's ``--seconds`` ran out: raised by the alarm, as Ctrl-C is by SIGINT."""


_spent: str | None = None
_timer: threading.Timer | None = None
_nodes: int | None = None
#: When ``--seconds`` runs out (`time.monotonic`), and its flag.
_deadline: float | None = None
_seconds_flag = ""


def spent() -> str | None:
    """The flag of the budget spent (``"--seconds 10"``), or None."""
    return _spent


def stopped(interrupted: bool) -> str | None:
    """``--json``'s ``"stopped"``: "budget", "interrupt" (Ctrl-C), or None
    for a run that completed."""
    if _spent is not None:
        return "budget"
    return "interrupt" if interrupted else None


def limit_reached() -> None:
    """A search raised `LimitReached`: the time left (`left`), if it ran
    out, else the ``--nodes`` budget, if one was given, is what was spent (a
    ``--conflicts`` budget otherwise)."""
    global _spent
    if _spent is None:
        if _deadline is not None and _deadline - time.monotonic() < 0.05:
            _spent = _seconds_flag
        else:
            _spent = f"--nodes {_nodes}" if _nodes is not None else "--conflicts"


def left() -> float | None:
    """Seconds left of ``--seconds`` (None without it): for a search that
    plans by the time it has, as the portfolio does before its CDCL stage.

    >>> left() is None
    True
    """
    return None if _deadline is None else max(0.0, _deadline - time.monotonic())


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


def _ring(flag: str) -> None:
    global _spent
    _spent = flag


def _on_alarm(signum: int, frame: object) -> None:
    raise BudgetSpent


_HELD = {signal.SIGINT, signal.SIGALRM} if hasattr(signal, "pthread_sigmask") else None


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C and the alarm wait while the block runs (a solution written
    and counted: never one without the other in what is reported)."""
    if _HELD is None:
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def disarm() -> None:
    """Stops the alarm (the run's work is over: its output must not be cut)."""
    global _timer
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
    if _timer is not None:
        _timer.cancel()
        _timer = None


@contextmanager
def running(seconds: float | None, nodes: int | None) -> Iterator[None]:
    """The budgets kept while the command runs."""
    global _spent, _nodes, _timer, _deadline, _seconds_flag
    _spent, _nodes, _deadline = None, nodes, None
    old_handler = None
    if seconds is not None:
        left = seconds - process_age()
        flag = _seconds_flag = f"--seconds {seconds:g}"
        if left <= 0:  # `--seconds 0`: spent before anything starts
            _ring(flag)
            raise BudgetSpent
        _deadline = time.monotonic() + left
        if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            def alarm(signum: int, frame: object) -> None:
                _ring(flag)
                _on_alarm(signum, frame)

            old_handler = signal.signal(signal.SIGALRM, alarm)
            signal.setitimer(signal.ITIMER_REAL, left)
        else:  # no alarm here: the main thread is interrupted as by Ctrl-C
            import _thread

            def ring() -> None:
                _ring(flag)
                _thread.interrupt_main()

            _timer = threading.Timer(left, ring)
            _timer.daemon = True
            _timer.start()
    try:
        with limits.run_nodes(nodes):
            yield
    finally:
        disarm()
        if old_handler is not None:
            signal.signal(signal.SIGALRM, old_handler)

