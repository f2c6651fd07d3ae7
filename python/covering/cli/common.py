"""Helpers shared by the commands: errors, input, progress, the Ctrl-C rule."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from .. import textio
from ..progress import Progress
from ..solver import Solver
from . import budget

__all__ = [
    "EXIT_OK", "EXIT_INCOMPLETE", "EXIT_BAD", "EXIT_BUDGET", "EXIT_INTERRUPTED", "UsageError", "error",
    "interrupted", "warn", "read_input", "write_dlx", "add_progress_flags", "show_progress", "progress",
    "non_negative", "byte_size", "positive_seconds", "positive", "add_budget_flags", "add_threads_flag",
    "threads_from", "add_method_flags", "check_method_flags",
]

EXIT_OK = 0
EXIT_INCOMPLETE = 1
EXIT_BAD = 2
EXIT_BUDGET = 3
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Flags that cannot go together, or a bad value: exit status 2."""


def error(message: str) -> int:
    """Prints the one-line error and returns exit status 2."""
    print(f"covering: error: {message}", file=sys.stderr)
    return EXIT_BAD


def interrupted(count: int | None, what: str = "solutions", *, stdout: bool = True, where: str | None = None) -> int:
    """After Ctrl-C or a spent budget: the count so far on stdout (alone on
    its line, where the count goes), marked as partial on stderr; returns
    exit status 130, or 3 when a budget (``--seconds``, ``--nodes``) stopped
    the run (`covering.cli.budget`).

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     interrupted(12, "tilings")
    12
    130
    >>> err.getvalue().strip()
    'covering: interrupted: 12 tilings so far (a partial count)'
    """
    budget.disarm()
    spent = budget.spent()
    word, status = ("interrupted", EXIT_INTERRUPTED) if spent is None else (f"budget: {spent} spent", EXIT_BUDGET)
    if count is None:
        # No partial count is known (`where` says how far the work got).
        print(f"covering: {word}" + (f": at {where} (no partial count)" if where else ""), file=sys.stderr)
    else:
        if stdout:
            print(count, flush=True)
        print(f"covering: {word}: {count} {what} so far (a partial count)", file=sys.stderr)
    return status


def warn(message: str) -> None:
    print(f"covering: warning: {message}", file=sys.stderr)


def note(message: str) -> None:
    """A message on stderr about the answer on stdout (fewer solutions than
    asked, a count stopped at its cap)."""
    print(f"covering: {message}", file=sys.stderr)


def note_fewer(found: int, asked: int, flag: str, noun: str = "solutions") -> None:
    """Says that `found` is every solution there is, fewer than `flag` asked.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     note_fewer(9, 10, "--best 10")
    >>> err.getvalue()
    'covering: 9 solutions, all there are (--best 10 asked for more)\\n'
    """
    if found < asked:
        one = noun[:-1] if found == 1 and noun.endswith("s") else noun
        note(f"{found} {one}, all there are ({flag} asked for more)")


def note_capped(count: int, cap: int | None, flag: str, what: str = "the count") -> None:
    """Says that `what` stopped at its cap: there may be more.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     note_capped(5, 5, "--cap 5")
    >>> err.getvalue()
    'covering: the count stopped at 5 (--cap 5): there may be more\\n'
    """
    if cap is not None and count >= cap:
        note(f"{what} stopped at {count} ({flag}): there may be more")


def read_input(path: str) -> tuple[str, str]:
    """(text, name for messages) of FILE, or of stdin for '-': read as
    bytes and decoded by the one reader (`covering.textio`), so that bytes
    that are not UTF-8 are an error naming the file, line and byte."""
    if path == "-":
        data, name = sys.stdin.buffer.read(), "<stdin>"
    else:
        with open(path, "rb") as f:
            data, name = f.read(), path
    try:
        return textio.decode(data), name
    except textio.InputError as e:
        raise textio.InputError(f"{name}:{e.lineno}: {e.reason}") from None


