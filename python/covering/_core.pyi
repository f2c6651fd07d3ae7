"""Type stubs of the compiled extension (the Rust binding in ``src/``)."""

from collections.abc import Sequence
from typing import Any, Protocol, final

__all__ = [
    "MEMO_MAX_OPTIONS",
    "AKARI_LONG",
    "akari_difficulty",
    "akari_generate",
    "akari_encoding_bytes",
    "akari_problem",
    "CompiledProblem",
    "FrontierCount",
    "InfiniteQueens",
    "MemoCount",
    "MemoZdd",
    "MinCostSearch",
    "Pool",
    "StopFlag",
    "MemoStats",
    "FrontierProgress",
    "MinCostCounters",
    "SatStats",
    "PoolProgress",
    "ProblemError",
    "SatSearch",
    "Search",
    "Stats",
    "SudokuBatch",
    "count_queens",
    "dlx_shape",
    "read_dlx",
    "sift_options",
    "choose_item_order",
    "estimate_nodes",
    "kasteleyn_check",
    "kasteleyn_count",
    "split_pieces",
]

class ProblemError(ValueError):
    """A problem the engine cannot accept; the message names the item or option."""

#: The most options a memo count takes.
MEMO_MAX_OPTIONS: int
AKARI_LONG: int

class _RunBudget(Protocol):
    """What the binding reads of a run's budget (`covering.limits.Budget`):
    its nodes (each engine's unit, counted from the engine's start), its
    memory in bytes, and its stop flag (which carries the deadline)."""

    @property
    def nodes(self) -> int | None: ...
    @property
    def memory(self) -> int | None: ...
    @property
    def stop(self) -> StopFlag: ...

