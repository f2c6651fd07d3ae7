"""The one reader of text input: bytes to lines, as Knuth's programs read them.

Every text format of `covering` (``.dlx`` files, Sudoku lines and grids,
Akari grids and URLs, polyomino pieces and boards) goes through here, so that
they all agree on what a line and a blank are:

* a line ends at ``\\n`` (a ``\\r`` before it is dropped); nothing else ends
  a line: Python's `str.splitlines` also splits at ``\\v``, ``\\f``,
  ``\\x1c``-``\\x1e``, ``\\x85``, U+2028 and U+2029, and Knuth's programs
  (which read with ``fgets``) do not;
* inside a line, space, ``\\t``, ``\\v``, ``\\f`` and ``\\r`` are blanks, as
  C's ``isspace`` has them; no other character is (a no-break space or an
  ideographic space is part of a name, as it is for Knuth);
* any other control character (C0, DEL, C1, U+2028, U+2029) is an error that
  names the line and column: it is never what the writer meant;
* bytes must be UTF-8 (Knuth's programs take names as raw bytes; we take
  them as text, a deliberate difference): other bytes are an error naming
  the line and the byte. A byte-order mark at the very start is skipped.

>>> lines("A B\\fC\\r\\nD\\x0bE\\n")
['A B\\x0cC', 'D\\x0bE']
>>> words("A B\\fC")
['A', 'B', 'C']
>>> try:
...     lines("ok\\nA\\x1cB\\n")
... except InputError as e:
...     print(e)
line 2, column 2: control character U+001C in the text
"""

from __future__ import annotations

import re
import unicodedata

from .errors import InputError

__all__ = ["BLANKS", "InputError", "decode", "lines", "words", "is_blank", "blocks"]

#: The blanks inside a line (C's isspace, less the newline that ends it).
BLANKS = " \t\v\f\r"
_WORDS = re.compile(f"[^{re.escape(BLANKS)}]+")
# Characters that may not appear: control characters other than the blanks
# and the newline, and the Unicode line and paragraph separators.
_BAD = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def decode(data: bytes | str) -> str:
    """The text of `data`: bytes are decoded as UTF-8 (an error names the
    line and byte), a leading byte-order mark is skipped.

    >>> decode(b"\\xef\\xbb\\xbfA B\\n")
    'A B\\n'
    >>> try:
    ...     decode(b"A\\nB \\xff\\n")
    ... except InputError as e:
    ...     print(e)
    line 2, byte 3: not UTF-8 (byte 0xff)
    """
    if isinstance(data, str):
        text = data
    else:
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            line_start = data.rfind(b"\n", 0, e.start) + 1
            lineno = data.count(b"\n", 0, e.start) + 1
            raise InputError(
                f"byte {e.start - line_start + 1}: not UTF-8 (byte 0x{data[e.start]:02x})", lineno=lineno
            ) from None
    return text.removeprefix("\ufeff")


def lines(data: bytes | str) -> list[str]:
    """The lines of `data` (decoded as `decode` does), each without its
    ``\\n`` or ``\\r\\n``; an error names the line and column (1-based) of
    a control character that is not a blank.

    >>> lines("a\\r\\n\\nb")
    ['a', '', 'b']
    """
    text = decode(data)
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    for lineno, line in enumerate(out, 1):
        if line.endswith("\r"):
            line = out[lineno - 1] = line[:-1]
        bad = _BAD.search(line)
        if bad:
            ch = bad.group()
            raise InputError(f"column {bad.start() + 1}: control character U+{ord(ch):04X} in the text", lineno=lineno)
    return out


def words(line: str) -> list[str]:
    """The words of a line, split at the blanks `BLANKS` only.

    >>> words(" a\\tb\\u3000c ")
    ['a', 'b\\u3000c']
    """
    return _WORDS.findall(line)


def is_blank(line: str) -> bool:
    """Is the line empty or made of blanks only?

    >>> is_blank(" \\t\\f"), is_blank(" x")
    (True, False)
    """
    return not line.strip(BLANKS)


def blocks(data: bytes | str) -> list[tuple[int, list[str]]]:
    """The blocks of a text separated by blank lines, each with the number
    of its first line: the form of every file of several pictures (pieces,
    puzzles over a canvas).

    >>> blocks("a\\nb\\n\\n \\nc\\n")
    [(1, ['a', 'b']), (5, ['c'])]
    """
    found: list[tuple[int, list[str]]] = []
    after_blank = True
    for lineno, line in enumerate(lines(data), 1):
        if is_blank(line):
            after_blank = True
            continue
        if after_blank:
            found.append((lineno, []))
            after_blank = False
        found[-1][1].append(line)
    return found


def name_of(ch: str) -> str:
    """A character as a person can read it in a message.

    >>> name_of("x"), name_of("\\x0c")
    ("'x'", 'U+000C')
    """
    return f"U+{ord(ch):04X}" if unicodedata.category(ch).startswith("C") else repr(ch)