def write_dlx(problem: Any) -> int:
    """`covering <puzzle> export`: the puzzle's exact cover problem in
    Knuth's .dlx format on stdout (what Knuth's programs cannot read of it,
    such as names with his special characters, is said in a warning)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = problem.to_dlx()
    for w in caught:
        warn(str(w.message))
    sys.stdout.write(text)
    return EXIT_OK


def add_progress_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="show a progress line on stderr (default: when stderr is a terminal)")
    group.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")


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


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


def byte_size(text: str) -> int:
    """A number of bytes, with an optional K, M or G (powers of 1024): ``512M``."""
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
    return non_negative(text[:-1] if scale > 1 else text) * scale


def positive_seconds(text: str) -> float:
    """A number of seconds > 0 (a finite number: ``inf`` is refused)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, not {text!r}")
    return value


def positive(text: str) -> int:
    value = non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_budget_flags(parser: argparse.ArgumentParser) -> None:
    """--seconds and --nodes, the budgets of every command that searches,
    counts or generates (`covering.cli.budget`)."""
    group = parser.add_argument_group("budgets (exit status 3 when one is spent, with what was found so far)")
    group.add_argument("--seconds", type=positive_seconds, metavar="S",
                       help="stop after S seconds of wall time from the start of the process, reading included")
    group.add_argument("--nodes", type=non_negative, metavar="N",
                       help="stop a search after N nodes (each search of the run)")


def add_threads_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=positive, metavar="N",
                        help="threads to use (default: $COVERING_THREADS, else all cores; a memo count: one "
                        "unless given)")


def threads_from(args: argparse.Namespace) -> int:
    """--threads N, else COVERING_THREADS, else all cores."""
    from .. import limits
    from ..parallel import default_threads

    if getattr(args, "threads", None):
        return limits.threads(args.threads, "--threads")
    return default_threads()


def add_method_flags(parser: argparse.ArgumentParser) -> None:
    """--method, --branching and --memo-bytes: how a count is made (`covering.counting`)."""
    parser.add_argument("--method", choices=["auto", "search", "memo", "frontier"], default=None,
                        help="how counts are made: auto (default: the frontier when its chosen item order is "
                        "narrow, else the methods measured in turns of work), search (dancing links on every "
                        "core), memo (look up sub-problems met before; one thread unless --threads), frontier (items settled one "
                        "by one in a narrow order, only the live frontiers kept)")
    parser.add_argument("--item-order", choices=["auto", "input"], default="auto",
                        help="how the frontier and the memo's first rule take the primary items: auto (default: "
                        "an order chosen to keep the frontier narrow) or input (as the input lists them)")
    parser.add_argument("--branching", choices=["first", "mrv"],
                        help="the memo's rule for the item to branch on: first (the first uncovered item; "
                        "boards row by row) or mrv (the fewest options); default: the probe's choice")
    parser.add_argument("--memo-bytes", type=byte_size, metavar="SIZE",
                        help="the memory of the memo, in bytes or with K, M, G (default 1G); "
                        "past it entries are evicted and the count stays exact")


def check_method_flags(args: argparse.Namespace, *, not_with: dict[str, bool]) -> None:
    """Refuses --method, --branching and --memo-bytes where they mean
    nothing or contradict each other (naming both flags); `not_with` maps
    the command's other flags to whether they were given and rule out a
    count by the front door (``{"--symmetry": args.symmetry}``).

    >>> ns = argparse.Namespace(method="search", branching="first", memo_bytes=None, threads=None)
    >>> check_method_flags(ns, not_with={})
    Traceback (most recent call last):
    ...
    covering.cli.common.UsageError: --branching and --method search cannot go together (the branching rule is the memo's)
    """
    given = [f for f, v in (("--memo" if getattr(args, "memo", False) else f"--method {args.method}", args.method),
                            ("--branching", args.branching), ("--memo-bytes", args.memo_bytes)) if v is not None]
    for other, present in not_with.items():
        if present and given:
            raise UsageError(f"{given[0]} and {other} cannot go together")
    if args.branching is not None and args.method == "search":
        raise UsageError("--branching and --method search cannot go together (the branching rule is the memo's)")
    if args.memo_bytes is not None and args.method == "search":
        raise UsageError("--memo-bytes and --method search cannot go together (the memory is the memo's)")
