"""Size guards: refuse, before building, what memory cannot hold.

A board of 99999 x 99999 cells, a sudoku of side 10,000 or a billion terms
of a sequence would be built for minutes and then end in a `MemoryError`, or
worse, in the engine's allocator aborting the process. Builders estimate
what they will hold first and call `check`, which refuses with
`SizeError` (a `ProblemError`), the estimate and the limit, when it is past
the limit.

The limit is the run's: a `covering.limits.Budget` carries it (its
``memory``, the command line's ``--max-memory``), and callers pass it down
as ``limit``; where none is given, the environment variable
``COVERING_MAX_MEMORY`` (bytes, or with K, M, G or T: ``16G``), else half
of what this process may use: the machine's memory, or less where a
resource limit (``ulimit -v``) or a control group says so. No limit is
kept here. The estimates themselves are the engine's (``_core``'s
``*_bytes`` functions and ``CompiledProblem.footprint``): no byte figure
lives in Python.

>>> check("a small board", 1000)
>>> try:
...     check("a 99999 x 99999 board", 10**12, limit=2**30)
... except SizeError as e:
...     print(e)
a 99999 x 99999 board: needs about 931.3 GiB of memory, past the limit of 1.0 GiB (raise it with COVERING_MAX_MEMORY or --max-memory)
"""

from __future__ import annotations

import os
import resource

from . import _core
from .errors import MemoryLimitError, ProblemError

__all__ = ["SizeError", "check", "check_engine", "check_problem", "max_memory", "parse_bytes", "human"]

ENV = "COVERING_MAX_MEMORY"
_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class SizeError(ProblemError):
    """An input too big for the memory this process may use."""


def parse_bytes(text: str) -> int:
    """A number of bytes, with an optional K, M, G or T (powers of 1024).

    >>> parse_bytes("512M"), parse_bytes("100")
    (536870912, 100)
    """
    t = text.strip()
    scale = _UNITS.get(t[-1:].upper(), 1)
    digits = t[:-1] if scale > 1 else t
    if not (digits.isascii() and digits.isdigit()):
        raise SizeError(f"not a size in bytes (a number, then K, M, G or T): {text!r}")
    return int(digits) * scale


def human(n: float) -> str:
    """A size for people.

    >>> human(1536), human(3 * 2**30)
    ('1.5 KiB', '3.0 GiB')
    """
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError  # pragma: no cover


def _usable() -> int:
    """The memory this process may use: the least of the machine's memory,
    its address-space and data limits, and its control group's limit."""
    candidates = []
    try:
        candidates.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux
        pass
    for limit in (resource.RLIMIT_AS, getattr(resource, "RLIMIT_DATA", None)):
        if limit is not None:
            soft, _ = resource.getrlimit(limit)
            if soft != resource.RLIM_INFINITY and soft > 0:
                candidates.append(soft)
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            text = f.read().strip()
        if text.isdigit():
            candidates.append(int(text))
    except OSError:
        pass
    return min(candidates) if candidates else 8 << 30


def max_memory() -> int:
    """The limit in bytes where the run gives none: ``COVERING_MAX_MEMORY``,
    else half of what this process may use.

    >>> max_memory() > 0
    True
    """
    env = os.environ.get(ENV, "").strip()
    if env:
        try:
            return parse_bytes(env)
        except SizeError as e:
            raise SizeError(f"{ENV}: {e}") from None
    return _usable() // 2


def check(what: str, estimate: float, *, limit: int | None = None) -> None:
    """Refuses (`SizeError`) to build `what` if its `estimate` in bytes is
    past the limit (`max_memory()` unless `limit` is given)."""
    most = max_memory() if limit is None else limit
    if estimate > most:
        raise SizeError(
            f"{what}: needs about {human(estimate)} of memory, past the limit of {human(most)} "
            f"(raise it with {ENV} or --max-memory)"
        )


def check_engine(engine: str, estimate: int, limit: int | None = None) -> None:
    """Refuses to build `engine` if its `estimate` in bytes
    (``CompiledProblem.footprint``) is past the run's `limit` (None:
    `max_memory()`): an engine asked by name with `MemoryLimitError` (CLI
    exit status 1: another engine may fit), the one the library picks
    ("auto") with `SizeError` (status 2: the problem is too big for the
    memory given, as a builder's `check` says).

    >>> check_engine("cells", 10**6)
    >>> try:
    ...     check_engine("sat", 3 * 2**30, 1 << 20)
    ... except MemoryLimitError as e:
    ...     print(e)
    engine 'sat': needs about 3.0 GiB of memory, past the limit of 1.0 MiB (raise it with COVERING_MAX_MEMORY or --max-memory)
    """
    most = max_memory() if limit is None else limit
    if estimate <= most:
        return
    if engine == "auto":
        check("the search of this problem", estimate, limit=most)
    raise MemoryLimitError(
        f"engine {engine!r}: needs about {human(estimate)} of memory, past the limit of {human(most)} "
        f"(raise it with {ENV} or --max-memory)"
    )


def check_problem(what: str, options: int, entries: int, limit: int | None = None) -> None:
    """`check` for an exact cover problem of about `options` options and
    `entries` entries, built with names in Python (the engine's estimate,
    ``_core.named_problem_bytes``).

    >>> check_problem("a board", 1000, 5000)
    """
    check(f"{what} ({options:,} options, {entries:,} entries)", _core.named_problem_bytes(options, entries),
          limit=limit)
