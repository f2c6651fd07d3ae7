"""A progress line on stderr for long searches.

While the engine works (without the GIL), a background thread redraws one
line every half second: nodes, solutions, Knuth's estimate of the fraction
of the tree explored (from the progress path, "choice k of d" at each
level), and the time left at that rate. The estimate assumes a uniform tree,
so on lopsided trees the time left is rough, but the fraction only grows.

>>> import io
>>> from covering import Problem
>>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
>>> s = p.solver()
>>> out = io.StringIO()
>>> with Progress(s, out, interval=0.01):
...     _ = s.count()
>>> out.getvalue().endswith("\\n")
True
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["Progress", "describe", "duration"]


def duration(seconds: float) -> str:
    """Seconds as a short duration.

    >>> duration(75), duration(7300)
    ('1m15s', '2h01m')
    """
    if seconds < 60:
        return f"{seconds:.0f}s"
    if seconds < 3600:
        return f"{seconds // 60:.0f}m{seconds % 60:02.0f}s"
    if seconds < 86400:
        return f"{seconds // 3600:.0f}h{seconds % 3600 // 60:02.0f}m"
    return f"{seconds / 86400:.1f} days"


def describe(solver: Solver, elapsed: float, estimate: float | None = None) -> str:
    """One line of progress for `solver` after `elapsed` seconds: Knuth's
    fraction done (from the progress path), and, given Knuth's random-probe
    `estimate` of the number of nodes, that estimate too.

    >>> from covering import Problem
    >>> p = Problem(); p.add_primary(["A"]); _ = p.add_option(["A"])
    >>> s = p.solver(); _ = s.count()
    >>> describe(s, 2.0)
    '1 nodes, 1 solutions, 100.0% done, 2s'
    """
    st = solver.stats
    f = solver.fraction_done()
    line = f"{st.nodes:,} nodes, {st.solutions:,} solutions, {100 * f:.1f}% done, {duration(elapsed)}"
    if estimate:
        line += f", ~{estimate:.3g} nodes estimated"
    if 0.0 < f < 1.0 and elapsed > 1.0:
        line += f", about {duration(elapsed * (1 - f) / f)} left"
    return line


class Progress:
    """Context manager: shows `describe(solver)` on `stream` until the block ends."""

    def __init__(self, solver: Solver, stream: TextIO, interval: float = 0.5) -> None:
        self.solver = solver
        self.stream = stream
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._start = time.monotonic()
        self._width = 0
        self._estimate: float | None = None

    def _draw(self) -> None:
        line = describe(self.solver, time.monotonic() - self._start, self._estimate)
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()
        self._width = len(line)

    def _run(self) -> None:
        from . import _core

        # Knuth's random probes, from the root, on a search of our own.
        self._estimate = _core.estimate_nodes(self.solver.problem.compile(), 64, 0)
        while not self._stop.wait(self.interval):
            self._draw()

    def __enter__(self) -> Progress:
        self._start = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._draw()
        self.stream.write("\n")
        self.stream.flush()
