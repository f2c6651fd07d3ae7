"""Akari (Light Up, 美術館): light every white cell of a grid.

Rules: a light shines along its row and column up to a black cell; every
white cell must be lit; no light may shine on another; a black cell with a
number k has exactly k lights next to it (up, down, left, right).

The puzzle is exact cover with multiplicities (Knuth's Algorithm M), one
option per white cell, "a light here" (the encoding is in the engine, see
``crates/puzzles/src/akari.rs``):

- each white cell is a primary item with bounds 1:2, lit by the light of its
  row segment, of its column segment, or both;
- each number k > 0 is a primary item with bounds k:k;
- each maximal row or column segment of white cells is a secondary item (at
  most one light sees along it); a 0 removes the options next to it.

Grids are text (``.`` white, ``#`` black, ``0``-``4`` numbered black, one
row a line) or puzz.link URLs; coordinates are ``(row, col)``, 0-based.

>>> a = Akari.parse(SEED_7X7)
>>> print(a.solution_text(a.solve()), end="")
.*.....
*2#.*#.
.1..#.*
.*....2
.#*.#.*
.*4*..#
..*....
>>> a.uniqueness().value, a.url()
('unique', 'https://puzz.link/p?lightup/7/7/n2.h.hb.n7.h.jeg.m')
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import NamedTuple

from .. import _core, counting, limits, restart, sizes, textio
from ..errors import Interrupted
from ..problem import Problem, Uniqueness
from ..records import Frozen
from ..solving import cdcl_stage, portfolio, unsettled
from . import akari_codes as codes
from .base import ExactCover
from .akari_codes import BLACK, CELLS, WHITE, AkariError, AkariWarning, check_cells

__all__ = [
    "Akari",
    "AkariError",
    "AkariWarning",
    "read_entries",
    "Generated",
    "generate",
    "difficulty",
    "Lights",
    "check",
    "random_puzzle",
    "read_puzzles",
    "SEED_7X7",
    "SEED_18X10",
]

#: Where the lights are: a set of (row, col).
Lights = frozenset[tuple[int, int]]

LIGHT = "*"
# A character that is not a cell of the grid format; a line that is a URL.
_NOT_A_CELL = re.compile(f"[^{re.escape(CELLS)}]")
_URL = re.compile(r"^\s*\w+://")
#: The cell of an option of the linear encoding that places no light.
_NO_CELL = 2**32 - 1

#: The 7x7 board in the code of a Japanese article on an Akari solver in C.
SEED_7X7 = """\
.......
.2#..#.
.1..#..
......2
.#..#..
..4...#
.......
"""

#: The 18x10 board drawn in the text of the same article (110 s for its backtracking).
SEED_18X10 = """\
....#..#..#.......
.2..1........1.#0.
.#...0......1.....
........0..0.....0
...1......1....0..
..0....1......1...
0.....1..0........
.....1......1...1.
.10.#........#..0.
.......#..1..0....
"""


class Akari(Frozen, ExactCover[Lights]):
    """A puzzle: its rows as strings of ``.``, ``#`` and ``0``-``4``; on the
    puzzle protocol (`covering.puzzles.base.ExactCover`), with its own
    faster solving (restarts, the portfolio) behind the same names.

    >>> Akari.parse(".2.\\n...").height, Akari.parse(".2.\\n...").width
    (2, 3)
    """

    # (A `Frozen` value, not a dataclass: `covering.records`.)
    _fields = ("rows",)
    rows: tuple[str, ...]

    def __init__(self, rows: tuple[str, ...]) -> None:
        self._set(rows=rows)
        if not self.rows or not self.rows[0]:
            raise AkariError("the grid is empty")
        for r, row in enumerate(self.rows):
            if len(row) != len(self.rows[0]):
                raise AkariError(f"{len(row)} cells where row 1 has {len(self.rows[0])}", r)
            # (One search a row: a loop over the cells was a tenth of a
            # batch of 970 puzzles' time in Python.)
            bad = _NOT_A_CELL.search(row)
            if bad is not None:
                raise AkariError(f"{bad.group()!r} is not a cell ('.' white, '#' black, '0'-'4' numbered)",
                                 r, bad.start())

    # -- reading and writing ------------------------------------------------

    @staticmethod
    def parse(text: str) -> Akari:
        """A grid (text) or a puzz.link / pzv.jp URL.

        >>> Akari.parse("https://puzz.link/p?lightup/3/1/i").rows
        ('...',)
        """
        text = text.strip()
        if re.match(r"^\w+://", text):
            return Akari.from_url(text)
        return Akari.from_text(text)

    @staticmethod
    def from_text(text: str) -> Akari:
        """The grid format: one row a line; ``;`` lines are comments.

        >>> Akari.from_text("; a comment\\n.1\\n#.").rows
        ('.1', '#.')
        """
        rows = [line.rstrip(textio.BLANKS) for line in textio.lines(text) if not line.startswith(";")]
        return Akari(tuple(row for row in rows if row))

    @staticmethod
    def from_url(url: str) -> Akari:
        """A puzz.link URL (``https://puzz.link/p?lightup/COLS/ROWS/BODY``,
        also with ``akari``, and old ``http://pzv.jp/p.html?akari/...``).

        >>> Akari.from_url("https://puzz.link/p?akari/4/2/bg.i").rows
        ('1...', '#...')
        """
        return Akari(codes.rows_from_url(url))

    @staticmethod
    def from_game_id(game_id: str) -> Akari:
        """A game ID of Simon Tatham's Light Up (``7x7:b0Bp2Bb0b1Bp2Bb``,
        as ``sgt-lightup --generate`` prints them).

        >>> Akari.from_game_id("3x2:aBa1b").rows
        ('.#.', '1..')
        """
        return Akari(codes.rows_from_game_id(game_id))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def text(self) -> str:
        """The grid format, a newline after each row."""
        return "".join(row + "\n" for row in self.rows)

    def url(self) -> str:
        """The puzz.link URL (pzprjs's ``encode4Cell``).

        >>> Akari.from_text("1...\\n#...").url()
        'https://puzz.link/p?lightup/4/2/bg.i'
        """
        return codes.url_of(self.rows)

    # -- solving -----------------------------------------------------------

    @cached_property
    def _encoding(self) -> tuple[_core.CompiledProblem, list[int], list[tuple[str, int]]] | None:
        """(problem, cell of each option, meaning of each item); None for a
        grid without white cells (nothing to light)."""
        cells = "".join(self.rows)
        if WHITE not in cells:
            return None
        grid = cells.encode()
        # The engine's estimate of its encoding (`puzzles::akari::encoding_bytes`).
        sizes.check(f"the exact cover problem of a {self.height} x {self.width} Akari grid",
                    _core.akari_encoding_bytes(self.height, self.width, grid))
        return _core.akari_problem(self.height, self.width, grid)

    def problem(self) -> Problem:
        """The exact cover problem with names: white cells ``r3c4`` (1:2),
        numbers ``n2c5`` (k:k), segments ``h3c0``/``v0c4`` (named by their
        first cell), options labelled by the cell of their light. (A segment
        longer than 64 cells is encoded in linear space, see
        ``crates/puzzles/src/akari.rs``: its item is primary, with a second one,
        ``H3c0``/``V0c4``, and two options that place no light, labelled
        ``("lit", "h3c0")`` and ``("dark", "h3c0")``.)

        >>> p = Akari.parse(".1.").problem()
        >>> p.primary, p.bounds("n0c1"), p.secondary
        (['r0c0', 'r0c2', 'n0c1'], (1, 1), ['h0c0', 'v0c0', 'h0c2', 'v0c2'])
        """
        enc = self._encoding
        if enc is None:
            raise AkariError("the grid has no white cell: nothing to solve")
        compiled, option_cell, items = enc
        prefix = {"cell": "r", "number": "n", "row": "h", "column": "v", "row_lit": "H", "column_lit": "V"}
        names = [f"{prefix[kind]}{z // self.width}c{z % self.width}" for kind, z in items]
        _, _, _, _, start, item, _ = compiled.arrays()
        labels: list[object] = []
        for o, z in enumerate(option_cell):
            if z != _NO_CELL:
                labels.append(divmod(z, self.width))
                continue
            # An option of a long segment that places no light: named by its first item.
            first = names[item[start[o]]]
            labels.append(("lit", first.lower()) if first[0] in "HV" else ("dark", first))
        return Problem.from_compiled(compiled, names, labels)

    @property
    def _long_segments(self) -> bool:
        """Has the encoding a segment in linear space (options of no light)?
        A random order wanders on such boards (a 1000 x 1000 white one), the
        input order goes straight to a solution: the restarts start with it."""
        enc = self._encoding
        return enc is not None and _NO_CELL in enc[1]

    def decode(self, ids: Sequence[int]) -> Lights:
        """The lights of a solution of `problem()` (its option ids).

        >>> a = Akari.parse(SEED_7X7)
        >>> lights = a.decode(a.problem().first(ids=True))
        >>> len(lights), a.check(lights)
        (10, [])
        """
        return self._lights(ids)

    def _lights(self, ids: Iterable[int]) -> Lights:
        enc = self._encoding
        assert enc is not None
        return frozenset(divmod(enc[1][o], self.width) for o in ids if enc[1][o] != _NO_CELL)

    def solutions(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
                  budget: limits.Budget | None = None) -> Iterator[Lights]:
        """The solutions, lazily, as sets of light positions (in no
        particular order); `LimitReached` if ``seconds``, ``nodes`` or the
        run's `budget` run out first.

        The search runs in a random order with a node budget, restarted
        with another order and twice the budget when it runs out (see
        `covering.restart`): on big sparse boards a plain depth-first
        search now and then loses itself for minutes, and restarts make
        those rare runs as quick as the others. Every run is complete, so
        the answers stay exact.

        >>> sorted(sorted(s) for s in Akari.parse("..").solutions())
        [[(0, 0)], [(0, 1)]]
        """
        return self._solutions(limit, limits.begin(budget, nodes, seconds))

    def _solutions(self, limit: int | None, run: limits.Budget) -> Iterator[Lights]:
        enc = self._encoding
        if enc is None:
            if self._numbers_ok_without_lights() and limit != 0:
                yield frozenset()
            return
        for ids in restart.solutions(enc[0], limit, plain_first=self._long_segments, budget=run):
            yield self._lights(ids)

    def _numbers_ok_without_lights(self) -> bool:
        """Is the empty set a solution? (For a grid without white cells.)"""
        return all(ch in "#0" for ch in "".join(self.rows))

    def solve(self, *, seconds: float | None = None, nodes: int | None = None,
              budget: limits.Budget | None = None) -> Lights | None:
        """A solution, or None when there is none, by the portfolio (see
        `solve_unique`); `LimitReached` if a budget ran out first.

        >>> len(Akari.parse(SEED_7X7).solve() or ())
        10
        """
        return self._solve(limits.begin(budget, nodes, seconds))

    def _solve(self, run: limits.Budget, stage: restart.Stage | None = None) -> Lights | None:
        """`solve`, its restarts going on from `stage` when given."""
        enc = self._encoding
        if enc is None:
            return next(self._solutions(1, run), None)
        found, settled = self._portfolio(1, enc[0], run, stage)
        if not settled:
            raise unsettled(run)
        return self._lights(found[0]) if found else None

    def _portfolio(self, want: int, compiled: _core.CompiledProblem, budget: limits.Budget,
                   stage: restart.Stage | None = None) -> tuple[list[tuple[int, ...]], bool]:
        """The one portfolio on this board's stages: restarted dancing links
        (see `solutions`) for `PORTFOLIO_NODES`, then the CDCL solver first,
        its decisions priced at `NODES_PER_DECISION`, within the run's
        `budget`. With the `stage` where the batch's restarts stopped
        (`batch`), they go on from there: the same runs, none searched
        twice."""
        from ..sat import SatSolver

        # One set of restarts for every turn: each takes up where the last stopped.
        if stage is None:
            dancing = restart.Restarts(compiled, plain_first=self._long_segments)
        else:
            dancing = restart.Restarts.resumed(stage, plain_first=self._long_segments)
        cdcl = cdcl_stage(lambda: SatSolver.of_compiled(compiled, budget.memory))
        return portfolio(want, dancing, cdcl, budget=budget, first_nodes=PORTFOLIO_NODES, lead=False,
                         per_decision=NODES_PER_DECISION)

    def count(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
              budget: limits.Budget | None = None) -> int:
        """The number of solutions (at most `limit`); `LimitReached` if
        ``seconds``, ``nodes`` or the run's `budget` run out first. Up to `restart.KEEP` solutions are
        counted as `solutions` finds them (with restarts); a bigger count
        is one search in the engine.

        >>> Akari.parse(SEED_18X10).count()
        1
        """
        limit = limits.limit(limit)
        run = limits.begin(budget, nodes, seconds)
        enc = self._encoding
        if enc is None:
            return int(self._numbers_ok_without_lights()) if limit != 0 else 0
        if limit is not None and limit <= restart.KEEP:
            # (A LimitReached from the restarts already carries the solutions found.)
            found = 0
            try:
                for _ in restart.solutions(enc[0], limit, plain_first=self._long_segments, budget=run):
                    found += 1
            except KeyboardInterrupt:
                raise Interrupted(found) from None
            return found
        # The counting front door, on the encoding's arrays: a board's tree
        # is counted by its first look, before anything is named.
        return counting.count(enc[0], limit, budget=run).count

    def uniqueness(self, *, seconds: float | None = None, nodes: int | None = None,
                   budget: limits.Budget | None = None) -> Uniqueness:
        """NONE, UNIQUE or MULTIPLE; UNKNOWN if a budget ran out first (see
        `solve_unique`).

        >>> Akari.parse(SEED_7X7).uniqueness().name, Akari.parse("..").uniqueness(seconds=10).name
        ('UNIQUE', 'MULTIPLE')
        """
        return self.solve_unique(seconds=seconds, nodes=nodes, budget=budget)[1]

    def solve_unique(self, *, seconds: float | None = None, nodes: int | None = None,
                     budget: limits.Budget | None = None) -> tuple[Lights | None, Uniqueness]:
        """A solution (None if there is none) and whether it is the only one.

        A portfolio, as `Problem.uniqueness`: the restarted dancing-links
        search of `solutions` for `PORTFOLIO_NODES` (5,000) nodes, which settles
        most puzzles in a millisecond; then, where the tree is heavy (big
        boards with exactly one solution, where a depth-first search refutes
        a bad early choice again under every combination of choices in
        other regions), the CDCL solver (`covering.sat`), which learns from
        each dead end. The switch is by nodes, so the answer (and the
        solution shown) is the same on every machine.

        >>> lights, u = Akari.parse(SEED_7X7).solve_unique()
        >>> len(lights), u.name
        (10, 'UNIQUE')
        """
        return self._solve_unique(limits.begin(budget, nodes, seconds))

    def _solve_unique(self, run: limits.Budget,
                      stage: restart.Stage | None = None) -> tuple[Lights | None, Uniqueness]:
        """`solve_unique`, its restarts going on from `stage` when given."""
        enc = self._encoding
        if enc is None:
            found = list(self._solutions(2, run))
            return (found[0] if found else None), Uniqueness.of(len(found))
        ids, settled = self._portfolio(2, enc[0], run, stage)
        lights = self._lights(ids[0]) if ids else None
        return lights, Uniqueness.of(len(ids)) if settled else Uniqueness.UNKNOWN

    @classmethod
    def solve_each(cls, puzzles: Sequence[Akari], /, *, budget: limits.Budget | None = None,
                   threads: int = 1) -> list[Lights | None]:
        """`solve()` of each puzzle, in order: one call into the engine for
        the batch (`batch`), the same answers.

        >>> [len(x or ()) for x in Akari.solve_each([Akari.parse(SEED_7X7), Akari.parse("1#")])]
        [10, 0]
        """
        return [found[0] if found else None for found, _ in cls.batch(puzzles, 1, budget=budget, threads=threads)]

    @classmethod
    def solve_unique_each(cls, puzzles: Sequence[Akari], /, *, budget: limits.Budget | None = None,
                          threads: int = 1) -> list[tuple[Lights | None, Uniqueness]]:
        """`solve_unique()` of each puzzle, in order: one call into the
        engine for the batch (`batch`), the same answers.

        >>> [u.name for _, u in Akari.solve_unique_each([Akari.parse(SEED_7X7), Akari.parse("..")])]
        ['UNIQUE', 'MULTIPLE']
        """
        return [(found[0] if found else None, u)
                for found, u in cls.batch(puzzles, 2, budget=budget, threads=threads)]

    @classmethod
    def batch(cls, puzzles: Sequence[Akari], want: int, *, budget: limits.Budget | None = None,
              threads: int = 1) -> Iterator[tuple[list[Lights], Uniqueness]]:
        """Up to `want` (1 or 2) solutions of each puzzle, in order, and
        what they settle, as each is known: the first stage of each one's
        portfolio (`PORTFOLIO_NODES` of restarts) in the engine for the
        whole batch, on `threads` threads (`puzzles::akari_batch`); the few
        it leaves heavy go on through their own portfolio as the stream
        reaches them, from where the batch's runs stopped (the runs a single
        call makes), so every answer is the
        one `solve` or `solve_unique` gives, and a budget that runs out is
        raised at the puzzle it stopped, after the answers before it. A node
        budget is each puzzle's (``--nodes``): the single calls answer then.

        >>> [u.name for _, u in Akari.batch([Akari.parse("."), Akari.parse("..")], 2)]
        ['UNIQUE', 'MULTIPLE']
        """
        run = limits.begin(budget)
        threads = limits.threads(threads)

        def single(p: Akari, stage: restart.Stage | None = None) -> tuple[list[Lights], Uniqueness]:
            if want == 1:
                lights = p._solve(limits.begin(run), stage)
                return ([] if lights is None else [lights]), Uniqueness.of(0 if lights is None else 1)
            lights, u = p._solve_unique(limits.begin(run), stage)
            return ([] if lights is None else [lights]), u

        if want not in (1, 2):
            raise ValueError(f"want must be 1 (solve) or 2 (unique), not {want!r}")
        if run.nodes is not None:
            yield from (single(p) for p in puzzles)
            return
        grids = [(p.height, p.width, "".join(p.rows).encode()) for p in puzzles]
        answers, interrupted = _core.akari_batch(grids, want, PORTFOLIO_NODES, threads, run)
        for p, (kind, found, stage) in zip(puzzles, answers):
            if kind == "settled" and found is not None:
                width = p.width
                lights = [frozenset(divmod(z, width) for z in cells) for cells in found]
                yield lights, Uniqueness.of(len(lights))
            elif interrupted:
                raise KeyboardInterrupt  # (Ctrl-C: the answers before this one stand)
            else:  # heavy (going on from its stage), or stopped by the run's flag (the single call says how)
                yield single(p, stage)

    def check(self, solution: object, /) -> list[str]:
        """The rules a set of lights breaks (see the module's `check`)."""
        return check(self, solution)  # type: ignore[arg-type]

    # -- pictures ----------------------------------------------------------

    def solution_text(self, lights: Iterable[tuple[int, int]]) -> str:
        """The grid with ``*`` on the lights (the solution format)."""
        grid = [list(row) for row in self.rows]
        for r, c in lights:
            grid[r][c] = LIGHT
        return "".join("".join(row) + "\n" for row in grid)

    def draw(self, lights: Iterable[tuple[int, int]] | None = None) -> str:
        """Box drawing as in that article: ``■`` black, digits, and with lights,
        ``○`` a light and ``+`` a lit cell.

        >>> print(Akari.parse(".1\\n#.").draw([(0, 0)]), end="")
        ┌──┐
        │○1│
        │■ │
        └──┘
        """
        on = set(lights or ())
        lit = _lit(self, on)
        out = ["┌" + "─" * self.width + "┐"]
        for r, row in enumerate(self.rows):
            line = []
            for c, ch in enumerate(row):
                if ch == BLACK:
                    line.append("■")
                elif ch != WHITE:
                    line.append(ch)
                else:
                    line.append("○" if (r, c) in on else "+" if (r, c) in lit else " ")
            out.append("│" + "".join(line) + "│")
        out.append("└" + "─" * self.width + "┘")
        return "\n".join(out) + "\n"

    def _repr_svg_(self) -> str:
        """In a notebook: the grid (without lights), as `svg()` draws it."""
        return self.svg()

    def svg(self, lights: Iterable[tuple[int, int]] | None = None, cell: int = 28) -> str:
        """An SVG picture: black cells with their numbers, lights as yellow
        discs, lit cells pale yellow."""
        on = set(lights or ())
        lit = _lit(self, on)
        w, h = self.width * cell, self.height * cell
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 4}" height="{h + 4}" '
            f'viewBox="-2 -2 {w + 4} {h + 4}" font-family="sans-serif">',
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="white" stroke="black" stroke-width="2"/>',
        ]
        for r, row in enumerate(self.rows):
            for c, ch in enumerate(row):
                x, y = c * cell, r * cell
                fill = "black" if ch != WHITE else "#fff3b0" if (r, c) in lit else "white"
                out.append(
                    f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                    'stroke="#888" stroke-width="0.5"/>'
                )
                if ch in "01234":  # (a digit: nothing to escape)
                    out.append(
                        f'<text x="{x + cell / 2}" y="{y + cell / 2}" font-size="{cell * 0.6:g}" fill="white" '
                        f'text-anchor="middle" dominant-baseline="central">{ch}</text>'
                    )
                if (r, c) in on:
                    out.append(
                        f'<circle cx="{x + cell / 2}" cy="{y + cell / 2}" r="{cell * 0.32:g}" '
                        'fill="#ffd400" stroke="#b08d00"/>'
                    )
        out.append("</svg>")
        return "\n".join(out)


