"""Budgets keep their word: ``--seconds`` and ``--nodes`` on every command
that searches, counts or generates (exit 3, a ``covering: budget:`` line,
what was found so far), Ctrl-C in each stage (exit 130), and the API's
``seconds=`` ending a stream however many solutions it finds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from running import TIMEOUT, interrupt, wait_idle

from covering import MemoryLimitError, Problem, Uniqueness, sizes, solving
from covering.puzzles.polyomino import l_tromino
from covering.puzzles.queens import queens_problem

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"


def covering(*args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "covering", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def budget_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("covering: budget:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture(scope="module")
def big_count(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A .dlx file whose count by search takes hours."""
    f = tmp_path_factory.mktemp("budgets") / "tromino10.dlx"
    f.write_text(l_tromino(10, 0).to_dlx())
    return f


@pytest.mark.parametrize("args", [
    ["dlx", "count", "--method", "search", "--json", "--no-progress"],
    ["dlx", "count", "--method", "search", "--threads", "2", "--json", "--no-progress"],
    ["dlx", "solve", "--json", "--all"],
])
def test_seconds_stops_dlx_with_exit_3(big_count: Path, args: list[str]) -> None:
    r = covering(*args, "--seconds", "1", str(big_count))
    assert r.returncode == 3, r.stderr
    assert "--seconds 1 spent" in budget_line(r.stderr)
    summary = json.loads(r.stdout.splitlines()[-1])
    assert summary["stopped"] == "budget" and summary["complete"] is False
    assert summary["command"] == f"dlx {args[1]}"
    if args[1] == "solve":
        # Every solution printed before the budget ran out is a real one.
        p = l_tromino(10, 0)
        sols = [json.loads(line)["solution"] for line in r.stdout.splitlines()[:-1]]
        assert sols and summary["count"] == len(sols)
        assert all(p.is_solution(s) for s in sols[:50])


@pytest.mark.parametrize("verb", ["solve", "unique"])
def test_the_portfolio_keeps_to_the_time_left(tmp_path: Path, verb: str) -> None:
    # 899 cells: no tiling, and neither dancing links nor the CDCL solver
    # can tell in seconds. The portfolio is given the time left of the
    # budget; when it runs out, exit 3 as for any budget.
    f = tmp_path / "none.dlx"
    f.write_text(l_tromino(30, 0).to_dlx())
    r = covering("dlx", verb, "--json", "--seconds", "2", str(f))
    assert r.returncode == 3, r.stderr
    assert "--seconds 2 spent" in budget_line(r.stderr)
    summary = json.loads(r.stdout.splitlines()[-1])
    assert summary["stopped"] == "budget" and summary["count"] == 0 and "uniqueness" not in summary


def test_nodes_stops_a_count_with_its_partial_count(big_count: Path) -> None:
    r = covering("dlx", "count", "--method", "search", "--threads", "1", "--nodes", "5000", "--json", "--no-progress", str(big_count))
    assert r.returncode == 3, r.stderr
    assert "--nodes 5000 spent" in budget_line(r.stderr)
    summary = json.loads(r.stdout.splitlines()[-1])
    assert summary["stopped"] == "budget" and summary["nodes"] == 5000
    # The partial count is the count of the same search with the same budget.
    solver = Problem.from_dlx(big_count.read_text()).solver()
    with pytest.raises(Exception) as e:
        solver.count(nodes=5000)
    assert summary["count"] == e.value.count  # type: ignore[attr-defined]


def test_nodes_stops_a_uniqueness_proof_with_exit_3(tmp_path: Path) -> None:
    # 899 cells: no tiling, undecided in 2,000 nodes. A node budget spent is
    # exit 3 with the summary saying so, as for --seconds (it was exit 0
    # with "unknown", as if the search had been given no budget).
    f = tmp_path / "none.dlx"
    f.write_text(l_tromino(30, 0).to_dlx())
    r = covering("dlx", "unique", "--json", "--nodes", "2000", str(f))
    assert r.returncode == 3, r.stderr
    assert "--nodes 2000 spent" in budget_line(r.stderr)
    summary = json.loads(r.stdout.splitlines()[-1])
    assert summary["stopped"] == "budget" and summary["complete"] is False and "uniqueness" not in summary
    # Within its budget, the same verb answers with exit 0: queens 6 has four solutions.
    g = tmp_path / "queens6.dlx"
    g.write_text(queens_problem(6).to_dlx())
    r = covering("dlx", "unique", "--json", "--nodes", "100000", str(g))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[-1])["uniqueness"] == "multiple"


