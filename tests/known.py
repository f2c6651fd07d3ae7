"""The known counts of tests/known-counts.txt, the one table the tests of
every crate and of Python read."""

from __future__ import annotations

from pathlib import Path

TABLE = Path(__file__).with_name("known-counts.txt")


def known_counts() -> list[tuple[str, tuple[int | None, ...], int]]:
    """(what, its numbers, the count) of each line; a hole of ``-`` is None."""
    out = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            what, *numbers, count = line.split()
            out.append((what, tuple(None if x == "-" else int(x) for x in numbers), int(count)))
    return out


#: The seeds' L-tromino boards: (n, hole) to the count.
L_TROMINO: dict[tuple[int, int | None], int] = {
    (int(s[0] or 0), s[1]): c for w, s, c in known_counts() if w == "l-tromino"
}
#: 7 x 7 less each cell of the seeds' table.
TROMINO_7X7: dict[int, int] = {hole: c for (n, hole), c in L_TROMINO.items() if n == 7 and hole is not None}
#: Queens (OEIS A000170): n to the count.
QUEENS: dict[int, int] = {int(s[0] or 0): c for w, s, c in known_counts() if w == "queens"}
