"""Finite-domain constraints with propagation, as kanren goals (clpfd's idea on kanren).

Domains are finite sets of ints of any size (bitsets when compact, sorted intervals
otherwise) in an `FDStore`, a kanren `ConstraintStore`, so FD goals compose with `eq`,
`neq` and `conde`: a binding by `eq` wakes the propagators of
the bound variable, and an `eq` outside a domain fails. Every change propagates to a
fixpoint; `labelo` searches, first-fail by default. Unlabelled variables reify to their
residual domains (`~x in {1..3}`).
"""

from .goals import (
    STRATEGIES,
    abs_diffo,
    all_differento,
    domo,
    elemento,
    eq_offseto,
    inso,
    labelo,
    leqo,
    lto,
    neq_offseto,
    not_abs_diffo,
    post,
    sumo,
    tableo,
    producto,
    fdo,
    reif_leqo,
    reif_lto,
    reif_eqo,
    noto,
    ando,
    oro,
    xoro,
    impo,
)
from .channel import Channel, channelo
from .disjunction import Disjunction, disjo
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
    "labelo", "STRATEGIES",
    # the store, residuals, and extending it with a new constraint
    "Domain", "FDVar", "FDStore", "FDState", "Propagator", "Inconsistent", "post",
]
