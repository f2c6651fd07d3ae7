"""Property tests over every text reader: the right answer or a `ProblemError`,
never another exception.

A short budget runs with the tests; ``COVERING_FUZZ_EXAMPLES`` raises it
(``benchmarks/fuzz.py`` runs a long one).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from covering import Problem, ProblemError
from covering.puzzles.akari import Akari, read_puzzles
from covering.puzzles.polyomino import Board, Shape
from covering.puzzles.sudoku import Sudoku, solve_text

EXAMPLES = int(os.environ.get("COVERING_FUZZ_EXAMPLES", "150"))
fuzz = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text near the formats: their own characters, blanks, newlines, control
# characters, non-ASCII letters and separators.
NEAR = st.text(
    alphabet=st.sampled_from(list("AB x:1|23#.\n\n\t\x0b\x0c\r\x00\x1c\x85\u2028\u3000é漢")), max_size=60
)
ANY_BYTES = st.binary(max_size=80)


def read_or_refuse(read: Callable[[Any], Any], data: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return read(data)
        except ProblemError:
            return None


# Text near OR-Library's layout: digits, signs, points, blanks, newlines,
# control characters, and numbers past 2^32 and 2^64.
NEAR_ORLIB = st.lists(st.one_of(
    st.sampled_from(["0", "1", "2", "3", "7", "-1", "2.5", "nan", "4294967295", "18446744073709551616",
                     "\n", " ", "\t", "\x00", "é"]),
    st.integers(0, 6).map(str)), max_size=40).map(" ".join)


@fuzz
@given(st.one_of(NEAR_ORLIB, NEAR, ANY_BYTES))
def test_orlib_reader(data: str | bytes) -> None:
    p = read_or_refuse(Problem.from_orlib, data)
    if p is not None:
        # A file read is a set partitioning problem the engine takes: its
        # cheapest cover, if any, covers every row once.
        try:
            best = p.best(1, nodes=2000)
        except ProblemError:
            return
        except Exception as e:  # LimitReached only
            assert type(e).__name__ == "LimitReached", e
            return
        for s in best:
            assert p.is_solution(list(s.ids))


@fuzz
@given(st.one_of(NEAR, ANY_BYTES))
def test_dlx_reader(data: str | bytes) -> None:
    p = read_or_refuse(Problem.from_dlx, data)
    if p is not None:
        # A problem read is a problem the engine takes.
        try:
            n = p.count(limit=20, nodes=2000)
        except ProblemError:
            return
        except Exception as e:  # LimitReached only
            assert type(e).__name__ == "LimitReached", e
            return
        assert 0 <= n <= 20


@fuzz
@given(st.one_of(NEAR, ANY_BYTES))
def test_sudoku_readers(data: str | bytes) -> None:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    read_or_refuse(Sudoku.parse, text)
    read_or_refuse(lambda t: Sudoku.parse(t, grid=True), text)
    out, errors = solve_text(text, n=4, mode="unique")
    assert len(out) == len(text.split("\n")) - (text.endswith("\n") or text == "")
    assert all(o in ("", "error", "no solution", "multiple") or len(o) == 16 for o in out)
    assert all(out[k - 1] == "error" for k, _ in errors)


@fuzz
@given(st.one_of(NEAR, ANY_BYTES))
def test_akari_readers(data: str | bytes) -> None:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    a = read_or_refuse(Akari.parse, text)
    if a is not None:
        assert a.count(3) <= 3
    read_or_refuse(lambda t: list(read_puzzles(t)), text)
    read_or_refuse(Akari.parse, "https://puzz.link/p?lightup/3/2/" + text)


@fuzz
@given(NEAR)
def test_picture_readers(text: str) -> None:
    for read in (Shape.from_picture, Board.from_picture):
        try:
            read(text)
        except ValueError:
            pass


OPTIONS = st.lists(st.lists(st.sampled_from(["A", "B", "C", "D", "x", "y:1", "y:2"]), min_size=1, max_size=4,
                            unique_by=lambda s: s[0]), max_size=8)


@fuzz
@given(OPTIONS, st.lists(st.sampled_from([" ", "\t", "\x0b", "\x0c", "\r", "  "]), min_size=40, max_size=40))
def test_blanks_do_not_change_the_answer(options: list[list[str]], blanks: list[str]) -> None:
    lines = ["A B C D | x y"] + [" ".join(o) for o in options]
    plain = "\n".join(lines) + "\n"
    spaced = "\n".join(lines).replace(" ", "\x00")
    it = iter(blanks)
    spaced = "".join(next(it, " ") if ch == "\x00" else ch for ch in spaced) + "\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = Problem.from_dlx(plain), Problem.from_dlx(spaced)
    assert a.count() == b.count()
    assert a.n_options == b.n_options
