"""Puzzles beyond public announcements: common and distributed knowledge, private observation.

Each is a `Story` (or a builder of one) for the engine in `solve.py`:

- the Russian cards problem (van Ditmarsch, "The Russian cards problem", Studia Logica 75,
  2003): `russian_cards(announcement)` and `safe_announcements()`;
- the consecutive numbers (Littlewood, "A Mathematician's Miscellany", 1953; as told in van
  Ditmarsch, van der Hoek and Kooi, "Dynamic Epistemic Logic", 2007): `consecutive_numbers()`;
- the dining cryptographers (Chaum, J. Cryptology 1, 1988): `dining_cryptographers()`;
- the coordinated attack (Gray 1978; Halpern and Moses, J. ACM 37, 1990): `coordinated_attack(n)`;
- hats with private looks: `HATS`.
"""

from __future__ import annotations

from functools import partial
from itertools import combinations
from operator import itemgetter
from typing import Any, Iterable, Sequence

import numpy as np

from ...errors import InputError
from .model import (
    NOTHING, And, Formula, Projection, Statement, Story, common, fact, knows, knows_which, observes,
)

__all__ = [
    "CARDS", "HANDS", "russian_cards", "safe_announcements", "good_after", "consecutive_numbers",
    "dining_cryptographers", "coordinated_attack", "mutual_depth", "HATS",
]

# ------------------------------------------------------------------ Russian cards

#: The seven cards 0-6; a hand is a sorted tuple of three of them.
CARDS = tuple(range(7))
HANDS = tuple(combinations(CARDS, 3))
#: Every deal: (Anne's hand, Bill's hand, Cath's card).
DEALS = tuple((a, b, c) for a in HANDS for b in combinations([x for x in CARDS if x not in a], 3)
              for c in CARDS if c not in a and c not in b)
_RC = ("Anne", "Bill", "Cath")


def _show_deal(deal: Any) -> str:
    a, b, c = deal
    return f"{''.join(map(str, a))}.{''.join(map(str, b))}.{c}"


def _hand(hand: Any) -> str:
    return "".join(map(str, hand))


def _cards_agents() -> dict[str, Projection]:
    return {"Anne": Projection(itemgetter(0), "her hand", show=_hand),
            "Bill": Projection(itemgetter(1), "his hand", show=_hand),
            "Cath": Projection(lambda d: d[2], "her card")}


def _holds(player: int, card: int, deal: Any) -> bool:
    return card in deal[player]


def good_after() -> Formula:
    """Bill knows the deal, and Cath knows of no card that it is Anne's or that it is Bill's."""
    ignorant = []
    for q in CARDS:
        anne = fact(partial(_holds, 0, q), f"Anne holds {q}")
        bill = fact(partial(_holds, 1, q), f"Bill holds {q}")
        ignorant.append(~knows("Cath", anne) & ~knows("Cath", bill))
    return knows_which("Bill") & And(tuple(ignorant))


def russian_cards(announcement: Iterable[Sequence[int]]) -> Story:
    """Anne, holding 012, announces "my hand is one of these"; the goal: it is then common
    knowledge among the three that Bill knows the deal and Cath knows no card of Anne's or
    Bill's. The announcement is safe iff the four deals where Anne holds 012 survive (the
    story's answer, Anne's hand, is then 012)."""
    hands = [tuple(sorted(h)) for h in announcement]
    if any(len(h) != 3 or not set(h) <= set(CARDS) for h in hands) or (0, 1, 2) not in hands:
        raise InputError("russian_cards: announcement must be hands of three cards 0-6, one of them 012 "
                         "(Anne's actual hand)")
    told = set(hands)
    text = " or ".join("".join(map(str, h)) for h in hands)
    said = (
        Statement("Anne", f"My hand is one of {text}.", fact(lambda d: d[0] in told, f"Anne's hand is one of {text}")),
        Statement("(the goal)", "It is common knowledge that Bill knows the deal and Cath knows no card of "
                                "Anne's or Bill's.", common(_RC, good_after())),
        Statement("(the deal)", "Anne holds 012.", fact(lambda d: d[0] == (0, 1, 2), "Anne holds 012")),
    )
    return Story("Russian cards", DEALS, _cards_agents(), said, _show_deal, "the deals left",
                 Projection(lambda d: "".join(map(str, d[0])), "Anne's hand"))


def _candidates() -> list[list[tuple[int, ...]]]:
    """Every set of hands holding 012 in which any two hands share at most one card (otherwise
    Bill, holding neither, could not tell them apart), as lists."""
    others = [h for h in HANDS if h != (0, 1, 2) and len(set(h) & {0, 1, 2}) <= 1]
    found: list[list[tuple[int, ...]]] = []

    def grow(chosen: list[tuple[int, ...]], start: int) -> None:
        found.append(chosen)
        for i in range(start, len(others)):
            if all(len(set(others[i]) & set(h)) <= 1 for h in chosen):
                grow(chosen + [others[i]], i + 1)

    grow([(0, 1, 2)], 0)
    return found


