"""Polyforms on every lattice: the lattices' laws, the named sets against
their published numbers, counts by two methods of ours (the engine's
counts, and a plain search written here with its own geometry), counts
up to symmetry against the orbits of every tiling, the JSON form, the
pictures, and the command line."""

from __future__ import annotations

from typing import Any

import json
import subprocess
import sys

import pytest

from covering.puzzles.polyforms import LATTICES, PolyformError, PolyformPuzzle
from covering.puzzles.polyforms.pictures import svg_of, text_of
from covering.puzzles.polyforms.reading import from_json, read_puzzle
from covering.puzzles.polyforms.sets import SOMA, polyforms

CUBE3 = [(x, y, z) for x in range(3) for y in range(3) for z in range(3)]


def test_each_motion_keeps_neighbours_and_the_groups_have_their_orders() -> None:
    for name, lat in LATTICES.items():
        table: dict[str, list[Any]] = {"square": [(0, 0), (2, -1)], "hexagon": [(0, 0), (3, -2)],
                                       "cube": [(0, 0, 0), (1, 2, -1)], "triangle": [(0, 0, 0), (2, -1, 1)],
                                       "sticks": [(0, 0, 0), (1, -2, 1)]}
        cells = table[name]
        for cell in cells:
            p = lat.point(cell)
            assert lat.cell(p) == cell
            for m in lat.motions(True, True):
                image = lat.moved(m, [p])[0]
                assert sorted(lat.moved(m, lat.neighbours(p))) == sorted(lat.neighbours(image)), (name, m)
        order = {"square": 8, "hexagon": 12, "triangle": 12, "cube": 48, "sticks": 8}[name]
        assert len(set(lat.motions(True, True))) == order and len(lat.motions(True, False)) == order // 2


def test_the_named_sets_have_their_published_sizes() -> None:
    # OEIS A000577 (polyiamonds), A000228 (polyhexes), A038119 and A000162
    # (polycubes, free and one-sided), A019988 (polysticks).
    assert [len(polyforms("triangle", k)) for k in range(1, 7)] == [1, 1, 1, 3, 4, 12]
    assert [len(polyforms("hexagon", k)) for k in range(1, 6)] == [1, 1, 3, 7, 22]
    assert [len(polyforms("cube", k)) for k in range(1, 6)] == [1, 1, 2, 7, 23]
    assert [len(polyforms("cube", k, reflections=False)) for k in range(1, 6)] == [1, 1, 2, 8, 29]
    assert [len(polyforms("sticks", k)) for k in range(1, 5)] == [1, 2, 5, 16]
    assert [len(polyforms("square", k)) for k in range(1, 7)] == [1, 1, 2, 5, 12, 35]


def _orbits(p: PolyformPuzzle) -> int:
    """Classes of every tiling under the board's symmetries, by applying
    each symmetry to each tiling (pieces of one class interchangeable)."""
    lat, classes = p.lattice, p._classes()
    seen: set[frozenset[tuple[str, frozenset[tuple[int, ...]]]]] = set()
    orbits = 0
    for tiling in p.with_symmetry(False).solutions():
        key = frozenset((classes[n], frozenset(lat.point(c) for c in cells)) for n, cells in tiling)
        if key in seen:
            continue
        orbits += 1
        for m, shift, _ in p.group():
            seen.add(frozenset((k, frozenset(tuple(v + d for v, d in zip(lat.moved(m, [q])[0], shift)) for q in cs))
                               for k, cs in key))
    return orbits


@pytest.mark.parametrize(("name", "lattice", "board", "pieces", "reflections", "known"), [
    # Soma (Conway and Guy): 11,520 tilings, 240 up to the cube's 48 motions.
    ("soma", "cube", CUBE3, SOMA, False, (11520, 240)),
    # The twelve hexiamonds in the 6 x 6 rhombus (Knuth, TAOCP 7.2.2.1): 156.
    ("hexiamonds", "triangle", [(x, y, t) for x in range(6) for y in range(6) for t in (0, 1)], None, True,
     (624, 156)),
])
def test_known_counts_by_two_methods(name, lattice, board, pieces, reflections, known) -> None:  # type: ignore[no-untyped-def]
    p = PolyformPuzzle.make(lattice, board, dict(pieces or polyforms("triangle", 6)), reflections=reflections)
    everything = p.count()
    assert (everything, p.with_symmetry().count()) == known
    assert p.problem().count(method="search") == everything
    assert _orbits(p) == known[1]