#: The four directions a light shines in, and where a number looks for lights.
_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _lights_next_to(r: int, c: int, lights: set[tuple[int, int]]) -> int:
    """How many of `lights` are next to cell (r, c), as a number counts them."""
    return sum((r + dr, c + dc) in lights for dr, dc in _STEPS)


def _lit(puzzle: Akari, lights: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """The cells the lights shine on (the lights included)."""
    lit = set()
    for r, c in lights:
        lit.add((r, c))
        for dr, dc in _STEPS:
            y, x = r + dr, c + dc
            while 0 <= y < puzzle.height and 0 <= x < puzzle.width and puzzle.rows[y][x] == WHITE:
                lit.add((y, x))
                y, x = y + dr, x + dc
    return lit


def random_puzzle(rows: int, cols: int, *, black: float = 0.08, seed: int | None = None) -> Akari:
    """A solvable board: each cell black with probability `black`, then
    lights put on random unlit white cells until every one is lit, and every
    black cell numbered by the lights around it. Few black cells make boards
    like human-made ones (sparse, hard for a search), but often with several
    solutions: a board to test and time solvers on, not a finished puzzle.

    >>> a = random_puzzle(10, 10, seed=1)
    >>> a.height, a.width, a.count(1)
    (10, 10, 1)
    """
    if rows < 1 or cols < 1 or not 0 <= black <= 1:
        raise AkariError(f"a random board needs rows and cols >= 1 and 0 <= black <= 1, not {rows}, {cols}, {black}")
    check_cells(rows, cols)
    rng = random.Random(seed)
    grid = [[BLACK if rng.random() < black else WHITE for _ in range(cols)] for _ in range(rows)]
    blank = Akari(tuple("".join(row) for row in grid))
    whites = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == WHITE]
    rng.shuffle(whites)
    lights: set[tuple[int, int]] = set()
    lit: set[tuple[int, int]] = set()
    for cell in whites:
        if cell not in lit:
            lights.add(cell)
            lit |= _lit(blank, [cell])
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == BLACK:
                grid[r][c] = str(_lights_next_to(r, c, lights))
    return Akari(tuple("".join(row) for row in grid))


