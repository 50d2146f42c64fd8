"""A function's body read back from its code object as Python's AST.

`function_body(fn)` gives the statements of a function whose code runs straight through
(no branch, loop or `try`): assignments to local names, expression statements, and the
final `return`, each expression rebuilt as the AST the compiler read (`ast.Call`,
`ast.Name`, `ast.List`, ...). A constant the compiler folded comes back as the display
it stands for (`("leaf",)` as a tuple of constants, `[1, 2, 3]` as a list of them), so
the same text gives the same tree whether it was read from a file, typed at a prompt,
piped on stdin or built by `exec`: no source is needed. The bytecode of CPython 3.10 to
3.13 is read; anything else raises `Unreadable` with the reason and the line.
"""

from __future__ import annotations

import ast
import dis
import sys
import types
from typing import Any

__all__ = ["Unreadable", "function_body"]


class Unreadable(Exception):
    """The code is not straight-line code this reader knows (the message says where)."""


#: The bytecode this reader knows: where a call's NULL slot sits (3.13: after the callable).
_NULL_AFTER = sys.version_info >= (3, 13)
_NULL_SLOT = sys.version_info >= (3, 11)  # 3.10 has no NULL slot but `LOAD_METHOD`'s


class _Null:
    """The empty slot a call's callable may take along (NULL in CPython's stack)."""


_NULL = _Null()

#: Instructions that only set things up or mark places: no effect on the expressions.
_SKIP = {"RESUME", "NOP", "CACHE", "EXTENDED_ARG", "PRECALL", "COPY_FREE_VARS", "MAKE_CELL", "TO_BOOL"}

_BINARY = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "@": ast.MatMult, "/": ast.Div, "//": ast.FloorDiv,
           "%": ast.Mod, "**": ast.Pow, "<<": ast.LShift, ">>": ast.RShift, "&": ast.BitAnd, "|": ast.BitOr,
           "^": ast.BitXor}
#: CPython 3.10's one instruction per operator.
_BINARY_310 = {"BINARY_ADD": "+", "BINARY_SUBTRACT": "-", "BINARY_MULTIPLY": "*", "BINARY_MATRIX_MULTIPLY": "@",
               "BINARY_TRUE_DIVIDE": "/", "BINARY_FLOOR_DIVIDE": "//", "BINARY_MODULO": "%", "BINARY_POWER": "**",
               "BINARY_LSHIFT": "<<", "BINARY_RSHIFT": ">>", "BINARY_AND": "&", "BINARY_OR": "|", "BINARY_XOR": "^"}
_UNARY = {"UNARY_NEGATIVE": ast.USub, "UNARY_POSITIVE": ast.UAdd, "UNARY_NOT": ast.Not, "UNARY_INVERT": ast.Invert}
_COMPARE = {"<": ast.Lt, "<=": ast.LtE, "==": ast.Eq, "!=": ast.NotEq, ">": ast.Gt, ">=": ast.GtE}

#: What an instruction the reader does not take means, for the reason given.
_MEANING = {"MAKE_FUNCTION": "a lambda, comprehension or nested function",
            "LOAD_CLOSURE": "a lambda, comprehension or nested function", "IMPORT_NAME": "an import",
            "STORE_ATTR": "an assignment to an attribute", "STORE_SUBSCR": "an assignment to an item",
            "STORE_GLOBAL": "an assignment to a global", "STORE_DEREF": "a variable a nested function uses",
            "DELETE_FAST": "a del statement", "RAISE_VARARGS": "a raise statement",
            "COPY": "an assignment to several targets or `:=`", "DUP_TOP": "an assignment to several targets or `:=`",
            "DICT_MERGE": "a call with ** arguments", "BUILD_SET": "a set display",
            "FORMAT_VALUE": "an f-string", "FORMAT_SIMPLE": "an f-string", "BUILD_STRING": "an f-string",
            "BINARY_OP": "an augmented assignment"}


def _constant(value: Any) -> ast.expr:
    """The display a folded constant stands for: a tuple as a tuple of constants."""
    if type(value) is tuple:
        return ast.Tuple([_constant(v) for v in value], ast.Load())
    return ast.Constant(value)


class _Unpacked:
    """Item `index` of `value` unpacked by an assignment (`a, b = value`)."""

    __slots__ = ("value", "index")

    def __init__(self, value: "_Value", index: int):
        self.value, self.index = value, index


class _Value:
    """An expression on the stack at the start of a statement's stores."""

    __slots__ = ("node",)

    def __init__(self, node: ast.expr):
        self.node = node


