"""The ``covering`` command line: ``covering PUZZLE VERB [INPUT] [flags]``.

Rules common to every command: data on stdout, messages and progress on
stderr; an error is one line, ``covering: error: FILE:LINE[:COLUMN]:
<what>``, never a traceback; ``--json`` prints one object a line, the last
one a summary with the same keys on every command (`covering.cli.contract`);
the exit status is 0 when the run completed (no solution is a result), 1
when it could not complete for a reason outside the input (a lost Dask
scheduler, a checkpoint in use by another run, more memory than allowed),
2 for bad usage or input, 3 when a budget given was spent, 130 after
Ctrl-C, having printed what was found so far. Older spellings of the
commands are mapped onto the verbs first (`covering.cli.grammar`).

>>> main(["--version"])  # doctest: +ELLIPSIS
covering ...
0
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__
from ..errors import Interrupted, LimitReached, ProblemError, RunIncomplete
from . import budget, flags, grammar, table
from .common import error
from .contract import EXIT_BAD, EXIT_INCOMPLETE, Run
from .grammar import UsageError
from .menu import PUZZLES

__all__ = ["main", "build_parser"]

EPILOG = """\
verbs: solve, count, unique, best, random, export, generate (and queens' list,
infinite, plot), where they mean something for the puzzle.

--json: one JSON object a line; the last one is always the summary, with
"command", "count", "complete", "stopped" (null, "limit", "budget" or
"interrupt") and "seconds".

exit status: 0 the run completed (no solution is a result); 1 it could not
complete for a reason outside the input (a lost Dask scheduler, a checkpoint
in use, an engine past --max-memory); 2 bad usage or input; 3 a budget given
(--seconds, --nodes, --conflicts) was spent; 130 Ctrl-C. What was found is
printed first, a partial count marked so on stderr.

Older spellings (covering dlx FILE --count, covering tromino 9 --count,
--min-cost --best K, --cap N, generate --count N) still work."""


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors on one line like every other error."""

    def error(self, message: str) -> NoReturn:
        where = self.prog.removeprefix("covering").strip()
        self.exit(EXIT_BAD, f"covering: error: {where + ': ' if where else ''}{message}\n")


def build_parser(puzzle: str | None = None, verb: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with `puzzle`, only that puzzle's verbs
    and flags (its module alone imported), the others each a name and its
    line of help, so that the top level's help and errors are the same;
    with `verb` too, only that verb's flags (the puzzle's other verbs are
    names: their flags took most of a command's start, 30 ms for the
    tilings)."""
    parser = _Parser(
        prog="covering",
        description="Exact cover problems (Knuth's Algorithm X, dancing links) and the puzzles built on them: "
        "covering PUZZLE VERB [INPUT] [flags]; covering PUZZLE --help lists the verbs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"covering {__version__}")
    parser.add_argument("--max-memory", type=flags.byte_size, metavar="SIZE", default=argparse.SUPPRESS,
                        help="refuse what would need more memory than SIZE (bytes, or with K, M, G, T; "
                        "default $COVERING_MAX_MEMORY, else half of what this process may use)")
    sub = parser.add_subparsers(dest="puzzle", metavar="PUZZLE", parser_class=_Parser)
    sub.required = True
    built: set[str] = set()
    for name, (module, line) in PUZZLES.items():
        if puzzle is None or PUZZLES.get(puzzle, ("",))[0] == module:
            if module not in built:
                built.add(module)
                _add_parsers(module, sub, puzzle, verb)
        else:
            # A name and its line in the top level's help, never parsed
            # with: no -h of its own (each one's help and formatter cost a
            # command's start 0.2 ms).
            sub.add_parser(name, help=line, add_help=False)
    return parser


def _add_parsers(module: str, sub: argparse._SubParsersAction,  # type: ignore[type-arg]
                 puzzle: str | None = None, verb: str | None = None) -> None:
    """The parsers of the puzzles of `module` (see `menu`), from their
    tables (`covering.cli.table`), imported here so that a command imports
    only its own; of `puzzle`, only `verb`'s flags where one is named."""
    if module == "demo":
        from . import demo
        demo.add_parser(sub)
        return
    commands: tuple[table.Command, ...]
    if module == "dlx":
        from .dlx import COMMANDS as commands
    elif module == "tiling":
        from .tiling import COMMANDS as commands
    elif module == "queens":
        from .queens import COMMANDS as commands
    elif module == "sudoku":
        from .sudoku import COMMANDS as commands
    else:
        from .akari import COMMANDS as commands
    for command in commands:
        table.add_command(sub, command, verb if command.name == puzzle else None)


