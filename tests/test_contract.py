"""The command line's one contract: every puzzle x verb speaks the same
grammar, and with --json ends on the same summary line, however the run
ends (completed, --limit reached, a budget spent, Ctrl-C); the older
spellings give the same answers as the verbs they stand for."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from running import interrupt

from covering.cli import grammar
from covering.cli.grammar import VERBS
from covering.puzzles import akari, sudoku
from covering.puzzles.polyomino import l_tromino
from covering.puzzles.queens import queens_problem

KEYS = {"command", "count", "complete", "stopped", "seconds"}


def covering(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "covering", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("contract")
    (d / "q6.dlx").write_text(queens_problem(6).to_dlx())
    priced = l_tromino(6)
    priced.set_costs([(7 * o) % 10 for o in range(priced.n_options)])
    (d / "t6.dlx").write_text(priced.to_dlx())
    # Sudoku: one unique 4 x 4 puzzle and an empty one (288 solutions).
    (d / "s.txt").write_text(sudoku.generate(4, seed=3).puzzle.line() + "\n" + "." * 16 + "\n")
    # Akari: the 7 x 7 board (unique) and an all-white 3 x 3 (several).
    (d / "a.txt").write_text(akari.SEED_7X7.strip("\n") + "\n\n...\n...\n...\n")
    (d / "one.txt").write_text(sudoku.generate(4, seed=3).puzzle.line() + "\n")
    return d


#: (puzzle, verb) -> the input and flags of a small run that completes.
SMALL: dict[tuple[str, str], list[str]] = {
    ("dlx", "solve"): ["q6.dlx"], ("dlx", "count"): ["q6.dlx"], ("dlx", "unique"): ["q6.dlx"],
    ("dlx", "best"): ["t6.dlx"], ("dlx", "random"): ["q6.dlx", "--seed", "1"], ("dlx", "export"): ["q6.dlx"],
    ("tromino", "solve"): ["6"], ("tromino", "count"): ["6"], ("tromino", "unique"): ["6"],
    ("tromino", "random"): ["6", "--seed", "1"], ("tromino", "export"): ["6"],
    ("polyomino", "solve"): ["--board", "3x4", "--pieces", "trominoes", "--uses", "any"],
    ("polyomino", "count"): ["--board", "3x4", "--pieces", "trominoes", "--uses", "any"],
    ("polyomino", "unique"): ["--board", "3x4", "--pieces", "trominoes", "--uses", "any"],
    ("polyomino", "best"): ["--board", "3x4", "--pieces", "trominoes", "--uses", "any", "--cost", "I=2"],
    ("polyomino", "random"): ["--board", "3x4", "--pieces", "trominoes", "--uses", "any", "--seed", "2"],
    ("polyomino", "export"): ["--board", "3x4", "--pieces", "trominoes", "--uses", "any"],
    ("queens", "solve"): ["6"], ("queens", "count"): ["6"], ("queens", "unique"): ["6"],
    ("queens", "random"): ["6", "--seed", "1"], ("queens", "list"): ["6"], ("queens", "infinite"): ["20"],
    ("queens", "plot"): ["50", "--svg", "q.svg"], ("queens", "export"): ["6"],
    ("sudoku", "solve"): ["s.txt"], ("sudoku", "count"): ["s.txt"], ("sudoku", "unique"): ["s.txt"],
    ("sudoku", "random"): ["s.txt", "--seed", "2"],
    ("sudoku", "export"): ["one.txt"], ("sudoku", "generate"): ["--size", "4", "--seed", "1"],
    ("akari", "solve"): ["a.txt"], ("akari", "count"): ["a.txt"], ("akari", "unique"): ["a.txt"],
    ("akari", "export"): [akari.Akari.parse(akari.SEED_7X7).url()],
    ("akari", "generate"): ["--rows", "5", "--cols", "5", "--seed", "1"],
}


def summary_of(r: subprocess.CompletedProcess[str], command: str) -> dict[str, object]:
    """Every stdout line a JSON object, the last one the summary of `command`."""
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert lines and all(isinstance(x, dict) for x in lines), r.stdout
    last: dict[str, object] = lines[-1]
    assert KEYS <= set(last) and last["command"] == command, last
    assert last["stopped"] in (None, "limit", "budget", "interrupt")
    return last


def test_every_verb_of_every_puzzle_is_listed() -> None:
    assert {p for p, _ in SMALL} == set(VERBS)
    assert {(p, v) for p in VERBS for v in VERBS[p]} == set(SMALL)


@pytest.mark.parametrize(("puzzle", "verb"), sorted(SMALL))
def test_a_run_that_completes_ends_on_the_summary(files: Path, puzzle: str, verb: str) -> None:
    r = covering(puzzle, verb, *SMALL[puzzle, verb], "--json", cwd=files)
    assert r.returncode == 0, r.stderr
    last = summary_of(r, f"{puzzle} {verb}")
    assert last["complete"] is True and isinstance(last["count"], int)
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(("puzzle", "verb"), sorted(SMALL))
def test_seconds_0_stops_at_once_with_exit_3(files: Path, puzzle: str, verb: str) -> None:
    r = covering(puzzle, verb, *SMALL[puzzle, verb], "--json", "--seconds", "0", cwd=files)
    assert r.returncode == 3, r.stderr
    last = summary_of(r, f"{puzzle} {verb}")
    assert last["stopped"] == "budget" and last["complete"] is False
    assert r.stderr.count("covering: budget:") == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize(("puzzle", "verb"), sorted(SMALL))
def test_seconds_inf_and_max_memory_after_the_verb(files: Path, puzzle: str, verb: str) -> None:
    r = covering(puzzle, verb, *SMALL[puzzle, verb], "--json", "--seconds", "inf", "--max-memory", "4G", cwd=files)
    assert r.returncode == 0, r.stderr
    assert summary_of(r, f"{puzzle} {verb}")["stopped"] in (None, "limit")


#: Runs cut by --limit: the summary says "limit", and the run is complete.
LIMITED = [
    ("dlx", "solve", ["q6.dlx", "--limit", "2"], 2),
    ("dlx", "count", ["q6.dlx", "--limit", "2"], 2),
    ("dlx", "random", ["q6.dlx", "--limit", "3", "--seed", "4"], 3),
    ("dlx", "best", ["t6.dlx", "--limit", "3"], 3),
    ("tromino", "solve", ["6", "--limit", "3"], 3),
    ("tromino", "count", ["6", "--limit", "100"], 100),
    ("tromino", "random", ["6", "--limit", "3", "--seed", "5"], 3),
    ("polyomino", "count", ["--board", "6x10", "--limit", "7"], 7),
    ("queens", "solve", ["8", "--limit", "5"], 5),
    ("queens", "count", ["8", "--limit", "5"], 5),
    # (A batch's count is its solutions, over its puzzles: 1 + 5, 1 + 3, 1 + 2.)
    ("sudoku", "count", ["s.txt", "--limit", "5"], 6),
    ("sudoku", "solve", ["s.txt", "--limit", "3"], 4),
    ("akari", "count", ["a.txt", "--limit", "2"], 3),
]


@pytest.mark.parametrize(("puzzle", "verb", "args", "count"), LIMITED)
def test_a_run_cut_by_limit_is_complete(files: Path, puzzle: str, verb: str, args: list[str], count: int) -> None:
    r = covering(puzzle, verb, *args, "--json", cwd=files)
    assert r.returncode == 0, r.stderr
    last = summary_of(r, f"{puzzle} {verb}")
    assert (last["count"], last["stopped"], last["complete"]) == (count, "limit", True)


@pytest.mark.parametrize("verb", ["solve", "count", "unique"])
def test_the_summary_keys_mean_the_same_on_every_puzzle(files: Path, verb: str) -> None:
    # "count" is solutions everywhere (a batch's, over its puzzles, with
    # "puzzles" the puzzles answered); "stopped" is the same after the same
    # verb ("limit" after solve, which stops at the first solution; null
    # after count and unique run to their end); "complete" false when a
    # puzzle of a batch was not answered.
    stops = {"solve": "limit", "count": None, "unique": None}[verb]
    for puzzle in VERBS:
        if (puzzle, verb) not in SMALL:
            continue
        r = covering(puzzle, verb, *SMALL[puzzle, verb], "--json", cwd=files)
        assert r.returncode == 0, (puzzle, r.stderr)
        lines = [json.loads(x) for x in r.stdout.splitlines()]
        last = summary_of(r, f"{puzzle} {verb}")
        assert last["stopped"] == stops and last["complete"] is True, (puzzle, last)
        if puzzle in ("sudoku", "akari"):
            puzzles = lines[:-1]
            assert last["puzzles"] == len(puzzles) == 2
            assert last["count"] == sum(x["count"] for x in puzzles)
            if verb != "solve":  # (the second puzzle has several)
                assert int(str(last["count"])) > len(puzzles)
        else:
            assert "puzzles" not in last
    # A bad puzzle in a batch: the others answered, the run not complete.
    (files / "half.txt").write_text("1" * 16 + "\n" + sudoku.generate(4, seed=1).puzzle.line() + "\n")
    (files / "half_akari.txt").write_text("..\n.x\n\n" + akari.SEED_7X7)
    for puzzle, path in (("sudoku", "half.txt"), ("akari", "half_akari.txt")):
        r = covering(puzzle, verb, path, "--json", cwd=files)
        last = summary_of(r, f"{puzzle} {verb}")
        assert r.returncode == 2 and last["complete"] is False and last["puzzles"] == 1, (puzzle, last)
        assert last["count"] == 1


def test_limit_seed_and_unique_mean_the_same_everywhere(files: Path) -> None:
    # unique's three words, on every puzzle
    words = {
        "dlx": covering("dlx", "unique", "q6.dlx", cwd=files), "tromino": covering("tromino", "unique", "5",
                                                                                     "--hole", "0"),
        "queens": covering("queens", "unique", "3"), "sudoku": covering("sudoku", "unique", "s.txt", cwd=files),
        "akari": covering("akari", "unique", "a.txt", cwd=files),
        "polyomino": covering("polyomino", "unique", "--board", "2x3", "--pieces", "trominoes", "--uses", "any"),
    }
    assert words["dlx"].stdout.splitlines()[-1] == "multiple"
    assert words["tromino"].stdout.splitlines()[-1] == "multiple"
    assert words["queens"].stdout.splitlines() == ["none"]
    assert [x for x in words["sudoku"].stdout.splitlines() if x.isalpha()] == ["unique", "multiple"]
    assert [x for x in words["akari"].stdout.splitlines() if x.isalpha()] == ["unique", "multiple"]
    assert words["polyomino"].stdout.splitlines()[-1] == "multiple"
    # --seed: the same seed, the same answer; the seed not given is said
    for args in (["dlx", "random", "q6.dlx"], ["tromino", "random", "9"], ["queens", "random", "8"],
                 ["sudoku", "generate", "--size", "4"], ["akari", "generate", "--rows", "5", "--cols", "5"]):
        first = covering(*args, cwd=files)
        seed = first.stderr.split("covering: seed ")[1].split()[0]
        again = covering(*args, "--seed", seed, cwd=files)
        assert first.returncode == again.returncode == 0 and first.stdout == again.stdout, args


def test_svg_is_a_picture_on_stdout_or_the_first_into_a_file(files: Path) -> None:
    for args in (["tromino", "solve", "6"], ["queens", "solve", "6"], ["sudoku", "solve", "s.txt"],
                 ["akari", "solve", "a.txt"], ["polyomino", "solve", "--board", "3x4", "--pieces", "trominoes",
                                               "--uses", "any"]):
        r = covering(*args, "--svg", cwd=files)
        assert r.returncode == 0 and r.stdout.lstrip().startswith("<svg"), (args, r.stderr)
        picture = files / "first.svg"
        picture.unlink(missing_ok=True)
        r = covering(*args, "--svg", str(picture), cwd=files)
        assert r.returncode == 0 and "<svg" not in r.stdout and picture.read_text().startswith("<svg"), args
        r = covering(*args, "--svg", "--json", cwd=files)
        assert r.returncode == 2 and "--json and --svg" in r.stderr


#: Older spellings and the verb forms they stand for: the same stdout.
ALIASES = [
    (["dlx", "q6.dlx", "--count"], ["dlx", "count", "q6.dlx"]),
    (["dlx", "q6.dlx"], ["dlx", "solve", "q6.dlx", "--all"]),
    (["dlx", "q6.dlx", "--first"], ["dlx", "solve", "q6.dlx"]),
    (["dlx", "q6.dlx", "--unique"], ["dlx", "unique", "q6.dlx"]),
    (["dlx", "t6.dlx", "--min-cost", "--best", "3"], ["dlx", "best", "t6.dlx", "--limit", "3"]),
    (["dlx", "q6.dlx", "--random", "3"], ["dlx", "random", "q6.dlx", "--seed", "3", "--all"]),
    (["tromino", "9", "--count"], ["tromino", "count", "9"]),
    (["tromino", "7", "export", "--hole", "3"], ["tromino", "export", "7", "--hole", "3"]),
    (["tromino", "5", "--hole", "0", "--unique"], ["tromino", "unique", "5", "--hole", "0"]),
    (["polyomino", "--board", "3x6", "--pieces", "trominoes", "--uses", "any", "--cost", "L=5", "--min-cost",
      "--limit", "2"], ["polyomino", "best", "--board", "3x6", "--pieces", "trominoes", "--uses", "any", "--cost",
                        "L=5", "--limit", "2"]),
    (["polyomino", "--board", "6x10", "--count", "--symmetry"], ["polyomino", "count", "--board", "6x10",
                                                                 "--symmetry"]),
    (["sudoku", "count", "s.txt", "--cap", "5"], ["sudoku", "count", "s.txt", "--limit", "5"]),
    (["sudoku", "solve", "--unique", "s.txt"], ["sudoku", "unique", "s.txt"]),
    (["sudoku", "generate", "--count", "2", "--seed", "1", "--size", "4"],
     ["sudoku", "generate", "--limit", "2", "--seed", "1", "--size", "4"]),
    (["akari", "count", "a.txt", "--cap", "3"], ["akari", "count", "a.txt", "--limit", "3"]),
    (["akari", "solve", "--unique", "a.txt"], ["akari", "unique", "a.txt"]),
    (["akari", "generate", "--rows", "5", "--cols", "6", "--count", "2", "--seed", "1", "--symmetry", "rotate"],
     ["akari", "generate", "--rows", "5", "--cols", "6", "--limit", "2", "--seed", "1", "--layout", "rotate"]),
    (["queens", "solve", "6", "--board"], ["queens", "solve", "6", "--draw"]),
]


def _example(form: str) -> list[str]:
    """A row of the table with values for its names (FILE, N, S, K)."""
    words = {"FILE": "p.dlx", "FILE.png": "q.png", "FILE.svg": "q.svg", "N": "9", "S": "5", "K": "2"}
    return [words.get(w, w) for w in form.split()[1:]]


@pytest.mark.parametrize("alias", grammar.ALIASES, ids=lambda a: a.old)
def test_each_row_of_the_alias_table_rewrites_as_it_says(alias: grammar.Alias) -> None:
    from covering.cli import _takes_value, build_parser

    assert grammar.rewrite(_example(alias.old), _takes_value(build_parser())) == _example(alias.new)


def test_the_docs_list_the_alias_table_as_it_is() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "command-line.md").read_text(encoding="utf-8")
    assert grammar.alias_table() in docs


@pytest.mark.parametrize(("old", "new"), ALIASES)
def test_older_spellings_give_the_same_answers(files: Path, old: list[str], new: list[str]) -> None:
    a, b = covering(*old, cwd=files), covering(*new, cwd=files)
    assert a.returncode == b.returncode == 0, (a.stderr, b.stderr)
    assert a.stdout == b.stdout and a.stdout


def test_older_spellings_that_contradict_each_other_are_one_line() -> None:
    for args in (["dlx", "--min-cost", "--count"], ["dlx", "--min-cost", "--unique"], ["dlx", "--best", "3"],
                 ["dlx", "--min-cost", "--engine", "sat"], ["dlx", "--min-cost", "--best", "0"],
                 ["dlx", "--first", "--limit", "2"], ["polyomino", "--board", "5x6", "--min-cost", "--count"],
                 ["tromino", "6", "export", "--count"], ["tromino", "6", "--unique", "--count"],
                 ["dlx", "--unique", "--count"], ["dlx", "--first", "--limit", "3"]):
        r = covering(*args, stdin="A\nA |1\n")
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, (args, r.stderr)


def test_errors_name_the_place_one_way(files: Path) -> None:
    (files / "typo.dlx").write_text("A B\nA B\nA C\n")
    (files / "bad.txt").write_text("1" * 16 + "\n")
    (files / "bad_akari.txt").write_text("..\n.x\n")
    for args, where in ((["dlx", "count", "typo.dlx"], "typo.dlx:3: "), (["sudoku", "solve", "bad.txt"], "bad.txt:1: "),
                        (["akari", "solve", "bad_akari.txt"], "bad_akari.txt:2:2: ")):
        r = covering(*args, cwd=files)
        assert r.returncode == 2 and r.stderr.startswith(f"covering: error: {where}"), r.stderr
    r = covering("sudoku", "solve", "-", "--json", stdin="1" * 16 + "\n" + sudoku.generate(4, seed=1).puzzle.line())
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 2 and lines[0]["error"].startswith("<stdin>:1: ") and lines[1]["solution"]
    assert lines[-1]["count"] == 1


#: Long runs of each kind, cut by SIGINT or by --seconds.
LONG = [
    ["dlx", "count", "big.dlx", "--method", "search"],
    ["dlx", "solve", "big.dlx", "--all"],
    ["dlx", "random", "big.dlx", "--all", "--seed", "1"],
    ["tromino", "count", "30", "--method", "memo", "--branching", "mrv"],
    ["tromino", "solve", "11", "--hole", "0", "--all"],
    ["polyomino", "count", "--pieces", "hexominoes", "--board", "10x21", "--uses", "any", "--method", "search"],
    ["queens", "count", "20"],
    ["queens", "list", "14"],
    ["sudoku", "count", "empty.txt"],
    ["akari", "count", "white.txt"],
]


@pytest.fixture(scope="module")
def long_files(files: Path) -> Path:
    (files / "big.dlx").write_text(l_tromino(10, 0).to_dlx())
    (files / "empty.txt").write_text("." * 81 + "\n")
    (files / "white.txt").write_text(("." * 12 + "\n") * 12)
    return files


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
@pytest.mark.parametrize("args", LONG, ids=[" ".join(a[:2]) for a in LONG])
def test_ctrl_c_and_a_budget_end_on_the_summary(long_files: Path, args: list[str]) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "covering", *args, "--json", "--no-progress"], cwd=long_files,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, 1.0)
    assert proc.returncode == 130, err
    r = subprocess.CompletedProcess(args, 130, out, err)
    last = summary_of(r, " ".join(args[:2]))
    assert last["stopped"] == "interrupt" and last["complete"] is False and "Traceback" not in err
    r = covering(*args, "--json", "--seconds", "1", cwd=long_files)
    assert r.returncode == 3, r.stderr
    last = summary_of(r, " ".join(args[:2]))
    assert last["stopped"] == "budget" and r.stderr.count("covering: budget:") == 1
