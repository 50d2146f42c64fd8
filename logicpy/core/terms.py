"""logicpy's single term representation, shared by the core, the Prolog bridge and JSON.

    Prolog                 Python (logicpy)
    ---------------------  -----------------------------------------------
    atom  foo              str  "foo"
    integer, float         int (any size), float
    rational 1r3           fractions.Fraction(1, 3)
    string "text"          String("text")
    [a, b]                 list  ["a", "b"]
    [a | T] (partial)      cons("a", T)   (cons package, as kanren uses)
    f(a, B)                tuple ("f", "a", B): the functor name first
    variable               kanren logic variable (`var()`)

Compound terms are tuples so that kanren unifies and reifies them without any
extension, and they stay hashable for tabling and signatures.
"""

from __future__ import annotations

from unification import Var

__all__ = ["var", "vars"]


def var(name: str | None = None) -> Var:
    """A fresh logic variable; `name` is only for display, never shared.

    kanren's own `var("x")` returns the same variable for the same name, silently
    linking two unrelated uses; this one never does.

    >>> var("x") is var("x")
    False
    """
    return Var(prefix=name or "")


def vars(n: int, name: str | None = None) -> list[Var]:
    """`n` fresh logic variables.

    >>> len(set(vars(3)))
    3
    """
    return [var(name) for _ in range(n)]
