"""An `@relation` is compiled wherever it is defined (logicpy.core.clauses reads its code
object, logicpy.core.bytecode): built by `exec`, compiled as `<stdin>`, piped to `python -`,
given to `python -c`, typed in a notebook cell or made inside a function, the same text
gives the same compiled clauses, answers and order as in a file; a body that is not
compiled says so once, with its line."""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from logicpy.core import conde, cons, eq, membero, relation, run, var, vars
from logicpy.core import loops
from logicpy.core.bytecode import Unreadable, function_body
from logicpy.core import NotCompiledWarning

#: One program, run from a file and from everywhere else: user relations of several shapes
#: and `report()`, their compiled status and the answers of queries in both search orders.
PROGRAM = '''\
from logicpy.core import conde, cons, eq, loops, relation, run, show, var, vars

@relation
def appo(xs, ys, zs):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), appo(t, ys, r)])

@relation
def nrevo(xs, ys):
    h, t, r = vars(3)
    return conde([eq(xs, []), eq(ys, [])], [eq(xs, cons(h, t)), nrevo(t, r), appo(r, [h], ys)])

@relation
def pluso(a, b, c):
    """Peano addition: z, ("s", n)."""
    a1, c1 = vars(2)
    return conde([eq(a, "z"), eq(b, c)], [eq(a, ("s", a1)), eq(c, ("s", c1)), pluso(a1, b, c1)])

@relation
def hanoio(n, a, b, c, moves):
    n1, m1, m2 = vars(3)
    return conde([eq(n, "z"), eq(moves, [])],
                 [eq(n, ("s", n1)), hanoio(n1, a, c, b, m1), hanoio(n1, c, b, a, m2),
                  appo(m1, cons(("move", a, b), m2), moves)])

def report():
    x, y, z, q = var(), var(), var(), var()
    three = ("s", ("s", ("s", "z")))
    lines = [f"compiled {r.__name__} {r.relation.compile() is not None} {r.relation.why!r}"
             for r in (appo, nrevo, pluso, hanoio)]
    with loops.disabled():  # every relation as its clauses, whatever its shape
        for order in ("interleaved", "prolog"):
            lines += [
                show(run(0, q, nrevo(list(range(30)), q), order=order)),
                show(run(0, (x, y), appo(x, y, [1, 2, 3]), order=order)),
                show(run(6, (x, y, z), appo(x, y, z), order=order)),
                show(run(1, q, nrevo(q, [3, 2, 1]), order=order)),
                show(run(0, (x, y), pluso(x, y, three), order=order)),
                show(run(0, q, hanoio(three, "a", "b", "c", q), order=order)),
            ]
    return lines
'''

NAMES = ("appo", "nrevo", "pluso", "hanoio")


