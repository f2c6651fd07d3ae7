"""Size guards: refuse, before building, what memory cannot hold.

A board of 99999 x 99999 cells, a sudoku of side 10,000 or a billion terms
of a sequence would be built for minutes and then end in a `MemoryError`, or
worse, in the engine's allocator aborting the process. Builders estimate
what they will hold first and call `check`, which refuses with
`SizeError` (a `ProblemError`), the estimate and the limit, when it is past
the limit.

The limit is the environment variable ``COVERING_MAX_MEMORY`` (bytes, or
with K, M, G or T: ``16G``), also set by the command line's
``--max-memory``; by default half of what this process may use: the
machine's memory, or less where a resource limit (``ulimit -v``) or a
control group says so.

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
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import MemoryLimitError, ProblemError

__all__ = ["SizeError", "check", "check_engine", "check_problem", "max_memory", "given", "parse_bytes", "human"]

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


#: The limit given for the run (`given`), before the environment's.
_given: int | None = None


@contextmanager
def given(limit: int | None) -> Iterator[None]:
    """`max_memory()` is `limit` while the block runs (the command line's
    ``--max-memory``); None keeps the usual rule.

    >>> with given(1 << 20):
    ...     max_memory()
    1048576
    """
    global _given
    saved, _given = _given, limit if limit is not None else _given
    try:
        yield
    finally:
        _given = saved


def max_memory() -> int:
    """The limit in bytes: ``COVERING_MAX_MEMORY``, else half of what this
    process may use.

    >>> max_memory() > 0
    True
    """
    if _given is not None:
        return _given
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


def check_engine(engine: str, estimate: int) -> None:
    """Refuses (`MemoryLimitError`, CLI exit status 1) to build `engine` if
    its `estimate` in bytes (``CompiledProblem.footprint``) is past
    `max_memory()`.

    >>> check_engine("cells", 10**6)
    >>> with given(1 << 20):
    ...     try:
    ...         check_engine("sat", 3 * 2**30)
    ...     except MemoryLimitError as e:
    ...         print(e)
    engine 'sat': needs about 3.0 GiB of memory, past the limit of 1.0 MiB (raise it with COVERING_MAX_MEMORY or --max-memory)
    """
    most = max_memory()
    if estimate > most:
        raise MemoryLimitError(
            f"engine {engine!r}: needs about {human(estimate)} of memory, past the limit of {human(most)} "
            f"(raise it with {ENV} or --max-memory)"
        )


#: Bytes a problem takes per option and per entry (its arrays, labels and
#: compiled copy) with the dancing-cells search on top of it: measured on a
#: random .dlx file of 10^6 options and 5 * 10^6 entries, 164 MB at the peak
#: of reading and compiling, then 372 MB for the search (89 bytes per entry
#: or option), rounded up.
PER_OPTION = 100
PER_ENTRY = 100


def check_problem(what: str, options: int, entries: int) -> None:
    """`check` for an exact cover problem of about `options` options and
    `entries` entries, built with names in Python.

    >>> check_problem("a board", 1000, 5000)
    """
    check(f"{what} ({options:,} options, {entries:,} entries)", PER_OPTION * options + PER_ENTRY * entries)
