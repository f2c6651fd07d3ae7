"""Big problems: reading, building and first solutions at a million options.

    python benchmarks/big.py [--knuth DIR]

Reading: seeded random .dlx files of 10^4, 10^5 and 10^6 options
(`bigfile.py`), each read in a fresh process by ``Problem.from_dlx(bytes)``
then ``compile()``, against a bare Python ``line.split()`` over the same
bytes in the same process (the issue's yardstick: at most 1.5x its CPU), and
the peak memory over the interpreter with covering imported (at most 300 MB at
10^6). With ``--knuth DIR`` (Knuth's programs, ../shared/tools/build-knuth.sh),
SSXCC's reading of the same file (``ssxcc T0``: read, then stop before the
first node), CPU and peak memory of its whole process.

Then whole commands, CPU (user + system) and peak memory of the process:
``covering tromino 300 export``, ``covering dlx --first --json`` on that
export, ``covering polyomino --board 60x60 --pieces pentominoes --uses any
--limit 1 --json``, and ``covering dlx --first --seconds 10`` on the 10^6
file (its wall time too: the budget must end it within 15 s). Every tiling
printed is checked. Writes benchmarks/RESULTS.md (``big`` markers).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bigfile
from engine import RESULTS, replace_section

READ = """
import sys, time
from covering import Problem
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) * 1024
data = open(sys.argv[1], "rb").read()
base = peak()
t = time.process_time()
words = sum(len(line.split()) for line in data.splitlines())
split = time.process_time() - t
t = time.process_time()
p = Problem.from_dlx(data)
c = p.compile()
read = time.process_time() - t
print(split, read, peak() - base, c.n_options, c.n_entries, words)
"""


def child(cmd: list[str], timeout: float, stdin: object = None, stdout: object = None
          ) -> tuple[tuple[int, str, str] | None, float, float, int]:
    """Runs `cmd`: ((exit status, stdout, stderr) or None past `timeout`, CPU
    seconds, wall seconds, peak memory in bytes) of that process alone (its
    own rusage, from wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=stdout or out, stderr=err)  # type: ignore[arg-type]
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                proc.kill()
                os.wait4(proc.pid, 0)
                return None, timeout, timeout, 0
            time.sleep(0.01)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        result = (proc.returncode, out.read().decode(), err.read().decode())
        return result, usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss * 1024


def child_cpu(cmd: list[str], **kwargs: object) -> tuple[subprocess.CompletedProcess[bytes], float, float, int]:
    """`child` as a CompletedProcess, without a time limit."""
    r, cpu, wall, peak = child(cmd, 10**6, kwargs.get("stdin"), kwargs.get("stdout"))
    assert r is not None
    done = subprocess.CompletedProcess(cmd, r[0], r[1].encode(), r[2].encode())
    return done, cpu, wall, peak


def covering(*args: str, **kwargs: object) -> tuple[subprocess.CompletedProcess[bytes], float, float, int]:
    return child_cpu([sys.executable, "-m", "covering", *args], **kwargs)