class _Reading:
    """The symbolic run of one code object: the stack of expressions, the statements made."""

    def __init__(self, code: types.CodeType):
        self.code = code
        self.stack: list[Any] = []
        self.body: list[ast.stmt] = []
        self.line = code.co_firstlineno
        self.statement_line = self.line
        self.stores: list[tuple[str, Any]] = []  # (name, what it took) of the statement being stored
        self.group: list[Any] | None = None  # the values the statement being stored stores
        self.kw_names: tuple[str, ...] = ()
        self.returned = False

    def fail(self, what: str, detail: str = "") -> Unreadable:
        return Unreadable(f"{what} (line {self.line}{': ' + detail if detail else ''})")

    def push(self, node: Any) -> None:
        if not self.stack and not self.stores:
            self.statement_line = self.line
        self.stack.append(node)

    def pop(self) -> Any:
        if not self.stack:
            raise self.fail("code this reader does not take")
        return self.stack.pop()

    def expr(self) -> ast.expr:
        """The expression on top of the stack."""
        return self.as_expr(self.pop())

    def exprs(self, n: int) -> list[ast.expr]:
        out = [self.expr() for _ in range(n)]
        out.reverse()
        return out

    def statement(self, stmt: ast.stmt) -> None:
        stmt.lineno = self.statement_line  # type: ignore[attr-defined]
        self.body.append(stmt)

    def store(self, name: str) -> None:
        """`STORE_FAST name`: the assignment is made when the stack is back to empty."""
        self.begin_stores()
        self.stores.append((name, self.pop()))
        if not self.stack:
            self.assignment()

    def begin_stores(self) -> None:
        """At a statement's first store (or the reordering before it), the values on the
        stack, in the order they were written, are what it stores."""
        if self.group is None:
            self.group = [x if isinstance(x, _Unpacked) else _Value(self.as_expr(x)) for x in self.stack]
            self.stack = list(self.group)

    def as_expr(self, x: Any) -> ast.expr:
        if not isinstance(x, ast.expr):
            raise self.fail("code this reader does not take")
        return x

    def assignment(self) -> None:
        """The `ast.Assign` of the stores made since the stack was last empty: one name, the
        names an unpacked value gives in order, or the names of a tuple of values in order."""
        stores, self.stores = self.stores, []
        group, self.group = self.group or [], None
        took = [t for _, t in stores]
        if len(stores) == 1 and isinstance(took[0], _Value):
            self.statement(ast.Assign([ast.Name(stores[0][0], ast.Store())], took[0].node))
            return
        if all(isinstance(t, _Unpacked) for t in took) and len({id(t.value) for t in took}) == 1 \
                and sorted(t.index for t in took) == list(range(len(took))):
            names = [name for name, _ in sorted(stores, key=lambda s: s[1].index)]
            value = took[0].value.node
        elif all(isinstance(t, _Value) for t in took) and len({id(t) for t in took}) == len(took):
            order = {id(v): i for i, v in enumerate(group)}
            if set(order) != {id(t) for t in took}:
                raise self.fail("an assignment this reader does not take")
            pairs = sorted(stores, key=lambda s: order[id(s[1])])
            names = [name for name, _ in pairs]
            value = ast.Tuple([v.node for v in group], ast.Load())
        else:
            raise self.fail("an assignment this reader does not take")
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())
        self.statement(ast.Assign([target], value))

    def call(self, args: list[ast.expr], keywords: list[ast.keyword]) -> None:
        """A call of the callable below `args` (its NULL slot where the version puts it)."""
        if _NULL_AFTER:
            if self.pop() is not _NULL:
                raise self.fail("code this reader does not take")
            func = self.expr()
        else:
            func = self.expr()
            if _NULL_SLOT and self.pop() is not _NULL:
                raise self.fail("code this reader does not take")
        self.push(ast.Call(func, args, keywords))

    def callable_with_slot(self, node: ast.expr) -> None:
        """A callable loaded with its NULL slot."""
        if _NULL_AFTER:
            self.push(node)
            self.push(_NULL)
        else:
            self.push(_NULL)
            self.push(node)

    def run(self, inst: dis.Instruction) -> None:
        op, arg, val = inst.opname, inst.arg, inst.argval
        node: ast.expr
        if op in _SKIP:
            return
        if self.returned:
            raise self.fail("code after the return")
        if op == "LOAD_CONST":
            self.push(_constant(val))
        elif op in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF"):
            self.push(ast.Name(val, ast.Load()))
        elif op == "LOAD_FAST_LOAD_FAST":
            for name in val:
                self.push(ast.Name(name, ast.Load()))
        elif op == "LOAD_GLOBAL":
            node = ast.Name(val, ast.Load())
            if _NULL_SLOT and arg is not None and arg & 1:
                self.callable_with_slot(node)
            else:
                self.push(node)
        elif op == "LOAD_ATTR":
            node = ast.Attribute(self.expr(), val, ast.Load())
            if sys.version_info >= (3, 12) and arg is not None and arg & 1:  # a method: with its slot
                self.callable_with_slot(node)
            else:
                self.push(node)
        elif op == "LOAD_METHOD":
            node = ast.Attribute(self.expr(), val, ast.Load())
            self.push(_NULL)
            self.push(node)
        elif op == "PUSH_NULL":
            self.push(_NULL)
        elif op == "STORE_FAST":
            self.store(val)
        elif op == "STORE_FAST_STORE_FAST":
            for name in val:
                self.store(name)
        elif op == "STORE_FAST_LOAD_FAST":
            self.store(val[0])
            self.push(ast.Name(val[1], ast.Load()))
        elif op == "UNPACK_SEQUENCE":
            unpacked = _Value(self.expr())
            if self.stack:
                raise self.fail("an assignment this reader does not take")
            for i in reversed(range(arg or 0)):
                self.push(_Unpacked(unpacked, i))
        elif op in ("ROT_TWO", "ROT_THREE", "ROT_FOUR", "ROT_N", "SWAP"):
            self.reorder(op, arg)
        elif op == "POP_TOP":
            node = self.expr()
            if self.stack:
                raise self.fail("code this reader does not take")
            self.statement(ast.Expr(node))
        elif op == "RETURN_VALUE":
            self.returned_value(self.expr())
        elif op == "RETURN_CONST":
            self.statement_line = self.line
            self.returned_value(_constant(val))
        elif op in ("BUILD_LIST", "BUILD_TUPLE"):
            items = self.exprs(arg or 0)
            self.push(ast.List(items, ast.Load()) if op == "BUILD_LIST" else ast.Tuple(items, ast.Load()))
        elif op in ("LIST_EXTEND", "LIST_APPEND"):
            item = self.expr()
            target = self.stack[-arg] if arg and len(self.stack) >= arg else None
            if not isinstance(target, ast.List):
                raise self.fail("code this reader does not take")
            if op == "LIST_APPEND":
                target.elts.append(item)
            elif isinstance(item, ast.Tuple) and all(isinstance(e, (ast.Constant, ast.Tuple)) for e in item.elts):
                target.elts.extend(item.elts)  # a list display of constants, folded to one tuple
            else:
                target.elts.append(ast.Starred(item, ast.Load()))
        elif op == "LIST_TO_TUPLE" or op == "CALL_INTRINSIC_1" and inst.argrepr == "INTRINSIC_LIST_TO_TUPLE":
            node = self.expr()
            if not isinstance(node, ast.List):
                raise self.fail("code this reader does not take")
            self.push(ast.Tuple(node.elts, ast.Load()))
        elif op == "CALL_INTRINSIC_1" and inst.argrepr == "INTRINSIC_UNARY_POSITIVE":
            self.push(ast.UnaryOp(ast.UAdd(), self.expr()))
        elif op in ("CALL", "CALL_FUNCTION", "CALL_METHOD"):
            args = self.exprs(arg or 0)
            names, self.kw_names = self.kw_names, ()
            self.finish_call(args, names, op == "CALL_FUNCTION" or op == "CALL_METHOD")
        elif op == "KW_NAMES":
            self.kw_names = self.code.co_consts[arg or 0]
        elif op in ("CALL_KW", "CALL_FUNCTION_KW"):
            node = self.expr()
            if not isinstance(node, ast.Tuple):
                raise self.fail("code this reader does not take")
            args = self.exprs(arg or 0)
            keys = tuple(str(e.value) for e in node.elts if isinstance(e, ast.Constant))
            self.finish_call(args, keys, op == "CALL_FUNCTION_KW")
        elif op == "CALL_FUNCTION_EX":
            keywords = []
            if arg and arg & 1:  # keywords beside a starred argument, as a dict display
                node = self.expr()
                if not isinstance(node, ast.Dict) or not all(isinstance(k, ast.Constant) for k in node.keys):
                    raise self.fail("a call with ** arguments")
                keywords = [ast.keyword(str(k.value), v) for k, v in zip(node.keys, node.values)
                            if isinstance(k, ast.Constant)]
            node = self.expr()
            items = node.elts if isinstance(node, ast.Tuple) else [ast.Starred(node, ast.Load())]
            if sys.version_info < (3, 11):
                self.push(ast.Call(self.expr(), items, keywords))
            else:
                self.call(items, keywords)
        elif op in _UNARY:
            self.push(ast.UnaryOp(_UNARY[op](), self.expr()))
        elif op == "BINARY_OP" and inst.argrepr in _BINARY or op in _BINARY_310:
            right, left = self.expr(), self.expr()
            self.push(ast.BinOp(left, _BINARY[inst.argrepr if op == "BINARY_OP" else _BINARY_310[op]](), right))
        elif op == "BINARY_SUBSCR":
            index, node = self.expr(), self.expr()
            self.push(ast.Subscript(node, index, ast.Load()))
        elif op == "BINARY_SLICE":
            upper, lower, node = self.expr(), self.expr(), self.expr()
            self.push(ast.Subscript(node, ast.Slice(_none(lower), _none(upper)), ast.Load()))
        elif op == "BUILD_SLICE":
            parts = [_none(e) for e in self.exprs(arg or 0)]
            self.push(ast.Slice(*parts))
        elif op == "COMPARE_OP" and inst.argrepr.removeprefix("bool(").removesuffix(")") in _COMPARE:
            right, left = self.expr(), self.expr()
            self.push(ast.Compare(left, [_COMPARE[inst.argrepr.removeprefix("bool(").removesuffix(")")]()], [right]))
        elif op in ("IS_OP", "CONTAINS_OP"):
            right, left = self.expr(), self.expr()
            cmp = (ast.IsNot if arg else ast.Is) if op == "IS_OP" else (ast.NotIn if arg else ast.In)
            self.push(ast.Compare(left, [cmp()], [right]))
        elif op == "BUILD_MAP":
            flat = self.exprs(2 * (arg or 0))
            self.push(ast.Dict(flat[0::2], flat[1::2]))  # type: ignore[arg-type]
        elif op == "BUILD_CONST_KEY_MAP":
            node = self.expr()
            values = self.exprs(arg or 0)
            if not isinstance(node, ast.Tuple):
                raise self.fail("code this reader does not take")
            self.push(ast.Dict(list(node.elts), values))  # type: ignore[arg-type]
        elif op.startswith("INPLACE_"):
            raise self.fail("an augmented assignment")
        else:
            raise self.fail(_MEANING.get(op, f"an instruction this reader does not take ({op})"))

    def finish_call(self, args: list[ast.expr], names: tuple[str, ...], no_slot: bool) -> None:
        keywords = []
        if names:
            values = args[len(args) - len(names):]
            args = args[:len(args) - len(names)]
            keywords = [ast.keyword(n, v) for n, v in zip(names, values)]
        if no_slot:  # 3.10: CALL_FUNCTION has none; CALL_METHOD the slot LOAD_METHOD left
            func = self.expr()
            if self.stack and self.stack[-1] is _NULL:
                self.pop()
            self.push(ast.Call(func, args, keywords))
        else:
            self.call(args, keywords)

    def reorder(self, op: str, arg: int | None) -> None:
        """`ROT_*`/`SWAP`: a tuple's values put in the order of the stores that follow."""
        self.begin_stores()
        s = self.stack
        if op == "SWAP":
            n = arg or 2
            if len(s) < n:
                raise self.fail("code this reader does not take")
            s[-1], s[-n] = s[-n], s[-1]
            return
        n = {"ROT_TWO": 2, "ROT_THREE": 3, "ROT_FOUR": 4}.get(op, arg or 2)
        if len(s) < n:
            raise self.fail("code this reader does not take")
        s[-n:] = [s[-1], *s[-n:-1]]

    def returned_value(self, value: ast.expr) -> None:
        if self.stack:
            raise self.fail("code this reader does not take")
        returned = None if isinstance(value, ast.Constant) and value.value is None else value
        self.statement(ast.Return(returned))
        self.returned = True


