"""Helpers shared by the commands: errors, input, progress, the Ctrl-C rule."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..progress import Progress

if TYPE_CHECKING:
    from ..solver import Solver

EXIT_OK = 0
EXIT_BAD = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Flags that cannot go together, or a bad value: exit status 2."""


def error(message: str) -> int:
    """Prints the one-line error and returns exit status 2."""
    print(f"covering: error: {message}", file=sys.stderr)
    return EXIT_BAD


def warn(message: str) -> None:
    print(f"covering: warning: {message}", file=sys.stderr)


def read_input(path: str) -> tuple[str, str]:
    """(text, name for messages) of FILE, or of stdin for '-'."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    with open(path, encoding="utf-8") as f:
        return f.read(), path


def add_progress_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="show a progress line on stderr (default: when stderr is a terminal)")
    group.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")


@contextlib.contextmanager
def progress(args: argparse.Namespace, solver: Solver) -> Iterator[None]:
    """Shows progress while the block runs, if asked or if stderr is a terminal."""
    show = args.progress if args.progress is not None else sys.stderr.isatty()
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


def positive(text: str) -> int:
    value = non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_threads_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=positive, metavar="N",
                        help="threads to use (default: $COVERING_THREADS, else all cores)")


def threads_from(args: argparse.Namespace) -> int:
    """--threads N, else COVERING_THREADS, else all cores."""
    import os

    if getattr(args, "threads", None):
        return int(args.threads)
    env = os.environ.get("COVERING_THREADS", "").strip()
    if env:
        try:
            value = int(env)
        except ValueError:
            raise UsageError(f"COVERING_THREADS must be a positive integer, not {env!r}") from None
        if value < 1:
            raise UsageError(f"COVERING_THREADS must be a positive integer, not {env!r}")
        return value
    return os.cpu_count() or 1
