"""The zebra puzzle (Life International, 1962) with logicpy's finite-domain goals.

Each of the 25 things (five colours, nationalities, drinks, smokes and pets) is a variable
whose value is its house number, 1 to 5 from the left. Every clue is one goal, with the
clue's text beside it; "same house" is plain kanren `eq`, which the domains follow. Labelling enumerates all solutions: there is exactly one, in which
the Norwegian drinks water and the Japanese owns the zebra.

    python "$(logicpy files zebra_fd.py)"
"""

from __future__ import annotations

from kanren import eq, run

from logicpy.core.fd import abs_diffo, all_differento, eq_offseto, inso, labelo
from logicpy.core.terms import var

KINDS = {
    "colour": ["red", "green", "ivory", "yellow", "blue"],
    "nationality": ["Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese"],
    "drink": ["coffee", "tea", "milk", "orange juice", "water"],
    "smoke": ["Old Gold", "Kools", "Chesterfield", "Lucky Strike", "Parliament"],
    "pet": ["dog", "snails", "fox", "horse", "zebra"],
}
HOUSES = range(1, 6)


def zebra_model():
    """The puzzle as (house variable per thing, the goals stating every clue)."""
    h = {thing: var(thing.replace(" ", "_")) for things in KINDS.values() for thing in things}
    goals = [inso(list(h.values()), HOUSES)]
    # 1. There are five houses. (Within a kind, each house has a different thing.)
    goals += [all_differento([h[t] for t in things]) for things in KINDS.values()]
    goals += [
        eq(h["Englishman"], h["red"]),                # 2. The Englishman lives in the red house.
        eq(h["Spaniard"], h["dog"]),                  # 3. The Spaniard owns the dog.
        eq(h["coffee"], h["green"]),                  # 4. Coffee is drunk in the green house.
        eq(h["Ukrainian"], h["tea"]),                 # 5. The Ukrainian drinks tea.
        eq_offseto(h["green"], h["ivory"], 1),        # 6. The green house is immediately to the right of the ivory house.
        eq(h["Old Gold"], h["snails"]),               # 7. The Old Gold smoker owns snails.
        eq(h["Kools"], h["yellow"]),                  # 8. Kools are smoked in the yellow house.
        eq(h["milk"], 3),                             # 9. Milk is drunk in the middle house.
        eq(h["Norwegian"], 1),                        # 10. The Norwegian lives in the first house.
        abs_diffo(h["Chesterfield"], h["fox"], 1),    # 11. The man who smokes Chesterfields lives next to the man with the fox.
        abs_diffo(h["Kools"], h["horse"], 1),         # 12. Kools are smoked in the house next to the house where the horse is kept.
        eq(h["Lucky Strike"], h["orange juice"]),     # 13. The Lucky Strike smoker drinks orange juice.
        eq(h["Japanese"], h["Parliament"]),           # 14. The Japanese smokes Parliaments.
        abs_diffo(h["Norwegian"], h["blue"], 1),      # 15. The Norwegian lives next to the blue house.
    ]
    return h, goals


def solve(strategy: str = "ff") -> list[dict[str, int]]:
    """All solutions, each a dict from thing to house number."""
    h, goals = zebra_model()
    names = list(h)
    houses = [h[n] for n in names]
    return [dict(zip(names, answer)) for answer in run(0, houses, *goals, labelo(houses, strategy))]


def as_houses(solution: dict[str, int]) -> list[tuple]:
    """The solution as house terms ("house", nationality, colour, pet, drink, smoke), left to right.

    This is the format of the relational model in examples/zebra.py, for side-by-side checks.
    """
    fields = ("nationality", "colour", "pet", "drink", "smoke")
    return [("house", *(next(t for t in KINDS[f] if solution[t] == h) for f in fields)) for h in HOUSES]


def render(solution: dict[str, int]) -> str:
    """The solution as a text table, one row per house."""
    rows = [["house", *KINDS]]
    for house in HOUSES:
        rows.append([str(house)] + [next(t for t in things if solution[t] == house) for things in KINDS.values()])
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)


if __name__ == "__main__":
    solutions = solve()
    print(f"{len(solutions)} solution(s)")
    for s in solutions:
        print(render(s))
        water = next(n for n in KINDS["nationality"] if s[n] == s["water"])
        zebra = next(n for n in KINDS["nationality"] if s[n] == s["zebra"])
        print(f"The {water} drinks water; the {zebra} owns the zebra.")
