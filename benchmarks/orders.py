"""The default count against every forced method, on instances in any item order.

    python benchmarks/orders.py [--limit SECONDS] [--seed S] [--only NAME] [--no-write]

Instances made here by generators of several classes (graph covers, perfect
matchings, set partitions, Steiner triple systems, boards, queens), each
written as a .dlx file with its items and its options in a random order
(the numbering a generator nobody here wrote might give them), then
counted by `covering dlx FILE --count --json` with the default method and
with each forced one (`--method frontier`, `--method memo`, `--method
search`), each a whole process with a time limit. CPU (user + system) of
each; the counts must agree. The bar: the default within 2x + 0.5 s of the
best forced method. Writes benchmarks/RESULTS.md (``orders`` markers).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator

from big import child
from engine import RESULTS, replace_section


def scrambled(primary: list[str], options: list[list[str]], rng: random.Random,
              secondary: tuple[str, ...] = ()) -> str:
    """A .dlx text of `options` over `primary` (and `secondary`) items, the
    items of the header, the options and each option's items shuffled."""
    items = list(primary)
    rng.shuffle(items)
    lines = [" ".join(items) + (" | " + " ".join(secondary) if secondary else "")]
    opts = [list(o) for o in options]
    rng.shuffle(opts)
    for o in opts:
        rng.shuffle(o)
        lines.append(" ".join(o))
    return "\n".join(lines) + "\n"


def dominoes(m: int, n: int) -> tuple[list[str], list[list[str]]]:
    cells = [f"{r}.{c}" for r in range(m) for c in range(n)]
    opts = [[f"{r}.{c}", f"{r}.{c + 1}"] for r in range(m) for c in range(n - 1)]
    opts += [[f"{r}.{c}", f"{r + 1}.{c}"] for r in range(m - 1) for c in range(n)]
    return cells, opts