def _environment() -> dict[str, str]:
    """This process's environment, its logicpy first on the path (the subprocesses import it)."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    return env


def _python(args: list[str], stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, timeout=300,
                          env=_environment(), cwd=cwd, check=False)


@pytest.fixture(scope="module")
def from_file(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """`report()` of the program imported from a file: the reference."""
    folder = tmp_path_factory.mktemp("program")
    (folder / "program_in_a_file.py").write_text(PROGRAM)
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module("program_in_a_file")
        assert inspect.getsource(module.appo)  # a file: its source can be read
        return module.report()
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("program_in_a_file", None)


def _compiled_everywhere(lines: list[str]) -> None:
    for name in NAMES:
        assert f"compiled {name} True ''" in lines


def test_the_reference_is_compiled_and_right(from_file):
    _compiled_everywhere(from_file)
    interleaved, prolog = from_file[4:10], from_file[10:]
    for answers in (interleaved, prolog):
        assert answers[0] == "[[" + ",".join(map(str, range(29, -1, -1))) + "]]"
        assert answers[1] == "[[[],[1,2,3]],[[1],[2,3]],[[1,2],[3]],[[1,2,3],[]]]"
        assert answers[2].startswith("[[[],_0,_0],[[_1],_2,[_1|_2]],[[_1,_3],_4,[_1,_3|_4]],")
        assert answers[3] == "[[1,2,3]]"
        assert answers[4] == "[z(s(s(s(z)))),[s(z),s(s(z))],[s(s(z)),s(z)],[s(s(s(z))),z]]"
        assert answers[5] == "[[move(a,b),move(a,c),move(b,c),move(a,b),move(c,a),move(c,b),move(a,b)]]"


def _executed(code: object) -> dict:
    namespace: dict = {"__name__": "typed"}
    exec(code, namespace)  # noqa: S102  the program under test
    return namespace


@pytest.mark.parametrize("how", ["exec of a string", "compiled as <stdin>", "compiled as <string>"])
def test_exec_gives_the_file_answers(from_file, how):
    code = {"exec of a string": PROGRAM, "compiled as <stdin>": compile(PROGRAM, "<stdin>", "exec"),
            "compiled as <string>": compile(PROGRAM, "<string>", "exec")}[how]
    namespace = _executed(code)
    with pytest.raises(OSError):
        inspect.getsource(namespace["appo"])  # no source to read
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotCompiledWarning)
        assert namespace["report"]() == from_file


def test_the_same_text_compiles_to_the_same_code(tmp_path, monkeypatch):
    """The clauses' generated code is the same from a file and from `exec`."""
    (tmp_path / "same_text.py").write_text(PROGRAM)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("same_text")
    typed = _executed(compile(PROGRAM, "<stdin>", "exec"))
    for name in NAMES:
        in_file, at_prompt = getattr(module, name).relation.compile(), typed[name].relation.compile()
        assert in_file.source == at_prompt.source and in_file.source


@pytest.mark.parametrize("how", ["python - (stdin)", "python -c"])
def test_a_subprocess_gives_the_file_answers(tmp_path, how):
    script = PROGRAM + "\nprint('\\n'.join(report()))\n"
    (tmp_path / "program.py").write_text(script)
    in_file = _python([str(tmp_path / "program.py")])
    assert in_file.returncode == 0, in_file.stderr
    typed = _python(["-"], stdin=script) if how == "python - (stdin)" else _python(["-c", script])
    assert typed.returncode == 0, typed.stderr
    assert "NotCompiledWarning" not in typed.stderr + in_file.stderr
    _compiled_everywhere(typed.stdout.splitlines())
    assert typed.stdout == in_file.stdout


def test_a_notebook_cell(from_file):
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    try:
        result = shell.run_cell(PROGRAM)
        assert result.success, result.error_in_exec
        assert shell.user_ns["report"]() == from_file
    finally:
        interactiveshell.InteractiveShell.clear_instance()


# ---------------------------------------------------------------- made inside a function

def _as_written(rel):
    """The same function as a relation never compiled (run at every call)."""
    plain = relation(rel.relation.fn)
    plain.relation.compiled = None
    return plain


def test_relations_made_inside_a_function_are_compiled():
    """A relation calling itself through a closure cell, made in a function's body."""
    def make():
        @relation
        def app(xs, ys, zs):
            h, t, r = vars(3)
            return conde([eq(xs, []), eq(ys, zs)], [eq(xs, cons(h, t)), eq(zs, cons(h, r)), app(t, ys, r)])
        return app

    app = make()
    assert "app" in app.relation.fn.__code__.co_freevars
    x, y = var(), var()
    with loops.disabled():  # as its clauses, not as appendo's loop
        for order in ("interleaved", "prolog"):
            assert run(0, (x, y), app(x, y, [1, 2, 3]), order=order) \
                == (([], [1, 2, 3]), ([1], [2, 3]), ([1, 2], [3]), ([1, 2, 3], [])) \
                == run(0, (x, y), _as_written(app)(x, y, [1, 2, 3]), order=order)
        assert run(0, x, app(list(range(500)), [1], x))[0][-2:] == [499, 1]
    compiled = app.relation.compile()
    assert compiled is not None and compiled.loop is not None, app.relation.why


