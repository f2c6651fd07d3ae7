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
  option in the cage asks that item's color 1 and takes the cage's
  "at most once" item of its symbol, so the cage's cells hold the set's
  symbols, each once.

>>> from covering.puzzles.regions.layouts import classic
>>> s = classic(4, "1..." "..1." "...." "...2")
>>> print(s.solve().text())
1423
2314
4231
3142
>>> s.check(s.solve()), s.uniqueness().name, classic(4).count()
([], 'MULTIPLE', 288)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ... import _core, sizes
from ...errors import ProblemError
from ...problem import Problem
from ..base import ExactCover

__all__ = ["Cell", "Cage", "RegionSudoku", "RegionSudokuError", "cell_name"]

Cell = tuple[int, int]  # (row, column), 0-based


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
        for j, cage in enumerate(self.cages):
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
        n_cells, n_regions, n_cages = len(cells), len(self.regions), len(self.cages)
        # Items: cells, then region x symbol, then cages (primary); each
        # cage's symbol items "#" (colored) and "!" (at most once), secondary.
        region_item = n_cells
        cage_item = region_item + n_regions * n
        secondary = cage_item + n_cages
        start, item, color = [0], [], []
        labels: list[tuple[object, ...]] = []
        for i, c in enumerate(cells):
            for v in ([self.givens[c]] if c in self.givens else range(1, n + 1)):
                if c not in self.givens and (any(v in taken[k] for k in in_regions[i])
                                             or any(v not in cage_can[j] for j in in_cages[i])):
                    continue
                item.append(i)
                color.append(0)
                for k in in_regions[i]:
                    item.append(region_item + k * n + v - 1)
                    color.append(0)
                for j in in_cages[i]:
                    item += [secondary + (2 * j) * n + v - 1, secondary + (2 * j + 1) * n + v - 1]
                    color += [2, 0]  # (color 2 is "1": the symbol is in the cage's filling)
                start.append(len(item))
                labels.append((c[0], c[1], v))
        for j, options in enumerate(cage_fillings):
            for filling in options:
                chosen = set(filling)
                item.append(cage_item + j)
                color.append(0)
                for v in range(1, n + 1):
                    item.append(secondary + (2 * j) * n + v - 1)
                    color.append(2 if v in chosen else 1)
                start.append(len(item))
                labels.append(("cage", j + 1, filling))
        primary = ([cell_name(c) for c in cells] + [f"R{k + 1}#{v}" for k in range(n_regions) for v in range(1, n + 1)]
                   + [f"K{j + 1}" for j in range(n_cages)])
        second = [f"K{j + 1}{kind}{v}" for j in range(n_cages) for kind in "#!" for v in range(1, n + 1)]
        return Problem.from_arrays(primary, start, item, color if n_cages else None, secondary=second,
                                   labels=labels, colors=["0", "1"] if n_cages else None)

    def decode(self, ids: Sequence[int]) -> RegionSudoku:
        """The solved puzzle from option ids of `problem()`."""
        labels = self.problem().labels
        values = {(lab[0], lab[1]): lab[2] for lab in (labels[o] for o in ids) if lab[0] != "cage"}
        return RegionSudoku(self.symbols, self.cells, self.regions, values, self.cages)

    @property
    def values(self) -> dict[Cell, int]:
        """The symbol of each given cell (of every cell, in a solution), in
        the order of `cells`."""
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
        """A solution as text (`text` of the solved puzzle)."""
        return solution.text() if isinstance(solution, RegionSudoku) else str(solution)

    def svg(self, cell: int = 28) -> str:
        """The grid as SVG: each cell, thick lines round the regions that
        are not lines (boxes, a jigsaw's shapes), cage sums in their first
        cell, givens.

        >>> from covering.puzzles.regions.layouts import x
        >>> x().svg().count("<rect"), x().svg().startswith("<svg")
        (81, True)
        """
        r0, _, c0, _ = self._box()
        owner: dict[Cell, int] = {}
        for k, region in enumerate(self.regions):
            if _is_line(region):
                continue  # (rows, columns and diagonals draw no borders)
            for member in region:
                # The region that draws the borders: the last listed that is
                # not a line (the boxes of a layout, a jigsaw's own regions).
                owner[member] = k
        parts = []
        for r, c in self.cells:
            x, y = (c - c0) * cell, (r - r0) * cell
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="white" stroke="#999"/>')
            for (dr, dc), (x1, y1, x2, y2) in (((0, 1), (x + cell, y, x + cell, y + cell)),
                                                ((1, 0), (x, y + cell, x + cell, y + cell)),
                                                ((0, -1), (x, y, x, y + cell)), ((-1, 0), (x, y, x + cell, y))):
                other = (r + dr, c + dc)
                if owner.get(other) != owner.get((r, c)):
                    parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" stroke-width="2.5"/>')
            if (r, c) in self.givens:
                parts.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.7}" font-size="{cell * 0.6:.0f}" '
                             f'text-anchor="middle">{_symbol(self.givens[(r, c)])}</text>')
        for cage in self.cages:
            top, left = min(cage.cells)
            x, y = (left - c0) * cell, (top - r0) * cell
            parts.append(f'<text x="{x + 2}" y="{y + cell * 0.3}" font-size="{cell * 0.28:.0f}">{cage.total}</text>')
        r0_, r1, c0_, c1 = self._box()
        w, h = (c1 - c0_ + 1) * cell, (r1 - r0_ + 1) * cell
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="-2 -2 {w + 4} {h + 4}">'
                + "".join(parts) + "</svg>")

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
    if (isinstance(value, (tuple, list)) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**31 for x in value)):
        return (int(value[0]), int(value[1]))
    raise RegionSudokuError(f"{where}: a cell is [row, col], two integers from 0, not {value!r}")
