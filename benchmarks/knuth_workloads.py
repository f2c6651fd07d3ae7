"""covering on Knuth's own workloads: instances made by his generator programs, counted (or
solved) by covering and by each of his solvers, in one run.

    benchmarks/knuth/build.sh SOURCES DIR      # his solvers in DIR, his generators in DIR/gen
    python benchmarks/knuth_workloads.py --knuth DIR [--words FILE] [--repeat N] [--only NAME ...]

SOURCES are his CWEB files (the public repository ascherer/cwebtest holds them all). Each instance
is made by one of his generators (polyomino-dlx, queens-dlx, slitherlink-dlx, indicator-dlx,
word-rect-dlx, redrect-dlx, ...), with inputs of our own choosing: random puzzles with a seed,
written here. Every program reads the same .dlx file; what is timed is the CPU of the whole
process (reading included), for covering the command a user types,
``covering dlx count FILE --threads 1`` (or ``solve`` for first-solution instances), the best of
``--repeat`` runs, the programs alternating (a run of his is stopped, and not run again, past
``PAST_BEST`` times the best time so far on its instance: it cannot be the best). The counts must
all agree. The table (covering, each of his programs, the best of them, the ratio) goes to
``benchmarks/RESULTS.md`` between the ``knuth-workloads`` markers.

``--words FILE``: a list of words, one a line (Debian's ``wamerican`` has /usr/share/dict/words),
for the word rectangles; without it they are left out.

``--branchings``: each instance is also searched by each of covering's branching rules
(``--method search --branching mrv|wtd|frb|binary``, one thread), beside the default and his best
program; that table goes between the ``knuth-branching`` markers.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from covering.solver import BRANCHINGS
from engine import RESULTS, replace_section

#: His solvers for each kind of problem: XC and XCC, MCC.
XCC = ("dlx2", "ssxcc", "ssxcc-wtd", "ssxcc-frb", "ssxcc-binary", "xccdc")
MCC = ("dlx3", "ssmcc", "ssmcc-wtd", "ssmcc-frb")
#: Longest a run may take before it is reported as such.
TIMEOUT = 300.0
#: A run of his is also stopped past this many times the best time so far on
#: its instance (his or covering's), and not run again: it cannot be his best,
#: and XCCDC on a Sudoku count takes minutes where SSXCC takes seconds.
PAST_BEST = 8.0
#: ... but never before this many seconds.
PAST_BEST_FLOOR = 30.0


@dataclass
class Instance:
    name: str
    generator: list[str]  # the generator's command line, its name first
    stdin: str = ""
    kind: str = "XCC"  # "XCC" or "MCC": which of his solvers are measured
    first: bool = False  # a first solution rather than a count
    notes: list[str] = field(default_factory=list)


def slitherlink(rows: int, cols: int, reveal: float, seed: int) -> str:
    """A slitherlink puzzle with at least one solution: the boundary of a
    random region grown cell by cell (one loop), its clues revealed with
    probability `reveal`."""
    rng = random.Random(seed)
    inside = {(rng.randrange(rows), rng.randrange(cols))}
    target = rows * cols // 2
    while len(inside) < target:
        r, c = rng.choice(sorted(inside))
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        cell = (r + dr, c + dc)
        if not (0 <= cell[0] < rows and 0 <= cell[1] < cols) or cell in inside:
            continue
        # Keep the region free of holes: a cell joins only when its inside
        # neighbours are one connected run around it (so the boundary stays one loop).
        ring = [(cell[0] + a, cell[1] + b) for a, b in ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0),
                                                          (1, -1), (0, -1))]
        marks = [x in inside for x in ring]
        runs = sum(1 for k in range(8) if marks[k] and not marks[k - 1])
        if runs != 1:
            continue
        inside.add(cell)
    lines = []
    for r in range(rows):
        line = ""
        for c in range(cols):
            n = sum(((r + a, c + b) in inside) != ((r, c) in inside) for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0)))
            line += str(n) if rng.random() < reveal else "."
        lines.append(line)
    return "\n".join(lines) + "\n"


def pieces_spec(box: str, pieces: dict[str, str]) -> str:
    return box + "\n" + "".join(f"{name} {cells}\n" for name, cells in pieces.items())


PENTOMINOES = {"O": "00 01 02 03 04", "P": "00 01 02 10 11", "Q": "00 01 02 03 13", "R": "01 02 10 11 21",
               "S": "00 01 02 12 13", "T": "00 01 02 11 21", "U": "00 02 10 11 12", "V": "00 01 02 10 20",
               "W": "00 01 11 12 22", "X": "01 10 11 12 21", "Y": "00 01 02 03 11", "Z": "00 01 11 21 22"}


SUDOKU_15 = """\
.........
........1
.....2.3.
.....3.2.
..1.4....
..5....6.
.3......4
.7..8...9
6........
"""


#: The first 14 or 15 givens (row by row) of the 2nd, 3rd and 4th puzzles of
#: the shared 17-clue set: 4,011,188, 14,040,934 and 22,330,419 solutions.
SUDOKU_MORE = {
    "sudoku, 15 givens of another 17-clue puzzle": """\
