"""Pure-Python references: readable programs to learn from, and the oracles
the tests check the engine against.

* `algorithm_x`: Knuth's Algorithm X on a dict of sets, without mutation, as
  in M. Hiroi's "Algorithm X" article (Common Lisp), extended to colors and multiplicities;
* `dlx`: dancing links on node objects, as in M. Hiroi's "Dancing Links" article (Python),
  extended to Knuth's Algorithms C (colors) and M (multiplicities);
* `definition`: the rules themselves: `is_solution`, and `brute_force`,
  which tries every subset of options (small problems only).

Each `solutions(problem)` yields the solutions as sorted tuples of option ids.

>>> from covering import Problem
>>> from covering.reference import algorithm_x, dlx, definition
>>> p = Problem.from_dlx("A B C | x\\nA x:1\\nB x:1\\nC\\nB C x:2\\nA B\\n")
>>> sorted(algorithm_x.solutions(p)) == sorted(dlx.solutions(p)) == definition.brute_force(p)
True
>>> definition.brute_force(p)
[(0, 1, 2), (2, 4)]
"""

from . import algorithm_x, definition, dlx

__all__ = ["algorithm_x", "dlx", "definition"]
