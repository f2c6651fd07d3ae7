"""Problem builders shared by the tests (kept plain, so that the tests do not
depend on the code they check)."""

from __future__ import annotations

from covering import Problem


def l_tromino(n: int, hole: int | None = None) -> Problem:
    """Seed 000's L-tromino placements on an n x n board (cells y*n+x), minus `hole`."""
    p = Problem()
    p.add_primary([c for c in range(n * n) if c != hole])
    for x in range(n - 1):
        for y in range(n - 1):
            z = y * n + x
            for cells in ([z, z + 1, z + n], [z, z + 1, z + n + 1], [z, z + n, z + n + 1], [z + 1, z + n, z + n + 1]):
                if hole not in cells:
                    p.add_option(cells)
    return p


PENTOMINOES = {
    "F": [".##", "##.", ".#."], "I": ["#####"], "L": ["####", "#..."], "N": ["##..", ".###"],
    "P": ["##", "##", "#."], "T": ["###", ".#.", ".#."], "U": ["#.#", "###"], "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"], "X": [".#.", "###", ".#."], "Y": ["####", ".#.."], "Z": ["##.", ".#.", ".##"],
}


def _orientations(picture: list[str]) -> set[tuple[tuple[int, int], ...]]:
    cells = [(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch == "#"]
    out = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return out


def pentominoes(rows: int, cols: int, holes: frozenset[tuple[int, int]] = frozenset()) -> Problem:
    """The 12 pentominoes, each once, in all orientations, on a board (no symmetry breaking)."""
    board = {(r, c) for r in range(rows) for c in range(cols)} - holes
    p = Problem()
    p.add_primary(list(PENTOMINOES))
    p.add_primary([f"{r},{c}" for r, c in sorted(board)])
    for name, picture in PENTOMINOES.items():
        for shape in sorted(_orientations(picture)):
            for r in range(rows):
                for c in range(cols):
                    cells = [(r + a, c + b) for a, b in shape]
                    if all(cell in board for cell in cells):
                        p.add_option([name] + [f"{a},{b}" for a, b in cells])
    return p


def queens(n: int) -> Problem:
    """n queens: rows and columns primary, diagonals secondary (Knuth's encoding)."""
    p = Problem()
    p.add_primary([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)])
    p.add_secondary([f"a{s}" for s in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)])
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{n - 1 + i - j}"], label=(i, j))
    return p
