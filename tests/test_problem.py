"""The Problem builder and the search API: errors by name, labels, budgets,
random order, uniqueness, pickling, cancel and Ctrl-C."""

from __future__ import annotations

import _thread
import pickle
import threading
from pathlib import Path

import pytest
from covering.puzzles.polyomino import l_tromino
from covering.puzzles.queens import queens_problem as queens

from covering import (
    BoundsError,
    ColorError,
    CompiledProblem,
    DuplicateItemError,
    LimitReached,
    NoPrimaryItemError,
    OptionSkippedWarning,
    Problem,
    ProblemError,
    Uniqueness,
    UnknownItemError,
)


def small() -> Problem:
    p = Problem()
    p.add_primary(["A", "B", "C"])
    p.add_secondary(["x"])
    for items in (["A", "B"], ["C", "x:red"], ["A"], ["B", "C"], ["B", ("x", "red")]):
        p.add_option(items)
    return p


def test_errors_name_the_option_and_item() -> None:
    p = Problem()
    p.add_primary(["A", "B"])
    p.add_secondary(["x"])
    with pytest.raises(UnknownItemError, match=r"option 0: unknown item 'Z'"):
        p.add_option(["A", "Z"])
    with pytest.raises(DuplicateItemError, match=r"option 0: item 'A' appears twice"):
        p.add_option(["A", "A"])
    with pytest.raises(ColorError, match="primary item 'A' cannot have a color"):
        p.add_option(["A:red"])
    with pytest.raises(DuplicateItemError, match="'x' is declared twice"):
        p.add_secondary(["x"])
    with pytest.raises(BoundsError, match="lower bound 3 exceeds upper bound 2"):
        p.add_primary(["N"], bounds=(3, 2))
    with pytest.raises(BoundsError, match="upper bound is 0"):
        p.add_primary(["N"], bounds=(0, 0))
    with pytest.raises(BoundsError):
        p.add_primary(["N"], bounds=(-1, 2))
    with pytest.raises(TypeError):
        p.add_option("AB")
    with pytest.warns(OptionSkippedWarning):
        assert p.add_option(["x"]) is None
    assert p.n_options == 0  # nothing was half added
    with pytest.raises(NoPrimaryItemError):
        Problem().compile()
    for e in (UnknownItemError, DuplicateItemError, ColorError, BoundsError):
        assert issubclass(e, ProblemError) and issubclass(e, ValueError)


def test_the_engine_rechecks_arrays_by_index() -> None:
    with pytest.raises(ProblemError, match="option 0: unknown item 5"):
        CompiledProblem(1, 0, [1], [1], [0, 1], [5], [])
    with pytest.raises(ProblemError, match="option 0: item 0 appears twice"):
        CompiledProblem(1, 0, [1], [1], [0, 2], [0, 0], [])
    with pytest.raises(ProblemError, match="lower bound 2 exceeds upper bound 1"):
        CompiledProblem(1, 0, [2], [1], [0, 1], [0], [])
    with pytest.raises(OverflowError):
        CompiledProblem(1, 0, [1], [1], [0, 1], [-1], [])


def test_labels_ids_and_colors() -> None:
    p = small()
    assert sorted(p.solutions(ids=True)) == [(0, 1), (1, 2, 4), (2, 3)]
    assert p.first() == [("A", "B"), ("C", "x:red")]
    assert p.option(4) == [("B", None), ("x", "red")]
    assert p.count() == 3
    assert p.is_solution([1, 2, 4]) and not p.is_solution([0, 3])


def test_limit_first_and_count_limit() -> None:
    p = l_tromino(6)
    assert len(list(p.solutions(limit=7))) == 7
    assert p.count(limit=7) == 7
    assert p.count(limit=1000) == 162
    assert len(p.first() or []) == 12
    q = Problem()
    q.add_primary(["A"])
    assert q.first() is None and q.count() == 0


def test_budgets_raise_limit_reached_with_the_partial_count() -> None:
    p = l_tromino(8, 0)
    with pytest.raises(LimitReached) as info:
        p.count(nodes=50)
    assert info.value.count is not None and 0 <= info.value.count < 30355
    assert info.value.stats.nodes <= 50
    with pytest.raises(LimitReached):
        list(p.solutions(nodes=20))
    assert p.uniqueness(nodes=1) is Uniqueness.UNKNOWN


def test_uniqueness() -> None:
    assert queens(3).uniqueness() is Uniqueness.NONE
    assert queens(4).uniqueness() is Uniqueness.MULTIPLE
    assert l_tromino(4, 0).uniqueness() is Uniqueness.UNIQUE


def test_random_order_is_reproducible_and_complete() -> None:
    p = l_tromino(7, 9)
    a = list(p.solutions(order="random", seed=1, ids=True))
    b = list(p.solutions(order="random", seed=1, ids=True))
    c = list(p.solutions(order="random", seed=2, ids=True))
    assert a == b != c
    assert sorted(a) == sorted(c) == sorted(p.solutions(ids=True))
    firsts = {p.first(order="random", seed=s, ids=True) for s in range(20)}
    assert len(firsts) > 5
    with pytest.raises(ValueError):
        p.solver(seed=3)


def test_stats_are_deterministic() -> None:
    p = queens(8)
    s1, s2 = p.solver(), p.solver()
    assert s1.count() == s2.count() == 92
    assert (s1.stats.nodes, s1.stats.updates, s1.stats.mems) == (s2.stats.nodes, s2.stats.updates, s2.stats.mems)
    assert s1.stats.solutions == 92 and s1.stats.max_level == 8


