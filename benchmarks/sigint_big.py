"""Ctrl-C on a million options: how long a count takes to answer SIGINT, at
every stage (reading, laying out, cutting into pieces, the threads' search);
with ``--solve``, a first solution's (the portfolio: dancing links, the CDCL
encoding, its search).

    python benchmarks/sigint_big.py [--options N] [--delays 2,4,...] [--solve]

Writes a seeded file of N options (``bigfile.py``), then for each delay starts
``covering dlx --count --engine cells FILE`` (or ``covering dlx solve FILE``)
as a user would (a fresh process, SIGINT at its default), sends SIGINT after
that many seconds and times the exit (wall seconds: the process's teardown
included). Writes the table to benchmarks/RESULTS.md (between the
``sigint-big`` markers, or ``sigint-big-solve``).
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bigfile import lines
from engine import RESULTS, replace_section

COVERING = [sys.executable, "-m", "covering"]


def default_sigint() -> None:
    # A shell without job control starts background children with SIGINT
    # ignored, and Python then installs no handler: measured so, Ctrl-C
    # would seem never answered.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


COUNT = ["dlx", "--count", "--engine", "cells", "--no-progress"]
SOLVE = ["dlx", "solve", "--no-progress"]


def answer(words: list[str], path: Path, delay: float) -> tuple[int, float, str]:
    """(exit status, seconds from SIGINT to exit, last stderr line) of
    ``covering WORDS PATH``."""
    proc = subprocess.Popen(COVERING + words + [str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    time.sleep(delay)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate()
    return proc.returncode, time.monotonic() - start, (err.strip().splitlines() or [""])[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--options", type=int, default=1_000_000)
    ap.add_argument("--delays", default="1.5,3,5,8,10,14,20")
    ap.add_argument("--solve", action="store_true", help="time `dlx solve` rather than the count")
    args = ap.parse_args()
    words, marker = (SOLVE, "sigint-big-solve") if args.solve else (COUNT, "sigint-big")
    delays = [float(d) for d in args.delays.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.dlx"
        path.write_text("\n".join(lines(args.options, 1)) + "\n")
        for delay in delays:
            code, seconds, err = answer(words, path, delay)
            rows.append(f"| {delay:g} s | {code} | {seconds:.2f} s | `{err}` |")
            print(rows[-1], flush=True)
    flag = " --solve" if args.solve else ""
    table = "\n".join([
        f"<!-- {marker}:begin -->",
        "## Ctrl-C on a million options" + (", a first solution" if args.solve else ""),
        "",
        f"`python benchmarks/sigint_big.py --options {args.options} --delays {args.delays}{flag}`: "
        f"`covering {' '.join(words[:-1])}` on the seeded file of `bigfile.py`, SIGINT after the delay;",
        "wall seconds from SIGINT to the exit, the process's teardown included"
        + (" (past some 3 s, the CDCL encoding's 3 GB)." if args.solve else " (about 1.5 GB)."),
        "",
        "| SIGINT after | exit | answered in | last stderr line |",
        "|---|---|---|---|",
        *rows,
        f"<!-- {marker}:end -->",
    ])
    replace_section(RESULTS, marker, table)


if __name__ == "__main__":
    main()
