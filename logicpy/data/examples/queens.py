"""N-queens with logicpy's finite-domain goals (the formulation of SWI-Prolog's clpfd manual).

Queen i stands in column i; its variable is its row, 1..n (or first..first + n − 1: the
rows may be numbered from any int, 10**12 costs what 1 costs). Rows are all different, and no
two queens share a diagonal: for queens i < j, row_i != row_j ± (j − i).

    python "$(logicpy files queens.py)" 8        # the count of solutions and the first board
"""

from __future__ import annotations

import sys

from kanren import run

from logicpy.core.fd import all_differento, inso, labelo, neq_offseto
from logicpy.core.terms import vars

__all__ = ["queens_model", "solve", "render"]


def queens_model(n: int, first: int = 1):
    """The rows of the n queens (logic variables, rows numbered from `first`) and the goals that keep them safe."""
    rows = vars(n, "q")
    goals = [inso(rows, range(first, first + n)), all_differento(rows)]
    for i in range(n):
        for j in range(i + 1, n):
            goals.append(neq_offseto(rows[i], rows[j], j - i))
            goals.append(neq_offseto(rows[i], rows[j], i - j))
    return rows, goals


def solve(n: int, count: int = 0, strategy: str = "ff", first: int = 1) -> tuple[tuple[int, ...], ...]:
    """The first `count` solutions (all when 0), each the row of the queen in each column
    (rows numbered from `first`)."""
    rows, goals = queens_model(n, first)
    return tuple(tuple(s) for s in run(count, rows, *goals, labelo(rows, strategy)))


def render(solution: tuple[int, ...]) -> str:
    """A board: `Q` for a queen, `.` for an empty square, top row first."""
    n = len(solution)
    return "\n".join(" ".join("Q" if solution[col] == row else "." for col in range(n)) for row in range(1, n + 1))


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    solutions = solve(size)
    print(f"{size}-queens: {len(solutions)} solutions; the first:")
    if solutions:
        print(render(solutions[0]))
