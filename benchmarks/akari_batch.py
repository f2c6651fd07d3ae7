"""The Akari batch against a CaDiCaL reference: a file of puzzles solved and proved unique, whole processes.

    python benchmarks/akari_batch.py [--puzzles FILE | --puzzlekit JSON] [--runs 3] [--write]

covering: ``covering akari unique FILE`` (the grids separated by blank
lines), CPU (user + system) of the whole process: start-up, reading, the
portfolio per puzzle, writing. The reference: one Python process that reads
the same file and, for each puzzle, writes the clauses of
``benchmarks/akari.py`` (python-sat, CaDiCaL 1.5.3), solves, blocks the
solution and solves again: it too solves and proves unique, in-process. Two
encodings: ``sat_clauses`` (python-sat's cardinality encodings) and
``tight_clauses`` (a variable a cell and one a segment, binary clauses for
"every cell sees a light", direct clauses for the numbers: about half the
first's time). The three alternate; the best of ``--runs`` is kept for
each. Every answer (unique, several, none) is compared.

The puzzles: ``--puzzles FILE`` as covering reads them, or ``--puzzlekit
JSON``, the Akari file of the puzzlekit dataset (970 human-made puzzles from
janko.at and puzz.link, up to 100 x 100; its grids are written ``-`` white,
``x`` black, digits, one row a line after a ``R C`` line), converted. With
neither, the generated and random boards of `compare.py`. With
``--write``, the table goes to benchmarks/RESULTS.md (``akari-batch``
markers).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from big import child_cpu
from compare import akari_boards
from engine import RESULTS, replace_section

REFERENCE = """
import sys
sys.path.insert(0, sys.argv[2])
import akari
from covering.puzzles.akari import Akari
run = getattr(akari, sys.argv[3])
blocks = [b for b in open(sys.argv[1]).read().split("\\n\\n") if b.strip()]
print(" ".join(str(run(Akari.parse(b))[0]) for b in blocks))
"""


def from_puzzlekit(path: Path) -> str:
    """The puzzles of a puzzlekit dataset file, as covering reads them."""
    grids = []
    for entry in json.loads(path.read_text())["data"].values():
        rows = entry["problem"].strip().split("\n")[1:]
        grids.append("\n".join("".join({"-": ".", "x": "#"}.get(ch, ch) for ch in row.split()) for row in rows))
    return "\n\n".join(grids) + "\n"


def words(out: str) -> list[int]:
    """covering's answers as solution counts (1 unique, 2 several, 0 none)."""
    return [{"unique": 1, "multiple": 2, "none": 0}[x] for x in out.splitlines() if x in ("unique", "multiple", "none")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--puzzles", type=Path)
    ap.add_argument("--puzzlekit", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    if args.puzzlekit:
        text, name = from_puzzlekit(args.puzzlekit), f"puzzlekit {args.puzzlekit.name}"
    elif args.puzzles:
        text, name = args.puzzles.read_text(), args.puzzles.name
    else:
        text, name = akari_boards(), "generated and random boards (compare.py's)"
    here = str(Path(__file__).resolve().parent)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "akari.txt"
        path.write_text(text)
        ours, card, tight = float("inf"), float("inf"), float("inf")
        for _ in range(args.runs):
            done, cpu, _, _ = child_cpu([sys.executable, "-m", "covering", "akari", "unique", str(path)])
            assert done.returncode == 0, done.stderr.decode()[-500:]
            ours = min(ours, cpu)
            ref, cpu, _, _ = child_cpu([sys.executable, "-c", REFERENCE, str(path), here, "run_sat"])
            assert ref.returncode == 0, ref.stderr.decode()[-500:]
            card = min(card, cpu)
            ref2, cpu, _, _ = child_cpu([sys.executable, "-c", REFERENCE, str(path), here, "run_sat_tight"])
            assert ref2.returncode == 0, ref2.stderr.decode()[-500:]
            tight = min(tight, cpu)
    answers, reference = words(done.stdout.decode()), [int(x) for x in ref.stdout.split()]
    assert answers == reference, "an answer differs from the reference's"
    assert [int(x) for x in ref2.stdout.split()] == reference, "the two encodings differ"
    n = len(answers)
    print(f"{name}: {n} puzzles, covering {ours:.2f} s, CaDiCaL on cardinality encodings {card:.2f} s "
          f"({ours / card:.2f}), on the tight encoding {tight:.2f} s ({ours / tight:.2f})")
    if args.write:
        body = "\n".join([
            "<!-- akari-batch:begin -->",
            "## Akari: a batch against a CaDiCaL reference",
            "",
            "`covering akari unique FILE` against one Python process that encodes each puzzle as clauses",
            "(benchmarks/akari.py: `sat_clauses`, python-sat's cardinality encodings; `tight_clauses`, a variable",
            "a cell and one a segment, direct clauses for the numbers), solves with python-sat's CaDiCaL 1.5.3,",
            "blocks the solution and solves again; CPU (user + system) of each whole process, start-up and",
            "encoding included, the three alternating, the best of the runs; every answer the same.",
            "",
            "| puzzles | unique / several / none | covering CPU s | CaDiCaL, cardinality encodings | ratio "
            "| CaDiCaL, tight encoding | ratio |",
            "|---|---|---|---|---|---|---|",
            f"| {name} ({n}) | {answers.count(1)} / {answers.count(2)} / {answers.count(0)} | {ours:.2f} | "
            f"{card:.2f} | {ours / card:.2f} | {tight:.2f} | {ours / tight:.2f} |",
            "<!-- akari-batch:end -->",
        ])
        replace_section(RESULTS, "akari-batch", body)


if __name__ == "__main__":
    main()