#: Nodes of the restarted dancing-links search in `Akari.solve_unique`
#: before the CDCL solver takes over. Akari's nodes are dear (the problem
#: has multiplicities: dancing cells, whose node scans the items), and the
#: clauses solve big boards in tens of milliseconds. Since a scan passes
#: over the items that are done, a node does more than when each such item
#: took a node of its own, and 5,000 nodes now do what 20,000 did: on the
#: classes of benchmarks/akari.py and 970 human-made puzzles, 5,000 is as
#: fast or faster on every class (the 970: 0.58 s against 0.76 s; sparse
#: 150 x 150: 1.5 s against 2.3 s; sgt's boards the same within noise).
PORTFOLIO_NODES = 5_000

#: A CDCL decision priced in nodes of dancing links, for the portfolio's
#: turns (`covering.solving.portfolio`): a node scans every item, so on big
#: boards it costs far more than a decision (a sparse 150 x 150 board: 50
#: microseconds a node, under 2 a decision once the encoding is built; at
#: one node a decision the dancing turns still took 3.8 s of its 4.1, where
#: the CDCL solver alone settles it in 0.5 s). Past the first stage the
#: CDCL solver does nearly all the work, as it did before the turns.
NODES_PER_DECISION = 1 / 64

#: The difficulty levels of `generate` and `difficulty`, easiest first.
DIFFICULTIES = ("easy", "medium", "hard")
SYMMETRIES = ("none", "rotate", "mirror")


