"""Exact cover (logicpy.core.cover): known counts, laziness, counting, grouping, and the goal
composed with eq, membero and FD goals."""

from __future__ import annotations

import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core import ExactCover, domo, eq, exact_covero, lall, lto, membero, run, var
from logicpy.errors import InputError

#: Knuth, "Dancing Links" (2000), the example of section 2: items A-G, one cover {AD, BG, CEF}.
KNUTH = ExactCover({1: "CEF", 2: "ADG", 3: "BCF", 4: "AD", 5: "BG", 6: "DEG"})


def queens(n: int) -> ExactCover:
    """N-queens as exact cover: rows and columns primary, both diagonals secondary (Knuth)."""
    return ExactCover(
        {(r, c): [("row", r), ("col", c), ("diag", r + c), ("anti", r - c)] for r in range(n) for c in range(n)},
        secondary=[("diag", d) for d in range(2 * n - 1)] + [("anti", d) for d in range(-n + 1, n)],
    )


PENTOMINOES = {
    "F": [".##", "##.", ".#."], "I": ["#####"], "L": ["####", "#..."], "N": ["##..", ".###"],
    "P": ["##", "##", "#."], "T": ["###", ".#.", ".#."], "U": ["#.#", "###"], "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"], "X": [".#.", "###", ".#."], "Y": ["####", ".#.."], "Z": ["##.", ".#.", ".##"],
}


