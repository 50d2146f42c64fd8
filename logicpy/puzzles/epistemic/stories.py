"""The puzzles, as data: each is a `Story` (worlds, agents, statements in the puzzle's words).

Cheryl's Birthday and its variants follow Norvig's "When Cheryl Met Eve" (2015); the
others are classics of the dynamic-epistemic-logic literature (Freudenthal's Sum and
Product, the muddy children, "what sum", the census taker's three children).
"""

from __future__ import annotations

from functools import partial
from math import comb, prod
from operator import itemgetter
from typing import Any, Callable, Iterable

import numpy as np

from ...errors import InputError
from .dates import MONTHS, MonthDay
from .propositional import Valuations, any_fact, atom_fact, count_of, sees_all_but
from .model import (
    NOTHING, And, Or, Projection, Statement, Story, fact, initially, knows, knows_whether,
    knows_which, seeing,
)

__all__ = [
    "CLASSIC_DATES", "GABE_DATES", "COMPLEX_DATES", "BUS_TIMES", "LANDING_PADS", "DATE_POOL",
    "birthday", "CLASSIC", "GABE", "EVE", "COMPLEX", "BUS", "LANDING",
    "SUM_PRODUCT", "sum_product", "sam_pat", "CHERYL_AGE", "THREE_CHILDREN", "muddy_children", "muddy_knowers",
    "what_sum",
]


def _whole(who: str, argument: str, value: Any, low: int) -> int:
    """`value` if it is an integer of at least `low`; else an InputError naming the argument."""
    if type(value) is not int or value < low:
        raise InputError(f"{who}: {argument} must be an integer of at least {low}, got {value!r}")
    return value


def _dates(text: str) -> tuple[MonthDay, ...]:
    out = []
    for item in text.split(","):
        name, day = item.split()
        out.append(MonthDay(MONTHS.index(name) + 1, int(day)))
    return tuple(out)


#: Cheryl's ten dates (the original puzzle, Singapore, 2015).
CLASSIC_DATES = _dates("May 15, May 16, May 19, June 17, June 18, July 14, July 16, August 14, August 15, August 17")
#: Gabe Gaster's tweeted dates: the classic story gives July 30.
GABE_DATES = _dates("January 15, January 4, July 13, July 24, July 30, March 13, March 24, May 11, May 17, May 30")
#: Norvig's dates for the complex story (2015): it gives July 27.
COMPLEX_DATES = _dates("April 28, July 27, June 19, June 16, July 15, April 15, June 29, July 16, May 24, May 27")
#: The default sampling pool: March-July, days 15-19 and 25-29 (50 dates).
DATE_POOL = tuple(MonthDay(m, d) for m in range(3, 8) for d in (15, 16, 17, 18, 19, 25, 26, 27, 28, 29))
#: Steve's bus times (the same story told as hour and minute): 08:32.
BUS_TIMES = ("06:32", "06:43", "06:50", "07:17", "07:46", "08:19", "08:32", "09:17", "09:19", "09:50")
#: Landing pads (the same story told as letter and digit): C3.
LANDING_PADS = ("A2", "A3", "A6", "B4", "B5", "C1", "C3", "D1", "D2", "D4")

MONTH = Projection(lambda d: d.month, "the month", show=lambda m: MONTHS[m - 1])
DAY = Projection(lambda d: d.day, "the day")
FIRSTS = Projection(lambda d: (MONTHS[d.month - 1][0], str(d.day)[0]),
                    "the first letter of the month and the first digit of the day",
                    show=lambda v: f"{v[0]}… {v[1]}…")


def _albert1(a: str, b: str, what: str) -> Statement:
    return Statement(a, f"I don't know {what}, but I know that {b} does not know too.",
                     ~knows_which(a) & knows(a, ~knows_which(b)))


def _bernard1(b: str, what: str) -> Statement:
    return Statement(b, f"At first I don't know {what}, but I know now.",
                     initially(~knows_which(b)) & knows_which(b))


def _eve(e: str, what: str) -> Statement:
    return Statement(e, f"I peeked and saw {FIRSTS.name}. When I peeked, I didn't know {what}, but after "
                        "listening to Albert and Bernard I do. And it's a good thing I peeked, because I "
                        "couldn't have figured it out without peeking.",
                     initially(~knows_which(e)) & knows_which(e) & seeing(e, NOTHING, ~knows_which(e)))


def birthday(kind: str = "classic", worlds: Iterable[Any] = CLASSIC_DATES, first: Projection = MONTH,
             second: Projection = DAY, what: str = "when Cheryl's birthday is",
             show: Callable[[Any], str] = str, question: str = "Cheryl's birthday",
             name: str = "Cheryl's birthday") -> Story:
    """Norvig's stories ("classic", "eve", "complex"): Albert is told `first`, Bernard `second`."""
    a, b, e = "Albert", "Bernard", "Eve"
    agents = {a: first, b: second}
    said = [_albert1(a, b, what), _bernard1(b, what)]
    if kind == "classic":
        said.append(Statement(a, f"Then I also know {what}.", knows_which(a)))
    elif kind == "eve":
        agents[e] = FIRSTS
        said += [Statement(a, f"Then I also know {what}.", knows_which(a)), _eve(e, what)]
    elif kind == "complex":
        agents[e] = FIRSTS
        said += [Statement(a, "I still don't know.", ~knows_which(a)), _eve(e, what),
                 Statement(a, "OK, now I know.", knows_which(a))]
    else:
        raise InputError(f"birthday: kind must be classic, eve or complex, got {kind!r}")
    return Story(f"{name} ({kind})", tuple(worlds), agents, tuple(said), show, question)