def test_a_run_within_its_budget_is_complete() -> None:
    r = covering("queens", "count", "8", "--json", "--seconds", "60", "--nodes", "10000000")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["count"] == 92 and summary["stopped"] is None


@pytest.mark.parametrize("args", [
    ["queens", "count", "18"],
    ["queens", "list", "14"],
    ["tromino", "count", "21", "--method", "search"],
    ["polyomino", "count", "--board", "10x10", "--pieces", "pentominoes", "--uses", "any", "--method", "search"],
])
def test_seconds_stops_every_searching_command(args: list[str]) -> None:
    r = covering(*args, "--seconds", "1")
    assert r.returncode == 3, (args, r.stderr)
    budget_line(r.stderr)


@pytest.mark.skipif(not DATA.exists(), reason="needs the shared Sudoku sets")
def test_seconds_stops_a_sudoku_batch_with_the_lines_done() -> None:
    # About 35 s of work: the budget ends it part way on any machine.
    text = (DATA / "puzzles5_forum_hardest_1905_11plus.txt").read_text() * 20
    r = covering("sudoku", "solve", "-", "--seconds", "3", "--threads", "1", stdin=text)
    assert r.returncode == 3, r.stderr
    line = budget_line(r.stderr)
    done = r.stdout.splitlines()
    assert f"{len(done)} puzzles answered" in line
    puzzles = [p for p in text.splitlines() if p.strip() and not p.startswith("#")]
    assert 0 < len(done) < len(puzzles)
    for puzzle, answer in zip(puzzles[:100], done[:100]):
        assert all(c == "." or c == "0" or c == a for c, a in zip(puzzle.strip(), answer))


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_while_reading_a_stalled_stdin() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "covering", "dlx", "count", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write("A B C\nA B\n")  # half a file, then nothing
    proc.stdin.flush()
    wait_idle(proc)  # waiting on the rest of its input
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130 and len(err.splitlines()) <= 3 and "Traceback" not in err, err


