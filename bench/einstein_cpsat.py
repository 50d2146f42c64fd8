"""The same Einstein FD model solved by OR-Tools CP-SAT, for `bench_einstein` (an optional extra).

The game is compiled by logicpy's own `compile_game` (pivot rows, index variables, NNF
formulas); its defining constraints (`FDModel.structure`) and clue formulas are posted to
CP-SAT instead of the FD store: integer variables, AllDifferent, Element, and each formula
as reified linear constraints (a table as a disjunction of its rows). Solutions are
enumerated by forbidding each grid found, so the figure compares like with like.
"""

from __future__ import annotations

from typing import Any

from logicpy.puzzles.einstein import Game
from logicpy.puzzles.einstein.compile import And, Or, compile_game


def cpsat_count(game: Game, limit: int = 0, presolve: bool = True) -> int:
    """How many solutions CP-SAT finds for the game (stopping after `limit` when > 0): solve,
    forbid that grid, solve again, so a unique game costs two solves, as a proof needs.
    `presolve=False` turns CP-SAT's presolve off (OR-Tools 9.15's presolve wrongly answers
    INFEASIBLE on some of these encodings, "UNSAT after expansion of inverse")."""
    from ortools.sat.python import cp_model

    model_fd, _ = compile_game(game)
    formula_parts = _clue_formula(game, model_fd)
    m = cp_model.CpModel()
    ints: dict[Any, Any] = {}

    def term(t):
        if isinstance(t, int):
            return t
        if t not in ints:
            ints[t] = m.NewIntVar(-1, 10**6, str(t))
        return ints[t]

    for what, *args in model_fd.structure:
        if what == "dom":
            v, values = args
            m.AddAllowedAssignments([term(v)], [(x,) for x in values])
        elif what == "all_different":
            m.AddAllDifferent([term(v) for v in args[0]])
        else:  # element(i, xs, v), i counted from 1
            i, xs, v = args
            index = m.NewIntVar(0, len(xs) - 1, "")
            m.Add(index == term(i) - 1)
            m.AddElement(index, [term(x) for x in xs], term(v))

    def lit(f) -> Any:
        """A literal that implies the formula."""
        b = m.NewBoolVar("")
        if isinstance(f, And):
            for p in f.parts:
                m.AddImplication(b, lit(p))
        elif isinstance(f, Or):
            m.AddBoolOr([lit(p) for p in f.parts]).OnlyEnforceIf(b)
        elif f.op == "eq":
            m.Add(term(f.x) == term(f.y) + f.c).OnlyEnforceIf(b)
        elif f.op == "neq":
            m.Add(term(f.x) != term(f.y) + f.c).OnlyEnforceIf(b)
        elif f.op == "lt":
            m.Add(term(f.x) < term(f.y) + f.c).OnlyEnforceIf(b)
        elif f.op == "le":
            m.Add(term(f.x) <= term(f.y) + f.c).OnlyEnforceIf(b)
        else:  # a table: one of its rows
            rows = []
            for row in sorted(f.rows):
                r = m.NewBoolVar("")
                for x, val in zip(f.xs, row):
                    m.Add(term(x) == val).OnlyEnforceIf(r)
                rows.append(r)
            m.AddBoolOr(rows).OnlyEnforceIf(b)
        return b

    for part in formula_parts:
        if part is False:
            return 0
        if part is not True:
            m.AddBoolOr([lit(part)])
    rows = [term(v) for v in model_fd.row_vars]
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = presolve
    found = 0
    while not limit or found < limit:
        if solver.Solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        found += 1
        values = [solver.Value(r) for r in rows]
        differs = []  # the next grid differs from this one in some row variable
        for r, v in zip(rows, values):
            d = m.NewBoolVar("")
            m.Add(r != v).OnlyEnforceIf(d)
            differs.append(d)
        m.AddBoolOr(differs)
    return found


def _clue_formula(game: Game, model_fd) -> list:
    from logicpy.puzzles.einstein.compile import _and

    formula = _and(model_fd.formula(r) for clue in game.clues for r in clue.rules)
    return list(formula.parts) if isinstance(formula, And) else [formula]


