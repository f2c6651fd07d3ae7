"""One grammar, ``covering PUZZLE VERB [INPUT] [flags]``, and the older
spellings mapped onto it.

Before the verbs, ``dlx``, ``tromino`` and ``polyomino`` took the mode as a
flag (``covering dlx FILE --count``) and a few flags had other names
(``--cap``, ``--best``, ``generate --count``). Those forms keep working:
`rewrite` turns them into the verb form before the parser sees them, by the
table `ALIASES` (which the README lists).

>>> rewrite(["dlx", "big.dlx", "--count"])
['dlx', 'count', 'big.dlx']
>>> rewrite(["tromino", "9", "export"])
['tromino', 'export', '9']
>>> rewrite(["sudoku", "count", "p.txt", "--cap", "5"])
['sudoku', 'count', 'p.txt', '--limit', '5']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["VERBS", "ALIASES", "UsageError", "rewrite"]


class UsageError(Exception):
    """Flags that cannot go together, or a bad value: exit status 2."""


#: The verbs of each puzzle, the first one also what its older spelling
#: without a mode did.
VERBS: dict[str, tuple[str, ...]] = {
    "dlx": ("solve", "count", "unique", "best", "random", "export"),
    "tromino": ("solve", "count", "unique", "random", "export"),
    "polyomino": ("solve", "count", "unique", "best", "random", "export"),
    "queens": ("solve", "count", "unique", "random", "list", "infinite", "plot", "export"),
    "sudoku": ("solve", "count", "unique", "generate", "export"),
    "akari": ("solve", "count", "unique", "generate", "export"),
}

#: The older spellings and what they mean now (README, "Older spellings").
ALIASES: tuple[tuple[str, str], ...] = (
    ("covering dlx FILE", "covering dlx solve FILE --all"),
    ("covering dlx FILE --first", "covering dlx solve FILE"),
    ("covering dlx FILE --limit N", "covering dlx solve FILE --limit N"),
    ("covering dlx FILE --count", "covering dlx count FILE"),
    ("covering dlx FILE --count --first", "covering dlx count FILE --limit 1"),
    ("covering dlx FILE --unique", "covering dlx unique FILE"),
    ("covering dlx FILE --random S", "covering dlx random FILE --seed S --all"),
    ("covering dlx FILE --min-cost --best K", "covering dlx best FILE --limit K"),
    ("covering tromino N", "covering tromino solve N"),
    ("covering tromino N --count", "covering tromino count N"),
    ("covering tromino N --unique", "covering tromino unique N"),
    ("covering tromino N --random S", "covering tromino random N --seed S"),
    ("covering tromino N export", "covering tromino export N"),
    ("covering polyomino [export] ...", "covering polyomino solve|export ..."),
    ("covering polyomino ... --count | --unique | --random S", "covering polyomino count | unique | random --seed S ..."),
    ("covering polyomino ... --min-cost --limit K", "covering polyomino best ... --limit K"),
    ("covering sudoku|akari count ... --cap N", "covering sudoku|akari count ... --limit N"),
    ("covering sudoku|akari solve ... --unique", "covering sudoku|akari unique ..."),
    ("covering sudoku|akari generate --count N", "covering sudoku|akari generate --limit N"),
    ("covering akari generate --symmetry S", "covering akari generate --layout S"),
)

#: Flags of the top level that take a value (before the puzzle).
TOP_VALUES = {"--max-memory"}
#: The older mode flags, by puzzle: flag -> (verb, takes a value).
_MODES: dict[str, dict[str, tuple[str, bool]]] = {
    "dlx": {"--count": ("count", False), "--unique": ("unique", False), "--min-cost": ("best", False),
            "--random": ("random", True)},
    "tromino": {"--count": ("count", False), "--unique": ("unique", False), "--random": ("random", True)},
    "polyomino": {"--count": ("count", False), "--unique": ("unique", False), "--min-cost": ("best", False),
                  "--random": ("random", True)},
}


def _flag(token: str) -> str:
    return token.split("=", 1)[0]


def _positionals(rest: Sequence[str], takes_value: set[str]) -> list[int]:
    """Where the positional words of `rest` are (the values of flags skipped)."""
    found: list[int] = []
    k = 0
    while k < len(rest):
        token = rest[k]
        if token == "--":
            found.extend(range(k + 1, len(rest)))
            break
        if token.startswith("-") and token != "-":
            k += 2 if token in takes_value else 1
            continue
        found.append(k)
        k += 1
    return found


def _take(rest: list[str], flag: str, value: bool) -> tuple[bool, str | None]:
    """Removes `flag` (and its value) from `rest`: (was it there, its value)."""
    for k, token in enumerate(rest):
        if _flag(token) != flag:
            continue
        if "=" in token:
            del rest[k]
            return True, token.split("=", 1)[1]
        if value:
            if k + 1 >= len(rest):
                raise UsageError(f"{flag}: expected a value")
            given = rest[k + 1]
            del rest[k:k + 2]
            return True, given
        del rest[k]
        return True, None
    return False, None


def _rename(rest: list[str], old: str, new: str) -> None:
    for k, token in enumerate(rest):
        if _flag(token) == old:
            rest[k] = new + token[len(old):]


def _svg_values(rest: list[str]) -> list[str]:
    """``--svg FILE`` takes FILE only when it ends in ``.svg`` (or is
    ``-``); ``--svg`` before anything else is ``--svg -``, so that
    ``sudoku solve --svg puzzles.txt`` reads the puzzles rather than
    writing over them."""
    out: list[str] = []
    k = 0
    while k < len(rest):
        token = rest[k]
        if token == "--svg":
            nxt = rest[k + 1] if k + 1 < len(rest) else None
            if nxt is not None and (nxt == "-" or nxt.lower().endswith(".svg")):
                out.append(f"--svg={nxt}")
                k += 2
                continue
            out.append("--svg=-")
            k += 1
            continue
        out.append(token)
        k += 1
    return out


def rewrite(argv: Iterable[str], takes_value: set[str] | None = None) -> list[str]:
    """`argv` in the verb grammar: an older spelling (`ALIASES`) is mapped
    onto its verb, and a verb given after flags is moved next to its
    puzzle. `takes_value`: the flags that take a value (to tell a flag's
    value from a positional word)."""
    args = list(argv)
    # The older flags that take a value, beside today's; their `--count` and
    # `--symmetry` are switches in the older tiling and dlx forms.
    values = set(takes_value or ()) | TOP_VALUES | {"--random", "--best", "--cap"}
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in TOP_VALUES else 1
    if i >= len(args) or args[i] not in VERBS:
        return args
    puzzle = args[i]
    head, rest = args[:i + 1], _svg_values(args[i + 1:])
    pos = _positionals(rest, values)
    verb: str | None = None
    if pos and rest[pos[0]] in VERBS[puzzle]:
        verb = rest.pop(pos[0])
    elif puzzle in ("tromino", "polyomino") and any(rest[k] == "export" for k in pos):
        rest.pop(next(k for k in pos if rest[k] == "export"))
        verb = "export"
    if verb is None and ("-h" in rest or "--help" in rest):
        return head + rest  # the puzzle's help, listing its verbs
    if verb is None and puzzle in _MODES:
        verb = _mode(puzzle, rest)
    if verb is None:
        return head + rest
    if verb == "random":
        _rename(rest, "--random", "--seed")
    if puzzle in ("sudoku", "akari"):
        if verb == "count":
            _rename(rest, "--cap", "--limit")
        if verb == "solve" and _take(rest, "--unique", False)[0]:
            verb = "unique"
        if verb == "generate":
            _rename(rest, "--count", "--limit")
            if puzzle == "akari":
                _rename(rest, "--symmetry", "--layout")
    if verb == "best":
        _rename(rest, "--best", "--limit")
    return head + [verb] + rest


def _mode(puzzle: str, rest: list[str]) -> str:
    """The verb of an older spelling that gave the mode as a flag (the
    flags taken out of `rest`, their values put as the verb's flags)."""
    modes = [(flag, verb, value) for flag, (verb, value) in _MODES[puzzle].items()
             if any(_flag(t) == flag for t in rest)]
    first = any(_flag(t) == "--first" for t in rest)
    if len(modes) > 1:
        raise UsageError(f"{modes[0][0]} and {modes[1][0]} cannot go together")
    if not modes:
        if puzzle != "dlx":
            return "solve"
        if first:
            if any(_flag(t) == "--limit" for t in rest):
                raise UsageError("--first and --limit cannot go together")
            _take(rest, "--first", False)
            return "solve"
        if not any(_flag(t) in ("--limit", "--all") for t in rest):
            rest.append("--all")  # `covering dlx FILE` printed every solution
        return "solve"
    flag, verb, value = modes[0]
    _, given = _take(rest, flag, value)
    if value and given is not None:
        rest += ["--seed", given]
    if first:
        _take(rest, "--first", False)
        if verb in ("count", "random"):
            rest += ["--limit", "1"]
    elif verb == "random" and puzzle == "dlx" and not any(_flag(t) == "--limit" for t in rest):
        rest.append("--all")  # `covering dlx FILE --random S` printed every solution, shuffled
    return verb
