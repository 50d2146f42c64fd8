"""`membero` and `adjacento` with a record pattern (a tuple such as `("h", A, "red")`) against
the records of a short list: the answers, their order and their bindings are those of plain
unification, whatever the records hold: variables shared between the pattern and the
records, repeated variables, nested tuples, cons cells and lists, floats and booleans, and
with a constraint store, the occurs check or a state with no store (in the interleaved
order a state with a store or the occurs check runs member's clauses: the same answers up
to the names of their variables)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from immutables import Map

from logicpy.core import adjacento, conde, cons, eq, inso, isvar, membero, neq, reify, run, var, vars
from logicpy.core.equality import State
from logicpy.core.listloops import member_loop, nextto_loop
from logicpy.core.terms import variables_in
from logicpy.errors import LogicpyError

A, B, C = vars(3, "r")  # the variables patterns, records and bindings share
LEAVES = st.sampled_from(["a", "b", "true", 0, 1, True, 1.0, A, B, C])


def _records(inner):
    """Tuples of 1 to 3 fields behind a name, cons cells and short lists of `inner`."""
    fields = st.lists(inner, min_size=1, max_size=3)
    return st.one_of(fields.map(lambda f: ("r", *f)), fields.map(lambda f: ("s", *f)),
                     st.tuples(inner, inner).map(lambda p: cons(*p)), st.lists(inner, max_size=2))


TERMS = st.recursive(LEAVES, _records, max_leaves=6)
#: A record pattern: a name then fields (atoms, integers, variables, deeper terms).
PATTERNS = st.lists(TERMS, min_size=1, max_size=3).map(lambda f: ("r", *f))
#: What holds before the lookup: bindings of the shared variables, a constraint, the occurs check.
SETUPS = st.tuples(st.lists(st.tuples(st.sampled_from([A, B, C]), TERMS), max_size=2), st.booleans(), st.booleans())


def _outcome(query):
    """The answers, or the error's text (a cyclic answer refused, say)."""
    try:
        return query()
    except LogicpyError as exc:
        return str(exc)


def _same_answers(goal, reference, setup) -> None:
    bindings, constrained, occurs = setup
    before = [eq(v, t) for v, t in bindings]
    if constrained:
        before.append(neq(A, "a"))
    q = (A, B, C)
    got = _outcome(lambda: run(0, q, *before, goal, occurs_check=occurs))
    want = _outcome(lambda: run(0, q, *before, reference, occurs_check=occurs, order="prolog"))
    if constrained or occurs:  # the interleaved order runs member's clauses there: bindings may go the other way
        got, want = renamed(got), renamed(want)
    assert got == want


def renamed(outcome):
    """The answers with their variables named in order of appearance (an error's text as it is)."""
    if isinstance(outcome, str):
        return outcome
    out = []
    for answer in outcome:
        names = Map({v: f"\0v{i}" for i, v in enumerate(dict.fromkeys(variables_in(answer)))})
        out.append(reify(answer, names))
    return tuple(out)


def _one_of(term, candidates):
    return conde(*[[eq(term, c)] for c in candidates]) if candidates else eq(0, 1)


@settings(max_examples=300, deadline=None)
@given(PATTERNS, st.lists(st.one_of(TERMS, PATTERNS), max_size=5), SETUPS)
def test_membero_with_a_record_pattern_answers_as_unification(x, items, setup):
    _same_answers(membero(x, items), _one_of(x, items), setup)


@settings(max_examples=300, deadline=None)
@given(PATTERNS, PATTERNS, st.lists(st.one_of(TERMS, PATTERNS), max_size=5), SETUPS)
def test_adjacento_with_record_patterns_answers_as_unification(x, y, items, setup):
    _same_answers(adjacento(x, y, items), _one_of((x, y), list(zip(items, items[1:]))), setup)


@settings(max_examples=200, deadline=None)
@given(PATTERNS, st.lists(st.one_of(TERMS, PATTERNS), max_size=5))
def test_a_pattern_held_by_a_variable_answers_as_the_pattern(x, items):
    """membero(X, records) with X bound to a record pattern when the goal runs."""
    p = var()
    assert _outcome(lambda: run(0, (A, B, C), eq(p, x), membero(p, items))) == \
        _outcome(lambda: run(0, (A, B, C), membero(x, items)))


