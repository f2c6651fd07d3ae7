"""Checkpoints: a count interrupted and resumed is exact; a checkpoint
changed by hand, damaged or of another shape gives the exact count or a
clean refusal naming the line, never a wrong count; a line cut short by a
crash is redone; two runs cannot write one file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from long import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from covering import Problem
from covering.checkpoint import Checkpoint, CheckpointBusy, CheckpointError
from covering.cluster import InlineExecutor, distributed_count
from covering.parallel import fingerprint
from covering.progress import Status
from covering.puzzles.polyomino import l_tromino

SMALL = l_tromino(8, 0)  # 30355 tilings
EXACT = 30355


class Stop(KeyboardInterrupt):
    pass


def interrupted_count(path: Path, problem: Problem = SMALL, after: int = 7, task_nodes: int = 5000) -> int:
    """Starts a checkpointed count and stops it after `after` pieces; returns the pieces done."""
    done: list[int] = []

    def stop(s: Status) -> None:
        if s.pieces_done >= after:
            done.append(s.pieces_done)
            raise Stop

    with pytest.raises(Stop):
        # Few pieces, small tasks: records with pieces left over.
        distributed_count(problem, InlineExecutor(), workers=1, checkpoint=path, task_nodes=task_nodes,
                          pieces_per_worker=3, threads_per_task=1, progress=stop, interval=0)
    return done[0]


def resume(path: Path, problem: Problem = SMALL) -> int:
    return distributed_count(problem, InlineExecutor(), workers=1, checkpoint=path, threads_per_task=1)


def test_interrupted_then_resumed(tmp_path: Path) -> None:
    p = l_tromino(9)
    book = tmp_path / "count.jsonl"
    done = interrupted_count(book, p, 7, 100_000)
    assert len(book.read_text().splitlines()) == 1 + done  # the header and the pieces finished
    tally: dict[str, int] = {}
    assert distributed_count(p, InlineExecutor(), workers=1, checkpoint=book, tally=tally) == 1193600
    assert tally["count"] == 1193600
    # A finished checkpoint gives the answer at once; another problem's is refused.
    assert resume(book, p) == 1193600
    with pytest.raises(CheckpointError, match=r":1: the checkpoint is for another problem"):
        resume(book, l_tromino(8, 0))
    (tmp_path / "junk.jsonl").write_text("not json\n")
    with pytest.raises(CheckpointError, match=r"junk.jsonl:1: damaged line"):
        resume(tmp_path / "junk.jsonl", p)


def lines_of(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(path: Path, objs: list[Any]) -> None:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))


def changed(objs: list[Any], how: str) -> list[Any]:
    objs = [dict(o) for o in objs]
    if how == "count+1":
        objs[2]["count"] += 1
    elif how == "count-5":
        objs[3]["count"] -= 5
    elif how == "header piece removed":
        objs[0]["pieces"] = objs[0]["pieces"][:-1]
        objs[0]["weights"] = objs[0]["weights"][:-1]
    elif how == "leftover removed":
        rec = next(o for o in objs[1:] if o["leftover"])
        rec["leftover"], rec["shares"] = rec["leftover"][1:], rec["shares"][1:]
    elif how == "line repeated":
        objs.insert(3, objs[2])
    elif how == "another shape":
        objs[2] = {"piece": objs[2]["piece"], "total": 3}
    elif how == "a list":
        objs[2] = [1, 2]
    elif how == "checksum removed":
        del objs[2]["checksum"]
    elif how == "version 1":
        objs[0]["covering_checkpoint"] = 1
    return objs


@pytest.mark.parametrize("how", ["count+1", "count-5", "header piece removed", "leftover removed",
                                 "line repeated", "another shape", "a list", "checksum removed", "version 1"])
def test_a_checkpoint_changed_by_hand_is_refused_naming_the_line(tmp_path: Path, how: str) -> None:
    book = tmp_path / "c.jsonl"
    interrupted_count(book)
    objs = lines_of(book)
    assert len(objs) >= 5 and any(o["leftover"] for o in objs[1:])
    write(book, changed(objs, how))
    with pytest.raises(CheckpointError, match=r"c\.jsonl:\d+: "):
        resume(book)
    # The command line: one line naming file and line, exit 2.
    dlx = tmp_path / "p.dlx"
    dlx.write_text(SMALL.to_dlx())
    r = subprocess.run([sys.executable, "-m", "covering", "dlx", "count", str(dlx), "--no-progress", "--checkpoint", str(book)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and f"{book}:" in r.stderr, r.stderr


def test_a_line_cut_short_is_redone(tmp_path: Path) -> None:
    book = tmp_path / "c.jsonl"
    interrupted_count(book)
    text = book.read_text()
    book.write_text(text[: len(text) - 25])  # the last record cut by a crash
    assert resume(book) == EXACT
    # The next records started on a line of their own: the file reads whole.
    assert all(json.loads(line) for line in book.read_text().splitlines())
    assert resume(book) == EXACT


@pytest.fixture(scope="module")
def checkpoint_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    book = tmp_path_factory.mktemp("ck") / "c.jsonl"
    interrupted_count(book)
    return book.read_bytes()


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_byte_changed_gives_the_count_or_a_refusal(
    tmp_path: Path, checkpoint_bytes: bytes, data: st.DataObject
) -> None:
    raw = bytearray(checkpoint_bytes)
    at = data.draw(st.integers(0, len(raw) - 1))
    raw[at] = data.draw(st.integers(0, 255).filter(lambda b: b != checkpoint_bytes[at]))
    book = tmp_path / "c.jsonl"
    book.write_bytes(bytes(raw))
    try:
        assert resume(book) == EXACT
    except CheckpointError as e:
        assert str(e).startswith(f"{book}:")


def test_two_runs_cannot_write_one_checkpoint(tmp_path: Path) -> None:
    book = tmp_path / "c.jsonl"
    interrupted_count(book)
    fp = fingerprint(SMALL.compile())
    with Checkpoint(book, fp, 0):
        with pytest.raises(CheckpointBusy, match="in use by another run"):
            resume(book)
        dlx = tmp_path / "p.dlx"
        dlx.write_text(SMALL.to_dlx())
        r = subprocess.run([sys.executable, "-m", "covering", "dlx", "count", str(dlx), "--no-progress", "--checkpoint", str(book)], capture_output=True, text=True)
        assert r.returncode == 1 and "in use by another run" in r.stderr and len(r.stderr.splitlines()) == 1
    # The lock goes with the run that held it.
    assert resume(book) == EXACT