def test_pentominoes_on_the_square_lattice_as_the_square_tiler_counts_them() -> None:
    from covering.puzzles.polyomino import PENTOMINOES, Board, TilingPuzzle

    data: dict[str, Any] = {"lattice": "square", "board": [[r, c] for r in range(6) for c in range(10)],
            "pieces": {k: [list(c) for c in v.cells] for k, v in PENTOMINOES.items()}}
    p = from_json(data)
    square = TilingPuzzle(PENTOMINOES, Board.rectangle(6, 10))
    assert p.count() == square.count() == 9356
    assert p.with_symmetry().count() == 2339
    # 5 x 12 and 3 x 20 (DESIGN's known answers): 4,040 and 8, classes a quarter (no tiling is symmetric).
    for rows, cols, n in ((5, 12, 4040), (3, 20, 8)):
        q = PolyformPuzzle.make("square", [(r, c) for r in range(rows) for c in range(cols)], data["pieces"])
        assert q.count() == n and q.with_symmetry().count() * 4 == n


def _plain_count(lattice: str, board: Any, pieces: Any, uses_any: bool) -> int:
    """Tilings by a plain search with geometry of its own: a piece's cells
    turned as polygons' corners (sticks: their two ends; hexagons: axial
    turns), every translate tried at the first uncovered cell."""
    def turn(cell: Any, k: int, flip: bool) -> Any:
        if lattice == "sticks":
            x, y, d = cell
            ends = [(x, y), (x + 1 - d, y + d)]
            for _ in range(k):
                ends = [(-b, a) for a, b in ends]
            if flip:
                ends = [(-a, b) for a, b in ends]
            return tuple(sorted(ends))
        x, y = cell
        for _ in range(k):
            x, y = -y, x + y
        return (y, x) if flip else (x, y)

    def segment(ends: Any) -> tuple[int, int, int]:
        (a, b), (c, d) = ends
        return (a, b, 0) if d == b else (a, b, 1)

    turns = 4 if lattice == "sticks" else 6
    shapes: dict[str, set[Any]] = {}
    for name, cells in pieces.items():
        found: set[Any] = set()
        for k in range(turns):
            for flip in (False, True):
                moved: list[Any] = [turn(c, k, flip) for c in cells]
                if lattice == "sticks":
                    moved = [segment(e) for e in moved]
                x0, y0 = min(c[0] for c in moved), min(c[1] for c in moved)
                found.add(frozenset((c[0] - x0, c[1] - y0, *c[2:]) for c in moved))
        shapes[name] = found
    on = set(board)

    def interior(cells: Any) -> set[Any]:
        count: dict[Any, int] = {}
        for x, y, d in cells:
            for e in ((x, y), (x + 1 - d, y + d)):
                count[e] = count.get(e, 0) + 1
        return {e for e, k in count.items() if k > 1}

    total = 0

    def go(covered: set[Any], through: set[Any], left: dict[str, int]) -> None:
        nonlocal total
        free = sorted(on - covered)
        if not free:
            total += 1
            return
        target = free[0]
        for name, forms in shapes.items():
            if not uses_any and not left[name]:
                continue
            for form in forms:
                for anchor in form:
                    if anchor[2:] != target[2:]:
                        continue
                    shift = tuple(t - a for t, a in zip(target[:2], anchor[:2]))
                    placed = frozenset((c[0] + shift[0], c[1] + shift[1], *c[2:]) for c in form)
                    if target not in placed or not placed <= on or placed & covered:
                        continue
                    inner = interior(placed) if lattice == "sticks" else set()
                    if inner & through:
                        continue
                    left[name] -= 1
                    go(covered | placed, through | inner, left)
                    left[name] += 1
    go(set(), set(), {n: 1 for n in pieces})
    return total


