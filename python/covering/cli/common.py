"""Helpers shared by the commands: errors, input, progress, the Ctrl-C rule."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import warnings
from collections.abc import Iterator
from typing import Any

from .. import textio
from ..progress import Progress
from ..solver import Solver
from .contract import EXIT_BAD
from .grammar import UsageError

__all__ = [
    "STDIN", "UsageError", "error", "place", "warn", "log_warnings_as_lines", "read_input", "write_dlx", "show_progress", "progress", "threads_from",
    "check_method_flags", "report_count", "read_uses", "SEARCH_ONLY",
]


def error(message: str) -> int:
    """Prints the one-line error and returns exit status 2."""
    print(f"covering: error: {message}", file=sys.stderr)
    return EXIT_BAD


def warn(message: str) -> None:
    print(f"covering: warning: {message}", file=sys.stderr)


def log_warnings_as_lines() -> None:
    """The library's logged warnings (a process pool restarted, in
    `covering.cluster`) as the command line's other warnings: one line,
    ``covering: warning: ...``. Called by the commands that use the
    cluster module, the only one that logs: `logging` is not imported
    at every command's start."""
    import logging

    log = logging.getLogger("covering")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("covering: warning: %(message)s"))
        handler.setLevel(logging.WARNING)
        log.addHandler(handler)
        log.propagate = False


_WHERE = re.compile(r"^line (\d+)(?:(?:, |: )(?:column|byte) (\d+))?: ")


def place(name: str, message: str) -> str:
    """`message` of a reader (``line 2, column 3: ...``) in the one error
    form, ``FILE:LINE[:COLUMN]: what``.

    >>> place("<stdin>", "line 2, column 3: control character U+001C in the text")
    '<stdin>:2:3: control character U+001C in the text'
    >>> place("a.dlx", "no primary item")
    'a.dlx: no primary item'
    """
    m = _WHERE.match(message)
    if m is None:
        return f"{name}: {message}"
    return f"{name}:{m[1]}{':' + m[2] if m[2] else ''}: {message[m.end():]}"


class _NotGiven(str):
    """The parsers' '-' where no FILE was given (not typed by the user)."""


#: The default FILE of a verb that reads one: stdin, unless it is a terminal.
STDIN = _NotGiven("-")


def read_input(path: str) -> tuple[str, str]:
    """(text, name for messages) of FILE, or of stdin for '-': read as
    bytes and decoded by the one reader (`covering.textio`), so that bytes
    that are not UTF-8 are an error naming the file, line and byte. With
    no FILE given and a terminal on stdin, a usage error rather than a
    silent wait (a '-' typed reads the terminal)."""
    if isinstance(path, _NotGiven) and sys.stdin is not None and sys.stdin.isatty():
        raise UsageError("no FILE given, and standard input is a terminal: name a FILE, or pipe one in "
                         "('-' reads what is typed)")
    if path == "-":
        data, name = sys.stdin.buffer.read(), "<stdin>"
    else:
        with open(path, "rb") as f:
            data, name = f.read(), path
    try:
        return textio.decode(data), name
    except textio.InputError as e:
        raise textio.InputError(place(name, str(e))) from None


def read_uses(spec: str | None) -> Any:
    """``--uses``: how often each piece of a tiling is used, ``once`` (the
    default), ``any``, ``N`` or ``LO:HI``, for every lattice's face.

    >>> read_uses(None), read_uses("any"), read_uses("3"), read_uses("1:2")
    ('once', 'any', 3, (1, 2))
    """
    if spec is None or spec in ("once", "any"):
        return spec or "once"
    try:
        if ":" in spec:
            lo, hi = (int(x) for x in spec.split(":"))
            return (lo, hi)
        return int(spec)
    except ValueError:
        raise UsageError(f"--uses must be once, any, N or LO:HI, not {spec!r}") from None


def write_dlx(problem: Any, run: Any) -> None:
    """`covering PUZZLE export`: the puzzle's exact cover problem in
    Knuth's .dlx format on stdout, or with ``--json`` as one line
    ``{"dlx": text}`` (what Knuth's programs cannot read of it, such as
    names with his special characters, is said in a warning)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = problem.to_dlx()
    for w in caught:
        warn(str(w.message))
    run.answer({"dlx": text, "options": problem.n_options}, text)
    run.done()


def report_count(run: Any, counted: Any, limit: int | None) -> None:
    """A count by the front door (`covering.counting.Counted`) into the
    run: the number, how it was made (method, nodes, item order, width,
    why, the plan weighed), and whether ``--limit`` stopped it."""
    run.counted(counted.count)
    run.extra.update(method=counted.method, nodes=counted.nodes, item_order=counted.item_order,
                     width=counted.width, reason=counted.reason, plan=counted.plan)
    if counted.branching is not None:
        run.extra["branching"] = counted.branching
    if counted.reduced is not None:
        run.extra.setdefault("reduced", counted.reduced)
    run.done(limited=counted.reason == "limit" and limit is not None and counted.count >= limit)


def show_progress(args: argparse.Namespace) -> bool:
    """--progress, --no-progress, else: is stderr a terminal?"""
    return bool(args.progress) if args.progress is not None else sys.stderr.isatty()


@contextlib.contextmanager
def progress(args: argparse.Namespace, solver: Solver) -> Iterator[None]:
    """Shows progress while the block runs, if asked or if stderr is a terminal."""
    show = show_progress(args)
    if not show:
        yield
        return
    with Progress(solver, sys.stderr):
        yield


def threads_from(args: argparse.Namespace) -> int:
    """--threads N, else COVERING_THREADS, else all cores."""
    from .. import limits
    from ..parallel import default_threads

    if getattr(args, "threads", None):
        return limits.threads(args.threads, "--threads")
    return default_threads()


#: The branching rules of the search alone (Knuth's learning rules and
#: binary branching).
SEARCH_ONLY = ("wtd", "frb", "binary")


def check_method_flags(args: argparse.Namespace, *, not_with: dict[str, bool]) -> None:
    """Refuses --method, --branching and --memo-bytes where they mean
    nothing or contradict each other (naming both flags); `not_with` maps
    the command's other flags to whether they were given and rule out a
    count by the front door (``{"--symmetry": args.symmetry}``).

    >>> ns = argparse.Namespace(method="search", branching="first", memo_bytes=None, threads=None)
    >>> check_method_flags(ns, not_with={})
    Traceback (most recent call last):
    ...
    covering.cli.grammar.UsageError: --branching first and --method search cannot go together (first is the memo's rule)
    """
    given = [f for f, v in (("--memo" if getattr(args, "memo", False) else f"--method {args.method}", args.method),
                            (f"--branching {args.branching}", args.branching), ("--memo-bytes", args.memo_bytes))
             if v is not None]
    for other, present in not_with.items():
        if present and given:
            raise UsageError(f"{given[0]} and {other} cannot go together")
    searching = args.branching in SEARCH_ONLY
    if args.branching is not None and args.method in ("frontier", "kasteleyn"):
        raise UsageError(f"--branching and --method {args.method} cannot go together (the {args.method} count "
                         "does not branch)")
    if args.branching == "first" and args.method == "search":
        raise UsageError("--branching first and --method search cannot go together (first is the memo's rule)")
    if searching and args.method == "memo":
        raise UsageError(f"--branching {args.branching} and --method memo cannot go together ({args.branching} "
                         "is a rule of the search)")
    if args.memo_bytes is not None and args.method == "search":
        raise UsageError("--memo-bytes and --method search cannot go together (the memory is the memo's)")
