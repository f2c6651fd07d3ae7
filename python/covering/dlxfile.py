"""Knuth's ``.dlx`` text format, read and written.

The format of Knuth's programs DLX1, DLX2 and DLX3 (and SSXCC):

* lines whose first non-blank character is ``|`` are comments; blank lines
  are skipped;
* the first other line names the items: the primary ones, then ``|``, then
  the secondary ones. A primary item may carry bounds (DLX3): ``u:v|name``
  means covered between u and v times, ``v|name`` exactly v times;
* each further line is an option: item names separated by blanks; a
  secondary item may carry a color, ``name:color``; entries ``|n`` (DLX5's
  costs, decimal) may follow any item, the option costing their sum (only
  `Problem.best` looks at costs).

We read every file those programs read, the same way, with their errors
(unknown item, item repeated in an option, no primary item, bad bounds), each
naming the line; options without primary item are skipped with one warning,
as they skip them. The reading is done in one pass in Rust (the `dlx`
crate, bytes in, arrays out): the options never become Python objects, and
each option's line is kept as a span of the text, made a string only when a
solution reports it. We also accept what they refuse for its size only: names longer
than 8 characters and colors longer than one. Writing such a problem gives a
`NameWarning`, since Knuth's programs could not read the file.

>>> from covering import Problem
>>> text = '''
... | Knuth's DLX3 example
... A B 2:3|C | X Y
... A B X:0 Y:0
... A C X:1 Y:1
... C X:0
... B X:1
... C Y:1
... '''
>>> p = Problem.from_dlx(text)
>>> p.bounds("C")
(2, 3)
>>> list(p.solutions())
[[('A', 'C', 'X:1', 'Y:1'), ('B', 'X:1'), ('C', 'Y:1')]]
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable
from typing import TypeVar

from . import _core, sizes
from .errors import (
    BoundsError,
    ColorError,
    CostError,
    DlxSyntaxError,
    DuplicateItemError,
    InputError,
    NameWarning,
    NoPrimaryItemError,
    OptionSkippedWarning,
    ProblemError,
    UnknownItemError,
    warn,
)
from .labels import Labels
from .model import ProblemData

#: Names a warning lists at most.
_NAMED = 5

__all__ = ["read_dlx", "write_dlx"]

P = TypeVar("P", bound=ProblemData)


def _located(error: type[ProblemError], lineno: int, line: str, message: str) -> ProblemError:
    e = error(f"line {lineno}: {message}")
    e.lineno = lineno  # type: ignore[attr-defined]
    e.line = line  # type: ignore[attr-defined]
    return e


def _error(kind: str, lineno: int, line: str, fields: list[str]) -> ProblemError:
    """The reader's error, worded (names quoted as Python quotes them)."""
    if kind == "not_utf8":
        column, byte = int(fields[0]), int(fields[1])
        return _located(InputError, lineno, "", f"byte {column}: not UTF-8 (byte 0x{byte:02x})")
    if kind == "control":
        column, code = int(fields[0]), int(fields[1])
        return _located(InputError, lineno, "", f"column {column}: control character U+{code:04X} in the text")
    if kind == "empty":
        return NoPrimaryItemError("no item line: the input is empty")
    name = fields[0] if fields else ""
    error, message = {
        "second_bar": (DlxSyntaxError, "the item line contains '|' twice"),
        "illegal_secondary": (DlxSyntaxError, f"illegal character in secondary item name {name!r}"),
        "illegal_primary": (DlxSyntaxError, f"illegal character in item name {name!r}"),
        "empty_item_name": (DlxSyntaxError, "empty item name"),
        "upper_bound_zero": (BoundsError, f"item {name!r}: upper bound is zero"),
        "lower_exceeds_upper": (BoundsError, f"item {name!r}: lower bound {fields[1:2] and fields[1]} exceeds "
                                             f"upper bound {fields[2:3] and fields[2]}"),
        "declared_twice": (DuplicateItemError, f"item {name!r} is declared twice"),
        "no_primary": (NoPrimaryItemError, "the item line has no primary item"),
        "empty_name_in": (DlxSyntaxError, f"empty item name in {name!r}"),
        "empty_color": (ColorError, f"empty color for item {name!r}"),
        "unknown_item": (UnknownItemError, f"unknown item {name!r}"),
        "appears_twice": (DuplicateItemError, f"item {name!r} appears twice"),
        "color_on_primary": (ColorError, f"primary item {name!r} cannot have a color"),
        "bad_cost": (DlxSyntaxError, f"option cost should be a decimal number, not {name!r}"),
        "cost_too_large": (CostError, f"the option's costs add up past 2**64 - 1 at {name!r}"),
        "too_large": (sizes.SizeError, "more entries than the engine's 32-bit numbers hold"),
    }.get(kind, (ProblemError, f"cannot read the file ({kind})"))
    return _located(error, lineno, line, message)


