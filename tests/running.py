"""Waiting on a command under test by what it has done, never by the clock:
the CPU time it has spent (its start is over and its work under way), or
its being idle on its input. A test then signals it at a known stage
however loaded the machine is.

A wait ends at `TIMEOUT` seconds at most, as a guard against a hang, not
as a measure of speed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

__all__ = ["cpu_seconds", "wait_working", "wait_idle", "interrupt", "TIMEOUT"]

#: A guard against a hang: no wait or answer takes this long on any machine.
TIMEOUT = 120.0


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system, all threads) process `pid` has spent."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_working(proc: subprocess.Popen[str] | subprocess.Popen[bytes], cpu: float = 0.5) -> None:
    """Until `proc` has spent `cpu` seconds of CPU (Python's start takes
    about 0.1), or has ended, or, past its start, spends none for half a
    second (blocked: writing into a full pipe nobody reads yet)."""
    end = time.monotonic() + TIMEOUT
    last, still = -1.0, 0
    while proc.poll() is None and time.monotonic() < end:
        try:
            now = cpu_seconds(proc.pid)
        except OSError:
            return
        if now >= cpu:
            return
        still = still + 1 if now == last and now > 0.04 else 0
        if still >= 50:
            return
        last = now
        time.sleep(0.01)


def wait_idle(proc: subprocess.Popen[str]) -> None:
    """Until `proc`, started, spends no CPU for a while: it waits on its input."""
    end = time.monotonic() + TIMEOUT
    last, still = -1.0, 0
    while proc.poll() is None and time.monotonic() < end:
        now = cpu_seconds(proc.pid)
        still = still + 1 if now == last and now > 0 else 0
        if still >= 3:  # no CPU for 0.3 s: blocked on its input
            return
        last = now
        time.sleep(0.1)


def interrupt(proc: subprocess.Popen[str], cpu: float = 0.5) -> tuple[str, str]:
    """Ctrl-C once `proc` has worked `cpu` CPU seconds; its (stdout, stderr)."""
    wait_working(proc, cpu)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIMEOUT)
    return out, err
