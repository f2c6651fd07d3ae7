"""The one progress display of `covering`, on stderr for long searches.

Every long count, on one thread, on the engine's threads or on a cluster,
reports a `Status`: nodes, solutions, pieces done and known, and Knuth's
estimate of the fraction of the tree explored (from the progress path,
"choice k of d" at each level, summed over finished and running pieces).
`Display` draws it every half second: on a terminal as one line redrawn in
place, elsewhere (a pipe, a file) as one line per update, so that a log
shows the run as it went. The fraction shown never goes backwards, and the
time left is read from the rate at which that fraction grew in this run.
The fraction assumes a uniform tree, so on lopsided trees it is rough.

>>> import io
>>> from covering import Problem
>>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
>>> s = p.solver()
>>> out = io.StringIO()
>>> with Progress(s, out, interval=0.01):
...     _ = s.count()
>>> out.getvalue().splitlines()[-1].startswith('1 nodes, 1 solutions, 100.0% done, 0s')
True
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, Protocol, TextIO

from . import _core
from .model import ProblemData

__all__ = ["Status", "Display", "Progress", "Watched", "describe", "duration", "every", "solver_status"]



class Watched(Protocol):
    """What the display reads of a search (a `covering.solver.Solver`)."""

    @property
    def stats(self) -> Any: ...

    @property
    def problem(self) -> ProblemData: ...

    def fraction_done(self) -> float: ...


def duration(seconds: float) -> str:
    """Seconds as a short duration.

    >>> duration(75), duration(7300), duration(3e6), duration(4e20)
    ('1m15s', '2h01m', '34.7 days', '1.27e+13 years')
    """
    if seconds < 60:
        return f"{seconds:.0f}s"
    if seconds < 3600:
        return f"{seconds // 60:.0f}m{seconds % 60:02.0f}s"
    if seconds < 86400:
        return f"{seconds // 3600:.0f}h{seconds % 3600 // 60:02.0f}m"
    if seconds < 365 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365.25 * 86400):.3g} years"


class Status(NamedTuple):
    """Where a count under way stands. (A named tuple, not a dataclass:
    see `covering.records`.)"""

    nodes: int
    solutions: int
    #: Pieces finished, and pieces known so far (0: the count is not cut
    #: into pieces, or not yet).
    pieces_done: int
    pieces: int
    #: Knuth's estimate of the fraction of the tree explored (0 to 1); None
    #: where it says nothing (a memo search: see `covering.counting`).
    fraction: float | None
    #: Knuth's random-probe estimate of the number of nodes (0: none).
    estimate: float
    #: Seconds since this run started.
    seconds: float
    #: The fraction already done when this run started (a resumed count).
    start_fraction: float = 0.0
    #: Sub-problems remembered, for a memo count.
    remembered: int = 0
    #: For a frontier count: (items settled, items, states held).
    frontier: tuple[int, int, int] | None = None

    def eta(self) -> float | None:
        """Seconds left at the rate the fraction grew in this run, if it says anything.

        >>> Status(0, 0, 0, 0, 0.5, 0, 10.0, start_fraction=0.25).eta()
        20.0
        """
        if self.fraction is None:
            return None
        done = self.fraction - self.start_fraction
        if done > 0 and self.fraction < 1 and self.seconds > 0.5:
            return self.seconds * (1 - self.fraction) / done
        return None


def describe(s: Status) -> str:
    """One line of progress.

    >>> describe(Status(1200, 5, 3, 8, 0.25, 5e6, 2.0))
    '1,200 nodes, 5 solutions, 3/8 pieces, 25.0% done, 2s, ~5e+06 nodes estimated, about 6s left'
    >>> describe(Status(1200, 10**20, 0, 0, None, 0, 2.0, remembered=300))
    '1,200 nodes, 100,000,000,000,000,000,000 solutions so far, 300 sub-problems remembered, 2s'
    >>> describe(Status(10**6, 0, 0, 0, 0.5, 0, 4.0, frontier=(162, 324, 300_000)))
    'frontier count: item 162 of 324, 300,000 states held, 50.0% done, 4s, about 4s left'
    """
    if s.frontier is not None:
        item, items, states = s.frontier
        line = f"frontier count: item {item:,} of {items:,}, {states:,} states held"
        if s.fraction is not None:
            line += f", {100 * s.fraction:.1f}% done"
        line += f", {duration(s.seconds)}"
        eta = s.eta()
        return line + (f", about {duration(eta)} left" if eta is not None else "")
    line = f"{s.nodes:,} nodes, {s.solutions:,} solutions"
    if s.fraction is None:
        line += " so far"
    if s.remembered:
        line += f", {s.remembered:,} sub-problems remembered"
    if s.pieces:
        line += f", {s.pieces_done:,}/{s.pieces:,} pieces"
    if s.fraction is not None:
        line += f", {100 * s.fraction:.1f}% done"
    line += f", {duration(s.seconds)}"
    if s.estimate:
        line += f", ~{s.estimate:.3g} nodes estimated"
    eta = s.eta()
    if eta is not None:
        line += f", about {duration(eta)} left"
    return line


def solver_status(solver: Watched, start: float, estimate: float = 0.0) -> Status:
    """Where one `Solver` stands: its counters and Knuth's fraction done,
    `start` being when its run began (`time.monotonic()`)."""
    st = solver.stats
    return Status(st.nodes, st.solutions, 0, 0, solver.fraction_done(), estimate, time.monotonic() - start)


@contextlib.contextmanager
def every(interval: float, tick: Callable[[], None] | None) -> Iterator[None]:
    """While the block runs, `tick()` every `interval` seconds on a thread of
    its own (nothing when `tick` is None); the thread is gone when the block ends.

    >>> ticks = []
    >>> with every(0.01, lambda: ticks.append(1)):
    ...     time.sleep(0.05)
    >>> len(ticks) > 0
    True
    """
    if tick is None:
        yield
        return
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(interval):
            tick()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


class Display:
    """Draws the latest `Status` on `stream` every `interval` seconds.

    Statuses are pushed by calling the display (it is the `progress=`
    callback of the counts), or pulled from `poll` at each tick. The
    fraction shown is the largest seen so far. `close()` draws the last one.

    >>> import io
    >>> out = io.StringIO()
    >>> d = Display(out, interval=60)
    >>> d(Status(10, 1, 1, 4, 0.5, 0, 1.0)); d(Status(20, 1, 1, 4, 0.4, 0, 2.0))
    >>> d.close()
    >>> out.getvalue()
    '20 nodes, 1 solutions, 1/4 pieces, 50.0% done, 2s, about 2s left\\n'
    """

    def __init__(
        self,
        stream: TextIO,
        interval: float = 0.5,
        poll: Callable[[], Status | None] | None = None,
        tty: bool | None = None,
    ) -> None:
        self.stream = stream
        self.interval = interval
        self.poll = poll
        self.tty = stream.isatty() if tty is None else tty
        self._latest: Status | None = None
        self._shown: Status | None = None
        self._best = 0.0
        self._width = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def __call__(self, status: Status) -> None:
        with self._lock:
            if status.fraction is None:
                self._latest = status
                return
            self._best = max(self._best, min(1.0, status.fraction))
            self._latest = status._replace(fraction=self._best)

    def _draw(self) -> None:
        with self._lock:
            s = self._latest
            if s is None or s is self._shown:
                return
            self._shown = s
            line = describe(s)
            if self.tty:
                self.stream.write("\r" + line.ljust(self._width))
                self._width = len(line)
            else:
                self.stream.write(line + "\n")
            self.stream.flush()

    def _tick(self) -> None:
        if self.poll is not None:
            s = self.poll()
            if s is not None:
                self(s)
        self._draw()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._tick()

    def close(self) -> None:
        """Stops the ticks and draws the last status (idempotent)."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._thread.join()
        self._tick()
        if self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Progress:
    """Context manager: the progress of one `solver` on `stream` until the block ends."""

    def __init__(self, solver: Watched, stream: TextIO, interval: float = 0.5) -> None:
        self.solver = solver
        self._start = time.monotonic()
        self._estimate = 0.0
        self._display = Display(stream, interval, poll=self._status, tty=None)
        self._estimator = threading.Thread(target=self._estimate_nodes, daemon=True)

    def _estimate_nodes(self) -> None:
        # Knuth's random probes, from the root, on a search of our own.
        self._estimate = _core.estimate_nodes(self.solver.problem.compile(), 64, 0)

    def _status(self) -> Status:
        return solver_status(self.solver, self._start, self._estimate)

    def __enter__(self) -> Progress:
        self._start = time.monotonic()
        self._estimator.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._display.close()