def _orientations(rows: list[str]) -> list[tuple]:
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    found = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            top, left = min(r for r, _ in cells), min(c for _, c in cells)
            found.add(tuple(sorted((r - top, c - left) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return sorted(found)


def pentomino_rectangle(h: int, w: int) -> ExactCover:
    """The 12 pentominoes in an h × w rectangle: pieces and cells primary."""
    options = {}
    for name, rows in PENTOMINOES.items():
        for k, shape in enumerate(_orientations(rows)):
            for top, left in itertools.product(range(h), range(w)):
                cells = [(top + r, left + c) for r, c in shape]
                if all(r < h and c < w for r, c in cells):
                    options[(name, k, top, left)] = [name, *cells]
    return ExactCover(options, primary=[(r, c) for r in range(h) for c in range(w)])


# --- known counts ------------------------------------------------------------------------

def test_knuths_example_has_its_unique_cover():
    assert list(KNUTH.covers()) == [(1, 4, 5)]
    assert KNUTH.count() == 1 and KNUTH.is_cover((1, 4, 5))


def test_eight_queens_has_92_solutions():
    problem = queens(8)
    covers = list(problem.covers())
    assert len(covers) == 92 == problem.count()  # Gauss/Nauck; OEIS A000170
    assert len(set(covers)) == 92 and all(problem.is_cover(c) for c in covers)
    assert [queens(n).count() for n in range(1, 8)] == [1, 0, 0, 2, 10, 4, 40]  # A000170


def test_pentominoes_3_by_20_two_tilings_up_to_symmetry():
    problem = pentomino_rectangle(3, 20)
    covers = list(problem.covers())
    assert len(covers) == problem.count() == 8  # 2 up to the rectangle's 4 symmetries
    assert all(problem.is_cover(c) for c in covers)


@pytest.mark.slow
def test_pentominoes_6_by_10_has_2339_tilings_up_to_symmetry():
    assert pentomino_rectangle(6, 10).count() == 2339 * 4


@pytest.mark.slow
def test_pentominoes_5_by_12_and_4_by_15():
    assert pentomino_rectangle(5, 12).count() == 1010 * 4
    assert pentomino_rectangle(4, 15).count() == 368 * 4


# --- laziness, counting, grouping -----------------------------------------------------------

def test_covers_are_lazy():
    problem = pentomino_rectangle(6, 10)
    start = time.process_time()
    first = next(problem.covers())
    assert problem.is_cover(first)
    assert time.process_time() - start < 5  # all 9356 would take far longer
    q = var()
    (one,) = run(1, q, exact_covero(q, problem))
    assert problem.is_cover(one)


def test_include_and_allowed_restrict_the_covers():
    problem = queens(6)
    assert sorted(problem.covers()) == sorted(problem.covers(allowed=problem.names))
    with_corner_row = [c for c in problem.covers() if (0, 1) in c]
    assert list(problem.covers(include=[(0, 1)])) == with_corner_row and problem.count(include=[(0, 1)]) == 1
    assert problem.count(include=[(0, 0)]) == 0
    assert problem.count(include=[(0, 1), (1, 1)]) == 0  # a clash
    assert problem.count(allowed=[n for n in problem.names if n[1] != 1]) == 0  # column 1 unusable
    with pytest.raises(InputError, match="no option named"):
        problem.count(include=["nope"])


def test_count_by_groups_covers_by_the_options_of_items():
    problem = queens(8)
    groups = problem.count_by([("row", 0)])
    assert groups == {((0, c),): problem.count(include=[(0, c)]) for c in range(8)}
    assert sum(groups.values()) == 92 and groups[((0, 0),)] == 4
    two = problem.count_by([("row", 0), ("row", 7)])
    assert sum(two.values()) == 92 and all(len(k) == 2 for k in two)
    with pytest.raises(InputError, match="primary"):
        problem.count_by([("diag", 0)])


@settings(max_examples=60)
@given(st.lists(st.sets(st.integers(0, 5), min_size=1, max_size=4), min_size=1, max_size=9),
       st.sets(st.integers(4, 5)))
def test_counts_agree_with_brute_force(option_sets, secondary):
    option_sets = [s for s in option_sets if s - secondary]
    problem = ExactCover({i: sorted(s) for i, s in enumerate(option_sets)}, secondary=sorted(secondary),
                         primary=[i for i in range(4) if i not in secondary])
    brute = [combo for k in range(len(option_sets) + 1) for combo in itertools.combinations(range(len(option_sets)), k)
             if problem.is_cover(combo)]
    assert sorted(problem.covers()) == sorted(brute)
    assert problem.count() == len(brute)


def test_is_cover_rejects_non_covers():
    assert not KNUTH.is_cover((1, 4))  # B and G uncovered
    assert not KNUTH.is_cover((1, 4, 5, 5))
    assert not KNUTH.is_cover((2, 4, 5))  # A and D twice
    assert not KNUTH.is_cover((1, 4, 9))


def test_bad_problems_are_refused():
    with pytest.raises(InputError, match="holds no item"):
        ExactCover({1: []})
    with pytest.raises(InputError, match="primary and as secondary"):
        ExactCover({1: "a"}, secondary="a", primary="a")
    with pytest.raises(InputError, match="no primary item"):
        ExactCover({1: "a", 2: "b"}, secondary="b")
    with pytest.raises(InputError, match="pair"):
        ExactCover([("a",)])
    assert ExactCover({1: "a"}, primary="ab").count() == 0  # b is in no option


# --- the goal ----------------------------------------------------------------------------

def test_goal_enumerates_every_cover_in_option_order():
    q = var()
    assert run(0, q, exact_covero(q, KNUTH)) == ([1, 4, 5],)
    assert len(run(0, q, exact_covero(q, queens(8)))) == 92


def test_goal_backwards_from_a_partial_answer():
    q, r = var(), var()
    assert run(0, (q, r), exact_covero([q, 4, var()], KNUTH, at={"G": r})) == ((1, 5),)
    assert run(0, q, exact_covero([q, 2, var()], KNUTH)) == ()  # 2 is in no cover
    assert run(0, q, exact_covero([1, 4, 5], KNUTH)) == (q,)  # succeeds once, binds nothing
    assert run(0, q, exact_covero([4, 1, 5], KNUTH)) == ()  # not in option order


def test_eq_and_membero_before_the_goal_restrict_the_options():
    problem = queens(8)
    q, first = var(), var()
    answers = run(0, q, eq(first, (0, 3)), exact_covero(q, problem, at={("row", 0): first}))
    assert len(answers) == problem.count(include=[(0, 3)]) == 18
    assert all(cover[0] == (0, 3) for cover in answers)
    answers = run(0, (first, q), membero(first, [(0, 0), (0, 1)]), exact_covero(q, problem, at={("row", 0): first}))
    assert len(answers) == 4 + 8 and {a[0] for a in answers} == {(0, 0), (0, 1)}


def test_fd_domains_restrict_the_choices_and_fd_constraints_check_the_answer():
    # options named by ints so that FD variables can stand for them
    problem = ExactCover({10 * r + c: [("row", r), ("col", c), ("diag", r + c), ("anti", r - c)]
                          for r in range(6) for c in range(6)},
                         secondary=[("diag", d) for d in range(11)] + [("anti", d) for d in range(-5, 6)])
    a, b, q = var(), var(), var()
    # row 0's queen in columns 0-2, and row 5's column greater than row 0's
    goal = lall(domo(a, range(0, 3)), domo(b, range(50, 56)), lto(a, b, -50),
                exact_covero(q, problem, at={("row", 0): a, ("row", 5): b}))
    answers = run(0, (a, b), goal)
    expected = [(c[0], c[-1]) for c in problem.covers() if c[0] < 3 and c[-1] - 50 > c[0]]
    assert sorted(answers) == sorted(expected) and answers
    assert run(0, q, domo(a, [7]), exact_covero(q, problem, at={("row", 0): a})) == ()


def test_goal_argument_errors():
    with pytest.raises(InputError, match="ExactCover"):
        exact_covero(var(), {"a": [1]})
    with pytest.raises(InputError, match="not a primary item"):
        exact_covero(var(), queens(4), at={("diag", 0): var()})
