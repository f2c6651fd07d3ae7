"""Knuth's ``.dlx`` text format, read and written.

The format of Knuth's programs DLX1, DLX2 and DLX3 (and SSXCC):

* lines whose first non-blank character is ``|`` are comments; blank lines
  are skipped;
* the first other line names the items: the primary ones, then ``|``, then
  the secondary ones. A primary item may carry bounds (DLX3): ``u:v|name``
  means covered between u and v times, ``v|name`` exactly v times;
* each further line is an option: item names separated by blanks; a
  secondary item may carry a color, ``name:color``.

We read every file those programs read, the same way, with their errors
(unknown item, item repeated in an option, no primary item, bad bounds), each
naming the line; an option without primary item is skipped with a warning,
as they do. We also accept what they refuse for its size only: names longer
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
[['A C X:1 Y:1', 'B X:1', 'C Y:1']]
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING

from . import sizes, textio
from .errors import (
    BoundsError,
    ColorError,
    DlxSyntaxError,
    DuplicateItemError,
    NameWarning,
    NoPrimaryItemError,
    OptionSkippedWarning,
    ProblemError,
    UnknownItemError,
)

if TYPE_CHECKING:
    from .problem import Problem

__all__ = ["read_dlx", "write_dlx"]

# DLX3's bound prefix: `u:v|name`, `v|name`; as in DLX3, an empty number is 0
# (`:2|A` is `0:2|A`, and `2:|A` has the upper bound zero).
_BOUNDS = re.compile(r"(?:([0-9]*):)?([0-9]*)\|(.*)")


def _located(error: type[ProblemError], lineno: int, line: str, message: str) -> ProblemError:
    e = error(f"line {lineno}: {message}")
    e.lineno = lineno  # type: ignore[attr-defined]
    e.line = line  # type: ignore[attr-defined]
    return e


def _unreadable(e: textio.InputError) -> ProblemError:
    """The reader's error, located as the other errors of this module are."""
    return _located(textio.InputError, e.lineno or 0, "", e.reason)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """The meaningful lines: (line number, text), comments and blanks skipped."""
    for lineno, line in enumerate(textio.lines(text), 1):
        stripped = line.strip(textio.BLANKS)
        if stripped and not stripped.startswith("|"):
            yield lineno, line


def _item_tokens(line: str) -> Iterator[tuple[str, bool]]:
    """The names of the item line, each with "is it after the `|`?".

    As in Knuth's reader, a `|` that starts a token separates the primary
    items from the secondary ones, and may be glued to the next name.
    """
    secondary = False
    for token in textio.words(line):
        if token.startswith("|"):
            if secondary:
                raise DlxSyntaxError("the item line contains '|' twice")
            secondary = True
            token = token[1:]
            if not token:
                continue
        yield token, secondary


