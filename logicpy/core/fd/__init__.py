"""Finite-domain constraints with propagation, as kanren goals (clpfd's idea on kanren).

Domains are finite sets of ints of any size (bitsets when compact, sorted intervals
otherwise) in an `FDStore`, a kanren `ConstraintStore`, so FD goals compose with `eq`,
`neq` and `conde`: a binding by `eq` wakes the propagators of
the bound variable, and an `eq` outside a domain fails. Every change propagates to a
fixpoint; `labelo` searches, first-fail by default. Unlabelled variables reify to their
residual domains (`~x in {1..3}`).

A name is imported from its module when first asked for, so importing the package (and
`logicpy.core`) costs nothing until a program uses finite domains.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import lazy_names

if TYPE_CHECKING:
    from .channel import Channel, channelo
    from .disjunction import Disjunction, disjo
    from .labeling import labelingo
    from .goals import (
        STRATEGIES, abs_diffo, all_differento, ando, domo, elemento, eq_offseto, fdo, impo, inso, labelo, leqo,
        lto, neq_offseto, not_abs_diffo, noto, oro, post, producto, reif_eqo, reif_leqo, reif_lto, sumo, tableo,
        xoro,
    )
    from .store import Domain, FDState, FDStore, FDVar, Inconsistent, Propagator

__all__ = [
    # constraints
    "domo", "inso", "all_differento", "lto", "leqo", "eq_offseto", "neq_offseto",
    "abs_diffo", "not_abs_diffo", "sumo", "producto", "fdo", "elemento", "tableo",
    # reified and boolean constraints (0/1 variables)
    "reif_leqo", "reif_lto", "reif_eqo", "noto", "ando", "oro", "xoro", "impo",
    # constructive disjunction of conjunctions of FD constraints
    "disjo", "Disjunction",
    # two views of one assignment kept in step
    "channelo", "Channel",
    # search
    "labelo", "STRATEGIES", "labelingo",
    # the store, residuals, and extending it with a new constraint
    "Domain", "FDVar", "FDStore", "FDState", "Propagator", "Inconsistent", "post",
]

#: The names of `__all__` that are relations (functions of terms returning a goal): what the
#: toplevel offers to queries.
RELATIONS = (
    "domo", "inso", "all_differento", "lto", "leqo", "eq_offseto", "neq_offseto", "abs_diffo", "not_abs_diffo",
    "sumo", "producto", "fdo", "elemento", "tableo", "reif_leqo", "reif_lto", "reif_eqo", "noto", "ando", "oro",
    "xoro", "impo", "disjo", "channelo", "labelo",
)

#: The module of each public name.
_MODULE_OF = {
    **dict.fromkeys(("Channel", "channelo"), ".channel"),
    **dict.fromkeys(("Disjunction", "disjo"), ".disjunction"),
    "labelingo": ".labeling",
    **dict.fromkeys(("Domain", "FDState", "FDStore", "FDVar", "Inconsistent", "Propagator"), ".store"),
}
_MODULE_OF.update({name: ".goals" for name in __all__ if name not in _MODULE_OF})


__getattr__, __dir__ = lazy_names(__name__, _MODULE_OF, __all__)
