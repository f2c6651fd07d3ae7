"""Reading a ``.dlx`` file for the command line: errors and warnings
name the file and line.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "a.dlx"
>>> _ = path.write_text("a b\\na\\nb\\n")
>>> load(str(path)).n_options
2
"""

from __future__ import annotations

import warnings
from ..errors import OptionSkippedWarning, ProblemError
from ..problem import Problem
from .common import place, read_input, warn

__all__ = ["load"]


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

