"""A Sudoku on any regions: cells (any set: overlapping grids leave holes),
symbols 1..n, regions of n cells that each hold every symbol once, givens,
and killer cages (cells that hold distinct symbols with a given sum).

Rows, columns and boxes are regions like any other, so a jigsaw, an X
Sudoku, a windoku and the overlapping grids (samurai, butterfly, ...) are
region sets (`covering.puzzles.regions.layouts`). The exact cover problem:

- a primary item per cell (it holds one symbol), and per region and symbol
  (the region holds it once);
- an option per cell and symbol (the given one only, on a given cell),
  covering the cell and the cell's regions' items of that symbol;
- a killer cage is Knuth's way with colors: a primary item per cage, and
  an option per set of distinct symbols that meets its sum, which colors
  the cage's secondary item of each symbol 1 (in the set) or 0; a cell's
  option in the cage asks that item's color 1 and, where the cage's cells
  are not all in one region, takes the cage's "at most once" item of its
  symbol, so the cage's cells hold the set's symbols, each once.

>>> from covering.puzzles.regions.layouts import classic
>>> s = classic(4, "1..." "..1." "...." "...2")
>>> print(s.solve().text())
1324
2413
3241
4132
>>> s.check(s.solve()), s.uniqueness().name, classic(4).count()
([], 'MULTIPLE', 288)
"""

from __future__ import annotations

import functools
import random
from array import array
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ... import _core, limits, restart, sizes
from ...errors import LimitReached, ProblemError
from ...labels import Labels
from ...problem import Problem
from ..base import ExactCover

__all__ = ["Cell", "Cage", "RegionSudoku", "RegionSudokuError", "cell_name"]

Cell = tuple[int, int]  # (row, column), 0-based

#: The nodes a cell `RegionSudoku.random`'s runs in a random order may take
#: before a puzzle without cages is solved relabelled (the empty samurai
#: takes a few thousand nodes in all; the empty sumo, millions).
RANDOM_NODES_PER_CELL = 200


class RegionSudokuError(ProblemError):
    """A Sudoku on regions that cannot be: a region of the wrong size, a
    given outside the cells or clashing with another, a cage whose sum no
    filling reaches. The message names the cell as r1c1 (1-based), the
    region or the cage (numbered from 1, in the input's order)."""


def cell_name(cell: Cell) -> str:
    """A cell as a person reads it: ``r1c1`` is the top left.

    >>> cell_name((0, 4))
    'r1c5'
    """
    return f"r{cell[0] + 1}c{cell[1] + 1}"


@dataclass(frozen=True)
class Cage:
    """A killer cage: its cells hold distinct symbols summing to `total`."""

    cells: tuple[Cell, ...]
    total: int


@functools.lru_cache(maxsize=1024)
def fillings(size: int, total: int, n: int, must: tuple[int, ...] = ()) -> tuple[tuple[int, ...], ...]:
    """The sets of `size` distinct symbols of 1..`n` that sum to `total`
    and hold the symbols `must`, smallest first (kept: a puzzle's check and
    its encoding ask for the same ones). A branch whose sum cannot reach
    `total`, or passes it, is cut; sets past what memory holds as options
    are refused (`covering.sizes.SizeError`) as they are found.

    >>> fillings(2, 4, 9), fillings(3, 24, 9), fillings(2, 3, 9, must=(2,))
    (((1, 3),), ((7, 8, 9),), ((1, 2),))
    """
    need = set(must)
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def extend(low: int, left: int, rest: int) -> None:
        if left == 0:
            if rest == 0 and need <= set(chosen):
                found.append(tuple(chosen))
                if len(found) % 4096 == 0:
                    sizes.check(f"a cage of {size} cells summing to {total} ({len(found):,} fillings so far)",
                                _core.named_problem_bytes(len(found), len(found) * (n + 1)))
            return
        if left * n - left * (left - 1) // 2 < rest:
            return  # even the largest symbols fall short
        for v in range(low, n - left + 2):
            if v * left + left * (left - 1) // 2 > rest:
                break  # the smallest sets from here on pass the sum
            chosen.append(v)
            extend(v + 1, left - 1, rest - v)
            chosen.pop()

    extend(1, size, total)
    return tuple(found)


