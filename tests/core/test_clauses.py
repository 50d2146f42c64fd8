"""`@relation` functions compiled to clauses (logicpy.core.clauses): the same answers, in the
same order, as the function run as written, in every mode and state; which functions are
compiled and why the others are not."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core import Table, show, conde, cons, disj, eq, lall, membero, neq, relation, run, var, vars
from logicpy.core import loops
from logicpy.core.clauses import NotCompiledWarning
from logicpy.core.terms import Suffix


@pytest.fixture(autouse=True)
def _as_clauses() -> Iterator[None]:
    """The clause compiler is the subject here: relations with a library relation's clauses
    (append's, member's) run as their clauses, not as its loop (`core.loops`)."""
    with loops.disabled():
        yield


def as_written(rel):
    """The same relation, never compiled (the function runs at every call)."""
    plain = relation(rel.relation.fn)
    plain.relation.compiled = None
    return plain


@relation
def appo(xs, ys, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), appo(t, ys, r)])


@relation
def nrevo(xs, ys):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), nrevo(t, r), appo(r, [h], ys)])


@relation
def kindo(x, k):
    """Constants of every atomic kind, a compound, a fixed-length list and a tuple pattern."""
    a, b = var(), var()
    return conde([eq(x, 1), eq(k, "one")], [eq(x, 1.0), eq(k, "float")], [eq(x, True), eq(k, "true")],
                 [eq(x, "a"), eq(k, "atom")], [eq(x, ("f", a, b)), eq(k, ("f", b, a))],
                 [eq(x, [a, b]), eq(k, "pair")], [eq(x, []), eq(k, "nil")], [eq(x, -0.0), eq(k, "minus zero")],
                 [eq(x, cons(a, b, [])), eq(k, ("two", a))], [eq(k, "any")])


@relation
def treeo(t, n):
    """Counts the leaves of a binary tree of ("node", l, r) and ("leaf",)."""
    l, r, nl, nr = vars(4)
    return conde([eq(t, ("leaf",)), eq(n, ("s", "z"))],
                 [eq(("node", l, r), t), treeo(l, nl), treeo(r, nr), pluso(nl, nr, n)])


@relation
def pluso(a, b, c):
    a1, c1 = vars(2)
    return disj(lall(eq(a, "z"), eq(b, c)), lall(eq(a, ("s", a1)), eq(c, ("s", c1)), pluso(a1, b, c1)))


def same(goal_of, x, n=0, **options):
    """run(n) of the compiled and of the as-written relation built by goal_of(rel_map)."""
    compiled = run(n, x, goal_of({"appo": appo, "nrevo": nrevo, "kindo": kindo, "treeo": treeo}), **options)
    plain = {name: as_written(r) for name, r in {"appo": appo, "nrevo": nrevo, "kindo": kindo, "treeo": treeo}.items()}
    written = run(n, x, goal_of(plain), **options)
    assert [show(a) for a in compiled] == [show(a) for a in written]  # equal up to renaming variables
    return compiled


def test_these_relations_are_compiled():
    for rel in (appo, nrevo, kindo, treeo, pluso):
        run(1, var(), rel(*vars(rel.relation.arity)))
        assert rel.relation.compile() is not None, rel.relation.why
    assert len(appo.relation.compiled.clauses) == 2


@pytest.mark.parametrize("order", ["interleaved", "prolog"])
def test_append_in_every_mode_as_written(order):
    x, y, z = vars(3)
    assert same(lambda r: r["appo"]([1, 2], [3], z), z, order=order) == ([1, 2, 3],)
    splits = same(lambda r: r["appo"](x, y, [1, 2, 3]), (x, y), order=order)
    assert splits == (([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], []))
    firsts = same(lambda r: r["appo"](x, y, z), (x, y, z), 4, order=order)
    assert len(firsts) == 4
    # a partial list, a Suffix and a cons chain as arguments
    t = var()
    assert same(lambda r: r["appo"](cons(1, t), [9], [1, 2, 9]), t, order=order) == ([2],)
    assert same(lambda r: r["appo"](Suffix([0, 1, 2], 1), [3], z), z, order=order) == ([1, 2, 3],)


def test_naive_reverse_of_a_hundred():
    q = var()
    assert same(lambda r: r["nrevo"](list(range(100)), q), q) == (list(range(99, -1, -1)),)
    # backwards: the reversed list is known
    assert same(lambda r: r["nrevo"](q, [3, 2, 1]), q, 1) == ([1, 2, 3],)


@pytest.mark.parametrize("value, kinds", [
    (1, ["one", "any"]), (1.0, ["float", "any"]), (True, ["true", "any"]), ("true", ["true", "any"]),
    (Fraction(1, 1), ["one", "any"]), ("a", ["atom", "any"]), (0.0, ["any"]), (-0.0, ["minus zero", "any"]),
    (("f", 1, 2), [("f", 2, 1), "any"]), ([7, 8], ["pair", ("two", 7), "any"]), ([], ["nil", "any"]),
    (cons(7, [8]), ["pair", ("two", 7), "any"]), (("g", 1), ["any"]), ([1, 2, 3], ["any"]),
    ((var(), 1, 2), [("f", 2, 1), "any"]),  # a tuple whose functor is unbound is indexed as a variable
    ((1, 2, 3), ["any"]), (("f", 1), ["any"]),  # another first element, another arity
])
def test_term_identity_in_heads(value, kinds):
    """1, 1.0 and true are three terms, -0.0 is not 0.0, a list matches a fixed-length list."""
    k = var()
    for order in ("interleaved", "prolog"):
        answers = same(lambda r: r["kindo"](value, k), k, order=order)
        assert sorted(map(repr, answers)) == sorted(map(repr, kinds))


def test_unbound_first_argument_tries_every_clause_in_order():
    x, k = var(), var()
    answers = same(lambda r: r["kindo"](x, k), (x, k), order="prolog")
    assert [a[1] for a in answers][:4] == ["one", "float", "true", "atom"]
    assert answers[4][0][0] == "f" and answers[4][1] == ("f", answers[4][0][2], answers[4][0][1])


def test_structures_both_ways():
    n = var()
    tree = ("node", ("node", ("leaf",), ("leaf",)), ("leaf",))
    assert same(lambda r: r["treeo"](tree, n), n) == (("s", ("s", ("s", "z"))),)
    t = var()
    shapes = same(lambda r: r["treeo"](t, ("s", ("s", "z"))), t, 1)
    assert shapes == (("node", ("leaf",), ("leaf",)),)


def test_constraints_see_every_binding():
    """In a state with a constraint the function runs as written: neq is checked."""
    x, y = vars(2)
    assert same(lambda r: lall(neq(x, 1), r["appo"]([x], [2], y), eq(x, 1)), y) == ()
    assert same(lambda r: lall(neq(x, 1), r["appo"]([x], [2], y), eq(x, 5)), y) == ([5, 2],)
    assert run(0, y, appo([1], [2], y), occurs_check=True) == ([1, 2],)


def test_fact_table_and_library_goals_in_a_body():
    edge = Table("edge", 2)
    edge.extend([(1, 2), (2, 3), (3, 4)])

    @relation
    def patho(a, b):
        c = var()
        return conde([edge(a, b)], [edge(a, c), patho(c, b)])

    @relation
    def chooseo(x, xs):
        return conde([membero(x, xs)])

    q = var()
    assert sorted(run(0, q, patho(1, q))) == [2, 3, 4]
    assert patho.relation.compile() is not None
    assert run(0, q, chooseo(q, [3, 4])) == (3, 4)


def test_a_name_rebound_after_compiling_is_called_as_rebound(tmp_path, monkeypatch):
    """A body's call of another relation follows the name, as the function would."""
    (tmp_path / "colours.py").write_text(
        "from logicpy.core import conde, eq, relation\n"
        "@relation\n"
        "def colouro(x):\n"
        "    return conde([eq(x, 'red')], [shadeo(x)])\n"
        "@relation\n"
        "def shadeo(x):\n"
        "    return eq(x, 'pink')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import colours

    q = var()
    assert run(0, q, colours.colouro(q)) == ("red", "pink")
    assert colours.colouro.relation.compile() is not None
    colours.shadeo = relation(lambda x: eq(x, "blue"))
    assert run(0, q, colours.colouro(q)) == ("red", "blue")


def test_parameters_may_be_named_like_anything():
    @relation
    def swapo(s, K):
        a, b = vars(2)
        return conde([eq(s, (a, b)), eq(K, (b, a))])

    q = var()
    assert run(0, q, swapo((1, 2), q)) == ((2, 1),)
    assert swapo.relation.compile() is not None


def test_which_functions_run_as_written():
    @relation
    def guardo(x, y):
        if isinstance(x, int):
            return eq(y, "int")
        return eq(y, "other")

    @relation
    def loopo(x):
        return conde(*[[eq(x, i)] for i in range(3)])

    q = var()
    with pytest.warns(NotCompiledWarning, match=r"relation guardo is not compiled: a branch or loop \(line \d+"):
        assert run(0, q, guardo(1, q)) == ("int",)
    with pytest.warns(NotCompiledWarning, match=r"loopo .*a lambda, comprehension or nested function"):
        assert run(0, q, loopo(q)) == (0, 1, 2)
    assert guardo.relation.compile() is None and guardo.relation.why.startswith("a branch or loop")
    assert loopo.relation.compile() is None and "comprehension" in loopo.relation.why


small_terms = st.recursive(
    st.sampled_from([0, 1, 1.0, True, "a", "b", -0.0, Fraction(1, 2)]) | st.just([]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(st.just("f"), inner, inner),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(small_terms, small_terms, st.booleans())
def test_random_arguments_as_written(a, b, bind):
    """kindo and appo on random terms (some variables bound first) answer as written."""
    x, k, z = vars(3)
    for order in ("interleaved", "prolog"):
        same(lambda r: r["kindo"](a, k), k, order=order)
        same(lambda r: lall(eq(x, a) if bind else eq(x, x), r["kindo"](x, k)), (x, k), order=order)
        if isinstance(a, list) and isinstance(b, list):
            same(lambda r: r["appo"](a, b, z), z, order=order)
            same(lambda r: r["appo"](x, z, a + b), (x, z), order=order)


def test_a_wrapped_relation_is_called_through_its_wrapper():
    """`@tabled` over `@relation`: the body's recursive call goes through the table (a direct
    call of the inner relation would be an endless left recursion)."""
    from logicpy.core import tabled

    edge = Table("edge", 2)
    edge.extend([("a", "b"), ("b", "c"), ("c", "a")])

    @tabled
    @relation
    def patho(x, y):
        z = var()
        return conde([patho(x, z), edge(z, y)], [edge(x, y)])

    q = var()
    assert sorted(run(0, q, patho("a", q), timeout=10)) == ["a", "b", "c"]


@relation
def lasto(xs, x):
    """The last element: a deterministic call ending in a call of itself, on a proper list."""
    h, t = vars(2)
    return conde([eq(xs, [x])], [eq(xs, cons(h, t)), lasto(t, x)])


@relation
def walko(xs, out):
    h, t = vars(2)
    return conde([eq(xs, []), eq(out, "end")], [eq(xs, cons(h, t)), walko(t, out)])


def test_deterministic_recursion_run_in_one_expansion_keeps_answers_fairness_and_time_limits():
    from logicpy.core import SearchTimeout
    q, loop = var(), var()
    long = list(range(10_000))
    assert same(lambda r: r["appo"](long, [1], q), q)[0][-2:] == [9_999, 1]
    assert run(0, q, lasto(long, q)) == (9_999,)
    assert run(0, q, disj(appo([1, 2, 3], [], [1, 2, 4]), eq(q, 5))) == (5,)  # fails midway: the state is untouched
    assert run(0, q, appo([1, 2, 3], [], [1, 2, q])) == (3,)
    # an endless deterministic recursion (over a cyclic list) leaves the other branch its turns, and stops in time
    assert run(1, q, eq(loop, cons(1, loop)), conde([walko(loop, q)], [eq(q, "other")])) == ("other",)
    with pytest.raises(SearchTimeout):
        run(1, q, eq(loop, cons(1, loop)), walko(loop, q), timeout=0.3)
