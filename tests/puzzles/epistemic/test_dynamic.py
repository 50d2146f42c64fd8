"""Common and distributed knowledge, private observation, and the puzzles they make possible.

Known answers: the Russian cards (van Ditmarsch, "The Russian cards problem", Studia Logica
75, 2003: 012 034 056 135 246 is safe; 102 safe announcements hold 012); the consecutive
numbers (Littlewood 1953; van Ditmarsch, van der Hoek and Kooi, "Dynamic Epistemic Logic",
2007: Anne 2, Bill 3 is consistent with the four statements); the dining cryptographers
(Chaum 1988); the coordinated attack (Halpern and Moses 1990: common knowledge is never
reached by unreliable messages).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from logicpy.errors import InputError
from logicpy.puzzles.epistemic import NOTHING, At, Projection, Statement, Story, fact, knows, knows_which, solve, verify
from logicpy.puzzles.epistemic.dynamic import (
    CARDS, HATS, consecutive_numbers, coordinated_attack, dining_cryptographers, mutual_depth, russian_cards,
    safe_announcements,
)
from logicpy.puzzles.epistemic.explain import why_not
from logicpy.puzzles.epistemic.model import (
    Common, common, distributed, learns_privately, learns_whether, observes,
)
from logicpy.puzzles.epistemic.solve import Model, Run
from logicpy.puzzles.epistemic.verify import _Telling


def both(story, formula, k=0):
    """Where `formula` holds at moment k: by the engine and by the verifier (must agree on possible worlds)."""
    run = Run(Model.of(story), story.statements)
    fast = run.truth(formula, k)
    alive = run.mask(k)
    telling = _Telling(story, dict(story.agents))
    slow = np.array([telling.holds(formula, w, k) for w in range(len(story.worlds))])
    assert (fast[alive] == slow[alive]).all()
    return {w for w in np.flatnonzero(alive & fast).tolist()}


def random_story(n, agents, seed):
    rng = np.random.default_rng(seed)
    views = {f"a{i}": rng.integers(0, max(1, n // 2), n).tolist() for i in range(agents)}
    truth = rng.random(n) < 0.7
    worlds = tuple(range(n))
    story = Story("random", worlds, {a: Projection(lambda w, v=v: v[w], a) for a, v in views.items()}, ())
    return story, fact(lambda w: bool(truth[w]), "p")


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30), st.integers(1, 4), st.integers(0, 10_000))
def test_common_and_distributed_agree_with_the_verifier_and_sit_between_the_knowledge_of_each(n, agents, seed):
    story, p = random_story(n, agents, seed)
    group = tuple(story.agents)
    c = both(story, common(group, p))
    d = both(story, distributed(group, p))
    each = [both(story, knows(a, p)) for a in group]
    everybody = set.intersection(*each)
    someone = set.union(*each)
    assert c <= everybody and someone <= d and d <= both(story, p)
    if len(group) == 1:
        assert c == d == each[0]
    # common knowledge of p is a fixpoint: it is known by everybody that it is common knowledge
    assert c == set.intersection(*(both(story, knows(a, common(group, p))) for a in group)) & c
    # and knowing it in common is knowing it in common that it is known in common
    assert both(story, common(group, common(group, p))) == c


def test_coordinated_attack_never_reaches_common_knowledge_for_any_number_of_messages():
    for n in range(1, 25):
        story = coordinated_attack(n)
        result = solve(story)
        assert result.status == "none" and verify(story, result)
        assert mutual_depth(n) == n - 1  # one more level of "everybody knows" per message
    reason = why_not(solve(coordinated_attack(3)), 0, 3)
    assert reason.startswith("not common knowledge among A, B: A cannot tell it from 2 of the messages arrived")
    assert reason.endswith("where it is not so that B got the plan")


def test_consecutive_numbers_leave_anne_2_bill_3_and_its_mirror():
    result = solve(consecutive_numbers())
    assert result.solutions == [(1, 2), (2, 3)]
    assert [s.count for s in result.steps] == [18, 14, 4, 2] and verify(result.story, result)
    assert solve(consecutive_numbers(20)).solutions == [(1, 2), (2, 3)]  # the cut does not matter


@pytest.mark.parametrize("payer", [0, 1, 2, 3])
def test_dining_cryptographers_reveal_whether_but_not_who(payer):
    story = dining_cryptographers(payer, (1, 0, 1))
    result = solve(story)
    assert verify(story, result)
    assert {w[0] != 0 for w in result.solutions} == {payer != 0}  # common knowledge whether one paid
    assert (payer, 1, 0, 1) in result.solutions
    if payer:  # every cryptographer may have paid, as far as the others know
        assert {w[0] for w in result.solutions} == {1, 2, 3}
        # but the two who did not pay, together, see every coin and know who did
        one, two = [f"C{i}" for i in (1, 2, 3) if i != payer]
        it_was = fact(lambda w, p=payer: w[0] == p, f"C{payer} paid")
        actual = story.worlds.index((payer, 1, 0, 1))
        assert actual in both(story, distributed((one, two), it_was), 3)
        assert actual not in both(story, knows(one, it_was), 3) | both(story, knows(two, it_was), 3)


def test_hats_with_private_looks_tell_bills_colour_but_not_annes():
    result = solve(HATS)
    assert result.solutions == [("R", "R", "W"), ("W", "R", "W")] and verify(HATS, result)
    assert [s.count for s in result.steps] == [7, 7, 6, 6, 2]
    # had Anne's look been a public announcement of what she saw, Bill would learn Cath's hat from it
    public = Story("public", HATS.worlds, {**HATS.agents}, (HATS.statements[0],))
    assert solve(public).count == 7


def test_learns_whether_is_a_group_announcement_and_observes_a_private_look():
    worlds = tuple(range(8))
    bit = lambda i: fact(lambda w, i=i: bool(w >> i & 1), f"bit {i}")  # noqa: E731
    agents = {"A": NOTHING, "B": NOTHING}
    story = Story("bits", worlds, agents, (
        learns_whether("host", "A learns whether bit 0 is set", "A", bit(0)),
        Statement("A", "I know whether bit 0 is set, B does not", knows("A", bit(0)) & ~knows("B", bit(0))
                  & knows("B", knows("A", bit(0)) | knows("A", ~bit(0)))),
        observes("host", "B sees bits 1 and 2", ["B"], lambda w: w >> 1),
        Statement("B", "I know the number", knows_which("B")),
    ))
    result = solve(story)
    assert verify(story, result)
    assert result.solutions == [1, 3, 5, 7]  # bit 0 set (A knows it), then B, seeing the rest, knows it all
    assert why_not(result, 1, 0) == "A, who learned that not (bit 0), could not rule out 0, where it is not so that bit 0"


def test_events_that_can_happen_together_are_refused():
    from logicpy.puzzles.epistemic.model import Action, TRUE
    worlds = (0, 1)
    story = Story("overlap", worlds, {"A": Projection(lambda w: 0)},
                  (Statement("host", "x", TRUE, Action(("A",), (TRUE, TRUE))),
                   Statement("A", "I know", knows_which("A"))))
    with pytest.raises(InputError, match="two of its events can happen"):
        solve(story)


def _safe_by_definition(hands):
    """After "Anne's hand is one of `hands`", in every deal it allows: Bill, holding the rest
    but Cath's card, sees one hand of the list left; Cath, holding c, finds each other card
    in some but not all of the hands without c."""
    for a in hands:
        for c in CARDS:
            if c in a:
                continue
            rest = [x for x in CARDS if x not in a and x != c]
            if sum(1 for h in hands if not set(h) & set(rest)) != 1:
                return False
            without_c = [set(h) for h in hands if c not in h]
            if any(all(q in h for h in without_c) or not any(q in h for h in without_c)
                   for q in CARDS if q != c):
                return False
    return True


def test_russian_cards_classic_announcement_is_safe_and_the_safe_ones_are_counted():
    result = solve(russian_cards([(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)]))
    assert result.count == 4 and verify(result.story, result)
    assert solve(russian_cards([(0, 1, 2), (3, 4, 5)])).status == "none"  # Cath would learn cards
    safe = safe_announcements()
    assert {size: len(found) for size, found in safe.items()} == {5: 60, 6: 36, 7: 6}
    assert all(_safe_by_definition(hands) for group in safe.values() for hands in group)


@pytest.mark.slow
def test_no_other_announcement_meets_the_definition_of_safe():
    found = {frozenset(h) for group in safe_announcements().values() for h in group}
    others = [h for h in combinations(CARDS, 3) if h != (0, 1, 2)]
    by_definition = set()
    for size in (4, 5, 6, 7):
        for rest in combinations(others, size - 1):
            hands = ((0, 1, 2),) + rest
            if all(len(set(x) & set(y)) <= 1 for x, y in combinations(hands, 2)) and _safe_by_definition(hands):
                by_definition.add(frozenset(hands))
    assert found == by_definition


def test_api_mistakes_name_the_argument():
    with pytest.raises(InputError, match="knows: agent must be a name"):
        knows(3, fact(lambda w: True, "t"))
    with pytest.raises(InputError, match="knows: formula must be a formula"):
        knows("A", "it rains")
    with pytest.raises(InputError, match="common: group must be agent names"):
        common([], fact(lambda w: True, "t"))
    with pytest.raises(InputError, match="Statement: formula must be a formula"):
        Statement("A", "hello", lambda w: True)
    with pytest.raises(InputError, match="Story: agents must be a dict"):
        Story("s", (1, 2), {"A": lambda w: w}, ())
    with pytest.raises(InputError, match="Story: worlds must be a non-empty"):
        Story("s", (), {"A": Projection(lambda w: w)}, ())
    with pytest.raises(InputError, match="solve: story must be a Story"):
        solve([1, 2])
    with pytest.raises(InputError, match="unknown agent 'C'"):
        solve(Story("s", (1, 2), {"A": Projection(lambda w: w)}, (Statement("A", "x", common(("A", "C"), fact(lambda w: True, "t"))),)))
    assert isinstance(common("A", fact(lambda w: True, "t")), Common)


def test_builders_of_the_puzzles_name_the_argument():
    from logicpy.puzzles.epistemic import CLASSIC, birthday, muddy_children, sum_product, what_sum
    from logicpy.puzzles.epistemic.explain import why_not
    with pytest.raises(InputError, match="birthday: kind must be classic, eve or complex, got 'eva'"):
        birthday("eva")
    with pytest.raises(InputError, match="muddy_children: m \\(the muddy ones\\) must be at most n = 3, got 4"):
        muddy_children(3, 4)
    with pytest.raises(InputError, match="sum_product: limit must be an integer of at least 5, got '100'"):
        sum_product("100")
    with pytest.raises(InputError, match="what_sum: anne must be an integer"):
        what_sum(1.5)
    result = solve(CLASSIC)
    with pytest.raises(InputError, match="why_not: statement must be 0-2"):
        why_not(result, 3, 0)
    with pytest.raises(InputError, match="why_not: statement 2 does not remove world 0 \\(May 15\\)"):
        why_not(result, 2, 0)
    assert why_not(result, 0, result.steps[0].removed[0]).startswith("Albert, told May")


def _random_formula(rng, moment, depth):
    """Formulas from every operator, common and distributed knowledge among them."""
    from logicpy.puzzles.epistemic import At, NOTHING, knows_whether, seeing
    from test_engine_properties import AGENTS, COARSER, FACTS

    if depth == 0 or rng.random() < 0.25:
        return rng.choice(FACTS) if rng.random() < 0.6 else knows_which(rng.choice(list(AGENTS)))
    inner = _random_formula(rng, moment, depth - 1)
    group = tuple(rng.sample(list(AGENTS), rng.randint(1, 3)))
    kind = rng.randrange(8)
    if kind == 0:
        return ~inner
    if kind == 1:
        return inner & _random_formula(rng, moment, depth - 1)
    if kind == 2:
        return common(group, inner)
    if kind == 3:
        return distributed(group, inner)
    if kind == 4:
        return knows(group[0], inner)
    if kind == 5:
        return knows_whether(group[0], inner)
    if kind == 6:
        return At(rng.randint(0, moment), inner)
    return seeing(group[0], rng.choice([NOTHING, COARSER]), inner)


@pytest.mark.parametrize("seed", range(3))
def test_engine_and_verifier_agree_on_random_stories_with_private_actions(seed):
    import random

    from logicpy.puzzles.epistemic import replay
    from logicpy.puzzles.epistemic.explain import explain
    from test_engine_properties import AGENTS

    rng = random.Random(seed)
    for _ in range(60):
        worlds = tuple(sorted(rng.sample(range(21), rng.randint(1, 16))))
        said = []
        for k in range(rng.randint(1, 5)):
            group = rng.sample(list(AGENTS), rng.randint(1, 2))
            roll = rng.random()
            if roll < 0.1 and len(worlds) <= 8:
                said.append(learns_privately("host", f"{k + 1}", group, _random_formula(rng, k, 2)))
            elif roll < 0.2:
                said.append(learns_whether("host", f"{k + 1}", group, _random_formula(rng, k, 2)))
            elif roll < 0.35:
                said.append(observes("host", f"{k + 1}", group, rng.choice([lambda s: s % 5, lambda s: s > 12])))
            else:
                said.append(Statement(group[0], f"{k + 1}", _random_formula(rng, k, 3)))
        story = Story("random", worlds, AGENTS, tuple(said))
        result = solve(story)
        assert [set(step.kept.tolist()) for step in result.steps] == replay(story)[1:], said
        for step, removals in zip(result.steps, explain(result, None)):
            assert len(removals) == len(step.removed) and all(r.reason for r in removals)


def test_an_unnoticed_private_announcement_copies_the_worlds():
    """Anne is told the coin shows heads. Seen by Bill (learns_whether), Bill knows that Anne
    knows whether; unnoticed (learns_privately), Bill still thinks nothing may have happened."""
    from logicpy.puzzles.epistemic import knows_whether
    heads = fact(lambda c: c == "H", "the coin shows heads")
    bill_unsure = ~knows_whether("Bill", knows_whether("Anne", heads))
    anne_knows = knows("Anne", heads)

    def story(build):
        return Story("coin", ("H", "T"), {"Anne": NOTHING, "Bill": NOTHING}, (
            build("host", "Anne is told that the coin shows heads.", "Anne", heads),
            Statement("host", "Anne knows it is heads; Bill does not know whether she knows whether.",
                      anne_knows & bill_unsure)))

    seen = solve(story(learns_whether))
    assert seen.status == "none" and verify(seen.story, seen)
    unnoticed = solve(story(learns_privately))
    assert [unnoticed.story.show(w) for w in unnoticed.solutions] == ["H (Anne told)"]
    assert [s.count for s in unnoticed.steps] == [3, 1] and verify(story(learns_privately), unnoticed)
    # before the announcement the copies change nobody's knowledge: Anne does not know which it is
    before = Story("coin", ("H", "T"), {"Anne": NOTHING}, (
        learns_privately("host", "Bill is told it is heads.", "Anne", heads),
        Statement("Anne", "I knew which it was.", At(0, knows_which("Anne")))))
    assert solve(before).status == "none"