@dataclass(frozen=True, eq=False)
class RegionSudoku(ExactCover["RegionSudoku"]):
    """A Sudoku on any regions (see the module), on the puzzle protocol. A
    solution is the same puzzle with every cell given (`values`).

    Build one with `RegionSudoku.make` (which checks it) or a layout of
    `covering.puzzles.regions.layouts`.
    """

    symbols: int
    cells: tuple[Cell, ...]
    regions: tuple[tuple[Cell, ...], ...]
    givens: Mapping[Cell, int] = field(default_factory=dict)
    cages: tuple[Cage, ...] = ()

    @classmethod
    def make(cls, symbols: int, cells: Iterable[Cell], regions: Iterable[Iterable[Cell]],
             givens: Mapping[Cell, int] | Iterable[tuple[int, int, int]] = (),
             cages: Iterable[Cage | tuple[Iterable[Cell], int]] = ()) -> RegionSudoku:
        """A checked puzzle: `symbols` symbols (1..n), its `cells`, its
        `regions` (each of n cells, each symbol once; a region listed twice
        is kept once), `givens` (a mapping cell -> symbol, or (row, col,
        symbol) triples) and killer `cages` (cells and sum).

        >>> RegionSudoku.make(2, [(0, 0), (0, 1)], [[(0, 0), (0, 1)]], {(0, 0): 2}).solve().values
        {(0, 0): 2, (0, 1): 1}
        >>> RegionSudoku.make(2, [(0, 0), (0, 1)], [[(0, 0)]])
        Traceback (most recent call last):
        ...
        covering.puzzles.regions.model.RegionSudokuError: region 1 has 1 cells, not 2 (the number of symbols)
        """
        if isinstance(symbols, bool) or not isinstance(symbols, int) or not 1 <= symbols <= 1024:
            raise RegionSudokuError(f"the number of symbols must be an integer from 1 to 1024, not {symbols!r}")
        n = symbols
        cell_list = [_cell(c, "a cell") for c in cells]
        sizes.check_problem(f"a Sudoku of {len(cell_list)} cells and {n} symbols", len(cell_list) * n,
                            len(cell_list) * n * 4)
        seen: set[Cell] = set()
        for c in cell_list:
            if c in seen:
                raise RegionSudokuError(f"{cell_name(c)} is listed twice among the cells")
            seen.add(c)
        kept: list[tuple[Cell, ...]] = []
        known: set[frozenset[Cell]] = set()
        for k, region in enumerate(regions, 1):
            rc = tuple(_cell(c, f"region {k}") for c in region)
            if len(rc) != n:
                raise RegionSudokuError(f"region {k} has {len(rc)} cells, not {n} (the number of symbols)")
            if len(set(rc)) != n:
                twice = next(c for c in rc if rc.count(c) > 1)
                raise RegionSudokuError(f"region {k} lists {cell_name(twice)} twice")
            outside = [c for c in rc if c not in seen]
            if outside:
                raise RegionSudokuError(f"region {k}: {cell_name(outside[0])} is not a cell of the puzzle")
            if frozenset(rc) not in known:
                known.add(frozenset(rc))
                kept.append(rc)
        given: dict[Cell, int] = {}
        triples = givens.items() if isinstance(givens, Mapping) else ((_cell(g[:2], "a given"), g[2]) for g in givens)
        for c, v in triples:
            c = _cell(c, "a given")
            if c not in seen:
                raise RegionSudokuError(f"{cell_name(c)}: a given outside the cells of the puzzle")
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n:
                raise RegionSudokuError(f"{cell_name(c)}: a given must be a symbol from 1 to {n}, not {v!r}")
            if c in given and given[c] != v:
                raise RegionSudokuError(f"{cell_name(c)}: given twice, as {given[c]} and {v}")
            given[c] = v
        for k, region in enumerate(kept, 1):
            where: dict[int, Cell] = {}
            for c in region:
                v = given.get(c, 0)
                if v and v in where:
                    raise RegionSudokuError(f"{cell_name(c)}: {v} is already in {cell_name(where[v])}, "
                                            f"in the same region")
                where[v] = c
        made: list[Cage] = []
        for j, cage in enumerate(cages, 1):
            cage_cells, total = (cage.cells, cage.total) if isinstance(cage, Cage) else cage
            cc = tuple(_cell(c, f"cage {j}") for c in cage_cells)
            if not cc or len(set(cc)) != len(cc) or any(c not in seen for c in cc):
                raise RegionSudokuError(f"cage {j}: its cells must be distinct cells of the puzzle")
            if isinstance(total, bool) or not isinstance(total, int):
                raise RegionSudokuError(f"cage {j}: its sum must be an integer, not {total!r}")
            inside = tuple(given[c] for c in cc if c in given)
            try:
                ways = fillings(len(cc), total, n, inside) if len(inside) == len(set(inside)) else ()
            except sizes.SizeError as e:
                raise sizes.SizeError(f"cage {j}: {e}") from None
            if not ways:
                raise RegionSudokuError(f"cage {j} ({', '.join(map(cell_name, cc))}): no {len(cc)} distinct "
                                        f"symbols of 1..{n}{' with its givens' if inside else ''} sum to {total}")
            made.append(Cage(cc, total))
        return cls(n, tuple(cell_list), tuple(kept), given, tuple(made))

    # -- the exact cover problem --------------------------------------------

    def problem(self) -> Problem:
        """The exact cover problem (see the module), built once, in bulk;
        option labels are ``(row, col, symbol)`` for a cell and ``("cage",
        j, symbols)`` for a cage's filling. A symbol a given rules out (in
        one of the cell's regions) or that no filling of the cell's cage
        holds has no option.

        >>> from covering.puzzles.regions.layouts import classic
        >>> classic(4, "1" + "." * 15).problem().n_options  # 16 x 4, less 3 at the given, 1 in the 7 cells it sees
        54
        """
        return self._once(self._encode)

    def _encode(self) -> Problem:
        """`problem()`, built (see the module)."""
        n, cells = self.symbols, self.cells
        index = {c: i for i, c in enumerate(cells)}
        in_regions: list[list[int]] = [[] for _ in cells]
        for k, region in enumerate(self.regions):
            for c in region:
                in_regions[index[c]].append(k)
        in_cages: list[list[int]] = [[] for _ in cells]
        cage_fillings = []
        cages = [*self.cages, *self._innies()]
        for j, cage in enumerate(cages):
            for c in cage.cells:
                in_cages[index[c]].append(j)
            inside = tuple(self.givens[c] for c in cage.cells if c in self.givens)
            cage_fillings.append(fillings(len(cage.cells), cage.total, n, inside))
        # Symbols a given takes from its regions' other cells.
        taken: list[set[int]] = [set() for _ in self.regions]
        for c, v in self.givens.items():
            for k in in_regions[index[c]]:
                taken[k].add(v)
        cage_can = [set().union(*f) if f else set() for f in cage_fillings]
        n_cells, n_regions, n_cages = len(cells), len(self.regions), len(cages)
        # Items: cells, then region x symbol, then cages (primary); each
        # cage's symbol items "#" (colored), secondary, and "!" (at most
        # once) where the cage's cells are not all in one region (there the
        # region keeps them distinct already: the 45 rule's cages, most of
        # a killer's).
        region_item = n_cells
        cage_item = region_item + n_regions * n
        secondary = cage_item + n_cages
        region_sets = [frozenset(r) for r in self.regions]
        apart = [j for j, cage in enumerate(cages)
                 if not any(region_sets[k].issuperset(cage.cells) for k in in_regions[index[cage.cells[0]]])]
        bang = {j: secondary + n * (n_cages + m) for m, j in enumerate(apart)}
        start, item, color = [0], [], []
        labels: list[tuple[object, ...]] = []
        every = set(range(1, n + 1))
        for i, c in enumerate(cells):
            if c in self.givens:
                symbols: Iterable[int] = (self.givens[c],)
            else:
                can = every.difference(*(taken[k] for k in in_regions[i]))
                for j in in_cages[i]:
                    can &= cage_can[j]
                symbols = sorted(can)
            regions_of, cages_of = in_regions[i], in_cages[i]
            for v in symbols:
                row = [i, *(region_item + k * n + v - 1 for k in regions_of)]
                tint = [0] * len(row)
                for j in cages_of:
                    row.append(secondary + j * n + v - 1)
                    tint.append(2)  # (color 2 is "1": the symbol is in the cage's filling)
                    if j in bang:
                        row.append(bang[j] + v - 1)
                        tint.append(0)
                item += row
                color += tint
                start.append(len(item))
                labels.append((c[0], c[1], v))
        for j, options in enumerate(cage_fillings):
            base = secondary + j * n
            for filling in options:
                item.append(cage_item + j)
                item.extend(range(base, base + n))
                color.append(0)
                color.extend(2 if v in filling else 1 for v in range(1, n + 1))
                start.append(len(item))
                labels.append(("cage", j + 1, filling))
        # (Names unique by construction: built without the checks of a
        # problem read from a file.)
        names: list[Hashable] = [cell_name(c) for c in cells]
        names += [f"R{k + 1}#{v}" for k in range(n_regions) for v in range(1, n + 1)]
        names += [f"K{j + 1}" for j in range(n_cages)]
        n_primary = len(names)
        names += [f"K{j + 1}#{v}" for j in range(n_cages) for v in range(1, n + 1)]
        names += [f"K{j + 1}!{v}" for j in apart for v in range(1, n + 1)]
        sized = Labels()
        sized.extend(labels)
        problem = Problem.from_read(names, n_primary, [1] * n_primary, [1] * n_primary,
                                    ["0", "1"] if n_cages else [],
                                    (array("I", start), array("I", item), array("I", color if n_cages else ())),
                                    sized)
        # Bitsets take a node of these in a quarter of the dancing cells'
        # time (jigsaws, killers and overlapping grids alike: 140 ns a node
        # against 620 on killers, the same nodes), and the rows and
        # columns leave no order for the cells to spread (the engine's rule
        # picks the cells for that). (Past the bitsets' sizes: the cells.)
        problem.first_engine = "bits"
        return problem

    def random(self, limit: int | None = 1, /, *, seed: int | None = None, seconds: float | None = None,
               nodes: int | None = None, budget: limits.Budget | None = None) -> Iterator[RegionSudoku]:
        """Up to `limit` different solutions in a random order that `seed`
        fixes (the protocol's `random`). A random order can wander on a big
        layout (the empty sumo: seconds where the input order takes
        milliseconds), so the runs of the protocol's search get
        `RANDOM_NODES_PER_CELL` nodes a cell; past them, a puzzle without
        cages is solved with its symbols relabelled by a random permutation
        of the seed (a symmetry of every region), by the CDCL solver, and
        the solutions are relabelled back.

        >>> from covering.puzzles.regions.layouts import sumo
        >>> s = sumo()
        >>> one = next(s.random(seed=4))
        >>> s.check(one), one.values == next(s.random(seed=4)).values
        ([], True)
        """
        run = limits.begin(budget, nodes, seconds)
        first = random.randrange(2**63) if seed is None else limits.seed(seed)
        assert first is not None
        return self._random(limits.limit(limit), first, run)

    def _random(self, limit: int | None, first: int, run: limits.Budget) -> Iterator[RegionSudoku]:
        """`random` (see there)."""
        stage = restart.Restarts(self.problem().compile(), seed=first, stay=True)
        cap = RANDOM_NODES_PER_CELL * len(self.cells)
        mine = self.cages or (run.nodes is not None and run.nodes <= cap)
        try:
            for ids in stage(limit, run if mine else run.capped(cap)):
                yield self.decode(ids)
            return
        except LimitReached as e:
            if mine or e.budget != "nodes":
                raise
        if stage.found:  # the run that found one goes on, without the cap
            for ids in stage(limit, run.capped(run.nodes)):
                yield self.decode(ids)
            return
        order = list(range(1, self.symbols + 1))
        random.Random(first).shuffle(order)
        to = dict(zip(range(1, self.symbols + 1), order))
        back = {w: v for v, w in to.items()}
        relabelled = RegionSudoku(self.symbols, self.cells, self.regions,
                                  {c: to[v] for c, v in self.givens.items()})
        # (The CDCL solver: dancing links in the input order wander too.)
        for ids in relabelled.problem().solutions(limit, ids=True, engine="sat", budget=run):
            found = relabelled.decode(ids).values
            yield RegionSudoku(self.symbols, self.cells, self.regions, {c: back[v] for c, v in found.items()},
                               self.cages)

    def _innies(self) -> list[Cage]:
        """Cages the rules imply (the killer solver's "45 rule"): a region
        holds 1..n, so the cells of a region outside the cages wholly in it
        sum to n(n+1)/2 less those cages' sums, and hold distinct symbols
        (they share the region). Written as cages, they cut the search the
        way a person's first step does. Kept: those of at most half a
        region's cells that are not a cage already; a region whose cages
        overlap gives none.

        >>> from covering.puzzles.regions.layouts import killer
        >>> k = killer(["a3 a b7 b", "c7 c d3 d", "e3 e . .", "g7 g h3 h"], n=4)
        >>> [(c.cells, c.total) for c in k._innies()]
        [(((2, 2), (2, 3)), 7)]
        """
        if not self.cages:
            return []
        n = self.symbols
        holding: dict[Cell, list[int]] = {}
        for j, cage in enumerate(self.cages):
            for c in cage.cells:
                holding.setdefault(c, []).append(j)
        known = {frozenset(cage.cells) for cage in self.cages}
        found: list[Cage] = []
        for region in self.regions:
            within = set(region)
            inside = {j for c in region for j in holding.get(c, ()) if within.issuperset(self.cages[j].cells)}
            covered = [c for j in inside for c in self.cages[j].cells]
            if len(covered) != len(set(covered)):
                continue
            rest = tuple(c for c in region if c not in set(covered))
            if 0 < len(rest) <= n // 2 and frozenset(rest) not in known:
                known.add(frozenset(rest))
                found.append(Cage(rest, n * (n + 1) // 2 - sum(self.cages[j].total for j in inside)))
        return found

    def decode(self, ids: Sequence[int]) -> RegionSudoku:
        """The solved puzzle from option ids of `problem()`.

        >>> s = RegionSudoku.make(1, [(0, 0)], [[(0, 0)]])
        >>> s.decode([0]).values
        {(0, 0): 1}
        """
        labels = self.problem().labels
        values = {(lab[0], lab[1]): lab[2] for lab in (labels[o] for o in ids) if lab[0] != "cage"}
        return RegionSudoku(self.symbols, self.cells, self.regions, values, self.cages)

    @property
    def values(self) -> dict[Cell, int]:
        """The symbol of each given cell (of every cell, in a solution), in
        the order of `cells`.

        >>> RegionSudoku.make(2, [(0, 1), (0, 0)], [], {(0, 0): 2, (0, 1): 1}).values
        {(0, 1): 1, (0, 0): 2}
        """
        return {c: self.givens[c] for c in self.cells if c in self.givens}

    # -- rules and pictures --------------------------------------------------

    def check(self, solution: object, /) -> list[str]:
        """The rules `solution` (a solved `RegionSudoku`) breaks, read from
        the puzzle itself: every cell holds a symbol of 1..n, the givens
        are kept, each region holds each symbol once, each cage holds
        distinct symbols summing to its total.

        >>> from covering.puzzles.regions.layouts import classic
        >>> s = classic(4, "1..." "..1." "...." "...2")
        >>> s.check(s.solve()), s.check(s)[:1]
        ([], ['r1c2: empty'])
        """
        if not isinstance(solution, RegionSudoku) or solution.cells != self.cells:
            return ["a solution is this puzzle with every cell filled"]
        n, v = self.symbols, solution.givens
        broken = [f"{cell_name(c)}: empty" for c in self.cells if c not in v]
        broken += [f"{cell_name(c)}: {v[c]} is not a symbol of 1..{n}" for c in self.cells
                   if c in v and not 1 <= v[c] <= n]
        broken += [f"{cell_name(c)}: the given {g} is not kept" for c, g in self.givens.items() if v.get(c) != g]
        for k, region in enumerate(self.regions, 1):
            held = [v[c] for c in region if c in v]
            if len(set(held)) != len(held):
                broken.append(f"region {k}: a symbol twice")
        for j, cage in enumerate(self.cages, 1):
            held = [v[c] for c in cage.cells if c in v]
            if len(set(held)) != len(held):
                broken.append(f"cage {j}: a symbol twice")
            elif len(held) == len(cage.cells) and sum(held) != cage.total:
                broken.append(f"cage {j}: sums to {sum(held)}, not {cage.total}")
        return broken

    def _box(self) -> tuple[int, int, int, int]:
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        return min(rows), max(rows), min(cols), max(cols)

    def text(self) -> str:
        """The grid of the cells (rows of their bounding box): each given
        symbol (past 9: letters A, B, ...), ``-`` an empty cell, ``.`` where
        there is no cell.

        >>> from covering.puzzles.regions.layouts import classic
        >>> print(classic(4, "12.." + "." * 12).text())
        12--
        ----
        ----
        ----
        """
        r0, r1, c0, c1 = self._box()
        cells = set(self.cells)
        return "\n".join("".join(_symbol(self.givens[(r, c)]) if (r, c) in self.givens else
                                 "-" if (r, c) in cells else "." for c in range(c0, c1 + 1))
                         for r in range(r0, r1 + 1))

    def draw(self, solution: object, /) -> str:
        """A solution as text (`text` of the solved puzzle).

        >>> s = RegionSudoku.make(2, [(0, 0), (0, 1)], [[(0, 0), (0, 1)]], {(0, 0): 2})
        >>> s.draw(s.solve())
        '21'
        """
        return solution.text() if isinstance(solution, RegionSudoku) else str(solution)

    def svg(self, cell: int = 28, solution: RegionSudoku | None = None) -> str:
        """The grid as SVG: each cell, thick lines round the regions that
        are not lines (boxes, a jigsaw's shapes), killer cages dashed with
        their sums in their first cell, the givens in black, and with a
        `solution` the cells it fills in blue.

        >>> from covering.puzzles.regions.layouts import killer, x
        >>> x().svg().count("<rect"), x().svg().startswith("<svg")
        (81, True)
        >>> k = killer(["a3 a b7 b", "c7 c d3 d", "e3 e f7 f", "g7 g h3 h"], "1" + "-" * 15, 4)
        >>> picture = k.svg(solution=k.solve())
        >>> # 15 cells filled in; 16 cells of 2-cell cages, 3 dashed sides each
        >>> picture.count('fill="#1f5fbf"'), picture.count('stroke-dasharray')
        (15, 48)
        """
        r0, r1, c0, c1 = self._box()
        owner: dict[Cell, int] = {}
        for k, region in enumerate(self.regions):
            if _is_line(region):
                continue  # (rows, columns and diagonals draw no borders)
            for member in region:
                # The region that draws the borders: the last listed that is
                # not a line (the boxes of a layout, a jigsaw's own regions).
                owner[member] = k
        cage_of = {c: j for j, cage in enumerate(self.cages) for c in cage.cells}
        filled = {} if solution is None else solution.givens
        sides = (((0, 1), (1, 0, 1, 1)), ((1, 0), (0, 1, 1, 1)), ((0, -1), (0, 0, 0, 1)), ((-1, 0), (0, 0, 1, 0)))
        parts = []
        for r, c in self.cells:
            x, y = (c - c0) * cell, (r - r0) * cell
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="white" stroke="#999"/>')
            for (dr, dc), (a, b, e, f) in sides:
                other = (r + dr, c + dc)
                if owner.get(other) != owner.get((r, c)):
                    parts.append(f'<line x1="{x + a * cell}" y1="{y + b * cell}" x2="{x + e * cell}" '
                                 f'y2="{y + f * cell}" stroke="black" stroke-width="2.5"/>')
                if (r, c) in cage_of and cage_of.get(other) != cage_of[(r, c)]:
                    # A cage's border, inset so that it shows inside the region's.
                    inset = 3
                    x1, y1 = x + a * cell + (inset if a == 0 else -inset), y + b * cell + (inset if b == 0 else -inset)
                    x2, y2 = x + e * cell + (inset if e == 0 else -inset), y + f * cell + (inset if f == 0 else -inset)
                    parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555" '
                                 f'stroke-width="1" stroke-dasharray="3,2"/>')
            value, style = self.givens.get((r, c)), 'fill="black" font-weight="bold"'
            if value is None and (r, c) in filled:
                value, style = filled[(r, c)], 'fill="#1f5fbf"'
            if value is not None:
                parts.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.75}" font-size="{cell * 0.55:.0f}" '
                             f'text-anchor="middle" {style}>{_symbol(value)}</text>')
        for cage in self.cages:
            top, left = min(cage.cells)
            x, y = (left - c0) * cell, (top - r0) * cell
            parts.append(f'<text x="{x + 4}" y="{y + cell * 0.33}" font-size="{cell * 0.26:.0f}">{cage.total}</text>')
        w, h = (c1 - c0 + 1) * cell, (r1 - r0 + 1) * cell
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="-2 -2 {w + 4} {h + 4}" '
                f'font-family="sans-serif">' + "".join(parts) + "</svg>")

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        """The givens as (row, col, symbol), in the order of `cells`."""
        return ((r, c, self.givens[(r, c)]) for r, c in self.cells if (r, c) in self.givens)


def _is_line(region: Sequence[Cell]) -> bool:
    """Is `region` a row, a column or a diagonal?"""
    rows, cols = {r for r, _ in region}, {c for _, c in region}
    diagonal = len({r - c for r, c in region}) == 1 or len({r + c for r, c in region}) == 1
    return len(rows) == 1 or len(cols) == 1 or diagonal


def _symbol(v: int) -> str:
    return str(v) if v <= 9 else chr(ord("A") + v - 10) if v <= 35 else f"({v})"


def _cell(value: object, where: str) -> Cell:
    """A cell from a pair of integers >= 0, or a clear error naming `where`."""
    # (type() is: a bool is no cell coordinate; every cell of a batch passes here.)
    if type(value) in (tuple, list) and len(value) == 2:  # type: ignore[arg-type]
        r: object = value[0]  # type: ignore[index]
        c: object = value[1]  # type: ignore[index]
        if type(r) is int and type(c) is int and 0 <= r < 2**31 and 0 <= c < 2**31:
            return (r, c)
    raise RegionSudokuError(f"{where}: a cell is [row, col], two integers from 0, not {value!r}")
