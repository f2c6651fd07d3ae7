"""What a new user meets first: warnings that name the name at the caller's
line, answers that say when there are fewer solutions than asked or a count
stopped at its cap, one rule for labels."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

from covering import NameWarning, OptionSkippedWarning, Problem


def covering(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "covering", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_to_dlx_warns_naming_the_long_names_at_the_callers_line() -> None:
    p = Problem()
    p.add_primary(["A", "verylongname"])
    p.add_secondary(["x"])
    p.add_option(["A", "x:blue"])
    p.add_option(["verylongname"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p.to_dlx()
    [w] = caught
    assert w.category is NameWarning and w.filename == __file__
    assert "'verylongname'" in str(w.message) and "'blue'" in str(w.message) and "'A'" not in str(w.message)


def test_skipped_options_warn_at_the_callers_line() -> None:
    for k in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if k == 0:
                Problem.from_dlx("A | x\nA\nx\n")
            else:
                Problem.from_arrays(["A"], [0, 1, 2], [0, 1], secondary=["x"])
        assert [w.category for w in caught] == [OptionSkippedWarning]
        assert caught[0].filename == __file__, caught[0].filename


def test_labels_follow_one_rule_whichever_builder() -> None:
    assert Problem.from_dlx("A B\nA |2\nB\n").first() == [("A",), ("B",)]
    text = "A B | x\nA x:red |3\nB x:red\nA B\n"
    read = Problem.from_dlx(text)
    built = Problem()
    built.add_primary(["A", "B"])
    built.add_secondary(["x"])
    for items in (["A", "x:red"], ["B", "x:red"], ["A", "B"]):
        built.add_option(items)
    assert read.labels == built.labels == [("A", "x:red"), ("B", "x:red"), ("A", "B")]
    assert read.label_text(0) == "A x:red |3"  # the line as read, for `covering dlx`
    bulk = Problem.from_arrays(["A", "B"], [0, 2, 4, 6], [0, 2, 1, 2, 0, 1], secondary=["x"],
                               option_color=[0, 1, 0, 1, 0, 0], colors=["red"])
    assert bulk.labels == read.labels
    labelled = Problem()
    labelled.add_primary(["A"])
    labelled.add_option(["A"], label="the only one")
    assert labelled.first() == ["the only one"]
    assert sorted(Problem.from_matrix([[1, 0], [0, 1], [1, 1]]).solutions()) == [[0, 1], [2]]


def nine_solutions() -> str:
    """A problem with exactly 9 solutions: items A, B; three options for
    each, every pair a solution."""
    return "A B\n" + "".join(f"A |{k}\n" for k in range(3)) + "".join(f"B |{k}\n" for k in range(3))


def test_fewer_than_asked_is_said(tmp_path: Path) -> None:
    p = Problem.from_dlx(nine_solutions())
    assert p.count() == 9
    found = p.best(10)
    assert len(found) == 9 and found.optimal and found.all_there_are and found.asked == 10
    assert not p.best(9).all_there_are and not p.best(3).all_there_are
    f = tmp_path / "nine.dlx"
    f.write_text(nine_solutions())
    r = covering("dlx", "best", "--limit", "10", str(f))
    assert r.returncode == 0 and r.stdout.count("cost ") == 9
    assert "9 solutions, all there are" in r.stderr
    r = covering("dlx", "solve", "--limit", "10", str(f))
    assert r.returncode == 0 and "9 solutions, all there are" in r.stderr
    r = covering("dlx", "solve", "--limit", "9", str(f))
    assert r.returncode == 0 and "all there are" not in r.stderr


def test_a_capped_count_is_marked(tmp_path: Path) -> None:
    f = tmp_path / "nine.dlx"
    f.write_text(nine_solutions())
    r = covering("dlx", "count", "--limit", "5", str(f))
    assert (r.returncode, r.stdout) == (0, "5\n") and "stopped at 5" in r.stderr
    r = covering("dlx", "count", "--limit", "50", str(f))
    assert (r.returncode, r.stdout) == (0, "9\n") and "stopped" not in r.stderr
    r = covering("akari", "count", "--limit", "2", "-", stdin="...\n...\n")
    assert r.returncode == 0 and r.stdout == "2\n" and "stopped at 2" in r.stderr
    r = covering("sudoku", "count", "--limit", "3", "-", stdin="." * 81 + "\n")
    assert r.returncode == 0 and r.stdout == "3\n" and "stopped at 3" in r.stderr