@final
class CompiledProblem:
    """A problem as flat arrays: items numbered primary first, colors as
    positive integers (0 = none), options in CSR form. Immutable; pickles."""

    def __new__(
        cls,
        n_primary: int,
        n_secondary: int,
        lo: Sequence[int],
        hi: Sequence[int],
        option_start: Sequence[int],
        option_item: Sequence[int],
        option_color: Sequence[int],
    ) -> CompiledProblem: ...
    @property
    def n_primary(self) -> int: ...
    @property
    def n_secondary(self) -> int: ...
    @property
    def n_options(self) -> int: ...
    @property
    def n_entries(self) -> int: ...
    @property
    def has_colors(self) -> bool: ...
    @property
    def has_multiplicities(self) -> bool: ...
    def arrays(
        self,
    ) -> tuple[int, int, list[int], list[int], list[int], list[int], list[int]]:
        """(n_primary, n_secondary, lo, hi, option_start, option_item, option_color)."""
    @staticmethod
    def from_bytes(
        n_primary: int,
        n_secondary: int,
        lo: Sequence[int],
        hi: Sequence[int],
        option_start: bytes,
        option_item: bytes,
        option_color: bytes,
    ) -> CompiledProblem:
        """Built from the option arrays as bytes of native ``u32``; bounds
        past ``u32`` are clamped as the engine needs them."""
    def option_bytes(self) -> tuple[bytes, bytes, bytes]:
        """(option_start, option_item, option_color) as bytes of native ``u32``."""
    def reduce(
        self, work: int | None = None
    ) -> tuple[CompiledProblem, list[int], list[int], int, bool, int | None, int]: ...
    def bounds(self) -> tuple[list[int], list[int]]:
        """(lo, hi) of every item, as the engine holds them."""
    def footprint(self, engine: str) -> int:
        """The bytes an engine ("auto", "cells", "bits" or "sat") would hold
        for this problem, known before it is built."""
    @property
    def first_engine(self) -> str:
        """The engine a search for a first solution should dance on ("cells"
        or "bits")."""
    def search_engine(self, engine: str = "auto") -> str:
        """The data structure a search with `engine` dances on ("cells" or
        "bits")."""
    def with_primary_order(self, order: Sequence[int]) -> CompiledProblem: ...
    def is_solution(self, options: Sequence[int]) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[object, ...]]: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class MemoStats:
    """The counters of a memo count or diagram."""

    def __new__(cls, nodes: int, hits: int, entries: int, evictions: int, bytes: int, saved: int) -> MemoStats: ...
    def __getnewargs__(self) -> tuple[int, int, int, int, int, int]: ...
    def __eq__(self, value: object, /) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def hits(self) -> int: ...
    @property
    def entries(self) -> int: ...
    @property
    def evictions(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    @property
    def saved(self) -> int: ...

@final
class FrontierProgress:
    """Where a frontier count stands."""

    def __new__(cls, item: int, items: int, states: int, peak_states: int, bytes: int, work: int, mems: int) -> FrontierProgress: ...
    def __getnewargs__(self) -> tuple[int, int, int, int, int, int, int]: ...
    def __eq__(self, value: object, /) -> bool: ...
    @property
    def item(self) -> int: ...
    @property
    def items(self) -> int: ...
    @property
    def states(self) -> int: ...
    @property
    def peak_states(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    @property
    def work(self) -> int: ...
    @property
    def mems(self) -> int: ...
    @property
    def nodes(self) -> int: ...

@final
class MinCostCounters:
    """The counters of a minimum-cost search."""

    def __new__(cls, nodes: int, updates: int, improvements: int, max_level: int) -> MinCostCounters: ...
    def __getnewargs__(self) -> tuple[int, int, int, int]: ...
    def __eq__(self, value: object, /) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def updates(self) -> int: ...
    @property
    def improvements(self) -> int: ...
    @property
    def max_level(self) -> int: ...

@final
class SatStats:
    """The counters of a CDCL search."""

    def __new__(cls, solutions: int, conflicts: int, decisions: int, propagations: int, solves: int, variables: int, clauses: int) -> SatStats: ...
    def __getnewargs__(self) -> tuple[int, int, int, int, int, int, int]: ...
    def __eq__(self, value: object, /) -> bool: ...
    @property
    def solutions(self) -> int: ...
    @property
    def conflicts(self) -> int: ...
    @property
    def decisions(self) -> int: ...
    @property
    def propagations(self) -> int: ...
    @property
    def solves(self) -> int: ...
    @property
    def variables(self) -> int: ...
    @property
    def clauses(self) -> int: ...
    @property
    def nodes(self) -> int: ...

@final
class PoolProgress:
    """Where the engine's threads stand, over all their runs."""

    def __new__(cls, nodes: int, solutions: int, pieces_done: int, pieces_made: int, fraction: float) -> PoolProgress: ...
    def __getnewargs__(self) -> tuple[int, int, int, int, float]: ...
    def __eq__(self, value: object, /) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def solutions(self) -> int: ...
    @property
    def pieces_done(self) -> int: ...
    @property
    def pieces_made(self) -> int: ...
    @property
    def fraction(self) -> float: ...

@final
class Stats:
    """Cost counters of a search."""

    def __new__(
        cls,
        nodes: int = 0,
        updates: int = 0,
        mems: int = 0,
        cleansings: int = 0,
        solutions: int = 0,
        max_level: int = 0,
    ) -> Stats: ...
    def __getnewargs__(self) -> tuple[int, int, int, int, int, int]: ...

    @property
    def nodes(self) -> int: ...
    @property
    def updates(self) -> int: ...
    @property
    def mems(self) -> int: ...
    @property
    def cleansings(self) -> int: ...
    @property
    def solutions(self) -> int: ...
    @property
    def max_level(self) -> int: ...

@final
class StopFlag:
    """A flag that stops every engine run given it (``stop=``), from any
    thread, between two of its slices."""

    def __new__(cls) -> StopFlag: ...
    def set(self, reason: str = "interrupt") -> None: ...
    def is_set(self) -> bool: ...
    @property
    def reason(self) -> str | None: ...
    def arm(self, seconds: float) -> None: ...
    def child(self) -> StopFlag: ...

@final
class Search:
    """One search over a compiled problem, run in slices without the GIL."""

    def __new__(cls, problem: CompiledProblem, seed: int | None = None, engine: str = "auto") -> Search: ...
    def force(self, option: int) -> bool: ...
    def next_solution(self, budget: _RunBudget | None = None) -> list[int] | None: ...
    def count(self, target: int | None = None, budget: _RunBudget | None = None) -> int: ...
    def count_canonical(self, perms: Sequence[Sequence[int]], budget: _RunBudget | None = None) -> tuple[int, bool]: ...
    def cancel(self) -> None: ...
    @property
    def exhausted(self) -> bool: ...
    @property
    def cancelled(self) -> bool: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def engine(self) -> str: ...
    def frontier(self) -> list[list[int]]: ...
    def frontier_shares(self) -> list[tuple[list[int], float]]: ...
    def progress(self) -> list[tuple[int, int]]: ...
    def fraction_done(self) -> float: ...
    def __iter__(self) -> Search: ...
    def __next__(self) -> list[int]: ...

@final
class MemoCount:
    """A memo count (see `covering.memo`), run in slices."""
    def __new__(cls, problem: CompiledProblem, memo_bytes: int, branching: str = "mrv",
                split: bool = True, threads: int = 1) -> MemoCount: ...
    def run(self, budget: _RunBudget | None = None) -> int | None: ...
    @property
    def partial(self) -> int: ...
    def cancel(self) -> None: ...
    @property
    def stats(self) -> MemoStats: ...
    @property
    def splits(self) -> int: ...
    @property
    def tasks(self) -> int: ...

@final
class FrontierCount:
    """A count at the frontier: the primary items settled in `order` (None:
    by their numbers), the options decided in the order of their first
    primary item, only the live frontiers held."""
    def __new__(cls, problem: CompiledProblem, order: Sequence[int] | None = None, threads: int = 1,
                memory_limit: int | None = None) -> FrontierCount: ...
    def run(self, budget: _RunBudget | None = None) -> int | None: ...
    def cancel(self) -> None: ...
    @property
    def key_bits(self) -> int: ...
    @property
    def progress(self) -> FrontierProgress: ...

@final
class MinCostSearch:
    """The K cheapest solutions of a problem with one 64-bit cost per option."""
    def __new__(cls, problem: CompiledProblem, costs: bytes, k: int, engine: str = "auto") -> MinCostSearch: ...
    def run(self, budget: _RunBudget | None = None) -> bool: ...
    def cancel(self) -> None: ...
    def best(self) -> list[tuple[int, list[int]]]: ...
    @property
    def done(self) -> bool: ...
    @property
    def cutoff(self) -> int | None: ...
    @property
    def optimum(self) -> int | None: ...
    @property
    def counters(self) -> MinCostCounters: ...

@final
class SatSearch:
    """A CDCL search (CaDiCaL) of a problem's clauses: solutions one by one."""
    def __new__(cls, problem: CompiledProblem) -> SatSearch: ...
    def next(self, conflicts: int | None = None, budget: _RunBudget | None = None) -> tuple[str, list[int]]: ...
    def cancel(self) -> None: ...
    @property
    def stats(self) -> SatStats: ...
    @property
    def exhausted(self) -> bool: ...

@final
class MemoZdd:
    """The search of `MemoCount`, building the diagram of all the solutions
    (see `covering.zdd`): node 0 no solution, 1 the empty one, k + 2 the k-th."""
    def __new__(cls, problem: CompiledProblem, memo_bytes: int, branching: str = "mrv") -> MemoZdd: ...
    def run(self, budget: _RunBudget | None = None) -> int | None: ...
    def nodes(self) -> bytes: ...
    def cancel(self) -> None: ...
    @property
    def stats(self) -> MemoStats: ...

def akari_difficulty(rows: int, cols: int, grid: bytes) -> str | None:
    """The easiest level whose deductions solve the grid, or None."""

def akari_generate(rows: int, cols: int, seed: int, black: float, difficulty: str, symmetry: str) -> bytes:
    """A generated puzzle's cells, row-major: '.', '#', '0'-'4'."""

def akari_encoding_bytes(rows: int, cols: int, grid: bytes) -> int:
    """About what an Akari grid's encoding and a search on it will hold, in
    bytes, before it is built."""

def akari_problem(
    rows: int, cols: int, grid: bytes
) -> tuple[CompiledProblem, list[int], list[tuple[str, int]]]:
    """The exact cover problem of an Akari grid: (problem, cell of each
    option's light, (kind, cell) of each item)."""

def count_queens(n: int, threads: int = 1, budget: _RunBudget | None = None) -> tuple[int, bool]:
    """(solutions of n-queens (1 <= n <= 32), complete?), by bitboards;
    Ctrl-C or the budget's flag stops it (complete is then False)."""

@final
class InfiniteQueens:
    """The infinite queens sequence (OEIS A065188), 1-based, in batches."""

    def __new__(cls) -> InfiniteQueens: ...
    def take(self, count: int) -> list[int]: ...
    def take_bytes(self, count: int) -> bytes: ...
    def take_text(self, count: int, offset: int = 0) -> str: ...
    def skip(self, count: int) -> int: ...
    @property
    def produced(self) -> int: ...

@final
class SudokuBatch:
    """Many puzzles of one size, solved in the engine with their givens forced."""

    def __new__(
        cls,
        problem: CompiledProblem,
        n: int,
        box_rows: int,
        box_cols: int,
        symbols: str,
        blanks: str,
        portfolio_nodes: int = 200_000,
    ) -> SudokuBatch: ...
    def parse_line(self, line: str) -> list[int]:
        """The givens of one line (0 = blank), read as the batch reads each
        line; ValueError naming the cell when it is not a puzzle."""
    def run(
        self, text: str, mode: str = "solve", cap: int | None = None, threads: int = 1, budget: _RunBudget | None = None
    ) -> tuple[list[str], list[tuple[int, str]], bool, list[int]]: ...

def split_pieces(
    problem: CompiledProblem,
    roots: Sequence[Sequence[int]],
    target: int,
    probes: int = 16,
    seed: int = 0,
    engine: str = "auto",
) -> list[tuple[list[int], float]]:
    """The pieces `roots` ([[]]: the whole tree) cut into about `target`, by estimate."""

def choose_item_order(
    problem: CompiledProblem, item_order: str = "auto"
) -> tuple[list[int], int, float, str, bool]: ...
def kasteleyn_check(problem: CompiledProblem) -> tuple[str, int] | None: ...
def kasteleyn_count(problem: CompiledProblem, budget: _RunBudget | None = None) -> tuple[int | None, tuple[str, int] | None]: ...
def estimate_nodes(problem: CompiledProblem, probes: int = 64, seed: int = 0, engine: str = "auto") -> float:
    """Knuth's random-probe estimate of the size of the search tree."""

@final
class Pool:
    """The engine's threads, searching pieces of one problem."""

    def __new__(cls, problem: CompiledProblem, threads: int, engine: str = "auto") -> Pool: ...
    def count(
        self,
        pieces: Sequence[Sequence[int]],
        weights: Sequence[float] | None = None,
        budget: _RunBudget | None = None,
    ) -> tuple[int, int, list[tuple[list[int], float]], bool, bool]: ...
    def start_solutions(self, pieces: Sequence[Sequence[int]]) -> None: ...
    def next_solution(self, budget: _RunBudget | None = None) -> list[int] | None: ...
    def cancel(self) -> None: ...
    @property
    def progress(self) -> PoolProgress: ...

def dlx_shape(data: bytes) -> tuple[int, int]:
    """(lines, blanks) of the bytes of a ``.dlx`` file, in one pass."""

def read_dlx(
    data: bytes,
) -> dict[str, Any] | tuple[str, int, str, list[str]]:
    """Reads the bytes of a ``.dlx`` file: a dict of the problem's arrays and
    names, or (kind, line, text, fields) for an error of the file."""

def sift_options(
    n_primary: int,
    n_items: int,
    option_start: bytes,
    option_item: bytes,
    option_color: bytes,
) -> tuple[tuple[str, int, int] | None, list[int], bytes, bytes, bytes]:
    """Options in bulk checked: (error or None, ids skipped, the arrays kept)."""
