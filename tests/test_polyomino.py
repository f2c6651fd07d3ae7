"""Polyomino tilings: shapes, boards, multiplicities, symmetry breaking, pictures."""

from __future__ import annotations

from itertools import combinations
import random

import pytest
from known import TROMINO_7X7

from covering import LimitReached, limits
from covering.puzzles.polyomino import (
    DOMINOES,
    HEXOMINOES,
    PENTOMINOES,
    TETROMINOES,
    TROMINOES,
    Board,
    Shape,
    Tiling,
    TilingPuzzle,
    count_tilings,
    l_tromino,
    polyominoes,
    tiling,
    tilings,
)
from covering.puzzles.symmetry import D4, SymmetryError, board_symmetries
from covering.reference import algorithm_x


def test_free_polyomino_counts() -> None:
    # OEIS A000105: 1, 1, 2, 5, 12, 35, 108.
    assert [len(polyominoes(k)) for k in range(1, 8)] == [1, 1, 2, 5, 12, 35, 108]
    assert len(HEXOMINOES) == 35
    named = {1: 1, 2: len(DOMINOES), 3: len(TROMINOES), 4: len(TETROMINOES), 5: len(PENTOMINOES)}
    assert named == {1: 1, 2: 1, 3: 2, 4: 5, 5: 12}
    # The named sets are the free polyominoes of their size.
    for shapes, k in ((TETROMINOES, 4), (PENTOMINOES, 5)):
        canon = {min(s.orientations()) for s in shapes.values()}
        assert canon == set(polyominoes(k).values())


def test_orientations() -> None:
    counts = {name: len(s.orientations()) for name, s in PENTOMINOES.items()}
    assert counts == {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1, "Y": 8, "Z": 4}
    assert len(PENTOMINOES["F"].orientations(reflections=False)) == 4
    assert len(PENTOMINOES["F"].orientations(rotations=False)) == 2
    assert PENTOMINOES["F"].orientations(rotations=False, reflections=False) == [PENTOMINOES["F"]]
    assert Shape.from_picture("##\n.#").picture() == "##\n.#"


def test_l_tromino_boards_match_the_seeds() -> None:
    # Seed 000: 5x5 minus 0 has 8, minus 2 has 16, minus 12 has 32; 1, 6, 7 none.
    assert [l_tromino(5, h).count() for h in (0, 1, 2, 6, 7, 12)] == [8, 0, 16, 0, 0, 32]
    # Every 4x4 minus a cell can be tiled (the 2^n theorem of the seed).
    assert all(l_tromino(4, h).count() > 0 for h in range(16))
    with pytest.raises(ValueError):
        l_tromino(4, 16)


def test_tilings_are_valid() -> None:
    board = Board.rectangle(5, 12)
    for labels in tiling(PENTOMINOES, board).solutions(limit=50, order="random", seed=5):
        t = Tiling.of(labels)
        assert set(t.cells) == set(board.cells)
        assert sorted(name for name, _ in labels) == sorted(PENTOMINOES)
        for name, cells in labels:
            assert Shape.of(cells) in PENTOMINOES[name].orientations()


def test_uses_any_and_bounds() -> None:
    # Domino tilings of m x n boards (OEIS A099390): 2x3: 3, 3x4: 11, 4x4: 36, 4x5: 95, 6x6: 6728.
    for (r, c), n in {(2, 3): 3, (3, 4): 11, (4, 4): 36, (4, 5): 95, (6, 6): 6728}.items():
        assert tiling(DOMINOES, Board.rectangle(r, c), uses="any").count() == n
    # Each piece a given number of times, or within bounds (multiplicities), against the reference.
    small = {"I": TROMINOES["I"], "L": TROMINOES["L"]}
    for uses in ((0, 3), {"I": 2, "L": (0, 2)}, {"I": "any", "L": 2}, 4):
        p = tiling(small, Board.rectangle(3, 4), uses=uses)  # type: ignore[arg-type]
        assert p.count() == algorithm_x.count(p), uses


def orbits(pieces: dict[str, Shape], board: Board) -> int:
    """Tilings up to the board's symmetries, by brute force: canonical forms.
    (A single shape is used any number of times, several shapes once each.)"""
    group = [g for g in board_symmetries(board.cells)]
    seen = set()
    for labels in tiling(pieces, board, uses="any" if len(pieces) == 1 else "once").solutions():
        forms = []
        for g in group:
            forms.append(tuple(sorted((name, tuple(sorted(g(c) for c in cells))) for name, cells in labels)))
        seen.add(min(forms))
    return len(seen)