def check_tiling(out: bytes, what: str, source: Path | None) -> None:
    """No item covered twice by the options printed (JSON lines; option ids
    are looked up in the `source` file)."""
    lines = [json.loads(x) for x in out.splitlines() if x.strip()]
    tiling = next((x["tiling"] for x in lines if "tiling" in x), None)
    if tiling is not None:  # a polyomino tiling: every cell of the board once
        cells = [tuple(c) for piece in tiling for c in piece["cells"]]
        assert len(cells) == len(set(cells)) == 60 * 60, what
        return
    solution = next(x["solution"] for x in lines if "solution" in x)
    if source is not None and solution and isinstance(solution[0], int):
        options = [line.strip() for line in source.read_text().splitlines()[1:]
                   if line.strip() and not line.lstrip().startswith("|")]
        solution = [options[o] for o in solution]
    cells = [w for option in solution for w in option.split() if ":" not in w]
    assert len(cells) == len(set(cells)), what
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--knuth", type=Path, help="folder of Knuth's programs (ssxcc)")
    args = parser.parse_args()
    rows = ["| options | file | entries | `line.split()` CPU | `from_dlx` + `compile` CPU | ratio | peak over "
            "the interpreter | SSXCC read CPU | SSXCC peak |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for n in (10_000, 100_000, 1_000_000):
            f = Path(tmp) / f"r{n}.dlx"
            f.write_text("\n".join(bigfile.lines(n, 1)) + "\n")
            files[n] = f
            r, _, _, _ = child_cpu([sys.executable, "-c", READ, str(f)])
            assert r.returncode == 0, r.stderr.decode()
            split, read, peak, options, entries, _ = r.stdout.split()
            knuth = ["", ""]
            if args.knuth:
                with open(f, "rb") as stdin:
                    k, cpu, _, kpeak = child_cpu([str(args.knuth / "ssxcc"), "T0"], stdin=stdin)
                knuth = [f"{cpu:.2f} s", f"{kpeak / 1e6:.0f} MB"]
            rows.append(f"| {int(options):,} | {f.stat().st_size / 1e6:.1f} MB | {int(entries):,} | "
                        f"{float(split):.3f} s | {float(read):.3f} s | {float(read) / float(split):.2f}x | "
                        f"{int(peak) / 1e6:.0f} MB | " + " | ".join(knuth) + " |")
            print(rows[-1], flush=True)

        commands = ["| command | CPU | wall | peak memory | exit |", "|---|---:|---:|---:|---:|"]
        export = Path(tmp) / "tromino300.dlx"
        runs = [
            ("covering tromino 300 export", ["tromino", "300", "export"]),
            ("covering dlx --first --json (the export)", ["dlx", "--first", "--json", str(export)]),
            ("covering polyomino --board 60x60 --pieces pentominoes --uses any --limit 1 --json",
             ["polyomino", "--board", "60x60", "--pieces", "pentominoes", "--uses", "any", "--limit", "1", "--json"]),
            ("covering dlx --first --seconds 10 (10^6 options)",
             ["dlx", "--first", "--seconds", "10", "--json", str(files[1_000_000])]),
        ]
        for name, argv in runs:
            if "export" in argv:
                with open(export, "wb") as out:
                    r, cpu, wall, peak = covering(*argv, stdout=out)
                text = export.read_text()
                # Every placement once: 4 of each 2 x 2 square of the board.
                assert len(text.splitlines()) - 1 == 4 * 299 * 299 == len(set(text.splitlines()[1:])), name
            else:
                r, cpu, wall, peak = covering(*argv, "--no-progress")
            if "--first" in argv or "--limit" in argv:
                if r.returncode == 0:
                    check_tiling(r.stdout, name, Path(argv[-1]) if argv[0] == "dlx" else None)
            else:
                assert r.returncode == 0, r.stderr.decode()
            commands.append(f"| `{name}` | {cpu:.2f} s | {wall:.2f} s | {peak / 1e6:.0f} MB | {r.returncode} |")
            print(commands[-1], flush=True)
    lines = [
        "<!-- big:begin -->",
        "## Big problems: reading, building, first solutions",
        "",
        f"`python benchmarks/big.py{' --knuth DIR' if args.knuth else ''}` ({time.strftime('%Y-%m-%d')}, "
        f"{os.cpu_count()} cores). Random files from `benchmarks/bigfile.py N 1` (N/500 primary items, a tenth as "
        "many colored secondary ones, 3-5 primary and one secondary item per option, one planted solution). "
        "CPU seconds; the reading figures are from one fresh process per file, the split and the read on the "
        "same bytes in that process; SSXCC's are its whole process with `T0` (read, then stop).",
        "",
        *rows,
        "",
        "Whole commands (one process each: CPU is user + system, peak is its maximum resident memory):",
        "",
        *commands,
        "<!-- big:end -->",
    ]
    replace_section(RESULTS, "big", "\n".join(lines))


if __name__ == "__main__":
    main()