def test_a_closure_variable_is_read_when_the_clause_is_used():
    """A closure variable holding a term: read at each use, as the function reads it (a
    `nonlocal` rebinding is seen), not frozen when the relation is compiled."""
    def make():
        k = ["a", 1]

        @relation
        def ko(x):
            return conde([eq(x, k)], [eq(x, "other")])

        def rebind(value):
            nonlocal k
            k = value
        return ko, rebind

    ko, rebind = make()
    q = var()
    assert run(0, q, ko(q)) == (["a", 1], "other")
    assert ko.relation.compile() is not None, ko.relation.why
    rebind(("f", 2))
    assert run(0, q, ko(q)) == (("f", 2), "other") == run(0, q, _as_written(ko)(q))


def test_a_closure_variable_holding_a_goal_function():
    """A relation or a plain goal-making function in a closure cell is called through the
    cell at each use: rebinding it changes the calls, as in the function run as written."""
    def make(goal):
        @relation
        def wrapo(x):
            return conde([goal(x)], [eq(x, "end")])

        def rebind(value):
            nonlocal goal
            goal = value
        return wrapo, rebind

    @relation
    def oneo(x):
        return eq(x, 1)

    q = var()
    wrapo, rebind = make(oneo)
    assert run(0, q, wrapo(q)) == (1, "end") == run(0, q, _as_written(wrapo)(q))
    assert wrapo.relation.compile() is not None, wrapo.relation.why
    rebind(lambda x: membero(x, [7, 8]))
    assert run(0, q, wrapo(q)) == run(0, q, _as_written(wrapo)(q))
    assert sorted(map(str, run(0, q, wrapo(q)))) == ["7", "8", "end"]
    plain, _ = make(lambda x: eq(x, "plain"))
    assert run(0, q, plain(q)) == ("plain", "end")
    assert plain.relation.compile() is not None


def test_a_lambda_is_compiled():
    q = var()
    colour = relation(lambda x: conde([eq(x, "red")], [eq(x, "blue")]))
    assert run(0, q, colour(q)) == ("red", "blue")
    assert colour.relation.compile() is not None, colour.relation.why


# ---------------------------------------------------------------- not compiled: said once

GUARDED = '''\
from logicpy.core import eq, relation

@relation
def guardo(x, y):
    if isinstance(x, int):
        return eq(y, "int")
    return eq(y, "other")
'''


def test_a_body_that_is_not_compiled_warns_once_with_its_line():
    namespace = _executed(compile(GUARDED, "<stdin>", "exec"))
    guardo = namespace["guardo"]
    q = var()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert run(0, q, guardo(1, q)) == ("int",)
        assert run(0, q, guardo("a", q)) == ("other",)  # the same answers as written, and no second warning
    said = [w for w in caught if issubclass(w.category, NotCompiledWarning)]
    assert len(said) == 1
    assert (said[0].filename, said[0].lineno) == ("<stdin>", 3)  # where the relation is defined
    assert str(said[0].message) == ("relation guardo is not compiled: a branch or loop (line 5: an if, for, "
                                    "while, try or with, a conditional expression, `and`/`or`, or a chained "
                                    "comparison); it runs as written at every call")
    assert guardo.relation.compile() is None and guardo.relation.why.startswith("a branch or loop (line 5")


