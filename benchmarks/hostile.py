"""Hostile inputs: how long the answer or the refusal takes, and Ctrl-C.

    python benchmarks/hostile.py

Each command runs as a user would run it (a fresh process); the Ctrl-C rows
send SIGINT after two seconds and time the exit. Writes the figures to
benchmarks/RESULTS.md (between the ``hostile`` markers).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from engine import replace_section

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
COVERING = [sys.executable, "-m", "covering"]

CASES = [
    ("Akari URL, one row of 100,000 white cells, solve --unique",
     ["akari", "solve", "--unique", "https://puzz.link/p?lightup/100000/1/" + "z" * 5000]),
    ("Akari, 2 x 50,000 white cells, solve --unique",
     ["akari", "solve", "--unique", "https://puzz.link/p?lightup/50000/2/" + "z" * 5000]),
    ("Akari, 1000 x 1000 white cells, solve --unique",
     ["akari", "solve", "--unique", "https://puzz.link/p?lightup/1000/1000/" + "z" * 50000]),
    ("tromino 100000 (10^10 cells, not a multiple of 3)", ["tromino", "100000"]),
    ("tromino 99999 --count (refused: 20 TiB)", ["tromino", "99999", "--count"]),
    ("polyomino --board 99999x99999 (pentominoes: areas differ)", ["polyomino", "--board", "99999x99999"]),
    ("queens infinite 10^12 (refused: 1.8 TiB)", ["queens", "infinite", str(10**12)]),
]

INTERRUPTED = [
    ("queens count 22", ["queens", "count", "22"]),
    ("sudoku count --cap 100000000 (empty grid)", ["sudoku", "count", "--cap", "100000000"]),
    ("tromino 12 --count", ["tromino", "12", "--count"]),
    ("dlx --count on the 10 x 10 tromino board (threads)", ["dlx", "--count", "--no-progress"]),
]


def main() -> None:
    rows = []
    for name, args in CASES:
        start = time.monotonic()
        r = subprocess.run(COVERING + args, capture_output=True, text=True)
        seconds = time.monotonic() - start
        what = "refused (exit 2)" if r.returncode == 2 else f"exit {r.returncode}"
        rows.append(f"| {name} | {what} | {seconds:.2f} s |")
    with tempfile.TemporaryDirectory() as d:
        empty = Path(d) / "empty.txt"
        empty.write_text("." * 81 + "\n")
        big = Path(d) / "big.dlx"
        subprocess.run(COVERING[:1] + ["-c", "from covering.puzzles.polyomino import l_tromino;"
                                       f"open({str(big)!r}, 'w').write(l_tromino(10, 0).to_dlx())"], check=True)
        stops = []
        for name, args in INTERRUPTED:
            extra = [str(empty)] if args[0] == "sudoku" else [str(big)] if args[0] == "dlx" else []
            proc = subprocess.Popen(COVERING + args + extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(2)
            start = time.monotonic()
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate()
            seconds = time.monotonic() - start
            stops.append(f"| {name} | {proc.returncode} | {seconds:.3f} s | `{err.strip()}` |")
    lines = [
        "<!-- hostile:begin -->",
        "## Hostile input",
        "",
        f"`python benchmarks/hostile.py` ({date.today().isoformat()}): wall seconds of the whole command.",
        "",
        "| input | answer | seconds |",
        "|---|---|---|",
        *rows,
        "",
        "Ctrl-C two seconds into a long count: the exit status, the time from SIGINT to exit, and stderr.",
        "",
        "| command | exit | after SIGINT | stderr |",
        "|---|---|---|---|",
        *stops,
        "<!-- hostile:end -->",
    ]
    replace_section(RESULTS, "hostile", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
