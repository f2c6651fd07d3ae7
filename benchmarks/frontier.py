"""Counts past the seeds' table: the frontier count against the memo path it replaces.

    python benchmarks/frontier.py

L-tromino tilings of n x n boards (less cell 0 where 3 does not divide
n^2), n = 6 to 20, and domino tilings of n x n boards, n = 14 to 20: each
by the default command (`covering tromino N [--hole 0] --count --json`, and
`covering polyomino --pieces dominoes --board NxN --uses any --count
--json`), whose method is now the frontier count, and by the memo path it
replaced (`--method memo --branching first`, its best forced rule), up to
where that path stays within 120 s. CPU (user + system) and peak memory of
each whole process; the counts must agree. Writes benchmarks/RESULTS.md
(``frontier`` markers). The tests check these counts against counters
written independently (tests/test_frontier.py).
"""

from __future__ import annotations

import json
import sys
import time

from big import child
from engine import RESULTS, replace_section

MEMO_LIMIT = 60.0


def run(args: list[str]) -> tuple[int | None, str, float, int]:
    """(count, method, CPU seconds, peak bytes) of one `covering` process; count None after the time limit."""
    r, cpu, _, peak = child(
        [sys.executable, "-m", "covering", *args, "--count", "--json", "--no-progress"], MEMO_LIMIT)
    if r is None:
        return None, "", MEMO_LIMIT, 0
    returncode, out, err = r
    assert returncode == 0, err
    summary = json.loads(out.splitlines()[-1])
    return int(summary["count"]), summary.get("method", ""), cpu, peak


def main() -> None:
    rows = ["| board | count | default: method | CPU | peak | memo (first) CPU | memo peak |",
            "|---|---:|---|---:|---:|---:|---:|"]
    memo_gave_up = {"tromino": False, "dominoes": False}
    boards = [("tromino", n) for n in range(6, 21)] + [("dominoes", n) for n in range(14, 21)]
    for kind, n in boards:
        if kind == "tromino":
            hole = ["--hole", "0"] if n * n % 3 else []
            args = ["tromino", str(n), *hole]
            name = f"L-trominoes {n}x{n}" + (" less a cell" if hole else "")
        else:
            args = ["polyomino", "--pieces", "dominoes", "--board", f"{n}x{n}", "--uses", "any"]
            name = f"dominoes {n}x{n}"
        count, method, cpu, peak = run(args)
        memo = ["-", "-"]
        if not memo_gave_up[kind]:
            m_count, _, m_cpu, m_peak = run([*args, "--method", "memo", "--branching", "first"])
            if m_count is None:
                memo_gave_up[kind] = True
                memo = [f"> {MEMO_LIMIT:.0f} s", "-"]
            else:
                assert m_count == count, (name, m_count, count)
                memo = [f"{m_cpu:.2f} s", f"{m_peak / 1e6:.0f} MB"]
        rows.append(f"| {name} | {count:,} | {method} | {cpu:.2f} s | {peak / 1e6:.0f} MB | " + " | ".join(memo) + " |")
        print(rows[-1], flush=True)
    lines = [
        "<!-- frontier:begin -->",
        "## Counts past the seeds' table: the frontier count",
        "",
        f"`python benchmarks/frontier.py` ({time.strftime('%Y-%m-%d')}): whole processes, CPU = user + system, "
        "peak = maximum resident memory; the default command against the memo path it replaced (forced with "
        f"`--method memo --branching first`, given up past {MEMO_LIMIT:.0f} s). The counts agree with each other "
        "and, in the tests, with a broken-profile counter and Kasteleyn's formula.",
        "",
        *rows,
        "<!-- frontier:end -->",
    ]
    replace_section(RESULTS, "frontier", "\n".join(lines))


if __name__ == "__main__":
    main()
