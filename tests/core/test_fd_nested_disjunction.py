"""Disjunctions nested in another disjunction's alternatives (an `xor` inside a `nand`, as
clue connectives compile): the solutions are exactly the assignments the formula holds on,
compared with brute force over every assignment."""

from __future__ import annotations

import itertools
import random

import pytest

from logicpy.core import run, vars
from logicpy.core.fd import disjo, domo, eq_offseto, labelo, neq_offseto

VALUES = range(3)


def formula(rng: random.Random, depth: int):
    """(goals, holds, negated goals): a random formula over x0..x2 as FD goals (lists, their
    conjunction), its truth on an assignment, and its negation as FD goals."""
    if depth == 0 or rng.random() < 0.3:
        i, v = rng.randrange(3), rng.randrange(3)
        is_v = lambda xs: [eq_offseto(xs[i], v, 0)]  # noqa: E731
        not_v = lambda xs: [neq_offseto(xs[i], v, 0)]  # noqa: E731
        if rng.random() < 0.5:
            return is_v, (lambda a: a[i] == v), not_v
        return not_v, (lambda a: a[i] != v), is_v
    (ga, ha, na), (gb, hb, nb) = formula(rng, depth - 1), formula(rng, depth - 1)
    kind = rng.choice(["or", "and", "xor", "nand"])
    if kind == "or":
        return (lambda xs: [disjo(ga(xs), gb(xs))]), (lambda a: ha(a) or hb(a)), (lambda xs: na(xs) + nb(xs))
    if kind == "and":
        return (lambda xs: ga(xs) + gb(xs)), (lambda a: ha(a) and hb(a)), (lambda xs: [disjo(na(xs), nb(xs))])
    if kind == "xor":
        return ((lambda xs: [disjo(ga(xs) + nb(xs), na(xs) + gb(xs))]), (lambda a: ha(a) != hb(a)),
                (lambda xs: [disjo(ga(xs) + gb(xs), na(xs) + nb(xs))]))
    return (lambda xs: [disjo(na(xs), nb(xs))]), (lambda a: not (ha(a) and hb(a))), (lambda xs: ga(xs) + gb(xs))


def solutions(goals) -> set:
    xs = vars(3)
    return set(map(tuple, run(0, xs, *[domo(x, VALUES) for x in xs], *goals(xs), labelo(xs))))


def brute_force(holds) -> set:
    return {a for a in itertools.product(VALUES, repeat=3) if holds(a)}


@pytest.mark.parametrize("seed", range(120))
def test_nested_disjunctions_give_exactly_the_assignments_that_hold(seed):
    goals, holds, negated = formula(random.Random(seed), 3)
    assert solutions(goals) == brute_force(holds)
    assert solutions(negated) == brute_force(lambda a: not holds(a))


def test_a_nand_of_two_xors_refuses_what_breaks_an_inner_xor():
    # nand(xor(x0=0, x1=1), xor(x2=1, x0=2)): both xors true is refused
    def goals(xs):
        xor1_not = [disjo([eq_offseto(xs[0], 0, 0), eq_offseto(xs[1], 1, 0)],
                          [neq_offseto(xs[0], 0, 0), neq_offseto(xs[1], 1, 0)])]
        xor2_not = [disjo([eq_offseto(xs[2], 1, 0), eq_offseto(xs[0], 2, 0)],
                          [neq_offseto(xs[2], 1, 0), neq_offseto(xs[0], 2, 0)])]
        return [disjo(xor1_not, xor2_not)]

    def holds(a):
        return not (((a[0] == 0) != (a[1] == 1)) and ((a[2] == 1) != (a[0] == 2)))

    assert solutions(goals) == brute_force(holds)
    assert (0, 0, 1) not in solutions(goals)  # both xors hold there
