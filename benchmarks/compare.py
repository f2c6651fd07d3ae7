"""Before and after: this work tree against an older commit, on a fixed quick set, in one run.

    python benchmarks/compare.py --base REV [--runs 3] [--only NAME ...] [--akari FILE] [--write]
    make bench-compare BASE=REV

The old build is REV built into an environment of its own, cached by
commit (`basebuild.py`); the new one is the python this runs on (the work
tree's ``.venv``, as ``make`` builds it). Every row is a whole process,
``python -m covering ...`` or ``python -c ...``, timed by its own rusage
(CPU, user + system), the old and the new build alternating, the best of
``--runs`` kept for each. Each row's answers (its stdout, less what may
differ from run to run, such as times) must be the same for both builds;
a row whose answers differ is marked ``DIFFERS`` and the script exits 1.
A row whose new/old is over 1.10 is marked ``SLOWER``: mend it, or keep it
with its figure and the reason it is worth it in the closing note.

The commands use the older spellings of the command line (``covering
tromino 12 --count``), which every build since the one grammar still reads,
so that a base from before it can be measured too.

The set (about 4 minutes on 2 cores with ``--runs 3``, not counting the
build of REV): the Sudoku batch (17-clue, three times; the forum-hardest
1905), the Akari batch (generated boards and random sparse ones, and
``--akari FILE`` if given: grids separated by blank lines), tromino and
pentomino counts by each method (tromino 12 and 18 by the front door, 9 and
pentominoes 4 x 15 by each), Knuth's six problems of
``benchmarks/knuth.py`` counted by the front door, the 10 cheapest tilings of
6 x 10, the cheapest cover of a crew-like set partition (200 rows), a first
tiling of 60 x 60 with any number of pentominoes, the
front door's count of three boards whose items and options are shuffled
and of the graph covers of ../shared/data/counting, the samurai of examples/, the pentominoes up to symmetry,
queens in a random order, a million-option read, the CDCL encoding of 200,000 options, and the command
line's start. The inputs are written once into a temporary folder by the new build.

With ``--write``, the table goes to benchmarks/RESULTS.md (``compare``
markers), with the command, both commits, the machine and the date.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from basebuild import build, resolve
from big import child
from results import RESULTS, commit, replace_section

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"
SLOWER = 1.10
#: CPU seconds a build may take on one row; past it the row is "over" for
#: that build (run once: a base from before a method was made fast).
TIMEOUT = 30.0


@dataclass
class Row:
    """One line of the set: `args` after the python (``{dir}`` stands for
    the inputs' folder), and how its answers are read from stdout."""

    name: str
    args: list[str]
    digest: Callable[[str], object] = field(default=lambda out: out)
    stdin: str | None = None


def last_line(out: str) -> object:
    """A count: the last line of stdout."""
    lines = [x for x in out.splitlines() if x.strip()]
    return lines[-1] if lines else ""


def grids(out: str) -> object:
    """A Sudoku batch's solutions (81 symbols a line), whatever else a line holds."""
    return [x for x in out.splitlines() if len(x) == 81]


def lights(out: str) -> object:
    """An Akari batch's answers: each puzzle's grid with its lights, and its
    word. Builds before the one grammar wrote a unique puzzle's grid alone,
    so ``unique`` is left out; of a puzzle with several solutions only the
    word is kept (which solution is shown first depends on the search)."""
    answers = []
    for block in out.split("\n\n"):
        lines = [x for x in block.splitlines() if x and x != "unique"]
        answers.append(["multiple"] if lines and lines[-1] == "multiple" else lines)
    return answers


def json_answers(out: str) -> object:
    """JSON lines: the answers, and of the summary (the last line, whose
    keys have grown over time) its count and whether it is optimal."""
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    if not records:
        return []
    *answers, summary = records
    return answers, summary.get("count"), summary.get("optimal")


def cost_proven(out: str) -> object:
    """JSON lines of `dlx best`: the cheapest cost and whether it is proven
    (builds may find another cover of the same cost)."""
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    costs = [r["cost"] for r in records if "cost" in r]
    return (min(costs) if costs else None), bool(records and records[-1].get("optimal"))


def tiling_checked(out: str) -> object:
    """A first tiling of 60 x 60: the tiling may differ from build to build;
    what must hold is that it covers every cell once."""
    for line in out.splitlines():
        record = json.loads(line)
        if "tiling" in record:
            cells = [tuple(c) for piece in record["tiling"] for c in piece["cells"]]
            return len(cells) == len(set(cells)) == 60 * 60
    return False


def cli(*words: str) -> list[str]:
    return ["-m", "covering", *words]


READ = ("import sys; from covering import Problem; data = open(sys.argv[1], 'rb').read(); "
        "c = Problem.from_dlx(data).compile(); print(c.n_options, c.n_entries)")

ENCODE = ("import sys; from covering import Problem; from covering.sat import SatSolver; "
          "s = SatSolver(Problem.from_dlx(open(sys.argv[1], 'rb').read())); print(s.stats.variables, s.stats.clauses)")


def rows(akari_file: Path | None) -> list[Row]:
    sudoku = DATA / "sudoku"
    out = [
        Row("sudoku 17-clue x3 (147,474), solve --unique", cli("sudoku", "solve", "--unique", "--threads", "1",
                                                             "{dir}/s17x3.txt"), grids),
        Row("sudoku forum-hardest 1905 (48,766), solve --unique",
            cli("sudoku", "solve", "--unique", "--threads", "1", str(sudoku / "puzzles5_forum_hardest_1905_11plus.txt")),
            grids),
        Row("akari generated and random boards, solve --unique", cli("akari", "solve", "--unique", "{dir}/akari.txt"),
            lights),
    ]
    if akari_file is not None:
        out.append(Row(f"akari {akari_file.name}, solve --unique", cli("akari", "solve", "--unique", str(akari_file)),
                       lights))
    out.append(Row("tromino 12 count (2,033,502,499,954), the front door",
                   cli("tromino", "12", "--count"), last_line))  # (0fa138b searched on one thread)
    # Issue 85: the frontier's binary step as fast as at 0fa138b (its tables turned, table::Dense).
    out.append(Row("tromino 18 count (15,105,645,789,047,859,299,613,180,380,516), the front door",
                   cli("tromino", "18", "--count"), last_line))
    for method in ("search", "memo", "frontier"):
        out.append(Row(f"tromino 9 count, {method}", cli("tromino", "9", "--count", "--method", method,
                                                         "--threads", "1"), last_line))
    for method in ("search", "memo", "frontier"):
        out.append(Row(f"pentominoes 4x15 count, {method}",
                       cli("polyomino", "--pieces", "pentominoes", "--board", "4x15", "--count", "--method",
                           method, "--threads", "1"), last_line))
    for name in KNUTH:
        out.append(Row(f"Knuth's {name}, count", cli("dlx", "{dir}/" + _file(name), "--count", "--threads", "1"),
                       last_line))
    # A Sudoku's exact cover matrix, shuffled: the band solver behind the count's front door.
    out.append(Row("sudoku, the first 15 givens of a 17-clue puzzle, as a matrix (3,828,403): count",
                   cli("dlx", "{dir}/sudoku15.dlx", "--count", "--threads", "1"), last_line))
    out += [
        Row("pentominoes 6x10, the 10 cheapest (costs)",
            cli("polyomino", "--pieces", "pentominoes", "--board", "6x10", "--cost", "X=5", "--cost", "I=3",
                "--min-cost", "--limit", "10", "--json"), json_answers),
        Row("crew-like set partition 200 x 3,000 (setpartition.py, seed 1): the cheapest, proven",
            cli("dlx", "best", "{dir}/crew200.txt", "--format", "orlib", "--json", "--no-progress"), cost_proven),
        Row("pentominoes 60x60, any number of each: a first tiling",
            cli("polyomino", "--pieces", "pentominoes", "--board", "60x60", "--uses", "any", "--limit", "1", "--json"),
            tiling_checked),
    ]
    for name in SHUFFLED:
        out.append(Row(f"{name}, shuffled: count (front door)", cli("dlx", "{dir}/" + _file(name + " shuffled"),
                                                                   "--count", "--threads", "1"), last_line))
    # Boards of pieces taken a number of times, where the frontier and the
    # search race (the frontier wins the first, the search the second).
    for name in RACED:
        out.append(Row(f"{name}: count (front door)", cli("dlx", "{dir}/" + _file(name), "--count", "--threads",
                                                           "1"), last_line))
    for graph in sorted((DATA / "counting").glob("*.dlx")):
        # The Rome graph covers of the DXD artifact, as given (issue 82).
        out.append(Row(f"graph cover {graph.stem}: count (front door)",
                       cli("dlx", str(graph), "--count", "--threads", "1"), last_line))
    examples = HERE.parent / "examples"
    out += [
        # Sudoku on regions (issue 84; the samurai read and solved by both builds since dd90b4e).
        Row("samurai: unique", cli("sudoku", "unique", "--layout", "samurai", str(examples / "samurai.txt")),
            last_line),
        Row("pentominoes 6x10 count up to symmetry (2,339)",
            cli("polyomino", "count", "--board", "6x10", "--symmetry"), last_line),
        Row("queens 12, 5 in a random order", cli("queens", "random", "12", "--seed", "3", "--limit", "5")),
    ]
    out += [
        Row("a million options: read and compile", ["-c", READ, "{dir}/million.dlx"]),
        Row("200,000 options: the CDCL encoding", ["-c", ENCODE, "{dir}/options200k.dlx"]),
        Row("start-up: a count of a 3-option file", cli("dlx", "{dir}/tiny.dlx", "--count"), last_line),
    ]
    return out


# Knuth's six problems (benchmarks/knuth.py), and boards to shuffle.
KNUTH = ("tromino 9x9", "pentominoes 6x10", "pentominoes 8x8 minus centre", "queens 14",
         "dominoes 7x8, every cell twice", "pentominoes 0-2 times each, 5x8")
SHUFFLED = ("dominoes 6x8", "pentominoes 5x12", "tetrominoes 8x8")
RACED = ("tetrominoes 0-3 times each, 5x8", "pentominoes 0-1 and tetrominoes 0-2 times each, 5x6")


def _file(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name) + ".dlx"


def shuffle_dlx(text: str, seed: int) -> str:
    """The same problem with its items and options in another order, and
    the items of each option too (Knuth's format: the item line, primary
    items before ``|``, secondary after; then an option a line)."""
    rng = random.Random(seed)
    lines = [x for x in text.splitlines() if x.strip() and not x.lstrip().startswith("|")]
    head, options = lines[0], lines[1:]
    # (A multiplicity "2:3|A" is written before the name: only a "|" that
    # stands alone parts the two kinds.)
    words = head.split()
    k = words.index("|") if "|" in words else len(words)
    primary, secondary = words[:k], words[k + 1:]
    rng.shuffle(primary)
    rng.shuffle(secondary)
    head = " ".join(primary) + (" | " + " ".join(secondary) if secondary else "")
    shuffled = []
    for option in options:
        items = option.split()
        rng.shuffle(items)
        shuffled.append(" ".join(items))
    rng.shuffle(shuffled)
    return "\n".join([head, *shuffled]) + "\n"


def akari_boards() -> str:
    """The Akari row's puzzles, as covering reads them: generated boards
    (one solution each) of 10, 20 and 40 cells a side, and random sparse
    40 x 40 ones (several solutions)."""
    from covering.puzzles import akari

    boards = [akari.generate(size, size, seed=seed, difficulty=difficulty).puzzle
              for size, difficulty, seeds in ((10, "easy", 20), (20, "medium", 10), (40, "hard", 3))
              for seed in range(seeds)]
    boards += [akari.random_puzzle(40, 40, seed=seed) for seed in range(6)]
    return "\n\n".join("\n".join(b.rows) for b in boards) + "\n"


def sudoku_15(text: str) -> str:
    """The first 17-clue puzzle of `text` with its first 15 givens alone
    (Knuth's workloads count the same)."""
    cells = list(text.split()[0])
    for k in [k for k, ch in enumerate(cells) if ch not in ".0"][15:]:
        cells[k] = "."
    return "".join(cells)


def write_inputs(folder: Path) -> None:
    """The inputs of the set, made by the new build."""
    sys.path.insert(0, str(HERE))
    from knuth import build as knuth_problem

    from covering.puzzles.polyomino import Board, tiling
    from covering.puzzles.shapes import DOMINOES, PENTOMINOES, TETROMINOES

    text = (DATA / "sudoku" / "puzzles2_17_clue.txt").read_text()
    (folder / "s17x3.txt").write_text(text * 3)
    from covering.puzzles.sudoku import Sudoku

    (folder / "sudoku15.dlx").write_text(shuffle_dlx(Sudoku.parse(sudoku_15(text)).problem().to_dlx(), seed=9))
    (folder / "akari.txt").write_text(akari_boards())
    for name in KNUTH:
        (folder / _file(name)).write_text(knuth_problem(name))
    plain = {
        "dominoes 6x8": tiling(DOMINOES, Board.rectangle(6, 8), uses="any"),
        "pentominoes 5x12": tiling(PENTOMINOES, Board.rectangle(5, 12)),
        "tetrominoes 8x8": tiling(TETROMINOES, Board.rectangle(8, 8), uses="any"),
    }
    for k, (name, problem) in enumerate(plain.items()):
        (folder / _file(name + " shuffled")).write_text(shuffle_dlx(problem.to_dlx(), seed=k))
    mixed = {**PENTOMINOES, **{"t" + k: v for k, v in TETROMINOES.items()}}
    mixed_uses = {k: (0, 1) if k in PENTOMINOES else (0, 2) for k in mixed}
    raced = (tiling(TETROMINOES, Board.rectangle(5, 8), uses=(0, 3)), tiling(mixed, Board.rectangle(5, 6),
                                                                            uses=mixed_uses))
    for name, problem in zip(RACED, raced):
        (folder / _file(name)).write_text(problem.to_dlx())
    import bigfile

    (folder / "million.dlx").write_text("\n".join(bigfile.lines(10**6, 1)) + "\n")
    (folder / "options200k.dlx").write_text("\n".join(bigfile.lines(2 * 10**5, 2)) + "\n")
    (folder / "tiny.dlx").write_text("A B C\nA B\nC\nA\n")
    import random

    from setpartition import crew, files

    orlib, _ = files(200, crew(200, 3000, random.Random(1)), folder, "crew200")
    assert orlib == folder / "crew200.txt"


def run(python: str, row: Row, folder: Path) -> tuple[float, object, str]:
    """(CPU seconds, the answers, stderr's end) of one run of `row`; the
    CPU is infinite past `TIMEOUT`."""
    args = [a.replace("{dir}", str(folder)) for a in row.args]
    done, cpu, _, _ = child([python, *args], TIMEOUT)
    if done is None:
        return float("inf"), "over", ""
    status, out, err = done
    if status not in (0, 2):
        return cpu, f"exit {status}", err.strip()[-300:]
    return cpu, row.digest(out), ""


def seconds(cpu: float) -> str:
    return f"over {TIMEOUT:.0f} s" if cpu == float("inf") else f"{cpu:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True, help="the commit to compare with (a sha, a branch, HEAD~3, ...)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", nargs="*", help="rows whose name contains one of these words")
    ap.add_argument("--akari", type=Path, help="a file of Akari puzzles to add as a row of its own")
    ap.add_argument("--write", action="store_true", help="write the table to benchmarks/RESULTS.md")
    args = ap.parse_args()
    old = str(build(args.base))
    new = sys.executable
    base = resolve(args.base)
    head = commit()
    todo = [r for r in rows(args.akari) if not args.only or any(w in r.name for w in args.only)]
    table = []
    failed = False
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_inputs(folder)
        print(f"inputs written in {time.monotonic() - started:.0f} s; old {base[:12]}, new {head}", flush=True)
        for row in todo:
            best = {"old": float("inf"), "new": float("inf")}
            answers: dict[str, object] = {}
            note = ""
            for _ in range(args.runs):
                for which, python in (("old", old), ("new", new)):
                    if answers.get(which) == "over":
                        continue  # once past the time limit is enough
                    cpu, answer, err = run(python, row, folder)
                    best[which] = min(best[which], cpu)
                    answers.setdefault(which, answer)
                    if err:
                        note = f"{which}: {err}"
            ratio = best["new"] / best["old"] if best["old"] > 0 else float("nan")
            over = "over" in (answers["old"], answers["new"])
            same = (answers["old"] == answers["new"] or answers["old"] == "over") and not note
            mark = "" if same else "DIFFERS"
            if same and (ratio > SLOWER or answers["new"] == "over"):
                mark = "SLOWER"
            failed |= not same
            table.append((row.name, best["old"], best["new"], ratio if not over else None, mark))
            print(f"{row.name}: old {seconds(best['old'])}, new {seconds(best['new'])}, new/old "
                  f"{'-' if over else f'{ratio:.2f}'} {mark}{' ' + note if note else ''}", flush=True)
    lines = [
        "| workload | old CPU s | new CPU s | new/old | |",
        "|---|---|---|---|---|",
        *(f"| {n} | {seconds(o)} | {seconds(w)} | {'-' if r is None else f'{r:.2f}'} | {m} |"
          for n, o, w, r, m in table),
    ]
    print("\n".join(lines))
    print(f"total {time.monotonic() - started:.0f} s")
    if args.write:
        body = "\n".join([
            "<!-- compare:begin -->",
            "## Before and after: the quick set",
            "",
            f"Old: {base[:12]}; new: {head}.",
            "CPU (user + system) of each whole process, the builds alternating, the best of the runs; every",
            "row's answers the same for both builds (else marked). Over 1.10: marked SLOWER.",
            "",
            *lines,
            "<!-- compare:end -->",
        ])
        replace_section(RESULTS, "compare", body)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