.........
........1
.....2.3.
.....3.2.
..4....5.
..6.1....
.3......6
.7..8...9
5........
""",
    "sudoku, 14 givens of a 17-clue puzzle": """\
.........
........1
.....2.3.
.....425.
..6......
.17....8.
....7...6
4...6....
.........
""",
    "sudoku, 15 givens of a third 17-clue puzzle": """\
.........
........1
.....2.3.
.....45..
..1.6....
.4......7
....8.4..
..9...2..
3.6......
""",
}


#: The twelve hexiamonds, in POLYIAMOND-DLX's cells (xy an upward triangle,
#: xy' the downward one to its right); and the tetriamonds and pentiamonds.
HEXIAMONDS = {"A": "00 00' 01 01' 02 02'", "B": "00 00' 01 01' 02 10", "C": "00 00' 01 01' 10 10'",
              "D": "00 00' 01 01' 10 11", "E": "00 00' 01 01' 10' 11", "F": "00 00' 01 01' 11 11'",
              "G": "00' 01 01' 02 02' 10", "H": "00' 01 01' 02 02' 11", "I": "00' 01 01' 02 11 11'",
              "J": "00' 01 01' 10 10' 11", "K": "00' 01 01' 11 11' 12", "L": "01 01' 02 10' 11 11'"}
PENTIAMONDS = {"A": "00 00' 01 01' 02", "B": "00 00' 01 01' 10", "C": "00 00' 01 01' 11", "D": "00' 01 01' 10 10'"}
TETRIAMONDS = {"E": "00 00' 01 01'", "F": "00 00' 01 10", "G": "00' 01 01' 10"}
TETROMINOES = {"I": "00 01 02 03", "O": "00 01 10 11", "T": "00 01 02 11", "L": "00 01 02 10", "S": "00 01 11 12"}

#: A fillomino puzzle of 8x8 (its regions of 1 to 5 cells, grown at random,
#: 40% of its cells shown).
FILLOMINO_8 = """\
4.2..4..
.445.5.3
55.45...
.544...4
2...3.4.
4.4.34.5
.2...4..
1.....5.
"""


def instances(words: Path | None) -> list[Instance]:
    out = [
        Instance("pentominoes 6x10", ["polyomino-dlx"], pieces_spec("[0-5][0-9]", PENTOMINOES)),
        Instance("pentominoes 5x12", ["polyomino-dlx"], pieces_spec("[0-4][0-9a-b]", PENTOMINOES)),
        Instance("queens 14", ["queens-dlx", "14"]),
        Instance("pi day", ["pi-day-dlx"]),
        Instance("indicator: monotone functions of 6 variables", ["indicator-dlx", "2", "6", "00", "01", "11"]),
        Instance("slitherlink 10x10 (seed 1, 30% clues)", ["slitherlink-dlx"], slitherlink(10, 10, 0.30, 1)),
        Instance("slitherlink 12x12 (seed 2, 35% clues)", ["slitherlink-dlx"], slitherlink(12, 12, 0.35, 2)),
        Instance("queendom 8, 5 queens", ["queendom-dlx", "8", "5"], kind="MCC"),
        Instance("redrect 4x5", ["redrect-dlx", "4", "5"], kind="MCC"),
        Instance("motley dissections 6x7", ["motley-dlx", "6", "7"], kind="MCC"),
        Instance("motley dissections 7x7", ["motley-dlx", "7", "7"], kind="MCC"),
        Instance("windmill dominoes 4x5", ["windmill-dominoes-dlx", "4", "5"]),
        Instance("de Bruijn cycle, 8 bits of weight 2-4 (first)", ["de-bruijn-dlx", "2", "4", "8"], first=True),
        # The first 15 givens of the first 17-clue puzzle of the shared Sudoku
        # data (row by row): 3,828,403 solutions.
        Instance("sudoku, 15 givens", ["sudoku-dlx"], SUDOKU_15),
        Instance("hexiamonds in a 6x6 rhombus", ["polyiamond-dlx"],
                 pieces_spec("[0-5][0-5] [0-5][0-5]'", HEXIAMONDS)),
        Instance("pentominoes as solids in a 2x5x6 box", ["polycube-dlx"],
                 pieces_spec("[0-1][0-4][0-5]", {k: " ".join(c + "0" for c in v.split())
                                                   for k, v in PENTOMINOES.items()})),
        Instance("fillomino 8x8", ["fillomino-dlx"], FILLOMINO_8),
        Instance("redrect 3x8", ["redrect-dlx", "3", "8"], kind="MCC"),
        Instance("tetrominoes 2-3 times each, 7x8", ["polyomino-dlx"],
                 pieces_spec("[0-6][0-7]", {"2:3|" + k: v for k, v in TETROMINOES.items()}), kind="MCC"),
        Instance("pentiamonds 0-3, tetriamonds 1-2 times each, 5x5 rhombus", ["polyiamond-dlx"],
                 pieces_spec("[0-4][0-4] [0-4][0-4]'", {**{"0:3|" + k: v for k, v in PENTIAMONDS.items()},
                                                        **{"1:2|" + k: v for k, v in TETRIAMONDS.items()}}),
                 kind="MCC"),
        # The MCC instances the count lost on before its frontier's orders
        # were weighed by trial runs (RESULTS.md, "Afternoon (2026-11-27)").
        Instance("hexiamonds 0-1, tetriamonds 0-2 times each, 6x4 rhombus", ["polyiamond-dlx"],
                 pieces_spec("[0-5][0-3] [0-5][0-3]'", {**{"0:1|" + k: v for k, v in HEXIAMONDS.items()},
                                                        **{"0:2|t" + k: v for k, v in TETRIAMONDS.items()}}),
                 kind="MCC"),
        Instance("pentiamonds, tetriamonds 0-2 times each, 5x4 rhombus", ["polyiamond-dlx"],
                 pieces_spec("[0-4][0-3] [0-4][0-3]'", {"0:2|" + k: v for k, v in {**PENTIAMONDS,
                                                                                   **TETRIAMONDS}.items()}),
                 kind="MCC"),
        Instance("redrect 5x5", ["redrect-dlx", "5", "5"], kind="MCC"),
        Instance("redrect 3x9", ["redrect-dlx", "3", "9"], kind="MCC"),
        # Where covering lost before the evening of 2026-11-27 (RESULTS.md):
        # Sudoku counts, and first solutions past the portfolio's first stage.
        *(Instance(name, ["sudoku-dlx"], text) for name, text in SUDOKU_MORE.items()),
        Instance("windmill dominoes 3x6 (first: none)", ["windmill-dominoes-dlx", "3", "6"], first=True),
        Instance("de Bruijn cycle, 10 bits of weight 2-5 (first)", ["de-bruijn-dlx", "2", "5", "10"], first=True),
        Instance("motley dissections 5x12 (first: none)", ["motley-dlx", "5", "12"], kind="MCC", first=True),
        # First solutions of multiplicities past the first stage (2026-12-04):
        # a motley dissection his -frb and -wtd find at once, a queendom
        # with none, and one whose solution lies deep.
        Instance("motley dissections 7x9 (first)", ["motley-dlx", "7", "9"], kind="MCC", first=True),
        Instance("queendom 9, 4 queens (first: none)", ["queendom-dlx", "9", "4"], kind="MCC", first=True),
        Instance("queendom 10, 5 queens (first)", ["queendom-dlx", "10", "5"], kind="MCC", first=True),
    ]
    if words is not None:
        out += [
            Instance("word rectangles 3x4", ["word-rect-dlx", "{words3}", "{words4}"]),
            Instance("word rectangles 3x5", ["word-rect-dlx", "{words3}", "{words5}"]),
            Instance("word rectangles 4x5 (first)", ["word-rect-dlx", "{words4}", "{words5}"], first=True),
            Instance("word rectangles 6x6 (first)", ["word-rect-dlx", "{words6}", "{words6}"], first=True),
        ]
    return out


def word_lists(words: Path, folder: Path) -> dict[str, str]:
    """Files of the lower-case a-z words of 3 to 6 letters in `words`."""
    got: dict[int, list[str]] = {3: [], 4: [], 5: [], 6: []}
    for w in words.read_text(encoding="utf-8", errors="replace").split():
        if re.fullmatch(r"[a-z]+", w) and len(w) in got:
            got[len(w)].append(w)
    paths = {}
    for n, ws in got.items():
        path = folder / f"words{n}.txt"
        path.write_text("".join(w + "\n" for w in sorted(set(ws))))
        paths[f"words{n}"] = str(path)
    return paths


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], stdin_path: Path, timeout: float = TIMEOUT) -> tuple[float, str, str]:
    """CPU seconds of `cmd`'s whole process (reading `stdin_path`), stdout, stderr; infinite past
    `timeout` seconds (of the clock)."""
    before = child_cpu()
    with open(stdin_path, "rb") as f:
        try:
            run = subprocess.run(cmd, stdin=f, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return float("inf"), "", "timeout"
    return child_cpu() - before, run.stdout, run.stderr


def knuth(program: Path, path: Path, first: bool, timeout: float = TIMEOUT) -> tuple[float, int | None, int | None]:
    """(CPU, count, nodes) of one of his solvers; with `first`, it stops at one solution."""
    cpu, _, err = timed([str(program)] + (["t1"] if first else []), path, timeout)
    m = re.search(r"Altogether (\d+) solutions?,.*?(\d+) nodes", err)
    if m is None:
        return cpu, None, None
    return cpu, int(m[1]), int(m[2])


def covering(path: Path, first: bool, branching: str | None = None) -> tuple[float, int | None, dict]:
    """(CPU, count, the summary) of the command a user types; with `branching`, a search by that rule."""
    verb = ["solve"] if first else ["count", "--threads", "1"]
    if branching is not None:
        verb += ["--branching", branching] + ([] if first else ["--method", "search"])
    cpu, out, _ = timed([sys.executable, "-m", "covering", "dlx", *verb, "-", "--json"], path)
    try:
        summary = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return cpu, None, {}
    return cpu, summary.get("count"), summary


def workload_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of the benchmarks on his workloads: where his programs are, the words, which instances."""
    parser.add_argument("--knuth", type=Path, required=True, help="his programs (generators in DIR/gen)")
    parser.add_argument("--words", type=Path, help="a word list, for the word rectangles")
    parser.add_argument("--only", nargs="*", help="instances whose name contains one of these")
    parser.add_argument("--no-write", action="store_true", help="print the table, leave RESULTS.md alone")


