"""all_differento(matching=False): singles only, the same solutions as the matching, and the
propagation queue's priorities leave every answer as it was."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from kanren import run

from logicpy.core import vars
from logicpy.core.fd import all_differento, domo, eq_offseto, inso, labelo, lto, neq_offseto


def test_singles_prune_naked_and_hidden_but_no_hall_pair():
    a, b, c = vars(3)
    # naked: a = 1 leaves b and c
    ((rb, rc),) = run(0, (b, c), domo(a, [1]), domo(b, [1, 2]), domo(c, [1, 2, 3]),
                      all_differento([a, b, c], matching=False))
    assert (rb, rc) == (2, 3)
    # hidden: three variables, three values, 3 only in c's domain, so c = 3
    (rc,) = run(0, c, inso([a, b], [1, 2]), domo(c, [1, 2, 3]), all_differento([a, b, c], matching=False))
    assert rc == 3
    # with a fourth value there is no hidden single: c keeps 1..4 minus nothing
    (rc,) = run(0, c, inso([a, b], [1, 2]), domo(c, [1, 2, 3, 4]), all_differento([a, b, c], matching=False))
    assert set(rc.domain) == {1, 2, 3, 4}
    # the matching removes the Hall pair {1, 2} from c; singles do not
    (rc,) = run(0, c, inso([a, b], [1, 2]), domo(c, [1, 2, 3, 4]), all_differento([a, b, c]))
    assert set(rc.domain) == {3, 4}


def test_singles_fail_when_values_run_out():
    a, b, c = vars(3)
    assert run(0, a, inso([a, b, c], [1, 2]), all_differento([a, b, c], matching=False)) == ()
    assert run(0, a, all_differento([1, 2, 1], matching=False)) == ()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sets(st.integers(1, 5), min_size=1), min_size=2, max_size=5),
       st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(-2, 2)), max_size=3))
def test_singles_and_matching_have_the_brute_force_solutions(domains, offsets):
    xs = vars(len(domains))
    extra = [lto(xs[i % len(xs)], xs[j % len(xs)], c) for i, j, c in offsets]
    expected = {
        t for t in itertools.product(*domains)
        if len(set(t)) == len(t) and all(t[i % len(t)] < t[j % len(t)] + c for i, j, c in offsets)
    }
    for matching in (True, False):
        goals = [domo(x, sorted(d)) for x, d in zip(xs, domains)]
        found = run(0, tuple(xs), *goals, *extra, all_differento(xs, matching=matching), labelo(xs))
        assert len(found) == len(set(found))
        assert set(found) == expected


def test_queens_answers_with_the_costly_propagators_queued_last():
    """8 queens: 92 solutions, the first in lexicographic order as every FD solver finds it."""
    n = 8
    qs = vars(n)
    goals = [inso(qs, range(1, n + 1)), all_differento(qs)]
    for i, j in itertools.combinations(range(n), 2):
        goals += [neq_offseto(qs[i], qs[j], j - i), neq_offseto(qs[i], qs[j], i - j)]
    answers = run(0, tuple(qs), *goals, labelo(qs, "leftmost"))
    assert len(answers) == 92
    assert answers[0] == (1, 5, 8, 6, 3, 7, 2, 4)
    # an offset chain that the cheap propagators settle before all_different runs
    a, b, c = vars(3)
    assert run(0, (a, b, c), inso([a, b, c], range(1, 4)), eq_offseto(b, a, 1), eq_offseto(c, b, 1),
               all_differento([a, b, c], matching=False)) == ((1, 2, 3),)