@pytest.mark.parametrize(
    ("rows", "cols", "names"),
    [
        (3, 3, ("d", "i3", "O4")),
        (3, 3, ("d", "l3", "T4")),  # needs a second piece to break the symmetry
        (3, 3, ("m", "d", "i3", "l3")),
        (3, 4, ("m", "i3", "O4", "T4")),
        (4, 4, ("d", "i3", "l3", "O4", "T4")),
        (2, 6, ("i3", "l3", "L4", "d")),
    ],
)
def test_symmetry_breaking_counts_each_class_once(rows: int, cols: int, names: tuple[str, ...]) -> None:
    shapes = {"m": Shape(((0, 0),)), "d": DOMINOES["D"], "i3": TROMINOES["I"], "l3": TROMINOES["L"]}
    shapes.update({k + "4": v for k, v in TETROMINOES.items()})
    pieces = {n: shapes[n] for n in names}
    board = Board.rectangle(rows, cols)
    assert tiling(pieces, board, symmetry=True).count() == orbits(pieces, board) > 0


def test_pentominoes_up_to_symmetry() -> None:
    assert tiling(PENTOMINOES, Board.rectangle(6, 10), symmetry=True).count() == 2339
    assert tiling(PENTOMINOES, Board.rectangle(5, 12), symmetry=True).count() == 1010
    assert tiling(PENTOMINOES, Board.rectangle(4, 15), symmetry=True).count() == 368
    assert tiling(PENTOMINOES, Board.rectangle(3, 20), symmetry=True).count() == 2
    centre = Board.rectangle(8, 8, holes=[(3, 3), (3, 4), (4, 3), (4, 4)])
    assert tiling(PENTOMINOES, centre, symmetry=True).count() == 65
    # Without reflections, only rotations are symmetries of the tilings.
    p = tiling(PENTOMINOES, Board.rectangle(6, 10), reflections=False)
    q = tiling(PENTOMINOES, Board.rectangle(6, 10), reflections=False, symmetry=True)
    assert p.count() == 2 * q.count()


def test_what_one_problem_cannot_break_is_filtered() -> None:
    # Dominoes on a square: no piece used once, no cell fixed by every symmetry.
    with pytest.raises(SymmetryError):
        tiling(DOMINOES, Board.rectangle(4, 4), uses="any", symmetry=True)
    L = {"L": TROMINOES["L"]}
    cases = [
        (DOMINOES, Board.rectangle(4, 4)),  # everything filtered
        (L, Board.rectangle(6, 6)),  # everything filtered
        (L, Board.rectangle(5, 5, holes=[(2, 2)])),  # the hole is the fixed cell
        (L, Board.rectangle(7, 7, holes=[(3, 3)])),
        (L, Board.rectangle(6, 6, holes=[(0, 0), (0, 5), (5, 0)])),  # a diagonal symmetry only
    ]
    for pieces, board in cases:
        n = orbits(pieces, board)
        assert count_tilings(pieces, board, uses="any", symmetry=True) == n
        listed = list(tilings(pieces, board, uses="any", symmetry=True))
        assert len(listed) == n == len({tuple(sorted(t)) for t in listed})
    assert count_tilings(L, Board.rectangle(6, 6), uses="any", symmetry=True) == 25


def test_l_tromino_9x9_up_to_symmetry() -> None:
    # The centre cell breaks most of the symmetry inside the problem; the
    # tilings whose centre tromino is symmetric are filtered by the engine.
    board = Board.rectangle(9, 9)
    assert count_tilings({"L": TROMINOES["L"]}, board, uses="any") == 1193600
    assert count_tilings({"L": TROMINOES["L"]}, board, uses="any", symmetry=True) == 149200


def test_board_symmetries() -> None:
    assert len(D4) == 8
    assert len(board_symmetries(Board.rectangle(4, 4).cells)) == 8
    assert len(board_symmetries(Board.rectangle(3, 5).cells)) == 4
    l_shape = Board.from_picture("#..\n#..\n###")
    assert len(board_symmetries(l_shape.cells)) == 2
    assert len(board_symmetries(Board.from_picture("##.\n.##").cells)) == 2


def test_pictures() -> None:
    t = Tiling.of(tiling(PENTOMINOES, Board.rectangle(3, 20)).first())
    plain = t.text(color=False).splitlines()
    assert len(plain) == 3 and all(len(row) == 20 for row in plain)
    assert set("".join(plain)) == set(PENTOMINOES)
    colored = t.text(color=True)
    assert "\x1b[" in colored and colored.count("\n") == 2
    svg = t.svg()
    assert svg.startswith("<svg") and svg.count("<rect") == 60
    assert t._repr_svg_() == svg
    # The tromino tiling of the seed, with the hole shown empty.
    tt = Tiling.of_tromino(4, l_tromino(4, 5).first())
    assert tt.text(color=False).splitlines()[1][1] == "."