def safe_announcements() -> dict[int, list[tuple[tuple[int, ...], ...]]]:
    """Anne's safe announcements "my hand is one of these" (holding 012), by number of hands.

    Each candidate (hands meeting pairwise in at most one card, the only ones that can inform
    Bill) is told as a story; it is safe iff, after it, the goal is common knowledge among
    Anne, Bill and Cath in the deal 012.345.6 (`russian_cards`).
    """
    from .solve import solve

    safe: dict[int, list[tuple[tuple[int, ...], ...]]] = {}
    for hands in _candidates():
        result = solve(russian_cards(hands))
        if len(result.solutions) == 4:
            safe.setdefault(len(hands), []).append(tuple(hands))
    return dict(sorted(safe.items()))


# ------------------------------------------------------------------ consecutive numbers

def consecutive_numbers(reach: int = 6) -> Story:
    """Anne and Bill are each told a natural number; the numbers are consecutive. Anne: "I don't
    know your number." Bill: "I don't know your number." Anne: "I know your number." Bill: "I
    know your number." Worlds (Anne, Bill) with |a - b| = 1; the unbounded puzzle is cut at
    `reach` + 4 (each statement looks one number further), and the last statement keeps the
    worlds within `reach`, where the cut is exact."""
    if not isinstance(reach, int) or reach < 3:
        raise InputError(f"consecutive_numbers: reach must be an integer of at least 3, got {reach!r}")
    top = reach + 4
    worlds = tuple((a, b) for a in range(top + 1) for b in range(top + 1) if abs(a - b) == 1)
    anne, bill = Projection(lambda w: w[0], "her number"), Projection(lambda w: w[1], "his number")
    said = (
        Statement("Anne", "I don't know your number.", ~knows_which("Anne", bill)),
        Statement("Bill", "I don't know your number.", ~knows_which("Bill", anne)),
        Statement("Anne", "I know your number.", knows_which("Anne", bill)),
        Statement("Bill", "I know your number.", knows_which("Bill", anne)
                  & fact(lambda w: max(w) <= reach, f"both numbers are at most {reach} (where the model cut at "
                                                    f"{top} is exact)")),
    )
    return Story("Consecutive numbers", worlds, {"Anne": anne, "Bill": bill}, said,
                 lambda w: f"Anne {w[0]}, Bill {w[1]}", "the two numbers")


# ------------------------------------------------------------------ dining cryptographers

def _sees(i: int, w: Any) -> tuple:
    """Cryptographer i sees whether it paid, coin i (to its right) and coin i-1 (to its left)."""
    return (w[0] == i, w[1 + (i - 1) % 3], w[1 + (i - 2) % 3])


def _says(i: int, w: Any) -> int:
    """What cryptographer i says: whether its two coins differ, inverted if it paid."""
    return w[1 + (i - 1) % 3] ^ w[1 + (i - 2) % 3] ^ (w[0] == i)


def _said(i: int, bit: int, w: Any) -> bool:
    return _says(i, w) == bit


def _paid(i: int, w: Any) -> bool:
    return w[0] == i


def dining_cryptographers(payer: int = 1, coins: tuple[int, int, int] = (0, 0, 0)) -> Story:
    """Three cryptographers; one of them paid for dinner, or their employer did (`payer` 0).
    Each pair shares a coin (coin i lies between cryptographer i and i+1); each says whether its
    two coins differ, inverted if it paid. The three answers, told publicly (as they are in the
    world `payer`, `coins`), make it common knowledge whether a cryptographer paid, and a
    cryptographer who did not pay still does not know which one did."""
    if payer not in (0, 1, 2, 3) or len(coins) != 3 or any(c not in (0, 1) for c in coins):
        raise InputError("dining_cryptographers: payer must be 0 (the employer) or 1-3, coins three 0/1 values")
    worlds = tuple((p, c1, c2, c3) for p in range(4) for c1 in (0, 1) for c2 in (0, 1) for c3 in (0, 1))

    agents = {f"C{i}": Projection(partial(_sees, i), "whether it paid, and its two coins") for i in (1, 2, 3)}
    actual = (payer, *coins)
    someone = fact(lambda w: w[0] != 0, "a cryptographer paid")
    said = []
    for i in (1, 2, 3):
        bit = _says(i, actual)
        said.append(Statement(f"C{i}", f"I say {'differ' if bit else 'agree'} (my two coins, inverted if I paid).",
                              fact(partial(_said, i, bit), f"C{i} says {bit}")))
    group = tuple(agents)
    paid = Projection(lambda w: w[0], "who paid", show=lambda p: "the employer" if p == 0 else f"C{p}")
    unaware = And(tuple(fact(partial(_paid, i), f"C{i} paid") | knows(f"C{i}", ~someone)
                        | ~knows_which(f"C{i}", paid) for i in (1, 2, 3)))
    said.append(Statement("(all)", "It is common knowledge whether one of us paid; and if one did, the "
                                   "others do not know which.",
                          (common(group, someone) | common(group, ~someone)) & unaware))
    return Story("Dining cryptographers", worlds, agents, tuple(said),
                 lambda w: f"{paid.show(w[0])} paid, coins {w[1]}{w[2]}{w[3]}", "who paid",
                 Projection(lambda w: "yes" if w[0] else "no", "whether a cryptographer paid"))


