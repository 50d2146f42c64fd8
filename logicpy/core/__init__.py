"""logicpy's relational core: kanren's API and logicpy's own relations in one import.

    >>> from logicpy.core import run, var, eq
    >>> x = var()
    >>> run(1, x, eq(x, 5))
    (5,)

logicpy's `var`/`vars` (always fresh) replace kanren's interned ones, its `neq` is dif/2 on
its own store (kanren's splits a unifier into one disequality per binding and mutates the
state a `conde` hands to every branch), unification is Prolog's term identity (1, 1.0 and
True are three terms) in logicpy's states only (`unify`, `reify` and the states are
`equality`'s; plain kanren keeps its own), and logicpy's `membero`, `appendo`, `rembero`,
`permuteo` replace kanren's (iterative, relational in every mode); kanren's stay reachable as `kanren.membero` etc.
`run`, `eq`, `conde`, `lall`/`conj`, `lany`/`disj` and `Zzz` are logicpy's search
(`streams`): kanren's meaning, with no Python recursion per level of a user's recursion,
conjunction linear in its answers, `@relation`, `eq_oc`, time limits and checked arguments. kanren's `Relation`/`facts` are not
re-exported: `Table` replaces them (it keeps constraints and uses its indexes).
The finite-domain goals, `Table`, `tabled` and exact cover are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from . import equality  # noqa: F401  first: registers logicpy's state types with unification
from kanren import conso, heado, itero, nullo, tailo
from kanren.core import fail, succeed
from unification import Var, isvar

from .answers import Answer, answers, show
from .clauses import NotCompiledWarning
from .disequality import disequalities, neq, typeo
from .equality import reify, unify
from .control import conda, condu, ifa, onceo, unique_by
from .fd import RELATIONS as _fd_relations
from .fd import __all__ as _fd_all
from .meta import atomico, groundo, nonvaro, numbero, project, varo
from .procedures import explain, relation
from .streams import SearchTimeout, Zzz, conde, conj, disj, eq, eq_oc, lall, lany, run
from .lists import adjacento, appendo, distincto, lengtho, membero, nth1o, permuteo, rembero, selecto
from .residual import Residual, answers_with_constraints, reify_with_constraints
from .terms import String, cons, format_term, from_json, parse_term, to_json, var, vars

__all__ = [
    # logicpy's search (logicpy.core.streams): kanren's names, without recursion or quadratic conjunction
    "run", "eq", "eq_oc", "conde", "lall", "lany", "conj", "disj", "relation", "Zzz", "SearchTimeout",
    "NotCompiledWarning",  # said once for a relation whose body is not compiled (it runs as written)
    "explain",  # how a call of a relation runs: its loop, its clauses compiled and indexed, or as written
    # kanren: primitives
    "neq", "fail", "succeed",
    # kanren: terms and their structure
    "Var", "isvar", "reify", "unify", "cons", "conso", "heado", "tailo", "nullo", "itero", "typeo",
    # logicpy: terms (see logicpy.core.terms for the representation)
    "var", "String", "format_term", "parse_term", "to_json", "from_json",  # `vars` too, by name only (not
    # exported by `*`, which would shadow Python's builtin)
    # logicpy: lists
    "membero", "appendo", "lengtho", "selecto", "rembero", "permuteo", "distincto", "nth1o", "adjacento",
    # logicpy: control
    "onceo", "unique_by", "conda", "condu", "ifa",
    # logicpy: non-relational goals on the current state
    "project", "varo", "nonvaro", "groundo", "atomico", "numbero",
    # logicpy: disequality, and answers with their residual constraints
    "disequalities", "Residual", "answers_with_constraints", "reify_with_constraints",
    # logicpy: answers shown with their constraints (`_0 :- dif(_0, 1)`)
    "answers", "Answer", "show",
    # logicpy: facts and tabling
    "Table", "tabled",
    # logicpy: exact cover
    "ExactCover", "exact_covero",
]
__all__ += _fd_all

#: The names of `__all__` that are relations (functions of terms returning a goal, usable
#: from the toplevel's queries); the rest run searches, build terms or take goals.
RELATIONS = (
    "eq", "eq_oc", "neq", "conso", "heado", "tailo", "nullo", "itero", "typeo",
    "membero", "appendo", "lengtho", "selecto", "rembero", "permuteo", "distincto", "nth1o", "adjacento",
    "varo", "nonvaro", "groundo", "atomico", "numbero", "exact_covero", *_fd_relations,
)

if TYPE_CHECKING:
    from .cover import ExactCover, exact_covero
    from .facts import Table
    from .fd import *  # noqa: F401,F403  finite-domain constraints; names in fd.__all__
    from .tabling import tabled

#: Names imported from their module when first asked for.
_MODULE_OF = {
    "ExactCover": ".cover", "exact_covero": ".cover", "Table": ".facts", "tabled": ".tabling",
    **dict.fromkeys(_fd_all, ".fd"),
}


__getattr__, __dir__ = lazy_names(__name__, _MODULE_OF, __all__)