def test_forcing_options() -> None:
    p = queens(8)
    s = p.solver()
    assert s.force(0)  # queen at (0, 0)
    assert not s.force(9)  # (1, 1) is attacked
    sols = list(s.solutions(ids=True))
    assert len(sols) == 4 and all(0 in x for x in sols)


def test_compiled_problem_pickles_by_its_arrays() -> None:
    c = small().compile()
    d = pickle.loads(pickle.dumps(c))
    assert d == c and d is not c
    assert d.n_options == 5 and d.has_colors and not d.has_multiplicities


def test_a_solution_with_100000_options() -> None:
    n = 100_000
    p = Problem()
    p.add_primary(range(n))
    for i in range(n):
        p.add_option([i])
    sol = p.first(ids=True)
    assert sol == tuple(range(n))
    assert p.count() == 1


def test_from_matrix_lists_numpy_and_scipy() -> None:
    rows = [[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1]]
    expected = [[0, 1], [2, 3, 4]]
    assert sorted(Problem.from_matrix(rows).solutions()) == expected
    np = pytest.importorskip("numpy")
    assert sorted(Problem.from_matrix(np.array(rows, dtype=bool)).solutions()) == expected
    sparse = pytest.importorskip("scipy.sparse")
    for fmt in (sparse.csr_matrix, sparse.coo_matrix, sparse.csc_matrix):
        assert sorted(Problem.from_matrix(fmt(np.array(rows))).solutions()) == expected
    with pytest.warns(OptionSkippedWarning, match="row 4"):
        q = Problem.from_matrix(rows, secondary=[3], names=["a", "b", "c", "d"])
    assert q.secondary == ["d"] and q.count() == 2
    with pytest.raises(ProblemError, match="row 0, column 1: 2 is not 0 or 1"):
        Problem.from_matrix([[1, 2]])
    with pytest.raises(ProblemError, match="row 1 has 1 columns"):
        Problem.from_matrix([[1, 0], [1]])


def test_cancel_from_another_thread() -> None:
    p = l_tromino(9)
    s = p.solver()
    threading.Timer(0.05, s.cancel).start()
    with pytest.raises(LimitReached):
        s.count()
    assert s.stats.solutions < 1193600 and not s.exhausted


def test_keyboard_interrupt_stops_a_long_count() -> None:
    p = l_tromino(10, 0)  # hours of work
    s = p.solver()
    threading.Timer(0.2, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        s.count()
    # The interrupt is seen between two slices of the search.
    assert s.stats.nodes > 0 and not s.exhausted
    # The solver keeps its place and can go on.
    before = s.stats.nodes
    with pytest.raises(LimitReached):
        s.count(nodes=before + 1000)
    assert s.stats.nodes > before


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads Linux /proc")
def test_streaming_solutions_does_not_grow_memory() -> None:
    def rss() -> int:
        return int(Path("/proc/self/statm").read_text().split()[1]) * 4096

    p = Problem()
    p.add_primary(range(20))
    for i in range(20):
        p.add_option([i])
        p.add_option([i])
    stream = p.solutions(ids=True)
    for _ in zip(range(10_000), stream):
        pass
    before = rss()
    for _ in zip(range(400_000), stream):
        pass
    # Holding on to even 64 bytes a solution would add 25 MB.
    assert rss() - before < 8 * 2**20


def word_rectangles(rows: int, cols: int, n_long: int, n_short: int, letters: int, seed: int) -> str:
    """Knuth's word rectangles (his WORD-RECT-DLX) of random dictionaries, as
    a .dlx text: a primary item per row and column, a secondary item per
    cell colored by its letter; rows of `cols` letters, columns of `rows`."""
    import itertools
    import random

    rng = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyz"[:letters]
    longs = rng.sample(["".join(w) for w in itertools.product(alphabet, repeat=cols)], n_long)
    shorts = rng.sample(["".join(w) for w in itertools.product(alphabet, repeat=rows)], n_short)
    cells = [f"{r}{c}" for r in range(rows) for c in range(cols)]
    lines = [" ".join([f"R{r}" for r in range(rows)] + [f"C{c}" for c in range(cols)]) + " | " + " ".join(cells)]
    options = [f"R{r} " + " ".join(f"{r}{c}:{w[c]}" for c in range(cols)) for w in longs for r in range(rows)]
    options += [f"C{c} " + " ".join(f"{r}{c}:{w[r]}" for r in range(rows)) for w in shorts for c in range(cols)]
    rng.shuffle(options)
    return "\n".join(lines + options) + "\n"


def test_word_rectangles_past_the_square_table_on_bitsets_with_masks() -> None:
    # Over 4096 options, each with one primary item: the bitsets keep their
    # clashes item by item (`bitmasks.rs`), and must count what the dancing
    # cells and the memo (the square table, by another method) count.
    p = Problem.from_dlx(word_rectangles(3, 4, 1200, 300, 24, seed=3))
    assert p.n_options > 4096
    solver = p.solver()
    assert solver.engine == "bits"
    n = solver.count()
    assert n > 100
    assert p.solver(engine="cells").count() == n
    assert p.count(method="memo") == n
    # The default count: the memo's hits do not outweigh nodes this cheap.
    assert p.count() == n and p.last_count is not None and p.last_count.method == "search"
    assert p.solver(order="random", seed=11).count() == n
    # A first solution (the portfolio dances on these bitsets too) meets every rule.
    assert p.compile().first_engine == "bits"
    first = p.first(ids=True)
    assert first is not None and p.compile().is_solution(list(first))
