"""Queens: the exact cover lists, the bitboard counter, the infinite sequence."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from array import array

import pytest

from covering import _core
from covering.cli import main
from covering.puzzles import queens

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
A065188 = [1, 3, 5, 2, 4, 9, 11, 13, 15, 6, 8, 19, 7, 22, 10, 25, 27, 29, 31, 12, 14, 35, 37, 39, 41, 16, 18, 45]


def test_eight_queens_in_the_order_of_seed_003() -> None:
    sols = queens.solutions(8)
    assert len(sols) == 92 == len(set(sols))
    assert sols == sorted(sols)
    assert sols[0] == (0, 4, 7, 5, 2, 6, 1, 3) and sols[1] == (0, 5, 7, 2, 6, 3, 1, 4)
    assert sols[-1] == (7, 3, 0, 2, 5, 1, 6, 4)
    for rows in sols:  # one queen per row and column, none sharing a diagonal
        assert sorted(rows) == list(range(8))
        assert len({c + r for c, r in enumerate(rows)}) == len({c - r for c, r in enumerate(rows)}) == 8


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_counter_matches_a000170(threads: int) -> None:
    assert [queens.count(n, threads=threads) for n in range(1, 15)] == A000170


def test_counter_matches_exact_cover() -> None:
    for n in range(1, 10):
        assert queens.count(n) == queens.queens_problem(n).count() == len(queens.solutions(n))


def test_counter_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError):
        _core.count_queens(0)
    with pytest.raises(ValueError):
        _core.count_queens(33)


def test_infinite_queens_known_terms() -> None:
    assert list(queens.infinite(len(A065188))) == A065188
    assert list(queens.infinite(len(A065188), zero_based=True)) == [q - 1 for q in A065188]
    # a(10^7) = 16180340 (DESIGN.md), read from the engine without a Python int per term.
    terms = array("Q")
    terms.frombytes(_core.InfiniteQueens().take_bytes(10**7))
    assert terms[-1] == 16180340


def test_infinite_queens_are_the_least_free_rows() -> None:
    """Each of the first 10,000 terms is the least row (from 1) that no earlier
    queen attacks: checked for each column with a boolean array of the rows."""
    np = pytest.importorskip("numpy")
    terms = list(queens.infinite(10_000))
    top = 2 * 10_000 + 10
    rows = np.zeros(top, dtype=bool)
    sums = np.zeros(3 * top, dtype=bool)  # k + n
    diffs = np.zeros(3 * top, dtype=bool)  # k - n + top
    k = np.arange(top)
    for n, q in enumerate(terms, 1):
        attacked = rows | sums[k + n] | diffs[k - n + top]
        attacked[0] = True  # rows start at 1
        assert int(np.argmin(attacked)) == q, n
        rows[q] = sums[q + n] = diffs[q - n + top] = True


def test_infinite_queens_generator_is_lazy_and_batched() -> None:
    stream = queens.infinite(batch=5)
    assert [next(stream) for _ in range(7)] == A065188[:7]


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queens", "count", "8"]) == 0
    assert capsys.readouterr().out == "92\n"
    assert main(["queens", "count", "10", "--json", "--threads", "2"]) == 0
    assert '"count": 724' in capsys.readouterr().out
    assert main(["queens", "list", "6"]) == 0
    assert capsys.readouterr().out.splitlines() == ["1 3 5 0 2 4", "2 5 1 4 0 3", "3 0 4 1 5 2", "4 2 0 5 3 1"]
    assert main(["queens", "infinite", "10"]) == 0
    assert capsys.readouterr().out == "1 3 5 2 4 9 11 13 15 6\n"
    assert main(["queens", "infinite", "5", "--zero-based"]) == 0
    assert capsys.readouterr().out == "0 2 4 1 3\n"
    assert main(["queens", "count", "40"]) == 2
    assert "between 1 and 32" in capsys.readouterr().err


def test_plot_files(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path))
    assert main(["queens", "plot", "200", "--svg", str(out / "q.svg")]) == 0
    assert main(["queens", "plot", "200", "--png", str(out / "q.png")]) == 0
    svg = (out / "q.svg").read_text()
    # 200 points and the legend's marker; title, axes, both slopes labelled.
    assert svg.count("<circle") == 201 and "slope phi = 1.618" in svg and "slope 1/phi = 0.618" in svg
    assert "Infinite queens" in svg and ">q_n<" in svg and ">n<" in svg
    png = (out / "q.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    raw = zlib.decompress(png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8])
    rows = [raw[y * (3 * width + 1) + 1 : (y + 1) * (3 * width + 1)] for y in range(height)]

    def inked(y0: int, y1: int, x0: int, x1: int, rgb: bytes | None = None) -> int:
        return sum(1 for y in range(y0, y1) for x in range(x0, x1)
                   if rows[y][3 * x : 3 * x + 3] != b"\xff\xff\xff" and rgb in (None, rows[y][3 * x : 3 * x + 3]))

    assert inked(10, 32, 0, width) > 200  # the title, in the band above the axes
    assert inked(height - 20, height, 0, width) > 10  # the label of the x axis
    # The legend, top left inside the axes, in the colours of the two lines.
    assert inked(55, 100, 60, 250, bytes.fromhex("d62728")) > 50
    assert inked(55, 100, 60, 250, bytes.fromhex("1f77b4")) > 50
    assert main(["queens", "plot", "10", "--svg", str(out / "q.txt")]) == 2


def test_threads_from_the_environment() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "covering", "queens", "count", "9"],
        env={"COVERING_THREADS": "0", "PATH": ""},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "COVERING_THREADS" in run.stderr