def read_dlx(text: bytes | str) -> Problem:
    """A `Problem` from the text (or bytes) of a ``.dlx`` file; each
    option's label is its line, stripped. Lines and blanks are Knuth's
    (see `covering.textio`): a form feed inside a line is a blank.

    >>> p = read_dlx("A B | x\\nA x:1\\n| comment\\nB x:1\\nA B\\n")
    >>> p.primary, p.secondary, p.labels
    (['A', 'B'], ['x'], ['A x:1', 'B x:1', 'A B'])
    """
    from .problem import Problem

    try:
        text = textio.decode(text)
    except textio.InputError as e:
        raise _unreadable(e) from None
    # An entry is at least a character and a blank: a guess at the size of
    # what will be built, before building it (`covering.sizes`).
    sizes.check_problem(f"a .dlx file of {len(text):,} characters", text.count("\n") + 1, len(text) // 3)
    p = Problem()
    lines = _lines(text)
    try:
        lineno, line = next(lines)
    except StopIteration:
        raise NoPrimaryItemError("no item line: the input is empty") from None
    except textio.InputError as e:  # (the first line read checks them all)
        raise _unreadable(e) from None
    try:
        for token, secondary in _item_tokens(line):
            if secondary:
                if ":" in token or "|" in token:
                    raise DlxSyntaxError(f"illegal character in secondary item name {token!r}")
                p.add_secondary([token])
                continue
            lo = hi = 1
            m = _BOUNDS.fullmatch(token)
            if m:
                hi = int(m.group(2) or 0)
                lo = hi if m.group(1) is None else int(m.group(1) or 0)
                token = m.group(3)
                if hi == 0:
                    raise BoundsError(f"item {token!r}: upper bound is zero")
                if lo > hi:
                    raise BoundsError(f"item {token!r}: lower bound {lo} exceeds upper bound {hi}")
            if not token:
                raise DlxSyntaxError("empty item name")
            if ":" in token or "|" in token:
                raise DlxSyntaxError(f"illegal character in item name {token!r}")
            p.add_primary([token], bounds=(lo, hi))
    except ProblemError as e:
        raise _located(type(e), lineno, line, str(e)) from None
    if not p.primary:
        raise _located(NoPrimaryItemError, lineno, line, "the item line has no primary item")
    for lineno, line in lines:
        entries: list[Hashable] = []
        try:
            for token in textio.words(line):
                name, colon, color = token.partition(":")
                if not name:
                    raise DlxSyntaxError(f"empty item name in {token!r}")
                if colon and not color:
                    raise ColorError(f"empty color for item {name!r}")
                if not p.has_item(name):
                    raise UnknownItemError(f"unknown item {name!r}")
                entries.append((name, color) if colon else name)
            with warnings.catch_warnings():
                warnings.simplefilter("error", OptionSkippedWarning)
                p.add_option(entries, label=line.strip(textio.BLANKS))
        except OptionSkippedWarning:
            warnings.warn(f"line {lineno}: option without primary item skipped: {line.strip(textio.BLANKS)}", OptionSkippedWarning, stacklevel=2)
        except ProblemError as e:
            message = re.sub(r"^option \d+: ", "", str(e))
            raise _located(type(e), lineno, line, message) from None
    return p


def _writable(kind: str, value: object) -> str:
    text = str(value)
    if not text or any(c.isspace() for c in text) or ":" in text or "|" in text:
        raise ProblemError(f"cannot write {kind} {value!r} in .dlx format (empty, blank, ':' or '|')")
    return text


def write_dlx(problem: Problem) -> str:
    """The text of a ``.dlx`` file for `problem` (labels are not written).

    >>> from covering import Problem
    >>> p = Problem(); p.add_primary(["A"]); p.add_primary(["N"], bounds=(2, 3))
    >>> p.add_secondary(["x"])
    >>> _ = p.add_option(["A", "N", "x:1"]); _ = p.add_option(["N"])
    >>> print(write_dlx(p), end="")
    A 2:3|N | x
    A N x:1
    N
    """
    names: dict[Hashable, str] = {}
    long_names = False
    for item in problem.primary + problem.secondary:
        text = _writable("item", item)
        if text in names.values():
            raise DuplicateItemError(f"two items are written {text!r}")
        names[item] = text
        long_names |= len(text) > 8
    head = []
    for item in problem.primary:
        lo, hi = problem.bounds(item)
        prefix = "" if (lo, hi) == (1, 1) else (f"{hi}|" if lo == hi else f"{lo}:{hi}|")
        head.append(prefix + names[item])
    if problem.secondary:
        head.append("|")
        head.extend(names[s] for s in problem.secondary)
    out = [" ".join(head)]
    long_colors = False
    for i in range(problem.n_options):
        words = []
        for item, color in problem.option(i):
            if color is None:
                words.append(names[item])
            else:
                c = _writable("color", color)
                long_colors |= len(c) > 1
                words.append(f"{names[item]}:{c}")
        out.append(" ".join(words))
    if long_names or long_colors:
        warnings.warn(
            "names longer than 8 characters or colors longer than 1: Knuth's programs cannot read this file",
            NameWarning,
            stacklevel=2,
        )
    return "\n".join(out) + "\n"
