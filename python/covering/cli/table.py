"""Each puzzle's command as one table: its verbs, the input they read, the
flags each takes and what ``--json`` prints, from which the parsers are
built (`add_command`) and which the dispatcher (`covering.cli.dispatch`)
runs.

>>> import argparse
>>> sub = argparse.ArgumentParser(prog="covering").add_subparsers(dest="puzzle")
>>> def face(args, run): ...
>>> table = Command("toy", "a toy", "A toy puzzle.", lambda p: None, face,
...                 (Verb("solve", "the first solution", lambda args, run: None),))
>>> add_command(sub, table)
>>> sorted(sub.choices["toy"]._subparsers._group_actions[0].choices)
['solve']
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NamedTuple

from . import flags

__all__ = ["Verb", "Command", "add_command"]

#: Adds flags (or the input) to a verb's parser.
Adder = Callable[[argparse.ArgumentParser], None]
#: Runs a verb: (the parsed flags, the run) -> None, or an exit status for a
#: verb that prints no summary.
Runner = Callable[[argparse.Namespace, Any], Any]


class Verb(NamedTuple):
    """One row of a puzzle's table."""

    name: str
    help: str
    run: Runner
    #: What ``--json`` prints before the summary (None: the summary only).
    payload: str | None = None
    #: What ``--svg`` draws, where the verb draws.
    svg: str | None = None
    #: The verb's own flags, in the order ``--help`` lists them.
    flags: tuple[Adder, ...] = ()
    #: What the summary's count counts, in messages.
    noun: str = "solutions"
    #: The answer is a count (printed alone on the last line).
    counts: bool = False
    #: Something searches (``--nodes`` and ``--progress`` mean something).
    searches: bool = True
    #: The verb reads the puzzle's input (`Command.input`).
    reads: bool = True


class Command(NamedTuple):
    """A puzzle's command: ``covering NAME VERB ...``."""

    name: str
    help: str
    description: str
    #: Adds the input (a file, N, a board) and the flags every verb reading it takes.
    input: Adder
    #: Makes the puzzle's face (`covering.cli.dispatch.Face`) from the flags and the run.
    face: Callable[[argparse.Namespace, Any], Any]
    verbs: tuple[Verb, ...]


def add_command(sub: argparse._SubParsersAction, command: Command,  # type: ignore[type-arg]
                only: str | None = None) -> None:
    """The parser of `command` and of each of its verbs, from its table;
    with `only`, that verb's alone with its flags (the others named, for
    the command's help and errors)."""
    p = sub.add_parser(command.name, help=command.help, description=command.description)
    verbs = p.add_subparsers(dest="verb", metavar="VERB", parser_class=type(p))
    verbs.required = True
    for verb in command.verbs:
        if only is not None and verb.name != only:
            verbs.add_parser(verb.name, help=verb.help)
            continue
        v = verbs.add_parser(verb.name, help=verb.help, description=f"covering {command.name} {verb.name}: "
                             f"{verb.help}.")
        if verb.reads:
            command.input(v)
        for add in verb.flags:
            add(v)
        flags.add_output(v, flags.SUMMARY_ONLY if verb.payload is None else verb.payload, verb.svg)
        flags.add_budgets(v, searches=verb.searches)
        v.set_defaults(run=verb.run, face=command.face, counts=verb.counts, noun=verb.noun)
