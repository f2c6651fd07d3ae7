"""Hostile input at every entry point: the right answer or a clear error.

Control characters and bytes that are not UTF-8, numbers past 2**32 and
2**64, NaN and infinite budgets, sizes no machine holds, duplicate names,
Ctrl-C in long loops, parallel streams dropped early, pickling.
"""

from __future__ import annotations

import itertools
import math
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from running import interrupt

from covering import (
    Cancelled,
    InputError,
    Interrupted,
    LimitReached,
    OptionIdError,
    Problem,
    ProblemError,
    Uniqueness,
)
from covering.limits import BudgetError
from covering.puzzles import queens
from covering.puzzles.akari import SEED_7X7, Akari, AkariWarning
from covering.puzzles.polyomino import DOMINOES, PENTOMINOES, Board, area_mismatch, count_tilings, l_tromino
from covering.puzzles.sudoku import Sudoku, SudokuError, solve_text
from covering.reference.algorithm_x import solutions as reference_solutions
from covering.sizes import SizeError


def cli(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "covering", *args], input=stdin, capture_output=True, timeout=120,
        env=None if env is None else dict(os.environ, **env),
    )


def one_error_line(r: subprocess.CompletedProcess[bytes]) -> str:
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert err.startswith("covering: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


# ------------------------------------------------------------ the text reader


@pytest.mark.parametrize("blank", ["\t", "\x0b", "\x0c", "\r"])
def test_blanks_inside_a_line_are_knuths(blank: str) -> None:
    # Knuth's programs read \t \v \f \r inside a line as spaces: 2 solutions.
    assert Problem.from_dlx(f"A B\nA{blank}B\nA\nB\n").count() == 2
    r = cli("dlx", "count", stdin=f"A B\nA{blank}B\nA\nB\n".encode())
    assert (r.returncode, r.stdout) == (0, b"2\n")


def test_crlf_lines() -> None:
    assert Problem.from_dlx("A B\r\nA B\r\nA\r\nB\r\n").count() == 2


@pytest.mark.parametrize("bad", ["\x00", "\x1c", "\x1e", "\x7f", "\x85", "\u2028", "\u2029"])
def test_other_control_characters_are_errors_naming_the_line(bad: str) -> None:
    with pytest.raises(InputError, match="line 3: column 2: control character"):
        Problem.from_dlx(f"A B\nA B\nA{bad}B\n")
    err = one_error_line(cli("dlx", "count", stdin=f"A B\nA B\nA{bad}B\n".encode()))
    assert "<stdin>:3:2: control character" in err


def test_bytes_that_are_not_utf8() -> None:
    with pytest.raises(InputError, match="line 2: byte 3: not UTF-8"):
        Problem.from_dlx(b"A B\nA \xff\n")
    for args in (["dlx", "solve", "--all"], ["sudoku", "solve"], ["akari", "solve"]):
        err = one_error_line(cli(*args, stdin=b"..\n\xc3(\n"))
        assert "<stdin>:2:1: not UTF-8" in err, args


def test_names_go_out_as_utf8_whatever_the_locale() -> None:
    r = cli("dlx", "solve", "--all", stdin="漢 字\n漢 字\n".encode(), env={"LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    assert (r.returncode, r.stdout.decode("utf-8"), r.stderr) == (0, "漢 字\n", b"")
    err = one_error_line(cli("dlx", "solve", "\udcff.dlx", "--all"))
    assert "No such file" in err


def test_a_byte_order_mark_is_skipped() -> None:
    assert Problem.from_dlx(b"\xef\xbb\xbfA B\nA B\n").primary == ["A", "B"]


def test_knuths_bound_forms() -> None:
    # DLX3 reads an empty number as 0: `:2|A` is `0:2|A`.
    assert Problem.from_dlx(":2|A B\nA\nB\n").bounds("A") == (0, 2)
    assert Problem.from_dlx(":2|A B\nA\nB\n").count() == 2
    with pytest.raises(ProblemError, match="upper bound is zero"):
        Problem.from_dlx("2:|A\nA\n")


def test_bounds_past_the_engine_are_exact() -> None:
    p = Problem.from_dlx(f"{2**70}|A B\nA B\nA\n")  # never met: 0
    assert p.count() == 0
    p = Problem.from_dlx(f"0:{2**70}|A B\nA B\nA\nA\n")  # A any number of times
    assert p.count() == 4
    assert p.count() == len(list(p.solutions()))


def test_sudoku_lines_and_symbols() -> None:
    grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    out, errors = solve_text(f"\x0c{grid}\r\n{grid[:5]}\x1c{grid[6:]}\n", mode="unique")
    assert out[0].startswith("417369825") and out[1] == "error"
    assert errors[0][0] == 2 and "r1c6" in errors[0][1]
    with pytest.raises(SudokuError, match="'1' is there twice"):
        Sudoku.parse("." * 16, symbols="1231")
    err = one_error_line(cli("sudoku", "solve", "--symbols", "123456788", stdin=grid.encode()))
    assert "there twice" in err


def test_akari_reads_through_the_one_reader() -> None:
    assert Akari.parse(".1\r\n..\r\n").rows == (".1", "..")
    with pytest.raises(InputError, match="line 2"):
        Akari.parse(".1\n.\x1b\n")


def test_truncated_urls_warn() -> None:
    with pytest.warns(AkariWarning, match="ends at cell 2 of 5"):
        assert Akari.parse("https://puzz.link/p?lightup/5/1/h").rows == (".....",)
    r = cli("akari", "solve", "https://puzz.link/p?lightup/5/1/h")
    assert r.returncode == 0 and b"covering: warning:" in r.stderr and r.stdout


def test_duplicate_piece_names_name_both_lines(tmp_path: Path) -> None:
    f = tmp_path / "pieces.txt"
    f.write_text("A\n#\n\nB\n##\n\nA\n###\n")
    err = one_error_line(cli("polyomino", "solve", "--pieces", str(f), "--board", "1x3", "--uses", "any"))
    assert "pieces.txt:7: piece 'A' is already named on line 1" in err


# ------------------------------------------------------------- the numbers


def small() -> Problem:
    return Problem.from_dlx("A B\nA\nB\nA B\n")


@pytest.mark.parametrize("seconds", [math.inf, 1e20, 1e300, 10**30])
def test_huge_time_budgets_are_no_limit(seconds: float) -> None:
    p = small()
    assert p.count(seconds=seconds) == 2
    assert len(list(p.solutions(seconds=seconds))) == 2
    assert p.uniqueness(seconds=seconds) is Uniqueness.MULTIPLE
    assert p.count(memo=True, seconds=seconds) == 2
    assert p.to_zdd(seconds=seconds).count() == 2
    assert Akari.parse("..").count(seconds=seconds) == 2


@pytest.mark.parametrize("value", [2**64, 2**64 - 1, 2**200])
def test_limits_past_64_bits_never_stop(value: int) -> None:
    p = small()
    assert p.count(limit=value) == 2
    assert p.count(nodes=value) == 2
    assert len(list(p.solutions(limit=value))) == 2
    assert p.solver().count(limit=value) == 2
    assert Sudoku.parse("." * 16).count(value) == 288
    assert solve_text("." * 16, n=4, mode="count", cap=value)[0] == ["288"]
    assert Akari.parse("..").count(value) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seconds": math.nan}, "seconds: must be a non-negative"),
        ({"seconds": -1}, "seconds: must be a non-negative"),
        ({"seconds": "1"}, "seconds: must be a number"),
        ({"nodes": -1}, "nodes: must be at least 0"),
        ({"limit": -1}, "limit: must be at least 0"),
        ({"limit": 1.5}, "limit: must be an integer"),
        ({"threads": 0}, "threads: must be from 1"),
        ({"threads": 10**9}, "threads: must be from 1"),
    ],
)
def test_bad_numbers_are_the_same_error_everywhere(kwargs: dict[str, object], message: str) -> None:
    p = small()
    k: Any = kwargs
    calls: list[Callable[[], object]] = [lambda: p.count(**k)]
    if "threads" not in kwargs:
        calls += [lambda: list(p.solutions(**k)), lambda: p.solver().count(**k)]
    if "limit" not in kwargs and "threads" not in kwargs:
        calls += [lambda: p.uniqueness(**k), lambda: p.count(memo=True, **k), lambda: p.to_zdd(**k)]
    for call in calls:
        with pytest.raises(BudgetError, match=message):
            call()


def test_seeds() -> None:
    p = small()
    assert len(list(p.solutions(order="random", seed=2**64 - 1))) == 2
    for bad in (-1, 2**64):
        with pytest.raises(BudgetError, match="seed"):
            p.solver(order="random", seed=bad)
    r = cli("dlx", "random", "--seed", str(2**64), stdin=b"A\nA\n")
    assert "seed" in one_error_line(r)


def test_option_ids_out_of_range() -> None:
    p = small()
    z = p.to_zdd()
    for bad in ({"include": [99]}, {"exclude": [-1]}, {"include": [3]}):
        with pytest.raises(IndexError, match="the ids are 0 to 2"):
            z.count(**bad)
    with pytest.raises(OptionIdError, match="option 7"):
        p.solver().force(7)
    with pytest.raises(ValueError):
        p.solver().force(2**70)


def test_cancel_says_so() -> None:
    p = l_tromino(10, 0)  # hours of work
    s = p.solver()
    stream = s.solutions()
    next(stream)
    s.cancel()
    with pytest.raises(Cancelled, match="cancelled after 1 solutions") as e:
        list(stream)
    assert isinstance(e.value, LimitReached)


# --------------------------------------------------------------- the sizes


def test_areas_are_answered_before_building() -> None:
    assert area_mismatch(PENTOMINOES, Board.rectangle(8, 8)) == "the pieces cover 60 cells, the board has 64"
    assert area_mismatch(PENTOMINOES, 99999 * 99999) is not None
    assert area_mismatch(DOMINOES, 9, uses="any") == "every piece has a multiple of 2 cells, the board has 9"
    assert area_mismatch(DOMINOES, 10, uses="any") is None
    assert count_tilings(PENTOMINOES, Board.rectangle(8, 8)) == 0
    for args in (["tromino", "count", "100000"], ["polyomino", "count", "--board", "99999x99999"],
                 ["polyomino", "count", "--pieces", "pentominoes", "--board", "8x8"]):
        r = cli(*args)
        assert r.returncode == 0 and r.stdout.decode().splitlines()[-1] == "0", args
        assert b"no tiling:" in r.stderr


def test_sizes_no_machine_holds_are_refused() -> None:
    for args in (["polyomino", "count", "--board", "100000x100000", "--pieces", "dominoes", "--uses", "any"],
                 ["queens", "infinite", str(10**12)],
                 ["tromino", "count", "99999"]):
        err = one_error_line(cli(*args))
        assert "needs about" in err and "COVERING_MAX_MEMORY" in err, args
    with pytest.raises(SizeError):
        Board.rectangle(10**6, 10**6)
    with pytest.raises(SizeError):
        list(queens.infinite(10**13))
    with pytest.raises(SizeError):
        Akari.parse(f"https://puzz.link/p?lightup/{10**6}/{10**6}/")
    # The limit can be raised or lowered.
    r = cli("--max-memory", "1M", "polyomino", "count", "--board", "100x100", "--pieces", "dominoes", "--uses", "any")
    assert "past the limit of 1.0 MiB" in one_error_line(r)


def test_a_diagram_stops_at_the_memory_limit() -> None:
    # The diagram of the 30 x 30 tromino board outgrows 20 MiB: a clean
    # refusal, not an abort of the process by the allocator.
    err = one_error_line(cli("tromino", "random", "30", "--seed", "1", env={"COVERING_MAX_MEMORY": "20M"}))
    assert "the diagram of all the solutions grew past the limit of 20.0 MiB" in err


def test_a_long_white_run_costs_its_length() -> None:
    # One row of 100,000 white cells: the engine's linear encoding.
    a = Akari.parse("https://puzz.link/p?lightup/100000/1/" + "z" * 5000)
    lights = a.solve()
    assert lights is not None and len(lights) == 1
    assert a.count(3) == 3 and a.uniqueness() is Uniqueness.MULTIPLE
    two = Akari.parse("https://puzz.link/p?lightup/50000/2/" + "z" * 5000)
    assert two.count(2) == 2


def test_long_segments_keep_the_rules() -> None:
    # Boards with segments past 64 cells go through the linear encoding;
    # the solutions are checked by the rules, and counted against the
    # plain problem built by names.
    from covering.puzzles.akari import check

    rows = ["." * 70, "." * 30 + "1" + "." * 39, "#" * 70]
    a = Akari.parse("\n".join(rows))
    found = list(a.solutions(5))
    assert len(found) == 5
    for lights in found:
        assert check(a, lights) == []
    named = a.problem()
    assert any(label == ("lit", "h0c0") for label in named.labels)
    assert named.count(limit=5) == 5


# ----------------------------------------------------------------- Ctrl-C


def interrupted(args: list[str], cpu: float) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen([sys.executable, "-m", "covering", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    out, err = interrupt(proc, cpu)
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
@pytest.mark.parametrize(
    "args",
    [["queens", "count", "22"], ["sudoku", "count", "--limit", "100000000", "-"], ["tromino", "count", "30"],
     ["tromino", "count", "12", "--symmetry"]],
)
def test_ctrl_c_stops_long_counts_with_a_partial_count(args: list[str], tmp_path: Path) -> None:
    if args[-1] == "-":
        f = tmp_path / "empty.txt"
        f.write_text("." * 81 + "\n")
        args = args[:-1] + [str(f)]
    r = interrupted(args, 1.0)
    assert r.returncode == 130, r.stderr
    assert int(r.stdout.splitlines()[-1]) >= 0
    assert "(a partial count)" in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1


def test_interrupted_carries_the_count() -> None:
    import _thread

    threading.Timer(0.3, _thread.interrupt_main).start()
    with pytest.raises(Interrupted) as e:
        queens.count(24, threads=1)
    assert e.value.count is not None and e.value.count >= 0 and isinstance(e.value, KeyboardInterrupt)


# ------------------------------------------------------ threads that stop


def test_parallel_streams_stopped_early_stop_cleanly() -> None:
    code = """
import itertools
from covering.puzzles.polyomino import l_tromino
p = l_tromino(9)
for k in range(30):
    got = list(itertools.islice(p.solutions(threads=2, ids=True), k % 4))
    assert len(got) == k % 4
    got = list(p.solutions(limit=3, threads=2))
    assert len(got) == 3
    stream = p.solutions(threads=2)
    next(stream)
    stream.close()
print(p.count(threads=2))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stdout, r.stderr) == (0, "1193600\n", "")


# ---------------------------------------------------------------- pickling


def test_pickling() -> None:
    p = l_tromino(6)
    p.count()  # has run a search
    z = p.to_zdd()
    for obj in (p, z, p.stats, Uniqueness.UNIQUE, Akari.parse(SEED_7X7), Sudoku.parse("." * 16)):
        assert pickle.loads(pickle.dumps(obj)) == obj
    assert pickle.loads(pickle.dumps(z)).count() == 162
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(p.solver())
    try:
        p.count(nodes=3)
    except LimitReached as e:
        back = pickle.loads(pickle.dumps(e))
        assert (back.count, back.stats, str(back)) == (e.count, e.stats, str(e))
    e2 = pickle.loads(pickle.dumps(Interrupted(5)))
    assert e2.count == 5


def test_reference_agrees_on_a_read_problem() -> None:
    # The reader's output, solved by the engine and by the textbook reference.
    p = Problem.from_dlx("A B C\x0c|\tx\nA B\nC x:1\nA\nB C\nB x:1\n")
    engine = sorted(tuple(sorted(s)) for s in p.solutions(ids=True))
    ref = sorted(tuple(sorted(s)) for s in reference_solutions(p))
    assert engine == ref and len(engine) == p.count()
    assert list(itertools.islice(p.solutions(), 1))
