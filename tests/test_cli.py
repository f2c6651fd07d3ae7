"""The command line: output formats, exit statuses, one-line errors, Ctrl-C."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from running import interrupt
from covering.puzzles.polyomino import l_tromino

from covering.cli import main

KNUTH2 = "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n"


@pytest.fixture
def knuth2(tmp_path: Path) -> str:
    f = tmp_path / "knuth2.dlx"
    f.write_text(KNUTH2)
    return str(f)


def test_solutions_as_option_lines(knuth2: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dlx", "solve", knuth2, "--all"]) == 0
    out, err = capsys.readouterr()
    assert out == "A C X:1 Y:1\nB X:1\n"
    assert f"{knuth2}:4:" in err and "skipped" in err


def test_blank_line_between_solutions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "two.dlx"
    f.write_text("A B\nA\nB\nA B\n")
    assert main(["dlx", "solve", str(f), "--all"]) == 0
    assert capsys.readouterr().out == "A\nB\n\nA B\n"
    assert main(["dlx", "solve", str(f)]) == 0
    assert capsys.readouterr().out == "A\nB\n"


def test_count_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.dlx"
    f.write_text(l_tromino(6).to_dlx())
    assert main(["dlx", "count", str(f)]) == 0
    assert capsys.readouterr().out == "162\n"
    assert main(["dlx", "solve", "--json", "--limit", "3", str(f)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [len(x["solution"]) for x in lines[:3]] == [12, 12, 12]
    last = lines[3]
    assert last["count"] == 3 and last["stopped"] == "limit" and last["complete"] is True
    assert last["command"] == "dlx solve" and {"nodes", "seconds"} <= set(last)
    assert main(["dlx", "count", "--json", str(f)]) == 0
    (only,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert only["count"] == 162 and only["complete"] is True and only["stopped"] is None
    assert main(["dlx", "count", "--json", "--limit", "2", str(f)]) == 0
    (only,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert (only["count"], only["complete"], only["stopped"]) == (2, True, "limit")


def test_random_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.dlx"
    f.write_text(l_tromino(6).to_dlx())
    outs = set()
    for seed in ("1", "2", "1"):
        assert main(["dlx", "random", str(f), "--seed", seed, "--limit", "1"]) == 0
        outs.add(capsys.readouterr().out)
    assert len(outs) == 2


def test_no_solution_is_a_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "none.dlx"
    f.write_text("A B\nA B\nA\n")
    assert main(["dlx", "count", str(f)]) == 0
    assert capsys.readouterr().out == "1\n"
    f.write_text("A B\nA\n")
    assert main(["dlx", "solve", str(f), "--all"]) == 0
    assert capsys.readouterr().out == "no solution\n"


@pytest.mark.parametrize(
    ("args", "text", "message"),
    [
        (["dlx", "solve", "--all"], "A B\nA C\n", "covering: error: {f}:2: unknown item 'C'"),
        (["dlx", "solve", "--all"], "A B\nA B A\n", "covering: error: {f}:2: item 'A' appears twice"),
        (["dlx", "solve", "--all"], "A 2:1|B\nA\n", "covering: error: {f}:1: item 'B': lower bound 2 exceeds upper bound 1"),
        (["dlx", "--first", "--limit", "2"], "A\nA\n", "covering: error: --first and --limit cannot go together"),
        (["dlx", "solve", "--limit", "x"], "A\nA\n", "covering: error: dlx solve: argument --limit: not an integer: 'x'"),
        (["dlx", "solve", "--all", "--limit", "2"], "A\nA\n", "covering: error: --all and --limit cannot go together"),
    ],
)
def test_errors_are_one_line_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], text: str, message: str
) -> None:
    f = tmp_path / "bad.dlx"
    f.write_text(text)
    assert main(args + [str(f)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [message.format(f=f)]


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dlx", "solve", "/no/such/file.dlx", "--all"]) == 2
    assert capsys.readouterr().err == "covering: error: /no/such/file.dlx: No such file or directory\n"


def test_stdin_help_and_version() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "covering", "dlx", "count", "-"], input=KNUTH2, capture_output=True, text=True
    )
    assert (run.returncode, run.stdout) == (0, "1\n")
    for args in (["--help"], ["dlx", "--help"], ["--version"]):
        run = subprocess.run([sys.executable, "-m", "covering", *args], capture_output=True, text=True)
        assert run.returncode == 0 and run.stdout


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from covering.render.text import display_width

    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "DLX3" in out and "the solution is unique; rules broken: 0" in out
    # The kanji grids line up: the bars of the boxes stand in the same
    # columns on every row, dots and kanji alike.
    grid = [line for line in out.splitlines() if "|" in line and any(ord(c) > 0x3000 for c in line)]
    assert len(grid) == 18
    assert len({tuple(display_width(line[:i]) for i, c in enumerate(line) if c == "|") for line in grid}) == 1


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_prints_the_partial_count_and_exits_130(tmp_path: Path) -> None:
    f = tmp_path / "big.dlx"
    f.write_text(l_tromino(10, 0).to_dlx())  # hours of counting by search (the memo takes moments)
    proc = subprocess.Popen(
        [sys.executable, "-m", "covering", "dlx", "count", "--method", "search", "--no-progress", str(f)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = interrupt(proc)
    assert proc.returncode == 130
    assert 0 <= int(out.strip()) < l_tromino(10, 0).count(method="memo")  # solutions so far, not all
    assert "interrupted" in err and "Traceback" not in err


def test_every_puzzle_exports_a_dlx_file_that_counts_the_same() -> None:
    from covering.puzzles import akari, sudoku

    def covering(*args: str, stdin: str | None = None) -> str:
        r = subprocess.run([sys.executable, "-m", "covering", *args], input=stdin, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return r.stdout

    grid = "1..." "..1." "...." "...2"
    cases = [
        (["queens", "export", "8"], None, 92),
        (["tromino", "export", "7", "--hole", "9"], None, polyomino_count(7, 9)),
        (["polyomino", "export", "--pieces", "pentominoes", "--board", "5x12"], None, 4040),
        (["sudoku", "export"], grid + "\n", sudoku.Sudoku.parse(grid).count()),
        (["akari", "export"], akari.SEED_7X7, akari.Akari.parse(akari.SEED_7X7).count()),
    ]
    for args, stdin, expected in cases:
        dlx = covering(*args, stdin=stdin)
        assert int(covering("dlx", "count", "--no-progress", stdin=dlx)) == expected, args
    r = subprocess.run([sys.executable, "-m", "covering", "tromino", "export", "7", "--hole", "0", "--count"], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "tromino export: --count is not a flag of this verb" in r.stderr
    r = subprocess.run([sys.executable, "-m", "covering", "sudoku", "export"], input=grid + "\n" + grid + "\n",
                       capture_output=True, text=True)
    assert r.returncode == 2 and "one puzzle" in r.stderr


def polyomino_count(n: int, hole: int) -> int:
    return l_tromino(n, hole).count()


@pytest.mark.parametrize(("args", "said"), [
    (["dlx", "cuont", "f.dlx"], "dlx: unknown verb 'cuont' (did you mean count?)"),
    (["dlx", "cuont"], "dlx: unknown verb 'cuont' (did you mean count?)"),
    (["tromino", "cuont"], "tromino: unknown verb 'cuont' (did you mean count?)"),
    (["queens", "slove", "8"], "queens: unknown verb 'slove' (did you mean solve?)"),
    (["polyomino", "cont", "--board", "6x10"], "polyomino: unknown verb 'cont' (did you mean count?)"),
    (["sudoku", "uniq", "s.txt"], "sudoku: unknown verb 'uniq' (did you mean unique?)"),
    (["akari", "gen"], "akari: unknown verb 'gen' (did you mean generate?)"),
    (["polyomino", "count", "--pieces", "pentomino"],
     "--pieces: unknown set or file 'pentomino' (did you mean pentominoes?)"),
])
def test_a_misspelling_is_named_with_the_nearest_word(args: list[str], said: str) -> None:
    # Before any older spelling is tried (`dlx FILE --count`, `tromino 9`).
    r = subprocess.run([sys.executable, "-m", "covering", *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr == f"covering: error: {said}\n", r.stderr


def test_the_older_spellings_still_take_a_file_or_a_size(tmp_path: Path) -> None:
    (tmp_path / "q.dlx").write_text("A B\nA B\n")
    for args in (["dlx", "q.dlx", "--count"], ["tromino", "5", "--hole", "0", "--count"]):
        r = subprocess.run([sys.executable, "-m", "covering", *args], capture_output=True, text=True,
                           cwd=tmp_path, timeout=60)
        assert r.returncode == 0 and r.stdout.split() in (["1"], ["8"]), (args, r.stderr)
    r = subprocess.run([sys.executable, "-m", "covering", "dlx", "none.dlx", "--count"], capture_output=True,
                       text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and "none.dlx" in r.stderr and r.stderr.count("\n") == 1


def test_the_hints_where_a_user_goes_wrong(tmp_path: Path) -> None:
    # A board bigger than the pieces: --uses any suggested.
    r = subprocess.run([sys.executable, "-m", "covering", "polyomino", "count", "--pieces", "dominoes", "--board",
                        "30x30"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["0"]
    assert "the pieces cover 2 cells, the board has 900" in r.stderr and "--uses any" in r.stderr
    # An OR-Library file read as .dlx: --format orlib suggested.
    (tmp_path / "crew.txt").write_text("3 3\n4 2 1 2\n2 1 3\n5 1 3\n")
    r = subprocess.run([sys.executable, "-m", "covering", "dlx", "best", "crew.txt"], capture_output=True,
                       text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and "--format orlib" in r.stderr and r.stderr.count("\n") == 1


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize("puzzle", ["dlx", "sudoku", "akari"])
def test_no_file_and_a_terminal_on_stdin_is_said_not_waited_on(puzzle: str) -> None:
    import pty

    leader, follower = pty.openpty()
    try:
        r = subprocess.run([sys.executable, "-m", "covering", puzzle, "count"], stdin=follower,
                           capture_output=True, text=True, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert r.returncode == 2 and "standard input is a terminal" in r.stderr and r.stderr.count("\n") == 1


#: Modules a command's start does without: `dataclasses` (with `inspect`,
#: `ast`, `dis`, `tokenize`) and the others cost a slow core 30 ms of the
#: 110 ms before any work; `covering.records` keeps the values instead.
NOT_AT_START = ("dataclasses", "inspect", "logging", "json", "html")


@pytest.mark.parametrize("command", [
    ["dlx", "count", "{knuth2}"],
    ["dlx", "solve", "{knuth2}", "--all"],
    ["sudoku", "unique", "{sudoku}"],
    ["akari", "unique", "{akari}"],
    ["queens", "count", "6"],
])
def test_start_imports_only_what_it_needs(command: list[str], knuth2: str, tmp_path: Path) -> None:
    sudoku = tmp_path / "s.txt"
    sudoku.write_text("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n")
    akari = tmp_path / "a.txt"
    akari.write_text(".2.\n...\n")
    argv = [w.format(knuth2=knuth2, sudoku=sudoku, akari=akari) for w in command]
    script = ("import sys, io, contextlib\nfrom covering.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
              f"    status = main({argv!r})\n"
              f"print(status, [m for m in {NOT_AT_START!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0 []"
