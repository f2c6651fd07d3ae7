"""The flags every puzzle command shares (--unique, --json, --svg), the
count flags (--method, --branching, --threads), flags that cannot go
together, and Ctrl-C in the counting commands."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from running import interrupt

from covering.cli import main
from covering.puzzles import akari, sudoku
from covering.puzzles.polyomino import PENTOMINOES, TROMINOES, Board, TilingPuzzle, l_tromino
from covering.puzzles.queens import Queens

WORD = ("none", "unique", "multiple")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("seed", range(6))
def test_tromino_unique_agrees_with_the_count(seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    # Small boards, random holes: some have no tiling, some one, most several.
    rng = random.Random(seed)
    n = rng.choice([2, 4, 5])
    hole = rng.randrange(n * n)
    expected = WORD[min(l_tromino(n, hole).count(), 2)]
    status, out, err = run(capsys, "tromino", "unique", str(n), "--hole", str(hole), "--no-color")
    assert status == 0 and out.splitlines()[-1] == expected, (n, hole, out, err)
    status, out, _ = run(capsys, "tromino", "unique", str(n), "--hole", str(hole), "--json")
    assert json.loads(out.splitlines()[-1])["uniqueness"] == expected


def test_tiling_json_is_a_tiling_by_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "polyomino", "solve", "--board", "5x12", "--limit", "3", "--json")
    *lines, summary = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(lines) == 3
    assert (summary["command"], summary["count"], summary["stopped"]) == ("polyomino solve", 3, "limit")
    puzzle = TilingPuzzle(PENTOMINOES, Board.rectangle(5, 12))
    for line in lines:
        solution = [(p["piece"], [tuple(c) for c in p["cells"]]) for p in line["tiling"]]
        assert puzzle.check(solution) == []
    status, out, _ = run(capsys, "tromino", "solve", "6", "--json")
    *tilings, summary = [json.loads(line) for line in out.splitlines()]
    board = TilingPuzzle({"L": TROMINOES["L"]}, Board.rectangle(6, 6), uses="any")
    # The trominoes are lettered in order, each an L: check them as Ls.
    solution = [("L", [tuple(c) for c in p["cells"]]) for p in tilings[0]["tiling"]]
    assert board.check(solution) == [] and summary["count"] == len(tilings) == 1
    status, out, _ = run(capsys, "tromino", "count", "6", "--json")
    assert json.loads(out)["count"] == l_tromino(6).count() == 162


def test_polyomino_unique_counts_classes_with_symmetry(capsys: pytest.CaptureFixture[str]) -> None:
    # 3 x 20 pentominoes: 2 tilings up to the board's symmetries, 8 in all.
    _, out, _ = run(capsys, "polyomino", "count", "--board", "3x20", "--symmetry")
    assert int(out) == 2
    _, out, _ = run(capsys, "polyomino", "unique", "--board", "3x20", "--symmetry", "--no-color")
    assert out.splitlines()[-1] == "multiple"
    _, out, err = run(capsys, "polyomino", "unique", "--pieces", "pentominoes", "--board", "8x8")
    assert out.splitlines() == ["none"] and "60" in err and "64" in err


def test_svg_of_the_first_tiling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.svg"
    status, _, _ = run(capsys, "tromino", "solve", "5", "--hole", "0", "--svg", str(f))
    assert status == 0 and f.read_text().startswith("<svg") and f.read_text().count("<") > 10
    status, out, _ = run(capsys, "polyomino", "solve", "--board", "5x12", "--limit", "2", "--svg", "-")
    assert status == 0 and out.count("<svg") == 2 and out.count("</svg>") == 2


def test_dlx_unique(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for n in range(1, 7):
        f = tmp_path / f"q{n}.dlx"
        f.write_text(Queens(n).problem().to_dlx())
        expected = WORD[min(Queens(n).count(), 2)]
        status, out, _ = run(capsys, "dlx", "unique", str(f))
        assert status == 0 and out.splitlines()[-1] == expected
        solution_lines = out.splitlines()[:-1]
        assert len(solution_lines) == (0 if expected == "none" else n)  # n queens, one option each
        status, out, _ = run(capsys, "dlx", "unique", "--json", str(f))
        assert json.loads(out.splitlines()[-1])["uniqueness"] == expected


def test_sudoku_json_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = [sudoku.generate(4, seed=s).puzzle.line() for s in range(3)] + ["1" * 16, "." * 16]
    f = tmp_path / "s.txt"
    f.write_text("\n".join(puzzles) + "\n")
    _, plain, _ = run(capsys, "sudoku", "unique", str(f))
    status, out, err = run(capsys, "sudoku", "unique", "--json", str(f))
    *records, summary = [json.loads(line) for line in out.splitlines()]
    assert status == 2 and "r1c2" in err  # the line of 1s is an error, named by cell
    assert [r["line"] for r in records] == [1, 2, 3, 4, 5]
    # (Solutions: three unique, the empty grid's "multiple" two; four puzzles
    # answered, one not: the run is not complete.)
    assert (summary["command"], summary["count"], summary["puzzles"], summary["complete"]) == \
        ("sudoku unique", 5, 4, False)
    lines = iter(plain.splitlines())
    for record in records:
        if "error" in record:
            assert next(lines) == "error" and "r1c2" in record["error"]
            continue
        solution, word = next(lines), next(lines)
        assert word == record["uniqueness"] and solution == record["solution"]
        grid = sudoku.Sudoku.parse(puzzles[record["line"] - 1])
        assert grid.check(sudoku.Sudoku.parse(solution)) == []
        assert word == ("multiple" if record["line"] == 5 else "unique")
    _, out, _ = run(capsys, "sudoku", "count", "--json", "--limit", "10", str(f))
    *counts, summary = [json.loads(line) for line in out.splitlines()]
    assert counts[-1] == {"puzzle": 5, "line": 5, "count": 10, "complete": True, "stopped": "limit"}
    assert [c.get("count") for c in counts[:3]] == [1, 1, 1]
    assert (summary["count"], summary["puzzles"]) == (13, 4)  # (solutions: 1 + 1 + 1 + 10)
    _, out, _ = run(capsys, "sudoku", "solve", "--svg", "-", str(f))
    assert out.count("<svg") == 4
    svg = tmp_path / "first.svg"
    _, out, _ = run(capsys, "sudoku", "solve", str(f), "--svg", str(svg))
    assert svg.read_text().startswith("<svg") and out.splitlines()[0] == plain.splitlines()[0]


def test_akari_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "a.txt"
    puzzles = [akari.SEED_7X7, akari.random_puzzle(6, 6, seed=3).text()]
    f.write_text("\n\n".join(p.strip("\n") for p in puzzles) + "\n")
    status, out, _ = run(capsys, "akari", "unique", "--json", str(f))
    *records, summary = [json.loads(line) for line in out.splitlines()]
    assert summary["command"] == "akari unique" and summary["puzzles"] == 2
    assert summary["count"] == sum(r["count"] for r in records)
    assert status == 0 and [r["puzzle"] for r in records] == [1, 2]
    for text, record in zip(puzzles, records):
        puzzle = akari.Akari.parse(text)
        assert record["uniqueness"] == WORD[min(puzzle.count(2), 2)]
        if record["lights"] is not None:
            assert akari.check(puzzle, [tuple(x) for x in record["lights"]]) == []
    _, out, _ = run(capsys, "akari", "count", "--json", "--limit", "5", str(f))
    assert [json.loads(line)["count"] for line in out.splitlines()[:-1]] == [
        akari.Akari.parse(p).count(5) for p in puzzles]


def test_queens_list_json_and_svg(capsys: pytest.CaptureFixture[str]) -> None:
    _, plain, _ = run(capsys, "queens", "list", "6")
    _, out, _ = run(capsys, "queens", "list", "6", "--json")
    *rows, summary = [json.loads(line) for line in out.splitlines()]
    assert [" ".join(map(str, r["rows"])) for r in rows] == plain.splitlines()
    assert (summary["command"], summary["count"], summary["complete"]) == ("queens list", 4, True)
    _, out, _ = run(capsys, "queens", "list", "6", "--svg", "-")
    assert out.count("<svg") == 4 and out.count("<circle") == 24


@pytest.mark.parametrize("args, first, second", [
    (["tromino", "random", "6", "--threads", "2"], "random", "--threads"),
    (["tromino", "count", "6", "--method", "search", "--branching", "first"], "--branching", "--method search"),
    (["tromino", "count", "6", "--symmetry", "--method", "memo"], "--method memo", "--symmetry"),
    (["tromino", "export", "6", "--count"], "export", "--count"),
    (["polyomino", "count", "--svg", "x.svg"], "count", "--svg"),
    (["polyomino", "unique", "--limit", "2"], "unique", "--limit"),
    (["dlx", "solve", "--all", "--limit", "2"], "--all", "--limit"),
    (["polyomino", "solve", "--json", "--svg", "-"], "--json", "--svg"),
    (["dlx", "count", "--memo", "--checkpoint", "c.jsonl"], "--memo", "--checkpoint"),
    (["queens", "list", "5", "--json", "--svg", "-"], "--json", "--svg"),
    (["akari", "solve", "--json", "--draw"], "--json", "--draw"),
    (["sudoku", "solve", "--json", "--svg", "-"], "--json", "--svg"),
    (["akari", "generate", "--rows", "5", "--cols", "5", "--difficulty", "fiendish"], "--difficulty", "fiendish"),
    (["dlx", "random", "--engine", "sat", "--seed", "1", "--all"], "--engine", "'sat'"),
    (["dlx", "solve", "--engine", "cells", "--conflicts", "5", "--all"], "--conflicts", "--engine cells"),
    (["dlx", "count", "--engine", "bits", "--memo"], "--engine bits", "--memo"),
])
def test_flags_that_cannot_go_together_are_named_both(args: list[str], first: str, second: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert first in err and second in err, err


def test_count_flags_on_tilings(capsys: pytest.CaptureFixture[str]) -> None:
    expected = l_tromino(8, 0).count(method="search")
    for flags in (["--method", "memo", "--branching", "mrv"], ["--method", "search", "--threads", "2"],
                  ["--method", "memo", "--branching", "first", "--memo-bytes", "0"],
                  ["--method", "memo", "--threads", "2"]):
        status, out, _ = run(capsys, "tromino", "count", "8", "--hole", "0", "--json", *flags)
        summary = json.loads(out)
        assert status == 0 and summary["count"] == expected == 30355
        assert summary["method"] == flags[1]


def test_memo_progress_goes_to_a_pipe() -> None:
    # A memo count long enough for a few progress lines: the solutions so far,
    # never a fraction (it would say nothing), then 100% at the end.
    r = subprocess.run([sys.executable, "-m", "covering", "polyomino", "count", "--pieces", "dominoes", "--board", "16x16", "--uses", "any", "--method", "memo", "--progress"],
                       capture_output=True, text=True, timeout=120)
    lines = r.stderr.splitlines()
    assert r.returncode == 0 and lines, r.stderr
    assert lines[-1].endswith("100.0% done, " + lines[-1].rsplit(", ", 1)[-1])
    assert all("solutions so far" in line and "% done" not in line for line in lines[:-1])
    so_far = [int(line.split(" solutions")[0].split(", ")[-1].replace(",", "")) for line in lines]
    assert so_far == sorted(so_far) and so_far[-1] == int(r.stdout)


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
@pytest.mark.parametrize("args", [
    ["polyomino", "count", "--pieces", "hexominoes", "--board", "10x21", "--uses", "any", "--method", "search"],
    ["tromino", "count", "30", "--method", "memo", "--branching", "mrv"],
])
def test_ctrl_c_in_a_tiling_count_prints_the_partial_count(args: list[str]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "covering", *args, "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, 1.0)
    assert proc.returncode == 130, err
    assert int(out.strip()) >= 0 and "a partial count" in err and "Traceback" not in err


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_in_an_akari_count_prints_the_counts_so_far(tmp_path: Path) -> None:
    # A one-cell puzzle first (count 1), then an all-white 12 x 12 board: its
    # 12! solutions (a light in each row and column) take minutes to count.
    f = tmp_path / "a.txt"
    f.write_text(".\n\n" + ("." * 12 + "\n") * 12)
    proc = subprocess.Popen([sys.executable, "-m", "covering", "akari", "count", str(f)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, 1.0)
    assert proc.returncode == 130, err
    first, partial = out.split()
    assert first == "1" and int(partial) > 0
    assert f"puzzle 2: {partial} solutions so far (a partial count)" in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_dlx_engine_sat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "q6.dlx"
    f.write_text(Queens(6).problem().to_dlx())

    def solutions(out: str) -> list[frozenset[str]]:
        return sorted((frozenset(block.splitlines()) for block in out.strip().split("\n\n")), key=sorted)

    _, by_links, _ = run(capsys, "dlx", "solve", str(f), "--all")
    status, by_clauses, _ = run(capsys, "dlx", "solve", "--engine", "sat", str(f), "--all")
    assert status == 0 and solutions(by_clauses) == solutions(by_links) and len(solutions(by_links)) == 4
    status, out, _ = run(capsys, "dlx", "count", "--engine", "sat", "--limit", "3", str(f))
    assert (status, out) == (0, "3\n")
    status, out, err = run(capsys, "dlx", "count", "--engine", "sat", str(f))
    assert status == 2 and "--limit" in err
    status, out, _ = run(capsys, "dlx", "unique", "--engine", "sat", "--json", str(f))
    assert json.loads(out.splitlines()[-1])["uniqueness"] == "multiple"
    # A budget of no conflicts at all: the portfolio's CDCL part cannot finish
    # a proof that dancing links did not (here it did: queens 6 is small).
    status, out, _ = run(capsys, "dlx", "unique", "--conflicts", "0", str(f))
    assert status == 0 and out.splitlines()[-1] == "multiple"


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_stops_the_cdcl_solver(tmp_path: Path) -> None:
    # 15 pigeons in 14 holes: hours for any solver; Ctrl-C answers at once.
    from covering import Problem

    p = Problem()
    p.add_primary([f"p{i}" for i in range(15)])
    p.add_secondary([f"h{j}" for j in range(14)])
    for i in range(15):
        for j in range(14):
            p.add_option([f"p{i}", f"h{j}"])
    f = tmp_path / "pigeons.dlx"
    f.write_text(p.to_dlx())
    proc = subprocess.Popen([sys.executable, "-m", "covering", "dlx", "unique", "--engine", "sat", str(f)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, 1.0)
    assert proc.returncode == 130 and "Traceback" not in err, err
    r = subprocess.run([sys.executable, "-m", "covering", "dlx", "unique", "--engine", "sat", "--conflicts", "50", str(f)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "unknown", r.stdout + r.stderr


NOTHING = [
    (["dlx", "solve", "-"], "A B\nA\n"),
    (["tromino", "solve", "4"], None),
    (["polyomino", "solve", "--pieces", "pentominoes", "--board", "8x8"], None),
    (["akari", "solve", "-"], "1#\n##\n"),
    (["sudoku", "solve", "-"], "...1.3.4..4..1..\n"),  # no clash among the givens, yet no solution
]


@pytest.mark.parametrize(("args", "stdin"), NOTHING, ids=[" ".join(a[:2]) for a, _ in NOTHING])
def test_no_solution_is_said_the_same_way_on_every_puzzle(args: list[str], stdin: str | None) -> None:
    def covering(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "covering", *args, *extra], input=stdin, capture_output=True,
                              text=True, timeout=120)

    text = covering()
    assert text.returncode == 0 and text.stdout == "no solution\n", text
    records = [json.loads(line) for line in covering("--json").stdout.splitlines()]
    batch = args[0] in ("akari", "sudoku")
    # A batch's summary counts the puzzles answered: the 0 is on the puzzle's own line.
    assert (records[0]["count"] if batch else records[-1]["count"]) == 0
    assert records[-1]["complete"] is True
    unique = subprocess.run([sys.executable, "-m", "covering", args[0], "unique", *args[2:]], input=stdin,
                            capture_output=True, text=True, timeout=120)
    assert unique.stdout == "none\n", unique


def test_a_sudoku_laid_over_lines_without_grid_gets_one_error_naming_grid(tmp_path: Path) -> None:
    f = tmp_path / "grid.txt"
    f.write_text("".join(row + "\n" for row in (
        "53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1", "7...2...6", ".6....28.", "...419..5",
        "....8..79")))
    r = subprocess.run([sys.executable, "-m", "covering", "sudoku", "solve", str(f)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and "--grid" in r.stderr and "grid.txt" in r.stderr
