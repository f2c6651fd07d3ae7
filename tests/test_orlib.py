"""OR-Library's set partitioning files: read as they are written (numbers
wrapped over lines as they come), the cheapest covers the brute force's,
and every malformed file refused with its line named."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest

from covering import Problem, _core
from covering.orlib import OrLibError


def orlib_text(rows: int, columns: list[tuple[int, list[int]]], rng: random.Random | None = None) -> str:
    """The file of `columns` (cost, rows from 1) over `rows` rows; with
    `rng`, its numbers wrapped at random places, as OR-Library's are."""
    numbers = [rows, len(columns)]
    for cost, covered in columns:
        numbers += [cost, len(covered), *covered]
    if rng is None:
        return f"{rows} {len(columns)}\n" + "".join(f"{c} {len(r)} {' '.join(map(str, r))}\n" for c, r in columns)
    out, line = [], []
    for x in numbers:
        line.append(str(x))
        if rng.random() < 0.2:
            out.append(" ".join(line))
            line = []
    out.append(" ".join(line))
    return "\n".join(out) + "\n"


def random_columns(rng: random.Random, rows: int, n: int) -> list[tuple[int, list[int]]]:
    """Columns of 1-4 rows, costs growing with their length, as crew
    instances' do."""
    cols = []
    for _ in range(n):
        covered = sorted(rng.sample(range(1, rows + 1), rng.randint(1, min(4, rows))))
        cols.append((rng.randint(1, 5) * len(covered) + rng.randint(0, 3), covered))
    return cols


def brute_best(rows: int, columns: list[tuple[int, list[int]]], k: int) -> list[int]:
    """The costs of the k cheapest exact covers, by every subset."""
    costs = []
    for size in range(len(columns) + 1):
        for chosen in itertools.combinations(range(len(columns)), size):
            covered = [r for c in chosen for r in columns[c][1]]
            if sorted(covered) == list(range(1, rows + 1)):
                costs.append(sum(columns[c][0] for c in chosen))
    return sorted(costs)[:k]


def test_the_cheapest_covers_are_the_brute_forces_and_the_dlx_files() -> None:
    rng = random.Random(60)
    checked = 0
    for _ in range(40):
        rows = rng.randint(3, 7)
        columns = random_columns(rng, rows, rng.randint(4, 12))
        expected = brute_best(rows, columns, 3)
        p = Problem.from_orlib(orlib_text(rows, columns, rng))
        got = p.best(3)
        assert [s.cost for s in got] == expected
        # The same problem written as DLX5's .dlx, with '|cost' entries.
        dlx = " ".join(map(str, range(1, rows + 1))) + "\n" + "".join(
            " ".join(map(str, r)) + f" |{c}\n" for c, r in columns)
        assert [s.cost for s in Problem.from_dlx(dlx).best(3)] == expected
        # Each solution's columns (labels: option ids, from 0) cover every row once, at its cost.
        for s in got:
            assert sorted(r for c in s.labels for r in columns[c][1]) == list(range(1, rows + 1))
            assert sum(columns[c][0] for c in s.labels) == s.cost
        checked += bool(expected)
    assert checked > 10


@pytest.mark.parametrize(("text", "line", "words"), [
    ("2 1\n4 2 1 3\n", 2, "column 1 names row 3, outside 1..2"),
    ("2 1\n4 2 0 1\n", 2, "column 1 names row 0, outside 1..2"),
    ("2 1\n4 3 1\n2\n", 3, "the file ends inside column 1, which said it covers 3 rows"),
    ("2 2\n4 2 1 2\n", 2, "the file ends after 1 of its 2 columns"),
    ("2 1\n-4 2 1 2\n", 2, "the cost should be a whole number, not '-4'"),
    ("2 1\n4.5 2 1 2\n", 2, "the cost should be a whole number, not '4.5'"),
    ("2 1\nnan 2 1 2\n", 2, "the cost should be a whole number, not 'nan'"),
    ("2 1\n4 2 1 2\n7\n", 3, "a number after the last column: '7'"),
    ("2 1\n4 2 2 2\n", 2, "column 1 names row 2 twice"),
    ("2 1\n4 0\n", 2, "column 1 covers no row"),
    ("99999999999 1\n", 1, "the rows 99999999999 is too large"),
    ("2 1\n99999999999999999999 2 1 2\n", 2, "the cost 99999999999999999999 is too large"),
    ("3 4\n1 2 3 4\n2 1 2\n3 2 3 4\n1 4\n", 2, "OR-Library's set covering layout"),
    ("2 1\n4 2 1\x012\n", 2, "control character U+0001"),
    (b"2 1\n4 2 1 \xff2\n", 2, "not UTF-8"),
    ("", 0, "no numbers"),
])
def test_every_malformed_file_names_its_line(text: str | bytes, line: int, words: str) -> None:
    with pytest.raises(OrLibError) as e:
        Problem.from_orlib(text)
    assert e.value.line == line and words in str(e.value)
    assert isinstance(e.value, ValueError)