def test_sticks_and_hexagons_against_a_plain_search() -> None:
    sticks = {k: list(v) for k, v in polyforms("sticks", 3).items()}
    for spec in ((2, 2), (1, 3), (2, 3)):
        r, c = spec
        board: list[Any] = [(x, y, 0) for y in range(r + 1) for x in range(c)]
        board += [(x, y, 1) for y in range(r) for x in range(c + 1)]
        p = PolyformPuzzle.make("sticks", board, sticks, uses="any")
        mine = p.count()
        assert mine == _plain_count("sticks", board, sticks, True), spec
        for t in p.solutions(20):
            assert p.check(t) == []
    hexes = {k: list(v) for k, v in polyforms("hexagon", 3).items()}
    board = [(x, y) for x in range(3) for y in range(3)]
    p = PolyformPuzzle.make("hexagon", board, hexes, uses="any")
    assert p.count() == _plain_count("hexagon", board, hexes, True) > 0


def test_crossing_sticks_are_refused() -> None:
    # Two straight bars of two crossing at the middle point of a 2 x 2 grid:
    # the '+' they make is a placement neither may share.
    bars = {"a": [(0, 0, 0), (1, 0, 0)], "b": [(0, 0, 1), (0, 1, 1)]}
    board = [(0, 1, 0), (1, 1, 0), (1, 0, 1), (1, 1, 1)]
    p = PolyformPuzzle.make("sticks", board, bars)
    assert p.count() == 0
    assert p.check([("a", [(0, 1, 0), (1, 1, 0)]), ("b", [(1, 0, 1), (1, 1, 1)])]) == ["a and b cross at (1, 1)"]


@pytest.mark.parametrize(("data", "message"), [
    ({"lattice": "pentagon", "board": [], "pieces": {}}, "no lattice 'pentagon'"),
    ({"lattice": "square", "board": [[0, 0]], "pieces": {"x": [[0, 0], [0, 2]]}}, "piece 'x' is not connected"),
    ({"lattice": "triangle", "board": [[0, 0, 2]], "pieces": {"x": [[0, 0, 0]]}}, r"\[0, 0, 2\] is not a cell"),
    ({"lattice": "square", "board": [[0, 0], [0, 0]], "pieces": {"x": [[0, 0]]}}, "listed twice"),
    ({"lattice": "square", "board": [[0, 0]], "pieces": {"x": [[0, 0]]}, "uses": "3:1"}, "least uses is more"),
    ({"lattice": "square", "board": [[0, 0]], "pieces": {"x": [[0, 0]]}, "uses": {"y": 1}}, "'y' is not a piece"),
    ({"lattice": "cube", "board": [[0, 0, 0.5]], "pieces": {"x": [[0, 0, 0]]}}, "is not a cell"),
    ({"lattice": "square", "board": [[0, 0]]}, "'pieces' is missing"),
])
def test_bad_puzzles_name_where(data, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PolyformError, match=message):
        from_json(data)


def test_pictures_of_every_lattice_show_every_cell() -> None:
    cases: list[Any] = [("square", [(r, c) for r in range(2) for c in range(3)], polyforms("square", 3)),
             ("hexagon", [(x, y) for x in range(3) for y in range(2)], polyforms("hexagon", 3)),
             ("triangle", [(x, y, t) for x in range(3) for y in range(1) for t in (0, 1)], polyforms("triangle", 3)),
             ("cube", [(x, y, z) for x in range(3) for y in range(1) for z in range(2)], polyforms("cube", 3)),
             ("sticks", [(x, y, 0) for y in range(3) for x in range(2)] + [(x, y, 1) for y in range(2) for x in range(3)],
              polyforms("sticks", 3))]
    for lattice, board, pieces in cases:
        p = PolyformPuzzle.make(lattice, board, pieces, uses="any")
        t = p.solve()
        assert t is not None and p.check(t) == [], lattice
        drawn = text_of(p, t)
        # (Sticks: three characters across, one down.)
        shown = sum(3 if c[2] == 0 else 1 for c in board) if lattice == "sticks" else len(board)
        assert sum(ch.isalnum() for ch in drawn) == shown, lattice
        picture = svg_of(p, t)
        assert picture.startswith("<svg") and picture.count("<polygon") + picture.count("<line") == len(board)


