"""The term representation: validation, Prolog text, JSON, and their round trips."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logicpy.core.terms import (
    String,
    check_term,
    cons,
    format_term,
    from_json,
    parse_term,
    to_json,
    var,
)
from logicpy.errors import TermError
from unification import Var
from cons.core import ConsPair

# ------------------------------------------------------------------ strategies

atoms = st.text(min_size=0, max_size=6) | st.sampled_from(
    ["[]", "{}", "a", "hello_World", "+", "=..", "/*", "'", "\\", ",", "|", "!", ";", "-", "é", "A", "_x", "\n"]
)
numbers = (
    st.integers(min_value=-(2**130), max_value=2**130)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.fractions().filter(lambda f: f.denominator != 1)
)
strings = st.text(max_size=6).map(String)
variables = st.builds(lambda name: var(name), st.sampled_from([None, "x", "y", "Long"]))
pool = st.lists(variables, min_size=1, max_size=3)


def terms(leaf=atoms | numbers | strings):
    """Nested logicpy terms (without variables; see `terms_with_vars`)."""
    return st.recursive(
        leaf,
        lambda inner: st.lists(inner, max_size=4)
        | st.tuples(atoms.filter(lambda a: a != "[|]"), st.lists(inner, max_size=3)).map(lambda fa: (fa[0], *fa[1]))
        | st.tuples(st.lists(inner, min_size=1, max_size=3), leaf).map(lambda lt: _partial(*lt)),
        max_leaves=12,
    )


def _partial(items, tail):
    result = tail
    for item in reversed(items):
        result = ConsPair(item, result)
    return result


@st.composite
def terms_with_vars(draw):
    shared = draw(pool)
    return draw(terms(atoms | numbers | strings | st.sampled_from(shared)))


# ------------------------------------------------------------------ strict equality up to renaming


def same(a, b, mapping=None) -> bool:
    """a and b are the same term, types included, up to a consistent renaming of variables."""
    mapping = {} if mapping is None else mapping
    if isinstance(a, Var) or isinstance(b, Var):
        if not (isinstance(a, Var) and isinstance(b, Var)):
            return False
        if a in mapping:
            return mapping[a] is b
        if b in mapping.values():
            return False
        mapping[a] = b
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, mapping) for x, y in zip(a, b))
    if type(a) is ConsPair:
        return same(a.car, b.car, mapping) and same(a.cdr, b.cdr, mapping)
    if isinstance(a, float):
        return repr(a) == repr(b)  # distinguishes -0.0 from 0.0
    return a == b


# ------------------------------------------------------------------ round trips


@settings(max_examples=100, deadline=None)
@given(terms_with_vars())
def test_json_round_trip(term):
    text = json.dumps(to_json(term))
    assert same(from_json(json.loads(text)), term)


@settings(max_examples=100, deadline=None)
@given(terms_with_vars())
def test_prolog_text_round_trip(term):
    assert same(parse_term(format_term(term)), term)


@given(terms_with_vars())
def test_numbered_text_identifies_variants(term):
    renamed = parse_term(format_term(term))  # same shape, fresh variables
    assert format_term(term, numbered=True) == format_term(renamed, numbered=True)


def test_shared_variables_stay_shared():
    x = var("x")
    data = to_json(("f", x, [x, var("x")]))
    assert data == {"functor": "f", "args": [{"var": "X"}, [{"var": "X"}, {"var": "X1"}]]}
    back = from_json(data)
    assert back[1] is back[2][0] and back[2][1] is not back[1]


def test_json_encoding_is_the_documented_one():
    x = var("T")
    assert to_json(cons("a", x)) == {"list": ["a"], "tail": {"var": "T"}}
    assert to_json(String("hi")) == {"string": "hi"}
    assert to_json(Fraction(-1, 3)) == {"rational": "-1/3"}
    assert to_json([1, 2.5, "b"]) == [1, 2.5, "b"]
    assert to_json(2**100) == 2**100


def test_bool_becomes_an_atom_one_way():
    assert to_json(True) == "true" and format_term(("f", False)) == "f(false)"
    assert from_json(json.loads(json.dumps(to_json(True)))) == "true"


def test_atoms_are_quoted_only_where_needed():
    assert format_term(["a", "hello_World", "+", "\\+", "é"]) == "[a,hello_World,+,\\+,'é']"
    assert format_term(["A", "_x", "a b", "[]", "{}", "/*", "=..", ",", "it's", ""]) == (
        "['A','_x','a b','[]','{}','/*','=..',',','it\\'s','']"
    )
    assert format_term([[], ("{}", "a"), ("-", 1), -1]) == "[[],'{}'(a),-(1),-1]"


def test_parse_reads_swi_canonical_output():
    # Text as SWI-Prolog 9's write_canonical prints it.
    text = "f(-(1),-1,1r3,\"str\\n\\\"x\",'A b',[],'[]',{},{}(a),[1,2|_A],_A,hello(),1.0e+20,'it\\'s','\\u0001')"
    t = parse_term(text)
    assert t[1:5] == (("-", 1), -1, Fraction(1, 3), String('str\n"x'))
    assert t[5:10] == ("A b", [], "[]", "{}", ("{}", "a"))
    assert t[10].car == 1 and t[10].cdr.cdr is t[11]
    assert t[12:] == (("hello",), 1e20, "it's", "\x01")


# ------------------------------------------------------------------ bad input is named


def test_check_term_names_the_culprit_and_its_place():
    with pytest.raises(TermError, match=r"term\[2\]\[1\]: None"):
        check_term(("f", "a", [1, None]))
    with pytest.raises(TermError, match=r"term\[0\]: \{'a': 1\}"):
        check_term([{"a": 1}])
    with pytest.raises(TermError, match="tuple needs a str functor"):
        check_term((1, 2))
    with pytest.raises(TermError, match="finite"):
        check_term(float("nan"))
    with pytest.raises(TermError, match=r"\.tail"):
        check_term(ConsPair(1, {"a"}))
    assert check_term(("f", var(), cons(1, var()))) is not None


def test_format_term_rejects_non_terms():
    with pytest.raises(TermError, match=r"term\[1\]: <object"):
        format_term(("f", object()))


def test_from_json_names_the_bad_place():
    with pytest.raises(TermError, match=r'json\["args"\]\[1\]: None'):
        from_json({"functor": "f", "args": [1, None]})
    with pytest.raises(TermError, match="rational"):
        from_json({"rational": "1/0"})
    with pytest.raises(TermError, match=r"json: \{'functor': 'f'\}"):
        from_json({"functor": "f"})


@pytest.mark.parametrize("text", ["f(", "f(a b)", "[1,2", "1.0Inf", "f(a).x", "'abc", "<stream>(0x1)"])
def test_parse_term_rejects_malformed_text(text):
    with pytest.raises(TermError, match="cannot read Prolog term at character"):
        parse_term(text)


def test_deep_terms_are_written_and_read_without_recursion():
    # 20,000 levels: far past Python's recursion limit; every kind of nesting the text has.
    n = 20_000
    text = "','(a," * n + "[f([[1,x|T]])," + "g(" * n + "[]" + ")" * n + "]" + ")" * n
    term = parse_term(text)
    assert format_term(term, {term_var(term): "T"}) == text
    depth, node = 0, term
    while isinstance(node, tuple) and node[0] == ",":
        depth, node = depth + 1, node[2]
    assert depth == n and node[0] == ("f", [cons(1, cons("x", node[0][1][0].cdr.cdr))])
    assert format_term(term, max_depth=2 * n + 2) == format_term(term)
    with pytest.raises(TermError, match=r"term\[2\]\[2\].*nested more than 3 deep"):
        format_term(term, max_depth=3)
    with pytest.raises(TermError, match=r"^term\[2\]\[2\]\[2\]\[2\]\[2\]\[2\]\[2\]\[2\]\.\.\.\(989 more\)\.\.\.\[2\]\[2\]\[2\]: "
                                        r"nested more than 1,000 deep"):
        format_term(term, max_depth=1000)


def term_var(term):
    """The one variable of the deep term above: T, at the end of [1,x|T]."""
    while term[0] == ",":
        term = term[2]
    return term[0][1][0].cdr.cdr