def test_named_sets_tile_their_classic_boards() -> None:
    # Hexominoes cannot tile a rectangle (parity), but 3 of them tile 3x6 in several ways.
    some = dict(list(HEXOMINOES.items())[:12])
    counts = [tiling(dict(c), Board.rectangle(3, 6)).count() for c in combinations(some.items(), 3)]
    assert sum(counts) > 0


def test_tromino_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from covering.cli import main

    assert main(["tromino", "solve", "6", "--no-color"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6 and all(len(x) == 6 for x in lines)
    assert main(["tromino", "solve", "6", "--no-color", "--all"]) == 0
    assert capsys.readouterr().out.count("\n\n") == 162 - 1
    assert main(["tromino", "count", "7", "--hole", "24"]) == 0
    assert capsys.readouterr().out == "736\n"
    assert main(["tromino", "solve", "5", "--hole", "1", "--no-color"]) == 0
    assert capsys.readouterr().out == "no solution\n"
    assert main(["tromino", "count", "5", "--hole", "1"]) == 0
    assert capsys.readouterr().out == "0\n"
    assert main(["tromino", "solve", "4", "--hole", "16"]) == 2
    assert "cells of a 4 x 4 board are 0 to 15" in capsys.readouterr().err


def test_polyomino_cli(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from covering.cli import main

    assert main(["polyomino", "solve", "--board", "3x20", "--symmetry", "--no-color", "--all"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 + 1 + 3  # the 2 classes, a blank line between
    assert main(["polyomino", "count", "--board", "6x10", "--symmetry"]) == 0
    assert capsys.readouterr().out == "2339\n"
    d = Path(str(tmp_path))
    (d / "pieces.txt").write_text("A\n##\n\nB\n#\n#\n")
    (d / "board.txt").write_text("###\n#.#\n###\n")
    svg = d / "t.svg"
    assert main(["polyomino", "solve", "--pieces", str(d / "pieces.txt"), "--board-file", str(d / "board.txt"), "--uses", "any", "--no-rotations", "--no-color", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "c.b" and len(out) == 3
    assert svg.read_text().startswith("<svg")
    assert main(["polyomino", "solve", "--board", "2x2", "--pieces", "dominoes", "--uses", "any", "--symmetry", "--no-color"]) == 0
    assert capsys.readouterr().out == "aa\nbb\n"
    assert main(["tromino", "count", "9", "--symmetry"]) == 0
    assert capsys.readouterr().out == "149200\n"
    assert main(["polyomino", "solve", "--board", "six"]) == 2
    assert "--board must look like 6x10" in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(8))
def test_first_tiling_band_by_band_agrees_with_the_whole_board(seed: int) -> None:
    # Tall boards with random holes: the bands may or may not tile; the
    # answer (a tiling or none) is the whole board's, and a tiling is valid.
    from covering.puzzles.polyomino import BAND_ROWS, first_tiling

    rng = random.Random(seed)
    pieces = dict(rng.choice([TROMINOES, PENTOMINOES, {"L": TROMINOES["L"]}]))
    rows, cols = rng.randint(2 * BAND_ROWS, 3 * BAND_ROWS + 3), rng.randint(3, 7)
    holes = {(rng.randrange(rows), rng.randrange(cols)) for _ in range(rng.randint(0, 4))}
    board = Board.rectangle(rows, cols, holes=holes)
    # A board with holes may have no tiling, and proving that may take
    # hours: both ways run under the same budget, compared when both end.
    try:
        budget = limits.Budget.of(nodes=5 * 10**5)
        found = first_tiling(pieces, board, uses="any", budget=budget)
        whole = tiling(pieces, board, uses="any").first(budget=budget)
    except LimitReached:
        pytest.skip("undecided within 5 * 10^5 nodes")
    assert (found is None) == (whole is None)
    if found is not None:
        cells = [c for _, placed in found for c in placed]
        assert sorted(cells) == sorted(board.cells)
        shapes = {o for s in pieces.values() for o in s.orientations()}
        assert all(Shape.of(placed) in shapes for _, placed in found)


@pytest.mark.parametrize(("hole", "known"), sorted(TROMINO_7X7.items()))
def test_the_seeds_boards_on_the_puzzle_protocol(hole: int, known: int) -> None:
    # 7 x 7 less a cell (the known counts), by the puzzle protocol's
    # encoding and by the articles' own generator (`l_tromino`): two
    # encodings, one count; and every solution passes the rules.
    t = TilingPuzzle.l_tromino(7, hole)
    assert t.count() == known == l_tromino(7, hole).count()
    assert all(t.check(s) == [] for s in t.solutions(20))
