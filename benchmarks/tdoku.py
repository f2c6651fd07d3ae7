"""Sudoku against tdoku, the fastest public solver: puzzles per second, whole process.

    python benchmarks/tdoku.py --tdoku DIR [--data DIR] [--runs 3]

DIR holds ``tdoku_driver``, built by ../shared/tools/build-tdoku.sh from
t-dillon/tdoku (a yardstick, never a dependency). Both solve and prove unique
(tdoku with limit 2), one thread, on the same files: the 17-clue set repeated 5
times (so that start-up is small beside the solving) and the forum-hardest 1905
(11+) set. Each figure is the CPU (user + system) of the whole process, from
its own rusage: start-up, reading and writing included. covering runs
``covering sudoku unique --threads 1 FILE``; the two alternate, and the
best of ``--runs`` is kept for each. Beside it, the batch alone: the CPU of
``sudoku.solve_text`` in a process that has read the file (the solver and
the binding, no start-up, no output), so that what each puzzle costs around
the solving shows on its own, with the start-up (the same command on one
puzzle) apart. Every answer is compared with tdoku's
(``tdoku_driver -s``: its count of solutions up to 2 and the first).
Writes benchmarks/RESULTS.md (between the ``tdoku`` markers).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from big import child_cpu
from engine import RESULTS, replace_section

HERE = Path(__file__).resolve().parent
SETS = {
    "17-clue, 5 times": ("puzzles2_17_clue.txt", 5),
    "forum-hardest 1905 (11+)": ("puzzles5_forum_hardest_1905_11plus.txt", 1),
}


def tdoku_answers(driver: Path, puzzles: Path) -> list[str]:
    """tdoku's answer per puzzle, written as covering writes them."""
    with open(puzzles, "rb") as f:
        done, _, _, _ = child_cpu([str(driver), "-s"], stdin=f)
    answers = []
    for line in done.stdout.decode().splitlines():
        if line.startswith("puzzles "):
            continue
        count, solution = line.split()
        answers.append({"0": "no solution", "1": solution}.get(count, "multiple"))
    return answers


def covering_answers(out: str) -> list[str]:
    """covering's answer per puzzle (``unique`` prints the solution, or
    ``no solution``, then the word on a line of its own), as tdoku's are read."""
    lines = out.splitlines()
    return [{"unique": solution, "none": "no solution"}.get(word, "multiple")
            for solution, word in zip(lines[::2], lines[1::2])]


BATCH = """
import sys, time
from covering.puzzles import sudoku
text = open(sys.argv[1]).read()
t = time.process_time()
sudoku.solve_text(text, mode="unique", threads=1)
print(time.process_time() - t)
"""


def band_build() -> str:
    """Which build of the band solver this machine runs: the one for
    x86-64-v4 (its rules in 512-bit registers) or x86-64-v3 (in 256-bit
    ones) where the CPU has the features (the solver chooses at run time,
    by the same lists), else the baseline one."""
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split("flags", 1)[1].split("\n", 1)[0].split())
    except (OSError, IndexError):
        return "its build for the machine, chosen at run time"
    v3 = {"avx", "avx2", "bmi1", "bmi2", "fma", "abm", "popcnt", "movbe"}
    v4 = v3 | {"avx512f", "avx512vl", "avx512bw", "avx512dq", "avx512cd"}
    if v4 <= flags:
        return "its x86-64-v4 build (the rules in 512-bit registers, AVX-512), chosen at run time"
    if v3 <= flags:
        return "its x86-64-v3 build (the rules in 256-bit registers, AVX2), chosen at run time"
    return "its baseline x86-64 build (this CPU lacks " + ", ".join(sorted(v3 - flags)) + ")"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tdoku", type=Path, required=True, help="the folder of tdoku_driver")
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data" / "sudoku")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    driver = args.tdoku / "tdoku_driver"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (file, times) in SETS.items():
            text = (args.data / file).read_text()
            path = Path(tmp) / file
            path.write_text(text * times)
            n = len(text.splitlines()) * times
            # Start-up apart: the same command on the set's first puzzle alone.
            one = Path(tmp) / ("one-" + file)
            one.write_text(text.splitlines(keepends=True)[0])
            ours, theirs, batch, start = float("inf"), float("inf"), float("inf"), float("inf")
            for _ in range(args.runs):
                _, cpu, _, _ = child_cpu([sys.executable, "-m", "covering", "sudoku", "unique",
                                          "--threads", "1", str(one)])
                start = min(start, cpu)
                done, cpu, _, _ = child_cpu([sys.executable, "-m", "covering", "sudoku", "unique",
                                             "--threads", "1", str(path)])
                assert done.returncode == 0, done.stderr
                ours = min(ours, cpu)
                with open(path, "rb") as f:
                    _, cpu, _, _ = child_cpu([str(driver)], stdin=f)
                theirs = min(theirs, cpu)
                alone, _, _, _ = child_cpu([sys.executable, "-c", BATCH, str(path)])
                batch = min(batch, float(alone.stdout))
            answers = covering_answers(done.stdout.decode())
            assert answers == tdoku_answers(driver, path), f"{name}: an answer differs from tdoku's"
            rows.append((name, n, ours, theirs, batch, start))
            print(f"{name}: {n} puzzles, covering {ours:.2f} s ({n / ours:,.0f}/s; the batch alone {batch:.2f} s), "
                  f"tdoku {theirs:.2f} s ({n / theirs:,.0f}/s), ratio {theirs / ours:.2f}", flush=True)
    body = [
        "<!-- tdoku:begin -->",
        "## Sudoku against tdoku",
        "",
        f"`python benchmarks/tdoku.py --tdoku DIR --runs {args.runs}` (tdoku's driver built by",
        "../shared/tools/build-tdoku.sh, limit 2): solve and prove unique, one thread, CPU (user + system) of",
        "the whole process, start-up, reading and writing included, the best of the runs, the two alternating.",
        "covering: `covering sudoku unique --threads 1 FILE` (9 x 9 goes to the band solver,",
        f"crates/puzzles/src/bands/, here {band_build()}); \"batch alone\": `sudoku.solve_text` timed inside a process that has read",
        "the file, so the rest of covering's figure is start-up, reading and writing; \"start-up\": the same",
        "command on the set's first puzzle alone; \"per puzzle around it\": what is left of the whole once the",
        "batch alone and the start-up are taken off, a puzzle. Every answer is the same",
        "as tdoku's (checked by the script).",
        "",
        "| set | puzzles | covering CPU s | batch alone | start-up | per puzzle around it | covering puzzles/s "
        "| tdoku CPU s | tdoku puzzles/s | covering / tdoku (throughput) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, n, ours, theirs, batch, start in rows:
        around = max(ours - batch - start, 0.0) / n * 1e6
        body.append(f"| {name} | {n:,} | {ours:.2f} | {batch:.2f} | {start:.3f} | {around:.2f} µs | "
                    f"{n / ours:,.0f} | {theirs:.2f} | {n / theirs:,.0f} | {theirs / ours:.2f} |")
    body.append("<!-- tdoku:end -->")
    replace_section(RESULTS, "tdoku", "\n".join(body))


if __name__ == "__main__":
    main()
