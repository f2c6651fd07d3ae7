"""One vocabulary of flags, the same on every command that takes them:
``--limit``, ``--all``, ``--seed``, ``--json``, ``--svg [FILE]``,
``--threads``, ``--method``, ``--engine``, ``--progress``, and the budgets
``--seconds``, ``--nodes`` and ``--max-memory``.

Numbers are read by the API's rules (`covering.limits`): ``--seconds 0``
stops at once, ``--seconds inf`` never; a limit or node budget from 2**64
on never stops.

>>> seconds("inf") is None, seconds("0"), limit("2")
(True, 0.0, 2)
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from .. import limits, sizes
from ..errors import ProblemError
from .grammar import UsageError

__all__ = [
    "limit", "seconds", "positive", "add_export", "asked", "wanted", "pick_seed", "say_seed", "seed_for", "byte_size", "add_output", "add_limit", "add_seed", "add_threads",
    "add_progress", "add_method", "add_engine", "add_budgets", "add_color",
]


def _checked(read: Callable[[Any, str], Any], value: object, name: str) -> Any:
    """`value` read by one of `covering.limits`' rules; its error as argparse's."""
    try:
        return read(value, name)
    except ProblemError as e:
        raise argparse.ArgumentTypeError(str(e).split(": ", 1)[-1]) from None


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def limit(text: str) -> int:
    """A count: an integer >= 0, kept as given (the API reads one from
    2**64 on as no limit: a search that never stops on it)."""
    n = _integer(text)
    _checked(limits.limit, n, "limit")
    return n


def non_negative(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


def positive(text: str) -> int:
    value = non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def seed(text: str) -> int:
    found: int = _checked(limits.seed, _integer(text), "seed")
    return found


def seconds(text: str) -> float | None:
    """A number of seconds >= 0; ``inf`` (or past a century) is no budget."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    found: float | None = _checked(limits.seconds, value, "seconds")
    return found


def positive_seconds(text: str) -> float:
    """A number of seconds > 0 (a wait: ``0`` would never wait)."""
    value = seconds(text)
    if value is not None and value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, not {text!r}")
    return 1e18 if value is None else value


def byte_size(text: str) -> int:
    """A number of bytes, with an optional K, M, G or T (powers of 1024): ``512M``."""
    try:
        return sizes.parse_bytes(text)
    except ProblemError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


#: What a verb that prints no line of its own before the summary says of ``--json``.
SUMMARY_ONLY = "the summary only"

SUMMARY_KEYS = 'with "command", "count", "complete", "stopped" and "seconds"'


def add_output(parser: argparse.ArgumentParser, payload: str, svg: str | None = None) -> None:
    """``--json`` (one object a line: `payload`, then the summary; or the
    summary alone, `SUMMARY_ONLY`) and, where the puzzle draws, ``--svg [FILE]``."""
    what = (f"one JSON line, the summary {SUMMARY_KEYS}" if payload == SUMMARY_ONLY
            else f"one JSON object a line: {payload}, then a summary line {SUMMARY_KEYS}")
    parser.add_argument("--json", action="store_true", help=what)
    if svg is not None:
        parser.add_argument("--svg", nargs="?", const="-", metavar="FILE",
                            help=f"{svg}: with FILE (ending in .svg) the first picture into FILE, the text "
                            "as usual on stdout; without FILE (or '-') the pictures on stdout instead of text")


