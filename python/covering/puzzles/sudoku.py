"""Sudoku on the engine: solve, count, generate; any size n^2 x n^2, any symbols.

The exact cover problem has four families of items, as in the seed: each
cell holds one digit (``p``), each row, column and box holds each digit once
(``r``, ``c``, ``b``): 4 x 81 = 324 items and 729 options for 9 x 9. A
puzzle's givens are *forced* options, so one compiled problem serves every
puzzle of a size.

>>> s = Sudoku.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> s.solve().line()
'417369825632158947958724316825437169791586432346912758289643571573291684164875293'
>>> s.uniqueness()
<Uniqueness.UNIQUE: 'unique'>
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple, overload

from .. import _core, limits, sizes, textio
from ..records import Frozen
from ..errors import Interrupted, LimitReached, ProblemError
from ..problem import Problem, Uniqueness
from ..solving import cdcl_stage, portfolio, search_stage, unsettled
from .base import ExactCover
from ..solver import Solver

__all__ = ["Sudoku", "SudokuError", "check_symbols", "sudoku_problem", "random_grid", "generate", "solve_text", "SYMBOLS", "KANJI"]

#: The usual symbols of each size.
SYMBOLS = {4: "1234", 9: "123456789", 16: "123456789ABCDEFG", 25: "123456789ABCDEFGHIJKLMNOP"}
#: Kanji digits, as the seed's symbols.
KANJI = "一二三四五六七八九"
#: Separators ignored in a puzzle laid out over lines.
LAYOUT = " \t|-+"


class SudokuError(ProblemError):
    """A puzzle that cannot be read, or with two equal givens in a unit; the
    message names the cell as r1c1 (1-based)."""


def sudoku_problem(n: int = 9) -> Problem:
    """The exact cover problem of an empty n x n grid (n a square): option
    ``(r * n + c) * n + d`` puts digit ``d + 1`` at row ``r``, column ``c``
    (0-based), labelled ``(r, c, d + 1)``.

    >>> p = sudoku_problem(4)
    >>> len(p.primary), p.n_options, p.count()
    (64, 64, 288)
    """
    b = _box(n)
    primary = ([f"p{r},{c}" for r in range(n) for c in range(n)]
               + [f"r{r}#{d}" for r in range(n) for d in range(1, n + 1)]
               + [f"c{c}#{d}" for c in range(n) for d in range(1, n + 1)]
               + [f"b{k}#{d}" for k in range(n) for d in range(1, n + 1)])
    # Numbers: cells, then rows, columns and boxes by digit, n * n each.
    cells = n * n
    item = [x for r in range(n) for c in range(n) for d in range(n)
            for x in (r * n + c, cells + r * n + d, 2 * cells + c * n + d,
                      3 * cells + ((r // b) * b + c // b) * n + d)]
    labels = [(r, c, d) for r in range(n) for c in range(n) for d in range(1, n + 1)]
    return Problem.from_arrays(primary, range(0, 4 * n * n * n + 1, 4), item, labels=labels)


def _box(n: int) -> int:
    """The side of a box of an n x n sudoku, once n is checked: a square
    from 4, whose problem (n^3 options) fits in memory."""
    b = math.isqrt(n) if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0
    if b < 2 or b * b != n:
        raise SudokuError(f"a sudoku has n x n cells with n a square (4, 9, 16, 25, ...), not {n!r}")
    sizes.check_problem(f"a {n} x {n} sudoku", n**3, 4 * n**3)
    return b


@functools.lru_cache(maxsize=None)
def _problem(n: int) -> Problem:
    """The shared problem of each size (never changed after it is built)."""
    p = sudoku_problem(n)
    p.compile()
    return p


@functools.lru_cache(maxsize=None)
def _compiled(n: int) -> _core.CompiledProblem:
    """The arrays of `sudoku_problem(n)`, built directly: the command line
    needs no names or labels, and starts sooner without them."""
    b = _box(n)
    item: list[int] = []
    for r in range(n):
        for c in range(n):
            k = (r // b) * b + c // b
            for d in range(n):
                item += [r * n + c, n * n + r * n + d, 2 * n * n + c * n + d, 3 * n * n + k * n + d]
    m = 4 * n * n
    return _core.CompiledProblem(m, 0, [1] * m, [1] * m, list(range(0, len(item) + 1, 4)), item, [])


def check_symbols(symbols: str, n: int) -> str:
    """`symbols` if they can write an n x n sudoku: n of them, all distinct,
    none of them ``.`` (the blank), a blank or a control character.

    >>> check_symbols("ABCD", 4)
    'ABCD'
    >>> try:
    ...     check_symbols("ABCA", 4)
    ... except SudokuError as e:
    ...     print(e)
    symbols 'ABCA': 'A' is there twice (at 1 and 4)
    """
    if len(symbols) != n:
        raise SudokuError(f"symbols {symbols!r}: {n} are needed for {n} x {n}, not {len(symbols)}")
    first: dict[str, int] = {}
    for k, ch in enumerate(symbols, 1):
        if ch in first:
            raise SudokuError(f"symbols {symbols!r}: {ch!r} is there twice (at {first[ch]} and {k})")
        first[ch] = k
        if ch == "." or ch in LAYOUT or not ch.isprintable():
            raise SudokuError(f"symbols {symbols!r}: {textio.name_of(ch)} cannot be a symbol")
    return symbols


@functools.lru_cache(maxsize=None)
def _batch(n: int, symbols: str) -> _core.SudokuBatch:
    check_symbols(symbols, n)
    b = math.isqrt(n)
    blanks = "." if "0" in symbols else ".0"
    return _core.SudokuBatch(_compiled(n), n, b, b, symbols, blanks)


def _read_line(n: int, symbols: str, line: str) -> tuple[int, ...]:
    """The values of a line of n^2 cells, read by the engine's one reader of
    Sudoku lines (`_core.SudokuBatch.parse_line`, as the batch reads each
    line): a bad character or a symbol twice in a unit is a `SudokuError`
    naming the cell."""
    try:
        return tuple(_batch(n, symbols).parse_line(line))
    except ValueError as e:
        raise SudokuError(str(e)) from None


def _default_symbols(n: int) -> str:
    if n not in SYMBOLS:
        raise SudokuError(f"no usual symbols for {n} x {n}: give them with symbols=...")
    return SYMBOLS[n]


class Sudoku(Frozen, ExactCover["Sudoku"]):
    """A grid: `values[k]` is the digit (1..n) of cell k = r * n + c, or 0;
    on the puzzle protocol (`covering.puzzles.base.ExactCover`), with its
    own faster solving (the band solver, the portfolio) behind the same
    names.

    >>> Sudoku.parse("1.3." "..1." ".1.." "2..1").givens
    6
    """

    # (A `Frozen` value, not a dataclass: `covering.records`.)
    _fields = ("n", "values", "symbols", "given")
    n: int
    values: tuple[int, ...]
    symbols: str
    #: The cells given in the puzzle (for pictures); None when all are.
    given: tuple[bool, ...] | None

    def __init__(self, n: int, values: tuple[int, ...], symbols: str, given: tuple[bool, ...] | None = None) -> None:
        self._set(n=n, values=values, symbols=symbols, given=given)

    @staticmethod
    def parse(text: str, symbols: str | None = None, grid: bool = False) -> Sudoku:
        """A puzzle from one line of n^2 characters (``.`` blank, ``0`` too
        unless it is a symbol), or, with ``grid=True``, laid out over lines
        (spaces, ``|``, ``-`` and ``+`` ignored). The size follows from the
        number of cells; the symbols default to the usual ones.

        >>> Sudoku.parse('''
        ... 1 2 | . .
        ... . . | 1 2
        ... ----+----
        ... 2 1 | . .
        ... . . | 2 1''', grid=True).line()
        '12....1221......21'
        """
        rows = textio.lines(text)
        if grid:
            cells = [ch for row in rows for ch in row if ch not in LAYOUT + textio.BLANKS]
        else:
            cells = list("".join(rows).strip(textio.BLANKS))
        n = math.isqrt(math.isqrt(len(cells)))
        if n**4 != len(cells) or n < 2:
            raise SudokuError(f"wrong length: {len(cells)} cells (a sudoku has 16, 81, 256 or 625)")
        n = n * n
        symbols = check_symbols(symbols or _default_symbols(n), n)
        return Sudoku(n, _read_line(n, symbols, "".join(cells)), symbols)

    def check_givens(self) -> None:
        """Raises `SudokuError` naming both cells if a unit holds a digit
        twice (read as `parse` and the batch read a line).

        >>> Sudoku(4, (1, 1) + (0,) * 14, "1234").check_givens()
        Traceback (most recent call last):
        ...
        covering.puzzles.sudoku.SudokuError: r1c2: 1 is already in r1c1, in the same row
        """
        _read_line(self.n, self.symbols, self.line())

    @property
    def givens(self) -> int:
        """The number of filled cells."""
        return sum(1 for v in self.values if v)

    def line(self, blank: str = ".") -> str:
        """The grid as one line of symbols."""
        return "".join(self.symbols[v - 1] if v else blank for v in self.values)

    def problem(self) -> Problem:
        """This puzzle's exact cover problem, on its own (for export, or to
        study): `sudoku_problem`'s items, and at each given cell only the
        option of its given.

        >>> s = Sudoku.parse("1.3." "..1." ".1.." "2..1")
        >>> s.problem().count(), s.count()
        (2, 2)
        """
        return self._own()[0]

    def decode(self, ids: Sequence[int]) -> Sudoku:
        """The completed grid of a solution of `problem()` (its option ids).

        >>> s = Sudoku.parse("1.3." ".41." ".1.." "2..1")
        >>> s.decode(s.problem().first(ids=True)).line()
        '1234341241232341'
        """
        kept = self._kept()
        return self._grid([kept[o] for o in ids])

    def _kept(self) -> list[int]:
        """The options of the shared problem that `problem()` keeps (at a
        given cell only its given), in order."""
        n = self.n
        return [o for o in range(n ** 3) if not self.values[o // n] or self.values[o // n] == o % n + 1]

    def _own(self) -> tuple[Problem, list[int]]:
        """`problem()`, and the option of the shared problem each of its
        options is."""
        full = _problem(self.n)
        kept = self._kept()
        _, items, _ = full.option_arrays()
        item = [x for o in kept for x in items[4 * o:4 * o + 4]]
        return Problem.from_arrays(full.primary, range(0, 4 * len(kept) + 1, 4), item,
                                   labels=[full.label(o) for o in kept]), kept

    def _portfolio(self, want: int, budget: limits.Budget | None = None) -> tuple[list[tuple[int, ...]], bool]:
        """The one portfolio (`covering.solving.portfolio`) on this puzzle:
        dancing links on the shared problem with the givens forced, then the
        CDCL solver on the puzzle's own problem, within the run's `budget`.
        (The batch, `solve_text`, runs the first stage in the engine and
        hands its heavy puzzles here.)"""
        from ..sat import SatSolver

        kept: list[int] = []  # the shared problem's option of each of the own problem's
        memory = None if budget is None else budget.memory

        def own() -> SatSolver:
            problem, options = self._own()
            kept.extend(options)
            return SatSolver(problem, memory)

        cdcl = cdcl_stage(own, back=lambda ids: tuple(sorted(kept[o] for o in ids)))
        return portfolio(want, search_stage(self.solver(memory=memory)), cdcl, budget=budget)

    def solver(self, *, order: str = "input", seed: int | None = None, memory: int | None = None) -> Solver:
        """A solver of the shared problem with this puzzle's givens forced
        (within `memory` bytes, see `covering.Problem.solver`)."""
        solver = _problem(self.n).solver(order=order, seed=seed, memory=memory)
        for k, v in enumerate(self.values):
            if v and not solver.force(k * self.n + v - 1):
                raise SudokuError(f"r{k // self.n + 1}c{k % self.n + 1}: the givens clash")
        return solver

    def _grid(self, ids: Sequence[int]) -> Sudoku:
        values = [0] * (self.n * self.n)
        for o in ids:
            values[o // self.n] = o % self.n + 1
        return Sudoku(self.n, tuple(values), self.symbols, tuple(v != 0 for v in self.values))

    def solutions(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
                  budget: limits.Budget | None = None, order: str = "input",
                  seed: int | None = None) -> Iterator[Sudoku]:
        """The completed grids, one at a time (``order="random"``, with a
        ``seed``: in a random order).

        >>> [g.line() for g in Sudoku.parse("1..." "..1." "...." "...2").solutions(2)]
        ['1324241332414132', '1324241342313142']
        """
        run = limits.begin(budget, nodes, seconds)
        solver = self.solver(order=order, seed=seed, memory=run.memory)
        return (self._grid(ids) for ids in solver.solutions(limit, ids=True, budget=run))

    def _by_bands(self, mode: str, run: limits.Budget, cap: int | None = None) -> str:
        """The answer of the 9 x 9 band solver (through `solve_text`, as a
        file of one line): the grid, ``no solution``, ``multiple`` or the
        count; `LimitReached` when the `run`'s budget ran out first."""
        try:
            outputs, errors = solve_text(self.line(), n=9, symbols=self.symbols, mode=mode, cap=cap, budget=run)
        except Interrupted as e:
            if not run.over() or run.spent == "interrupt":
                raise
            count = e.count if mode == "count" else None
            raise LimitReached(f"budget reached before the answer ({mode})", count=count, stats=None,
                               budget=run.ran_out()) from None
        if errors:
            raise SudokuError(errors[0][1])
        return outputs[0]

    def solve(self, *, seconds: float | None = None, nodes: int | None = None,
              budget: limits.Budget | None = None) -> Sudoku | None:
        """A completed grid, or None if there is none (9 x 9: by the band
        solver; other sizes, or a node budget: the portfolio, dancing links
        then CDCL).

        >>> Sudoku.parse("1.3." ".41." ".1.." "2..1").solve().line()
        '1234341241232341'
        """
        run = limits.begin(budget, nodes, seconds)
        if self.n != 9 or run.nodes is not None:
            found, settled = self._portfolio(1, run)
            if not settled:
                raise unsettled(run, what="the answer")
            return self._grid(found[0]) if found else None
        answer = self._by_bands("solve", run)
        if answer == "no solution":
            return None
        values = Sudoku.parse(answer, self.symbols).values
        return Sudoku(self.n, values, self.symbols, tuple(v != 0 for v in self.values))

    def count(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
              budget: limits.Budget | None = None) -> int:
        """The number of solutions, at most `limit` (9 x 9: by the band
        solver; other sizes, or a node budget: by the exact cover engine).
        No cap of its own: an empty grid counts until a budget stops it.

        >>> Sudoku.parse("." * 16).count()
        288
        >>> Sudoku.parse("." * 81).count(5000)
        5000
        """
        run = limits.begin(budget, nodes, seconds)
        if self.n == 9 and run.nodes is None:
            return int(self._by_bands("count", run, limits.limit(limit)))
        return self.solver(memory=run.memory).count(limit, budget=run)

    def uniqueness(self, *, seconds: float | None = None, nodes: int | None = None,
                   budget: limits.Budget | None = None) -> Uniqueness:
        """NONE, UNIQUE or MULTIPLE (9 x 9: by the band solver); UNKNOWN
        when a budget ran out first.

        >>> Sudoku.parse("1..." "..1." "...." "...2").uniqueness().name
        'MULTIPLE'
        """
        run = limits.begin(budget, nodes, seconds)
        if self.n != 9 or run.nodes is not None:
            found, settled = self._portfolio(2, run)
            return Uniqueness.of(len(found)) if settled else Uniqueness.UNKNOWN
        try:
            answer = self._by_bands("unique", run)
        except LimitReached:
            return Uniqueness.UNKNOWN
        if answer == "no solution":
            return Uniqueness.NONE
        return Uniqueness.MULTIPLE if answer == "multiple" else Uniqueness.UNIQUE

    def check(self, solution: object, /) -> list[str]:
        """The rules `solution` (a completed `Sudoku`) breaks: every cell
        filled, the givens kept, each row, column and box holding each
        digit once (cells named r1c1, 1-based).

        >>> s = Sudoku.parse("1..." "..1." "...." "...2")
        >>> s.check(s.solve())
        []
        >>> s.check(Sudoku.parse("1234" "3412" "2143" "4321"))
        ['r4c4: the given 2 is not kept']
        >>> s.check(s)[:2], len(s.check(s))  # the puzzle itself: 13 cells empty
        (['r1c2: empty', 'r1c3: empty'], 13)
        """
        if not isinstance(solution, Sudoku) or solution.n != self.n:
            return [f"a solution is a completed {self.n} x {self.n} Sudoku"]
        n, b = self.n, math.isqrt(self.n)
        v = solution.values
        broken = [f"r{k // n + 1}c{k % n + 1}: empty" for k in range(n * n) if not v[k]]
        broken += [f"r{k // n + 1}c{k % n + 1}: the given {self.symbols[g - 1]} is not kept"
                   for k, g in enumerate(self.values) if g and v[k] != g]
        units = [("row", r, [r * n + c for c in range(n)]) for r in range(n)]
        units += [("column", c, [r * n + c for r in range(n)]) for c in range(n)]
        units += [("box", k, [((k // b) * b + i // b) * n + (k % b) * b + i % b for i in range(n)]) for k in range(n)]
        for kind, index, cells in units:
            digits = [v[k] for k in cells if v[k]]
            if len(set(digits)) != len(digits):
                broken.append(f"{kind} {index + 1}: a digit twice")
        return broken

    def draw(self, solution: object, /) -> str:
        """A solution (a `Sudoku`) as text, with box separators."""
        return solution.text() if isinstance(solution, Sudoku) else self.text()

    def text(self) -> str:
        """The grid with box separators.

        >>> print(Sudoku.parse(".1.4...34.......").text())
        . 1 | . 4
        . . | . 3
        ----+----
        4 . | . .
        . . | . .
        """
        from ..render.text import display_width, pad

        n, b = self.n, math.isqrt(self.n)
        # Columns, not characters: kanji take two, and "." is padded to match.
        width = max(display_width(s) for s in [*self.symbols, "."])
        box = b * width + b - 1
        rule = "+".join("-" * (box + (1 if i else 0) + (1 if i < b - 1 else 0)) for i in range(b))
        rows = []
        for r in range(n):
            if r and r % b == 0:
                rows.append(rule)
            cells = [pad(self.symbols[v - 1] if v else ".", width) for v in self.values[r * n : (r + 1) * n]]
            rows.append(" | ".join(" ".join(cells[i * b : (i + 1) * b]) for i in range(b)).rstrip())
        return "\n".join(rows)

    def svg(self, cell: int = 32) -> str:
        """An SVG picture: givens in black, filled-in digits in blue."""
        import html  # (here: only pictures need it, and every command's start counts)

        n, b = self.n, math.isqrt(self.n)
        size = n * cell
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 4}" height="{size + 4}" '
            f'viewBox="-2 -2 {size + 4} {size + 4}" font-family="sans-serif">',
            f'<rect x="0" y="0" width="{size}" height="{size}" fill="white"/>',
        ]
        for k in range(1, n):
            w = 2.5 if k % b == 0 else 0.8
            out.append(f'<line x1="{k * cell}" y1="0" x2="{k * cell}" y2="{size}" stroke="black" stroke-width="{w}"/>')
            out.append(f'<line x1="0" y1="{k * cell}" x2="{size}" y2="{k * cell}" stroke="black" stroke-width="{w}"/>')
        out.append(f'<rect x="0" y="0" width="{size}" height="{size}" fill="none" stroke="black" stroke-width="3"/>')
        for k, v in enumerate(self.values):
            if not v:
                continue
            r, c = divmod(k, n)
            given = self.given is None or self.given[k]
            style = 'fill="black" font-weight="bold"' if given else 'fill="#1f5fbf"'
            out.append(
                f'<text x="{(c + 0.5) * cell}" y="{(r + 0.5) * cell}" font-size="{cell * 0.6:g}" '
                f'text-anchor="middle" dominant-baseline="central" {style}>{html.escape(self.symbols[v - 1])}</text>'
            )
        out.append("</svg>")
        return "\n".join(out)

    def _repr_svg_(self) -> str:
        return self.svg()


def random_grid(n: int = 9, seed: int | None = None, symbols: str | None = None) -> Sudoku:
    """A complete grid, found by the engine in a random order (the options
    shuffled, as dancing-links Sudoku solvers often do); the same seed gives the same grid.

    >>> g = random_grid(9, seed=1); g.givens, g.count()
    (81, 1)
    >>> random_grid(9, seed=1) == g != random_grid(9, seed=2)
    True
    """
    _box(n)  # before the grid of n * n cells is built
    seed = random.randrange(2**63) if seed is None else seed
    empty = Sudoku(n, (0,) * (n * n), check_symbols(symbols or _default_symbols(n), n))
    grid = next(empty.solutions(1, order="random", seed=seed))
    return Sudoku(n, grid.values, grid.symbols)


class Generated(NamedTuple):
    """A generated puzzle, its solution, and how hard the engine found it."""

    puzzle: Sudoku
    solution: Sudoku
    #: Search nodes of the proof that the solution is unique.
    difficulty: int


def generate(n: int = 9, seed: int | None = None, min_givens: int = 0, symbols: str | None = None) -> Generated:
    """A puzzle with a unique solution: a random grid, then givens removed in
    a random order as long as the solution stays unique (and at least
    `min_givens` remain). The difficulty is the number of search nodes the
    engine needs to prove uniqueness.

    >>> g = generate(4, seed=3)
    >>> g.puzzle.uniqueness(), g.puzzle.solve() == g.solution
    (<Uniqueness.UNIQUE: 'unique'>, True)
    """
    rng = random.Random(seed)
    solution = random_grid(n, seed=rng.randrange(2**63), symbols=symbols)
    values = list(solution.values)
    cells = list(range(n * n))
    rng.shuffle(cells)
    for k in cells:
        if n * n - values.count(0) <= min_givens:
            break
        keep = values[k]
        values[k] = 0
        if Sudoku(n, tuple(values), solution.symbols).uniqueness() is not Uniqueness.UNIQUE:
            values[k] = keep
    puzzle = Sudoku(n, tuple(values), solution.symbols)
    solver = puzzle.solver()
    solver.uniqueness()
    return Generated(puzzle, Sudoku(n, solution.values, solution.symbols, tuple(v != 0 for v in values)), solver.stats.nodes)


def _settle(puzzle: Sudoku, mode: str, budget: limits.Budget | None) -> str:
    """A heavy puzzle's line of `solve_text`, by the portfolio; raises
    `LimitReached` when the `budget` ran out first."""
    run = limits.begin(budget)
    found, settled = puzzle._portfolio(1 if mode == "solve" else 2, run)
    if not settled:
        raise unsettled(run, what="the answer")
    if not found:
        return "no solution"
    if len(found) > 1:
        return "multiple"
    return puzzle._grid(found[0]).line()


@overload
def solve_text(
    text: str, *, n: int = 9, symbols: str | None = None, mode: str = "solve", cap: int | None = 1000,
    threads: int = 1, budget: limits.Budget | None = None, joined: Literal[False] = False,
) -> tuple[list[str], list[tuple[int, str]]]: ...


@overload
def solve_text(
    text: str, *, n: int = 9, symbols: str | None = None, mode: str = "solve", cap: int | None = 1000,
    threads: int = 1, budget: limits.Budget | None = None, joined: Literal[True],
) -> tuple[str, list[tuple[int, str]]]: ...


@overload
def solve_text(
    text: str, *, n: int = 9, symbols: str | None = None, mode: str = "solve", cap: int | None = 1000,
    threads: int = 1, budget: limits.Budget | None = None, joined: bool,
) -> tuple[list[str] | str, list[tuple[int, str]]]: ...


def solve_text(
    text: str, *, n: int = 9, symbols: str | None = None, mode: str = "solve", cap: int | None = 1000,
    threads: int = 1, budget: limits.Budget | None = None, joined: bool = False,
) -> tuple[list[str] | str, list[tuple[int, str]]]:
    """Answers a file of puzzles, one a line, in the engine (no Python per
    puzzle): for each line the solution, ``no solution``, ``multiple`` (mode
    ``"unique"``), the count (mode ``"count"``), or ``error``; and the
    errors as (line number, message naming the cell).

    >>> out, errors = solve_text(".1.4...34.......\\n11..............\\n", n=4, mode="unique")
    >>> out
    ['3124241342311342', 'error']
    >>> errors
    [(2, 'r1c2: 1 is already in r1c1, in the same row')]

    With ``joined``, the answers come as one text, each line ended by a
    newline (no string per line, for files of many puzzles):

    >>> solve_text(".1.4...34.......\\n", n=4, joined=True)[0]
    '3124241342311342\\n'

    Lines are read as `covering.textio` reads them (a line with a control
    character is an error of its own); ``cap`` None or at or past 2**64 is
    no cap.
    Sizes other than 9 x 9 run dancing links in the engine for each line,
    the first stage of the one portfolio; a puzzle it leaves heavy goes on
    through `Sudoku`'s portfolio (the CDCL solver), so that every line gets
    the answer `Sudoku.solve` or `Sudoku.uniqueness` gives.
    Ctrl-C (or the run's `budget` spent) stops the engine within
    milliseconds and raises `Interrupted`:
    its ``outputs`` and ``errors`` are the answers so far, the last one (in
    mode ``"count"``) the count so far of the puzzle being counted, and
    ``count`` is that number (or the number of puzzles answered).
    """
    checked = limits.limit(cap, "cap")
    cap = limits.WORD - 1 if checked is None else max(1, checked)
    threads = limits.threads(threads)
    symbols = symbols or _default_symbols(n)
    budget = limits.begin(budget)
    answered, errors, complete, heavy = _batch(n, symbols).run(text, mode, cap, threads, budget)
    if joined and complete and not heavy:
        return answered, errors
    outputs = answered.split("\n")[:-1]  # (each line ends with one)
    # (Nothing slow before a cut is reported: at the deadline the command
    # line's watchdog interrupts a run that has not stopped.)
    cut = None  # the first heavy line left unanswered (the engine lists them in order)
    if not complete:
        cut = heavy[0] if heavy else None
    elif heavy:
        lines = text.split("\n")  # as the engine splits them
        for k in heavy:
            try:
                outputs[k] = _settle(Sudoku.parse(lines[k].strip(" \t\x0b\x0c\r"), symbols), mode, budget)
            except (KeyboardInterrupt, LimitReached):
                cut, complete = k, False
                break
    if cut is not None and cut < len(outputs):
        # The answers end with the line worked on, as the engine's do.
        del outputs[cut + 1:]
        outputs[cut] = ""
        errors = [e for e in errors if e[0] <= cut + 1]
    if not complete:
        last = outputs[-1] if outputs else ""
        e = Interrupted(int(last) if mode == "count" and last.isdigit() else len(outputs) - 1)
        e.outputs, e.errors = outputs, errors  # type: ignore[attr-defined]
        raise e
    if joined:
        return "".join(line + "\n" for line in outputs), errors
    return outputs, errors
