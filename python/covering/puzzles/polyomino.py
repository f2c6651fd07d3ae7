"""Polyomino tilings: L-tromino boards less a cell, and any pieces on any board.

Shapes and boards are small ASCII pictures: any character other than a
space or ``.`` is a cell, so a board may have holes.

>>> board = Board.from_picture('''
... ########
... ########
... ########
... ###..###
... ###..###
... ########
... ########
... ########
... ''')
>>> p = tiling(PENTOMINOES, board)
>>> p.count()
520
>>> l_tromino(6).count()
162
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union

from .. import limits, sizes, textio
from ..errors import Interrupted, LimitReached, ProblemError
from ..limits import Budget, begin
from ..mincost import Best
from ..problem import Problem
from ..solver import Solver
from ..uniqueness import Uniqueness
from .base import ExactCover
from ..render import svg as svg_render
from ..render import text as text_render
from . import shapes
from .shapes import DOMINOES, PENTOMINOES, TETROMINOES, TROMINOES, Board, Cell, Shape, polyominoes
from .symmetry import Placement, Plan, SymmetryError, Transform, board_symmetries, canonical, plan

__all__ = [
    "Shape",
    "Board",
    "Tiling",
    "TilingPuzzle",
    "drawn",
    "area_reason",
    "tiling",
    "tilings",
    "count_tilings",
    "first_tiling",
    "cheapest_tilings",
    "l_tromino",
    "area_mismatch",
    "polyominoes",
    "DOMINOES",
    "TROMINOES",
    "TETROMINOES",
    "PENTOMINOES",
    "HEXOMINOES",
]

def cell_name(cell: Cell) -> str:
    """The item name of a cell: ``"r,c"``."""
    return f"{cell[0]},{cell[1]}"


Uses = Union[Literal["once", "any"], int, tuple[int, int]]


def _group(board: Board, pieces: Mapping[str, Shape], rotations: bool, reflections: bool) -> list[Transform]:
    """The board's symmetries that map every piece's allowed orientations onto
    allowed orientations (without reflections, a mirrored tiling is no tiling)."""
    out = []
    for g in board_symmetries(board.cells):
        ok = True
        for shape in pieces.values():
            allowed = set(shape.orientations(rotations, reflections))
            if any(Shape.of(g(c) for c in o.cells) not in allowed for o in allowed):
                ok = False
                break
        if ok:
            out.append(g)
    return out


def _bounds(pieces: Mapping[str, Shape], uses: Uses | Mapping[str, Uses]) -> dict[str, tuple[int, int] | None]:
    """(lo, hi) of each piece, or None for "any number of times"."""
    out: dict[str, tuple[int, int] | None] = {}
    for name in pieces:
        u = uses[name] if isinstance(uses, Mapping) else uses
        if u == "any":
            out[name] = None
        elif u == "once":
            out[name] = (1, 1)
        elif isinstance(u, int):
            out[name] = (u, u)
        else:
            out[name] = (u[0], u[1])
    return out


def area_mismatch(pieces: Mapping[str, Shape], board: Board | int, uses: Uses | Mapping[str, Uses] = "once") -> str | None:
    """Why the pieces cannot cover the board, said from the areas alone
    (nothing is built; `board` may be just its number of cells); None when
    the areas allow it. With bounds on the
    uses, the area must lie between the least and the most the pieces
    cover; with "any", it must be a multiple of the gcd of the piece sizes.

    >>> area_mismatch(PENTOMINOES, Board.rectangle(8, 8))
    'the pieces cover 60 cells, the board has 64'
    >>> area_mismatch(TROMINOES, Board.rectangle(2, 4), uses="any")
    'every piece has a multiple of 3 cells, the board has 8'
    """
    area = board if isinstance(board, int) else len(board.cells)
    return area_reason({name: len(shape) for name, shape in pieces.items()}, _bounds(pieces, uses), area)


def area_reason(sizes: Mapping[str, int], bounds: Mapping[str, tuple[int, int] | None], area: int) -> str | None:
    """`area_mismatch` from the pieces' sizes and (lo, hi) uses (None: any
    number of times), on any lattice: the tilings of every lattice say it
    in the same words.

    >>> area_reason({"a": 2, "b": 3}, {"a": (1, 1), "b": None}, 6), area_reason({"a": 2}, {"a": (0, 2)}, 5)
    ('every piece has a multiple of 3 cells, the board has 6', 'the pieces cover 0 to 4 cells, the board has 5')
    """
    least = sum(sizes[name] * b[0] for name, b in bounds.items() if b is not None)
    unbounded = [sizes[name] for name, b in bounds.items() if b is None]
    if unbounded:
        g = math.gcd(*unbounded, *(sizes[n] for n, b in bounds.items() if b is not None and b[1] > b[0]))
        if (area - least) % g or area < least:
            if area < least:
                return f"the pieces cover at least {least} cells, the board has {area}"
            return f"every piece has a multiple of {g} cells, the board has {area}"
        return None
    most = sum(sizes[name] * b[1] for name, b in bounds.items() if b is not None)
    if not least <= area <= most:
        if least == most:
            return f"the pieces cover {least} cells, the board has {area}"
        return f"the pieces cover {least} to {most} cells, the board has {area}"
    return None


def _placements(
    pieces: Mapping[str, Shape], board: Board, bounds: Mapping[str, tuple[int, int] | None], rotations: bool, reflections: bool
) -> dict[str, list[Placement]]:
    # At most one placement per orientation and cell of the board's box.
    box = board.rows * board.cols
    options = entries = 0
    for name, shape in pieces.items():
        k = len(shape.orientations(rotations, reflections)) * box
        options += k
        entries += k * (len(shape) + 1)
    sizes.check_problem(f"tiling a board of {len(board.cells)} cells", options, entries)
    board_cells = set(board.cells)
    placements: dict[str, list[Placement]] = {}
    for name, shape in pieces.items():
        b = bounds[name]
        placements[name] = []
        if b is not None and b[1] == 0:
            continue  # a piece that may not be used has no placement
        for o in shape.orientations(rotations, reflections):
            height = max(r for r, _ in o.cells)
            width = max(c for _, c in o.cells)
            for r in range(board.rows - height):
                for c in range(board.cols - width):
                    placed = frozenset((r + a, c + d) for a, d in o.cells)
                    if placed <= board_cells:
                        placements[name].append((name, placed))
    return placements


def _problem(
    board: Board,
    bounds: Mapping[str, tuple[int, int] | None],
    placements: Mapping[str, list[Placement]],
    dropped: set[Placement],
    extra: Mapping[Placement, list[str]],
) -> Problem:
    primary: list[str] = [cell_name(c) for c in board.cells]
    piece_bounds = [(name, b) for name, b in bounds.items() if b is not None and b[1] > 0]
    primary += [name for name, _ in piece_bounds]
    secondary = sorted({item for items in extra.values() for item in items})
    number = {name: k for k, name in enumerate(primary + secondary)}
    cell_number = {c: number[cell_name(c)] for c in board.cells}
    # Built in bulk (`Problem.from_arrays`): numbers, not names, per option.
    start, item, labels = [0], [], []
    for name, xs in placements.items():
        piece_item = [number[name]] if bounds[name] is not None else []
        for x in xs:
            if x not in dropped:
                cells = tuple(sorted(x[1]))
                item += piece_item
                item += [cell_number[c] for c in cells]
                item += [number[e] for e in extra.get(x, ())]
                start.append(len(item))
                labels.append((name, cells))
    all_bounds = [(1, 1)] * len(board.cells) + [b for _, b in piece_bounds]
    return Problem.from_arrays(primary, start, item, secondary=secondary, bounds=all_bounds, labels=labels)


class _Tilings:
    """A tiling problem and its symmetry plan (see `covering.puzzles.symmetry`)."""

    def __init__(
        self,
        pieces: Mapping[str, Shape],
        board: Board,
        uses: Uses | Mapping[str, Uses],
        rotations: bool,
        reflections: bool,
        symmetry: bool,
    ) -> None:
        self.bounds = _bounds(pieces, uses)
        self.placements = _placements(pieces, board, self.bounds, rotations, reflections)
        if symmetry:
            group = _group(board, pieces, rotations, reflections)
            once = [name for name in pieces if self.bounds[name] == (1, 1)]
            self.plan = plan(self.placements, group, once)
        else:
            self.plan = Plan()
        filtered = {r for r, _ in self.plan.filtered if r is not None}
        if any(r is None for r, _ in self.plan.filtered):
            self.main: Problem | None = None  # every tiling is filtered
        else:
            self.main = _problem(board, self.bounds, self.placements, self.plan.dropped | filtered, self.plan.extra)
        self.board = board
        self._full: Problem | None = None

    def full(self) -> Problem:
        """The problem with the filtered placements kept (for the filtered tilings)."""
        if self._full is None:
            self._full = _problem(self.board, self.bounds, self.placements, self.plan.dropped, self.plan.extra)
        return self._full

    def _filtered_solvers(self, memory: int | None) -> Iterator[tuple[Solver, list[Transform]]]:
        for r, group in self.plan.filtered:
            problem = self.full()
            solver = problem.solver(memory=memory)
            if r is not None:
                solver.force(problem.labels.index((r[0], tuple(sorted(r[1])))))
            yield solver, group

    def filtered(self, budget: Budget | None = None) -> Iterator[list[Label]]:
        """The filtered tilings that are the smallest of their class."""
        for solver, group in self._filtered_solvers(None if budget is None else budget.memory):
            for labels in solver.solutions(budget=budget):
                if canonical([(name, frozenset(cells)) for name, cells in labels], group):
                    yield labels

    def count_filtered(self, budget: Budget | None = None) -> int:
        """How many filtered tilings are the smallest of their class (the
        engine enumerates and checks them, with the symmetries as
        permutations of the options)."""
        total = 0
        for solver, group in self._filtered_solvers(None if budget is None else budget.memory):
            labels = solver.problem.labels
            index = {label: k for k, label in enumerate(labels)}
            perms = []
            for g in group[1:]:
                perms.append(
                    [index.get((name, tuple(sorted(g(c) for c in cells))), 2**32 - 1) for name, cells in labels]
                )
            try:
                total += solver.count_canonical(perms, budget=budget)
            except Interrupted as e:
                raise Interrupted(None if e.count is None else total + e.count, e.stats, e.where) from None
        return total


Label = tuple[str, tuple[Cell, ...]]


def tiling(
    pieces: Mapping[str, Shape],
    board: Board,
    *,
    uses: Uses | Mapping[str, Uses] = "once",
    rotations: bool = True,
    reflections: bool = True,
    symmetry: bool = False,
    costs: Mapping[str, int] | None = None,
) -> Problem:
    """The exact cover problem of tiling `board` with `pieces`.

    Items: one per cell (``"r,c"``), and one per piece (its name) unless it
    may be used any number of times. ``uses`` says how often each piece is
    used: ``"once"``, ``"any"``, a number, or ``(lo, hi)`` (multiplicities);
    one value for all pieces or a mapping by name. Each option is a
    placement; its label is ``(piece, cells)``. With ``symmetry=True`` the
    problem is restricted so that its solutions are the tilings up to the
    board's symmetries, one per class (see `covering.puzzles.symmetry`); when
    that takes filtering besides, `SymmetryError` says to use `tilings()` or
    `count_tilings()`. ``costs``: a cost for each placement of a piece, by
    name (0 for pieces not named), for `Problem.best`.

    >>> p = tiling(DOMINOES, Board.rectangle(2, 3), uses="any")
    >>> p.count()
    3
    >>> p = tiling(TROMINOES, Board.rectangle(2, 3), uses=(0, 2))
    >>> p.count()  # two straight ones, or two L's in two ways
    3
    >>> tiling(PENTOMINOES, Board.rectangle(6, 10), symmetry=True).count()
    2339
    """
    t = _Tilings(pieces, board, uses, rotations, reflections, symmetry)
    if t.plan.filtered or t.main is None:
        raise SymmetryError(
            "the symmetry of this board cannot be broken inside one problem with these pieces; "
            "tilings() and count_tilings() finish the work by filtering"
        )
    if costs:
        unknown = sorted(set(costs) - set(pieces))
        if unknown:
            raise ProblemError(f"costs for pieces not in the set: {', '.join(map(repr, unknown))}")
        t.main.set_costs([costs.get(label[0], 0) for label in t.main.labels])
    return t.main


def cheapest_tilings(
    pieces: Mapping[str, Shape],
    board: Board,
    costs: Mapping[str, int],
    k: int = 1,
    *,
    uses: Uses | Mapping[str, Uses] = "once",
    rotations: bool = True,
    reflections: bool = True,
    nodes: int | None = None,
    seconds: float | None = None,
    budget: Budget | None = None,
) -> Best:
    """The ``k`` cheapest tilings when each placement of a piece costs
    ``costs[name]`` (0 for pieces not named), cheapest first, by
    `Problem.best`: each a `PricedSolution` whose labels are the tiling's.

    >>> best = cheapest_tilings(TROMINOES, Board.rectangle(3, 3), {"I": 1}, 2, uses="any")
    >>> [s.cost for s in best], best.optimal  # (L-trominoes alone cannot tile 3x3)
    ([1, 1], True)
    >>> best = cheapest_tilings(TROMINOES, Board.rectangle(2, 3), {"L": 5, "I": 1}, uses="any")
    >>> best[0].cost, sorted(name for name, _ in best[0].labels)
    (2, ['I', 'I'])
    """
    problem = tiling(pieces, board, uses=uses, rotations=rotations, reflections=reflections, costs=costs)
    return problem.best(k, nodes=nodes, seconds=seconds, budget=budget)


#: Rows of a band, when a tall board is tiled band by band (`first_tiling`).
BAND_ROWS = 10
#: Nodes a band may take (dancing links and CDCL decisions) before the
#: whole board is solved as one problem instead.
BAND_NODES = 1_000_000


def _bands(board: Board) -> list[Board]:
    """The board cut into bands of `BAND_ROWS` rows, top to bottom (the last
    one taking what is left); one band for a board too short to cut."""
    top = min(r for r, _ in board.cells)
    bottom = max(r for r, _ in board.cells)
    cuts = list(range(top, bottom + 1, BAND_ROWS))
    if len(cuts) > 1 and bottom + 1 - cuts[-1] < BAND_ROWS:
        cuts.pop()  # a short last band joins the one above
    bands = []
    for k, start in enumerate(cuts):
        end = cuts[k + 1] if k + 1 < len(cuts) else bottom + 1
        bands.append(Board(tuple(c for c in board.cells if start <= c[0] < end)))
    return [b for b in bands if b.cells]


def first_tiling(
    pieces: Mapping[str, Shape],
    board: Board,
    *,
    uses: Uses | Mapping[str, Uses] = "once",
    rotations: bool = True,
    reflections: bool = True,
    budget: Budget | None = None,
) -> list[Label] | None:
    """A tiling of `board` (its labels, as `tiling()`'s solutions), or None
    when there is none, by the portfolio of `Problem.first` (within the
    run's `budget`).

    When every piece may be used any number of times, a tall board is first
    tiled band by band (`BAND_ROWS` rows at a time): tilings of the bands put
    together tile the board, and each band is a small problem, so the time
    grows with the area and no faster. A band without a tiling (or one that
    takes more than `BAND_NODES` nodes) proves nothing about the board: the
    whole board is then solved as one problem, so the answer is the same.

    >>> t = first_tiling(PENTOMINOES, Board.rectangle(30, 30), uses="any")
    >>> sorted(c for _, cells in t for c in cells) == sorted(Board.rectangle(30, 30).cells)
    True
    >>> first_tiling(PENTOMINOES, Board.rectangle(3, 3), uses="any") is None
    True
    """
    options = dict(uses=uses, rotations=rotations, reflections=reflections)
    any_number = uses == "any" or (isinstance(uses, Mapping) and all(u == "any" for u in uses.values()))
    bands = _bands(board) if any_number else [board]
    if len(bands) > 1:
        found: list[Label] = []
        for band in bands:
            if area_mismatch(pieces, band, uses) is not None:
                break
            try:
                part = tiling(pieces, band, **options).first(nodes=BAND_NODES, budget=budget)  # type: ignore[arg-type]
            except LimitReached:
                if budget is not None and budget.stopped():
                    raise
                break
            if part is None:
                break
            found.extend(part)
        else:
            return found
    return tiling(pieces, board, **options).first(budget=budget)  # type: ignore[arg-type,no-any-return]


def unique_up_to_symmetry(pieces: Mapping[str, Shape], board: Board, *, budget: Budget | None = None,
                          **options: Any) -> tuple[Any, Uniqueness]:
    """A tiling and whether it is the only one up to the board's
    symmetries (`tilings` with ``symmetry=True``: a class at most two).
    Without symmetry, `Problem.solve_unique` of the tiling answers.

    >>> ell = {"L": TROMINOES["L"]}  # two tilings of 2 x 3, each the other's mirror image
    >>> tiling(ell, Board.rectangle(2, 3), uses="any").solve_unique()[1].name
    'MULTIPLE'
    >>> unique_up_to_symmetry(ell, Board.rectangle(2, 3), uses="any")[1].name
    'UNIQUE'
    """
    two = list(tilings(pieces, board, symmetry=True, limit=2, budget=budget, **options))
    return (two[0] if two else None), Uniqueness.of(len(two))


def tilings(
    pieces: Mapping[str, Shape],
    board: Board,
    *,
    uses: Uses | Mapping[str, Uses] = "once",
    rotations: bool = True,
    reflections: bool = True,
    symmetry: bool = False,
    limit: int | None = None,
    budget: Budget | None = None,
) -> Iterator[list[Label]]:
    """The tilings (their labels, as `tiling()` gives them), one per class
    with ``symmetry=True``, whatever the pieces: what the problem cannot
    break is filtered (see `covering.puzzles.symmetry`).

    >>> board = Board.rectangle(6, 6)
    >>> sum(1 for _ in tilings({"L": TROMINOES["L"]}, board, uses="any", symmetry=True))
    25
    """
    if area_mismatch(pieces, board, uses) is not None:
        return
    t = _Tilings(pieces, board, uses, rotations, reflections, symmetry)
    stream = t.filtered(budget) if t.main is None else itertools.chain(t.main.solutions(budget=budget),
                                                                      t.filtered(budget))
    yield from itertools.islice(stream, limit)


def count_tilings(
    pieces: Mapping[str, Shape],
    board: Board,
    *,
    uses: Uses | Mapping[str, Uses] = "once",
    rotations: bool = True,
    reflections: bool = True,
    symmetry: bool = False,
    memo: bool = False,
    budget: Budget | None = None,
) -> int:
    """The number of tilings (of classes, with ``symmetry=True``): counted by
    the engine, plus the filtered tilings when some symmetry could not be
    broken inside the problem. With ``memo=True`` the engine counts with a
    memo of sub-problems (`covering.memo`): boards whose tilings are too
    many to enumerate, such as dominoes on 12 x 12, take moments.

    >>> count_tilings({"L": TROMINOES["L"]}, Board.rectangle(6, 6), uses="any")
    162
    >>> count_tilings(PENTOMINOES, Board.rectangle(5, 12), symmetry=True)
    1010
    """
    if area_mismatch(pieces, board, uses) is not None:
        return 0  # answered from the areas, nothing built
    t = _Tilings(pieces, board, uses, rotations, reflections, symmetry)
    n = 0 if t.main is None else t.main.count(memo=memo, budget=budget)
    try:
        return n + t.count_filtered(budget)
    except Interrupted as e:
        raise Interrupted(None if e.count is None else n + e.count, e.stats, e.where) from None


@dataclass(frozen=True)
class Tiling:
    """A tiling: the piece on each cell, by a name unique to each placed piece.

    >>> t = Tiling.of(tiling(TROMINOES, Board.rectangle(2, 3), uses="any").first())
    >>> print(t.text(color=False))
    aaa
    bbb
    >>> t.svg().startswith("<svg")
    True
    """

    cells: Mapping[Cell, str]

    @staticmethod
    def of(solution: Iterable[tuple[str, Iterable[Cell]]]) -> Tiling:
        """From a solution of `tiling()`: its labels ``(piece, cells)``.
        A piece placed several times gets a number after its name."""
        placed = list(solution)
        seen: dict[str, int] = {}
        for name, _ in placed:
            seen[name] = seen.get(name, 0) + 1
        counter: dict[str, int] = {}
        cells: dict[Cell, str] = {}
        for name, where in placed:
            if seen[name] > 1:
                counter[name] = counter.get(name, 0) + 1
                tag = f"{name}{counter[name]}"
            else:
                tag = name
            for cell in where:
                cells[cell] = tag
        return Tiling(cells)

    @staticmethod
    def of_tromino(n: int, solution: Iterable[Iterable[int]]) -> Tiling:
        """From a solution of `l_tromino()` (cells numbered ``y*n+x``): the
        trominoes are named a, b, c, ... in the order of the solution.

        >>> print(Tiling.of_tromino(4, l_tromino(4, 0).first()).text(color=False))
        .add
        aacd
        bcce
        bbee
        """
        names = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        cells: dict[Cell, str] = {}
        for k, tromino in enumerate(solution):
            tag = names[k] if k < len(names) else f"t{k}"
            for z in tromino:
                cells[(z // n, z % n)] = tag
        return Tiling(cells)

    def symbols(self) -> dict[str, str]:
        """One character per piece: the first of its name when those differ,
        else letters in order of appearance."""
        tags = list(dict.fromkeys(self.cells[c] for c in sorted(self.cells)))
        if len({t[0] for t in tags}) == len(tags):
            return {t: t[0] for t in tags}
        alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        return {t: alphabet[k % len(alphabet)] for k, t in enumerate(tags)}

    def text(self, color: bool = True) -> str:
        """The board with one character per piece (see `symbols`); with
        `color`, each piece on its own background color (ANSI, for a terminal)."""
        sym = self.symbols()
        shown = {cell: sym[tag] for cell, tag in self.cells.items()}
        if not color:
            return text_render.regions(shown, color=False)
        # Colors by piece, shown as two characters a cell so that cells look square.
        return text_render.regions(self.cells, color=True, width=2, show=shown)

    def svg(self, cell: int = 24, labels: bool = False) -> str:
        """An SVG picture: each piece its own color, borders between pieces."""
        return svg_render.regions(self.cells, cell=cell, labels=labels)

    def _repr_svg_(self) -> str:
        return self.svg()


def l_tromino(n: int, hole: int | None = None) -> Problem:
    """The L-tromino problem of M. Hiroi's "Algorithm X" and "Dancing Links"
    articles: an n x n board, cells
    numbered ``y*n+x``, with cell `hole` removed. Options are generated as
    in those articles, and each option's label is its list of cells.

    >>> l_tromino(4, 0).first()  # as the Algorithm X article prints it
    [[1, 4, 5], [8, 12, 13], [6, 9, 10], [2, 3, 7], [11, 14, 15]]
    >>> l_tromino(5, 1).count()
    0
    """
    cells, start, item, labels = _l_tromino_arrays(n, hole)
    return Problem.from_arrays(cells, start, item, labels=labels)


def _l_tromino_arrays(n: int, hole: int | None) -> tuple[list[int], list[int], list[int], list[list[int]]]:
    """`l_tromino`'s items, options (CSR) and labels (lists of cells)."""
    if hole is not None and not 0 <= hole < n * n:
        raise ValueError(f"cell {hole} is not on a {n} x {n} board (cells 0 to {n * n - 1})")
    sizes.check_problem(f"the L-tromino problem of a {n} x {n} board", 4 * n * n, 12 * n * n)
    cells = [z for z in range(n * n) if z != hole]
    # Cell z is item z, or z - 1 past the hole; built in bulk, four
    # placements per 2 x 2 square, in the articles' order.
    number = {z: k for k, z in enumerate(cells)}
    start, item, labels = [0], [], []
    for x in range(n - 1):
        for y in range(n - 1):
            z = y * n + x
            for placed in ([z, z + 1, z + n], [z, z + 1, z + n + 1], [z, z + n, z + n + 1],
                           [z + 1, z + n, z + n + 1]):
                if hole not in placed:
                    item += [number[c] for c in placed]
                    start.append(len(item))
                    labels.append(placed)
    return cells, start, item, labels


def __getattr__(name: str) -> dict[str, Shape]:
    # HEXOMINOES are grown on first use rather than at import (the command
    # line starts faster): see `covering.puzzles.shapes`.
    if name == "HEXOMINOES":
        return shapes.hexominoes()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _rc(cell: Cell) -> str:
    """A cell as a person reads it: ``r1c1`` is the top left."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


@dataclass(frozen=True, eq=False)
class TilingPuzzle(ExactCover[list[Label]]):
    """Tiling a board, on the puzzle protocol (`covering.puzzles.base`): a
    solution is the list of placed pieces ``(piece, cells)``, the labels of
    `tiling()`. ``costs`` prices each placement of a piece by name (for
    `best`); with ``symmetry=True``, solutions, counts and uniqueness are
    of tilings up to the board's symmetries (one per class, as
    `tilings(symmetry=True)`). The command line's ``tromino`` and
    ``polyomino`` run these verbs.

    >>> t = TilingPuzzle(PENTOMINOES, Board.rectangle(5, 12))
    >>> t.count(), t.check(t.solve())
    (4040, [])
    >>> t.check([("I", [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)])])[:2]
    ['I: cells r1c1, r1c2, r1c3, r1c4, r2c4 are not a placement of it', 'cell r1c5 is not covered']

    (Cells are ``(row, col)`` from 0 in Python, and named ``r1c1`` from 1 in
    messages, as everywhere a person reads them.)
    """

    pieces: Mapping[str, Shape]
    board: Board
    uses: Uses | Mapping[str, Uses] = "once"
    rotations: bool = True
    reflections: bool = True
    costs: Mapping[str, int] | None = None
    symmetry: bool = False

    @classmethod
    def l_tromino(cls, n: int, hole: int | None = None) -> TilingPuzzle:
        """The seeds' boards on the puzzle protocol: an n x n board of
        L-trominoes (any number of them), less cell `hole`, numbered
        ``y*n+x`` as the articles number them (`l_tromino` is the same
        problem with the articles' labels).

        >>> TilingPuzzle.l_tromino(6).count(), TilingPuzzle.l_tromino(7, 9).count()
        (162, 288)
        >>> t = TilingPuzzle.l_tromino(4, 0)
        >>> t.check(t.solve())
        []
        """
        if hole is not None and not 0 <= hole < n * n:
            raise ValueError(f"cell {hole} is not on a {n} x {n} board (cells 0 to {n * n - 1})")
        holes = [] if hole is None else [divmod(hole, n)]
        return _LTrominoes({"L": TROMINOES["L"]}, Board.rectangle(n, n, holes), uses="any", n=n, hole=hole)

    @property
    def _options(self) -> dict[str, Any]:
        return dict(uses=self.uses, rotations=self.rotations, reflections=self.reflections)

    def problem(self) -> Problem:
        """The exact cover problem (`tiling()`, with the costs), built once."""
        return self._once(lambda: tiling(self.pieces, self.board, costs=self.costs, **self._options))

    def solutions(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
                  budget: Budget | None = None) -> Iterator[list[Label]]:
        """The tilings, lazily, at most `limit` (with ``symmetry``: one per
        class, `tilings`)."""
        if not self.symmetry:
            return super().solutions(limit, seconds=seconds, nodes=nodes, budget=budget)
        run = begin(budget, nodes, seconds)
        return tilings(self.pieces, self.board, symmetry=True, limit=limit, budget=run, **self._options)

    def solve(self, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> list[Label] | None:
        """A tiling, or None: `first_tiling` (a tall board band by band).

        >>> t = TilingPuzzle(PENTOMINOES, Board.rectangle(40, 30), uses="any")
        >>> t.check(t.solve())
        []
        """
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return None
        return first_tiling(self.pieces, self.board, budget=run, **self._options)

    def count(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> int:
        """The number of tilings (with ``symmetry``: of classes,
        `count_tilings`), at most `limit`."""
        if not self.symmetry:
            return super().count(limit, seconds=seconds, nodes=nodes, budget=budget)
        cap = limits.limit(limit)
        run = begin(budget, nodes, seconds)
        n = count_tilings(self.pieces, self.board, symmetry=True, budget=run, **self._options)
        return n if cap is None else min(n, cap)

    def solve_unique(self, *, seconds: float | None = None, nodes: int | None = None,
                     budget: Budget | None = None) -> tuple[list[Label] | None, Uniqueness]:
        """A tiling and NONE, UNIQUE or MULTIPLE (with ``symmetry``: up to
        the board's symmetries, `unique_up_to_symmetry`)."""
        if not self.symmetry:
            return super().solve_unique(seconds=seconds, nodes=nodes, budget=budget)
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return None, Uniqueness.NONE
        found: tuple[list[Label] | None, Uniqueness] = unique_up_to_symmetry(self.pieces, self.board, budget=run,
                                                                             **self._options)
        return found

    def random(self, limit: int | None = 1, /, *, seed: int | None = None, seconds: float | None = None,
               nodes: int | None = None, budget: Budget | None = None, branching: str | None = None,
               memo_bytes: int | None = None) -> Iterator[list[Label]]:
        """Up to `limit` different tilings (None: every one) drawn uniformly
        at random, from `seed`, from the diagram of all of them
        (`covering.zdd`; the memo's ``branching`` rule and ``memo_bytes`` as
        `Problem.to_zdd`): each tiling is as likely as any other.

        >>> t = TilingPuzzle.l_tromino(6)
        >>> one = list(t.random(3, seed=7))
        >>> len({tuple(map(repr, x)) for x in one}), one == list(t.random(3, seed=7)), t.check(one[0])
        (3, True, [])
        """
        if self.symmetry:
            raise ValueError("random draws tilings, not classes of them: leave symmetry=False")
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return iter(())
        return drawn(self.problem(), limits.limit(limit), seed, run, branching, memo_bytes)

    def why_none(self) -> str | None:
        """Why no tiling exists, from the areas alone (`area_mismatch`).

        >>> TilingPuzzle(PENTOMINOES, Board.rectangle(8, 8)).count()
        0
        >>> TilingPuzzle(PENTOMINOES, Board.rectangle(8, 8)).why_none()
        'the pieces cover 60 cells, the board has 64'
        """
        return area_mismatch(self.pieces, self.board, self.uses)

    def decode(self, ids: Sequence[int]) -> list[Label]:
        labels = self.problem().labels
        return [labels[o] for o in ids]

    def check(self, solution: object, /) -> list[str]:
        """The rules broken, read from the pieces and the board themselves
        (the costs are not a rule):
        each region a placement of its piece (turned only as allowed), each
        cell of the board covered once and nothing else, each piece used as
        often as `uses` says."""
        broken: list[str] = []
        covered: dict[Cell, int] = {}
        used: dict[str, int] = {}
        for name, cells in solution if isinstance(solution, list) else []:
            cells = list(cells)
            shapes = self.pieces[name].orientations(self.rotations, self.reflections) if name in self.pieces else []
            if Shape.of(cells) not in shapes:
                broken.append(f"{name}: cells {', '.join(map(_rc, cells))} are not a placement of it")
            used[name] = used.get(name, 0) + 1
            for cell in cells:
                covered[cell] = covered.get(cell, 0) + 1
        board = set(self.board.cells)
        broken += [f"cell {_rc(c)} is not covered" for c in self.board.cells if c not in covered]
        broken += [f"cell {_rc(c)} is covered {k} times" for c, k in sorted(covered.items()) if k > 1]
        broken += [f"cell {_rc(c)} is not on the board" for c in sorted(covered) if c not in board]
        for name, bounds in _bounds(self.pieces, self.uses).items():
            lo, hi = bounds if bounds is not None else (0, None)
            k = used.get(name, 0)
            if k < lo or (hi is not None and k > hi):
                broken.append(f"{name}: used {k} times")
        return broken

    def text(self) -> str:
        """The board, ``#`` on each cell."""
        return "\n".join("".join("#" if (r, c) in set(self.board.cells) else "." for c in range(self.board.cols))
                         for r in range(self.board.rows))

    def draw(self, solution: object, /) -> str:
        """A tiling as text, a letter for each placed piece."""
        return Tiling.of(solution).text(color=False)  # type: ignore[arg-type]

    def svg(self) -> str:
        """The board as SVG: its cells, grey."""
        cell = 24
        cells = "".join(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="#ddd" '
                        'stroke="white"/>' for r, c in self.board.cells)
        w, h = self.board.cols * cell, self.board.rows * cell
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">{cells}</svg>'


def drawn(problem: Problem, want: int | None, seed: int | None, run: Budget, branching: str | None = None,
          memo_bytes: int | None = None) -> Iterator[Any]:
    """`want` different solutions of `problem` (None: all) drawn uniformly
    from its diagram, from `seed`; all of them in a shuffled order when
    they are few (at most twice `want`, or 64). The tilings of every
    lattice draw theirs here.

    >>> t = TilingPuzzle(DOMINOES, Board.rectangle(2, 3), uses="any")
    >>> sorted(map(sorted, drawn(t.problem(), None, 1, begin(None)))) == sorted(map(sorted, t.solutions()))
    True
    """
    from ..counting import memo_rule

    rule = branching or memo_rule(problem, memo_bytes, run.memory)
    zdd = problem.to_zdd(branching=rule, memo_bytes=memo_bytes, budget=run)
    seed = random.randrange(2**63) if seed is None else limits.seed(seed)
    rng = random.Random(seed)
    total = zdd.count()
    if want == 1:
        one = zdd.random_solution(seed)
        yield from ([] if one is None else [one])
        return
    if want is None or total <= max(2 * want, 64):
        every = list(zdd.solutions())
        rng.shuffle(every)
        yield from every[:want]
        return
    seen: set[Any] = set()
    while len(seen) < want:
        labels = zdd.random_solution(rng.randrange(2**63))
        key = tuple(sorted(map(repr, labels)))
        if key not in seen:
            seen.add(key)
            yield labels


@dataclass(frozen=True, eq=False)
class _LTrominoes(TilingPuzzle):
    """`TilingPuzzle.l_tromino`: the same tilings, on `l_tromino`'s problem
    (built in bulk, its options in the articles' order), labelled as
    `tiling()` labels them."""

    n: int = 0
    hole: int | None = None

    def problem(self) -> Problem:
        return self._once(self._fast)

    def _fast(self) -> Problem:
        cells, start, item, placed = _l_tromino_arrays(self.n, self.hole)
        n = self.n
        labels = [("L", tuple(sorted(divmod(z, n) for z in cells_))) for cells_ in placed]
        return Problem.from_arrays(cells, start, item, labels=labels)

    def solve(self, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> list[Label] | None:
        """The first tiling of the portfolio on this problem (the seeds'
        first tiling, not `first_tiling`'s bands)."""
        return ExactCover.solve(self, seconds=seconds, nodes=nodes, budget=budget)
