"""Tilings on any lattice (`covering.puzzles.polyforms.lattice`): a board
(a set of cells), pieces (sets of cells, each placed in every allowed
orientation and every translate that lies on the board), how often each
piece is used, and counts up to the board's symmetries.

The exact cover problem: a primary item per cell of the board; a primary
item per piece used a bounded number of times (with that multiplicity); an
option per placement. Polysticks add Knuth's rule for tetrasticks: a
secondary item per grid point, taken by each placement whose path passes
through it, so that no two pieces cross or touch in their middles.

Up to symmetry (``symmetry=True``): the board's symmetries are the
lattice's motions that, followed by a translation, map the board onto
itself and the pieces' orientations onto those of pieces of the set (a
reflection maps a one-sided piece to its mirror partner, where the set has
it); the classes are found as for the square lattice
(`covering.puzzles.symmetry`), on placements named by their piece's class
(a piece and its mirror partner are one), so that each class of tilings is
one solution or one canonical tiling, and no count is divided.

>>> from covering.puzzles.polyforms.sets import SOMA
>>> soma = PolyformPuzzle.make("cube", [(x, y, z) for x in range(3) for y in range(3) for z in range(3)], SOMA,
...                            reflections=False)
>>> soma.count(), soma.with_symmetry().count()
(11520, 240)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Union, cast

from ... import limits, sizes
from ...errors import Interrupted, LimitReached, ProblemError
from ...limits import Budget, begin
from ...problem import Problem
from ..base import ExactCover
from ..polyomino import area_reason, drawn
from ..symmetry import Plan, canonical, plan
from .lattice import LATTICES, Lattice, Matrix, Point
from .pictures import svg_of, text_of

__all__ = ["PolyformError", "PolyformPuzzle", "Uses", "connected"]

Uses = Union[str, int, tuple[int, int]]
Cell = tuple[int, ...]
Label = tuple[str, tuple[Cell, ...]]


class PolyformError(ProblemError):
    """A board or piece that cannot be read or placed (a ValueError)."""


def connected(lattice: Lattice, points: Iterable[Point]) -> bool:
    """Are `points` one piece (each reached from the first by neighbours)?

    >>> connected(LATTICES["square"], [(0, 0), (0, 1)]), connected(LATTICES["square"], [(0, 0), (1, 1)])
    (True, False)
    """
    pts = set(points)
    if not pts:
        return False
    first = next(iter(pts))
    seen, todo = {first}, [first]
    while todo:
        for q in lattice.neighbours(todo.pop()):
            if q in pts and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(pts)


def _bounds(uses: Uses | Mapping[str, Uses], names: Sequence[str]) -> dict[str, tuple[int, int] | None]:
    """(lo, hi) of each piece, or None for any number of times."""
    out: dict[str, tuple[int, int] | None] = {}
    for name in names:
        u = uses.get(name, "once") if isinstance(uses, Mapping) else uses
        if u == "any":
            out[name] = None
        elif u == "once":
            out[name] = (1, 1)
        elif isinstance(u, int) and not isinstance(u, bool) and u >= 0:
            out[name] = (u, u)
        elif isinstance(u, tuple) and len(u) == 2 and all(isinstance(v, int) for v in u) and 0 <= u[0] <= u[1]:
            out[name] = (u[0], u[1])
        else:
            raise PolyformError(f"piece {name!r}: uses must be 'once', 'any', N or (LO, HI), not {u!r}")
    return out


@dataclass(frozen=True, eq=False)
class PolyformPuzzle(ExactCover[list[Label]]):
    """Tiling a board on a lattice with pieces (see the module), on the
    puzzle protocol: a solution is the list of placed pieces ``(piece,
    cells)``, cells written as the design writes them. Build one with
    `make`, which checks it.
    """

    lattice: Lattice
    board: tuple[Point, ...]
    pieces: Mapping[str, tuple[Point, ...]]
    bounds: Mapping[str, tuple[int, int] | None]
    rotations: bool = True
    reflections: bool = True
    symmetry: bool = False

    @classmethod
    def make(cls, lattice: str | Lattice, board: Iterable[Sequence[int]], pieces: Mapping[str, Iterable[Sequence[int]]],
             uses: Uses | Mapping[str, Uses] = "once", rotations: bool = True, reflections: bool | None = None,
             symmetry: bool = False) -> PolyformPuzzle:
        """A checked puzzle: `board` and each piece as cells of `lattice`
        (a name of `LATTICES`), `uses` (one for all, or by piece name: a
        name not given is "once"), `rotations`, `reflections` (default:
        True but on the cube, where a piece cannot be turned over).

        >>> PolyformPuzzle.make("hexagon", [(0, 0), (1, 0)], {"d": [(5, 5), (6, 5)]}).count()
        1
        >>> PolyformPuzzle.make("square", [(0, 0)], {"x": [(0, 0), (0, 2)]})
        Traceback (most recent call last):
        ...
        covering.puzzles.polyforms.model.PolyformError: piece 'x' is not connected: (0, 0), (0, 2)
        """
        lat = LATTICES.get(lattice) if isinstance(lattice, str) else lattice
        if lat is None:
            raise PolyformError(f"no lattice {lattice!r} (the lattices: {', '.join(LATTICES)})")

        def points(cells: Iterable[Sequence[int]], what: str) -> tuple[Point, ...]:
            out: list[Point] = []
            for given in cells:
                c: tuple[Any, ...] = tuple(given) if isinstance(given, (list, tuple)) else (given,)
                if not lat.is_cell(c):
                    raise PolyformError(f"{what}: {list(c)!r} is not a cell of the {lat.name} lattice")
                out.append(lat.point(c))
            if len(set(out)) != len(out):
                twice = next(p for p in out if out.count(p) > 1)
                raise PolyformError(f"{what}: the cell {lat.cell(twice)} is listed twice")
            return tuple(out)

        board_points = points(board, "the board")
        if not board_points:
            raise PolyformError("the board has no cell")
        shapes: dict[str, tuple[Point, ...]] = {}
        for name, cells in pieces.items():
            if not isinstance(name, str) or not name or any(ch.isspace() or not ch.isprintable() for ch in name):
                raise PolyformError(f"a piece's name must be printable text without blanks, not {name!r}")
            pts = points(cells, f"piece {name!r}")
            if not pts:
                raise PolyformError(f"piece {name!r} has no cell")
            if not connected(lat, pts):
                raise PolyformError(f"piece {name!r} is not connected: "
                                    + ", ".join(str(lat.cell(p)) for p in pts))
            shapes[name] = pts
        if not shapes:
            raise PolyformError("there is no piece")
        refl = lat.name != "cube" if reflections is None else bool(reflections)
        made = cls(lat, board_points, shapes, _bounds(uses, list(shapes)), bool(rotations), refl)
        return made.with_symmetry() if symmetry else made

    def with_symmetry(self, symmetry: bool = True) -> PolyformPuzzle:
        """The same puzzle, its tilings up to the board's symmetries (or
        not). Up to symmetry, pieces of the same shape are interchangeable
        (the design's rule): they become one piece, under the first name,
        used as often as they were together.

        >>> two = PolyformPuzzle.make("square", [(0, 0), (0, 1), (0, 2), (0, 3)],
        ...                           {"a": [(0, 0), (0, 1)], "b": [(0, 0), (1, 0)]})
        >>> two.count(), two.with_symmetry().count(), sorted(two.with_symmetry().pieces)
        (2, 1, ['a'])
        """
        if not symmetry:
            return replace(self, symmetry=False)
        kinds: dict[frozenset[tuple[Point, ...]], str] = {}
        pieces: dict[str, tuple[Point, ...]] = {}
        bounds: dict[str, tuple[int, int] | None] = {}
        for name, points in self.pieces.items():
            kind = frozenset(self.orientations(name))
            first = kinds.setdefault(kind, name)
            b = self.bounds[name]
            if first == name:
                pieces[name], bounds[name] = points, b
                continue
            a = bounds[first]
            bounds[first] = None if a is None or b is None else (a[0] + b[0], a[1] + b[1])
        made = replace(self, pieces=pieces, bounds=bounds, symmetry=True)
        if len(pieces) == len(self.pieces):
            # (The same pieces on the same board: the same orientations and placements.)
            for key, value in self.__dict__.items():
                if key == "_placements_made" or key.startswith("_orientations "):
                    object.__setattr__(made, key, value)
        return made

    # -- placements ----------------------------------------------------------

    def orientations(self, name: str) -> list[tuple[Point, ...]]:
        """The distinct orientations of a piece (normalized points).

        >>> p = PolyformPuzzle.make("square", [(0, 0), (0, 1)], {"d": [(0, 0), (0, 1)]})
        >>> len(p.orientations("d"))
        2
        """
        def turned() -> list[tuple[Point, ...]]:
            found: dict[tuple[Point, ...], None] = {}
            for m in self.lattice.motions(self.rotations, self.reflections):
                found.setdefault(self.lattice.normalized(self.lattice.moved(m, self.pieces[name])))
            return list(found)

        # (Kept: the placements, the group and the merge of shapes each ask.)
        return list(self._once(turned, f"_orientations {name}"))

    def _placements(self) -> dict[str, list[frozenset[Point]]]:
        """Every placement of every piece on the board (a piece that may not
        be used has none), found once."""
        return self._once(self._placed, "_placements_made")

    def _placed(self) -> dict[str, list[frozenset[Point]]]:
        """`_placements`, found. Points are numbered so that a translation
        is an addition (each coordinate offset and scaled past every point
        a piece can reach from the board): a placement is then a few sums
        and set lookups, with no tuple made but for those that fit."""
        s = self.lattice.step
        orientations = {name: self.orientations(name) for name in self.pieces}
        sizes.check_problem(f"tiling a board of {len(self.board)} cells",
                            sum(map(len, orientations.values())) * len(self.board),
                            sum(len(orientations[n]) * (len(p) + 1) for n, p in self.pieces.items()) * len(self.board))
        dims = range(len(self.board[0]))
        reach = max(max(p[i] for o in os for p in o) for os in orientations.values() for i in dims)
        low = [min(p[i] for p in self.board) - reach for i in dims]
        scale, strides = 1, []
        for i in dims:
            strides.append(scale)
            scale *= max(p[i] for p in self.board) + reach - low[i] + 1

        def number(p: Point) -> int:
            return sum((v - lo) * k for v, lo, k in zip(p, low, strides))

        board = {number(p): p for p in self.board}
        # The board's points by residue: a piece's anchor goes only where a
        # translation takes it (a multiple of the step in every coordinate).
        by_residue: dict[Point, list[int]] = {}
        for code, p in board.items():
            by_residue.setdefault(tuple(v % s for v in p), []).append(code)
        out: dict[str, list[frozenset[Point]]] = {}
        for name in self.pieces:
            b = self.bounds[name]
            out[name] = placed = []
            if b is not None and b[1] == 0:
                continue
            for o in orientations[name]:
                anchor = number(o[0])
                offsets = [number(p) - anchor for p in o]
                for target in by_residue.get(tuple(v % s for v in o[0]), ()):
                    if all(target + d in board for d in offsets):
                        placed.append(frozenset(board[target + d] for d in offsets))
        return out

    def _interior(self, placed: Iterable[Point]) -> list[Point]:
        """Sticks: the grid points a piece's path passes through."""
        count: dict[Point, int] = {}
        for p in placed:
            for e in self.lattice.ends(p):
                count[e] = count.get(e, 0) + 1
        return sorted(e for e, k in count.items() if k >= 2)

    # -- symmetry ------------------------------------------------------------

    def group(self) -> list[tuple[Matrix, Point, dict[str, str]]]:
        """The board's symmetries (see the module): each a motion, the
        translation after it, and where it sends each piece (identity
        first).

        >>> p = PolyformPuzzle.make("square", [(r, c) for r in range(2) for c in range(3)], {"d": [(0, 0), (0, 1)]},
        ...                         uses="any")
        >>> len(p.group())
        4
        """
        return self._once(self._motions_onto, "_group_made")

    def _motions_onto(self) -> list[tuple[Matrix, Point, dict[str, str]]]:
        """`group`, found."""
        lat = self.lattice
        target = lat.normalized(self.board)
        s = lat.step
        low = [min(p[i] for p in self.board) // s * s for i in range(len(self.board[0]))]
        kinds = {name: frozenset(self.orientations(name)) for name in self.pieces}
        out = []
        for m in lat.motions(True, True):
            moved = lat.moved(m, self.board)
            if lat.normalized(moved) != target:
                continue
            mlow = [min(p[i] for p in moved) // s * s for i in range(len(moved[0]))]
            shift = tuple(a - b for a, b in zip(low, mlow))
            sends: dict[str, str] = {}
            for name, kind in kinds.items():
                image = frozenset(lat.normalized(lat.moved(m, o)) for o in kind)
                other = next((q for q, k in kinds.items() if k == image and self.bounds[q] == self.bounds[name]),
                             None)
                if other is None:
                    break
                sends[name] = other
            else:
                out.append((m, shift, sends))
        return out

    def _classes(self) -> dict[str, str]:
        """Each piece's class: the pieces the symmetries send it to, named
        together (``"P|Q"``)."""
        parent = {name: name for name in self.pieces}

        def root(x: str) -> str:
            while parent[x] != x:
                x = parent[x]
            return x

        for _, _, sends in self.group():
            for a, b in sends.items():
                parent[root(a)] = root(b)
        members: dict[str, list[str]] = {}
        for name in self.pieces:
            members.setdefault(root(name), []).append(name)
        return {name: "|".join(sorted(members[root(name)])) for name in self.pieces}

    def _transforms(self) -> list[Any]:
        """The symmetries as maps of the board's points (tables: the plan
        applies them to every placement of every piece)."""
        lat = self.lattice
        out = []
        for m, shift, _ in self.group():
            moved = lat.moved(m, self.board)
            table = {p: tuple(v + d for v, d in zip(q, shift)) for p, q in zip(self.board, moved)}
            out.append(table.__getitem__)
        return out

    def _plan(self) -> Plan:
        """How to list each class once (`covering.puzzles.symmetry`), made
        once; without ``symmetry``, nothing to do."""
        return self._once(self._planned, "_plan_made")

    def _planned(self) -> Plan:
        """`_plan`, made."""
        if not self.symmetry:
            return Plan()
        cls_of = self._classes()
        keyed: dict[str, list[tuple[str, frozenset[Point]]]] = {}
        for name, xs in self._placements().items():
            keyed.setdefault(cls_of[name], []).extend((cls_of[name], x) for x in xs)
        once = [c for c in keyed if "|" not in c and self.bounds[c] == (1, 1)]
        # (The plan's cells are any hashable points: its square typing aside.)
        return plan(cast(Any, keyed), self._transforms(), once)

    # -- the exact cover problem ---------------------------------------------

    def _build(self, dropped: set[Any], extra: Mapping[Any, list[str]]) -> Problem:
        lat = self.lattice
        cls_of = self._classes() if self.symmetry else {n: n for n in self.pieces}
        primary = [",".join(map(str, lat.cell(p))) for p in self.board]
        bounded = [(n, b) for n, b in self.bounds.items() if b is not None and b[1] > 0]
        primary += [n for n, _ in bounded]
        sticks = lat.name == "sticks"
        points = sorted({e for p in self.board for e in lat.ends(p)}) if sticks else []
        secondary = [f"p{x // 2},{y // 2}" for x, y in points]
        secondary += sorted({i for items in extra.values() for i in items})
        number = {name: k for k, name in enumerate(primary + secondary)}
        cell_item = {p: k for k, p in enumerate(self.board)}
        point_item = {e: len(primary) + k for k, e in enumerate(points)}
        start, item, labels = [0], [], []
        for name, xs in self._placements().items():
            own = [number[name]] if self.bounds[name] is not None else []
            for x in xs:
                key = (cls_of[name], x)
                if key in dropped:
                    continue
                cells = sorted(x)
                item += own
                item += [cell_item[p] for p in cells]
                if sticks:
                    item += [point_item[e] for e in self._interior(cells)]
                item += [number[e] for e in extra.get(key, ())]
                start.append(len(item))
                labels.append((name, tuple(lat.cell(p) for p in cells)))
        bounds = [(1, 1)] * len(self.board) + [b for _, b in bounded]
        return Problem.from_arrays(primary, start, item, secondary=secondary, bounds=bounds, labels=labels)

    def problem(self) -> Problem:
        """The exact cover problem (see the module); with ``symmetry``, the
        one restricted to a tiling of each class where no tiling needs
        filtering.

        >>> p = PolyformPuzzle.make("hexagon", [(0, 0), (1, 0), (0, 1)], {"a": [(0, 0)]}, uses="any")
        >>> p.problem().n_options
        3
        """
        def build() -> Problem:
            p = self._plan()
            return self._build(p.dropped | {r for r, _ in p.filtered if r is not None}, p.extra)
        return self._once(build)

    def why_none(self) -> str | None:
        """Why no tiling can exist, from the areas alone (None: they allow it).

        >>> PolyformPuzzle.make("square", [(0, 0)], {"d": [(0, 0), (0, 1)]}).why_none()
        'the pieces cover 2 cells, the board has 1'
        """
        return area_reason({n: len(p) for n, p in self.pieces.items()}, self.bounds, len(self.board))

    def count(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
              budget: Budget | None = None) -> int:
        """The number of tilings (with ``symmetry``: of classes), at most `limit`.

        >>> p = PolyformPuzzle.make("square", [(r, c) for r in range(2) for c in range(4)],
        ...                         {"d": [(0, 0), (0, 1)]}, uses="any")
        >>> p.count(), p.count(3), p.with_symmetry().count()
        (5, 3, 4)
        """
        run = begin(budget, nodes, seconds)
        cap = limits.limit(limit)
        return self.count_with(lambda problem: problem.count(cap, budget=run), budget=run, cap=cap)

    def count_with(self, count: Callable[[Problem], int], budget: Budget | None = None,
                   cap: int | None = None) -> int:
        """The number of tilings (with ``symmetry``: of classes), every count
        of a problem made by `count` (the command line passes its flags to
        the front door this way): from the classes where `orbits` allows,
        with the tilings the plan filters counted one by one. With `cap`
        (`count` then stops there), at most `cap`, from the problem itself.

        >>> p = PolyformPuzzle.make("square", [(r, c) for r in range(2) for c in range(4)],
        ...                         {"d": [(0, 0), (0, 1)]}, uses="any")
        >>> p.count_with(lambda problem: problem.count()), p.with_symmetry().count_with(lambda q: q.count())
        (5, 4)
        """
        run = begin(budget, None, None)
        if self.why_none() is not None:
            return 0
        classes = self.orbits() if cap is None else None
        if classes is not None:
            return classes.count_every(count)
        p = self._plan()
        total = 0 if any(r is None for r, _ in p.filtered) else count(self.problem())
        if p.filtered and (cap is None or total < cap):
            total += self._count_filtered(p, run, total)
        return total if cap is None else min(total, cap)

    def orbits(self) -> PolyformPuzzle | None:
        """This puzzle up to symmetry, where all its tilings are counted
        faster from the problem of its classes (`count_every`): the board
        has symmetries, no two pieces are of one shape (the classes would
        then take them as one), and a piece or a cell breaks the symmetry (a
        plan that filters every tiling would list them one by one). None
        where not.

        >>> from covering.puzzles.polyforms.sets import SOMA
        >>> soma = PolyformPuzzle.make("cube", [(x, y, z) for x in range(3) for y in range(3) for z in range(3)],
        ...                            SOMA)
        >>> len(soma.orbits().group())
        48
        """
        def found() -> PolyformPuzzle | None:
            if self.symmetry:
                return None
            classes = self.with_symmetry()
            if len(classes.pieces) < len(self.pieces) or len(classes.group()) < 2:
                return None
            if any(r is None for r, _ in classes._plan().filtered):
                return None
            return classes

        return self._once(found, "_orbits_made")

    def count_every(self, count: Callable[[Problem], int]) -> int:
        """Every tiling, counted from this puzzle up to symmetry (`orbits`)
        with `count` (a count of a problem's solutions). The placements of
        the breaking piece or cell (`covering.puzzles.symmetry`) fall in
        orbits; every tiling holds one of them, so the tilings number
        ``sum(|G| / |H_r| * |X_r|)`` over one placement r of each orbit,
        ``X_r`` the tilings holding r and ``H_r`` the symmetries that leave
        r in place. Where ``H_r`` is trivial or broken by a second piece, the
        classes' problem holds ``|X_r| / |H_r|`` tilings with r: together
        they are ``|G|`` times its count. Where the plan filters ``X_r``,
        the tilings with r are counted by a problem in which r is forced. No
        tiling is listed; every count is `count`'s, whatever method it picks.

        >>> from covering.puzzles.polyforms.sets import polyforms
        >>> hexi = PolyformPuzzle.make("triangle", [(x, y, t) for x in range(9) for y in range(4) for t in (0, 1)],
        ...                            polyforms("triangle", 6))
        >>> hexi.orbits().count_every(lambda problem: problem.count()), hexi.problem().count()
        (148, 148)
        """
        order = len(self.group())
        p = self._plan()
        total, weight = 0, order
        try:
            total = order * count(self.problem())
            for r, stays in p.filtered:
                assert r is not None and order % len(stays) == 0  # (Lagrange: H_r is a subgroup)
                weight = order // len(stays)
                total += weight * count(self._holding(r))
        except (Interrupted, LimitReached) as e:
            # A partial count: the tilings met so far with the images of
            # each (a lower bound).
            if e.count is not None:
                e.count = total + weight * e.count
            raise
        return total

    def _holding(self, r: tuple[str, frozenset[Point]]) -> Problem:
        """The problem of the tilings that hold placement r (its piece's
        class, its points): every other placement over r's cells taken out."""
        cls_of = self._classes()
        over = {(cls_of[name], x) for name, xs in self._placements().items() for x in xs if x & r[1]}
        return self._build(self._plan().dropped | (over - {r}), {})

    def _count_filtered(self, p: Plan, run: Budget, before: int = 0) -> int:
        """The canonical tilings the plan filters (`before`: the count
        already made, for a partial count if a budget or Ctrl-C stops this)."""
        full = self._once(lambda: self._build(p.dropped, p.extra), "_full_made")
        lat = self.lattice
        cls_of = self._classes()
        index = self._keyed(full)
        total = 0
        for r, group in p.filtered:
            solver = full.solver(memory=run.memory)
            if r is not None:
                solver.force(index[r])
            moves: list[Any] = group[1:]
            perms = [[index.get((cls_of[name], frozenset(g(lat.point(c)) for c in cells)), 2**32 - 1)
                      for name, cells in full.labels] for g in moves]
            try:
                total += solver.count_canonical(perms, budget=run)
            except Interrupted as e:
                raise Interrupted(None if e.count is None else before + total + e.count, e.stats, e.where) from None
            except LimitReached as e:
                if e.count is not None:
                    e.count += before + total
                raise
        return total

    def _keyed(self, full: Problem) -> dict[tuple[str, frozenset[Point]], int]:
        """The option id of each placement of `full`, by (class, points)."""
        lat, cls_of = self.lattice, self._classes()
        return {(cls_of[name], frozenset(lat.point(c) for c in cells)): k
                for k, (name, cells) in enumerate(full.labels)}

    def solutions(self, limit: int | None = None, /, *, seconds: float | None = None, nodes: int | None = None,
                  budget: Budget | None = None) -> Iterator[list[Label]]:
        """The tilings, lazily, at most `limit` (with ``symmetry``: one a class).

        >>> p = PolyformPuzzle.make("square", [(0, 0), (0, 1)], {"a": [(0, 0)]}, uses="any")
        >>> list(p.solutions())
        [[('a', ((0, 0),)), ('a', ((0, 1),))]]
        """
        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return iter(())
        p = self._plan()
        if not p.filtered:
            return super().solutions(limit, budget=run)
        return self._classes_listed(p, limits.limit(limit), run)

    def _classes_listed(self, p: Plan, limit: int | None, run: Budget) -> Iterator[list[Label]]:
        found = 0
        if not any(r is None for r, _ in p.filtered):
            for ids in self.problem().solutions(limit, ids=True, budget=run):
                found += 1
                yield self.decode(ids)
        full = self._once(lambda: self._build(p.dropped, p.extra), "_full_made")
        lat, cls_of = self.lattice, self._classes()
        index = self._keyed(full)
        for r, group in p.filtered:
            solver = full.solver(memory=run.memory)
            if r is not None:
                solver.force(index[r])
            for labels in solver.solutions(budget=run):
                if limit is not None and found >= limit:
                    return
                keyed = [(cls_of[name], frozenset(lat.point(c) for c in cells)) for name, cells in labels]
                if canonical(cast(Any, keyed), group):
                    found += 1
                    yield list(labels)

    def random(self, limit: int | None = 1, /, *, seed: int | None = None, seconds: float | None = None,
               nodes: int | None = None, budget: Budget | None = None) -> Iterator[list[Label]]:
        """Up to `limit` different tilings (with ``symmetry``: classes)
        drawn uniformly at random, from `seed`: from the problem's diagram
        (`covering.puzzles.polyomino.drawn`, as on the square lattice); classes
        that need filtering are listed, then shuffled by the seed.

        >>> from covering.puzzles.polyforms.sets import SOMA
        >>> soma = PolyformPuzzle.make("cube", [(x, y, z) for x in range(3) for y in range(3) for z in range(3)],
        ...                            SOMA)
        >>> one = next(soma.random(seed=5))
        >>> soma.check(one), one == next(soma.random(seed=5))
        ([], True)
        """
        import random

        run = begin(budget, nodes, seconds)
        if self.why_none() is not None:
            return iter(())
        first = random.randrange(2**63) if seed is None else limits.seed(seed)
        p = self._plan()
        if p.filtered:
            every = list(self._classes_listed(p, None, run))
            random.Random(first).shuffle(every)
            return iter(every[:limits.limit(limit)])
        return drawn(self.problem(), limits.limit(limit), first, run)

    def decode(self, ids: Sequence[int]) -> list[Label]:
        """The placed pieces of option ids of `problem()`.

        >>> p = PolyformPuzzle.make("square", [(0, 0)], {"a": [(0, 0)]})
        >>> p.decode([0])
        [('a', ((0, 0),))]
        """
        labels = self.problem().labels
        return [labels[o] for o in ids]

    def check(self, solution: object, /) -> list[str]:
        """The rules a tiling breaks, from the puzzle itself: each placed
        piece is a piece in an allowed orientation, the board covered
        once, each piece used as often as allowed, and polysticks do not
        cross.

        >>> p = PolyformPuzzle.make("square", [(0, 0), (0, 1)], {"a": [(0, 0)]}, uses="any")
        >>> p.check([("a", [(0, 0)])])
        ['(0, 1) is not covered']
        """
        lat = self.lattice
        broken: list[str] = []
        covered: dict[Point, str] = {}
        used: dict[str, int] = {}
        through: dict[Point, str] = {}
        try:
            placed = [(name, [lat.point(tuple(c)) for c in cells]) for name, cells in cast(Any, solution)]
        except (TypeError, ValueError):
            return ["a tiling is a list of (piece, cells)"]
        for name, pts in placed:
            if name not in self.pieces:
                broken.append(f"{name!r} is not a piece")
                continue
            used[name] = used.get(name, 0) + 1
            if lat.normalized(pts) not in set(self.orientations(name)):
                broken.append(f"{name}: cells {[lat.cell(p) for p in pts]} are not a placement of it")
            for p in pts:
                if p not in set(self.board):
                    broken.append(f"{name}: {lat.cell(p)} is not on the board")
                elif p in covered:
                    broken.append(f"{lat.cell(p)} is covered by {covered[p]} and {name}")
                covered[p] = name
            if lat.name == "sticks":
                for e in self._interior(pts):
                    if e in through:
                        broken.append(f"{through[e]} and {name} cross at ({e[0] // 2}, {e[1] // 2})")
                    through[e] = name
        broken += [f"{lat.cell(p)} is not covered" for p in self.board if p not in covered]
        for name, b in self.bounds.items():
            k = used.get(name, 0)
            if b is not None and not b[0] <= k <= b[1]:
                broken.append(f"{name} is used {k} times, not {b[0]}..{b[1]}" if b[0] != b[1]
                              else f"{name} is used {k} times, not {b[0]}")
        return broken

    # -- pictures --------------------------------------------------------------

    def text(self) -> str:
        """The board as text (`pictures.text_of`).

        >>> print(PolyformPuzzle.make("square", [(0, 0), (1, 1)], {"a": [(0, 0)]}, uses="any").text())
        #.
        .#
        """
        return text_of(self, None)

    def draw(self, solution: object, /) -> str:
        """A tiling as text, a letter a piece.

        >>> p = PolyformPuzzle.make("square", [(0, 0), (0, 1)], {"d": [(0, 0), (0, 1)]})
        >>> p.draw(p.solve())
        'dd'
        """
        return text_of(self, cast(Any, solution))

    def svg(self) -> str:
        """The board as SVG (`pictures.svg_of`).

        >>> PolyformPuzzle.make("triangle", [(0, 0, 0)], {"t": [(0, 0, 0)]}).svg().count("<polygon")
        1
        """
        return svg_of(self, None)
