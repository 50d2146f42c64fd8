"""The zebra puzzle (Life International, 1962) with logicpy's list relations, no finite domains.

Five houses in a row, each a compound term ("house", nationality, colour, pet, drink,
smoke). Every clue is one goal over the list of houses, with the clue's text beside it:
"lives in" is membership, "immediately to the right of" is adjacency, "next to" is
adjacency either way. The puzzle has exactly one solution: the Norwegian drinks water and
the Japanese owns the zebra. `prolog/zebra.pl` is the same model in Prolog, clue for clue,
and bench/bench_zebra.py runs it with plain kanren's relations too.

    python "$(logicpy files zebra.py)"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from logicpy.core import adjacento, conde, eq, membero, run, var, vars
from logicpy.errors import InputError

FIELDS = ("nationality", "colour", "pet", "drink", "smoke")


@dataclass(frozen=True)
class Relations:
    """The two list relations the model needs: membership and 'b directly after a'."""

    member: Callable[[Any, Any], Any]
    adjacent: Callable[[Any, Any, Any], Any]


LOGICPY = Relations(member=membero, adjacent=adjacento)


def house(**known: str) -> tuple:
    """A house term with the given fields and a fresh variable for every other one."""
    unknown = set(known) - set(FIELDS)
    if unknown:
        raise InputError(f"house: unknown field(s) {sorted(unknown)}; fields are {FIELDS}")
    return ("house", *(known.get(field, var(field)) for field in FIELDS))


def zebra_goals(houses: list, rel: Relations = LOGICPY) -> list:
    """The clues as goals over `houses`, a list of five house terms, in the order they are tried.

    The two clues that fix a position come first (as in prolog/zebra.pl): they prune most.
    """

    def next_to(a, b):
        return conde([rel.adjacent(a, b, houses)], [rel.adjacent(b, a, houses)])

    member = rel.member
    return [
        eq(houses, [*vars(2), house(drink="milk"), *vars(2)]),               # 9. Milk is drunk in the middle house.
        eq(houses, [house(nationality="Norwegian"), *vars(4)]),              # 10. The Norwegian lives in the first house.
        member(house(nationality="Englishman", colour="red"), houses),       # 2. The Englishman lives in the red house.
        member(house(nationality="Spaniard", pet="dog"), houses),            # 3. The Spaniard owns the dog.
        member(house(colour="green", drink="coffee"), houses),               # 4. Coffee is drunk in the green house.
        member(house(nationality="Ukrainian", drink="tea"), houses),         # 5. The Ukrainian drinks tea.
        rel.adjacent(house(colour="ivory"), house(colour="green"), houses),  # 6. The green house is immediately to the right of the ivory house.
        member(house(pet="snails", smoke="Old Gold"), houses),               # 7. The Old Gold smoker owns snails.
        member(house(colour="yellow", smoke="Kools"), houses),               # 8. Kools are smoked in the yellow house.
        next_to(house(smoke="Chesterfield"), house(pet="fox")),              # 11. Chesterfields are smoked next to the fox.
        next_to(house(smoke="Kools"), house(pet="horse")),                   # 12. Kools are smoked next to the horse.
        member(house(drink="orange juice", smoke="Lucky Strike"), houses),   # 13. The Lucky Strike smoker drinks orange juice.
        member(house(nationality="Japanese", smoke="Parliament"), houses),   # 14. The Japanese smokes Parliaments.
        next_to(house(nationality="Norwegian"), house(colour="blue")),       # 15. The Norwegian lives next to the blue house.
        member(house(pet="zebra"), houses),                                  # Who owns the zebra?
        member(house(drink="water"), houses),                                # Who drinks water?
    ]


def solve(rel: Relations = LOGICPY) -> tuple[list[tuple], ...]:
    """Every solution: each a list of five ground house terms, left to right."""
    houses = vars(5, "house")
    return run(0, houses, *zebra_goals(houses, rel))


def who(houses: list[tuple], field: str, value: str) -> str:
    """The nationality of the house whose `field` is `value`."""
    column = FIELDS.index(field) + 1
    return next(h[1] for h in houses if h[column] == value)


def verify(houses: list[tuple]) -> list[str]:
    """The clues a candidate solution breaks, checked in plain Python (empty when it is right)."""
    at = {value: i for i, h in enumerate(houses) for value in h[1:]}
    def same(a, b): return at.get(a) is not None and at.get(a) == at.get(b)
    def beside(a, b): return a in at and b in at and abs(at[a] - at[b]) == 1
    checks = {
        "1. five houses, each value once": len(houses) == 5 and all(
            sorted(str(h[k]) for h in houses) == sorted({str(h[k]) for h in houses}) for k in range(1, 6)),
        "2. Englishman in red": same("Englishman", "red"),
        "3. Spaniard owns dog": same("Spaniard", "dog"),
        "4. coffee in green": same("coffee", "green"),
        "5. Ukrainian drinks tea": same("Ukrainian", "tea"),
        "6. green right of ivory": at.get("green", -9) == at.get("ivory", -9) + 1,
        "7. Old Gold owns snails": same("Old Gold", "snails"),
        "8. Kools in yellow": same("Kools", "yellow"),
        "9. milk in the middle": at.get("milk") == 2,
        "10. Norwegian first": at.get("Norwegian") == 0,
        "11. Chesterfield next to fox": beside("Chesterfield", "fox"),
        "12. Kools next to horse": beside("Kools", "horse"),
        "13. Lucky Strike drinks orange juice": same("Lucky Strike", "orange juice"),
        "14. Japanese smokes Parliament": same("Japanese", "Parliament"),
        "15. Norwegian next to blue": beside("Norwegian", "blue"),
    }
    return [clue for clue, ok in checks.items() if not ok]


def render(houses: list[tuple]) -> str:
    """The solution as a text table, one row per house."""
    rows = [("house", *FIELDS)] + [(str(i), *map(str, h[1:])) for i, h in enumerate(houses, 1)]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)


if __name__ == "__main__":
    solutions = solve()
    print(f"{len(solutions)} solution(s)")
    for houses in solutions:
        assert not verify(houses), verify(houses)
        print(render(houses))
        print(f"The {who(houses, 'drink', 'water')} drinks water; "
              f"the {who(houses, 'pet', 'zebra')} owns the zebra.")