@pytest.mark.parametrize("body, reason", [
    ("    print(x)\n    return eq(x, 1)\n", "a statement other than fresh variables (line 5)"),
    ("    h = var()\n    return eq(x, [i for i in range(3)])\n", "a lambda, comprehension or nested function (line 6)"),
    ("    a = b = var()\n    return eq(x, a)\n", "an assignment to several targets or `:=` (line 5)"),
    ("    y = x\n    return eq(y, 1)\n", "an assignment of something other than fresh variables (line 5)"),
    ("    eq(x, 1)\n", "the body does not end by returning a goal"),
    ("    import os\n    return eq(x, os.sep)\n", "an import (line 5)"),
])
def test_why_a_body_is_not_compiled(body, reason):
    text = "from logicpy.core import eq, relation, var\n\n@relation\ndef bodyo(x):\n" + body
    namespace = _executed(compile(text, "<stdin>", "exec"))
    with pytest.warns(NotCompiledWarning):
        namespace["bodyo"].relation.compile()
    assert namespace["bodyo"].relation.why == reason


def test_parameters_and_callables_that_are_not_compiled():
    def with_default(x, y=1):
        return eq(x, y)

    class Goal:
        def __call__(self, x):
            return eq(x, 2)

    q = var()
    with pytest.warns(NotCompiledWarning, match="parameters other than plain positional ones"):
        assert run(0, q, relation(with_default)(q)) == (1,)
    made = relation(Goal())
    with pytest.warns(NotCompiledWarning, match=r"not a Python function \(a Goal\)"):
        assert run(0, q, made(q)) == (2,)


# ---------------------------------------------------------------- the reader against ast.parse

def _relations_with_source(module_in_a_file) -> list:
    """Functions with source: the relations of the library, of a benchmark and of `PROGRAM`."""
    from logicpy.core import lists
    from logicpy.puzzles.gods import relations

    found = []
    for module in (lists, relations, importlib.import_module("bench.bench_relations"), module_in_a_file):
        for value in module.__dict__.values():
            fn = getattr(getattr(value, "relation", None), "fn", None)
            if fn is not None and inspect.isfunction(fn) and fn.__module__ == module.__name__:
                found.append(fn)
    return found


def _parsed_body(fn) -> list[str]:
    """ast.parse's statements of `fn` (docstring left out, `-1` as the constant it folds to)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]

    class Fold(ast.NodeTransformer):
        def visit_UnaryOp(self, node):
            self.generic_visit(node)
            if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
                return ast.Constant(-node.operand.value)
            return node

    return [ast.dump(Fold().visit(s)) for s in body]


def test_the_bytecode_gives_the_tree_the_source_gives(tmp_path, monkeypatch):
    (tmp_path / "program_for_the_reader.py").write_text(PROGRAM)
    monkeypatch.syspath_prepend(str(tmp_path))
    functions = _relations_with_source(importlib.import_module("program_for_the_reader"))
    read_back = 0
    for fn in functions:
        try:
            read = function_body(fn)
        except Unreadable:
            continue  # a relation that guards its arguments: not straight-line code
        assert [ast.dump(s) for s in read] == _parsed_body(fn), fn.__qualname__
        lines, start = inspect.getsourcelines(fn)
        assert read[-1].lineno == start + next(i for i, t in enumerate(lines) if t.strip().startswith("return"))
        read_back += 1
    assert read_back >= 8


def test_displays_and_folded_constants_come_back_as_written():
    def shapes(x):
        a, b = var(), var("b")
        c, d, e = var(), var(), var()
        return eq(x, [("leaf",), (1, (2, "z")), [1, 2, 3], -2, -0.0, (), [], [a, *b], x.attr[0], x + 1, b(c, d=e)])

    def calls(x):
        a = var()
        return conde([x.m(), x.m(a).n(x, a), eq(x.y.z, a.m(1)), eq(*x, k=1), eq(x, *x, k=x, j=2)],
                     [eq(x, (+x, ~x, not x, x[::2], x[1:], x[:2], x[1:2:3], x < 1, x is None, x in x, {1: x}))])

    for fn in (shapes, calls):
        assert [ast.dump(s) for s in function_body(fn)] == _parsed_body(fn)
    read = function_body(shapes)
    assert ast.unparse(read[0]) == "a, b = (var(), var('b'))"
    assert ast.unparse(read[1]) == "c, d, e = (var(), var(), var())"
