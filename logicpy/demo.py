"""The `logicpy demo` command, the main job: solve the Hardest Logic Puzzle Ever, then tour the core.

The puzzle is solved from scratch (exact question universe, tree search, replay in every
world) and printed as a verified question tree; then comes a short tour of the relational
core, query by query.

Each step's query is shown as written and then run exactly as shown (evaluated in a
namespace holding `logicpy.core`), so the tour can never print code that differs from
what produced the answers.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, TextIO

__all__ = ["Step", "CORE_TOUR", "run_step", "GODS_QUERY", "solve_gods", "print_gods_solution", "print_core_tour", "register"]


@dataclass(frozen=True)
class Step:
    """One query of the tour: what it shows, the set-up lines, the query expression, and
    the names of the query's answer variables (the tuple `run` reifies, or a single one)."""

    title: str
    setup: str
    query: str
    names: tuple[str, ...]


CORE_TOUR = (
    Step("kanren's hello world", 'x = var("x")', "run(1, x, eq(x, 5))", ("x",)),
    Step("appendo run backwards: which two lists make [1, 2, 3]?",
         'x, y = var("x"), var("y")', "run(0, (x, y), appendo(x, y, [1, 2, 3]))", ("x", "y")),
    Step("lengtho generates lists of every length, as Prolog's length/2 does",
         'xs, n = var("xs"), var("n")', "run(4, (xs, n), lengtho(xs, n))", ("xs", "n")),
    Step("a fact table keeps the neq posted before the lookup (kanren's Relation drops it)",
         'parent = Table.from_rows("parent", [("abe", "homer"), ("homer", "bart"), ("homer", "lisa")])\n'
         'child = var("child")',
         'run(0, child, neq(child, "bart"), parent("homer", child))', ("child",)),
    Step("distincto posts neq between every pair: two different colours for two houses",
         'a, b = var("a"), var("b")',
         'run(0, (a, b), distincto([a, b]), membero(a, ["red", "green"]), membero(b, ["red", "green"]))', ("a", "b")),
    Step("unique_by keeps the first answer per key: one word per length",
         'w, k = var("w"), var("k")\nwords = [["a"], ["b", "c"], ["d"], ["e", "f"], []]',
         "run(0, w, unique_by(k, lall(membero(w, words), lengtho(w, k))))", ("w",)),
)


def run_step(step: Step) -> list[dict[str, Any]]:
    """The answers of one tour step, computed from its text: one {name: value} per answer."""
    import logicpy.core as core

    namespace: dict[str, Any] = {name: getattr(core, name) for name in core.__all__}
    exec(step.setup, namespace)
    answers = eval(step.query, namespace)
    if len(step.names) == 1:
        return [{step.names[0]: answer} for answer in answers]
    return [dict(zip(step.names, answer)) for answer in answers]


def print_core_tour(out: TextIO) -> None:
    """Print the tour of the relational core, one numbered query with its answers at a time."""
    from .core.terms import format_term, term_variables

    print("A tour of logicpy's relational core (logicpy.core, on kanren)", file=out)
    for number, step in enumerate(CORE_TOUR, 1):
        answers = run_step(step)
        print(f"\n{number}. {step.title}", file=out)
        for line in step.setup.splitlines():
            print(f"   >>> {line}", file=out)
        print(f"   >>> {step.query}", file=out)
        for answer in answers:  # unbound variables `_0, _1, …` across the answer, as the toplevel shows them
            names = {v: f"_{i}" for i, v in enumerate(term_variables(list(answer.values())))}
            print("   " + ", ".join(f"{name} = {format_term(value, names)}" for name, value in answer.items()),
                  file=out)
        if not answers:
            print("   no answer", file=out)


def _tour_json() -> list[dict]:
    """The tour as JSON-ready data: each step with its answers in logicpy's JSON form."""
    from .core.terms import to_json

    return [
        {"title": step.title, "setup": step.setup, "query": step.query,
         "answers": [{name: to_json(value) for name, value in answer.items()} for answer in run_step(step)]}
        for step in CORE_TOUR
    ]


#: The main job's query, printed and then run exactly as printed.
GODS_QUERY = "solve(CLASSIC, questions=3, complexity=1)"


def solve_gods():
    """The classic three-gods puzzle solved by evaluating `GODS_QUERY` over the gods façade."""
    import logicpy.puzzles.gods as gods

    return eval(GODS_QUERY, {name: getattr(gods, name) for name in gods.__all__})


def print_gods_solution(out: TextIO) -> None:
    """Solve the classic three-gods puzzle with 3 questions and print the verified tree."""
    from .puzzles.gods import verify

    result = solve_gods()
    print("The Hardest Logic Puzzle Ever (Boolos): Truly, Falsely and Random answer ja/da", file=out)
    print(f">>> {GODS_QUERY}", file=out)
    print(result, file=out)
    print(verify(result.puzzle, result.tree), file=out)


def _handle(args: argparse.Namespace) -> int:
    import sys

    if args.json:
        from .cli_contract import emit

        return emit(args, "ok", {"gods": solve_gods().to_json(), "tour": _tour_json()})
    else:
        print_gods_solution(sys.stdout)
        print(file=sys.stdout)
        print_core_tour(sys.stdout)
    return 0


def register(subparsers: Any) -> None:
    """Add the `demo` subcommand."""
    parser = subparsers.add_parser("demo", help="the main job: solve the Hardest Logic Puzzle Ever, then a tour of the core",
                                   description="Solve the Hardest Logic Puzzle Ever (3 gods, 3 questions) and print the verified question tree; then run a short tour of logicpy's relational core and print each query with its answers.")
    parser.add_argument("--json", action="store_true", help="print the puzzle's result and the tour's queries and answers as one JSON line")
    parser.set_defaults(func=_handle)
