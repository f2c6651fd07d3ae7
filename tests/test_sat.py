"""The CDCL backend (engine="sat"): the same solutions as the definition's
brute force on random problems with colors and multiplicities; first
solutions and uniqueness on the classic puzzles; budgets, cancel, and clear
errors; the portfolio of the default engine."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator

import pytest
from long import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from covering import LimitReached, Problem, Uniqueness
from covering.errors import Cancelled
from covering.limits import Budget
from covering.limits import BudgetError
from covering.problem import PORTFOLIO_NODES
from covering.puzzles import sudoku
from covering.puzzles.polyomino import PENTOMINOES, Board, TilingPuzzle, l_tromino, tiling
from covering.puzzles.queens import queens_problem
from covering.reference import definition
from covering.sat import SatSolver

from test_reference import problems


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10))
def test_sat_finds_exactly_the_solutions_of_the_definition(p: Problem) -> None:
    expected = definition.brute_force(p)
    got = sorted(p.solutions(ids=True, engine="sat"))
    assert got == expected
    u = p.uniqueness(engine="sat")
    assert u == [Uniqueness.NONE, Uniqueness.UNIQUE, Uniqueness.MULTIPLE][min(len(expected), 2)]
    first = p.solver(engine="sat").first()
    assert (first is None) == (not expected)
    assert p.count(3, engine="sat") == min(3, len(expected))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10), st.integers(1, 2))
def test_the_portfolios_dancing_links_with_restarts_answer_exactly(p: Problem, want: int) -> None:
    # Dancing links alone (a CDCL stage that never settles), with a first
    # stage and randomized runs of a node or two: every run is complete,
    # so the answer is the definition's.
    from covering import solving

    expected = definition.brute_force(p)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solving, "PORTFOLIO_NODES", 1)  # runs of 1, 2, 4, ... nodes
        found, settled = solving.portfolio(want, solving._Dancing(p), _Stage(None, [], False),
                                           first_nodes=1)
    assert settled and len(found) == min(want, len(expected))
    assert len({tuple(sorted(s)) for s in found}) == len(found)
    assert all(tuple(sorted(s)) in expected for s in found)



@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10), st.integers(1, 2))
def test_the_race_of_cells_and_bitsets_answers_exactly(p: Problem, want: int) -> None:
    # Slices of one node: the searches on cells and on bitsets take turns at
    # every node, each finds the solutions again that the other found, and
    # the portfolio keeps each once.
    from covering import solving

    expected = definition.brute_force(p)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solving, "RACE_SLICE", 1)
        mp.setattr(solving, "PORTFOLIO_NODES", 1)
        dancing = solving._Dancing(p)
        found, settled = solving.portfolio(want, dancing, _Stage(None, [], False), first_nodes=1)
    c = p.compile()
    raced = c.first_beside is not None
    # The rule: bitsets beside where the cells go first and a count takes bitsets.
    assert raced == (c.first_engine == "cells" and c.search_engine() == "bits")
    # (Where they race, the bitset search is built after the cells' first
    # slice; multiplicities on bitsets have the weighted probe after theirs,
    # where it did not end there.)
    probed = dancing.weighted is not None
    assert not probed or c.first_engine == "bits" and c.has_multiplicities
    assert len(dancing.searches) + (dancing.beside is not None) == 1 + raced + probed
    assert settled and len(found) == min(want, len(expected))
    assert len({tuple(sorted(s)) for s in found}) == len(found)
    assert all(tuple(sorted(s)) in expected for s in found)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(max_options=10), st.integers(1, 2), st.integers(1, 40))
def test_the_weighted_probe_answers_exactly_where_it_ends_or_not(p: Problem, want: int, probe: int) -> None:
    # Multiplicities on bitsets: after their first slice (one node here),
    # the weighted branching's probe of `probe` nodes ends most of these
    # trees (its answer then is the portfolio's), or stops, and the bitsets
    # in the input order go on; either way the answer is the definition's,
    # each solution once, and the run's nodes count the probe's.
    from covering import solving

    expected = definition.brute_force(p)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solving, "WEIGHTED_PROBE_NODES", probe)
        mp.setattr(solving, "RACE_SLICE", 1)
        dancing = solving._Dancing(p)
        found, settled = solving.portfolio(want, dancing, _Stage(None, [], False), first_nodes=1000)
    assert settled and len(found) == min(want, len(expected))
    assert len({tuple(sorted(s)) for s in found}) == len(found)
    assert all(tuple(sorted(s)) in expected for s in found)
    c = p.compile()
    if dancing.weighted is not None:
        assert c.first_engine == "bits" and c.has_multiplicities
        assert 0 < dancing.weighted.stats.nodes <= probe and dancing.plain.stats.nodes >= 1
        assert dancing.stats.nodes == dancing.weighted.stats.nodes + dancing.plain.stats.nodes
    elif c.first_engine == "bits" and c.has_multiplicities:
        assert dancing.plain.exhausted or len(found) == want  # (settled in the first slice)


def test_the_weighted_probe_follows_the_bitsets_first_slice() -> None:
    # Multiplicities on bitsets: a problem their first slice settles never
    # builds the probe; with slices of one node, the probe comes second and
    # finds the solution before the bitsets go on.
    from covering import solving

    mcc = Problem.from_dlx("1:2|a b\na\na b\nb\n")
    dancing = solving._Dancing(mcc)
    assert dancing.plain.engine == "bits" and dancing.probing
    found, settled = solving.portfolio(1, dancing, _Stage(None, [], False))
    assert settled and len(found) == 1 and dancing.weighted is None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solving, "RACE_SLICE", 1)
        dancing = solving._Dancing(mcc)
        found, settled = solving.portfolio(1, dancing, _Stage(None, [], False))
    assert settled and len(found) == 1 and dancing.weighted is not None
    assert dancing.plain.stats.nodes == 1 and dancing.weighted.stats.nodes > 0


def test_the_race_goes_where_the_cells_go_first_and_a_count_takes_bitsets() -> None:
    from covering import solving

    # Queens: cells first, bitsets for a count, so both race; multiplicities
    # and a puzzle's own choice of engine run alone.
    queens = queens_problem(10)
    assert (queens.compile().first_engine, queens.compile().first_beside) == ("cells", "bits")
    assert (solving._Dancing(queens).plain.engine, solving._Dancing(queens).beside) == ("cells", "bits")
    mcc = Problem.from_dlx("1:2|a b\na\na b\nb\n")
    assert mcc.compile().first_beside is None
    assert solving._Dancing(mcc).beside is None
    queens.first_engine = "cells"
    assert solving._Dancing(queens).beside is None
    # No solution past the first slice: the bitsets end the tree, and the
    # run's counters are both searches' work; the answer is the same twice.
    p = pigeons(6)
    assert p.compile().first_beside == "bits"
    runs = [p.solve_unique() for _ in range(2)]
    assert runs[0] == runs[1] == (None, Uniqueness.NONE)
    raced_stats = p.stats  # (before the solvers below take its place)
    alone, cells = p.solver(engine="bits"), p.solver(engine="cells")
    assert alone.count() == 0 == cells.count() and alone.stats.nodes > solving.RACE_SLICE
    # (The cells had their first slice, and stopped before their own end.)
    assert solving.RACE_SLICE <= raced_stats.nodes - alone.stats.nodes < cells.stats.nodes
    assert raced_stats.solutions == 0



@pytest.mark.parametrize("per_decision", [100, 1024])
def test_a_cdcl_turn_is_priced_by_its_propagations_past_a_decisions_worth(per_decision: int) -> None:
    # Stages that never settle until dancing links' fourth turn: the turn
    # after the CDCL solver's first is twice its work, its decisions or, where
    # each propagated more than PROPAGATIONS_PER_DECISION, its propagations.
    # The first turn's first CDCL_PROBE_DECISIONS go alone, and the whole
    # turn after them in the same turn only where they were priced as most are.
    from types import SimpleNamespace

    from covering import solving

    asked: list[int | None] = []
    decided: list[int] = []

    def dancing(k: int, turn: Budget) -> Iterator[tuple[int, ...]]:
        asked.append(turn.nodes)
        if len(asked) < 4:
            raise LimitReached("turn spent", count=0, stats=None, budget="nodes")
        yield from ()

    class Sat:
        stats = SimpleNamespace(propagations=0)

        def solutions(self, k: int, **kw: object) -> Iterator[tuple[int, ...]]:
            budget = kw["budget"]
            assert isinstance(budget, Budget) and budget.nodes is not None
            decided.append(budget.nodes)
            self.stats.propagations += budget.nodes * per_decision
            raise LimitReached("turn spent", count=0, stats=None, budget="nodes")
            yield ()

    found, settled = solving.portfolio(1, dancing, solving.cdcl_stage(Sat))  # type: ignore[arg-type]
    assert settled and found == []
    first, lead, after, _ = asked
    assert first is not None and lead is not None and after is not None
    probe, whole = solving.CDCL_PROBE_DECISIONS, solving.CDCL_FIRST_DECISIONS
    if per_decision > solving.PROPAGATIONS_PER_DECISION:
        assert decided == [probe, whole - probe]  # (the rest of the first turn, its own)
        decisions = probe
    else:
        # (The probe, then the whole turn: a call's end restarts the solver.)
        assert decided == [probe, whole, 2 * whole]
        decisions = probe + whole
    worked = max(decisions, decisions * per_decision / solving.PROPAGATIONS_PER_DECISION)
    assert after == lead + int(solving.DANCING_SHARE * solving.NODES_PER_DECISION * worked)
    assert (after - lead > 2 * solving.NODES_PER_DECISION * decisions) == (per_decision > 256)


def pigeons(n: int) -> Problem:
    """n + 1 pigeons, each in one of n holes, no two in one hole: no
    solution, and a proof that is exponential for dancing links and for
    resolution (hence CDCL) alike."""
    p = Problem()
    p.add_primary([f"pigeon{i}" for i in range(n + 1)])
    p.add_secondary([f"hole{j}" for j in range(n)])
    for i in range(n + 1):
        for j in range(n):
            p.add_option([f"pigeon{i}", f"hole{j}"])
    return p


def test_the_classic_puzzles() -> None:
    pent = TilingPuzzle(PENTOMINOES, Board.rectangle(6, 10))
    first = pent.problem().first(engine="sat")
    assert pent.check(first) == []
    assert l_tromino(9).uniqueness(engine="sat") is Uniqueness.MULTIPLE
    # A 17-clue puzzle (Gordon Royle's list): exactly one solution.
    puzzle = sudoku.Sudoku.parse("000000010400000000020000000000050407008000300001090000300400200050100000000806000")
    p = puzzle.problem()
    assert p.uniqueness(engine="sat") is Uniqueness.UNIQUE
    solution = p.first(engine="sat")
    assert p.first(engine="cells") == solution  # the only one, found by both
    assert pigeons(6).uniqueness(engine="sat") is Uniqueness.NONE


def test_budgets_and_cancel() -> None:
    hard = pigeons(13)  # hours for any solver
    assert hard.uniqueness(engine="sat", seconds=0.5) is Uniqueness.UNKNOWN  # the budget stops it
    with pytest.raises(LimitReached):
        hard.first(engine="sat", conflicts=100)
    s = hard.solver(engine="sat")
    threading.Timer(0.3, s.cancel).start()
    with pytest.raises(Cancelled):
        s.first()
    # Cancelled once, it goes on when asked again.
    assert s.uniqueness(conflicts=10) is Uniqueness.UNKNOWN
    assert s.stats.conflicts > 0 and s.stats.variables >= hard.n_options
    # Decisions are the CDCL search's nodes: a node budget stops it too.
    s = hard.solver(engine="sat")
    assert s.uniqueness(nodes=500) is Uniqueness.UNKNOWN
    assert 500 <= s.stats.decisions == s.stats.nodes < 5_000
    assert s.stats.propagations >= s.stats.decisions
    assert hard.solve_unique(engine="sat", nodes=300) == (None, Uniqueness.UNKNOWN)
    # The portfolio's nodes: dancing links' first, then the CDCL decisions.
    assert hard.solve_unique(nodes=PORTFOLIO_NODES + 300) == (None, Uniqueness.UNKNOWN)


def test_bad_requests_are_clear_errors() -> None:
    p = l_tromino(6)
    with pytest.raises(ValueError, match="up to a limit"):
        p.count(engine="sat")
    with pytest.raises(ValueError, match="up to a limit"):
        SatSolver(p).count()
    for bad in (-1, 1.5, float("nan"), "10"):
        with pytest.raises(BudgetError):
            p.uniqueness(engine="sat", conflicts=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="conflicts="):
        p.uniqueness(engine="cells", conflicts=10)
    with pytest.raises(ValueError, match="one thread"):
        list(p.solutions(engine="sat", threads=2))
    with pytest.raises(ValueError):
        p.solver(engine="dancing")
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(p.solver(engine="sat"))


def test_the_portfolio_keeps_the_dancing_links_answer_when_it_comes_in_budget() -> None:
    # Within the node budget, first() is exactly dancing links' first solution.
    p = tiling(PENTOMINOES, Board.rectangle(6, 10))
    assert p.first() == next(p.solver(engine="cells").solutions(1))  # (its first stage dances on cells)
    # Past it, the CDCL solver answers. Twenty free binary choices (two
    # options each, so the fewest-options rule branches on them first) beside
    # 7 pigeons in 6 holes: dancing links refutes the pigeons again under each
    # of the 2^20 combinations; the CDCL solver learns they are independent.
    p = pigeons(6)
    p.add_primary([f"choice{k}" for k in range(20)])
    for k in range(20):
        for _ in range(2):
            p.add_option([f"choice{k}"])
    assert p.uniqueness(engine="cells", nodes=200_000) is Uniqueness.UNKNOWN
    assert p.uniqueness() is Uniqueness.NONE
    assert p.first() is None


class _Stage:
    """A stage of the portfolio that settles once given `needs` units (its
    budget a total from its start when `total`, else a turn's own), after
    yielding `yields`; it records the budgets it was given."""

    def __init__(self, needs: int | None, yields: list[tuple[int, ...]], total: bool) -> None:
        self.needs, self.yields, self.total = needs, yields, total
        self.spent = 0
        self.given: list[int | None] = []

    def __call__(self, k: int, turn: Budget) -> Iterator[tuple[int, ...]]:
        n = turn.nodes
        self.given.append(n)
        yield from self.yields[:k]
        self.spent = (n or 0) if self.total else self.spent + (n or 0)
        if n is not None and (self.needs is None or self.spent < self.needs):
            raise LimitReached("budget", count=0, stats=None, budget="nodes")


def test_the_portfolio_takes_turns_until_one_stage_settles() -> None:
    from covering import solving

    first, turn, rate = solving.PORTFOLIO_NODES, solving.CDCL_FIRST_DECISIONS, solving.NODES_PER_DECISION
    share = solving.DANCING_SHARE
    # Dancing links need a little more than their first stage; the CDCL
    # solver would never settle it: their own turn, as long again, does.
    dancing, cdcl = _Stage(first + 1, [], True), _Stage(None, [], False)
    assert solving.portfolio(1, dancing, cdcl) == ([], True)
    assert dancing.given == [first, 2 * first] and cdcl.given == []
    # Where only the CDCL solver settles it, its turns double, and dancing
    # links go on between them, by a share of the same work.
    dancing, cdcl = _Stage(None, [], True), _Stage(7 * turn, [], False)
    assert solving.portfolio(1, dancing, cdcl) == ([], True)
    assert cdcl.given == [turn, 2 * turn, 4 * turn]
    assert dancing.given == [first, 2 * first, 2 * first + int(share * rate * turn),
                             2 * first + int(share * rate * 3 * turn)]
    # A node budget counts both, and ends the turns unsettled.
    dancing, cdcl = _Stage(None, [], True), _Stage(None, [], False)
    assert solving.portfolio(1, dancing, cdcl, budget=Budget.of(nodes=2 * first + turn + 10)) == ([], False)
    assert cdcl.given == [turn] and dancing.given == [first, 2 * first, 2 * first + 10]
    # Uniqueness: dancing links showed one solution, the CDCL solver finds
    # it again and another; the first shown stays first, none twice.
    dancing, cdcl = _Stage(None, [(3, 1)], True), _Stage(None, [(1, 3), (2, 4)], False)
    assert solving.portfolio(2, dancing, cdcl) == ([(3, 1), (2, 4)], True)


def test_the_portfolio_does_not_hand_a_tree_just_past_its_first_stage_to_the_cdcl_solver() -> None:
    # Pigeons beside free choices: no solution, which dancing links refute
    # in more nodes than a first stage of 1,000. With a CDCL stage that
    # never settles, the real dancing stage goes on after its turn and does.
    from covering import solving

    p = pigeons(4)
    p.add_primary([f"pair{k}" for k in range(6)])
    for k in range(6):
        for _ in range(3):
            p.add_option([f"pair{k}"])
    alone = p.solver(engine="cells")
    assert alone.uniqueness() is Uniqueness.NONE and alone.stats.nodes > 1000
    dancing, _ = solving._problem_stages(p, Budget.of())
    cdcl = _Stage(None, [], False)
    assert solving.portfolio(2, dancing, cdcl, first_nodes=1000) == ([], True)


def test_the_sudoku_batch_hands_heavy_puzzles_to_the_one_portfolio(monkeypatch: pytest.MonkeyPatch) -> None:
    # With no node budget for the engine's dancing links, every puzzle of a
    # size other than 9 x 9 is left heavy and answered by the portfolio of
    # `Sudoku` (its CDCL stage): the same answers ("no solution",
    # "multiple", the only solution) as the batch's own search.
    from covering import _core
    from covering.puzzles.sudoku import _compiled

    for n, seeds in ((4, range(8)), (16, range(2))):
        puzzles = [sudoku.generate(n, seed=s).puzzle.line() for s in seeds]
        symbols = sudoku.SYMBOLS[n]
        empty = "." * (n * n)
        clash = symbols[0] + "." * (n - 1) + "." + symbols[0] + "." * (n * n - n - 2)  # 1 in r1c1 and r2c2: same box
        unsolvable = list(empty)  # r1c1 sees every symbol but the last (row), which its column already has
        for k, d in enumerate(symbols[:-1]):
            unsolvable[k + 1] = d
        unsolvable[n] = symbols[-1]
        puzzles += [empty, clash, "".join(unsolvable)]
        text = "\n".join(puzzles) + "\n"
        expected = sudoku.solve_text(text, n=n, mode="unique")
        solved = sudoku.solve_text(text, n=n, mode="solve")

        def heavy(m: int, symbols: str) -> _core.SudokuBatch:
            b = math.isqrt(m)
            return _core.SudokuBatch(_compiled(m), m, b, b, symbols, ".", portfolio_nodes=0)

        with monkeypatch.context() as patch:
            patch.setattr(sudoku, "_batch", heavy)
            # Every line but the unreadable one was handed on.
            answered, errors, complete, handed = heavy(n, symbols).run(text, "unique", 1000, 1)
            outputs = answered.split("\n")
            assert outputs.pop() == "" and len(outputs) == len(puzzles)  # a newline after each line
            assert complete and sorted(handed) == [k for k in range(len(puzzles)) if k != len(puzzles) - 2]
            assert all(outputs[k] == "" for k in handed)
            assert sudoku.solve_text(text, n=n, mode="unique", threads=2) == expected
            again = sudoku.solve_text(text, n=n, mode="solve")
        assert "no solution" in expected[0] and "multiple" in expected[0] and expected[1]
        assert again[1] == solved[1]
        for puzzle, answer, proved in zip(puzzles, again[0], expected[0]):
            if proved in ("no solution", "error"):
                assert answer == proved
                continue
            # First solutions may differ where there are several: each is checked by the rules.
            grid = sudoku.Sudoku.parse(answer, symbols)
            assert grid.check(grid) == [] and all(g in (".", a) for g, a in zip(puzzle, answer))
