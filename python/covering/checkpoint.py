"""Checkpoint files of distributed counts: resumable, verified, one writer.

JSON lines. The header names the problem (the SHA-256 fingerprint of its
compiled arrays), the seed, and the first pieces with their weights (their
estimated shares of the tree); then one line per finished piece::

    {"covering_checkpoint": 2, "fingerprint": ..., "seed": 0, "pieces": [[3], [-4]], "weights": [...], "checksum": ...}
    {"piece": [3], "count": 120, "nodes": 5000, "leftover": [[3, 7]], "shares": [0.1], "checksum": ...}

Each line carries a ``checksum``: a SHA-256 over the problem's fingerprint
and the line's other fields. A line that does not verify (a count changed
by hand, a piece removed from the header, a record copied from another
problem's file) or that has another shape is refused with the file and
line named: a checkpoint gives the exact count or no count. A last line cut
short by a crash is dropped (its piece is simply counted again), and the
file is cut back to the last whole line before anything is appended.

While a count runs, it holds an exclusive `flock` on the file, so a second
driver is refused instead of writing into the same file; the OS releases
the lock when the driver dies, so a killed run can always be resumed.
Records are appended and fsynced one by one.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "c.jsonl")
>>> with Checkpoint(path, "f00d", seed=0) as book:
...     book.load() is None
...     book.start([[1], [-2]], [0.5, 0.5])
...     book.record([1], 7, 100, [[1, 5]], [0.25])
True
>>> with Checkpoint(path, "f00d", seed=0) as book:
...     state = book.load()
>>> state.count, state.nodes, sorted(state.pending.values())  # [1, 5]: a quarter of [1]
(7, 100, [([-2], 0.5), ([1, 5], 0.125)])
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import ProblemError, RunIncomplete

__all__ = ["Checkpoint", "CheckpointError", "CheckpointBusy", "Resumed", "piece_key"]

VERSION = 2

Piece = list[int]


class CheckpointError(ProblemError):
    """A checkpoint file that belongs to another problem, is damaged, or was changed."""


class CheckpointBusy(RunIncomplete):
    """Another run holds the checkpoint file."""


def piece_key(piece: list[int]) -> str:
    """A piece as a dictionary key.

    >>> piece_key([3, -1])
    '3,-1'
    """
    return ",".join(map(str, piece))


@dataclass
class Resumed:
    """What a checkpoint says: the pieces still to count (key: (piece,
    weight)), and the count and nodes of the pieces finished."""

    pending: dict[str, tuple[Piece, float]]
    count: int
    nodes: int
    #: Pieces finished.
    done: int


def _checksum(fp: str, fields: dict[str, Any]) -> str:
    body = json.dumps({k: v for k, v in fields.items() if k != "checksum"}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{fp}\n{body}".encode()).hexdigest()


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_piece(x: object) -> bool:
    return isinstance(x, list) and all(_is_int(m) for m in x)


def _is_weight(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1


class Checkpoint:
    """The checkpoint file at `path` for the problem of fingerprint `fp`.

    Use it as a context manager: entering takes the lock (`CheckpointBusy`
    if another run holds it), leaving releases it.
    """

    def __init__(self, path: str | os.PathLike[str], fp: str, seed: int) -> None:
        self.path = Path(path)
        self.fp = fp
        self.seed = seed
        self._fd: int | None = None

    def __enter__(self) -> Checkpoint:
        import fcntl

        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise CheckpointBusy(f"{self.path}: the checkpoint is in use by another run") from None
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the lock
            self._fd = None

    def _error(self, lineno: int, what: str) -> CheckpointError:
        return CheckpointError(f"{self.path}:{lineno}: {what}")

    def _read(self) -> bytes:
        assert self._fd is not None, "use the checkpoint in a with block"
        os.lseek(self._fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(self._fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)

    def load(self) -> Resumed | None:
        """What the file says, or None for an empty (new) file."""
        data = self._read()
        if not data:
            return None
        lines = data.split(b"\n")
        # A file ends with "\n": the last element is empty, or a line cut short.
        whole, cut = lines[:-1], lines[-1]
        if not whole:
            raise self._error(1, "not a checkpoint of covering (no whole line)")
        head = self._parse(whole[0], 1)
        if head.get("covering_checkpoint") != VERSION:
            version = head.get("covering_checkpoint")
            if _is_int(version):
                raise self._error(1, f"a checkpoint of version {version}; this covering reads version {VERSION}")
            raise self._error(1, "not a checkpoint of covering")
        if head.get("fingerprint") != self.fp:
            raise self._error(1, "the checkpoint is for another problem")
        self._verify(head, 1)
        pieces, weights = head.get("pieces"), head.get("weights")
        if not (isinstance(pieces, list) and all(_is_piece(p) for p in pieces)
                and isinstance(weights, list) and len(weights) == len(pieces)
                and all(_is_weight(w) for w in weights)):
            raise self._error(1, "the header's pieces and weights are damaged")
        pending = {piece_key(p): (p, float(w)) for p, w in zip(pieces, weights)}
        count = nodes = done = 0
        for lineno, raw in enumerate(whole[1:], 2):
            rec = self._parse(raw, lineno)
            self._verify(rec, lineno)
            piece, leftover, shares = rec.get("piece"), rec.get("leftover"), rec.get("shares")
            n, m = rec.get("count", -1), rec.get("nodes", -1)
            if not (_is_piece(piece) and _is_int(n) and n >= 0 and _is_int(m) and m >= 0
                    and isinstance(leftover, list) and all(_is_piece(p) for p in leftover)
                    and isinstance(shares, list) and len(shares) == len(leftover)
                    and all(_is_weight(w) for w in shares)):
                raise self._error(lineno, "not a record of a finished piece")
            assert isinstance(piece, list) and isinstance(leftover, list) and isinstance(shares, list)
            assert isinstance(n, int) and isinstance(m, int)
            key = piece_key(piece)
            if key not in pending:
                raise self._error(lineno, "a piece that was not pending (a line repeated or out of place)")
            _, weight = pending.pop(key)
            count += n
            nodes += m
            done += 1
            pending.update((piece_key(p), (p, weight * s)) for p, s in zip(leftover, shares))
        if cut:
            # The last line was being written when the run stopped: its piece
            # is counted again, and the next record starts on a fresh line.
            assert self._fd is not None
            os.ftruncate(self._fd, len(data) - len(cut))
        return Resumed(pending, count, nodes, done)

    def _parse(self, raw: bytes, lineno: int) -> dict[str, Any]:
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise self._error(lineno, "damaged line (not JSON)") from None
        if not isinstance(obj, dict):
            raise self._error(lineno, "damaged line (not a JSON object)")
        return obj

    def _verify(self, obj: dict[str, Any], lineno: int) -> None:
        if obj.get("checksum") != _checksum(self.fp, obj):
            raise self._error(lineno, "the checksum does not match: the line was changed or belongs elsewhere")

    def _append(self, obj: dict[str, Any]) -> None:
        assert self._fd is not None, "use the checkpoint in a with block"
        obj["checksum"] = _checksum(self.fp, obj)
        os.lseek(self._fd, 0, os.SEEK_END)
        data = memoryview((json.dumps(obj) + "\n").encode())
        while data:
            data = data[os.write(self._fd, data):]
        os.fsync(self._fd)

    def start(self, pieces: list[Piece], weights: list[float]) -> None:
        """Writes the header of a new count."""
        assert self._fd is not None, "use the checkpoint in a with block"
        os.ftruncate(self._fd, 0)
        self._append({"covering_checkpoint": VERSION, "fingerprint": self.fp, "seed": self.seed,
                      "pieces": pieces, "weights": weights})

    def record(self, piece: Piece, count: int, nodes: int, leftover: list[Piece], shares: list[float]) -> None:
        """Appends a finished piece: its count, and the pieces it left with their shares of it."""
        self._append({"piece": piece, "count": count, "nodes": nodes, "leftover": leftover, "shares": shares})
