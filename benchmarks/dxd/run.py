"""Counting against the published DXZ and DynDXD figures, on the DXD artifact's instances.

    python benchmarks/dxd/run.py [--from DIR] [--limit SECONDS] [--only NAME] [--no-write]

The instances are those of the public artifact of "A Parallel Approach to
Counting Exact Covers Based on Decomposability Property" (SAT 2026; DXZ is
Nishino et al.'s counter, DynDXD the paper's), listed in instances.csv with
the figures its authors published for them. The artifact names no licence,
so no file of it is kept here: each is fetched (from DIR, a copy of the
artifact, with --from; else from GitHub at the commit instances.csv names)
into benchmarks/dxd/cache/, checked against the SHA-256 stored in
instances.csv, and converted from its text format ("n m", then m lines
"k i1 ... ik" of 1-based items) to a .dlx file. Instances defined by their
name (every subset of n items, the pairs of 2k points, a board's dominoes)
are made here instead, their size checked against the published one.

Each is counted by `covering dlx FILE --count --json --threads 1` by default
and with `--method frontier` and `--method memo` forced, each a whole
process: CPU (user + system) of each. The frontier and the memo are two
independent methods: their counts must agree, and that count is checked
against each published one. Writes benchmarks/RESULTS.md (``dxd`` markers).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import math
import os
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from engine import RESULTS, replace_section  # noqa: E402
from orders import bell, count, cpu_cell, dominoes  # noqa: E402

from covering.problem import Problem  # noqa: E402
from covering.reference.algorithm_x import count as reference_count  # noqa: E402

REPOSITORY = "https://raw.githubusercontent.com/loiufam/Algorithm_DXD"
CACHE = os.path.join(HERE, "cache")
METHODS = ("default", "frontier", "memo")


class FormatError(ValueError):
    """An instance file that is not in the artifact's format."""


def read_manifest() -> tuple[str, list[dict[str, str]]]:
    """(the artifact's commit, the rows of instances.csv)."""
    commit = ""
    lines = []
    with open(os.path.join(HERE, "instances.csv")) as f:
        for line in f:
            if line.startswith("# commit:"):
                commit = line.split(":", 1)[1].strip()
            elif not line.startswith("#"):
                lines.append(line)
    return commit, list(csv.DictReader(lines))


def fetch(row: dict[str, str], commit: str, source_dir: str | None) -> bytes:
    """The bytes of an artifact file, checked against its stored SHA-256."""
    path = row["source"]
    cached = os.path.join(CACHE, os.path.basename(path))
    if source_dir:
        with open(os.path.join(source_dir, path), "rb") as f:
            data = f.read()
    elif os.path.exists(cached):
        with open(cached, "rb") as f:
            data = f.read()
    else:
        url = f"{REPOSITORY}/{commit}/{path}"
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                data = r.read()
        except OSError as e:
            raise SystemExit(f"cannot fetch {url}: {e} (give a copy of the artifact with --from DIR)") from e
    digest = hashlib.sha256(data).hexdigest()
    if digest != row["sha256"]:
        raise SystemExit(f"{path}: SHA-256 {digest}, not the stored {row['sha256']}: not the file measured")
    os.makedirs(CACHE, exist_ok=True)
    with open(cached, "wb") as f:
        f.write(data)
    return data


def parse(data: bytes, where: str) -> tuple[list[str], list[list[str]]]:
    """Items and options of the artifact's format: "n m", then m lines of
    "k" and k distinct items numbered from 1 to n."""
    lines = [line for line in data.decode("ascii").splitlines() if line.strip()]
    if not lines:
        raise FormatError(f"{where}: empty")
    try:
        n, m = map(int, lines[0].split())
    except ValueError:
        raise FormatError(f"{where}:1: expected \"n m\", got {lines[0][:40]!r}") from None
    if len(lines) - 1 != m:
        raise FormatError(f"{where}: {len(lines) - 1} options where the header says {m}")
    items = [str(i) for i in range(1, n + 1)]
    options = []
    for number, line in enumerate(lines[1:], start=2):
        k, *rest = map(int, line.split())
        if k != len(rest) or len(set(rest)) != k or not all(1 <= i <= n for i in rest):
            raise FormatError(f"{where}:{number}: not {k} distinct items of 1..{n}")
        options.append([str(i) for i in rest])
    return items, options