def test_the_command_line_reads_puzzle_files_and_lattices(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "soma.json"
    f.write_text(json.dumps({"lattice": "cube", "board": [list(c) for c in CUBE3],
                             "pieces": {k: [list(c) for c in v] for k, v in SOMA.items()}}))

    def covering(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "covering", "polyomino", *args], capture_output=True,
                              text=True, timeout=300)

    assert covering("count", "--puzzle", str(f)).stdout.split() == ["11520"]
    assert covering("count", "--puzzle", str(f), "--symmetry").stdout.split() == ["240"]
    assert covering("count", "--lattice", "triangle", "--pieces", "triangle-6", "--board", "6x6",
                    "--symmetry").stdout.split() == ["156"]
    r = covering("solve", "--puzzle", str(f), "--json")
    tiling = json.loads(r.stdout.splitlines()[0])["tiling"]
    p = read_puzzle(f.read_text())
    assert p.check([(t["piece"], [tuple(c) for c in t["cells"]]) for t in tiling]) == []
    exported = covering("export", "--puzzle", str(f)).stdout
    from covering import Problem
    from covering.dlxfile import read_dlx

    assert read_dlx(exported, Problem).count() == 11520
    bad = tmp_path / "bad.json"
    bad.write_text('{"lattice": "cube",\n "board": [[0, 0, 0]], "pieces": {"x": [[0, 0, 0], [0, 0, 2]]}}')
    r = covering("count", "--puzzle", str(bad))
    assert r.returncode == 2 and r.stderr.startswith(f"covering: error: {bad}: piece 'x' is not connected")
    r = covering("count", "--puzzle", str(f), "--pieces", "soma")
    assert r.returncode == 2 and "--puzzle names its lattice" in r.stderr
    # A board the pieces cannot fill: 0, with a one-line warning.
    r = covering("count", "--lattice", "cube", "--pieces", "soma", "--board", "3x3x2")
    assert r.returncode == 0 and r.stdout.split() == ["0"] and "no tiling" in r.stderr


def test_text_pictures_read_back_on_every_lattice() -> None:
    from covering.puzzles.polyforms.drawings import read_cells

    cases: list[Any] = [("square", [(r, c) for r in range(2) for c in range(3) if (r, c) != (1, 1)]),
                        ("hexagon", [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]),
                        ("triangle", [(x, y, t) for x in range(3) for y in range(2) for t in (0, 1) if x + y != 2]),
                        ("sticks", [(x, y, 0) for y in range(3) for x in range(2)] + [(0, 0, 1), (2, 1, 1)])]
    for lattice, board in cases:
        p = PolyformPuzzle.make(lattice, board, {"a": [board[0]]}, uses="any")
        lat = p.lattice
        back = read_cells(lattice, text_of(p, None))
        assert lat.normalized(map(lat.point, back)) == lat.normalized(p.board), lattice
    # The cube: layers separated by blank lines, the first z = 0.
    assert read_cells("cube", "#.\n##\n\n.#\n") == [(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 1)]
    with pytest.raises(PolyformError, match="line 3, column 1: '#' is between two hexagons"):
        read_cells("hexagon", " # #\n# # \n# #")
    with pytest.raises(PolyformError, match="line 1, column 2: a stick across is three characters"):
        read_cells("sticks", "+-- +")


