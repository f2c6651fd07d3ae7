"""The output contract every command keeps: what goes to stdout, what to
stderr, the summary line of ``--json`` and the exit status.

A command is given one `Run` and reports through it: each solution (or
puzzle answered, or puzzle made) with `Run.answer`, the count with
`Run.counted`, and, when it finished what was asked, `Run.done`. The
command line (`covering.cli.main`) ends every run the same way, however it
ended (completed, ``--limit`` reached, a budget spent, Ctrl-C), by
`Run.finish`:

* text: a count alone on the last line of stdout (verbs that count), a
  capped or partial count marked on stderr;
* ``--json``: every stdout line is one JSON object, the last one always
  the summary, with the same keys on every command: ``"command"``,
  ``"count"`` (solutions, in a batch too), ``"complete"`` (false when a
  puzzle of a batch was not answered), ``"stopped"``, ``"seconds"``, and
  where they apply ``"puzzles"`` (a batch's puzzles answered),
  ``"method"``, ``"engine"``, ``"nodes"``, ``"optimal"``, ``"skipped"``,
  ``"uniqueness"``;
* the exit status: 0 completed, 2 a bad line in a batch (the others were
  answered), 3 a budget spent, 130 Ctrl-C.

>>> import contextlib, io, json
>>> run = Run("tromino count", json=True)
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     run.counted(162)
...     run.done()
...     status = run.finish()
>>> status, sorted(json.loads(out.getvalue()))
(0, ['command', 'complete', 'count', 'seconds', 'stopped'])
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..limits import Budget
from . import budget

__all__ = ["Run", "FOUND", "EXIT_OK", "EXIT_INCOMPLETE", "EXIT_BAD", "EXIT_BUDGET", "EXIT_INTERRUPTED", "STOPS"]

EXIT_OK = 0
EXIT_INCOMPLETE = 1
EXIT_BAD = 2
EXIT_BUDGET = 3
EXIT_INTERRUPTED = 130

#: The values of the summary's ``"stopped"``, besides None (ran to the end).
STOPS = ("limit", "budget", "interrupt")

#: The solutions each answer of `unique` stands for ("unknown": not known).
FOUND = {"none": 0, "unique": 1, "multiple": 2}


def _json_line(record: dict[str, Any]) -> str:
    """`record` as one line of ``--json``. (`json` is imported here, not
    at the top: most commands print no JSON, and every command's start
    counts.)"""
    import json

    return json.dumps(record, ensure_ascii=False) + "\n"


class Run:
    """One run of one command: what it found so far and how it ended.

    `command` is the puzzle and verb (``"dlx count"``); `json` says whether
    stdout takes JSON lines. `noun` names what `count` counts in messages
    ("solutions", "tilings", "puzzles answered").
    """

    def __init__(self, command: str, *, json: bool = False, noun: str = "solutions", counts: bool = False) -> None:
        self.command = command
        self.json = json
        self.noun = noun
        #: True for a verb whose answer is a count (printed alone on the last
        #: line in text, partial when cut short).
        self.counts = counts
        self.start = time.monotonic()
        #: Solutions found or counted, puzzles answered or made; None when unknown.
        self.count: int | None = None if counts else 0
        #: A batch (each answer a puzzle): its solutions over all puzzles,
        #: summed from each puzzle's ``"count"``; the summary's ``"count"``,
        #: the puzzles answered its ``"puzzles"``.
        self.batch = noun == "puzzles answered"
        self.found = 0
        self.complete = False
        self.stopped: str | None = None
        #: The ``--limit`` in force (capped counts and short lists are said on stderr).
        self.limit: int | None = None
        #: Keys of the summary beyond the common ones ("method", "nodes", ...).
        self.extra: dict[str, Any] = {}
        #: Bad lines of a batch (exit status 2 at the end).
        self.errors = 0
        #: Where a count without a partial count got to, when cut short.
        self.where: str | None = None
        #: In a batch cut short, the partial count of the puzzle under way
        #: ("p.txt:3: 120 solutions so far"), said on the same stderr line.
        self.partial: str | None = None
        #: Inside `gathered`: the answers' text not yet written, and how many.
        self._pending: list[str] | None = None
        self._pending_count = 0
        #: The command's budget while it runs (`budget.Watch`; None before).
        self.watch: budget.Watch | None = None

    # The run's budget, handed to every verb it calls.

    @property
    def budget(self) -> Budget | None:
        """The command's budget (``--seconds``, ``--nodes``, ``--max-memory``)."""
        return None if self.watch is None else self.watch.budget

    @property
    def memory(self) -> int | None:
        """The command's ``--max-memory`` (None: the usual rule), for an
        engine built outside a verb's budget."""
        return None if self.watch is None else self.watch.budget.memory

    def check(self) -> None:
        """KeyboardInterrupt once the budget is spent (`budget.Watch.check`)."""
        if self.watch is not None:
            self.watch.check()

    def limit_reached(self, e: BaseException | None = None) -> None:
        """A search stopped on a budget (`budget.Watch.limit_reached`)."""
        if self.watch is not None:
            self.watch.limit_reached(e)

    def spent(self) -> str | None:
        """The flag of the budget spent, or None (`budget.Watch.spent`)."""
        return None if self.watch is None else self.watch.spent()

    def disarm(self) -> None:
        """The work is over: what it found is printed whole."""
        if self.watch is not None:
            self.watch.disarm()

    # What the command reports as it goes.

    def emit(self, record: dict[str, Any]) -> None:
        """One JSON line on stdout (``--json``), after the answers gathered."""
        if self._pending is not None:
            self._write_pending()
        sys.stdout.write(_json_line(record))
        sys.stdout.flush()

    def answer(self, record: dict[str, Any] | None, text: str | None) -> None:
        """One solution (or puzzle answered, or made): `record` as a JSON
        line with ``--json``, else `text` as it is; counted in `count`.
        Ctrl-C and the budget wait while it is written, so what is reported
        is always what was printed. Inside `gathered`, it is kept to be
        written with the others."""
        if self.batch and record is not None and "puzzle" in record:
            self.found += int(record.get("count") or 0)
        if self._pending is not None:
            if self.json:
                if record is not None:
                    self._pending.append(_json_line(record))
            elif text is not None:
                self._pending.append(text)
            self._pending_count += 1
            return
        with budget.held():
            if self.json:
                if record is not None:
                    self.emit(record)
            elif text is not None:
                sys.stdout.write(text)
                sys.stdout.flush()
            self.count = (self.count or 0) + 1

    @contextmanager
    def gathered(self) -> Iterator[None]:
        """The answers given in the block are written together, in one
        write, when it ends (or before an `error_line`): for a batch whose
        answers the engine gave all at once, where a write, a flush and two
        signal masks per line cost more than the solving (147,474 Sudoku
        lines: 0.6 s of Python around 0.6 s of engine). What was gathered
        is written however the block ends, and counted as it is written.

        >>> import contextlib, io
        >>> run = Run("sudoku solve")
        >>> with contextlib.redirect_stdout(io.StringIO()) as out:
        ...     with run.gathered():
        ...         run.answer(None, "a\\n")
        ...         run.answer(None, "b\\n")
        ...         before = out.getvalue()
        >>> before, out.getvalue(), run.count
        ('', 'a\\nb\\n', 2)
        """
        outer = self._pending is not None
        if not outer:
            self._pending, self._pending_count = [], 0
        try:
            yield
        finally:
            if not outer:
                self._write_pending()
                self._pending = None

    def answers(self, n: int, text: str) -> None:
        """`n` answers at once, as plain text (no ``--json``): `text` written
        in one write and counted together.

        >>> import contextlib, io
        >>> run = Run("sudoku solve")
        >>> with contextlib.redirect_stdout(io.StringIO()) as out:
        ...     run.answers(2, "a\\nb\\n")
        >>> out.getvalue(), run.count
        ('a\\nb\\n', 2)
        """
        with self.gathered():
            assert self._pending is not None
            self._pending.append(text)
            self._pending_count += n

    def _write_pending(self) -> None:
        """Writes and counts what `gathered` kept so far."""
        if not self._pending_count and not self._pending:
            return
        text, n = "".join(self._pending or ()), self._pending_count
        self._pending, self._pending_count = [], 0
        with budget.held():
            sys.stdout.write(text)
            sys.stdout.flush()
            self.count = (self.count or 0) + n

    def counted(self, n: int | None) -> None:
        """The count (so far, until `done`)."""
        self.count = n

    def done(self, *, limited: bool | None = None) -> None:
        """The run did what was asked. `limited`: it stopped at ``--limit``
        (None: decided from `count` and `limit`)."""
        self.complete = True
        if limited is None:
            limited = self.limit is not None and self.count is not None and self.count >= self.limit
        if limited:
            self.stopped = "limit"

    def picture_file(self, path: str | None, svg: Callable[[], str]) -> None:
        """``--svg FILE``: the first answer's picture (`svg()`) into FILE;
        nothing for no ``--svg``, or ``--svg -`` (pictures on stdout)."""
        if path not in (None, "-") and not self.count:
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg())

    def no_solution(self) -> None:
        """The run found no solution (`solve`, `best`, `random`): the one
        line ``no solution`` on every puzzle (text; with ``--json`` the
        summary's ``"count": 0`` says it), unless ``--limit 0`` asked for none.

        >>> import contextlib, io
        >>> run = Run("dlx solve")
        >>> with contextlib.redirect_stdout(io.StringIO()) as out:
        ...     run.no_solution()
        >>> out.getvalue(), run.count
        ('no solution\\n', 0)
        """
        self.count = 0
        if not self.json and self.limit != 0:
            with budget.held():
                sys.stdout.write("no solution\n")

    def uniqueness(self, word: str) -> None:
        """The answer of `unique`, after the solution: the word on a line of
        its own (text) and in the summary; the count is what it stands for
        (`FOUND`)."""
        self.extra["uniqueness"] = word
        self.count = FOUND.get(word, self.count)
        if not self.json:
            with budget.held():
                sys.stdout.write(word + "\n")

    def error_line(self, message: str, record: dict[str, Any] | None = None) -> None:
        """A bad puzzle of a batch: one stderr line (`message` names the
        file and line), and with ``--json`` an ``{"error": ...}`` line in
        its place, else a line ``error``; the batch goes on."""
        if self._pending is not None:
            self._write_pending()  # the answers before it, in their order
        self.errors += 1
        print(f"covering: error: {message}", file=sys.stderr)
        if self.json:
            self.emit({**(record or {}), "error": message})
        else:
            sys.stdout.write("error\n")

    # How it ends.

    def summary(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "command": self.command,
            "count": self.found if self.batch else self.count,
            "complete": self.complete and self.stopped in (None, "limit") and not self.errors,
            "stopped": self.stopped,
            "seconds": round(time.monotonic() - self.start, 6),
        }
        if self.batch:
            record["puzzles"] = self.count
        record.update(self.extra)
        return record

    def cut(self, interrupted: bool, partial: Any = None) -> None:
        """The run was cut short by Ctrl-C or a budget (`spent`);
        `partial`, an `Interrupted` or `LimitReached`, carries a count's
        partial count (or where it got to, when it knows none)."""
        if partial is not None and self.counts:
            self.counted(partial.count)
            self.where = partial.where
        self.complete = False
        interrupted = interrupted or getattr(partial, "budget", None) == "interrupt"
        self.stopped = "budget" if self.spent() is not None or not interrupted else "interrupt"

    def finish(self) -> int:
        """Prints how the run ended (the summary line, or the count; the
        stderr notes) and returns the exit status."""
        self.disarm()  # the work is over: what it found is printed whole
        cut = self.stopped in ("budget", "interrupt")
        if self.json:
            self.emit(self.summary())
        elif self.counts and self.count is not None:
            sys.stdout.write(f"{self.count}\n")
        sys.stdout.flush()
        if cut:
            return self._report_cut()
        if self.stopped == "limit" and self.counts:
            print(f"covering: the count stopped at {self.count} (--limit {self.limit}): there may be "
                  "more", file=sys.stderr)
        elif (not self.counts and self.limit is not None and self.count is not None and 1 < self.limit
              and self.count < self.limit and self.complete and not self.errors):
            one = self.noun[:-1] if self.count == 1 and self.noun.endswith("s") else self.noun
            print(f"covering: {self.count} {one}, all there are (--limit {self.limit} asked for more)",
                  file=sys.stderr)
        return EXIT_BAD if self.errors else EXIT_OK

    def _report_cut(self) -> int:
        spent = self.spent()
        word = "interrupted" if self.stopped == "interrupt" else f"budget: {spent or 'a budget'} spent"
        status = EXIT_INTERRUPTED if self.stopped == "interrupt" else EXIT_BUDGET
        if self.counts:
            if self.count is None:
                where = f": at {self.where} (no partial count)" if self.where else " (no partial count)"
                print(f"covering: {word}{where}", file=sys.stderr)
            else:
                print(f"covering: {word}: {self.count} {self.noun} so far (a partial count)", file=sys.stderr)
        else:
            also = f"; {self.partial} (a partial count)" if self.partial else ""
            print(f"covering: {word}: {self.count or 0} {self.noun} so far{also}", file=sys.stderr)
        return status