def _puzzle_named(argv: Sequence[str]) -> str | None:
    """The puzzle `argv` names (its first word after the top level's
    flags), if it is one."""
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in grammar.TOP_VALUES else 1
    return argv[i] if i < len(argv) and argv[i] in PUZZLES else None


def _verb_named(argv: Sequence[str], puzzle: str | None) -> str | None:
    """The verb of `puzzle` right after it in `argv`, if one is there.

    >>> _verb_named(["--max-memory", "1G", "polyomino", "count", "--board", "6x10"], "polyomino")
    'count'
    >>> _verb_named(["tromino", "12", "--count"], "tromino") is None
    True
    """
    if puzzle is None or puzzle not in argv:
        return None
    i = list(argv).index(puzzle) + 1
    return argv[i] if i < len(argv) and argv[i] in grammar.VERBS.get(puzzle, ()) else None


def _takes_value(parser: argparse.ArgumentParser) -> set[str]:
    """Every flag, of any command, that takes a value."""
    found: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found |= _takes_value(child)
        elif action.option_strings and action.nargs not in (0, "?"):
            found.update(action.option_strings)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status."""
    # Names are UTF-8 on the way in, so they are on the way out, whatever the
    # locale says (a C locale would make a kanji label a traceback); what
    # cannot be encoded (a file name of stray bytes) is escaped, not fatal.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
    argv = sys.argv[1:] if argv is None else argv
    puzzle = _puzzle_named(argv)
    verb = _verb_named(argv, puzzle)
    parser = build_parser(puzzle, verb)
    try:
        words = grammar.rewrite(argv, _takes_value(parser))
        if verb is not None and _verb_named(words, puzzle) != verb:
            parser = build_parser(puzzle)  # an older spelling turned the verb into another
        args, extra = parser.parse_known_args(words)
        if extra:
            where = " ".join(w for w in (getattr(args, "puzzle", None), getattr(args, "verb", None)) if w)
            unknown = [w.split("=", 1)[0] for w in extra if w.startswith("-") and w != "-"]
            if unknown:
                raise UsageError(f"{where}: {unknown[0]} is not a flag of this verb (covering {where} --help "
                                 "lists them)")
            raise UsageError(f"{where}: unrecognized arguments: {' '.join(extra)}")
    except UsageError as e:
        return error(str(e))
    except SystemExit as e:  # --help, --version, or a usage error (status 2)
        return int(e.code or 0)
    verb = getattr(args, "verb", None)
    run = Run(args.puzzle if verb is None else f"{args.puzzle} {verb}", json=getattr(args, "json", False),
              noun=getattr(args, "noun", "solutions"), counts=getattr(args, "counts", False))
    try:
        if getattr(args, "json", False) and getattr(args, "svg", None) == "-":
            raise UsageError("--json and --svg cannot go together (--json's lines are the output)")
        run.watch = budget.Watch.of(getattr(args, "seconds", None), getattr(args, "nodes", None),
                                    getattr(args, "max_memory", None))
        with budget.running(run.watch):
            status = args.run(args, run)
        if status is not None:  # a command that prints no summary (demo, plot)
            return int(status)
    except (UsageError, ProblemError) as e:
        return error(str(e))
    except RunIncomplete as e:
        error(str(e))
        return EXIT_INCOMPLETE
    except Interrupted as e:
        # A count cut short by Ctrl-C: the count so far, marked as partial.
        run.cut(interrupted=True, partial=e)
    except LimitReached as e:
        # A budget spent (nodes, seconds, conflicts): what was found so far.
        run.limit_reached(e)
        run.cut(interrupted=False, partial=e)
    except KeyboardInterrupt:
        run.cut(interrupted=True)
    except MemoryError:
        # The size guards (covering.sizes) refuse what cannot fit before it is
        # built; this is the last net, for an estimate that fell short.
        error("out of memory (give a lower --max-memory to be refused sooner)")
        return EXIT_INCOMPLETE
    except BrokenPipeError:
        return _reader_gone()
    except OSError as e:
        return error(f"{e.filename or ''}: {e.strerror}" if e.filename else str(e))
    try:
        return run.finish()
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """The reader of stdout went away (e.g. `| head`): stop quietly, with
    nothing more written there."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0