def test_random_tilings_are_drawn_from_every_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    p = PolyformPuzzle.make("hexagon", [(x, y) for x in range(3) for y in range(2)], polyforms("hexagon", 3),
                            uses="any")
    every = {tuple(sorted(t)) for t in p.solutions()}
    drawn = [tuple(sorted(t)) for t in p.random(None, seed=4)]
    assert sorted(drawn) == sorted(every) and drawn == [tuple(sorted(t)) for t in p.random(None, seed=4)]
    pieces = tmp_path / "pieces.txt"
    pieces.write_text("a\n # #\n# #\n\nb\n#\n")
    board = tmp_path / "board.txt"
    board.write_text("  # # #\n # # #\n# # #\n")
    r = subprocess.run([sys.executable, "-m", "covering", "polyomino", "random", "--lattice", "hexagon", "--pieces",
                        str(pieces), "--board-file", str(board), "--uses", "any", "--seed", "1", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    tiling = json.loads(r.stdout.splitlines()[0])["tiling"]
    q = PolyformPuzzle.make("hexagon", [(x, y) for x in range(3) for y in range(3)],
                            {"a": [(0, 0), (1, 0), (0, 1), (1, 1)], "b": [(0, 0)]}, uses="any")
    assert q.check([(t["piece"], [tuple(c) for c in t["cells"]]) for t in tiling]) == []


def test_pieces_of_one_shape_under_two_names_are_one_up_to_symmetry() -> None:
    # Two L-trominoes named apart and two dominoes named apart on 2 x 5: up
    # to symmetry the names do not matter (the design's rule); the classes
    # are the orbits of the tilings of the merged pieces.
    pieces = {"L1": [(0, 0), (1, 0), (1, 1)], "L2": [(0, 0), (0, 1), (1, 0)], "d1": [(0, 0), (0, 1)],
              "d2": [(0, 0), (1, 0)]}
    p = PolyformPuzzle.make("square", [(r, c) for r in range(2) for c in range(5)], pieces)
    classes = p.with_symmetry()
    assert sorted(classes.pieces) == ["L1", "d1"] and classes.bounds["L1"] == (2, 2)
    assert classes.count() == _orbits(classes) > 0
    # Named apart, each tiling of the merged pieces is four: L1, L2 and d1, d2 swapped.
    assert p.count() == 2 * 2 * classes.with_symmetry(False).count()


def test_named_boards_and_one_sided_sets_on_the_command_line() -> None:
    from covering.puzzles.polyforms.sets import named

    def count(*args: str) -> str:
        r = subprocess.run([sys.executable, "-m", "covering", "polyomino", "count", *args], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout.split()[-1]

    # The one-sided pentiamonds (a piece and its mirror image apart, none turned over) on a triangle of side 5.
    lattice, pieces = named("triangle-5-one-sided")
    board = [(x, y, t) for x in range(5) for y in range(5) for t in (0, 1) if x + y + t < 5]
    p = PolyformPuzzle.make(lattice, board, dict(pieces), uses="any", reflections=False)
    assert count("--lattice", "triangle", "--pieces", "triangle-5-one-sided", "--board", "triangle:5", "--uses",
                 "any") == str(p.count())
    # Trihexes on the hexagon of side 3 (19 cells, not a multiple of 3): none; of side 2 less its centre: some.
    assert count("--lattice", "hexagon", "--pieces", "hexagon-3", "--board", "hexagon:3", "--uses", "any") == "0"
    ring = [(x, y) for x in range(-1, 2) for y in range(-1, 2) if abs(x + y) <= 1 and (x, y) != (0, 0)]
    q = PolyformPuzzle.make("hexagon", ring, dict(named("hexagon-3")[1]), uses="any")
    assert q.count() == _plain_count("hexagon", ring, {k: list(v) for k, v in named("hexagon-3")[1].items()}, True)


@pytest.mark.parametrize(("lattice", "size", "board", "published"), [
    # Published counts of Polyform Puzzler (up to symmetry), on boards of its conventions (the design's
    # triangle cells are its (x, y, z)): hexiamonds in the 4 x 11 trapezoid, tetrahexes in the 4 x 7 parallelogram
    # and the triangle of side 7.
    ("triangle", 6, [(x, y, t) for t in (0, 1) for y in range(4) for x in range(11) if x + y + t < 11], 76),
    ("hexagon", 4, [(x, y) for x in range(7) for y in range(4)], 9),
    ("hexagon", 4, [(x, y) for y in range(7) for x in range(7) if x + y < 7], 0),
])
def test_published_counts_up_to_symmetry(lattice, size, board, published) -> None:  # type: ignore[no-untyped-def]
    p = PolyformPuzzle.make(lattice, board, polyforms(lattice, size))
    classes = p.with_symmetry()
    assert classes.count() == published == _orbits(classes)


def test_hostile_json_gets_an_answer_or_a_clear_error() -> None:
    square = '{"lattice": "square", "board": [[0, %s]], "pieces": {%s: [[0, 0]]}}'
    with pytest.raises(PolyformError, match="the key 'x' is written twice"):
        read_puzzle('{"lattice": "square", "board": [[0, 0]], "pieces": {"x": [[0, 0]], "x": [[0, 1]]}}')
    for bad, message in (("NaN", "is not a cell"), ("1e400", "is not a cell"), ("true", "is not a cell")):
        with pytest.raises(PolyformError, match=message):
            read_puzzle(square % (bad, '"x"'))
    with pytest.raises(PolyformError, match="printable text"):
        read_puzzle(square % ("0", '"x\\u0001"'))
    with pytest.raises(PolyformError, match="not UTF-8"):
        read_puzzle(b'{"lattice": "\xff"}')
    # A cell past 2^64 is a cell like any other: the piece is moved onto it.
    assert read_puzzle(square % (str(2**64), '"x"')).count() == 1


def _symmetric_boards(lattice: str, rng: Any) -> list[Any]:
    """Small boards of `lattice` with symmetries: rectangles, boxes,
    parallelograms, grids of sticks, some less their middle."""
    if lattice == "square":
        r, c = rng.randint(2, 5), rng.randint(2, 5)
        board = [(y, x) for y in range(r) for x in range(c)]
        return [p for p in board if (p[0] * 2 + 1, p[1] * 2 + 1) != (r, c)] if rng.random() < 0.3 else board
    if lattice == "triangle":
        a, b = rng.randint(1, 4), rng.randint(1, 3)
        return [(x, y, t) for x in range(a) for y in range(b) for t in (0, 1)]
    if lattice == "hexagon":
        a, b = rng.randint(1, 4), rng.randint(1, 4)
        return [(x, y) for x in range(a) for y in range(b)]
    if lattice == "cube":
        a, b, c = rng.randint(1, 2), rng.randint(1, 3), rng.randint(2, 3)
        return [(x, y, z) for x in range(a) for y in range(b) for z in range(c)]
    r, c = rng.randint(1, 2), rng.randint(1, 3)
    return [(x, y, 0) for y in range(r + 1) for x in range(c)] + [(x, y, 1) for y in range(r) for x in range(c + 1)]


def test_every_tiling_counted_from_the_classes_as_by_a_plain_count() -> None:
    # The count of every tiling from the classes' problem (count_every) against
    # the count of the problem of every tiling, on random boards with
    # symmetries and random pieces used once, a few times or any number of
    # times; every way of breaking the symmetry is met.
    import random

    rng = random.Random(83)
    met = {"classes": 0, "second piece": 0, "filtered": 0, "plain": 0}
    for case in range(240):
        lattice = ("square", "triangle", "hexagon", "cube", "sticks")[case % 5]
        shapes = polyforms(lattice, rng.randint(2, 4))
        names = rng.sample(sorted(shapes), min(len(shapes), rng.randint(1, 3)))
        uses: dict[str, Any] = {n: rng.choice(["once", "once", (0, 2), (1, 2)]) for n in names}
        pieces = {n: shapes[n] for n in names}
        if rng.random() < 0.8:  # a small piece used any number of times fills the rest
            filler = polyforms(lattice, rng.randint(1, 2))
            pieces["f"] = filler[rng.choice(sorted(filler))]
            uses["f"] = "any"
        board = _symmetric_boards(lattice, rng)
        p = PolyformPuzzle.make(lattice, board, pieces, uses=uses)
        classes = p.orbits()
        way = "plain"
        if classes is not None:
            plan = classes._plan()
            way = "filtered" if plan.filtered else "second piece" if plan.extra else "classes"
        n = p.count()
        assert n == p.problem().count(method="search"), (lattice, board, names, uses)
        met[way] += n > 0
    assert all(met.values()), met  # (each way met with tilings to count)
