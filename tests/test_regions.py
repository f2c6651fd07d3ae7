"""Sudoku on any regions: counts against a plain backtracking count of the
rules themselves (not the encoding), every rule of a solution checked, the
named layouts' shapes, killer cages, and errors that name where."""

from __future__ import annotations

import json
import random

import pytest

from covering import Uniqueness
from covering.puzzles.regions import Cage, RegionSudoku, RegionSudokuError
from covering.puzzles.regions import layouts
from covering.puzzles.regions.reading import read_entries, read_puzzles, solution_record


def brute_count(p: RegionSudoku, limit: int = 10**9) -> int:
    """Solutions by backtracking over the cells with the rules as written:
    each region and cage distinct, each cage's sum, the givens."""
    n = p.symbols
    groups = [list(r) for r in p.regions] + [list(c.cells) for c in p.cages]
    of = {c: [g for g in groups if c in g] for c in p.cells}
    cages = {c: [k for k in p.cages if c in k.cells] for c in p.cells}
    value: dict[tuple[int, int], int] = {}
    found = 0

    def ok(cell: tuple[int, int], v: int) -> bool:
        if any(value.get(o) == v for g in of[cell] for o in g if o != cell):
            return False
        for cage in cages[cell]:
            held = [value[o] for o in cage.cells if o in value] + [v]
            if sum(held) > cage.total or (len(held) == len(cage.cells) and sum(held) != cage.total):
                return False
        return True

    def go(k: int) -> None:
        nonlocal found
        if found >= limit:
            return
        if k == len(p.cells):
            found += 1
            return
        cell = p.cells[k]
        for v in ([p.givens[cell]] if cell in p.givens else range(1, n + 1)):
            if ok(cell, v):
                value[cell] = v
                go(k + 1)
                del value[cell]

    go(0)
    return found


