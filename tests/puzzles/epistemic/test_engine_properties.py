"""The numpy engine and the naive evaluator agree on random stories built from every operator.

The fast suite draws 400 stories from a seeded generator (hypothesis spends seconds building
recursive formulas); the slow suite lets hypothesis search and shrink.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from logicpy.puzzles.epistemic.explain import explain
from logicpy.puzzles.epistemic import (
    NOTHING, At, Projection, Statement, Story, fact, knows, knows_whether, knows_which, replay, seeing, solve,
)

AGENTS = {
    "a": Projection(lambda s: s % 3, "the remainder by 3"),
    "b": Projection(lambda s: s // 4, "the quotient by 4"),
    "c": Projection(lambda s: (s % 2, s > 10), "parity and size"),
}
COARSER = Projection(lambda s: s % 3 == 0, "whether it divides by 3")
FACTS = [fact(lambda s: s % 2 == 0, "it is even"), fact(lambda s: s > 7, "it is above 7"),
         fact(lambda s: s in (1, 4, 9, 16), "it is a square")]


def formulas(moment: int):
    """Formulas for a statement made after `moment` earlier ones."""
    leaves = st.one_of(
        st.sampled_from(FACTS),
        st.sampled_from(list(AGENTS)).map(knows_which),
        st.sampled_from(list(AGENTS)).map(lambda a: knows_which(a, Projection(lambda s: s % 2, "parity"))),
    )

    def extend(inner):
        return st.one_of(
            inner.map(lambda f: ~f),
            st.tuples(inner, inner).map(lambda p: p[0] & p[1]),
            st.tuples(inner, inner).map(lambda p: p[0] | p[1]),
            st.tuples(st.sampled_from(list(AGENTS)), inner).map(lambda p: knows(*p)),
            st.tuples(st.sampled_from(list(AGENTS)), inner).map(lambda p: knows_whether(*p)),
            st.tuples(st.integers(0, moment), inner).map(lambda p: At(*p)),
            st.tuples(st.sampled_from(list(AGENTS)), st.sampled_from([NOTHING, COARSER]), inner).map(
                lambda p: seeing(*p)),
        )

    return st.recursive(leaves, extend, max_leaves=5)


@st.composite
def stories(draw):
    worlds = tuple(sorted(draw(st.sets(st.integers(0, 20), min_size=1, max_size=16))))
    said = tuple(Statement(draw(st.sampled_from(list(AGENTS))), f"statement {k + 1}", draw(formulas(k)))
                 for k in range(draw(st.integers(1, 4))))
    return Story("random", worlds, AGENTS, said)


def agree(story: Story) -> bool:
    return [set(step.kept.tolist()) for step in solve(story).steps] == replay(story)[1:]


def random_formula(rng: random.Random, moment: int, depth: int):
    roll = rng.random()
    if depth == 0 or roll < 0.25:
        leaf = rng.randrange(3)
        return (rng.choice(FACTS) if leaf == 0 else knows_which(rng.choice(list(AGENTS))) if leaf == 1
                else knows_which(rng.choice(list(AGENTS)), Projection(lambda s: s % 2, "parity")))
    inner = random_formula(rng, moment, depth - 1)
    kind = rng.randrange(7)
    if kind == 0:
        return ~inner
    if kind in (1, 2):
        other = random_formula(rng, moment, depth - 1)
        return inner & other if kind == 1 else inner | other
    agent = rng.choice(list(AGENTS))
    if kind == 3:
        return knows(agent, inner)
    if kind == 4:
        return knows_whether(agent, inner)
    if kind == 5:
        return At(rng.randint(0, moment), inner)
    return seeing(agent, rng.choice([NOTHING, COARSER]), inner)


@pytest.mark.parametrize("seed", range(4))
def test_engine_agrees_with_the_naive_evaluator_on_seeded_stories(seed):
    rng = random.Random(seed)
    for _ in range(100):
        worlds = tuple(sorted(rng.sample(range(21), rng.randint(1, 16))))
        said = tuple(Statement(rng.choice(list(AGENTS)), f"statement {k + 1}", random_formula(rng, k, 3))
                     for k in range(rng.randint(1, 4)))
        story = Story("random", worlds, AGENTS, said)
        assert agree(story), said
        for step, removals in zip(solve(story).steps, explain(solve(story), None)):
            assert len(removals) == len(step.removed) and all(r.reason for r in removals)


@pytest.mark.slow
@settings(max_examples=500)
@given(stories())
def test_engine_agrees_with_the_naive_evaluator(story):
    assert agree(story)


@pytest.mark.parametrize("seed", range(2))
def test_a_batch_of_samples_is_each_sample_told_alone(seed):
    """Model.batch (the disjoint union) leaves in each sample what the sample's own story leaves."""
    import numpy as np

    from logicpy.puzzles.epistemic.generate import samples, solution_counts

    rng = random.Random(seed)
    pool = tuple(range(21))
    for _ in range(25):
        said = tuple(Statement("a", f"statement {k + 1}", random_formula(rng, k, 3)) for k in range(rng.randint(1, 4)))
        story = Story("random", pool, AGENTS, said)
        rows = samples(len(pool), 8, 20, np.random.default_rng(rng.randrange(1000)))
        alone = [solve(story.on(tuple(pool[i] for i in row))).count for row in rows]
        assert solution_counts(story, pool, rows).tolist() == alone, said
