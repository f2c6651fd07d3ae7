"""One grammar, ``covering PUZZLE VERB [INPUT] [flags]``, and the older
spellings mapped onto it by one table.

Before the verbs, ``dlx``, ``tromino`` and ``polyomino`` took the mode as a
flag (``covering dlx FILE --count``), and a few flags had other names
(``--cap``, ``--best``, ``generate --count``, queens' ``--board`` and
``--output``). Those forms keep working: `rewrite` turns them into the verb
form before the parser sees them, by the rules of `ALIASES`, each row an
older form, what it means now, and the rule that maps one onto the other
(the docs' table is printed from it, `alias_table`, and each row's example
is tested to rewrite as it says).

>>> rewrite(["dlx", "big.dlx", "--count"])
['dlx', 'count', 'big.dlx']
>>> rewrite(["tromino", "9", "export"])
['tromino', 'export', '9']
>>> rewrite(["sudoku", "count", "p.txt", "--cap", "5"])
['sudoku', 'count', 'p.txt', '--limit', '5']
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import NamedTuple

__all__ = ["VERBS", "ALIASES", "Alias", "UsageError", "rewrite", "alias_table", "nearest"]


class UsageError(Exception):
    """Flags that cannot go together, or a bad value: exit status 2."""


#: The verbs of each puzzle.
VERBS: dict[str, tuple[str, ...]] = {
    "dlx": ("solve", "count", "unique", "best", "random", "export"),
    "tromino": ("solve", "count", "unique", "random", "export"),
    "polyomino": ("solve", "count", "unique", "best", "random", "export"),
    "queens": ("solve", "count", "unique", "random", "list", "infinite", "plot", "export"),
    "sudoku": ("solve", "count", "unique", "random", "generate", "export"),
    "akari": ("solve", "count", "unique", "generate", "export"),
}

MODE, RENAME, VERB = "mode", "rename", "verb"


class Alias(NamedTuple):
    """One older spelling: `old` means `new` (as the docs show them, with
    FILE, N, S and K for the values), by a rule of `kind`:

    - ``mode``: no verb given, `flag` present (None: no mode flag at all)
      gives the verb `to`; a flag that takes a value (`value`) gives it as
      ``--seed``; `extra` is appended when neither ``--limit`` nor
      ``--all`` is given;
    - ``rename``: in `verbs`, `flag` is written `to` (with `suffix`: only
      for a value that ends so);
    - ``verb``: in `verbs`, `flag` (a switch) makes the verb `to`.
    """

    old: str
    new: str
    kind: str
    puzzles: tuple[str, ...]
    flag: str | None
    to: str
    verbs: tuple[str, ...] = ()
    value: bool = False
    extra: tuple[str, ...] = ()
    suffix: str = ""


_TILINGS = ("tromino", "polyomino")
_MODES = ("dlx",) + _TILINGS
_BATCHES = ("sudoku", "akari")
_PICTURES = ("solve", "unique", "random", "list")

#: The older spellings and what they mean now.
ALIASES: tuple[Alias, ...] = (
    Alias("covering dlx FILE", "covering dlx solve FILE --all", MODE, ("dlx",), None, "solve", extra=("--all",)),
    Alias("covering dlx FILE --first", "covering dlx solve FILE", MODE, ("dlx",), "--first", "solve"),
    Alias("covering dlx FILE --count", "covering dlx count FILE", MODE, _MODES, "--count", "count"),
    Alias("covering dlx FILE --count --first", "covering dlx count FILE --limit 1", MODE, ("dlx",), "--first",
          "count"),
    Alias("covering dlx FILE --unique", "covering dlx unique FILE", MODE, _MODES, "--unique", "unique"),
    Alias("covering dlx FILE --random S", "covering dlx random FILE --seed S --all", MODE, ("dlx",), "--random",
          "random", value=True, extra=("--all",)),
    Alias("covering dlx FILE --min-cost --best K", "covering dlx best FILE --limit K", MODE, ("dlx", "polyomino"),
          "--min-cost", "best"),
    Alias("covering dlx best FILE --best K", "covering dlx best FILE --limit K", RENAME, ("dlx", "polyomino"),
          "--best", "--limit", ("best",)),
    Alias("covering tromino N", "covering tromino solve N", MODE, _TILINGS, None, "solve"),
    Alias("covering tromino N --count", "covering tromino count N", MODE, _TILINGS, "--count", "count"),
    Alias("covering tromino N --random S", "covering tromino random N --seed S", MODE, _TILINGS, "--random",
          "random", value=True),
    Alias("covering tromino N export", "covering tromino export N", MODE, _TILINGS, "export", "export"),
    Alias("covering polyomino --min-cost --limit K", "covering polyomino best --limit K", MODE, ("polyomino",),
          "--min-cost", "best"),
    Alias("covering sudoku count FILE --cap N", "covering sudoku count FILE --limit N", RENAME, _BATCHES, "--cap",
          "--limit", ("count",)),
    Alias("covering akari solve FILE --unique", "covering akari unique FILE", VERB, _BATCHES, "--unique", "unique",
          ("solve",)),
    Alias("covering sudoku generate --count N", "covering sudoku generate --limit N", RENAME, _BATCHES, "--count",
          "--limit", ("generate",)),
    Alias("covering akari generate --symmetry S", "covering akari generate --layout S", RENAME, ("akari",),
          "--symmetry", "--layout", ("generate",)),
    Alias("covering queens solve N --board", "covering queens solve N --draw", RENAME, ("queens",), "--board",
          "--draw", _PICTURES),
    Alias("covering queens plot N -o FILE.png", "covering queens plot N --png FILE.png", RENAME, ("queens",), "-o",
          "--png", ("plot",), suffix=".png"),
    Alias("covering queens plot N -o FILE.svg", "covering queens plot N --svg FILE.svg", RENAME, ("queens",), "-o",
          "--svg", ("plot",)),
    Alias("covering queens plot N --output FILE.png", "covering queens plot N --png FILE.png", RENAME, ("queens",),
          "--output", "--png", ("plot",), suffix=".png"),
    Alias("covering queens plot N --output FILE.svg", "covering queens plot N --svg FILE.svg", RENAME,
          ("queens",), "--output", "--svg", ("plot",)),
)


def alias_table() -> str:
    """The docs' table of the older spellings, from `ALIASES`.

    >>> print(alias_table().splitlines()[2])
    | `covering dlx FILE` | `covering dlx solve FILE --all` |
    """
    rows = ["| written | means |", "|---|---|"]
    rows += [f"| `{a.old}` | `{a.new}` |" for a in ALIASES]
    return "\n".join(rows) + "\n"


#: Flags of the top level that take a value (before the puzzle).
TOP_VALUES = {"--max-memory"}
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


def _rename(rest: list[str], old: str, new: str, suffix: str = "") -> None:
    """`old` written `new` in `rest` (with `suffix`: only before a value that ends so)."""
    for k, token in enumerate(rest):
        if _flag(token) != old:
            continue
        value = token.split("=", 1)[1] if "=" in token else rest[k + 1] if k + 1 < len(rest) else ""
        if value.lower().endswith(suffix):
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
    values = set(takes_value or ()) | TOP_VALUES | {"--random", "--best", "--cap", "-o", "--output"}
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
    elif pos and not _an_input(puzzle, rest[pos[0]]):
        # A word in the verb's place that is neither a verb nor an input
        # the older spellings take (a file, a size): a misspelled verb.
        raise UsageError(f"{puzzle}: unknown verb {rest[pos[0]]!r}{nearest(rest[pos[0]], VERBS[puzzle])}")
    if verb is None and ("-h" in rest or "--help" in rest):
        return head + rest  # the puzzle's help, listing its verbs
    if verb is None:
        verb = _mode(puzzle, rest, pos)
    if verb is None:
        return head + rest
    for alias in ALIASES:
        if puzzle not in alias.puzzles or verb not in alias.verbs or alias.flag is None:
            continue
        if alias.kind == RENAME:
            _rename(rest, alias.flag, alias.to, alias.suffix)
        elif alias.kind == VERB and _take(rest, alias.flag, False)[0]:
            verb = alias.to
    return head + [verb] + rest


def nearest(word: str, choices: Iterable[str], what: str = "verb") -> str:
    """The hint after an unknown word: `` (did you mean count?)``, or the
    words it could be where none is near.

    >>> nearest("cuont", VERBS["dlx"])
    ' (did you mean count?)'
    >>> nearest("gen", VERBS["akari"])
    ' (did you mean generate?)'
    >>> nearest("zz", ("solve", "count"))
    ' (the verbs: solve, count)'
    """
    import difflib  # (only on an error: its import costs a start-up 10 ms)

    choices = list(choices)
    starts = [c for c in choices if word and c.startswith(word.lower())]
    close = starts[:1] or difflib.get_close_matches(word.lower(), choices, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]}?)"
    return f" (the {what}s: {', '.join(choices)})"


def _an_input(puzzle: str, word: str) -> bool:
    """Whether `word`, where the verb goes, is an input of an older
    spelling: a file (or ``-``, or ``export``) for every puzzle, a size for
    the tilings and queens. A word that looks like a path (a dot, a slash)
    is taken for a file even when there is none, so that the error names
    the file."""
    if word in ("-", "export") or os.path.exists(word) or "." in word or "/" in word:
        return True
    return puzzle in ("tromino", "queens") and word.lstrip("+-").isdigit()


def _mode(puzzle: str, rest: list[str], pos: list[int]) -> str | None:
    """The verb of an older spelling that gave the mode as a flag (or as
    the word ``export``), by the ``mode`` rows of `ALIASES`: the flags
    taken out of `rest`, their values put as the verb's flags."""
    rows = [a for a in ALIASES if a.kind == MODE and puzzle in a.puzzles]
    if not rows:
        return None
    for k in pos:
        if rest[k] == "export" and any(a.flag == "export" for a in rows):
            del rest[k]
            return "export"
    modes: dict[str, Alias] = {}  # by flag, in the order the rows list them
    for a in rows:
        if a.flag not in (None, "--first", "export") and any(_flag(t) == a.flag for t in rest):
            modes.setdefault(a.flag, a)
    if len(modes) > 1:
        one, two = list(modes)[:2]
        raise UsageError(f"{one} and {two} cannot go together")
    first = any(_flag(t) == "--first" for t in rest)

    def given() -> bool:
        return any(_flag(t) in ("--limit", "--all") for t in rest)

    if modes:
        row = next(iter(modes.values()))
        _, value = _take(rest, row.flag or "", row.value)
        if row.value and value is not None:
            rest += ["--seed", value]
        if first:
            _take(rest, "--first", False)
            if row.to in ("count", "random"):
                rest += ["--limit", "1"]
        elif row.extra and not given():
            rest += list(row.extra)
        return row.to
    if first and any(a.flag == "--first" for a in rows):
        if any(_flag(t) == "--limit" for t in rest):
            raise UsageError("--first and --limit cannot go together")
        _take(rest, "--first", False)
        return next(a.to for a in rows if a.flag == "--first" and a.to == "solve")
    row = next(a for a in rows if a.flag is None)
    if row.extra and not given():
        rest += list(row.extra)  # `covering dlx FILE` printed every solution
    return row.to