def random_jigsaw(n: int, rng: random.Random) -> list[str]:
    """A random partition of the n x n grid into n regions of n cells (not
    always connected: the rules do not ask it), as a grid of labels."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    label = {cell: "abcdefghijklmnop"[k // n] for k, cell in enumerate(cells)}
    return ["".join(label[(r, c)] for c in range(n)) for r in range(n)]


def test_counts_equal_a_plain_count_of_the_rules() -> None:
    rng = random.Random(3)
    assert layouts.classic(4).count() == brute_count(layouts.classic(4)) == 288
    for _ in range(12):
        labels = random_jigsaw(4, rng)
        givens = "".join(rng.choice("....1234") for _ in range(16))
        try:
            p = layouts.jigsaw(labels, givens)
        except RegionSudokuError:
            continue  # two equal givens in a region
        assert p.count() == brute_count(p), labels
    x4 = layouts.x(n=4)
    assert x4.count() == brute_count(x4)


def test_killer_cages_count_as_the_rules_say() -> None:
    # Random cages over a random solved 4 x 4 grid, their sums from it: the
    # puzzle has at least that solution, and as many as the plain count.
    rng = random.Random(8)
    for trial in range(15):
        grid = next(layouts.classic(4).random(1, seed=trial))
        cells = list(grid.cells)
        rng.shuffle(cells)
        cages = []
        while cells:
            part = [cells.pop()]
            for _ in range(rng.randint(0, 2)):
                # (A cage's symbols are distinct: a cell repeating one waits for another cage.)
                other = next((c for c in cells if grid.givens[c] not in {grid.givens[x] for x in part}), None)
                if other is not None:
                    cells.remove(other)
                    part.append(other)
            cages.append(Cage(tuple(part), sum(grid.givens[c] for c in part)))
        base = layouts.classic(4)
        p = RegionSudoku.make(4, base.cells, base.regions, {}, cages)
        n = p.count()
        assert n == brute_count(p) >= 1
        assert p.check(p.solve()) == []
        # Cages on a grid without regions: distinct symbols and sums only.
        some = cages[:3]
        free = RegionSudoku.make(4, [c for k in some for c in k.cells], [], {}, some)
        assert free.count() == brute_count(free)


def test_every_rule_of_the_overlapping_layouts_holds() -> None:
    # Cells: 81 a grid less the shared boxes' (samurai 5 x 81 - 4 x 9);
    # regions: 27 a grid less each box shared; a butterfly's grids share
    # rows and columns too: 12 canvas rows in two windows of 9 columns (24),
    # as many columns, and the canvas's 16 boxes.
    # The joined samurais: 81 a grid less 9 a shared box (gattai-8: 8 grids
    # and 8 shared boxes; shogun: 11 and 12; sumo: 13 and 16), 27 regions a
    # grid less a box each shared box.
    for name, cells, regions in (("samurai", 369, 131), ("butterfly", 144, 64), ("sohei", 288, 104),
                                 ("windmill", 333, 127), ("twodoku", 153, 53),
                                 ("gattai-8", 8 * 81 - 8 * 9, 8 * 27 - 8), ("shogun", 11 * 81 - 12 * 9, 11 * 27 - 12),
                                 ("sumo", 13 * 81 - 16 * 9, 13 * 27 - 16)):
        s = layouts.layout(name)
        assert (len(s.cells), len(s.regions)) == (cells, regions), name
        filled = s.solve()
        assert filled is not None and s.check(filled) == [], name
        # Its solution, less most givens, is still a puzzle it solves.
        rng = random.Random(len(name))
        kept = {c: v for c, v in filled.givens.items() if rng.random() < 0.35}
        puzzle = RegionSudoku.make(9, s.cells, s.regions, kept)
        again = puzzle.solve()
        assert again is not None and puzzle.check(again) == [], name


def test_the_classic_puzzle_as_a_region_set_answers_as_sudoku() -> None:
    from covering.puzzles.sudoku import Sudoku

    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    p = layouts.classic(9, line)
    solved, u = p.solve_unique()
    assert u is Uniqueness.UNIQUE and solved is not None
    classic = Sudoku.parse(line).solve()
    assert classic is not None and "".join(str(v) for _, _, v in solved) == classic.line()
    # Both diagonals added: that answer breaks them, and no other completes it.
    assert layouts.x(line).count() == 0


def test_json_reads_as_the_design_says() -> None:
    s = layouts.twodoku()
    data = {"symbols": 9, "cells": [list(c) for c in s.cells], "regions": [[list(c) for c in r] for r in s.regions],
            "givens": [[0, 0, 5]], "cages": [], "note": "keys not known are ignored"}
    p, = read_puzzles(json.dumps(data))
    solved = p.solve()
    record = solution_record(solved)
    assert record is not None and record[0] == [0, 0, 5] and len(record) == len(s.cells)
    assert p.check(solved) == []
    # A batch: JSON Lines, an error in its place naming its line.
    batch = json.dumps(data) + "\n" + json.dumps({**data, "givens": [[0, 0, 5], [0, 1, 5]]}) + "\nnot json\n"
    entries = list(read_entries(batch))
    assert isinstance(entries[0], RegionSudoku)
    assert str(entries[1]) == "line 2: r1c2: 5 is already in r1c1, in the same region"
    assert str(entries[2]).startswith("line 3, column 1: not JSON")


@pytest.mark.parametrize(("make", "message"), [
    (lambda: RegionSudoku.make(2, [(0, 0), (0, 1)], [[(0, 0), (0, 0)]]), "region 1 lists r1c1 twice"),
    (lambda: RegionSudoku.make(2, [(0, 0)], [[(0, 0), (0, 1)]]), "region 1: r1c2 is not a cell of the puzzle"),
    (lambda: RegionSudoku.make(2, [(0, 0), (0, 0)], []), "r1c1 is listed twice among the cells"),
    (lambda: RegionSudoku.make(2, [(0, 0)], [], {(0, 1): 1}), "r1c2: a given outside the cells"),
    (lambda: RegionSudoku.make(2, [(0, 0)], [], {(0, 0): 3}), "r1c1: a given must be a symbol from 1 to 2"),
    (lambda: RegionSudoku.make(4, [(0, 0), (0, 1)], [], {}, [([(0, 0), (0, 1)], 9)]),
     "cage 1 (r1c1, r1c2): no 2 distinct symbols of 1..4 sum to 9"),
    (lambda: RegionSudoku.make(2, [(0, 0)], [], {}, [([(0, 0)], True)]), "cage 1: its sum must be an integer"),
    (lambda: RegionSudoku.make(2, [(-1, 0)], []), "a cell: a cell is [row, col], two integers from 0"),
    (lambda: layouts.jigsaw(["aab", "abb", "cca"]), "region 'a' has 4 cells, not 3"),
    (lambda: layouts.layout("samurai", "12"), "the givens have 1 rows, the layout 21"),
    (lambda: layouts.layout("nonesuch"), "no layout 'nonesuch'"),
])
def test_errors_name_where(make, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RegionSudokuError) as e:
        make()
    assert message in str(e.value)


def test_the_command_line_answers_as_the_api(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    rng = random.Random(5)
    puzzles: list[dict[str, object]] = []
    while len(puzzles) < 6:
        labels = random_jigsaw(4, rng)
        grid = next(layouts.jigsaw(labels).random(1, seed=len(puzzles)), None)
        if grid is None:
            continue  # (a random set of regions may leave no grid)
        kept = [[r, c, v] for r, c, v in grid if rng.random() < 0.4]
        base = layouts.jigsaw(labels)
        puzzles.append({"symbols": 4, "cells": [list(c) for c in base.cells],
                        "regions": [[list(c) for c in r] for r in base.regions], "givens": kept})
    f = tmp_path / "batch.jsonl"
    f.write_text("".join(json.dumps(p) + "\n" for p in puzzles) + "{\"symbols\": 4}\n")
    r = subprocess.run([sys.executable, "-m", "covering", "sudoku", "unique", "--puzzle", str(f), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2  # the last line cannot be read: named, and the others answered
    assert r.stderr.endswith("batch.jsonl:7: the key 'cells' is missing\n")
    records = [json.loads(x) for x in r.stdout.splitlines()][:-1]
    api = read_puzzles("".join(json.dumps(p) + "\n" for p in puzzles))
    for record, puzzle in zip(records, api):
        solution, u = puzzle.solve_unique()
        assert record["uniqueness"] == u.value and record["solution"] == solution_record(solution)
    assert "error" in records[-1]
    # A named layout over its canvas, two puzzles separated by a blank line.
    s = layouts.twodoku().solve()
    assert s is not None
    canvas = s.text()
    g = tmp_path / "two.txt"
    g.write_text(canvas + "\n\n" + canvas.replace("5", "-") + "\n")
    r = subprocess.run([sys.executable, "-m", "covering", "sudoku", "unique", "--layout", "twodoku", str(g)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n\n")[0].splitlines() == canvas.splitlines() + ["unique"]


def test_killer_and_jigsaw_text_read_as_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    # A killer's text: the givens, then a token per cell (label, and the
    # sum after it in one cell), cages from a random solved grid.
    rng = random.Random(21)
    blocks, puzzles = [], []
    for trial in range(4):
        grid = next(layouts.classic(4).random(1, seed=100 + trial))
        label: dict[tuple[int, int], str] = {}
        order = sorted(grid.cells)
        rng.shuffle(order)
        for k, cell in enumerate(order):
            label[cell] = "abcdefgh"[k // 2]  # cages of two cells
        sums: dict[str, int] = {}
        for cell in grid.cells:
            sums[label[cell]] = sums.get(label[cell], 0) + grid.givens[cell]
        written: set[str] = set()
        rows = []
        for row in range(4):
            tokens = []
            for col in range(4):
                name = label[(row, col)]
                tokens.append(name + (str(sums[name]) if name not in written else ""))
                written.add(name)
            rows.append(" ".join(tokens))
        givens = ["".join(str(grid.givens[(row, col)]) if rng.random() < 0.2 else "." for col in range(4))
                  for row in range(4)]
        try:
            p = layouts.from_text("killer", givens + rows)
        except RegionSudokuError:
            continue  # a cage of two equal symbols (its cells in no common region)
        assert p.count() == brute_count(p) >= 1
        blocks.append("\n".join(givens + rows))
        puzzles.append(p)
    assert puzzles
    f = tmp_path / "killer.txt"
    f.write_text("\n\n".join(blocks) + "\n")
    ran = subprocess.run([sys.executable, "-m", "covering", "sudoku", "count", "--layout", "killer", str(f), "--json"],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    counts = [json.loads(x)["count"] for x in ran.stdout.splitlines()[:-1]]
    assert counts == [p.count() for p in puzzles]
    # A jigsaw's text: the givens, then the labels.
    labels = ["aaab", "abbb", "cccd", "cddd"]
    text = layouts.from_text("jigsaw", ["1...", "....", "....", "...."] + labels)
    assert text.count() == layouts.jigsaw(labels, "1" + "." * 15).count() == brute_count(text)
    # Errors name the line and column of the text (the character's, not the cell's).
    with pytest.raises(RegionSudokuError, match="line 1, column 4: '7a' is not a label"):
        layouts.killer(["a3 7a b7 b", "c7 c d3 d", "e3 e f7 f", "g7 g h3 h"], n=4)
    with pytest.raises(RegionSudokuError, match="line 6, column 5: cage 'a' has its sum written twice"):
        layouts.from_text("killer", ["----"] * 4 + ["c7 c d3 d", "a3  a3 b7 b", "e3 e f7 f", "g7 g h3 h"])
    bad = tmp_path / "bad.txt"
    bad.write_text("1...\n..1.\n....\n...2\naabb\naabb\nccdd\nccdd\n\n1...\n..1.\n..x.\n...2\naabb\naabb\n"
                   "ccdd\nccdd\n\n1...\n..1.\n....\n...2\naabb\naabc\nccdd\nccdd\n")
    ran = subprocess.run([sys.executable, "-m", "covering", "sudoku", "unique", "--layout", "jigsaw", str(bad)],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2 and ran.stdout.splitlines()[-3:] == ["multiple", "error", "error"]
    assert ran.stderr.splitlines() == [f"covering: error: {bad}:12:3: 'x' is not a symbol of 1..4",
                                       f"covering: error: {bad}:23:3: region 'b' has 3 cells, not 4"]
    # A ruler between the bands of a grid of givens is not a row.
    ruled = layouts.from_text("x", ["12.|...|...", "...|...|...", "...|...|...", "---+---+---"] + ["........."] * 6)
    assert ruled.givens == {(0, 0): 1, (0, 1): 2}


def test_generated_puzzles_have_one_solution_and_read_back(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    from covering.puzzles.regions.generate import generate

    g = generate(layouts.twodoku(), seed=4)
    assert g.puzzle.uniqueness() is Uniqueness.UNIQUE and g.puzzle.check(g.solution) == []
    assert g.puzzle.text() == generate(layouts.twodoku(), seed=4).puzzle.text()
    # Each given is needed: without any one of them, a second solution.
    for cell in list(g.puzzle.givens)[:5]:
        fewer = {c: v for c, v in g.puzzle.givens.items() if c != cell}
        assert RegionSudoku.make(9, g.puzzle.cells, g.puzzle.regions, fewer).uniqueness() is Uniqueness.MULTIPLE
    run = subprocess.run([sys.executable, "-m", "covering", "sudoku", "generate", "--layout", "x", "--seed", "5",
                          "--limit", "2"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    f = tmp_path / "x.txt"
    f.write_text(run.stdout)
    again = subprocess.run([sys.executable, "-m", "covering", "sudoku", "unique", "--layout", "x", str(f)],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and again.stdout.count("unique\n") == 2, again.stdout


def test_a_cage_of_more_fillings_than_memory_holds_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # 30 cells of 1,024 symbols: the fillings are counted as they are found
    # and refused past the memory limit (not enumerated for years).
    from covering.sizes import ENV, SizeError

    monkeypatch.setenv(ENV, "64M")
    cells = [(0, c) for c in range(30)]
    with pytest.raises(SizeError, match="cage 1: a cage of 30 cells summing to 15375"):
        RegionSudoku.make(1024, cells, [], {}, [(cells, 15375)])


def test_grids_of_any_side_have_boxes_as_sites_draw_them() -> None:
    # 6 x 6: boxes of 2 rows by 3 columns; 8 x 8: 2 by 4; a prime side has
    # rows and columns only: Latin squares (161,280 of side 5, 4! x 56 =
    # 1,344 with the first row fixed).
    assert layouts.box_shape(6) == (2, 3) and layouts.box_shape(8) == (2, 4) and layouts.box_shape(12) == (3, 4)
    six = layouts.classic(6)
    filled = six.solve()
    assert filled is not None and six.check(filled) == []
    assert all(len({filled.givens[(r, c)] for r in range(2 * (k // 2), 2 * (k // 2) + 2)
                    for c in range(3 * (k % 2), 3 * (k % 2) + 3)}) == 6 for k in range(6))
    first_row = "12345" + "-" * 20
    five = layouts.classic(5, first_row)
    assert five.count() == brute_count(five) == 1344
    # A killer of side 6 from text: cages of a random grid's cells, checked
    # against the plain count of the rules.
    grid = filled.givens
    cells = sorted(grid)
    labels = {c: "abcdefghijklmnopqrstuvwxyz"[k // 3] for k, c in enumerate(cells)}  # thirds of rows
    lines = []
    for r in range(6):
        row = []
        for c in range(6):
            label = labels[(r, c)]
            first = min(x for x in cells if labels[x] == label) == (r, c)
            total = sum(grid[x] for x in cells if labels[x] == label)
            row.append(label + (str(total) if first else ""))
        lines.append(" ".join(row))
    killer = layouts.from_text("killer", ["-" * 6] * 6 + lines)
    assert killer.count() == brute_count(killer) >= 1


def test_random_solutions_are_valid_repeatable_and_different() -> None:
    for s in (layouts.samurai(), layouts.sumo(), layouts.x(n=4)):
        found = list(s.random(3, seed=11))
        assert [s.check(x) for x in found] == [[], [], []]
        assert len({tuple(sorted(x.givens.items())) for x in found}) == 3
        assert [x.values for x in found] == [x.values for x in s.random(3, seed=11)]
    # Every solution of a small puzzle, each once, whatever the seed.
    small = layouts.x(n=4)
    assert len({tuple(sorted(x.givens.items())) for x in small.random(None, seed=2)}) == small.count() == 48


def test_random_on_the_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    puzzle = tmp_path / "j.txt"
    puzzle.write_text("1...\n..1.\n....\n...2\naabb\naabb\nccdd\nccdd\n")
    runs = [subprocess.run([sys.executable, "-m", "covering", "sudoku", "random", "--layout", "jigsaw", str(puzzle),
                            "--seed", "3", "--all", "--json"], capture_output=True, text=True, timeout=120)
            for _ in range(2)]
    assert runs[0].returncode == 0
    assert runs[0].stdout.splitlines()[0] == runs[1].stdout.splitlines()[0]  # (the summary's seconds differ)
    record = json.loads(runs[0].stdout.splitlines()[0])
    p = layouts.from_text("jigsaw", puzzle.read_text().split())
    assert record["count"] == p.count() == 6
    assert len({json.dumps(x) for x in record["solutions"]}) == 6
    # The classic grid too: two solutions of an empty grid, by the seed.
    r = subprocess.run([sys.executable, "-m", "covering", "sudoku", "random", "--seed", "5", "--limit", "2"],
                       input="." * 81 + "\n", capture_output=True, text=True, timeout=120)
    from covering.puzzles.sudoku import Sudoku

    lines = r.stdout.split()
    assert r.returncode == 0 and len(set(lines)) == 2
    assert all(Sudoku.parse("." * 81).check(Sudoku.parse(x)) == [] for x in lines)