def add_export(verbs: argparse._SubParsersAction, description: str) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``export`` verb of a puzzle: its exact cover problem as Knuth's
    .dlx (``--json``: one line ``{"dlx": text}``); the caller adds the input."""
    e: argparse.ArgumentParser = verbs.add_parser(
        "export", help="one puzzle's exact cover problem in Knuth's .dlx format", description=description)
    add_output(e, '{"dlx": text}')
    add_budgets(e, searches=False)
    e.set_defaults(noun="problems")
    return e


def add_limit(parser: argparse.ArgumentParser, helptext: str, *, every: str | None = None) -> None:
    parser.add_argument("--limit", type=limit, metavar="N", help=helptext)
    if every is not None:
        parser.add_argument("--all", action="store_true", help=every)


def add_seed(parser: argparse.ArgumentParser, helptext: str = "the random seed (default: a random one, said on "
             "stderr)") -> None:
    parser.add_argument("--seed", type=seed, metavar="S", help=helptext)


def asked(args: argparse.Namespace) -> int:
    """How many ``--limit N`` asks; one without it."""
    return 1 if args.limit is None else int(args.limit)


def wanted(args: argparse.Namespace) -> int | None:
    """How many solutions ``--all`` (None: every one) or ``--limit N`` asks;
    one when neither is given.

    >>> wanted(argparse.Namespace(all=False, limit=None)), wanted(argparse.Namespace(all=True, limit=None))
    (1, None)
    """
    every = getattr(args, "all", False)
    if every and args.limit is not None:
        raise UsageError("--all and --limit cannot go together")
    return None if every else asked(args)


def pick_seed(given: int | None) -> int:
    """`given`, else a random seed (to be said, so that the run can be made again)."""
    return random.randrange(2**63) if given is None else given


def say_seed(seed: int, again: str) -> None:
    """The seed on stderr: ``covering: seed S (--seed S makes these again)``."""
    print(f"covering: seed {seed} (--seed {seed} {again})", file=sys.stderr)


def seed_for(args: argparse.Namespace, again: str, *, always: bool = False) -> int:
    """``--seed S``, else a random seed; said on stderr when chosen here (or `always`)."""
    seed = pick_seed(args.seed)
    if always or args.seed is None:
        say_seed(seed, again)
    return seed


def add_threads(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=positive, metavar="N",
                        help="threads to use (default: $COVERING_THREADS, else all cores; a memo count: one "
                        "unless given)")


def add_progress(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="show a progress line on stderr, where the verb has one (default: when stderr is "
                       "a terminal)")
    group.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")


def add_method(parser: argparse.ArgumentParser, *, search: bool = True) -> None:
    """--method, --item-order, --branching and --memo-bytes: how a count is made (`covering.counting`);
    with `search`, --branching takes the search's learning rules too."""
    parser.add_argument("--method", choices=["auto", "search", "memo", "frontier", "kasteleyn"], default=None,
                        help="how counts are made: auto (default: Kasteleyn's where it applies, the frontier "
                        "when its chosen item order is narrow, else the methods measured in turns of work), "
                        "search (dancing links on every core), memo (look up sub-problems met before; one "
                        "thread unless --threads), frontier (items settled one by one in a narrow order, only "
                        "the live frontiers kept), kasteleyn (the perfect matchings of a planar graph, by a "
                        "determinant: every option two primary items)")
    parser.add_argument("--item-order", choices=["auto", "input"], default="auto",
                        help="how the frontier and the memo's first rule take the primary items: auto (default: "
                        "an order chosen to keep the frontier narrow) or input (as the input lists them)")
    if search:
        parser.add_argument("--branching", choices=["first", "mrv", "wtd", "frb", "binary"],
                            help="the rule for the item to branch on: the memo's first (the first uncovered "
                            "item; boards row by row) or mrv (the fewest options, the search's default); or a "
                            "search by Knuth's learning rules, wtd (weights raised on the items a try leaves "
                            "empty) or frb (failure rates), or by binary branching (an option taken, then "
                            "left out); default: the probe's choice")
    else:
        parser.add_argument("--branching", choices=["first", "mrv"],
                            help="the memo's rule for the item to branch on: first (the first uncovered item; "
                            "boards row by row) or mrv (the fewest options); default: the probe's choice")
    parser.add_argument("--memo-bytes", type=byte_size, metavar="SIZE",
                        help="the memory of the memo, in bytes or with K, M, G (default 1G); "
                        "past it entries are evicted and the count stays exact")


def add_search_branching(parser: argparse.ArgumentParser) -> None:
    """--branching for the verbs that search for solutions (`covering.solver.BRANCHINGS`)."""
    parser.add_argument("--branching", choices=["mrv", "wtd", "frb", "binary"], default="mrv",
                        help="how the search branches: mrv (default: on each option of the item with the fewest "
                        "options), or Knuth's other rules, on dancing cells: wtd (weights raised on the items a "
                        "try leaves empty), frb (failure rates), binary (an option taken, then left out); other "
                        "than mrv, a search by that rule alone")


def add_engine(parser: argparse.ArgumentParser, *, sat: bool = True) -> None:
    choices = ["auto", "bits", "cells", "sat"] if sat else ["auto", "bits", "cells"]
    parser.add_argument("--engine", choices=choices, default="auto",
                        help="auto (default: bitsets or dancing cells by the problem's size; for a first "
                        "solution and uniqueness, dancing links then the CDCL solver where the tree is heavy), "
                        "bits, cells" + (", or sat (the CDCL solver: solutions in no order, counts only with "
                                         "--limit)" if sat else ""))


def add_budgets(parser: argparse.ArgumentParser, *, searches: bool = True) -> None:
    """The budgets (`covering.cli.budget`) and ``--max-memory``, on every
    verb; ``--nodes`` only where something searches (`searches`)."""
    group = parser.add_argument_group("budgets (exit status 3 when one is spent, with what was found so far)")
    group.add_argument("--seconds", type=seconds, metavar="S",
                       help="stop after S seconds of wall time from the start of the process, reading "
                       "included (0: at once; inf: never)")
    if searches:
        add_progress(parser)
        group.add_argument("--nodes", type=limit, metavar="N", help="stop a search after N nodes (each search "
                           "of the run)")
    group.add_argument("--max-memory", type=byte_size, metavar="SIZE", default=argparse.SUPPRESS,
                       help="refuse what would need more memory than SIZE (bytes, or with K, M, G, T; default "
                       "$COVERING_MAX_MEMORY, else half of what this process may use): an engine that would "
                       "not fit is refused with its estimate (exit status 1)")


def add_color(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--color", dest="color", action="store_true", default=None,
                       help="colour the pictures (default: when stdout is a terminal)")
    group.add_argument("--no-color", dest="color", action="store_false", help="plain text pictures")
