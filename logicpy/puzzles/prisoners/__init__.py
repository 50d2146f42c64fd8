"""Dudeney's nine prisoners and resolvable designs: who walks with whom, day by day.

Vocabulary: a `Design` (people, row length, days, pairs "cuffed" or "row"); a day is a
partition of the people into rows; an `Arrangement` lists the days. `solve(design,
symmetry)` finds one (Algorithm X over (day, row) options), `verify` re-checks it
from scratch, `count(design, symmetry)` and `distinct(design)` count them (days as options,
met in the middle; pynauty canonical forms), `render` prints and draws, and
`relations.arrangemento` is the FD model a REPL user can query.
"""

from .counting import completions, count, distinct
from .model import KIRKMAN, PRISONERS, Arrangement, Design, Symmetry
from .solve import arrangements, solve
from .verify import verify

__all__ = ["Design", "Arrangement", "Symmetry", "PRISONERS", "KIRKMAN", "solve", "arrangements", "count",
           "completions", "distinct", "verify"]
