"""The labels of a problem's options: what a solution reports for each.

One rule, whichever builder made the problem: an option's label is the
label given to it (`add_option(..., label=...)`, `labels=` of the bulk
builders), else the tuple of its item tokens as written, colors included
(``("A", "x:red")``); an option read from a ``.dlx`` line is labelled the
same way, its DLX5 cost entries (``|5``) left out, and `Labels.text` gives
the line itself. `Problem.from_matrix` labels each option by its row
index. `ids=True` on the verbs gives option numbers instead.

A problem of a million options read from a file must not hold a million
Python objects before anyone asks for one, so labels come in runs of three
kinds: labels given one by one (a list), the lines of a text read whole
(one bytes buffer and the span of each line, split when asked), and
options whose label is their own entries (`ENTRIES`, made by the problem
when asked).

>>> labels = Labels()
>>> labels.append("first")
>>> labels.extend_lines(b"A B\\nC x:1 |5\\n", array("Q", [0, 3, 4, 12]))
>>> labels.extend_entries(2)
>>> len(labels), labels[0], labels[2], labels.text(2), labels[3] is ENTRIES
(5, 'first', ('C', 'x:1'), 'C x:1 |5', True)
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

__all__ = ["ENTRIES", "Labels", "tokens"]


def tokens(line: str) -> tuple[str, ...]:
    """The label of an option written as `line` in a ``.dlx`` file: its
    item tokens, colors included, its DLX5 cost entries (``|n``) left out.

    >>> tokens("A  x:red |2 B")
    ('A', 'x:red', 'B')
    """
    return tuple(t for t in line.split() if not t.startswith("|"))


class _Entries:
    """The label of an option that is its own entries (made by the problem)."""

    def __repr__(self) -> str:
        return "ENTRIES"

    def __reduce__(self) -> str:
        return "ENTRIES"


#: Stands for "this option's label is its entries".
ENTRIES: Any = _Entries()


class Labels:
    """Labels by option id, in runs (see the module's documentation)."""

    def __init__(self) -> None:
        # Each run: ("list", list), ("lines", (bytes, spans)) or ("entries", count).
        self._runs: list[tuple[str, Any]] = []
        # The id after the last of each run.
        self._ends: list[int] = []

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _run_end(self, added: int) -> None:
        self._ends[-1] += added

    def append(self, label: Any) -> None:
        """One more label."""
        if self._runs and self._runs[-1][0] == "list":
            self._runs[-1][1].append(label)
            self._run_end(1)
        else:
            self.extend([label])

    def extend(self, labels: list[Any]) -> None:
        """Labels given as a list (kept, not copied)."""
        if labels:
            self._runs.append(("list", labels))
            self._ends.append(len(self) + len(labels))

    def extend_lines(self, text: bytes, spans: array[int]) -> None:
        """One label per span ``(start, end)`` of UTF-8 `text` (spans flat:
        start, end, start, end, ...), decoded when asked."""
        if spans:
            self._runs.append(("lines", (text, spans)))
            self._ends.append(len(self) + len(spans) // 2)

    def extend_entries(self, count: int) -> None:
        """`count` options labelled by their entries."""
        if count:
            if self._runs and self._runs[-1][0] == "entries":
                self._runs[-1] = ("entries", self._runs[-1][1] + count)
                self._run_end(count)
            else:
                self._runs.append(("entries", count))
                self._ends.append(len(self) + count)

    def take_lines(self, ids: list[int]) -> Labels | None:
        """The labels of options `ids`, in that order, when they are all
        lines of one text (a file as read): its spans picked out, nothing
        decoded (a count's reduction keeps most options of a file); None
        otherwise.

        >>> labels = Labels(); labels.extend_lines(b"A B;C", array("Q", [0, 3, 4, 5]))
        >>> [labels.take_lines([1, 0])[i] for i in range(2)]
        [('C',), ('A', 'B')]
        """
        if len(self._runs) != 1 or self._runs[0][0] != "lines":
            return None
        text, spans = self._runs[0][1]
        picked = array(spans.typecode, [0]) * (2 * len(ids))
        picked[0::2] = array(spans.typecode, [spans[2 * i] for i in ids])
        picked[1::2] = array(spans.typecode, [spans[2 * i + 1] for i in ids])
        out = Labels()
        out.extend_lines(text, picked)
        return out

    def has_entries(self) -> bool:
        """Are some options labelled by their entries?"""
        return any(kind == "entries" for kind, _ in self._runs)

    def _locate(self, i: int) -> tuple[str, Any, int]:
        """The kind and the run of option `i`'s label, and its place in the run."""
        if not 0 <= i < len(self):
            raise IndexError(f"no option {i}")
        k = bisect_right(self._ends, i)
        kind, run = self._runs[k]
        return kind, run, i - (self._ends[k - 1] if k else 0)

    def __getitem__(self, i: int) -> Any:
        kind, run, j = self._locate(i)
        if kind == "list":
            return run[j]
        if kind == "lines":
            return tokens(self._line(run, j))
        return ENTRIES

    @staticmethod
    def _line(run: Any, j: int) -> str:
        text, spans = run
        return str(text[spans[2 * j]:spans[2 * j + 1]].decode("utf-8"))

    def text(self, i: int) -> str:
        """Option `i` as a line of text: the line it was read from, else its
        label's tokens (a tuple or list of names) joined by spaces, else the
        label as text. (`ENTRIES` labels are the problem's to make.)"""
        kind, run, j = self._locate(i)
        if kind == "lines":
            return self._line(run, j)
        label = self[i]
        if isinstance(label, (tuple, list)):
            return " ".join(map(str, label))
        return str(label)

    def __iter__(self) -> Iterator[Any]:
        for (kind, run), end, start in zip(self._runs, self._ends, [0, *self._ends]):
            if kind == "list":
                yield from run
            elif kind == "lines":
                for j in range(len(run[1]) // 2):
                    yield tokens(self._line(run, j))
            else:
                for _ in range(end - start):
                    yield ENTRIES

    def keep(self, kept: list[int]) -> Labels:
        """The labels of the options `kept` (ids in increasing order), as a list run.

        >>> labels = Labels(); labels.extend(["a", "b", "c"])
        >>> list(labels.keep([0, 2]))
        ['a', 'c']
        """
        out = Labels()
        out.extend([self[i] for i in kept])
        return out
