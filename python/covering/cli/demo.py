"""``covering demo``: the examples of the seeds, small and quick."""

from __future__ import annotations

import argparse

from ..problem import Problem

#: Knuth's introductory examples for DLX1, DLX2 and DLX3.
KNUTH = {
    "DLX1 (TAOCP 7.2.2.1-(5))": "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n",
    "DLX2 (colors)": "A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n",
    "DLX3 (multiplicities)": "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n",
}


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("demo", help="run the examples of the seeds (quick)",
                       description="Solve Knuth's introductory examples and the seeds' puzzles.")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import warnings

    from ..errors import OptionSkippedWarning

    for title, text in KNUTH.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OptionSkippedWarning)
            problem = Problem.from_dlx(text)
        print(f"Knuth's {title}: {problem.count()} solution(s)")
        for solution in problem.solutions():
            print("    " + " / ".join(solution))
    return 0