CLASSIC = birthday("classic")
GABE = birthday("classic", GABE_DATES)
EVE = birthday("eve")
COMPLEX = birthday("complex", COMPLEX_DATES)
BUS = birthday("classic", BUS_TIMES, Projection(lambda t: t[:2], "the hour"), Projection(lambda t: t[3:], "the minute"),
               "when the bus leaves", question="the bus time", name="Bus times")
LANDING = birthday("classic", LANDING_PADS, Projection(lambda p: p[0], "the letter"),
                   Projection(lambda p: p[1:], "the digit"), "where the trolley lands",
                   question="the landing pad", name="Landing pads")


def sum_product(limit: int = 100) -> Story:
    """Freudenthal (1969): 1 < x < y, x + y <= limit; S is told the sum, P the product."""
    _whole("sum_product", "limit", limit, 5)
    worlds = tuple((x, y) for x in range(2, limit) for y in range(x + 1, limit - x + 1))
    said = (
        Statement("S", "P does not know the numbers (and I knew it).", knows("S", ~knows_which("P"))),
        Statement("P", "Now I know the numbers.", knows_which("P")),
        Statement("S", "Now I know them too.", knows_which("S")),
    )
    return Story("Sum and Product", worlds,
                 {"S": Projection(sum, "the sum"), "P": Projection(prod, "the product")}, said,
                 lambda w: f"({w[0]}, {w[1]})", "the two numbers")


SUM_PRODUCT = sum_product()


def sam_pat(key: int, top: int = 99) -> Story:
    """Norvig's iterated version: 1 <= x < y <= top; `key`-1 rounds of "Pat: I don't know",
    "Sam: I don't know", then Pat knows. Sam is told the sum, Pat the product."""
    worlds = tuple((x, y) for x in range(1, top + 1) for y in range(x + 1, top + 1))
    said: list[Statement] = []
    for _ in range(key - 1):
        said += [Statement("Pat", "I don't know the numbers.", ~knows_which("Pat")),
                 Statement("Sam", "I don't know the numbers.", ~knows_which("Sam"))]
    said.append(Statement("Pat", "Now I know the numbers.", knows_which("Pat")))
    return Story(f"Sam and Pat (key {key})", worlds,
                 {"Sam": Projection(sum, "the sum"), "Pat": Projection(prod, "the product")}, tuple(said),
                 lambda w: f"({w[0]}, {w[1]})", "the two numbers")