def workload_folder(args: argparse.Namespace, prefix: str) -> tuple[Path, dict[str, str]]:
    """A folder for the instances' files, and the word lists' paths in it (`--words`)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    return folder, word_lists(args.words, folder) if args.words else {}


def generated(inst: Instance, knuth: Path, subs: dict[str, str]) -> str:
    """The .dlx text his generator makes for `inst` (`subs`: the word lists' paths)."""
    cmd = [str(knuth / "gen" / inst.generator[0])] + [a.format(**subs) for a in inst.generator[1:]]
    return subprocess.run(cmd, input=inst.stdin, capture_output=True, text=True, check=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    workload_arguments(parser)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--branchings", action="store_true", help="also each of covering's branching rules")
    args = parser.parse_args()
    folder, subs = workload_folder(args, "knuth-workloads-")
    rows = []
    ruled: list[tuple[Instance, dict[str, tuple[float, int | None]]]] = []
    for inst in instances(args.words):
        if args.only and not any(o in inst.name for o in args.only):
            continue
        path = folder / (re.sub(r"\W+", "-", inst.name) + ".dlx")
        path.write_text(generated(inst, args.knuth, subs))
        programs = [p for p in (XCC if inst.kind == "XCC" else MCC) if (args.knuth / p).exists()]
        best: dict[str, tuple[float, int | None, int | None]] = {}
        mine: tuple[float, int | None, dict] = (float("inf"), None, {})
        for _ in range(args.repeat):
            got_mine = covering(path, inst.first)
            if got_mine[0] < mine[0]:
                mine = got_mine
            for p in programs:
                if p in best and best[p][0] == float("inf"):
                    continue  # (stopped past the best once: not again)
                so_far = min([t for t, _, _ in best.values()] + [mine[0]])
                cap = min(TIMEOUT, max(PAST_BEST_FLOOR, PAST_BEST * so_far))
                got = knuth(args.knuth / p, path, inst.first, cap)
                if p not in best or got[0] < best[p][0]:
                    best[p] = got
        counts = {p: c for p, (_, c, _) in best.items() if c is not None}
        if not inst.first:
            agree = len(set(counts.values()) | {mine[1]}) == 1
        else:
            # (A first solution or none: the same answer as every one of his.)
            agree = all(c > 0 for c in counts.values()) == ((mine[1] or 0) > 0)
        # (None: every run of his stopped, so the ratio is only bounded and
        # the count not checked.)
        top = min(((t, p) for p, (t, c, _) in best.items() if c is not None), default=None)
        if args.branchings:
            rules: dict[str, tuple[float, int | None]] = {}
            for _ in range(args.repeat):
                for b in BRANCHINGS:
                    cpu, n, _ = covering(path, inst.first, b)
                    if b not in rules or cpu < rules[b][0]:
                        rules[b] = (cpu, n)
            if not inst.first:
                agree = agree and {n for _, n in rules.values()} == {mine[1]}
            ruled.append((inst, rules))
            print("  rules", {b: (round(t, 3), n) for b, (t, n) in rules.items()}, flush=True)
        rows.append((inst, best, mine, top, agree))
        print(inst.name, {p: (round(t, 3), c, n) for p, (t, c, n) in best.items()},
              "covering", round(mine[0], 3), mine[1], mine[2].get("method"), mine[2].get("nodes"),
              "ratio", ratio(mine, top), "agree" if agree else "DISAGREE", flush=True)
    table = render(rows, args)
    print(table)
    if not args.no_write and not args.only:
        replace_section(RESULTS, "knuth-workloads", table)
    if ruled:
        by_rule = render_rules(rows, ruled, args)
        print(by_rule)
        if not args.no_write and not args.only:
            replace_section(RESULTS, "knuth-branching", by_rule)


def render_rules(rows: list, ruled: list, args: argparse.Namespace) -> str:
    """The table of covering's branching rules on each instance."""
    head = ["<!-- knuth-branching:begin -->",
            "## covering's branching rules on Knuth's workloads", "",
            f"`python benchmarks/knuth_workloads.py --knuth DIR --words WORDS --repeat {args.repeat} --branchings`: "
            "each instance searched by each rule, `covering dlx count FILE --threads 1 --method search "
            "--branching RULE` (`solve --branching RULE` for a first solution), CPU seconds of the whole "
            "process, beside the default command and the best of Knuth's programs; every count agrees unless "
            "the row says otherwise.", "",
            "| instance | default (method) | " + " | ".join(BRANCHINGS) + " | his best | best rule / mrv |",
            "|---|---|" + "---|" * len(BRANCHINGS) + "---|---|"]
    for (inst, best, mine, top, agree), (_, rules) in zip(rows, ruled):
        cells = ["timeout" if rules[b][0] == float("inf") else f"{rules[b][0]:.2f}" for b in BRANCHINGS]
        least = min(t for t, _ in rules.values())
        method = mine[2].get("method") or ("first" if inst.first else "?")
        name = inst.name + ("" if agree else " **counts disagree**")
        head.append(f"| {name} | {mine[0]:.2f} ({method}) | " + " | ".join(cells)
                    + f" | {top[0]:.2f} ({top[1]}) | {least / rules['mrv'][0]:.2f} |")
    head.append("<!-- knuth-branching:end -->")
    return "\n".join(head)


def ratio(mine: tuple, top: tuple | None) -> str:
    """covering's time over the best of his; where every run of his stopped
    (at least `PAST_BEST_FLOOR` seconds), the bound it is under.

    >>> ratio((1.0, 5, {}), (4.0, "ssxcc")), ratio((0.6, 5, {}), None)
    ('0.25', 'under 0.02')
    """
    if top is None:
        return f"under {mine[0] / PAST_BEST_FLOOR:.2f}"
    return f"{mine[0] / top[0]:.2f}"


def render(rows: list, args: argparse.Namespace) -> str:
    head = ["<!-- knuth-workloads:begin -->",
            "## Knuth's workloads: instances of his generators, covering against each of his solvers", "",
            f"`python benchmarks/knuth_workloads.py --knuth DIR --words WORDS --repeat {args.repeat}` (his solvers "
            "and generators built by `benchmarks/knuth/build.sh` from his CWEB sources, `gcc -O3 -march=native`; "
            "CPU seconds of the whole process, reading included, the best of the runs; covering is "
            "`covering dlx count FILE --threads 1`, or `solve` for a first solution; ratio = covering / the best "
            "of his; every count agrees unless the row says otherwise; \"stopped\": a run of his stopped past "
            f"{PAST_BEST:g} times the best time so far on its instance, at least {PAST_BEST_FLOOR:g} s, or past "
            f"{TIMEOUT:g} s).", ""]
    names = [p for p in XCC + MCC if any(p in best for _, best, _, _, _ in rows)]
    head.append("| instance (solutions) | kind | covering (method) | " + " | ".join(names) + " | ratio |")
    head.append("|---|---|---|" + "---|" * len(names) + "---|")
    for inst, best, mine, top, agree in rows:
        count = mine[1]
        what = f"{inst.name} ({count:,})" if isinstance(count, int) else inst.name
        if not agree:
            what += " **counts disagree**"
        if top is None:
            what += " (count not checked: every run of his stopped)"
        cells = []
        for p in names:
            if p not in best:
                cells.append("")
            else:
                t, c, _ = best[p]
                cells.append("stopped" if t == float("inf") else f"{t:.2f}" if c is not None else "failed")
        method = mine[2].get("method") or ("first" if inst.first else "?")
        head.append(f"| {what} | {inst.kind}{' first' if inst.first else ''} | {mine[0]:.2f} ({method}) | "
                    + " | ".join(cells) + f" | {ratio(mine, top)} |")
    head.append("<!-- knuth-workloads:end -->")
    return "\n".join(head)


if __name__ == "__main__":
    main()
