"""Ctrl-C on a million options: how long a count takes to answer SIGINT, at
every stage (reading, laying out, cutting into pieces, the threads' search).

    python benchmarks/sigint_big.py [--options N] [--delays 2,4,...]

Writes a seeded file of N options (``bigfile.py``), then for each delay starts
``covering dlx --count --engine cells FILE`` as a user would (a fresh process,
SIGINT at its default), sends SIGINT after that many seconds and times the
exit (wall seconds: the process's teardown included). Writes the table to
benchmarks/RESULTS.md (between the ``sigint-big`` markers).
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


def answer(path: Path, delay: float) -> tuple[int, float, str]:
    """(exit status, seconds from SIGINT to exit, last stderr line)."""
    proc = subprocess.Popen(COVERING + ["dlx", "--count", "--engine", "cells", "--no-progress", str(path)],
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
    args = ap.parse_args()
    delays = [float(d) for d in args.delays.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.dlx"
        path.write_text("\n".join(lines(args.options, 1)) + "\n")
        for delay in delays:
            code, seconds, err = answer(path, delay)
            rows.append(f"| {delay:g} s | {code} | {seconds:.2f} s | `{err}` |")
            print(rows[-1], flush=True)
    table = "\n".join([
        "<!-- sigint-big:begin -->",
        "## Ctrl-C on a million options",
        "",
        f"`python benchmarks/sigint_big.py --options {args.options} --delays {args.delays}`: "
        "`covering dlx --count --engine cells` on the seeded file of `bigfile.py`, SIGINT after the delay;",
        "wall seconds from SIGINT to the exit, the teardown of about 1.5 GB included.",
        "",
        "| SIGINT after | exit | answered in | last stderr line |",
        "|---|---|---|---|",
        *rows,
        "<!-- sigint-big:end -->",
    ])
    replace_section(RESULTS, "sigint-big", table)


if __name__ == "__main__":
    main()
