"""Seeded random .dlx files of any number of options, for the big-problem benchmarks.

    python benchmarks/bigfile.py OPTIONS SEED > file.dlx

Items: ``OPTIONS // 500`` primary items (2,000 for a million options) and a
tenth as many secondary ones, colored. Each option has 3 to 5 primary items
and one colored secondary item, so that a million options make a file of
about 30 MB, the size of the problems in the big-problems issue. One exact
cover is planted (groups of 4 primary items, every secondary item with color
``a`` in them), hidden among the random options, so a first solution exists.
"""

from __future__ import annotations

import random
import sys


def lines(n_options: int, seed: int) -> list[str]:
    """The lines of the file: the item line, then the options in a random order."""
    rng = random.Random(seed)
    n_primary = max(8, n_options // 500) // 4 * 4
    n_secondary = max(1, n_primary // 10)
    primary = [f"p{k}" for k in range(n_primary)]
    secondary = [f"s{k}" for k in range(n_secondary)]
    order = primary[:]
    rng.shuffle(order)
    planted = [" ".join(order[k:k + 4]) + f" {secondary[k // 4 % n_secondary]}:a" for k in range(0, n_primary, 4)]
    options = []
    for _ in range(max(0, n_options - len(planted))):
        items = rng.sample(primary, rng.randint(3, 5))
        options.append(" ".join(items) + f" {rng.choice(secondary)}:{rng.choice('abcde')}")
    for option in planted:
        options.insert(rng.randrange(len(options) + 1), option)
    return [" ".join(primary) + " | " + " ".join(secondary)] + options


def main() -> None:
    n_options, seed = int(sys.argv[1]), int(sys.argv[2])
    sys.stdout.write("\n".join(lines(n_options, seed)) + "\n")


if __name__ == "__main__":
    main()