def test_seconds_while_reading_a_stalled_stdin() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "covering", "dlx", "count", "--seconds", "1.5", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write("A B C\nA B\n")
    proc.stdin.flush()
    assert proc.wait(timeout=10) == 3  # stdin still open: the budget, not the end of the file
    assert proc.stderr is not None
    budget_line(proc.stderr.read())
    proc.stdin.close()


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
@pytest.mark.parametrize("args", [
    ["dlx", "count", "--method", "search", "--threads", "2"],  # the split into pieces, then the threads
    ["dlx", "solve", "--engine", "sat", "--limit", "100000000"],  # the CDCL encoding, then its search
])
def test_ctrl_c_in_each_stage(big_count: Path, args: list[str]) -> None:
    for cpu in (0.3, 1.5):  # early (cutting the tree, building clauses), then searching
        proc = subprocess.Popen([sys.executable, "-m", "covering", *args, "--no-progress", str(big_count)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = interrupt(proc, cpu)
        assert proc.returncode == 130 and len(err.splitlines()) <= 3 and "Traceback" not in err, err


def test_seconds_ends_a_stream_however_many_solutions_come() -> None:
    p = queens_problem(16)  # millions of solutions, each found in microseconds
    found = 0
    with pytest.raises(Exception) as e:
        for _ in p.solutions(seconds=0.3, ids=True):
            found += 1
    assert type(e.value).__name__ == "LimitReached" and e.value.count == found  # type: ignore[attr-defined]
    assert found > 0


def test_a_budget_keeps_the_portfolio() -> None:
    # The same first solution with and without a budget (the budget does
    # not switch the portfolio off), and one when the CDCL stage is left out.
    p = l_tromino(8, 0)
    assert p.first(ids=True) == p.first(ids=True, seconds=60.0)
    assert p.is_solution(p.first(ids=True, nodes=10**9))


def test_the_cdcl_stage_is_skipped_when_it_would_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    p = l_tromino(8, 0)
    monkeypatch.setattr(solving, "PORTFOLIO_NODES", 3)  # dancing links give up at once
    # Room for dancing cells, not for the CDCL encoding.
    compiled = p.compile()
    most = compiled.footprint("sat") - 1
    assert compiled.footprint("cells") < most
    monkeypatch.setenv(sizes.ENV, str(most))
    sol = p.first(ids=True)
    assert sol is not None and p.is_solution(sol)
    assert [s["engine"] for s in p.skipped] == ["sat"] and p.skipped[0]["estimate"] > most


def test_uniqueness_skips_the_cdcl_stage_when_it_would_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solving, "PORTFOLIO_NODES", 3)
    cases = ((l_tromino(5, 0), "MULTIPLE"), (l_tromino(4, 0), "UNIQUE"), (l_tromino(5, 6), "NONE"),
             (queens_problem(3), "NONE"), (queens_problem(5), "MULTIPLE"))
    skipped = 0
    for board, expected in cases:
        compiled = board.compile()
        monkeypatch.setenv(sizes.ENV, str(compiled.footprint("sat") - 1))
        solution, answer = board.solve_unique(ids=True)
        # Dancing links went on from where they stopped, to the same answer.
        assert answer.name == expected == Uniqueness.of(min(board.count(), 2)).name
        assert solution is None or board.is_solution(solution)
        # Skipped where dancing links did not settle it in their 3 nodes.
        assert [s["engine"] for s in board.skipped] in ([], ["sat"])
        skipped += bool(board.skipped)
    assert skipped >= 2


def test_the_memory_limit_reaches_each_engine_through_the_budget() -> None:
    from covering.limits import Budget

    p = l_tromino(8, 0)
    compiled = p.compile()
    cells, sat = compiled.footprint("auto"), compiled.footprint("sat")
    assert cells < sat
    # The search the library picks: the problem is too big for the memory given.
    with pytest.raises(sizes.SizeError, match="the search of this problem: needs about"):
        p.count(method="search", budget=Budget.of(memory=cells - 1))
    assert p.count(method="search", budget=Budget.of(memory=cells)) == p.count()
    # An engine asked by name: that engine does not fit.
    with pytest.raises(MemoryLimitError, match="engine 'sat'"):
        p.solver(engine="sat", memory=sat - 1)
    with pytest.raises(MemoryLimitError, match="engine 'sat'"):
        list(p.solutions(1, engine="sat", budget=Budget.of(memory=sat - 1)))
    # The portfolio leaves out the stage that would not fit, and says so.
    board = l_tromino(8, 0)
    sol = board.first(ids=True, budget=Budget.of(memory=sat - 1, nodes=10**7))
    assert sol is not None and board.is_solution(sol)
    # The memo and the diagram within the run's memory (the engine's rule).
    from covering.memo import memo_budget

    assert memo_budget(None, 1 << 20) == 1 << 19 and memo_budget(10**30, 1 << 20) == 1 << 20


def test_no_module_keeps_a_memory_limit() -> None:
    # The limit lives on the run's Budget, not in a module: no `global`
    # statement anywhere in the package.
    import ast

    import covering

    root = Path(covering.__file__).parent
    found = [f"{path.relative_to(root)}:{node.lineno}" for path in sorted(root.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Global)]
    assert found == []


def test_an_engine_that_would_not_fit_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "t.dlx"
    f.write_text(l_tromino(12).to_dlx())
    compiled = l_tromino(12).compile()
    between = (compiled.footprint("cells") + compiled.footprint("sat")) // 2
    refused = covering("--max-memory", str(between), "dlx", "solve", "--engine", "sat", str(f))
    assert refused.returncode == 1 and refused.stdout == "", refused.stderr
    line, = refused.stderr.splitlines()
    assert line.startswith("covering: error: engine 'sat': needs about ") and "past the limit" in line
    # The same limit lets dancing cells, and the portfolio without its CDCL stage, answer.
    for engine in ("cells", "auto"):
        r = covering("--max-memory", str(between), "dlx", "solve", "--engine", engine, "--json", str(f))
        assert r.returncode == 0, r.stderr
    with pytest.raises(MemoryLimitError, match="engine 'cells'"):
        sizes.check_engine("cells", compiled.footprint("cells") * 2**40)


FOOTPRINT = """
import sys
from covering import Problem
from covering.puzzles.polyomino import l_tromino
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) * 1024
p = {problem}
compiled = p.compile()
before = peak()
solver = p.solver(engine={engine!r})
try:
    next(iter(solver.solutions(1, ids=True, nodes=10**6)), None)
except Exception:  # the budget: the memory is held all the same
    pass
print(peak() - before, compiled.footprint({engine!r}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("problem,engine", [
    ("l_tromino(120, 0)", "cells"),
    ("l_tromino(60)", "sat"),
    ("Problem.from_dlx(open(sys.argv[1]).read())", "cells"),
])
def test_the_estimate_sees_what_the_engine_holds(tmp_path: Path, problem: str, engine: str) -> None:
    # A random colored problem (about 10^5 options) for the third case.
    f = tmp_path / "r.dlx"
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        import bigfile  # type: ignore[import-not-found]  # benchmarks/bigfile.py
    finally:
        sys.path.pop(0)
    f.write_text("\n".join(bigfile.lines(100_000, 7)) + "\n")
    r = subprocess.run([sys.executable, "-c", FOOTPRINT.format(problem=problem, engine=engine), str(f)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    held, estimate = map(int, r.stdout.split())
    # Never short by more than the allocator's slack, never wildly over.
    assert held <= 1.1 * estimate + 8 * 2**20, (held, estimate)
    assert estimate <= 3 * held + 8 * 2**20, (held, estimate)


def test_a_stop_flag_rises_at_its_deadline_and_raises_its_children() -> None:
    import time

    from covering import _core

    flag = _core.StopFlag()
    child = flag.child()
    flag.arm(0.05)
    assert not flag.is_set() and child.reason is None
    time.sleep(0.2)
    assert flag.reason == "seconds" and child.reason == "seconds"
    # A child's own deadline stops the call, not the run.
    run = _core.StopFlag()
    call = run.child()
    call.arm(0.0)
    time.sleep(0.05)
    assert call.is_set() and not run.is_set()
    run.set("nodes")
    assert run.reason == "nodes" and run.child().reason == "nodes"
    with pytest.raises(ValueError):
        run.set("everything")


def test_a_budget_made_before_the_call_counts_from_the_call() -> None:
    import time

    from covering.limits import Budget

    b = Budget.of(seconds=0.2)
    time.sleep(0.3)  # the clock has not started: the call gets its 0.2 s
    assert queens_problem(6).count(budget=b) == 4
    run = b.begin()
    assert 0.1 < (run.left() or 0) <= 0.2 and not b.stop.is_set()
    b.stop.set()  # the user's flag stops the calls made with it
    assert run.stop.is_set() and run.spent == "interrupt"


def test_a_time_budget_stops_a_distributed_count_with_the_pieces_finished() -> None:
    import time
    from concurrent.futures import ThreadPoolExecutor

    from covering import LimitReached
    from covering.cluster import distributed_count

    with ThreadPoolExecutor(2) as executor:
        start = time.monotonic()
        with pytest.raises(LimitReached) as e:
            distributed_count(queens_problem(20), executor, workers=2, seconds=0.3)
        assert time.monotonic() - start < 5.0 and e.value.budget == "seconds"
        # What the pieces finished counted: a part of the count, never more.
        assert e.value.count is not None and 0 <= e.value.count < 39_029_188_884
        assert distributed_count(queens_problem(8), executor, workers=2, seconds=60.0) == 92


def test_ctrl_c_in_a_finalizer_is_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    # A KeyboardInterrupt raised in a __del__ (as Ctrl-C landing in a Dask
    # future's finalizer) is "unraisable": while a command runs it is left
    # silent (the run's flag, rung by the handler, stops the run), and any
    # other unraisable error still reaches the hook as before.
    from covering.cli import budget

    reported: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(type(u.exc_value)))

    class Finalized:
        def __init__(self, error: BaseException) -> None:
            self.error = error

        def __del__(self) -> None:
            raise self.error

    with budget.running(budget.Watch.of(None, None)):
        Finalized(KeyboardInterrupt())
        Finalized(ValueError("a real one"))
    Finalized(KeyboardInterrupt())  # after the command: as Python does
    assert reported == [ValueError, KeyboardInterrupt]


def test_a_call_begun_after_the_deadline_gets_no_time_not_an_error() -> None:
    # A run whose time is up, asked for a call with a node cap of its own
    # (a turn of a race, a first look): the call's budget is spent at
    # once, never a negative number of seconds (once a BudgetError on a
    # loaded machine).
    import time

    from covering.limits import Budget

    run = Budget.of(seconds=0.01).begin()
    time.sleep(0.03)
    call = run.begin(nodes=10)
    assert call.seconds == 0.0 and call.nodes == 10 and call.over()