def _none(e: ast.expr) -> ast.expr | None:
    return None if isinstance(e, ast.Constant) and e.value is None else e


#: Instructions of code that branches or loops, besides the jumps.
_BRANCHING = {"FOR_ITER", "SEND", "SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH", "BEFORE_WITH"}


def function_body(fn: types.FunctionType) -> list[ast.stmt]:
    """The statements of `fn`'s body (each with its `lineno`), as the compiler read them;
    `Unreadable` for code that branches, loops or uses what this reader does not take."""
    code = fn.__code__
    reading = _Reading(code)
    line = code.co_firstlineno
    lined = []
    for inst in dis.get_instructions(code):
        positions = getattr(inst, "positions", None)
        start = positions.lineno if positions is not None else inst.starts_line
        if start is not None and start is not False and start is not True:
            line = start
        lined.append((line, inst))
    for line, inst in lined:  # functions made inside, then control flow: other reasons follow from these
        if inst.opname in ("MAKE_FUNCTION", "LOAD_FAST_AND_CLEAR"):  # the latter: 3.12's inlined comprehension
            reading.line = line
            raise reading.fail("a lambda, comprehension or nested function")
    for line, inst in lined:
        if "JUMP" in inst.opname or inst.opname in _BRANCHING:
            reading.line = line
            raise reading.fail("a branch or loop", "an if, for, while, try or with, a conditional expression, "
                                                   "`and`/`or`, or a chained comparison")
    if getattr(code, "co_exceptiontable", b""):
        raise Unreadable("a try or with statement")
    for line, inst in lined:
        reading.line = line
        reading.run(inst)
    if not reading.returned:
        raise reading.fail("no return at the end")
    return reading.body