AGE = Projection(lambda w: w[0], "Cheryl's age")
#: Cheryl's age (Singapore, 2015): Cheryl, two younger brothers, product of ages 144.
CHERYL_AGE = Story(
    "Cheryl's age",
    tuple((144 // (b1 * b2), b1, b2) for b1 in range(1, 13) for b2 in range(1, b1 + 1)
          if 144 % (b1 * b2) == 0 and 144 // (b1 * b2) > b1),
    {"Albert and Bernard": Projection(sum, "the bus number (the sum of the ages)")},
    (
        Statement("Albert", "We still don't know your age.",
                  seeing("Albert and Bernard", NOTHING, ~knows_which("Albert and Bernard", AGE))),
        Statement("Bernard", "Of course we know the bus number, but we still don't know your age.",
                  ~knows_which("Albert and Bernard", AGE)),
        Statement("Cheryl", "Oh, I forgot to tell you that my brothers have the same age.",
                  fact(lambda w: w[1] == w[2], "the brothers are the same age")),
        Statement("Albert and Bernard", "Oh, now we know your age.", knows_which("Albert and Bernard", AGE)),
    ),
    lambda w: f"Cheryl {w[0]}, brothers {w[1]} and {w[2]}", "Cheryl's age",
)

#: The census taker: three children, ages multiply to 36, the sum is the number of rooms.
THREE_CHILDREN = Story(
    "The three children",
    tuple((a, b, c) for a in range(1, 37) for b in range(a, 37) for c in range(b, 37) if a * b * c == 36),
    {"census taker": Projection(sum, "the number of rooms (the sum of the ages)")},
    (
        Statement("census taker", "I still don't know their ages.", ~knows_which("census taker")),
        Statement("mother", "The oldest likes bananas.", fact(lambda w: w[1] < w[2], "there is one oldest child")),
        Statement("census taker", "Now I know.", knows_which("census taker")),
    ),
    lambda w: ", ".join(map(str, w)), "the ages",
)


def muddy_children(n: int, m: int) -> Story:
    """n children, m of them muddy; each sees every forehead but its own. Worlds are bitmasks
    (`Valuations(n)`: child i muddy iff bit i is set), so n may be as large as the symbolic
    engine goes.

    The father: "at least one of you is muddy"; then m-1 rounds of "nobody knows whether
    they are muddy"; then the muddy children, and only they, know.
    """
    _whole("muddy_children", "n", n, 1)
    _whole("muddy_children", "m", m, 1)
    if m > n:
        raise InputError(f"muddy_children: m (the muddy ones) must be at most n = {n}, got {m}")
    names = [f"child {i + 1}" for i in range(n)]
    muddy = [atom_fact(i, f"{names[i]} is muddy") for i in range(n)]
    agents: dict[str, Projection] = {names[i]: sees_all_but((i,), "every other forehead", partial(_foreheads, n=n, unseen=i))
              for i in range(n)}
    nobody = And(tuple(~knows_whether(names[i], muddy[i]) for i in range(n)))
    said = [Statement("father", "At least one of you is muddy.", any_fact(range(n), "someone is muddy"))]
    said += [Statement("children", f"Nobody knows whether they are muddy (round {r}).", nobody) for r in range(1, m)]
    said.append(Statement("children", "The muddy children know they are muddy; the others do not know.",
                          And(tuple(Or((muddy[i] & knows_whether(names[i], muddy[i]),
                                        ~muddy[i] & ~knows_whether(names[i], muddy[i]))) for i in range(n)))))
    return Story(f"Muddy children (n={n}, m={m})", Valuations(n), agents, tuple(said),
                 lambda s: _foreheads(s, n), "how many children are muddy",
                 count_of(range(n), "the number of muddy children"),
                 tuple(sum(comb(n, k) for k in range(r + 1, n + 1)) for r in range(m)) + (comb(n, m),),
                 f"after r rounds exactly the worlds with more than r muddy children are left, then the "
                 f"C({n},{m}) = {comb(n, m):,} with exactly {m}")


def muddy_knowers(result: Any, actual: int) -> list[list[str]]:
    """For a muddy-children result: before each statement, which children know whether they are
    muddy in the world `actual` (a bitmask); only that world's classes are looked at."""
    story, run = result.story, result.run
    out = []
    for k in range(len(story.statements)):
        out.append([name for i, name in enumerate(story.agents)
                    if run.holds_at(knows_whether(name, atom_fact(i, f"{name} is muddy")), k, actual)])
    return out


def _foreheads(s: int, n: int, unseen: int = -1) -> str:
    """Muddy ● and clean ○ foreheads, child 1 first; `?` for the one a child cannot see."""
    return "".join("?" if i == unseen else "●" if s >> i & 1 else "○" for i in range(n))


def what_sum(anne: int = 50, reach: int | None = None) -> Story:
    """Anne, Bill and Cath each see the other two foreheads; the numbers are positive and one is
    the sum of the other two. Anne, Bill, Cath: "I don't know my number"; Anne: "Now I know: it
    is `anne`." (van Ditmarsch et al.; the answer for 50 is Bill 20, Cath 30.)

    The unbounded puzzle is cut at 16 x `reach` (default `anne`): each statement looks at most one
    alternative further and an alternative at most doubles the largest number, so every world
    whose numbers are all <= `reach` is judged exactly as in the unbounded puzzle; the last
    statement keeps only those worlds and says so.
    """
    _whole("what_sum", "anne", anne, 2)
    reach = anne if reach is None else _whole("what_sum", "reach", reach, 1)
    top = 16 * reach
    x, y = np.meshgrid(np.arange(1, top + 1), np.arange(1, top + 1), indexing="ij")
    keep = x + y <= top
    x, y = x[keep], y[keep]
    z = x + y
    worlds = np.concatenate([np.stack(t, axis=1) for t in ((z, x, y), (x, z, y), (x, y, z))])
    w = top + 1
    pair = lambda v: f"{v // w} and {v % w}"  # noqa: E731 - two numbers seen, packed in one int
    agents = {"Anne": Projection(lambda s: s[..., 1] * w + s[..., 2], "Bill's and Cath's numbers", True, pair),
              "Bill": Projection(lambda s: s[..., 0] * w + s[..., 2], "Anne's and Cath's numbers", True, pair),
              "Cath": Projection(lambda s: s[..., 0] * w + s[..., 1], "Anne's and Bill's numbers", True, pair)}
    own = {name: Projection(itemgetter((Ellipsis, i)), f"{name}'s number", vectorized=True)
           for i, name in enumerate(agents)}
    said = tuple(Statement(name, "I don't know my number.", ~knows_which(name, own[name])) for name in agents) + (
        Statement("Anne", f"Now I know my number: it is {anne}.",
                  fact(lambda s: s[..., 0] == anne, f"Anne's number is {anne}", vectorized=True)
                  & fact(lambda s: s.max(axis=-1) <= reach, f"every number is at most {reach} "
                         f"(where a model cut at {top} is exact)", vectorized=True)
                  & knows_which("Anne", own["Anne"])),
    )
    return Story(f"What sum (Anne {anne})", worlds, agents, said,
                 lambda s: f"Anne {s[0]}, Bill {s[1]}, Cath {s[2]}", "Bill's and Cath's numbers")

