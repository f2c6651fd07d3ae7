"""Reading a ``.dlx`` file for the command line, and printing its solutions.

>>> import contextlib, io
>>> from covering.cli.contract import Run
>>> from covering.problem import Problem
>>> p = Problem.from_dlx("a b\\na\\nb\\n")
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     write_solution(Run("dlx solve"), p, (0, 1))
>>> out.getvalue()
'a\\nb\\n'
"""

from __future__ import annotations

import warnings
from typing import Any

from ..errors import OptionSkippedWarning, ProblemError
from ..problem import Problem
from .common import place, read_input, warn
from .contract import Run

__all__ = ["load", "write_solution"]


def load(path: str) -> Problem:
    """Reads a .dlx file; errors and warnings name the file and line."""
    text, name = read_input(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OptionSkippedWarning)
        try:
            problem = Problem.from_dlx(text)
        except ProblemError as e:
            raise type(e)(place(name, str(e))) from None
    for w in caught:
        warn(place(name, str(w.message)))
    return problem


def write_solution(run: Run, problem: Problem, ids: tuple[int, ...],
                   cost: int | None = None) -> None:
    """One solution: its option lines (a blank line before all but the
    first; ``cost N`` after it for `best`), or a JSON line."""
    record: dict[str, Any] = {"solution": list(ids)}
    text = "".join(problem.label_text(o) + "\n" for o in ids)
    if cost is not None:
        record["cost"] = cost
        text += f"cost {cost}\n"
    run.answer(record, ("\n" if run.count else "") + text)


