"""Knuth's .dlx format: read as Knuth's programs read it, errors naming the line."""

from __future__ import annotations

import warnings

import pytest

from covering import (
    BoundsError,
    ColorError,
    DlxSyntaxError,
    DuplicateItemError,
    NameWarning,
    NoPrimaryItemError,
    OptionSkippedWarning,
    Problem,
    ProblemError,
    UnknownItemError,
)


def test_comments_blank_lines_and_layout() -> None:
    text = "| a comment\n\n  A   B\t| x\n| another\nA x\n\nB x\n  A B  \r\n"
    p = Problem.from_dlx(text)
    assert p.primary == ["A", "B"] and p.secondary == ["x"]
    assert p.labels == [("A", "x"), ("B", "x"), ("A", "B")]
    assert sorted(p.solutions(ids=True)) == [(2,)]


def test_separator_glued_to_the_next_name_as_in_knuths_reader() -> None:
    p = Problem.from_dlx("A B |x y\nA x\nB y\n")
    assert p.secondary == ["x", "y"]


def test_bounds() -> None:
    p = Problem.from_dlx("A 2|B 0:3|C | x\nA B\nB C\nB\n")
    assert [p.bounds(i) for i in "ABC"] == [(1, 1), (2, 2), (0, 3)]
    # B twice: {A B, B} or {A B, B C}.
    assert sorted(p.solutions(ids=True)) == [(0, 1), (0, 2)]


def test_long_names_and_colors_are_read() -> None:
    p = Problem.from_dlx("primary_item_1 | secondary_item\nprimary_item_1 secondary_item:crimson\n")
    assert p.option(0) == [("primary_item_1", None), ("secondary_item", "crimson")]


@pytest.mark.parametrize(
    ("text", "error", "line", "words"),
    [
        ("", NoPrimaryItemError, None, "empty"),
        ("| only a comment\n", NoPrimaryItemError, None, "empty"),
        ("A B\nA C\n", UnknownItemError, 2, "unknown item 'C'"),
        ("A B\nA B A\n", DuplicateItemError, 2, "'A' appears twice"),
        ("A A\n", DuplicateItemError, 1, "declared twice"),
        ("A | x\nA:1 x\n", ColorError, 2, "primary item 'A' cannot have a color"),
        ("A | x\nA x:\n", ColorError, 2, "empty color"),
        ("A 3:2|B\nA\n", BoundsError, 1, "exceeds"),
        ("0|A\nA\n", BoundsError, 1, "upper bound is zero"),
        ("A | x | y\nA\n", DlxSyntaxError, 1, "'|' twice"),
        ("A | x:1\nA\n", DlxSyntaxError, 1, "illegal character"),
        ("A:B\nA\n", DlxSyntaxError, 1, "illegal character"),
        ("A x|B\n", DlxSyntaxError, 1, "illegal character"),
        ("\n\nA B\n\n| c\nA\nB Q\n", UnknownItemError, 7, "unknown item 'Q'"),
    ],
)
def test_errors_name_the_line(text: str, error: type[ProblemError], line: int | None, words: str) -> None:
    with pytest.raises(error) as info:
        Problem.from_dlx(text)
    assert isinstance(info.value, ValueError)
    assert words in str(info.value)
    if line is not None:
        assert str(info.value).startswith(f"line {line}:")
        assert info.value.lineno == line  # type: ignore[attr-defined]


def test_an_option_without_primary_item_is_skipped_with_a_warning() -> None:
    with pytest.warns(OptionSkippedWarning, match="line 3"):
        p = Problem.from_dlx("A | x\nA x\nx\n")
    assert p.n_options == 1


def test_round_trip() -> None:
    text = "A 2|B 1:3|C | x y\nA B x:1\nB C y:2 x:1\nB C\nC y\n"
    p = Problem.from_dlx(text)
    assert p.to_dlx() == text
    q = Problem.from_dlx(p.to_dlx())
    assert sorted(q.solutions(ids=True)) == sorted(p.solutions(ids=True))


def test_writing_what_knuth_cannot_read_warns_and_what_nobody_can_read_fails() -> None:
    p = Problem()
    p.add_primary(["a_long_item_name"])
    p.add_option(["a_long_item_name"])
    with pytest.warns(NameWarning):
        p.to_dlx()
    q = Problem()
    q.add_primary(["has space"])
    q.add_option(["has space"])
    with pytest.raises(ProblemError, match="cannot write"):
        q.to_dlx()
    r = Problem()
    r.add_primary([1, "1"])
    with pytest.raises(DuplicateItemError):
        r.to_dlx()


def test_knuths_own_files_give_no_warning() -> None:
    text = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nB X:1\nC Y:1\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Problem.from_dlx(text).to_dlx() == text
