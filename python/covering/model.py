"""The exact cover problem as data, at the bottom of the package.

An exact cover problem has *items* and *options* (sets of items). Primary
items must each be covered exactly once, or between ``lo`` and ``hi`` times
when they have bounds (Knuth's multiplicities); secondary items at most once,
unless every option that has one gives it the same *color*. A solution is a
set of options meeting all of that.

`ProblemData` holds it: item names numbered primary first (the engine's
numbering), bounds, color names numbered from 1, the options as flat arrays
of 32-bit numbers (CSR form: option ``o`` is ``item[start[o]:start[o + 1]]``),
and the labels (`covering.labels`). It builds option by option
(`add_option`) or in bulk from arrays (`add_options`, `from_arrays`: no
Python call per option), and `compile()` hands the arrays to the engine.
It knows nothing of searching: the verbs (solving, counting, diagrams, the
CDCL solver, threads and clusters) take it from the floors above, and
`covering.Problem`, the public class, adds them as methods. Every check by
name happens here, so errors can say which option and which item.

>>> p = ProblemData()
>>> p.add_primary(["A", "B"])
>>> p.add_secondary(["x"])
>>> p.add_option(["A", "x:red"])
0
>>> p.add_options([0, 1, 3], [1, 0, 1], labels=["b", "ab"])
>>> p.n_options, p.labels, p.option(2)
(3, [('A', 'x:red'), 'b', 'ab'], [('A', None), ('B', None)])
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from . import _core
from .errors import (
    BoundsError,
    ColorError,
    CostError,
    DuplicateItemError,
    NoPrimaryItemError,
    OptionSkippedWarning,
    ProblemError,
    UnknownItemError,
    warn,
)
from .labels import ENTRIES, Labels

__all__ = ["ProblemData", "Search", "check_bounds"]


def _token(name: Any, color: Any) -> Any:
    """An item of an option as a label token: its name, with its color as
    ``name:color`` (as a ``.dlx`` line writes it) when both are text, else
    the pair."""
    if color is None:
        return name
    if isinstance(name, str) and isinstance(color, str):
        return f"{name}:{color}"
    return (name, color)

#: The engine takes bounds up to 2**64 - 1; any bound past the number of
#: options behaves the same, so larger ones are saturated.
_U64 = 2**64 - 1
#: Skipped options named in a warning at most.
_NAMED = 5

if TYPE_CHECKING:
    # (For the checker only: a bound named by a string is compiled when the
    # TypeVar is made, 1.5 ms of every command's start.)
    P = TypeVar("P", bound="ProblemData")


def check_bounds(name: Hashable, bounds: tuple[int, int]) -> tuple[int, int]:
    """Bounds ``(lo, hi)`` with ``0 <= lo <= hi`` and ``hi >= 1``, or a
    `BoundsError` naming the item.

    >>> check_bounds("N", (0, 2))
    (0, 2)
    >>> check_bounds("N", (3, 2))
    Traceback (most recent call last):
    ...
    covering.errors.BoundsError: item 'N': lower bound 3 exceeds upper bound 2
    """
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise BoundsError(f"item {name!r}: bounds must be a pair (lo, hi), not {bounds!r}") from None
    if not (isinstance(lo, int) and isinstance(hi, int)) or isinstance(lo, bool) or isinstance(hi, bool):
        raise BoundsError(f"item {name!r}: bounds must be integers, not {bounds!r}")
    if hi < 1:
        raise BoundsError(f"item {name!r}: upper bound is {hi}, it must be at least 1")
    if lo < 0:
        raise BoundsError(f"item {name!r}: lower bound {lo} is negative")
    if lo > hi:
        raise BoundsError(f"item {name!r}: lower bound {lo} exceeds upper bound {hi}")
    return lo, hi


def check_cost(cost: Any, where: str) -> int:
    """`cost` as an int, if it is a whole number from 0 to 2**64 - 1.

    >>> check_cost(7, "option 0")
    7
    >>> check_cost(-1, "option 3")
    Traceback (most recent call last):
    ...
    covering.errors.CostError: option 3: cost -1 is not a whole number from 0 to 2**64 - 1
    """
    if isinstance(cost, bool) or not (isinstance(cost, int) or hasattr(cost, "__index__")):
        raise CostError(f"{where}: cost {cost!r} is not a whole number from 0 to 2**64 - 1")
    value = int(cost.__index__())
    if not 0 <= value <= _U64:
        raise CostError(f"{where}: cost {cost!r} is not a whole number from 0 to 2**64 - 1")
    return value


def u64_array(values: Any, what: str) -> array[int]:
    """`values` (a list, an array or a numpy array) as an array of 64-bit
    costs, each checked (an error names the first bad one by its place).

    >>> list(u64_array([0, 5, 2**64 - 1], "costs"))
    [0, 5, 18446744073709551615]
    """
    if isinstance(values, array) and values.typecode == "Q":
        return values
    dtype = getattr(values, "dtype", None)
    if dtype is not None and getattr(dtype, "kind", "") in "iu" and getattr(values, "ndim", 1) == 1:
        # numpy: checked and converted at C speed (negative ones named below).
        if not len(values) or values.min() >= 0:
            out = array("Q")
            out.frombytes(values.astype("=u8").tobytes())
            return out
    out = array("Q")
    for k, v in enumerate(values):
        out.append(check_cost(v, f"{what}[{k}]"))
    return out


def u32_array(values: Any, what: str) -> array[int]:
    """Numbers (a list, a numpy array, any iterable of ints) as an
    ``array("I")``, or a `ProblemError` naming the first that is not a
    number from 0 to 2**32 - 1.

    >>> u32_array([0, 5], "option_item")
    array('I', [0, 5])
    >>> try:
    ...     u32_array([1, -1], "option_item")
    ... except ProblemError as e:
    ...     print(e)
    option_item[1]: -1 is not a number from 0 to 2**32 - 1
    """
    if isinstance(values, array) and values.typecode == "I":
        return values
    dtype = getattr(values, "dtype", None)
    if dtype is not None and getattr(dtype, "kind", "") in "iub" and getattr(values, "ndim", 1) == 1:
        # numpy: checked and converted at C speed.
        if len(values) and (values.min() < 0 or values.max() > 2**32 - 1):
            pass  # named below, by the slow path
        else:
            out = array("I")
            out.frombytes(values.astype("=u4").tobytes())
            return out
    try:
        return array("I", values)
    except (OverflowError, TypeError):
        pass
    for k, v in enumerate(values):
        if isinstance(v, bool) or not (isinstance(v, int) or hasattr(v, "__index__")) or not 0 <= int(v) < 2**32:
            raise ProblemError(f"{what}[{k}]: {v!r} is not a number from 0 to 2**32 - 1")
    raise ProblemError(f"{what}: not a sequence of numbers")


class ProblemData:
    """An exact cover problem as data: items, bounds, colors, options, labels.

    Items are any hashable names (strings are usual). An option is a list of
    entries, each an item name, or a secondary item with a color written
    ``"name:color"`` or ``(name, color)``.

    >>> p = ProblemData()
    >>> p.add_primary(["r0", "r1", "c0", "c1"])
    >>> for r in range(2):
    ...     for c in range(2):
    ...         _ = p.add_option([f"r{r}", f"c{c}"], label=(r, c))
    >>> p.compile()
    CompiledProblem(4 primary, 0 secondary items, 4 options)
    """

    #: (For problems pickled before options had costs.)
    _cost: array[int] | None = None

    #: The engine the portfolio's first search dances on ("cells" or
    #: "bits"), where the puzzle that built the problem measured better than
    #: the engine's rule (`_core.CompiledProblem.first_engine`, which None
    #: leaves to decide): Sudokus on regions (`covering.puzzles.regions`).
    first_engine: str | None = None

    def __init__(self) -> None:
        # Items by the engine's numbers: primary first, in the order declared.
        self._names: list[Hashable] = []
        self._index: dict[Hashable, int] = {}
        self._n_primary = 0
        # Bounds of the primary items, as given (Python ints of any size).
        self._lo: list[int] = []
        self._hi: list[int] = []
        # Color c (from 1) is _color_names[c - 1].
        self._color_names: list[Hashable] = []
        self._color_index: dict[Hashable, int] = {}
        # The options, in CSR form; _color is as long as _item (0 = none).
        self._start = array("I", [0])
        self._item = array("I")
        self._color = array("I")
        self._labels = Labels()
        # Each option's cost (DLX5's); None while every cost is 0.
        self._cost: array[int] | None = None
        self._compiled: _core.CompiledProblem | None = None

    # ------------------------------------------------------------------ items

    def add_primary(self, names: Iterable[Hashable], bounds: tuple[int, int] | None = None) -> None:
        """Declares primary items: covered exactly once, or ``lo..hi`` times.

        >>> p = ProblemData()
        >>> p.add_primary(["A", "B"])
        >>> p.add_primary(["N"], bounds=(2, 3))
        >>> p.primary
        ['A', 'B', 'N']
        """
        if isinstance(names, str):
            raise TypeError("add_primary takes a list of names; wrap a single name in a list")
        new = list(names)
        seen: set[Hashable] = set()
        for name in new:
            self._check_new(name)
            if name in seen:
                raise DuplicateItemError(f"item {name!r} is declared twice")
            seen.add(name)
        lo, hi = (1, 1) if bounds is None else check_bounds(new[0] if new else None, bounds)
        if not new:
            return
        n, shift = self._n_primary, len(new)
        if len(self._names) > n:
            # Secondary items are numbered after the primary ones: they move.
            for name in self._names[n:]:
                self._index[name] += shift
            if any(i >= n for i in self._item):
                self._item = array("I", (i + shift if i >= n else i for i in self._item))
        self._names[n:n] = new
        for k, name in enumerate(new):
            self._index[name] = n + k
        self._n_primary += shift
        self._lo.extend([lo] * shift)
        self._hi.extend([hi] * shift)
        self._compiled = None

    def add_secondary(self, names: Iterable[Hashable]) -> None:
        """Declares secondary items: covered at most once, or by options that
        all give them the same color.

        >>> p = ProblemData()
        >>> p.add_secondary(["x", "y"])
        >>> p.secondary
        ['x', 'y']
        """
        if isinstance(names, str):
            raise TypeError("add_secondary takes a list of names; wrap a single name in a list")
        for name in list(names):
            self._check_new(name)
            self._index[name] = len(self._names)
            self._names.append(name)
        self._compiled = None

    def _check_new(self, name: Hashable) -> None:
        if not isinstance(name, Hashable):
            raise TypeError(f"item names must be hashable, not {type(name).__name__}")
        if name in self._index:
            raise DuplicateItemError(f"item {name!r} is declared twice")
        if isinstance(name, str) and name == "":
            raise UnknownItemError("an item name cannot be empty")

    def has_item(self, name: Hashable) -> bool:
        """Is `name` a declared item (primary or secondary)?

        >>> p = ProblemData(); p.add_secondary(["x"]); p.has_item("x"), p.has_item("y")
        (True, False)
        """
        try:
            return name in self._index
        except TypeError:
            return False

    @property
    def primary(self) -> list[Hashable]:
        """The primary items, in the order declared."""
        return self._names[: self._n_primary]

    @property
    def secondary(self) -> list[Hashable]:
        """The secondary items, in the order declared."""
        return self._names[self._n_primary :]

    def bounds(self, item: Hashable) -> tuple[int, int]:
        """The bounds ``(lo, hi)`` of a primary item.

        >>> p = ProblemData(); p.add_primary(["N"], bounds=(0, 2)); p.bounds("N")
        (0, 2)
        """
        i = self._index.get(item, -1) if isinstance(item, Hashable) else -1
        if not 0 <= i < self._n_primary:
            raise UnknownItemError(f"no primary item {item!r}")
        return self._lo[i], self._hi[i]

    # ---------------------------------------------------------------- options

    def _entry(self, entry: Any, where: str) -> tuple[Hashable, Hashable | None]:
        """Splits one entry of an option into (item, color or None)."""
        if self.has_item(entry):
            return entry, None
        if isinstance(entry, tuple) and len(entry) == 2:
            name, color = entry
            if self.has_item(name):
                return name, color
        if isinstance(entry, str) and ":" in entry:
            name, _, color = entry.rpartition(":")
            if self.has_item(name):
                if color == "":
                    raise ColorError(f"{where}: empty color for item {name!r}")
                return name, color
            raise UnknownItemError(f"{where}: unknown item {name!r}")
        if not isinstance(entry, Hashable):
            raise TypeError(f"{where}: an item must be hashable, not {type(entry).__name__}")
        raise UnknownItemError(f"{where}: unknown item {entry!r}")

    def _color_id(self, color: Hashable) -> int:
        c = self._color_index.get(color)
        if c is None:
            self._color_names.append(color)
            c = self._color_index[color] = len(self._color_names)
        return c

    def add_option(self, items: Iterable[Any], label: Any = None, cost: int = 0) -> int | None:
        """Adds an option; returns its id (0, 1, ... in the order added).

        ``label`` is what `solutions()` reports for it; by default the tuple
        of its entries as given. ``cost``: a whole number from 0 to
        2**64 - 1, for `Problem.best` (the other verbs ignore it). An option
        without a primary item could never be chosen: it is skipped with an
        `OptionSkippedWarning` (as Knuth's programs do) and the result is None.

        >>> p = ProblemData(); p.add_primary(["A"]); p.add_secondary(["x"])
        >>> p.add_option(["A", ("x", 1)], label="first", cost=3)
        0
        >>> p.labels, p.costs
        (['first'], [3])
        """
        if isinstance(items, str):
            raise TypeError("add_option takes a list of items; wrap a single item in a list")
        entries = list(items)
        where = f"option {self.n_options}"
        cost = check_cost(cost, where)
        numbers: list[int] = []
        colors: list[Hashable | None] = []
        seen: set[int] = set()
        has_primary = False
        for entry in entries:
            name, color = self._entry(entry, where)
            i = self._index[name]
            if i in seen:
                raise DuplicateItemError(f"{where}: item {name!r} appears twice")
            seen.add(i)
            if i < self._n_primary:
                if color is not None:
                    raise ColorError(f"{where}: primary item {name!r} cannot have a color")
                has_primary = True
            numbers.append(i)
            colors.append(color)
        if not has_primary:
            warn(f"{where} has no primary item and is skipped: {entries!r}", OptionSkippedWarning)
            return None
        self._item.extend(numbers)
        self._color.extend(0 if c is None else self._color_id(c) for c in colors)
        self._start.append(len(self._item))
        self._labels.append(tuple(entries) if label is None else label)
        if cost or self._cost is not None:
            if self._cost is None:
                # (The costs as an array, made, all 0, on the first cost.)
                self._cost = array("Q", bytes(8 * (self.n_options - 1)))
            self._cost.append(cost)
        self._compiled = None
        return self.n_options - 1

    def add_options(
        self,
        option_start: Any,
        option_item: Any,
        option_color: Any = None,
        *,
        labels: Sequence[Any] | None = None,
        colors: Sequence[Hashable] | None = None,
        costs: Any = None,
    ) -> None:
        """Adds options in bulk, from arrays (lists or numpy arrays), with no
        Python call per option: option ``o`` has the items numbered
        ``option_item[option_start[o]:option_start[o + 1]]`` (items numbered
        as the engine does, primary first, in the order declared), with the
        colors ``option_color`` (0 = none, ``c`` = ``colors[c - 1]``, or the
        number ``c`` itself without ``colors``). Same checks as `add_option`
        (an error names the option by its place in the arrays); options
        without primary item are skipped with one `OptionSkippedWarning` for
        the call. ``labels``: one per option given; by default each option's
        entries. ``costs``: one per option given (whole numbers from 0 to
        2**64 - 1, for `Problem.best`); by default 0.

        >>> p = ProblemData(); p.add_primary(["A", "B"]); p.add_secondary(["x"])
        >>> p.add_options([0, 2, 4], [0, 2, 1, 2], [0, 1, 0, 1], colors=["red"], costs=[4, 1])
        >>> p.option(1), p.labels[1], p.costs
        ([('B', None), ('x', 'red')], ('B', 'x:red'), [4, 1])
        """
        start = u32_array(option_start, "option_start")
        item = u32_array(option_item, "option_item")
        color = array("I") if option_color is None else u32_array(option_color, "option_color")
        n_given = len(start) - 1
        if labels is not None and len(labels) != n_given:
            raise ProblemError(f"{len(labels)} labels for {n_given} options")
        cost = None if costs is None else u64_array(costs, "costs")
        if cost is not None and len(cost) != n_given:
            raise CostError(f"{len(cost)} costs for {n_given} options")
        if color and colors is not None and max(color) > len(colors):
            raise ColorError(f"option_color: color {max(color)} is not named ({len(colors)} colors given)")
        error, skipped, start_b, item_b, color_b = _core.sift_options(
            self._n_primary, len(self._names), start.tobytes(), item.tobytes(), color.tobytes()
        )
        if error is not None:
            raise self._bulk_error(error, item)
        if skipped:
            start, item, color = array("I"), array("I"), array("I")
            start.frombytes(start_b)
            item.frombytes(item_b)
            color.frombytes(color_b)
            self._warn_skipped(len(skipped), [f"option {o}" for o in skipped[:_NAMED]])
        if not color or not max(color):
            color = array("I", bytes(4 * len(item)))
        else:
            # The arrays' colors, as this problem numbers them (the same
            # numbers unless the problem had colors of its own).
            named = colors if colors is not None else range(1, max(color) + 1)
            table = [0] + [self._color_id(c) for c in named]
            if table != list(range(len(table))):
                color = array("I", (table[c] for c in color))
        kept = len(start) - 1
        base = len(self._item)
        self._item.extend(item)
        self._color.extend(color)
        if base:
            self._start.extend(base + s for s in start[1:])
        else:
            self._start.extend(start[1:])
        if labels is None:
            self._labels.extend_entries(kept)
        else:
            given = list(labels)
            if skipped:
                dropped = set(skipped)
                given = [x for o, x in enumerate(given) if o not in dropped]
            self._labels.extend(given)
        if cost is not None and (self._cost is not None or any(cost)):
            if skipped:
                dropped = set(skipped)
                cost = array("Q", (c for o, c in enumerate(cost) if o not in dropped))
            before = self.n_options - kept
            if self._cost is None:
                self._cost = array("Q", bytes(8 * before))
            self._cost.extend(cost)
        elif self._cost is not None:
            self._cost.extend(array("Q", bytes(8 * kept)))
        self._compiled = None

    def _bulk_error(self, error: tuple[str, int, int], item: array[int]) -> ProblemError:
        kind, option, number = error
        name = self._names[number] if number < len(self._names) else number
        if kind == "unknown":
            return UnknownItemError(f"option {option}: unknown item number {number}"
                                    f" (there are {len(self._names)} items)")
        if kind == "repeated":
            return DuplicateItemError(f"option {option}: item {name!r} appears twice")
        if kind == "color_on_primary":
            return ColorError(f"option {option}: primary item {name!r} cannot have a color")
        if kind == "colors_length":
            return ProblemError("option_color must be as long as option_item")
        return ProblemError(f"option_start: option {option} does not start at 0 and run up to len(option_item)")

    @staticmethod
    def _warn_skipped(count: int, named: list[str]) -> None:
        """One warning for all the options of one call without primary item."""
        more = ", ..." if count > len(named) else ""
        noun = "option" if count == 1 else "options"
        warn(f"{count} {noun} without primary item skipped: {'; '.join(named)}{more}", OptionSkippedWarning)

    @classmethod
    def from_arrays(
        cls: type[P],
        primary: Sequence[Hashable],
        option_start: Any,
        option_item: Any,
        option_color: Any = None,
        *,
        secondary: Sequence[Hashable] = (),
        bounds: Sequence[tuple[int, int]] | None = None,
        labels: Sequence[Any] | None = None,
        colors: Sequence[Hashable] | None = None,
        costs: Any = None,
    ) -> P:
        """A problem built in bulk: the items (``bounds`` one pair per
        primary item, if any), then the options as `add_options` takes them
        (with their ``costs``, if any).

        >>> p = ProblemData.from_arrays(["A", "B"], [0, 2, 3, 4], [0, 1, 0, 1])
        >>> p.n_options, p.option(0)
        (3, [('A', None), ('B', None)])
        """
        p = cls()
        if bounds is None:
            p.add_primary(primary)
        else:
            if len(bounds) != len(primary):
                raise BoundsError(f"{len(bounds)} bounds for {len(primary)} primary items")
            for name, b in zip(primary, bounds):
                p.add_primary([name], bounds=b)
        p.add_secondary(secondary)
        p.add_options(option_start, option_item, option_color, labels=labels, colors=colors, costs=costs)
        return p

    @classmethod
    def from_read(
        cls: type[P],
        names: list[Hashable],
        n_primary: int,
        lo: list[int],
        hi: list[int],
        color_names: list[Hashable],
        arrays: tuple[array[int], array[int], array[int]],
        labels: Labels,
        compiled: _core.CompiledProblem | None = None,
        costs: array[int] | None = None,
    ) -> P:
        """A problem from parts a reader has already checked (names unique,
        bounds valid, options within the items, colors numbered from 1):
        nothing is checked again. ``compiled``, when given, is the engine's
        problem of the same arrays; ``costs`` one per option, or None."""
        p = cls()
        p._names = names
        p._index = {name: k for k, name in enumerate(names)}
        p._n_primary = n_primary
        p._lo, p._hi = lo, hi
        p._color_names = color_names
        p._color_index = {c: k + 1 for k, c in enumerate(color_names)}
        p._start, p._item, p._color = arrays
        if not p._color:
            p._color = array("I", bytes(4 * len(p._item)))
        p._labels = labels
        p._compiled = compiled
        p._cost = costs
        return p

    @property
    def labels(self) -> list[Any]:
        """The label of each option, by id."""
        if self._labels.has_entries():
            return [self.label(o) for o in range(self.n_options)]
        return list(self._labels)

    def label(self, o: int) -> Any:
        """The label of option ``o``.

        >>> p = ProblemData.from_arrays(["A"], [0, 1], [0]); p.label(0)
        ('A',)
        """
        label = self._labels[o]
        if label is ENTRIES:
            return tuple(_token(name, color) for name, color in self.option(o))
        return label

    def label_text(self, o: int) -> str:
        """Option ``o`` as a line of text: the ``.dlx`` line it was read
        from, else its label's tokens joined by spaces.

        >>> p = ProblemData.from_arrays(["A", "B"], [0, 2], [0, 1]); p.label_text(0)
        'A B'
        """
        if self._labels[o] is ENTRIES:
            return " ".join(map(str, self.label(o)))
        return self._labels.text(o)

    @property
    def costs(self) -> list[int]:
        """The cost of each option, by id (0 where none was given).

        >>> p = ProblemData.from_arrays(["A"], [0, 1, 2], [0, 0], costs=[5, 0]); p.costs
        [5, 0]
        """
        return [0] * self.n_options if self._cost is None else list(self._cost)

    def set_costs(self, costs: Any) -> None:
        """Gives every option its cost at once (one per option, by id; a
        list or an array): as ``costs=`` of `add_options`, for a problem
        already built.

        >>> p = ProblemData.from_arrays(["A"], [0, 1, 2], [0, 0]); p.set_costs([2, 3]); p.costs
        [2, 3]
        """
        values = u64_array(costs, "costs")
        if len(values) != self.n_options:
            raise CostError(f"{len(values)} costs for {self.n_options} options")
        self._cost = values if any(values) else None

    @property
    def has_costs(self) -> bool:
        """Whether some option costs more than 0."""
        return self._cost is not None and any(self._cost)

    def cost_bytes(self) -> bytes:
        """The costs as the engine takes them: native-endian 64-bit numbers, one per option."""
        return bytes(8 * self.n_options) if self._cost is None else self._cost.tobytes()

    @property
    def n_options(self) -> int:
        """The number of options."""
        return len(self._start) - 1

    @property
    def n_items(self) -> int:
        """The number of items, primary and secondary."""
        return len(self._names)

    def option(self, i: int) -> list[tuple[Hashable, Hashable | None]]:
        """The entries of option ``i`` as (item, color or None) pairs.

        >>> p = ProblemData(); p.add_primary(["A"]); p.add_secondary(["x"])
        >>> _ = p.add_option(["A", "x:red"]); p.option(0)
        [('A', None), ('x', 'red')]
        """
        a, b = self._start[i], self._start[i + 1]
        return [(self._names[n], self._color_names[c - 1] if c else None)
                for n, c in zip(self._item[a:b], self._color[a:b])]

    def option_arrays(self) -> tuple[array[int], array[int], array[int]]:
        """The options as the engine numbers them: ``(option_start,
        option_item, option_color)``, arrays of 32-bit numbers (not copies:
        do not change them).

        >>> p = ProblemData.from_arrays(["A", "B"], [0, 2, 3], [0, 1, 1])
        >>> [list(a) for a in p.option_arrays()]
        [[0, 2, 3], [0, 1, 1], [0, 0, 0]]
        """
        return self._start, self._item, self._color

    @property
    def color_names(self) -> list[Hashable]:
        """The colors, numbered from 1: color ``c`` is ``color_names[c - 1]``."""
        return list(self._color_names)

    # -------------------------------------------------------------- compiling

    def compile(self) -> _core.CompiledProblem:
        """The problem as the engine's frozen arrays (cached until the next change).

        >>> p = ProblemData(); p.add_primary(["A"]); _ = p.add_option(["A"])
        >>> p.compile()
        CompiledProblem(1 primary, 0 secondary items, 1 options)
        """
        if self._compiled is None:
            if not self._n_primary:
                raise NoPrimaryItemError("the problem has no primary item")
            self._compiled = _core.CompiledProblem.from_bytes(
                self._n_primary, len(self._names) - self._n_primary,
                [min(x, _U64) for x in self._lo], [min(x, _U64) for x in self._hi],
                self._start.tobytes(), self._item.tobytes(), self._color.tobytes(),
            )
        return self._compiled

    def is_solution(self, option_ids: Sequence[int]) -> bool:
        """Does this set of options meet every rule (checked by the definition)?

        >>> p = ProblemData(); p.add_primary(["A", "B"])
        >>> _ = p.add_option(["A"]); _ = p.add_option(["B"]); _ = p.add_option(["A", "B"])
        >>> p.is_solution([0, 1]), p.is_solution([0, 2])
        (True, False)
        """
        return self.compile().is_solution(list(option_ids))

    @classmethod
    def from_compiled(cls: type[P], compiled: _core.CompiledProblem, names: Sequence[Hashable],
                      labels: Sequence[Any] | None = None) -> P:
        """The problem of an engine's compiled arrays (a puzzle encoded in
        Rust, such as Akari), with the items named by ``names`` (primary
        first) and the options labelled by ``labels``; colors are named by
        their numbers, as strings.

        >>> p = ProblemData(); p.add_primary(["A"], bounds=(1, 2)); p.add_secondary(["x"])
        >>> _ = p.add_option(["A", "x:red"]); _ = p.add_option(["A"])
        >>> q = ProblemData.from_compiled(p.compile(), ["A", "x"], labels=["first", "second"])
        >>> q.bounds("A"), q.option(0), q.labels
        ((1, 2), [('A', None), ('x', '1')], ['first', 'second'])
        """
        n_primary, n_secondary = compiled.n_primary, compiled.n_secondary
        if len(names) != n_primary + n_secondary:
            raise ValueError(f"{n_primary + n_secondary} items need as many names, not {len(names)}")
        lo, hi = compiled.bounds()
        arrays = tuple(array("I") for _ in range(3))
        for a, b in zip(arrays, compiled.option_bytes()):
            a.frombytes(b)
        p = cls()
        i = 0
        while i < n_primary:
            # (Runs of items of the same bounds, added at once.)
            j = i + 1
            while j < n_primary and lo[j] == lo[i] and hi[j] == hi[i]:
                j += 1
            p.add_primary(names[i:j], bounds=(lo[i], hi[i]))
            i = j
        p.add_secondary(names[n_primary:])
        start, item, color = arrays
        n_colors = max(color, default=0)
        p.add_options(start, item, color if n_colors else None,
                      colors=[str(c) for c in range(1, n_colors + 1)] if n_colors else None, labels=labels)
        return p

    # -------------------------------------------------------------- pickling

    def __getstate__(self) -> dict[str, Any]:
        # The compiled arrays are made again on demand.
        state = self.__dict__.copy()
        state["_compiled"] = None
        return state

    def __eq__(self, other: object) -> bool:
        """Problems are equal when they have the same items (with bounds),
        the same options in the same order, and the same labels."""
        if not isinstance(other, ProblemData):
            return NotImplemented
        if (self._names, self._n_primary, self._lo, self._hi) != (
            other._names, other._n_primary, other._lo, other._hi
        ) or (self._start, self._item) != (other._start, other._item) or self.costs != other.costs:
            return False
        if self._color_names == other._color_names:
            same = self._color == other._color
        else:
            same = all(self.option(o) == other.option(o) for o in range(self.n_options))
        return same and self.labels == other.labels

    __hash__ = None  # type: ignore[assignment]  # a problem changes as it is built

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__}: {self._n_primary} primary items, {len(self._names) - self._n_primary} "
            f"secondary, {self.n_options} options>"
        )

    #: Rows and columns shown by `_repr_html_` at most.
    HTML_ROWS, HTML_COLUMNS = 30, 40

    def _repr_html_(self) -> str:
        """In a notebook: the matrix of options (rows) and items (columns), as
        Knuth draws it, 1 or the color where an option has an item; the first
        `HTML_ROWS` options and `HTML_COLUMNS` items of big problems.

        >>> p = ProblemData(); p.add_primary(["A", "B"]); p.add_secondary(["x"])
        >>> _ = p.add_option(["A", "x:red"]); _ = p.add_option(["B"])
        >>> html = p._repr_html_()
        >>> "<th>A</th>" in html and "<th>x</th>" in html and ">red<" in html
        True
        """
        from .render.html import matrix

        items = self._names[: self.HTML_COLUMNS]
        names = []
        for i, name in enumerate(items):
            b = (self._lo[i], self._hi[i]) if i < self._n_primary else (1, 1)
            names.append(f"{name}" + (f" ({b[0]}..{b[1]})" if b != (1, 1) else ""))
        rows = []
        for o in range(min(self.n_options, self.HTML_ROWS)):
            has = dict(self.option(o))
            rows.append((str(self.label(o)),
                         ["" if i not in has else "1" if has[i] is None else str(has[i]) for i in items]))
        more = []
        if self.n_options > self.HTML_ROWS:
            more.append(f"the first {self.HTML_ROWS} of {self.n_options} options")
        if len(self._names) > self.HTML_COLUMNS:
            more.append(f"the first {self.HTML_COLUMNS} items")
        caption = (f"{self._n_primary} primary items, {len(self._names) - self._n_primary} secondary, "
                   f"{self.n_options} options")
        return matrix(names, rows, caption + (f" ({', '.join(more)})" if more else ""))