def generated(source: str) -> tuple[list[str], list[list[str]]]:
    """An instance defined by its name: generated:bell:N, generated:pairs:N, generated:dominoes:MxN."""
    _, kind, arg = source.split(":")
    if kind == "bell":
        return bell(int(arg))
    if kind == "pairs":
        points = [f"p{k}" for k in range(int(arg))]
        return points, [list(pair) for pair in itertools.combinations(points, 2)]
    if kind == "dominoes":
        m, n = map(int, arg.split("x"))
        return dominoes(m, n)
    raise SystemExit(f"unknown generator {source!r}")


def bell_number(n: int) -> int:
    row = [1]
    for _ in range(n):
        nxt = [row[-1]]
        for x in row:
            nxt.append(nxt[-1] + x)
        row = nxt
    return row[0]


def domino_tilings(m: int, n: int) -> int:
    """Domino tilings of an m x n board, cell by cell in rows: bit c of the
    profile says whether cell c of the row being filled (past the current
    cell: of the next row) is covered already (the broken-profile recurrence)."""
    ways = {0: 1}
    for _ in range(m):
        for c in range(n):
            nxt: dict[int, int] = {}
            for mask, w in ways.items():
                if mask >> c & 1:  # covered by a vertical domino from the row before
                    nxt[mask & ~(1 << c)] = nxt.get(mask & ~(1 << c), 0) + w
                    continue
                nxt[mask | 1 << c] = nxt.get(mask | 1 << c, 0) + w  # a vertical domino down
                if c + 1 < n and not mask >> (c + 1) & 1:  # a horizontal one to the right
                    nxt[mask | 1 << (c + 1)] = nxt.get(mask | 1 << (c + 1), 0) + w
            ways = nxt
    return ways.get(0, 0)