def test_the_command_line_reads_it_and_refuses_the_other_layout(tmp_path) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "spp.txt"
    good.write_text("3 3\n4 2 1 2\n2 1 3\n5 1 3\n")
    cli = [sys.executable, "-m", "covering", "dlx", "best"]
    out = subprocess.run(cli + [str(good), "--format", "orlib"], capture_output=True, text=True, check=True)
    # (Columns by their option ids from 0, in text as in --json.)
    assert out.stdout.splitlines() == ["0", "1", "cost 6"]
    js = subprocess.run(cli + [str(good), "--format", "orlib", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(js.stdout.splitlines()[0])["solution"] == [0, 1]
    bad = tmp_path / "scp.txt"
    bad.write_text("3 4\n1 2 3 4\n2 1 2\n3 2 3 4\n1 4\n")
    out = subprocess.run(cli + [str(bad), "--format", "orlib"], capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert f"{bad}:2:" in out.stderr and "set covering layout" in out.stderr


def test_covers_that_all_cost_alike_are_proven_at_the_first() -> None:
    """Pentominoes on 5 x 12 as set partitioning, every placement costing 1:
    every cover costs 12, and the relaxation's bound (a fraction under 12
    in the engine's units) rounds up to 12, so the first cover is proven
    cheapest without searching the rest (before the bar was rounded: 2.2M
    nodes, every cover)."""
    text = subprocess.run([sys.executable, "-m", "covering", "polyomino", "export", "--pieces", "pentominoes",
                           "--board", "5x12"], check=True, capture_output=True, text=True).stdout
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("|")]
    names = {n: k + 1 for k, n in enumerate(lines[0].replace("|", " ").split())}
    columns = [(1, sorted(names[w] for w in line.split())) for line in lines[1:]]
    rng = random.Random(5)
    rng.shuffle(columns)
    found = Problem.from_orlib(orlib_text(len(names), columns)).best(2)
    assert found.optimal and [s.cost for s in found] == [12, 12]
    assert found.stats.nodes < 100_000
    for s in found:
        assert sorted(r for c in s.labels for r in columns[c][1]) == list(range(1, len(names) + 1))


def test_crew_like_covers_agree_on_every_engine_and_order() -> None:
    """A crew-like instance (duties of a stretch of flights, costs growing
    with their length): the K cheapest costs are the same on bitsets, on
    dancing links, in the file's order and shuffled, and each cover covers
    every row once at its cost. (The engine's own tests check the search
    that starts over with new prices against brute force.)"""
    rng = random.Random(61)
    rows = 60
    columns: list[tuple[int, list[int]]] = []
    seen: set[tuple[int, ...]] = set()
    while len(columns) < 900:
        at = 1
        while at <= rows:
            size = min(rng.randint(4, 9), rows - at + 1)
            duty = tuple(sorted(rng.sample(range(at, at + size), max(1, size // 2))))
            rest = tuple(r for r in range(at, at + size) if r not in duty)
            for d in (duty, rest):
                if d and d not in seen:
                    seen.add(d)
                    columns.append((100 * len(d) + rng.randint(0, 60), list(d)))
            at += size
    lists = []
    for order in range(2):
        cols = columns[:] if order == 0 else rng.sample(columns, len(columns))
        p = Problem.from_orlib(orlib_text(rows, cols))
        for engine in ("auto", "links"):
            search = _core.MinCostSearch(p.compile(), p.cost_bytes(), 4, engine)
            assert search.run(None)
            got = search.best()
            for cost, ids in got:
                assert sorted(r for o in ids for r in cols[o][1]) == list(range(1, rows + 1))
                assert sum(cols[o][0] for o in ids) == cost
            lists.append([c for c, _ in got])
    assert len(lists[0]) == 4 and all(x == lists[0] for x in lists)


def pairings(rng: random.Random, rows: int, n: int) -> list[tuple[int, list[int]]]:
    """An nw-like instance (pairings of an airline: duties of 2-7 of a
    window of rows, and a dear column a row), whose relaxation is loose
    enough that the LP tree joins the search early."""
    seen: set[tuple[int, ...]] = set()
    cols: list[tuple[int, list[int]]] = []
    while len(cols) < n:
        k, start = rng.randint(2, 7), rng.randint(1, rows)
        window = range(start, min(rows, start + rng.randint(k, 3 * k)) + 1)
        if len(window) >= k:
            duty = tuple(sorted(rng.sample(window, k)))
            if duty not in seen:
                seen.add(duty)
                cols.append((rng.randint(50, 150) * k + rng.randint(0, 400), list(duty)))
    cols += [(2000 + rng.randint(0, 500), [r]) for r in range(1, rows + 1)]
    rng.shuffle(cols)
    return cols


def test_the_race_answers_alike_on_a_busy_machine(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The search, its dives and the LP tree beside it take turns by work,
    not by the clock: the same command prints the same lines (the seconds
    aside: nodes, costs, covers) on an idle machine and with every core
    busy. The budget is in nodes, so the run ends at the same node too;
    the tree joins after about a fifth of it on this instance."""
    import multiprocessing
    import os

    path = tmp_path / "pairings.txt"
    path.write_text(orlib_text(80, pairings(random.Random(1), 80, 30_000)))

    def run() -> list[dict[str, object]]:
        done = subprocess.run([sys.executable, "-m", "covering", "dlx", "best", str(path), "--format", "orlib",
                               "--json", "--no-progress", "--nodes", "300000"],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 3, done.stderr  # the budget
        lines = [json.loads(x) for x in done.stdout.splitlines()]
        for x in lines:
            x.pop("seconds", None)
        return lines

    idle = run()
    spin = [multiprocessing.Process(target=busy, daemon=True) for _ in range(os.cpu_count() or 2)]
    for p in spin:
        p.start()
    try:
        loaded = run()
    finally:
        for p in spin:
            p.terminate()
    assert loaded == idle
    assert idle[-1]["stopped"] == "budget" and any("cost" in x for x in idle)


def busy() -> None:
    """A core kept busy until terminated."""
    while True:
        pass