def read_dlx(text: bytes | str, cls: type[P] = ProblemData) -> P:  # type: ignore[assignment]
    """A problem (of class `cls`) from the text (or UTF-8 bytes) of a
    ``.dlx`` file; each option's label is its line, stripped. Lines and
    blanks are Knuth's (see `covering.textio`): a form feed inside a line
    is a blank.

    >>> p = read_dlx("A B | x\\nA x:1\\n| comment\\nB x:1\\nA B\\n")
    >>> p.primary, p.secondary, p.labels
    (['A', 'B'], ['x'], [('A', 'x:1'), ('B', 'x:1'), ('A', 'B')])
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    # What the reader will hold, before reading (the engine's estimate,
    # `covering.sizes`); the engine that solves it checks its own share
    # when it is built.
    lines, words = _core.dlx_shape(data)
    sizes.check(f"a .dlx file of {len(data):,} bytes ({lines:,} lines)",
                _core.dlx_held_bytes(len(data), lines, words))
    result = _core.read_dlx(data)
    if isinstance(result, tuple):
        kind, lineno, line, fields = result
        raise _error(kind, lineno, line, fields) from None
    n_skipped = result["n_skipped"]
    if n_skipped:
        # One warning for the file, located at the first option skipped.
        (lineno, line), *others = result["skipped"]
        noun = "option" if n_skipped == 1 else f"{n_skipped} options"
        also = ""
        if others:
            also = f" (also line{'s' if len(others) > 1 else ''} {', '.join(str(n) for n, _ in others)}"
            also += ", ...)" if n_skipped > len(others) + 1 else ")"
        warn(f"line {lineno}: {noun} without primary item skipped: {line}{also}", OptionSkippedWarning)
    arrays = tuple(array("I") for _ in range(3))
    for a, key in zip(arrays, ("option_start", "option_item", "option_color")):
        a.frombytes(result[key])
    spans = array("Q")
    spans.frombytes(result["labels"])
    labels = Labels()
    labels.extend_lines(data, spans)
    names: list[Hashable] = result["items"]
    costs = None
    if result["option_cost"] is not None:
        costs = array("Q")
        costs.frombytes(result["option_cost"])
    return cls.from_read(names, result["n_primary"], result["lo"], result["hi"], result["colors"],
                         arrays, labels, result["compiled"], costs)  # type: ignore[arg-type]


def _writable(kind: str, value: object) -> str:
    text = str(value)
    if not text or any(c.isspace() for c in text) or ":" in text or "|" in text:
        raise ProblemError(f"cannot write {kind} {value!r} in .dlx format (empty, blank, ':' or '|')")
    return text


def write_dlx(problem: ProblemData) -> str:
    """The text of a ``.dlx`` file for `problem` (labels are not written),
    in time linear in its size: each item and color is named once, and each
    option is its names joined, then its cost as DLX5 writes it (``|n``)
    when it is not 0.

    >>> p = ProblemData(); p.add_primary(["A"]); p.add_primary(["N"], bounds=(2, 3))
    >>> p.add_secondary(["x"])
    >>> _ = p.add_option(["A", "N", "x:1"]); _ = p.add_option(["N"], cost=5)
    >>> print(write_dlx(p), end="")
    A 2:3|N | x
    A N x:1
    N |5
    """
    names: list[str] = []
    written: set[str] = set()
    for name in problem.primary + problem.secondary:
        text = _writable("item", name)
        if text in written:
            raise DuplicateItemError(f"two items are written {text!r}")
        written.add(text)
        names.append(text)
    long_names = [n for n in names if len(n) > 8]
    n_primary = len(problem.primary)
    head = []
    for k, primary in enumerate(problem.primary):
        lo, hi = problem.bounds(primary)
        prefix = "" if (lo, hi) == (1, 1) else (f"{hi}|" if lo == hi else f"{lo}:{hi}|")
        head.append(prefix + names[k])
    if problem.secondary:
        head.append("|")
        head.extend(names[n_primary:])
    start, item, color = problem.option_arrays()
    # Each entry's word: item k alone is names[k]; colored ones are made
    # once per (item, color) met.
    color_names = problem.color_names
    colored = {(i, c): f"{names[i]}:{_writable('color', color_names[c - 1])}"
               for i, c in set(zip(item, color)) if c}
    long_colors = sorted({str(color_names[c - 1]) for _, c in colored if len(str(color_names[c - 1])) > 1})
    entry = [colored[i, c] if c else names[i] for i, c in zip(item, color)] if colored else [names[i] for i in item]
    out = [" ".join(head)]
    if problem.has_costs:
        costs = problem.costs
        out.extend(" ".join(entry[start[o]:start[o + 1]]) + (f" |{costs[o]}" if costs[o] else "")
                   for o in range(len(start) - 1))
    else:
        out.extend(" ".join(entry[start[o]:start[o + 1]]) for o in range(len(start) - 1))
    if long_names or long_colors:
        said = [f"{what} {', '.join(repr(n) for n in some[:_NAMED])}{', ...' if len(some) > _NAMED else ''}"
                for what, some in (("names longer than 8 characters:", long_names),
                                   ("colors longer than 1:", long_colors)) if some]
        warn(f"{'; '.join(said)}: Knuth's programs cannot read this file", NameWarning)
    return "\n".join(out) + "\n"
