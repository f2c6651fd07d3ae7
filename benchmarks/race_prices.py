"""The prices of the count's race (`_core.CountPlan.search_cost`, `frontier_cost`): what a
frontier transition and mem, and a search node and mem, take on Knuth's workloads. The evidence
for the plan's `FRONTIER_MEM_COST`, `CELLS_NODE_COST`, `MCC_NODE_COST`, `CELLS_MEM_COST`,
`BITS_NODE_COST`, `MBITS_NODE_COST` and `MBITS_MEM_COST` (the engine's `plan` module).

    python benchmarks/race_prices.py --knuth DIR [--words FILE] [--seconds S] [--only NAME ...]

DIR as for benchmarks/knuth_workloads.py (his generators in DIR/gen). Each count instance of that
benchmark is reduced as the count reduces it, then counted at the frontier (in the order the count
chooses, one thread) and by a one-thread search, each for at most `--seconds` of CPU (or to its
end); the table gives, for each, the work done, the nanoseconds a transition or node and a mem
took, and the price the race puts on it against the time it took (`ns / unit`: 1 where the price
is right). Printed only: the prices are read from it by hand.
"""

from __future__ import annotations

import argparse
import re
import time

from covering import _core, limits
from covering import counting as C
from covering import reduction
from covering.errors import LimitReached
from covering.problem import Problem
from covering.solver import Solver
from knuth_workloads import generated, instances, workload_arguments, workload_folder


def frontier_row(problem: Problem, seconds: float) -> str:
    compiled = problem.compile()
    order = C._order(compiled, "auto")
    if order is None:
        return "| | | | |"
    f = _core.FrontierCount(compiled, order.items, 1)
    start, work, done = time.process_time(), 1 << 16, None
    while done is None and time.process_time() - start < seconds:
        done = f.run(limits.begin(None, f.progress.work + work))
        work *= 2
    spent = time.process_time() - start
    transitions, mems = f.progress.work, f.progress.mems
    return (f"| {transitions:,}{'' if done is not None else '+'} | {1e9 * spent / transitions:.0f} | "
            f"{1e9 * spent / max(1, mems):.2f} | {1e9 * spent / _core.CountPlan.frontier_cost(mems):.2f} |")


def search_row(problem: Problem, seconds: float) -> str:
    solver = Solver(problem)
    start = time.process_time()
    try:
        solver.count(seconds=seconds)
    except LimitReached:
        pass
    spent = time.process_time() - start
    st = solver.stats
    cost = _core.CountPlan(problem.compile(), solver.engine).search_cost(st)
    return (f"| {solver.engine} | {st.nodes:,} | {1e9 * spent / max(1, st.nodes):.0f} | "
            f"{1e9 * spent / max(1, st.mems):.2f} | {1e9 * spent / max(1.0, cost):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    workload_arguments(parser)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    folder, subs = workload_folder(args, "race-prices-")
    print("| instance | transitions | ns / transition | ns / mem | ns / unit | engine | nodes | ns / node | "
          "ns / mem | ns / unit |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    for inst in instances(args.words):
        if inst.first or (args.only and not any(o in inst.name for o in args.only)):
            continue
        path = folder / (re.sub(r"\W+", "-", inst.name) + ".dlx")
        path.write_text(generated(inst, args.knuth, subs))
        problem = reduction.reduce(Problem.from_dlx(path.read_bytes())).problem
        print(f"| {inst.name} {frontier_row(problem, args.seconds)} {search_row(problem, args.seconds)[2:]}",
              flush=True)


if __name__ == "__main__":
    main()
