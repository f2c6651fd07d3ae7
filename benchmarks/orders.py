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


def graph_paths(n: int, extra: int, longest: int, rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """The vertices and edges of a random sparse graph (a random tree and
    `extra` more edges) as items, and as options every item alone and every
    simple path of 2 to `longest` vertices, as its vertices and edges: the
    kind of the Rome graph covers of the DXD artifact (whose files hold
    paths of graphs of about 100 vertices this way)."""
    edges: dict[tuple[int, int], None] = {}
    for v in range(1, n):
        edges[(rng.randrange(v), v)] = None
    while extra:
        a, b = sorted(rng.sample(range(n), 2))
        if (a, b) not in edges:
            edges[(a, b)] = None
            extra -= 1
    adj: dict[int, list[int]] = {v: [] for v in range(n)}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    edge = lambda a, b: f"e{min(a, b)}.{max(a, b)}"  # noqa: E731
    paths: list[list[str]] = []

    def walk(path: list[int]) -> None:
        if len(path) > 1 and path[0] < path[-1]:
            paths.append([f"v{x}" for x in path] + [edge(a, b) for a, b in zip(path, path[1:])])
        if len(path) < longest:
            for w in adj[path[-1]]:
                if w not in path:
                    walk(path + [w])

    for v in range(n):
        walk([v])
    items = [f"v{v}" for v in range(n)] + [edge(a, b) for a, b in edges]
    return items, [[i] for i in items] + paths


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


def aztec(n: int) -> tuple[list[str], list[list[str]]]:
    """Domino tilings of the Aztec diamond of order n: 2^(n(n+1)/2) (Elkies,
    Kuperberg, Larsen and Propp)."""
    cells = [(x, y) for x in range(-n, n) for y in range(-n, n) if abs(x + 0.5) + abs(y + 0.5) <= n]
    return region(cells)


def region(cells: list[tuple[int, int]]) -> tuple[list[str], list[list[str]]]:
    """Domino tilings of a region of the square grid."""
    on = set(cells)
    name = lambda c: f"{c[0]}.{c[1]}"  # noqa: E731
    opts = [[name((x, y)), name((x + dx, y + dy))] for x, y in cells for dx, dy in ((1, 0), (0, 1))
            if (x + dx, y + dy) in on]
    return [name(c) for c in cells], opts


def odd_region(n: int, rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """Domino tilings of a random region of about n x n cells, holes and
    all: dominoes dropped along a random walk wherever both cells are free
    (so one tiling at least; no closed form: the count is checked by two
    methods)."""
    cells: set[tuple[int, int]] = set()
    at = (0, 0)
    while len(cells) < n * n:
        dx, dy = rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
        at = (max(-n, min(n, at[0] + dx)), max(-n, min(n, at[1] + dy)))
        other = (at[0] + rng.choice((0, 1)), at[1])
        other = other if other != at else (at[0], at[1] + 1)
        if at not in cells and other not in cells:
            cells |= {at, other}
    return region(sorted(cells))


def macmahon(a: int, b: int, c: int) -> int:
    """Plane partitions in an a x b x c box: the lozenge tilings of the
    hexagon of sides a, b, c (MacMahon)."""
    num = den = 1
    for i, j, k in itertools.product(range(1, a + 1), range(1, b + 1), range(1, c + 1)):
        num *= i + j + k - 1
        den *= i + j + k - 2
    return num // den


def hexagon(a: int, b: int, c: int) -> tuple[list[str], list[list[str]]]:
    """Lozenge tilings of the hexagon of sides a, b, c, a, b, c: the unit
    triangles inside it are items, the pairs sharing a side options."""
    inside = lambda x, y: 0 <= x <= a + c and 0 <= y <= b + c and -b <= x - y <= a  # noqa: E731
    tris = set()
    for x, y in itertools.product(range(-1, a + c + 2), range(-1, b + c + 2)):
        for t, corners in (("u", ((x, y), (x + 1, y), (x + 1, y + 1))), ("d", ((x, y), (x, y + 1), (x + 1, y + 1)))):
            if all(inside(*q) for q in corners):
                tris.add((x, y, t))
    name = lambda t: f"{t[2]}{t[0]}.{t[1]}"  # noqa: E731
    opts = [[name((x, y, "u")), name(o)] for x, y, t in sorted(tris) if t == "u"
            for o in ((x, y, "d"), (x + 1, y, "d"), (x, y - 1, "d")) if o in tris]
    return [name(t) for t in sorted(tris)], opts


def hypercube(d: int) -> tuple[list[str], list[list[str]]]:
    """Perfect matchings of the d-cube (OEIS A045310)."""
    return ([f"v{v}" for v in range(2 ** d)],
            [[f"v{v}", f"v{v ^ 1 << k}"] for v in range(2 ** d) for k in range(d) if v < v ^ 1 << k])


def langford(n: int) -> tuple[list[str], list[list[str]]]:
    """Langford pairings of 1..n: k's two copies k + 1 places apart (each
    pairing and its mirror: twice OEIS A014552)."""
    items = [f"n{k}" for k in range(1, n + 1)] + [f"s{i}" for i in range(2 * n)]
    opts = [[f"n{k}", f"s{i}", f"s{i + k + 1}"] for k in range(1, n + 1) for i in range(2 * n - k - 1)]
    return items, opts


def latin(n: int) -> tuple[list[str], list[list[str]]]:
    """Latin squares of order n (OEIS A002860): a cell, a symbol in a row and
    in a column, for each symbol put in each cell."""
    items = [f"{k}{a}.{b}" for k in ("cell", "row", "col") for a in range(n) for b in range(n)]
    opts = [[f"cell{r}.{c}", f"row{r}.{s}", f"col{c}.{s}"] for r in range(n) for c in range(n) for s in range(n)]
    return items, opts


#: The count each class's instance must have, where it has a closed form or an OEIS term.
KNOWN = {
    "aztec 10": 2 ** 55, "aztec 16": 2 ** 136, "aztec 30": 2 ** 465,
    "hexagon 6,6,6": macmahon(6, 6, 6), "hexagon 8,8,9": macmahon(8, 8, 9),
    "hypercube 5": 589185, "hypercube 6": 16332454526976,
    "langford 11": 2 * 17792, "langford 12": 2 * 108144,
    "latin 5": 161280, "latin 6": 812851200,
}


def plain(primary: list[str], options: list[list[str]]) -> str:
    """A .dlx text of `options` over `primary` as the generator made them."""
    return "\n".join([" ".join(primary)] + [" ".join(o) for o in options]) + "\n"


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
    for n, extra, longest in [(40, 8, 4), (50, 10, 4), (60, 14, 4), (45, 10, 5)]:
        yield f"graph paths {n}+{extra} <={longest}", scrambled(*graph_paths(n, extra, longest, rng), rng)
    for n in (10, 12, 14):
        yield f"set partitions {n}", scrambled(*bell(n), rng)
    yield "steiner triples 9", scrambled(*steiner_triples(9), rng)
    yield "steiner quadruples 10", scrambled(*steiner_quadruples(10), rng)
    for n in (10, 12, 13):
        primary, opts, secondary = queens(n)
        yield f"queens {n}", scrambled(primary, opts, rng, secondary)
    # The classes of issue 59, each as generated and shuffled.
    made = [(f"aztec {n}", aztec(n)) for n in (10, 16, 30)]
    made += [("dominoes 40x40", dominoes(40, 40))]
    made += [(f"odd region {n}", odd_region(n, rng)) for n in (12, 24)]
    made += [(f"hexagon {a},{b},{c}", hexagon(a, b, c)) for a, b, c in ((6, 6, 6), (8, 8, 9))]
    made += [(f"hypercube {d}", hypercube(d)) for d in (5, 6)]
    made += [(f"langford {n}", langford(n)) for n in (11, 12)]
    made += [(f"latin {n}", latin(n)) for n in (5, 6)]
    for name, (primary, opts) in made:
        yield f"{name} (as made)", plain(primary, opts)
        yield f"{name} (shuffled)", scrambled(primary, opts, rng)


METHODS = ("default", "kasteleyn", "frontier", "memo", "memo first", "search")


def count(path: str, method: str, limit: float) -> tuple[int | None, str, float]:
    """(count or None past the limit, what the default chose, CPU seconds) of one process."""
    flags = [] if method == "default" else ["--method", "memo", "--branching", "first"] if method == "memo first" \
        else ["--method", method]
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
    rows = ["| instance | count | default: method | default | kasteleyn | frontier | memo | memo first | search | "
            "default / best |",
            "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
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
            known = KNOWN.get(name.split(" (")[0])
            assert known is None or counts <= {known}, f"{name}: {counts}, where {known} is known"
            best = min(cpu for c, _, cpu in (got[m] for m in METHODS[1:]) if c is not None) if any(
                got[m][0] is not None for m in METHODS[1:]) else None
            default = got["default"]
            ratio = "-" if best is None or default[0] is None else f"{default[2] / best:.2f}"
            if best is not None and (default[0] is None or default[2] > 2 * best + 0.5):
                bad.append(name)
            cell = lambda m: cpu_cell(got[m], args.limit)  # noqa: E731
            row = (f"| {name} | {next(iter(counts), '-')} | {default[1]} | {cell('default')} | {cell('kasteleyn')} | "
                   f"{cell('frontier')} | "
                   f"{cell('memo')} | {cell('memo first')} | {cell('search')} | {ratio} |")
            print(row, flush=True)
            rows.append(row)
    print("over 2x + 0.5 s of the best forced method:", bad or "none")
    if not args.no_write:
        lines = [
            "<!-- orders:begin -->",
            "## Counting in any item order: the default against each method forced",
            "",
            f"`python benchmarks/orders.py --limit {args.limit:.0f} --seed {args.seed}` ({time.strftime('%Y-%m-%d')}): "
            "instances of the classes made by generators here (the newer ones as made and with their items "
            "and options listed in a random order; the others shuffled), each counted by `covering dlx FILE --count --json --threads 1` by default and with each "
            "method forced (the memo by each of its rules); CPU (user + system) of each whole process, runs past the limit given up. "
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