def test_variables_shared_between_the_pattern_and_a_record():
    a, b = var(), var()
    assert run(0, a, membero(("h", a, "red"), [("h", "red", a)])) == ("red",)
    assert run(0, a, membero(("h", a, "red"), [("h", "blue", a)])) == ()
    assert run(0, (a, b), membero(("h", a, b), [("h", b, a)])) == run(0, (a, b), eq(("h", a, b), ("h", b, a)))
    assert run(0, (a, b), membero(("h", a, "x"), [("h", b, b)])) == (("x", "x"),)
    cyclic = _outcome(lambda: run(0, a, membero(("h", a), [a])))  # refused as an answer, without the occurs check
    assert cyclic == _outcome(lambda: run(0, a, eq(("h", a), a))) and "cyclic" in cyclic
    assert run(0, b, membero(("h", a), [a]), eq(b, 1)) == (1,)


def test_repeated_variables_in_the_pattern_or_the_record():
    a, b = var(), var()
    assert run(0, (a, b), membero(("p", a, a), [("p", 1, 2), ("p", 3, 3), ("p", b, 4), ("p", "x", 1.0)])) == \
        ((3, b), (4, 4))
    assert run(0, b, membero(("p", "a", "b"), [("p", b, b)])) == ()
    assert run(0, b, membero(("p", "a", "a"), [("p", b, b)])) == ("a",)
    # adjacent patterns sharing a variable: both records must agree on it
    assert run(0, a, adjacento(("h", a), ("h", a), [("h", 1), ("h", 2), ("h", 2), ("h", 3)])) == (2,)


def test_nested_tuples_cons_cells_and_lists_in_records():
    a, h, t = var(), var(), var()
    assert run(0, a, membero(("e", ("f", a), 2), [("e", ("f", 1), 2), ("e", ("g", 1), 2), ("e", ("f", 5), 3)])) == (1,)
    # a cons cell takes a list apart, never a tuple (a compound term), as `eq` does
    records = [("l", [1, 2]), ("l", []), ("l", "x"), ("l", ("f", 2)), ("l", cons(3, ("f", 4)))]
    assert run(0, (h, t), membero(("l", cons(h, t)), records)) == ((1, [2]), (3, ("f", 4))) == \
        run(0, (h, t), conde(*([eq(("l", cons(h, t)), r)] for r in records)))
    assert run(0, a, membero(("l", [a, 2]), [("l", cons(1, t)), ("l", [3, 2])])) == (1, 3)
    assert run(0, (a, h), adjacento(("n", a), ("n", ("m", h)), [("n", 1), ("n", ("m", 2)), ("n", 3)])) == ((1, 2),)


def test_a_record_never_matches_an_atom_a_list_or_a_tuple_of_another_length():
    a, b = var(), var()
    assert run(0, (a, b), membero(("h", a), ["h", 1, ["h", 2], ("h",), ("h", 2, 3), ("h", 4), b])) == \
        ((4, b), (a, ("h", a)))


def test_records_with_a_constraint_store():
    a, b = var(), var()
    houses = [("h", "red", 1), ("h", "green", 2), ("h", b, 3)]
    (found,) = run(0, (a, b), neq(a, "red"), membero(("h", a, 3), houses))
    assert isvar(found[0]) and found[0] is found[1]  # a = b, both unbound
    assert run(0, a, neq(b, "blue"), membero(("h", "blue", a), houses)) == ()
    assert run(0, a, inso([a], range(0, 5)), membero(("h", "green", a), houses)) == (2, 3)  # the last with b = "green"
    assert run(0, a, inso([a], range(0, 3)), membero(("h", "green", a), houses)) == (2,)
    assert run(0, a, inso([a], range(3, 5)), adjacento(("h", "green", 2), ("h", b, a), houses)) == (3,)
    assert run(0, a, membero(("h", "red", a), houses), neq(a, 1)) == (3,)  # b = "red"


def test_a_state_without_a_store_gives_states_of_its_kind():
    a = var()
    S = State(Map(), None, False)
    found = member_loop(("h", a), [("h", 1), ("h", 2)])(S)
    assert [type(s) for s in found] == [State, State]
    assert [reify(a, s) for s in found] == [1, 2]
    found = nextto_loop(("h", a), ("h", 2), [("h", 1), ("h", 2)])(S)
    assert [reify(a, s) for s in found] == [1]


def test_atoms_compare_as_prolog_terms():
    """True is the atom true; 1, 1.0 and True are three terms."""
    a = var()
    records = [("h", True, 1), ("h", 1, 2), ("h", "true", 3), ("h", 1.0, 4)]
    assert run(0, a, membero(("h", "true", a), records)) == (1, 3)
    assert run(0, a, membero(("h", True, a), records)) == (1, 3)
    assert run(0, a, membero(("h", 1, a), records)) == (2,)
    assert run(0, a, adjacento(("h", 1, 2), ("h", "true", a), records)) == (3,)