# ------------------------------------------------------------------ coordinated attack

def coordinated_attack(messages: int) -> Story:
    """Two generals, A and B; A sends the attack plan, and every message delivered is acknowledged
    by a messenger who may be captured. World k: the first k messages arrived (odd ones A to B,
    even ones B to A), the next was lost (or none was sent after `messages`). A cannot tell
    whether her last message arrived (worlds 2j and 2j+1), B whether his last acknowledgement did
    (2j-1 and 2j). The generals claim that it is common knowledge that B got the plan: no world
    survives, whatever the number of messages tried."""
    if not isinstance(messages, int) or messages < 0:
        raise InputError(f"coordinated_attack: messages must be a whole number, got {messages!r}")
    worlds = tuple(range(messages + 1))
    agents = {"A": Projection(lambda k: k // 2, "the acknowledgements she received"),
              "B": Projection(lambda k: (k + 1) // 2, "the messages from A he received")}
    plan = fact(lambda k: k >= 1, "B got the plan")
    said = (Statement("A and B", "We attack together: it is common knowledge that B got the plan.",
                      common(("A", "B"), plan)),)
    return Story(f"Coordinated attack ({messages} messages)", worlds, agents, said,
                 lambda k: f"{k} of the messages arrived", "when to attack")


def mutual_depth(messages: int) -> int:
    """In the world where all `messages` arrived: the largest d such that "everybody knows that"
    d times over "B got the plan" holds (it grows by one with each message; common knowledge
    would need every d)."""
    from .solve import Model, Run

    story = coordinated_attack(messages)
    run = Run(Model.of(story), ())
    truth = run.truth(fact(lambda k: k >= 1, "B got the plan"), 0)
    depth = 0
    while truth[messages] and depth <= messages + 1:
        everybody = np.ones(len(story.worlds), dtype=bool)
        for agent in story.agents:
            ids, count = run.view(agent, 0)
            flagged = np.zeros(count, dtype=bool)
            flagged[ids[~truth]] = True
            everybody &= ~flagged[ids]
        truth = everybody
        depth += 1
    return depth - 1


# ------------------------------------------------------------------ hats, with private looks

_HAT = {"R": "red", "W": "white"}


def _colour(hat: str) -> str:
    return _HAT[hat]


_hats = Projection(lambda w: w[1:], "Bill's and Cath's hats", show=lambda v: " and ".join(_HAT[h] for h in v))
#: Anne, Bill and Cath wear red or white hats and see nothing. "At least one hat is red." Anne
#: looks at Bill's and Cath's hats (the others see her look, not what she sees): "I don't know
#: my colour." Bill looks at Cath's hat: "Now I know my colour." What colour is Bill's hat?
HATS = Story(
    "Hats with private looks",
    tuple((a, b, c) for a in "RW" for b in "RW" for c in "RW"),
    {"Anne": NOTHING, "Bill": NOTHING, "Cath": NOTHING},
    (
        Statement("the host", "At least one hat is red.", fact(lambda w: "R" in w, "some hat is red")),
        observes("Anne", "(looks at Bill's and Cath's hats, in private)", "Anne", _hats),
        Statement("Anne", "I don't know my colour.",
                  ~knows_which("Anne", Projection(lambda w: w[0], "her colour", show=_colour))),
        observes("Bill", "(looks at Cath's hat, in private)", "Bill",
                 Projection(lambda w: w[2], "Cath's hat", show=_colour)),
        Statement("Bill", "Now I know my colour.",
                  knows_which("Bill", Projection(lambda w: w[1], "his colour", show=_colour))),
    ),
    lambda w: f"Anne {_HAT[w[0]]}, Bill {_HAT[w[1]]}, Cath {_HAT[w[2]]}", "the colour of Bill's hat",
    Projection(lambda w: _HAT[w[1]], "Bill's hat"),
)

