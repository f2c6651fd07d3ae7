"""The long run of the fuzz targets (the tests run a short one).

    python benchmarks/fuzz.py [--examples N] [--iterations N]

Runs the property tests over every text reader (tests/test_fuzz_readers.py)
with N hypothesis examples each, and the engine's fuzz target over the
compile step (crates/xc/tests/fuzz_compile.rs) and Akari's encoder (crates/puzzles/tests/fuzz_akari.rs) with N random arrays, in
release mode; writes what ran and how long it took to benchmarks/RESULTS.md
(between the ``fuzz`` markers). Either failing fails the script.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from engine import replace_section

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"


def run(cmd: list[str], env: dict[str, str]) -> float:
    start = time.monotonic()
    subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, **env), check=True)
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=20_000, help="hypothesis examples per property")
    parser.add_argument("--iterations", type=int, default=2_000_000, help="random arrays for the engine")
    args = parser.parse_args()
    py = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_fuzz_readers.py"],
             {"COVERING_FUZZ_EXAMPLES": str(args.examples)})
    rs = run(["cargo", "test", "--release", "-q", "-p", "covering-xc", "--test", "fuzz_compile"],
             {"COVERING_FUZZ_ITERATIONS": str(args.iterations)})
    rs += run(["cargo", "test", "--release", "-q", "-p", "covering-puzzles", "--test", "fuzz_akari"],
              {"COVERING_FUZZ_ITERATIONS": str(args.iterations)})
    lines = [
        "<!-- fuzz:begin -->",
        "## Fuzzing",
        "",
        f"`python benchmarks/fuzz.py --examples {args.examples} --iterations {args.iterations}` "
        f"({date.today().isoformat()}): no failure.",
        "",
        "| target | cases | seconds |",
        "|---|---|---|",
        f"| text readers (.dlx, Sudoku, Akari, pictures; random bytes and near-format text) | "
        f"{args.examples:,} per property | {py:.0f} |",
        f"| engine compile step and search against brute force; Akari encoder | {args.iterations:,} | {rs:.0f} |",
        "<!-- fuzz:end -->",
    ]
    replace_section(RESULTS, "fuzz", "\n".join(lines))


if __name__ == "__main__":
    main()
