"""The ``covering`` command line.

Rules common to every command (DESIGN.md, "Interfaces outside tools rely
on"): data on stdout, messages and progress on stderr; an error is one line,
``covering: error: <where>: <what>``, never a traceback; exit status 0 when
the run completed (no solution is a result), 1 when it could not complete
for a reason outside the input (a lost Dask scheduler, a checkpoint in use
by another run), 2 for bad usage or input, 130 after Ctrl-C, having printed
what was found so far.

>>> main(["--version"])  # doctest: +ELLIPSIS
covering ...
0
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__, sizes
from ..errors import Interrupted, LimitReached, ProblemError, RunIncomplete
from . import akari, budget, demo, dlx, queens, sudoku, tiling
from .common import EXIT_BAD, EXIT_INCOMPLETE, UsageError, add_budget_flags, error, interrupted

__all__ = ["main"]

COMMANDS = (dlx, tiling, queens, sudoku, akari, demo)


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors on one line like every other error."""

    def error(self, message: str) -> NoReturn:
        where = self.prog.removeprefix("covering").strip()
        self.exit(EXIT_BAD, f"covering: error: {where + ': ' if where else ''}{message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="covering",
        description="Exact cover problems (Knuth's Algorithm X, dancing links) and the puzzles built on them.",
    )
    parser.add_argument("--version", action="version", version=f"covering {__version__}")
    parser.add_argument("--max-memory", metavar="SIZE",
                        help="refuse inputs whose estimated memory passes SIZE (bytes, or with K, M, G, T; "
                        "default $COVERING_MAX_MEMORY, else half of what this process may use)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for command in COMMANDS:
        command.add_parser(sub)
    for leaf in _leaves(sub):
        add_budget_flags(leaf)
    return parser


def _leaves(sub: argparse._SubParsersAction) -> list[argparse.ArgumentParser]:  # type: ignore[type-arg]
    """The parsers of the commands that run (``sudoku solve``, ``dlx``, ...),
    but ``export``, which only writes."""
    found = []
    for name, parser in sub.choices.items():
        nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if nested:
            found.extend(_leaves(nested[0]))
        elif name != "export":
            found.append(parser)
    return found


def _log_warnings_as_lines() -> None:
    """The library's logged warnings (a process pool restarted) as the
    command line's other warnings: one line, ``covering: warning: ...``."""
    log = logging.getLogger("covering")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("covering: warning: %(message)s"))
        handler.setLevel(logging.WARNING)
        log.addHandler(handler)
        log.propagate = False


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    # Names are UTF-8 on the way in, so they are on the way out, whatever the
    # locale says (a C locale would make a kanji label a traceback); what
    # cannot be encoded (a file name of stray bytes) is escaped, not fatal.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
    _log_warnings_as_lines()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error (status 2)
        return int(e.code or 0)
    try:
        if args.max_memory is not None:
            os.environ[sizes.ENV] = str(sizes.parse_bytes(args.max_memory))
        with budget.running(getattr(args, "seconds", None), getattr(args, "nodes", None)):
            return int(args.run(args))
    except UsageError as e:
        return error(str(e))
    except ProblemError as e:
        return error(str(e))
    except RunIncomplete as e:
        error(str(e))
        return EXIT_INCOMPLETE
    except Interrupted as e:
        # A count cut short: the count so far, marked as partial.
        return interrupted(e.count, where=e.where)
    except LimitReached as e:
        # A --nodes budget spent in a count: the count so far, marked as partial.
        budget.limit_reached()
        return interrupted(e.count, where=e.where)
    except KeyboardInterrupt:
        # Commands that have found something print it and return 130 themselves;
        # this is for the others (e.g. Ctrl-C while a diagram is being built).
        return interrupted(None)
    except MemoryError:
        # The size guards (covering.sizes) refuse what cannot fit before it is
        # built; this is the last net, for an estimate that fell short.
        return error("out of memory (set COVERING_MAX_MEMORY lower to be refused sooner)")
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            # The reader went away (e.g. `| head`): stop quietly.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 0
        return error(f"{e.filename or ''}: {e.strerror}" if e.filename else str(e))