class Generated(NamedTuple):
    """A generated puzzle, the easiest level of deductions that solves it,
    and the seed that makes it again."""

    puzzle: Akari
    difficulty: str
    seed: int


def generate(rows: int, cols: int, *, seed: int | None = None, black: float = 0.2, difficulty: str = "medium",
             symmetry: str = "none") -> Generated:
    """A puzzle with exactly one solution, proven: about `black` of the
    cells black (laid out with `symmetry`: "none", "rotate" for a half turn,
    "mirror" for left-right), solvable by the deductions of `difficulty`,
    and a number only where those deductions need one. The same seed gives
    the same puzzle.

    The levels are defined by the deductions a person needs (see
    ``crates/xc/src/puzzles/akari_gen.rs``): **easy**, a light darkens its
    lines, a number whose lights are placed (or whose free neighbours are
    just enough) settles its neighbours, and a cell only one cell can light
    gets that light; **medium**, also the cells where a light would leave a
    number too few places or an unlit cell none; **hard**, also a trial: a
    cell whose light, or whose darkness, leads by the medium deductions to a
    contradiction. The grid is laid out, lit at random and every black cell
    numbered; where the deductions get stuck a cell turns black; then the
    numbers are taken away, in a random order, while the deductions still
    solve the grid. Every deduction is sound, so solving it proves the
    solution unique. `Generated.difficulty` is the easiest level that
    solves the result (at most the one asked).

    >>> g = generate(10, 10, seed=1)
    >>> g.puzzle.uniqueness().name, g.difficulty in DIFFICULTIES
    ('UNIQUE', True)
    >>> generate(10, 10, seed=1) == g
    True
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise AkariError(f"{name} must be an integer >= 1, not {value!r}")
    if isinstance(black, bool) or not isinstance(black, (int, float)) or not 0 <= black <= 1:
        raise AkariError(f"black must be a share of the cells from 0 to 1, not {black!r}")
    if difficulty not in DIFFICULTIES:
        raise AkariError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    if symmetry not in SYMMETRIES:
        raise AkariError(f"symmetry must be one of {', '.join(SYMMETRIES)}, not {symmetry!r}")
    check_cells(rows, cols)
    seed = random.randrange(2**63) if seed is None else limits.seed(seed)
    assert seed is not None
    try:
        cells = _core.akari_generate(rows, cols, seed, float(black), difficulty, symmetry).decode()
    except KeyboardInterrupt:
        raise Interrupted(0) from None
    puzzle = Akari(tuple(cells[r * cols:(r + 1) * cols] for r in range(rows)))
    level = _core.akari_difficulty(rows, cols, cells.encode())
    assert level is not None, "a generated puzzle is solved by its own deductions"
    return Generated(puzzle, level, seed)


def difficulty(puzzle: Akari) -> str | None:
    """The easiest level of `generate`'s deductions that solves `puzzle`
    (proving its solution unique), or None when even trials do not (it may
    still have one solution, or several, or none).

    >>> difficulty(Akari.parse(SEED_7X7))
    'easy'
    """
    return _core.akari_difficulty(puzzle.height, puzzle.width, "".join(puzzle.rows).encode())


def check(puzzle: Akari, lights: Iterable[tuple[int, int]]) -> list[str]:
    """What is wrong with `lights` as a solution of `puzzle` (empty when it
    is one), by the rules, not by the encoding: lights on white cells only,
    no light shining on another, every white cell lit, every number met.

    >>> a = Akari.parse("..1")
    >>> check(a, [(0, 1)]), check(a, [(0, 0)])
    ([], ['(0, 2) has 0 lights next to it, not 1'])
    """
    on = set(lights)
    errors = []
    for r, c in sorted(on):
        if not (0 <= r < puzzle.height and 0 <= c < puzzle.width) or puzzle.rows[r][c] != WHITE:
            errors.append(f"light at {(r, c)} is not on a white cell")
    for r, c in sorted(on):
        for y, x in _lit(puzzle, [(r, c)]) - {(r, c)}:
            if (y, x) in on:
                errors.append(f"lights at {(r, c)} and {(y, x)} see each other")
    lit = _lit(puzzle, on)
    for r, row in enumerate(puzzle.rows):
        for c, ch in enumerate(row):
            if ch == WHITE and (r, c) not in lit:
                errors.append(f"{(r, c)} is dark")
            elif ch in "01234":
                n = _lights_next_to(r, c, on)
                if n != int(ch):
                    errors.append(f"{(r, c)} has {n} lights next to it, not {ch}")
    return errors


def read_puzzles(text: str) -> Iterator[Akari]:
    """The puzzles of a file: grids separated by blank lines, or URLs one a
    line, mixed as they come; an error names the line of the file.

    >>> [a.width for a in read_puzzles(".1\\n..\\n\\nhttps://puzz.link/p?lightup/3/1/i\\n")]
    [2, 3]
    """
    for entry in read_entries(text):
        if isinstance(entry, AkariError):
            raise entry
        yield entry


def read_entries(text: str) -> Iterator[Akari | AkariError]:
    """As `read_puzzles`, but a puzzle that cannot be read is given as its
    error (naming the line of the file) in its place, and the rest are read
    on: for a batch that answers every puzzle it can.

    >>> [type(x).__name__ for x in read_entries(".1\\n..\\n\\n.x\\n\\n..\\n")]
    ['Akari', 'AkariError', 'Akari']
    """
    block: list[str] = []
    start = 0

    def flush() -> Iterator[Akari | AkariError]:
        if block:
            try:
                yield Akari.from_text("\n".join(block))
            except AkariError as e:
                line = None if e.row is None else start + e.row
                yield AkariError(e.reason if line else f"line {start}: {e.reason}", e.row, e.col, line=line)
            block.clear()

    lines = textio.lines(text)
    for n, line in enumerate(lines, 1):
        if line.startswith(";"):
            continue
        if textio.is_blank(line):
            yield from flush()
        elif "://" in line and _URL.match(line):
            yield from flush()
            try:
                yield Akari.from_url(line)
            except AkariError as e:
                yield AkariError(e.reason, line=n)
        else:
            if not block:
                start = n
            block.append(line)
    yield from flush()