def independent(source: str, items: list[str], options: list[list[str]]) -> tuple[int, str]:
    """The count by a third method that shares no code with the engine: a
    closed form or a Python recurrence for the generated instances; else the
    product of the counts of the parts no option joins, each by the
    reference Algorithm X in pure Python."""
    if source.startswith("generated:"):
        _, kind, arg = source.split(":")
        if kind == "bell":
            return bell_number(int(arg)), "Bell number"
        if kind == "pairs":
            return math.prod(range(int(arg) - 1, 0, -2)), "(2k-1)!!"
        m, n = map(int, arg.split("x"))
        return domino_tilings(m, n), "broken-profile recurrence"
    parent = {i: i for i in items}

    def root(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for o in options:
        for i in o[1:]:
            parent[root(i)] = root(o[0])
    parts: dict[str, list[list[str]]] = {}
    for o in options:
        parts.setdefault(root(o[0]), []).append(o)
    total = 1
    for r in {root(i) for i in items}:
        p = Problem()
        p.add_primary([i for i in items if root(i) == r])
        for o in parts.get(r, []):
            p.add_option(o)
        total *= reference_count(p)
    return total, f"product of {len({root(i) for i in items})} parts, Algorithm X in Python"


def dlx_text(items: list[str], options: list[list[str]]) -> str:
    return " ".join(items) + "\n" + "".join(" ".join(o) + "\n" for o in options)


def published(seconds: str, number: str, ours: int | None) -> str:
    if seconds in ("", "TO"):
        return "no answer"
    if ours is None or not number:
        return f"{number} in {seconds} s"
    mark = "right" if int(number) == ours else "**wrong**"
    return f"{seconds} s, {mark}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="source_dir", help="a copy of the artifact (its top folder)")
    ap.add_argument("--limit", type=float, default=120.0, help="seconds a run may take (default 120)")
    ap.add_argument("--only", help="instances whose name contains this")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    commit, manifest = read_manifest()
    rows = ["| instance | items | options | count (frontier = memo = third) | third method | default: method | default | frontier | memo "
            "| DXZ | DynDXD, 8 threads |",
            "|---|---:|---:|---:|---|---|---:|---:|---:|---|---|"]
    wrong = []
    os.makedirs(CACHE, exist_ok=True)
    for row in manifest:
        name = row["name"]
        if args.only and args.only not in name:
            continue
        if row["source"].startswith("generated:"):
            items, options = generated(row["source"])
        else:
            items, options = parse(fetch(row, commit, args.source_dir), row["source"])
        if (len(items), len(options)) != (int(row["cols"]), int(row["rows"])):
            raise SystemExit(f"{name}: {len(items)} items and {len(options)} options, "
                             f"where the published figures are for {row['cols']} and {row['rows']}")
        path = os.path.join(CACHE, name + ".dlx")
        with open(path, "w") as f:
            f.write(dlx_text(items, options))
        got = {m: count(path, m, args.limit) for m in METHODS}
        counts = {c for c, _, _ in got.values() if c is not None}
        if len(counts) > 1:
            raise SystemExit(f"{name}: our methods disagree: {got}")
        ours = next(iter(counts), None)
        third, how = independent(row["source"], items, options)
        if ours is not None and third != ours:
            raise SystemExit(f"{name}: frontier and memo say {ours}, the {how} says {third}")
        for who, number in (("DXZ", row["dxz_count"]), ("DynDXD", row["dyndxd8_count"])):
            if ours is not None and number and int(number) != ours:
                wrong.append(f"{name} ({who})")
        cell = lambda m: cpu_cell(got[m], args.limit)  # noqa: E731
        line = (f"| {name} | {len(items)} | {len(options)} | {ours if ours is not None else '-'} | {how} | {got['default'][1]} "
                f"| {cell('default')} | {cell('frontier')} | {cell('memo')} "
                f"| {published(row['dxz_seconds'], row['dxz_count'], ours)} "
                f"| {published(row['dyndxd8_seconds'], row['dyndxd8_count'], ours)} |")
        print(line, flush=True)
        rows.append(line)
    print("published counts that differ from ours:", wrong or "none")
    if not args.no_write:
        lines = [
            "<!-- dxd:begin -->",
            "## Counting against DXZ and DynDXD (the SAT 2026 artifact's instances)",
            "",
            f"`python benchmarks/dxd/run.py --limit {args.limit:.0f}` ({time.strftime('%Y-%m-%d')}): each instance "
            "counted by `covering dlx FILE --count --json --threads 1` by default and with the frontier and the "
            "memo forced, CPU (user + system) of each whole process (about 0.07 s of it is starting Python; "
            "their figures are of the count alone). The count is the frontier's and the memo's, which agree on "
            "every row, and a third method's that shares no code with the engine (a closed form, a Python "
            "recurrence, or the product of the counts of the parts no option joins, each by the reference "
            "Algorithm X in pure Python). DXZ and DynDXD: the seconds their authors published (another machine; "
            "DynDXD on 8 threads) and whether their count is ours. Published counts that differ from ours: "
            f"{', '.join(wrong) if wrong else 'none'}. Where both of theirs print the same wrong count "
            "(the 10x10 and 10x12 domino boards, where three methods of ours agree, and 258584046368 is the "
            "10x10 term of OEIS A004003), a shared cause is likely: both key their memo by a 64-bit hash without a check.",
            "",
            "Only two of the artifact's graph files are in instances.csv: the machine these figures come from "
            "could not download the artifact, and a file joins the list only with a SHA-256 taken from a copy "
            "read whole. To run more, add a row (path, checksum, their figures) and give `--from DIR`.",
            "",
            *rows,
            "<!-- dxd:end -->",
        ]
        replace_section(RESULTS, "dxd", "\n".join(lines))


if __name__ == "__main__":
    main()