def cubic_graph(n: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random 3-regular simple graph on n vertices (pairing model, retried)."""
    while True:
        points = [v for v in range(n) for _ in range(3)]
        rng.shuffle(points)
        edges = {tuple(sorted(points[k:k + 2])) for k in range(0, len(points), 2)}
        if len(edges) == 3 * n // 2 and all(a != b for a, b in edges):
            return sorted(edges)  # type: ignore[arg-type]


def matchings(n: int, rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """Perfect matchings of a random cubic graph: vertices are items, edges options."""
    return [f"v{v}" for v in range(n)], [[f"v{a}", f"v{b}"] for a, b in cubic_graph(n, rng)]


def near_planar(rows: int, cols: int, rng: random.Random) -> list[tuple[int, int]]:
    """A grid graph with random diagonals (a road-map-like graph)."""
    v = lambda r, c: r * cols + c  # noqa: E731
    edges = [(v(r, c), v(r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    edges += [(v(r, c), v(r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    edges += [(v(r, c), v(r + 1, c + 1)) for r in range(rows - 1) for c in range(cols - 1) if rng.random() < 0.3]
    return edges


def connected_parts(edges: list[tuple[int, int]], n: int, size: int) -> tuple[list[str], list[list[str]]]:
    """Partitions of a graph's vertices into connected parts of at most `size`
    vertices (the graph covers of DXD's benchmark are of this kind)."""
    adj: dict[int, set[int]] = {v: set() for v in range(n)}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    parts: set[frozenset[int]] = {frozenset([v]) for v in range(n)}
    frontier = set(parts)
    for _ in range(size - 1):
        grown = {s | {w} for s in frontier for u in s for w in adj[u] if w not in s}
        parts |= grown
        frontier = grown
    return [f"v{v}" for v in range(n)], [[f"v{v}" for v in sorted(s)] for s in sorted(parts, key=sorted)]


def bell(n: int) -> tuple[list[str], list[list[str]]]:
    items = [f"e{k}" for k in range(n)]
    opts = [[items[k] for k in range(n) if mask >> k & 1] for mask in range(1, 1 << n)]
    return items, opts


def steiner_triples(n: int) -> tuple[list[str], list[list[str]]]:
    """Steiner triple systems on n points: pairs are items, triples options."""
    pairs = [f"p{a}.{b}" for a, b in itertools.combinations(range(n), 2)]
    opts = [[f"p{a}.{b}", f"p{a}.{c}", f"p{b}.{c}"] for a, b, c in itertools.combinations(range(n), 3)]
    return pairs, opts


def steiner_quadruples(n: int) -> tuple[list[str], list[list[str]]]:
    """Steiner quadruple systems on n points: triples are items, quadruples options."""
    name = lambda t: "t" + ".".join(map(str, t))  # noqa: E731
    triples = [name(t) for t in itertools.combinations(range(n), 3)]
    opts = [[name(t) for t in itertools.combinations(q, 3)] for q in itertools.combinations(range(n), 4)]
    return triples, opts


def queens(n: int) -> tuple[list[str], list[list[str]], tuple[str, ...]]:
    rows, cols = [f"r{k}" for k in range(n)], [f"c{k}" for k in range(n)]
    diag = tuple(f"a{k}" for k in range(2 * n - 1)) + tuple(f"b{k}" for k in range(2 * n - 1))
    opts = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"] for r in range(n) for c in range(n)]
    return rows + cols, opts, diag


def instances(seed: int) -> Iterator[tuple[str, str]]:
    """(name, .dlx text) of every instance, scrambled by `seed`."""
    rng = random.Random(seed)
    for m, n in [(8, 8), (12, 12), (10, 16), (16, 16)]:
        yield f"dominoes {m}x{n}", scrambled(*dominoes(m, n), rng)
    for n in (60, 120, 200, 300):
        yield f"matchings cubic {n}", scrambled(*matchings(n, rng), rng)
    for rows, cols, size in [(5, 8, 3), (7, 12, 3), (10, 14, 3), (5, 7, 4), (7, 9, 4)]:
        yield f"graph covers {rows}x{cols} parts<={size}", scrambled(
            *connected_parts(near_planar(rows, cols, rng), rows * cols, size), rng)
    for n in (10, 12, 14):
        yield f"set partitions {n}", scrambled(*bell(n), rng)
    yield "steiner triples 9", scrambled(*steiner_triples(9), rng)
    yield "steiner quadruples 10", scrambled(*steiner_quadruples(10), rng)
    for n in (10, 12, 13):
        primary, opts, secondary = queens(n)
        yield f"queens {n}", scrambled(primary, opts, rng, secondary)


METHODS = ("default", "frontier", "memo", "search")


def count(path: str, method: str, limit: float) -> tuple[int | None, str, float]:
    """(count or None past the limit, what the default chose, CPU seconds) of one process."""
    flags = [] if method == "default" else ["--method", method]
    r, cpu, _, _ = child([sys.executable, "-m", "covering", "dlx", path, "--count", "--json", "--no-progress",
                          "--threads", "1", *flags], limit)
    if r is None:
        return None, "", limit
    code, out, err = r
    if code == 2 and method != "default":
        return None, "refused", 0.0  # a method that cannot take the problem (the memo past 16,000 options)
    if code != 0:
        raise SystemExit(f"{path} --method {method}: exit {code}: {err.strip()}")
    summary = json.loads(out.splitlines()[-1])
    chose = summary.get("method", "")
    if summary.get("item_order"):
        chose += f" ({summary['item_order']}, {summary['width']} bits)"
    return int(summary["count"]), chose, cpu


def cpu_cell(result: tuple[int | None, str, float], limit: float) -> str:
    """A table cell for one of `count`'s results: its CPU seconds, "refused",
    or past the limit."""
    n, chose, cpu = result
    if n is not None:
        return f"{cpu:.2f} s"
    return "refused" if chose == "refused" else f"> {limit:.0f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=60.0, help="seconds a run may take (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="instances whose name contains this")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    rows = ["| instance | count | default: method | default | frontier | memo | search | default / best |",
            "|---|---:|---|---:|---:|---:|---:|---:|"]
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in instances(args.seed):
            if args.only and args.only not in name:
                continue
            path = os.path.join(tmp, "x.dlx")
            with open(path, "w") as f:
                f.write(text)
            got = {m: count(path, m, args.limit) for m in METHODS}
            counts = {c for c, _, _ in got.values() if c is not None}
            assert len(counts) <= 1, f"{name}: the methods disagree: {got}"
            best = min(cpu for c, _, cpu in (got[m] for m in METHODS[1:]) if c is not None) if any(
                got[m][0] is not None for m in METHODS[1:]) else None
            default = got["default"]
            ratio = "-" if best is None or default[0] is None else f"{default[2] / best:.2f}"
            if best is not None and (default[0] is None or default[2] > 2 * best + 0.5):
                bad.append(name)
            cell = lambda m: cpu_cell(got[m], args.limit)  # noqa: E731
            row = (f"| {name} | {next(iter(counts), '-')} | {default[1]} | {cell('default')} | {cell('frontier')} | "
                   f"{cell('memo')} | {cell('search')} | {ratio} |")
            print(row, flush=True)
            rows.append(row)
    print("over 2x + 0.5 s of the best forced method:", bad or "none")
    if not args.no_write:
        lines = [
            "<!-- orders:begin -->",
            "## Counting in any item order: the default against each method forced",
            "",
            f"`python benchmarks/orders.py --limit {args.limit:.0f} --seed {args.seed}` ({time.strftime('%Y-%m-%d')}): "
            "instances of seven classes made by generators here, their items and options listed in a random "
            "order, each counted by `covering dlx FILE --count --json --threads 1` by default and with each "
            "method forced; CPU (user + system) of each whole process, runs past the limit given up. "
            "\"default: method\" is what the default chose, with the item order and its width. The bar: the "
            "default within 2x + 0.5 s of the best forced method. Over it this run: "
            f"{', '.join(bad) if bad else 'none'}.",
            "",
            *rows,
            "<!-- orders:end -->",
        ]
        replace_section(RESULTS, "orders", "\n".join(lines))


if __name__ == "__main__":
    main()
